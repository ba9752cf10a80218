# SyncSim: two commands do all set-up on a fresh Debian machine.
#   make run   installs missing apt packages, builds in release mode, runs the main job
#   make test  installs missing apt packages, runs the test suite, then PyMax against `syncsim serve`
#              (scripts/pymax-interop.sh: a venv under .build/ with maxapi-python from PyPI)
# Without root and with packages missing, both print the exact apt-get line and exit non-zero.

APT_PACKAGES := pkg-config liblz4-dev libmsgpack-dev libsqlite3-dev libpcap-dev libzstd-dev tshark tcpdump python3-venv
SWIFT ?= swift
# Arguments for `make run`; the default is the main job.
RUN_ARGS ?= run --random 2

.PHONY: run test build deps bench clean

deps:
	@bash scripts/ensure-apt-packages.sh $(APT_PACKAGES)

build: deps
	$(SWIFT) build -c release --product syncsim

run: build
	$(SWIFT) run -c release --skip-build syncsim $(RUN_ARGS)

test: deps
	$(SWIFT) test
	bash scripts/pymax-interop.sh

# `make bench BENCH=wire` runs another benchmark (`syncsim-bench --help` lists them).
BENCH ?= catalog

bench: deps
	$(SWIFT) run -c release syncsim-bench $(BENCH)

clean:
	$(SWIFT) package clean

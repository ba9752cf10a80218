# SyncSim: two commands do all set-up on a fresh Debian machine.
#   make run   installs missing apt packages, builds in release mode, runs the main job
#   make test  installs missing apt packages, runs the test suite
# Without root and with packages missing, both print the exact apt-get line and exit non-zero.

APT_PACKAGES := pkg-config liblz4-dev libmsgpack-dev libsqlite3-dev libpcap-dev tshark tcpdump
SWIFT ?= swift
# Arguments for `make run`; the default is the main job: the catalog, then a short explore pass.
MAIN_RUN_ARGS := run --random 2
RUN_ARGS ?= $(MAIN_RUN_ARGS)
# The main job's explore pass (runs only when RUN_ARGS is the default; `make run EXPLORE_ARGS=` skips it).
EXPLORE_ARGS ?= explore --budget 20s --jobs 2

.PHONY: run test build deps bench clean

deps:
	@bash scripts/ensure-apt-packages.sh $(APT_PACKAGES)

build: deps
	$(SWIFT) build -c release --product syncsim

run: build
	$(SWIFT) run -c release --skip-build syncsim $(RUN_ARGS)
ifeq ($(RUN_ARGS),$(MAIN_RUN_ARGS))
ifneq ($(strip $(EXPLORE_ARGS)),)
	$(SWIFT) run -c release --skip-build syncsim $(EXPLORE_ARGS)
endif
endif

test: deps
	$(SWIFT) test

# `make bench BENCH=wire` runs another benchmark (`syncsim-bench --help` lists them).
BENCH ?= catalog

bench: deps
	$(SWIFT) run -c release syncsim-bench $(BENCH)

clean:
	$(SWIFT) package clean

# SyncSim: two commands do all set-up on a fresh Debian machine.
#   make run   installs missing apt packages, builds in release mode, runs the main job
#   make test  installs missing apt packages, runs PyMax (a real field client) against `syncsim serve`
#              (scripts/pymax-interop.sh: a venv under .build/ with maxapi-python from PyPI), then PyMax over TLS
#              through a terminator, captured and decrypted with its key log (scripts/pymax-tls-interop.sh, root:
#              tcpdump), then the test suite, then `make test-asan-parsers` (the parser suites under
#              AddressSanitizer, a small package of their own: ASanParsers/), then `make fuzz-smoke` (the committed
#              fuzz inputs replayed, 10 s of fuzzing per target; Fuzz/run.sh)
# and, to use the tools from anywhere:
#   make install PREFIX=~/.local   puts syncsim and syncsim-bench in PREFIX/bin (default /usr/local)
#   make wireshark-plugin          puts the SyncSim dissector in Wireshark's personal Lua plugin folder
# and, for reliability work (docs/reliability.md):
#   make fuzz  builds the fuzz targets (Fuzz/) with -sanitize=fuzzer,address, runs each for FUZZ_SECONDS
#   make test-asan / make test-tsan   the suite under AddressSanitizer / the parallel code under ThreadSanitizer
# Without root and with packages missing, both print the exact apt-get line and exit non-zero.

APT_PACKAGES := pkg-config liblz4-dev libmsgpack-dev libsqlite3-dev libpcap-dev libzstd-dev tshark tcpdump python3-venv \
	openssl libssl-dev zlib1g-dev
SWIFT ?= swift
# Arguments for `make run`; the default is the main job: the catalog, then a short explore pass.
MAIN_RUN_ARGS := run --random 2
RUN_ARGS ?= $(MAIN_RUN_ARGS)
# The main job's explore pass (runs only when RUN_ARGS is the default; `make run EXPLORE_ARGS=` skips it).
EXPLORE_ARGS ?= explore --budget 20s --jobs 2

# Fuzzing and sanitizers (docs/reliability.md). `make fuzz FUZZ_TARGETS=fuzz-frames FUZZ_SECONDS=600` runs one.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_TARGETS ?=
# Tests that run the parallel code: `run --jobs`, `sweep`, `explore` (threads live only in the CLI).
TSAN_FILTER ?= RunCommandTests|SweepCommandTests|ExploreCommandTests|ParallelTests

.PHONY: run test build deps bench clean install wireshark-plugin fuzz fuzz-smoke test-asan test-asan-parsers test-tsan

deps:
	@bash scripts/ensure-apt-packages.sh $(APT_PACKAGES)

build: deps
	$(SWIFT) build -c release --product syncsim

run: build
	$(SWIFT) run -c release --skip-build syncsim $(RUN_ARGS)
ifeq ($(RUN_ARGS),$(MAIN_RUN_ARGS))
ifneq ($(strip $(EXPLORE_ARGS)),)
	@$(SWIFT) run -c release --skip-build syncsim $(EXPLORE_ARGS) || echo "make run: explore found failures \
	against the reference engine (each printed above with its reproduce command; docs/explore.md); the catalog's \
	verdict above is make run's exit status"
endif
endif

# PyMax against `syncsim serve`, PyMax over TLS (its capture decrypted with the key log), then the suite (failures and
# a one-line summary; the whole swift test output goes to .build/test-output.log), the parser suites under ASan, then
# the fuzz smoke pass. Every step runs; the last failing step's status is the result.
test: deps
	@rc=0; bash scripts/pymax-interop.sh || rc=$$?; \
	 bash scripts/pymax-tls-interop.sh || rc=$$?; \
	 SWIFT="$(SWIFT)" bash scripts/swift-test-summary.sh || rc=$$?; \
	 $(MAKE) --no-print-directory test-asan-parsers || rc=$$?; \
	 $(MAKE) --no-print-directory fuzz-smoke || rc=$$?; \
	 exit $$rc

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) bash Fuzz/run.sh fuzz $(FUZZ_TARGETS)

fuzz-smoke: deps
	FUZZ_SMOKE_SECONDS=$(FUZZ_SMOKE_SECONDS) SWIFT=$(SWIFT) bash Fuzz/run.sh smoke $(FUZZ_TARGETS)

# Separate scratch paths: a sanitized build never replaces the plain one in .build/debug.
test-asan: deps
	@SWIFT="$(SWIFT)" TEST_LOG=.build/test-asan-output.log bash scripts/swift-test-summary.sh \
		--sanitize=address --scratch-path .build/asan

# The suites whose code reads untrusted bytes (SyncProtocolTests: frame codec, MessagePack, LZ4, zstd;
# SyncTraceTests: pcap/pcapng, reassembly) from ASanParsers/, a package of those modules alone: its sanitized build
# is a few modules, not the whole package. LeakSanitizer is off: XCTest's runner (which runs first and finds no XCTest
# cases) leaves its one-time allocations behind, and those read as leaks and fail the run.
test-asan-parsers: deps
	@ASAN_OPTIONS=detect_leaks=0 SWIFT="$(SWIFT)" TEST_LOG=.build/test-asan-parsers-output.log bash scripts/swift-test-summary.sh \
		--package-path ASanParsers --sanitize=address --scratch-path .build/asan-parsers

test-tsan: deps
	@SWIFT="$(SWIFT)" TEST_LOG=.build/test-tsan-output.log bash scripts/swift-test-summary.sh \
		--sanitize=thread --scratch-path .build/tsan --filter '$(TSAN_FILTER)'

# `make bench BENCH=wire` runs another benchmark (`syncsim-bench --help` lists them).
BENCH ?= catalog

bench: deps
	$(SWIFT) run -c release syncsim-bench $(BENCH)

# `make install PREFIX=DIR` copies the release executables to DIR/bin; put DIR/bin on the PATH. After adding a
# scenario, run it again (the catalog is compiled into the executable).
PREFIX ?= /usr/local

install: deps
	$(SWIFT) build -c release --product syncsim
	$(SWIFT) build -c release --product syncsim-bench
	mkdir -p "$(PREFIX)/bin"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/syncsim" "$(PREFIX)/bin/syncsim"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/syncsim-bench" "$(PREFIX)/bin/syncsim-bench"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on your PATH; add it, e.g. export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac

# Wireshark reads Lua plugins from its personal plugin folder (Help > About > Folders); tshark too.
WIRESHARK_PLUGIN_DIR ?= $(HOME)/.local/lib/wireshark/plugins

wireshark-plugin:
	mkdir -p "$(WIRESHARK_PLUGIN_DIR)"
	install -m 644 tools/wireshark/syncsim.lua "$(WIRESHARK_PLUGIN_DIR)/syncsim.lua"
	@echo "installed $(WIRESHARK_PLUGIN_DIR)/syncsim.lua; try: tshark -r run.pcapng -Y syncsim"

clean:
	$(SWIFT) package clean

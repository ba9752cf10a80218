#!/usr/bin/env bash
# Builds the fuzz targets with -sanitize=fuzzer,address and runs them (docs/reliability.md).
#
#   Fuzz/run.sh build                  build every target
#   Fuzz/run.sh fuzz [target...]       replay the committed inputs, then fuzz each target for FUZZ_SECONDS (60)
#   Fuzz/run.sh smoke [target...]      replay the committed inputs, then fuzz each for FUZZ_SMOKE_SECONDS (10): CI
#   Fuzz/run.sh replay [target...]     replay the committed inputs only (seeds and regression cases)
#
# Environment: FUZZ_CONFIG debug|release (default debug: builds faster; release runs faster),
# FUZZ_SECONDS, FUZZ_SMOKE_SECONDS, FUZZ_TIMEOUT (5 s per input), FUZZ_RSS_MB (512), FUZZ_NICE (0),
# FUZZ_SKIP_BUILD=1 (use the binaries already built),
# SWIFT. A crash, hang (timeout) or memory blow-up fails the run and prints the reproducer and the command
# that reruns it. Working corpora and artifacts live under .build/fuzz-work/<target>/ (not committed);
# Fuzz/Corpus/<target>/ holds the seeds, Fuzz/Regressions/<target>/ every input that once failed.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
CONFIG=${FUZZ_CONFIG:-debug}
SECONDS_EACH=${FUZZ_SECONDS:-60}
SMOKE_SECONDS=${FUZZ_SMOKE_SECONDS:-10}
TIMEOUT=${FUZZ_TIMEOUT:-5}
RSS_MB=${FUZZ_RSS_MB:-512}
NICE=${FUZZ_NICE:-0}
SCRATCH=.build/fuzz
WORK=.build/fuzz-work
# The Swift runtime's backtracer would catch the abort before libFuzzer and ASan can report it.
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer off: the Swift runtime's one-time caches read as leaks. A 64 MB quarantine instead of 256 MB: freed
# memory parked there counts towards the 512 MB RSS limit (the client target replaying its corpus peaks near 185 MB).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:quarantine_size_mb=64}

ALL_TARGETS=$(sed -n 's/^    "\(fuzz-[a-z0-9-]*\)",$/\1/p' Fuzz/Package.swift)

build() {
    local products=()
    for target in "$@"; do products+=(--product "$target"); done
    local log=$WORK/build-$CONFIG.log
    mkdir -p "$WORK"
    for target in "$@"; do
        if ! nice -n "$NICE" "$SWIFT" build -c "$CONFIG" --package-path Fuzz --scratch-path "$SCRATCH" \
            -Xswiftc -sanitize=fuzzer,address --product "$target" > "$log" 2>&1; then
            grep -v 'Cannot export local symbol' "$log" | tail -40
            echo "fuzz: building $target failed (log: $log)" >&2
            exit 1
        fi
    done
}

binary() { echo "$SCRATCH/$CONFIG/$1"; }

# Runs libFuzzer for one target; on failure prints the reproducer and the rerun command.
run_target() {
    local target=$1 seconds=$2
    local work=$WORK/$target
    mkdir -p "$work/corpus" "$work/artifacts"
    local log=$work/$command.log
    [[ $seconds == 0 ]] && log=$work/replay.log
    local inputs=()
    for dir in "Fuzz/Corpus/$target" "Fuzz/Regressions/$target"; do
        [[ -d $dir ]] && inputs+=("$dir")
    done
    local args=(-timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" -malloc_limit_mb="$RSS_MB"
        -artifact_prefix="$work/artifacts/" -print_final_stats=1)
    # Input size caps: captures over 8 KiB cost more than they find (seeds are cut to it); the state-machine
    # targets stop after a few hundred steps anyway.
    case $target in
        fuzz-pcap) args+=(-max_len=8192) ;;
        fuzz-server|fuzz-client) args+=(-max_len=2048) ;;
    esac
    local status=0
    if [[ $seconds == 0 ]]; then
        # Replay: every committed input once (directories are read, nothing is written).
        nice -n "$NICE" "$(binary "$target")" "${args[@]}" -runs=0 "${inputs[@]}" > "$log" 2>&1 || status=$?
    else
        # The smoke pass starts from the committed inputs only, so its time stays bounded however large the
        # working corpus of earlier long runs grew.
        local corpus=$work/corpus
        if [[ $command == smoke ]]; then
            corpus=$work/smoke-corpus
            rm -rf "$corpus"
            mkdir -p "$corpus"
            # A fixed seed (FUZZ_SMOKE_SEED, default 1): CI's pass mutates the same way on every machine, so a red
            # smoke pass is reproducible rather than the luck of a time-based seed. `make fuzz` keeps random seeds.
            args+=(-seed="${FUZZ_SMOKE_SEED:-1}")
        fi
        nice -n "$NICE" "$(binary "$target")" "${args[@]}" -max_total_time="$seconds" \
            "$corpus" "${inputs[@]}" > "$log" 2>&1 || status=$?
    fi
    local runs rate
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [[ $status != 0 ]]; then
        local artifact
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        grep -E 'FUZZ FAILURE|ERROR: |SUMMARY|Fatal error|ALARM|out-of-memory|deadly signal' "$log" | head -8 >&2
        echo "fuzz: $target FAILED (exit $status; log $log)" >&2
        if [[ -n $artifact ]]; then
            echo "fuzz: reproducer: $artifact" >&2
            echo "fuzz: rerun: SWIFT_BACKTRACE=enable=no $(binary "$target") $artifact" >&2
            echo "fuzz: after fixing, commit it: cp $artifact Fuzz/Regressions/$target/" >&2
        fi
        return 1
    fi
    printf 'fuzz: %-14s ok  %10s executions  %6s exec/s  (%s s)\n' "$target" "${runs:-?}" "${rate:-?}" "$seconds"
}

command=${1:-fuzz}
shift || true
targets=("$@")
[[ ${#targets[@]} == 0 ]] && read -r -a targets <<< "$(echo $ALL_TARGETS)"

[[ ${FUZZ_SKIP_BUILD:-0} == 1 ]] || build "${targets[@]}"
[[ $command == build ]] && exit 0
failed=0
for target in "${targets[@]}"; do
    case $command in
        fuzz) run_target "$target" 0 && run_target "$target" "$SECONDS_EACH" || failed=1 ;;
        smoke) run_target "$target" 0 && run_target "$target" "$SMOKE_SECONDS" || failed=1 ;;
        replay) run_target "$target" 0 || failed=1 ;;
        *) echo "usage: Fuzz/run.sh build|fuzz|smoke|replay [target...]" >&2; exit 2 ;;
    esac
done
exit $failed

#!/usr/bin/env bash
# `make test`: runs `swift test` and prints what a person or CI needs: build errors and warnings, every failed test
# with its issues, swift test's own closing line, then one summary line `make test: N passed, N failed ...`.
# Noise is cut: build progress, "started" lines (also those whose test arguments span several lines), one line per
# passing test or suite, XCTest's empty "Executed 0 tests" report (the suite is Swift Testing only), the details of
# an expected failure (a known issue keeps its one header line), and the linker's warnings about the AddressSanitizer
# runtime's local symbols. The whole output is kept in .build/test-output.log.
# Exit status: swift test's own.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
log=${TEST_LOG:-.build/test-output.log}  # TEST_LOG: for the script's own test
"${SWIFT:-swift}" test "$@" 2>&1 | tee "$log" | awk '
    # A started or passed line whose arguments hold line breaks: skipped up to the line that ends it.
    inArguments { if (/ started\.$/ || / passed after [0-9.]+ seconds\.$/) inArguments = 0; next }
    /^[^ ]+ Test case passing / && !/ started\.$/ && !/ passed after [0-9.]+ seconds\.$/ && !/ (failed|recorded)/ {
        inArguments = 1; next
    }
    # A known issue (an expected failure): its header line is kept, its details are not.
    inKnownIssue && (/^↳ / || /^[[:space:]]/) { next }
    { inKnownIssue = 0 }
    / recorded a known issue at / { inKnownIssue = 1; print; fflush(); next }
    /ld\.gold: warning: Cannot export local symbol .__asan/ { next }   # the ASan runtime, harmless
    /^\[[0-9]+\/[0-9]+\] / { next }                       # build progress
    /^Building for debugging/ || /^Build complete/ { next }
    /^[[:space:]]*Test Suite .* (started|passed) at / { next }         # XCTest with no XCTest cases
    /^[[:space:]]*Executed 0 tests/ { next }
    /^[^ ]+ \/\/\// { next }                                   # the doc comment of a failed suite
    /^[^ ]+ Test run started\./ { next }
    /^[^ ]+ (Test|Suite) .* started\.$/ { next }
    /^[^ ]+ Suite .* passed after / { next }
    /^[^ ]+ Test run with / { print; fflush(); next }       # swift test closing line: kept
    /^[^ ]+ Test .* passed after / { next }
    /Testing Library Version:/ || /Target Platform:/ { next }
    { print; fflush() }
'
status=${PIPESTATUS[0]}
# Swift Testing prints one "passed after" or "failed after" line per test function (not per argument).
passed=$(grep -E '^[^ ]+ Test .* passed after ' "$log" | grep -vc ' Test run with ')
failed=$(grep -E '^[^ ]+ Test .* failed after ' "$log" | grep -vc ' Test run with ')
echo "make test: $passed passed, $failed failed (swift test exit $status; full output in $log)"
exit "$status"

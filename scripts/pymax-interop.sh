#!/usr/bin/env bash
# Interoperability test with a real field client: PyMax (PyPI maxapi-python 2.5.0, MIT) runs its whole session
# against `syncsim serve`, once in the mobile device shape and once in the web shape, in parallel.
# Creates a virtual environment under .build/ and installs the pinned PyMax there (needs python3-venv and PyPI).
# Usage: bash scripts/pymax-interop.sh [--ping-seconds N]   (default 75: PyMax pings every 30 s, fixed)
# Prints one line per shape, or the step and frames where a session broke; exit 0 when both passed, else 1.
set -euo pipefail
cd "$(dirname "$0")/.."

PYMAX_VERSION=2.5.0
PING_SECONDS=75
if [ "${1:-}" = "--ping-seconds" ]; then PING_SECONDS="$2"; fi

VENV=.build/pymax-venv
if ! "$VENV/bin/python" -c "import importlib.metadata as m; assert m.version('maxapi-python') == '$PYMAX_VERSION'" \
    2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "maxapi-python==$PYMAX_VERSION"
fi

swift build --product syncsim >/dev/null
SYNCSIM="$(swift build --show-bin-path)/syncsim"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/syncsim-pymax.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

pids=()
for shape in mobile web; do
    "$VENV/bin/python" Tests/Interop/pymax_session.py --syncsim "$SYNCSIM" --shape "$shape" \
        --workdir "$WORK/$shape" --ping-seconds "$PING_SECONDS" >"$WORK/$shape.out" 2>"$WORK/$shape.err" &
    pids+=($!)
done

failed=0
passed=0
for index in 0 1; do
    shape=$([ "$index" = 0 ] && echo mobile || echo web)
    if wait "${pids[$index]}"; then
        passed=$((passed + 1))
        cat "$WORK/$shape.out"
    else
        failed=$((failed + 1))
        cat "$WORK/$shape.out"
        echo "--- PyMax's own log ($shape), last 30 lines:"
        tail -n 30 "$WORK/$shape.err"
        echo "--- syncsim serve's log ($shape), last 15 lines:"
        tail -n 15 "$WORK/$shape/serve.log" 2>/dev/null || true
    fi
done
echo "pymax-interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

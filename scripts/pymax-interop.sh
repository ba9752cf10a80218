#!/usr/bin/env bash
# Interoperability test with a real field client: PyMax (PyPI maxapi-python, MIT) runs its whole session against
# `syncsim serve`, in the mobile device shape, in the web shape and through its WebSocket client (`WebClient`: binary
# frames in WebSocket messages for 2.5.0, JSON text for 2.1.0), plain and with permessage-deflate agreed
# (`serve --websocket-deflate`), for each PyMax version under test: the pinned 2.5.0
# and the older 2.1.0 (whose LOGIN answer model requires `token`), all sessions in parallel; and the 1.x line's
# 1.2.5 (Tests/Interop/pymax1_session.py: its `MaxClient`, JSON frames over WebSocket, and its `SocketMaxClient`,
# 1.x's own binary header over TCP in TLS through a terminator), whose venv also gets `requests`, which 1.2.5 imports
# without naming it in its metadata. Beside PyMax, a field client written apart from it: vkmax (PyPI vkmax 1.0.2,
# Tests/Interop/vkmax_session.py: JSON over WebSocket, string message ids, CONTACT_INFO), and its fork
# python-max-client (PyPI python-max-client 1.0.2, the same driver with --package: multipart uploads, downloads, read
# marks), and MaxBridge (PyPI maxbridge 1.8.0 and 1.5.4, Tests/Interop/maxbridge_session.py: CHAT_SUBSCRIBE, a contact by
# phone, downloads over HTTP GET).
# Creates one virtual environment per version under .build/ and installs the client there (needs python3-venv and
# PyPI).
# Usage: bash scripts/pymax-interop.sh [--ping-seconds N] [--versions "2.5.0 2.1.0 1.2.5"] [--vkmax "1.0.2"]
#        [--python-max-client "1.0.2"] [--maxbridge "1.8.0 1.5.4"]
#        (ping default 75: PyMax pings every 30 s, fixed; --vkmax "" leaves vkmax out, --python-max-client "" its fork,
#        --maxbridge "" MaxBridge)
# Prints one line per version and shape, or the step and frames where a session broke; exit 0 when all passed.
set -euo pipefail
cd "$(dirname "$0")/.."

PYMAX_VERSIONS="2.5.0 2.1.0 1.2.5"
VKMAX_VERSIONS="1.0.2"
FORK_VERSIONS="1.0.2"
MAXBRIDGE_VERSIONS="1.8.0 1.5.4"
PING_SECONDS=75
while [ $# -gt 0 ]; do
    case "$1" in
        --ping-seconds) PING_SECONDS="$2"; shift 2 ;;
        --versions) PYMAX_VERSIONS="$2"; shift 2 ;;
        --vkmax) VKMAX_VERSIONS="$2"; shift 2 ;;
        --python-max-client) FORK_VERSIONS="$2"; shift 2 ;;
        --maxbridge) MAXBRIDGE_VERSIONS="$2"; shift 2 ;;
        *) echo "pymax-interop: unknown option '$1' (--ping-seconds N, --versions \"V ...\", --vkmax \"V ...\"," \
                "--python-max-client \"V ...\", --maxbridge \"V ...\")" >&2
           exit 2 ;;
    esac
done

# ensure_venv DIR PACKAGE VERSION [EXTRA...]: DIR holds PACKAGE==VERSION (and EXTRA), installed once.
ensure_venv() {
    local venv="$1" package="$2" version="$3"
    shift 3
    if ! "$venv/bin/python" -c "import importlib.metadata as m; assert m.version('$package') == '$version'" \
        2>/dev/null; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check "$package==$version" "$@"
    fi
}
for version in $PYMAX_VERSIONS; do
    case "$version" in
        1.*) ensure_venv ".build/pymax-venv-$version" maxapi-python "$version" requests ;;
        *) ensure_venv ".build/pymax-venv-$version" maxapi-python "$version" ;;
    esac
done
for version in $VKMAX_VERSIONS; do
    ensure_venv ".build/vkmax-venv-$version" vkmax "$version"
done
for version in $FORK_VERSIONS; do
    ensure_venv ".build/python-max-client-venv-$version" python-max-client "$version"
done
for version in $MAXBRIDGE_VERSIONS; do
    ensure_venv ".build/maxbridge-venv-$version" maxbridge "$version"
done

swift build --product syncsim >/dev/null
SYNCSIM="$(swift build --show-bin-path)/syncsim"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/syncsim-pymax.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

runs=()
pids=()
for version in $PYMAX_VERSIONS; do
    case "$version" in
        1.*)
            for shape in websocket socket; do
                run="$version-$shape"
                ".build/pymax-venv-$version/bin/python" Tests/Interop/pymax1_session.py --syncsim "$SYNCSIM" \
                    --shape "$shape" --workdir "$WORK/$run" >"$WORK/$run.out" 2>"$WORK/$run.err" &
                runs+=("$run")
                pids+=($!)
            done
            continue ;;
    esac
    for shape in mobile web websocket websocket-deflate; do
        run="$version-$shape"
        ".build/pymax-venv-$version/bin/python" Tests/Interop/pymax_session.py --syncsim "$SYNCSIM" --shape "$shape" \
            --workdir "$WORK/$run" --ping-seconds "$PING_SECONDS" >"$WORK/$run.out" 2>"$WORK/$run.err" &
        runs+=("$run")
        pids+=($!)
    done
done

for version in $VKMAX_VERSIONS; do
    run="vkmax-$version-websocket"
    ".build/vkmax-venv-$version/bin/python" Tests/Interop/vkmax_session.py --syncsim "$SYNCSIM" --workdir "$WORK/$run" \
        >"$WORK/$run.out" 2>"$WORK/$run.err" &
    runs+=("$run")
    pids+=($!)
done
for version in $FORK_VERSIONS; do
    run="python-max-client-$version-websocket"
    ".build/python-max-client-venv-$version/bin/python" Tests/Interop/vkmax_session.py --package python-max-client \
        --syncsim "$SYNCSIM" --workdir "$WORK/$run" >"$WORK/$run.out" 2>"$WORK/$run.err" &
    runs+=("$run")
    pids+=($!)
done
for version in $MAXBRIDGE_VERSIONS; do
    run="maxbridge-$version-websocket"
    ".build/maxbridge-venv-$version/bin/python" Tests/Interop/maxbridge_session.py --syncsim "$SYNCSIM" \
        --workdir "$WORK/$run" >"$WORK/$run.out" 2>"$WORK/$run.err" &
    runs+=("$run")
    pids+=($!)
done

failed=0
passed=0
for index in "${!runs[@]}"; do
    run="${runs[$index]}"
    if wait "${pids[$index]}"; then
        passed=$((passed + 1))
        cat "$WORK/$run.out"
    else
        failed=$((failed + 1))
        cat "$WORK/$run.out"
        echo "--- the client's own log ($run), last 30 lines:"
        tail -n 30 "$WORK/$run.err"
        echo "--- syncsim serve's log ($run), last 15 lines:"
        tail -n 15 "$WORK/$run/serve.log" 2>/dev/null || true
    fi
done
echo "pymax-interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

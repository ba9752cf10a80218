#!/usr/bin/env bash
# TLS captures with a real field client: PyMax (PyPI maxapi-python 2.5.0, MIT) talks TLS, as in the field, to a
# small TLS terminator in front of `syncsim serve` (alice's TCP client, bob's WebClient over wss://); tcpdump records
# both legs on loopback, and
# `syncsim decode/trace-summary/replay --tls-keylog` must give for the encrypted leg what they give for the plain one
# (Tests/Interop/pymax_tls_capture.py says what is checked). Needs root (tcpdump), tshark, openssl, python3-venv.
# Usage: bash scripts/pymax-tls-interop.sh [--fixture-dir DIR]   (DIR gets the capture and key log: Fixtures/tls/)
# Exit 0 when every check passed, else 1.
set -euo pipefail
cd "$(dirname "$0")/.."

PYMAX_VERSION=2.5.0
FIXTURE_ARGS=()
if [ "${1:-}" = "--fixture-dir" ]; then FIXTURE_ARGS=(--fixture-dir "$(realpath -m "$2")"); fi

if [ "$(id -u)" -ne 0 ]; then
    echo "pymax tls: skipped: capturing on loopback with tcpdump needs root (CI runs as root); Fixtures/tls covers decryption"
    exit 0
fi
for tool in tcpdump tshark openssl; do
    if ! command -v "$tool" >/dev/null; then
        echo "pymax tls: $tool is not installed (make deps installs the apt packages)"
        exit 1
    fi
done

VENV=".build/pymax-venv-$PYMAX_VERSION"
if ! "$VENV/bin/python" -c "import importlib.metadata as m; assert m.version('maxapi-python') == '$PYMAX_VERSION'" \
    2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "maxapi-python==$PYMAX_VERSION"
fi

swift build --product syncsim >/dev/null
SYNCSIM="$(swift build --show-bin-path)/syncsim"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/syncsim-pymax-tls.XXXXXX")"
chmod 755 "$WORK"  # tcpdump drops root to write its file
[ -n "${SYNCSIM_KEEP_WORK:-}" ] && echo "pymax tls: work folder $WORK" || trap 'rm -rf "$WORK"' EXIT

# A throw-away certificate for 127.0.0.1 (the name PyMax checks: it connects to the host it is given).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1" -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null

SSL_CERT_FILE="$WORK/cert.pem" SSLKEYLOGFILE="$WORK/session.keys" \
    "$VENV/bin/python" Tests/Interop/pymax_tls_capture.py --syncsim "$SYNCSIM" --workdir "$WORK" \
    --cert "$WORK/cert.pem" --key "$WORK/key.pem" "${FIXTURE_ARGS[@]}" 2>"$WORK/pymax.err" || {
    status=$?
    echo "--- PyMax's own log, last 20 lines:"
    tail -n 20 "$WORK/pymax.err"
    exit $status
}

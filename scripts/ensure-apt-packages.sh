#!/usr/bin/env bash
# Installs the Debian packages named as arguments when any is missing.
# Without root it prints the exact install line and exits 1 instead.
set -euo pipefail
missing=()
for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$pkg")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "error: missing Debian packages: ${missing[*]}" >&2
    echo "install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
echo "installing missing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# tshark pulls in wireshark-common, whose debconf question (may non-root users capture?) is answered up front
# with its default, no, so nothing waits for a terminal even where the noninteractive frontend is not honoured.
if command -v debconf-set-selections >/dev/null 2>&1; then
    echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"

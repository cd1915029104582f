#!/usr/bin/env bash
# Make Debian's Chromium available for the browser tests (tests/browser/).
#
# The tests drive the system Chromium with Playwright's Python package; they never
# download a browser. This script installs the Debian packages `chromium` and
# `chromium-driver` with apt when they are missing and it runs as root; otherwise it
# says what to do. Safe to run again: it does nothing when Chromium is there.
#
#   scripts/install_browser.sh          # as root (CI containers), or
#   sudo scripts/install_browser.sh
#
# Another Chromium binary can be used instead: export MTLEARN_CHROMIUM=/path/to/chromium
set -euo pipefail

PACKAGES=(chromium chromium-driver)

have_chromium() {
    if [ -n "${MTLEARN_CHROMIUM:-}" ]; then
        [ -x "$MTLEARN_CHROMIUM" ]
    else
        command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1
    fi
}

if have_chromium; then
    echo "install_browser: Chromium found: ${MTLEARN_CHROMIUM:-$(command -v chromium || command -v chromium-browser)}"
    exit 0
fi

if [ -n "${MTLEARN_CHROMIUM:-}" ]; then
    echo "install_browser: MTLEARN_CHROMIUM=$MTLEARN_CHROMIUM is not an executable file." >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_browser: Chromium is missing and this is not a Debian/Ubuntu system (no apt-get)." >&2
    echo "  Install Chromium with your package manager, then, if it is not called 'chromium'" >&2
    echo "  or 'chromium-browser' on PATH: export MTLEARN_CHROMIUM=/path/to/chromium" >&2
    exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install_browser: Chromium is missing. Install it with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${PACKAGES[*]}" >&2
    echo "  (or run: sudo $0)" >&2
    echo "Without it the browser tests are skipped on this machine (and fail in CI, where CI=true)." >&2
    exit 1
fi

echo "install_browser: installing ${PACKAGES[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${PACKAGES[@]}"
have_chromium || { echo "install_browser: apt-get ran, but no chromium on PATH" >&2; exit 1; }
echo "install_browser: Chromium installed: $(command -v chromium || command -v chromium-browser)"

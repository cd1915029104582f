#!/usr/bin/env bash
# Make a CJK-capable font available, so the pictures draw Chinese, Japanese and Korean words.
#
# Matplotlib's default font has no CJK glyphs; mtlearn's plots (mtlearn/show/fonts.py) use
# the first installed family of CJK_FAMILIES as a fallback for the texts that need it. This
# script installs Debian's fonts-wqy-microhei (WenQuanYi Micro Hei: Chinese, Japanese kana,
# Korean Hangul; a 1.6 MB download) with apt when no such font is there and it runs as root;
# otherwise it says what to do. Safe to run again: it does nothing when a CJK font is there.
#
#   scripts/install_fonts.sh          # as root (CI containers), or
#   sudo scripts/install_fonts.sh
set -euo pipefail

PACKAGES=(fonts-wqy-microhei)
# The families mtlearn looks for (mtlearn/show/fonts.py, CJK_FAMILIES), as fontconfig names them.
FAMILIES='WenQuanYi Micro Hei|WenQuanYi Zen Hei|Noto Sans CJK|Source Han Sans|Droid Sans Fallback'

# The first CJK family fontconfig lists, or nothing. fc-list's whole output is read into a
# variable first: 'fc-list | grep -q' would stop reading at the first match, and with more
# than a pipe buffer (64 KiB) of fonts fc-list then dies of SIGPIPE, so that under
# 'set -o pipefail' an installed font is not seen (exit 141).
first_cjk_font() {
    local families
    command -v fc-list >/dev/null 2>&1 || return 0
    families=$(fc-list : family 2>/dev/null) || return 0
    grep -m 1 -E "$FAMILIES" <<<"$families" || true
}

have_cjk_font() {
    [ -n "$(first_cjk_font)" ]
}

if have_cjk_font; then
    echo "install_fonts: CJK font found: $(first_cjk_font)"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_fonts: no CJK font, and this is not a Debian/Ubuntu system (no apt-get)." >&2
    echo "  Install one of: WenQuanYi Micro Hei, Noto Sans CJK, Source Han Sans (any CJK font of" >&2
    echo "  mtlearn/show/fonts.py's CJK_FAMILIES); without it CJK characters are drawn as boxes." >&2
    exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install_fonts: no CJK font. Install one with:" >&2
    echo "  sudo apt-get install -y ${PACKAGES[*]}" >&2
    echo "  (or run: sudo $0)" >&2
    echo "Without it CJK characters are drawn as empty boxes and the CJK picture tests are skipped." >&2
    exit 1
fi

echo "install_fonts: installing ${PACKAGES[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
# The package lists are usually there already (the browser's set-up updates them); update only if needed.
apt-get install -y --no-install-recommends "${PACKAGES[@]}" || {
    apt-get update
    apt-get install -y --no-install-recommends "${PACKAGES[@]}"
}
have_cjk_font || { echo "install_fonts: apt-get ran, but fontconfig lists no CJK font" >&2; exit 1; }
echo "install_fonts: CJK font installed: $(first_cjk_font)"

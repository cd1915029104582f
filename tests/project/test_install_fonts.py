"""scripts/install_fonts.sh sees an installed CJK font however long fontconfig's list is.

The script runs with fakes first on PATH: ``fc-list`` prints the font list the case
needs, ``id -u`` says root (so the script would install), and ``apt-get`` only records
that it was called. Under ``set -o pipefail``, ``fc-list | grep -q`` failed with 141 when
fc-list printed more than a pipe buffer (64 KiB) after the matching line: grep stopped
reading, fc-list died of SIGPIPE, and an installed font was not seen.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from repo_paths import REPO

SCRIPT = REPO / "scripts" / "install_fonts.sh"
CJK_FAMILY = "WenQuanYi Micro Hei,文泉驛微米黑"
OTHER_FAMILY = "DejaVu Sans Mono,DejaVu Sans Mono Bold Oblique Condensed"
LIST_BYTES = 1 << 20  # a 1 MiB list: well past a pipe buffer

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="the script needs bash")


def _fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/usr/bin/env bash\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def _run(tmp_path: Path, families: list[str]) -> tuple[subprocess.CompletedProcess, Path]:
    """Run the script with fakes; the families go out first, then other fonts up to :data:`LIST_BYTES`."""
    fakes = tmp_path / "bin"
    fakes.mkdir()
    listing = tmp_path / "families.txt"
    filler = (OTHER_FAMILY + "\n") * (LIST_BYTES // (len(OTHER_FAMILY) + 1))
    listing.write_text("".join(f + "\n" for f in families) + filler, encoding="utf-8")
    record = tmp_path / "apt-get-called"
    # Line by line, as fc-list writes: a write after the reader has gone is killed by SIGPIPE.
    _fake(fakes, "fc-list", f'while IFS= read -r line; do echo "$line"; done < "{listing}"\n')
    _fake(fakes, "id", 'if [ "${1:-}" = "-u" ]; then echo 0; else exec /usr/bin/id "$@"; fi\n')
    _fake(fakes, "apt-get", f'echo "$@" >> "{record}"\n')
    env = {**os.environ, "PATH": f"{fakes}{os.pathsep}{os.environ.get('PATH', '')}"}
    proc = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=120)
    return proc, record


def test_an_installed_cjk_font_is_seen_in_a_long_list(tmp_path):
    proc, record = _run(tmp_path, [CJK_FAMILY])
    assert proc.returncode == 0, proc.stderr
    assert not record.exists(), f"apt-get was called: {record.read_text()}"
    assert "CJK font found: WenQuanYi Micro Hei" in proc.stdout, proc.stdout


def test_no_cjk_font_in_a_long_list_installs_one(tmp_path):
    # The other way round: the check is no 'always found'. As root with no CJK font, apt-get runs;
    # the fake installs nothing, so the script then says fontconfig still lists none.
    proc, record = _run(tmp_path, [])
    assert record.exists() and "fonts-wqy-microhei" in record.read_text()
    assert proc.returncode == 1 and "fontconfig lists no CJK font" in proc.stderr, proc.stderr

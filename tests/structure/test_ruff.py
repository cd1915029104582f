"""ruff's lint rules (pyproject.toml's ``[tool.ruff]``) hold on every Python file of the repository.

The selection: pycodestyle (E, W; lines of at most 110 characters), pyflakes (F), isort (I), bugbear (B) and
McCabe complexity (C90, at most 15, as radon's bound in test_code_structure.py). A failure prints ruff's own
report: the file, line and rule of each finding.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from repo_paths import REPO

#: What ruff checks: the package, the tests, and the scripts that produce or measure its numbers.
CHECKED = ("mtlearn", "tests", "benchmarks", "scripts", "studies")


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None,
                    reason="ruff is not installed (it is in the test extra: pip install -e '.[test]')")
def test_ruff_finds_nothing() -> None:
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *CHECKED], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"ruff check {' '.join(CHECKED)}:\n{done.stdout}{done.stderr}"

"""The shipped WMT22 agreement tables, read plainly (the csv module, no mtlearn): the tests' independent
side."""

from __future__ import annotations

import csv
from pathlib import Path

from repo_paths import REPO

TABLES = REPO / "mtlearn" / "study" / "data" / "wmt22_agreement"


def read(name: str, folder: Path = TABLES) -> list[dict[str, str]]:
    """Every row of the table ``name`` (in ``folder``, the shipped one by default) as a dict of strings."""
    with open(folder / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))

"""Shared fixtures: where the WMT22 data lives, and skipping cleanly where it does not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def wmt22_path() -> Path:
    """``$MTLEARN_WMT22`` if set, else ``../shared/data/wmt22`` beside the repository."""
    env = os.environ.get("MTLEARN_WMT22")
    return Path(env) if env else REPO.parent / "shared" / "data" / "wmt22"


@pytest.fixture(scope="session")
def wmt22() -> Path:
    path = wmt22_path()
    if not (path / "automatic-scores.tsv").is_file():
        pytest.skip(
            f"WMT22 data not found at {path} (it sits in ../shared beside the repository in CI; "
            "set MTLEARN_WMT22 to point elsewhere)"
        )
    return path

"""Where the repository and the WMT22 data are (importable by test modules and conftest files alike)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def wmt22_path() -> Path:
    """``$MTLEARN_WMT22`` if set, else ``../shared/data/wmt22`` beside the repository."""
    env = os.environ.get("MTLEARN_WMT22")
    return Path(env) if env else REPO.parent / "shared" / "data" / "wmt22"

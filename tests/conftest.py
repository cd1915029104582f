"""Shared fixtures: where the WMT22 data lives, and skipping cleanly where it does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from repo_paths import REPO, wmt22_path  # noqa: F401  (re-exported for fixtures)


@pytest.fixture(scope="session")
def wmt22() -> Path:
    path = wmt22_path()
    if not (path / "automatic-scores.tsv").is_file():
        pytest.skip(
            f"WMT22 data not found at {path} (it sits in ../shared beside the repository in CI; "
            "set MTLEARN_WMT22 to point elsewhere)"
        )
    return path


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    # --doctest-modules would import each conftest.py as a module named "conftest",
    # and tests/ and tests/browser/ each have one: they hold fixtures, not doctests.
    return True if collection_path.name == "conftest.py" else None

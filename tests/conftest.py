"""Shared fixtures: where the WMT22 data lives, and skipping cleanly where it does not."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import tiers
from repo_paths import REPO, wmt22_path  # noqa: F401  (re-exported for fixtures)
from second_user import User, make_attacker, make_public_tmp


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true", default=False,
                     help="the full tier: every segment of every WMT22 sweep (make test-full; or "
                          f"{tiers.TIER_ENV}=full)")


def pytest_configure(config: pytest.Config) -> None:
    # The environment carries the tier to test modules (read at import, for their parameters), to
    # pytest-xdist's workers and to the notebooks' kernels.
    if config.getoption("--full"):
        os.environ[tiers.TIER_ENV] = "full"
    if not hasattr(config, "workerinput"):  # the run itself, not one of pytest-xdist's workers
        _empty_browser_artifacts()


def _empty_browser_artifacts() -> None:
    """Earlier runs' browser screenshots go (test-artifacts/browser/*.png); this run's stay, whichever worker
    wrote them."""
    for old in (REPO / "test-artifacts" / "browser").glob("*.png"):
        old.unlink(missing_ok=True)


def pytest_report_header(config: pytest.Config) -> str:
    return tiers.describe()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: tiers.run_order(item.nodeid.split("::", 1)[0]))  # stable: files stay whole
    if tiers.is_full():
        return
    for item in items:
        marker = item.get_closest_marker("full")
        if marker is not None:
            why = marker.kwargs.get("reason", "")
            item.add_marker(pytest.mark.skip(reason="full tier only (make "
                                                    f"test-full){': ' + why if why else ''}"))


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


@pytest.fixture(scope="session")
def attacker() -> Iterator[User]:
    """A second user of the machine for the hostile tests (root only; tests/second_user.py)."""
    yield from make_attacker()


@pytest.fixture
def public_tmp() -> Iterator[Path]:
    """A folder every user can enter (pytest's own tmp_path is private to its owner)."""
    yield from make_public_tmp()

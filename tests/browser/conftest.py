"""Fixtures for the browser tests: a real JupyterLab and a real Chromium.

The tests do what a student does: JupyterLab on 127.0.0.1 (a free port, a random
token) serving a copy of ``notebooks/``, Debian's Chromium driven by Playwright
(``executable_path`` points at the system browser; nothing is downloaded, and no
request may leave 127.0.0.1). The server is always stopped, also when a test
fails; a failing test leaves ``test-artifacts/browser/FAILED-<test>.png``.
Fixtures are module-scoped: the servers and the browser stop when their test
module is done, not at the end of the whole test run.
The machinery lives in ``browser_harness.py``, the student's clicks in
``browser_ui.py``.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_harness import (
    ARTIFACTS,
    CHROMIUM_ARGS,
    NOTEBOOKS,
    PAGE_TIMEOUT_MS,
    Server,
    find_chromium,
    free_port,
    jupyter_lab_argv,
    missing,
    running_server,
    save_screenshot,
    server_env,
)

# --------------------------------------------------------------------------------------
# The browser
# --------------------------------------------------------------------------------------


@dataclass
class Browser:
    """A Chromium context, and the off-machine requests it was stopped from making."""

    context: Any
    blocked: list[str] = field(default_factory=list)

    def new_page(self) -> Any:
        """A new tab with the tests' default timeout."""
        page = self.context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        return page


@pytest.fixture(scope="session")
def fresh_artifacts() -> Path:
    """``test-artifacts/browser/`` (tests/conftest.py empties it of earlier runs' screenshots once per run,
    before any pytest-xdist worker starts, so one worker never deletes another's)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def browser(fresh_artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Debian's Chromium under Playwright, a fresh profile, no request leaves 127.0.0.1."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright's Python package is not installed (pip install playwright)")
    executable = find_chromium()
    if executable is None:
        missing("Chromium not found (looked for $MTLEARN_CHROMIUM, chromium, chromium-browser on PATH)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    playwright = sync_playwright().start()
    try:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=executable, args=list(CHROMIUM_ARGS), headless=True,
            viewport={"width": 1400, "height": 1000},
        )
        result = Browser(context)

        def offline(route: Any) -> None:
            host = urlsplit(route.request.url).hostname or ""
            if host in {"127.0.0.1", "localhost"} or route.request.url.startswith(("data:", "blob:")):
                route.continue_()
            else:
                result.blocked.append(route.request.url)
                route.abort()

        context.route("**/*", offline)
        try:
            yield result
        finally:
            context.close()
    finally:
        playwright.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Keep each phase's report on the item, so fixtures can screenshot a failure."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh tab; closed afterwards, with ``FAILED-<test>.png`` saved if the test failed."""
    tab = browser.new_page()
    try:
        yield tab
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
            try:
                save_screenshot(tab, f"FAILED-{name}")
            except Exception as error:  # noqa: BLE001 - the page may be gone
                print(f"could not save a failure screenshot: {error}")
        tab.close()


# --------------------------------------------------------------------------------------
# JupyterLab
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lab_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``notebooks/`` (outputs the browser writes stay out of the repository)."""
    root = tmp_path_factory.mktemp("lab-root") / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return root


@pytest.fixture(scope="module")
def jupyter_lab(browser: Browser, lab_root: Path,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """JupyterLab headless on 127.0.0.1, a free port and a random token; always stopped."""
    tmp = tmp_path_factory.mktemp("jupyter-lab")
    port, token = free_port(), os.urandom(16).hex()
    with running_server(
        jupyter_lab_argv(port, token, lab_root), port=port, token=token, root=lab_root,
        log=tmp / "jupyterlab.log", probe="/api/status", env=server_env(tmp),
    ) as server:
        yield server

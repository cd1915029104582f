"""The machinery behind the browser tests: servers, Chromium, screenshots.

A server runs in its own process group on 127.0.0.1 with a free port and a
random token, and :func:`running_server` *always* stops it (kernels included).
Chromium is Debian's (``chromium``), found on ``PATH`` or at ``$MTLEARN_CHROMIUM``;
Playwright drives it, no browser is downloaded. Where Chromium or Playwright is
missing the tests skip with a reason on a user's machine and FAIL in CI
(``CI=true``).

Screenshots go to ``test-artifacts/browser/`` under the repository root
(gitignored); each saved path is printed.

>>> is_ci({"CI": "true"}), is_ci({"CI": "false"}), is_ci({})
(True, False, False)
>>> "--ServerApp.ip=127.0.0.1" in jupyter_lab_argv(8888, "t", Path("/tmp"))
True
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts" / "browser"

# Flags that keep a headless Chromium quiet and offline (as root it needs --no-sandbox;
# without the background-networking flags it tries to phone home and logs refusals).
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

# Generous but bounded waits (milliseconds for Playwright, seconds for servers).
PAGE_TIMEOUT_MS = 60_000
SERVER_START_S = 90.0


def is_ci(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether we run in CI (``CI`` set to a true value, as GitHub, GitLab and others do)."""
    return environ.get("CI", "").strip().lower() in {"1", "true", "yes", "on"}


def missing(reason: str) -> None:
    """Skip on a user's machine, fail in CI: the browser test must run in CI."""
    hint = " Install it with: sudo scripts/install_browser.sh (Debian/Ubuntu)."
    if is_ci():
        pytest.fail(f"{reason} (CI=true, so the browser tests must run).{hint}", pytrace=False)
    pytest.skip(f"{reason}.{hint}")


def find_chromium() -> Optional[str]:
    """``$MTLEARN_CHROMIUM``, else ``chromium`` / ``chromium-browser`` on ``PATH``."""
    env = os.environ.get("MTLEARN_CHROMIUM")
    if env:
        return env if Path(env).is_file() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def save_screenshot(page: Any, name: str, *, height: Optional[int] = None) -> Path:
    """Save ``page`` as ``test-artifacts/browser/<name>.png`` and print the path.

    JupyterLab and Voilà scroll inside their own panels, so a "full page" shot is
    one screen; ``height`` makes the window that tall for this shot only.
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    size = page.viewport_size
    if height is not None and size is not None:
        page.set_viewport_size({"width": size["width"], "height": height})
    try:
        page.screenshot(path=str(path))
    finally:
        if height is not None and size is not None:
            page.set_viewport_size(size)
    print(f"screenshot: {path}")
    return path


# --------------------------------------------------------------------------------------
# Servers: started in their own process group, always stopped
# --------------------------------------------------------------------------------------


@dataclass
class Server:
    """A running server: its base URL, token, process and log file."""

    base_url: str
    token: str
    process: subprocess.Popen
    log: Path
    root: Path

    def url(self, path: str, **query: str) -> str:
        """``base_url + path`` with the token (and ``query``) appended."""
        params = "&".join([*(f"{k}={v}" if v else k for k, v in query.items()), f"token={self.token}"])
        return f"{self.base_url}{path}?{params}"

    def api(self, method: str, path: str) -> Any:
        """Call the Jupyter REST API (token in the header); the decoded JSON answer, or None."""
        request = urllib.request.Request(f"{self.base_url}{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> int:
        """Shut every running kernel down (closing a tab leaves its kernel running); how many."""
        kernels = self.api("GET", "/api/kernels")
        for kernel in kernels:
            self.api("DELETE", f"/api/kernels/{kernel['id']}")
        return len(kernels)

    def log_tail(self, lines: int = 40) -> str:
        """The end of the server's log (for error messages)."""
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def descendants(self) -> list[Any]:
        """The server's child processes (kernels run in their own sessions, so a group kill misses them)."""
        try:
            import psutil  # a dependency of ipykernel
        except ImportError:  # pragma: no cover - psutil ships with ipykernel
            return []
        try:
            return psutil.Process(self.process.pid).children(recursive=True)
        except psutil.Error:
            return []


def _wait_ready(server: Server, probe: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(
                f"server exited with code {server.process.returncode} before it was ready;"
                f" log {server.log}:\n{server.log_tail()}"
            )
        try:
            with urllib.request.urlopen(server.url(probe), timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        time.sleep(0.3)
    raise RuntimeError(f"server not ready after {SERVER_START_S:.0f} s; log "
                       f"{server.log}:\n{server.log_tail()}")


def _stop(server: Server) -> None:
    """SIGTERM the process group (the server shuts its kernels down), then SIGKILL what is left."""
    children = server.descendants()
    proc = server.process
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for child in children:
        try:
            child.kill()
        except Exception:  # already gone  # noqa: BLE001
            pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
        pass


@contextmanager
def running_server(
    argv: Sequence[str], *, port: int, token: str, root: Path, log: Path, probe: str,
    env: Optional[Mapping[str, str]] = None,
) -> Iterator[Server]:
    """Start ``argv`` in a new process group, wait until ``probe`` answers 200, always stop it."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as log_file:
        process = subprocess.Popen(
            list(argv), stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            cwd=root, env=dict(env) if env is not None else None, start_new_session=True,
        )
    server = Server(f"http://127.0.0.1:{port}", token, process, log, root)
    try:
        _wait_ready(server, probe, time.monotonic() + SERVER_START_S)
        yield server
    finally:
        _stop(server)
        print(f"server log: {log}")


@contextmanager
def workshop_server(tmp: Path) -> Iterator[Server]:
    """Voilà serving notebooks/workshop.ipynb as ``make workshop`` does (a free port, a known token);
    always stopped. Logs and Jupyter's directories go to ``tmp``."""
    port, token = free_port(), os.urandom(16).hex()
    argv = [sys.executable, "-m", "mtlearn.tools.workshop", str(NOTEBOOKS / "workshop.ipynb"),
            f"--port={port}", "--no-browser", "--Voila.port_retries=0", "--show_tracebacks=True"]
    with running_server(argv, port=port, token=token, root=REPO, log=tmp / "voila.log",
                        probe="/voila/templates/lab/static/voila.js",
                        env={**server_env(tmp), "JUPYTER_TOKEN": token}) as server:
        yield server


def server_env(tmp: Path) -> dict[str, str]:
    """An environment for a throw-away Jupyter server.

    Private config/data/runtime/settings/workspace directories, so neither the
    user's Jupyter set-up nor a previous run changes what the test sees, and the
    ``python3`` kernel is the one of *this* Python (the venv's ipykernel).
    Two user settings keep JupyterLab offline and predictable: no news/update
    check, and no notebook windowing (every cell stays in the page).
    """
    dirs = {name: tmp / name for name in ("config", "data", "runtime", "settings", "workspaces")}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    settings = {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
            {"fetchNews": "false", "checkForUpdates": False},
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    }
    for rel, value in settings.items():
        target = dirs["settings"] / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(value), encoding="utf-8")
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
        PYTHONUNBUFFERED="1",
    )
    env.pop("JUPYTER_PATH", None)
    return env


def jupyter_lab_argv(port: int, token: str, root: Path) -> list[str]:
    """The JupyterLab command line (jupyter_server 2.x option names), offline and headless."""
    argv = [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        # Offline: no announcements feed, no update check, no PyPI extension manager.
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
        # Should the test process die without stopping it: no server or kernel outlives 10 idle minutes.
        "--ServerApp.shutdown_no_activity_timeout=600",
        "--MappingKernelManager.cull_idle_timeout=600",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--ServerApp.allow_root=True")  # CI containers often run as root
    return argv

"""Hostile cases for the workshop server (mtlearn.tools.workshop, what ``make workshop`` runs).

The attacker is a participant who has the token (``workshop_client.py`` plays one): they ask for every
place, talk to their kernel's websocket in the legacy protocol or send it a malformed frame, or are sent to
the server by another site; when the tests run as root, a second user of the machine (tests/second_user.py)
is a second client. Where an exchange could hang the server, the test checks that ``/login`` still answers
within seconds and kills the server if not.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Optional

import pytest
import workshop_client as client
from repo_paths import REPO
from second_user import STEP_TIMEOUT_S

from mtlearn.tools import workshop

# ------------------------------------------------------------------ the workshop server
#
# One server for the module (what ``make workshop`` runs), with 2 places, 1 per client and its own
# kernel limits; each test opens the pages it needs and shuts their kernels down. A test whose
# exchange could hang the server checks that /login still answers, and kills the server if not.

WORKSHOP_PLACES, PLACES_PER_CLIENT, KERNEL_CPU_S, KERNEL_MEMORY_MB = 2, 1, 900, 768
ANSWER_TIMEOUT_S = 10


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def kernel_processes(pid: int) -> list:
    """The kernels running under the server ``pid`` (psutil processes)."""
    psutil = pytest.importorskip("psutil")
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    found = []
    for child in children:
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            pass
    return found


def kernels_of(pid: int) -> int:
    """How many kernels run under the server ``pid``."""
    return len(kernel_processes(pid))


def get(url: str) -> tuple[int, str]:
    """Status and final URL of a GET (redirects followed), waiting for the whole page."""
    try:
        with urllib.request.urlopen(url, timeout=STEP_TIMEOUT_S) as response:
            response.read()
            return response.status, response.url
    except urllib.error.HTTPError as error:
        return error.code, url


def page(base: str, token: Optional[str], *, source: str = "127.0.0.1",
         headers: Optional[dict[str, str]] = None) -> client.Answer:
    """The workshop page, asked for from ``source`` (with the token in the URL unless ``token`` is None)."""
    return client.request(base, "/" if token is None else f"/?token={token}", source=source, headers=headers)


def shut_down(base: str, token: str, *answers: client.Answer) -> None:
    """Shut down the kernels of the pages ``answers`` (jupyter_server's REST API, token in the header)."""
    for answer in answers:
        if answer.status == 200 and answer.kernel_id:
            done = client.request(base, f"/api/kernels/{answer.kernel_id}", method="DELETE",
                                  headers={"Authorization": f"token {token}"})
            assert done.status in (204, 404), (done.status, done.reason)


def assert_server_answers(base: str, process: subprocess.Popen) -> None:
    """/login answers within ANSWER_TIMEOUT_S; if not, the server is killed (it would spin on) and the test
    fails."""
    try:
        status = client.request(base, "/login", timeout=ANSWER_TIMEOUT_S).status
    except OSError as error:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"the server stopped answering: /login gave {error!r} (the server was killed)")
    assert status == 200


def server_rss(process: subprocess.Popen) -> int:
    psutil = pytest.importorskip("psutil")
    return psutil.Process(process.pid).memory_info().rss


@pytest.fixture(scope="module")
def workshop_server(tmp_path_factory) -> Iterator[tuple[str, str, subprocess.Popen, Path]]:
    """``python -m mtlearn.tools.workshop`` (what ``make workshop`` runs), small caps and limits; always
    stopped."""
    pytest.importorskip("voila")
    tmp = tmp_path_factory.mktemp("workshop")
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("JUPYTER_TOKEN", None)  # Voilà makes one and prints it, as for "make workshop"
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        env[name] = str(tmp / name.lower())
    log = tmp / "voila.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "mtlearn.tools.workshop", str(REPO / "notebooks" / "workshop.ipynb"),
             f"--port={port}", f"--max-kernels={WORKSHOP_PLACES}",
             f"--max-kernels-per-client={PLACES_PER_CLIENT}",
             f"--kernel-cpu-seconds={KERNEL_CPU_S}", f"--kernel-memory-mb={KERNEL_MEMORY_MB}",
             "--no-browser", "--Voila.port_retries=0"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=tmp, env=env,
            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        printed = None
        while printed is None:
            assert process.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
            printed = re.search(rf"{re.escape(base)}/\?token=([0-9a-f]+)", log.read_text(errors="replace"))
        yield base, printed.group(1), process, log
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def test_workshop_server_prints_the_url_with_a_long_token(workshop_server):
    _base, token, _process, _log = workshop_server
    assert len(token) >= 32  # the fixture found it in the printed URL


def test_workshop_page_needs_the_token_places_are_capped_and_kernels_limited(workshop_server):
    # The reproducer: one token holder asked for every place at once and got them all. The kernels
    # started meanwhile run with the server's CPU and memory limits.
    psutil = pytest.importorskip("psutil")
    base, token, process, log = workshop_server
    status, final = get(f"{base}/")
    assert status == 200 and "/login" in final  # the login page, not the app
    assert kernels_of(process.pid) == 0
    opened: list[client.Answer] = []
    try:
        with ThreadPoolExecutor(3) as pool:
            first = list(pool.map(lambda _: page(base, token), range(3)))  # one client, three pages at once
        opened += first
        assert sorted(a.status for a in first) == [200, 429, 429], [(a.status, a.reason) for a in first]
        assert all("workshop pages open" in a.reason for a in first if a.status == 429)
        opened.append(page(base, token, source="127.0.0.2"))  # another client still gets a place
        assert opened[-1].status == 200 and opened[-1].kernel_id
        last = page(base, token, source="127.0.0.3")
        assert last.status == 503 and "places are taken" in last.reason
        kernels = kernel_processes(process.pid)
        assert len(kernels) == WORKSHOP_PLACES
        for kernel in kernels:
            assert kernel.rlimit(psutil.RLIMIT_CPU) == (KERNEL_CPU_S, KERNEL_CPU_S + 10)
            assert kernel.rlimit(psutil.RLIMIT_DATA) == (KERNEL_MEMORY_MB * 2**20,) * 2
            assert kernel.rlimit(psutil.RLIMIT_CORE) == (0, 0)
    finally:
        shut_down(base, token, *opened)
    text = log.read_text(errors="replace")
    assert f"Culling kernels with idle durations > {workshop.CULL_IDLE_TIMEOUT_S} seconds at " \
           f"{workshop.CULL_INTERVAL_S} second intervals" in text


def test_on_the_loopback_each_user_account_is_a_client(workshop_server, attacker):
    # Everyone on this machine (or through an SSH tunnel) comes from 127.0.0.1: the account tells them apart.
    python = Path("/usr/bin/python3")  # one the other user may run (the venv's may sit in root's home)
    if not python.is_file():
        pytest.skip("no /usr/bin/python3 for the second user")
    base, token, _process, _log = workshop_server
    script = ("import http.client, re, sys\n"
              "c = http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]), timeout=60)\n"
              "c.request('GET', '/?token=' + sys.argv[2])\n"
              "r = c.getresponse()\n"
              "found = re.search(r'\"kernelId\": \"([0-9a-f-]{36})\"', r.read().decode())\n"
              "print(r.status, found.group(1) if found else '')\n")
    mine = page(base, token)
    theirs = ""
    try:
        assert mine.status == 200
        assert page(base, token).status == 429  # my place is taken
        done = subprocess.run(["runuser", "-u", attacker.name, "--", str(python), "-c", script,
                               base.rsplit(":", 1)[1], token], capture_output=True, text=True,
                              timeout=STEP_TIMEOUT_S)
        status, _, theirs = done.stdout.strip().partition(" ")
        assert status == "200", done.stdout + done.stderr  # theirs is not
    finally:
        shut_down(base, token, mine)
        if theirs:
            client.request(base, f"/api/kernels/{theirs}", method="DELETE",
                           headers={"Authorization": f"token {token}"})


def test_a_legacy_kernel_websocket_is_refused_and_the_server_keeps_answering(workshop_server):
    # The reproducer: the widgets' state asked for over the legacy protocol (no subprotocol); Voilà read
    # the binary answer as v1 and looped ~1e17 times on the server's only thread.
    base, token, process, _log = workshop_server
    opened = page(base, token)
    try:
        assert opened.status == 200 and opened.kernel_id
        before = server_rss(process)
        status = client.refused_handshake(base, token, opened.kernel_id)
        assert_server_answers(base, process)
        assert status == 400
        assert server_rss(process) - before < 64 * 2**20
    finally:
        shut_down(base, token, opened)


def test_a_v1_kernel_websocket_works_its_sliders_stay_in_range_and_a_malformed_frame_closes_it(
        workshop_server):
    base, token, process, _log = workshop_server
    opened = page(base, token)

    async def exchange(kernel_id: str) -> tuple[dict, dict, Optional[int]]:
        conn = await client.connect(base, token, kernel_id, v1=True)
        try:
            states = await client.request_states(conn, v1=True)
            assert states is not None, "no widget state came"
            # A page's widget message moving chrF's char-order slider to 1e9 (it pinned the kernel).
            slider = client.model_with_class(states, "mtlearn-char-order")
            await client.update_widget(conn, slider, {"max": 10**9, "value": 10**9})
            after = await client.request_states(conn, v1=True)  # answered once the update is done
            # A frame stating 1e17 offsets: jupyter_server's reader would loop over them all.
            code = await client.closes_after(conn, (10**17).to_bytes(8, "little") + bytes(64))
        finally:
            conn.close()
        return states, after[slider]["state"], code

    try:
        assert opened.status == 200 and opened.kernel_id
        states, slider, code = asyncio.run(exchange(opened.kernel_id))
        assert_server_answers(base, process)
        classes = {c for s in states.values() for c in s["state"].get("_dom_classes", ())}
        assert {"mtlearn-bleu-explorer", "mtlearn-meteor-explorer", "mtlearn-chrf-explorer",
                "mtlearn-ter-explorer"} <= classes
        assert any(s["model_name"] == "ImageModel" for s in states.values())  # the binary answers came
        assert (slider["max"], slider["value"]) == (10, 10)
        assert code == 1007
    finally:
        shut_down(base, token, opened)


def test_a_cross_site_navigation_without_the_token_starts_no_kernel(workshop_server):
    # The reproducer: a GET with the login cookie alone, marked cross-site, started a kernel.
    base, token, process, _log = workshop_server
    login = client.request(base, f"/login?token={token}")  # the cookie a participant's browser holds
    assert login.status == 302 and login.cookies
    cookie = client.cookie_header(login)
    before = kernels_of(process.pid)
    for site in ("cross-site", "same-site"):
        refused = page(base, None, headers={"Cookie": cookie, "Sec-Fetch-Site": site,
                                            "Sec-Fetch-Mode": "navigate"})
        assert (refused.status == 403
                and "another site" in refused.reason), (site, refused.status, refused.reason)
    assert kernels_of(process.pid) == before


def test_the_login_cookie_is_samesite_lax_and_lasts_a_workshop_day(workshop_server):
    # The reproducer: the login cookie lasted 30 days, with no SameSite.
    base, token, _process, _log = workshop_server
    login = client.request(base, f"/login?token={token}")
    (morsel,) = login.cookies.values()
    assert morsel["samesite"] == "Lax" and morsel["httponly"]
    lasts = parsedate_to_datetime(morsel["expires"]) - datetime.now(timezone.utc)
    assert (timedelta(hours=workshop.LOGIN_HOURS - 1) < lasts
            <= timedelta(hours=workshop.LOGIN_HOURS, minutes=1))


def test_closing_a_page_frees_its_place_at_once(workshop_server):
    # A shared link (another site, the token in the URL) opens the page; the page's shutdown request
    # (Voilà sends it when the page closes, with the _xsrf cookie) frees the place: with one place
    # per client, the reload after it gets a kernel at once.
    base, token, process, _log = workshop_server
    shared = page(base, token, headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
    reload = None
    try:
        assert shared.status == 200 and shared.kernel_id
        assert "_xsrf" in shared.cookies
        cookie = client.cookie_header(shared)
        closed = client.request(base, f"/voila/api/shutdown/{shared.kernel_id}", method="POST",
                                headers={"Cookie": cookie}, form={"_xsrf": shared.cookies["_xsrf"].value})
        assert closed.status == 204, (closed.status, closed.reason)
        reload = page(base, None, headers={"Cookie": cookie, "Sec-Fetch-Site": "same-origin"})
        assert reload.status == 200 and reload.kernel_id, (reload.status, reload.reason)
        assert kernels_of(process.pid) == 1
    finally:
        shut_down(base, token, shared, *([reload] if reload is not None else []))


def test_make_workshop_runs_the_capped_server():
    dry = subprocess.run(["make", "-n", "workshop"], cwd=REPO, capture_output=True, text=True, timeout=30)
    if dry.returncode != 0 or shutil.which("make") is None:
        pytest.skip(f"make -n workshop failed: {dry.stderr.strip()}")
    lines = [line for line in dry.stdout.splitlines() if "mtlearn.tools.workshop" in line]
    assert len(lines) == 1 and "notebooks/workshop.ipynb" in lines[0], dry.stdout
    options = workshop.voila_argv("notebooks/workshop.ipynb")
    assert "--token" in options and "--Voila.ip=127.0.0.1" in options
    assert (f"--VoilaConfiguration.multi_kernel_manager_class={workshop.__name__}.CappedKernelManager"
            in options)


def test_readme_states_the_workshop_settings():
    text = " ".join((REPO / "README.md").read_text().split())
    assert f"shut down after {workshop.CULL_IDLE_TIMEOUT_S // 60} minutes" in text
    assert f"at most {workshop.MAX_KERNELS} run at once" in text
    assert f"at most {workshop.MAX_KERNELS_PER_CLIENT} for one participant" in text
    assert (f"{workshop.KERNEL_CPU_SECONDS // 60} CPU minutes and {workshop.KERNEL_MEMORY_BYTES // 2**30} GB"
            in text)
    assert f"the login cookie lasts {workshop.LOGIN_HOURS} hours" in text


def test_make_workshop_passes_the_places_per_participant():
    dry = subprocess.run(["make", "-n", "workshop", "WORKSHOP_KERNELS_PER_CLIENT=0"], cwd=REPO,
                         capture_output=True, text=True, timeout=30)
    if dry.returncode != 0:
        pytest.skip(f"make -n workshop failed: {dry.stderr.strip()}")
    assert "--max-kernels-per-client=0" in dry.stdout
    assert (f"WORKSHOP_KERNELS_PER_CLIENT ?= {workshop.MAX_KERNELS_PER_CLIENT}"
            in (REPO / "Makefile").read_text())

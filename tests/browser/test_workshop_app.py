"""Workshop mode: ``notebooks/workshop.ipynb`` served by Voilà, opened in Chromium.

Voilà runs as ``make workshop`` runs it (``python -m mtlearn.tools.workshop``: 127.0.0.1,
a token, idle kernels culled, a cap on kernels) with a free port, a random token
given as ``$JUPYTER_TOKEN`` and test-only options (:func:`workshop_argv`), and is
always stopped. Without the token the page is refused. The app test checks
what an instructor projects: the title is there, no code is visible (no code
cell, no line of the notebook's code in the page's text), no error is shown,
every explorer reacts: a typed candidate and a moved slider (TER: a ticked
box; METEOR: each of alpha, beta and gamma) give the numbers mtlearn computes here,
typing latency is measured (the last key to the new score, 50 and 200 words a side:
printed and written to ``test-artifacts/browser/typing-latency.txt``), and the page asks
no host but 127.0.0.1 for anything (the browser blocks such requests; any one fails the test).
Closing a page shuts its kernel down at once (the page's shutdown request, with the
``_xsrf`` cookie the server sets for it), also a page closed or reloaded as soon as it has loaded: with
``--max-kernels=2``, ten rounds of open, reload, close never get a 503 and leave no kernel behind.

Screenshots: ``workshop-voila.png`` (the whole app as served),
``workshop-voila-bleu-explorer-after-typing.png``, ``…-after-max-order-slider.png``,
``workshop-voila-meteor-explorer-after-typing.png``, ``…-after-sliders.png``,
``workshop-voila-chrf-explorer-after-typing.png``, ``…-after-beta-slider.png``,
``workshop-voila-ter-explorer-after-typing.png``, ``…-after-case-sensitive.png``.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import browser_explorers as explorers
import browser_ui as ui
import psutil  # a dependency of ipykernel
import pytest
import tiers
from browser_harness import (
    ARTIFACTS,
    NOTEBOOKS,
    REPO,
    Server,
    free_port,
    running_server,
    save_screenshot,
    server_env,
)

from mtlearn.show import css

WORKSHOP = NOTEBOOKS / "workshop.ipynb"
# The explorers the app shows, by their box's CSS class.
EXPLORERS = tuple(f".{css.EXPLORERS[metric]}" for metric in ("bleu", "meteor", "chrf", "ter"))

# Anything that shows source code (markdown cells have input areas too: only code cells count).
CODE_SELECTORS = (".jp-CodeCell .jp-InputArea, .jp-CodeCell .jp-InputPrompt, .jp-CodeMirrorEditor, "
                  ".cm-editor, pre code")


def code_lines(path: Path) -> list[str]:
    """Every non-blank line of the notebook's code cells."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [line.strip() for cell in nb["cells"] if cell["cell_type"] == "code"
            for line in "".join(cell["source"]).splitlines() if line.strip()]


def workshop_argv(port: int, *options: str) -> list[str]:
    """``make workshop``'s server (``python -m mtlearn.tools.workshop``: token, culling, kernel cap), test
    options."""
    return [
        sys.executable, "-m", "mtlearn.tools.workshop", str(WORKSHOP), f"--port={port}",
        "--no-browser", "--Voila.port_retries=0",
        "--show_tracebacks=True",  # a failure in the app is then visible in the screenshot
        *options,
    ]


@pytest.fixture(scope="module")
def voila(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Voilà serving the workshop notebook as ``make workshop`` does, with a known token; always stopped."""
    tmp = tmp_path_factory.mktemp("voila")
    port, token = free_port(), os.urandom(16).hex()
    env = {**server_env(tmp), "JUPYTER_TOKEN": token}  # the token Voilà would otherwise generate and print
    with running_server(
        workshop_argv(port), port=port, token=token, root=REPO, log=tmp / "voila.log",
        probe="/voila/templates/lab/static/voila.js", env=env,
    ) as server:
        yield server


def test_workshop_page_needs_the_token(voila: Server) -> None:
    # Without the token: the login page, and no kernel started (the next test opens the app with it).
    bare = voila.url("/").split("?")[0]
    with urllib.request.urlopen(bare, timeout=30) as response:
        assert "/login" in response.url
    assert [p for p in voila.descendants() if "ipykernel" in " ".join(p.cmdline())] == []


def test_workshop_app_in_voila(page: Any, voila: Server, browser: Any) -> None:
    blocked_before = len(browser.blocked)  # the browser is the session's: count this page's requests only
    # Voilà runs the whole notebook before it sends the page: a generous bound.
    page.goto(voila.url("/"), timeout=180_000, wait_until="domcontentloaded")
    page.get_by_role("heading", name="BLEU, METEOR, chrF and TER, live").wait_for()
    for root in EXPLORERS:
        page.locator(f"{root} .{css.SCORE} .{css.NUMBER}").first.wait_for(timeout=120_000)
    page.wait_for_load_state("load")
    save_screenshot(page, "workshop-voila", height=2600)
    # Without ?projector=1 the page starts as it always was: the projector's button up, no style sheet.
    assert page.locator(f".{css.PROJECTOR_STYLE} style").count() == 0

    errors = ui.error_outputs(page)
    assert not errors, "the workshop app shows errors:\n" + "\n---\n".join(errors)
    assert page.locator(CODE_SELECTORS).count() == 0, "Voilà shows a code cell"
    text = page.locator("body").inner_text()
    visible = [line for line in code_lines(WORKSHOP) if line in text]
    assert not visible, f"code visible in the app: {visible}"
    assert len(code_lines(WORKSHOP)) >= 2  # the check above had something to look for

    # A projector shows one explorer at a time: the BLEU explorer's n-gram tables start folded.
    details = page.locator(f".{css.BLEU_EXPLORER} details.{css.NGRAM_DETAILS}").first
    assert details.evaluate("d => d.open") is False, "the workshop's n-gram tables should start folded"
    explorers.exercise_bleu(page, "workshop-voila-bleu-explorer")
    explorers.exercise_meteor(page, "workshop-voila-meteor-explorer")
    explorers.exercise_chrf(page, "workshop-voila-chrf-explorer")
    explorers.exercise_ter(page, "workshop-voila-ter-explorer")
    # Typing in the live room: the last key to the new numbers, sentence-sized and long
    # (the figures go in the report; the bound is generous: these machines are noisy).
    report: list[str] = []
    sentence = "the big cat was sitting on the mat"
    short = explorers.typing_latency(page, f".{css.METEOR_EXPLORER}", sentence, 50, report=report)
    long = explorers.typing_latency(page, f".{css.METEOR_EXPLORER}", sentence, 200, report=report)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "typing-latency.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    assert max(short) < 10 and max(long) < 30, report
    # Offline rooms: the page must not ask any other host for anything (Voilà's lab template linked
    # Font Awesome on a CDN; mtlearn's template drops the links).
    blocked = browser.blocked[blocked_before:]
    assert not blocked, f"requests that left 127.0.0.1: {sorted(set(blocked))}"


def _running_kernel(process: Any) -> bool:
    """A kernel process that still runs: one that exited (a zombie until the server reaps it) or vanished
    between the listing and this look does not count."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE and "ipykernel" in " ".join(process.cmdline())
    except psutil.Error:
        return False


def test_closing_the_workshop_page_frees_its_kernel_at_once(browser: Any, voila: Server) -> None:
    # The page asks the server to shut its kernel down as it closes (with the _xsrf cookie the server
    # set for it): a participant who closes or reloads a page gives the place back at once, not after
    # the ten idle minutes of culling.
    # Kernels are told apart by process id: an earlier test's page may still be shutting its kernel down.
    def kernels() -> set[int]:
        return {p.pid for p in voila.descendants() if _running_kernel(p)}

    before = kernels()
    tab = browser.new_page()
    tab.goto(voila.url("/"), timeout=180_000, wait_until="domcontentloaded")
    tab.locator(f".{css.TER_EXPLORER} .{css.SCORE} .{css.NUMBER}").first.wait_for(timeout=120_000)
    mine = kernels() - before
    assert len(mine) == 1, f"opening the page started {len(mine)} kernels"
    tab.close(run_before_unload=True)
    deadline = time.monotonic() + 30  # generous: the shutdown takes about a second
    while mine & kernels() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not mine & kernels(), "closing the page left its kernel running"


def test_reloading_and_closing_pages_never_locks_two_places(browser: Any,
                                                            tmp_path_factory: pytest.TempPathFactory) -> None:
    # A participant who reloads or closes the page as soon as it has loaded gives its place back at once:
    # Voila's own shutdown request is set up only when its JavaScript has loaded, seconds later, and a page
    # gone sooner left its kernel holding a place until the idle cull (a third load then got 503).
    tmp = tmp_path_factory.mktemp("voila-two-places")
    port, token = free_port(), os.urandom(16).hex()
    env = {**server_env(tmp), "JUPYTER_TOKEN": token}
    with running_server(
        workshop_argv(port, "--max-kernels=2"), port=port, token=token, root=REPO, log=tmp / "voila.log",
        probe="/voila/templates/lab/static/voila.js", env=env,
    ) as server:
        def kernels() -> int:  # Voila serves no kernel list; its kernels are the server's child processes
            return sum(1 for p in server.descendants() if _running_kernel(p))

        # Ten rounds in the full tier (as the issue asks); four in the default one, about 8 s a round:
        # the leak showed in round 0.
        for round_ in range(10 if tiers.is_full() else 4):
            tab = browser.new_page()
            loaded = tab.goto(server.url("/"), timeout=180_000, wait_until="load")
            assert loaded is not None and loaded.status == 200, f"round {round_}: open got {loaded.status}"
            reloaded = tab.reload(timeout=180_000, wait_until="load")
            assert reloaded is not None and reloaded.status == 200, \
                f"round {round_}: reload got {reloaded.status}\n{server.log_tail()}"
            tab.close(run_before_unload=True)
            deadline = time.monotonic() + 30  # generous: a shutdown takes about a second
            while kernels() > 0 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert kernels() == 0, f"round {round_}: {kernels()} kernels left with no page open"

"""Corpus mode in the workshop app (the last section of ``notebooks/workshop.ipynb``), in Voilà and Chromium.

Voilà runs as ``make workshop`` runs it (``python -m mtlearn.tools.workshop``: a token, a free port) with
its own server for this module. A participant presses "WMT22 sample" (the shipped 40 segments of WMT22
de-en, so the test needs no ``../shared``): the table shows corpus BLEU, chrF, TER and METEOR of both
systems and the p-values against the first, each equal to what mtlearn computes here; then types a
segment number and presses "Open segment": the BLEU and METEOR explorers below show that segment's
hypothesis and reference, with the numbers mtlearn computes; a second number updates them. Uploads through
the browser's file input: a file not in UTF-8 gets a message naming it; the sample's files, uploaded with
LT22 first, get the table mtlearn computes for that order.

Screenshots: ``workshop-corpus-table.png``, ``workshop-corpus-segment-17.png``,
``workshop-corpus-segment-3.png``, ``workshop-corpus-bad-upload.png``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Callable

import browser_explorers as explorers
import browser_ui as ui
import pytest
from browser_harness import NOTEBOOKS, Server, save_screenshot, workshop_server

from mtlearn.show import css
from mtlearn.show.explorers.corpus import (
    CORPUS_EXPLORER,
    CORPUS_PLOT,
    CORPUS_TABLE,
    OPEN_BUTTON,
    REFERENCE_UPLOAD,
    SAMPLE_BUTTON,
    SCORE_BUTTON,
    SEGMENT_INPUT,
    SYSTEMS_UPLOAD,
)
from mtlearn.study import corpus_compare as cc

WORKSHOP = NOTEBOOKS / "workshop.ipynb"
ROOT = f".{CORPUS_EXPLORER}"


@pytest.fixture(scope="module")
def voila(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Voilà serving the workshop notebook as ``make workshop`` does, with a known token; always stopped."""
    with workshop_server(tmp_path_factory.mktemp("voila-corpus")) as server:
        yield server


def wait_until(check: Callable[[], bool], what: str, timeout_s: float = ui.WIDGET_UPDATE_MS / 1000) -> None:
    """Poll ``check`` until it holds; fail saying ``what`` did not happen."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout_s:.0f} s: {what}")
        time.sleep(0.25)


def choose_files(page: Any, button: Any, paths: list[Any]) -> None:
    """Click an upload button, pick ``paths`` in the file chooser it opens (its input is not in the DOM)."""
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files([str(p) for p in paths])
    # The button counts the files it holds once the browser has read them.
    wait_until(lambda: f"({len(paths)})" in button.inner_text(), f"{len(paths)} file(s) in the upload button")


def expected_table(comparison: cc.Comparison) -> dict[str, float]:
    """Number name -> value for every score and p-value of the table, computed here."""
    numbers = {}
    for metric in cc.METRICS:
        for k, name in enumerate(comparison.corpus.names):
            numbers[f"{metric}-{k}"] = comparison.score(metric, name)
            if k:
                numbers[f"{metric}-p-{k}"] = comparison.p_value(metric, name)
    return numbers


def open_segment(page: Any, root: Any, segment: int, system: str) -> None:
    """Type ``segment`` in the number box, press Open segment, wait for both explorers to show it."""
    box = root.locator(f".{SEGMENT_INPUT} input").first
    box.fill(str(segment))
    box.press("Enter")  # the number box sends its value on Enter or leaving it
    root.locator(f".{OPEN_BUTTON}").first.click()
    sample = cc.wmt22_sample()
    hypothesis, reference = sample.hypotheses(system)[segment - 1], sample.reference.lines[segment - 1]
    bleu_root = root.locator(f".{css.BLEU_EXPLORER}").first
    meteor_root = root.locator(f".{css.METEOR_EXPLORER}").first
    for sentence_root in (bleu_root, meteor_root):
        wait_until(lambda r=sentence_root: r.count() > 0
                   and explorers.textarea(r, css.CANDIDATE) == hypothesis
                   and explorers.references(r) == [reference],
                   f"segment {segment}'s hypothesis and reference in the sentence explorers")
    bleu = explorers.bleu_expected(hypothesis, [reference], explorers.bleu_settings(bleu_root))
    explorers.wait_for_numbers(bleu_root, bleu, f"corpus mode, segment {segment}, BLEU explorer")
    meteor = explorers.meteor_expected(hypothesis, [reference], explorers.meteor_settings(meteor_root))
    explorers.wait_for_numbers(meteor_root, meteor, f"corpus mode, segment {segment}, METEOR explorer")
    save_screenshot(page, f"workshop-corpus-segment-{segment}", height=2200)


def test_corpus_mode_on_the_wmt22_sample(page: Any, voila: Server) -> None:
    page.goto(voila.url("/"), timeout=180_000, wait_until="domcontentloaded")
    root = page.locator(ROOT).first
    root.wait_for(timeout=120_000)
    root.locator(f".{SAMPLE_BUTTON}").first.click()
    table = root.locator(f".{CORPUS_TABLE}").first
    wait_until(lambda: table.locator('[data-name="meteor-1"]').count() > 0, "the table of the WMT22 sample")
    comparison = cc.compare(cc.wmt22_sample())  # the same seed and samples as the page's
    problems = explorers.mismatches(explorers.shown_numbers(table), expected_table(comparison))
    assert not problems, "\n".join(problems)
    heads = [h.strip() for h in table.locator("th").all_inner_texts()]
    assert heads == ["system", "BLEU", "chrF", "TER (lower is better)", "METEOR"], heads
    assert root.locator(f"img.{CORPUS_PLOT}, .{CORPUS_PLOT} img").count() + \
        root.locator(f".{CORPUS_PLOT}").count() > 0
    root.scroll_into_view_if_needed()
    save_screenshot(page, "workshop-corpus-table", height=2200)

    system_a = explorers.dropdown(root, "mtlearn-corpus-system-a")
    assert system_a == comparison.corpus.names[0]
    open_segment(page, root, 17, system_a)
    open_segment(page, root, 3, system_a)  # a second number: the same explorers, updated
    assert root.locator(f".{css.BLEU_EXPLORER}").count() == 1
    assert not ui.error_outputs(page), ui.error_outputs(page)
    assert root.locator(f".{css.MESSAGE} .{css.ERROR}").count() == 0


def test_corpus_mode_reads_uploaded_files(page: Any, voila: Server, tmp_path: Any) -> None:
    # The browser's own file picker: a file not in UTF-8 gets its message, then good files their table.
    sample = cc.wmt22_sample()
    reference = tmp_path / "ref.txt"
    reference.write_text("\n".join(sample.reference.lines) + "\n", encoding="utf-8")
    systems = []
    for name in reversed(sample.names):  # LT22 first: the baseline of the page's tests
        path = tmp_path / name
        path.write_text("\n".join(sample.hypotheses(name)) + "\n", encoding="utf-8")
        systems.append(path)
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("der Bär\n".encode("latin-1") * sample.n_segments)
    page.goto(voila.url("/"), timeout=180_000, wait_until="domcontentloaded")
    root = page.locator(ROOT).first
    root.wait_for(timeout=120_000)
    choose_files(page, root.locator(f".{REFERENCE_UPLOAD}").first, [reference])
    choose_files(page, root.locator(f".{SYSTEMS_UPLOAD}").first, [latin])
    root.locator(f".{SCORE_BUTTON}").first.click()
    error = root.locator(f".{css.MESSAGE} .{css.ERROR}").first
    wait_until(lambda: error.count() > 0 and "latin1.txt: not UTF-8 text" in error.inner_text(),
               "the message naming the file that is not UTF-8")
    assert root.locator(f".{CORPUS_TABLE} table").count() == 0
    save_screenshot(page, "workshop-corpus-bad-upload", height=1400)

    choose_files(page, root.locator(f".{SYSTEMS_UPLOAD}").first, systems)
    root.locator(f".{SCORE_BUTTON}").first.click()
    table = root.locator(f".{CORPUS_TABLE}").first
    wait_until(lambda: table.locator('[data-name="meteor-1"]').count() > 0, "the table of the uploaded files")
    uploaded = cc.compare(cc.corpus_set(sample.reference, [sample.systems[1], sample.systems[0]]))
    problems = explorers.mismatches(explorers.shown_numbers(table), expected_table(uploaded))
    assert not problems, "\n".join(problems)
    assert root.locator(f".{css.MESSAGE} .{css.ERROR}").count() == 0

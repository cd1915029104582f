"""Projector mode in the workshop app (``notebooks/workshop.ipynb`` in Voilà, opened in Chromium).

Voilà runs as ``make workshop`` runs it (``python -m mtlearn.tools.workshop``: a token, a free port) with its
own server for this module. The page is opened with ``?projector=1``: the "Projector mode" button starts
pressed (Voilà passes the query string to the kernel, :func:`mtlearn.show.projector.projector_requested`
reads it), text is at least 20 px, and at 1280x720 and at 1920x1080 every explorer (BLEU, METEOR, chrF,
TER), scrolled to its score, shows its score, its picture and its numbers panel on screen at once, the
picture beside the numbers (BLEU draws no picture: its n-gram tables stand beside its numbers); at 1024x768
they are stacked again. The window is resized rather than the page reopened (the media query follows the
window; a second page would run the notebook again). The button released, the page is as without projector
mode: no style sheet, the picture above or below its numbers.

Screenshots: ``projector-1280x720-{bleu,meteor,chrf,ter}.png``, ``projector-1920x1080-….png``,
``projector-off-1280x720-meteor.png``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_harness import NOTEBOOKS, Server, save_screenshot, workshop_server

from mtlearn.show import css
from mtlearn.show.projector import BODY_FONT_PX

WORKSHOP = NOTEBOOKS / "workshop.ipynb"
METRICS = ("bleu", "meteor", "chrf", "ter")
SIZES = ((1280, 720), (1920, 1080))
# Text a room must read: the page's body, the prose, the explorers' controls and numbers.
TEXT_SELECTORS = ("body", ".jp-RenderedMarkdown p", f".{css.SUMMARY} td", f".{css.CANDIDATE} textarea",
                  ".widget-label", ".widget-readout")

# An element's box in the window's coordinates, with the window's size.
_BOX_JS = """e => { const r = e.getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height,
          vw: window.innerWidth, vh: window.innerHeight}; }"""
# The smallest computed font size, in px, of the visible elements a selector finds.
_FONT_JS = """sel => { const sizes = [...document.querySelectorAll(sel)]
  .filter(e => e.getClientRects().length && (e.innerText || e.value || '').trim())
  .map(e => parseFloat(getComputedStyle(e).fontSize));
  return sizes.length ? Math.min(...sizes) : null; }"""
# Every picture drawn and loaded (an <img> with pixels), inside the result rows.
_PICTURES_READY_JS = f"""() => [...document.querySelectorAll('.{css.RESULT} img.{css.PICTURE}')]
  .every(img => img.complete && img.naturalWidth > 0)"""


@pytest.fixture(scope="module")
def voila(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Voilà serving the workshop notebook as ``make workshop`` does, with a known token; always stopped."""
    with workshop_server(tmp_path_factory.mktemp("voila-projector")) as server:
        yield server


def box(locator: Any) -> dict[str, float]:
    return locator.evaluate(_BOX_JS)


def on_screen(b: dict[str, float]) -> bool:
    """Whether a box is wholly inside the window (half a pixel of rounding allowed) and not empty."""
    return (b["width"] > 0 and b["height"] > 0 and b["left"] >= -0.5 and b["top"] >= -0.5
            and b["right"] <= b["vw"] + 0.5 and b["bottom"] <= b["vh"] + 0.5)


def side_by_side(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5


def stacked(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5


def smallest_text(page: Any) -> dict[str, Any]:
    """The smallest font size (px) of each of :data:`TEXT_SELECTORS`'s visible elements."""
    return {selector: page.evaluate(_FONT_JS, selector) for selector in TEXT_SELECTORS}


def explorer_boxes(page: Any, metric: str) -> dict[str, dict[str, float]]:
    """Scroll the explorer's score to the top of the window; the boxes of its score, picture and numbers
    (the summary table: in projector mode the numbers panel's own box dissolves into the row's grid)."""
    root = page.locator(f".{css.EXPLORERS[metric]}").first
    score = root.locator(f".{css.SCORE}").first
    score.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(100)  # one frame for the layout to settle after the scroll
    row = root.locator(f".{css.RESULT}").first
    return {"score": box(score), "picture": box(row.locator(f":scope > .{css.PICTURE}")),
            "numbers": box(row.locator(f".{css.NUMBERS} > .{css.SUMMARY}"))}


def test_projector_mode_from_the_url(page: Any, voila: Server, browser: Any) -> None:
    start = time.monotonic()
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    page.goto(voila.url("/", projector="1"), timeout=180_000, wait_until="domcontentloaded")
    for metric in METRICS:
        page.locator(f".{css.EXPLORERS[metric]} .{css.SCORE} .{css.NUMBER}").first.wait_for(timeout=120_000)
    page.wait_for_function(_PICTURES_READY_JS, timeout=60_000)
    loaded = time.monotonic() - start
    button = page.locator(f".{css.PROJECTOR_TOGGLE}").first
    assert "mod-active" in (button.get_attribute("class") or ""), "?projector=1 should start the mode on"
    assert page.locator(f".{css.PROJECTOR_STYLE} style").count() == 1

    fonts = smallest_text(page)
    small = {selector: px for selector, px in fonts.items() if px is None or px < BODY_FONT_PX}
    assert not small, f"text below {BODY_FONT_PX} px in projector mode: {small}"

    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for metric in METRICS:
            boxes = explorer_boxes(page, metric)
            save_screenshot(page, f"projector-{width}x{height}-{metric}")
            off = [name for name, b in boxes.items() if not on_screen(b)]
            if off:
                problems.append(f"{width}x{height} {metric}: not wholly on screen: {off} {boxes}")
            if not side_by_side(boxes["picture"], boxes["numbers"]):  # METEOR's score heads both
                problems.append(f"{width}x{height} {metric}: picture not beside its numbers: {boxes}")
    assert not problems, "\n".join(problems)
    # Narrower than 1280 px the mode keeps its large text and stacks picture and numbers again.
    page.set_viewport_size({"width": 1024, "height": 768})
    narrow = explorer_boxes(page, "meteor")
    assert stacked(narrow["picture"], narrow["numbers"]), narrow

    # Released, the page is as it always was: no style sheet, each picture above or below its numbers.
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    button.click()
    page.locator(f".{css.PROJECTOR_STYLE} style").wait_for(state="detached")
    layouts = {metric: explorer_boxes(page, metric) for metric in ("bleu", "chrf", "ter", "meteor")}
    save_screenshot(page, "projector-off-1280x720-meteor")  # METEOR's score at the top, as scrolled last
    assert all(stacked(b["picture"], b["numbers"]) for b in layouts.values()), layouts
    print(f"projector page loaded in {loaded:.1f} s; test {time.monotonic() - start:.1f} s; fonts {fonts}")

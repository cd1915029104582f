"""Projector mode (mtlearn/show/projector.py): the URL's request, the button's style sheet, the result rows.

The browser test (tests/browser/test_workshop_projector.py) checks what the style sheet does to the page.
"""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest

from mtlearn.show import css
from mtlearn.show.explorers import BleuExplorer, ChrfExplorer, MeteorExplorer, TerExplorer
from mtlearn.show.projector import (
    BODY_FONT_PX,
    MAX_QUERY_CHARS,
    SIDE_BY_SIDE_MIN_PX,
    ProjectorToggle,
    projector_css,
    projector_requested,
)


@pytest.mark.parametrize("query", ["projector=1", "token=abc&projector=1", "projector=true", "projector=ON",
                                   "projector", "projector=", "?projector=yes", "projector=0&projector=1"])
def test_a_query_string_asking_for_projector_mode(query: str) -> None:
    assert projector_requested(query) is True


@pytest.mark.parametrize("query", ["", "token=abc", "projector=0", "projector=false", "projector=off",
                                   "projector=2", "projector=maybe", "projectors=1", "xprojector=1",
                                   "projector=1&projector=no", "%%%&&&==", "projector=1" + "&a=b" * 3000])
def test_a_query_string_not_asking_for_it(query: str) -> None:
    assert projector_requested(query) is False


@pytest.mark.parametrize("value", [None, 1, b"projector=1", ["projector=1"]])
def test_a_query_string_that_is_not_text_asks_for_nothing(value: object) -> None:
    # $QUERY_STRING unset (a notebook run outside Voila) reaches the function as None.
    assert projector_requested(value) is False


def test_a_huge_query_string_is_not_parsed() -> None:
    assert len("projector=1" + "&a=b" * 3000) > MAX_QUERY_CHARS
    assert projector_requested("projector=1&" + "a" * (MAX_QUERY_CHARS - 12)) is True


def test_the_toggle_switches_the_style_sheet() -> None:
    toggle = ProjectorToggle()
    assert toggle.button.value is False and toggle.style_html.value == ""  # off: the page as it always was
    assert css.PROJECTOR_TOGGLE in toggle.button._dom_classes
    toggle.button.value = True
    assert toggle.style_html.value == f'<style class="{css.PROJECTOR_STYLE}">{projector_css()}</style>'
    toggle.button.value = False
    assert toggle.style_html.value == ""


def test_the_toggle_starts_on_when_asked() -> None:
    toggle = ProjectorToggle(on=projector_requested("projector=1&token=t"))
    assert toggle.button.value is True and projector_css() in toggle.style_html.value


def test_the_toggle_refuses_a_state_that_is_not_a_bool() -> None:
    with pytest.raises(TypeError, match="on: expected True or False, got str"):
        ProjectorToggle(on="1")  # type: ignore[arg-type]


def test_the_style_sheet_sizes_text_and_sets_the_breakpoint() -> None:
    sheet = projector_css()
    sizes = [int(px) for px in re.findall(r"--jp-(?:content|ui|widgets)-font-size1?:\s*(\d+)px", sheet)]
    assert sizes and min(sizes) >= BODY_FONT_PX
    assert f"@media (min-width: {SIDE_BY_SIDE_MIN_PX}px)" in sheet
    for name in ("bleu", "meteor", "chrf", "ter"):
        assert f".{css.EXPLORERS[name]}" in sheet
    # The side-by-side rules sit inside the media query: below it the row stays stacked.
    media = sheet.index("@media")
    assert sheet.index("display: grid") > media
    assert projector_css(body_px=24).count("24px") > projector_css().count("24px")


def _classes(widget: widgets.Widget) -> tuple[str, ...]:
    return tuple(getattr(widget, "_dom_classes", ()))


def _walk(widget: widgets.Widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


@pytest.mark.parametrize("make, picture, numbers", [
    (lambda: BleuExplorer("the cat sat", ["the cat sat on the mat"]), "table_html",
     ("score_html", "summary_html")),
    (lambda: MeteorExplorer("the cat sat", ["the cat sat on the mat"], stages=["exact"]), "image",
     ("summary_html",)),
    (lambda: ChrfExplorer("the cat sat", ["the cat sat on the mat"]), "image",
     ("score_html", "summary_html", "table_html")),
    (lambda: TerExplorer("the cat sat", ["the cat sat on the mat"]), "image", ("score_html", "summary_html")),
])
def test_each_explorer_puts_its_picture_and_numbers_in_one_result_row(make, picture, numbers) -> None:
    explorer = make()
    rows = [w for w in _walk(explorer) if css.RESULT in _classes(w)]
    assert len(rows) == 1
    row = rows[0]
    assert len(row.children) == 2
    shown_picture = [c for c in row.children if css.PICTURE in _classes(c)]
    panel = [c for c in row.children if css.NUMBERS in _classes(c)]
    assert shown_picture == [getattr(explorer, picture)]
    assert len(panel) == 1 and list(panel[0].children) == [getattr(explorer, name) for name in numbers]


def test_the_result_row_keeps_the_order_the_explorers_always_showed() -> None:
    # Off projector mode the row is a column: flattened, the widgets come in their old order.
    def flat(widget: widgets.Widget) -> list[widgets.Widget]:
        if css.RESULT in _classes(widget) or css.NUMBERS in _classes(widget):
            return [leaf for child in widget.children for leaf in flat(child)]
        return [widget]

    meteor = MeteorExplorer("the cat sat", ["the cat sat on the mat"], stages=["exact"])
    order = [leaf for child in meteor.children for leaf in flat(child)]
    assert order[-3:] == [meteor.score_html, meteor.image, meteor.summary_html]
    ter = TerExplorer("the cat sat", ["the cat sat on the mat"])
    order = [leaf for child in ter.children for leaf in flat(child)]
    assert order[-5:] == [ter.score_html, ter.summary_html, ter.image, ter.shifts_html, ter.edits_html]
    assert all(isinstance(w, widgets.VBox) for w in _walk(ter) if css.RESULT in _classes(w))

"""Projector mode: the workshop's explorers in large text, each picture beside its numbers on a wide screen.

A room reads a projector from metres away: the explorers' usual 13-14 px text and 650 px pictures
leave half of a 1920 px screen empty, and at 1280x720 METEOR's picture and its numbers are never on
screen together. :class:`ProjectorToggle` is a button ("Projector mode") whose state switches a style
sheet (:func:`projector_css`) on the page: text of at least :data:`BODY_FONT_PX` px, larger controls,
pictures as wide as their column, and from :data:`SIDE_BY_SIDE_MIN_PX` px of window width each
explorer's result row (``mtlearn-result``) a grid: the picture (``mtlearn-picture``) on the left half,
the numbers panel's score and summary (``mtlearn-numbers``) on the right, and chrF's per-order table,
too wide for half a 1280 px screen at that size, below both; narrower, stacked as before.

The style sheet is on the page only while the button is down, so a page that does not show the
button (every course notebook) looks as it always did. It is a style sheet and not a class on each
explorer because it must reach every explorer on the page, also those made after the button (the
corpus mode's segment explorers), and the kernel cannot put a class on the page's ``<body>``.

The workshop page starts in projector mode when its URL asks for it (``?projector=1``): Voilà passes
the page's query string to the kernel as ``$QUERY_STRING``, which :func:`projector_requested` reads.

>>> projector_requested("projector=1&token=abc"), projector_requested("token=abc")
(True, False)
>>> toggle = ProjectorToggle(on=True)
>>> toggle.button.value, "font-size" in toggle.style_html.value
(True, True)
>>> toggle.button.value = False
>>> toggle.style_html.value
''
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

import ipywidgets as widgets

from mtlearn.show import css

__all__ = ["BODY_FONT_PX", "SIDE_BY_SIDE_MIN_PX", "MAX_QUERY_CHARS", "projector_requested", "projector_css",
           "ProjectorToggle"]

#: Text size in projector mode (a room reads 20 px from the back on a 1280x720 projector).
BODY_FONT_PX = 20
#: The narrowest window, in CSS pixels, where a picture and its numbers stand side by side.
SIDE_BY_SIDE_MIN_PX = 1280
#: A query string longer than this is not read (a URL is a few hundred characters; the kernel's
#: environment should not make the first cell parse megabytes).
MAX_QUERY_CHARS = 8192
#: The values of ``projector=`` that turn the mode on (any other leaves it off).
_ON = frozenset({"1", "true", "yes", "on", ""})


def projector_requested(query_string: object) -> bool:
    """Whether a page's query string (Voilà's ``$QUERY_STRING``, without the ``?``) asks for projector mode.

    ``projector``, ``projector=1`` (or ``true``, ``yes``, ``on``) ask for it; ``projector=0`` (``false``,
    ``no``, ``off``), no ``projector`` at all, another value, a query string that is not text or longer
    than :data:`MAX_QUERY_CHARS` characters do not (a page must start whatever its URL says). The last
    ``projector`` given counts, as in a form.

    >>> projector_requested("token=abc&projector=yes"), projector_requested("projector")
    (True, True)
    >>> projector_requested("projector=1&projector=0"), projector_requested("projector=maybe")
    (False, False)
    >>> projector_requested(None), projector_requested("")
    (False, False)
    """
    if not isinstance(query_string, str) or len(query_string) > MAX_QUERY_CHARS:
        return False
    values = parse_qs(query_string.lstrip("?"), keep_blank_values=True).get("projector")
    if not values:
        return False
    value = values[-1].strip().lower()
    return value in _ON


def projector_css(body_px: int = BODY_FONT_PX, side_by_side_px: int = SIDE_BY_SIDE_MIN_PX) -> str:
    """The projector mode's style sheet: text of ``body_px`` px, larger controls and pictures, and a picture
    beside its numbers from ``side_by_side_px`` px of window width.

    It sets JupyterLab's and ipywidgets' size variables (Voilà's page and JupyterLab draw every text and
    control from them) and styles the explorers by the classes of :mod:`mtlearn.show.css`.

    >>> sheet = projector_css()
    >>> "--jp-content-font-size1: 20px" in sheet, "@media (min-width: 1280px)" in sheet
    (True, True)
    """
    x = ":is(" + ", ".join(f".{name}" for name in css.EXPLORERS.values()) + ")"  # any explorer
    result, picture, numbers = f".{css.RESULT}", f".{css.PICTURE}", f".{css.NUMBERS}"
    return f"""
:root, body {{
  --jp-content-font-size1: {body_px}px; --jp-content-font-size0: {body_px - 2}px;
  --jp-content-font-size2: {round(body_px * 1.25)}px; --jp-content-font-size3: {round(body_px * 1.5)}px;
  --jp-content-font-size4: {round(body_px * 1.8)}px; --jp-content-font-size5: {round(body_px * 2.2)}px;
  --jp-ui-font-size1: {body_px}px; --jp-code-font-size: {body_px}px;
  --jp-widgets-font-size: {body_px}px; --jp-widgets-inline-height: {round(body_px * 1.8)}px;
  --jp-widgets-inline-label-width: {body_px * 6}px; --jp-widgets-inline-width: {body_px * 20}px;
  --jp-widgets-inline-width-short: {body_px * 10}px;
  --jp-widgets-slider-handle-size: {round(body_px * 0.9)}px;
  --jp-widgets-slider-track-thickness: {round(body_px * 0.3)}px;
  font-size: {body_px}px;
}}
{x} {{ font-size: {body_px}px; }}
{x} :is(.widget-html, .widget-label, .widget-readout, textarea, input, select, td, th, summary) {{
  font-size: {body_px}px; }}
{x} .widget-html > .widget-html-content {{ line-height: 1.3; min-width: 0; }}
{x} table {{ max-width: 100%; }}
{x} p {{ overflow-wrap: break-word; }}
{x} :is(td, th) {{ padding: 2px 6px; }}
{x} textarea {{ min-height: {round(body_px * 3.2)}px; line-height: 1.3; }}
{result} img{picture} {{ width: 100%; height: auto; max-height: calc(100vh - 40px); object-fit: contain;
  object-position: left top; }}
@media (min-width: {side_by_side_px}px) {{
  /* Picture on the left (rows 1-4: the last, flexible, takes its height, so the numbers' rows keep
     theirs), the numbers panel's boxes on the right, a table too wide for half the screen below both. */
  {result}.widget-box {{ display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    grid-template-rows: auto auto auto 1fr; column-gap: 24px; align-items: start; }}
  {result} > {numbers}.widget-box {{ display: contents; }}
  {result} > {picture} {{ grid-column: 1; grid-row: 1 / 5; }}
  {result} > {numbers} > * {{ grid-column: 2; }}
  {result} > {numbers} > .{css.ORDER_TABLE} {{ grid-column: 1 / -1; grid-row: 5; }}
}}
"""


class ProjectorToggle(widgets.VBox):
    """The "Projector mode" button and the style sheet it switches on and off (:func:`projector_css`).

    ``on``: the button's state at the start (the workshop passes :func:`projector_requested` of its URL).

    >>> toggle = ProjectorToggle()
    >>> toggle.button.description, toggle.style_html.value
    ('Projector mode', '')
    >>> toggle.button.value = True
    >>> toggle.style_html.value.startswith("<style")
    True
    """

    def __init__(self, on: bool = False, **kwargs: Any) -> None:
        if not isinstance(on, bool):
            raise TypeError(f"on: expected True or False, got {type(on).__name__}")
        self.button = widgets.ToggleButton(
            value=on, description="Projector mode", icon="",
            tooltip="Large text; each picture beside its numbers on a wide screen (the URL: ?projector=1)")
        self.button.add_class(css.PROJECTOR_TOGGLE)
        self.style_html = widgets.HTML()
        self.style_html.add_class(css.PROJECTOR_STYLE)
        super().__init__([self.button, self.style_html], **kwargs)
        self.button.observe(self._switch, names="value")
        self._switch()

    def _switch(self, change: Any = None) -> None:
        sheet = f'<style class="{css.PROJECTOR_STYLE}">{projector_css()}</style>'
        self.style_html.value = sheet if self.button.value else ""

"""An explorer as a static page shows it: its inputs, numbers and picture as HTML, and a short text.

Without a kernel (a rendered book, a notebook on GitHub, a notebook opened before it runs) a widget
view shows nothing, and a front end falls back on the next representation: ipywidgets' own is the
widget's ``repr`` (``MeteorExplorer(children=(Textarea(…``), which means nothing to a reader. An
explorer's ``_repr_mimebundle_`` (:class:`~mtlearn.show.explorers._base.Explorer`) adds these two:
``text/html``, what the explorer shows in its first state (:func:`snapshot_html`), and
``text/plain``, one line (:func:`snapshot_text`). Jupyter still shows the live widget (its view
comes first).

>>> import ipywidgets as widgets
>>> box = widgets.VBox([widgets.Textarea(value="the cat", description="Candidate"),
...                     widgets.HTML("<b>BLEU = 1</b>")])
>>> page = snapshot_html(box)
>>> "the cat" in page and "<b>BLEU = 1</b>" in page and SNAPSHOT_NOTE in page
True
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterator
from typing import Any

import ipywidgets as widgets

__all__ = ["SNAPSHOT_NOTE", "SNAPSHOT_CLASS", "snapshot_html", "snapshot_text"]

#: The line under every snapshot (a reader of a static page cannot type into it).
SNAPSHOT_NOTE = "Run the notebook to explore: this is a snapshot of the explorer's first state."
#: The class of the snapshot's outer element (the book's tests find snapshots by it).
SNAPSHOT_CLASS = "mtlearn-explorer-snapshot"


def snapshot_text(explorer: widgets.Widget) -> str:
    """The explorer's plain-text representation: its name and what to do with it.

    >>> snapshot_text(widgets.VBox())
    'VBox — run the notebook to explore'
    """
    return f"{type(explorer).__name__} — run the notebook to explore"


def snapshot_html(explorer: widgets.Widget) -> str:
    """What ``explorer`` shows now, as one HTML fragment: each control's value, each HTML box as it is, each
    picture inline (a PNG data URI), hidden parts left out, then :data:`SNAPSHOT_NOTE`."""
    parts = [part for part in _parts(explorer) if part]
    note = f'<p style="font-style:italic;color:#555">{html.escape(SNAPSHOT_NOTE, quote=False)}</p>'
    return (f'<div class="{SNAPSHOT_CLASS}" data-explorer="{html.escape(type(explorer).__name__)}">'
            f'{"".join(parts)}{note}</div>')


def _hidden(widget: widgets.Widget) -> bool:
    layout = getattr(widget, "layout", None)
    return getattr(layout, "display", None) == "none" or getattr(layout, "visibility", None) == "hidden"


def _parts(widget: widgets.Widget) -> Iterator[str]:
    """The HTML of ``widget`` and its children, depth first, in the order they are shown."""
    if _hidden(widget):
        return
    if isinstance(widget, widgets.Box):
        inner = "".join(part for child in widget.children for part in _parts(child))
        if inner and isinstance(widget, widgets.HBox):  # a row of controls stays a row
            inner = f'<div style="display:flex;flex-wrap:wrap;gap:0 1.5em">{inner}</div>'
        yield inner
    else:
        yield _leaf(widget)


def _leaf(widget: widgets.Widget) -> str:
    if isinstance(widget, widgets.HTML):  # the explorer's own rendering (numbers, tables, derivations)
        return f"<div>{widget.value}</div>" if widget.value else ""
    if isinstance(widget, widgets.Image):
        return _image(widget)
    if isinstance(widget, widgets.Label):
        return f"<div>{html.escape(str(widget.value))}</div>" if widget.value else ""
    if isinstance(widget, (widgets.Textarea, widgets.Text)):
        text = html.escape(str(widget.value)) or "<i>(empty)</i>"
        return (f'<div><b>{html.escape(widget.description or "")}</b>'
                f'<pre style="margin:0.2em 0 0.5em;white-space:pre-wrap">{text}</pre></div>')
    if isinstance(widget, widgets.ValueWidget):  # a slider, a dropdown, a checkbox: its label and value
        return (f'<div><b>{html.escape(getattr(widget, "description", "") or "")}</b> '
                f"{html.escape(_value_text(widget))}</div>")
    return ""


def _value_text(widget: widgets.ValueWidget) -> str:
    value: Any = widget.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _image(image: widgets.Image) -> str:
    if not image.value:
        return ""
    kind = html.escape(image.format or "png")
    data = base64.b64encode(bytes(image.value)).decode("ascii")
    return (f'<div><img alt="the explorer\'s picture" style="max-width:100%" '
            f'src="data:image/{kind};base64,{data}"></div>')

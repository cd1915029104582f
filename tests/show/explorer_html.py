"""Reading an explorer's HTML as the browser tests do: every ``data-name`` span's value, the rows' classes.

Imported by the explorers' test files (``from explorer_html import numbers``).
"""

from __future__ import annotations

from html.parser import HTMLParser

import ipywidgets as widgets
import pytest


class _Numbers(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.exact: dict[str, str] = {}
        self.row_classes: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-name" in a:
            self.values[a["data-name"]] = a["data-value"]
            if "data-exact" in a:
                self.exact[a["data-name"]] = a["data-exact"]
        if tag == "tr" and a.get("class"):
            self.row_classes.append(a["class"])


def numbers(*html_widgets: widgets.HTML) -> _Numbers:
    parser = _Numbers()
    for w in html_widgets:
        parser.feed(w.value)
    return parser


def value(x, name: str) -> float:
    boxes = [x.score_html, x.summary_html] + [getattr(x, a) for a in ("table_html", "shifts_html")
                                              if hasattr(x, a)]
    return float(numbers(*boxes).values[name])


def dom_classes(widget) -> set[str]:
    found = set(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        found |= dom_classes(child)
    return found


def descriptions(widget) -> set[str]:
    found = {widget.description} if getattr(widget, "description", "") else set()
    for child in getattr(widget, "children", ()):
        found |= descriptions(child)
    return found


def words(n: int, prefix: str = "w") -> str:
    """``n`` distinct words: w0 w1 w2 ..."""
    return " ".join(f"{prefix}{k}" for k in range(n))


ANSWER_S = 30  # generous: each answers in well under a second


def in_time(work, seconds: float = ANSWER_S):
    """``work()`` in a forked child; its (picklable) result, or a failure if it has not answered in
    ``seconds``."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=lambda: send.send(work()))
    child.start()
    child.join(seconds)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail(f"the explorer did not answer within {seconds} s (the child was killed)")
    assert receive.poll(), f"the child died without an answer (exit code {child.exitcode})"
    return receive.recv()


"""The built book, for the tests that read it: built once per run (``make book``'s own command), its pages,
and what a page holds (links, anchors, code cells, outputs), read with the standard library's HTML parser.

>>> page = parse_page('<div id="a"><a href="#b">x</a><div class="cell_input"><pre>1 + 1</pre></div></div>')
>>> sorted(page.ids), page.hrefs, page.code
(['a'], ['#b'], ['1 + 1'])
>>> parse_page('<script src="https://cdn.example/x.js"></script><link href="s.css">').assets
['https://cdn.example/x.js', 's.css']
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from repo_paths import REPO

BOOK_OUT = REPO / "build" / "book"
LANGUAGES = ("en", "zh_CN", "es")
BUILD_TIMEOUT_S = 1800  # a hang becomes a failure; a fresh build of three editions takes minutes


def build_book() -> Path:
    """``python book/build.py html`` (what ``make book`` runs), once at a time across pytest-xdist's workers
    (a lock file); incremental, so a second call is quick. Returns ``build/book``."""
    BOOK_OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(BOOK_OUT.parent / ".book-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run([sys.executable, str(REPO / "book" / "build.py"), "html"], cwd=REPO,
                              capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    if done.returncode != 0:
        raise AssertionError(f"make book failed (exit {done.returncode}):\n{done.stdout[-3000:]}\n"
                             f"{done.stderr[-3000:]}")
    return BOOK_OUT


def pages(language: str) -> list[Path]:
    """Every HTML page of one edition, as paths relative to its folder."""
    root = BOOK_OUT / language
    return sorted(p.relative_to(root) for p in root.rglob("*.html") if "_static" not in p.parts)


@dataclass
class Page:
    """What the tests read in a page: its ids, links, code cells' text and outputs' text."""

    ids: set[str] = field(default_factory=set)
    hrefs: list[str] = field(default_factory=list)
    assets: list[str] = field(default_factory=list)  # what the page loads: src of any tag, href of <link>
    code: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    has_math: bool = False


class _Reader(HTMLParser):
    """Collects a :class:`Page`; the text inside ``div.cell_input`` / ``div.cell_output``, block by block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._block: list[str] | None = None  # "code" or "output" while inside one
        self._kind = ""
        self._depth = 0  # div depth inside the current block

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        self._note(tag, a)
        classes = a.get("class", "").split()
        if "math" in classes:
            self.page.has_math = True
        if tag != "div":
            return
        if self._block is not None:
            self._depth += 1
        elif "cell_input" in classes or "cell_output" in classes:
            self._block, self._kind, self._depth = [], "code" if "cell_input" in classes else "output", 0

    def _note(self, tag: str, a: dict[str, str]) -> None:
        """The tag's id (an ``<a>``'s name too), link and the asset it loads."""
        if a.get("id"):
            self.page.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.page.ids.add(a["name"])
        if tag == "a" and "href" in a:
            self.page.hrefs.append(a["href"])
        if a.get("src"):
            self.page.assets.append(a["src"])
        if tag == "link" and a.get("href"):
            self.page.assets.append(a["href"])

    def handle_endtag(self, tag: str) -> None:
        if tag != "div" or self._block is None:
            return
        if self._depth:
            self._depth -= 1
            return
        text = "".join(self._block).strip()
        (self.page.code if self._kind == "code" else self.page.outputs).append(text)
        self._block = None

    def handle_data(self, data: str) -> None:
        if self._block is not None:
            self._block.append(data)


def parse_page(text: str) -> Page:
    reader = _Reader()
    reader.feed(text)
    reader.close()
    return reader.page


def read_page(language: str, relative: Path) -> Page:
    return parse_page((BOOK_OUT / language / relative).read_text(encoding="utf-8"))

"""The rendered book (``make book``) read in Chromium from a local server: every page of every edition.

The book is built first, by the command ``make book`` runs (``book/build.py``, incremental; CI builds it
from a clean clone). ``python -m http.server`` serves ``build/book/`` on 127.0.0.1; each page of the
English, Chinese and Spanish editions is opened, and the test fails on:

- any request that leaves 127.0.0.1 (the browser fixture aborts and records it), and any asset a page's
  HTML names by an http(s) address (loaded or not): MathJax, require.js and the widgets' HTML manager must
  come from the book itself;
- a page whose source has math (``class="math"``) where MathJax did not render every formula
  (no ``mjx-container`` inside it) or rendered a TeX error (``mjx-merror``);
- a widget's repr in the text (``MeteorExplorer(children=(Textarea(…``), and a widget view the HTML
  manager did not draw from the notebook's stored state;
- a broken internal link: an ``href`` to a file that is not in the book, or to an anchor its page lacks;
- a picture that does not load (a figure, a plot stored in a notebook);
- a page without the language switcher.

Screenshots: ``test-artifacts/browser/book-<language>-<page>.png``, one page per edition.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

import book_site
import pytest
from browser_harness import free_port, save_screenshot

#: A widget's repr as ipywidgets writes it: a class name, then its first trait.
WIDGET_REPR = re.compile(r"\b[A-Z]\w*\((children|value|description|layout|options)=")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: The page of each edition that is photographed.
SCREENSHOTS = {"en": "notebooks/03_meteor_alignment.html", "zh_CN": "notebooks/01_bleu_from_scratch.html",
               "es": "notebooks/04_meteor_scoring.html"}
SERVER_START_S = 30.0
WIDGETS_DRAWN_MS = 30_000

MATH_STATE = """async () => {
    const all = [...document.querySelectorAll('.math')];
    if (!all.length) return {total: 0, undrawn: 0, errors: 0, mathjax: !!window.MathJax};
    if (!window.MathJax || !MathJax.startup || !MathJax.startup.promise) {
        return {total: all.length, undrawn: all.length, errors: 0, mathjax: false};
    }
    await MathJax.startup.promise;
    return {total: all.length, undrawn: all.filter(e => !e.querySelector('mjx-container')).length,
            errors: document.querySelectorAll('mjx-merror').length, mathjax: true};
}"""
#: Each widget view's script, and whether the HTML manager drew a widget just before it.
WIDGETS_DRAWN = f"""() => [...document.querySelectorAll('script[type="{WIDGET_VIEW}"]')].every(s =>
    s.previousElementSibling && s.previousElementSibling.classList.contains('widget-subarea')
    && s.previousElementSibling.childElementCount > 0)"""


@pytest.fixture(scope="module")
def book() -> Path:
    start = time.perf_counter()
    out = book_site.build_book()
    print(f"make book: {time.perf_counter() - start:.1f} s")
    return out


@pytest.fixture(scope="module")
def book_server(book: Path) -> Iterator[str]:
    """``build/book`` served on 127.0.0.1 (a free port) by Python's own HTTP server; always stopped."""
    port = free_port()
    argv = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(book)]
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            try:
                with urllib.request.urlopen(base + "index.html", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"the book's HTTP server did not start on {base}") from None
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)


def broken_links(language: str, relative: Path) -> list[str]:
    """The internal links of one page that lead nowhere in the built book."""
    root = book_site.BOOK_OUT
    here = f"http://book/{language}/{PurePosixPath(relative)}"
    problems = []
    for href in book_site.read_page(language, relative).hrefs:
        if not href or href.startswith(("http://", "https://", "mailto:", "javascript:", "data:")):
            continue
        target = urlsplit(urljoin(here, href))
        if target.netloc != "book":
            continue
        path = root / unquote(target.path).lstrip("/")
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            problems.append(f"{href} (no file {path.relative_to(root)})")
        elif target.fragment and path.suffix == ".html":
            ids = book_site.parse_page(path.read_text(encoding="utf-8")).ids
            if unquote(target.fragment) not in ids:
                problems.append(f"{href} (no anchor #{target.fragment} in {path.relative_to(root)})")
    return problems


def check_page(page, url: str) -> list[str]:
    """What is wrong with the page at ``url`` once it is loaded, its math typeset and its widgets drawn."""
    page.goto(url, wait_until="load")
    problems = []
    math = page.evaluate(MATH_STATE)
    if math["undrawn"] or math["errors"]:
        problems.append(f"math: {math['undrawn']} of {math['total']} formulas not rendered by MathJax "
                        f"(loaded: {math['mathjax']}), {math['errors']} TeX errors")
    if page.locator(f'script[type="{WIDGET_VIEW}"]').count():
        try:
            page.wait_for_function(WIDGETS_DRAWN, timeout=WIDGETS_DRAWN_MS)
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError: reported as a problem of the page
            problems.append("a widget view was not drawn from the stored widget state")
    broken = page.evaluate("""async () => {
        const images = [...document.images];
        images.forEach(i => { i.loading = 'eager'; });
        await Promise.all(images.map(i => i.decode().catch(() => null)));
        return images.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src'));
    }""")
    if broken:
        problems.append(f"{len(broken)} pictures not shown: {[s[:60] for s in broken[:3]]}")
    if page.locator("nav.mtlearn-languages").count() != 1:
        problems.append("no language switcher")
    text = page.inner_text("body")
    shown = WIDGET_REPR.search(text)
    if shown:
        problems.append(f"a widget's repr is shown: {text[shown.start():shown.start() + 80]!r}")
    return problems


@pytest.mark.parametrize("language", book_site.LANGUAGES)
def test_every_page_offline_with_math_widgets_and_links(language, book, book_server, browser, page):
    pages = book_site.pages(language)
    assert len(pages) >= 20, f"{language}: only {len(pages)} pages built"
    problems: dict[str, list[str]] = {}
    start = time.perf_counter()
    for relative in pages:
        url = f"{book_server}{language}/{PurePosixPath(relative)}"
        found = check_page(page, url) + [f"broken link {b}" for b in broken_links(language, relative)]
        found += [f"asset from the network: {a}" for a in book_site.read_page(language, relative).assets
                  if a.startswith(("http:", "https:", "//"))]
        if found:
            problems[str(relative)] = found
        if str(PurePosixPath(relative)) == SCREENSHOTS[language]:
            save_screenshot(page, f"book-{language}-{relative.stem}", height=1400)
    print(f"{language}: {len(pages)} pages in {time.perf_counter() - start:.1f} s")
    assert not browser.blocked, f"requests that left 127.0.0.1: {sorted(set(browser.blocked))[:10]}"
    assert not problems, "\n".join(f"{language}/{name}: {'; '.join(p)}" for name, p in problems.items())


def test_search_finds_pages_offline(book, book_server, browser, page):
    page.goto(book_server + "en/search.html?q=brevity", wait_until="load")
    found = page.locator("#search-results ul.search li a")
    found.first.wait_for(timeout=30_000)
    titles = found.all_inner_texts()
    assert any("BLEU" in title for title in titles), titles
    assert not browser.blocked, sorted(set(browser.blocked))[:10]


def test_the_start_page_links_every_edition(book, book_server, browser, page):
    page.goto(book_server + "index.html", wait_until="load")
    links = page.eval_on_selector_all("a[hreflang]", "els => els.map(e => e.getAttribute('href'))")
    assert links == [f"{code}/index.html" for code in book_site.LANGUAGES]
    for code in book_site.LANGUAGES:
        page.goto(book_server + f"{code}/index.html", wait_until="load")
        switcher = page.locator("nav.mtlearn-languages")
        assert switcher.count() == 1, f"{code}: no language switcher on the start page"
        other = [c for c in book_site.LANGUAGES if c != code]
        hrefs = switcher.locator("a").evaluate_all("els => els.map(e => e.getAttribute('hreflang'))")
        assert hrefs == other
    assert not browser.blocked, sorted(set(browser.blocked))[:10]

"""The book: Sphinx + myst-nb over the executed notebooks, README, ARCHITECTURE, DEVELOPERS, the metric cards.

Built by ``make book`` (``book/build.py``), which copies these sources beside this file into
``build/book-src/`` and the vendored JavaScript (MathJax, require.js, the widgets' HTML manager, from
npm: ``book/package.json``) into ``_vendor/``; nothing is fetched when the book is built or read.
The language comes from ``-D language=zh_CN`` (or ``es``); the messages from ``locales/`` (one .po per
page, ``gettext_compact = False``). The notebooks are not executed again: their stored outputs are the
ones strict nbval checks.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "mtlearn"
author = "the mtlearn authors"
copyright = "the mtlearn authors; MIT licence"  # noqa: A001 - Sphinx's name

extensions = ["myst_nb", "mtlearn_book"]
# The same MyST extensions as the translators' first extraction: the messages depend on them.
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "html_image"]
myst_heading_anchors = 3  # README's "#differences-from-other-implementations" and its like
nb_execution_mode = "off"  # the stored outputs, checked by strict nbval, are the book's
nb_merge_streams = True

source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
master_doc = root_doc = "index"
exclude_patterns = ["_build", "_vendor", "locales", "**/.ipynb_checkpoints", "notebooks/README.md",
                    "notebooks/workshop.ipynb"]

# Translations: one catalogue per page, no line numbers (a moved paragraph does not change a .po file).
language = "en"
locale_dirs = ["locales/"]
gettext_compact = False
gettext_location = False
gettext_uuid = False
gettext_additional_targets: list[str] = []  # prose only: code, outputs and images stay as they are

html_theme = "sphinx_book_theme"
html_title = "mtlearn"  # the sidebar's heading: the start page gives the full title
html_static_path = ["_static", "_vendor"]
templates_path = ["_templates"]
html_theme_options = {
    # the language switcher (mtlearn_book.py), in the header of every page, search and index included
    "article_header_start": ["toggle-primary-sidebar.html", "mtlearn-languages.html"],
    "show_toc_level": 2,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "home_page_in_toc": True,
}
html_last_updated_fmt = None
html_copy_source = False

# Vendored from npm (book/package.json); paths below are inside _static/ (html_static_path).
mathjax_path = "vendor/mathjax/tex-mml-chtml.js"
nb_ipywidgets_js = {
    "vendor/requirejs/require.js": {},
    "vendor/html-manager/embed-amd.js": {},
}
# An explorer's output carries the widget's view, an HTML snapshot of what it showed and one line of text
# (mtlearn/show/explorers/snapshot.py). Every notebook of the course stores its widget state (nbconvert keeps
# it), so the view comes first: the vendored HTML manager draws the explorer as the notebook left it, and
# the extension adds a line under it that it does not react without a kernel. A notebook without stored
# state cannot draw the view: there the extension (mtlearn_book.keep_snapshots) drops the view and the
# snapshot is shown. The priorities are myst-nb's own, written out because the book relies on them.
nb_mime_priority_overrides = [
    ("html", "application/vnd.jupyter.widget-view+json", 10),
    ("html", "text/html", 30),
    ("html", "text/plain", 100),
]

suppress_warnings = ["mystnb.unknown_mime_type"]

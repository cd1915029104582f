"""The book's own Sphinx extension: languages, translation status, explorers without widget state, licences.

- A language switcher in the header of every page, linking to the same page in the other editions with
  relative links (``../zh_CN/notebooks/01_bleu_from_scratch.html``), so it works from ``file://`` and
  from any server.
- A note on a page of a translated edition that is not (fully) translated, in that edition's language,
  computed when the book is built from the page's ``.po`` file (share of its messages translated;
  fuzzy ones do not count, Sphinx does not use them).
- ``{translation-status}``: the start page's list of pages, translated or still in English.
- ``{vendored-licences}``: the JavaScript the book ships (``package-lock.json``), versions and licences.
- An explorer's output in a notebook that stores no widget state keeps its HTML snapshot only (a widget
  view without state would show nothing, and its text is the widget's repr).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

#: The editions: language code, its name in itself.
LANGUAGES = (("en", "English"), ("zh_CN", "中文"), ("es", "Español"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

#: The book's own words in each edition (the rest is translated through the .po files).
WORDS = {
    "en": {
        "languages": "Read in:",
        "snapshot": "Run the notebook to explore: this is the explorer as the notebook left it; without a "
                    "kernel nothing is recomputed.",
        "status_intro": "How much of each page is translated in the other editions (a page not fully "
                        "translated shows its missing parts in English):",
        "page": "Page",
        "all": "translated",
        "part": "partly translated ({pct}%)",
        "none": "in English",
        "model_answer": "Model answer",
    },
    "zh_CN": {
        "languages": "语言：",
        "snapshot": "运行笔记本即可交互探索：这里显示的是笔记本运行结束时探索器的状态，"
                    "没有内核，不会重新计算。",
        "untranslated": "本页尚未翻译，以英文显示。",
        "partial": "本页尚未完全翻译（已翻译 {pct}%），未翻译的部分以英文显示。",
        "status_intro": "本书各页的翻译进度（未完全翻译的页面，未翻译的部分以英文显示）：",
        "all": "已翻译",
        "part": "部分翻译（{pct}%）",
        "none": "尚未翻译，以英文显示",
        "model_answer": "参考答案",
    },
    "es": {
        "languages": "Leer en:",
        "snapshot": "Ejecuta el cuaderno para explorar: este es el explorador tal como lo dejó el cuaderno; "
                    "sin un núcleo no se recalcula nada.",
        "untranslated": "Esta página aún no está traducida; se muestra en inglés.",
        "partial": "Esta página aún no está traducida del todo ({pct} % traducido); lo que falta se "
                   "muestra en inglés.",
        "status_intro": "Estado de la traducción de cada página (lo que aún no está traducido se muestra "
                        "en inglés):",
        "all": "traducida",
        "part": "traducida en parte ({pct} %)",
        "none": "sin traducir, se muestra en inglés",
        "model_answer": "Respuesta modelo",
    },
}


@dataclass(frozen=True)
class Share:
    """A page's messages in one language: how many there are and how many are translated."""

    translated: int
    total: int

    @property
    def percent(self) -> int:
        """Whole percent translated, rounded down (99.6% is not 100%)."""
        return 100 * self.translated // self.total if self.total else 100

    @property
    def complete(self) -> bool:
        return self.translated >= self.total


def po_share(path: Path) -> Share:
    """The share of ``path``'s messages that are translated (no file: nothing translated).

    A message counts as translated when its msgstr is not empty and it is not fuzzy.
    """
    from babel.messages.pofile import read_po

    if not path.is_file():
        return Share(0, 1)
    with path.open("rb") as handle:
        catalog = read_po(handle)
    messages = [m for m in catalog if m.id]
    done = sum(1 for m in messages if (m.string if isinstance(m.string, str) else any(m.string))
               and not m.fuzzy)
    return Share(done, len(messages))


def shares(locale_dir: Path, language: str, docnames: list[str]) -> dict[str, Share]:
    """Each page's :class:`Share` in ``language``."""
    return {doc: po_share(locale_dir / language / "LC_MESSAGES" / f"{doc}.po") for doc in docnames}


def words(app: Sphinx) -> dict[str, str]:
    return WORDS.get(app.config.language or "en", WORDS["en"])


def is_html(app: Sphinx) -> bool:
    return getattr(app.builder, "format", "") == "html"


def locale_dir(app: Sphinx) -> Path:
    return Path(app.srcdir) / app.config.locale_dirs[0]


# ---------------------------------------------------------------- explorers in notebooks without widget state


def keep_snapshots(app: Sphinx, docname: str, source: list[str]) -> None:
    """In a notebook without widget state, an output that has an HTML snapshot loses its widget view."""
    if not str(app.env.doc2path(docname)).endswith(".ipynb"):
        return
    notebook = json.loads(source[0])
    if notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state"):
        return
    changed = False
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data and "text/html" in data:
                del data[WIDGET_VIEW]
                changed = True
    if changed:
        source[0] = json.dumps(notebook)


#: How the notebooks fold a model answer (raw HTML, which gettext does not extract: translated here).
MODEL_ANSWER_SUMMARY = "<summary>Model answer</summary>"


def translate_model_answers(app: Sphinx, docname: str, source: list[str]) -> None:
    """The folded model answers' label in the edition's language (their text comes from the .po files)."""
    label = WORDS.get(app.config.language or "en", WORDS["en"]).get("model_answer", "Model answer")
    if label != "Model answer" and MODEL_ANSWER_SUMMARY in source[0]:
        source[0] = source[0].replace(MODEL_ANSWER_SUMMARY, f"<summary>{label}</summary>")


# ------------------------------------------------------------------ the switcher and the untranslated note


def language_links(app: Sphinx, pagename: str) -> str:
    """The switcher's HTML for ``pagename``: the current edition in bold, the others linked relatively."""
    up = "../" * (pagename.count("/") + 1)  # from this page to build/book/
    current = app.config.language or "en"
    items = []
    for code, name in LANGUAGES:
        if code == current:
            items.append(f'<strong lang="{code}">{html.escape(name)}</strong>')
        else:
            href = f"{up}{code}/{pagename}.html"
            items.append(f'<a class="mtlearn-language" hreflang="{code}" lang="{code}" '
                         f'href="{html.escape(href)}">{html.escape(name)}</a>')
    return (f'<nav class="mtlearn-languages" aria-label="languages">{html.escape(words(app)["languages"])} '
            f'{" · ".join(items)}</nav>')


def untranslated_note(app: Sphinx, pagename: str) -> str:
    """The note of a page not fully translated in this edition, else ''."""
    language = app.config.language or "en"
    if language == "en":
        return ""
    share = app.env.mtlearn_shares.get(language, {}).get(pagename)  # type: ignore[attr-defined]
    if share is None or share.complete:
        return ""
    w = words(app)
    text = w["untranslated"] if share.translated == 0 else w["partial"].format(pct=share.percent)
    return (f'<div class="admonition note mtlearn-untranslated" data-percent="{share.percent}">'
            f'<p>{html.escape(text)}</p></div>')


def add_switcher(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: Any) -> None:
    """The switcher for the header's template (``_templates/mtlearn-languages.html``), and the note at the
    top of a page's text."""
    context["mtlearn_languages"] = language_links(app, pagename)
    if "body" in context:
        context["body"] = untranslated_note(app, pagename) + context["body"]


# ------------------------------------------------------------------ the start page's status and the licences


class status_placeholder(nodes.General, nodes.Element):
    """Where ``{translation-status}`` goes; filled when every page's title is known."""


class TranslationStatus(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        return [status_placeholder()]


class VendoredLicences(SphinxDirective):
    """The JavaScript packages the book ships, from ``_vendor/vendor/licences.json`` (written by build.py)."""

    def run(self) -> list[nodes.Node]:
        listing = Path(self.env.srcdir) / "_vendor" / "vendor" / "licences.json"
        self.env.note_dependency(str(listing))
        if not listing.is_file():
            return [nodes.paragraph(text="(the vendored packages are listed when build.py builds the book)")]
        items = nodes.bullet_list()
        for package in json.loads(listing.read_text(encoding="utf-8")):
            para = nodes.paragraph()
            para += nodes.literal(text=f"{package['name']}@{package['version']}")
            para += nodes.Text(f" — {package['licence']} — ")
            for k, file in enumerate(package["files"]):
                para += nodes.Text(", " if k else "")
                para += nodes.reference(text=file.rsplit("/", 1)[-1], refuri=f"_static/vendor/{file}")
            items += nodes.list_item("", para)
        return [items]


def outdated_index(app: Sphinx, env: Any, added: set, changed: set, removed: set) -> list[str]:
    """The start page is read again on every build: its status list follows every page's .po file."""
    return [app.config.root_doc] if app.config.root_doc in env.found_docs else []


def page_order(app: Sphinx) -> list[str]:
    """The pages in the order of the table of contents."""
    seen: list[str] = []

    def walk(doc: str) -> None:
        for child in app.env.toctree_includes.get(doc, []):
            if child not in seen:
                seen.append(child)
                walk(child)

    walk(app.config.root_doc)
    return [app.config.root_doc] + seen


def note_widget_views(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Under each widget drawn from the notebook's stored state, a line saying it does not react here."""
    if not is_html(app):
        return
    for raw in list(doctree.findall(nodes.raw)):
        if WIDGET_VIEW in raw.astext():
            note = f'<p class="mtlearn-widget-note"><em>{html.escape(words(app)["snapshot"])}</em></p>'
            # after the output's container, so that the outputs stay the same in every edition
            output = raw.parent
            while output.parent is not None and "cell_output" not in output.get("classes", []):
                output = output.parent
            if output.parent is None:
                output = raw
            output.parent.insert(output.parent.index(output) + 1, nodes.raw("", note, format="html"))


def fill_status(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for placeholder in list(doctree.findall(status_placeholder)):
        placeholder.replace_self(status_nodes(app, docname) if is_html(app) else [])


def label(app: Sphinx, share: Share) -> str:
    w = words(app)
    if share.complete:
        return w["all"]
    return w["none"] if share.translated == 0 else w["part"].format(pct=share.percent)


def status_nodes(app: Sphinx, docname: str) -> list[nodes.Node]:
    language = app.config.language or "en"
    others = [code for code, _ in LANGUAGES if code != "en"] if language == "en" else [language]
    names = dict(LANGUAGES)
    items = nodes.bullet_list(classes=["mtlearn-translation-status"])
    for page in page_order(app):
        title = app.env.titles.get(page)
        para = nodes.paragraph()
        link = nodes.reference(refuri=app.builder.get_relative_uri(docname, page), internal=True)
        link += nodes.Text(title.astext() if title is not None else page)
        para += link
        shares_here = [(code, app.env.mtlearn_shares[code][page]) for code in others]  # type: ignore
        named = [(f"{names[code]} " if language == "en" else "") + label(app, share)
                 for code, share in shares_here]
        para += nodes.Text(": " + "; ".join(named))
        items += nodes.list_item("", para)
    return [nodes.paragraph(text=words(app)["status_intro"]), items]


def read_shares(app: Sphinx, env: Any, docnames: list[str]) -> None:
    """Every edition's share of every page, computed once the pages are known (before any is read)."""
    pages = sorted(env.found_docs)
    env.mtlearn_shares = {code: shares(locale_dir(app), code, pages) for code, _ in LANGUAGES if code != "en"}


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_node(status_placeholder)
    app.add_directive("translation-status", TranslationStatus)
    app.add_directive("vendored-licences", VendoredLicences)
    app.connect("source-read", keep_snapshots)
    app.connect("source-read", translate_model_answers)
    app.connect("env-before-read-docs", read_shares)
    app.connect("env-get-outdated", outdated_index)
    app.connect("doctree-resolved", fill_status)
    app.connect("doctree-resolved", note_widget_views)
    app.connect("html-page-context", add_switcher)
    app.add_css_file("mtlearn-book.css")
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}

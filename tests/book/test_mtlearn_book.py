"""The book's Sphinx extension (book/_ext/mtlearn_book.py), without building a book: a page's share
translated from its .po file, the switcher's relative links, explorers in notebooks without widget state."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from repo_paths import REPO

sys.path.insert(0, str(REPO / "book" / "_ext"))
import mtlearn_book  # noqa: E402

PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "BLEU from scratch"
msgstr "从零开始的 BLEU"

msgid "Precision"
msgstr ""

#, fuzzy
msgid "Recall"
msgstr "召回"

msgid "Clipping"
msgstr "截断"
"""


def test_a_page_share_counts_translated_messages_not_fuzzy_ones(tmp_path: Path):
    po = tmp_path / "page.po"
    po.write_text(PO, encoding="utf-8")
    share = mtlearn_book.po_share(po)
    assert (share.translated, share.total, share.percent, share.complete) == (2, 4, 50, False)
    assert mtlearn_book.po_share(tmp_path / "missing.po").translated == 0


def app_for(language: str, shares: dict | None = None) -> SimpleNamespace:
    env = SimpleNamespace(mtlearn_shares=shares or {})
    return SimpleNamespace(config=SimpleNamespace(language=language), env=env)


def test_the_switcher_links_the_same_page_in_the_other_editions_relatively():
    html = mtlearn_book.language_links(app_for("zh_CN"), "notebooks/01_bleu_from_scratch")
    assert 'href="../../en/notebooks/01_bleu_from_scratch.html"' in html
    assert 'href="../../es/notebooks/01_bleu_from_scratch.html"' in html
    assert '<strong lang="zh_CN">中文</strong>' in html
    assert 'href="../es/index.html"' in mtlearn_book.language_links(app_for("en"), "index")


@pytest.mark.parametrize("language, share, shown", [
    ("zh_CN", mtlearn_book.Share(0, 10), "本页尚未翻译，以英文显示。"),
    ("es", mtlearn_book.Share(3, 10), "traducida del todo (30 % traducido)"),
    ("es", mtlearn_book.Share(10, 10), None),
    ("en", mtlearn_book.Share(0, 10), None),
])
def test_a_page_not_fully_translated_says_so_in_its_language(language, share, shown):
    note = mtlearn_book.untranslated_note(app_for(language, {language: {"README": share}}), "README")
    assert (shown in note) if shown else note == ""


def notebook(with_state: bool) -> str:
    output = {"output_type": "execute_result", "execution_count": 1, "metadata": {},
              "data": {mtlearn_book.WIDGET_VIEW: {"model_id": "m"}, "text/html": "<div>snapshot</div>",
                       "text/plain": "BleuExplorer — run the notebook to explore"}}
    metadata = {"widgets": {mtlearn_book.WIDGET_STATE: {"state": {"m": {}} if with_state else {}}}}
    return json.dumps({"cells": [{"cell_type": "code", "source": "x", "metadata": {}, "outputs": [output]}],
                       "metadata": metadata, "nbformat": 4, "nbformat_minor": 5})


@pytest.mark.parametrize("with_state", [True, False])
def test_an_explorer_without_widget_state_keeps_its_snapshot_only(with_state):
    app = SimpleNamespace(env=SimpleNamespace(doc2path=lambda doc: Path(f"{doc}.ipynb")))
    source = [notebook(with_state)]
    mtlearn_book.keep_snapshots(app, "notebooks/01", source)
    data = json.loads(source[0])["cells"][0]["outputs"][0]["data"]
    assert (mtlearn_book.WIDGET_VIEW in data) is with_state
    assert data["text/html"] == "<div>snapshot</div>"


@pytest.mark.parametrize("language, label",
                         [("zh_CN", "参考答案"), ("es", "Respuesta modelo"), ("en", "Model answer")])
def test_a_folded_model_answer_is_labelled_in_the_edition_language(language, label):
    app = SimpleNamespace(config=SimpleNamespace(language=language))
    cell = {"cell_type": "markdown", "metadata": {"tags": ["model-answer"]},
            "source": "<details><summary>Model answer</summary>\n\nThe brevity penalty.\n\n</details>"}
    source = [json.dumps({"cells": [cell]})]
    mtlearn_book.translate_model_answers(app, "notebooks/01", source)
    assert f"<summary>{label}</summary>" in json.loads(source[0])["cells"][0]["source"]

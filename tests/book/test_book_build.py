"""book/build.py without building a book: what it stages, what a missing tool says, and the chooser page."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
from repo_paths import REPO

_spec = importlib.util.spec_from_file_location("book_build", REPO / "book" / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)


def test_the_sources_are_staged_and_a_removed_one_goes(tmp_path: Path):
    src = tmp_path / "src"
    build.stage_sources(src)
    staged = {str(p.relative_to(src)) for p in src.rglob("*") if p.is_file()}
    assert {"conf.py", "index.md", "README.md", "ARCHITECTURE.md", "DEVELOPERS.md",
            "notebooks/01_bleu_from_scratch.ipynb", "mtlearn/metrics/bleu/CARD.md",
            "locales/zh_CN/LC_MESSAGES/notebooks/01_bleu_from_scratch.po"} <= staged
    assert "notebooks/workshop.ipynb" not in staged  # the Voila app is not a page
    (src / "notebooks" / "99_gone.ipynb").write_text("{}")
    build.stage_sources(src)
    assert not (src / "notebooks" / "99_gone.ipynb").exists()


def test_without_npm_make_book_says_what_to_install_in_one_line(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(build, "NPM", tmp_path / "npm")
    monkeypatch.setattr(build, "stage_sources", lambda src=None: None)
    assert build.main(["html"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("book: npm not found") and "apt-get install npm" in err


def test_a_failed_step_is_one_line_naming_it():
    with pytest.raises(build.BuildError, match=r"^sphinx html \(es\) failed \(exit 3\)"):
        build.run(["python3", "-c", "raise SystemExit(3)"], "sphinx html (es)")


def test_the_chooser_links_each_edition_relatively():
    page = build.chooser_html(["en", "es"])
    assert '<a href="en/index.html" hreflang="en" lang="en">English</a>' in page
    assert 'href="es/index.html"' in page and "zh_CN" not in page


def test_a_changed_translation_makes_every_page_built_again(tmp_path: Path, monkeypatch):
    # A page's title is in every page's sidebar: a changed .po must rebuild them all, not only its own page.
    book = tmp_path / "book"
    shutil.copytree(REPO / "book", book, ignore=shutil.ignore_patterns("node_modules", "_vendor"))
    monkeypatch.setattr(build, "BOOK", book)
    before = build.project_hash()
    po = book / "locales" / "es" / "LC_MESSAGES" / "notebooks" / "09_sentence_level_with_experts.po"
    po.write_text(po.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert build.project_hash() != before

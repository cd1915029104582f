"""scripts/insert_concept_checks.py: a cell per concept check at the end of its section, idempotent."""

from __future__ import annotations

import importlib.util

import nbformat
import pytest
from repo_paths import REPO

from mtlearn.exercises.concepts import ConceptCheck, Option, concept_checks

_SPEC = importlib.util.spec_from_file_location("insert_concept_checks",
                                               REPO / "scripts" / "insert_concept_checks.py")
script = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(script)


def _check(check_id: str) -> ConceptCheck:
    return ConceptCheck(check_id, f"Question {check_id}?",
                        (Option("a", "why a"), Option("b", "why b"), Option("c", "why c")), 1)


def _notebook() -> nbformat.NotebookNode:
    """Sections 1 and 2 (the heading of 2 shares a cell with the end of 1), then an unnumbered one."""
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [md("# Title\n\nIntro."), md("## 1. First\n\nText one."), code("x = 1"),
             md("More of one.\n\n## 2. Second\n\nText two."), code("y = 2"),
             md("## Exercises\n\n```\n## not a heading, in a fence\n```"), code("z = 3")]
    for k, cell in enumerate(cells):
        cell["id"] = f"cell{k}"
    return nbformat.v4.new_notebook(cells=cells)


def _layout(nb: nbformat.NotebookNode) -> list[str]:
    return [script._check_id(c) if script._is_check_cell(c) else c.source.split("\n")[0] for c in nb.cells]


def test_checks_go_to_the_end_of_their_sections():
    nb = script.insert_checks(_notebook(), [_check("99.s1a"), _check("99.s2a"), _check("99.s2b")])
    assert _layout(nb) == ["# Title", "## 1. First", "x = 1", "More of one.", "99.s1a", "## 2. Second",
                           "y = 2", "99.s2a", "99.s2b", "## Exercises", "z = 3"]
    cell = nb.cells[4]
    assert cell.source == 'from mtlearn.exercises import concept_check\nconcept_check("99.s1a")'
    assert cell.metadata["tags"] == ["concept-check", "widget"] and cell["id"] == "concept-99-s1a"
    # The split keeps the text: the two parts are the old cell, bar the blank line at the cut.
    assert nb.cells[3].source + "\n\n" + nb.cells[5].source == "More of one.\n\n## 2. Second\n\nText two."
    nbformat.validate(nb)


def test_running_again_changes_nothing():
    checks = [_check("99.s1a"), _check("99.s2a")]
    once = script.insert_checks(_notebook(), checks)
    assert script.insert_checks(once, checks) == once


def test_a_removed_check_loses_its_cell_and_a_kept_one_keeps_its_output():
    nb = script.insert_checks(_notebook(), [_check("99.s1a"), _check("99.s2a")])
    kept = next(c for c in nb.cells if script._check_id(c) == "99.s2a")
    kept.outputs = [nbformat.v4.new_output("stream", text="shown")]
    kept.execution_count = 4
    again = script.insert_checks(nb, [_check("99.s2a")])
    assert [script._check_id(c) for c in again.cells if script._is_check_cell(c)] == ["99.s2a"]
    cell = next(c for c in again.cells if script._is_check_cell(c))
    assert cell.outputs[0]["text"] == "shown" and cell.execution_count == 4


def test_no_split_where_no_check_goes():
    nb = script.insert_checks(_notebook(), [_check("99.s2a")])
    assert "More of one.\n\n## 2. Second\n\nText two." in [c.source for c in nb.cells]


def test_a_check_for_a_missing_section_is_an_error():
    with pytest.raises(ValueError, match=r"nb: no numbered section for the concept checks 99\.s5a "
                                         r"\(its sections: 1, 2\)"):
        script.insert_checks(_notebook(), [_check("99.s5a")], "nb")


def test_on_a_course_notebook_the_second_run_writes_nothing(tmp_path, capsys):
    path = tmp_path / "01_bleu_from_scratch.ipynb"
    course = nbformat.read(REPO / "notebooks" / path.name, as_version=4)
    course.cells = [c for c in course.cells if not script._is_check_cell(c)]  # as before the checks
    nbformat.write(course, path)
    assert script.main([str(path)]) == 0
    after_first = path.read_bytes()
    assert script.main([str(path)]) == 0
    assert path.read_bytes() == after_first
    out = capsys.readouterr().out.splitlines()
    n = len(concept_checks("01"))
    assert out == [f"{path.name}: {n} concept checks, updated", f"{path.name}: {n} concept checks, unchanged"]
    nb = nbformat.read(path, as_version=4)
    assert sorted(script._check_id(c) for c in nb.cells if script._is_check_cell(c)) == sorted(
        c.id for c in concept_checks("01"))


def test_a_missing_file_is_one_line_and_exit_2(tmp_path, capsys):
    assert script.main([str(tmp_path / "01_nothing.ipynb")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("insert_concept_checks: ") and err.count("\n") == 1

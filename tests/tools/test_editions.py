"""``make student`` and ``make instructor``: both editions build from the committed notebooks,
the instructor edition runs top to bottom, and the student edition gives no solution away.

The student edition is what is handed out, so it is checked for everything that could
carry a solution: the marker lines, any line of a worked solution (a line that also
appears outside the solution regions, such as a function's ``def`` line, is no
giveaway), stored outputs and execution counts, saved widget state, cell metadata and
attachments, notebook metadata other than the kernel's; and each exercise's
check is keyed by its id (``check("02.1", answer_1)``, ``check_function("02.c1", f)``),
so that no cell holds the expression that computes the answer.
"""

from __future__ import annotations

import ast
import re
import zipfile
from pathlib import Path

import nbformat
import pytest
from notebook_cells import parse_cell
from repo_paths import REPO

pytest.importorskip("nbgrader",
                    reason="the editions need nbgrader (the notebooks extra: pip install -e '.[notebooks]')")

from mtlearn.tools.editions import (  # noqa: E402  (after the skip: the module needs nbgrader to build)
    BEGIN_SOLUTION,
    END_SOLUTION,
    MODEL_ANSWER_TAG,
    EditionError,
    build_edition,
    edition_notebooks,
    open_model_answer,
    solution_lines,
    student_notebook,
)

SOURCE = REPO / "notebooks"
NAMES = [p.name for p in edition_notebooks(SOURCE)]
STUB = "raise NotImplementedError()"

# The exercise checks of mtlearn.exercises, as a notebook calls them.
CHECKS = {"check": re.compile(r"\d\d\.\d+"), "check_function": re.compile(r"\d\d\.c\d+")}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("editions")
    student = build_edition("student", SOURCE, out / "student", archive=out / "mtlearn-student.zip")
    instructor = build_edition("instructor", SOURCE, out / "instructor")
    return student, instructor


def _code(nb: nbformat.NotebookNode) -> list[str]:
    return [cell.source for cell in nb.cells if cell.cell_type == "code"]


def _read(folder: Path, name: str) -> nbformat.NotebookNode:
    nb = nbformat.read(folder / name, as_version=4)
    nbformat.validate(nb)
    return nb


def _outside_solutions(nb: nbformat.NotebookNode) -> set[str]:
    """The stripped lines of ``nb`` outside every solution region."""
    lines, inside = set(), False
    for cell in nb.cells:
        for line in cell.source.splitlines():
            if BEGIN_SOLUTION in line:
                inside = True
            elif END_SOLUTION in line:
                inside = False
            elif not inside:
                lines.add(line.strip())
    return lines


def _calls(source: str, name: str) -> list[ast.Call]:
    return [node for node in ast.walk(parse_cell(source))  # '!command' cells are IPython, not Python
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name]


def test_both_editions_hold_every_numbered_notebook(built):
    student, instructor = built
    assert len(NAMES) >= 7, NAMES
    assert student.notebooks == instructor.notebooks == tuple(NAMES)
    for edition in built:
        assert sorted(p.name for p in edition.folder.glob("*.ipynb")) == NAMES
    with zipfile.ZipFile(student.archive) as zf:
        assert sorted(Path(n).name for n in zf.namelist() if n.endswith(".ipynb")) == NAMES
        assert all(n.startswith("student/") for n in zf.namelist())


def test_every_committed_notebook_has_worked_solutions():
    # At least two coding exercises per notebook, each with its worked solution (08 has two too).
    for name in NAMES:
        nb = _read(SOURCE, name)
        regions = sum(c.source.count(BEGIN_SOLUTION) for c in nb.cells)
        assert regions >= 2, f"{name}: {regions} solution regions, expected at least two coding exercises"


@pytest.mark.parametrize("name", NAMES)
def test_student_edition_contains_no_solution(built, name):
    student, _ = built
    committed = _read(SOURCE, name)
    nb = _read(student.folder, name)
    giveaways = set(solution_lines(committed)) - _outside_solutions(committed)
    for k, cell in enumerate(nb.cells):
        where = f"{name} cell {k}"
        assert (BEGIN_SOLUTION not in cell.source
                and END_SOLUTION not in cell.source), f"{where}: a marker is left"
        leaked = giveaways & {line.strip() for line in cell.source.splitlines()}
        assert not leaked, f"{where}: solution lines {sorted(leaked)}"
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{where}: stored output"
        assert cell.metadata == {} and "attachments" not in cell, f"{where}: metadata or attachments left"
    assert (set(nb.metadata)
            <= {"kernelspec", "language_info"}), f"{name}: notebook metadata {sorted(nb.metadata)}"
    stubs = sum(c.source.count(STUB) for c in nb.cells)
    assert (stubs
            == sum(c.source.count(BEGIN_SOLUTION) for c in committed.cells)), f"{name}: one stub per solution"


@pytest.mark.parametrize("name", NAMES)
def test_student_checks_are_keyed_by_id(built, name):
    student, _ = built
    number = name[:2]
    calls = {kind: [] for kind in CHECKS}
    for cell in _read(student.folder, name).cells:
        if cell.cell_type != "code":
            continue
        for kind, pattern in CHECKS.items():
            for call in _calls(cell.source, kind):
                first = call.args[0] if call.args else None
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{name}: {kind}(...) not keyed by an exercise id: {ast.unparse(call)}")
                assert pattern.fullmatch(first.value) and first.value.startswith(number + "."), (
                    f"{name}: {kind} id {first.value!r}")
                assert len(call.args) == 2 and isinstance(call.args[1], ast.Name) and not call.keywords, (
                    f"{name}: {ast.unparse(call)}: the answer is a name, never an expression")
                calls[kind].append(first.value)
    assert calls["check"], f"{name}: no check('{number}.k', answer_k)"
    assert len(calls["check_function"]) >= 2, f"{name}: fewer than two coding exercises"
    for ids in calls.values():
        assert len(ids) == len(set(ids)), f"{name}: an exercise id is checked twice: {ids}"


@pytest.mark.parametrize("name", NAMES)
def test_instructor_edition_is_executed_and_every_check_prints_correct(built, name):
    # build_edition executed the instructor edition (about 80 s for the ten notebooks, once, in the fixture):
    # its outputs are its own, and every filled answer and worked solution is told "correct" (the committed
    # notebooks print "not yet: replace None ..." for each unanswered check).
    _, instructor = built
    nb = _read(instructor.folder, name)
    source = _read(SOURCE, name)
    assert sum(c.source.count(BEGIN_SOLUTION) for c in nb.cells) == \
        sum(c.source.count(BEGIN_SOLUTION) for c in source.cells), f"{name}: a solution is missing"
    checked = 0
    for k, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.outputs:
            assert out.output_type != "error", f"{name} cell {k}: {out.get('ename')}: {out.get('evalue')}"
        printed = "".join(out.get("text", "") for out in cell.outputs if out.output_type == "stream")
        if _calls(cell.source, "check_function"):
            assert printed.strip().startswith("correct:"), f"{name} cell {k}: {printed!r}"
            checked += 1
        elif _calls(cell.source, "check"):
            assert printed.strip().splitlines()[-1:] == ["correct"], f"{name} cell {k}: {printed!r}"
            checked += 1
    assert checked >= 4, f"{name}: only {checked} checks ran"


def test_an_instructor_notebook_that_fails_when_executed_is_refused(tmp_path):
    source = tmp_path / "notebooks"
    source.mkdir()
    cells = [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell("1 / 0")]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), source / "01_broken.ipynb")
    with pytest.raises(EditionError, match=r"01_broken.ipynb, cell 1 fails when executed: ZeroDivisionError"):
        build_edition("instructor", source, tmp_path / "instructor")
    assert not (tmp_path / "instructor").exists()
    kept = build_edition("instructor", source, tmp_path / "kept", execute=False)
    assert _read(kept.folder, "01_broken.ipynb").cells[1].outputs == []
    kernel = {"name": "no-such-kernel", "display_name": "none"}
    nb = nbformat.v4.new_notebook(cells=cells[:1], metadata={"kernelspec": kernel})
    nbformat.write(nb, source / "01_broken.ipynb")
    with pytest.raises(EditionError, match="01_broken.ipynb, no Jupyter kernel named 'no-such-kernel'"):
        build_edition("instructor", source, tmp_path / "instructor")


def test_student_notebook_drops_model_answers():
    answer = nbformat.v4.new_markdown_cell("**Model answer.** The brevity penalty.",
                                           metadata={"tags": [MODEL_ANSWER_TAG]})
    question = nbformat.v4.new_markdown_cell("Which factor is responsible?")
    nb = nbformat.v4.new_notebook(cells=[question, answer])
    assert [c.source for c in student_notebook(nb).cells] == [question.source]


def test_student_notebook_keeps_concept_checks_without_their_outputs():
    # A concept check's cell holds only its id (the answer and the explanations live in mtlearn), so the
    # student edition keeps it; its stored output (the question as HTML) goes with every other output.
    from mtlearn.exercises import concept_check

    source = 'from mtlearn.exercises import concept_check\nconcept_check("01.s2a")'
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["concept-check"]}, execution_count=3,
                                     outputs=[nbformat.v4.new_output(
                                         "display_data", data=concept_check("01.s2a")._repr_mimebundle_())])
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("## 2. Clipping"), cell])
    student = student_notebook(nb)
    kept = student.cells[1]
    assert kept.source == source and kept.outputs == [] and kept.execution_count is None
    assert kept.metadata == {}
    check = concept_check("01.s2a").check
    assert not any(o.explanation in kept.source for o in check.options)


@pytest.mark.parametrize("name", NAMES)
def test_model_answers_reach_the_instructor_only_and_open(built, name):
    student, instructor = built
    answers = [cell.source for cell in _read(SOURCE, name).cells
               if MODEL_ANSWER_TAG in cell.metadata.get("tags", [])]
    student_text = "\n".join(cell.source for cell in _read(student.folder, name).cells)
    instructor_cells = [cell.source for cell in _read(instructor.folder, name).cells
                        if MODEL_ANSWER_TAG in cell.metadata.get("tags", [])]
    assert "Model answer" not in student_text, f"{name}: a model answer in the student edition"
    assert len(instructor_cells) == len(answers), f"{name}: a model answer missing"
    for source, shown in zip(answers, instructor_cells):
        assert source not in student_text, f"{name}: model answer left for the student"
        body = re.sub(r"</?(details|summary)>|Model answer", "", source).strip()
        assert shown.startswith("**Model answer.**") and shown.endswith(body), f"{name}: {shown[:80]!r}"
        assert "<details>" not in shown and "<summary>" not in shown, f"{name}: still folded"


def test_open_model_answer_unfolds_only_a_whole_details_cell():
    folded = "<details><summary>Model answer</summary>\n\nThe brevity penalty.\n\n</details>"
    assert open_model_answer(folded) == "**Model answer.**\n\nThe brevity penalty."
    for kept in ("The brevity penalty.", "<details><summary>Hint</summary>x</details> and more"):
        assert open_model_answer(kept) == kept


@pytest.mark.parametrize("name", NAMES)
def test_instructor_edition_carries_every_checked_answer(built, name):
    from mtlearn.exercises import exercise

    _, instructor = built
    for k, source in enumerate(_code(_read(instructor.folder, name))):
        for call in _calls(source, "check"):
            exercise_id, variable = call.args[0].value, call.args[1].id
            namespace: dict = {}
            assignments = [line for line in source.splitlines() if line.startswith(f"{variable} =")]
            assert assignments and f"{variable} = None" not in assignments, f"{name} cell {k}: no answer"
            exec("from fractions import Fraction\n" + assignments[-1], namespace)
            assert namespace[variable] == exercise(exercise_id).answer(), f"{name} cell {k}: {exercise_id}"

"""The notebooks as nbgrader's *release source*: every checked exercise a solution cell and a locked,
autograded test cell, every open question a manually graded answer.

``make nbgrader-source`` (``python -m mtlearn.tools.editions nbgrader --out build/nbgrader/source/mtlearn``)
writes this edition into an nbgrader course folder; nbgrader's own ``generate_assignment`` makes the
student release from it, and ``autograde`` grades what the students hand back. From each committed
notebook:

* a cell ``answer_1 = None`` / ``check("01.1", answer_1)`` becomes a **solution cell** whose
  ``answer_1 = None`` line is followed by a solution region holding the instructor's value (computed
  by :mod:`mtlearn.exercises`, as in the instructor edition), and after it a **test cell**, locked and
  graded (``grade_id`` ``ex-01-1``, 1 point), that calls :func:`mtlearn.exercises.assert_correct`,
  which raises unless the answer is correct;
* a coding exercise's cell (its worked solution between the markers, then ``check_function``) becomes
  a solution cell and a test cell calling :func:`mtlearn.exercises.assert_function` (``ex-01-c1``);
* a model answer (a markdown cell tagged ``model-answer``) becomes a manually graded answer cell
  (solution and grade, 1 point): the release shows nbgrader's "YOUR ANSWER HERE" in its place, the
  instructor's formgrader the model answer, opened (:func:`mtlearn.tools.edition_cells.open_model_answer`).

The judging rules are the checks' own; nothing here decides what is correct.

>>> import nbformat
>>> cell = nbformat.v4.new_code_cell('answer_1 = None\\ncheck("01.1", answer_1)')
>>> nb = nbformat.v4.new_notebook(cells=[cell])
>>> solution, test = nbgrader_notebook(nb).cells
>>> print(solution.source)
answer_1 = None
### BEGIN SOLUTION
from fractions import Fraction
answer_1 = Fraction(3, 4)
### END SOLUTION
check("01.1", answer_1)
>>> print(test.source)
from mtlearn.exercises import assert_correct
assert_correct("01.1", answer_1)
>>> test.metadata.nbgrader["grade_id"], test.metadata.nbgrader["points"], test.metadata.nbgrader["locked"]
('ex-01-1', 1, True)
"""

from __future__ import annotations

import copy
import re

import nbformat

from mtlearn.tools.edition_cells import (
    BEGIN_SOLUTION,
    END_SOLUTION,
    answer_literal,
    is_model_answer,
    open_model_answer,
    solution_marker,
)
from mtlearn.tools.edition_folder import EditionError

__all__ = ["POINTS", "grade_id", "nbgrader_notebook"]

#: The points of every autograded exercise and of every manually graded answer.
POINTS = 1

_CHECK = re.compile(r"""^\s*check\(\s*["'](\d\d\.\d+)["']\s*,\s*(answer_\d+)\s*\)""", re.MULTILINE)
_CHECK_FUNCTION = re.compile(r"""^\s*check_function\(\s*["'](\d\d\.c\d+)["']\s*,\s*([A-Za-z_]\w*)\s*\)""",
                             re.MULTILINE)


def grade_id(kind: str, exercise_id: str) -> str:
    """An nbgrader ``grade_id`` (letters, digits, ``_`` and ``-`` only) for an exercise id.

    >>> grade_id("ex", "01.c2")
    'ex-01-c2'
    """
    return f"{kind}-{exercise_id.replace('.', '-')}"


def _metadata(cell_id: str, *, solution: bool, grade: bool) -> dict:
    """nbgrader's cell metadata (schema 3): a solution cell, a locked test cell, or a manually graded
    answer."""
    meta = {"grade": grade, "grade_id": cell_id, "locked": grade and not solution, "schema_version": 3,
            "solution": solution, "task": False}
    if grade:
        meta["points"] = POINTS
    return meta


def _nbgrader_cell(cell: nbformat.NotebookNode, meta: dict) -> nbformat.NotebookNode:
    cell.metadata["nbgrader"] = meta
    if cell.cell_type == "code":
        cell.outputs, cell.execution_count = [], None
    return cell


def _test_cell(helper: str, exercise_id: str, name: str) -> nbformat.NotebookNode:
    source = f'from mtlearn.exercises import {helper}\n{helper}("{exercise_id}", {name})'
    return _nbgrader_cell(nbformat.v4.new_code_cell(source), _metadata(grade_id("ex", exercise_id),
                                                                       solution=False, grade=True))


def _with_solution_values(source: str, where: str) -> str:
    """``source`` with a solution region after each ``answer_n = None`` of a checked answer."""
    from mtlearn.exercises import exercise  # lazily: the catalogue computes with mtlearn

    for exercise_id, name in _CHECK.findall(source):
        literal = answer_literal(exercise(exercise_id).answer())
        imports = "from fractions import Fraction\n" if literal.startswith("Fraction(") else ""
        pattern = re.compile(rf"^{name}\s*=\s*None\s*$", re.MULTILINE)
        if not pattern.search(source):
            raise EditionError(f"{where}: check({exercise_id!r}, {name}) but no line {name} = None")
        region = f"{name} = None\n{BEGIN_SOLUTION}\n{imports}{name} = {literal}\n{END_SOLUTION}"
        source = pattern.sub(lambda _, text=region: text, source, count=1)
    return source


def _has_region(source: str) -> bool:
    return any(solution_marker(line) == "begin" for line in source.splitlines())


def _split_code_cell(cell: nbformat.NotebookNode, index: int, where: str) -> list[nbformat.NotebookNode]:
    """A code cell as nbgrader cells: itself (a solution cell if it holds an exercise) and its test cells."""
    answers, functions = _CHECK.findall(cell.source), _CHECK_FUNCTION.findall(cell.source)
    if answers:
        cell.source = _with_solution_values(cell.source, where)
    if not (answers or functions or _has_region(cell.source)):
        return [cell]
    first = (answers + functions)[0][0] if answers or functions else f"cell-{index}"
    solution = _nbgrader_cell(cell, _metadata(grade_id("answer", first), solution=True, grade=False))
    tests = [_test_cell("assert_correct", eid, name) for eid, name in answers]
    tests += [_test_cell("assert_function", eid, name) for eid, name in functions]
    return [solution, *tests]


def nbgrader_notebook(nb: nbformat.NotebookNode, where: str = "") -> nbformat.NotebookNode:
    """A copy of ``nb`` as nbgrader's release source (see the module's docstring); ``where`` names the
    notebook in an :class:`EditionError` (a checked answer with no ``answer_n = None`` line)."""
    source = copy.deepcopy(nb)
    cells: list[nbformat.NotebookNode] = []
    answers = 0
    for index, cell in enumerate(source.cells):
        if cell.cell_type == "code":
            cells += _split_code_cell(cell, index, f"{where}cell {index}")
        elif cell.cell_type == "markdown" and is_model_answer(cell):
            answers += 1
            cell.source = open_model_answer(cell.source)
            cells.append(_nbgrader_cell(cell, _metadata(f"open-{answers}", solution=True, grade=True)))
        else:
            cells.append(cell)
    source.cells = cells
    # Every cell an id from its position (nbformat 4.5): the split cells are new, and a rebuild is the same.
    source.nbformat_minor = max(source.get("nbformat_minor", 5), 5)
    for index, cell in enumerate(source.cells):
        cell.id = f"cell-{index}"
    return source

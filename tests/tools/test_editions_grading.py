"""Grading with nbgrader: the release source (``make nbgrader-source``, mtlearn/tools/nbgrader_source.py)
goes through nbgrader's own ``generate_assignment`` and ``autograde`` in a course folder of the test's own.

Notebook 01's nbgrader source is the assignment ``ps1``. Two students hand it back: one with every
answer and every function written (the instructor's solutions typed in place of the stubs), one as
released. ``nbgrader autograde`` runs both; the gradebook must give the first every autograded point
and the second none, the open questions waiting for the instructor's manual grade in both.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from repo_paths import REPO

pytest.importorskip("nbgrader", reason="grading needs nbgrader (the notebooks extra)")

from mtlearn.exercises import exercises  # noqa: E402
from mtlearn.tools.edition_cells import solution_marker  # noqa: E402
from mtlearn.tools.editions import build_edition, read_notebook  # noqa: E402
from mtlearn.tools.nbgrader_source import POINTS, grade_id, nbgrader_notebook  # noqa: E402

NOTEBOOK = "01_bleu_from_scratch.ipynb"
ASSIGNMENT = "ps1"


def _nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m nbgrader ARGS`` in ``course``; nbgrader runs ``alembic`` from the environment's bin folder
    and its kernels import this checkout's mtlearn."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def _without_markers(source: str) -> str:
    return "\n".join(line for line in source.split("\n") if solution_marker(line) is None)


def _handed_in(release: nbformat.NotebookNode, source: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The release with every solution cell written as the instructor's solution (markers gone) and every
    open question answered with the model answer."""
    solutions = {cell.metadata.nbgrader["grade_id"]: cell.source for cell in source.cells
                 if cell.metadata.get("nbgrader", {}).get("solution")}
    filled = nbformat.from_dict(release)
    for cell in filled.cells:
        cell_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell_id in solutions:
            cell.source = _without_markers(solutions[cell_id])
    return filled


def _grades(course: Path, student: str) -> dict[str, tuple[float, float, bool]]:
    """Every grade of the student's submission: grade id -> (score, max score, needs manual grade)."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission_notebook(NOTEBOOK.removesuffix(".ipynb"), ASSIGNMENT, student)
        return {grade.name: (grade.score, grade.max_score, grade.needs_manual_grade)
                for grade in submission.grades}


def test_autograde_gives_full_marks_for_the_solutions_and_zero_for_the_release(tmp_path):
    course = tmp_path / "course"
    (course / "source" / ASSIGNMENT).mkdir(parents=True)
    (course / "nbgrader_config.py").write_text('c = get_config()\nc.CourseDirectory.course_id = "mtlearn"\n')
    source = nbgrader_notebook(read_notebook(REPO / "notebooks" / NOTEBOOK))
    nbformat.write(source, course / "source" / ASSIGNMENT / NOTEBOOK)
    _nbgrader(course, "generate_assignment", ASSIGNMENT)
    release = nbformat.read(course / "release" / ASSIGNMENT / NOTEBOOK, as_version=4)
    for student, nb in (("full", _handed_in(release, source)), ("empty", release)):
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / NOTEBOOK)
    _nbgrader(course, "autograde", ASSIGNMENT)

    ids = [e.id for e in exercises("01")]
    autograded = {grade_id("ex", exercise_id) for exercise_id in ids}
    full, empty = _grades(course, "full"), _grades(course, "empty")
    assert autograded <= set(full), f"an exercise of notebook 01 has no test cell: {autograded - set(full)}"
    for name in autograded:
        assert full[name] == (POINTS, POINTS, False), f"full marks expected for {name}: {full[name]}"
        assert empty[name] == (0, POINTS, False), f"zero expected for {name}: {empty[name]}"
    manual = set(full) - autograded
    assert manual, "notebook 01's open questions are not manually graded answers"
    for name in manual:  # an answered open question waits for the instructor; one left as released scores 0
        assert full[name][1:] == (POINTS, True) and empty[name] == (0, POINTS, False), (name, full[name])


def test_the_nbgrader_source_of_every_notebook_is_valid_and_tests_every_exercise(tmp_path):
    from nbgrader.nbgraderformat import MetadataValidator

    edition = build_edition("nbgrader", REPO / "notebooks", tmp_path / "source" / "mtlearn")
    for name in edition.notebooks:
        nb = nbformat.read(edition.folder / name, as_version=4)
        MetadataValidator().validate_nb(nb)  # nbgrader's own checks: ids unique, points, markdown answers
        graded = {cell.metadata.nbgrader["grade_id"] for cell in nb.cells
                  if cell.metadata.get("nbgrader", {}).get("grade") and cell.cell_type == "code"}
        assert graded == {grade_id("ex", e.id) for e in exercises(name[:2])}, name
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("grade") and cell.cell_type == "code":
                assert meta["locked"] and not meta["solution"] and "assert_" in cell.source, name
            if cell.cell_type == "markdown":
                assert "<details>" not in cell.source, f"{name}: a model answer still folded"


def test_a_checked_answer_without_its_none_line_is_refused():
    from mtlearn.tools.edition_folder import EditionError

    cell = nbformat.v4.new_code_cell('answer_1 = 3\ncheck("01.1", answer_1)')
    with pytest.raises(EditionError, match="no line answer_1 = None"):
        nbgrader_notebook(nbformat.v4.new_notebook(cells=[cell]), "01_x.ipynb, ")

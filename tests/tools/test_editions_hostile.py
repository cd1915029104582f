"""The editions builder (mtlearn/tools/editions.py) against what a user may point it at.

Every destructive case runs on a fake clone in ``tmp_path`` (a ``.git`` folder, a
``notebooks/`` folder of two small notebooks, a user's ``mywork/thesis.txt``), never on
the repository's own notebooks, and checks that every file that must survive is still
there byte for byte. A refusal is one line on standard error naming the path and the
reason, exit status 2, and nothing written or deleted. ``HOME`` points into ``tmp_path``
so that the home-folder rule is tested on a folder of the test's own.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgrader",
                    reason="the editions need nbgrader (the notebooks extra: pip install -e '.[notebooks]')")

from mtlearn.tools import editions  # noqa: E402  (after the skip: the module needs nbgrader to build)
from mtlearn.tools.editions import SolutionMarkerWarning, build_edition, main, student_notebook  # noqa: E402

PROG = "mtlearn.tools.editions: "
SOLUTION = "return 2 * x  # the worked solution"
THESIS = "four years of work\n"


def _notebook(*cells: nbformat.NotebookNode, **metadata) -> nbformat.NotebookNode:
    metadata.setdefault("kernelspec", {"name": "python3", "display_name": "Python 3", "language": "python"})
    metadata.setdefault("language_info", {"name": "python", "version": "3.11"})
    return nbformat.v4.new_notebook(cells=list(cells), metadata=metadata)


def _exercise(begin: str = "### BEGIN SOLUTION", end: str = "### END SOLUTION") -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(f"def twice(x):\n    {begin}\n    {SOLUTION}\n    {end}")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "users" / "home"  # beside the clone, not in a folder that also holds it
    folder.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(folder))
    return folder


@pytest.fixture
def clone(tmp_path) -> Path:
    """A fake clone: .git, notebooks/ (01, 02, README.md), mywork/thesis.txt, afile.txt."""
    root = tmp_path / "clone"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    source = root / "notebooks"
    source.mkdir()
    nbformat.write(_notebook(nbformat.v4.new_markdown_cell("# One"), _exercise()), source / "01_first.ipynb")
    nbformat.write(_notebook(nbformat.v4.new_code_cell("print(1)")), source / "02_second.ipynb")
    (source / "README.md").write_text("Run them in order.\n")
    (root / "mywork").mkdir()
    (root / "mywork" / "thesis.txt").write_text(THESIS)
    (root / "afile.txt").write_text("notes\n")
    return root


def _snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (``.git`` included), by relative path, with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _refused(capsys, status: int, *fragments: str) -> str:
    """Exit 2 and exactly one line on stderr, from the builder, holding every fragment."""
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(PROG), err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return err


def _run(clone: Path, *args: str) -> int:
    return main(["student", "--source", str(clone / "notebooks"), *args])


# --- E1: --out and --zip never name something the builder must not delete -------------------

@pytest.mark.parametrize("force", [[], ["--force"]])
def test_out_naming_the_source_folder_is_refused(clone, capsys, force):
    before = _snapshot(clone)
    status = _run(clone, "--out", str(clone / "notebooks"), *force)
    _refused(capsys, status, str(clone / "notebooks"), "source folder")
    assert _snapshot(clone) == before


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_out_dot_in_the_clone_is_refused(clone, capsys, monkeypatch, force):
    # The clone's root holds the source folder and .git: neither may go, --force or not.
    monkeypatch.chdir(clone)
    before = _snapshot(clone)
    status = main(["student", "--out", ".", *force])
    _refused(capsys, status, str(clone))
    assert _snapshot(clone) == before and (clone / ".git" / "HEAD").is_file()


def test_out_naming_a_parent_of_the_source_is_refused(clone, capsys):
    before = _snapshot(clone)
    status = _run(clone, "--out", str(clone.parent), "--force")
    _refused(capsys, status, str(clone.parent), "holds the source folder")
    assert _snapshot(clone) == before


def test_out_naming_another_repository_root_is_refused(clone, tmp_path, capsys):
    other = tmp_path / "other-repo"
    (other / ".git").mkdir(parents=True)
    (other / "code.py").write_text("x = 1\n")
    status = _run(clone, "--out", str(other), "--force")
    _refused(capsys, status, str(other), ".git")
    assert (other / "code.py").read_text() == "x = 1\n" and (other / ".git").is_dir()


@pytest.mark.parametrize("where", ["home", "parent"])
def test_out_naming_the_home_folder_or_its_parent_is_refused(clone, home, capsys, where):
    (home / "diary.txt").write_text("dear diary\n")
    target = home if where == "home" else home.parent
    status = _run(clone, "--out", str(target), "--force")
    _refused(capsys, status, str(target), "home folder")
    assert (home / "diary.txt").read_text() == "dear diary\n"


def test_out_naming_a_users_folder_is_refused(clone, capsys):
    before = _snapshot(clone)
    status = _run(clone, "--out", str(clone / "mywork"))
    _refused(capsys, status, str(clone / "mywork"), "not empty", "--force")
    assert _snapshot(clone) == before


def test_force_writes_into_a_users_folder_and_deletes_nothing(clone, capsys):
    mywork = clone / "mywork"
    assert _run(clone, "--out", str(mywork), "--force") == 0
    assert (mywork / "thesis.txt").read_text() == THESIS
    assert sorted(p.name for p in mywork.glob("*.ipynb")) == ["01_first.ipynb", "02_second.ipynb"]
    assert SOLUTION not in (mywork / "01_first.ipynb").read_text()


def test_out_naming_a_file_is_refused(clone, capsys):
    before = _snapshot(clone)
    status = _run(clone, "--out", str(clone / "afile.txt"))
    _refused(capsys, status, str(clone / "afile.txt"), "not a folder")
    assert _snapshot(clone) == before


def test_out_a_link_to_the_source_folder_is_refused(clone, tmp_path, capsys):
    link = tmp_path / "link"
    link.symlink_to(clone / "notebooks", target_is_directory=True)
    before = _snapshot(clone)
    status = _run(clone, "--out", str(link), "--force")
    _refused(capsys, status, str(link), "source folder")
    assert _snapshot(clone) == before


def test_zip_naming_a_source_notebook_is_refused(clone, tmp_path, capsys):
    before = _snapshot(clone)
    status = _run(clone, "--out", str(tmp_path / "student"), "--zip",
                  str(clone / "notebooks" / "01_first.ipynb"))
    _refused(capsys, status, "01_first.ipynb", ".zip")
    assert _snapshot(clone) == before and not (tmp_path / "student").exists()


@pytest.mark.parametrize("where", ["source", "out", "folder"])
def test_zip_inside_the_source_or_the_edition_or_on_a_folder_is_refused(clone, tmp_path, capsys, where):
    out = tmp_path / "student"
    archive = {"source": clone / "notebooks" / "handout.zip", "out": out / "handout.zip",
               "folder": clone / "mywork"}[where]
    if where == "folder":
        archive = clone / "mywork.zip"
        archive.mkdir()
    before = _snapshot(clone)
    status = _run(clone, "--out", str(out), "--zip", str(archive), "--force")
    _refused(capsys, status, str(archive))
    assert _snapshot(clone) == before and not out.exists()


def test_zip_never_replaces_a_zip_it_did_not_write_without_force(clone, tmp_path, capsys):
    theirs = tmp_path / "theirs.zip"
    with zipfile.ZipFile(theirs, "w") as zf:
        zf.writestr("thesis.txt", THESIS)
    before = theirs.read_bytes()
    status = _run(clone, "--out", str(tmp_path / "student"), "--zip", str(theirs))
    _refused(capsys, status, str(theirs), "--force")
    assert theirs.read_bytes() == before
    assert _run(clone, "--out", str(tmp_path / "student"), "--zip", str(theirs), "--force") == 0
    with zipfile.ZipFile(theirs) as zf:
        assert sorted(zf.namelist()) == ["student/01_first.ipynb", "student/02_second.ipynb",
                                         "student/README.md"]


def test_rebuilding_replaces_the_builders_files_only(clone, tmp_path, capsys):
    out, archive = tmp_path / "build" / "student", tmp_path / "build" / "student.zip"
    assert _run(clone, "--out", str(out), "--zip", str(archive)) == 0
    (out / "my-notes.txt").write_text("mine\n")
    (clone / "notebooks" / "02_second.ipynb").unlink()
    assert _run(clone, "--out", str(out), "--zip", str(archive)) == 0  # its own folder and zip: no --force
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "01_first.ipynb", "README.md", "my-notes.txt"]  # 02 was the builder's: gone; the notes stay
    with zipfile.ZipFile(archive) as zf:  # the zip holds the edition, not what else is in its folder
        assert sorted(zf.namelist()) == ["student/01_first.ipynb", "student/README.md"]


def test_an_edition_file_changed_since_it_was_built_is_not_overwritten_without_force(clone, tmp_path, capsys):
    out = tmp_path / "student"
    assert _run(clone, "--out", str(out)) == 0
    worked = out / "01_first.ipynb"
    worked.write_text(worked.read_text().replace("raise NotImplementedError()", "return x + x"))
    changed = worked.read_bytes()
    capsys.readouterr()
    _refused(capsys, _run(clone, "--out", str(out)), str(worked), "changed", "--force")
    assert worked.read_bytes() == changed
    assert _run(clone, "--out", str(out), "--force") == 0
    assert "raise NotImplementedError()" in worked.read_text()


def test_a_forged_marker_file_deletes_nothing(clone, tmp_path, capsys):
    # A marker naming files outside the folder (or not the edition's) makes the folder a foreign one.
    out = clone / "mywork" / "inner"
    out.mkdir()
    (out / "keep.txt").write_text("keep\n")
    (out / editions.MARKER_FILE).write_text(json.dumps(
        {"made_by": "mtlearn.tools.editions", "edition": "student",
         "files": {"../thesis.txt": "0" * 64, "keep.txt": "0" * 64}}))
    before = _snapshot(clone)
    _refused(capsys, _run(clone, "--out", str(out)), str(out), "--force")
    assert _snapshot(clone) == before
    assert _run(clone, "--out", str(out), "--force") == 0
    assert ((clone / "mywork" / "thesis.txt").read_text() == THESIS
            and (out / "keep.txt").read_text() == "keep\n")



def test_an_edition_built_before_the_builder_moved_is_still_its_own(clone, tmp_path, capsys):
    # The builder was mtlearn.show.editions: its marker and zip comment named that module. A folder and
    # zip it wrote are rebuilt without --force (as before the move), and their old files are replaced.
    out, archive = tmp_path / "student", tmp_path / "student.zip"
    assert _run(clone, "--out", str(out), "--zip", str(archive)) == 0
    marker = out / editions.MARKER_FILE
    marker.write_text(marker.read_text().replace("mtlearn.tools.editions", "mtlearn.show.editions"))
    with zipfile.ZipFile(archive, "a") as zf:
        zf.comment = zf.comment.replace(b"mtlearn.tools.editions", b"mtlearn.show.editions")
    (clone / "notebooks" / "02_second.ipynb").unlink()
    capsys.readouterr()
    assert _run(clone, "--out", str(out), "--zip", str(archive)) == 0, capsys.readouterr().err
    assert not (out / "02_second.ipynb").exists()
    assert json.loads(marker.read_text())["made_by"] == "mtlearn.tools.editions"
    with zipfile.ZipFile(archive) as zf:
        assert zf.comment.startswith(b"mtlearn.tools.editions")


# --- validation before anything is touched ---------------------------------------------------

DEEP = ('{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": ' + "[" * 100_000 + "]" * 100_000
        + '}, "cells": []}')
BROKEN = {
    "not JSON": b"{not json",
    "not UTF-8": b'{"cells": "\xff"}',
    "a list": b"[]",
    "schema-invalid": json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                  "cells": [{"cell_type": "code", "source": 1, "metadata": {}}]}).encode(),
    "deeply nested": DEEP.encode(),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_notebook_is_refused_before_the_output_is_touched(clone, tmp_path, capsys, kind):
    out = tmp_path / "student"
    assert _run(clone, "--out", str(out)) == 0
    built = _snapshot(out)
    (clone / "notebooks" / "02_second.ipynb").write_bytes(BROKEN[kind])
    capsys.readouterr()
    _refused(capsys, _run(clone, "--out", str(out)), "02_second.ipynb")
    assert _snapshot(out) == built


def test_a_schema_invalid_notebook_is_never_written(clone, tmp_path, capsys):
    (clone / "notebooks" / "02_second.ipynb").write_bytes(BROKEN["schema-invalid"])
    _refused(capsys, _run(clone, "--out", str(tmp_path / "student")), "02_second.ipynb",
             "not a valid notebook")
    assert not (tmp_path / "student").exists()


def test_a_notebook_too_big_is_refused(clone, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(editions, "MAX_FILE_BYTES", 10_000)
    (clone / "notebooks" / "02_second.ipynb").write_text(" " * 10_001)
    _refused(capsys, _run(clone, "--out", str(tmp_path / "student")), "02_second.ipynb", "10000")
    assert not (tmp_path / "student").exists()


def test_the_command_line_refuses_in_one_line_without_a_traceback(clone):
    proc = subprocess.run([sys.executable, "-m", "mtlearn.tools.editions", "student", "--out", "notebooks"],
                          cwd=clone, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(PROG), proc.stderr
    assert (clone / "notebooks" / "01_first.ipynb").is_file()


def test_a_usage_error_is_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["teacher"])
    assert stop.value.code == 2
    _refused(capsys, 2, "teacher")
    with pytest.raises(SystemExit) as stop:
        main(["student", "--no-execute"])
    assert stop.value.code == 2
    _refused(capsys, 2, "--no-execute: only the instructor edition is executed")


# --- E2: nothing of a solution reaches the student edition -------------------------------------

def test_student_edition_drops_attachments_and_metadata():
    picture = base64.b64encode(SOLUTION.encode()).decode()
    markdown = nbformat.v4.new_markdown_cell("See ![the answer](attachment:answer.png)",
                                             attachments={"answer.png": {"image/png": picture}})
    markdown.metadata["answer"] = SOLUTION
    code = _exercise()
    code.metadata.update({"tags": ["figure"], "hint": SOLUTION, "execution": {"when": "now"}})
    nb = _notebook(markdown, code, answers={"02.c1": SOLUTION},
                   widgets={"state": SOLUTION}, title=SOLUTION)
    nb.metadata["kernelspec"]["extra"] = SOLUTION
    student = student_notebook(nb)
    nbformat.validate(student)
    text = nbformat.writes(student)
    assert SOLUTION not in text and picture not in text
    assert all("attachments" not in cell and cell.metadata == {} for cell in student.cells)
    assert set(student.metadata) == {"kernelspec", "language_info"}
    assert student.metadata.kernelspec == {"name": "python3", "display_name": "Python 3",
                                           "language": "python"}


def test_a_cell_nbgrader_marks_as_a_solution_is_still_stubbed():
    # The metadata goes, but only after nbgrader read it: a solution cell without markers is replaced.
    cell = nbformat.v4.new_code_cell(SOLUTION)
    cell.metadata["nbgrader"] = {"solution": True, "grade": False, "grade_id": "twice", "locked": False}
    student = student_notebook(_notebook(cell))
    assert SOLUTION not in student.cells[0].source and "NotImplementedError" in student.cells[0].source


@pytest.mark.parametrize("begin, end", [
    ("### Begin Solution", "### End Solution"),
    ("# begin solution", "# end solution"),
    ("##BEGIN_SOLUTION", "##END_SOLUTION"),
    ("### BEGIN  SOLUTION", "### END SOLUTION"),
    ("### BEGIN SOLUTION", "#### end solution ####"),
])
def test_a_mis_cased_marker_is_a_marker_and_is_warned(clone, tmp_path, capsys, begin, end):
    nbformat.write(_notebook(_exercise(begin, end)), clone / "notebooks" / "02_second.ipynb")
    out = tmp_path / "student"
    assert _run(clone, "--out", str(out)) == 0
    student = (out / "02_second.ipynb").read_text()
    assert SOLUTION not in student and "raise NotImplementedError()" in student
    warned = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert warned and all("02_second.ipynb" in line and "cell 0" in line for line in warned), warned


def test_a_mis_cased_marker_warns_from_the_library_too():
    with pytest.warns(SolutionMarkerWarning, match="cell 0"):
        student = student_notebook(_notebook(_exercise("### Begin Solution", "### End Solution")))
    assert SOLUTION not in student.cells[0].source


@pytest.mark.parametrize("source, reason", [
    (f"### BEGIN SOLUTION\n{SOLUTION}", "no end"),
    (f"{SOLUTION}\n### end solution", "no begin"),
    (f"### BEGIN SOLUTION\n### Begin Solution\n{SOLUTION}\n### END SOLUTION", "inside"),
])
def test_unbalanced_markers_are_refused(clone, tmp_path, capsys, source, reason):
    nbformat.write(_notebook(nbformat.v4.new_code_cell(source)), clone / "notebooks" / "02_second.ipynb")
    _refused(capsys, _run(clone, "--out", str(tmp_path / "student")), "02_second.ipynb", "cell 0", reason)
    assert not (tmp_path / "student").exists()


def test_build_edition_records_the_warnings(clone, tmp_path):
    nbformat.write(_notebook(_exercise("### Begin Solution", "### END SOLUTION")),
                   clone / "notebooks" / "02_second.ipynb")
    with pytest.warns(SolutionMarkerWarning):
        edition = build_edition("student", clone / "notebooks", tmp_path / "student")
    assert len(edition.warnings) == 1 and "02_second.ipynb, cell 0, line 2" in edition.warnings[0]

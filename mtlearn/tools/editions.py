"""A student edition and an instructor edition of the notebooks, from the one committed source.

The committed notebooks (``notebooks/NN_*.ipynb``) are the executed teaching version that
strict nbval checks: each coding exercise's worked solution sits in its code cell between
two marker lines, so it runs::

    def brevity_penalty(c, r):
        ### BEGIN SOLUTION
        return 1 if c > r else math.exp(1 - r / c)
        ### END SOLUTION

The editions are made from them by nbgrader's preprocessors, applied through nbconvert's
API (``make student``, ``make instructor``; or ``python -m mtlearn.tools.editions``):

* **student** -- :class:`nbgrader.preprocessors.ClearSolutions` replaces every solution
  region by the stub ``# YOUR CODE HERE`` / ``raise NotImplementedError()``, and
  :class:`nbgrader.preprocessors.ClearOutput` removes every output and execution count
  (outputs of a worked solution, or of a check that ran on it, would give it away). Then
  everything else that could carry a solution goes: cell attachments, all cell metadata
  (tags, timings, nbgrader's own, which holds a checksum of each solution cell; it is
  read first, so a cell nbgrader marks as a solution is still stubbed), and all notebook
  metadata except ``kernelspec`` and ``language_info`` (their standard fields only: what
  Jupyter needs to start the right kernel). The edition is not graded by nbgrader, so it
  needs none of nbgrader's metadata. The notebooks are written to a folder and zipped.
* **instructor** -- the worked solutions, every checked answer filled in (``answer_1 = Fraction(3, 4)``,
  computed by :mod:`mtlearn.exercises`), every model answer shown open (no ``<details>`` fold), and
  executed (nbconvert's ``ExecutePreprocessor``, in the source folder), so that each check prints
  ``correct``. Never handed to students.
* **nbgrader** -- nbgrader's release source (:mod:`mtlearn.tools.nbgrader_source`): solution cells,
  locked autograded test cells and manually graded answers, for ``nbgrader generate_assignment`` and
  ``nbgrader autograde``.

The committed notebooks hold no numeric answer: the expected answers live in
:mod:`mtlearn.exercises`, keyed by the exercise's id (``check("02.1", answer_1)``), and only the
instructor and nbgrader editions write them in.

**Markers.** nbgrader takes any line holding ``BEGIN SOLUTION`` (``END SOLUTION``) as a
marker, whatever else the line holds, but only in capitals and with one space: a
``### Begin Solution`` would hand the solution out. Here any line holding *begin solution*
(*end solution*) in any case, with spaces, ``_`` or ``-`` between the words, is a marker
(:func:`solution_marker`); one nbgrader would misread is read as nbgrader's marker and
reported with a :class:`SolutionMarkerWarning` naming the notebook, cell and line. Reading
it as a marker (rather than refusing) keeps the edition buildable and leaks nothing; a
line that only *mentions* the words is a marker too, so the warning is there to catch it.
Markers must pair up (begin, end, begin, end) in each cell, or the build is refused.

**What the builder may write over** is :mod:`mtlearn.tools.edition_folder`'s business: never
the source folder, the home folder, a repository's root or a folder that holds one of
them; a non-empty folder or a zip it did not write only with ``--force``, which replaces
files of the edition's names and deletes nothing. Every notebook is read, validated
(``nbformat.validate``, before and after) and turned into the edition, and the output
paths are checked, before anything is written or deleted.

>>> import nbformat
>>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
...     "def twice(x):\\n    ### BEGIN SOLUTION\\n    return 2 * x\\n    ### END SOLUTION")])
>>> print(student_notebook(nb).cells[0].source)
def twice(x):
    # YOUR CODE HERE
    raise NotImplementedError()
>>> solution_lines(nb)
['return 2 * x']
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, Optional

import nbformat

from mtlearn.tools.edition_cells import (
    BEGIN_SOLUTION,
    END_SOLUTION,
    MODEL_ANSWER_TAG,
    execute_notebook,
    instructor_notebook,
    is_model_answer,
    open_model_answer,
    solution_marker,
)
from mtlearn.tools.edition_folder import (
    MARKER_FILE,
    EditionError,
    check_output,
    first_line,
    read_capped,
    write_output,
)
from mtlearn.tools.nbgrader_source import nbgrader_notebook

__all__ = [
    "BEGIN_SOLUTION", "END_SOLUTION", "EDITIONS", "MARKER_FILE", "MAX_FILE_BYTES", "Edition", "EditionError",
    "SolutionMarkerWarning", "edition_notebooks", "read_notebook", "solution_marker", "student_notebook",
    "instructor_notebook", "solution_lines", "build_edition", "main", "MODEL_ANSWER_TAG", "execute_notebook",
    "open_model_answer",
]

#: The editions ``build_edition`` writes (``nbgrader``: the release source, :mod:`.nbgrader_source`).
EDITIONS: tuple[str, ...] = ("student", "instructor", "nbgrader")

#: The notebooks of an edition: the numbered ones (``01_bleu_from_scratch.ipynb`` ...).
NOTEBOOK_NAME = re.compile(r"\d\d_[A-Za-z0-9_]+\.ipynb")

#: The largest notebook (or README) the builder reads; the committed ones are at most a few MB.
MAX_FILE_BYTES = 64 * 2**20

PROG = "mtlearn.tools.editions"
_README = "README.md"

# nbgrader's own reading (a line holding the delimiter, capitals only) and the wider one used here.
_NBGRADER_DELIMITERS = (("begin", "BEGIN SOLUTION"), ("end", "END SOLUTION"))

#: The notebook metadata the student edition keeps, field by field: what Jupyter needs to start the kernel.
KEPT_METADATA = {
    "kernelspec": ("name", "display_name", "language"),
    "language_info": ("name", "version", "codemirror_mode", "file_extension", "mimetype",
                      "nbconvert_exporter", "pygments_lexer"),
}


class SolutionMarkerWarning(UserWarning):
    """A marker line nbgrader would not have read as one (``### Begin Solution``); it was read as a marker."""


@dataclass(frozen=True)
class Edition:
    """What :func:`build_edition` wrote: the edition's name, its folder, its notebooks, its zip, its warnings.

    >>> Edition("student", Path("build/student"), ("01_a.ipynb",), Path("build/student.zip")).notebooks
    ('01_a.ipynb',)
    """

    name: str
    folder: Path
    notebooks: tuple[str, ...]
    archive: Optional[Path] = None
    warnings: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------
# Reading the source


def edition_notebooks(source: Path) -> list[Path]:
    """The numbered notebooks in the folder ``source``, in order.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for name in ("02_b.ipynb", "01_a.ipynb", "workshop.ipynb"):
    ...         _ = (Path(tmp) / name).write_text("{}")
    ...     [p.name for p in edition_notebooks(Path(tmp))]
    ['01_a.ipynb', '02_b.ipynb']
    """
    if not Path(source).is_dir():
        raise EditionError(f"source: {source} is not a folder of notebooks")
    try:
        return sorted(p for p in Path(source).iterdir() if NOTEBOOK_NAME.fullmatch(p.name))
    except OSError as error:
        raise EditionError(f"source: cannot list {source}: {error.strerror}") from None


def _read_bytes(path: Path) -> bytes:
    """The bytes of the regular file ``path``, at most :data:`MAX_FILE_BYTES` of them."""
    return read_capped(path, MAX_FILE_BYTES, str(path), "a notebook of the course")


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """The notebook in the file ``path`` (version 4), validated; :class:`EditionError` naming what is wrong.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "01_a.ipynb").write_text("[]")
    ...     read_notebook(Path(tmp) / "01_a.ipynb")
    Traceback (most recent call last):
    ...
    mtlearn.tools.edition_folder.EditionError: ...01_a.ipynb: not a valid notebook: 'list' object has no ...
    """
    data = _read_bytes(Path(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise EditionError(f"{path}: not UTF-8 text (byte {error.start})") from None
    try:
        nb = nbformat.reads(text, as_version=4, capture_validation_error={})
        nbformat.validate(nb)
    except RecursionError:
        raise EditionError(f"{path}: nested too deeply to be a notebook") from None
    except (ValueError, TypeError, AttributeError, KeyError, nbformat.ValidationError) as error:
        raise EditionError(f"{path}: not a valid notebook: {first_line(error)}") from None
    return nb


# ---------------------------------------------------------------------------------------------
# Solution markers and the student edition



def _nbgrader_marker(line: str) -> Optional[str]:
    """How nbgrader's ClearSolutions reads ``line``: ``"begin"``, ``"end"`` or ``None``."""
    for kind, delimiter in _NBGRADER_DELIMITERS:
        if delimiter in line:
            return kind
    return None


def _check_order(kind: str, inside: bool, where: str) -> None:
    if kind == "begin" and inside:
        raise EditionError(f"{where}: a begin solution marker inside a solution region")
    if kind == "end" and not inside:
        raise EditionError(f"{where}: an end solution marker with no begin solution marker before it")


def _mark_regions(source: str, where: str) -> tuple[str, list[str]]:
    """``source`` with each marker nbgrader would misread written as its marker; the warnings; the pairs
    checked.

    >>> _mark_regions("x = 1\\n  # Begin Solution\\n  y\\n  ### END SOLUTION", "cell 0")[0].splitlines()[1]
    '  ### BEGIN SOLUTION'
    """
    lines = source.split("\n")
    notes: list[str] = []
    inside = False
    for number, line in enumerate(lines, 1):
        kind = solution_marker(line)
        if kind is None:
            continue
        _check_order(kind, inside, f"{where}, line {number}")
        inside = kind == "begin"
        if _nbgrader_marker(line) != kind:
            marker = BEGIN_SOLUTION if kind == "begin" else END_SOLUTION
            notes.append(f"{where}, line {number}: {line.strip()[:60]!r} is not nbgrader's "
                         f"marker; read as {marker!r}")
            lines[number - 1] = line[: len(line) - len(line.lstrip())] + marker
    if inside:
        raise EditionError(f"{where}: a begin solution marker with no end solution marker after it")
    return "\n".join(lines), notes


def _preprocessors() -> tuple:
    """nbgrader's ClearSolutions and ClearOutput, or an error naming the extra that provides them."""
    try:
        from nbgrader.preprocessors import ClearOutput, ClearSolutions
    except ImportError:
        raise ImportError(
            "the student edition needs nbgrader: pip install 'mtlearn[notebooks]' (or pip install nbgrader)"
        ) from None
    # enforce_metadata=False: the notebooks mark solutions by the two lines only, not by
    # nbgrader's cell metadata (nbgrader's own database and grading are not used).
    return ClearSolutions(enforce_metadata=False), ClearOutput()


def _language(nb: nbformat.NotebookNode, stubs: dict, where: str) -> str:
    """The kernel's language, one nbgrader has a code stub for."""
    language = nb.metadata.get("kernelspec", {}).get("language", "python")
    if not isinstance(language, str) or language not in stubs:
        raise EditionError(f"{where}the kernel's language {language!r} has no nbgrader stub "
                           f"({', '.join(stubs)})")
    return language


def _strip_metadata(nb: nbformat.NotebookNode) -> None:
    """Drop attachments and cell metadata; keep only :data:`KEPT_METADATA` of the notebook's metadata."""
    for cell in nb.cells:
        cell.pop("attachments", None)
        cell.metadata = nbformat.NotebookNode()
    kept = nbformat.NotebookNode()
    for key, fields in KEPT_METADATA.items():
        value = nb.metadata.get(key)
        if isinstance(value, dict):
            kept[key] = nbformat.NotebookNode({field: value[field] for field in fields if field in value})
    nb.metadata = kept



def _student(nb: nbformat.NotebookNode, prefix: str = "") -> tuple[nbformat.NotebookNode, list[str]]:
    """The student edition of ``nb`` and the marker warnings; ``prefix`` names the notebook in messages."""
    clear_solutions, clear_output = _preprocessors()
    student = copy.deepcopy(nb)
    # Model answers to open questions are the instructor's: read the tags before the metadata goes.
    student.cells = [cell for cell in student.cells if not is_model_answer(cell)]
    resources = {"language": _language(student, clear_solutions.code_stub, prefix)}
    notes: list[str] = []
    for index, cell in enumerate(student.cells):
        where = f"{prefix}cell {index}"
        cell.source, found = _mark_regions(cell.source, where)
        notes += found
        if not isinstance(cell.metadata.get("nbgrader", {}), dict):
            raise EditionError(f"{where}: its nbgrader metadata is not a mapping")
        try:
            clear_solutions.preprocess_cell(cell, resources, index)  # edits the cell in place
        except RuntimeError as error:
            raise EditionError(f"{where}: {error}") from None
    clear_output.preprocess(student, {})
    _strip_metadata(student)  # after ClearSolutions, which reads nbgrader's solution flag
    return student, notes


def student_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` with every solution region replaced by a stub, no outputs, no attachments, no metadata
    but the kernel's (see the module's docstring). A marker nbgrader would misread gives a
    :class:`SolutionMarkerWarning`; markers that do not pair up are an error:

    >>> broken = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("### BEGIN SOLUTION\\nx = 1")])
    >>> student_notebook(broken)
    Traceback (most recent call last):
    ...
    mtlearn.tools.edition_folder.EditionError: cell 0: a begin solution marker with no end solution marker ...
    """
    student, notes = _student(nb)
    for note in notes:
        warnings.warn(note, SolutionMarkerWarning, stacklevel=2)
    return student



def solution_lines(nb: nbformat.NotebookNode) -> list[str]:
    """The lines inside the solution regions of ``nb`` (stripped; blank lines left out), markers in any case.

    A test uses them to check that no solution line reaches the student edition.
    """
    found, inside = [], False
    for cell in nb.cells:
        for line in cell.source.splitlines():
            kind = solution_marker(line)
            if kind is not None:
                inside = kind == "begin"
            elif inside and line.strip():
                found.append(line.strip())
    return found


def _edition_notebook(name: str, nb: nbformat.NotebookNode, path: Path, execute: bool) -> tuple[
        nbformat.NotebookNode, list[str]]:
    """Notebook ``nb`` (read from ``path``) turned into edition ``name``; the marker warnings."""
    where = f"{path.name}, "
    if name == "student":
        nb, found = _student(nb, where)
        for note in found:
            warnings.warn(note, SolutionMarkerWarning, stacklevel=4)
        return nb, found
    if name == "nbgrader":
        return nbgrader_notebook(nb, where), []
    nb = instructor_notebook(nb)
    return (execute_notebook(nb, path.parent, where) if execute else nb), []


def _edition_files(name: str, source: Path, notebooks: list[Path], execute: bool = False) -> tuple[
        dict[str, bytes], list[str]]:
    """Every file of the edition, by name, as the bytes to write (nothing is written); the marker warnings."""
    files: dict[str, bytes] = {}
    notes: list[str] = []
    for path in notebooks:
        nb = read_notebook(path)
        try:
            nb, found = _edition_notebook(name, nb, path, execute)
            notes += found
            nbformat.validate(nb)
        except RecursionError:
            raise EditionError(f"{path}: nested too deeply to be a notebook") from None
        except nbformat.ValidationError as error:
            reason = first_line(error)
            raise EditionError(f"{path}: its {name} edition is not a valid notebook: {reason}") from None
        text = nbformat.writes(nb)
        files[path.name] = (text if text.endswith("\n") else text + "\n").encode("utf-8")
    readme = source / _README
    if readme.exists():
        files[_README] = _read_bytes(readme)
    return files, notes


def _add_files(files: dict[str, bytes], extra: Mapping[str, bytes]) -> None:
    """Add ``extra`` (name -> bytes) to the edition's ``files``; only the README may be replaced."""
    for file_name, data in extra.items():
        if NOTEBOOK_NAME.fullmatch(file_name) or (file_name in files and file_name != _README):
            raise EditionError(f"{file_name}: an added file may not take a notebook's name")
        files[file_name] = data


def build_edition(name: str, source: Path, folder: Path, *, archive: Optional[Path] = None,
                  force: bool = False, extra_files: Optional[Mapping[str, bytes]] = None,
                  execute: bool = True) -> Edition:
    """Write edition ``name`` (:data:`EDITIONS`) of the notebooks in ``source`` to ``folder``.

    The instructor edition is executed (``execute``; a minute or two for the course's notebooks),
    so its outputs are what its filled answers and worked solutions print: ``correct``. With
    ``execute=False`` it keeps the committed outputs. The other editions ignore ``execute``.

    ``archive``, if given, is a zip file of the edition. Besides the notebooks, each edition
    gets ``source``'s README.md, if there is one, and ``extra_files`` (name -> bytes: the
    hand-out's wheel, requirements and README, :func:`mtlearn.tools.handout.handout_files`;
    its README.md replaces ``source``'s). Both paths are checked, and every notebook
    is read, validated and turned into the edition, before anything is written; what may be
    written over, and what ``force`` allows, is in :mod:`mtlearn.tools.edition_folder`. A
    refusal is an :class:`EditionError` naming the path or notebook and the reason.
    """
    if name not in EDITIONS:
        raise EditionError(f"name: expected one of {', '.join(EDITIONS)}, got {name!r}")
    notebooks = edition_notebooks(Path(source))
    if not notebooks:
        raise EditionError(f"source: no numbered notebooks (01_....ipynb) in {source}")
    output = check_output(Path(source), Path(folder), archive, force=force)
    files, notes = _edition_files(name, Path(source), notebooks, execute and name == "instructor")
    _add_files(files, extra_files or {})
    write_output(output, name, files)
    zipped = None if archive is None else Path(archive)
    return Edition(name, Path(folder), tuple(p.name for p in notebooks), zipped, tuple(notes))


# ---------------------------------------------------------------------------------------------
# The command line


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2), like every other refusal."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{PROG}: error: {message} (see --help)\n")


def _marker_warnings(caught: list[warnings.WarningMessage]) -> Iterator[str]:
    for item in caught:
        if issubclass(item.category, SolutionMarkerWarning):
            yield f"{PROG}: warning: {item.message}"


def _handout(wheel: Path, source: Path) -> dict[str, bytes]:
    """The hand-out's files (:func:`mtlearn.tools.handout.handout_files`), its README listing ``source``'s
    notebooks."""
    from mtlearn.tools.handout import handout_files

    readme = source / _README
    return handout_files(wheel, _read_bytes(readme) if readme.exists() else None)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m mtlearn.tools.editions {student,instructor,nbgrader} [--source DIR] [--out DIR]
    [--zip FILE] [--wheel FILE] [--no-execute] [--force]``."""
    parser = _Parser(prog=f"python -m {PROG}", description=__doc__.split("\n")[0])
    parser.add_argument("edition", choices=EDITIONS)
    parser.add_argument("--source", type=Path, default=Path("notebooks"), help="the committed notebooks")
    parser.add_argument("--out", type=Path, help="the folder to write (default: build/EDITION)")
    parser.add_argument("--zip", type=Path, help="also write this zip file (*.zip) of the edition")
    parser.add_argument("--wheel", type=Path,
                        help="student edition only: make it a hand-out that installs without the repository "
                             "(this wheel of mtlearn, requirements.txt, README.md: mtlearn.tools.handout)")
    parser.add_argument("--force", action="store_true",
                        help="write into a non-empty folder (or over a zip) this builder did not make; "
                             "deletes nothing, and never the source, home or repository folders")
    parser.add_argument("--no-execute", dest="execute", action="store_false",
                        help="instructor edition: keep the committed outputs; do not run the notebooks")
    args = parser.parse_args(argv)
    if args.wheel is not None and args.edition != "student":
        parser.error("--wheel: only the student edition is a hand-out")
    if not args.execute and args.edition != "instructor":
        parser.error("--no-execute: only the instructor edition is executed")
    out = args.out or Path("build") / args.edition
    edition, problem = None, None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            extra = None if args.wheel is None else _handout(args.wheel, Path(args.source))
            edition = build_edition(args.edition, args.source, out, archive=args.zip, force=args.force,
                                    extra_files=extra, execute=args.execute)
        except (ValueError, ImportError) as error:
            problem = str(error)
        except OSError as error:
            problem = f"{error.filename or args.source}: {error.strerror}"
    for line in _marker_warnings(caught):
        print(line, file=sys.stderr)
    if edition is None:
        print(f"{PROG}: {problem}", file=sys.stderr)
        return 2
    print(f"{edition.name} edition: {len(edition.notebooks)} notebooks in {edition.folder}"
          + (f", zipped in {edition.archive}" if edition.archive else ""))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

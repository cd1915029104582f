"""A student edition and an instructor edition of the notebooks, from the one committed source.

The committed notebooks (``notebooks/NN_*.ipynb``) are the executed teaching version that
strict nbval checks: each coding exercise's worked solution sits in its code cell between
two marker lines, so it runs::

    def brevity_penalty(c, r):
        ### BEGIN SOLUTION
        return 1 if c > r else math.exp(1 - r / c)
        ### END SOLUTION

The editions are made from them by nbgrader's preprocessors, applied through nbconvert's
API (``make student``, ``make instructor``; or ``python -m mtlearn.show.editions``):

* **student** -- :class:`nbgrader.preprocessors.ClearSolutions` replaces every solution
  region by the stub ``# YOUR CODE HERE`` / ``raise NotImplementedError()``, and
  :class:`nbgrader.preprocessors.ClearOutput` removes every output and execution count
  (outputs of a worked solution, or of a check that ran on it, would give it away); the
  saved widget state goes too. The notebooks are written to a folder and zipped, to hand out.
* **instructor** -- the notebooks as committed: worked solutions and their outputs.

Numeric exercises hold no solution in any edition: their expected answers live in
:mod:`mtlearn.exercises`, keyed by the exercise's id (``check("02.1", answer_1)``).

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
import shutil
import sys
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import nbformat

__all__ = [
    "BEGIN_SOLUTION", "END_SOLUTION", "EDITIONS", "Edition", "edition_notebooks",
    "student_notebook", "instructor_notebook", "solution_lines", "build_edition", "main",
]

#: The marker lines around a worked solution (nbgrader's defaults).
BEGIN_SOLUTION = "### BEGIN SOLUTION"
END_SOLUTION = "### END SOLUTION"

#: The editions ``build_edition`` writes.
EDITIONS: tuple[str, ...] = ("student", "instructor")

#: The notebooks of an edition: the numbered ones (``01_bleu_from_scratch.ipynb`` ...).
NOTEBOOK_NAME = re.compile(r"\d\d_[A-Za-z0-9_]+\.ipynb")


@dataclass(frozen=True)
class Edition:
    """What :func:`build_edition` wrote: the edition's name, its folder, its notebooks and its zip.

    >>> Edition("student", Path("build/student"), ("01_a.ipynb",), Path("build/student.zip")).notebooks
    ('01_a.ipynb',)
    """

    name: str
    folder: Path
    notebooks: tuple[str, ...]
    archive: Optional[Path] = None


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
        raise ValueError(f"source: {source} is not a folder of notebooks")
    return sorted(p for p in Path(source).iterdir() if NOTEBOOK_NAME.fullmatch(p.name))


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


def student_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` with every solution region replaced by a stub, and no outputs.

    See the module's example. A solution marker left open is an error:

    >>> broken = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("### BEGIN SOLUTION\\nx = 1")])
    >>> student_notebook(broken)
    Traceback (most recent call last):
    ...
    ValueError: cell 0: no end solution statement found
    """
    clear_solutions, clear_output = _preprocessors()
    student = copy.deepcopy(nb)
    resources = {"language": student.metadata.get("kernelspec", {}).get("language", "python")}
    for index, cell in enumerate(student.cells):
        try:
            clear_solutions.preprocess_cell(cell, resources, index)  # edits the cell in place
        except RuntimeError as error:
            raise ValueError(f"cell {index}: {error}") from None
    clear_output.preprocess(student, {})
    student.metadata.pop("widgets", None)  # saved widget views are outputs too
    return student


def instructor_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` as committed: worked solutions, their outputs, the solution markers.

    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    >>> instructor_notebook(nb) == nb
    True
    """
    return copy.deepcopy(nb)


def solution_lines(nb: nbformat.NotebookNode) -> list[str]:
    """The lines inside the solution regions of ``nb`` (stripped; blank lines left out).

    A test uses them to check that no solution line reaches the student edition.
    """
    found, inside = [], False
    for cell in nb.cells:
        for line in cell.source.splitlines():
            if BEGIN_SOLUTION in line:
                inside = True
            elif END_SOLUTION in line:
                inside = False
            elif inside and line.strip():
                found.append(line.strip())
    return found


def build_edition(name: str, source: Path, folder: Path, *, archive: Optional[Path] = None) -> Edition:
    """Write edition ``name`` (``"student"`` or ``"instructor"``) of the notebooks in ``source`` to ``folder``.

    ``folder`` is emptied first; ``archive``, if given, is a zip file of the folder's notebooks.
    Besides the notebooks, each edition gets ``source``'s README.md, if there is one.
    """
    if name not in EDITIONS:
        raise ValueError(f"name: expected one of {', '.join(EDITIONS)}, got {name!r}")
    notebooks = edition_notebooks(Path(source))
    if not notebooks:
        raise ValueError(f"source: no numbered notebooks (01_....ipynb) in {source}")
    make = student_notebook if name == "student" else instructor_notebook
    folder = Path(folder)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for path in notebooks:
        nbformat.write(make(nbformat.read(path, as_version=4)), folder / path.name)
    readme = Path(source) / "README.md"
    if readme.is_file():
        shutil.copyfile(readme, folder / readme.name)
    if archive is not None:
        archive = Path(archive)
        archive.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(folder.iterdir()):
                zf.write(path, f"{folder.name}/{path.name}")
    return Edition(name, folder, tuple(p.name for p in notebooks), archive)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m mtlearn.show.editions {student,instructor} [--source DIR] [--out DIR] [--zip FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m mtlearn.show.editions", description=__doc__.split("\n")[0])
    parser.add_argument("edition", choices=EDITIONS)
    parser.add_argument("--source", type=Path, default=Path("notebooks"), help="the committed notebooks")
    parser.add_argument("--out", type=Path, help="the folder to write (default: build/EDITION)")
    parser.add_argument("--zip", type=Path, help="also write this zip file of the edition")
    args = parser.parse_args(argv)
    out = args.out or Path("build") / args.edition
    try:
        edition = build_edition(args.edition, args.source, out, archive=args.zip)
    except (ValueError, ImportError) as error:
        print(f"mtlearn.show.editions: {error}", file=sys.stderr)
        return 2
    print(f"{edition.name} edition: {len(edition.notebooks)} notebooks in {edition.folder}"
          + (f", zipped in {edition.archive}" if edition.archive else ""))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

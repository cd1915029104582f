"""What the editions do to single cells: solution markers, model answers, checked answers filled in,
a notebook executed. :mod:`mtlearn.tools.editions` builds the editions from them;
:mod:`mtlearn.tools.nbgrader_source` builds nbgrader's release source.

>>> solution_marker("    ### BEGIN SOLUTION")
'begin'
>>> fill_answers('answer_1 = None\\ncheck("01.1", answer_1)').splitlines()[:2]
['from fractions import Fraction', 'answer_1 = Fraction(3, 4)']
"""

from __future__ import annotations

import copy
import re
from fractions import Fraction
from pathlib import Path
from typing import Optional

import nbformat

from mtlearn.tools.edition_folder import EditionError, first_line

__all__ = ["BEGIN_SOLUTION", "END_SOLUTION", "MODEL_ANSWER_TAG", "CELL_TIMEOUT", "solution_marker",
           "is_model_answer", "instructor_notebook", "open_model_answer", "execute_notebook",
           "answer_literal", "fill_answers"]

#: The marker lines around a worked solution (nbgrader's defaults).
BEGIN_SOLUTION = "### BEGIN SOLUTION"
END_SOLUTION = "### END SOLUTION"

# Any line holding *begin solution* (*end solution*), in any case, with spaces, _ or - between.
_MARKER_LIKE = {kind: re.compile(rf"\b{kind}[\s_-]*solution", re.IGNORECASE) for kind in ("begin", "end")}


def solution_marker(line: str) -> Optional[str]:
    """``"begin"``, ``"end"`` or ``None``: whether ``line`` is a solution marker, in any case or spacing.

    Like nbgrader, a line holding the words is a marker whatever else it holds, and begin wins.

    >>> lines = ("    ### BEGIN SOLUTION", "## end_solution", "# Begin  Solution", "backend solution")
    >>> [solution_marker(line) for line in lines]
    ['begin', 'end', 'begin', None]
    """
    for kind, pattern in _MARKER_LIKE.items():
        if pattern.search(line):
            return kind
    return None


#: The cell tag of a model answer to an open question: the student edition drops such cells.
MODEL_ANSWER_TAG = "model-answer"


def is_model_answer(cell: nbformat.NotebookNode) -> bool:
    """Whether ``cell`` is tagged :data:`MODEL_ANSWER_TAG` (a malformed tag list counts as untagged)."""
    tags = cell.get("metadata", {}).get("tags", [])
    return isinstance(tags, list) and MODEL_ANSWER_TAG in tags


def instructor_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` with every checked answer filled in (``answer_1 = Fraction(3, 4)``, computed by
    :mod:`mtlearn.exercises`) and each model answer shown open (:func:`open_model_answer`); the worked
    solutions and the solution markers as committed. Its outputs are the committed ones until it is
    executed (:func:`execute_notebook`; :func:`mtlearn.tools.editions.build_edition` does).

    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    >>> instructor_notebook(nb) == nb
    True
    """
    instructor = copy.deepcopy(nb)
    for cell in instructor.cells:
        if cell.cell_type == "code":
            cell.source = fill_answers(cell.source)
        elif is_model_answer(cell):
            cell.source = open_model_answer(cell.source)
    return instructor


_DETAILS = re.compile(r"\A\s*<details>\s*<summary>(.*?)</summary>\s*(.*?)\s*</details>\s*\Z", re.DOTALL)


def open_model_answer(source: str) -> str:
    """A model answer's markdown without its folding ``<details><summary>…</summary>`` wrapper: the summary
    becomes a bold label and the answer is shown. A cell without the wrapper is returned as it is.

    >>> print(open_model_answer("<details><summary>Model answer</summary>\\n\\nThe penalty.\\n\\n</details>"))
    **Model answer.**
    <BLANKLINE>
    The penalty.
    """
    found = _DETAILS.match(source)
    if found is None:
        return source
    label = found.group(1).strip().rstrip(".")
    return f"**{label}.**\n\n{found.group(2)}" if label else found.group(2)


#: How long one cell of a notebook may run when an edition is executed (seconds).
CELL_TIMEOUT = 600


def execute_notebook(nb: nbformat.NotebookNode, folder: Path, where: str = "") -> nbformat.NotebookNode:
    """Run ``nb`` in place, top to bottom, in a fresh kernel whose working folder is ``folder`` (the source
    notebooks' folder, so that their relative paths hold), with nbconvert's ``ExecutePreprocessor``; a
    cell that raises is an :class:`EditionError` naming ``where`` (the notebook), the cell and the error.

    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    >>> execute_notebook(nb, Path(".")).cells[0].outputs[0].text
    '42\\n'
    """
    from jupyter_client.kernelspec import NoSuchKernel
    from nbclient.exceptions import CellTimeoutError, DeadKernelError
    from nbconvert.preprocessors import CellExecutionError, ExecutePreprocessor

    kernel = nb.metadata.get("kernelspec", {}).get("name", "python3")
    runner = ExecutePreprocessor(timeout=CELL_TIMEOUT, kernel_name=kernel if isinstance(kernel, str) else "")
    try:
        runner.preprocess(nb, {"metadata": {"path": str(folder)}})
    except CellExecutionError as error:
        raise EditionError(f"{where}cell {_failed_cell(nb)} fails when executed: "
                           f"{error.ename}: {first_line(Exception(error.evalue))}") from None
    except CellTimeoutError:
        raise EditionError(f"{where}a cell ran longer than {CELL_TIMEOUT} s when executed") from None
    except DeadKernelError:
        raise EditionError(f"{where}the kernel died while the notebook was executed") from None
    except NoSuchKernel:
        raise EditionError(f"{where}no Jupyter kernel named {kernel!r} to execute it with "
                           "(jupyter kernelspec list)") from None
    return nb


def _failed_cell(nb: nbformat.NotebookNode) -> object:
    """The index of the first cell with an error output ("?" if none has one)."""
    return next((k for k, cell in enumerate(nb.cells)
                 if any(out.get("output_type") == "error" for out in cell.get("outputs", []))), "?")


_CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](\d\d\.\d+)["']\s*,\s*(answer_\d+)\s*\)""")


def answer_literal(value: object) -> str:
    """``value`` as a student could type it: a Fraction as ``Fraction(3, 4)``, anything else by repr."""
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    return repr(value)


def fill_answers(source: str) -> str:
    """``source`` with each ``answer_n = None`` of a ``check("ID", answer_n)`` call set to ID's answer."""
    from mtlearn.exercises import exercise  # lazily: only the instructor edition needs the catalogue

    for exercise_id, name in _CHECK_CALL.findall(source):
        literal = answer_literal(exercise(exercise_id).answer())
        pattern = re.compile(rf"^{name}\s*=\s*None\s*$", re.MULTILINE)
        filled = f"{name} = {literal}"
        source = pattern.sub(lambda _, line=filled: line, source)
        if literal.startswith("Fraction(") and "import Fraction" not in source:
            source = "from fractions import Fraction\n" + source
    return source

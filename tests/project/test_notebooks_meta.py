"""The committed narrative notebooks are executed, clean and honestly validated.

nbval (``pytest --nbval``) re-runs every notebook and compares each stored output with
a fresh one. That check is only as good as what is stored, so this file checks the
stored notebooks themselves: all nine exist, were executed top to bottom in one
kernel, use the ``python3`` kernel, keep every output (no cell left unrun), hold no
error, and skip output comparison only on figure and widget cells.
"""

from __future__ import annotations

import ast
import re

import nbformat
import pytest
from notebook_cells import parse_cell
from repo_paths import REPO

NOTEBOOKS_DIR = REPO / "notebooks"

NOTEBOOKS = (
    "01_bleu_from_scratch.ipynb",
    "02_bleu_in_practice.ipynb",
    "03_meteor_alignment.ipynb",
    "04_meteor_scoring.ipynb",
    "05_bleu_vs_meteor.ipynb",
    "06_do_metrics_agree_with_people.ipynb",
    "07_chrf_and_ter.ipynb",
    "08_why_libraries_disagree.ipynb",
    "09_sentence_level_with_experts.ipynb",
    "10_learned_metrics.ipynb",
)

# The only tags a cell may carry; "nbval-ignore-output" only with "figure", "widget" or "shared-data".
# "shared-data": the cell reads ../shared where it is present (texts mtlearn does not ship), so its output
# differs between machines; it must be ignored by nbval, and a test in tests/ checks the same calls on the
# real data.
ALLOWED_TAGS = {"figure", "widget", "nbval-ignore-output", "shared-data", "concept-check"}
IGNORE_TAG = "nbval-ignore-output"
#: A concept check's cell (scripts/insert_concept_checks.py): a widget whose text/html and text/plain (the
#: question and its options) are the same on every run, so strict nbval checks them; nbval itself skips
#: the widget view's random model id.
CONCEPT_TAG = "concept-check"
SHARED_TAG = "shared-data"

# nbval's in-source markers would bypass the tag rule: none may appear.
NBVAL_MARKERS = ("NBVAL_IGNORE_OUTPUT", "NBVAL_SKIP", "NBVAL_RAISES_EXCEPTION",
                 "PYTEST_VALIDATE_IGNORE_OUTPUT", "NBVAL_CHECK_OUTPUT")

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

# Functions a notebook may define: only notebook 01's quotation of the Chinese blog post's own
# code. Anything else could be a formula re-implemented outside mtlearn; the exercise
# checker is mtlearn.exercises.check, imported.
#: An exercise's check, as a notebook writes it: the id, then the name holding the answer.
CHECK_CALL = r'^check\("\d\d\.\d+", answer_\d+\)$'

ALLOWED_DEFINITIONS = {name: set() for name in NOTEBOOKS} | {"01_bleu_from_scratch.ipynb": {"bleu"}}


def _load(name: str) -> nbformat.NotebookNode:
    path = NOTEBOOKS_DIR / name
    if not path.is_file():
        pytest.fail(f"{name}: missing from {NOTEBOOKS_DIR}")
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    return nb


def _code_cells(nb: nbformat.NotebookNode) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def _tags(cell) -> list[str]:
    return list(cell.metadata.get("tags", []))


def _mimes(cell) -> set[str]:
    return {key for out in cell.outputs for key in out.get("data", {})}


def _shows_something(source: str) -> bool:
    """Whether running ``source`` displays anything: a print/display call or a final expression."""
    tree = parse_cell(source)
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not source.rstrip().endswith(";"):
        return True
    # Calls made when the cell runs: not those inside the bodies of functions it defines.
    run_now = [stmt for stmt in tree.body
               if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id in {"print", "display"}
        for stmt in run_now for node in ast.walk(stmt)
    )


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_kernelspec_is_python3(name: str) -> None:
    nb = _load(name)
    assert nb.metadata.kernelspec["name"] == "python3"
    assert nb.metadata.kernelspec["language"] == "python"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_executed_top_to_bottom_in_one_run(name: str) -> None:
    counts = [c.execution_count for c in _code_cells(_load(name))]
    assert counts == list(range(1, len(counts) + 1)), f"{name}: execution counts {counts}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_cell_has_its_outputs(name: str) -> None:
    for cell in _code_cells(_load(name)):
        if _shows_something(cell.source):
            assert cell.outputs, f"{name} [{cell.execution_count}]: a displaying cell has no stored output"
        else:
            # Imports and definitions only: intentionally silent, and it must stay so.
            assert not cell.outputs, f"{name} [{cell.execution_count}]: unexpected output of a silent cell"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_errors_or_stderr(name: str) -> None:
    for cell in _code_cells(_load(name)):
        for out in cell.outputs:
            assert out.output_type != "error", f"{name} [{cell.execution_count}]: {out.ename}: {out.evalue}"
            if out.output_type == "stream":
                assert out.name == "stdout", f"{name} [{cell.execution_count}]: stderr output {out.text!r}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_tags_only_on_figure_and_widget_cells(name: str) -> None:
    for cell in _code_cells(_load(name)):
        tags = set(_tags(cell))
        where = f"{name} [{cell.execution_count}]"
        assert tags <= ALLOWED_TAGS, f"{where}: unexpected tags {sorted(tags - ALLOWED_TAGS)}"
        mimes = _mimes(cell)
        if "figure" in tags:
            assert "image/png" in mimes, f"{where}: tagged figure but shows no PNG"
        if "widget" in tags:
            assert WIDGET_MIME in mimes, f"{where}: tagged widget but shows no widget"
            assert IGNORE_TAG in tags or CONCEPT_TAG in tags, (
                f"{where}: widget cell without {IGNORE_TAG} (its model id varies)")
        if CONCEPT_TAG in tags:
            assert "widget" in tags and IGNORE_TAG not in tags, (
                f"{where}: a concept check is tagged widget, and its output is checked, not ignored")
        if IGNORE_TAG in tags:
            assert tags & {"figure", "widget", SHARED_TAG}, (
                f"{where}: output ignored on a cell that is neither figure, widget nor shared-data")
        if SHARED_TAG in tags:
            assert (IGNORE_TAG
                    in tags), f"{where}: a shared-data cell's output differs between machines: ignore it"
        if "image/png" in mimes:
            assert "figure" in tags, f"{where}: shows a PNG but is not tagged figure"
        if WIDGET_MIME in mimes:
            assert "widget" in tags, f"{where}: shows a widget but is not tagged widget"
        for marker in NBVAL_MARKERS:
            assert marker not in cell.source, f"{where}: nbval marker {marker} in the source"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_ignored_cells_print_nothing(name: str) -> None:
    # A cell whose output nbval ignores must not print a number nbval would then never check; a shared-data
    # cell prints what it read from ../shared, checked by a test of the same calls on the real data instead.
    for cell in _code_cells(_load(name)):
        if IGNORE_TAG in _tags(cell) and SHARED_TAG not in _tags(cell):
            assert not any(out.output_type == "stream" for out in cell.outputs), (
                f"{name} [{cell.execution_count}]: an ignored cell prints text"
            )


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_object_addresses_in_outputs(name: str) -> None:
    # "<... at 0x7f...>" changes on every run and would make strict nbval fail.
    address = re.compile(r"\bat 0x[0-9a-fA-F]+")
    for cell in _code_cells(_load(name)):
        if IGNORE_TAG in _tags(cell):
            continue
        for out in cell.outputs:
            text = out.get("text", "") + out.get("data", {}).get("text/plain", "")
            assert not address.search(text), f"{name} [{cell.execution_count}]: object address in {text!r}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_story_shape(name: str) -> None:
    nb = _load(name)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# "), f"{name}: no title cell"
    assert "What you will be able to do" in first.source, f"{name}: does not open with its goals"
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "## Exercises" in markdown, f"{name}: no exercises"
    checks = [c for c in _code_cells(nb) if re.search(CHECK_CALL, c.source, re.M)]
    assert len(checks) >= 2, f"{name}: {len(checks)} checkable exercises, expected two or three"
    for cell in checks:
        # The exercise is left for the reader: the stored answer is None.
        assert re.search(r"^answer_\d+ = None$", cell.source, re.M), f"{name}: exercise with a stored answer"
    assert "widget" in _tags(_code_cells(nb)[-1]), f"{name}: does not end with a live widget"


def _exercise_solutions(tree: ast.Module) -> set[str]:
    """The functions a cell hands to ``check_function``: a coding exercise's worked solution."""
    return {call.args[1].id for call in ast.walk(tree)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id == "check_function"
            and len(call.args) == 2 and isinstance(call.args[1], ast.Name)}


def _definitions(tree: ast.Module) -> set[str]:
    """Every function, class and lambda a cell defines, outside its coding exercises' solutions."""
    solutions = _exercise_solutions(tree)
    defined = set()
    for top in tree.body:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) and top.name in solutions:
            continue  # the student writes this one: the notebook's worked solution, checked against mtlearn
        for node in ast.walk(top):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                defined.add(getattr(node, "name", "<lambda>"))
    return defined


def test_exercise_solutions_are_the_only_exemption() -> None:
    # A function handed to check_function is exempt, with what it nests; a second one in the cell is not.
    tree = ast.parse("def f(x):\n    def g(y):\n        return y\n    return g(x)\n\n"
                     "def h(x):\n    return x\n\ncheck_function('01.c1', f)\n")
    assert _definitions(tree) == {"h"}


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_formula_reimplemented(name: str) -> None:
    defined = set()
    for cell in _code_cells(_load(name)):
        defined |= _definitions(parse_cell(cell.source))
    extra = defined - ALLOWED_DEFINITIONS[name]
    assert not extra, f"{name}: defines {sorted(extra)}; notebooks call mtlearn instead"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_exercises_use_the_shared_checker(name: str) -> None:
    # One check() for every notebook: imported from mtlearn.exercises before the first exercise.
    cells = [c.source for c in _code_cells(_load(name))]
    first_exercise = next(k for k, source in enumerate(cells) if re.search(CHECK_CALL, source, re.M))
    imports = [k for k, source in enumerate(cells)
               if re.search(r"^from mtlearn\.exercises import .*\bcheck\b", source, re.M)]
    assert imports and imports[0] < first_exercise, f"{name}: check() is not imported from mtlearn.exercises"


def test_document_code_is_quoted_verbatim() -> None:
    """Notebook 01's quotation of the Chinese blog post's ``bleu`` is the document's own code."""
    nb = _load("01_bleu_from_scratch.ipynb")
    source = next(c.source for c in _code_cells(nb) if "quoted from the Chinese blog post" in c.source)
    quoted = source.split("unchanged ---\n", 1)[1].split("# --- end of the quotation", 1)[0].strip()
    seed = REPO.parent / "shared" / "seeds" / "002_d6cb2a3aa27ad701.txt"
    if not seed.is_file():
        pytest.skip(f"the Chinese blog post not available at {seed}")
    import json

    content = json.loads(seed.read_text(encoding="utf-8"), strict=False)["content"]["rendered"]
    assert quoted in content.replace("\r\n", "\n")  # the post's code block has Windows line ends

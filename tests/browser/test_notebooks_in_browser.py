"""Every notebook, run by a student in JupyterLab in Chromium; the explorers poked at.

For each ``notebooks/NN_*.ipynb`` (a copy in a temporary folder, so nothing is
written into the repository): open it, *Edit → Clear Outputs of All Cells*,
*Run → Run All Cells*, wait until every cell ran, and fail if any cell shows an
error. Where the notebook builds a ``BleuExplorer``, ``MeteorExplorer``,
``ChrfExplorer`` or ``TerExplorer``, type a new candidate and move a slider (TER:
tick a box) in it, and check the numbers the page shows against mtlearn computed
here, in the test process.

A harness check runs on a scratch notebook first: the kernel is this venv's
Python, and the error detector sees a traceback.

Screenshots (``test-artifacts/browser/``): ``<notebook>-after-run-all.png``,
``<notebook>-bleu-explorer-after-typing.png``, ``…-after-max-order-slider.png``,
``<notebook>-meteor-explorer-after-typing.png``, ``…-after-sliders.png``,
``<notebook>-chrf-explorer-after-typing.png``, ``…-after-beta-slider.png``,
``<notebook>-ter-explorer-after-typing.png``, ``…-after-case-sensitive.png``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import browser_explorers as explorers
import browser_ui as ui
import nbformat
import pytest
from browser_harness import NOTEBOOKS, Server, save_screenshot

# The numbered notebooks (workshop.ipynb is the Voilà app: test_workshop_app.py).
STUDENT_NOTEBOOKS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def code_of(path: Path) -> str:
    """All code cells of a notebook, joined."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def write_notebook(path: Path, *sources: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    nbformat.write(nb, str(path))


@pytest.fixture
def kernels_stop(jupyter_lab: Server) -> Iterator[None]:
    """Shut the notebook's kernel down after the test (closing a tab does not).

    Requested before ``page``, so it is torn down after it: the tab (and a failure
    screenshot) first, then the kernel.
    """
    try:
        yield
    finally:
        jupyter_lab.shutdown_kernels()


def test_harness_on_a_scratch_notebook(kernels_stop: None, page: Any, jupyter_lab: Server) -> None:
    """The harness is not blind: the kernel is this venv's Python, an empty cell does not
    hold Run All up, and a cell raising ZeroDivisionError is reported (and stops the run)."""
    name = "zz_scratch_harness.ipynb"
    write_notebook(jupyter_lab.root / name, "import sys\nprint(sys.executable)", "", "print(40 + 2)",
                   "1 / 0", "print('never runs')")
    ui.open_notebook(page, jupyter_lab, name)
    ui.run_all_cells(page, name)
    errors = ui.error_outputs(page)
    assert len(errors) == 1 and "ZeroDivisionError" in errors[0], errors
    ui.wait_idle(page)
    texts = page.locator(".jp-OutputArea-output").all_inner_texts()
    assert [t.strip() for t in texts[:2]] == [sys.executable, "42"]
    assert "never runs" not in "".join(texts)


def test_notebooks_use_both_explorers() -> None:
    """Some notebook builds each explorer, so the test below pokes at both in JupyterLab."""
    assert STUDENT_NOTEBOOKS, f"no notebooks found in {NOTEBOOKS}"
    code = "\n".join(code_of(path) for path in STUDENT_NOTEBOOKS)
    assert "BleuExplorer(" in code and "MeteorExplorer(" in code


@pytest.mark.parametrize("notebook", STUDENT_NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_in_jupyterlab(kernels_stop: None, page: Any, jupyter_lab: Server, browser: Any,
                                     notebook: Path) -> None:
    name = notebook.name
    asked_before = len(browser.blocked)
    ui.open_notebook(page, jupyter_lab, name)
    seconds = ui.run_all_cells(page, name)
    print(f"{name}: Run All Cells took {seconds:.1f} s")
    save_screenshot(page, f"{notebook.stem}-after-run-all", height=2400)
    errors = ui.error_outputs(page)
    assert not errors, f"{name} shows {len(errors)} error(s):\n\n" + "\n---\n".join(errors)
    for warning in ui.stderr_outputs(page):
        print(f"{name}: stderr output (not an error): {warning[:200]!r}")
    code = code_of(notebook)
    if "BleuExplorer(" in code:
        explorers.exercise_bleu(page, f"{notebook.stem}-bleu-explorer")
    if "MeteorExplorer(" in code:
        explorers.exercise_meteor(page, f"{notebook.stem}-meteor-explorer")
    if "ChrfExplorer(" in code:
        explorers.exercise_chrf(page, f"{notebook.stem}-chrf-explorer")
    if "TerExplorer(" in code:
        explorers.exercise_ter(page, f"{notebook.stem}-ter-explorer")
    # JupyterLab and the notebook need no internet: nothing was asked of another host.
    assert browser.blocked[asked_before:] == []

"""Every printed line of every stored notebook output fits in 110 columns.

A line wider than that wraps in a 1280-pixel browser and in the rendered book, and a table's columns break
apart. Checked: stream outputs (what ``print`` writes) and ``text/plain`` results, over every notebook in
``notebooks/`` (the workshop's included), counting display columns: a Chinese or Japanese character takes
two. Not checked: pictures and HTML (they reflow), and the ``text/plain`` fallback of a live widget (the
widget's repr, which Jupyter shows only where widgets cannot be drawn; the book shows a snapshot instead).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import nbformat
import pytest
from repo_paths import REPO

WIDTH = 110
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


def columns(line: str) -> int:
    """Display columns of ``line``: wide (W) and full-width (F) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def printed_text(output: nbformat.NotebookNode) -> str:
    """The text a reader sees of one output: a stream's text, or a result's ``text/plain``."""
    if output.output_type == "stream":
        return output.get("text", "")
    data = output.get("data", {})
    if WIDGET_MIME in data:
        return ""
    return data.get("text/plain", "")


def too_wide(path: Path) -> list[str]:
    """Each line wider than :data:`WIDTH`, as "notebook cell N (execution_count) line L: C columns: ..."."""
    found = []
    nb = nbformat.read(path, as_version=4)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for output in cell.outputs:
            for number, line in enumerate(printed_text(output).splitlines(), start=1):
                if columns(line) > WIDTH:
                    found.append(f"{path.name} cell {index} [{cell.execution_count}] line {number}: "
                                 f"{columns(line)} columns: {line[:60]!r}...")
    return found


def test_there_are_notebooks_to_check():
    assert len(NOTEBOOKS) >= 11, [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_printed_line_fits(path: Path) -> None:
    wide = too_wide(path)
    assert not wide, f"{len(wide)} printed lines wider than {WIDTH} columns:\n" + "\n".join(wide)


def test_the_check_sees_a_wide_line_and_counts_wide_characters(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("print(...)")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="ok\n" + "x" * 111 + "\n"),
                    nbformat.v4.new_output("execute_result", data={"text/plain": "中" * 56},
                                           execution_count=1),
                    nbformat.v4.new_output("display_data", data={"text/plain": "W" * 300, WIDGET_MIME: {}})]
    nb.cells = [nbformat.v4.new_markdown_cell("# t"), cell]
    path = tmp_path / "wide.ipynb"
    nbformat.write(nb, path)
    wide = too_wide(path)
    assert len(wide) == 2 and wide[0].startswith("wide.ipynb cell 1 [None] line 2: 111 columns")
    assert "line 1: 112 columns" in wide[1]

"""Put each notebook's concept checks at the end of their sections, as code cells tagged ``concept-check``
(and ``widget``).

    python scripts/insert_concept_checks.py [notebooks/01_bleu_from_scratch.ipynb ...]

(default: every ``notebooks/NN_*.ipynb``). A numbered section is the part of a notebook from a markdown
heading ``## N. Title`` to the next ``## `` heading (or the end). For every concept check ``NN.sNx`` of
the notebook (:func:`mtlearn.exercises.concepts.concept_checks`) the script places, just before that next
heading, the code cell::

    from mtlearn.exercises import concept_check
    concept_check("NN.sNx")

It is idempotent: it first takes out every cell tagged ``concept-check`` (keeping, for a check that still
exists, its outputs and metadata), then puts one back per check, in the bank's order; running it again
changes nothing, and a check taken out of a bank loses its cell. A heading that shares a markdown cell with
the text before it is split off into a cell of its own (the text is unchanged), since a cell cannot go in
the middle of a markdown cell (a split made for a check later removed stays). A notebook is written
only when it changes; executing it again and checking it with nbval is left to the person who runs this.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import nbformat

from mtlearn.exercises.concepts import ConceptCheck, concept_checks

TAG = "concept-check"
#: A check cell's tags: it shows a widget, whose output strict nbval still checks (tests/project/
#: test_notebooks_meta.py: the text is the same on every run; nbval skips the widget view's model id).
TAGS = (TAG, "widget")
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
_HEADING = re.compile(r"^## (?:(\d+)\.\s)?")
_FENCE = re.compile(r"^\s*(```|~~~)")


def check_source(check_id: str) -> str:
    """The source of the cell that shows concept check ``check_id``."""
    return f'from mtlearn.exercises import concept_check\nconcept_check("{check_id}")'


def heading_lines(source: str) -> list[int]:
    """The indices of the lines of a markdown ``source`` that are ``## `` headings (outside code fences)."""
    found, fenced = [], False
    for k, line in enumerate(source.split("\n")):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and _HEADING.match(line):
            found.append(k)
    return found


def _cut(cell: nbformat.NotebookNode, cuts: Sequence[int]) -> list[nbformat.NotebookNode]:
    """``cell`` cut before each line of ``cuts`` (the text is unchanged but for blank lines at the cuts)."""
    lines = cell.source.split("\n")
    parts = []
    for start, end in zip([0, *cuts], [*cuts, len(lines)]):
        part = copy.deepcopy(cell) if start == 0 else nbformat.v4.new_markdown_cell()
        part.source = "\n".join(lines[start:end]).strip("\n")
        if start > 0:
            part.pop("id", None)  # a notebook before nbformat 4.5 has no cell ids
            if "id" in cell:  # a fixed id, so that the split is the same on every run
                part["id"] = f"{cell['id']}-h{start}"[:64]
        parts.append(part)
    return parts


def split_headings(cells: Sequence[nbformat.NotebookNode], sections: set[int]) -> list[nbformat.NotebookNode]:
    """``cells`` with each markdown cell cut before a ``## `` heading that ends one of ``sections`` (numbers)
    in the middle of the cell: a check cell can then go right before that heading."""
    result: list[nbformat.NotebookNode] = []
    current: Optional[int] = None
    for cell in cells:
        if cell.cell_type != "markdown":
            result.append(cell)
            continue
        cuts = []
        for k in heading_lines(cell.source):
            if k > 0 and current in sections:
                cuts.append(k)
            current = _number(cell.source.split("\n")[k])
        result += _cut(cell, cuts) if cuts else [cell]
    return result


def _number(line: str) -> Optional[int]:
    match = _HEADING.match(line)
    return int(match.group(1)) if match and match.group(1) else None


def section_ends(cells: Sequence[nbformat.NotebookNode]) -> dict[int, Optional[int]]:
    """Each numbered section's end: the index of the cell that begins the next ``## `` heading (or the
    number of cells); None for a section whose end is in the middle of a markdown cell."""
    ends: dict[int, Optional[int]] = {}
    current: Optional[int] = None
    for index, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.split("\n")
        for k in heading_lines(cell.source):
            if current is not None:
                ends[current] = index if k == 0 else None
            current = _number(lines[k])
    if current is not None:
        ends[current] = len(cells)
    return ends


def _is_check_cell(cell: nbformat.NotebookNode) -> bool:
    tags = cell.get("metadata", {}).get("tags", [])
    return cell.cell_type == "code" and isinstance(tags, list) and TAG in tags


def _check_id(cell: nbformat.NotebookNode) -> Optional[str]:
    match = re.search(r'concept_check\(\s*["\']([^"\']+)["\']\s*\)', cell.source)
    return match.group(1) if match else None


def _check_cell(check: ConceptCheck, old: Optional[nbformat.NotebookNode],
                ids: bool) -> nbformat.NotebookNode:
    """The cell of ``check``: the old one (outputs and metadata kept) with its source made canonical, or new
    (with a fixed id if ``ids``: cell ids came with nbformat 4.5)."""
    if old is not None:
        cell = old
    else:
        cell = nbformat.v4.new_code_cell(metadata={"tags": list(TAGS)})
        cell.pop("id", None)
        if ids:
            cell["id"] = "concept-" + check.id.replace(".", "-")
    cell.source = check_source(check.id)
    return cell


def insert_checks(nb: nbformat.NotebookNode, checks: Sequence[ConceptCheck],
                  name: str = "the notebook") -> nbformat.NotebookNode:
    """A copy of ``nb`` with one cell per check at the end of its section and no other concept-check cell.

    A check whose section the notebook does not have is a ``ValueError`` naming both.
    """
    result = copy.deepcopy(nb)
    old = {_check_id(c): c for c in result.cells if _is_check_cell(c)}
    cells = split_headings([c for c in result.cells if not _is_check_cell(c)], {c.section for c in checks})
    ends = section_ends(cells)
    ids = (result.get("nbformat"), result.get("nbformat_minor", 0)) >= (4, 5)
    missing = [c.id for c in checks if c.section not in ends]
    if missing:
        raise ValueError(f"{name}: no numbered section for the concept checks {', '.join(missing)} "
                         f"(its sections: {', '.join(map(str, sorted(ends))) or 'none'})")
    # Insert from the last section up, so that the earlier indices stay valid.
    for section in sorted({c.section for c in checks}, reverse=True):
        end = ends[section]
        assert end is not None, f"section {section} still ends inside a cell"  # split_headings cut there
        cells[end:end] = [_check_cell(c, old.get(c.id), ids) for c in checks if c.section == section]
    result.cells = cells
    return result


def update_notebook(path: Path) -> bool:
    """Insert the checks of the notebook at ``path`` (named by its first two digits); True if written."""
    nb = nbformat.read(path, as_version=4)
    updated = insert_checks(nb, concept_checks(path.name[:2]), path.name)
    if updated == nb:
        return False
    nbformat.validate(updated)
    path.write_text(nbformat.writes(updated) + "\n", encoding="utf-8")
    return True


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/NN_*.ipynb")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    try:
        for path in paths:
            changed = update_notebook(path)
            print(f"{path.name}: {len(concept_checks(path.name[:2]))} concept checks, "
                  f"{'updated' if changed else 'unchanged'}")
    except (OSError, ValueError, nbformat.ValidationError) as error:
        print(f"insert_concept_checks: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Issue 13: no shipped table or notebook output rests on reading SID as the line number.

WMT22's ``ad-seg-scores-<pair>.csv`` numbers segments with SID, which is not the line
number of the text files (../shared/data/wmt22/README.md). These checks fail if a
segment-level correlation comes back: a table or column of one, a notebook cell that
computes one, or a join-check number printed beside document 003's sentence-level 0.403.
(tests/test_wmt22_agreement.py holds the other half: relabelling the SIDs of a toy corpus
leaves every table except join_check.csv byte-identical.)
"""

from __future__ import annotations

import csv
import json
import re

import nbformat

from repo_paths import REPO

TABLES = REPO / "mtlearn" / "study" / "data" / "wmt22_agreement"
NOTEBOOK = REPO / "notebooks" / "06_do_metrics_agree_with_people.ipynb"
CLAIM = "0.403"

# Column names a segment-level agreement figure (or the old identical-output noise check) would carry.
SEGMENT_LEVEL = re.compile(r"kendall|tau|darr|identical_output|different_output|segment.*(corr|pearson)", re.I)


def _rows(name: str) -> list[dict[str, str]]:
    with open(TABLES / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        for key, value in out.get("data", {}).items():
            if key.startswith("text/"):
                parts.append(value if isinstance(value, str) else "".join(value))
    return "".join(parts)


def test_no_segment_level_correlation_table_or_column_is_shipped():
    names = sorted(p.name for p in TABLES.iterdir())
    assert not [n for n in names if "segment_corr" in n], names
    for path in TABLES.glob("*.csv"):
        header = path.read_text(encoding="utf-8").splitlines()[0].split(",")
        assert not [h for h in header if SEGMENT_LEVEL.search(h)], (path.name, header)
    settings = json.loads((TABLES / "settings.json").read_text(encoding="utf-8"))
    assert settings["segment_level"]["tables"].startswith("none"), settings["segment_level"]
    assert "SID is read as" not in json.dumps(settings)


def test_join_check_is_a_check_never_a_lone_figure():
    """Every join-check figure of the humans stands among all offsets and a shuffle, never alone."""
    rows = _rows("join_check.csv")
    groups: dict[tuple[str, str, str], set[str]] = {}
    for r in rows:
        if r["y"] == "human_z":
            groups.setdefault((r["pair"], r["system"], r["x"]), set()).add(
                "shuffled" if r["alignment"] == "shuffled" else r["offset"])
    assert groups and all(g == {"-2", "-1", "0", "1", "2", "shuffled"} for g in groups.values())
    assert {r["alignment"] for r in rows} == {"sid_as_line_plus_offset", "shuffled", "same_text_plus_offset"}


def test_notebook_has_no_sentence_level_figure_beside_the_claim():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    numbers = {f"{float(r['pearson']):.3f}" for r in _rows("join_check.csv")
               if r["pearson"] and r["y"] == "human_z"}
    for k, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            # The removed API, or a correlation over sentences computed in the notebook.
            assert not re.search(r"segment_correlation|summarize_correlations\(\s*\"segment\"", cell.source), k
            out = _text(cell)
            if CLAIM in out:
                shown = set(re.findall(r"-?\d\.\d{3}\b", out)) & numbers
                assert not shown, f"cell {k}: join-check figures {sorted(shown)} printed beside {CLAIM}"
            if "join_checks" in cell.source:
                assert CLAIM not in out and "DOCUMENT_CLAIM" not in cell.source, k
    # The join-check section is there, as a lesson: offsets and a shuffle, and the conclusion drawn.
    sources = "\n".join(c.source for c in nb.cells)
    assert "join_checks" in sources and "shuffled" in sources and "ad-latest.csv" in sources
    # The conclusions the wrong join supported are gone (quoting them as withdrawn is fine).
    prose = " ".join(" ".join(c.source.split()) for c in nb.cells if c.cell_type == "markdown").lower()
    for withdrawn in ("a single crowd judgement of one sentence is mostly noise",
                      "segment-level figures near 0 therefore", "identical translations are scored almost"):
        assert withdrawn not in prose, withdrawn

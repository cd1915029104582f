"""ChrfResult is data: its shape, serialisation and n-gram tables, and a module that imports no renderer."""

from __future__ import annotations

import ast
import json
from dataclasses import FrozenInstanceError

import pytest
from repo_paths import REPO

import mtlearn
from mtlearn.metrics.chrf.result import ChrfOrder, ChrfResult
from mtlearn.metrics.chrf.score import chrf, chrf_from_stats, corpus_chrf

FOLDER = REPO / "mtlearn" / "metrics" / "chrf"


def test_result_shape_and_serialisation() -> None:
    r = mtlearn.chrf("the cat sat.", ["the cat sat on the mat."], word_order=2)
    assert isinstance(r, ChrfResult) and all(isinstance(o, ChrfOrder) for o in r.orders)
    assert [o.label for o in r.orders] == ["c1", "c2", "c3", "c4", "c5", "c6", "w1", "w2"]
    assert r.signature.startswith(
        "mtlearn-chrf|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|beta:2|version:")
    assert mtlearn.chrf("a", ["a"], eps_smoothing=True, lowercase=True).signature.split("|")[2:4] == [
        "case:lc", "eff:no"]
    d = json.loads(json.dumps(r.to_dict()))
    assert d["score"] == r.score and d["orders"][6]["kind"] == "word"
    c = mtlearn.corpus_chrf(["a b", "c"], [["a b"], ["c", "d"]])
    assert c.signature.split("|")[1] == "nrefs:var"
    assert len(json.loads(json.dumps(c.to_dict(segments=True)))["segments"]) == 2
    with pytest.raises(FrozenInstanceError):
        r.score = 0.5  # type: ignore[misc]


def test_ngram_table() -> None:
    r = chrf("the cat.", ["the cat sat."], word_order=2)
    rows = r.ngram_table("word", 1)
    assert [(row.ngram, row.candidate_count, row.reference_count, row.matched) for row in rows] == [
        (("the",), 1, 1, 1), (("cat",), 1, 1, 1), ((".",), 1, 1, 1), (("sat",), 0, 1, 0)]
    chars = r.ngram_table("char", 1)
    assert sum(row.matched for row in chars) == r.orders[0].matched
    assert sum(row.candidate_count for row in chars) == r.orders[0].candidate_count
    with pytest.raises(ValueError, match="^kind:"):
        r.ngram_table("byte", 1)
    with pytest.raises(ValueError, match="^n:"):
        r.ngram_table("word", 3)
    with pytest.raises(ValueError, match="^ngram_table:"):
        corpus_chrf(["a"], [["a"]]).ngram_table("char", 1)
    with pytest.raises(ValueError, match="^ngram_table:"):
        chrf_from_stats(r.stats).ngram_table("char", 1)


def _chrf_imports(path) -> set[str]:
    """The chrF modules ``path`` imports anywhere (at import time, in a function, under TYPE_CHECKING)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        if isinstance(node, ast.ImportFrom) and node.module == "mtlearn.metrics.chrf":
            names = [f"mtlearn.metrics.chrf.{a.name}" for a in node.names]
        found |= {n.rsplit(".", 1)[1] for n in names if n.startswith("mtlearn.metrics.chrf.")}
    return found


def test_the_folder_has_no_import_cycle_not_even_for_typing() -> None:
    # The data (stats, result) never imports its rendering (explain): a result's explain() reaches
    # explain.py through core.derivation.derive, which explain.py registers.
    graph = {p.stem: _chrf_imports(p) for p in FOLDER.glob("*.py") if p.stem != "__init__"}
    assert "explain" not in graph["result"] and "explain" not in graph["stats"]
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import cycle: " + " -> ".join(path + (module,))
        if module in done:
            return
        for imported in graph.get(module, ()):
            visit(imported, path + (module,))
        done.add(module)

    for module in graph:
        visit(module, ())

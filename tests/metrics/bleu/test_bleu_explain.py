"""explain(), _repr_html_() and to_dict(): presentation of a BleuResult, read from the derivation's rows."""

from __future__ import annotations

import ast
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

import mtlearn
from mtlearn.core.derivation import derive, derive_html, to_text
from mtlearn.metrics.bleu import explain as bleu_explain
from mtlearn.metrics.bleu.explain import OrderTable, derivation, summary
from mtlearn.tools.cli.format import Style, details, score_line


def test_explain_substitutes_the_numbers():
    result = mtlearn.bleu("A B B C D", ["A B C D E F"], smoothing="exp")
    text = result.explain()
    for line in ("p_1 = 4/5 = 0.8000", "p_2 = 3/4 = 0.7500", "p_3 = 1/3 = 0.3333",
                 "p_4 = 0/2 = 0.0000   smoothed (exp): 0.25",
                 "BP = exp(1 - r/c) = exp(1 - 6/5) = 0.8187   (c = 5 < r = 6)"):
        assert line in text
    bp = math.exp(1 - 6 / 5)
    mean = (4 / 5 * 3 / 4 * 1 / 3 * 1 / 4) ** 0.25
    assert f"BLEU = BP * mean = {bp:.4f} * {mean:.4f} = {bp * mean:.4f}" in text
    assert "'B': 2 | 1 | 1 | 1" in text  # the unigram table: B twice, once in the reference


def test_explain_of_a_zero_says_why():
    text = mtlearn.bleu("A B B C D", ["A B C D E F"]).explain()
    assert "p_4 = 0, so exp(sum w_n log p_n) = 0" in text
    assert "why: no 4-gram matches" in text


def test_explain_of_a_corpus_has_no_tables():
    result = mtlearn.corpus_bleu(["A B C", "A B"], [["A B C"], ["A C"]], max_order=2)
    text = result.explain()
    assert text.startswith("BLEU-2 of a corpus of 2 segments")
    assert "p_1 = 4/5 = 0.8000" in text and "2-grams:" not in text


def test_html_is_compact_and_escaped():
    html = mtlearn.bleu("<b> &", ["<b> &"], max_order=2)._repr_html_()
    assert html.startswith("<div class='mtlearn-bleu'><b>BLEU = 1.0000</b>")
    assert "<td>2/2</td>" in html and "<b> &" not in html.replace("<b>BLEU", "")


def test_to_dict_is_json_and_complete():
    result = mtlearn.bleu("A B B C D", ["A B C D E F"])
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert data["precision_fractions"] == ["4/5", "3/4", "1/3", "0"]
    assert data["log_precisions"][3] is None and data["log_mean"] is None
    assert data["reference_length"] == 6 and data["signature"] == result.signature
    corpus = mtlearn.corpus_bleu(["A B", "C"], [["A B"], ["C"]], max_order=1)
    assert len(corpus.to_dict(segments=True)["segments"]) == 2


# ------------------------------------------------------------------ the derivation as rows

ROW_CASES = [
    lambda: mtlearn.bleu("A B B C D", ["A B C D E F"]),
    lambda: mtlearn.bleu("A B", ["A B C D E F"], smoothing="exp", effective_order=True),
    lambda: mtlearn.bleu("the cat", ["the cat sat"], smoothing="method1", max_order=3),
    lambda: mtlearn.bleu("", ["a b"]),
    lambda: mtlearn.corpus_bleu(["a b c", "d e"], [["a b c"], ["d f", "d e g"]],
                                weights=[0.5, 0.3, 0.1, 0.1]),
    lambda: mtlearn.metrics.bleu.score.bleu_from_stats(mtlearn.bleu("a b c", ["a b d"]).stats,
                                                       smoothing="floor"),
]


@pytest.mark.parametrize("make", ROW_CASES)
def test_explain_html_and_the_summary_read_the_registered_rows(make) -> None:
    result = make()
    rows = derive(result)
    assert rows == derivation(result)  # registered with core.derivation's dispatch
    assert (result.explain() == to_text(rows)
            and result.explain(tables=False) == to_text(derive(result, tables=False)))
    assert result._repr_html_() == derive_html(result)
    # The summary line is the command line's line on the 0-1 scale.
    style = Style(scale=1)
    assert rows.summary == summary(result) == score_line(result, style, details(result, style))


@pytest.mark.parametrize("make", ROW_CASES)
def test_every_step_holds_the_results_numbers(make) -> None:
    result = make()
    rows = derivation(result)
    for n in range(1, result.max_order + 1):
        assert rows.step(f"p{n}").exact == result.precision_fractions[n - 1]
        assert rows.step(f"p{n}-used").value == f"{result.precisions[n - 1]:.4f}"
    assert rows.step("bleu").value == f"{result.score:.4f}"
    assert rows.step("mean").value in (f"{result.geometric_mean:.4f}", "0")
    assert rows.step("bp").text() in result.explain()
    table = next(s for s in rows.sections if isinstance(s, OrderTable))
    html = result._repr_html_()
    for row in table.rows:  # the HTML's rows are the table's rows
        used, weight, log = (step.value for step in row.steps[1:])
        assert f"<td>{row.n}</td><td>{row.counts}</td><td>{used}</td><td>{weight}</td><td>{log}</td>" in html


def test_a_zero_mean_names_the_zero_precision() -> None:
    step = derivation(mtlearn.bleu("A B B C D", ["A B C D E F"])).step("mean")
    assert (step.note, step.value) == ("p_4", "0")
    assert step.note and derivation(mtlearn.bleu("a b", ["a b"], max_order=2)).step("p1").exact == Fraction(1)


def test_no_import_cycle_in_the_folder_type_checking_included() -> None:
    # result.py holds data only; explain.py imports it and registers its renderers (core.derivation).
    folder = Path(bleu_explain.__file__).parent
    graph = {}
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[path.stem] = {node.module.rsplit(".", 1)[1] for node in ast.walk(tree)
                            if isinstance(node, ast.ImportFrom) and node.module
                            and node.module.startswith("mtlearn.metrics.bleu.")}
    seen: dict[str, int] = {}

    def visit(name: str, stack: tuple[str, ...]) -> None:
        assert name not in stack, " -> ".join(stack + (name,))
        if seen.get(name):
            return
        for other in graph.get(name, ()):
            visit(other, stack + (name,))
        seen[name] = 1

    for name in graph:
        visit(name, ())
    assert "explain" not in graph["result"]

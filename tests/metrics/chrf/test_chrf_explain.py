"""chrF's derivation is rows; explain(), _repr_html_ and the command line's summary line read those rows."""

from __future__ import annotations

import html
from fractions import Fraction

import pytest

from mtlearn.core.derivation import Derivation, derive, to_text
from mtlearn.metrics.chrf.explain import OrderTable, derivation, summary
from mtlearn.metrics.chrf.score import chrf, chrf_from_stats, corpus_chrf
from mtlearn.tools.cli.format import Style, details, score_line

RESULTS = {
    "one segment": lambda: chrf("the cat.", ["the dog.", "the cat sat."], word_order=2),
    "eps smoothing, many empty orders": lambda: chrf("ab b", ["ab"], char_order=12, eps_smoothing=True),
    "no order on both sides": lambda: chrf("", ["abc"]),
    "a corpus": lambda: corpus_chrf(["a b", "the cat"], [["a c"], ["the cat sat"]], beta=1),
    "statistics": lambda: chrf_from_stats(chrf("ab ab", ["abc"], char_order=2).stats),
}


def test_explain_text_and_html() -> None:
    r = chrf("the cat.", ["the dog.", "the cat sat."], word_order=2)
    text = r.explain()
    assert "chrF++" in text and "reference 1" in text and "kept" in text
    assert "F_2 = (1 + 2^2) * P * R" in text and f"{r.score:.4f}" in text
    assert "word 2-grams" in text  # the tables of one segment
    html_text = r._repr_html_()
    assert "<table>" in html_text and "w2" in html_text and "reference kept" in html_text
    corpus = corpus_chrf(["a b"], [["a c"]]).explain()
    assert "a corpus of 1 segment (" in corpus
    assert "eps_smoothing" in chrf("ab", ["abc"], eps_smoothing=True).explain()
    assert "why:" in chrf("", ["abc"]).explain()


@pytest.mark.parametrize("name", RESULTS)
def test_explain_is_the_text_of_the_registered_rows(name: str) -> None:
    r = RESULTS[name]()
    d = derive(r)
    assert isinstance(d, Derivation) and d == derivation(r)
    assert r.explain() == to_text(d)
    for tables in (True, False):
        assert r.explain(tables=tables) == to_text(derive(r, tables=tables))
    assert d.notes == ((f"why: {r.reason}",) if r.reason else ())


@pytest.mark.parametrize("name", RESULTS)
def test_every_order_is_a_row_of_steps_with_exact_values(name: str) -> None:
    r = RESULTS[name]()
    d = derivation(r)
    for o in r.orders:
        k = o.label
        counts = [d.step(f"{part}-{k}").exact for part in ("candidate-count", "reference-count", "matched")]
        assert counts == [o.candidate_count, o.reference_count, o.matched]
        assert d.step(f"precision-{k}").exact == o.precision and d.step(f"recall-{k}").exact == o.recall
        assert d.step(f"f-{k}").value == f"{o.f:.4f}" and (d.step(f"f-{k}").note == "") == o.used
    if r.precision + r.recall and not r.eps_smoothing:
        assert d.step("precision").exact == r.precision_fraction
        assert d.step("recall").exact == r.recall_fraction
        assert d.step("f-beta").value == f"{r.score:.4f}"
    table = next(s for s in d.sections if isinstance(s, OrderTable))
    assert [row.label for row in table.rows] == [o.label for o in r.orders]


@pytest.mark.parametrize("name", RESULTS)
def test_the_html_reads_the_same_rows(name: str) -> None:
    r = RESULTS[name]()
    d, page = derivation(r), r._repr_html_()
    assert f"<p>{html.escape(d.step('f-beta').text())}</p>" in page
    for o in r.orders:
        k = o.label
        cells = [d.step(f"{part}-{k}").value for part in ("candidate-count", "reference-count", "matched")]
        ratios = [f"{d.step(f'{part}-{k}').exact} = {float(d.step(f'{part}-{k}').exact):.4f}"
                  for part in ("precision", "recall")]
        row = "".join(f"<td>{html.escape(c)}</td>" for c in [k, *cells, *ratios, d.step(f"f-{k}").value])
        assert row in page, k


@pytest.mark.parametrize("name", RESULTS)
def test_the_summary_is_the_command_lines_line_on_the_0_1_scale(name: str) -> None:
    r = RESULTS[name]()
    style = Style(scale=1)
    assert derivation(r).summary == summary(r) == score_line(r, style, details(r, style))


def test_long_runs_of_empty_orders_are_one_line_in_the_table_and_the_tables() -> None:
    r = chrf("ab b", ["ab"], char_order=12, eps_smoothing=True)
    text = r.explain()
    empty = [o for o in r.orders if not o.candidate_count and not o.reference_count]
    assert [o.label for o in empty] == [f"c{n}" for n in range(3, 13)]
    assert f"c3-c12 |         0 |         0 |       0 | 0/0           | 0/0           | {empty[0].f:.4f}   " \
           f"({len(empty)} orders, no n-grams on either side)" in text.splitlines()
    assert "char 3-grams .. 12-grams: (none, longer than both texts)" in text.splitlines()
    assert f"{empty[0].f:.4f} x {len(empty)}) / {len(r.orders)} = {r.score:.4f}" in text
    assert r.orders[2].precision == Fraction(0)
    assert "<td>c12</td>" in r._repr_html_()  # the HTML keeps every order

"""TER's derivation (mtlearn/metrics/ter/explain.py): rows with exact values, and the text, HTML and summary
line that all read them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mtlearn.core.derivation import derive, derive_html, to_text
from mtlearn.metrics.ter.explain import derivation
from mtlearn.metrics.ter.score import cer, corpus_ter, ter, ter_from_stats, wer
from mtlearn.metrics.ter.stats import TerStats

CASES = [
    lambda: ter("on the mat the cat sat", ["the cat sat on the mat"]),
    lambda: ter("the cat sat on the mat today", ["today the two cats sat on the mat", "a cat"]),
    lambda: ter("", ["the cat sat"]),
    lambda: ter("a b", [""]),
    lambda: ter("", [""]),
    lambda: wer("a quick brown dog jumps", ["the quick brown fox jumped over the dog"]),
    lambda: cer("kitten", ["sitting"], case_sensitive=False),
    lambda: corpus_ter(["a b", "c"], [["a b"], ["c d", "c"]]),
    lambda: ter_from_stats(TerStats(5, Fraction(7, 3)), metric="wer"),
    lambda: ter_from_stats(TerStats(0, Fraction(0))),
]


def test_explain_text_and_html():
    r = ter("on the mat the cat sat", ["the cat sat on the mat"])
    text = r.explain()
    assert "round 1: move" in text and "TER = edits / reference length = 1 / 6 = 0.1667" in text
    html = r._repr_html_()
    assert "TER = 0.1667" in html and "<table>" in html
    assert "summed over the 2 segments" in corpus_ter(["a", "b"], [["a"], ["c"]]).explain()


@pytest.mark.parametrize("case", CASES)
def test_the_text_and_the_html_read_the_derivation(case):
    result = case()
    d = derivation(result)
    assert derive(result) == d
    assert result.explain() == to_text(d)
    assert result._repr_html_() == derive_html(result)
    score = d.step("score")
    assert score.exact == result.score_fraction
    assert score.text() in result.explain().splitlines()
    # The summary line is the HTML view's first words (its first half in bold).
    bold, rest = d.summary.split(" (", 1)
    assert result._repr_html_().startswith(f"<div class='mtlearn-ter'><b>{bold}</b> ({rest}")
    assert d.summary.startswith(f"{result.metric.upper()} = {result.score:.4f} ({result.num_edits} edits")


@pytest.mark.parametrize("case", CASES)
def test_a_segments_edit_count_row_adds_up_its_edits(case):
    result = case()
    if result.candidate_tokens is None:
        with pytest.raises(KeyError):
            derivation(result).step("edits")
        return
    edits = derivation(result).step("edits")
    counts = result.counts()
    kinds = ("shift", "insert", "delete", "substitute")
    assert edits.exact == result.num_edits == sum(counts[k] for k in kinds)
    assert edits.text().endswith(f" = {result.num_edits}")
    assert ("shift" in edits.text()) == (result.metric == "ter")


def test_a_reference_length_of_zero_shows_the_rule_and_why():
    r = ter("a b", [""])
    assert derivation(r).step("score").text() == "TER = 1 (reference length 0)"
    assert r.explain().splitlines()[-1] == f"why: {r.reason}"

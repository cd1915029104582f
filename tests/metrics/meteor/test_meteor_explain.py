"""METEOR's derivation is rows (mtlearn/metrics/meteor/explain.py): the text, HTML and summary read them.

A result reaches its renderer through core.derivation's single dispatch (result.py never imports
explain.py); every formula step carries its values substituted and its exact value, and those are
the result's own numbers.
"""

from __future__ import annotations

import html
import random
from fractions import Fraction

import pytest

from mtlearn import corpus_meteor, meteor
from mtlearn.core.derivation import Derivation, derive, derive_html, to_text
from mtlearn.metrics.meteor.explain import derivation, explain_html, explain_text, notes, summary
from mtlearn.metrics.meteor.score import meteor_from_stats
from mtlearn.metrics.meteor.stats import MeteorStats

EXACT = ["exact"]
KEYS = ["precision", "recall", "f-mean", "fragmentation", "penalty", "score"]


def _results():
    rng = random.Random(50)
    long = (
        [rng.choice(["the", "a", "cat", "on"]) for _ in range(150)],
        [rng.choice(["the", "a", "cat", "on"]) for _ in range(150)],
    )
    return [
        meteor("on the mat sat the cat", ["the cat sat on the mat"], stages=EXACT),
        meteor(
            "the cat was sat on the mat", ["on the mat the cat sat", "the cat sat on the mat"], stages=EXACT
        ),
        meteor("a b c d e f", ["a b d c e f"], stages=EXACT, alpha=0.5, beta=1.5, gamma=Fraction(1, 3)),
        meteor("", ["the cat"], stages=EXACT),
        meteor(long[0], [long[1]], stages=EXACT),
        corpus_meteor(
            ["on the mat sat the cat", "the cat"], [["the cat sat on the mat"], ["a dog"]], stages=EXACT
        ),
        meteor_from_stats([MeteorStats(6, 7, 6, 2), MeteorStats(0, 3, 4, 0)]),
    ]


@pytest.mark.parametrize("result", _results(), ids=range(7))
def test_explain_html_and_summary_read_the_same_rows(result):
    d = derive(result)
    assert isinstance(d, Derivation) and d == derivation(result)
    assert result.explain() == to_text(d) == explain_text(result)
    assert result._repr_html_() == derive_html(result) == explain_html(result)
    steps = d.steps()
    assert [s.key for s in steps] == KEYS
    text_lines = result.explain().splitlines()
    page = result._repr_html_()
    for step in steps:
        assert step.text() in text_lines  # the text prints each row
        assert f"<code>{html.escape(step.text())}</code>" in page  # the HTML shows the same row
    for note in notes(result):
        assert f"note: {note}" in text_lines and f"<i>{html.escape(note)}</i>" in page
    assert d.summary == summary(result) and d.summary.startswith(f"METEOR = {result.score:.4f} (")
    assert f"chunks = {result.chunks} matches = {result.matches}" in d.summary


@pytest.mark.parametrize("result", _results(), ids=range(7))
def test_each_step_holds_the_results_exact_number(result):
    d = derive(result)
    exact = {
        "precision": result.precision,
        "recall": result.recall,
        "f-mean": result.f_mean,
        "fragmentation": result.fragmentation,
        "penalty": result.penalty if isinstance(result.penalty, Fraction) else None,
        "score": result.score_exact,
    }
    assert {key: d.step(key).exact for key in KEYS} == exact
    assert d.step("score").value == f"{result.score:.4f}"


def test_the_rows_of_the_digest_row_3():
    d = derivation(meteor("the cat was sat on the mat", ["the cat sat on the mat"], stages=EXACT))
    assert d.step("precision").text() == "P = m / w_t = 6/7 = 0.8571"
    assert d.step("f-mean").substituted == "60/61" and d.step("f-mean").note == "(= 10PR / (R + 9P))"
    assert d.step("penalty").text() == "penalty = gamma * (c / u_m)^beta = 0.5 * 0.3333^3 = 1/54 = 0.0185"


def test_notes_say_an_unproven_alignment_a_float_penalty_and_a_defined_zero():
    results = _results()
    assert notes(results[4])[0].startswith("the alignment search hit")  # 150 words of four: not proven
    assert notes(results[2]) == ["the penalty is a float: beta = 1.5 is not a whole number"]
    assert notes(results[3]) == ["empty candidate: no words to match, METEOR is defined as 0"]
    assert "[alignment search stopped early: not proven optimal]" in summary(results[4])
    per_reference = [line for line in results[1].explain().splitlines() if line.startswith("per reference:")]
    scores = [f"{x.score:.4f}" for x in results[1].per_reference]
    assert per_reference == [f"per reference: #0 {scores[0]}, #1 {scores[1]}; kept #1 (the best)"]
    assert results[1].best_reference == 1 and scores[1] == "0.9654" and scores[0] < scores[1]


def test_a_corpus_derivation_gives_its_sums_and_no_alignment():
    c = _results()[5]
    lines = c.explain().splitlines()
    s = c.stats
    assert lines[1] == (
        f"sums over segments (each with its best reference): m = {s.matches}, "
        f"w_t = {s.candidate_length}, w_r = {s.reference_length}, c = {s.chunks}"
    )
    assert (s.matches, s.candidate_length, s.reference_length) == (6, 8, 8)
    assert not any(line.startswith("candidate (") for line in lines) and "<details>" not in c._repr_html_()

"""mtlearn.study.disagreements: the pairs a metric orders against the experts, by hand and on the data."""

from __future__ import annotations

import itertools
import random
import unicodedata

import pytest

import mtlearn
from mtlearn.study.disagreements import disagreement_cases, disagreements, wrap_columns

HUMAN = {"A": [0, -5], "B": [-10, -5], "C": [-1, 0]}
METRIC = {"A": [0.2, 0.5], "B": [0.6, 0.4], "C": [0.1, 0.3]}


def test_by_hand():
    # Segment 7: A (0) over B (-10) but the metric prefers B (0.6 > 0.2); C (-1) over B, metric prefers B.
    # A over C agrees. Segment 8: A and B tie for the experts (no pair); C (0) over A (-5) and over B, the
    # metric prefers A (0.5) and B (0.4) to C (0.3).
    found = disagreements(HUMAN, METRIC, [7, 8], k=None)
    assert [(d.seg_id, d.better, d.worse, d.mqm_gap) for d in found] == [
        (7, "A", "B", 10), (7, "C", "B", 9), (8, "C", "A", 5), (8, "C", "B", 5)]
    assert found[2].metric_gap == pytest.approx(0.2) and found[3].metric_gap == pytest.approx(0.1)


def test_at_most_one_pair_per_segment_keeps_the_worst():
    found = disagreements(HUMAN, METRIC, [7, 8], per_segment=1)
    assert [(d.seg_id, d.better, d.worse) for d in found] == [(7, "A", "B"), (8, "C", "A")]


def test_a_metric_tie_is_no_disagreement_and_an_error_rate_reads_lower_as_better():
    assert disagreements({"A": [0], "B": [-1]}, {"A": [0.3], "B": [0.3]}, [1]) == []
    # TER 0.2 for A, 0.1 for B: an error rate prefers B, the experts prefer A.
    found = disagreements({"A": [0], "B": [-1]}, {"A": [0.2], "B": [0.1]}, [1], higher_is_better=False)
    assert [(d.better, d.worse) for d in found] == [("A", "B")]
    assert disagreements({"A": [0], "B": [-1]}, {"A": [0.2], "B": [0.1]}, [1]) == []


def test_every_disagreement_is_found_and_ordered_on_random_scores():
    rng = random.Random(1)
    names = ["A", "B", "C", "D"]
    human = {s: [rng.choice([0, -1, -5]) for _ in range(6)] for s in names}
    metric = {s: [rng.choice([0.1, 0.2, 0.3]) for _ in range(6)] for s in names}
    found = disagreements(human, metric, list(range(6)), k=None)
    expected = {(i, a, b) if human[a][i] > human[b][i] else (i, b, a)
                for i in range(6) for a, b in itertools.combinations(names, 2)
                if (human[a][i] - human[b][i]) * (metric[a][i] - metric[b][i]) < 0}
    assert {(d.seg_id, d.better, d.worse) for d in found} == expected
    keys = [(-d.mqm_gap, -d.metric_gap) for d in found]
    assert keys == sorted(keys)


@pytest.mark.parametrize("call, message", [
    (lambda: disagreements(HUMAN, {"A": [0, 0]}, [7, 8]), "^metric: give scores for exactly"),
    (lambda: disagreements(HUMAN, METRIC, [7]), "^human: system 'A' needs one human and one metric score"),
    (lambda: disagreements(HUMAN, METRIC, [7, 8], k=0), "^k: expected a positive whole number"),
    (lambda: disagreements(HUMAN, METRIC, [7, 8], per_segment=True), "^per_segment: expected a positive"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_cases_from_the_data_carry_the_texts_and_the_experts_errors(mqm_data):
    cases = disagreement_cases(mqm_data, "bleu", "ref", k=5)
    assert len(cases) == 5 and len({c.disagreement.seg_id for c in cases}) == 5
    for c in cases:
        d = c.disagreement
        assert c.better_text == mqm_data.item(d.better, d.seg_id).target
        assert c.worse_errors == mqm_data.item(d.worse, d.seg_id).errors and c.worse_errors
        assert c.references == (mqm_data.item("ref", d.seg_id).target,)
        assert d.mqm_better == float(mqm_data.item(d.better, d.seg_id).score) > d.mqm_worse
        # The metric really prefers the worse translation: sentence BLEU recomputed here.
        bleu = [mtlearn.bleu(t, list(c.references), tokenize="13a", smoothing="exp",
                             effective_order=True).score
                for t in (c.better_text, c.worse_text)]
        assert bleu == [d.metric_better, d.metric_worse] and bleu[0] < bleu[1]
        text = c.explain()
        # Wrapped within 110 display columns (a wide character takes two), and nothing is lost: the
        # lines joined again hold the source and both translations.
        assert all(_columns(line) <= 110 for line in text.splitlines()), text
        # (Chinese wraps between characters, where there is no space to keep: compare without spaces.)
        joined = "".join(text.split())
        for original in (c.source, c.better_text, c.worse_text, d.worse):
            assert "".join(original.split()) in joined
    with pytest.raises(ValueError, match="^reference: unknown value 'refC'"):
        disagreement_cases(mqm_data, "bleu", "refC")


def _columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@pytest.mark.parametrize("text", ["the cat sat on the mat " * 12, "又或者说，我们会不会只是多元宇宙中的" * 6,
                                  "a  b\tc", "", "x" * 120])
def test_wrap_columns_fits_and_keeps_every_character(text):
    lines = wrap_columns(text, "  source:    ", " " * 13)
    assert all(_columns(line) <= 110 for line in lines)
    assert lines[0].startswith("  source:")
    assert "".join(line[13:] for line in lines).replace(" ", "") == "".join(text.split())

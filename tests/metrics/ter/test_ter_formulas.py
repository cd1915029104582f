"""TER's formulas after the search (mtlearn/metrics/ter/formulas.py): the kept reference, the average length,
the score as an exact fraction and as sacreBLEU's float, the rule for a reference length of 0."""

from __future__ import annotations

from fractions import Fraction

import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from mtlearn import ter
from mtlearn.metrics.ter.formulas import (
    average_length,
    best_reference,
    ter_fraction,
    ter_score,
    zero_length_rule,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=8))
def test_best_reference_is_the_first_with_the_fewest_edits(counts):
    best = best_reference(counts)
    assert counts[best] == min(counts) and best == counts.index(min(counts))


def test_average_length_is_exact_and_counts_empty_references():
    assert average_length([("a", "b", "c"), ("a",), ()]) == Fraction(4, 3)
    assert average_length([()]) == 0


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 10**6), st.integers(1, 5))
def test_ter_fraction_divides_and_ter_score_is_sacrebleus_division(edits, total, nrefs):
    length = Fraction(total, nrefs)
    assert ter_fraction(edits, length) * length == edits
    assert ter_score(edits, length) == edits / float(length)
    assert zero_length_rule(edits, length) is None


def test_sacrebleus_division_can_differ_from_the_exact_fraction_in_the_last_bit():
    # 3 edits against references of 1 and 2 and 2 words (average 5/3): 9/5 = 1.8 exactly, but
    # 3 / float(5/3) is 1.7999999999999998, which sacreBLEU reports and mtlearn keeps.
    assert ter_fraction(3, Fraction(5, 3)) == Fraction(9, 5)
    assert ter_score(3, Fraction(5, 3)) == 1.7999999999999998 != float(Fraction(9, 5))
    ours = ter("x y z", ["a", "a b", "a b"])
    theirs = sacrebleu.sentence_ter("x y z", ["a", "a b", "a b"])
    assert ours.num_edits == 3 and ours.score_fraction == Fraction(9, 5)
    assert ours.score == 1.7999999999999998 and theirs.score == 179.99999999999997  # sacreBLEU's x 100


def test_a_reference_length_of_zero_follows_sacrebleu():
    assert (ter_fraction(2, Fraction(0)), ter_score(2, Fraction(0))) == (1, 1.0)
    assert (ter_fraction(0, Fraction(0)), ter_score(0, Fraction(0))) == (0, 0.0)
    assert "gives 1" in zero_length_rule(2, Fraction(0)) and "gives 0" in zero_length_rule(0, Fraction(0))
    assert (sacrebleu.sentence_ter("a b", [""]).score, sacrebleu.sentence_ter("", [""]).score) == (100.0, 0.0)

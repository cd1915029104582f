"""The digest's BLEU numbers (../shared/seeds/DIGEST.md, the Chinese blog post), exactly."""

from __future__ import annotations

import math
from fractions import Fraction

import mtlearn
from mtlearn.metrics.bleu.formulas import brevity_penalty, geometric_mean


def test_example_a_precisions_d2l():
    result = mtlearn.d2l_bleu("A B B C D".split(), "A B C D E F".split(), 4)
    assert result.precisions == (Fraction(4, 5), Fraction(3, 4), Fraction(1, 3), Fraction(0))
    assert result.score == 0.0 and result.reason == "p_4 = 0 (no matching n-gram), so the product is 0"


def test_example_a_precisions_papineni_bleu():
    result = mtlearn.bleu("A B B C D", ["A B C D E F"])
    assert result.precision_fractions == (Fraction(4, 5), Fraction(3, 4), Fraction(1, 3), Fraction(0))
    assert (result.matches, result.totals) == ((4, 3, 1, 0), (5, 4, 3, 2))


def test_example_b_weights():
    result = mtlearn.d2l_bleu("A B C D".split(), "A B C D".split(), 4)
    assert result.exponents == (Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 16))
    values = [0.5 ** float(e) for e in result.exponents]
    for value, printed in zip(values, (0.7, 0.84, 0.92, 0.96)):
        assert abs(value - printed) < 0.01  # the document rounds: 0.7071 -> 0.7
    assert [round(v, 2) for v in values[1:]] == [0.84, 0.92, 0.96]
    assert geometric_mean([0.5], [0.5]) == math.sqrt(0.5)


def test_example_c_brevity_penalty():
    result = mtlearn.d2l_bleu("A B".split(), "A B C D E F".split(), 2)
    assert result.precisions == (Fraction(1), Fraction(1))
    assert result.penalty_exponent == Fraction(-2)
    assert result.penalty == math.exp(-2)
    assert result.score == math.exp(-2) and round(result.score, 2) == 0.14
    # Papineni's BP gives the same here (c = 2 < r = 6).
    assert brevity_penalty(2, 6) == math.exp(-2)
    assert mtlearn.bleu("A B", ["A B C D E F"], max_order=2).score == math.exp(-2)


def test_identical_prediction_scores_one():
    tokens = "A B C D E F".split()
    assert mtlearn.d2l_bleu(tokens, tokens, 4).score == 1.0
    assert mtlearn.bleu(tokens, [tokens]).score == 1.0


def test_item_10_one_reference_gives_zero():
    result = mtlearn.bleu("how are you", ["hello"])
    assert result.score == 0.0 and result.matches[0] == 0
    # more varied references: a second reference that the answer matches
    assert mtlearn.bleu("how are you", ["hello", "how are you"], max_order=3).score == 1.0


def test_papineni_the_the_the():
    refs = ["The cat is on the mat", "There is a cat on the mat"]
    cand = "the the the the the the the"
    assert mtlearn.bleu(cand, refs, max_order=1, lowercase=True).precision_fractions == (Fraction(2, 7),)
    assert mtlearn.bleu(cand, refs, max_order=1).precision_fractions == (Fraction(1, 7),)

"""chrF's formula steps (formulas.py): chrF++'s words, the float key sacreBLEU compares references by."""

from __future__ import annotations

import random
from fractions import Fraction

from mtlearn.metrics.chrf import formulas as F


def test_split_punctuation_rule() -> None:
    assert F.split_punctuation("(hi) ok, 'x' a") == ["(hi", ")", "ok", ",", "'x", "'", "a"]
    assert F.split_punctuation(",") == [","]
    assert F.split_punctuation("...") == ["..", "."]
    assert F.split_punctuation("«hi»") == ["«hi»"]  # only ASCII punctuation


def test_float_choice_key_equals_the_exact_score() -> None:
    rng = random.Random(3)
    for _ in range(300):
        counts = []
        for _ in range(rng.randint(1, 8)):
            c, r = rng.randint(0, 40), rng.randint(0, 40)
            counts.append((c if r else 0, r, rng.randint(0, min(c, r)) if r else 0))
        beta = rng.choice([1, 2, 3, 0.5])
        exact = F.averaged_f(counts, beta)[2]
        assert abs(F.sacrebleu_float_score(counts, beta, False) / 100 - float(exact)) < 1e-14
        smoothed = float(F.eps_smoothed_f(counts, beta))
        assert abs(F.sacrebleu_float_score(counts, beta, True) / 100 - smoothed) < 1e-14


def test_averaged_and_eps_smoothed_f_by_hand() -> None:
    # Two orders: (c, r, m) = (4, 3, 2) and (3, 2, 1); a third the candidate is too short for.
    counts = [(4, 3, 2), (3, 2, 1), (0, 1, 0)]
    assert F.effective_orders(counts) == [0, 1]
    p, r, f = F.averaged_f(counts, 2)
    assert (p, r) == ((Fraction(1, 2) + Fraction(1, 3)) / 2, (Fraction(2, 3) + Fraction(1, 2)) / 2)
    assert f == 5 * p * r / (4 * p + r) == Fraction(175, 324)
    # eps smoothing: every order's F; the third has P = EPS (0/0) and R = 0/1, so F = 0 ...
    assert F.order_f(0, 1, 0, 2, eps=True) == 0
    assert F.eps_smoothed_f(counts, 2) == (Fraction(5, 8) + Fraction(5, 11) + 0) / 3
    # ... and an order neither side has gets P = R = EPS, so F_beta = (1 + b^2) EPS^2 / ((b^2 + 1) EPS) = EPS
    assert F.order_f(0, 0, 0, 2, eps=True) == Fraction(F.EPS)

"""Notebook 04's exercises (METEOR: the score): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['04.1', '04.2', '04.3', '04.c1', '04.c2']
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import mtlearn
from mtlearn.examples import meteor as examples
from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.metrics.meteor.formulas import exact, f_mean, fragmentation, fragmentation_penalty

__all__ = ["EXERCISES"]

_REFERENCE = "the cat sat on the mat"
_EXACT = ["exact"]


def _worked_f_means() -> tuple[tuple[Any, ...], ...]:
    """(P, R, alpha) of the notebook: the worked example's row 3 at alpha 0.9, then section 1's candidates
    that say too little and too much, at alpha 0.9, 0.5 (F1), 0 (P alone) and 1 (R alone)."""
    row_3 = mtlearn.meteor(examples.ROW_3.candidate, [examples.ROW_3.reference], stages=_EXACT)
    short = mtlearn.meteor("the cat sat", [_REFERENCE], stages=_EXACT)
    long = mtlearn.meteor("the cat sat on the mat near the door", [_REFERENCE], stages=_EXACT)
    return ((row_3.precision, row_3.recall, 0.9),
            *((x.precision, x.recall, alpha) for x in (short, long) for alpha in (0.9, 0.5, 0, 1)))


def _random_f_mean(rng: random.Random) -> tuple[Fraction, Fraction, Fraction]:
    """P = m / w_t and R = m / w_r of a random short pair (m may be 0), and alpha in tenths."""
    m = rng.randint(0, 6)
    p, r = Fraction(m, rng.randint(max(m, 1), 8)), Fraction(m, rng.randint(max(m, 1), 8))
    return p, r, Fraction(rng.randint(0, 10), 10)


def _random_penalty(rng: random.Random) -> tuple[int, int, Any, Any]:
    """Chunks and matches of a random short alignment (no match: no chunk), beta and gamma."""
    matches = rng.randint(0, 8)
    chunks = rng.randint(1, matches) if matches else 0
    return chunks, matches, rng.choice((1, 2, 3, 3.0, 1.5)), rng.choice((0.5, 0.25, 1))


_P, _R = Fraction(2, 3), Fraction(1, 2)
_ALPHA_RULE = ("F_mean = P R / (alpha P + (1 - alpha) R) with alpha = 0.9 weights recall nine times more "
               "than precision")
_PENALTY_RULE = ("the penalty is gamma (c / u_m)^beta, chunks over matched unigrams, with gamma = 0.5, "
                 "beta = 3")


def _q3() -> mtlearn.MeteorResult:
    return mtlearn.meteor("the cat sat on a mat", [_REFERENCE], stages=_EXACT)


def _penalty_steps(chunks: int, matches: int) -> str:
    """The penalty's steps with the numbers substituted."""
    return (f"  c / u_m = {chunks}/{matches} = {float(fragmentation(chunks, matches)):.4f}\n"
            f"  Pen = gamma (c / u_m)^beta = 0.5 * ({chunks}/{matches})^3 = "
            f"{fragmentation_penalty(chunks, matches)}")


def _f_mean_steps(p: Fraction, r: Fraction) -> str:
    return f"  F_mean = P R / (0.9 P + 0.1 R) = ({p})({r}) / (0.9 * {p} + 0.1 * {r}) = {f_mean(p, r)}"


EXERCISES: tuple[Exercise, ...] = (
    Question("04.1", "F_mean (alpha 0.9) of P = 2/3, R = 1/2 (a fraction)",
             lambda: f_mean(_P, _R),
             (Misconception("alpha on precision",
                            f"this puts the weight 0.9 on precision: {_ALPHA_RULE}.",
                            lambda: f_mean(_P, _R, Fraction(1, 10))),
              Misconception("F1",
                            f"this is the balanced harmonic mean 2PR / (P + R): {_ALPHA_RULE}.",
                            lambda: f_mean(_P, _R, Fraction(1, 2)))),
             working=lambda: _f_mean_steps(_P, _R)),
    Question("04.2", "The penalty of five matched unigrams in two chunks (a fraction)",
             lambda: fragmentation_penalty(2, 5),
             (Misconception("fraction upside down",
                            f"this divides the matches by the chunks: {_PENALTY_RULE}.",
                            lambda: fragmentation_penalty(5, 2)),
              Misconception("gamma forgotten", f"this leaves gamma out: {_PENALTY_RULE}.",
                            lambda: fragmentation_penalty(2, 5, gamma=1)),
              Misconception("cube forgotten", f"this leaves the power beta out: {_PENALTY_RULE}.",
                            lambda: fragmentation_penalty(2, 5, beta=1))),
             working=lambda: _penalty_steps(2, 5)),
    Question("04.3", "METEOR (exact stage) of 'the cat sat on a mat' against 'the cat sat on the mat'",
             lambda: _q3().score,
             (Misconception("penalty forgotten",
                            "this is F_mean alone: the matches form more than one chunk, and the score is "
                            "F_mean (1 - Pen).", lambda: _q3().f_mean),
              Misconception("penalty subtracted",
                            "this subtracts the penalty from F_mean: the score is F_mean (1 - Pen), the "
                            "penalty scales F_mean down.", lambda: _q3().f_mean - _q3().penalty)),
             working=lambda: _q3().explain()),
    CodingExercise(
        "04.c1", "f_mean(p, r, alpha): the weighted harmonic mean P R / (alpha P + (1 - alpha) R); 0 when "
                 "P or R is 0",
        f_mean, _worked_f_means(), _random_f_mean,
        misconceptions=(
            Misconception("alpha on precision",
                          "this weights precision with alpha: the denominator is alpha P + (1 - alpha) R, "
                          "so alpha = 1 gives R.", lambda p, r, alpha: f_mean(p, r, 1 - exact(alpha))),
            Misconception("F1 whatever alpha", "this ignores alpha: P R / (alpha P + (1 - alpha) R).",
                          lambda p, r, alpha: f_mean(p, r, Fraction(1, 2))))),
    CodingExercise(
        "04.c2", "fragmentation_penalty(chunks, matches, beta, gamma): gamma (chunks / matches)^beta; "
        "0 when there is no match",
        fragmentation_penalty,
        tuple((chunks, 6, 3.0, 0.5) for chunks in range(1, 7)),  # section 2's table: u_m = 6, c = 1 ... 6
        _random_penalty,
        misconceptions=(
            Misconception("fraction upside down",
                          "this divides the matches by the chunks: gamma (c / u_m)^beta.",
                          lambda c, m, beta, gamma: fragmentation_penalty(m, c, beta, gamma) if c else 0),
            Misconception("gamma forgotten", "this leaves gamma out: gamma (c / u_m)^beta.",
                          lambda c, m, beta, gamma: fragmentation_penalty(c, m, beta, 1)))),
)

"""METEOR's faster twins: each computes what a formula of :mod:`mtlearn.metrics.meteor.formulas` computes.

The formulas are what a student reads and what notebooks 03 and 04 show; these are what runs where
speed counts, each docstring naming the formula it equals.
``tests/metrics/meteor/test_meteor_fast_equals_formulas.py`` proves every twin equal to its formula (on
random counts, parameters and alignments, and the WMT22 sample).

- :func:`exact_numbers` and :func:`score_value`: P, R, F_mean, fragmentation, penalty and score
  from the four counts in integers, for a whole β (one segment's numbers; a reference's score);
- :func:`score_from_counts` and :func:`resampling_scorer`: the score in floats (a bootstrap's resamples);
- :func:`crossings_and_chunks`: both counts of an alignment in one pass (every aligned pair).

>>> exact_numbers(6, 7, 6, 2, exact_parameters(0.9, 3, 0.5))["score_exact"]  # worked example, row 3
Fraction(530, 549)
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple, Optional, Union

import numpy as np

from mtlearn.metrics.meteor.formulas import exact

__all__ = ["Params", "exact_parameters", "exact_numbers", "score_value", "score_from_counts",
           "resampling_scorer", "Counts", "crossings_and_chunks"]

#: α = a_n / a_d, a whole β, γ = g_n / g_d: ``(a_n, a_d, β, g_n, g_d)``.
Params = tuple[int, int, int, int, int]
Real = Union[int, float, Fraction]


@functools.lru_cache(maxsize=64)
def exact_parameters(alpha: Real, beta: Real, gamma: Real) -> Optional[Params]:
    """α, β and γ (checked, plain numbers) as the integers :func:`exact_numbers` takes, or ``None``
    when β is not a whole number (the penalty is then a float: no integer shortcut).

    >>> exact_parameters(0.9, 3.0, 0.5), exact_parameters(0.9, 1.5, 0.5)
    ((9, 10, 3, 1, 2), None)
    """
    a, b, g = exact(alpha), exact(beta), exact(gamma)
    if b.denominator != 1:
        return None
    return a.numerator, a.denominator, int(b), g.numerator, g.denominator


def exact_numbers(m: int, wt: int, wr: int, c: int, params: Params) -> dict[str, Any]:
    """The formula steps :func:`~mtlearn.metrics.meteor.formulas.precision`,
    :func:`~mtlearn.metrics.meteor.formulas.recall`, :func:`~mtlearn.metrics.meteor.formulas.f_mean`,
    :func:`~mtlearn.metrics.meteor.formulas.fragmentation`,
    :func:`~mtlearn.metrics.meteor.formulas.fragmentation_penalty` and
    :func:`~mtlearn.metrics.meteor.formulas.meteor_score_value`, value for value, in integers: one
    Fraction each instead of a chain of Fraction operations. For m, w_t, w_r > 0 and a whole β.

    With P = m/w_t and R = m/w_r, F_mean = P·R / (α·P + (1 − α)·R) is m / (α·w_r + (1 − α)·w_t);
    the penalty γ·(c/m)^β and the score F_mean·(1 − penalty) are single fractions too.

    >>> numbers = exact_numbers(6, 7, 6, 2, (9, 10, 3, 1, 2))
    >>> numbers["f_mean"], numbers["penalty"], numbers["score"]
    (Fraction(60, 61), Fraction(1, 54), 0.9653916211293261)
    """
    an, ad, beta, gn, gd = params
    f = Fraction(m * ad, an * wr + (ad - an) * wt)
    pen = Fraction(gn * c ** beta, gd * m ** beta)
    value = Fraction(f.numerator * (pen.denominator - pen.numerator), f.denominator * pen.denominator)
    return dict(
        precision=Fraction(m, wt), recall=Fraction(m, wr), f_mean=f,
        fragmentation=Fraction(c, m), penalty=pen, score=float(value), score_exact=value,
    )


def score_value(m: int, wt: int, wr: int, c: int, params: Params) -> float:
    """``float(meteor_score_value(f_mean(P, R, α), fragmentation_penalty(c, m, β, γ)))`` from integers
    alone, for m, w_t, w_r > 0 and a whole β (a reference's score, to keep the best one):
    F_mean·(1 − penalty) = m·a_d·(g_d·m^β − g_n·c^β) / ((a_n·w_r + (a_d − a_n)·w_t)·g_d·m^β).
    Python's int / int is correctly rounded, so this is the float nearest the exact score, as
    ``float(Fraction)`` is.

    >>> score_value(6, 7, 6, 2, (9, 10, 3, 1, 2))
    0.9653916211293261
    """
    an, ad, beta, gn, gd = params
    mb = m ** beta
    return (m * ad * (gd * mb - gn * c ** beta)) / ((an * wr + (ad - an) * wt) * gd * mb)


def score_from_counts(
    matches: int, candidate_length: int, reference_length: int, chunks: int,
    alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
) -> float:
    """The METEOR score from the four counts in plain floats: the formula steps
    (:func:`~mtlearn.metrics.meteor.formulas.f_mean`,
    :func:`~mtlearn.metrics.meteor.formulas.fragmentation_penalty`,
    :func:`~mtlearn.metrics.meteor.formulas.meteor_score_value`) without Fractions, equal to them
    up to float rounding. A bootstrap over a corpus sums the counts of a resample and calls this
    thousands of times; the parameters are not checked here.

    >>> score_from_counts(6, 7, 6, 2)  # worked example, row 3
    0.9653916211293262
    >>> score_from_counts(0, 5, 4, 0)
    0.0
    """
    if matches == 0 or candidate_length == 0 or reference_length == 0:
        return 0.0
    p = matches / candidate_length
    r = matches / reference_length
    f = p * r / (alpha * p + (1 - alpha) * r)
    return f * (1 - gamma * (chunks / matches) ** beta)


def resampling_scorer(alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
                      **_signature_only: object) -> Callable[[np.ndarray], np.ndarray]:
    """Summed METEOR counts (m, w_t, w_r, chunks; a resample a row) to their scores, for a paired
    test: :func:`score_from_counts` of every row. The other options (stages, case, tokens, tie
    break) were used when aligning.

    >>> resampling_scorer()(np.array([[6, 7, 6, 2], [0, 3, 3, 0]])).tolist()
    [0.9653916211293262, 0.0]
    """
    alpha, beta, gamma = float(alpha), float(beta), float(gamma)

    def scores(sums: np.ndarray) -> np.ndarray:
        rows = sums.tolist()
        return np.array([score_from_counts(m, wt, wr, ch, alpha, beta, gamma) for m, wt, wr, ch in rows],
                        dtype=np.float64)

    return scores


class Counts(NamedTuple):
    crossings: int
    chunks: int


def crossings_and_chunks(pairs: Sequence[tuple[int, int]]) -> Counts:
    """:func:`~mtlearn.metrics.meteor.formulas.count_crossings` and
    :func:`~mtlearn.metrics.meteor.formulas.count_chunks` of an alignment sorted by candidate index,
    in one pass (it runs once per aligned pair, so it is kept cheap).

    Chunks are counted in the order given: a new chunk wherever a pair is not one step further than
    the one before in both strings. On pairs given in another order, or with a word mapped twice, this
    is NLTK's ``_count_chunks`` (:func:`mtlearn.metrics.meteor.greedy.count_chunks_in_order`).

    >>> crossings_and_chunks([(0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)])
    Counts(crossings=8, chunks=6)
    """
    seen: list[int] = []  # reference positions so far, sorted
    crossings = chunks = 0
    pi = pj = -2
    for i, j in pairs:
        pos = bisect.bisect_right(seen, j)
        crossings += len(seen) - pos  # earlier mappings to later reference positions
        seen.insert(pos, j)
        if i != pi + 1 or j != pj + 1:
            chunks += 1
        pi, pj = i, j
    return Counts(crossings, chunks)

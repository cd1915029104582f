"""Notebook 05's exercises (BLEU against METEOR): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['05.1', '05.2', '05.3', '05.c1', '05.c2']
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction

import mtlearn
from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.metrics.bleu.formulas import geometric_mean, uniform_weights
from mtlearn.metrics.meteor.fast import score_from_counts

__all__ = ["EXERCISES"]

# The notebook's reference and the two of its candidates the questions ask about.
_REFERENCE = "the big dog ran quickly across the street"
_INFLECTIONS = "the big dogs run quickly across the streets"
_SYNONYMS = "the large dog ran rapidly across the street"


def _higher_of_the_two(candidate: str) -> str:
    """``"meteor"`` when METEOR scores ``candidate`` above plain BLEU-4, else ``"bleu"``."""
    plain = mtlearn.bleu(candidate, [_REFERENCE])
    met = mtlearn.meteor(candidate, [_REFERENCE])
    return "meteor" if met.score > plain.score else "bleu"


def _scales_mixed(candidate: str) -> str:
    """``"meteor"`` or ``"bleu"`` as a student sees them in sacreBLEU's output: BLEU smoothed ("exp") and
    times 100, against METEOR from 0 to 1."""
    shown = 100 * mtlearn.bleu(candidate, [_REFERENCE], smoothing="exp").score
    return "meteor" if mtlearn.meteor(candidate, [_REFERENCE]).score > shown else "bleu"


def _both(candidate: str) -> str:
    """Both derivations, BLEU's then METEOR's."""
    return (mtlearn.bleu(candidate, [_REFERENCE]).explain(tables=False) + "\n\n"
            + mtlearn.meteor(candidate, [_REFERENCE]).explain())


def _arithmetic_mean(precisions: Sequence[Fraction], weights: Sequence[float]) -> float:
    """Coding misconception: the weighted arithmetic mean sum w_n p_n."""
    return float(sum(w * float(p) for p, w in zip(precisions, weights)))


def _log_mean(precisions: Sequence[Fraction], weights: Sequence[float]) -> float:
    """Coding misconception: sum w_n log p_n, the exp forgotten (0.0 still for a zero precision)."""
    terms = [(p, w) for p, w in zip(precisions, weights) if w != 0]
    if any(p <= 0 for p, _ in terms):
        return 0.0
    return math.fsum(w * math.log(p) for p, w in terms)


def _mean_case(rng: random.Random) -> tuple[list[Fraction], tuple[float, ...]]:
    """One to four precisions (a zero now and then) with BLEU's uniform or d2l's 1/2^n weights."""
    k = rng.randint(1, 4)
    precisions = [Fraction(rng.randint(0, d), d) for d in (rng.randint(1, 8) for _ in range(k))]
    weights = uniform_weights(k) if rng.random() < 0.5 else tuple(0.5 ** n for n in range(1, k + 1))
    return precisions, weights


def _counts_case(rng: random.Random) -> tuple[int, int, int, int]:
    """Counts that one alignment could have: m <= both lengths, 1 <= chunks <= m (0 when m = 0)."""
    candidate_length, reference_length = rng.randint(1, 12), rng.randint(1, 12)
    matches = rng.randint(0, min(candidate_length, reference_length))
    return matches, candidate_length, reference_length, rng.randint(min(1, matches), matches)


_D2L_WEIGHTS = (0.5, 0.25, 0.125, 0.0625)

_SCORE_RULE = ("the score is F_mean (1 - Pen), F_mean = 10 P R / (R + 9 P) weighting recall nine times "
               "more than precision")


def _meteor(candidate: str, **options: object) -> mtlearn.MeteorResult:
    return mtlearn.meteor(candidate, [_REFERENCE], **options)


EXERCISES: tuple[Exercise, ...] = (
    Question("05.1", "Which metric, 'bleu' (plain BLEU-4) or 'meteor', scores the "
                     "inflections candidate higher?",
             lambda: _higher_of_the_two(_INFLECTIONS),
             (Misconception("scales mixed",
                            "this compares sacreBLEU's smoothed score on its 0-100 scale with METEOR's 0-1: "
                            "put both on one scale, and take plain BLEU-4 (no smoothing) as the question "
                            "asks.",
                            lambda: _scales_mixed(_INFLECTIONS)),),
             working=lambda: _both(_INFLECTIONS)),
    Question("05.2", "METEOR of 'the big dog ran' against the notebook's reference",
             lambda: _meteor("the big dog ran").score,
             (Misconception("alpha on precision",
                            f"this weights precision nine times more than recall: {_SCORE_RULE}.",
                            lambda: _meteor("the big dog ran", alpha=0.1).score),
              Misconception("penalty forgotten", f"this is F_mean alone: {_SCORE_RULE}.",
                            lambda: _meteor("the big dog ran").f_mean)),
             working=lambda: _meteor("the big dog ran").explain()),
    Question("05.3", "METEOR of the synonyms candidate with the exact stage only",
             lambda: _meteor(_SYNONYMS, stages=["exact"]).score,
             (Misconception("all stages",
                            "this is METEOR with every stage: with the exact stage only, a word matches "
                            "only the same word, so the synonyms match nothing.",
                            lambda: _meteor(_SYNONYMS).score),
              Misconception("penalty forgotten",
                            "this is F_mean alone: the exact matches form several chunks, and "
                            "the score is F_mean (1 - Pen).",
                            lambda: _meteor(_SYNONYMS, stages=["exact"]).f_mean)),
             working=lambda: _meteor(_SYNONYMS, stages=["exact"]).explain()),
    CodingExercise(
        "05.c1", "geometric_mean(precisions, weights): exp(sum_n w_n log p_n), skipping a weight of 0; "
        "0.0 as soon as a precision with a positive weight is 0",
        geometric_mean,
        (*(([0.5], [w]) for w in _D2L_WEIGHTS),  # the Chinese blog post's example B
         ([Fraction(4, 5), Fraction(3, 4), Fraction(1, 3), Fraction(0)], _D2L_WEIGHTS),  # example A
         ([Fraction(4, 5), Fraction(3, 4), Fraction(1, 3)], _D2L_WEIGHTS[:3]),
         ([Fraction(4, 5), Fraction(3, 4), Fraction(1, 3)], uniform_weights(3))),
        _mean_case,
        misconceptions=(
            Misconception("arithmetic mean",
                          "this is the weighted arithmetic mean sum w_n p_n: BLEU's mean is geometric, "
                          "exp(sum_n w_n log p_n).", _arithmetic_mean),
            Misconception("exp forgotten",
                          "this returns the sum of the logs: it is the log of the mean, and exp turns it "
                          "back into the mean.", _log_mean))),
    CodingExercise(
        "05.c2", "score_from_counts(matches, candidate_length, reference_length, chunks): METEOR "
        "F_mean * (1 - 0.5 (chunks / matches)^3) with P = m / w_t, R = m / w_r, F_mean = 10 P R / (R + 9 P); "
        "0.0 when nothing matches",
        score_from_counts,
        ((6, 6, 6, 6), (6, 6, 6, 1), (6, 7, 6, 2),  # the English Wikipedia article's worked rows 1 to 3
         (3, 3, 8, 1)),  # the notebook's short output 'the big dog'
        _counts_case,
        misconceptions=(
            Misconception("alpha on precision", f"this weights precision nine times more: {_SCORE_RULE}.",
                          lambda m, t, r, c: score_from_counts(m, t, r, c, alpha=0.1)),
            Misconception("cube forgotten", "this penalty is 0.5 (c / m): it is 0.5 (c / m)^3.",
                          lambda m, t, r, c: score_from_counts(m, t, r, c, beta=1.0)),
            Misconception("penalty forgotten", f"this is F_mean alone: {_SCORE_RULE}.",
                          lambda m, t, r, c: score_from_counts(m, t, r, c, gamma=0.0)))),
)

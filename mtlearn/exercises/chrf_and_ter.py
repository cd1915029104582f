"""Notebook 07's exercises (chrF and TER): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['07.1', '07.2', '07.3', '07.c1', '07.c2']
"""

from __future__ import annotations

import random
from fractions import Fraction

import mtlearn
from mtlearn.exercises.kinds import CodingExercise, Exercise, Question
from mtlearn.metrics.chrf.formulas import averaged_f
from mtlearn.metrics.ter.fast import exact_distance

__all__ = ["EXERCISES"]

# The notebook's hand pair (section 2) and the reference of its section 1.
_HAND_PAIR = ("a cat sat", ["the cats sat"])
_REFERENCE = "the big dog ran quickly across the street"
# Questions 1 and 2 ask for a pair the notebook never prints (section 2's table shows the hand pair's
# P_n, R_n).
_QUESTION_PAIR = ("a dog ran", ["the dogs ran"])
_REORDERED = "across the street the big dog ran quickly"


def _counts_case(rng: random.Random) -> tuple[list[tuple[int, int, int]], object]:
    """One to eight orders of (candidate, reference, matched) counts, an empty side now and then, and a
    beta."""
    counts = []
    for _ in range(rng.randint(1, 8)):
        candidate, reference = rng.choice((0, *range(1, 11))), rng.choice((0, *range(1, 11)))
        counts.append((candidate, reference, rng.randint(0, min(candidate, reference))))
    return counts, rng.choice((Fraction(1, 2), 1, 2, 3))


def _order_counts(candidate: str, references: list[str]) -> list[tuple[int, int, int]]:
    """(candidate, reference, matched) per order of chrF, as mtlearn counts them."""
    orders = mtlearn.chrf(candidate, references).orders
    return [(o.candidate_count, o.reference_count, o.matched) for o in orders]


def _words_case(rng: random.Random) -> tuple[list[str], list[str]]:
    """Two short sentences over four words, so that matches and repeats happen."""
    def sentence() -> list[str]:
        return [rng.choice(("the", "cat", "sat", "mat")) for _ in range(rng.randint(0, 8))]
    return sentence(), sentence()


EXERCISES: tuple[Exercise, ...] = (
    Question("07.1", "Character bigram precision P_2 of 'a dog ran' against 'the dogs ran' (a fraction)",
             lambda: mtlearn.chrf(*_QUESTION_PAIR).orders[1].precision),
    Question("07.2", "Character trigram recall R_3 of 'a dog ran' against 'the dogs ran' (a fraction)",
             lambda: mtlearn.chrf(*_QUESTION_PAIR).orders[2].recall),
    Question("07.3", "TER of 'quickly the big dog ran across a street' against the reference of section 1",
             lambda: mtlearn.ter("quickly the big dog ran across a street", [_REFERENCE]).score),
    CodingExercise(
        "07.c1", "averaged_f(counts, beta): (P, R, F_beta) with P and R the means of P_n = matched / "
        "candidate and R_n = matched / reference over the orders where both sides have n-grams (0 for none), "
        "F_beta = (1 + beta^2) P R / (beta^2 P + R), 0 when P = R = 0",
        averaged_f,
        (([(4, 3, 2), (3, 2, 1)], 2),  # mtlearn.metrics.chrf.formulas' example
         (_order_counts(*_HAND_PAIR), 2), (_order_counts(*_HAND_PAIR), 1),  # the notebook's hand pair
         (_order_counts("cats", ["the cats sat"]), 2)),  # no 5- and 6-grams: a shorter effective order
        _counts_case),
    CodingExercise(
        "07.c2", "exact_distance(candidate, reference): the word-level Levenshtein distance (insertions, "
        "deletions, substitutions; no shifts), i.e. WER's number of edits",
        exact_distance,
        (("the cat sat".split(), "the cat sat down".split()), (list("kitten"), list("sitting")), ([], ["x"]),
        (_REORDERED.split(), _REFERENCE.split())),  # section 5: six edits without shifts
        _words_case),
)

"""Notebook 07's exercises (chrF and TER): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['07.1', '07.2', '07.3', '07.c1', '07.c2']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

import mtlearn
from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.metrics.chrf.formulas import (
    average,
    averaged_f,
    effective_orders,
    f_beta,
    precision,
    recall,
)
from mtlearn.metrics.ter.fast import exact_distance

__all__ = ["EXERCISES"]

# The notebook's hand pair (section 2) and the reference of its section 1.
_HAND_PAIR = ("a cat sat", ["the cats sat"])
_REFERENCE = "the big dog ran quickly across the street"
# Questions 1 and 2 ask for a pair the notebook never prints (section 2's table shows the hand pair's
# P_n, R_n).
_QUESTION_PAIR = ("a dog ran", ["the dogs ran"])
_REORDERED = "across the street the big dog ran quickly"


def _chrf(**options: object) -> mtlearn.ChrfResult:
    return mtlearn.chrf(*_QUESTION_PAIR, **options)


def _order_working(n: int) -> str:
    """Order n's counts and P_n, R_n of the question pair."""
    order = _chrf().orders[n - 1]
    return (f"  'adogran' against 'thedogsran', character {n}-grams: candidate {order.candidate_count}, "
            f"reference {order.reference_count}, matched (clipped) {order.matched}\n"
            f"  P_{n} = {order.matched}/{order.candidate_count} = {order.precision}, "
            f"R_{n} = {order.matched}/{order.reference_count} = {order.recall}")


def _beta_on_precision(counts: Sequence[tuple[int, int, int]], beta: object) -> tuple[Fraction, ...]:
    """Coding misconception: P and R as they should be, F_beta with beta on precision."""
    p, r, _ = averaged_f(counts, beta)
    return p, r, f_beta(r, p, beta)


def _every_order(counts: Sequence[tuple[int, int, int]], beta: object) -> tuple[Fraction, ...]:
    """Coding misconception: every order averaged, an empty side counting 0."""
    if not effective_orders(counts):
        return Fraction(0), Fraction(0), Fraction(0)
    p = average([precision(m, c) for c, _, m in counts])
    r = average([recall(m, ref) for _, ref, m in counts])
    return p, r, f_beta(p, r, beta)


def _substitution_costs_two(candidate: Sequence[str], reference: Sequence[str]) -> int:
    """Coding misconception: a substitution costs 2 (a deletion and an insertion)."""
    previous = list(range(len(reference) + 1))
    for i, word in enumerate(candidate, start=1):
        current = [i]
        for j, target in enumerate(reference, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + 2 * (word != target)))
        previous = current
    return previous[-1]


def _position_by_position(candidate: Sequence[str], reference: Sequence[str]) -> int:
    """Coding misconception: words compared position by position, plus the difference in length."""
    return sum(a != b for a, b in zip(candidate, reference)) + abs(len(candidate) - len(reference))


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


_TER_CANDIDATE = "quickly the big dog ran across a street"
_WHITESPACE = ("chrF removes the white space before it counts (sacreBLEU's default), so n-grams run across "
               "word boundaries")

EXERCISES: tuple[Exercise, ...] = (
    Question("07.1", "Character bigram precision P_2 of 'a dog ran' against 'the dogs ran' (a fraction)",
             lambda: _chrf().orders[1].precision,
             (Misconception("recall instead of precision",
                            "this divides by the reference's bigrams: precision divides the matched bigrams "
                            "by the candidate's.", lambda: _chrf().orders[1].recall),
              Misconception("spaces kept", f"this counts bigrams with the spaces: {_WHITESPACE}.",
                            lambda: _chrf(whitespace=True).orders[1].precision)),
             working=lambda: _order_working(2)),
    Question("07.2", "Character trigram recall R_3 of 'a dog ran' against 'the dogs ran' (a fraction)",
             lambda: _chrf().orders[2].recall,
             (Misconception("precision instead of recall",
                            "this divides by the candidate's trigrams: recall divides the matched trigrams "
                            "by the reference's.", lambda: _chrf().orders[2].precision),),
             working=lambda: _order_working(3)),
    Question("07.3", "TER of 'quickly the big dog ran across a street' against the reference of section 1",
             lambda: mtlearn.ter(_TER_CANDIDATE, [_REFERENCE]).score,
             (Misconception("WER instead of TER",
                            "this is WER, with no shifts: TER moves a block of words in one edit, a shift.",
                            lambda: mtlearn.wer(_TER_CANDIDATE, [_REFERENCE]).score),
              Misconception("edits, not a rate",
                            "this is the number of edits: TER divides it by the reference's length.",
                            lambda: mtlearn.ter(_TER_CANDIDATE, [_REFERENCE]).num_edits)),
             working=lambda: mtlearn.ter(_TER_CANDIDATE, [_REFERENCE]).explain()),
    CodingExercise(
        "07.c1", "averaged_f(counts, beta): (P, R, F_beta) with P and R the means of P_n = matched / "
        "candidate and R_n = matched / reference over the orders where both sides have n-grams (0 for none), "
        "F_beta = (1 + beta^2) P R / (beta^2 P + R), 0 when P = R = 0",
        averaged_f,
        (([(4, 3, 2), (3, 2, 1)], 2),  # mtlearn.metrics.chrf.formulas' example
         (_order_counts(*_HAND_PAIR), 2), (_order_counts(*_HAND_PAIR), 1),  # the notebook's hand pair
         (_order_counts("cats", ["the cats sat"]), 2)),  # no 5- and 6-grams: a shorter effective order
        _counts_case,
        misconceptions=(
            Misconception("beta on precision",
                          "this weights precision more: F_beta = (1 + beta^2) P R / (beta^2 P + R) "
                          "weights recall beta times more.", _beta_on_precision),
            Misconception("every order averaged",
                          "this averages over every order: an order where either side has no n-grams is "
                          "left out (the effective order).", _every_order))),
    CodingExercise(
        "07.c2", "exact_distance(candidate, reference): the word-level Levenshtein distance (insertions, "
        "deletions, substitutions; no shifts), i.e. WER's number of edits",
        exact_distance,
        (("the cat sat".split(), "the cat sat down".split()), (list("kitten"), list("sitting")), ([], ["x"]),
        (_REORDERED.split(), _REFERENCE.split())),  # section 5: six edits without shifts
        _words_case,
        misconceptions=(
            Misconception("substitution costs two",
                          "this charges 2 for a substitution: replacing a word is one edit, like an "
                          "insertion or a deletion.", _substitution_costs_two),
            Misconception("position by position",
                          "this compares the words position by position: an insertion or a deletion moves "
                          "everything after it, so fill the table d[i][j].", _position_by_position))),
)

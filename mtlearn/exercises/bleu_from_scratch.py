"""Notebook 01's exercises (BLEU from scratch): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['01.1', '01.2', '01.3', '01.c1', '01.c2']
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction

import mtlearn
from mtlearn.core.ngrams import count_ngrams
from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.metrics.bleu.formulas import brevity_penalty, modified_precision

__all__ = ["EXERCISES"]

_THE_THE = ("the the the the the the the".split(),
            ["the cat is on the mat".split(), "there is a cat on the mat".split()])
_EXAMPLE_A = ("A B B C D".split(), ["A B C D E F".split()])


_CLIPPING = ("each candidate word may be credited at most as often as it appears in one reference "
             "(clipping)")
_BP_RULE = "BP = exp(1 - r/c) when the candidate is shorter than the reference (c < r)"


def _q1() -> mtlearn.BleuResult:
    return mtlearn.bleu("a a a cat", ["a cat sat on a mat"], max_order=1)


def _q3() -> mtlearn.BleuResult:
    return mtlearn.bleu("the cat sat on", ["the cat sat on the mat"], max_order=2)


def _unclipped(result: mtlearn.BleuResult, n: int) -> Fraction:
    """p_n without clipping: every candidate n-gram found in some reference counts as often as it occurs."""
    rows = result.ngram_table(n)
    return Fraction(sum(row.candidate_count for row in rows if row.max_reference_count),
                    sum(row.candidate_count for row in rows))


def _d2l_q2() -> mtlearn.D2LBleuResult:
    return mtlearn.d2l_bleu("A B C".split(), "A B C D E F".split(), 2)


def _without_penalty(score: float, penalty: float) -> float:
    """The score with the brevity penalty left out (the precisions' part alone)."""
    return score / penalty


def _inverted_penalty(candidate_length: int, reference_length: int) -> float:
    """exp(1 - c/r): the brevity penalty with its ratio upside down."""
    return math.exp(1 - candidate_length / reference_length)


def _unclipped_precision(candidate: Sequence[str], references: Sequence[Sequence[str]], n: int) -> Fraction:
    """Coding misconception: candidate n-grams found in any reference, counted without clipping."""
    counts = count_ngrams(list(candidate), n)
    seen = set().union(*(count_ngrams(list(r), n) for r in references))
    total = sum(counts.values())
    return Fraction(sum(c for gram, c in counts.items() if gram in seen), total) if total else Fraction(0)


def _summed_clip_precision(candidate: Sequence[str], references: Sequence[Sequence[str]], n: int) -> Fraction:
    """Coding misconception: each n-gram clipped at its count summed over all references."""
    counts = count_ngrams(list(candidate), n)
    refs = [count_ngrams(list(r), n) for r in references]
    total = sum(counts.values())
    clipped = sum(min(c, sum(r.get(gram, 0) for r in refs)) for gram, c in counts.items())
    return Fraction(clipped, total) if total else Fraction(0)


def _inverted_bp(c: int, r: int) -> float:
    """Coding misconception: exp(1 - c/r) instead of exp(1 - r/c)."""
    return math.exp(1 - c / r) if c < r else 1.0


def _always_penalised(c: int, r: int) -> float:
    """Coding misconception: exp(1 - r/c) whatever the lengths (a long candidate gets more than 1)."""
    return math.exp(1 - r / c) if c > 0 else 0.0


def _precision_case(rng: random.Random) -> tuple[list[str], list[list[str]], int]:
    """A random candidate, one to three references (over four words, so n-grams repeat) and an order."""
    def sentence() -> list[str]:
        return [rng.choice("abcd") for _ in range(rng.randint(0, 8))]
    return sentence(), [sentence() for _ in range(rng.randint(1, 3))], rng.randint(1, 4)


EXERCISES: tuple[Exercise, ...] = (
    Question("01.1", "Modified unigram precision of 'a a a cat' against 'a cat sat on a mat' (a fraction)",
             lambda: _q1().precision_fractions[0],
             (Misconception("unclipped counts", f"this is the precision without clipping: {_CLIPPING}.",
                            lambda: _unclipped(_q1(), 1)),
              Misconception("recall instead of precision",
                            "this divides by the reference's words: precision divides the clipped matches "
                            "by the number of words of the candidate.",
                            lambda: Fraction(_q1().matches[0], _q1().reference_length))),
             working=lambda: _q1().explain()),
    Question("01.2", "d2l's BLEU of prediction 'A B C' for label 'A B C D E F' with k = 2",
             lambda: _d2l_q2().score,
             (Misconception("no brevity penalty",
                            "this is the precisions' product alone: the prediction is shorter than the "
                            "label, so the penalty exp(min(0, 1 - len_label/len_pred)) multiplies it.",
                            lambda: _without_penalty(_d2l_q2().score, _d2l_q2().penalty)),
              Misconception("penalty ratio inverted",
                            "this uses len_pred/len_label in the penalty: it is exp(1 - len_label/len_pred), "
                            "and it is never above 1.",
                            lambda: _without_penalty(_d2l_q2().score, _d2l_q2().penalty) * math.exp(
                                1 - _d2l_q2().pred_length / _d2l_q2().label_length))),
             working=lambda: _d2l_q2().explain()),
    Question("01.3", "BLEU (max_order 2) of 'the cat sat on' against 'the cat sat on the mat'",
             lambda: _q3().score,
             (Misconception("no brevity penalty",
                            "this is the geometric mean of the precisions alone: the candidate is shorter "
                            "than the reference, so the brevity penalty exp(1 - r/c) multiplies it.",
                            lambda: _q3().geometric_mean),
              Misconception("brevity penalty ratio inverted",
                            f"this penalty has c/r where the formula has r/c: {_BP_RULE}, and it is never "
                            "above 1.",
                            lambda: _q3().geometric_mean * _inverted_penalty(_q3().candidate_length,
                                                                             _q3().reference_length))),
             working=lambda: _q3().explain()),
    CodingExercise(
        "01.c1", "modified_precision(candidate, references, n): clipped n-gram matches / candidate n-grams "
        "(a Fraction; 0 when the candidate has no n-grams)",
        modified_precision,
        (( *_THE_THE, 1), *((*_EXAMPLE_A, n) for n in (1, 2, 3, 4))),
        _precision_case,
        misconceptions=(
            Misconception("unclipped counts",
                          "this counts without clipping: each candidate n-gram may be credited at most as "
                          "often as it appears in one reference.",
                          _unclipped_precision),
            Misconception("clipped at the references' sum",
                          "this clips at the count summed over the references: the clip is the largest "
                          "count in any *single* reference.", _summed_clip_precision))),
    CodingExercise(
        "01.c2", "brevity_penalty(c, r): 1 when c > r, else exp(1 - r / c)",
        brevity_penalty,
        ((2, 6), (6, 6), (7, 6)),  # worked example C, then no penalty at and above r
        lambda rng: (rng.randint(1, 30), rng.randint(1, 30)),
        misconceptions=(
            Misconception("brevity penalty ratio inverted",
                          "this computes exp(1 - c/r): the exponent is 1 - r/c, so a short candidate "
                          "gets less than 1.", _inverted_bp),
            Misconception("long candidates penalised",
                          "this applies exp(1 - r/c) to long candidates too: BP is 1 when c >= r, BLEU "
                          "only penalises candidates that are too short.", _always_penalised))),
)

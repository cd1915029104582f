"""Notebook 01's exercises (BLEU from scratch): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['01.1', '01.2', '01.3', '01.c1', '01.c2']
"""

from __future__ import annotations

import random

import mtlearn
from mtlearn.exercises.kinds import CodingExercise, Exercise, Question
from mtlearn.metrics.bleu.formulas import brevity_penalty, modified_precision

__all__ = ["EXERCISES"]

_THE_THE = ("the the the the the the the".split(),
            ["the cat is on the mat".split(), "there is a cat on the mat".split()])
_EXAMPLE_A = ("A B B C D".split(), ["A B C D E F".split()])


def _precision_case(rng: random.Random) -> tuple[list[str], list[list[str]], int]:
    """A random candidate, one to three references (over four words, so n-grams repeat) and an order."""
    def sentence() -> list[str]:
        return [rng.choice("abcd") for _ in range(rng.randint(0, 8))]
    return sentence(), [sentence() for _ in range(rng.randint(1, 3))], rng.randint(1, 4)


EXERCISES: tuple[Exercise, ...] = (
    Question("01.1", "Modified unigram precision of 'a a a cat' against 'a cat sat on a mat' (a fraction)",
             lambda: mtlearn.bleu("a a a cat", ["a cat sat on a mat"], max_order=1).precision_fractions[0]),
    Question("01.2", "d2l's BLEU of prediction 'A B C' for label 'A B C D E F' with k = 2",
             lambda: mtlearn.d2l_bleu("A B C".split(), "A B C D E F".split(), 2).score),
    Question("01.3", "BLEU (max_order 2) of 'the cat sat on' against 'the cat sat on the mat'",
             lambda: mtlearn.bleu("the cat sat on", ["the cat sat on the mat"], max_order=2).score),
    CodingExercise(
        "01.c1", "modified_precision(candidate, references, n): clipped n-gram matches / candidate n-grams "
        "(a Fraction; 0 when the candidate has no n-grams)",
        modified_precision,
        (( *_THE_THE, 1), *((*_EXAMPLE_A, n) for n in (1, 2, 3, 4))),
        _precision_case),
    CodingExercise(
        "01.c2", "brevity_penalty(c, r): 1 when c > r, else exp(1 - r / c)",
        brevity_penalty,
        ((2, 6), (6, 6), (7, 6)),  # worked example C, then no penalty at and above r
        lambda rng: (rng.randint(1, 30), rng.randint(1, 30))),
)

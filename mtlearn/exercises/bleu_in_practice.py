"""Notebook 02's exercises (BLEU in practice): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['02.1', '02.2', '02.3', '02.c1', '02.c2']
"""

from __future__ import annotations

import random
from fractions import Fraction

import mtlearn
from mtlearn.examples import bleu as examples
from mtlearn.exercises.kinds import CodingExercise, Exercise, Question
from mtlearn.metrics.bleu.formulas import closest_ref_length
from mtlearn.metrics.bleu.smoothing import smooth

__all__ = ["EXERCISES"]

# Notebook 02's test set of section 1 (four segments, one reference each).
_CANDIDATES = ("the cat sat on the mat", "a dog is barking in the garden", "it rained all day yesterday",
               "she reads")
_REFERENCES = (["the cat sat on the mat"], ["the dog is barking in the garden"],
               ["it was raining the whole day yesterday"], ["she reads a book every evening"])
# Section 3's short candidates against one reference.
_SHORT_REFERENCE = "the cat sat on the mat"
_SHORTS = ("the cat sat down", "the cat is here", "a cat sat")


def _exp_smoothed_precisions(matches: tuple[int, ...], totals: tuple[int, ...]) -> tuple[Fraction, ...]:
    """sacreBLEU's exp smoothing as notebook 02's exercise 02.c2 asks for it: :func:`smooth` with
    ``"exp"``, its statistics passed by position.

    >>> _exp_smoothed_precisions((3, 1, 0, 0), (4, 3, 2, 1))
    (Fraction(3, 4), Fraction(1, 3), Fraction(1, 4), Fraction(1, 4))
    """
    return smooth("exp", matches=matches, totals=totals).precisions


def _statistics(candidate: str, references: list[str]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(matches, totals) of BLEU-4 for one segment, as mtlearn counts them."""
    result = mtlearn.bleu(candidate, references)
    return result.matches, result.totals


def _random_statistics(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The statistics of a random short candidate against a random reference (four words: matches happen)."""
    def sentence() -> list[str]:
        return [rng.choice("abcd") for _ in range(rng.randint(0, 7))]
    return _statistics(sentence(), [sentence()])


def _guide_lengths() -> tuple[int, list[int]]:
    """Papineni's candidate 1 (notebook 01) and its three references, as lengths."""
    guide = examples.PAPINENI_GUIDE_CANDIDATE_1
    return len(guide.candidate.split()), [len(r.split()) for r in guide.references]


EXERCISES: tuple[Exercise, ...] = (
    Question("02.1", "Brevity penalty of 'she reads a' against 'she reads a book' "
                     "(segment 1 of section 2, alone)",
             lambda: mtlearn.bleu("she reads a", ["she reads a book"]).brevity_penalty),
    Question("02.2", "How many tokens has 'Hello, world!' with tokenize='13a'?",
             lambda: len(mtlearn.tokenize("Hello, world!", "13a"))),
    Question("02.3", "Corpus BLEU-4 of section 1's test set without its last segment ('she reads')",
             lambda: mtlearn.corpus_bleu(list(_CANDIDATES[:3]), list(_REFERENCES[:3])).score),
    CodingExercise(
        "02.c1", "closest_ref_length(candidate_length, reference_lengths): the reference length closest to "
        "the candidate's; on a tie the shorter one",
        closest_ref_length,
        (_guide_lengths(), (12, [12, 15, 17]), (12, [13, 11]), (3, [1, 2, 3])),
        lambda rng: (rng.randint(0, 12), [rng.randint(0, 12) for _ in range(rng.randint(1, 4))])),
    CodingExercise(
        "02.c2", "exp_smoothed_precisions(matches, totals): sacreBLEU's exp smoothing, the k-th order "
        "without a match gets p_n = 1 / (2^k total_n); an order without n-grams and all after it get 0; "
        "no match at all gives 0 everywhere",
        _exp_smoothed_precisions,
        tuple(_statistics(candidate, [_SHORT_REFERENCE]) for candidate in _SHORTS),
        _random_statistics),
)

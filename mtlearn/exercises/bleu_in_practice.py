"""Notebook 02's exercises (BLEU in practice): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['02.1', '02.2', '02.3', '02.c1', '02.c2']
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction

import mtlearn
from mtlearn.examples import bleu as examples
from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
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


def _q1() -> mtlearn.BleuResult:
    return mtlearn.bleu("she reads a", ["she reads a book"])


def _q3() -> mtlearn.BleuResult:
    return mtlearn.corpus_bleu(list(_CANDIDATES[:3]), list(_REFERENCES[:3]))


def _sentence_mean(candidates: Sequence[str], references: Sequence[list[str]]) -> float:
    """The mean of the segments' own BLEU scores (not a corpus score)."""
    return sum(mtlearn.bleu(c, r).score for c, r in zip(candidates, references)) / len(candidates)


def _closest_longer_on_ties(candidate_length: int, reference_lengths: Sequence[int]) -> int:
    """Coding misconception: a tie goes to the longer reference."""
    return min(reference_lengths, key=lambda length: (abs(length - candidate_length), -length))


def _shortest(candidate_length: int, reference_lengths: Sequence[int]) -> int:
    """Coding misconception: the shortest reference, whatever the candidate's length."""
    return min(reference_lengths)


def _exp_like(matches: Sequence[int], totals: Sequence[int], halve: bool) -> tuple[Fraction, ...]:
    """p_n with exp smoothing's stops (no n-grams, no match at all); an order without a match gets 0
    (``halve`` False) or 1/(2 total) every time (``halve`` True: k never grows)."""
    if not any(matches):
        return tuple(Fraction(0) for _ in matches)
    precisions: list[Fraction] = []
    for m, t in zip(matches, totals):
        if t == 0:
            break
        precisions.append(Fraction(m, t) if m else (Fraction(1, 2 * t) if halve else Fraction(0)))
    return (*precisions, *(Fraction(0) for _ in range(len(matches) - len(precisions))))


EXERCISES: tuple[Exercise, ...] = (
    Question("02.1", "Brevity penalty of 'she reads a' against 'she reads a book' "
                     "(segment 1 of section 2, alone)",
             lambda: _q1().brevity_penalty,
             (Misconception("brevity penalty ratio inverted",
                            "this is exp(1 - c/r): the exponent is 1 - r/c (reference length over candidate "
                            "length), so a short candidate gets less than 1.",
                            lambda: math.exp(1 - _q1().candidate_length / _q1().reference_length)),
              Misconception("the length ratio as the penalty",
                            "this is the ratio c/r itself: the penalty is exp(1 - r/c) when c < r.",
                            lambda: _q1().ratio)),
             working=lambda: _q1().explain(tables=False)),
    Question("02.2", "How many tokens has 'Hello, world!' with tokenize='13a'?",
             lambda: len(mtlearn.tokenize("Hello, world!", "13a")),
             (Misconception("split on spaces",
                            "this splits on white space only: 13a also splits punctuation off the words, so "
                            "a comma or an exclamation mark is a token of its own.",
                            lambda: len(mtlearn.tokenize("Hello, world!", "whitespace"))),),
             working=lambda: f"mtlearn.tokenize('Hello, world!', '13a') = "
                             f"{mtlearn.tokenize('Hello, world!', '13a')}"),
    Question("02.3", "Corpus BLEU-4 of section 1's test set without its last segment ('she reads')",
             lambda: _q3().score,
             (Misconception("averaging sentence scores",
                            "this is the mean of the three sentence BLEU scores: corpus BLEU sums the "
                            "counts and lengths over the segments first, then computes one score.",
                            lambda: _sentence_mean(_CANDIDATES[:3], _REFERENCES[:3])),
              Misconception("last segment kept",
                            "this is the score of all four segments: leave 'she reads' out of both the "
                            "candidates and the references.",
                            lambda: mtlearn.corpus_bleu(list(_CANDIDATES), list(_REFERENCES)).score)),
             working=lambda: _q3().explain(tables=False)),
    CodingExercise(
        "02.c1", "closest_ref_length(candidate_length, reference_lengths): the reference length closest to "
        "the candidate's; on a tie the shorter one",
        closest_ref_length,
        (_guide_lengths(), (12, [12, 15, 17]), (12, [13, 11]), (3, [1, 2, 3])),
        lambda rng: (rng.randint(0, 12), [rng.randint(0, 12) for _ in range(rng.randint(1, 4))]),
        misconceptions=(
            Misconception("ties to the longer",
                          "this breaks a tie towards the longer reference: two references equally near the "
                          "candidate's length give the shorter one.", _closest_longer_on_ties),
            Misconception("shortest reference",
                          "this takes the shortest reference: r is the reference length *closest* to the "
                          "candidate's (the shorter one only on a tie).", _shortest))),
    CodingExercise(
        "02.c2", "exp_smoothed_precisions(matches, totals): sacreBLEU's exp smoothing, the k-th order "
        "without a match gets p_n = 1 / (2^k total_n); an order without n-grams and all after it get 0; "
        "no match at all gives 0 everywhere",
        _exp_smoothed_precisions,
        tuple(_statistics(candidate, [_SHORT_REFERENCE]) for candidate in _SHORTS),
        _random_statistics,
        misconceptions=(
            Misconception("smoothing forgotten",
                          "this leaves an order without a match at 0: exp smoothing gives the k-th such "
                          "order 1 / (2^k total).", lambda m, t: _exp_like(m, t, halve=False)),
            Misconception("k never grows",
                          "this gives every order without a match 1 / (2 total): the k-th such order gets "
                          "1 / (2^k total), the factor doubling each time.",
                          lambda m, t: _exp_like(m, t, halve=True)))),
)

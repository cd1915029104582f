"""Notebook 08's exercises (why libraries disagree): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['08.1', '08.2', '08.3', '08.4', '08.c1', '08.c2']
"""

from __future__ import annotations

import random

import mtlearn
from mtlearn.examples.wmt22 import WMT22_DE_EN_SAMPLE
from mtlearn.exercises.kinds import CodingExercise, Exercise, Question
from mtlearn.metrics.bleu.profile_scores import reference_length
from mtlearn.metrics.meteor.greedy import count_chunks_in_order

__all__ = ["EXERCISES"]


def _sample(name: str) -> list[str]:
    """One file of the shipped WMT22 de-en sample (``ref.A``, ``hyp.JDExploreAcademy``, ...), a line a
    segment."""
    return (WMT22_DE_EN_SAMPLE / f"{name}.en").read_text(encoding="utf-8").splitlines()


def _sentence_cost() -> float:
    """100 x (sacrebleu-sentence - sacrebleu-corpus) on JDExploreAcademy's sample, to two decimals."""
    refs = [[r] for r in _sample("ref.A")]
    jd = mtlearn.compare_implementations(_sample("hyp.JDExploreAcademy"), refs,
                                         profiles=["sacrebleu-corpus", "sacrebleu-sentence"])
    return round(100 * float(jd.divergence("sacrebleu-corpus", "sacrebleu-sentence").difference), 2)


def _old_nltk_matches() -> int:
    """All matches of the old NLTK (nltk-3.6.2) on notebook 03's pair."""
    m = mtlearn.compare_implementations("the cats were sitting on the mats", ["the cat sat on the mat"],
                                        metric="meteor", profiles=["nltk-3.6.2"])
    return sum(m.profile("nltk-3.6.2").values["matches_per_stage"])


def _length_case(rng: random.Random) -> tuple[str, str, int, list[int]]:
    """A rule, a tie rule, a candidate length and one to four reference lengths near it (so ties happen)."""
    c = rng.randint(1, 10)
    lengths = [max(1, c + rng.randint(-3, 3)) for _ in range(rng.randint(1, 4))]
    return rng.choice(("closest", "shortest")), rng.choice(("shorter", "first-listed")), c, lengths


def _pairs_case(rng: random.Random) -> tuple[list[tuple[int, int]]]:
    """An alignment in candidate order over short strings, now and then mapping a word twice
    (NLTK <= 3.6.2)."""
    pairs: list[tuple[int, int]] = []
    for i in range(rng.randint(0, 8)):
        if rng.random() < 0.7:
            pairs.append((i, rng.randint(0, 8)))
            if rng.random() < 0.15:
                pairs.append(pairs[-1])
    return (pairs,)


EXERCISES: tuple[Exercise, ...] = (
    Question("08.1", "Example A: the first step where nltk-sentence and "
                     "keras-nlp-smooth part (as the tables print it)",
             lambda: mtlearn.compare_implementations("A B B C D", ["A B C D E F"],
                                                     profiles=["nltk-sentence", "keras-nlp-smooth"])
             .divergence("nltk-sentence", "keras-nlp-smooth").first_divergence),
    Question("08.2", "100 x (sacrebleu-sentence - sacrebleu-corpus) for JDExploreAcademy on the WMT22 "
                     "sample, two decimals", _sentence_cost),
    Question("08.3", "hf-evaluate-smooth BLEU of 'cat dog' against 'mat log'",
             lambda: mtlearn.compare_implementations("cat dog", ["mat log"],
                                                     profiles=["hf-evaluate-smooth"]).profiles[0].score),
    Question("08.4", "How many matches in all does nltk-3.6.2 count for notebook 03's pair?",
             _old_nltk_matches),
    CodingExercise(
        "08.c1", "reference_length(rule, ties, candidate_length, lengths): with rule 'shortest' the shortest "
        "length; with 'closest' the length nearest to the candidate's, a tie going to the shorter one "
        "(ties 'shorter') or to the one listed first (ties 'first-listed')",
        reference_length,
        # the docstring's examples first
        (("closest", "shorter", 5, [6, 4]), ("closest", "first-listed", 5, [6, 4]),
         ("shortest", "shorter", 5, [3, 6]), ("closest", "shorter", 12, [12, 15, 17]),
         ("closest", "shorter", 12, [13, 11]), ("shortest", "first-listed", 12, [13, 11])),
        _length_case),
    CodingExercise(
        "08.c2", "count_chunks_in_order(pairs): NLTK's chunk count, 1 + the number of neighbours (in the "
        "given order) that are not one step further in both strings; 0 for no pairs",
        count_chunks_in_order,
        (([(0, 0), (1, 1), (3, 2)],), ([(0, 0), (1, 2), (1, 2), (2, 3)],),  # the docstring's examples
         ([(i, i) for i in range(6)],),  # the Spanish Wikipedia article's row 2: one chunk
         ([(0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)],),  # row 1's alignment (a): six chunks
         ([],)),
        _pairs_case),
)

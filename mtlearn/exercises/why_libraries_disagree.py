"""Notebook 08's exercises (why libraries disagree): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['08.1', '08.2', '08.3', '08.4', '08.c1', '08.c2']
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mtlearn
from mtlearn.examples.wmt22 import WMT22_DE_EN_SAMPLE
from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.metrics.bleu.formulas import geometric_mean, uniform_weights
from mtlearn.metrics.bleu.profile_scores import reference_length
from mtlearn.metrics.meteor.formulas import count_chunks
from mtlearn.metrics.meteor.greedy import count_chunks_in_order

__all__ = ["EXERCISES"]


def _sample(name: str) -> list[str]:
    """One file of the shipped WMT22 de-en sample (``ref.A``, ``hyp.JDExploreAcademy``, ...), a line a
    segment."""
    return (WMT22_DE_EN_SAMPLE / f"{name}.en").read_text(encoding="utf-8").splitlines()


@functools.lru_cache(maxsize=1)
def _jd() -> Any:
    """sacreBLEU's corpus and sentence BLEU of JDExploreAcademy on the sample, compared (computed once)."""
    refs = [[r] for r in _sample("ref.A")]
    return mtlearn.compare_implementations(_sample("hyp.JDExploreAcademy"), refs,
                                           profiles=["sacrebleu-corpus", "sacrebleu-sentence"])


def _sentence_cost() -> float:
    """100 x (sacrebleu-sentence - sacrebleu-corpus) on JDExploreAcademy's sample, to two decimals."""
    return round(100 * float(_jd().divergence("sacrebleu-corpus", "sacrebleu-sentence").difference), 2)


_METEOR_PAIR = ("the cats were sitting on the mats", ["the cat sat on the mat"])


def _matches(profile: str) -> int:
    """All matches of a METEOR implementation (``nltk-3.6.2``, ``nltk``, ...) on notebook 03's pair."""
    m = mtlearn.compare_implementations(*_METEOR_PAIR, metric="meteor", profiles=[profile])
    return sum(m.profile(profile).values["matches_per_stage"])


def _old_nltk_matches() -> int:
    """All matches of the old NLTK (nltk-3.6.2) on notebook 03's pair."""
    return _matches("nltk-3.6.2")


def _example_a() -> Any:
    return mtlearn.compare_implementations("A B B C D", ["A B C D E F"],
                                           profiles=["nltk-sentence", "keras-nlp-smooth"])


def _smoothed_orders_with_ngrams() -> float:
    """08.3's plus-one smoothing applied only to the orders that have n-grams (the others left out)."""
    result = mtlearn.bleu("cat dog", ["mat log"])
    kept = [Fraction(m + 1, t + 1) for m, t in zip(result.matches, result.totals) if t]
    return geometric_mean(kept, uniform_weights(len(kept)))


def _longer_on_ties(rule: str, ties: str, candidate_length: int, lengths: Sequence[int]) -> int:
    """Coding misconception: "shorter" read as the longer one on a tie."""
    if rule == "shortest" or ties != "shorter":
        return reference_length(rule, ties, candidate_length, lengths)
    nearest = min(abs(length - candidate_length) for length in lengths)
    return max(length for length in lengths if abs(length - candidate_length) == nearest)


def _ties_ignored(rule: str, ties: str, candidate_length: int, lengths: Sequence[int]) -> int:
    """Coding misconception: a tie always goes to the shorter length, whatever ``ties`` says."""
    return reference_length(rule, "shorter", candidate_length, lengths)


def _chunks_sorted(pairs: Sequence[tuple[int, int]]) -> int:
    """Coding misconception: METEOR's chunks of the distinct pairs, sorted (a repeat ignored)."""
    return count_chunks(sorted(set(pairs)))


def _chunks_by_candidate_only(pairs: Sequence[tuple[int, int]]) -> int:
    """Coding misconception: a chunk goes on while the candidate index goes up by one."""
    return sum(1 for k, (i, _) in enumerate(pairs) if k == 0 or i != pairs[k - 1][0] + 1)


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
             lambda: _example_a().divergence("nltk-sentence", "keras-nlp-smooth").first_divergence,
             (Misconception("settings, not values",
                            "this is the first step whose *settings* differ: there the two still compute "
                            "the same values; the first divergence is the first step that moves one.",
                            lambda: _example_a().divergence("nltk-sentence",
                                                            "keras-nlp-smooth").first_settings_difference),),
             working=lambda: _example_a().explain("nltk-sentence", "keras-nlp-smooth")),
    Question("08.2", "100 x (sacrebleu-sentence - sacrebleu-corpus) for JDExploreAcademy on the WMT22 "
                     "sample, two decimals", _sentence_cost,
             (Misconception("sign reversed",
                            "this is corpus minus sentence: the question asks sentence minus corpus.",
                            lambda: -_sentence_cost()),
              Misconception("not times 100",
                            "this is the difference of scores from 0 to 1: BLEU points are 100 times that.",
                            lambda: Fraction(str(_sentence_cost())) / 100)),
             decimals=2,
             working=lambda: _jd().explain("sacrebleu-corpus", "sacrebleu-sentence")),
    Question("08.3", "hf-evaluate-smooth BLEU of 'cat dog' against 'mat log'",
             lambda: mtlearn.compare_implementations("cat dog", ["mat log"],
                                                     profiles=["hf-evaluate-smooth"]).profiles[0].score,
             (Misconception("smoothing forgotten",
                            "this is BLEU without smoothing: Hugging Face's smooth=True adds 1 to the "
                            "matches and to the n-grams of every order, (m + 1)/(t + 1).",
                            lambda: mtlearn.compare_implementations("cat dog", ["mat log"],
                                                                    profiles=["hf-evaluate"]).profiles[0].score),
              Misconception("orders without n-grams left out",
                            "this leaves out the orders the candidate has no n-grams of: with plus-one "
                            "smoothing they get (0 + 1)/(0 + 1) and keep their weight.",
                            _smoothed_orders_with_ngrams)),
             working=lambda: mtlearn.compare_implementations("cat dog", ["mat log"],
                                                             profiles=["hf-evaluate", "hf-evaluate-smooth"])
             .explain("hf-evaluate", "hf-evaluate-smooth")),
    Question("08.4", "How many matches in all does nltk-3.6.2 count for notebook 03's pair?",
             _old_nltk_matches,
             (Misconception("a one-to-one alignment",
                            "this is METEOR's one-to-one count: nltk-3.6.2 may map a word twice (section 5), "
                            "and each mapping counts.", lambda: _matches("banerjee-lavie-2005")),
              Misconception("today's NLTK",
                            "this is today's NLTK (profile 'nltk'): the question asks about nltk-3.6.2, "
                            "whose stages differ.", lambda: _matches("nltk"))),
             working=lambda: mtlearn.compare_implementations(*_METEOR_PAIR, metric="meteor",
                                                             profiles=["banerjee-lavie-2005", "nltk-3.6.2"])
             .explain()),
    CodingExercise(
        "08.c1", "reference_length(rule, ties, candidate_length, lengths): with rule 'shortest' the shortest "
        "length; with 'closest' the length nearest to the candidate's, a tie going to the shorter one "
        "(ties 'shorter') or to the one listed first (ties 'first-listed')",
        reference_length,
        # the docstring's examples first
        (("closest", "shorter", 5, [6, 4]), ("closest", "first-listed", 5, [6, 4]),
         ("shortest", "shorter", 5, [3, 6]), ("closest", "shorter", 12, [12, 15, 17]),
         ("closest", "shorter", 12, [13, 11]), ("shortest", "first-listed", 12, [13, 11])),
        _length_case,
        misconceptions=(
            Misconception("ties to the longer",
                          "this gives a tie to the longer length: with ties 'shorter' the shorter of the "
                          "equally near lengths wins.", _longer_on_ties),
            Misconception("ties ignored",
                          "this always breaks a tie towards the shorter length: with ties 'first-listed' "
                          "the one listed first wins.", _ties_ignored))),
    CodingExercise(
        "08.c2", "count_chunks_in_order(pairs): NLTK's chunk count, 1 + the number of neighbours (in the "
        "given order) that are not one step further in both strings; 0 for no pairs",
        count_chunks_in_order,
        (([(0, 0), (1, 1), (3, 2)],), ([(0, 0), (1, 2), (1, 2), (2, 3)],),  # the docstring's examples
         ([(i, i) for i in range(6)],),  # the English Wikipedia article's row 2: one chunk
         ([(0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)],),  # row 1's alignment (a): six chunks
         ([],)),
        _pairs_case,
        misconceptions=(
            Misconception("sorted and repeats dropped",
                          "this sorts the pairs and drops the repeats, as METEOR would: NLTK walks them in "
                          "the given order, and a repeated pair starts a new chunk.", _chunks_sorted),
            Misconception("candidate side only",
                          "this looks at the candidate index only: a chunk goes on when the pair is one "
                          "step further in *both* strings.", _chunks_by_candidate_only))),
)

"""Notebook 06's exercises (do the metrics agree with people?): the answers, computed by mtlearn.

The questions read the shipped WMT22 agreement tables (:func:`mtlearn.study.agreement.load_agreement`),
once, when the first of them is checked.

>>> [e.id for e in EXERCISES]
['06.1', '06.2', '06.3', '06.4', '06.5', '06.c1', '06.c2']
"""

from __future__ import annotations

import functools
import random

from mtlearn.exercises.kinds import CodingExercise, Exercise, Question
from mtlearn.study import agreement
from mtlearn.study.accuracy import pairwise_accuracy
from mtlearn.study.correlation import average_ranks, pearson

__all__ = ["EXERCISES"]

# Question 4's made-up pair of three systems: BLEU scores and human z-scores.
_MADE_UP = ([30.1, 28.4, 25.0], [0.2, 0.3, -0.4])


@functools.lru_cache(maxsize=1)
def _tables() -> agreement.AgreementTables:
    """The shipped tables, read on first use."""
    return agreement.load_agreement()


def _rho_without(pair: str, metric: str, system: str) -> str:
    """Whether Spearman's rho of ``metric`` goes ``"up"``, ``"down"`` or stays the ``"same"`` without
    ``system``."""
    def rho(exclude: tuple[str, ...]) -> float:
        value = agreement.correlate_systems(pair, metric, statistic="spearman", exclude=exclude,
                                            tables=_tables())
        return round(value, 6)  # the tables' scores are rounded to 6 decimals
    with_it, without = rho(()), rho((system,))
    return "same" if without == with_it else ("up" if without > with_it else "down")


def _scores(rng: random.Random, n: int) -> list[int]:
    """``n`` small integer scores, so that ties happen."""
    return [rng.randint(0, 5) for _ in range(n)]


def _pearson_case(rng: random.Random) -> tuple[list[int], list[int]]:
    """Two to eight paired scores, neither side constant (r would be undefined)."""
    n = rng.randint(2, 8)
    x, y = _scores(rng, n), _scores(rng, n)
    for side in (x, y):
        if len(set(side)) == 1:
            side[0] += 1
    return x, y


EXERCISES: tuple[Exercise, ...] = (
    Question("06.1", "Which metric orders LanguageX and NAIST-NICT-TIT (ja-en) as the humans do: "
             "'bleu', 'meteor', 'both' or 'neither'?",
             lambda: agreement.compare_systems("ja-en", "LanguageX", "NAIST-NICT-TIT",
                                               tables=_tables()).agreeing),
    Question("06.2", "Which metric orders Lan-Bridge and Online-G (de-en) as the humans do: "
             "'bleu', 'meteor', 'both' or 'neither'?",
             lambda: agreement.compare_systems("de-en", "Lan-Bridge", "Online-G", tables=_tables()).agreeing),
    Question("06.3", "uk-en without ALMAnaCH-Inria: does BLEU's Spearman rho go 'up', "
                     "'down' or stay the 'same'?",
             lambda: _rho_without("uk-en", "bleu", "ALMAnaCH-Inria")),
    Question("06.4", "Pairwise accuracy of BLEU 30.1, 28.4, 25.0 against human z 0.2, 0.3, -0.4 (a fraction)",
             lambda: pairwise_accuracy(*_MADE_UP).value),
    Question("06.5", "How many of uk-en's system pairs does WMT's COMET (reference A) "
                     "order as the humans do?",
             lambda: agreement.accuracy("uk-en", "comet", reference="A", tables=_tables()).agreeing),
    CodingExercise(
        "06.c1", "pearson(x, y): r = sum (x - mean x)(y - mean y) / sqrt(sum (x - mean x)^2 "
                 "* sum (y - mean y)^2)",
        pearson,
        (([1, 2, 3, 4], [2, 4, 6, 8]), ([1, 2, 3, 4], [1, 3, 2, 4]),  # mtlearn.study.correlation's examples
         _MADE_UP),  # question 4's three systems
        _pearson_case),
    CodingExercise(
        "06.c2", "average_ranks(values): ranks 1..n from the lowest value up, tied values sharing the "
        "average of the ranks they span (floats)",
        average_ranks,
        (([10, 30, 20, 30],), (_MADE_UP[0],), (_MADE_UP[1],), ([7, 7, 7],)),
        lambda rng: (_scores(rng, rng.randint(1, 8)),)),
)

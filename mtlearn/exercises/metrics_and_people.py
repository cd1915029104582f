"""Notebook 06's exercises (do the metrics agree with people?): the answers, computed by mtlearn.

The questions read the shipped WMT22 agreement tables (:func:`mtlearn.study.agreement.load_agreement`),
once, when the first of them is checked.

>>> [e.id for e in EXERCISES]
['06.1', '06.2', '06.3', '06.4', '06.5', '06.c1', '06.c2']
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from fractions import Fraction

from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.study import agreement
from mtlearn.study.accuracy import pairwise_accuracy
from mtlearn.study.correlation import average_ranks, kendall_tau, pearson

__all__ = ["EXERCISES"]

# Question 4's made-up pair of three systems: BLEU scores and human z-scores.
_MADE_UP = ([30.1, 28.4, 25.0], [0.2, 0.3, -0.4])


@functools.lru_cache(maxsize=1)
def _tables() -> agreement.AgreementTables:
    """The shipped tables, read on first use."""
    return agreement.load_agreement()


def _comparison(pair: str, first: str, second: str) -> agreement.PairwiseComparison:
    return agreement.compare_systems(pair, first, second, tables=_tables())


#: What the other metrics are, given which agree ("both" and "neither" swap too).
_OTHER = {"bleu": "meteor", "meteor": "bleu", "both": "neither", "neither": "both"}


def _named(metrics: set[str]) -> str:
    """``"bleu"``, ``"meteor"``, ``"both"`` or ``"neither"`` for a set of metric names."""
    return {0: "neither", 2: "both"}.get(len(metrics)) or next(iter(metrics))


def _not_significant_as_agreeing(pair: str, first: str, second: str) -> str:
    """The metrics that agree with the humans, or whose difference is not significant."""
    c = _comparison(pair, first, second)
    agreeing = c.agreeing
    return _named({m for m in ("bleu", "meteor")
                   if agreeing in (m, "both") or not c.metric(m).significant})


_AGREE_RULE = ("a metric agrees when it scores higher the system the humans put ahead (the higher z-score), "
               "whatever the significance")
_RHO_WORKING = "  Spearman's rho of BLEU in uk-en: {} with ALMAnaCH-Inria, {} without"


def _rho_working() -> str:
    def rho(exclude: tuple[str, ...]) -> float:
        return agreement.correlate_systems("uk-en", "bleu", statistic="spearman", exclude=exclude,
                                           tables=_tables())
    return _RHO_WORKING.format(f"{rho(()):.4f}", f"{rho(('ALMAnaCH-Inria',)):.4f}")


def _pairs_working(metric: Sequence[float], human: Sequence[float]) -> str:
    """Each pair of systems, as BLEU and the humans order it."""
    lines = []
    for a in range(len(metric)):
        for b in range(a + 1, len(metric)):
            same = (metric[a] - metric[b]) * (human[a] - human[b]) > 0
            lines.append(f"  systems {a + 1} and {b + 1}: BLEU {metric[a]} vs {metric[b]}, humans {human[a]} "
                         f"vs {human[b]}: {'same order' if same else 'other order'}")
    result = pairwise_accuracy(metric, human)
    return "\n".join([*lines, f"  {result.agreeing} of {result.comparisons} pairs in the humans' order"])


def _accuracy_working() -> str:
    row = agreement.accuracy("uk-en", "comet", reference="A", tables=_tables())
    return (f"  uk-en, reference A: COMET orders {row.agreeing} of its {row.comparisons} system pairs as the "
            f"humans (pairwise accuracy {row.value})")


def _unrooted_pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Coding misconception: the square root of the denominator forgotten."""
    mx, my = sum(x) / len(x), sum(y) / len(y)
    covariance = math.fsum((a - mx) * (b - my) for a, b in zip(x, y))
    return covariance / (math.fsum((a - mx) ** 2 for a in x) * math.fsum((b - my) ** 2 for b in y))


def _min_ranks(values: Sequence[float]) -> list[float]:
    """Coding misconception: tied values all get the lowest of their ranks."""
    return [float(1 + sum(1 for w in values if w < v)) for v in values]


def _ranks_from_the_top(values: Sequence[float]) -> list[float]:
    """Coding misconception: rank 1 for the highest value."""
    return [len(values) + 1 - r for r in average_ranks(values)]


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
             lambda: _comparison("ja-en", "LanguageX", "NAIST-NICT-TIT").agreeing,
             (Misconception("order read upside down",
                            f"this names the metrics that order them the other way: {_AGREE_RULE}.",
                            lambda: _OTHER[_comparison("ja-en", "LanguageX", "NAIST-NICT-TIT").agreeing]),
              Misconception("not significant counted as agreeing",
                            "a metric that orders them unlike the humans does not agree, even when its "
                            "difference is not significant: the question asks which puts them in the humans' "
                            "order.",
                            lambda: _not_significant_as_agreeing("ja-en", "LanguageX", "NAIST-NICT-TIT"))),
             working=lambda: _comparison("ja-en", "LanguageX", "NAIST-NICT-TIT").explain()),
    Question("06.2", "Which metric orders Lan-Bridge and Online-G (de-en) as the humans do: "
             "'bleu', 'meteor', 'both' or 'neither'?",
             lambda: _comparison("de-en", "Lan-Bridge", "Online-G").agreeing,
             (Misconception("order read upside down",
                            f"this names the metrics that order them the other way: {_AGREE_RULE}.",
                            lambda: _OTHER[_comparison("de-en", "Lan-Bridge", "Online-G").agreeing]),),
             working=lambda: _comparison("de-en", "Lan-Bridge", "Online-G").explain()),
    Question("06.3", "uk-en without ALMAnaCH-Inria: does BLEU's Spearman rho go 'up', "
                     "'down' or stay the 'same'?",
             lambda: _rho_without("uk-en", "bleu", "ALMAnaCH-Inria"),
             (Misconception("an order cannot change",
                            "rho is not pulled by how far off a score is, but leaving a system out changes "
                            "the ranks and drops every pair it takes part in, so rho can move.",
                            lambda: "same"),),
             working=_rho_working),
    Question("06.4", "Pairwise accuracy of BLEU 30.1, 28.4, 25.0 against human z 0.2, 0.3, -0.4 (a fraction)",
             lambda: pairwise_accuracy(*_MADE_UP).value,
             (Misconception("Kendall's tau",
                            "this is (agreeing - disagreeing) / pairs, Kendall's tau: the accuracy is the "
                            "share of the pairs in the humans' order.",
                            lambda: kendall_tau(*_MADE_UP)),
              Misconception("a count, not a share",
                            "this is the number of pairs in the humans' order: divide it by the number of "
                            "pairs.", lambda: pairwise_accuracy(*_MADE_UP).agreeing)),
             working=lambda: _pairs_working(*_MADE_UP)),
    Question("06.5", "How many of uk-en's system pairs does WMT's COMET (reference A) "
                     "order as the humans do?",
             lambda: agreement.accuracy("uk-en", "comet", reference="A", tables=_tables()).agreeing,
             (Misconception("a share, not a count",
                            "this is the pairwise accuracy, a share: the question asks how many pairs.",
                            lambda: Fraction(agreement.accuracy("uk-en", "comet", reference="A",
                                                                tables=_tables()).value)),
              Misconception("the other pairs",
                            "this counts the pairs COMET orders *unlike* the humans.",
                            lambda: (lambda row: row.comparisons - row.agreeing)(
                                agreement.accuracy("uk-en", "comet", reference="A", tables=_tables())))),
             working=_accuracy_working),
    CodingExercise(
        "06.c1", "pearson(x, y): r = sum (x - mean x)(y - mean y) / sqrt(sum (x - mean x)^2 "
                 "* sum (y - mean y)^2)",
        pearson,
        (([1, 2, 3, 4], [2, 4, 6, 8]), ([1, 2, 3, 4], [1, 3, 2, 4]),  # mtlearn.study.correlation's examples
         _MADE_UP),  # question 4's three systems
        _pearson_case,
        misconceptions=(
            Misconception("square root forgotten",
                          "this divides by the product of the two sums of squares: r divides by its square "
                          "root.", _unrooted_pearson),
            Misconception("Spearman's rho",
                          "this correlates the ranks (Spearman's rho): Pearson's r uses the scores "
                          "themselves.", lambda x, y: pearson(average_ranks(x), average_ranks(y))))),
    CodingExercise(
        "06.c2", "average_ranks(values): ranks 1..n from the lowest value up, tied values sharing the "
        "average of the ranks they span (floats)",
        average_ranks,
        (([10, 30, 20, 30],), (_MADE_UP[0],), (_MADE_UP[1],), ([7, 7, 7],)),
        lambda rng: (_scores(rng, rng.randint(1, 8)),),
        misconceptions=(
            Misconception("lowest rank for ties",
                          "this gives tied values the lowest rank they span: they share the *average* of "
                          "the ranks they span.", _min_ranks),
            Misconception("ranks from the top",
                          "this gives rank 1 to the highest value: rank 1 is the lowest.",
                          _ranks_from_the_top))),
)

"""Notebook 09's exercises (sentence level, with experts): the answers, computed by mtlearn.

The questions on the study read its shipped tables (:func:`mtlearn.study.mqm_tables.load_mqm_tables`),
once, when the first of them is checked.

>>> [e.id for e in EXERCISES]
['09.1', '09.2', '09.3', '09.4', '09.c1', '09.c2']
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from fractions import Fraction

from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.study.accuracy import pairwise_accuracy
from mtlearn.study.correlation import kendall_counts, kendall_tau
from mtlearn.study.mqm import error_weight, mqm_score
from mtlearn.study.mqm_tables import MqmTables, load_mqm_tables
from mtlearn.study.tie_calibration import accuracy_with_ties, pair_counts

__all__ = ["EXERCISES"]

#: Question 1's made-up row: the errors one rater marked in one translation.
ROW_ERRORS = (("Accuracy/Mistranslation", "Major"), ("Fluency/Grammar", "Minor"),
              ("Fluency/Punctuation", "Minor"), ("Fluency/Punctuation", "Minor"))
#: Question 2's five translations of one segment: MQM and a sentence metric.
FIVE_MQM = (0, -1, -5, -2, -10)
FIVE_METRIC = (0.50, 0.31, 0.44, 0.29, 0.12)

_CATEGORIES = ("Accuracy/Mistranslation", "Accuracy/Omission", "Fluency/Grammar", "Fluency/Punctuation",
               "Style/Awkward", "Non-translation!", "No-error")


@functools.lru_cache(maxsize=1)
def _tables() -> MqmTables:
    """The shipped tables, read on first use."""
    return load_mqm_tables()


def _punctuation_as_minor(errors: Sequence[tuple[str, str]]) -> Fraction:
    """MQM with a Minor Fluency/Punctuation error weighed as any Minor error (1)."""
    return mqm_score(("Fluency/Grammar" if (c, s) == ("Fluency/Punctuation", "Minor") else c, s)
                     for c, s in errors)


def _positive_mqm(errors: Sequence[tuple[str, str]]) -> Fraction:
    """Coding misconception: the summed weights, without the minus sign."""
    return -mqm_score(errors)


def _weights_working() -> str:
    lines = [f"  {c} ({s}): weight {error_weight(c, s)}" for c, s in ROW_ERRORS]
    return "\n".join([*lines, f"  MQM = -(sum of the weights) = {mqm_score(ROW_ERRORS)}"])


def _tau_working() -> str:
    counts = kendall_counts(FIVE_METRIC, FIVE_MQM)
    return (f"  MQM {FIVE_MQM}, metric {FIVE_METRIC}\n  concordant pairs C = {counts.concordant}, "
            f"discordant D = {counts.discordant}\n"
            f"  tau = (C - D) / 10 = {kendall_tau(FIVE_METRIC, FIVE_MQM)}")


def _experts_ties_dropped(human: Sequence[float], metric: Sequence[float], epsilon: float) -> Fraction:
    """Coding misconception: the pairs the experts tie are left out; a metric tie on the rest is wrong."""
    counts = pair_counts(human, metric, epsilon)
    kept = counts.concordant + counts.discordant + counts.ties_metric
    return Fraction(counts.concordant, kept) if kept else Fraction(0)


def _errors_case(rng: random.Random) -> tuple[list[tuple[str, str]]]:
    """Zero to six (category, severity) errors; 'No-error' rows carry the severity 'No-error'."""
    errors = []
    for _ in range(rng.randint(0, 6)):
        category = rng.choice(_CATEGORIES)
        errors.append((category, "No-error" if category == "No-error" else rng.choice(("Major", "Minor"))))
    return (errors,)


def _ties_case(rng: random.Random) -> tuple[list[float], list[float], float]:
    """Two to seven translations: MQM from a few values (so the experts tie), metric scores on a grid, an
    epsilon."""
    n = rng.randint(2, 7)
    human = [rng.choice((0, 0, -1, -2, -5, -6, -10)) for _ in range(n)]
    metric = [rng.randint(0, 10) / 10 for _ in range(n)]
    return human, metric, rng.choice((0.0, 0.05, 0.1, 0.2, 0.3))


_MQM_RULE = "MQM is minus the summed weights, so 0 is a perfect translation"


def _ref_rank_working() -> str:
    row = _tables().system("ref")
    return f"  tables.system('ref'): MQM {row.mqm}, rank {row.mqm_rank} of {len(_tables().systems)}"


def _accuracy_working() -> str:
    row = _tables().system_level("refB", "bleu", "accuracy")
    return f"  corpus BLEU against refB orders {row.agreeing} of {row.comparisons} pairs as the experts"


EXERCISES: tuple[Exercise, ...] = (
    Question("09.1", "The MQM score of a translation with one Major Accuracy/Mistranslation, one Minor "
             "Fluency/Grammar and two Minor Fluency/Punctuation errors",
             lambda: mqm_score(ROW_ERRORS),
             (Misconception("punctuation as any minor error",
                            "this weighs a Minor Fluency/Punctuation error like any Minor error: it weighs "
                            "a tenth of one.", lambda: _punctuation_as_minor(ROW_ERRORS)),
              Misconception("sign forgotten", f"this is the sum of the weights: {_MQM_RULE}.",
                            lambda: _positive_mqm(ROW_ERRORS))),
             working=_weights_working),
    Question("09.2", "Kendall's tau of the five (MQM, metric) pairs of section 4, by hand (a fraction)",
             lambda: kendall_tau(FIVE_METRIC, FIVE_MQM),
             (Misconception("share of concordant pairs",
                            "this is the share of concordant pairs (pairwise accuracy): tau subtracts the "
                            "discordant ones, (C - D) / 10.",
                            lambda: pairwise_accuracy(FIVE_METRIC, FIVE_MQM).value),
              Misconception("MQM read upside down",
                            f"this takes a lower MQM as better: {_MQM_RULE}, and higher is better as for the "
                            f"metric.", lambda: kendall_tau(FIVE_METRIC, [-x for x in FIVE_MQM]))),
             working=_tau_working),
    Question("09.3", "Where do the experts rank the reference 'ref' among the 15 translations (1 = best)?",
             lambda: _tables().system("ref").mqm_rank,
             (Misconception("ranked from the bottom",
                            "this counts from the worst translation: rank 1 is the best MQM (closest to 0).",
                            lambda: len(_tables().systems) + 1 - _tables().system("ref").mqm_rank),),
             working=_ref_rank_working),
    Question("09.4",
             "Of the 78 pairs of MT systems, how many does corpus BLEU against 'refB' order as the experts?",
             lambda: _tables().system_level("refB", "bleu", "accuracy").agreeing,
             (Misconception("a share, not a count",
                            "this is the pairwise accuracy, a share: the question asks how many pairs.",
                            lambda: _tables().system_level("refB", "bleu", "accuracy").value),
              Misconception("the other pairs", "this counts the pairs BLEU orders *unlike* the experts.",
                            lambda: (lambda row: row.comparisons - row.agreeing)(
                                _tables().system_level("refB", "bleu", "accuracy")))),
             working=_accuracy_working),
    CodingExercise(
        "09.c1",
        "mqm_score(errors): minus the summed weights of (category, severity) pairs: Major 5, Minor 1, "
        "Minor Fluency/Punctuation 0.1, a category starting 'Non-translation' 25, 'No-error' 0",
        mqm_score,
        ((list(ROW_ERRORS),), ([],), ([("Style/Awkward", "Minor"), ("Fluency/Punctuation", "Minor"),
                                       ("Accuracy/Omission", "Major")],)),  # mtlearn.study.mqm's example
        _errors_case,
        misconceptions=(
            Misconception("punctuation as any minor error",
                          "this weighs a Minor Fluency/Punctuation error like any Minor error: it weighs "
                          "0.1.",
                          _punctuation_as_minor),
            Misconception("sign forgotten", f"this returns the sum of the weights: {_MQM_RULE}.",
                          _positive_mqm))),
    CodingExercise(
        "09.c2", "accuracy_with_ties(human, metric, epsilon): over every pair of translations, the share the "
        "metric orders as the experts plus the pairs both call a tie (the metric ties when its scores differ "
        "by at most epsilon; the experts only when equal)",
        accuracy_with_ties,
        # tie_calibration's example first
        (([0, 0, -5], [0.5, 0.75, 0.0], 0.0), ([0, 0, -5], [0.5, 0.75, 0.0], 0.25),
         (list(FIVE_MQM), list(FIVE_METRIC), 0.0), ([0, 0, -1, -5], [0.9, 0.8, 0.8, 0.1], 0.1)),
        _ties_case,
        misconceptions=(
            Misconception("epsilon ignored",
                          "this ties the metric only on equal scores: it ties when they differ by at most "
                          "epsilon.", lambda human, metric, epsilon: accuracy_with_ties(human, metric, 0.0)),
            Misconception("experts' ties dropped",
                          "this leaves out the pairs the experts tie: they count, right when the metric "
                          "ties them too.", _experts_ties_dropped))),
)

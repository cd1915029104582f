"""Notebook 09's exercises (sentence level, with experts): the answers, computed by mtlearn.

The questions on the study read its shipped tables (:func:`mtlearn.study.mqm_tables.load_mqm_tables`),
once, when the first of them is checked.

>>> [e.id for e in EXERCISES]
['09.1', '09.2', '09.3', '09.4', '09.c1', '09.c2']
"""

from __future__ import annotations

import functools
import random

from mtlearn.exercises.kinds import CodingExercise, Exercise, Question
from mtlearn.study.correlation import kendall_tau
from mtlearn.study.mqm import mqm_score
from mtlearn.study.mqm_tables import MqmTables, load_mqm_tables
from mtlearn.study.tie_calibration import accuracy_with_ties

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


EXERCISES: tuple[Exercise, ...] = (
    Question("09.1", "The MQM score of a translation with one Major Accuracy/Mistranslation, one Minor "
             "Fluency/Grammar and two Minor Fluency/Punctuation errors",
             lambda: mqm_score(ROW_ERRORS)),
    Question("09.2", "Kendall's tau of the five (MQM, metric) pairs of section 4, by hand (a fraction)",
             lambda: kendall_tau(FIVE_METRIC, FIVE_MQM)),
    Question("09.3", "Where do the experts rank the reference 'ref' among the 15 translations (1 = best)?",
             lambda: _tables().system("ref").mqm_rank),
    Question("09.4",
             "Of the 78 pairs of MT systems, how many does corpus BLEU against 'refB' order as the experts?",
             lambda: _tables().system_level("refB", "bleu", "accuracy").agreeing),
    CodingExercise(
        "09.c1",
        "mqm_score(errors): minus the summed weights of (category, severity) pairs: Major 5, Minor 1, "
        "Minor Fluency/Punctuation 0.1, a category starting 'Non-translation' 25, 'No-error' 0",
        mqm_score,
        ((list(ROW_ERRORS),), ([],), ([("Style/Awkward", "Minor"), ("Fluency/Punctuation", "Minor"),
                                       ("Accuracy/Omission", "Major")],)),  # mtlearn.study.mqm's example
        _errors_case),
    CodingExercise(
        "09.c2", "accuracy_with_ties(human, metric, epsilon): over every pair of translations, the share the "
        "metric orders as the experts plus the pairs both call a tie (the metric ties when its scores differ "
        "by at most epsilon; the experts only when equal)",
        accuracy_with_ties,
        # tie_calibration's example first
        (([0, 0, -5], [0.5, 0.75, 0.0], 0.0), ([0, 0, -5], [0.5, 0.75, 0.0], 0.25),
         (list(FIVE_MQM), list(FIVE_METRIC), 0.0), ([0, 0, -1, -5], [0.9, 0.8, 0.8, 0.1], 0.1)),
        _ties_case),
)

"""Notebook 10's exercises (learned metrics): greedy matching and idf by hand, answers computed by mtlearn.

>>> [e.id for e in EXERCISES]
['10.1', '10.2', '10.3', '10.c1', '10.c2']
"""

from __future__ import annotations

import random

from mtlearn.exercises.kinds import CodingExercise, Exercise, Question
from mtlearn.metrics.bertscore.formulas import f1, idf, precision, recall

__all__ = ["EXERCISES", "MATRIX", "CANDIDATE_IDF", "REFERENCE_IDF"]

#: The 3 × 3 cosine matrix of sections 2 and 6: rows the candidate's tokens, columns the reference's.
MATRIX = ((0.9, 0.1, 0.3),
          (0.2, 0.4, 0.8),
          (0.5, 0.3, 0.6))
#: Question 3's idf weights of the three candidate tokens and the three reference tokens.
CANDIDATE_IDF = (0.2, 1.5, 1.0)
REFERENCE_IDF = (0.2, 1.0, 2.0)


def _matrix_case(rng: random.Random) -> tuple[list[list[float]], list[float]]:
    """A 1-5 × 1-5 matrix of cosines on a 0.05 grid (ties happen) and the rows' weights (some 0)."""
    rows, cols = rng.randint(1, 5), rng.randint(1, 5)
    matrix = [[rng.randint(-4, 20) / 20 for _ in range(cols)] for _ in range(rows)]
    weights = [rng.choice((0.0, 0.5, 1.0, 1.0, 2.0)) for _ in range(rows)]
    return matrix, weights


def _idf_case(rng: random.Random) -> tuple[str, dict[str, int], int]:
    """A token, document frequencies of a few tokens, and a number of documents at least as large."""
    documents = rng.randint(1, 50)
    frequencies = {t: rng.randint(1, documents) for t in rng.sample(["the", "cat", "mat", "sat", "on"], 3)}
    return rng.choice(["the", "cat", "mat", "sat", "on"]), frequencies, documents


EXERCISES: tuple[Exercise, ...] = (
    Question("10.1", "P of the 3 × 3 matrix, every token weighing 1 (four decimals)",
             lambda: precision(MATRIX, [1, 1, 1])),
    Question("10.2", "R of the same matrix, every token weighing 1 (four decimals)",
             lambda: recall(MATRIX, [1, 1, 1])),
    Question("10.3",
             "F1 of the same matrix with the idf weights CANDIDATE_IDF and REFERENCE_IDF (four decimals)",
             lambda: f1(precision(MATRIX, CANDIDATE_IDF), recall(MATRIX, REFERENCE_IDF))),
    CodingExercise(
        "10.c1",
        "greedy_precision(similarity, weights): each row (a candidate token) takes its largest cosine; "
        "return the weighted mean of those maxima with the rows' weights (0 when the weights sum to 0)",
        precision, ((MATRIX, [1, 1, 1]), (MATRIX, list(CANDIDATE_IDF)), ([[0.3]], [0.0])), _matrix_case),
    CodingExercise(
        "10.c2", "idf(token, frequencies, documents): log((M + 1) / (df + 1)), df the number of documents "
        "holding the token (0 if it is not in frequencies), M the number of documents",
        idf, (("the", {"the": 3}, 3), ("zebra", {"the": 3}, 3)), _idf_case),
)

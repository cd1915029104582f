"""Notebook 10's exercises (learned metrics): greedy matching and idf by hand, answers computed by mtlearn.

>>> [e.id for e in EXERCISES]
['10.1', '10.2', '10.3', '10.c1', '10.c2']
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.metrics.bertscore.formulas import f1, idf, precision, recall

__all__ = ["EXERCISES", "MATRIX", "CANDIDATE_IDF", "REFERENCE_IDF"]

#: The 3 × 3 cosine matrix of sections 2 and 6: rows the candidate's tokens, columns the reference's.
MATRIX = ((0.9, 0.1, 0.3),
          (0.2, 0.4, 0.8),
          (0.5, 0.3, 0.6))
#: Question 3's idf weights of the three candidate tokens and the three reference tokens.
CANDIDATE_IDF = (0.2, 1.5, 1.0)
REFERENCE_IDF = (0.2, 1.0, 2.0)


def _mean_of_all() -> float:
    """The mean of every cosine of the matrix (no greedy matching)."""
    return sum(map(sum, MATRIX)) / sum(map(len, MATRIX))


def _greedy_working(side: str) -> str:
    """Each token's best cosine, row by row (P) or column by column (R)."""
    if side == "P":
        best = [max(row) for row in MATRIX]
        return f"  each row's largest cosine: {best}; P = their mean = {precision(MATRIX, [1, 1, 1]):.4f}"
    best = [max(column) for column in zip(*MATRIX)]
    return f"  each column's largest cosine: {best}; R = their mean = {recall(MATRIX, [1, 1, 1]):.4f}"


def _idf_working() -> str:
    p, r = precision(MATRIX, CANDIDATE_IDF), recall(MATRIX, REFERENCE_IDF)
    return (f"  P = sum of CANDIDATE_IDF x row maxima / sum of CANDIDATE_IDF = {p:.4f}\n"
            f"  R = sum of REFERENCE_IDF x column maxima / sum of REFERENCE_IDF = {r:.4f}\n"
            f"  F1 = 2 P R / (P + R) = {f1(p, r):.4f}")


def _unweighted_precision(similarity: Sequence[Sequence[float]], weights: Sequence[float]) -> float:
    """Coding misconception: the plain mean of the row maxima, the weights ignored (0 with no weight)."""
    if sum(weights) == 0:
        return 0.0
    return sum(max(row) for row in similarity) / len(similarity)


def _row_means(similarity: Sequence[Sequence[float]], weights: Sequence[float]) -> float:
    """Coding misconception: each row's mean cosine instead of its largest, weighted."""
    total = sum(weights)
    return sum(w * sum(row) / len(row) for row, w in zip(similarity, weights)) / total if total else 0.0


def _log10_idf(token: str, frequencies: Mapping[str, int], documents: int) -> float:
    """Coding misconception: the base-10 logarithm."""
    return math.log10((documents + 1) / (frequencies.get(token, 0) + 1))


def _inverted_idf(token: str, frequencies: Mapping[str, int], documents: int) -> float:
    """Coding misconception: the ratio upside down, log((df + 1) / (M + 1))."""
    return math.log((frequencies.get(token, 0) + 1) / (documents + 1))


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


_GREEDY = "each candidate token (a row) takes its largest cosine, and P is the mean of those maxima"

EXERCISES: tuple[Exercise, ...] = (
    Question("10.1", "P of the 3 × 3 matrix, every token weighing 1 (four decimals)",
             lambda: precision(MATRIX, [1, 1, 1]),
             (Misconception("columns instead of rows",
                            "this takes each column's best cosine, which is recall: for precision "
                            f"{_GREEDY}.", lambda: recall(MATRIX, [1, 1, 1])),
              Misconception("mean of every cosine", f"this averages every cosine: {_GREEDY}.", _mean_of_all)),
             working=lambda: _greedy_working("P")),
    Question("10.2", "R of the same matrix, every token weighing 1 (four decimals)",
             lambda: recall(MATRIX, [1, 1, 1]),
             (Misconception("rows instead of columns",
                            "this takes each row's best cosine, which is precision: for recall each "
                            "reference token (a column) takes its largest cosine.",
                            lambda: precision(MATRIX, [1, 1, 1])),
              Misconception("mean of every cosine",
                            "this averages every cosine: each reference token (a column) takes its largest "
                            "cosine, and R is the mean of those maxima.", _mean_of_all)),
             working=lambda: _greedy_working("R")),
    Question("10.3",
             "F1 of the same matrix with the idf weights CANDIDATE_IDF and REFERENCE_IDF (four decimals)",
             lambda: f1(precision(MATRIX, CANDIDATE_IDF), recall(MATRIX, REFERENCE_IDF)),
             (Misconception("weights swapped",
                            "this weighs the rows with the reference's idf: P weighs each candidate token "
                            "(a row) with CANDIDATE_IDF, R each reference token (a column) with "
                            "REFERENCE_IDF.",
                            lambda: f1(precision(MATRIX, REFERENCE_IDF), recall(MATRIX, CANDIDATE_IDF))),
              Misconception("idf forgotten",
                            "this weighs every token 1: with idf weights P and R are weighted means.",
                            lambda: f1(precision(MATRIX, [1, 1, 1]), recall(MATRIX, [1, 1, 1])))),
             working=_idf_working),
    CodingExercise(
        "10.c1",
        "greedy_precision(similarity, weights): each row (a candidate token) takes its largest cosine; "
        "return the weighted mean of those maxima with the rows' weights (0 when the weights sum to 0)",
        precision, ((MATRIX, [1, 1, 1]), (MATRIX, list(CANDIDATE_IDF)), ([[0.3]], [0.0])), _matrix_case,
        misconceptions=(
            Misconception("weights ignored",
                          "this takes the plain mean of the maxima: each row's maximum counts with its "
                          "weight, divided by the sum of the weights.", _unweighted_precision),
            Misconception("row means", f"this averages each row: {_GREEDY}.", _row_means))),
    CodingExercise(
        "10.c2", "idf(token, frequencies, documents): log((M + 1) / (df + 1)), df the number of documents "
        "holding the token (0 if it is not in frequencies), M the number of documents",
        idf, (("the", {"the": 3}, 3), ("zebra", {"the": 3}, 3)), _idf_case,
        misconceptions=(
            Misconception("base-10 logarithm", "this uses log10: idf uses the natural logarithm, math.log.",
                          _log10_idf),
            Misconception("ratio upside down",
                          "this is log((df + 1) / (M + 1)): a rare token must weigh more, "
                          "log((M + 1) / (df + 1)).", _inverted_idf))),
)

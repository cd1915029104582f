"""BERTScore's rules, one small function each (Zhang, Kishore, Wu, Weinberger & Artzi 2020, ICLR, section 3).

Every token of both sentences is a vector (a layer of the encoder, :mod:`~mtlearn.metrics.bertscore.encoder`).
BERTScore compares every candidate token with every reference token by the cosine of their vectors, then
matches *greedily*: each candidate token takes its most similar reference token (precision), each reference
token its most similar candidate token (recall). No one-to-one alignment: two candidate tokens may take the
same reference token.

A 2 × 3 worked example (the cosines given directly; the candidate has 2 tokens, the reference 3)::

                 ref: the   cat   sat
    cand: the        1.0   0.2   0.1
          cat        0.3   0.9   0.4

>>> sim = np.array([[1.0, 0.2, 0.1], [0.3, 0.9, 0.4]])
>>> best_candidate_matches(sim).tolist(), best_reference_matches(sim).tolist()
([0, 1], [0, 1, 1])
>>> p = precision(sim, np.ones(2))          # (1.0 + 0.9) / 2
>>> r = recall(sim, np.ones(3))             # (1.0 + 0.9 + 0.4) / 3
>>> round(p, 4), round(r, 4), round(f1(p, r), 4)
(0.95, 0.7667, 0.8485)

With importance weights (idf), a rare word counts more than "the":
>>> round(weighted_mean(np.array([1.0, 0.9]), np.array([0.1, 2.0])), 4)   # (0.1*1.0 + 2.0*0.9) / 2.1
0.9048
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

__all__ = ["SPECIAL_TOKENS", "best_candidate_matches", "best_reference_matches", "cosine_matrix",
           "document_frequencies", "f1", "idf", "idf_weights", "precision", "recall", "rescale",
           "token_weights", "weighted_mean"]

#: The tokens BERT adds around every input: they take part in the context, but weigh 0 in P and R.
SPECIAL_TOKENS = ("[CLS]", "[SEP]")


def cosine_matrix(candidate: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """The cosine similarity of every candidate vector (rows) with every reference vector (columns).

    >>> cosine_matrix(np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([[2.0, 0.0]])).round(4).tolist()
    [[1.0], [0.7071]]
    """
    a = candidate / np.linalg.norm(candidate, axis=1, keepdims=True)
    b = reference / np.linalg.norm(reference, axis=1, keepdims=True)
    return a @ b.T


def best_candidate_matches(similarity: np.ndarray) -> np.ndarray:
    """For each candidate token (row), the reference token (column) it is most similar to: the precision
    side."""
    return similarity.argmax(axis=1)


def best_reference_matches(similarity: np.ndarray) -> np.ndarray:
    """For each reference token (column), the candidate token (row) it is most similar to: the recall side."""
    return similarity.argmax(axis=0)


def weighted_mean(best: np.ndarray, weights: np.ndarray) -> float:
    """Σ weight × best similarity / Σ weight: precision (candidate side) or recall (reference side)."""
    return float((best * weights).sum() / weights.sum())


def precision(similarity: np.ndarray, weights: np.ndarray) -> float:
    """BERTScore's P: each candidate token (row) takes its best cosine; their weighted mean (0 if no weight).

    >>> m = np.array([[0.9, 0.1, 0.3], [0.2, 0.4, 0.8], [0.5, 0.7, 0.6]])
    >>> round(precision(m, np.ones(3)), 4)      # (0.9 + 0.8 + 0.7) / 3
    0.8
    """
    similarity, weights = np.asarray(similarity, dtype=float), np.asarray(weights, dtype=float)
    return weighted_mean(similarity.max(axis=1), weights) if weights.sum() > 0 else 0.0


def recall(similarity: np.ndarray, weights: np.ndarray) -> float:
    """BERTScore's R: each reference token (column) takes its best cosine; their weighted mean (0 if no
    weight).

    >>> m = np.array([[0.9, 0.1, 0.3], [0.2, 0.4, 0.8], [0.5, 0.7, 0.6]])
    >>> round(recall(m, [1, 1, 2]), 4)          # (0.9 + 0.7 + 2 * 0.8) / 4
    0.8
    """
    similarity, weights = np.asarray(similarity, dtype=float), np.asarray(weights, dtype=float)
    return weighted_mean(similarity.max(axis=0), weights) if weights.sum() > 0 else 0.0


def f1(precision: float, recall: float) -> float:
    """The harmonic mean 2PR / (P + R) (0 when both are 0).

    >>> f1(0.5, 1.0)
    0.6666666666666666
    """
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def document_frequencies(documents: Iterable[Sequence[str]]) -> tuple[Counter, int]:
    """In how many documents (reference sentences) each token occurs, and how many documents there are."""
    counts: Counter = Counter()
    total = 0
    for tokens in documents:
        counts.update(set(tokens))
        total += 1
    return counts, total


def idf(token: str, frequencies: Mapping[str, int], documents: int) -> float:
    """A token's inverse document frequency, with BERTScore's +1 smoothing: log((M + 1) / (df + 1)).

    A token in every one of M = 3 references: log(4/4) = 0; in none: log(4/1).
    >>> idf("the", {"the": 3}, 3), round(idf("zebra", {"the": 3}, 3), 4)
    (0.0, 1.3863)
    """
    return math.log((documents + 1) / (frequencies.get(token, 0) + 1))


def idf_weights(documents: Iterable[Sequence[str]]) -> dict[str, float]:
    """The idf of every token of ``documents``; a token not among them gets log(M + 1) (see :func:`idf`)."""
    frequencies, total = document_frequencies(documents)
    return {token: idf(token, frequencies, total) for token in frequencies}


def token_weights(tokens: Sequence[str], weights: Mapping[str, float] | None,
                  documents: int = 0) -> np.ndarray:
    """Each token's weight: 1 (or its idf when ``weights`` are given), and 0 for ``[CLS]`` and ``[SEP]``.

    >>> token_weights(["[CLS]", "the", "cat", "[SEP]"], None).tolist()
    [0.0, 1.0, 1.0, 0.0]
    >>> [round(w, 4) for w in token_weights(["[CLS]", "the", "cat", "[SEP]"], {"the": 0.0}, 3).tolist()]
    [0.0, 0.0, 1.3863, 0.0]
    """
    unseen = math.log(documents + 1)
    return np.array([0.0 if t in SPECIAL_TOKENS else 1.0 if weights is None else weights.get(t, unseen)
                     for t in tokens])


def rescale(score: float, baseline: float) -> float:
    """(score − b) / (1 − b): the baseline b (the score of unrelated sentences) moves to 0, a perfect 1 stays
    1.

    >>> rescale(0.9, 0.8), rescale(0.8, 0.8)
    (0.5, 0.0)
    """
    return (score - baseline) / (1 - baseline)

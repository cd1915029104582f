"""COMET-mini's formula steps: a sentence's vector, the feature vector, ridge regression and its prediction.

COMET (Rei et al. 2020) turns each sentence into one vector with a pretrained encoder, builds a feature
vector from the translation's and the reference's vectors, and lets a *trained* regressor map it to a
quality score. The miniature keeps each step small enough to compute by hand on tiny vectors:

1. :func:`mean_pool` then :func:`normalize` — the sentence vector as all-MiniLM-L6-v2's
   sentence-transformers pipeline makes it (``1_Pooling/config.json``: ``pooling_mode_mean_tokens``;
   ``modules.json``: a ``Normalize`` module after it): the mean of the last layer's token vectors,
   ``[CLS]`` and ``[SEP]`` included, scaled to length 1;
2. :func:`features` — COMET's ``[h; r; h ⊙ r; |h − r|]`` (the translation, the reference, their
   element-wise product and absolute difference);
3. :func:`fit_ridge` — the weights ``w`` and bias ``b`` that minimise
   ``Σ (y − b − x·w)² + alpha · |w|²`` (the bias is not penalised), in closed form;
4. :func:`predict` — ``b + x·w``; :func:`block_contributions` splits ``x·w`` into the four blocks'
   shares, which add up to it.

>>> h, r = np.array([1.0, 2.0]), np.array([3.0, 1.0])
>>> features(h, r).tolist()
[1.0, 2.0, 3.0, 1.0, 3.0, 2.0, 2.0, 1.0]
>>> fit = fit_ridge(np.array([[0.0], [1.0], [2.0]]), np.array([1.0, 3.0, 5.0]), alpha=0.0)
>>> fit.weights.tolist(), fit.bias
([2.0], 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BLOCKS", "RidgeFit", "block_contributions", "features", "fit_ridge", "mean_pool", "normalize",
           "predict", "sentence_embedding"]

#: The four blocks of COMET's feature vector, in order.
BLOCKS: tuple[str, ...] = ("h", "r", "h*r", "|h-r|")


def mean_pool(vectors: np.ndarray) -> np.ndarray:
    """The mean of the token vectors (rows), every token counted once, ``[CLS]`` and ``[SEP]`` included.

    >>> mean_pool(np.array([[1.0, 0.0], [3.0, 2.0]])).tolist()
    [2.0, 1.0]
    """
    v = np.asarray(vectors, dtype=np.float64)
    if v.ndim != 2 or v.shape[0] == 0:
        raise ValueError("vectors: expected a (tokens x dimensions) matrix with at least one token, got "
                         f"shape {v.shape}")
    return v.mean(axis=0)


def normalize(vector: np.ndarray) -> np.ndarray:
    """``vector`` scaled to Euclidean length 1 (sentence-transformers' ``Normalize``; 0 stays 0).

    >>> normalize(np.array([3.0, 4.0])).tolist()
    [0.6, 0.8]
    """
    v = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def sentence_embedding(vectors: np.ndarray) -> np.ndarray:
    """A sentence's vector from its last layer's token vectors: :func:`mean_pool`, then :func:`normalize`.

    >>> [round(v, 6) for v in sentence_embedding(np.array([[1.0, 0.0], [5.0, 8.0]])).tolist()]
    [0.6, 0.8]
    """
    return normalize(mean_pool(vectors))


def features(h: np.ndarray, r: np.ndarray) -> np.ndarray:
    """COMET's feature vector ``[h; r; h ⊙ r; |h − r|]`` (4 × the dimension), for one pair or rows of pairs.

    >>> features(np.array([[1.0], [0.0]]), np.array([[0.5], [2.0]])).tolist()
    [[1.0, 0.5, 0.5, 0.5], [0.0, 2.0, 0.0, 2.0]]
    """
    h, r = np.asarray(h, dtype=np.float64), np.asarray(r, dtype=np.float64)
    if h.shape != r.shape:
        raise ValueError(f"r: shape {r.shape} differs from h's {h.shape}; both sides need vectors of one "
                         "size")
    return np.concatenate([h, r, h * r, np.abs(h - r)], axis=-1)


@dataclass(frozen=True)
class RidgeFit:
    """A fitted ridge regression: ``weights`` (one per feature), the unpenalised ``bias``, and ``alpha``."""

    weights: np.ndarray
    bias: float
    alpha: float


def fit_ridge(x: np.ndarray, y: np.ndarray, alpha: float) -> RidgeFit:
    """Ridge regression in closed form, the bias unpenalised: centre, solve, then put the means back.

    With ``xc = x − mean(x)`` and ``yc = y − mean(y)``: ``w = (xcᵀxc + alpha·I)⁻¹ xcᵀyc`` and
    ``b = mean(y) − mean(x)·w`` (centring is what leaves the bias out of the penalty).

    >>> fit = fit_ridge(np.array([[1.0], [-1.0]]), np.array([2.0, 0.0]), alpha=2.0)
    >>> fit.weights.tolist(), fit.bias   # xcᵀxc = 2, xcᵀyc = 2: w = 2 / (2 + 2)
    ([0.5], 1.0)
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.ndim != 2 or y.ndim != 1 or x.shape[0] != y.shape[0] or x.shape[0] < 2:
        raise ValueError(f"x, y: expected an (n x features) matrix and n targets with n >= 2, got {x.shape} "
                         f"and {y.shape}")
    if not alpha >= 0 or not np.isfinite(alpha):
        raise ValueError(f"alpha: expected a finite number >= 0, got {alpha}")
    x_mean, y_mean = x.mean(axis=0), float(y.mean())
    xc = x - x_mean
    gram = xc.T @ xc + alpha * np.eye(x.shape[1])
    weights = np.linalg.lstsq(gram, xc.T @ (y - y_mean), rcond=None)[0] if alpha == 0 else \
        np.linalg.solve(gram, xc.T @ (y - y_mean))
    return RidgeFit(weights, y_mean - float(x_mean @ weights), float(alpha))


def predict(x: np.ndarray, weights: np.ndarray, bias: float) -> np.ndarray:
    """``bias + x · weights`` for one feature vector or each row of a matrix.

    >>> float(predict(np.array([1.0, 2.0]), np.array([0.5, -1.0]), 3.0))
    1.5
    """
    return bias + np.asarray(x, dtype=np.float64) @ np.asarray(weights, dtype=np.float64)


def block_contributions(x: np.ndarray, weights: np.ndarray) -> dict[str, float]:
    """Each block's share ``w_block · x_block`` of ``x · w`` (the four add up to it; the bias comes on top).

    >>> block_contributions(np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 1.0, 0.5, -1.0]))
    {'h': 1.0, 'r': 2.0, 'h*r': 1.5, '|h-r|': -4.0}
    """
    x, w = np.asarray(x, dtype=np.float64), np.asarray(weights, dtype=np.float64)
    if x.shape != w.shape or x.ndim != 1 or x.shape[0] % len(BLOCKS):
        raise ValueError(f"weights: {w.shape} weights for a feature vector of shape {x.shape}; expected one "
                         f"weight per feature and {len(BLOCKS)} blocks of equal size")
    size = x.shape[0] // len(BLOCKS)
    return {name: float(x[k * size:(k + 1) * size] @ w[k * size:(k + 1) * size])
            for k, name in enumerate(BLOCKS)}

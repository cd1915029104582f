"""COMET-mini trained and tested on expert MQM: the shipped vectors, the splits, the training, the evaluation.

COMET is *trained* on human judgements. Here a ridge regression
(:func:`~mtlearn.metrics.comet_mini.formulas.fit_ridge`) learns to predict the experts' MQM score of a
translation from COMET's features of its sentence vector and the reference's
(``mtlearn/study/data/mqm_ted_zhen/minilm_embeddings.npz``: derived numbers only, never a text, written by
``studies/train_comet_mini.py``), on the WMT21 TED talks, Chinese → English, against reference ``ref``.

Two held-out splits, both seeded (:func:`make_split`): a third of the 13 MT systems and a third of the 529
segments are never seen in training. They answer different questions:

* **unseen systems** — does the regressor learn translation quality, or each training system's style (its
  typical length, its favourite words) and that system's average MQM?
* **unseen segments** — does it learn quality, or memorise the sentences: a segment every system translates
  badly (a hard sentence) has low MQM in training and would be "predicted" from its reference alone.

The test cell (held-out systems × held-out segments) is new on both counts; the two one-sided cells show
which memorisation helps. alpha is chosen by cross-validation on the training cell alone, its folds whole
segments (:func:`choose_alpha`).

>>> s = make_split(["A", "B", "C", "D", "E", "F"], [1, 2, 3, 4, 5, 6], seed=1)
>>> len(s.test_systems), len(s.test_segments), sorted(s.train_systems + s.test_systems)
(2, 2, ['A', 'B', 'C', 'D', 'E', 'F'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np

from mtlearn.metrics.comet_mini.formulas import RidgeFit, features, fit_ridge, predict

__all__ = ["ALPHAS", "BASELINES", "DATA", "EMBEDDINGS", "REFERENCE", "SEED", "MqmVectors", "Split",
           "TrainedCometMini", "choose_alpha", "design", "load_vectors", "make_split", "retrain"]

#: Where the study's derived numbers are shipped.
DATA = Path(__file__).resolve().parent / "data" / "mqm_ted_zhen"
#: The sentence vectors of every rated translation and reference (float16), with the MQM scores.
EMBEDDINGS = DATA / "minilm_embeddings.npz"
#: Sentence BLEU, chrF and BERTScore-mini F1 of the same translations against ``ref``, BLEU's and chrF's
#: segment statistics.
BASELINES = DATA / "baseline_scores.npz"
#: The reference the features compare with (the experts rank ``refB`` first, ``ref`` last of all 15).
REFERENCE = "ref"
#: The seed of the splits and of the cross-validation folds.
SEED = 2020
#: The ridge penalties cross-validation tries.
ALPHAS: tuple[float, ...] = tuple(float(10.0 ** (k / 2)) for k in range(-2, 9))
#: Cross-validation folds (each a fifth of the training segments, all their systems).
FOLDS = 5


@dataclass(frozen=True)
class MqmVectors:
    """The shipped numbers: ``vectors[s, i]`` is the sentence vector of ``systems[s]``'s translation of
    ``seg_ids[i]`` (the reference's text for ``ref``/``refB``), ``mqm[s, i]`` its MQM score."""

    systems: tuple[str, ...]
    seg_ids: tuple[int, ...]
    vectors: np.ndarray
    mqm: np.ndarray
    mt_systems: tuple[str, ...]

    def row(self, system: str) -> int:
        """The row of ``system``."""
        if system not in self.systems:
            raise KeyError(f"system: no system {system!r}; the systems are {', '.join(self.systems)}")
        return self.systems.index(system)

    def columns(self, seg_ids: Sequence[int]) -> list[int]:
        """The columns of ``seg_ids``, in the order given."""
        where = {s: k for k, s in enumerate(self.seg_ids)}
        missing = [s for s in seg_ids if s not in where]
        if missing:
            raise KeyError(f"seg_ids: no segment {missing[0]!r} in the shipped vectors")
        return [where[s] for s in seg_ids]

    def vector(self, system: str, seg_id: int) -> np.ndarray:
        """The sentence vector of ``system``'s translation of ``seg_id`` (float64)."""
        return self.vectors[self.row(system), self.columns([seg_id])[0]].astype(np.float64)


def load_vectors(path: Union[str, Path, None] = None) -> MqmVectors:
    """The shipped vectors (or those at ``path``), checked for shape.

    >>> v = load_vectors()                              # doctest: +SKIP
    >>> v.vectors.shape, v.vectors.dtype                # doctest: +SKIP
    ((15, 529, 384), dtype('float16'))
    """
    path = Path(path) if path else EMBEDDINGS
    if not path.is_file():
        raise FileNotFoundError(f"path: {path} is missing; run studies/train_comet_mini.py to write it")
    with np.load(path, allow_pickle=False) as f:
        systems, seg_ids = tuple(str(s) for s in f["systems"]), tuple(int(i) for i in f["seg_ids"])
        vectors, mqm, mt = f["vectors"], f["mqm"].astype(np.float64), tuple(str(s) for s in f["mt_systems"])
    if vectors.shape[:2] != (len(systems), len(seg_ids)) or mqm.shape != vectors.shape[:2]:
        raise ValueError(f"path: {path} holds vectors {vectors.shape} and MQM {mqm.shape} for {len(systems)} "
                         f"systems x {len(seg_ids)} segments")
    return MqmVectors(systems, seg_ids, vectors, mqm, mt)


@dataclass(frozen=True)
class Split:
    """Which systems and segments training sees (``train_*``) and which it never sees (``test_*``)."""

    train_systems: tuple[str, ...]
    test_systems: tuple[str, ...]
    train_segments: tuple[int, ...]
    test_segments: tuple[int, ...]
    seed: int


def _hold_out(items: Sequence, rng: random.Random) -> tuple[tuple, tuple]:
    held = set(rng.sample(sorted(items), round(len(items) / 3)))
    return tuple(i for i in items if i not in held), tuple(i for i in items if i in held)


def make_split(systems: Sequence[str], seg_ids: Sequence[int], seed: int = SEED) -> Split:
    """Hold out a seeded third (rounded) of the systems and, independently, of the segments."""
    rng = random.Random(seed)
    train_sys, test_sys = _hold_out(list(systems), rng)
    train_seg, test_seg = _hold_out(list(seg_ids), rng)
    return Split(train_sys, test_sys, train_seg, test_seg, seed)


def design(data: MqmVectors, systems: Sequence[str], seg_ids: Sequence[int],
           reference: str = REFERENCE) -> tuple[np.ndarray, np.ndarray]:
    """The features (one row per system x segment, systems outer) and the MQM targets of a cell."""
    cols = data.columns(seg_ids)
    r = data.vectors[data.row(reference), cols].astype(np.float64)
    x = np.concatenate([features(data.vectors[data.row(s), cols].astype(np.float64), r) for s in systems])
    y = np.concatenate([data.mqm[data.row(s), cols] for s in systems])
    return x, y


def _fold_errors(x: np.ndarray, y: np.ndarray, train: np.ndarray, alphas: Sequence[float]) -> np.ndarray:
    # One eigendecomposition per fold serves every alpha: w = V diag(1/(λ+α)) Vᵀ xcᵀyc.
    xt, yt = x[train], y[train]
    x_mean, y_mean = xt.mean(axis=0), yt.mean()
    xc = xt - x_mean
    lam, v = np.linalg.eigh(xc.T @ xc)
    proj = v.T @ (xc.T @ (yt - y_mean))
    errors = []
    for alpha in alphas:
        w = v @ (proj / (lam + alpha))
        residual = y[~train] - predict(x[~train], w, y_mean - float(x_mean @ w))
        errors.append(float(np.mean(residual ** 2)))
    return np.array(errors)


def choose_alpha(x: np.ndarray, y: np.ndarray, groups: Sequence[int], alphas: Sequence[float] = ALPHAS,
                 seed: int = SEED) -> tuple[float, dict[float, float]]:
    """The alpha with the lowest mean squared error over :data:`FOLDS` folds of whole groups (segments).

    Returns it and every alpha's mean error. Folds of whole segments: a segment's translations by other
    systems in training would tell the regressor how hard that sentence is.
    """
    group = np.asarray(groups)
    distinct = sorted(set(group.tolist()))
    random.Random(seed).shuffle(distinct)
    fold_of = {g: k % FOLDS for k, g in enumerate(distinct)}
    folds = np.array([fold_of[g] for g in group.tolist()])
    errors = np.mean([_fold_errors(x, y, folds != k, alphas) for k in range(FOLDS)], axis=0)
    table = {float(a): float(e) for a, e in zip(alphas, errors)}
    return min(table, key=lambda a: (table[a], a)), table


@dataclass(frozen=True)
class TrainedCometMini:
    """A regressor trained on the training cell of ``split``, with the alpha chosen and the CV errors."""

    fit: RidgeFit
    split: Split
    cv_errors: dict[float, float]
    n_train: int


def retrain(data: Optional[MqmVectors] = None, *, seed: int = SEED,
            alpha: Optional[float] = None) -> TrainedCometMini:
    """Train COMET-mini on the shipped vectors in seconds: split with ``seed``, choose alpha by
    cross-validation (or take ``alpha``), fit on the training cell.

    With the shipped seed and alpha it gives the shipped ``weights.npz`` (``tests/study/test_comet_mini.py``).
    """
    data = data or load_vectors()
    split = make_split(data.mt_systems, data.seg_ids, seed)
    x, y = design(data, split.train_systems, split.train_segments)
    groups = list(split.train_segments) * len(split.train_systems)
    cv: dict[float, float] = {}
    if alpha is None:
        alpha, cv = choose_alpha(x, y, groups, seed=seed)
    return TrainedCometMini(fit_ridge(x, y, alpha), split, cv, len(y))

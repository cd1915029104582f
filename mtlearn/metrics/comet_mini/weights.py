"""COMET-mini's trained regressor: 1,536 weights and a bias, shipped as ``weights.npz`` with ``weights.json``.

The weights are *learned*: ``studies/train_comet_mini.py`` fits them by ridge regression on expert MQM scores
(the training cell of a seeded split of Google's MQM annotation of the WMT21 TED talks, Chinese → English);
``weights.json`` records how (data, split, alpha chosen by cross-validation, seed, date, command).
:func:`mtlearn.study.comet_mini.retrain` refits them in seconds from the shipped sentence vectors.

>>> w = CometMiniWeights(np.zeros(8), 0.5, {"alpha": 1.0})
>>> w.dimension, w.alpha
(2, 1.0)
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Union

import numpy as np

from mtlearn.metrics.comet_mini.formulas import BLOCKS

__all__ = ["PROVENANCE", "WEIGHTS", "CometMiniWeights", "load_weights", "save_weights"]

#: The shipped weights and their provenance.
WEIGHTS = Path(__file__).resolve().parent / "weights.npz"
PROVENANCE = WEIGHTS.with_suffix(".json")


@dataclass(frozen=True)
class CometMiniWeights:
    """A trained regressor: one weight per feature (4 blocks of ``dimension``), the bias, how it was made."""

    weights: np.ndarray
    bias: float
    provenance: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        w = np.asarray(self.weights)
        if w.ndim != 1 or w.shape[0] == 0 or w.shape[0] % len(BLOCKS) or not np.isfinite(w).all() \
                or not np.isfinite(self.bias):
            raise ValueError(f"weights: expected finite weights, {len(BLOCKS)} blocks of equal size, and a "
                             f"finite bias; got shape {w.shape}")

    @property
    def dimension(self) -> int:
        """The size of a sentence vector (a quarter of the features)."""
        return int(self.weights.shape[0]) // len(BLOCKS)

    @property
    def digest(self) -> str:
        """The first 8 hex digits of the SHA-256 of the weights and bias (float64): the signature names
        them."""
        data = np.asarray(self.weights, dtype="<f8").tobytes() + np.float64(self.bias).astype("<f8").tobytes()
        return hashlib.sha256(data).hexdigest()[:8]

    @property
    def alpha(self) -> float:
        """The ridge penalty it was trained with (from its provenance; NaN when unrecorded)."""
        return float(self.provenance.get("alpha", float("nan")))


def save_weights(path: Union[str, os.PathLike], weights: np.ndarray, bias: float,
                 provenance: dict[str, Any]) -> Path:
    """Write ``weights.npz`` (float64) and, beside it, the provenance as JSON; return the npz's path."""
    path = Path(path)
    CometMiniWeights(np.asarray(weights, dtype=np.float64), float(bias), provenance)  # checks
    np.savez_compressed(path, weights=np.asarray(weights, dtype=np.float64), bias=np.float64(bias))
    path.with_suffix(".json").write_text(json.dumps(provenance, indent=1, sort_keys=True) + "\n",
                                         encoding="utf-8")
    return path


def _read(path: Path) -> CometMiniWeights:
    if not path.is_file():
        raise FileNotFoundError(f"weights: {path} does not exist (the shipped file is {WEIGHTS})")
    try:
        with np.load(path, allow_pickle=False) as f:
            weights, bias = f["weights"].astype(np.float64), float(f["bias"])
    except (OSError, KeyError, ValueError) as error:
        raise ValueError(f"weights: {path} is not a COMET-mini weights file ({error})") from None
    info = path.with_suffix(".json")
    provenance = json.loads(info.read_text(encoding="utf-8")) if info.is_file() else {}
    return CometMiniWeights(weights, bias, provenance)


@lru_cache(maxsize=1)
def _shipped() -> CometMiniWeights:
    return _read(WEIGHTS)


def load_weights(path: Union[str, os.PathLike, None] = None) -> CometMiniWeights:
    """The shipped weights (read once per process), or those of the file at ``path``."""
    return _shipped() if path is None else _read(Path(path))

"""System-level agreement with people, with bootstrap intervals that resample *segments*.

A system's human score is the mean of its segment scores (WMT's MQM system score); its
metric score is the metric's corpus score (corpus BLEU, not the mean of sentence BLEU).
Over the systems, three statistics compare the two orderings: Pearson's r, Spearman's ρ
(:mod:`mtlearn.study.correlation`) and pairwise accuracy (Kocmi et al. 2021,
:mod:`mtlearn.study.accuracy`: the share of system pairs the metric orders as the humans).

The interval resamples the test set, not the systems (as WMT's metrics task does for its
system-level significance): each resample draws the N segments with replacement, every
system is rescored on the same draw (human mean and corpus metric from summed segment
statistics), and the statistic is recomputed. It says how much the verdict depends on
which sentences happened to be in the test set.

>>> human = {"A": [0, -1, -1, 0], "B": [-5, -1, 0, -1], "C": [-5, -5, -1, -1]}
>>> stats = {"A": np.array([[3, 4], [2, 4], [3, 4], [4, 4]]),     # (right, total) per segment
...          "B": np.array([[1, 4], [3, 4], [4, 4], [2, 4]]),
...          "C": np.array([[1, 4], [0, 4], [2, 4], [3, 4]])}
>>> accuracy = lambda sums: sums[:, 0] / sums[:, 1]
>>> r = system_level(human, stats, accuracy, bootstrap_counts(4, 100, seed=1), seed=1)
>>> r["accuracy"].value, r["accuracy"].agreeing, r["accuracy"].comparisons, r["spearman"].value
(1.0, 3, 3, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

import numpy as np

from mtlearn.study.accuracy import pairwise_accuracy
from mtlearn.study.correlation import (
    BootstrapCI,
    bootstrap_counts,  # noqa: F401 - the module's doctest draws with it
    pearson,
    spearman,
)
from mtlearn.study.segment_level import interval

__all__ = ["SYSTEM_STATISTICS", "SystemStatistic", "system_values", "system_level"]

#: Pearson's r, Spearman's rho and pairwise accuracy over the systems.
SYSTEM_STATISTICS: tuple[str, ...] = ("pearson", "spearman", "accuracy")

Scorer = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class SystemStatistic:
    """One system-level statistic with its interval (``ci``: a segment bootstrap).

    ``agreeing`` and ``comparisons`` are the exact counts of pairwise accuracy (None for
    the correlations); ``value`` equals ``ci.estimate``.
    """

    statistic: str
    value: float
    ci: BootstrapCI
    n_systems: int
    agreeing: Optional[int] = None
    comparisons: Optional[int] = None


def _accuracy(metric: Sequence[float], human: Sequence[float]) -> float:
    return float(pairwise_accuracy(metric, human).value)


def _statistic(name: str, human: Sequence[float], metric: Sequence[float]) -> float:
    if name == "pearson":
        return pearson(human, metric)
    if name == "spearman":
        return spearman(human, metric)
    return _accuracy(metric, human)


def system_values(human: Mapping[str, Sequence[float]], stats: Mapping[str, np.ndarray], score: Scorer,
                  counts: np.ndarray, *, sign: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Every system's human mean and corpus metric score on every resample: two (resamples x systems) arrays.

    ``sign`` -1 turns an error rate into "higher is better".
    """
    c = np.asarray(counts, dtype=np.int64)
    names = list(human)
    h = np.array([[float(v) for v in human[s]] for s in names], dtype=np.float64)
    if h.shape[1] != c.shape[1]:
        raise ValueError(f"counts: {c.shape[1]} segments per resample, the human scores have {h.shape[1]}")
    human_means = (c.astype(np.float64) @ h.T) / c.sum(axis=1, keepdims=True)
    columns = []
    for s in names:
        rows = np.asarray(stats[s])
        if rows.shape[0] != c.shape[1]:
            raise ValueError(f"stats: {s!r} has statistics of {rows.shape[0]} segments, "
                             f"expected {c.shape[1]}")
        summed = c @ rows if rows.dtype.kind in "iu" else c.astype(np.float64) @ rows
        columns.append(sign * np.asarray(score(summed), dtype=np.float64))
    return human_means, np.stack(columns, axis=1)


def system_level(human: Mapping[str, Sequence[float]], stats: Mapping[str, np.ndarray], score: Scorer,
                 counts: np.ndarray, *, observed: Optional[Mapping[str, float]] = None, sign: float = 1.0,
                 level: float = 0.95, seed: int = 0) -> dict[str, SystemStatistic]:
    """Pearson, Spearman and pairwise accuracy of the systems' metric scores against their human scores.

    ``human[s]`` are system s's segment scores; ``stats[s]`` its per-segment sufficient
    statistics and ``score`` the function from summed statistics to corpus scores;
    ``observed[s]`` its corpus score (default: ``score`` of all its segments); ``counts``
    the bootstrap draws (rows of :func:`~mtlearn.study.correlation.bootstrap_counts`;
    ``seed`` is only recorded). Statistics of a resample where they are undefined (all
    equal) are left out of the interval and counted.
    """
    names = list(human)
    if len(names) < 3:
        raise ValueError(f"human: {len(names)} system(s); system-level correlations need at least 3")
    if set(stats) != set(names):
        raise ValueError("stats: give statistics for exactly the systems that have human scores")
    exact_means = [float(sum((Fraction(v) for v in human[s]), Fraction(0)) / len(human[s])) for s in names]
    if observed is None:
        observed = {s: float(score(np.asarray(stats[s]).sum(axis=0)[None, :])[0]) for s in names}
    metric_values = [sign * float(observed[s]) for s in names]
    human_r, metric_r = system_values(human, stats, score, counts, sign=sign)
    out = {}
    for name in SYSTEM_STATISTICS:
        estimate = _statistic(name, exact_means, metric_values)
        samples = np.array([_safe(name, hr, mr) for hr, mr in zip(human_r.tolist(), metric_r.tolist())])
        ci = interval(estimate, samples, level=level, seed=seed)
        if name == "accuracy":
            acc = pairwise_accuracy(metric_values, exact_means)
            out[name] = SystemStatistic(name, estimate, ci, len(names), acc.agreeing, acc.comparisons)
        else:
            out[name] = SystemStatistic(name, estimate, ci, len(names))
    return out


def _safe(name: str, human: Sequence[float], metric: Sequence[float]) -> float:
    try:
        return _statistic(name, human, metric)
    except ValueError:
        return float("nan")

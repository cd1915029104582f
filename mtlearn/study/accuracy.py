"""Pairwise accuracy (Kocmi et al. 2021): how often a metric orders two systems as the humans do.

For every pair of systems of one language pair, the metric *agrees* when the sign of its
score difference equals the sign of the humans' difference; pairwise accuracy is the share
of agreeing pairs among all pairs (a metric tie against a human difference counts as a
disagreement). Pooled over several language pairs, the agreeing pairs and all pairs are
summed first (Kocmi et al. 2021, "To Ship or Not to Ship", WMT 2021, section 3).

The counts are integers and the accuracy an exact :class:`~fractions.Fraction`, so a
student can check a small case by hand:

>>> a = pairwise_accuracy([30.1, 28.4, 25.0], [0.2, 0.3, -0.4])
>>> a.agreeing, a.comparisons, a.value, float(a.value)
(2, 3, Fraction(2, 3), 0.6666666666666666)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from mtlearn.study.correlation import BootstrapCI, percentile

__all__ = ["PairwiseAccuracy", "pairwise_accuracy", "pooled_accuracy", "bootstrap_accuracy"]


@dataclass(frozen=True)
class PairwiseAccuracy:
    """Counts of system pairs: ``agreeing`` of ``comparisons`` ordered as by the humans.

    ``metric_ties`` pairs have equal metric scores (counted as not agreeing unless the
    humans tie too), ``human_ties`` equal human scores. ``value`` = agreeing / comparisons.

    >>> pairwise_accuracy([1, 1, 2], [0.1, 0.2, 0.3])
    PairwiseAccuracy(agreeing=2, comparisons=3, metric_ties=1, human_ties=0)
    """

    agreeing: int
    comparisons: int
    metric_ties: int
    human_ties: int

    @property
    def value(self) -> Fraction:
        """The share of pairs ordered as by the humans, exact."""
        if self.comparisons == 0:
            raise ValueError("comparisons: no pair of systems, so pairwise accuracy is undefined")
        return Fraction(self.agreeing, self.comparisons)

    @property
    def disagreeing(self) -> int:
        """Pairs the metric orders otherwise than the humans (ties included)."""
        return self.comparisons - self.agreeing


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


def _checked(metric: Sequence[float], human: Sequence[float],
             argname: str) -> tuple[list[float], list[float]]:
    try:
        xs, ys = [float(v) for v in metric], [float(v) for v in human]
    except (TypeError, ValueError):
        raise TypeError(f"{argname}: expected two sequences of numbers "
                        "(metric scores, human scores)") from None
    if len(xs) != len(ys):
        raise ValueError(f"{argname}: {len(xs)} metric scores but {len(ys)} human scores; "
                         "give one of each per system")
    if len(xs) < 2:
        raise ValueError(f"{argname}: {len(xs)} system(s); pairwise accuracy needs at least 2")
    return xs, ys


def _count(xs: Sequence[float], ys: Sequence[float], pairs: Iterable[tuple[int, int]]) -> PairwiseAccuracy:
    agreeing = metric_ties = human_ties = comparisons = 0
    for i, j in pairs:
        dm, dh = _sign(xs[i] - xs[j]), _sign(ys[i] - ys[j])
        comparisons += 1
        agreeing += dm == dh
        metric_ties += dm == 0
        human_ties += dh == 0
    return PairwiseAccuracy(agreeing, comparisons, metric_ties, human_ties)


def pairwise_accuracy(metric: Sequence[float], human: Sequence[float]) -> PairwiseAccuracy:
    """Pairwise accuracy of one language pair: ``metric[k]`` and ``human[k]`` score system k.

    >>> pairwise_accuracy([3, 2, 1], [30, 20, 10]).value
    Fraction(1, 1)
    >>> pairwise_accuracy([3, 2, 1], [10, 20, 30]).value
    Fraction(0, 1)
    >>> pairwise_accuracy([1], [2])
    Traceback (most recent call last):
    ...
    ValueError: metric: 1 system(s); pairwise accuracy needs at least 2
    """
    xs, ys = _checked(metric, human, "metric")
    return _count(xs, ys, itertools.combinations(range(len(xs)), 2))


def pooled_accuracy(groups: Sequence[tuple[Sequence[float], Sequence[float]]]) -> PairwiseAccuracy:
    """Pairwise accuracy pooled over language pairs: ``groups`` holds (metric, human) per pair.

    Only systems of the same language pair are compared; the counts are summed.

    >>> pooled_accuracy([([3, 2, 1], [30, 20, 10]), ([1, 2], [2, 1])]).value
    Fraction(3, 4)
    """
    if isinstance(groups, (str, bytes)) or not groups:
        raise ValueError("groups: expected a non-empty list of (metric scores, human scores), one per pair")
    parts = [pairwise_accuracy(m, h) for m, h in groups]
    return PairwiseAccuracy(*(sum(getattr(p, f) for p in parts)
                              for f in ("agreeing", "comparisons", "metric_ties", "human_ties")))


def bootstrap_accuracy(groups: Sequence[tuple[Sequence[float], Sequence[float]]], *, n_resamples: int = 1000,
                       seed: int = 12345, level: float = 0.95) -> BootstrapCI:
    """Pooled pairwise accuracy with a percentile bootstrap interval, resampling *systems*.

    Each resample draws, within every language pair independently, as many systems as it
    has, with replacement (index ``int(random() * n)``, one ``random.Random(seed)`` for the
    whole run, pairs in the given order); every pair of draws of two *different* systems is
    compared (a system drawn twice enters its pairs twice), and the pooled accuracy is
    recomputed. Resamples without a pair of different systems are skipped (``n_valid``).

    >>> ci = bootstrap_accuracy([([3, 2, 1, 0], [30, 20, 5, 10])], n_resamples=200, seed=1)
    >>> ci.estimate, ci.low <= ci.estimate <= ci.high, ci.n_valid <= 200
    (0.8333333333333334, True, True)
    """
    if not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError(f"n_resamples: expected a positive integer, got {n_resamples!r}")
    if not 0 < level < 1:
        raise ValueError(f"level: {level} is outside (0, 1)")
    estimate = float(pooled_accuracy(groups).value)
    data = [_checked(m, h, "groups") for m, h in groups]
    rng = random.Random(seed)
    values = []
    for _ in range(n_resamples):
        agreeing = comparisons = 0
        for xs, ys in data:
            n = len(xs)
            idx = [int(rng.random() * n) for _ in range(n)]
            pairs = [(i, j) for i, j in itertools.combinations(idx, 2) if i != j]
            counts = _count(xs, ys, pairs)
            agreeing += counts.agreeing
            comparisons += counts.comparisons
        if comparisons:
            values.append(agreeing / comparisons)
    if not values:
        raise ValueError("groups: no bootstrap resample drew two different systems")
    tail = (1 - level) / 2 * 100
    return BootstrapCI(estimate, percentile(values, tail), percentile(values, 100 - tail),
                       level, n_resamples, len(values), seed)

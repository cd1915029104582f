"""Pairwise accuracy with ties, and tie calibration: WMT23's segment-level statistic.

Deutsch, Foster & Freitag (2023), "Ties Matter: Meta-Evaluating Modern Metrics with
Pairwise Accuracy and Tie Calibration" (EMNLP 2023; arXiv 2305.14324), used by the WMT23
and WMT24 metrics tasks (Google's ``mt-metrics-eval``: ``stats.KendallWithTiesOpt``,
``tau_optimization.py``, read to learn the definition; this is written from the paper).

Every pair of translations falls in one of five classes: **C** (concordant: human and
metric order it the same way), **D** (discordant), **T_h** (tied by the humans only),
**T_m** (tied by the metric only), **T_hm** (tied by both). Kendall's tau variants treat
ties in ways that can be gamed; *pairwise accuracy with ties* credits a metric for every
pair it orders as the humans did **and** for every human tie it also calls a tie:

    acc_eq = (C + T_hm) / (C + D + T_h + T_m + T_hm)

MQM scores tie often (every perfect translation scores 0), but a metric with continuous
scores almost never does, so it could never earn T_hm. **Tie calibration** lets it: the
metric calls two scores tied when they differ by at most ε, and ε is chosen to maximise
acc_eq (the candidates are 0 and every observed difference |m_i - m_j|; the smallest ε
among equal maxima is kept). With groups (WMT23: one group per segment, the systems'
translations of it), one ε serves all groups and acc_eq is the mean over the groups that
have a pair.

Worked by hand: three translations, human MQM 0, 0, -5 and metric 0.5, 0.75, 0.
At ε = 0 the pairs are (1,2) T_h, (1,3) C, (2,3) C: acc_eq = 2/3. At ε = 0.25, pair
(1,2) becomes a metric tie, T_hm: 3/3. At ε = 0.5 pair (1,3) becomes T_m: 2/3; at
ε = 0.75 pair (2,3) too: 1/3. Calibration keeps ε = 0.25.

>>> accuracy_with_ties([0, 0, -5], [0.5, 0.75, 0.0])
Fraction(2, 3)
>>> r = tie_calibrated_accuracy([([0, 0, -5], [0.5, 0.75, 0.0])])
>>> r.accuracy, r.epsilon, r.counts
(1.0, 0.25, PairCounts(concordant=2, discordant=0, ties_human=0, ties_metric=0, ties_both=1))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

__all__ = [
    "PairCounts",
    "pair_counts",
    "accuracy_with_ties",
    "TieCalibration",
    "tie_calibrated_accuracy",
    "calibration_resamples",
]

Group = tuple[Sequence[float], Sequence[float]]  # (human scores, metric scores) of one group

_CHUNK = 50  # resamples at once (bounds the memory of the weighted pair matrix)


@dataclass(frozen=True)
class PairCounts:
    """How the pairs split into the five classes of Deutsch et al. (2023), Table 1.

    >>> PairCounts(3, 1, 1, 0, 1).accuracy
    Fraction(2, 3)
    """

    concordant: int
    discordant: int
    ties_human: int
    ties_metric: int
    ties_both: int

    @property
    def pairs(self) -> int:
        """All pairs: C + D + T_h + T_m + T_hm."""
        return self.concordant + self.discordant + self.ties_human + self.ties_metric + self.ties_both

    @property
    def accuracy(self) -> Fraction:
        """acc_eq = (C + T_hm) / all pairs, exact."""
        if self.pairs == 0:
            raise ValueError("pairs: no pair of translations, so pairwise accuracy is undefined")
        return Fraction(self.concordant + self.ties_both, self.pairs)

    def __add__(self, other: "PairCounts") -> "PairCounts":
        return PairCounts(self.concordant + other.concordant, self.discordant + other.discordant,
                          self.ties_human + other.ties_human, self.ties_metric + other.ties_metric,
                          self.ties_both + other.ties_both)


def _floats(values: Sequence[float], name: str) -> list[float]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise TypeError(f"{name}: expected a sequence of numbers, got {type(values).__name__}")
    try:
        out = [float(v) for v in values]
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers") from None
    if not all(math.isfinite(v) for v in out):
        raise ValueError(f"{name}: contains a value that is not a finite number")
    return out


def _checked(human: Sequence[float], metric: Sequence[float], k: int = 0) -> tuple[list[float], list[float]]:
    where = f" (group {k})" if k else ""
    h, m = _floats(human, "human"), _floats(metric, "metric")
    if len(h) != len(m):
        raise ValueError(f"metric: {len(m)} scores for {len(h)} human scores{where}; "
                         "give one of each per translation")
    return h, m


def _check_epsilon(epsilon: float) -> float:
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not epsilon >= 0 \
            or math.isinf(epsilon):
        raise ValueError(f"epsilon: expected a finite number >= 0, got {epsilon!r}")
    return float(epsilon)


def pair_counts(human: Sequence[float], metric: Sequence[float], epsilon: float = 0.0) -> PairCounts:
    """The five classes of every pair; the metric ties a pair when its scores differ by at most ``epsilon``.

    The humans tie a pair only when their scores are equal.

    >>> pair_counts([0, 0, -1, -5], [0.9, 0.8, 0.8, 0.1])
    PairCounts(concordant=4, discordant=0, ties_human=1, ties_metric=1, ties_both=0)
    >>> pair_counts([0, 0, -1, -5], [0.9, 0.8, 0.8, 0.1], epsilon=0.1)
    PairCounts(concordant=3, discordant=0, ties_human=0, ties_metric=2, ties_both=1)
    """
    h, m = _checked(human, metric)
    eps = _check_epsilon(epsilon)
    c = d = th = tm = thm = 0
    for (h1, m1), (h2, m2) in combinations(zip(h, m), 2):
        human_tie, metric_tie = h1 == h2, abs(m1 - m2) <= eps
        if human_tie and metric_tie:
            thm += 1
        elif human_tie:
            th += 1
        elif metric_tie:
            tm += 1
        elif (h1 > h2) == (m1 > m2):
            c += 1
        else:
            d += 1
    return PairCounts(c, d, th, tm, thm)


def accuracy_with_ties(human: Sequence[float], metric: Sequence[float], epsilon: float = 0.0) -> Fraction:
    """acc_eq of one group at a fixed ``epsilon`` (exact).

    >>> accuracy_with_ties([0, 0, -1, -5], [0.9, 0.8, 0.8, 0.1], epsilon=0.1)
    Fraction(2, 3)
    """
    return pair_counts(human, metric, epsilon).accuracy


@dataclass(frozen=True)
class TieCalibration:
    """The tie-calibrated pairwise accuracy: ``accuracy`` at the chosen ``epsilon``.

    ``accuracy`` is the mean of the groups' acc_eq; ``counts`` the pairs of all groups
    summed at ``epsilon``; ``n_groups`` the groups with at least one pair;
    ``n_thresholds`` the candidate values of ε that were tried.
    """

    accuracy: float
    epsilon: float
    n_groups: int
    n_thresholds: int
    counts: PairCounts


@dataclass(frozen=True)
class _Pairs:
    """Every pair of every group, ready for the sweep over ε (plain arrays)."""

    group: np.ndarray  # the group of each pair whose metric scores differ, sorted by that difference
    diff: np.ndarray  # |m_i - m_j| > 0, ascending
    delta: np.ndarray  # change of the group's credited pairs when the pair becomes a metric tie
    base: np.ndarray  # per group: credited pairs (C + T_hm) at ε = 0
    weight: np.ndarray  # per group: lcm / (pairs of the group), so that weight * credited is exact
    scale: int  # the lcm of the groups' numbers of pairs
    has_pairs: np.ndarray  # per group: at least one pair


def _group_pairs(g: int, h: list[float], m: list[float], rows: list[tuple[float, int, int]]) -> int:
    """Append group g's pairs whose metric scores differ to ``rows``; return its credited pairs at ε = 0."""
    credited = 0
    for (h1, m1), (h2, m2) in combinations(zip(h, m), 2):
        now = (h1 == h2) if m1 == m2 else (h1 != h2 and (h1 > h2) == (m1 > m2))
        credited += now
        if m1 != m2:  # as a metric tie, the pair is credited exactly when the humans tie it
            rows.append((abs(m1 - m2), g, (h1 == h2) - now))
    return credited


def _collect(groups: Sequence[Group]) -> _Pairs:
    if isinstance(groups, (str, bytes)) or not isinstance(groups, Sequence) or not groups:
        raise ValueError("groups: expected a non-empty list of (human scores, metric scores), one per group")
    rows: list[tuple[float, int, int]] = []
    base, sizes = [], []
    for g, group in enumerate(groups):
        if not isinstance(group, (tuple, list)) or len(group) != 2:
            raise TypeError(f"groups: item {g} is not a (human scores, metric scores) pair")
        h, m = _checked(group[0], group[1], g + 1)
        base.append(_group_pairs(g, h, m, rows))
        sizes.append(len(h) * (len(h) - 1) // 2)
    if not any(sizes):
        raise ValueError("groups: no group has two translations, so pairwise accuracy is undefined")
    return _arrays(rows, base, sizes)


def _arrays(rows: list[tuple[float, int, int]], base: list[int], sizes: list[int]) -> _Pairs:
    scale = math.lcm(*(s for s in sizes if s))
    rows.sort(key=lambda r: r[0])
    return _Pairs(np.array([r[1] for r in rows], dtype=np.int64),
                  np.array([r[0] for r in rows], dtype=np.float64),
                  np.array([r[2] for r in rows], dtype=np.int64), np.array(base, dtype=np.int64),
                  np.array([scale // s if s else 0 for s in sizes], dtype=np.int64), scale,
                  np.array([s > 0 for s in sizes]))


def _run_ends(diff: np.ndarray) -> np.ndarray:
    """Index of the last pair of each run of equal differences (ε = that difference ties the whole run)."""
    return np.flatnonzero(np.r_[diff[1:] != diff[:-1], True]) if diff.size else np.zeros(0, dtype=np.int64)


def tie_calibrated_accuracy(groups: Sequence[Group]) -> TieCalibration:
    """acc_eq with tie calibration: one ε for all groups, chosen to maximise the mean acc_eq.

    ``groups`` holds (human scores, metric scores) per group; WMT23 groups by segment
    (each group: the translations of one source sentence). Groups of one translation have
    no pair and are left out of the mean.

    Two groups, worked by hand. Group 1 (humans 0, -1; metric 0.5, 0.25) is concordant
    at any ε below 0.25; group 2 (humans 0, 0; metric 0.5, 0.75) is credited only from
    ε = 0.25, where group 1 becomes a metric tie: ε = 0 gives (1 + 0)/2, ε = 0.25 gives
    (0 + 1)/2, so the smallest, ε = 0, is kept.

    >>> r = tie_calibrated_accuracy([([0, -1], [0.5, 0.25]), ([0, 0], [0.5, 0.75])])
    >>> r.accuracy, r.epsilon, r.n_groups, r.n_thresholds
    (0.5, 0.0, 2, 2)
    """
    pairs = _collect(groups)
    ends = _run_ends(pairs.diff)
    step = pairs.weight[pairs.group] * pairs.delta
    totals = np.r_[0, np.cumsum(step)[ends]] + int(pairs.weight @ pairs.base)
    best = int(np.argmax(totals))  # the first maximum: the smallest epsilon
    epsilon = 0.0 if best == 0 else float(pairs.diff[ends[best - 1]])
    n_groups = int(pairs.has_pairs.sum())
    counts = sum((pair_counts(h, m, epsilon) for h, m in groups), PairCounts(0, 0, 0, 0, 0))
    accuracy = float(Fraction(int(totals[best]), pairs.scale * n_groups))
    return TieCalibration(accuracy, epsilon, n_groups, len(totals), counts)


def calibration_resamples(groups: Sequence[Group], counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tie-calibrated accuracy of every resample of the groups: (accuracies, epsilons).

    ``counts[r, g]`` says how often group g was drawn in resample r (a group drawn twice
    counts twice in the mean); ε is chosen afresh in every resample, as the statistic
    requires. Exact integer sums; the same rule as :func:`tie_calibrated_accuracy` on the
    resampled list of groups (``tests/study/test_tie_calibration.py`` checks them equal).

    >>> acc, eps = calibration_resamples([([0, -1], [0.5, 0.25]), ([0, 0], [0.5, 0.75])],
    ...                                  np.array([[1, 1], [0, 2], [2, 0]]))
    >>> acc.tolist(), eps.tolist()
    ([0.5, 1.0, 1.0], [0.0, 0.25, 0.0])
    """
    pairs = _collect(groups)
    c = np.asarray(counts, dtype=np.int64)
    if c.ndim != 2 or c.shape[1] != len(groups):
        raise ValueError(f"counts: expected one column per group ({len(groups)}), got shape {c.shape}")
    ends = _run_ends(pairs.diff)
    thresholds = np.r_[0.0, pairs.diff[ends]]
    step = pairs.weight[pairs.group] * pairs.delta
    base = c @ (pairs.weight * pairs.base)
    drawn_groups = c @ pairs.has_pairs.astype(np.int64)
    accuracies, epsilons = [], []
    for k in range(0, len(c), _CHUNK):
        part = c[k:k + _CHUNK]
        cumulative = np.cumsum(part[:, pairs.group] * step, axis=1)[:, ends]
        totals = np.concatenate([np.zeros((len(part), 1), dtype=np.int64), cumulative], axis=1)
        totals = totals + base[k:k + _CHUNK, None]
        best = np.argmax(totals, axis=1)
        chosen = totals[np.arange(len(part)), best]
        with np.errstate(divide="ignore", invalid="ignore"):
            accuracies.append(np.where(drawn_groups[k:k + _CHUNK] > 0,
                                       chosen / (pairs.scale * drawn_groups[k:k + _CHUNK]), np.nan))
        epsilons.append(thresholds[best])
    return np.concatenate(accuracies), np.concatenate(epsilons)

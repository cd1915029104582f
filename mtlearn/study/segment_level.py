"""Segment-level agreement of a metric with people: the three groupings of the WMT metrics task.

The scores of a test set form a matrix: ``human[s][i]`` and ``metric[s][i]`` score system
s's translation of item (segment) i. A segment-level correlation first decides which
scores it compares (Freitag et al. 2021, WMT21 metrics task; Deutsch, Foster & Freitag
2023, section 2; Google's ``mt-metrics-eval``, ``stats.Correlation``, ``average_by``):

* ``"none"`` -- no grouping: one correlation over all S × N scored translations;
* ``"system"`` -- group by system: one correlation per system over its N segments, averaged
  over the systems (does the metric know which of a system's sentences are bad?);
* ``"item"`` -- group by item: one correlation per segment over its S translations,
  averaged over the segments (does the metric pick the best translation of a sentence?).

A group whose human (or metric) scores are all equal has no correlation; it is left out
of the average and counted (``n_undefined``), as ``mt-metrics-eval`` does. The statistics
are :func:`~mtlearn.study.correlation.pearson` and Kendall's tau-b
(:func:`~mtlearn.study.correlation.kendall_tau`, ``variant="b"``, the default of
``scipy.stats.kendalltau`` and of ``mt-metrics-eval``'s ``Correlation.Kendall``).

Two systems, three segments, worked by hand. By item: segment 1 is concordant (tau 1),
segment 2 has tied human scores (no tau), segment 3 is concordant: the mean of the two
defined taus is 1. By system: system 1 orders its segments as the humans (tau 1); system 2
has one concordant and two discordant pairs, tau = (1 - 2)/3; the mean is 1/3.

>>> human = [[0, -1, -5], [-2, -1, 0]]
>>> metric = [[0.9, 0.5, 0.1], [0.4, 0.6, 0.2]]
>>> by_item = grouped_correlation(human, metric, "kendall", "item")
>>> by_item.value, by_item.n_groups, by_item.n_undefined
(1.0, 2, 1)
>>> round(grouped_correlation(human, metric, "kendall", "system").value, 6)
0.333333

:class:`SegmentResampler` recomputes any of these on bootstrap resamples of the *segments*
(each resample draws N segments with replacement; a segment drawn twice counts twice),
all at once with exact integer counts for Kendall: the percentile intervals of the
study's tables.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from mtlearn.study.correlation import BootstrapCI, bootstrap_counts, kendall_tau, pearson, percentile

__all__ = [
    "GROUPINGS",
    "STATISTICS",
    "GroupedCorrelation",
    "as_matrix",
    "grouped_correlation",
    "SegmentResampler",
    "interval",
    "bootstrap_grouped",
]

#: How the scores are grouped before correlating: all together, per system, per segment.
GROUPINGS: tuple[str, ...] = ("none", "system", "item")
#: The correlation statistics: Pearson's r and Kendall's tau-b.
STATISTICS: tuple[str, ...] = ("pearson", "kendall")

_CHUNK = 200  # resamples handled at once (bounds the memory of the weight matrices)


def _kendall_b(x: Sequence[float], y: Sequence[float]) -> float:
    return kendall_tau(x, y, variant="b")


_FUNCTIONS: dict[str, Callable[[Sequence[float], Sequence[float]], float]] = {
    "pearson": pearson, "kendall": _kendall_b}


@dataclass(frozen=True)
class GroupedCorrelation:
    """A segment-level correlation: ``value`` is the mean over the ``n_groups`` defined groups.

    ``n_undefined`` groups had all-equal human or metric scores and were left out.
    """

    statistic: str
    grouping: str
    value: float
    n_groups: int
    n_undefined: int


def _check_choice(value: object, choices: Sequence[str], name: str) -> str:
    if value not in choices:
        raise ValueError(f"{name}: unknown value {value!r}; choose one of {', '.join(choices)}")
    return str(value)


def as_matrix(scores: Sequence[Sequence[float]], name: str) -> np.ndarray:
    """Scores as a float matrix, one row per system, checked: rectangular, finite, at least 2 x 2.

    >>> as_matrix([[1, 2], [3, 4]], "human").shape
    (2, 2)
    >>> as_matrix([[1, 2], [3]], "human")
    Traceback (most recent call last):
    ...
    ValueError: human: row 1 has 1 scores, row 0 has 2; give every system a score for every segment
    """
    if isinstance(scores, (str, bytes)) or not isinstance(scores, (Sequence, np.ndarray)):
        raise TypeError(f"{name}: expected one row of scores per system, got {type(scores).__name__}")
    rows = [list(r) for r in scores]
    for k, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise ValueError(f"{name}: row {k} has {len(row)} scores, row 0 has {len(rows[0])}; "
                             "give every system a score for every segment")
    try:
        matrix = np.array(rows, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers") from None
    if matrix.ndim != 2 or matrix.shape[0] < 2 or matrix.shape[1] < 2:
        raise ValueError(f"{name}: {matrix.shape[0] if matrix.ndim else 0} system(s) x "
                         f"{matrix.shape[1] if matrix.ndim == 2 else 0} segment(s); every grouping needs "
                         "at least 2 of each")
    if not np.isfinite(matrix).all():
        raise ValueError(f"{name}: contains a value that is not a finite number")
    return matrix


def _pair(human: Sequence[Sequence[float]],
          metric: Sequence[Sequence[float]]) -> tuple[np.ndarray, np.ndarray]:
    h, m = as_matrix(human, "human"), as_matrix(metric, "metric")
    if h.shape != m.shape:
        raise ValueError(f"metric: {m.shape[0]} x {m.shape[1]} scores for {h.shape[0]} x {h.shape[1]} human "
                         "scores; they must score the same translations")
    return h, m


def _groups(h: np.ndarray, m: np.ndarray, grouping: str) -> list[tuple[list[float], list[float]]]:
    if grouping == "none":
        return [(h.ravel().tolist(), m.ravel().tolist())]
    if grouping == "system":
        return list(zip(h.tolist(), m.tolist()))
    return list(zip(h.T.tolist(), m.T.tolist()))


def grouped_correlation(human: Sequence[Sequence[float]], metric: Sequence[Sequence[float]],
                        statistic: str = "pearson", grouping: str = "none") -> GroupedCorrelation:
    """The correlation of ``metric`` with ``human`` under one grouping (rows: systems; columns: segments).

    >>> grouped_correlation([[0, -1], [-5, 0]], [[0.8, 0.6], [0.1, 0.7]], "pearson", "none").value > 0.9
    True
    """
    statistic = _check_choice(statistic, STATISTICS, "statistic")
    grouping = _check_choice(grouping, GROUPINGS, "grouping")
    h, m = _pair(human, metric)
    f = _FUNCTIONS[statistic]
    values, undefined = [], 0
    for hs, ms in _groups(h, m, grouping):
        try:
            values.append(f(hs, ms))
        except ValueError:  # all human or all metric scores of the group are equal
            undefined += 1
    if not values:
        raise ValueError(f"human: no {grouping!r} group has a defined {statistic} correlation "
                         "(all scores of every group are equal)")
    return GroupedCorrelation(statistic, grouping, math.fsum(values) / len(values), len(values), undefined)


# ----------------------------------------------------------------------------------- resampling


def _sign_products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """K[j, k] = sum over rows s, t of sign(a[s, j] - a[t, k]) * sign(b[s, j] - b[t, k]) (integers)."""
    n = a.shape[1]
    out = np.empty((n, n), dtype=np.float64)
    for j in range(n):
        da = np.sign(a[:, j][:, None, None] - a[None, :, :])
        db = np.sign(b[:, j][:, None, None] - b[None, :, :])
        out[j] = (da * db).sum(axis=(0, 1))
    return out


def _tied_pairs(values: np.ndarray, element_item: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per resample, the pairs of drawn elements with equal values: sum over values of W(W - 1)/2.

    Element e has value ``values[e]`` and belongs to item ``element_item[e]``; a resample
    weighs it by how often its item was drawn.
    """
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    weights = counts[:, element_item[order]].astype(np.float64)
    w = np.add.reduceat(weights, starts, axis=1)
    return (w * (w - 1)).sum(axis=1) / 2


def _kendall_from_counts(concordance: np.ndarray, pairs: np.ndarray, tied_h: np.ndarray,
                         tied_m: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        nx, ny = pairs - tied_h, pairs - tied_m
        return np.where((nx > 0) & (ny > 0), concordance / np.sqrt(nx * ny), np.nan)


def _all_equal(highs: np.ndarray, lows: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """Per resample (rows of ``drawn``), True when every drawn value is the same.

    ``highs[i]``/``lows[i]`` are the largest and smallest value of segment i.
    """
    high = np.where(drawn, highs[None, :], -np.inf).max(axis=1)
    low = np.where(drawn, lows[None, :], np.inf).min(axis=1)
    return high == low


class SegmentResampler:
    """Grouped correlations on bootstrap resamples of the segments, all resamples at once.

    ``counts[r, i]`` says how often segment i was drawn in resample r (rows of
    :func:`~mtlearn.study.correlation.bootstrap_counts`); one resampler serves every
    metric compared with the same ``human`` scores, so all metrics see the same resamples.
    ``values(metric, statistic, grouping)`` returns one value per resample, NaN where the
    resample has no defined correlation. The rules are those of :func:`grouped_correlation`
    on the resampled matrix (each drawn segment a column, repeated as often as drawn);
    ``tests/study/test_segment_level.py`` checks them equal on random data.

    Kendall without grouping: for the drawn multiset, C - D = 1/2 cᵀKc with
    K[j, k] = Σ_s,t sign(Δh) sign(Δm) between the translations of segments j and k (a
    translation compared with a copy of itself adds 0), and the tied pairs come from the
    drawn weight of each distinct value; all exact integers.

    >>> r = SegmentResampler([[0, -1, -5], [-2, -1, 0]], np.array([[1, 1, 1], [2, 0, 1]]))
    >>> r.values([[0.9, 0.5, 0.1], [0.4, 0.6, 0.2]], "kendall", "item").tolist()
    [1.0, 1.0]
    """

    def __init__(self, human: Sequence[Sequence[float]], counts: np.ndarray) -> None:
        self.human = as_matrix(human, "human")
        c = np.asarray(counts)
        if c.ndim != 2 or c.shape[1] != self.human.shape[1]:
            raise ValueError(f"counts: expected one column per segment ({self.human.shape[1]}), "
                             f"got shape {c.shape}")
        if (c < 0).any():
            raise ValueError("counts: a segment cannot be drawn a negative number of times")
        self.counts = c.astype(np.int64)
        s, n = self.human.shape
        self._element_item = np.tile(np.arange(n), s)  # the item of each element of human.ravel()
        self._cache: dict[tuple[str, str], np.ndarray] = {}

    # -- shared pieces that depend on the human scores only --------------------------------------

    def _human_tied(self, grouping: str) -> np.ndarray:
        key = ("tied", grouping)
        if key not in self._cache:
            if grouping == "none":
                self._cache[key] = self._tied_over_chunks(self.human.ravel(), self._element_item)
            else:  # one column per system
                idx = np.arange(self.human.shape[1])
                self._cache[key] = np.stack([self._tied_over_chunks(row, idx) for row in self.human], axis=1)
        return self._cache[key]

    def _tied_over_chunks(self, values: np.ndarray, element_item: np.ndarray) -> np.ndarray:
        return np.concatenate([_tied_pairs(values, element_item, self.counts[k:k + _CHUNK])
                               for k in range(0, len(self.counts), _CHUNK)])

    # -- the statistics -------------------------------------------------------------------------

    def values(self, metric: Sequence[Sequence[float]], statistic: str, grouping: str) -> np.ndarray:
        """One value per resample (NaN where undefined)."""
        statistic = _check_choice(statistic, STATISTICS, "statistic")
        grouping = _check_choice(grouping, GROUPINGS, "grouping")
        h, m = _pair(self.human, metric)
        if grouping == "item":
            return self._item(h, m, statistic)
        if statistic == "pearson":
            return self._pearson_none(h, m) if grouping == "none" else self._pearson_system(h, m)
        return self._kendall_none(m) if grouping == "none" else self._kendall_system(h, m)

    def _item(self, h: np.ndarray, m: np.ndarray, statistic: str) -> np.ndarray:
        f = _FUNCTIONS[statistic]
        per_item = np.full(h.shape[1], np.nan)
        for j in range(h.shape[1]):
            try:
                per_item[j] = f(h[:, j].tolist(), m[:, j].tolist())
            except ValueError:
                pass
        defined = ~np.isnan(per_item)
        c = self.counts.astype(np.float64)
        weight = c @ defined.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(weight > 0, (c @ np.where(defined, per_item, 0.0)) / weight, np.nan)

    def _pearson_none(self, h: np.ndarray, m: np.ndarray) -> np.ndarray:
        hc, mc = h - h.mean(), m - m.mean()  # centred: the sums below lose fewer digits
        c = self.counts.astype(np.float64)
        w = c.sum(axis=1) * h.shape[0]
        sh, sm = c @ hc.sum(0), c @ mc.sum(0)
        shh, smm, shm = c @ (hc * hc).sum(0), c @ (mc * mc).sum(0), c @ (hc * mc).sum(0)
        vh, vm, cov = shh - sh * sh / w, smm - sm * sm / w, shm - sh * sm / w
        drawn = self.counts > 0
        constant = _all_equal(h.max(0), h.min(0), drawn) | _all_equal(m.max(0), m.min(0), drawn)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.clip(cov / np.sqrt(vh * vm), -1.0, 1.0)
        return np.where(constant, np.nan, r)

    def _pearson_system(self, h: np.ndarray, m: np.ndarray) -> np.ndarray:
        c = self.counts.astype(np.float64)
        w = c.sum(axis=1)[:, None]
        hc, mc = h - h.mean(axis=1, keepdims=True), m - m.mean(axis=1, keepdims=True)
        sh, sm = c @ hc.T, c @ mc.T
        shh, smm, shm = c @ (hc * hc).T, c @ (mc * mc).T, c @ (hc * mc).T
        vh, vm, cov = shh - sh * sh / w, smm - sm * sm / w, shm - sh * sm / w
        drawn = self.counts > 0
        constant = np.stack([_all_equal(h[s], h[s], drawn) | _all_equal(m[s], m[s], drawn)
                             for s in range(h.shape[0])], axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(constant, np.nan, np.clip(cov / np.sqrt(vh * vm), -1.0, 1.0))
        return _nanmean_rows(r)

    def _kendall_none(self, m: np.ndarray) -> np.ndarray:
        k = _sign_products(self.human, m)
        c = self.counts.astype(np.float64)
        concordance = ((c @ k) * c).sum(axis=1) / 2
        size = c.sum(axis=1) * m.shape[0]
        pairs = size * (size - 1) / 2
        tied_m = self._tied_over_chunks(m.ravel(), self._element_item)
        return _kendall_from_counts(concordance, pairs, self._human_tied("none"), tied_m)

    def _kendall_system(self, h: np.ndarray, m: np.ndarray) -> np.ndarray:
        c = self.counts.astype(np.float64)
        size = c.sum(axis=1)
        pairs = size * (size - 1) / 2
        tied_h = self._human_tied("system")
        idx = np.arange(h.shape[1])
        taus = []
        for s in range(h.shape[0]):
            k = np.sign(h[s][:, None] - h[s][None, :]) * np.sign(m[s][:, None] - m[s][None, :])
            concordance = ((c @ k) * c).sum(axis=1) / 2
            tied_m = self._tied_over_chunks(m[s], idx)
            taus.append(_kendall_from_counts(concordance, pairs, tied_h[:, s], tied_m))
        return _nanmean_rows(np.stack(taus, axis=1))


def _nanmean_rows(values: np.ndarray) -> np.ndarray:
    """The mean of each row over its defined (non-NaN) entries; NaN where none is defined."""
    defined = ~np.isnan(values)
    n = defined.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, np.where(defined, values, 0.0).sum(axis=1) / n, np.nan)


def interval(estimate: float, samples: np.ndarray, *, level: float, seed: int) -> BootstrapCI:
    """A percentile interval from resampled values; NaN samples (undefined) are left out and counted.

    >>> ci = interval(0.5, np.array([0.0, 1.0, np.nan, 0.5]), level=0.5, seed=1)
    >>> ci.low, ci.high, ci.n_resamples, ci.n_valid
    (0.25, 0.75, 4, 3)
    """
    if not 0 < level < 1:
        raise ValueError(f"level: {level} is outside (0, 1)")
    valid = [float(v) for v in samples if not math.isnan(v)]
    if not valid:
        raise ValueError("samples: no resample gave a defined statistic")
    tail = (1 - level) / 2 * 100
    return BootstrapCI(float(estimate), percentile(valid, tail), percentile(valid, 100 - tail),
                       level, len(samples), len(valid), seed)


def bootstrap_grouped(human: Sequence[Sequence[float]], metric: Sequence[Sequence[float]],
                      statistic: str = "pearson", grouping: str = "none", *, n_resamples: int = 1000,
                      seed: int = 12345, level: float = 0.95) -> BootstrapCI:
    """:func:`grouped_correlation` with a percentile bootstrap interval, resampling segments.

    The draws are :func:`~mtlearn.study.correlation.bootstrap_counts` (``random.Random(seed)``).

    >>> human, metric = [[0, -1, -5, -2], [-2, -1, 0, -3]], [[0.9, 0.5, 0.1, 0.3], [0.4, 0.6, 0.8, 0.2]]
    >>> ci = bootstrap_grouped(human, metric, "pearson", "system", n_resamples=200, seed=1)
    >>> round(ci.estimate, 4), ci.low <= ci.estimate <= ci.high
    (0.9518, True)
    """
    estimate = grouped_correlation(human, metric, statistic, grouping).value
    h = as_matrix(human, "human")
    resampler = SegmentResampler(h, bootstrap_counts(h.shape[1], n_resamples, seed))
    return interval(estimate, resampler.values(metric, statistic, grouping), level=level, seed=seed)

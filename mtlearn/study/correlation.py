"""Correlation and significance statistics for asking "does the metric agree with people?".

Everything a meta-evaluation of BLEU and METEOR against human judgements needs,
written out so a student can read each formula:

* system level: :func:`pearson`, :func:`spearman` (Pearson of average ranks) and
  :func:`bootstrap_ci`, a percentile bootstrap interval that resamples *systems*;
* segment level: :func:`kendall_tau` (plain Kendall tau-b, or tau-a or tau-c, from the
  counts of :func:`kendall_counts`, O(n log n)) and :func:`wmt_kendall_like`, the
  WMT metrics task's "Kendall's tau-like" formulation over pairs of translations
  of the *same* segment (DARR: relative rankings derived from DA scores);
* significance between two systems: :func:`paired_bootstrap` (Koehn 2004) for a
  corpus metric, and :func:`rank_sum_test` (Wilcoxon rank-sum / Mann-Whitney U,
  the test WMT applies to human DA scores).

Randomness comes only from :class:`random.Random` seeded explicitly and used
through ``random()``, whose sequence Python guarantees across versions, so every
interval and p-value is reproducible to the last digit.

>>> human = [0.1, -0.3, 0.2, 0.0]
>>> metric = [0.30, 0.21, 0.35, 0.28]
>>> round(pearson(human, metric), 4), spearman(human, metric), kendall_tau(human, metric)
(0.984, 1.0, 1.0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from mtlearn.core.wording import plural

__all__ = [
    "pearson",
    "average_ranks",
    "spearman",
    "KendallCounts",
    "kendall_counts",
    "kendall_tau",
    "KendallLikeResult",
    "wmt_kendall_like",
    "percentile",
    "BootstrapCI",
    "bootstrap_ci",
    "bootstrap_counts",
    "resampled_scores",
    "PairedBootstrapResult",
    "paired_bootstrap_test",
    "paired_bootstrap",
    "RankSumResult",
    "rank_sum_test",
]


def _as_floats(values: object, argname: str) -> list[float]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{argname}: expected a sequence of numbers, got {type(values).__name__}")
    out = []
    for i, v in enumerate(values):
        # The common case, checked first (bootstraps call this often).
        if type(v) is float and math.isfinite(v):
            out.append(v)
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"{argname}: item {i} is {type(v).__name__} ({v!r}), expected a number")
        f = float(v)
        if math.isnan(f) or math.isinf(f):
            raise ValueError(f"{argname}: item {i} is {f}, expected a finite number")
        out.append(f)
    return out


def _paired(x: object, y: object, minimum: int = 2) -> tuple[list[float], list[float]]:
    xs, ys = _as_floats(x, "x"), _as_floats(y, "y")
    if len(xs) != len(ys):
        raise ValueError(f"y: {len(ys)} values for {len(xs)} values of x; they must be paired")
    if len(xs) < minimum:
        raise ValueError(f"x: {len(xs)} pairs; a correlation needs at least {minimum}")
    return xs, ys


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's product-moment correlation r of paired values.

    r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² Σ(y−ȳ)²), sums taken with :func:`math.fsum`.

    >>> pearson([1, 2, 3, 4], [2, 4, 6, 8])
    1.0
    >>> round(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 4)
    0.8
    >>> pearson([1, 1, 1], [1, 2, 3])
    Traceback (most recent call last):
    ...
    ValueError: x: all values are equal, so the correlation is undefined
    """
    xs, ys = _paired(x, y)
    n = len(xs)
    mx, my = math.fsum(xs) / n, math.fsum(ys) / n
    dx = [v - mx for v in xs]
    dy = [v - my for v in ys]
    sxx = math.fsum(d * d for d in dx)
    syy = math.fsum(d * d for d in dy)
    # Equal values are checked as values: the float mean of six 0.1s is not 0.1, so sxx is not 0.
    if sxx == 0.0 or len(set(xs)) == 1:
        raise ValueError("x: all values are equal, so the correlation is undefined")
    if syy == 0.0 or len(set(ys)) == 1:
        raise ValueError("y: all values are equal, so the correlation is undefined")
    r = math.fsum(a * b for a, b in zip(dx, dy)) / math.sqrt(sxx * syy)
    return max(-1.0, min(1.0, r))


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n, tied values sharing the average of the ranks they span.

    >>> average_ranks([10, 30, 20, 30])
    [1.0, 3.5, 2.0, 3.5]
    """
    xs = _as_floats(values, "values")
    order = sorted(range(len(xs)), key=xs.__getitem__)
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation ρ: Pearson's r of the average ranks.

    >>> spearman([1, 2, 3, 4], [1, 4, 9, 16])
    1.0
    >>> spearman([1, 2, 3], [3, 2, 1])
    -1.0
    """
    xs, ys = _paired(x, y)
    return pearson(average_ranks(xs), average_ranks(ys))


@dataclass(frozen=True)
class KendallCounts:
    """How the n(n−1)/2 pairs of items split: concordant, discordant, tied.

    ``ties_x`` are pairs tied in x only, ``ties_y`` in y only, ``ties_both`` in both.
    """

    n: int
    concordant: int
    discordant: int
    ties_x: int
    ties_y: int
    ties_both: int

    @property
    def pairs(self) -> int:
        """All pairs, n(n−1)/2."""
        return self.n * (self.n - 1) // 2


def _count_inversions(seq: list[float]) -> int:
    # Bottom-up merge sort counting pairs i < j with seq[i] > seq[j] (ties are not inversions).
    a = list(seq)
    n = len(a)
    inv = 0
    width = 1
    buf = [0.0] * n
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if a[j] < a[i]:
                    buf[k] = a[j]
                    inv += mid - i
                    j += 1
                else:
                    buf[k] = a[i]
                    i += 1
                k += 1
            buf[k:k + mid - i] = a[i:mid]
            k += mid - i
            buf[k:k + hi - j] = a[j:hi]
            a[lo:hi] = buf[lo:hi]
        width *= 2
    return inv


def _tied_pairs(values: Iterable) -> int:
    counts: dict = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return sum(c * (c - 1) // 2 for c in counts.values())


def kendall_counts(x: Sequence[float], y: Sequence[float]) -> KendallCounts:
    """Count concordant, discordant and tied pairs in O(n log n) (Knight 1966).

    Sort by (x, y); the pairs out of order in y are the discordant ones; ties
    are counted from value multiplicities.

    >>> kendall_counts([1, 2, 3, 4], [1, 3, 2, 2])
    KendallCounts(n=4, concordant=3, discordant=2, ties_x=0, ties_y=1, ties_both=0)
    """
    xs, ys = _paired(x, y, minimum=0)
    order = sorted(range(len(xs)), key=lambda i: (xs[i], ys[i]))
    discordant = _count_inversions([ys[i] for i in order])
    tx = _tied_pairs(xs)
    ty = _tied_pairs(ys)
    txy = _tied_pairs(zip(xs, ys))
    n = len(xs)
    total = n * (n - 1) // 2
    concordant = total - tx - ty + txy - discordant
    return KendallCounts(n, concordant, discordant, tx - txy, ty - txy, txy)


def kendall_tau(x: Sequence[float], y: Sequence[float], variant: str = "b") -> float:
    """Kendall's tau between x and y; ``variant`` "b" (default, as scipy), "a" or "c".

    tau-a = (C − D) / (n(n−1)/2); tau-b = (C − D) / √((P − T_x)(P − T_y)), with
    P all pairs and T_x, T_y the pairs tied in x (resp. y), ties in both included;
    tau-c (Stuart's) = 2(C − D) / (n²(m − 1)/m), m the smaller number of distinct
    values of x and of y. tau-b is the default of ``scipy.stats.kendalltau`` and of
    Google's ``mt-metrics-eval`` (``Correlation.Kendall``, used for the WMT metrics
    task's segment-level tables); ``mt-metrics-eval`` also offers tau-c, and Deutsch,
    Foster & Freitag (2023, "Ties Matter", EMNLP) compare both with pairwise accuracy.

    By hand for x = 1, 2, 3, 4 and y = 1, 3, 2, 2: the six pairs give C = 3
    ((1,2), (1,3), (1,4)), D = 2 ((2,3), (2,4)) and one tie in y ((3,4)); so tau-a =
    1/6, tau-b = 1/√(6 · 5), and with m = min(4, 3) = 3 distinct values tau-c =
    2 · 1 / (16 · 2/3) = 3/16.

    >>> round(kendall_tau([1, 2, 3, 4], [1, 3, 2, 2]), 4)
    0.1826
    >>> kendall_tau([1, 2, 3, 4], [1, 3, 2, 2], variant="a")
    0.16666666666666666
    >>> kendall_tau([1, 2, 3, 4], [1, 3, 2, 2], variant="c")
    0.1875
    >>> kendall_tau([1, 2], [3, 4], variant="d")
    Traceback (most recent call last):
    ...
    ValueError: variant: unknown value 'd'; choose one of a, b, c
    """
    if variant not in ("a", "b", "c"):
        raise ValueError(f"variant: unknown value {variant!r}; choose one of a, b, c")
    xs, ys = _paired(x, y)
    c = kendall_counts(xs, ys)
    if variant == "a":
        return (c.concordant - c.discordant) / c.pairs
    if variant == "c":
        m = min(len(set(xs)), len(set(ys)))
        if m < 2:
            which = "x" if len(set(xs)) < 2 else "y"
            raise ValueError(f"{which}: all values are equal, so tau-c is undefined")
        return 2 * (c.concordant - c.discordant) * m / (c.n * c.n * (m - 1))
    not_tied_x = c.pairs - c.ties_x - c.ties_both
    not_tied_y = c.pairs - c.ties_y - c.ties_both
    if not_tied_x == 0:
        raise ValueError("x: all values are equal, so tau-b is undefined")
    if not_tied_y == 0:
        raise ValueError("y: all values are equal, so tau-b is undefined")
    return (c.concordant - c.discordant) / math.sqrt(not_tied_x * not_tied_y)


@dataclass(frozen=True)
class KendallLikeResult:
    """WMT's tau-like = (Concordant − Discordant) / (Concordant + Discordant).

    ``metric_ties`` (already inside ``discordant``) are pairs the humans separate
    but the metric scores equally; ``human_close`` are pairs left out because the
    human scores differ by no more than the threshold.
    """

    tau: float
    concordant: int
    discordant: int
    metric_ties: int
    human_close: int
    threshold: float

    @property
    def pairs(self) -> int:
        """Pairs that count: Concordant + Discordant."""
        return self.concordant + self.discordant


def wmt_kendall_like(
    groups: Iterable[Sequence[tuple[float, float]]], *, threshold: float = 25.0
) -> KendallLikeResult:
    """The WMT metrics task's segment-level "Kendall's tau-like" correlation (DARR).

    ``groups`` holds one group per source segment: the (human, metric) scores of
    the different systems' translations of that segment. Within each group every
    pair of translations whose human scores differ by MORE than ``threshold``
    (WMT17–WMT19 used raw DA scores, 0–100, and 25 points) becomes a relative
    ranking; it is Concordant when the metric orders it as the humans did and
    Discordant otherwise — a metric tie counts as Discordant, as in WMT17–19.
    Pairs are pooled over all segments. (Google's mt-metrics-eval keeps pairs with
    a difference of *exactly* 25 too; the papers say "more than 25".)

    >>> wmt_kendall_like([[(90, 0.8), (40, 0.3), (70, 0.3)], [(10, 0.1), (80, 0.1)]])
    KendallLikeResult(tau=-0.3333333333333333, concordant=1, discordant=2, metric_ties=2, human_close=1, threshold=25.0)
    """  # noqa: E501
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or threshold < 0:
        raise ValueError(f"threshold: expected a number >= 0, got {threshold!r}")
    concordant = discordant = ties = close = 0
    for group in groups:
        items = [(float(h), float(m)) for h, m in group]
        for (h1, m1), (h2, m2) in combinations(items, 2):
            if abs(h1 - h2) <= threshold:
                close += 1
            elif m1 == m2:
                discordant += 1
                ties += 1
            elif (h1 > h2) == (m1 > m2):
                concordant += 1
            else:
                discordant += 1
    pairs = concordant + discordant
    if pairs == 0:
        raise ValueError(
            f"groups: no pair of translations of one segment has human scores more than "
            f"{threshold} apart, so tau-like is undefined"
        )
    return KendallLikeResult((concordant - discordant) / pairs, concordant, discordant, ties, close,
                             float(threshold))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100) with linear interpolation (numpy's default, type 7).

    >>> percentile([1, 2, 3, 4], 50), percentile([1, 2, 3, 4], 2.5)
    (2.5, 1.075)
    """
    xs = sorted(_as_floats(values, "values"))
    if not xs:
        raise ValueError("values: empty; a percentile needs at least one value")
    if not 0 <= q <= 100:
        raise ValueError(f"q: {q} is outside 0..100")
    h = (len(xs) - 1) * q / 100
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


@dataclass(frozen=True)
class BootstrapCI:
    """A statistic with its percentile bootstrap interval.

    ``n_valid`` resamples gave a defined statistic (a resample whose values are
    all equal has no correlation and is left out); ``low``/``high`` are the
    (1−level)/2 and (1+level)/2 percentiles of those.
    """

    estimate: float
    low: float
    high: float
    level: float
    n_resamples: int
    n_valid: int
    seed: int


def bootstrap_ci(
    statistic: Callable[[Sequence[float], Sequence[float]], float],
    x: Sequence[float],
    y: Sequence[float],
    *,
    n_resamples: int = 1000,
    seed: int = 12345,
    level: float = 0.95,
) -> BootstrapCI:
    """Percentile bootstrap interval for ``statistic(x, y)``, resampling the pairs.

    For a system-level correlation each pair is one system: a resample draws n
    systems with replacement (index ``int(random() * n)``), and the statistic is
    recomputed. Resamples where it is undefined (ValueError) are skipped and counted.

    >>> ci = bootstrap_ci(pearson, [1, 2, 3, 4, 5, 6], [1.2, 1.9, 3.4, 3.9, 5.2, 5.8], n_resamples=200)
    >>> round(ci.estimate, 4), ci.low <= ci.estimate <= ci.high, ci.n_valid
    (0.9927, True, 200)
    """
    xs, ys = _paired(x, y)
    if not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError(f"n_resamples: expected a positive integer, got {n_resamples!r}")
    if not 0 < level < 1:
        raise ValueError(f"level: {level} is outside (0, 1)")
    estimate = statistic(xs, ys)
    rng = random.Random(seed)
    n = len(xs)
    values = []
    for _ in range(n_resamples):
        idx = [int(rng.random() * n) for _ in range(n)]
        try:
            values.append(statistic([xs[i] for i in idx], [ys[i] for i in idx]))
        except ValueError:
            continue
    if not values:
        raise ValueError("x: no bootstrap resample gave a defined statistic")
    tail = (1 - level) / 2 * 100
    return BootstrapCI(estimate, percentile(values, tail), percentile(values, 100 - tail),
                       level, n_resamples, len(values), seed)


def bootstrap_counts(n_items: int, n_samples: int = 1000, seed: int = 12345) -> np.ndarray:
    """``n_samples`` bootstrap resamples of ``n_items`` segments, as counts.

    Row s, column i says how often segment i was drawn in resample s (each row
    sums to ``n_items``). Share one matrix between systems to make the bootstrap
    *paired*: both systems are scored on the very same resampled test sets.

    >>> bootstrap_counts(5, 3, seed=1).tolist()
    [[1, 1, 1, 1, 1], [2, 0, 1, 2, 0], [1, 0, 2, 1, 1]]
    """
    if not isinstance(n_items, int) or n_items < 1:
        raise ValueError(f"n_items: expected a positive integer, got {n_items!r}")
    if not isinstance(n_samples, int) or n_samples < 1:
        raise ValueError(f"n_samples: expected a positive integer, got {n_samples!r}")
    rng = random.Random(seed)
    counts = np.zeros((n_samples, n_items), dtype=np.int64)
    for s in range(n_samples):
        idx = [int(rng.random() * n_items) for _ in range(n_items)]
        counts[s] = np.bincount(idx, minlength=n_items)
    return counts


def resampled_scores(
    segment_stats: Sequence[Sequence[int]],
    counts: np.ndarray,
    score: Callable[[Sequence[int]], float],
) -> list[float]:
    """Corpus scores of every resample: sum the drawn segments' statistics, score once.

    ``segment_stats[i]`` is segment i's vector of integer sufficient statistics
    (for BLEU: matches and totals per order, lengths). Summing is exact
    (integer matrix product) so the result does not depend on summation order.

    >>> stats = [(1, 1), (0, 1), (1, 1)]          # (correct, total) per segment
    >>> resampled_scores(stats, bootstrap_counts(3, 2, seed=1), lambda s: s[0] / s[1])
    [1.0, 0.3333333333333333]
    """
    matrix = np.asarray(segment_stats, dtype=np.int64)
    if matrix.ndim != 2 or matrix.shape[0] != counts.shape[1]:
        raise ValueError(
            f"segment_stats: expected {counts.shape[1]} rows of statistics (one per segment), "
            f"got shape {matrix.shape}"
        )
    sums = counts @ matrix
    return [score(row) for row in sums.tolist()]


@dataclass(frozen=True)
class PairedBootstrapResult:
    """Koehn's (2004) paired bootstrap between systems A and B.

    ``delta`` = observed score(A) − score(B). ``wins`` is in how many resamples
    the observed winner stays strictly ahead; ``p_value`` = 1 − wins / n_samples
    (the share of resampled test sets on which the observed winner is not
    better; 1.0 when the observed scores are equal). Koehn calls the difference
    significant at 95% when the winner wins at least 95% of the resamples.
    """

    delta: float
    wins: int
    n_samples: int
    p_value: float


def paired_bootstrap_test(
    observed_a: float, observed_b: float, samples_a: Sequence[float], samples_b: Sequence[float]
) -> PairedBootstrapResult:
    """Koehn's decision from two systems' scores on the same resampled test sets.

    >>> paired_bootstrap_test(0.30, 0.25, [0.31, 0.29, 0.24, 0.30], [0.26, 0.25, 0.25, 0.22])
    PairedBootstrapResult(delta=0.04999999999999999, wins=3, n_samples=4, p_value=0.25)
    """
    if len(samples_a) != len(samples_b) or not samples_a:
        raise ValueError(
            f"samples_b: {plural(len(samples_b), 'resampled score')} for {len(samples_a)} of samples_a; "
            "they must come from the same non-empty set of resamples"
        )
    delta = observed_a - observed_b
    n = len(samples_a)
    if delta > 0:
        wins = sum(1 for a, b in zip(samples_a, samples_b) if a > b)
    elif delta < 0:
        wins = sum(1 for a, b in zip(samples_a, samples_b) if b > a)
    else:
        return PairedBootstrapResult(delta, 0, n, 1.0)
    return PairedBootstrapResult(delta, wins, n, (n - wins) / n)


def paired_bootstrap(
    stats_a: Sequence[Sequence[int]],
    stats_b: Sequence[Sequence[int]],
    score: Callable[[Sequence[int]], float],
    *,
    n_samples: int = 1000,
    seed: int = 12345,
) -> PairedBootstrapResult:
    """Paired bootstrap resampling (Koehn 2004) of a corpus metric between two systems.

    ``stats_a[i]``/``stats_b[i]`` are the sufficient statistics of the two systems'
    translations of segment i; ``score`` turns summed statistics into a corpus score.

    >>> a = [(1, 1)] * 8 + [(0, 1)] * 2      # system A: 8 of 10 segments right
    >>> b = [(1, 1)] * 5 + [(0, 1)] * 5      # system B: 5 of 10
    >>> r = paired_bootstrap(a, b, lambda s: s[0] / s[1], n_samples=1000, seed=7)
    >>> round(r.delta, 2), r.p_value < 0.1
    (0.3, True)
    """
    if len(stats_a) != len(stats_b):
        raise ValueError(
            f"stats_b: {plural(len(stats_b), 'segment')} for {len(stats_a)} of stats_a; "
            "both systems must translate the same test set"
        )
    if len(stats_a) == 0:
        raise ValueError("stats_a: no segments")
    counts = bootstrap_counts(len(stats_a), n_samples, seed)
    total_a = [sum(col) for col in zip(*stats_a)]
    total_b = [sum(col) for col in zip(*stats_b)]
    return paired_bootstrap_test(
        score(total_a), score(total_b),
        resampled_scores(stats_a, counts, score), resampled_scores(stats_b, counts, score),
    )


@dataclass(frozen=True)
class RankSumResult:
    """Wilcoxon rank-sum (Mann–Whitney U) test of sample a against sample b.

    ``u`` is U of a (pairs a_i > b_j, ties counting 1/2); ``z`` the normal
    approximation with tie and continuity correction; ``p_value`` for
    ``alternative`` ("greater": a tends to be larger than b).
    """

    u: float
    z: float
    p_value: float
    alternative: str
    n_a: int
    n_b: int


def rank_sum_test(a: Sequence[float], b: Sequence[float], alternative: str = "greater") -> RankSumResult:
    """Wilcoxon rank-sum / Mann–Whitney U test, normal approximation (as R and scipy for large n).

    U_a = R_a − n_a(n_a+1)/2 with R_a the sum of a's average ranks in the pooled
    sample; mean n_a n_b / 2; variance n_a n_b / 12 · ((n+1) − Σ(t³−t)/(n(n−1)))
    over tie groups of size t; a continuity correction of 1/2 towards the mean.
    WMT compares the segment-level DA scores of two systems this way (one-sided).

    >>> r = rank_sum_test([3, 4, 5, 6, 7], [1, 2, 3, 4, 2])
    >>> r.u, round(r.z, 4), round(r.p_value, 4)
    (23.0, 2.1082, 0.0175)
    """
    xa, xb = _as_floats(a, "a"), _as_floats(b, "b")
    if not xa:
        raise ValueError("a: empty sample")
    if not xb:
        raise ValueError("b: empty sample")
    if alternative not in ("greater", "less", "two-sided"):
        raise ValueError(f"alternative: unknown value {alternative!r}; "
                         "choose one of greater, less, two-sided")
    na, nb = len(xa), len(xb)
    n = na + nb
    ranks = average_ranks(xa + xb)
    u = math.fsum(ranks[:na]) - na * (na + 1) / 2
    mean = na * nb / 2
    counts: dict[float, int] = {}
    for v in xa + xb:
        counts[v] = counts.get(v, 0) + 1
    tie_term = sum(t ** 3 - t for t in counts.values())
    var = na * nb / 12 * ((n + 1) - tie_term / (n * (n - 1))) if n > 1 else 0.0
    if var <= 0:
        raise ValueError("a: all values in a and b are equal; the rank-sum test is undefined")
    sd = math.sqrt(var)
    if alternative == "greater":
        z = (u - mean - 0.5) / sd
        p = 0.5 * math.erfc(z / math.sqrt(2))
    elif alternative == "less":
        z = (u - mean + 0.5) / sd
        p = 0.5 * math.erfc(-z / math.sqrt(2))
    else:
        z = (abs(u - mean) - 0.5) / sd
        p = min(1.0, math.erfc(z / math.sqrt(2)))
    return RankSumResult(u, z, p, alternative, na, nb)

"""Is system B's score really different from the baseline's? sacreBLEU's paired tests, on mtlearn's statistics.

Two tests, each between a *baseline* and every other system, exactly as
``sacrebleu --paired-bs`` and ``sacrebleu --paired-ar`` run them
(``sacrebleu/significance.py``, sacreBLEU 2.x):

* **paired bootstrap resampling** (``test="bs"``, 1,000 samples; Koehn 2004 as
  sacreBLEU phrases it): draw ``n_samples`` test sets of the same size *with
  replacement* (``numpy.random.default_rng(seed).choice``), score baseline and
  system on each one, and ask how often the resampled absolute difference, centred
  on its mean, exceeds the observed one;
* **paired approximate randomisation** (``test="ar"``, 10,000 trials; Riezler and
  Maxwell 2005): in each trial swap the two systems' translations of every segment
  with probability 1/2 (``default_rng(seed).integers(2, ...)``) and ask how often
  the two shuffled systems differ by more than the observed difference.

Both give p = (c + 1) / (n + 1), c the number of samples (trials) beyond the
observed difference (strictly: an observed difference of 0 is never "by chance",
so a system compared with itself gets p = 1/(n + 1), as in sacreBLEU and
multeval). A system is marked significant (``*``) when p <= 0.05, sacreBLEU's
rule. The bootstrap also gives every system's mean over the samples and the
half-width of the 95% interval (the 2.5th and 97.5th percentiles of the sorted
samples: positions n//40 and n - n//40 - 1).

Nothing is re-tokenized: every segment is reduced once to its sufficient
statistics (BLEU's :class:`~mtlearn.metrics.bleu.stats.BleuStats`, chrF's
:class:`~mtlearn.metrics.chrf.score.ChrfStats`, METEOR's four counts, TER's edits and
reference length), a sample's
statistics are the sum of its segments' (exact integer sums), and one function
turns summed statistics into a score. The seed is sacreBLEU's default (its
``SACREBLEU_SEED``, 12345), and every system is compared with the same draws, so
p-values equal sacreBLEU's to the last digit (``tests/test_significance.py``,
WMT22 de-en). The bootstrap means and half-widths agree within 1e-5 on sacreBLEU's 0-100
scale (measured on de-en: BLEU 1e-8 to 2e-7, chrF up to 4e-6, TER up to 3e-6): sacreBLEU sums the
resampled statistics as ``float32`` and so computes each sample's score in single
precision; mtlearn keeps double precision. TER is lower-is-better; both tests compare
*absolute* differences (sacreBLEU's ``abs(...)``), so which direction is better changes no
p-value. sacreBLEU's optional bootstrap interval
for the randomisation test (``n_ar_confidence``, off on its command line) is not offered. Differences from sacreBLEU:
``seed=0`` is a seed here (sacreBLEU treats 0 as "no seed" for the systems), and
scores are on mtlearn's 0-1 scale (sacreBLEU prints 100 times the number).

A worked example: three segments, a baseline, an identical copy and a worse system.

>>> refs = [["the cat sat on the mat"], ["a dog barked"], ["it rained all day"]]
>>> base = ["the cat sat on the mat", "a dog barked loudly", "it rained all day"]
>>> worse = ["the cat on mat", "dog", "all day it rained"]
>>> r = paired_test({"base": base, "copy": base, "worse": worse}, refs, metric="chrf", n_samples=100)
>>> [(s.name, round(s.score, 4), s.p_value) for s in r.systems]
[('base', 0.9647, None), ('copy', 0.9647, 0.009900990099009901), ('worse', 0.4758, 0.009900990099009901)]
>>> print(r.explain())
Paired bootstrap resampling, chrF2, 100 samples, seed 12345: each system against the baseline 'base'
system  chrF2 (mean ± 95% CI)     p-value
base    0.9647 (0.9628 ± 0.0707)
copy    0.9647 (0.9628 ± 0.0707)  (p = 0.0099)*
worse   0.4758 (0.4659 ± 0.1838)  (p = 0.0099)*
* p <= 0.05: the difference from the baseline is unlikely to be chance (a difference, not "better").
copy: the same score as the baseline; the strict rule gives p = 1/(n + 1), not a real difference.

The copy of the baseline is "significant": sacreBLEU counts only resampled
differences *strictly* beyond the observed one, and none is beyond 0. Read the
mark together with the difference of the scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
import warnings
from typing import Any, Optional, Union

import numpy as np

from mtlearn.metrics.bleu.score import corpus_bleu
from mtlearn.metrics.bleu.score import resampling_scorer as _bleu_scorer
from mtlearn.metrics.bleu.stats import BleuStats
from mtlearn.metrics.chrf.score import chrf_from_stats, corpus_chrf, ChrfStats
from mtlearn.metrics.meteor.score import corpus_meteor, meteor_from_stats
from mtlearn.metrics.meteor.formulas import score_from_counts
from mtlearn.metrics.ter.score import TerStats, corpus_ter
from mtlearn.core.references import ReferenceLayoutWarning, check_reference_layout, warn_ambiguous_layout

__all__ = [
    "TESTS",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "SIGNIFICANCE_LEVEL",
    "SystemTest",
    "PairedTestResult",
    "bootstrap_indices",
    "resample_sums",
    "estimate_ci",
    "p_value",
    "bootstrap_p_value",
    "approximate_randomization_p_value",
    "resampling_scorer",
    "segment_statistics",
    "paired_test_from_stats",
    "paired_test",
]

#: The two tests: ``"bs"`` paired bootstrap resampling, ``"ar"`` paired approximate randomisation.
TESTS: tuple[str, ...] = ("bs", "ar")
#: sacreBLEU's defaults: 1,000 bootstrap samples, 10,000 randomisation trials.
DEFAULT_SAMPLES: dict[str, int] = {"bs": 1000, "ar": 10000}
#: sacreBLEU's default seed (its environment variable ``SACREBLEU_SEED``).
DEFAULT_SEED = 12345
#: sacreBLEU marks a system with ``*`` when p <= this.
SIGNIFICANCE_LEVEL = 0.05

METRICS: tuple[str, ...] = ("bleu", "chrf", "meteor", "ter")
_TEST_NAMES = {"bs": "Paired bootstrap resampling", "ar": "Paired approximate randomization"}
_CHUNK = 1000  # randomisation trials summed at once (bounds the memory of the swap matrix)
_FEW_ORDERS = 32  # chrF orders up to which a paired test keeps every column

Scorer = Callable[[np.ndarray], np.ndarray]


# --------------------------------------------------------------------------- the steps


def _check_count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name}: expected a positive whole number, got {value!r}")
    return int(value)


def _check_seed(seed: object) -> Optional[int]:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed: expected a whole number >= 0 or None (no seed), got {seed!r}")
    return None if seed is None else int(seed)


def bootstrap_indices(n_segments: int, n_samples: int = 1000, seed: Optional[int] = DEFAULT_SEED) -> np.ndarray:
    """The segments drawn by each bootstrap sample: sacreBLEU's ``rng.choice(n, size=(n_samples, n))``.

    Row s lists the ``n_segments`` segment numbers of sample s, drawn with
    replacement by ``numpy.random.default_rng(seed)``. The same seed gives the same
    rows to every system, which is what makes the bootstrap *paired*.

    >>> bootstrap_indices(4, 3, seed=12345).tolist()
    [[2, 0, 3, 1], [0, 3, 2, 2], [3, 1, 3, 1]]
    """
    n_segments, n_samples = _check_count(n_segments, "n_segments"), _check_count(n_samples, "n_samples")
    rng = np.random.default_rng(_check_seed(seed))
    return rng.choice(n_segments, size=(n_samples, n_segments), replace=True)


def resample_sums(stats: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Each sample's summed statistics: row s = the sum of ``stats[i]`` over the segments i of sample s.

    Exact integer sums (how often each segment was drawn, times its statistics).

    >>> stats = np.array([[1, 1], [0, 1], [1, 1]])      # (correct, total) per segment
    >>> resample_sums(stats, np.array([[0, 0, 1], [2, 2, 2]])).tolist()
    [[2, 3], [3, 3]]
    """
    stats = np.asarray(stats, dtype=np.int64)
    n_samples, n_segments = indices.shape
    if stats.ndim != 2 or stats.shape[0] != n_segments:
        raise ValueError(f"stats: expected {n_segments} rows (one per segment), got shape {stats.shape}")
    offsets = (np.arange(n_samples, dtype=np.int64) * n_segments)[:, None]
    counts = np.bincount((indices + offsets).ravel(), minlength=n_samples * n_segments)
    return counts.reshape(n_samples, n_segments) @ stats


def estimate_ci(samples: Sequence[float]) -> tuple[float, float]:
    """sacreBLEU's ``estimate_ci``: the mean of the samples and the half-width of their 95% interval.

    The samples are sorted; the interval runs from position n//40 to n - n//40 - 1
    (the 2.5th and 97.5th percentiles), and its half-width is reported as "±".

    >>> estimate_ci([float(v) for v in range(80)])   # positions 2 and 77
    (39.5, 37.5)
    """
    ordered = np.sort(np.asarray(samples, dtype=np.float64))
    if ordered.size == 0:
        raise ValueError("samples: no scores to summarise")
    lower = ordered.size // 40
    upper = ordered.size - lower - 1
    return float(ordered.mean()), float(0.5 * (ordered[upper] - ordered[lower]))


def p_value(statistics: Sequence[float], observed: float) -> float:
    """p = (c + 1) / (n + 1), c the number of the n sampled statistics strictly above ``observed``.

    The +1s keep the chance of wrongly rejecting at most the level of the test;
    "strictly" means an observed difference of 0 is never attributed to chance.

    >>> p_value([0.1, 0.5, 0.2, 0.9], 0.3)   # two of four above: (2 + 1) / 5
    0.6
    """
    values = np.asarray(statistics, dtype=np.float64)
    return (int(np.sum(values > observed)) + 1) / (values.size + 1)


def bootstrap_p_value(observed_baseline: float, observed_system: float,
                      samples_baseline: Sequence[float], samples_system: Sequence[float]) -> float:
    """The paired bootstrap's p-value from both systems' scores on the same samples.

    The resampled absolute differences are centred on their mean (the null
    hypothesis: no difference) and compared with the observed absolute difference.

    >>> bootstrap_p_value(0.30, 0.25, [0.31, 0.29, 0.24, 0.30], [0.26, 0.25, 0.25, 0.22])
    0.2
    """
    base = np.asarray(samples_baseline, dtype=np.float64)
    system = np.asarray(samples_system, dtype=np.float64)
    if base.shape != system.shape or base.size == 0:
        raise ValueError(f"samples_system: {system.size} scores for {base.size} of samples_baseline; "
                         "they must come from the same non-empty set of samples")
    differences = np.abs(system - base)
    return p_value(differences - differences.mean(), abs(observed_baseline - observed_system))


def approximate_randomization_p_value(baseline: np.ndarray, system: np.ndarray, score: Scorer, *,
                                      n_trials: int = 10000, seed: Optional[int] = DEFAULT_SEED,
                                      observed: Optional[tuple[float, float]] = None) -> float:
    """Paired approximate randomisation, as ``sacrebleu --paired-ar``.

    ``baseline[i]`` and ``system[i]`` are the two systems' statistics of segment i.
    Trial t swaps segment i between the systems when ``swap[t, i]`` is true, with
    ``swap = default_rng(seed).integers(2, size=(n_trials, n), dtype=bool)``; p is
    the share of trials (with the +1s of :func:`p_value`) whose two shuffled systems
    differ by more than the observed ``|score(baseline) - score(system)|``.

    >>> a = np.array([[v, 1] for v in (1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1)])   # 9 of 12 right
    >>> b = np.array([[v, 1] for v in (1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0)])   # 5 of 12 right
    >>> accuracy = lambda sums: sums[:, 0] / sums[:, 1]        # (right, total) summed -> accuracy
    >>> approximate_randomization_p_value(a, b, accuracy, n_trials=1000)
    0.02197802197802198
    """
    base = np.asarray(baseline, dtype=np.int64)
    other = np.asarray(system, dtype=np.int64)
    if base.shape != other.shape or base.ndim != 2:
        raise ValueError(f"system: statistics of shape {other.shape} for {base.shape} of the baseline; "
                         "both systems must translate the same segments")
    n_trials = _check_count(n_trials, "n_trials")
    rng = np.random.default_rng(_check_seed(seed))
    swap = rng.integers(2, size=(n_trials, base.shape[0]), dtype=bool)
    total_base, total_other = base.sum(0), other.sum(0)
    if observed is None:
        observed = (float(score(total_base[None, :])[0]), float(score(total_other[None, :])[0]))
    delta = (base - other).astype(np.float64)  # exact: integers far below 2**53
    both = total_base + total_other
    gaps = []
    for start in range(0, n_trials, _CHUNK):
        # pseudo-system A takes the baseline's segment where swap is true, the system's elsewhere
        shuffled_a = np.rint(swap[start:start + _CHUNK].astype(np.float64) @ delta).astype(np.int64) + total_other
        gaps.append(np.abs(score(shuffled_a) - score(both - shuffled_a)))
    return p_value(np.concatenate(gaps), abs(observed[0] - observed[1]))


# --------------------------------------------------------------------------- scores of summed statistics


def _chrf_scorer(char_order: int = 6, word_order: int = 0, beta: float = 2.0,
                 eps_smoothing: bool = False, **_signature_only: Any) -> Scorer:
    """Summed chrF statistics (sacreBLEU's layout c_1, r_1, m_1, c_2, ...) to scores (0-1)."""
    def scores(sums: np.ndarray) -> np.ndarray:
        if eps_smoothing:
            return np.array([chrf_from_stats(ChrfStats.from_row(row, char_order, word_order), beta=beta,
                                             eps_smoothing=True).score for row in sums.tolist()])
        return _chrf_vectorized(sums, beta)

    return scores


def _chrf_vectorized(sums: np.ndarray, beta: float) -> np.ndarray:
    """chrF (effective order, sacreBLEU's default) of many summed statistics at once.

    The same rule as ``chrf_from_stats`` (tests/test_significance.py proves them equal on random sums):
    P and R averaged over the orders both sides have n-grams of, then F_beta of the averages.
    """
    cand, ref, matched = (sums[:, j::3].astype(np.float64) for j in range(3))
    used = (cand > 0) & (ref > 0)
    n_used = used.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(used, matched / np.where(cand > 0, cand, 1.0), 0.0).sum(axis=1)
        r = np.where(used, matched / np.where(ref > 0, ref, 1.0), 0.0).sum(axis=1)
        p, r = np.where(n_used > 0, p / np.maximum(n_used, 1), 0.0), np.where(n_used > 0, r / np.maximum(n_used, 1), 0.0)
        b2 = float(beta) ** 2
        denominator = b2 * p + r
        return np.where(denominator > 0, (1 + b2) * p * r / np.where(denominator > 0, denominator, 1.0), 0.0)


def _meteor_scorer(alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5, **_signature_only: Any) -> Scorer:
    """Summed METEOR counts (m, w_t, w_r, chunks) to scores: ``score_from_counts`` for every sample."""
    alpha, beta, gamma = float(alpha), float(beta), float(gamma)

    def scores(sums: np.ndarray) -> np.ndarray:
        return np.array([score_from_counts(m, wt, wr, ch, alpha, beta, gamma) for m, wt, wr, ch in sums.tolist()],
                        dtype=np.float64)

    return scores


def _ter_scorer(**_signature_only: Any) -> Scorer:
    """Summed TER statistics (edits, reference length, both times the same whole number) to scores (0-1).

    sacreBLEU's rule (``ter_from_stats``): edits / length; with length 0, 1 if there are edits, else 0.
    """
    def scores(sums: np.ndarray) -> np.ndarray:
        edits, length = sums[:, 0].astype(np.float64), sums[:, 1].astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(length > 0, edits / np.where(length > 0, length, 1.0), (edits > 0).astype(np.float64))

    return scores


_SCORERS: dict[str, Callable[..., Scorer]] = {"bleu": _bleu_scorer, "chrf": _chrf_scorer, "meteor": _meteor_scorer,
                                              "ter": _ter_scorer}
_SCORER_OPTIONS = {
    "bleu": ("max_order", "weights", "smoothing", "smooth_value", "effective_order"),
    "chrf": ("char_order", "word_order", "beta", "eps_smoothing"),
    "meteor": ("alpha", "beta", "gamma"),
    "ter": (),
}


def _check_metric(metric: object) -> str:
    if metric not in METRICS:
        raise ValueError(f"metric: unknown value {metric!r}; choose one of {', '.join(METRICS)}")
    return str(metric)


def resampling_scorer(metric: str, **options: Any) -> Scorer:
    """The function from a matrix of summed statistics (one sample a row) to the samples' scores (0-1).

    ``options`` are the metric's scoring options (those of ``bleu_from_stats``,
    ``chrf_from_stats``, ``meteor_from_stats``); tokenizer and case options are
    accepted and ignored (they were used when counting).

    >>> row = np.array([[2, 6, 2, 1, 2, 1, 2, 1]])       # c, r, matches, totals, NLTK totals (2 orders)
    >>> resampling_scorer("bleu", max_order=2)(row).round(4).tolist()
    [0.1353]
    """
    metric = _check_metric(metric)
    wanted = {k: v for k, v in options.items() if k in _SCORER_OPTIONS[metric]}
    if metric == "meteor":
        meteor_from_stats([], **wanted)
    return _SCORERS[metric](**wanted)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class SystemTest:
    """One row of a paired test: a system's score, its bootstrap mean and interval, its p-value.

    ``ci`` is the half-width of the 95% interval around ``mean`` (bootstrap only);
    ``p_value`` is ``None`` for the baseline. Scores on mtlearn's 0-1 scale.

    >>> row = SystemTest("B", 0.3325, 0.3325, 0.0089, 0.3536, False)
    >>> row.significant, row.mark, round(row.low, 4), round(row.high, 4)
    (False, '', 0.3236, 0.3414)
    """

    name: str
    score: float
    mean: Optional[float]
    ci: Optional[float]
    p_value: Optional[float]
    baseline: bool

    @property
    def significant(self) -> bool:
        """p <= 0.05 (sacreBLEU's rule); never for the baseline."""
        return self.p_value is not None and self.p_value <= SIGNIFICANCE_LEVEL

    @property
    def mark(self) -> str:
        """``"*"`` when significant, as sacreBLEU marks it."""
        return "*" if self.significant else ""

    @property
    def low(self) -> Optional[float]:
        """mean - ci, the lower end of the 95% interval (bootstrap only)."""
        return None if self.mean is None or self.ci is None else self.mean - self.ci

    @property
    def high(self) -> Optional[float]:
        """mean + ci, the upper end of the 95% interval (bootstrap only)."""
        return None if self.mean is None or self.ci is None else self.mean + self.ci

    def to_dict(self) -> dict[str, Any]:
        """The row as plain data (sacreBLEU's JSON fields, plus the mark).

        >>> SystemTest("A", 0.5, None, None, None, True).to_dict()["p_value"] is None
        True
        """
        return {"system": self.name, "baseline": self.baseline, "score": self.score, "mean": self.mean,
                "ci": self.ci, "p_value": self.p_value, "significant": self.significant}


@dataclass(frozen=True)
class PairedTestResult:
    """The outcome of :func:`paired_test`: the baseline first, then every system against it.

    ``metric`` is ``"bleu"``, ``"chrf"``, ``"meteor"`` or ``"ter"`` and ``metric_name`` its
    printed name (``"BLEU"``, ``"chrF2"``, ``"chrF2++"``, ``"METEOR"``, ``"TER"``); ``test`` is
    ``"bs"`` or ``"ar"``; ``seed`` ``None`` means unseeded. ``scale`` is how the
    text shows the scores (100 for BLEU, as ``mtlearn bleu`` and sacreBLEU; 1 for
    chrF, METEOR and TER, as ``mtlearn chrf``/``meteor``/``ter``).
    """

    metric: str
    metric_name: str
    test: str
    n_samples: int
    seed: Optional[int]
    signature: str
    systems: tuple[SystemTest, ...]
    scale: int = 1

    @property
    def baseline(self) -> SystemTest:
        """The row of the baseline."""
        return self.systems[0]

    def system(self, name: str) -> SystemTest:
        """The row of the system called ``name``."""
        for row in self.systems:
            if row.name == name:
                return row
        raise KeyError(f"name: no system {name!r}; the systems are {', '.join(s.name for s in self.systems)}")

    def explain(self) -> str:
        """The table as sacreBLEU prints it (score, mean ± 95% CI for the bootstrap, p-value, ``*``)."""
        digits = 2 if self.scale == 100 else 4
        width = max(len("system"), *(len(s.name) for s in self.systems))
        bootstrap = self.test == "bs"

        def number(value: float) -> str:
            return f"{self.scale * value:.{digits}f}"

        header = f"{self.metric_name}" + (" (mean ± 95% CI)" if bootstrap else "")
        seed = "no seed" if self.seed is None else f"seed {self.seed}"
        unit = "samples" if bootstrap else "trials"
        lines = [f"{_TEST_NAMES[self.test]}, {self.metric_name}, {self.n_samples} {unit}, {seed}: "
                 f"each system against the baseline {self.baseline.name!r}"]
        cells = []
        for s in self.systems:
            cell = number(s.score)
            if s.mean is not None and s.ci is not None:
                cell += f" ({number(s.mean)} ± {number(s.ci)})"
            cells.append(cell)
        cell_width = max(len(header), *(len(c) for c in cells))
        lines.append(f"{'system':<{width}}  {header:<{cell_width}}  p-value")
        for s, cell in zip(self.systems, cells):
            p = "" if s.p_value is None else f"(p = {s.p_value:.4f}){s.mark}"
            lines.append(f"{s.name:<{width}}  {cell:<{cell_width}}  {p}".rstrip())
        lines.append('* p <= 0.05: the difference from the baseline is unlikely to be chance (a difference, '
                     'not "better").')
        lines += [f"{s.name}: the same score as the baseline; the strict rule gives p = 1/(n + 1), "
                  "not a real difference." for s in self.systems[1:] if s.score == self.baseline.score]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: the settings and one dict per system (scores on the 0-1 scale).

        >>> r = paired_test({"a": ["x y"], "b": ["x z"]}, [["x y"]], metric="chrf", n_samples=10)
        >>> d = r.to_dict(); d["test"], d["n_samples"], [s["system"] for s in d["systems"]]
        ('bs', 10, ['a', 'b'])
        """
        return {"metric": self.metric, "metric_name": self.metric_name, "test": self.test,
                "n_samples": self.n_samples, "seed": self.seed, "signature": self.signature,
                "significance_level": SIGNIFICANCE_LEVEL, "systems": [s.to_dict() for s in self.systems]}


# --------------------------------------------------------------------------- the tests


def _check_test(test: object, n_samples: object) -> tuple[str, int]:
    if test not in TESTS:
        raise ValueError(f"test: unknown value {test!r}; choose 'bs' (paired bootstrap) or 'ar' "
                         "(approximate randomization)")
    n = DEFAULT_SAMPLES[str(test)] if n_samples is None else _check_count(n_samples, "n_samples")
    return str(test), n


def _check_stats(stats: Mapping[str, Any]) -> dict[str, np.ndarray]:
    if not isinstance(stats, Mapping):
        raise TypeError(f"stats: expected a mapping of system name to statistics, got {type(stats).__name__}")
    if len(stats) < 2:
        raise ValueError(f"stats: {len(stats)} system(s); a paired test needs a baseline and at least one "
                         "system to compare with it")
    out = {str(name): np.asarray(rows, dtype=np.int64) for name, rows in stats.items()}
    first_name, first = next(iter(out.items()))
    if first.ndim != 2 or first.shape[0] == 0:
        raise ValueError(f"stats: {first_name!r} has statistics of shape {first.shape}; expected one row "
                         "per segment")
    for name, rows in out.items():
        if rows.shape != first.shape:
            raise ValueError(f"stats: {name!r} has statistics of shape {rows.shape} but the baseline "
                             f"{first_name!r} has {first.shape}; all systems must translate the same segments")
    return out


def paired_test_from_stats(
    stats: Mapping[str, Any],
    score: Scorer,
    *,
    test: str = "bs",
    n_samples: Optional[int] = None,
    seed: Optional[int] = DEFAULT_SEED,
    observed: Optional[Mapping[str, float]] = None,
    metric: str = "",
    metric_name: str = "score",
    signature: str = "",
    scale: int = 1,
    progress: Optional[Callable[[str], None]] = None,
) -> PairedTestResult:
    """The paired test on per-segment statistics: the first system of ``stats`` is the baseline.

    ``stats[name][i]`` is system ``name``'s vector of integer statistics of segment
    i; ``score`` turns a matrix of summed statistics (a row per sample) into scores;
    ``observed`` gives the systems' actual scores (default: ``score`` of their sums).
    ``n_samples`` defaults to 1,000 (``"bs"``) or 10,000 (``"ar"``). ``progress``, if
    given, is called with a short message before each system.

    >>> accuracy = lambda sums: sums[:, 0] / sums[:, 1]       # (right, total) summed -> accuracy
    >>> a = [[v, 1] for v in (1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1)]   # 9 of 12 right
    >>> b = [[v, 1] for v in (1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0)]   # 5 of 12 right
    >>> r = paired_test_from_stats({"A": a, "B": b}, accuracy)
    >>> r.system("B").p_value, r.system("B").significant, r.baseline.mean, r.baseline.ci
    (0.01098901098901099, True, 0.7525, 0.25)
    """
    test, n = _check_test(test, n_samples)
    seed = _check_seed(seed)
    matrices = _check_stats(stats)
    names = list(matrices)
    if observed is None:
        observed = {k: float(score(m.sum(0)[None, :])[0]) for k, m in matrices.items()}
    base_name = names[0]
    base = matrices[base_name]
    rows = []
    if test == "bs":
        indices = bootstrap_indices(base.shape[0], n, seed)
        base_samples = score(resample_sums(base, indices))
        mean, ci = estimate_ci(base_samples)
        rows.append(SystemTest(base_name, observed[base_name], mean, ci, None, True))
    else:
        rows.append(SystemTest(base_name, observed[base_name], None, None, None, True))
    for name in names[1:]:
        if progress is not None:
            progress(f"{name} against {base_name} ({n} {'samples' if test == 'bs' else 'trials'})")
        if test == "bs":
            samples = score(resample_sums(matrices[name], indices))
            mean, ci = estimate_ci(samples)
            p = bootstrap_p_value(observed[base_name], observed[name], base_samples, samples)
            rows.append(SystemTest(name, observed[name], mean, ci, p, False))
        else:
            p = approximate_randomization_p_value(base, matrices[name], score, n_trials=n, seed=seed,
                                                  observed=(observed[base_name], observed[name]))
            rows.append(SystemTest(name, observed[name], None, None, p, False))
    suffix = f"|seed:{'none' if seed is None else seed}|{test}:{n}"
    return PairedTestResult(metric, metric_name, test, n, seed, signature + suffix if signature else suffix[1:],
                            tuple(rows), scale)


def segment_statistics(result: Any, orders: Optional[int] = None) -> np.ndarray:
    """The per-segment statistics of a corpus result of ``corpus_bleu``, ``corpus_chrf``, ``corpus_meteor`` or ``corpus_ter``.

    One row per segment: BLEU ``c, r, matches..., totals..., NLTK totals...``; chrF
    sacreBLEU's ``c_1, r_1, m_1, c_2, ...``; METEOR ``m, w_t, w_r, chunks``; TER
    ``edits, reference length``, both multiplied by the least common multiple of the
    numbers of references (an average length of 7/2 is kept exactly as a whole number).

    BLEU keeps, by default, every order counted; ``orders`` keeps the first ones only (a paired
    test gives all systems the same number). ``max_order`` is at most
    :data:`~mtlearn.metrics.bleu.options.MAX_ORDER` (4096), so a row has at most 3 x 4096 + 2 numbers.

    >>> segment_statistics(corpus_chrf(["ab"], [["ab"]], char_order=2)).tolist()
    [[2, 2, 2, 1, 1, 1]]
    >>> segment_statistics(corpus_bleu(["a b"], [["a b"]], max_order=3)).tolist()   # c, r, 3 orders each
    [[2, 2, 2, 1, 0, 2, 1, 0, 2, 1, 1]]
    >>> segment_statistics(corpus_ter(["a b", "c"], [["a b", "a"], ["c d"]])).tolist()  # lengths 3/2 and 2, x 2
    [[0, 3], [2, 4]]
    """
    segments = getattr(result, "segments", None)
    if segments is None or not hasattr(segments, "stats"):
        raise TypeError(f"result: expected a corpus result of corpus_bleu, corpus_chrf, corpus_meteor or corpus_ter, "
                        f"got {type(result).__name__}")
    stats = segments.stats()
    first = stats[0] if stats else None
    if isinstance(first, BleuStats):
        rows = _bleu_rows(stats, _bleu_width(stats) if orders is None else orders)
    elif isinstance(first, TerStats):
        rows = _ter_rows(stats)
    elif isinstance(first, ChrfStats):
        rows = [[v for triple in s.triples for v in triple] for s in stats]
    else:
        rows = [[s.matches, s.candidate_length, s.reference_length, s.chunks] for s in stats]
    return np.array(rows, dtype=np.int64)


def _bleu_rows(stats: Sequence[BleuStats], k: int) -> list[list[int]]:
    """c, r and the first ``k`` orders' matches, totals and NLTK totals of every segment."""
    return [[s.candidate_length, s.reference_length, *s.matches[:k], *s.totals[:k], *s.nltk_totals[:k]]
            for s in stats]


def _ter_rows(stats: Sequence[TerStats]) -> list[list[int]]:
    """Edits and average reference length of every segment, both times the same whole number (exact)."""
    scale = _common_denominator(s.ref_length for s in stats)
    return [[s.edits * scale, int(s.ref_length * scale)] for s in stats]


def _bleu_width(stats: Sequence[BleuStats]) -> int:
    """Orders to keep: every order counted."""
    return len(stats[0].matches)


def _common_denominator(values: Any) -> int:
    """The least common multiple of the denominators of some fractions (1 for whole numbers)."""
    scale = 1
    for v in values:
        scale = np.lcm(scale, v.denominator).item()
    return int(scale)


def _live_chrf_orders(matrices: Sequence[np.ndarray]) -> np.ndarray:
    """The chrF orders that can enter a sample's average: some segment has candidate n-grams and some reference ones.

    An order without candidate n-grams in every segment (or without reference n-grams) has
    none in any sample either, so it is left out of every sample's average (effective order):
    dropping its columns changes no score (a high ``char_order`` on short lines).
    """
    live = np.zeros(matrices[0].shape[1] // 3, dtype=bool)
    for m in matrices:
        live |= (m[:, 0::3] > 0).any(axis=0) & (m[:, 1::3] > 0).any(axis=0)
    if not live.any():
        live[0] = True  # nothing on both sides anywhere: one order keeps the shape (score 0)
    return np.repeat(live, 3)


_CORPUS = {"bleu": corpus_bleu, "chrf": corpus_chrf, "meteor": corpus_meteor, "ter": corpus_ter}
_DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    "bleu": {"tokenize": "13a", "smoothing": "exp"},  # sacreBLEU's, as `mtlearn bleu` on the command line
    "chrf": {},
    "meteor": {},
    "ter": {},
}


def _metric_name(metric: str, result: Any) -> str:
    if metric == "chrf":
        return f"chrF{result.beta:g}" + "+" * result.word_order
    return metric.upper()


def _statistics(metric: str, results: Mapping[str, Any], settings: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Every system's per-segment statistics, all with the same columns.

    BLEU keeps the orders stored in any system (the rest are alike); chrF without
    ``eps_smoothing`` and with many orders drops those no sample can use (see
    :func:`_live_chrf_orders`; with few orders every column stays, so that the sums over the
    orders are added up exactly as before, bit for bit).
    """
    orders = None
    if metric == "bleu":
        orders = max(_bleu_width(r.segments.stats()) for r in results.values())
    stats = {name: segment_statistics(r, orders) for name, r in results.items()}
    n_orders = next(iter(stats.values())).shape[1] // 3
    if metric == "chrf" and not settings.get("eps_smoothing") and n_orders > _FEW_ORDERS:
        live = _live_chrf_orders(list(stats.values()))
        stats = {name: m[:, live] for name, m in stats.items()}
    return stats


def _check_references(references: Any, n: int) -> None:
    """A paired test's references: one list per segment (a lone string would count its characters as segments)."""
    layout = check_reference_layout([""] * n, references, call="paired_test")
    if layout.layout == "single-string":
        raise TypeError(f"references: one string, but a paired test needs one list of references per segment "
                        f"({n} here): paired_test(systems, [[ref_a, ref_b], ...])")
    if not isinstance(references, Sequence):
        raise TypeError(f"references: expected one list of references per segment, got {type(references).__name__}")
    if not layout.ok and layout.layout != "lengths-disagree":
        raise ValueError(layout.message.replace("paired_test(candidates, ", "paired_test(systems, "))


def _named_systems(systems: Any) -> dict[str, list[str]]:
    if isinstance(systems, Mapping):
        items = list(systems.items())
    elif isinstance(systems, Sequence) and not isinstance(systems, str):
        items = list(systems)
        if not all(isinstance(it, (tuple, list)) and len(it) == 2 and isinstance(it[0], str) for it in items):
            raise TypeError("systems: expected a mapping of name to hypotheses, or a list of (name, hypotheses)")
    else:
        raise TypeError(f"systems: expected a mapping of name to hypotheses, got {type(systems).__name__}")
    named: dict[str, list[str]] = {}
    for name, hyps in items:
        if name in named:
            raise ValueError(f"systems: the name {name!r} is given twice")
        if isinstance(hyps, str) or not isinstance(hyps, Sequence):
            raise TypeError(f"systems: {name!r} must be a list of hypotheses (one string per segment)")
        named[str(name)] = list(hyps)
    if len(named) < 2:
        raise ValueError(f"systems: {len(named)} system(s); a paired test needs a baseline and at least one "
                         "system to compare with it")
    return named


def paired_test(
    systems: Union[Mapping[str, Sequence[str]], Sequence[tuple[str, Sequence[str]]]],
    references: Sequence[Sequence[str]],
    *,
    metric: str = "bleu",
    test: str = "bs",
    n_samples: Optional[int] = None,
    seed: Optional[int] = DEFAULT_SEED,
    progress: Optional[Callable[[str], None]] = None,
    **options: Any,
) -> PairedTestResult:
    """sacreBLEU's paired significance test between a baseline (the first system) and every other system.

    ``systems`` maps names to hypotheses (one string per segment), the baseline
    first; ``references[i]`` lists the references of segment i, as for
    ``corpus_bleu`` (a square call, as many reference lists as segments each as long,
    warns once when its two readings give the baseline different scores; a lone string is
    refused). ``metric`` is ``"bleu"``, ``"chrf"``, ``"meteor"`` or ``"ter"``; ``options``
    are that metric's options (BLEU defaults to sacreBLEU's ``tokenize="13a"``,
    ``smoothing="exp"``, as ``mtlearn bleu`` on the command line). ``test`` is
    ``"bs"`` (paired bootstrap, 1,000 samples) or ``"ar"`` (approximate
    randomisation, 10,000 trials); ``n_samples`` overrides the number. ``seed`` is
    sacreBLEU's 12345 by default, ``None`` for no seed.

    >>> refs = [["the cat sat on the mat"], ["a dog barked"], ["it rained all day"]]
    >>> r = paired_test({"base": ["the cat sat on the mat", "a dog barked", "it rained all day"],
    ...                  "other": ["the cat sat on a mat", "the dog barked", "it rained all the day"]},
    ...                 refs, test="ar", n_samples=1000)
    >>> r.metric_name, round(100 * r.system("other").score, 2), r.system("other").p_value
    ('BLEU', 42.34, 0.000999000999000999)

    Three segments allow only 2^3 = 8 different swaps, and none of them separates
    the two systems by more than the observed difference, so p is the smallest
    the test can give, 1 / (1000 + 1): a test set this small proves little else.
    """
    metric = _check_metric(metric)
    test, n = _check_test(test, n_samples)
    named = _named_systems(systems)
    settings = {**_DEFAULT_OPTIONS[metric], **options}
    score = resampling_scorer(metric, **settings)
    _check_references(references, len(next(iter(named.values()))))
    results = {}
    for name, hyps in named.items():
        if progress is not None:
            progress(f"scoring {name} ({metric})")
        if len(hyps) != len(references):
            raise ValueError(f"systems: {name!r} has {len(hyps)} hypotheses for {len(references)} segments "
                             "of references; every system must translate the same segments")
        with warnings.catch_warnings():  # the layout is checked once, above and below, not once per system
            warnings.simplefilter("ignore", ReferenceLayoutWarning)
            results[name] = _CORPUS[metric](hyps, references, **settings)
    _warn_if_ambiguous(metric, named, references, results, settings)
    first = next(iter(results.values()))
    signature = first.signature
    return paired_test_from_stats(
        _statistics(metric, results, settings), score, test=test, n_samples=n, seed=seed,
        observed={name: r.score for name, r in results.items()}, metric=metric,
        metric_name=_metric_name(metric, first), signature=signature, scale=100 if metric == "bleu" else 1,
        progress=progress,
    )


def _warn_if_ambiguous(metric: str, named: Mapping[str, Sequence[str]], references: Any,
                       results: Mapping[str, Any], settings: Mapping[str, Any]) -> None:
    """A square call (as many reference lists as segments, each as long): the baseline scored both ways, once."""
    base_name = next(iter(named))
    base = named[base_name]

    def rescore(refs: list) -> float:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ReferenceLayoutWarning)
            return float(_CORPUS[metric](base, refs, **settings).score)

    warn_ambiguous_layout(base, references, float(results[base_name].score), rescore, call="paired_test", stacklevel=4)

"""The resampling engine of sacreBLEU's paired tests: the draws, the sums, the interval and the p-values.

Nothing here knows a metric: statistics are integer matrices (a row per segment), and a *scorer*
turns a matrix of summed statistics (a row per sample) into the samples' scores. The draws are
sacreBLEU's (``numpy.random.default_rng(seed)``), so the same seed gives its samples.

>>> stats = np.array([[1, 1], [0, 1], [1, 1]])                  # (right, total) per segment
>>> sums = resample_sums(stats, bootstrap_indices(3, 4, seed=1))
>>> sums.tolist(), estimate_ci(sums[:, 0] / sums[:, 1])
([[1, 3], [3, 3], [3, 3], [2, 3]], (0.75, 0.33333333333333337))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Optional

import numpy as np

#: The two tests: ``"bs"`` paired bootstrap resampling, ``"ar"`` paired approximate randomisation.
TESTS: tuple[str, ...] = ("bs", "ar")
#: sacreBLEU's defaults: 1,000 bootstrap samples, 10,000 randomisation trials.
DEFAULT_SAMPLES: dict[str, int] = {"bs": 1000, "ar": 10000}
#: sacreBLEU's default seed (its environment variable ``SACREBLEU_SEED``).
DEFAULT_SEED = 12345
#: sacreBLEU marks a system with ``*`` when p <= this.
SIGNIFICANCE_LEVEL = 0.05
_CHUNK = 1000  # randomisation trials summed at once (bounds the memory of the swap matrix)

Scorer = Callable[[np.ndarray], np.ndarray]


def _check_count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name}: expected a positive whole number, got {value!r}")
    return int(value)


def _check_seed(seed: object) -> Optional[int]:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed: expected a whole number >= 0 or None (no seed), got {seed!r}")
    return None if seed is None else int(seed)


def bootstrap_indices(n_segments: int, n_samples: int = 1000,
                      seed: Optional[int] = DEFAULT_SEED) -> np.ndarray:
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
        swapped = np.rint(swap[start:start + _CHUNK].astype(np.float64) @ delta).astype(np.int64)
        shuffled_a = swapped + total_other
        gaps.append(np.abs(score(shuffled_a) - score(both - shuffled_a)))
    return p_value(np.concatenate(gaps), abs(observed[0] - observed[1]))

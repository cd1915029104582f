"""``--confidence``: sacreBLEU's bootstrap confidence interval for one system's corpus score.

sacreBLEU's ``--confidence`` (``sacrebleu/significance.py``, ``_bootstrap_resample``)
draws ``n`` test sets of the same size with replacement
(``numpy.random.default_rng(seed).choice(n_segments, size=(n, n_segments))``), scores
each from its summed segment statistics, and reports the mean of the ``n`` scores and
the half-width of their 95% interval (positions ``n//40`` and ``n - n//40 - 1`` of the
sorted scores): ``BLEU = 25.03 (μ = 24.91 ± 6.27)``. The seed is sacreBLEU's default,
12345 (its ``SACREBLEU_SEED``; ``none`` draws fresh randomness each run).

Here the same draws and the same rule run on mtlearn's segment statistics, through
the steps of :mod:`mtlearn.study.significance` (the paired tests' own). The means
and half-widths agree with sacreBLEU's on WMT22 de-en within 1e-5 on the 0-100 scale
(sacreBLEU sums the resampled statistics in single precision, mtlearn in double).

>>> from mtlearn import corpus_chrf
>>> refs = [["the cat sat on the mat"], ["a dog barked"], ["it rained all day"], ["we went home"]]
>>> result = corpus_chrf(["the cat sat on a mat", "a dog", "it rained", "we went home"], refs)
>>> c = bootstrap_confidence("chrf", result, {}, n_samples=200, seed=12345)
>>> round(result.score, 4), round(c.mean, 4), round(c.ci, 4), c.signature_suffix
(0.6165, 0.6003, 0.2662, '|seed:12345|bs:200')

(``sacrebleu.metrics.CHRF().corpus_score(..., n_bootstrap=200)`` gives 61.65, μ = 60.03 ± 26.62.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from mtlearn.tools.cli.io import EXIT_USAGE, CommandLineError

__all__ = ["MAX_DRAWS", "Confidence", "bootstrap_confidence", "confidence_metrics"]

#: The most segment draws one interval may take (samples x segments): 50 million, about 0.4 GB per copy.
MAX_DRAWS = 50_000_000


@dataclass(frozen=True)
class Confidence:
    """A bootstrap interval: ``mean`` of the resampled scores, ``ci`` the half-width of their 95% interval.

    Both on mtlearn's 0-1 scale; ``n_samples`` test sets drawn with ``seed`` (None: unseeded).

    >>> c = Confidence(0.2491, 0.0627, 1000, 12345)
    >>> round(c.low, 4), round(c.high, 4), c.to_dict(100)["mean"]
    (0.1864, 0.3118, 24.91)
    """

    mean: float
    ci: float
    n_samples: int
    seed: Optional[int]

    @property
    def low(self) -> float:
        """mean - ci, the lower end of the 95% interval."""
        return self.mean - self.ci

    @property
    def high(self) -> float:
        """mean + ci, the upper end of the 95% interval."""
        return self.mean + self.ci

    @property
    def signature_suffix(self) -> str:
        """What the bootstrap adds to a signature (as ``mtlearn compare``): ``|seed:12345|bs:1000``."""
        return f"|seed:{'none' if self.seed is None else self.seed}|bs:{self.n_samples}"

    def to_dict(self, scale: int) -> dict[str, Any]:
        """Plain data for JSON: mean, half-width and ends on ``scale``, the number of samples and the seed."""
        return {"mean": scale * self.mean, "ci": scale * self.ci, "low": scale * self.low,
                "high": scale * self.high, "n_samples": self.n_samples, "seed": self.seed}


def confidence_metrics() -> tuple[str, ...]:
    """The metrics whose segment statistics the bootstrap can resample (those of the paired tests).

    >>> "bleu" in confidence_metrics(), "wer" in confidence_metrics()
    (True, False)
    """
    from mtlearn.study import significance

    return tuple(significance.METRICS)


def bootstrap_confidence(metric: str, result: Any, options: dict[str, Any], n_samples: int,
                         seed: Optional[int]) -> Confidence:
    """sacreBLEU's ``--confidence`` on a corpus ``result`` of ``metric`` scored with ``options``.

    A metric the bootstrap cannot resample, or more draws than :data:`MAX_DRAWS`, is a
    :class:`~mtlearn.tools.cli.io.CommandLineError` naming the option.
    """
    from mtlearn.study import significance

    if metric not in confidence_metrics():
        raise CommandLineError(f"--confidence: not available for {metric}; it is for "
                               f"{', '.join(confidence_metrics())}", EXIT_USAGE)
    stats = significance.segment_statistics(result)
    draws = n_samples * len(stats)
    if draws > MAX_DRAWS:
        raise CommandLineError(f"--confidence: {n_samples} samples of {len(stats)} segments are {draws:,} "
                               f"draws, more than {MAX_DRAWS:,}; give fewer with --confidence-n", EXIT_USAGE)
    indices = significance.bootstrap_indices(len(stats), n_samples, seed)
    samples = significance.resampling_scorer(metric, **options)(significance.resample_sums(stats, indices))
    mean, ci = significance.estimate_ci(samples)
    return Confidence(mean, ci, n_samples, seed)

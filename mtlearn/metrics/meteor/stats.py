"""METEOR's sufficient statistics: four counts per segment, summed over a corpus, and the score they give.

A segment is reduced to :class:`MeteorStats` (matches m, candidate length w_t, reference length
w_r, chunks c, against its best reference); a corpus sums them (the Spanish Wikipedia article *METEOR*) and
:func:`numbers` applies the formula steps of :mod:`mtlearn.metrics.meteor.formulas` once
(:func:`mtlearn.metrics.meteor.score.meteor_from_stats` is that as a result);
:func:`corpus_score_from_stats` is the score alone, fast, for resampling.

>>> total = sum_stats([MeteorStats(6, 6, 6, 6), MeteorStats(6, 6, 6, 1)])
>>> total, numbers(total, MeteorOptions())["penalty"]
(MeteorStats(matches=12, candidate_length=12, reference_length=12, chunks=7), Fraction(343, 3456))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional

from mtlearn.metrics.meteor.fast import score_from_counts
from mtlearn.metrics.meteor.formulas import (
    f_mean,
    fragmentation,
    fragmentation_penalty,
    meteor_score_value,
    precision,
    recall,
)
from mtlearn.metrics.meteor.options import DEFAULTS, MeteorOptions

__all__ = ["MeteorStats", "sum_stats", "numbers", "reason_of", "arithmetic", "corpus_score_from_stats"]


@dataclass(frozen=True)
class MeteorStats:
    """A segment's sufficient statistics: METEOR needs only these four counts.

    They add up over a corpus (the Spanish Wikipedia article *METEOR*), so a corpus score is one call of
    the formulas on the sums.

    >>> MeteorStats(6, 6, 6, 6) + MeteorStats(6, 7, 6, 2)
    MeteorStats(matches=12, candidate_length=13, reference_length=12, chunks=8)
    """

    matches: int
    candidate_length: int
    reference_length: int
    chunks: int

    def __add__(self, other: "MeteorStats") -> "MeteorStats":
        return MeteorStats(
            self.matches + other.matches,
            self.candidate_length + other.candidate_length,
            self.reference_length + other.reference_length,
            self.chunks + other.chunks,
        )


def sum_stats(stats: Iterable[MeteorStats]) -> MeteorStats:
    """The counts of many segments added up (zeros for none)."""
    total = MeteorStats(0, 0, 0, 0)
    for s in stats:
        total = total + s
    return total


def numbers(stats: MeteorStats, opts: MeteorOptions) -> dict[str, Any]:
    """A result's numbers from the four counts, through the formula steps of notebook 04.

    >>> numbers(MeteorStats(6, 7, 6, 2), MeteorOptions())["f_mean"]
    Fraction(60, 61)
    """
    p = precision(stats.matches, stats.candidate_length)
    r = recall(stats.matches, stats.reference_length)
    f = f_mean(p, r, opts.alpha)
    frag = fragmentation(stats.chunks, stats.matches)
    pen = fragmentation_penalty(stats.chunks, stats.matches, opts.beta, opts.gamma)
    value = meteor_score_value(f, pen)
    return dict(
        precision=p, recall=r, f_mean=f, fragmentation=frag, penalty=pen,
        score=float(value), score_exact=value if isinstance(value, Fraction) else None,
    )


def reason_of(stats: MeteorStats, corpus: bool) -> Optional[str]:
    """Why the score is a defined 0 (nothing to compare, nothing matched), else ``None``.

    >>> reason_of(MeteorStats(0, 0, 4, 0), corpus=False)
    'empty candidate: no words to match, METEOR is defined as 0'
    """
    what = "corpus" if corpus else "candidate"
    if stats.candidate_length == 0 and stats.reference_length == 0:
        return f"empty {what} and reference: nothing to compare, METEOR is defined as 0"
    if stats.candidate_length == 0:
        return f"empty {what}: no words to match, METEOR is defined as 0"
    if stats.reference_length == 0:
        return "empty reference: no words to match, METEOR is defined as 0"
    if stats.matches == 0:
        return "no candidate word matches the reference at any stage: P = R = 0, METEOR is 0"
    return None


def arithmetic(opts: MeteorOptions) -> dict[str, Any]:
    """Which arithmetic the penalty is computed in, and why when it is not exact.

    >>> arithmetic(MeteorOptions()), arithmetic(MeteorOptions(beta=0.2))["penalty_arithmetic"]
    ({'penalty_arithmetic': 'exact', 'penalty_note': None}, 'float')
    """
    note = opts.penalty_note
    return dict(penalty_arithmetic="exact" if note is None else "float", penalty_note=note)


def corpus_score_from_stats(
    stats: Sequence[MeteorStats], indices: Optional[Iterable[int]] = None, *,
    alpha: float = DEFAULTS.alpha, beta: float = DEFAULTS.beta, gamma: float = DEFAULTS.gamma,
) -> float:
    """The corpus score of ``stats`` (or of ``stats[k]`` for ``k`` in ``indices``), fast:
    :func:`~mtlearn.metrics.meteor.fast.score_from_counts` of the sums.

    Made for resampling: a bootstrap draws ``indices`` with replacement and calls
    this thousands of times; it only sums four integers per segment. Parameters
    are not checked here (check them once, e.g. with :class:`~mtlearn.metrics.meteor.options.MeteorOptions`).

    >>> stats = [MeteorStats(6, 6, 6, 6), MeteorStats(6, 6, 6, 1)]
    >>> corpus_score_from_stats(stats), corpus_score_from_stats(stats, [1, 1])
    (0.9007523148148148, 0.9976851851851852)
    """
    m = wt = wr = c = 0
    chosen = stats if indices is None else (stats[k] for k in indices)
    for s in chosen:
        m += s.matches
        wt += s.candidate_length
        wr += s.reference_length
        c += s.chunks
    return score_from_counts(m, wt, wr, c, float(alpha), float(beta), float(gamma))

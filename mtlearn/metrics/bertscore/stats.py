"""BERTScore's sufficient statistics: the sums of the segments' P, R and F1, and how many segments.

A corpus's BERTScore is the mean of its segments' scores (the ``bert-score`` package returns one score per
segment; papers report their mean), so the sums and the count are all a bootstrap needs.

>>> s = sum_stats([BertScoreStats(0.9, 0.8, 0.85, 1), BertScoreStats(0.7, 0.6, 0.65, 1)])
>>> [round(v, 4) for v in s.means()]
[0.8, 0.7, 0.75]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["BertScoreStats", "sum_stats"]


@dataclass(frozen=True)
class BertScoreStats:
    """Σ P, Σ R, Σ F1 over ``segments`` segments (raw scores, before any rescaling)."""

    precision: float
    recall: float
    f1: float
    segments: int

    def means(self) -> tuple[float, float, float]:
        """Mean P, R and F1 (0, 0, 0 for no segment)."""
        n = self.segments or 1
        return self.precision / n, self.recall / n, self.f1 / n


def sum_stats(stats: Iterable[BertScoreStats]) -> BertScoreStats:
    """The statistics of several segments added up."""
    p = r = f = 0.0
    n = 0
    for s in stats:
        p, r, f, n = p + s.precision, r + s.recall, f + s.f1, n + s.segments
    return BertScoreStats(p, r, f, n)

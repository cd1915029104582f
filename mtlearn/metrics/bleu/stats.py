"""BLEU's sufficient statistics, :class:`BleuStats`, and the one way to sum them, :func:`sum_stats`.

The architecture is sacreBLEU's (``sacrebleu/metrics/bleu.py``): each segment is reduced once to
its statistics (candidate length c, closest reference length r, clipped matches and candidate
n-gram totals per order), a corpus sums them, and one function,
:func:`~mtlearn.metrics.bleu.score.bleu_from_stats`, turns statistics into a score. (That function
builds a :class:`~mtlearn.metrics.bleu.result.BleuResult`, which holds its statistics: it lives with
the other entry points in ``score.py``, so that statistics and results do not import each other.)

>>> s = BleuStats(3, 4, (2, 1), (3, 2), (3, 2))
>>> (s + s).matches, sum_stats([s, s, s]).candidate_length
((4, 2), 9)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Optional

__all__ = ["BleuStats", "sum_stats", "stats_from_row"]


@dataclass(frozen=True)
class BleuStats:
    """Sufficient statistics of one segment or of a whole corpus (sums of segments).

    ``matches[n-1]`` is the sum of clipped counts of n-grams, ``totals[n-1]`` the
    number of candidate n-grams, ``nltk_totals[n-1]`` the denominators NLTK uses
    (each segment's total floored at 1 before summing; only the Chen-Cherry
    smoothing methods read it). The tuples may be longer than the ``max_order``
    asked of :func:`~mtlearn.metrics.bleu.score.bleu_from_stats` (method5 needs 5-grams).

    >>> a = BleuStats(5, 6, (4, 3, 1, 0), (5, 4, 3, 2), (5, 4, 3, 2))
    >>> b = BleuStats(2, 6, (2, 1, 0, 0), (2, 1, 0, 0), (2, 1, 1, 1))
    >>> (a + b).matches, (a + b).candidate_length
    ((6, 4, 1, 0), 7)
    """

    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    nltk_totals: tuple[int, ...]

    def __add__(self, other: "BleuStats") -> "BleuStats":
        if not isinstance(other, BleuStats):
            return NotImplemented
        return sum_stats([self, other])

    @property
    def max_order(self) -> int:
        """The number of n-gram orders counted."""
        return len(self.matches)


def sum_stats(stats: Iterable[BleuStats]) -> BleuStats:
    """Sum many :class:`BleuStats` at once (a corpus, a bootstrap sample, a profile's segments).

    >>> s = BleuStats(3, 4, (2, 1), (3, 2), (3, 2))
    >>> sum_stats([s, s, s]).matches
    (6, 3)
    """
    items = list(stats)
    if not items:
        raise ValueError("stats: nothing to sum; give at least one BleuStats")
    width = len(items[0].matches)
    if any(len(s.matches) != width for s in items):
        raise ValueError("stats: cannot add statistics of different n-gram orders")
    return BleuStats(
        sum(s.candidate_length for s in items),
        sum(s.reference_length for s in items),
        tuple(map(sum, zip(*[s.matches for s in items]))),
        tuple(map(sum, zip(*[s.totals for s in items]))),
        tuple(map(sum, zip(*[s.nltk_totals for s in items]))),
    )


def _padded(values: Sequence[int], fill: int, length: int) -> tuple[int, ...]:
    """``values`` followed by ``fill`` up to ``length`` items."""
    head = tuple(values)
    return head[:length] + (fill,) * (length - len(head))


def stats_from_row(row: Sequence[int], width: int, order: Optional[int] = None) -> BleuStats:
    """The statistics of one row [c, r, matches..., totals...] counted up to ``width``, for ``order`` orders.

    Orders beyond ``width`` (beyond the candidate: no n-gram) have 0 matches and 0 totals
    (NLTK's denominator 1).

    >>> stats_from_row([2, 3, 2, 1, 2, 1], 2, 4)
    BleuStats(candidate_length=2, reference_length=3, matches=(2, 1, 0, 0), totals=(2, 1, 0, 0), \
nltk_totals=(2, 1, 1, 1))
    """
    order = width if order is None else order
    totals = tuple(row[2 + width : 2 + 2 * width])
    return BleuStats(
        row[0], row[1], _padded(row[2 : 2 + width], 0, order), _padded(totals, 0, order),
        _padded(tuple(t if t else 1 for t in totals), 1, order),
    )

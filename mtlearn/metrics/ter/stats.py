"""TER's sufficient statistics: the edits against the kept reference and the average reference length.

A segment's :class:`TerStats` are all a corpus needs of it: a corpus sums them (``+``, ``sum``)
and divides once (:func:`mtlearn.metrics.ter.score.ter_from_stats`). The length is an exact
fraction (the average of several references), so the sums are exact too.

>>> a, b = TerStats(3, Fraction(7, 2)), TerStats(1, Fraction(4))
>>> a + b
TerStats(edits=4, ref_length=Fraction(15, 2))
>>> sum([a, b], TerStats(0, Fraction(0))) == corpus_stats([3, 1], [7, 4], [2, 1])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["TerStats", "segment_stats", "corpus_stats"]


@dataclass(frozen=True)
class TerStats:
    """Sufficient statistics: the edits of the best reference and the average reference length.

    Exact (the average length is a ``Fraction``); summed over a corpus with ``+`` or ``sum``.

    >>> a, b = TerStats(3, Fraction(7, 2)), TerStats(1, Fraction(4))
    >>> a + b
    TerStats(edits=4, ref_length=Fraction(15, 2))
    >>> sum([a, b], TerStats(0, Fraction(0))).edits
    4
    """

    edits: int
    ref_length: Fraction

    def __add__(self, other: "TerStats") -> "TerStats":
        if not isinstance(other, TerStats):
            return NotImplemented
        return TerStats(self.edits + other.edits, self.ref_length + other.ref_length)


def segment_stats(edits: int, total_length: int, nrefs: int) -> TerStats:
    """A segment's statistics from its edits, its references' summed length and their number.

    >>> segment_stats(2, 7, 2)
    TerStats(edits=2, ref_length=Fraction(7, 2))
    """
    return TerStats(edits, Fraction(total_length, nrefs))


def corpus_stats(edits: Sequence[int], lengths: Sequence[int], nrefs: Sequence[int]) -> TerStats:
    """The sum of the segments' ``segment_stats(edits[i], lengths[i], nrefs[i])``.

    ``lengths[i]`` is segment i's summed reference lengths and ``nrefs[i]`` its number of
    references. The lengths are added per number of references first, so a corpus adds a few
    fractions instead of one per segment (the same sum, exactly).

    >>> corpus_stats([1, 2, 0], [3, 4, 6], [2, 1, 2])
    TerStats(edits=3, ref_length=Fraction(17, 2))
    """
    by_nrefs: dict[int, int] = {}
    for total, k in zip(lengths, nrefs):
        by_nrefs[k] = by_nrefs.get(k, 0) + total
    return TerStats(sum(edits), sum((Fraction(v, k) for k, v in by_nrefs.items()), Fraction(0)))

"""chrF's sufficient statistics, :class:`ChrfStats` (``+``, :func:`sum_stats`), and the reference kept.

The architecture is sacreBLEU's (``sacrebleu/metrics/chrf.py``): each segment is reduced once to
its statistics against the ONE reference it keeps (the one with the highest chrF,
:func:`choose_reference`), a corpus sums them, and one function,
:func:`~mtlearn.metrics.chrf.score.chrf_from_stats`, turns statistics into a score. (That function
builds a :class:`~mtlearn.metrics.chrf.result.ChrfResult`, which holds its statistics: it lives with
the other entry points in ``score.py``, so that statistics and results do not import each other.)

>>> s = ChrfStats((4, 3), (3, 2), (2, 1), char_order=2, word_order=0)
>>> (s + s).matched, sum_stats([s, s, s]).triples
((4, 2), ((12, 9, 6), (9, 6, 3)))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mtlearn.core.wording import plural
from mtlearn.metrics.chrf.formulas import sacrebleu_float_score
from mtlearn.metrics.chrf.options import ChrfOptions

__all__ = ["ChrfStats", "sum_stats", "choose_reference", "choice_text"]


@dataclass(frozen=True)
class ChrfStats:
    """Sufficient statistics of one segment or a corpus (sums of segments).

    ``candidate[k]``, ``reference[k]``, ``matched[k]`` belong to order k: the character
    orders 1..``char_order`` first, then the word orders 1..``word_order``.

    >>> a = ChrfStats((4, 3), (3, 2), (2, 1), char_order=2, word_order=0)
    >>> (a + a).matched, (a + a).triples
    ((4, 2), ((8, 6, 4), (6, 4, 2)))
    """

    candidate: tuple[int, ...]
    reference: tuple[int, ...]
    matched: tuple[int, ...]
    char_order: int
    word_order: int

    def __add__(self, other: "ChrfStats") -> "ChrfStats":
        if not isinstance(other, ChrfStats):
            return NotImplemented
        return sum_stats([self, other])

    @property
    def triples(self) -> tuple[tuple[int, int, int], ...]:
        """``(candidate, reference, matched)`` per order, the layout of the formula steps."""
        return tuple(zip(self.candidate, self.reference, self.matched))

    @classmethod
    def from_row(cls, row: Sequence[int], char_order: int, word_order: int) -> "ChrfStats":
        """Statistics from sacreBLEU's flat layout ``[c_1, r_1, m_1, c_2, r_2, m_2, ...]``.

        >>> ChrfStats.from_row([4, 3, 2, 3, 2, 1], 2, 0).candidate
        (4, 3)
        """
        row = list(row)
        if len(row) != 3 * (char_order + word_order):
            raise ValueError(f"row: expected {3 * (char_order + word_order)} numbers, got {len(row)}")
        return cls(tuple(row[0::3]), tuple(row[1::3]), tuple(row[2::3]), char_order, word_order)


def sum_stats(stats: Iterable[ChrfStats]) -> ChrfStats:
    """Sum many :class:`ChrfStats` at once (a corpus, or a bootstrap sample of segments).

    >>> s = ChrfStats((4,), (3,), (2,), 1, 0)
    >>> sum_stats([s, s, s]).matched
    (6,)
    """
    items = list(stats)
    if not items:
        raise ValueError("stats: nothing to sum; give at least one ChrfStats")
    first = items[0]
    if any((s.char_order, s.word_order) != (first.char_order, first.word_order) for s in items):
        raise ValueError("stats: cannot add statistics of different char/word orders")
    return ChrfStats(
        tuple(map(sum, zip(*[s.candidate for s in items]))),
        tuple(map(sum, zip(*[s.reference for s in items]))),
        tuple(map(sum, zip(*[s.matched for s in items]))),
        first.char_order,
        first.word_order,
    )


# --------------------------------------------------------------------------- the reference a segment keeps


def choose_reference(rows: Sequence[Sequence[int]], opts: ChrfOptions) -> tuple[int, list[float]]:
    """The index of the reference kept, and every reference's chrF x 100 as sacreBLEU compares it.

    ``rows`` holds one row ``[c_1, r_1, m_1, ...]`` per reference. The comparison is sacreBLEU's:
    :func:`~mtlearn.metrics.chrf.formulas.sacrebleu_float_score`, strictly greater (the first of tied
    references is kept), or greater or equal with ``reference_ties="last"``.

    >>> choose_reference([[1, 1, 0], [1, 1, 0]], ChrfOptions(char_order=1))
    (0, [0.0, 0.0])
    >>> choose_reference([[1, 1, 0], [1, 1, 0]], ChrfOptions(char_order=1, reference_ties="last"))[0]
    1
    """
    scores = [sacrebleu_float_score(list(zip(row[0::3], row[1::3], row[2::3])), opts.beta, opts.eps_smoothing)
              for row in rows]
    best, best_score = 0, -1.0
    for i, s in enumerate(scores):
        if s > best_score or (opts.reference_ties == "last" and s == best_score):
            best, best_score = i, s
    return best, scores


def choice_text(best: int, scores: Sequence[float], ties: str) -> str:
    """Why reference ``best`` was kept, in words (``scores`` are chrF x 100).

    >>> choice_text(1, [50.0, 75.0], "first")
    'highest chrF of the 2 references: 0.7500, against 0.5000 (reference 0)'
    """
    if len(scores) == 1:
        return "the only reference"
    tied = [i for i, s in enumerate(scores) if s == scores[best]]
    others = ", ".join(f"{scores[i] / 100:.4f} (reference {i})" for i in range(len(scores)) if i != best)
    if len(tied) > 1:
        which = ", ".join(str(i) for i in tied)
        return (f"references {which} tie at chrF {scores[best] / 100:.4f}; the {ties} is kept "
                f"(reference_ties={ties!r}{', as sacreBLEU' if ties == 'first' else ''})")
    return (f"highest chrF of the {plural(len(scores), 'reference')}: "
            f"{scores[best] / 100:.4f}, against {others}")

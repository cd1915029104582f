"""chrF's faster twins: each function here computes what a formula of ``formulas.py`` computes, faster.

``corpus_chrf`` counts a test set's n-grams with :func:`text_profile` and :func:`profile_row` instead of
:func:`~mtlearn.metrics.chrf.formulas.segment_counts`, and a paired test scores thousands of resampled sums
with :func:`resampling_scorer` instead of building a result per sample.
tests/metrics/chrf/test_chrf_fast.py proves each twin equal to its formula (random texts, the WMT22
sample, edge cases); ``chrf()`` and ``segments[i]`` run the formulas themselves.

>>> cutter = NgramCutter()
>>> profile_row(text_profile("ab ab", 2, 1, cutter=cutter), text_profile("abc", 2, 1, cutter=cutter))
[4, 3, 2, 3, 2, 1, 2, 1, 0]
>>> from mtlearn.metrics.chrf.formulas import segment_counts
>>> segment_counts("ab ab", "abc", 2, 1)
[(4, 3, 2), (3, 2, 1), (2, 1, 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Optional, Union

import numpy as np

from mtlearn.core.ngrams import count_elements
from mtlearn.metrics.chrf.formulas import eps_smoothed_f, split_punctuation
from mtlearn.metrics.chrf.options import DEFAULTS, ChrfOptions

__all__ = [
    "NgramCutter",
    "text_profile",
    "profile_row",
    "fast_segment_counts",
    "averaged_f_many",
    "resampling_scorer",
]

#: One order of a text: its n-grams with their counts, and how many n-grams it has in all.
OrderProfile = tuple[Mapping, int]
_NONE: OrderProfile = (MappingProxyType({}), 0)  # an order longer than the line: no n-grams (read-only)


class NgramCutter:
    """Cuts a string's character n-grams with stored ``slice`` objects, the fastest way in pure Python.

    One cutter serves one corpus call and is dropped with it (nothing is kept between calls). Its
    store is bounded: orders up to :attr:`ORDERS` and :attr:`LENGTH` n-grams per line (at most
    24 x 4,096 slices, about 6 MB); a higher order or a longer line is cut on the fly.

    >>> list(NgramCutter().grams("abcd", 2)), list(NgramCutter().grams(["a", "b", "c"], 2))
    (['ab', 'bc', 'cd'], [('a', 'b'), ('b', 'c')])
    """

    ORDERS = 24
    LENGTH = 4096

    def __init__(self) -> None:
        self._slices: dict[int, list[slice]] = {}

    def _stored(self, n: int, count: int) -> list[slice]:
        have = self._slices.get(n, [])
        if len(have) < count:  # grow to what this call needs (doubling: a few rebuilds per order)
            size = min(self.LENGTH, max(count, 2 * len(have)))
            have = self._slices[n] = [slice(i, i + n) for i in range(size)]
        return have[:count]

    def grams(self, line: Union[str, list], n: int) -> Iterable:
        """The n-grams of a string (substrings) or of a word list (tuples; the words themselves for n = 1)."""
        if n == 1:
            return line
        if not isinstance(line, str):
            return zip(*[line[i:] for i in range(n)])
        count = len(line) - n + 1
        if count <= 0:
            return ()
        if n > self.ORDERS or count > self.LENGTH:
            return (line[i:i + n] for i in range(count))
        return map(line.__getitem__, self._stored(n, count))


def _orders_of(line: Union[str, list], orders: int, cutter: NgramCutter) -> list[OrderProfile]:
    """The n-gram counts of orders 1..``orders`` of one line; past its length, one shared empty entry."""
    out = []
    for n in range(1, min(orders, len(line)) + 1):
        counts: dict = {}
        count_elements(counts, cutter.grams(line, n))
        out.append((counts, len(line) - n + 1))
    return out + [_NONE] * (orders - len(out))


def text_profile(text: str, char_order: int, word_order: int, whitespace: bool = False, *,
                 cutter: Optional[NgramCutter] = None) -> list[OrderProfile]:
    """Every order's n-gram counts of one text: ``(counts, total)`` per order, characters first.

    Equals :func:`~mtlearn.metrics.chrf.formulas.char_ngrams` for n = 1..``char_order``, then
    :func:`~mtlearn.metrics.chrf.formulas.word_ngrams` of the
    :func:`~mtlearn.metrics.chrf.formulas.split_punctuation` words for n = 1..``word_order``
    (word unigrams are keyed by the word, not a 1-tuple; only :func:`profile_row` reads them).

    >>> text_profile("a b a", 2, 0)
    [({'a': 2, 'b': 1}, 3), ({'ab': 1, 'ba': 1}, 2)]
    """
    cutter = cutter or NgramCutter()
    line = text if whitespace else "".join(text.split())
    out = _orders_of(line, char_order, cutter)
    if word_order:
        out += _orders_of(split_punctuation(text), word_order, cutter)
    return out


def profile_row(candidate: Sequence[OrderProfile], reference: Sequence[OrderProfile]) -> list[int]:
    """``[c_1, r_1, m_1, c_2, ...]``, :func:`~mtlearn.metrics.chrf.formulas.order_counts` of each order.

    Two profiles of :func:`text_profile`; sacreBLEU's rule is kept (no reference n-grams of an
    order: the candidate's are not counted either).

    >>> profile_row(text_profile("aab", 1, 0), text_profile("abbb", 1, 0))
    [3, 4, 2]
    """
    row: list[int] = []
    for (hc, ht), (rc, rt) in zip(candidate, reference):
        if not rt:
            row += (0, 0, 0)
            continue
        common = hc.keys() & rc.keys()
        if len(hc) == ht or len(rc) == rt:
            m = len(common)  # one side has every n-gram once: min(1, count) = 1 for each common one
        else:
            m = sum(map(min, map(hc.__getitem__, common), map(rc.__getitem__, common)))
        row += (ht, rt, m)
    return row


def fast_segment_counts(candidate: str, reference: str, char_order: int, word_order: int,
                        whitespace: bool = False) -> list[tuple[int, int, int]]:
    """:func:`~mtlearn.metrics.chrf.formulas.segment_counts` by :func:`text_profile` and :func:`profile_row`.

    >>> fast_segment_counts("ab ab", "abc", 2, 1)
    [(4, 3, 2), (3, 2, 1), (2, 1, 0)]
    """
    cutter = NgramCutter()
    row = profile_row(text_profile(candidate, char_order, word_order, whitespace, cutter=cutter),
                      text_profile(reference, char_order, word_order, whitespace, cutter=cutter))
    return list(zip(row[0::3], row[1::3], row[2::3]))


def averaged_f_many(sums: np.ndarray, beta: float) -> np.ndarray:
    """The F of :func:`~mtlearn.metrics.chrf.formulas.averaged_f` of every row of ``sums``, in floating point.

    Each row is sacreBLEU's layout ``c_1, r_1, m_1, c_2, ...``: P and R averaged over the orders both
    sides have n-grams of, then F_beta of the averages (0 where no order has them). Floating point:
    the exact 175/324 = 0.54012345679012345... comes out 0.5401234567901233 here, 0.5401234567901234 from
    the formula's exact value.

    >>> averaged_f_many(np.array([[4, 3, 2, 3, 2, 1], [0, 3, 0, 0, 0, 0]]), 2.0).round(12).tolist()
    [0.54012345679, 0.0]
    """
    cand, ref, matched = (sums[:, j::3].astype(np.float64) for j in range(3))
    used = (cand > 0) & (ref > 0)
    n_used = used.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(used, matched / np.where(cand > 0, cand, 1.0), 0.0).sum(axis=1)
        r = np.where(used, matched / np.where(ref > 0, ref, 1.0), 0.0).sum(axis=1)
        p = np.where(n_used > 0, p / np.maximum(n_used, 1), 0.0)
        r = np.where(n_used > 0, r / np.maximum(n_used, 1), 0.0)
        b2 = float(beta) ** 2
        denominator = b2 * p + r
        return np.where(denominator > 0, (1 + b2) * p * r / np.where(denominator > 0, denominator, 1.0), 0.0)


def resampling_scorer(char_order: int = DEFAULTS.char_order, word_order: int = DEFAULTS.word_order,
                      beta: float = DEFAULTS.beta, eps_smoothing: bool = DEFAULTS.eps_smoothing,
                      **_signature_only: object) -> Callable[[np.ndarray], np.ndarray]:
    """Summed chrF statistics (a resample a row, sacreBLEU's layout) to their scores (0-1), for a paired test.

    sacreBLEU's default, :func:`averaged_f_many`; with ``eps_smoothing`` the exact
    :func:`~mtlearn.metrics.chrf.formulas.eps_smoothed_f` of each row. The options are checked as
    ``chrf()`` checks them; the others (case, white space, ties) were used when counting.

    >>> sums = np.array([[4, 3, 2, 3, 2, 1]])
    >>> resampling_scorer(char_order=2, eps_smoothing=True)(sums).tolist()  # (5/8 + 5/11) / 2
    [0.5397727272727273]
    """
    opts = ChrfOptions(char_order=char_order, word_order=word_order, beta=beta, eps_smoothing=eps_smoothing)

    def scores(sums: np.ndarray) -> np.ndarray:
        if not opts.eps_smoothing:
            return averaged_f_many(sums, opts.beta)
        return np.array([float(eps_smoothed_f(list(zip(row[0::3], row[1::3], row[2::3])), opts.beta))
                         for row in sums.tolist()], dtype=np.float64)

    return scores

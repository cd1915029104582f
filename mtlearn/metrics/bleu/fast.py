"""BLEU's fast twins: each function equals the formula steps its docstring names, only faster.

- :func:`segment_row` -- one segment's row [c, r, matches..., totals...] in one fused pass, equal to
  :func:`~mtlearn.metrics.bleu.formulas.closest_ref_length` and, order by order,
  :func:`~mtlearn.metrics.bleu.formulas.precision_counts`;
- :func:`sum_rows` -- a corpus's statistics summed column by column from the segments' rows, equal to
  :func:`~mtlearn.metrics.bleu.stats.sum_stats` of each row's
  :func:`~mtlearn.metrics.bleu.stats.stats_from_row`;
- :func:`bleu_scores` -- the BLEU of many summed statistics at once (a paired test's samples), equal to
  :func:`~mtlearn.metrics.bleu.formulas.brevity_penalty` times
  :func:`~mtlearn.metrics.bleu.formulas.geometric_mean` of the precisions smoothed by
  :func:`~mtlearn.metrics.bleu.smoothing.smooth` (``none`` or ``exp``), uniform weights.

tests/metrics/bleu/test_bleu_fast.py proves each equal to its formula (hypothesis, the WMT22 sample,
edge cases), so the code the notebooks show is the code that runs.

>>> segment_row("the cat sat".split(), ["the cat sat down".split()], 2)
[3, 4, 3, 2, 3, 2]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from mtlearn.core.ngrams import count_elements
from mtlearn.metrics.bleu.formulas import closest_ref_length
from mtlearn.metrics.bleu.stats import BleuStats

if TYPE_CHECKING:  # numpy loads with the paired test that needs it, not with bleu()
    import numpy as np

__all__ = ["count_width", "segment_row", "sum_rows", "bleu_scores"]


def count_width(order: int, longest: int) -> int:
    """How many orders to count: none beyond the longest candidate (they have no n-gram), 5 at least.

    Five, because NLTK's method5/method7 read the 5-gram statistics whatever ``max_order`` is.

    >>> count_width(4, 100), count_width(10**8, 3), count_width(10**8, 40)
    (4, 5, 40)
    """
    return min(order, max(longest, 5))


def segment_row(cand: Sequence[str], refs: Sequence[Sequence[str]], order: int) -> list[int]:
    """The row [c, r, matches..., totals...] of one segment (the hot path of corpus BLEU).

    This is the formula steps fused, and equal to them (tests/metrics/bleu/test_bleu_fast.py
    proves it on random segments): r is :func:`~mtlearn.metrics.bleu.formulas.closest_ref_length`
    of the reference lengths, and for every order n, ``(matches[n-1], totals[n-1])`` is
    :func:`~mtlearn.metrics.bleu.formulas.precision_counts` ``(cand, refs, n)``, the pair
    behind :func:`~mtlearn.metrics.bleu.formulas.modified_precision`.

    >>> cand, refs = "the the cat".split(), ["the cat".split(), "a cat".split()]
    >>> segment_row(cand, refs, 2)
    [3, 2, 2, 1, 3, 2]

    The matches are counted without a counter per n-gram: an n-gram that occurs once
    in the candidate is credited 1 exactly when it occurs in some reference, so the
    matches of order n are |set(candidate n-grams) & reference n-grams| (C-level set
    operations over ``zip`` of shifted copies), plus a correction for the few
    n-grams the candidate repeats (:func:`_repeated_credit`).
    """
    c = len(cand)
    shifts = [cand[i:] for i in range(order if order < c else c)]
    if len(refs) == 1:
        r = len(refs[0])
        matches = _single_reference_matches(cand, shifts, refs, order)
    else:
        r = closest_ref_length(c, [len(ref) for ref in refs])
        matches = _many_reference_matches(cand, shifts, refs, order)
    return [c, r, *matches, *[c - n if c > n else 0 for n in range(order)]]


def _single_reference_matches(
    cand: Sequence[str], shifts: list, refs: Sequence[Sequence[str]], order: int
) -> list[int]:
    """Clipped matches of every order against one reference (see :func:`segment_row`)."""
    c = len(cand)
    ref = refs[0]
    r = len(ref)
    ref_shifts = [ref[i:] for i in range(order if order < r else r)]
    matches = []
    for n in range(1, order + 1):
        if c < n or r < n:
            matches.append(0)
            continue
        unique = set(cand) if n == 1 else set(zip(*shifts[:n]))
        common = unique.intersection(ref if n == 1 else zip(*ref_shifts[:n]))
        m = len(common)
        if m and len(unique) != c - n + 1:
            m += _repeated_credit(cand, refs, n, common)
        matches.append(m)
    return matches


def _many_reference_matches(
    cand: Sequence[str], shifts: list, refs: Sequence[Sequence[str]], order: int
) -> list[int]:
    """Clipped matches of every order against several references (see :func:`segment_row`)."""
    c = len(cand)
    all_shifts = [[ref[i:] for i in range(order if order < len(ref) else len(ref))] for ref in refs]
    matches = []
    for n in range(1, order + 1):
        if c < n:
            matches.append(0)
            continue
        unique = set(cand) if n == 1 else set(zip(*shifts[:n]))
        common: set = set()
        for ref, ref_shifts in zip(refs, all_shifts):
            if len(ref) >= n:
                common.update(unique.intersection(ref if n == 1 else zip(*ref_shifts[:n])))
        m = len(common)
        if m and len(unique) != c - n + 1:
            m += _repeated_credit(cand, refs, n, common)
        matches.append(m)
    return matches


def _repeated_credit(cand: Sequence[str], refs: Sequence[Sequence[str]], n: int, common: set) -> int:
    """Extra credit for n-grams the candidate repeats: min(count, max ref count) - 1 each.

    ``common`` holds the candidate's n-grams found in some reference (tokens for
    n = 1, tuples above).

    Linear in the lengths: each reference's n-grams are counted once, keeping only the
    repeated n-grams asked about (not one ``list.count`` scan per repeated n-gram, which
    made one long line quadratic).

    >>> _repeated_credit("the the the cat".split(), ["the the cat".split()], 1, {"the", "cat"})
    1
    >>> _repeated_credit("a b a b a b".split(), ["a b x a b".split(), "a b".split()], 2, {("a", "b")})
    1
    """
    def grams(tokens: Sequence[str]) -> Iterable:
        return iter(tokens) if n == 1 else zip(*[tokens[i:] for i in range(n)])

    counts: dict = {}
    count_elements(counts, grams(cand))
    repeated = {gram: k for gram, k in counts.items() if k > 1 and gram in common}
    if not repeated:
        return 0
    caps: dict = {}
    for ref in refs:
        ref_counts: dict = {}
        count_elements(ref_counts, filter(repeated.__contains__, grams(ref)))
        for gram, count in ref_counts.items():
            if count > caps.get(gram, 0):
                caps[gram] = count
    # Every repeated n-gram is in ``common``, so some reference has it: its cap is >= 1.
    return sum((k if k < caps[gram] else caps[gram]) - 1 for gram, k in repeated.items())


def sum_rows(rows: Sequence[int], width: int, order: int) -> BleuStats:
    """The summed statistics of segments whose rows [c, r, matches..., totals...] (``width`` orders each) lie
    end to end in ``rows``, for ``order`` orders: :func:`~mtlearn.metrics.bleu.stats.sum_stats` of every row's
    :func:`~mtlearn.metrics.bleu.stats.stats_from_row`, summed column by column (no object per segment).

    Orders beyond ``width`` (beyond the longest candidate) have 0 matches, 0 totals and NLTK's 1 per segment.

    >>> s = sum_rows([2, 3, 2, 1, 2, 1, 1, 1, 0, 0, 1, 0], 2, 3)
    >>> s.candidate_length, s.reference_length, s.matches, s.totals, s.nltk_totals
    (3, 4, (2, 1, 0), (3, 1, 0), (3, 2, 2))
    """
    step = 2 + 2 * width
    segments = len(rows) // step
    matches = tuple(sum(rows[2 + n :: step]) for n in range(width))
    total_cols = [rows[2 + width + n :: step] for n in range(width)]
    totals = tuple(sum(col) for col in total_cols)
    nltk_totals = tuple(t + col.count(0) for t, col in zip(totals, total_cols))
    rest = order - width
    return BleuStats(sum(rows[0::step]), sum(rows[1::step]), matches + (0,) * rest, totals + (0,) * rest,
                     nltk_totals + (segments,) * rest)


def bleu_scores(sums: np.ndarray, max_order: int, smoothing: str) -> np.ndarray:
    """BLEU of many summed statistics at once: sacreBLEU's 'none' and 'exp' (its default), uniform weights.

    Each row of ``sums`` is ``c, r``, then k orders' matches, totals and NLTK totals; the rows may hold
    fewer orders than ``max_order`` (orders past the last one without n-grams are all like it: no
    n-grams, BLEU 0). Equal to :func:`~mtlearn.metrics.bleu.formulas.brevity_penalty` times
    :func:`~mtlearn.metrics.bleu.formulas.geometric_mean` of the precisions
    :func:`~mtlearn.metrics.bleu.smoothing.smooth` gives with ``smoothing`` -- what
    :func:`~mtlearn.metrics.bleu.score.bleu_from_stats` computes one row at a time.

    >>> import numpy as np
    >>> sums = np.array([[2, 6, 2, 1, 2, 1, 2, 1], [5, 6, 4, 0, 5, 4, 5, 4]])
    >>> bleu_scores(sums, 2, "exp").round(4).tolist()
    [0.1353, 0.2589]
    """
    import numpy as np

    k = (sums.shape[1] - 2) // 3
    c, r = sums[:, 0].astype(np.float64), sums[:, 1].astype(np.float64)
    # k < max_order: the orders past the k stored are like the last one (no n-grams: totals 0, BLEU 0)
    matches = sums[:, 2:2 + min(k, max_order)].astype(np.float64)
    totals = sums[:, 2 + k:2 + k + min(k, max_order)].astype(np.float64)
    zero = matches == 0
    # 2^k overflows past k = 1023 orders without a match: 1 / inf = 0, the float the formula's Fraction rounds
    # to.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if smoothing == "exp":  # the k-th order without matches gets 1 / (2^k total)
            doublings = np.cumsum(zero, axis=1)
            precisions = np.where(zero, 1.0 / (2.0 ** doublings * totals), matches / totals)
        else:
            precisions = matches / totals
        bad = (totals == 0).any(axis=1) | ~(precisions > 0).all(axis=1) | zero.all(axis=1)
        logs = np.where(bad[:, None], 0.0, np.log(np.where(precisions > 0, precisions, 1.0)))
        geometric = np.exp(logs.sum(axis=1) / max_order)
        bp = np.where(c >= r, 1.0, np.where(c > 0, np.exp(1.0 - r / np.where(c > 0, c, 1.0)), 0.0))
    return np.where(bad, 0.0, bp * geometric)

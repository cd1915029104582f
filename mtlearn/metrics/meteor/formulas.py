"""METEOR's formula steps, one small function each (Banerjee & Lavie 2005).

With ``m`` mapped unigrams, ``w_t`` candidate unigrams, ``w_r`` reference
unigrams and ``c`` chunks:

* precision ``P = m / w_t`` and recall ``R = m / w_r``;
* ``F_mean = P·R / (α·P + (1 − α)·R)``; with α = 0.9 this is the document's
  ``10·P·R / (R + 9·P)``;
* fragmentation ``c / m`` and penalty ``γ·(c / m)^β`` (γ = 0.5, β = 3);
* score ``F_mean·(1 − penalty)``.

Everything a student checks by hand is an exact :class:`~fractions.Fraction`
(the penalty too, whenever β is a whole number). The examples below are the rows
of the worked examples of the English Wikipedia article *METEOR* (CC BY-SA 4.0). Row 3, reference
"the cat sat on the mat", candidate "the cat was sat on the mat":

>>> p, r = precision(6, 7), recall(6, 6)
>>> p, r
(Fraction(6, 7), Fraction(1, 1))
>>> f = f_mean(p, r)
>>> f, round(float(f), 4)
(Fraction(60, 61), 0.9836)
>>> pen = fragmentation_penalty(2, 6)
>>> pen, round(float(pen), 4)
(Fraction(1, 54), 0.0185)
>>> round(float(meteor_score_value(f, pen)), 5)
0.96539

Alignments are given to :func:`count_crossings`, :func:`chunk_spans` and
:func:`count_chunks` as ``(candidate index, reference index)`` pairs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from mtlearn.core.checks import as_real
from mtlearn.metrics.meteor.options import check_beta

Number = Union[Fraction, float]
Pair = tuple[int, int]


def exact(value: Union[int, float, Fraction], argname: str = "value") -> Fraction:
    """``value`` as the Fraction a person means when typing it: ``0.9`` is ``9/10``.

    Floats go through their shortest decimal spelling (``repr``), so the binary
    rounding of ``0.9`` does not leak into hand-checkable results. Any other real
    number (a numpy scalar such as an item of ``np.linspace``) is first made a plain
    ``int`` or ``float`` by :func:`mtlearn.core.checks.as_real`, so it gives the same Fraction
    as the plain number; a non-number is refused naming ``argname``.

    >>> exact(0.9), exact(3), exact(0.5)
    (Fraction(9, 10), Fraction(3, 1), Fraction(1, 2))
    >>> import numpy as np
    >>> exact(np.float64(0.9)), exact(np.float32(0.5)), exact(np.int64(3))
    (Fraction(9, 10), Fraction(1, 2), Fraction(3, 1))
    >>> exact("0.9", "alpha")
    Traceback (most recent call last):
    ...
    TypeError: alpha: expected a number, got str ('0.9')
    """
    if isinstance(value, Fraction):
        return value
    if type(value) not in (int, float):  # numpy scalars, float subclasses: repr is not a number's spelling
        value = as_real(value, argname)
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def precision(matches: int, candidate_length: int) -> Fraction:
    """Unigram precision ``P = m / w_t`` (defined as 0 for an empty candidate).

    >>> precision(6, 6), precision(6, 7), precision(0, 0)
    (Fraction(1, 1), Fraction(6, 7), Fraction(0, 1))
    """
    return Fraction(matches, candidate_length) if candidate_length else Fraction(0)


def recall(matches: int, reference_length: int) -> Fraction:
    """Unigram recall ``R = m / w_r`` (defined as 0 for an empty reference).

    >>> recall(6, 6), recall(3, 4)
    (Fraction(1, 1), Fraction(3, 4))
    """
    return Fraction(matches, reference_length) if reference_length else Fraction(0)


def f_mean(p: Fraction, r: Fraction, alpha: Union[float, Fraction] = 0.9) -> Fraction:
    """The weighted harmonic mean ``P·R / (α·P + (1 − α)·R)``; 0 when P or R is 0.

    α = 0.9 weights recall nine times more than precision: the document's
    ``10·P·R / (R + 9·P)``. α = 1 gives R, α = 0 gives P.

    >>> f_mean(Fraction(6, 7), Fraction(1))  # worked example, row 3
    Fraction(60, 61)
    >>> f_mean(Fraction(6, 7), Fraction(1)) == 10 * Fraction(6, 7) / (1 + 9 * Fraction(6, 7))
    True
    >>> f_mean(Fraction(1, 2), Fraction(1, 4), alpha=1), f_mean(Fraction(1, 2), Fraction(1, 4), alpha=0)
    (Fraction(1, 4), Fraction(1, 2))
    """
    if p == 0 or r == 0:
        return Fraction(0)
    a = exact(alpha, "alpha")
    return p * r / (a * p + (1 - a) * r)


def fragmentation(chunks: int, matches: int) -> Fraction:
    """How scattered the matches are: ``c / u_m`` (0 when nothing matched).

    >>> fragmentation(6, 6), fragmentation(1, 6), fragmentation(0, 0)
    (Fraction(1, 1), Fraction(1, 6), Fraction(0, 1))
    """
    return Fraction(chunks, matches) if matches else Fraction(0)


def fragmentation_penalty(
    chunks: int, matches: int, beta: Union[float, Fraction] = 3.0, gamma: Union[float, Fraction] = 0.5
) -> Number:
    """The penalty ``γ·(c / u_m)^β``: an exact Fraction when β is a whole number, a float
    otherwise (a fractional power of a fraction is not a fraction).

    No matches means nothing to penalise: the penalty is 0. β goes from 0 to 64, as
    :class:`~mtlearn.metrics.meteor.options.MeteorOptions` checks it.

    >>> fragmentation_penalty(6, 6), fragmentation_penalty(1, 6), fragmentation_penalty(2, 6)
    (Fraction(1, 2), Fraction(1, 432), Fraction(1, 54))
    >>> round(float(fragmentation_penalty(1, 6)), 4)  # worked example, row 2
    0.0023
    >>> round(fragmentation_penalty(3, 6, beta=1.5), 6)  # 0.5 * 0.5 ** 1.5
    0.176777
    """
    beta = check_beta(beta)
    if matches == 0:
        return Fraction(0)
    frag = fragmentation(chunks, matches)
    if exact(beta, "beta").denominator == 1:
        return exact(gamma, "gamma") * frag ** int(beta)
    return float(gamma) * float(frag) ** float(beta)


def meteor_score_value(f: Number, penalty: Number) -> Number:
    """The final score ``F_mean·(1 − penalty)``.

    >>> meteor_score_value(Fraction(1), Fraction(1, 2))  # worked example, row 1: 0.5
    Fraction(1, 2)
    >>> meteor_score_value(Fraction(1), Fraction(1, 432))  # worked example, row 2: 0.99769
    Fraction(431, 432)
    """
    return f * (1 - penalty)


def count_crossings(pairs: Iterable[Pair]) -> int:
    """How many pairs of mappings cross: ``(i1 − i2)·(j1 − j2) < 0``.

    Counted as inversions of the reference positions read in candidate order, in
    O(n log n), so a 10,000-word alignment is counted instantly. The worked example's
    alignment (a) of "on the mat sat the cat" against "the cat sat on the mat":

    >>> count_crossings([(0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)])
    8
    >>> count_crossings([(0, 0), (1, 1)]), count_crossings([(0, 1), (1, 0)])
    (0, 1)
    """
    refs = [j for _, j in sorted(pairs)]
    return _inversions(refs)


def _inversions(values: list[int]) -> int:
    # Bottom-up merge sort counting inversions (no recursion: alignments may be long).
    count = 0
    width = 1
    n = len(values)
    src = list(values)
    while width < n:
        dst: list[int] = []
        for lo in range(0, n, 2 * width):
            left = src[lo:lo + width]
            right = src[lo + width:lo + 2 * width]
            i = k = 0
            while i < len(left) and k < len(right):
                if right[k] < left[i]:
                    count += len(left) - i
                    dst.append(right[k])
                    k += 1
                else:
                    dst.append(left[i])
                    i += 1
            dst.extend(left[i:])
            dst.extend(right[k:])
        src = dst
        width *= 2
    return count


@dataclass(frozen=True)
class ChunkSpan:
    """One chunk: mapped words adjacent, in the same order, in both strings.

    Spans are half-open, like Python slices: ``candidate[candidate_start:candidate_stop]``.

    >>> span = ChunkSpan(0, 3, 3, 6)
    >>> span.length, span.candidate_slice, span.reference_slice
    (3, slice(0, 3, None), slice(3, 6, None))
    """

    candidate_start: int
    candidate_stop: int
    reference_start: int
    reference_stop: int

    @property
    def length(self) -> int:
        """How many mappings the chunk holds."""
        return self.candidate_stop - self.candidate_start

    @property
    def candidate_slice(self) -> slice:
        """The chunk's words in the candidate, as a slice."""
        return slice(self.candidate_start, self.candidate_stop)

    @property
    def reference_slice(self) -> slice:
        """The chunk's words in the reference, as a slice."""
        return slice(self.reference_start, self.reference_stop)


def chunk_spans(pairs: Iterable[Pair]) -> list[ChunkSpan]:
    """Group an alignment into the fewest chunks, in candidate order.

    Mappings ``(i, j)`` and ``(i + 1, j + 1)`` belong to the same chunk; any other
    neighbour starts a new one. Alignment (b) of the worked example,
    [on the mat] [sat] [the cat]:

    >>> for span in chunk_spans([(0, 3), (1, 4), (2, 5), (3, 2), (4, 0), (5, 1)]):
    ...     print(span)
    ChunkSpan(candidate_start=0, candidate_stop=3, reference_start=3, reference_stop=6)
    ChunkSpan(candidate_start=3, candidate_stop=4, reference_start=2, reference_stop=3)
    ChunkSpan(candidate_start=4, candidate_stop=6, reference_start=0, reference_stop=2)
    """
    spans: list[ChunkSpan] = []
    start: Pair | None = None
    prev: Pair | None = None
    for i, j in sorted(pairs):
        if prev is not None and i == prev[0] + 1 and j == prev[1] + 1:
            prev = (i, j)
            continue
        if start is not None and prev is not None:
            spans.append(ChunkSpan(start[0], prev[0] + 1, start[1], prev[1] + 1))
        start = prev = (i, j)
    if start is not None and prev is not None:
        spans.append(ChunkSpan(start[0], prev[0] + 1, start[1], prev[1] + 1))
    return spans


def count_chunks(pairs: Iterable[Pair]) -> int:
    """The number of chunks ``c`` of an alignment.

    >>> count_chunks([(i, i) for i in range(6)])  # identical strings: one chunk
    1
    >>> count_chunks([(0, 3), (1, 4), (2, 5), (3, 2), (4, 0), (5, 1)])  # alignment (b)
    3
    >>> count_chunks([])
    0
    """
    return len(chunk_spans(pairs))

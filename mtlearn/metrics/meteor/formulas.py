"""METEOR's formula steps, one small function each (Banerjee & Lavie 2005).

With ``m`` mapped unigrams, ``w_t`` candidate unigrams, ``w_r`` reference
unigrams and ``c`` chunks:

* precision ``P = m / w_t`` and recall ``R = m / w_r``;
* ``F_mean = P·R / (α·P + (1 − α)·R)``; with α = 0.9 this is the document's
  ``10·P·R / (R + 9·P)``;
* fragmentation ``c / m`` and penalty ``γ·(c / m)^β`` (γ = 0.5, β = 3);
* score ``F_mean·(1 − penalty)``.

Everything a student checks by hand is an exact :class:`~fractions.Fraction`
(the penalty too, whenever β is a whole number up to 64). The examples below are the rows
of the worked-example table in the digest of document 003. Row 3, reference
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

import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Union

from mtlearn.core.checks import as_real

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

    >>> f_mean(Fraction(6, 7), Fraction(1))  # digest row 3
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


#: The largest whole β whose penalty is an exact Fraction. ``(c / m)^β`` written exactly has
#: about β·log2(m) bits in numerator and denominator: cheap for a student's β = 3, but
#: ``β = 10**9`` would need gigabytes; above this the penalty is a float, whose cost does
#: not depend on β (and which a float power computes to the last digit a float holds).
EXACT_BETA_MAX = 64


def penalty_is_exact(beta: Union[float, Fraction]) -> bool:
    """Whether :func:`fragmentation_penalty` gives an exact Fraction for this β: a whole
    number from 0 to :data:`EXACT_BETA_MAX`.

    >>> penalty_is_exact(3), penalty_is_exact(3.0), penalty_is_exact(1.5), penalty_is_exact(1e300)
    (True, True, False, False)
    """
    b = exact(beta, "beta")
    return b.denominator == 1 and b <= EXACT_BETA_MAX


def penalty_arithmetic_note(beta: Union[float, Fraction]) -> Optional[str]:
    """Why the penalty is a float for this β (``None`` when it is exact).

    >>> penalty_arithmetic_note(3) is None
    True
    >>> penalty_arithmetic_note(1e300)
    'the penalty is a float: beta = 1e+300 is a whole number above 64, too large for an exact power'
    >>> penalty_arithmetic_note(1.5)
    'the penalty is a float: beta = 1.5 is not a whole number'
    """
    if penalty_is_exact(beta):
        return None
    spelled = f"{float(beta):g}" if float(beta) == float(f"{float(beta):g}") else repr(float(beta))
    if exact(beta, "beta").denominator == 1:
        return (f"the penalty is a float: beta = {spelled} is a whole number above {EXACT_BETA_MAX}, "
                "too large for an exact power")
    return f"the penalty is a float: beta = {spelled} is not a whole number"


def fragmentation_penalty(
    chunks: int, matches: int, beta: Union[float, Fraction] = 3.0, gamma: Union[float, Fraction] = 0.5
) -> Number:
    """The penalty ``γ·(c / u_m)^β``; exact when β is a whole number up to
    :data:`EXACT_BETA_MAX`, a float otherwise (see :func:`penalty_is_exact`).

    No matches means nothing to penalise: the penalty is 0. Its cost does not
    depend on the size of β: a large β is a float power.

    >>> fragmentation_penalty(6, 6), fragmentation_penalty(1, 6), fragmentation_penalty(2, 6)
    (Fraction(1, 2), Fraction(1, 432), Fraction(1, 54))
    >>> round(float(fragmentation_penalty(1, 6)), 4)  # digest row 2
    0.0023
    >>> round(fragmentation_penalty(3, 6, beta=1.5), 6)  # 0.5 * 0.5 ** 1.5
    0.176777
    >>> fragmentation_penalty(2, 6, beta=10**9), fragmentation_penalty(6, 6, beta=1e300)
    (0.0, 0.5)
    """
    if matches == 0:
        return Fraction(0)
    frag = fragmentation(chunks, matches)
    if penalty_is_exact(beta):
        return exact(gamma, "gamma") * frag ** int(exact(beta, "beta"))
    return float(gamma) * float(frag) ** float(beta)


def meteor_score_value(f: Number, penalty: Number) -> Number:
    """The final score ``F_mean·(1 − penalty)``.

    >>> meteor_score_value(Fraction(1), Fraction(1, 2))  # digest row 1: 0.5
    Fraction(1, 2)
    >>> meteor_score_value(Fraction(1), Fraction(1, 432))  # digest row 2: 0.99769
    Fraction(431, 432)
    """
    return f * (1 - penalty)


def score_from_counts(
    matches: int, candidate_length: int, reference_length: int, chunks: int,
    alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
) -> float:
    """The METEOR score from the four counts, in plain floats (fast, for resampling).

    The same formulas as above, without Fractions: a bootstrap over a corpus sums
    the per-segment counts of a resample and calls this thousands of times.

    >>> score_from_counts(6, 7, 6, 2)  # digest row 3
    0.9653916211293262
    >>> score_from_counts(0, 5, 4, 0)
    0.0
    """
    if matches == 0 or candidate_length == 0 or reference_length == 0:
        return 0.0
    p = matches / candidate_length
    r = matches / reference_length
    f = p * r / (alpha * p + (1 - alpha) * r)
    return f * (1 - gamma * (chunks / matches) ** beta)


def count_crossings(pairs: Iterable[Pair]) -> int:
    """How many pairs of mappings cross: ``(i1 − i2)·(j1 − j2) < 0``.

    Counted as inversions of the reference positions read in candidate order, in
    O(n log n), so a 10,000-word alignment is counted instantly. The digest's
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
    neighbour starts a new one. Alignment (b) of the digest,
    [on the mat] [sat] [the cat]:

    >>> chunk_spans([(0, 3), (1, 4), (2, 5), (3, 2), (4, 0), (5, 1)])
    [ChunkSpan(candidate_start=0, candidate_stop=3, reference_start=3, reference_stop=6), ChunkSpan(candidate_start=3, candidate_stop=4, reference_start=2, reference_stop=3), ChunkSpan(candidate_start=4, candidate_stop=6, reference_start=0, reference_stop=2)]
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


def check_parameters(alpha: object, beta: object, gamma: object) -> tuple[numbers.Real, numbers.Real, numbers.Real]:
    """Check METEOR's parameters and return them as plain ``int``, ``Fraction`` or ``float``.

    α must lie in [0, 1], β must be non-negative and γ must lie in [0, 1] (a
    larger γ would make the score negative).

    >>> check_parameters(0.9, 3, 0.5)
    (0.9, 3, 0.5)
    >>> check_parameters(1.5, 3, 0.5)
    Traceback (most recent call last):
    ...
    ValueError: alpha: must lie in [0, 1] (it weights precision against recall), got 1.5
    """
    # Any real (numpy scalars, Fraction) becomes a plain int, Fraction or float, the same way
    # every time (mtlearn.core.checks.as_real): no numpy type reaches exact(), a cache or a signature.
    alpha, beta, gamma = (as_real(v, name) for name, v in (("alpha", alpha), ("beta", beta), ("gamma", gamma)))
    if not 0 <= alpha <= 1:
        raise ValueError(
            f"alpha: must lie in [0, 1] (it weights precision against recall), got {alpha!r}"
        )
    if beta < 0:
        raise ValueError(
            f"beta: must be non-negative (the exponent of the fragmentation c/m), got {beta!r}"
        )
    if gamma < 0:
        raise ValueError(f"gamma: must be non-negative (the largest penalty), got {gamma!r}")
    if gamma > 1:
        raise ValueError(
            f"gamma: must be at most 1 (the largest penalty; above 1 the score turns negative), "
            f"got {gamma!r}"
        )
    return alpha, beta, gamma

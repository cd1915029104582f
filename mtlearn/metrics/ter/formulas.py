"""TER's formulas after the search, plainly: the kept reference, the average length, the score.

The edit distance is :mod:`~mtlearn.metrics.ter.edit_distance` and tercom's shift search
:mod:`~mtlearn.metrics.ter.shifts`; what is left is arithmetic a student checks by hand:

- with several references, the **kept reference** is the one with the fewest edits, the first
  on a tie (:func:`best_reference`), and the length is the **average** of all the references'
  lengths (:func:`average_length`), an exact fraction;
- TER = edits / reference length (:func:`ter_fraction`), which can exceed 1; with length 0,
  sacreBLEU's rule: 1 if there are edits, else 0 (:func:`zero_length_rule` says so);
- as a float (:func:`ter_score`), sacreBLEU's division ``edits / float(length)``.

WER and CER use the same three formulas, with the exact Levenshtein distance as the edits.

>>> best_reference([3, 1, 1]), average_length([("a", "b"), ("a",), ()])
(1, Fraction(1, 1))
>>> ter_fraction(3, Fraction(8)), ter_score(3, Fraction(8))
(Fraction(3, 8), 0.375)
>>> ter_fraction(2, Fraction(0)), zero_length_rule(0, Fraction(0))
(Fraction(1, 1), "the reference length is 0 and there are no edits: sacreBLEU's rule gives 0")
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Optional

__all__ = ["best_reference", "average_length", "ter_fraction", "ter_score", "zero_length_rule"]


def best_reference(edit_counts: Sequence[int]) -> int:
    """The index of the reference with the fewest edits; the first one on a tie.

    >>> best_reference([2, 1, 1])
    1
    """
    best = 0
    for k, edits in enumerate(edit_counts):
        if edits < edit_counts[best]:
            best = k
    return best


def average_length(references: Sequence[Sequence[str]]) -> Fraction:
    """The average length of the references, exact (an empty reference counts 0).

    >>> average_length([("a", "b", "c"), ("a", "b", "c", "d")])
    Fraction(7, 2)
    """
    return Fraction(sum(map(len, references)), len(references))


def zero_length_rule(edits: int, ref_length: Fraction) -> Optional[str]:
    """Why the score is what it is when the reference length is 0 (sacreBLEU's rule); ``None`` otherwise.

    >>> zero_length_rule(0, Fraction(0))
    "the reference length is 0 and there are no edits: sacreBLEU's rule gives 0"
    """
    if ref_length > 0:
        return None
    if edits > 0:
        return ("the reference length is 0 (empty references) and the candidate has words: "
                "sacreBLEU's rule gives 1")
    return "the reference length is 0 and there are no edits: sacreBLEU's rule gives 0"


def ter_fraction(edits: int, ref_length: Fraction) -> Fraction:
    """TER = edits / reference length, exact; with length 0, 1 if there are edits, else 0 (sacreBLEU's rule).

    >>> ter_fraction(1, Fraction(6)), ter_fraction(0, Fraction(0))
    (Fraction(1, 6), Fraction(0, 1))
    """
    if ref_length > 0:
        return Fraction(edits) / ref_length
    return Fraction(1 if edits > 0 else 0)


def ter_score(edits: int, ref_length: Fraction) -> float:
    """:func:`ter_fraction` as sacreBLEU computes it: ``edits / float(length)``.

    Dividing by the rounded length can differ from ``float(ter_fraction(...))`` in the last
    bit (a length of 10/3); sacreBLEU's is the number mtlearn reports.

    >>> ter_score(1, Fraction(6)), ter_score(2, Fraction(0))
    (0.16666666666666666, 1.0)
    """
    if ref_length > 0:
        return edits / float(ref_length)
    return float(ter_fraction(edits, ref_length))

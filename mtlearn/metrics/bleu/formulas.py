"""BLEU's formula steps as small named functions (Papineni, Roukos, Ward and Zhu, ACL 2002).

Each function is one line of the paper, with the paper's own example:

- :func:`clipped_count` and :func:`modified_precision` -- p_n, clipped matches over
  candidate n-grams;
- :func:`closest_ref_length` -- r, the reference length nearest the candidate's;
- :func:`brevity_penalty` -- BP = 1 if c > r else exp(1 - r/c);
- :func:`uniform_weights`, :func:`check_weights` and :func:`geometric_mean` --
  exp(sum_n w_n log p_n).

BLEU = BP * exp(sum_n w_n log p_n). :func:`mtlearn.bleu` and :func:`mtlearn.corpus_bleu`
call :func:`brevity_penalty` and :func:`geometric_mean` themselves; r and the counts
behind p_n come from one fused pass over each segment that equals
:func:`closest_ref_length` and :func:`precision_counts` (tests/metrics/bleu/test_bleu_fast.py
proves it on random segments). The functions here are what a student can call on a
hand example.

>>> cand = "the the the the the the the".split()
>>> refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
>>> modified_precision(cand, refs, 1)
Fraction(2, 7)
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Optional, Union

from mtlearn.core.checks import Segment, as_real, as_tokens
from mtlearn.core.ngrams import count_ngrams, max_reference_counts

Number = Union[float, Fraction]


def clipped_count(candidate_count: int, reference_counts: Sequence[int]) -> int:
    """Count_clip = min(Count, max over references of Count_R): credit never beyond a reference.

    Papineni's "the" in "the the the the the the the" occurs 7 times; reference 1
    ("the cat is on the mat") has it twice, reference 2 once:

    >>> clipped_count(7, [2, 1])
    2
    """
    return min(candidate_count, max(reference_counts, default=0))


def modified_precision(candidate: Segment, references: Sequence[Segment], n: int) -> Fraction:
    """Modified n-gram precision p_n of one candidate: sum of clipped counts / number of n-grams.

    Strings are split on white space; pass token lists to control tokenization.
    A candidate with no n-grams (shorter than n) has precision 0/0, returned as
    ``Fraction(0)`` like NLTK. (Argument order is mtlearn's: candidate first.)

    Papineni's first example (2.1): the paper counts words without the final full
    stop, and the numbers are the same with or without lowercasing.

    >>> c1 = ("It is a guide to action which ensures that the military always obeys "
    ...       "the commands of the party").split()
    >>> c2 = "It is to insure the troops forever hearing the activity guidebook that party direct".split()
    >>> refs = [("It is a guide to action that ensures that the military will forever "
    ...          "heed Party commands").split(),
    ...         ("It is the guiding principle which guarantees the military forces always "
    ...          "being under the command of the Party").split(),
    ...         "It is the practical guide for the army always to heed the directions of the party".split()]
    >>> [str(modified_precision(c, refs, n)) for c in (c1, c2) for n in (1, 2)]
    ['17/18', '10/17', '4/7', '1/13']

    (8/14 is 4/7 reduced: use :func:`precision_counts` for the unreduced pair.)
    """
    matches, total = precision_counts(candidate, references, n)
    return Fraction(matches, total) if total else Fraction(0)


def precision_counts(candidate: Segment, references: Sequence[Segment], n: int) -> tuple[int, int]:
    """The pair (sum of clipped counts, number of candidate n-grams) behind p_n, unreduced.

    >>> c2 = "It is to insure the troops forever hearing the activity guidebook that party direct".split()
    >>> refs = [("It is a guide to action that ensures that the military will forever "
    ...          "heed Party commands").split(),
    ...         ("It is the guiding principle which guarantees the military forces always "
    ...          "being under the command of the Party").split(),
    ...         "It is the practical guide for the army always to heed the directions of the party".split()]
    >>> precision_counts(c2, refs, 1)
    (8, 14)
    """
    cand = as_tokens(candidate, argname="candidate")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError("references: expected a list of references")
    refs = [as_tokens(r, argname=f"references[{i}]") for i, r in enumerate(references)]
    counts = count_ngrams(cand, n)
    caps = max_reference_counts(refs, n)
    matches = sum(min(count, caps[gram]) for gram, count in counts.items())
    return matches, sum(counts.values())


def closest_ref_length(candidate_length: int, reference_lengths: Sequence[int]) -> int:
    """r: the reference length closest to the candidate's; on a tie the shorter one.

    (sacreBLEU's and NLTK's rule, from mteval-v13a.) Papineni's example: references
    of 12, 15 and 17 words, a candidate of 12 words, so r = 12 and BP = 1:

    >>> closest_ref_length(12, [12, 15, 17])
    12
    >>> closest_ref_length(12, [13, 11])
    11
    """
    if len(reference_lengths) == 0:
        raise ValueError("reference_lengths: no references given")
    return min(reference_lengths, key=lambda length: (abs(length - candidate_length), length))


def brevity_penalty(candidate_length: int, reference_length: int) -> float:
    """BP = 1 if c >= r, else exp(1 - r/c); 0 for an empty candidate (c = 0 < r).

    This is sacreBLEU's rule; NLTK's differs only for c = r = 0 (it gives 0, this 1),
    where BLEU is 0 anyway because nothing can match.

    c is the candidate length, r the (closest, summed over a corpus) reference length.
    The Chinese blog post's example C: label of 6 words, prediction of 2:

    >>> round(brevity_penalty(2, 6), 4)
    0.1353
    >>> brevity_penalty(12, 12), brevity_penalty(0, 6)
    (1.0, 0.0)
    """
    if candidate_length < reference_length:
        return math.exp(1 - reference_length / candidate_length) if candidate_length > 0 else 0.0
    return 1.0


def uniform_weights(max_order: int) -> tuple[float, ...]:
    """w_n = 1/N for n = 1..N: the standard BLEU-N weights.

    >>> uniform_weights(4)
    (0.25, 0.25, 0.25, 0.25)
    """
    return (1.0 / max_order,) * max_order


def check_weights(
    weights: Optional[Sequence[float]], max_order: int, *, stacklevel: int = 2
) -> tuple[float, ...]:
    """Validate the weights w_1..w_N (``None`` means uniform).

    Any sequence of real numbers is accepted (a list, a tuple, a numpy array; numpy
    scalars and ``Fraction`` alike). Wrong length, a negative weight or weights
    summing to 0 (BLEU would then be exp(0) = 1 whatever the candidate) are errors;
    weights that do not sum to 1 are allowed (some studies use them) but draw a
    warning (``stacklevel`` as in ``warnings.warn``, so that it points at the
    caller's line).

    >>> check_weights(None, 2)
    (0.5, 0.5)
    >>> check_weights([0.5, 0.5, 0.5], 2)
    Traceback (most recent call last):
    ...
    ValueError: weights: 3 weights given for max_order=2; give one weight per n-gram order
    >>> check_weights([0, 0], 2)
    Traceback (most recent call last):
    ...
    ValueError: weights: they sum to 0; give at least one order a positive weight
    """
    if weights is None:
        return uniform_weights(max_order)
    if isinstance(weights, (str, bytes, Mapping)) or not isinstance(weights, Iterable):
        raise TypeError(f"weights: expected a sequence of numbers, got {type(weights).__name__}")
    values = []
    for i, w in enumerate(weights):
        if isinstance(w, bool) or not isinstance(w, numbers.Real):
            raise TypeError(f"weights: weight {i} is {type(w).__name__} ({w!r}), expected a number")
        w = as_real(w, f"weights: weight {i}")
        if w < 0:
            raise ValueError(f"weights: weight {i} is negative ({w!r}); weights must be >= 0")
        values.append(float(w))
    if len(values) != max_order:
        raise ValueError(
            f"weights: {len(values)} weights given for max_order={max_order}; "
            "give one weight per n-gram order"
        )
    total = _weight_sum(values)
    if total == 0:
        raise ValueError("weights: they sum to 0; give at least one order a positive weight")
    if abs(total - 1.0) > 1e-9:
        warnings.warn(
            f"weights: they sum to {total:g}, not 1; BLEU is then not a weighted geometric mean",
            UserWarning,
            stacklevel=stacklevel,
        )
    return tuple(values)


def _weight_sum(values: Sequence[float]) -> float:
    """The exact-rounded sum of the weights; a sum beyond the largest float is an error."""
    try:
        total = math.fsum(values)
    except OverflowError:
        total = math.inf
    if not math.isfinite(total):
        raise ValueError("weights: their sum is beyond the largest float; give smaller weights")
    return total


def geometric_mean(precisions: Sequence[Number], weights: Sequence[float]) -> float:
    """exp(sum_n w_n log p_n); 0 as soon as a precision with a positive weight is 0.

    The Chinese blog post's example B shows how a weight of 1/2^n flattens p_n = 0.5:

    >>> [round(geometric_mean([0.5], [1 / 2 ** n]), 2) for n in (1, 2, 3, 4)]
    [0.71, 0.84, 0.92, 0.96]
    >>> geometric_mean([Fraction(4, 5), Fraction(0)], [0.5, 0.5])
    0.0
    """
    terms = []
    for p, w in zip(precisions, weights):
        if w == 0:
            continue
        if p <= 0:
            return 0.0
        terms.append(w * math.log(p))
    return math.exp(math.fsum(terms))  # fsum: the sum correctly rounded, whatever the order

"""N-gram extraction and counting, the raw material of BLEU.

An *n-gram* is a run of ``n`` consecutive tokens. mtlearn always keys n-grams by
**tuples** of tokens, never by joined strings: ``''.join`` makes ``("ab", "c")``
and ``("a", "bc")`` collide (the trap in the Chinese blog post's code), and even
``' '.join`` breaks on tokens that contain spaces.

>>> ngrams(["the", "cat", "sat"], 2)
[('the', 'cat'), ('cat', 'sat')]
>>> count_ngrams("the the cat".split(), 1)
Counter({('the',): 2, ('cat',): 1})
>>> ("ab", "c") == ("a", "bc")
False

The functions here favour clarity; corpus BLEU counts on its hot path with a fused
form of them (``mtlearn.metrics.bleu.fast``), which tests/metrics/bleu/test_bleu_fast.py
proves equal to these steps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Callable

Ngram = tuple[str, ...]

try:  # CPython's C helper behind Counter(iterable): counts into any dict
    from _collections import _count_elements as count_elements
except ImportError:  # pragma: no cover - other Pythons
    def count_elements(mapping: dict, iterable) -> None:  # type: ignore[misc]
        """Add the count of every element of ``iterable`` to ``mapping``."""
        get = mapping.get
        for element in iterable:
            mapping[element] = get(element, 0) + 1


def ngrams(tokens: Sequence[str], n: int) -> list[Ngram]:
    """All n-grams of ``tokens`` in order (an empty list when ``len(tokens) < n``).

    >>> ngrams("A B B C D".split(), 3)
    [('A', 'B', 'B'), ('B', 'B', 'C'), ('B', 'C', 'D')]
    >>> ngrams(["A"], 2)
    []
    """
    _check_order(n)
    tokens = list(tokens)
    return list(zip(*[tokens[i:] for i in range(n)]))


def count_ngrams(tokens: Sequence[str], n: int) -> Counter[Ngram]:
    """How often each n-gram occurs in ``tokens``.

    Papineni's candidate "the the the the the the the" has one unigram, seven times:

    >>> count_ngrams(["the"] * 7, 1)
    Counter({('the',): 7})
    """
    return Counter(ngrams(tokens, n))


def max_reference_counts(references: Sequence[Sequence[str]], n: int) -> Counter[Ngram]:
    """For every n-gram of any reference, the largest count it has in a *single* reference.

    This is the cap of BLEU's clipping: Count_clip = min(Count, max_ref_count).

    >>> refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    >>> max_reference_counts(refs, 1)[("the",)]
    2
    """
    merged: Counter[Ngram] = Counter()
    for reference in references:
        for gram, count in count_ngrams(reference, n).items():
            if count > merged[gram]:
                merged[gram] = count
    return merged


def _check_order(n: object) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n: expected a positive int, got {type(n).__name__}")
    if n < 1:
        raise ValueError(f"n: the n-gram order must be at least 1, got {n}")


# --- values per n-gram order ------------------------------------------------------

#: A run of equal values at the end longer than this is said once, with its count.
_TAIL = 6


def orders_text(values: Sequence, fmt: Callable[[object], str], sep: str = "/") -> str:
    """Per-order values joined by ``sep``; a long run of one value at the end (orders past the longest
    sentence, which have no n-grams) said once, with its count.

    >>> orders_text((1.0, 0.5), "{:.1f}".format)
    '1.0/0.5'
    >>> orders_text((1.0, 0.5) + (0.0,) * 98, "{:.1f}".format)
    '1.0/0.5/0.0 (and 97 more orders, each 0.0)'
    """
    values = list(values)
    run = 1
    while run < len(values) and values[-run - 1] == values[-1]:
        run += 1
    if run <= _TAIL:
        return sep.join(fmt(v) for v in values)
    head = values[: len(values) - run + 1]
    return sep.join(fmt(v) for v in head) + f" (and {run - 1} more orders, each {fmt(values[-1])})"

"""N-gram extraction and counting, the raw material of BLEU.

An *n-gram* is a run of ``n`` consecutive tokens. mtlearn always keys n-grams by
**tuples** of tokens, never by joined strings: ``''.join`` makes ``("ab", "c")``
and ``("a", "bc")`` collide (the trap in document 002's code), and even
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
from itertools import chain, repeat
from typing import Callable, Union

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


# --- values per n-gram order, for any number of orders ------------------------------

#: Up to this many orders, per-order values are plain tuples; above it, :class:`PerOrder`.
MATERIALIZED_ORDERS = 4096


class PerOrder(Sequence):
    """One value per n-gram order 1..N when N is huge: the values stored, then one value repeated.

    Orders beyond the longest candidate have no n-gram, so their counts (0), precisions
    and weights are all the same value: storing them one by one made
    ``max_order=10**8`` take gigabytes. A ``PerOrder`` is an immutable sequence equal,
    item for item, to the tuple it stands for (``==``, ``len``, indexing, slicing,
    iteration), at the cost of the values stored.

    >>> p = PerOrder((3, 1), 0, 6)
    >>> len(p), p[1], p[5], p[-1], p == (3, 1, 0, 0, 0, 0), 0 in p
    (6, 1, 0, 0, True, True)
    >>> p[1:4], PerOrder((0.5,), 0.25, 10**8)
    ((1, 0, 0), PerOrder((0.5,), fill=0.25, length=100000000))
    """

    __slots__ = ("head", "fill", "length")

    def __init__(self, head: Sequence, fill: object, length: int) -> None:
        head = tuple(head)
        if length < len(head):
            raise ValueError(f"length: {length} is shorter than the {len(head)} values stored")
        while head and type(head[-1]) is type(fill) and head[-1] == fill:
            head = head[:-1]  # one spelling per sequence, so equal sequences hash alike
        object.__setattr__(self, "head", head)
        object.__setattr__(self, "fill", fill)
        object.__setattr__(self, "length", length)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("PerOrder is immutable")

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            start, stop, step = index.indices(self.length)
            if step != 1:
                return tuple(self[i] for i in range(start, stop, step))
            stop = max(start, stop)
            return per_order(self.head[start:stop], self.fill, stop - start)
        if index < 0:
            index += self.length
        if not 0 <= index < self.length:
            raise IndexError("PerOrder index out of range")
        return self.head[index] if index < len(self.head) else self.fill

    def __iter__(self):
        return chain(self.head, repeat(self.fill, self.length - len(self.head)))

    def __contains__(self, value: object) -> bool:
        return value in self.head or (self.length > len(self.head) and self.fill == value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PerOrder):
            if other.length != self.length:
                return False
            stored = max(len(self.head), len(other.head))
            same_tail = stored == self.length or self.fill == other.fill
            return same_tail and all(a == b for a, b in zip(self[:stored], other[:stored]))
        if isinstance(other, (tuple, list)):
            return len(other) == self.length and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.head, self.fill, self.length))

    def __repr__(self) -> str:
        return f"PerOrder({self.head!r}, fill={self.fill!r}, length={self.length})"


def per_order(head: Sequence, fill: object, length: int) -> Union[tuple, PerOrder]:
    """``head`` followed by ``fill`` up to ``length`` items: a tuple when short, else a :class:`PerOrder`.

    >>> per_order((2, 1), 0, 4)
    (2, 1, 0, 0)
    >>> per_order((2, 1), 0, 10**6)
    PerOrder((2, 1), fill=0, length=1000000)
    """
    head = tuple(head)
    if length <= MATERIALIZED_ORDERS:
        return head[:length] + (fill,) * (length - len(head))
    return PerOrder(head, fill, length)


def orders_text(values: Sequence, fmt: Callable[[object], str], sep: str = "/") -> str:
    """Per-order values joined by ``sep``; a :class:`PerOrder`'s repeated tail said once, with its count.

    >>> orders_text((1.0, 0.5), "{:.1f}".format)
    '1.0/0.5'
    >>> orders_text(PerOrder((1.0, 0.5), 0.0, 10**8), "{:.1f}".format)
    '1.0/0.5/0.0 (and 99999997 more orders, each 0.0)'
    """
    if not isinstance(values, PerOrder):
        return sep.join(fmt(v) for v in values)
    head = list(values.head) + [values.fill]
    rest = values.length - len(head)
    return sep.join(fmt(v) for v in head) + (f" (and {rest} more orders, each {fmt(values.fill)})" if rest
                                             else "")

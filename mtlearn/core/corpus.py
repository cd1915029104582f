"""The corpus boundary, written once: what every corpus function does before and after it scores.

:func:`corpus_call` gives a mis-shaped reference layout its hint (before the shape errors, which
would hide it), checks the shapes, runs the metric, and scores a square layout the other way too
(:func:`mtlearn.core.references.warn_ambiguous_layout`). :class:`Segments` is the lazy list of a
corpus result's segments: each segment's statistics are kept compactly, its full result (n-gram
tables, alignment, edit script) is rebuilt only when it is read.

>>> def run(cands, refs):  # a toy metric: the share of candidates equal to one of their references
...     return Toy(sum(c in rs for c, rs in zip(cands, refs)) / len(cands))
>>> from dataclasses import dataclass
>>> @dataclass
... class Toy:
...     score: float
>>> corpus_call("corpus_toy", ["a b", "c"], [["a b"], ["d"]], run)
Toy(score=0.5)
>>> corpus_call("corpus_toy", ["a b", "c"], [["a b"]], run)
Traceback (most recent call last):
...
ValueError: references: 1 reference lists for 2 candidates; references[i] must hold the references of candidates[i]
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, Protocol, TypeVar, Union, overload

from mtlearn.core.checks import check_corpus, check_index
from mtlearn.core.references import warn_ambiguous_layout, warn_reference_layout
from mtlearn.core.wording import plural


class Scored(Protocol):
    score: float


R = TypeVar("R", bound=Scored)
S = TypeVar("S")
T = TypeVar("T")


def corpus_call(call: str, candidates: object, references: object,
                run: Callable[[list[Any], list[Any]], R], *, stacklevel: int = 3) -> R:
    """``run(candidates, references)`` inside the corpus boundary (see the module's docstring).

    ``call`` names the public function in every message; ``run`` gets plain lists of the
    right lengths and returns a result with a ``score``.
    """
    warn_reference_layout(candidates, references, call=call, stacklevel=stacklevel + 1)
    check_corpus(candidates, references)
    assert isinstance(candidates, Sequence) and isinstance(references, Sequence)
    cands, refs = list(candidates), list(references)
    result = run(cands, refs)
    warn_ambiguous_layout(cands, refs, result.score, lambda other: run(cands, list(other)).score, call=call,
                          stacklevel=stacklevel + 1)
    return result


class Segments(Sequence[T], Generic[T, S]):
    """A corpus result's segments: ``segments[i]`` is built on access, ``stats()`` read without rebuilding.

    ``stats_of(i)`` returns segment i's sufficient statistics from the corpus's compact store;
    ``build(i)`` rebuilds its full result. ``name`` is the result type, for the repr.

    >>> s = Segments("Toy", 3, stats_of=lambda i: i * 10, build=lambda i: f"segment {i}")
    >>> len(s), s[1], s[-1], s[0:2], s.stats()
    (3, 'segment 1', 'segment 2', ['segment 0', 'segment 1'], [0, 10, 20])
    >>> s
    <ToySegments: 3 segments>
    """

    def __init__(self, name: str, size: int, *, stats_of: Callable[[int], S], build: Callable[[int], T],
                 all_stats: Union[Callable[[], list[S]], None] = None) -> None:
        self._name = name
        self._size = size
        self._stats_of = stats_of
        self._build = build
        self._all_stats = all_stats

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[T, list[T]]:
        if isinstance(index, slice):
            return [self._build(i) for i in range(*index.indices(self._size))]
        return self._build(check_index(index, self._size))

    def __iter__(self) -> Iterator[T]:
        return (self._build(i) for i in range(self._size))

    def stats_of(self, index: int) -> S:
        """Segment ``index``'s statistics."""
        return self._stats_of(check_index(index, self._size))

    def stats(self) -> list[S]:
        """Every segment's statistics, in order (e.g. for a bootstrap)."""
        return self._all_stats() if self._all_stats else [self._stats_of(i) for i in range(self._size)]

    def __repr__(self) -> str:
        return f"<{self._name}Segments: {plural(self._size, 'segment')}>"

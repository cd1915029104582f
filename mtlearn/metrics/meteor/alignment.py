"""METEOR's alignment: which candidate unigram is mapped to which reference unigram.

The rule (Banerjee & Lavie 2005; the Spanish Wikipedia article *METEOR*):

* every candidate unigram maps to at most one reference unigram and vice versa;
* stages run in order (``exact``, ``stem``, ``synonym``, ...); each stage only
  looks at unigrams that earlier stages left unmatched and adds **the largest
  possible number** of mappings;
* among the alignments with that number, the one with the **fewest crossings**
  is chosen, crossings counted over *all* mappings so far (earlier stages
  included). Two mappings ``(i1, j1)``, ``(i2, j2)`` cross when
  ``(i1 − i2)·(j1 − j2) < 0``;
* among those still equal, the one with the **fewest chunks** (over all mappings
  so far): of equally good alignments, the one METEOR's penalty likes best;
* with ``tie_break="chunks"`` the crossings step is left out: most mappings, then
  fewest chunks, the rule of METEOR 1.x;
* **documented tie-break** for alignments still equal: read the stage's
  reference positions in candidate order, an unmatched candidate word counting
  as after every reference position; the lexicographically smallest sequence
  wins (so earlier candidate words take earlier reference words).

In short: most matches → fewest crossings → fewest chunks → lexicographic
(``tie_break="chunks"``: most matches → fewest chunks → lexicographic).
:mod:`mtlearn.metrics.meteor.alignment_reference` writes this rule as a plain
enumeration (``align(..., method="reference")``); the default ``method="search"``
is the exact search of :mod:`mtlearn.metrics.meteor._search`, which gives the same
alignment on any length: balanced blocks of equal words are mapped in order without
search, the rest by a branch and bound with a node budget. When the budget runs out,
the best alignment found is returned with ``optimal=False``.

The worked example's row 1: "on the mat sat the cat" against "the cat sat on the mat".

>>> from mtlearn.metrics.meteor.matchers import resolve_stages
>>> a = align("on the mat sat the cat".split(), "the cat sat on the mat".split(),
...           resolve_stages(["exact"]))
>>> a.pairs, a.crossings, a.chunks, a.optimal
(((0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)), 8, 6, True)
>>> b = align("on the mat sat the cat".split(), "the cat sat on the mat".split(),
...           resolve_stages(["exact"]), tie_break="chunks")
>>> b.pairs, b.crossings, b.chunks
(((0, 3), (1, 4), (2, 5), (3, 2), (4, 0), (5, 1)), 11, 3)

Fewest chunks before the lexicographic rule: three alignments have 4 matches and
1 crossing; the first "He" would give 4 chunks, the third gives 3 ("He eats"):

>>> c = align("He He He eats sweet apple which is a fruit.".split(),
...           "He eats a sweet apple.".split(), resolve_stages(["exact"]))
>>> c.pairs, c.crossings, c.chunks
(((2, 0), (3, 1), (4, 3), (8, 2)), 1, 3)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Optional, Union, overload

from mtlearn.core.checks import check_choice, check_index
from mtlearn.metrics.meteor._search import Budget, SearchLimits, SearchStop, solve_stage
from mtlearn.metrics.meteor.fast import crossings_and_chunks
from mtlearn.metrics.meteor.formulas import count_chunks, count_crossings
from mtlearn.metrics.meteor.matchers import Stage
from mtlearn.metrics.meteor.options import TIE_BREAKS

Pair = tuple[int, int]

#: Values of ``method`` in :func:`align`.
METHODS: tuple[str, ...] = ("search", "reference")

#: Search nodes one :func:`align` call may visit before settling for the best found, per
#: ``tie_break`` (from :class:`~mtlearn.metrics.meteor._search.SearchLimits`).
DEFAULT_NODE_BUDGET: dict[str, int] = {t: SearchLimits().node_budget(t) for t in TIE_BREAKS}
#: The most words, and the most possible mappings, a group may have and still spend a whole
#: node budget, per rule; a group past both, of ``n`` words, may spend
#: ``node_budget × (FULL_BUDGET_WORDS / n)³`` of it (see ``_search.Budget``).
FULL_BUDGET_WORDS: dict[str, int] = {t: SearchLimits().full_words(t) for t in TIE_BREAKS}
FULL_BUDGET_CELLS: dict[str, int] = {t: SearchLimits().full_cells(t) for t in TIE_BREAKS}


@dataclass(frozen=True)
class UnigramMapping:
    """One mapping of the alignment: a line from a candidate unigram to a reference unigram.

    >>> UnigramMapping(1, 0, "exact", "the", "the")  # doctest: +NORMALIZE_WHITESPACE
    UnigramMapping(candidate_index=1, reference_index=0, stage='exact', candidate_word='the',
                   reference_word='the')
    """

    candidate_index: int
    reference_index: int
    stage: str
    candidate_word: str
    reference_word: str

    @property
    def pair(self) -> Pair:
        """``(candidate_index, reference_index)``."""
        return (self.candidate_index, self.reference_index)


_object_new = object.__new__
_object_setattr = object.__setattr__


def _new_mapping(i: int, j: int, stage: str, cw: str, rw: str) -> UnigramMapping:
    """``UnigramMapping(i, j, stage, cw, rw)``, built without the frozen ``__init__``'s
    one ``object.__setattr__`` per field (an alignment makes one per matched word).

    >>> _new_mapping(1, 0, "exact", "the", "the") == UnigramMapping(1, 0, "exact", "the", "the")
    True
    """
    m = _object_new(UnigramMapping)
    _object_setattr(m, "__dict__", {"candidate_index": i, "reference_index": j, "stage": stage,
                                    "candidate_word": cw, "reference_word": rw})
    return m


@dataclass(frozen=True)
class Alignment:
    """The outcome of :func:`align`: the mappings, sorted by candidate index, and their counts.

    ``optimal`` is True when the search proved, stage by stage, that no alignment
    with as many matches has fewer crossings (or chunks), and the tie-break rule
    was applied. ``nodes`` is how many search nodes were visited. ``stops`` says why
    the search did not prove it (empty when ``optimal``): one
    :class:`~mtlearn.metrics.meteor._search.SearchStop` per limit met, the first of each —
    the node budget, a large group's share of it, or a group too large to search.

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> a = align(["the", "cats", "sat"], ["a", "cat", "sat"], resolve_stages(["exact", "stem"]))
    >>> [(m.candidate_word, m.reference_word, m.stage) for m in a.mappings]
    [('cats', 'cat', 'stem'), ('sat', 'sat', 'exact')]
    >>> a.matches_per_stage
    {'exact': 1, 'stem': 1}
    """

    candidate: tuple[str, ...]
    reference: tuple[str, ...]
    mappings: tuple[UnigramMapping, ...]
    stages: tuple[str, ...]
    tie_break: str
    crossings: int
    chunks: int
    optimal: bool
    nodes: int = 0
    stops: tuple[SearchStop, ...] = ()

    @property
    def pairs(self) -> tuple[Pair, ...]:
        """The mappings as ``(candidate index, reference index)`` pairs."""
        return tuple(m.pair for m in self.mappings)

    @property
    def matches(self) -> int:
        """The number of mappings, ``u_m`` (= ``m``)."""
        return len(self.mappings)

    @property
    def matches_per_stage(self) -> dict[str, int]:
        """How many mappings each stage added, in stage order."""
        counts = {name: 0 for name in self.stages}
        for m in self.mappings:
            counts[m.stage] += 1
        return counts


def _align_core(
    cand: Sequence[str], ref: Sequence[str], stages: Sequence[Stage], tie_break: str,
    budget: Budget,
) -> tuple[list[Pair], list[int], bool]:
    """The alignment as ``(pairs sorted by candidate index, stage number of each, optimal)``.

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> _align_core(["the", "cats", "sat"], ["a", "cat", "sat"], resolve_stages(["exact", "stem"]),
    ...             "crossings", Budget(100))
    ([(1, 1), (2, 2)], [1, 0], True)
    """
    fixed: dict[int, int] = {}
    stage_of: dict[int, int] = {}
    optimal = True
    for number, stage in enumerate(stages):
        if len(fixed) == min(len(cand), len(ref)):
            break  # one side is used up: later stages cannot add a mapping
        found = solve_stage(cand, ref, stage, fixed, tie_break, budget)
        optimal = optimal and found.optimal
        for i, j in found.pairs:
            fixed[i] = j
            stage_of[i] = number
    ordered = sorted(fixed.items())
    return ordered, [stage_of[i] for i, _ in ordered], optimal


# --------------------------------------------------------------------------- public


class AlignedPairs(NamedTuple):
    """The bare outcome of an alignment, before any mapping object is built.

    ``pairs`` are ``(candidate index, reference index)`` sorted by candidate index,
    ``stage_numbers[k]`` the index in ``stages`` of the stage that made ``pairs[k]``;
    ``nodes`` the search nodes visited, ``stops`` the limits that stopped it (see
    :class:`Alignment`). What :func:`align` wraps into an
    :class:`Alignment`, and what a corpus keeps per segment (cheap to store).

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> align_pairs("on the mat sat the cat".split(), "the cat sat on the mat".split(),
    ...             resolve_stages(["exact"]))  # doctest: +NORMALIZE_WHITESPACE
    AlignedPairs(pairs=((0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)), stage_numbers=(0, 0, 0, 0, 0, 0),
                 optimal=True, nodes=0, crossings=8, chunks=6, stops=())
    """

    pairs: tuple[Pair, ...]
    stage_numbers: tuple[int, ...]
    optimal: bool
    nodes: int
    crossings: int
    chunks: int
    stops: tuple[SearchStop, ...] = ()


def _check_budget(tie_break: str, node_budget: Optional[int]) -> tuple[str, int]:
    tie_break = check_choice(tie_break, TIE_BREAKS, "tie_break")
    if node_budget is None:
        node_budget = DEFAULT_NODE_BUDGET[tie_break]
    if isinstance(node_budget, bool) or not isinstance(node_budget, int) or node_budget < 0:
        raise ValueError(f"node_budget: expected a non-negative integer, got {node_budget!r}")
    return tie_break, node_budget


def _check_tokens(segment: object, argname: str) -> tuple[str, ...]:
    """A segment for the alignment functions: a list or tuple of str tokens.

    >>> _check_tokens(["the", "cat"], "candidate")
    ('the', 'cat')
    >>> _check_tokens("the cat", "candidate")
    Traceback (most recent call last):
    ...
    TypeError: candidate: expected a list of str tokens, got str (split a sentence into tokens first)
    >>> _check_tokens(["the", 3], "candidate")
    Traceback (most recent call last):
    ...
    TypeError: candidate: token 1 is int (3), expected str
    """
    if isinstance(segment, str):
        raise TypeError(f"{argname}: expected a list of str tokens, got str "
                        "(split a sentence into tokens first)")
    if not isinstance(segment, (list, tuple)):
        raise TypeError(f"{argname}: expected a list of str tokens, got {type(segment).__name__}")
    for k, token in enumerate(segment):
        if not isinstance(token, str):
            raise TypeError(f"{argname}: token {k} is {type(token).__name__} ({token!r}), expected str")
    return tuple(segment)


def _check_stages(stages: object) -> list[Stage]:
    """The stages for the alignment functions: names, matchers or callables, resolved.

    >>> [s.name for s in _check_stages(["exact", "stem"])]
    ['exact', 'stem']
    """
    from mtlearn.metrics.meteor.matchers import resolve_stages

    return resolve_stages(stages)  # type: ignore[arg-type]


def align_pairs(
    candidate: Sequence[str],
    reference: Sequence[str],
    stages: Sequence[Stage],
    *,
    tie_break: str = "crossings",
    node_budget: Optional[int] = None,
) -> AlignedPairs:
    """:func:`align` without the mapping objects: the pairs, their stages and the counts.

    >>> align_pairs("the cats sat".split(), "a cat sat".split(), ["exact", "stem"]).pairs
    ((1, 1), (2, 2))
    """
    tie_break, node_budget = _check_budget(tie_break, node_budget)
    return _align_pairs(_check_tokens(candidate, "candidate"), _check_tokens(reference, "reference"),
                        _check_stages(stages), tie_break, node_budget)


def _align_pairs(
    candidate: Sequence[str], reference: Sequence[str], stages: Sequence[Stage], tie_break: str,
    node_budget: int,
) -> AlignedPairs:
    """:func:`align_pairs` for checked arguments."""
    budget = Budget(node_budget, FULL_BUDGET_WORDS[tie_break], FULL_BUDGET_CELLS[tie_break])
    ordered, stage_numbers, optimal = _align_core(candidate, reference, stages, tie_break, budget)
    return AlignedPairs(tuple(ordered), tuple(stage_numbers), optimal, budget.used,
                        *crossings_and_chunks(ordered), tuple(budget.stops))


class AlignedBatch(Sequence[AlignedPairs]):
    """The alignments of many ``(candidate, reference)`` pairs.

    ``batch[k]`` is pair k's :class:`AlignedPairs`; :meth:`counts` gives the numbers a
    score needs.

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> batch = align_pairs_many([("the cat".split(), "a cat".split())], resolve_stages(["exact"]))
    >>> len(batch), batch[0].pairs, batch.counts(0)
    (1, ((1, 1),), (1, 1, 0, True, 0))
    """

    def __init__(self, aligned: Sequence[AlignedPairs]) -> None:
        self._aligned = list(aligned)

    def __len__(self) -> int:
        return len(self._aligned)

    @overload
    def __getitem__(self, index: int) -> AlignedPairs: ...

    @overload
    def __getitem__(self, index: slice) -> list[AlignedPairs]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[AlignedPairs, list[AlignedPairs]]:
        if isinstance(index, slice):
            return self._aligned[index]
        return self._aligned[check_index(index, len(self._aligned), "pair")]

    def counts(self, index: int) -> tuple[int, int, int, bool, int]:
        """``(matches, chunks, crossings, optimal, nodes)`` of pair ``index``."""
        found = self._aligned[index]
        return len(found.pairs), found.chunks, found.crossings, found.optimal, found.nodes

    def stage_totals(self, indices: Sequence[int], n_stages: int) -> list[int]:
        """How many mappings each stage made, summed over the pairs ``indices``."""
        totals = [0] * n_stages
        for k in indices:
            for s in self._aligned[k].stage_numbers:
                totals[s] += 1
        return totals

    def __repr__(self) -> str:
        return f"<AlignedBatch: {len(self._aligned)} pairs>"


def align_pairs_many(
    jobs: Sequence[tuple[Sequence[str], Sequence[str]]],
    stages: Sequence[Stage],
    *,
    tie_break: str = "crossings",
    node_budget: Optional[int] = None,
) -> AlignedBatch:
    """:func:`align_pairs` for many ``(candidate, reference)`` pairs: the same results.

    >>> jobs = [("on the mat sat the cat".split(), "the cat sat on the mat".split()),
    ...         ("the cat".split(), "a cat".split())]
    >>> [(a.crossings, a.chunks) for a in align_pairs_many(jobs, ["exact"])]
    [(8, 6), (0, 1)]
    >>> align_pairs_many([("the cat".split(), "a cat")], ["exact"])
    Traceback (most recent call last):
    ...
    TypeError: jobs[0] reference: expected a list of str tokens, got str (split a sentence into tokens first)
    """
    tie_break, node_budget = _check_budget(tie_break, node_budget)
    if isinstance(jobs, (str, bytes)) or not isinstance(jobs, Sequence):
        raise TypeError(f"jobs: expected a list of (candidate, reference) pairs, got {type(jobs).__name__}")
    checked = []
    for k, job in enumerate(jobs):
        if not isinstance(job, (list, tuple)) or len(job) != 2:
            raise TypeError(f"jobs[{k}]: expected a (candidate, reference) pair, got {job!r:.60}")
        checked.append((_check_tokens(job[0], f"jobs[{k}] candidate"),
                        _check_tokens(job[1], f"jobs[{k}] reference")))
    return _align_pairs_many(checked, _check_stages(stages), tie_break, node_budget)


def _align_pairs_many(
    jobs: Sequence[tuple[Sequence[str], Sequence[str]]], stages: Sequence[Stage], tie_break: str,
    node_budget: int,
) -> AlignedBatch:
    """:func:`align_pairs_many` for checked arguments (``meteor()`` checks its own)."""
    return AlignedBatch([_align_pairs(c, r, stages, tie_break, node_budget) for c, r in jobs])


def alignment_from_pairs(
    candidate: Sequence[str], reference: Sequence[str], stages: Sequence[str], tie_break: str,
    aligned: AlignedPairs,
) -> Alignment:
    """The :class:`Alignment` of an :func:`align_pairs` result (``stages``: the stage names).

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> cand, ref = "the cat sat".split(), "a cat sat".split()
    >>> a = alignment_from_pairs(cand, ref, ["exact"], "crossings",
    ...                          align_pairs(cand, ref, resolve_stages(["exact"])))
    >>> a == align(cand, ref, resolve_stages(["exact"]))
    True
    """
    cand = tuple(candidate)
    ref = tuple(reference)
    mappings = tuple(
        _new_mapping(i, j, stages[s], cand[i], ref[j])
        for (i, j), s in zip(aligned.pairs, aligned.stage_numbers)
    )
    return Alignment(
        candidate=cand,
        reference=ref,
        mappings=mappings,
        stages=tuple(stages),
        tie_break=tie_break,
        crossings=aligned.crossings,
        chunks=aligned.chunks,
        optimal=aligned.optimal,
        nodes=aligned.nodes,
        stops=aligned.stops,
    )


def align(
    candidate: Sequence[str],
    reference: Sequence[str],
    stages: Sequence[Stage],
    *,
    tie_break: str = "crossings",
    node_budget: Optional[int] = None,
    method: str = "search",
) -> Alignment:
    """Align ``candidate`` with ``reference`` stage by stage (see the module docstring).

    ``candidate`` and ``reference`` are lists of tokens; ``stages`` are stage names,
    matcher objects or callables, as :func:`mtlearn.metrics.meteor.matchers.resolve_stages`
    takes them. ``node_budget`` bounds the
    search (default :data:`DEFAULT_NODE_BUDGET` for the ``tie_break``; a group larger
    than :data:`FULL_BUDGET_WORDS` words and :data:`FULL_BUDGET_CELLS` possible mappings
    may spend only a share of it); when it is
    spent the result is the best alignment found, with ``optimal=False`` and the limit
    met in ``stops``.
    ``method="reference"`` aligns with the plain enumeration of
    :func:`mtlearn.metrics.meteor.alignment_reference.align_reference` instead (short
    sentences only; the same alignment, proven by listing every one).

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> a = align("the cat was sat on the mat".split(), "the cat sat on the mat".split(),
    ...           resolve_stages(["exact"]))
    >>> a.pairs, a.crossings, a.chunks
    (((0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (6, 5)), 0, 2)
    >>> align("the cat was sat on the mat".split(), "the cat sat on the mat".split(),
    ...       resolve_stages(["exact"]), method="reference") == a
    True
    >>> align(["a"], ["a"], ["exact"], method="brute")
    Traceback (most recent call last):
    ...
    ValueError: method: unknown value 'brute'; choose one of search, reference
    """
    tie_break, node_budget = _check_budget(tie_break, node_budget)
    method = check_choice(method, METHODS, "method")
    cand = _check_tokens(candidate, "candidate")
    ref = _check_tokens(reference, "reference")
    stages = _check_stages(stages)
    names = [s.name for s in stages]
    if method == "reference":
        return _align_by_reference(cand, ref, stages, names, tie_break)
    aligned = _align_pairs(cand, ref, stages, tie_break, node_budget)
    return alignment_from_pairs(cand, ref, names, tie_break, aligned)


def _align_by_reference(cand: tuple[str, ...], ref: tuple[str, ...], stages: Sequence[Stage],
                        names: Sequence[str], tie_break: str) -> Alignment:
    """:func:`align` with ``method="reference"``: the enumeration's choice as an :class:`Alignment`."""
    from mtlearn.metrics.meteor.alignment_reference import align_reference

    found = align_reference(cand, ref, stages, tie_break=tie_break)
    pairs = tuple((i, j) for i, j, _ in found)
    aligned = AlignedPairs(pairs, tuple(names.index(name) for _, _, name in found), True, 0,
                           count_crossings(pairs), count_chunks(pairs))
    return alignment_from_pairs(cand, ref, names, tie_break, aligned)

"""METEOR's alignment: which candidate unigram is mapped to which reference unigram.

The rule (Banerjee & Lavie 2005; digest of document 003, items 3 and 4):

* every candidate unigram maps to at most one reference unigram and vice versa;
* stages run in order (``exact``, ``stem``, ``synonym``, ...); each stage only
  looks at unigrams that earlier stages left unmatched and adds **the largest
  possible number** of mappings;
* among the alignments with that number, the one with the **fewest crossings**
  is chosen, crossings counted over *all* mappings so far (earlier stages
  included). Two mappings ``(i1, j1)``, ``(i2, j2)`` cross when
  ``(i1 − i2)·(j1 − j2) < 0``;
* with ``tie_break="chunks"`` the second criterion is instead the fewest chunks
  (over all mappings so far), the rule of METEOR 1.x;
* **documented tie-break** for alignments still equal: read the stage's
  reference positions in candidate order, an unmatched candidate word counting
  as after every reference position; the lexicographically smallest sequence
  wins (so earlier candidate words take earlier reference words).

The search is exact, stage by stage. Words with one key (the exact and stem stages)
fall into complete blocks: a block with as many candidate as reference words is
mapped in order; the others, under the crossings rule, are solved by the dynamic
programmes and block searches of :mod:`mtlearn.metrics.meteor._search.blocks`. Every other group of
words (synonyms that do not form complete blocks, the chunks rule, matchers of your
own) goes to :mod:`mtlearn.metrics.meteor._search.groups`: a walk over every alignment of a small
group, or a branch and bound with a node budget; when the budget runs out, the best
alignment found is returned with ``optimal=False``. :func:`align_pairs_many` aligns
many pairs at once, in the optional compiled twin of these steps when it is installed.

The digest's row 1: "on the mat sat the cat" against "the cat sat on the mat".

>>> from mtlearn.metrics.meteor.matchers import resolve_stages
>>> a = align("on the mat sat the cat".split(), "the cat sat on the mat".split(),
...           resolve_stages(["exact"]))
>>> a.pairs, a.crossings, a.chunks, a.optimal
(((0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)), 8, 6, True)
>>> b = align("on the mat sat the cat".split(), "the cat sat on the mat".split(),
...           resolve_stages(["exact"]), tie_break="chunks")
>>> b.pairs, b.crossings, b.chunks
(((0, 3), (1, 4), (2, 5), (3, 2), (4, 0), (5, 1)), 11, 3)
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Callable, NamedTuple, Optional, Union, overload

from mtlearn.metrics.meteor._search import blocks as meteor_blocks
from mtlearn.text import check_choice, check_index
from mtlearn.metrics.meteor._search.blocks import _TABLE_LIMIT, _solve_complete_blocks
from mtlearn.metrics.meteor._search.groups import (
    _DEPTH_LIMIT,
    _SMALL_GROUP,
    Pair,
    _Budget,
    _complete_block,
    _Component,
    _components,
    _enumerate_group,
    _groups,
    _root,
    _search_group,
)
from mtlearn.metrics.meteor.matchers import ExactMatcher, Stage, StemMatcher, SynonymMatcher, is_pair_matcher

_meteor_fast = None  # FIXME(search rewrite): the compiled twin is gone; remove its branches

#: Values of ``tie_break``: what decides between alignments with equally many matches.
TIE_BREAKS: tuple[str, ...] = ("crossings", "chunks")

#: Search nodes one :func:`align` call may visit before settling for the best found, per
#: ``tie_break`` (a chunks node costs about a tenth of a crossings node: its bound is O(1)).
DEFAULT_NODE_BUDGET: dict[str, int] = {"crossings": 20_000, "chunks": 200_000}


@dataclass(frozen=True)
class UnigramMapping:
    """One mapping of the alignment: a line from a candidate unigram to a reference unigram.

    >>> UnigramMapping(1, 0, "exact", "the", "the")
    UnigramMapping(candidate_index=1, reference_index=0, stage='exact', candidate_word='the', reference_word='the')
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
    was applied. ``nodes`` is how many search nodes were visited.

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



_NO_KEY = object()  # "this word has no key at this stage"
_MISSING = object()  # "not looked up yet"


def _single_key_blocks(
    cand: Sequence[str], ref: Sequence[str], free_c: Sequence[int], free_r: Sequence[int],
    stage: Stage,
) -> Optional[list[tuple[list[int], list[int]]]]:
    """The stage's components when every word has at most one key (``exact``, ``stem``).

    Each key that words on both sides have is then a complete block: its candidate
    and reference positions, in order. ``None`` when some word has several keys
    (then :func:`_components` builds the general match graph).

    >>> from mtlearn.metrics.meteor.matchers import ExactMatcher
    >>> _single_key_blocks("a b a c".split(), "b a d".split(), [0, 1, 2, 3], [0, 1, 2], ExactMatcher())
    [([0, 2], [1]), ([1], [0])]
    """
    if type(stage) is SynonymMatcher:
        return None  # words have many synsets
    by_c: dict[Hashable, list[int]] = {}
    by_r: dict[Hashable, list[int]] = {}
    # Exact: the word is its one key; stem: its stem (read without building key sets).
    stem = stage.stem if type(stage) is StemMatcher else None
    if type(stage) is ExactMatcher or stem is not None:
        for side, words, free in ((by_c, cand, free_c), (by_r, ref, free_r)):
            for i in free:
                k = words[i] if stem is None else stem(words[i])
                found = side.get(k)
                if found is None:
                    side[k] = [i]
                else:
                    found.append(i)
    else:
        keys = stage.keys  # type: ignore[union-attr]
        key_of: dict[str, Hashable] = {}
        for side, words, free in ((by_c, cand, free_c), (by_r, ref, free_r)):
            for i in free:
                w = words[i]
                k = key_of.get(w, _MISSING)
                if k is _MISSING:
                    ks = frozenset(keys(w))
                    if len(ks) > 1:
                        return None
                    k = key_of[w] = next(iter(ks)) if ks else _NO_KEY
                if k is _NO_KEY:
                    continue
                found = side.get(k)
                if found is None:
                    side[k] = [i]
                else:
                    found.append(i)
    blocks = []
    for k, cs in by_c.items():
        rs = by_r.get(k)
        if rs is not None:
            blocks.append((cs, rs))
    return blocks



def _align_stage(
    cand: Sequence[str], ref: Sequence[str], stage: Stage, pair_matcher: bool,
    fixed: dict[int, int], tie_break: str, budget: _Budget,
) -> tuple[list[Pair], bool]:
    if fixed:
        used_r = set(fixed.values())
        free_c = [i for i in range(len(cand)) if i not in fixed]
        free_r = [j for j in range(len(ref)) if j not in used_r]
    else:
        free_c = list(range(len(cand)))
        free_r = list(range(len(ref)))
    if not free_c or not free_r:
        return [], True
    crossings = tie_break == "crossings"
    new: list[Pair] = []
    open_comps: list[_Component] = []
    blocks = None if pair_matcher else _single_key_blocks(cand, ref, free_c, free_r, stage)
    if blocks is not None:
        for cs, rs in blocks:
            # As below: a one-to-one block, or (crossings) an equal-sized block, is forced.
            if len(cs) == len(rs) and (crossings or len(cs) == 1):
                new.extend(zip(cs, rs))
            else:
                open_comps.append(_complete_block(cs, rs))
        open_comps.sort(key=lambda c: c.cands[0])
    else:
        for comp in _components(cand, ref, free_c, free_r, stage, pair_matcher):
            one_to_one = len(comp.cands) == 1 and len(comp.refs) == 1
            # Equal-sized complete blocks: every word is mapped, and under the crossings
            # rule in order (a crossing pair inside a block can always be uncrossed).
            balanced = crossings and comp.complete and len(comp.cands) == len(comp.refs)
            if one_to_one or balanced:
                new.extend(zip(comp.cands, comp.refs))
            else:
                open_comps.append(comp)
    if not open_comps:
        return new, True
    context = dict(fixed)
    context.update(new)
    return _finish_stage(new, open_comps, context, tie_break, budget)



def _solve_group(
    group: list[_Component], context: dict[int, int], tie_break: str, budget: _Budget,
) -> tuple[list[Pair], bool]:
    """One group of components: the dynamic programmes for complete blocks under the
    crossings rule, the search for the rest."""
    if tie_break == "crossings" and not context and len(group) == 1 and group[0].complete:
        return list(zip(group[0].cands, group[0].refs)), True  # no crossing possible at all
    if tie_break == "crossings" and all(c.complete for c in group) and (
        sum(len(c.cands) for c in group) <= _DEPTH_LIMIT
        and all(len(c.cands) * len(c.refs) <= _TABLE_LIMIT for c in group)
    ):
        return _solve_complete_blocks([(c.cands, c.refs) for c in group], context, budget)
    if tie_break == "crossings" and sum(len(c.cands) for c in group) <= _SMALL_GROUP:
        found = _enumerate_group(group, context, budget)
        if found is not None:
            return found, True
    return _search_group(group, context, tie_break, budget)



# --------------------------------------------------------------------------- fast paths
# Most stages need no search at all. At the exact and stem stages every word has one
# key, so the match graph is a set of complete blocks (one per key): a block with as
# many candidate as reference words is mapped in order, and the others are solved by
# the dynamic programmes above. At the synonym stage the words left over are few, and
# their matches usually pair one word with one word. These functions find that out
# with plain dicts and lists, and hand anything else to the general machinery above.


def _is_single_key(stage: Stage) -> bool:
    """Whether ``stage`` gives every word exactly one key (exact, stem): its words then
    fall into complete blocks, which :func:`_single_key_stage` solves.

    >>> from mtlearn.metrics.meteor.matchers import ExactMatcher, StemMatcher, SynonymMatcher
    >>> _is_single_key(ExactMatcher()), _is_single_key(StemMatcher()), _is_single_key(SynonymMatcher())
    (True, True, False)
    """
    return type(stage) is ExactMatcher or type(stage) is StemMatcher


def _single_key_stage(
    cand: Sequence[str], ref: Sequence[str], free_c: Sequence[int], free_r: Sequence[int],
    stage: Stage, fixed: dict[int, int], budget: _Budget,
) -> tuple[list[Pair], bool]:
    """One stage under the crossings rule when every word has one key (exact, stem).

    "b" is forced; of the two candidate "a", the second is mapped: the first would cross "b".

    >>> from mtlearn.metrics.meteor.matchers import ExactMatcher
    >>> _single_key_stage("a b a".split(), "b a".split(), range(3), range(2), ExactMatcher(), {},
    ...                   _Budget(0))
    ([(1, 0), (2, 1)], True)
    """
    blocks = _single_key_blocks(cand, ref, free_c, free_r, stage)
    assert blocks is not None  # _is_single_key(stage)
    new: list[Pair] = []
    unbalanced: list[tuple[list[int], list[int]]] = []
    for cs, rs in blocks:
        if len(cs) == len(rs):
            new.extend(zip(cs, rs))  # every word mapped, in order
        else:
            unbalanced.append((cs, rs))
    if not unbalanced:
        return new, True
    context = dict(fixed)
    context.update(new)
    if len(unbalanced) == 1 and not context:
        cs, rs = unbalanced[0]
        return new + list(zip(cs, rs)), True  # nothing to cross: earliest words first
    return _blocks_of_stage(new, unbalanced, context, budget)


def _blocks_of_stage(
    new: list[Pair], unbalanced: list[tuple[list[int], list[int]]], context: dict[int, int],
    budget: _Budget,
) -> tuple[list[Pair], bool]:
    """``new`` plus the optimum of a stage's unbalanced complete blocks (crossings rule)."""
    if any(len(cs) * len(rs) > _TABLE_LIMIT for cs, rs in unbalanced):
        # Too big to tabulate: group by group, with the general path's limits.
        return _finish_stage(new, [_complete_block(cs, rs) for cs, rs in unbalanced], context,
                             "crossings", budget)
    found, optimal = _solve_complete_blocks(unbalanced, context, budget)
    return new + found, optimal


def _finish_stage(
    new: list[Pair], comps: list[_Component], context: dict[int, int], tie_break: str,
    budget: _Budget,
) -> tuple[list[Pair], bool]:
    """``new`` plus the optimum of each independent group of ``comps``."""
    optimal = True
    for group in _groups(comps, tie_break):
        pairs, proven = _solve_group(group, context, tie_break, budget)
        new.extend(pairs)
        optimal = optimal and proven
    return new, optimal


def _synonym_stage(
    cand: Sequence[str], ref: Sequence[str], free_c: Sequence[int], free_r: Sequence[int],
    stage: Stage, fixed: dict[int, int], budget: _Budget,
) -> tuple[list[Pair], bool]:
    """A keys stage (several keys a word: synonyms) under the crossings rule.

    The words left over are few. Their matches are split into connected components;
    a component in which every candidate word matches every reference word is a
    complete block, solved like the blocks of the exact stage (forced when both sides
    have as many words, else by :func:`_solve_complete_blocks`). If some component is
    not complete, the general :func:`_align_stage` decides the whole stage.

    >>> from mtlearn.metrics.meteor.matchers import SynonymMatcher
    >>> _synonym_stage(["car", "fast"], ["quick", "automobile"], [0, 1], [0, 1], SynonymMatcher(), {}, _Budget(0))
    ([(0, 1), (1, 0)], True)
    """
    keys = stage.keys  # type: ignore[union-attr]
    ref_keys = []
    for j in free_r:
        ks = keys(ref[j])
        if ks:
            ref_keys.append((j, ks))
    if not ref_keys:
        return [], True
    edges: dict[int, list[int]] = {}
    for i in free_c:
        ks = keys(cand[i])
        if ks:
            found = [j for j, rks in ref_keys if not ks.isdisjoint(rks)]
            if found:
                edges[i] = found
    if not edges:
        return [], True
    # Connected components, by union-find over candidate positions i and reference ~j.
    parent: dict[int, int] = {}
    for i, js in edges.items():
        for j in js:
            a, b = _root(parent, i), _root(parent, ~j)
            if a != b:
                parent[a] = b
    comps: dict[int, tuple[list[int], list[int]]] = {}
    for i in edges:  # candidate positions in order
        comps.setdefault(_root(parent, i), ([], []))[0].append(i)
    for j, _ in ref_keys:  # reference positions in order
        if ~j in parent:
            comps[_root(parent, ~j)][1].append(j)
    new: list[Pair] = []
    unbalanced: list[tuple[list[int], list[int]]] = []
    for cs, rs in comps.values():
        if any(len(edges[i]) != len(rs) for i in cs):
            return _align_stage(cand, ref, stage, False, fixed, "crossings", budget)
        if len(cs) == len(rs):
            new.extend(zip(cs, rs))  # a complete block with both sides equal: in order
        else:
            unbalanced.append((cs, rs))
    if not unbalanced:
        return new, True
    context = dict(fixed)
    context.update(new)
    return _blocks_of_stage(new, sorted(unbalanced), context, budget)


def _align_core(
    cand: Sequence[str], ref: Sequence[str], stages: Sequence[Stage], tie_break: str,
    budget: _Budget,
) -> tuple[list[Pair], list[int], bool]:
    """The alignment as ``(pairs sorted by candidate index, stage number of each, optimal)``.

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> _align_core(["the", "cats", "sat"], ["a", "cat", "sat"], resolve_stages(["exact", "stem"]),
    ...             "crossings", _Budget(100))
    ([(1, 1), (2, 2)], [1, 0], True)
    """
    fixed: dict[int, int] = {}
    stage_of: dict[int, int] = {}
    optimal = True
    n_free = min(len(cand), len(ref))
    free_c: Sequence[int] = range(len(cand))
    free_r: Sequence[int] = range(len(ref))
    crossings = tie_break == "crossings"
    for number, stage in enumerate(stages):
        if len(fixed) == n_free:
            break  # one side is used up: later stages cannot add a mapping
        if not crossings or is_pair_matcher(stage):
            pairs, proven = _align_stage(cand, ref, stage, is_pair_matcher(stage), fixed,
                                         tie_break, budget)
        else:
            if _is_single_key(stage):
                pairs, proven = _single_key_stage(cand, ref, free_c, free_r, stage, fixed, budget)
            else:
                pairs, proven = _synonym_stage(cand, ref, free_c, free_r, stage, fixed, budget)
        optimal = optimal and proven
        if pairs:
            for i, j in pairs:
                fixed[i] = j
                stage_of[i] = number
            used = set(fixed.values())
            free_c = [i for i in free_c if i not in fixed]
            free_r = [j for j in free_r if j not in used]
    ordered = sorted(fixed.items())
    return ordered, [stage_of[i] for i, _ in ordered], optimal


# --------------------------------------------------------------------------- public


class AlignedPairs(NamedTuple):
    """The bare outcome of an alignment, before any mapping object is built.

    ``pairs`` are ``(candidate index, reference index)`` sorted by candidate index,
    ``stage_numbers[k]`` the index in ``stages`` of the stage that made ``pairs[k]``;
    ``nodes`` the search nodes visited. What :func:`align` wraps into an
    :class:`Alignment`, and what a corpus keeps per segment (cheap to store).

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> align_pairs("on the mat sat the cat".split(), "the cat sat on the mat".split(),
    ...             resolve_stages(["exact"]))  # doctest: +NORMALIZE_WHITESPACE
    AlignedPairs(pairs=((0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)), stage_numbers=(0, 0, 0, 0, 0, 0),
                 optimal=True, nodes=0, crossings=8, chunks=6)
    """

    pairs: tuple[Pair, ...]
    stage_numbers: tuple[int, ...]
    optimal: bool
    nodes: int
    crossings: int
    chunks: int


def _crossings_and_chunks(pairs: Sequence[Pair]) -> tuple[int, int]:
    """Both counts of pairs sorted by candidate index, in one pass.

    >>> _crossings_and_chunks([(0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)])
    (8, 6)
    """
    seen: list[int] = []
    crossings = chunks = 0
    pi = pj = -2
    for i, j in pairs:
        pos = bisect.bisect_right(seen, j)
        crossings += len(seen) - pos
        seen.insert(pos, j)
        if i != pi + 1 or j != pj + 1:
            chunks += 1
        pi, pj = i, j
    return crossings, chunks


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
    budget = _Budget(node_budget)
    ordered, stage_numbers, optimal = _align_core(candidate, reference, stages, tie_break, budget)
    return AlignedPairs(tuple(ordered), tuple(stage_numbers), optimal, budget.used,
                        *_crossings_and_chunks(ordered))


def _compiled_stages(stages: Sequence[Stage], words: list[str]) -> Optional[list[tuple]]:
    """The stages as the compiled twin reads them, or ``None`` if one is not of its kinds.

    Per stage ``(kind, keys)``: kind 0 is the exact stage (a word is its own key), 1 a
    stage with one key per word (``keys[w]``: the stem of ``words[w]``), 2 a stage with
    sets of keys (``keys[w]``: the sorted synset ids of ``words[w]``).
    """
    out: list[tuple] = []
    for stage in stages:
        if type(stage) is ExactMatcher:
            out.append((0, None))
        elif type(stage) is StemMatcher:
            out.append((1, _memoised(stage._stems, stage.stem, words)))
        elif type(stage) is SynonymMatcher:
            out.append((2, _memoised(stage.index._sorted_memo, stage.index.sorted_synsets, words)))
        else:
            return None
    return out


def _memoised(memo: dict, compute: Callable, words: list[str]) -> list:
    """``[compute(w) for w in words]``, read from ``compute``'s memo where it has the word.

    >>> _memoised({"a": 1}, len, ["a", "bb"])
    [1, 2]
    """
    found = list(map(memo.get, words))
    if None in found:
        found = [compute(w) if f is None else f for w, f in zip(words, found)]
    return found


class AlignedBatch(Sequence[AlignedPairs]):
    """The alignments of many ``(candidate, reference)`` pairs, kept compactly.

    ``batch[k]`` is pair k's :class:`AlignedPairs` (built on access); :meth:`counts`
    gives the numbers a score needs without building it. What the compiled twin
    aligned lives in flat int arrays, what Python aligned in a dict.

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> batch = align_pairs_many([("the cat".split(), "a cat".split())], resolve_stages(["exact"]))
    >>> len(batch), batch[0].pairs, batch.counts(0)
    (1, ((1, 1),), (1, 1, 0, True, 0))
    """

    def __init__(self, size: int, compiled: Optional[tuple] = None,
                 python: Optional[dict[int, AlignedPairs]] = None) -> None:
        self._size = size
        self._python = python if python is not None else {}
        if compiled is None:
            compiled = (array("b", bytes(size)),) + (array("i"),) * 7
        (self._status, self._offsets, self._pair_i, self._pair_j, self._stage,
         self._crossings, self._chunks, self._nodes) = compiled

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> AlignedPairs: ...

    @overload
    def __getitem__(self, index: slice) -> list[AlignedPairs]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[AlignedPairs, list[AlignedPairs]]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(self._size))]
        index = check_index(index, self._size, "pair")
        found = self._python.get(index)
        if found is not None:
            return found
        start, stop = self._offsets[index], self._offsets[index + 1]
        return AlignedPairs(
            tuple(zip(self._pair_i[start:stop], self._pair_j[start:stop])),
            tuple(self._stage[start:stop]), True, self._nodes[index],
            self._crossings[index], self._chunks[index],
        )

    def counts(self, index: int) -> tuple[int, int, int, bool, int]:
        """``(matches, chunks, crossings, optimal, nodes)`` of pair ``index``."""
        found = self._python.get(index)
        if found is not None:
            return len(found.pairs), found.chunks, found.crossings, found.optimal, found.nodes
        return (self._offsets[index + 1] - self._offsets[index], self._chunks[index],
                self._crossings[index], True, self._nodes[index])

    def stage_counts(self, index: int, n_stages: int) -> list[int]:
        """How many of pair ``index``'s mappings each stage made."""
        found = self._python.get(index)
        if found is not None:
            numbers: Sequence[int] = found.stage_numbers
        else:
            numbers = self._stage[self._offsets[index]:self._offsets[index + 1]]
        return [numbers.count(s) for s in range(n_stages)]

    def stage_totals(self, indices: Sequence[int], n_stages: int) -> list[int]:
        """How many mappings each stage made, summed over the pairs ``indices``."""
        totals = [0] * n_stages
        if len(indices) == self._size and not self._python and list(indices) == list(range(self._size)):
            for s in range(n_stages):  # every pair, all compiled: one pass over the flat array
                totals[s] = self._stage.count(s)
            return totals
        for k in indices:
            for s, n in enumerate(self.stage_counts(k, n_stages)):
                totals[s] += n
        return totals

    def __repr__(self) -> str:
        return f"<AlignedBatch: {self._size} pairs, {len(self._python)} aligned in Python>"


def _compiled_limits() -> tuple[int, ...]:
    """The limits the compiled twin must apply, read now (tests lower some of them)."""
    from mtlearn.metrics.meteor._search import groups as meteor_groups

    return (meteor_blocks._ENUMERATE_LIMIT, meteor_blocks._CHOICE_LIMIT,
            meteor_blocks._CHOICE_NODES, meteor_groups._DEPTH_LIMIT, meteor_blocks._TABLE_LIMIT,
            meteor_blocks._GROUPING_LIMIT, meteor_groups._SMALL_GROUP,
            meteor_groups._ENUMERATE_NODES)


def align_pairs_many(
    jobs: Sequence[tuple[Sequence[str], Sequence[str]]],
    stages: Sequence[Stage],
    *,
    tie_break: str = "crossings",
    node_budget: Optional[int] = None,
) -> AlignedBatch:
    """:func:`align_pairs` for many ``(candidate, reference)`` pairs: the same results.

    When mtlearn's optional compiled part is installed (``mtlearn._meteor_fast``, built
    from ``_meteor_fast.pyx`` where a C compiler was found at install time), the
    crossings rule with the exact, stem and synonym stages runs there: the same steps
    as the functions above, on word ids; any pair it hands back, and every other
    setting, is aligned by :func:`align_pairs`.

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
    compiled = None
    if _meteor_fast is not None and tie_break == "crossings" and jobs:
        batch_words = _meteor_fast.Words([c for c, _ in jobs], [r for _, r in jobs])
        compiled_stages = _compiled_stages(stages, batch_words.words)
        if compiled_stages is not None:
            compiled = batch_words.align(
                compiled_stages, node_budget,
                _compiled_limits(),
            )
    if compiled is None:
        return AlignedBatch(len(jobs), None, {
            k: _align_pairs(c, r, stages, tie_break, node_budget) for k, (c, r) in enumerate(jobs)
        })
    status = compiled[0]
    python = {
        k: _align_pairs(jobs[k][0], jobs[k][1], stages, tie_break, node_budget)
        for k in range(len(jobs)) if not status[k]
    }
    return AlignedBatch(len(jobs), compiled, python)


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
    )


def align(
    candidate: Sequence[str],
    reference: Sequence[str],
    stages: Sequence[Stage],
    *,
    tie_break: str = "crossings",
    node_budget: Optional[int] = None,
) -> Alignment:
    """Align ``candidate`` with ``reference`` stage by stage (see the module docstring).

    ``candidate`` and ``reference`` are lists of tokens; ``stages`` are stage names,
    matcher objects or callables, as :func:`mtlearn.metrics.meteor.matchers.resolve_stages`
    takes them. ``node_budget`` bounds the
    search (default :data:`DEFAULT_NODE_BUDGET` for the ``tie_break``); when it is
    spent the result is the best alignment found, with ``optimal=False``.

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> a = align("the cat was sat on the mat".split(), "the cat sat on the mat".split(),
    ...           resolve_stages(["exact"]))
    >>> a.pairs, a.crossings, a.chunks
    (((0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (6, 5)), 0, 2)
    """
    tie_break, node_budget = _check_budget(tie_break, node_budget)
    cand = _check_tokens(candidate, "candidate")
    ref = _check_tokens(reference, "reference")
    stages = _check_stages(stages)
    aligned = _align_pairs(cand, ref, stages, tie_break, node_budget)
    return alignment_from_pairs(cand, ref, [s.name for s in stages], tie_break, aligned)

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

The search is exact. Identical-key blocks, independent groups of words and
forced mappings are solved without search (with chunks, groups are split where no
adjacency can join them). With crossings, a group made only of complete blocks
(words with one shared key, as at the exact and stem stages) is solved by dynamic
programming: each block in order against the fixed mappings, which is the group's
answer when the blocks' choices do not cross; else position by position, the state
being the reference words used so far (see ``_layered_blocks``). What remains is a
branch and bound over candidate positions. Its first solution is a greedy dive improved by local search (with
crossings each unbalanced block is re-solved exactly, in order, with the rest held
still). Its lower bounds: with crossings, the cheapest in-order completion of
every block (a dynamic programme: within a block mappings never cross, since
swapping two crossing ones always removes crossings) plus the crossings blocks
must make among themselves; with chunks, the adjacencies the remaining words can
still make, at most one per reference gap (a matching). A transposition table
drops a partial alignment when an earlier one, lexicographically smaller, used
the same reference words at no higher cost. When the node budget runs out, the
best alignment found is returned with ``optimal=False``.

The digest's row 1: "on the mat sat the cat" against "the cat sat on the mat".

>>> from mtlearn.meteor_matchers import resolve_stages
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
import sys
from array import array
from itertools import accumulate, chain, combinations, count, product
from math import comb
from operator import add
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Optional, Union, overload

from .inputs import check_choice
from .meteor_formulas import count_chunks, count_crossings
from .meteor_matchers import ExactMatcher, Stage, StemMatcher, SynonymMatcher

try:  # the optional compiled twin of the fast path (see align_pairs_many)
    from . import _meteor_fast
except ImportError:  # no C compiler at install time: everything runs in Python
    _meteor_fast = None

#: Values of ``tie_break``: what decides between alignments with equally many matches.
TIE_BREAKS: tuple[str, ...] = ("crossings", "chunks")

#: Search nodes one :func:`align` call may visit before settling for the best found, per
#: ``tie_break`` (a chunks node costs about a tenth of a crossings node: its bound is O(1)).
DEFAULT_NODE_BUDGET: dict[str, int] = {"crossings": 20_000, "chunks": 200_000}

# Groups bigger than this are not searched (too many candidate mappings to list):
# they get the block-monotone solution, marked optimal only when it provably is.
_EDGE_LIMIT = 20_000
_DEPTH_LIMIT = 400  # recursion depth of the search = candidate words in one group

_POLISH_FROM = 8  # groups with this many candidate words get a local search first
_POLISH_ROUNDS = 20  # sweeps of that local search at most

_UNMATCHED = sys.maxsize  # "no reference position": sorts after every real one

Pair = tuple[int, int]


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

    >>> from mtlearn.meteor_matchers import resolve_stages
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


# --------------------------------------------------------------------------- stage graph


@dataclass
class _Component:
    """A connected group of matchable words at one stage (positions grouped by type).

    A *type* is a set of positions that match exactly the same words (the same
    key set, or the same word for a pair matcher); edges join types.
    """

    cands: list[int]
    refs: list[int]
    ctype: dict[int, int]
    rtype: dict[int, int]
    adj: dict[int, frozenset[int]]  # candidate type -> reference types
    complete: bool  # every candidate word matches every reference word
    need: int = 0  # matches this component contributes (its maximum matching)
    refs_of_type: dict[int, list[int]] = field(default_factory=dict)
    cands_of_type: dict[int, list[int]] = field(default_factory=dict)

    def edge(self, i: int, j: int) -> bool:
        return self.complete or self.rtype[j] in self.adj[self.ctype[i]]

    def edges_of(self, i: int) -> list[int]:
        if self.complete:
            return self.refs
        return sorted(j for rt in self.adj[self.ctype[i]] for j in self.refs_of_type[rt])

    def edge_count(self) -> int:
        if self.complete:
            return len(self.cands) * len(self.refs)
        return sum(
            len(self.cands_of_type[ct]) * len(self.refs_of_type[rt])
            for ct, rts in self.adj.items() for rt in rts
        )


def _is_pair_matcher(stage: Stage) -> bool:
    """Whether ``stage`` decides pair by pair (a PairMatcher that is no Matcher).

    The same test as ``isinstance(stage, PairMatcher) and not isinstance(stage,
    Matcher)`` for the runtime-checkable Protocols (their attributes are present),
    without the cost of an ``isinstance`` against a Protocol, paid per call.

    >>> from mtlearn.meteor_matchers import ExactMatcher, PredicateMatcher
    >>> _is_pair_matcher(ExactMatcher()), _is_pair_matcher(PredicateMatcher("p", lambda a, b: True))
    (False, True)
    """
    return hasattr(stage, "matches") and not hasattr(stage, "keys") and hasattr(stage, "name")


def _components(
    cand: Sequence[str], ref: Sequence[str], free_c: list[int], free_r: list[int], stage: Stage,
    pair_matcher: bool,
) -> list[_Component]:
    """The components of the stage's match graph over the free positions."""
    ctype_of: dict[int, int] = {}
    rtype_of: dict[int, int] = {}
    adj: dict[int, set[int]] = {}
    if pair_matcher:
        # Identical words answer identically: ask once per pair of distinct words.
        cwords = {w: k for k, w in enumerate(dict.fromkeys(cand[i] for i in free_c))}
        rwords = {w: k for k, w in enumerate(dict.fromkeys(ref[j] for j in free_r))}
        for cw, ct in cwords.items():
            found = {rt for rw, rt in rwords.items() if stage.matches(cw, rw)}
            if found:
                adj[ct] = found
        ctype_of = {i: cwords[cand[i]] for i in free_c}
        rtype_of = {j: rwords[ref[j]] for j in free_r}
    else:
        keys_of: dict[str, frozenset[Hashable]] = {}

        def keys(word: str) -> frozenset[Hashable]:
            found = keys_of.get(word)
            if found is None:
                found = keys_of[word] = frozenset(stage.keys(word))
            return found

        rtypes: dict[frozenset[Hashable], int] = {}
        for j in free_r:
            ks = keys(ref[j])
            if not ks:
                continue
            rt = rtypes.get(ks)
            if rt is None:
                rt = rtypes[ks] = len(rtypes)
            rtype_of[j] = rt
        if not rtypes:
            return []
        rkeys = list(rtypes)  # in type order
        # Few reference types (the usual leftovers): compare key sets directly; else
        # an index from key to reference types.
        by_key: Optional[dict[Hashable, list[int]]] = None
        if len(rkeys) > 32:
            by_key = defaultdict(list)
            for rt, rks in enumerate(rkeys):
                for k in rks:
                    by_key[k].append(rt)
        ctypes: dict[frozenset[Hashable], int] = {}
        for i in free_c:
            ks = keys(cand[i])
            if not ks:
                continue
            ct = ctypes.get(ks)
            if ct is None:
                ct = ctypes[ks] = len(ctypes)
                if by_key is None:
                    found = {rt for rt, rks in enumerate(rkeys) if not ks.isdisjoint(rks)}
                else:
                    found = {rt for k in ks for rt in by_key.get(k, ())}
                if found:
                    adj[ct] = found
            ctype_of[i] = ct
    if not adj:
        return []
    # Union-find over types: candidate type t is node t, reference type t is node ~t.
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for ct, rts in adj.items():
        for rt in rts:
            a, b = find(ct), find(~rt)
            if a != b:
                parent[a] = b
    groups: dict[int, _Component] = {}
    for i in free_c:
        ct = ctype_of.get(i)
        if ct is None or ct not in adj:
            continue
        root = find(ct)
        comp = groups.get(root)
        if comp is None:
            comp = groups[root] = _Component([], [], {}, {}, {}, False)
        comp.cands.append(i)
        comp.ctype[i] = ct
        comp.cands_of_type.setdefault(ct, []).append(i)
    for j in free_r:
        rt = rtype_of.get(j)
        if rt is None or ~rt not in parent:
            continue
        comp = groups[find(~rt)]
        comp.refs.append(j)
        comp.rtype[j] = rt
        comp.refs_of_type.setdefault(rt, []).append(j)
    comps = list(groups.values())
    for comp in comps:
        comp.adj = {ct: frozenset(adj[ct]) for ct in comp.cands_of_type}
        n_rtypes = len(comp.refs_of_type)
        comp.complete = all(len(rts) == n_rtypes for rts in comp.adj.values())
        if comp.complete:
            comp.need = min(len(comp.cands), len(comp.refs))
        else:
            comp.need = _max_flow(
                {ct: len(ps) for ct, ps in comp.cands_of_type.items()},
                {rt: len(ps) for rt, ps in comp.refs_of_type.items()},
                comp.adj,
            )[0]
    comps.sort(key=lambda c: c.cands[0])
    return comps


def _max_flow(
    ccount: dict[int, int], rcount: dict[int, int], adj: dict[int, frozenset[int]]
) -> tuple[int, dict[Pair, int]]:
    """Maximum matching between positions grouped by type, as a flow between types."""
    flow: dict[Pair, int] = defaultdict(int)
    c_left = dict(ccount)
    r_left = dict(rcount)
    total = 0
    for ct in sorted(c_left):
        for rt in sorted(adj.get(ct, ())):
            x = min(c_left[ct], r_left.get(rt, 0))
            if x > 0:
                flow[ct, rt] += x
                c_left[ct] -= x
                r_left[rt] -= x
                total += x
    while True:
        # Breadth-first search for an augmenting path: free cand type -> ... -> free ref type.
        users: dict[int, list[int]] = defaultdict(list)
        for (ct, rt), x in flow.items():
            if x > 0:
                users[rt].append(ct)
        prev_c: dict[int, Optional[int]] = {ct: None for ct, x in c_left.items() if x > 0}
        prev_r: dict[int, int] = {}
        queue = list(prev_c)
        end = None
        while queue and end is None:
            nxt = []
            for ct in queue:
                for rt in adj.get(ct, ()):
                    if rt in prev_r or rt not in r_left:
                        continue
                    prev_r[rt] = ct
                    if r_left[rt] > 0:
                        end = rt
                        break
                    for ct2 in users[rt]:
                        if ct2 not in prev_c:
                            prev_c[ct2] = rt
                            nxt.append(ct2)
                if end is not None:
                    break
            queue = nxt
        if end is None:
            return total, dict(flow)
        # Walk back, finding the bottleneck, then push.
        path: list[tuple[int, int, int]] = []  # (+1 forward ct->rt | -1 backward)
        rt = end
        amount = r_left[end]
        while True:
            ct = prev_r[rt]
            path.append((1, ct, rt))
            back = prev_c[ct]
            if back is None:
                amount = min(amount, c_left[ct])
                break
            amount = min(amount, flow[ct, back])
            path.append((-1, ct, back))
            rt = back
        for sign, ct, rt in path:
            flow[ct, rt] += sign * amount
        c_left[path[-1][1]] -= amount
        r_left[end] -= amount
        total += amount


# --------------------------------------------------------------------------- search


class _BudgetExhausted(Exception):
    pass


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes
        self.used = 0

    def spend(self) -> None:
        self.used += 1
        self.left -= 1
        if self.left < 0:
            raise _BudgetExhausted


def _block_solution(comps: list[_Component]) -> list[Pair]:
    """A maximum matching without internal crossings in complete blocks (any block: by flow).

    In a complete block this is the lexicographically first maximum matching.
    """
    pairs: list[Pair] = []
    for comp in comps:
        if comp.complete:
            pairs.extend(zip(comp.cands, comp.refs))
            continue
        _, flow = _max_flow(
            {ct: len(ps) for ct, ps in comp.cands_of_type.items()},
            {rt: len(ps) for rt, ps in comp.refs_of_type.items()},
            comp.adj,
        )
        c_next = {ct: 0 for ct in comp.cands_of_type}
        r_next = {rt: 0 for rt in comp.refs_of_type}
        for (ct, rt), x in sorted(flow.items()):
            for _ in range(x):
                pairs.append((comp.cands_of_type[ct][c_next[ct]], comp.refs_of_type[rt][r_next[rt]]))
                c_next[ct] += 1
                r_next[rt] += 1
    return pairs


def _potentials(
    comps: list[_Component], fixed: dict[int, int], positions: list[int], comp_of: dict[int, int]
) -> list[int]:
    """Suffix sums of an upper bound on the adjacencies each position can still create.

    A new mapping at ``i`` can continue a chunk from ``i - 1`` (a position of the
    group, or a fixed mapping ``(i - 1, j - 1)`` when ``(i, j)`` may match) and run
    into a fixed mapping ``(i + 1, j + 1)``.
    """
    members = set(positions)
    pots = []
    for i in positions:
        comp = comps[comp_of[i]]
        pot = 0
        if i - 1 in members:
            # (i - 1, j - 1) and (i, j) must both be possible for some j.
            prev = comps[comp_of[i - 1]]
            pot += any(
                j - 1 in prev.rtype and prev.edge(i - 1, j - 1) for j in comp.edges_of(i)
            ) if len(comp.refs) <= 64 else 1
        elif i - 1 in fixed:
            j = fixed[i - 1] + 1
            pot += j in comp.rtype and comp.edge(i, j)
        if i + 1 in fixed:
            j = fixed[i + 1] - 1
            pot += j in comp.rtype and comp.edge(i, j)
        pots.append(pot)
    suffix = [0] * (len(pots) + 1)
    for t in range(len(pots) - 1, -1, -1):
        suffix[t] = suffix[t + 1] + pots[t]
    return suffix


def _monotone_min(
    cands: Sequence[int], refs: Sequence[int], r: int,
    cost: Callable[[int, int, int], int], want_pairs: bool = False,
) -> tuple[float, list[Pair]]:
    """The cheapest ``r`` in-order mappings of a complete block, by dynamic programming.

    The smaller of ``cands`` and ``refs`` must be used up (``r`` words): its
    ``q``-th word takes the ``(q + d_q)``-th word of the larger side with
    ``d_q`` non-decreasing. ``cost(i, x, j)`` prices mapping ``(i, j)``, ``j``
    being ``refs[x]``. Ties go to the earliest words of the larger side.

    >>> _monotone_min([0, 1], [5, 6, 7], 2, lambda i, x, j: abs(j - i - 6), want_pairs=True)
    (0, [(0, 6), (1, 7)])
    """
    small_is_cands = len(cands) <= len(refs)
    n_small = min(len(cands), len(refs))
    if r > n_small:
        return float("inf"), []
    if r < n_small or r == 0:
        return 0, []  # not a used-up block (cannot happen in a feasible state): trivial bound
    slack = max(len(cands), len(refs)) - r
    best: list[float] = []
    args: list[list[int]] = []
    for q in range(r):
        if small_is_cands:
            i = cands[q]
            row = [cost(i, q + d, refs[q + d]) for d in range(slack + 1)]
        else:
            j = refs[q]
            row = [cost(cands[q + d], q, j) for d in range(slack + 1)]
        cur = row if q == 0 else [v + b for v, b in zip(row, best)]
        # best[d] = min(cur[:d + 1]) and where it is reached
        best = []
        arg = []
        m, a = float("inf"), 0
        for d, v in enumerate(cur):
            if v < m:
                m, a = v, d
            best.append(m)
            arg.append(a)
        args.append(arg)
    value = best[-1]
    if not want_pairs:
        return value, []
    pairs: list[Pair] = []
    d = slack
    for q in range(r - 1, -1, -1):
        d = args[q][d]
        pairs.append((cands[q + d], refs[q]) if not small_is_cands else (cands[q], refs[q + d]))
    pairs.reverse()
    return value, pairs


def _gap_matching(
    comps: list[_Component], fixed: dict[int, int], positions: list[int], comp_of: dict[int, int]
) -> list[int]:
    """For each suffix ``positions[t:]``, the most adjacencies its words can still make.

    An adjacency joins a candidate gap ``(i - 1, i)`` to a reference gap
    ``(j - 1, j)``; each reference gap serves at most one adjacency. So the
    adjacencies that mappings at ``positions[t:]`` can create (the ones
    :func:`_potentials` counts) are at most a maximum matching between those
    candidate gaps and the reference gaps each could use: a repeated phrase in the
    candidate cannot make its adjacencies twice against one copy in the reference.
    Computed by adding the gaps from the last position back, one augmenting path each.

    >>> from mtlearn.meteor_matchers import ExactMatcher
    >>> cand, ref = "a b a b".split(), "a b".split()
    >>> comps = _components(cand, ref, [0, 1, 2, 3], [0, 1], ExactMatcher(), False)
    >>> positions = [0, 1, 2, 3]
    >>> comp_of = {i: k for k, c in enumerate(comps) for i in c.cands}
    >>> _potentials(comps, {}, positions, comp_of), _gap_matching(comps, {}, positions, comp_of)
    ([2, 2, 1, 1, 0], [1, 1, 1, 1, 0])
    """
    members = set(positions)
    options: list[list[list[int]]] = []  # per position: its gains, each the usable ref gaps
    for i in positions:
        comp = comps[comp_of[i]]
        gains: list[list[int]] = []
        if i - 1 in members:
            prev = comps[comp_of[i - 1]]
            gaps = [j for j in comp.edges_of(i) if j - 1 in prev.rtype and prev.edge(i - 1, j - 1)]
            if gaps:
                gains.append(gaps)
        elif i - 1 in fixed:
            j = fixed[i - 1] + 1
            if j in comp.rtype and comp.edge(i, j):
                gains.append([j])
        if i + 1 in fixed:
            j = fixed[i + 1] - 1
            if j in comp.rtype and comp.edge(i, j):
                gains.append([j + 1])
        options.append(gains)
    owner: dict[int, int] = {}  # ref gap -> gain number
    gain_gaps: list[list[int]] = []
    size = 0
    suffix = [0] * (len(positions) + 1)
    for t in range(len(positions) - 1, -1, -1):
        for gaps in options[t]:
            u = len(gain_gaps)
            gain_gaps.append(gaps)
            # Breadth-first search for an augmenting path from the new gain u.
            parent: dict[int, tuple[int, int]] = {}  # gain -> (previous gain, gap)
            seen = {u}
            queue = [u]
            end: Optional[tuple[int, int]] = None
            while queue and end is None:
                nxt = []
                for v in queue:
                    for g in gain_gaps[v]:
                        w = owner.get(g)
                        if w is None:
                            end = (v, g)
                            break
                        if w not in seen:
                            seen.add(w)
                            parent[w] = (v, g)
                            nxt.append(w)
                    if end is not None:
                        break
                queue = nxt
            if end is not None:
                v, g = end
                while True:
                    owner[g] = v
                    if v == u:
                        break
                    v, g = parent[v]
                size += 1
        suffix[t] = size
    return suffix


class _GroupSearch:
    """Branch and bound over the candidate positions of one group of components."""

    def __init__(
        self, comps: list[_Component], fixed: dict[int, int], tie_break: str, budget: _Budget
    ) -> None:
        self.comps = comps
        self.fixed = fixed  # candidate -> reference, earlier stages and forced mappings
        self.crossings = tie_break == "crossings"
        self.budget = budget
        self.positions = sorted(i for c in comps for i in c.cands)
        self.n_ref = 1 + max(j for c in comps for j in c.refs)
        self.comp_of = {i: k for k, c in enumerate(comps) for i in c.cands}
        self.edges = {i: comps[self.comp_of[i]].edges_of(i) for i in self.positions}
        if self.crossings:
            self.weight = self._fixed_crossings()
        else:
            self.potential = [
                min(a, b) for a, b in zip(
                    _potentials(comps, fixed, self.positions, self.comp_of),
                    _gap_matching(comps, fixed, self.positions, self.comp_of),
                )
            ]

    # -- costs

    def _fixed_crossings(self) -> dict[int, list[int]]:
        """For each candidate position, the crossings each of its mappings makes with fixed ones."""
        fixed = sorted(self.fixed.items())
        all_refs = sorted(j for _, j in fixed)
        left: list[int] = []
        k = 0
        weight: dict[int, list[int]] = {}
        for i in self.positions:
            while k < len(fixed) and fixed[k][0] < i:
                bisect.insort(left, fixed[k][1])
                k += 1
            weight[i] = [
                len(left) - bisect.bisect_right(left, j)
                + bisect.bisect_left(all_refs, j) - bisect.bisect_left(left, j)
                for j in self.edges[i]
            ]
        return weight

    # -- state

    def _reset(self) -> None:
        n = len(self.comps)
        self.matched = [0] * n
        self.future = [len(c.cands) for c in self.comps]
        self.last = [-1] * n
        self.used: set[int] = set()
        self.assigned: list[int] = []  # sorted reference positions of this search's mappings
        self.lines: list[list[Pair]] = [[] for _ in range(n)]
        self.current: dict[int, int] = {}
        self.seq: list[int] = []
        self.mask = 0  # the reference positions of this search's mappings, as bits
        # Transposition table: (depth, mask[, last reference position]) -> cheapest cost
        # seen. Two prefixes with the same key have the same completions at the same
        # cost, and the depth-first order meets the lexicographically smaller one first.
        self.seen: dict[tuple[int, ...], int] = {}
        self.fut_types = [
            {ct: len(ps) for ct, ps in c.cands_of_type.items()} if not c.complete else None
            for c in self.comps
        ]
        self.ref_types = [
            {rt: len(ps) for rt, ps in c.refs_of_type.items()} if not c.complete else None
            for c in self.comps
        ]

    def _feasible(self, k: int) -> bool:
        comp = self.comps[k]
        if comp.complete:
            if self.crossings:
                avail = len(comp.refs) - bisect.bisect_right(comp.refs, self.last[k])
            else:
                avail = len(comp.refs) - self.matched[k]
            return self.matched[k] + min(self.future[k], avail) >= comp.need
        got = _max_flow(self.fut_types[k], self.ref_types[k], comp.adj)[0]
        return self.matched[k] + got >= comp.need

    def _apply(self, i: int, k: int, j: int) -> None:
        comp = self.comps[k]
        self.future[k] -= 1
        if not comp.complete:
            self.fut_types[k][comp.ctype[i]] -= 1
        if j != _UNMATCHED:
            self.matched[k] += 1
            self.used.add(j)
            self.mask |= 1 << j
            bisect.insort(self.assigned, j)
            self.lines[k].append((i, j))
            self.current[i] = j
            if not comp.complete:
                self.ref_types[k][comp.rtype[j]] -= 1
            self.last[k] = j
        self.seq.append(j)

    def _undo(self, i: int, k: int, j: int, saved_last: int) -> None:
        comp = self.comps[k]
        self.future[k] += 1
        if not comp.complete:
            self.fut_types[k][comp.ctype[i]] += 1
        if j != _UNMATCHED:
            self.matched[k] -= 1
            self.used.discard(j)
            self.mask ^= 1 << j
            del self.assigned[bisect.bisect_left(self.assigned, j)]
            self.lines[k].pop()
            del self.current[i]
            if not comp.complete:
                self.ref_types[k][comp.rtype[j]] += 1
            self.last[k] = saved_last
        self.seq.pop()

    def _step_cost(self, i: int, j: int, w: int) -> int:
        if self.crossings:
            return w + len(self.assigned) - bisect.bisect_right(self.assigned, j)
        gain = 0
        if self.current.get(i - 1, self.fixed.get(i - 1)) == j - 1:
            gain += 1
        if self.fixed.get(i + 1) == j + 1:
            gain += 1
        return -gain

    def _future_bound(self, t: int) -> float:
        """A lower bound on the cost the positions ``t:`` still add (without ``_unavoidable``)."""
        if not self.crossings:
            return -self.potential[t]
        # Each remaining mapping (i, j) crosses the fixed mappings it crosses (weight)
        # and every mapping of this search with a larger reference position (all of
        # them lie left of i). A block needs r more mappings: at least the r cheapest
        # candidate words' best values, and at least the r cheapest reference words'.
        greater = self._greater()
        total = 0
        for k, comp in enumerate(self.comps):
            r = comp.need - self.matched[k]
            if r <= 0:
                continue
            n_future = self.future[k]
            if comp.complete:
                # The block's remaining mappings go in order (the search only makes
                # block-monotone alignments): the cheapest in-order matching, by DP.
                start = bisect.bisect_right(comp.refs, self.last[k])
                total += _monotone_min(
                    comp.cands[len(comp.cands) - n_future:], comp.refs[start:], r,
                    lambda i, x, j: self.weight[i][start + x] + greater[j],
                )[0]
                continue
            else:
                by_cand = []
                ref_best: dict[int, int] = {}
                used = self.used
                for i in comp.cands[len(comp.cands) - n_future:]:
                    value = None
                    for j, w in zip(self.edges[i], self.weight[i]):
                        if j in used:
                            continue
                        v = w + greater[j]
                        if value is None or v < value:
                            value = v
                        old = ref_best.get(j)
                        if old is None or v < old:
                            ref_best[j] = v
                    if value is not None:
                        by_cand.append(value)
                if len(by_cand) < r or len(ref_best) < r:
                    return float("inf")
                by_cand.sort()
                by_ref = sorted(ref_best.values())
                total += max(sum(by_cand[:r]), sum(by_ref[:r]))
        return total

    def _greater(self) -> list[int]:
        """``greater[j]``: how many of this search's mappings have a reference position > j."""
        marks = [0] * (self.n_ref + 1)
        for j in self.assigned:
            marks[j] = 1
        # suffix[j] = marks[j] + marks[j+1] + ...; greater[j] = suffix[j + 1]
        suffix = list(accumulate(reversed(marks)))
        suffix.reverse()
        return suffix[1:] + [0]

    def _unavoidable(self, need: list[int]) -> int:
        """Crossings the remaining mappings of different blocks must make among themselves.

        In a complete block the remaining ``r`` mappings go in order, so its k-th one
        lies in a box: candidate between the k-th and the (k + slack)-th remaining
        candidate word, reference likewise. Two boxes of which one lies strictly
        left of and above the other always give a crossing.
        """
        boxes: list[tuple[int, int, int, int]] = []
        for k, comp in enumerate(self.comps):
            r = need[k]
            if r <= 0 or not comp.complete:
                continue
            fc = comp.cands[len(comp.cands) - self.future[k]:]
            rr = comp.refs[bisect.bisect_right(comp.refs, self.last[k]):]
            sc, sr = len(fc) - r, len(rr) - r
            for q in range(r):
                boxes.append((fc[q], fc[q + sc], rr[q], rr[q + sr]))
        if len(boxes) < 2:
            return 0
        # Count pairs (A, B) with A.cand_max < B.cand_min and A.ref_min > B.ref_max.
        by_start = sorted(boxes, key=lambda b: b[0])
        by_end = sorted(boxes, key=lambda b: b[1])
        seen: list[int] = []  # ref_min of boxes ending before the current start
        e = 0
        count = 0
        for box in by_start:
            while e < len(by_end) and by_end[e][1] < box[0]:
                bisect.insort(seen, by_end[e][2])
                e += 1
            count += len(seen) - bisect.bisect_right(seen, box[3])
        return count

    def _allowed(self, i: int, k: int, j: int) -> bool:
        if j in self.used:
            return False
        comp = self.comps[k]
        if not self.crossings:
            return True
        if comp.complete:
            return j > self.last[k]  # swapping two crossing block mappings removes crossings
        for i2, j2 in self.lines[k]:
            if j2 > j and comp.edge(i2, j) and comp.edge(i, j2):
                return False
        return True

    # -- search

    def solve(self) -> tuple[list[Pair], bool]:
        """The group's mappings and whether they are proven optimal."""
        self._reset()
        self.best_cost: float = float("inf")
        self.best_seq: Optional[list[int]] = None
        self.rel = [0] * (len(self.positions) + 1)
        try:
            self.greedy = True
            try:
                self._dfs(0, 0)
            except _Found:
                pass
            if self.best_seq is not None and len(self.positions) >= _POLISH_FROM:
                self._polish()
            self._reset()
            self.greedy = False
            self._dfs(0, 0)
            optimal = True
        except _BudgetExhausted:
            optimal = False
        if self.best_seq is None:
            return _block_solution(self.comps), False
        pairs = [(i, j) for i, j in zip(self.positions, self.best_seq) if j != _UNMATCHED]
        return pairs, optimal

    # -- a better first solution: local search from the greedy dive

    def _polish(self) -> None:
        """Improve the incumbent by local search before the exact search starts.

        With crossings, each complete block in turn is re-solved exactly (in-order
        dynamic programming) with the rest of the alignment held still; with chunks,
        single words are moved to a free reference word or swap theirs with another
        word's while that adds adjacencies. Only the bound gets better: the exact
        search still decides, with the same tie-break.
        """
        assert self.best_seq is not None
        pairs = {i: j for i, j in zip(self.positions, self.best_seq) if j != _UNMATCHED}
        if self.crossings:
            self._polish_crossings(pairs)
        else:
            self._polish_chunks(pairs)
        seq = [pairs.get(i, _UNMATCHED) for i in self.positions]
        cost = self._cost(pairs)
        if cost < self.best_cost or (cost == self.best_cost and seq < self.best_seq):
            self.best_cost, self.best_seq = cost, seq

    def _cost(self, pairs: dict[int, int]) -> int:
        """The search's cost of a whole solution for this group (what ``_dfs`` adds up)."""
        if self.crossings:
            total = 0
            for i, j in pairs.items():
                total += self.weight[i][bisect.bisect_left(self.edges[i], j)]
            return total + count_crossings(pairs.items())
        return -self._adjacent(pairs, self.positions)

    def _adjacent(self, pairs: dict[int, int], around: Sequence[int]) -> int:
        """Adjacencies ``(a, b), (a + 1, b + 1)`` touching ``around`` with a group mapping in them."""
        starts = {a for i in around for a in (i - 1, i)}
        count = 0
        for a in starts:
            ja = pairs.get(a)
            jb = pairs.get(a + 1)
            if ja is None and jb is None:
                continue
            if ja is None:
                ja = self.fixed.get(a)
            if jb is None:
                jb = self.fixed.get(a + 1)
            if ja is not None and jb == ja + 1:
                count += 1
        return count

    def _polish_crossings(self, pairs: dict[int, int]) -> None:
        blocks = [
            k for k, c in enumerate(self.comps) if c.complete and len(c.cands) != len(c.refs)
        ]
        for _ in range(_POLISH_ROUNDS):
            improved = False
            for k in blocks:
                comp = self.comps[k]
                cands, refs = comp.cands, comp.refs
                nc, nr = len(cands), len(refs)
                # grid[a][b]: other mappings with a block candidates before them and b
                # block references before them; crossings(a, b) follow from its sums.
                grid = [[0] * (nr + 1) for _ in range(nc + 1)]
                mine = set(cands)
                for i, j in pairs.items():
                    if i not in mine:
                        grid[bisect.bisect_left(cands, i)][bisect.bisect_left(refs, j)] += 1
                # cum[x][y] = others with a < x and b < y
                cum = [[0] * (nr + 2) for _ in range(nc + 2)]
                for x in range(nc + 1):
                    row, up, out = grid[x], cum[x], cum[x + 1]
                    run = 0
                    for y in range(nr + 1):
                        run += row[y]
                        out[y + 1] = up[y + 1] + run
                col_all = cum[nc + 1]

                def cost(i: int, b: int, j: int, cands=cands, cum=cum, col_all=col_all,
                         nr=nr) -> int:
                    a = bisect.bisect_left(cands, i)
                    inner = cum[a + 1][b + 1]
                    return (self.weight[i][b] + col_all[b + 1] - inner
                            + cum[a + 1][nr + 1] - inner)

                current = sum(cost(i, bisect.bisect_left(refs, pairs[i]), pairs[i])
                              for i in cands if i in pairs)
                value, best = _monotone_min(cands, refs, min(nc, nr), cost, want_pairs=True)
                if value < current:
                    for i in cands:
                        pairs.pop(i, None)
                    pairs.update(best)
                    improved = True
            if not improved:
                return

    def _polish_chunks(self, pairs: dict[int, int]) -> None:
        for _ in range(_POLISH_ROUNDS):
            improved = False
            owner = {j: i for i, j in pairs.items()}
            for i in self.positions:
                comp = self.comps[self.comp_of[i]]
                mine = pairs.get(i)
                for j in self.edges[i]:
                    if j == mine:
                        continue
                    other = owner.get(j)
                    if other is None:
                        if mine is None:
                            continue  # adding a mapping: the count is already the maximum
                        moved = {i: j}
                    elif mine is None:
                        moved = {i: j, other: None}  # i takes j over, other goes unmatched
                    elif comp.edge(other, mine):
                        moved = {i: j, other: mine}
                    else:
                        continue
                    around = list(moved)
                    before = self._adjacent(pairs, around)
                    saved = {a: pairs.get(a) for a in moved}
                    for a, b in moved.items():
                        if b is None:
                            pairs.pop(a, None)
                        else:
                            pairs[a] = b
                    if self._adjacent(pairs, around) > before:
                        improved = True
                        for a, b in saved.items():
                            if b is not None and owner.get(b) == a:
                                del owner[b]
                        for a, b in moved.items():
                            if b is not None:
                                owner[b] = a
                        mine = pairs.get(i)
                        continue
                    for a, b in saved.items():
                        if b is None:
                            pairs.pop(a, None)
                        else:
                            pairs[a] = b
            if not improved:
                return

    def _dfs(self, t: int, cost: int) -> None:
        if t == len(self.positions):
            rel = self.rel[t]
            if cost < self.best_cost or (cost == self.best_cost and rel < 0):
                self.best_cost = cost
                self.best_seq = list(self.seq)
                for s in range(len(self.rel)):
                    self.rel[s] = 0
                if self.greedy:
                    raise _Found
            return
        i = self.positions[t]
        k = self.comp_of[i]
        children: list[tuple[int, int]] = []
        weights = self.weight[i] if self.crossings else None
        for idx, j in enumerate(self.edges[i]):
            if not self._allowed(i, k, j):
                continue
            step = self._step_cost(i, j, weights[idx] if weights is not None else 0)
            children.append((j, step))
        children.append((_UNMATCHED, 0))
        if self.greedy:
            children.sort(key=lambda c: (c[1], c[0]))
        for j, step in children:
            self.budget.spend()
            saved_last = self.last[k]
            self._apply(i, k, j)
            try:
                if not self._feasible(k):
                    continue
                new_cost = cost + step
                if self.greedy:
                    rel = 0
                else:
                    rel = self.rel[t]
                    if rel == 0 and self.best_seq is not None:
                        ref_j = self.best_seq[t]
                        rel = -1 if j < ref_j else (1 if j > ref_j else 0)
                # Steps add crossings (never remove them): a cheap early cut.
                if self.crossings and (
                    new_cost > self.best_cost or (new_cost == self.best_cost and rel > 0)
                ):
                    continue
                if not self.greedy:
                    key = (t, self.mask) if self.crossings else (t, self.mask, j)
                    seen = self.seen.get(key)
                    if seen is not None and seen <= new_cost:
                        continue  # an earlier, lexicographically smaller prefix is as good
                    self.seen[key] = new_cost
                bound = new_cost + self._future_bound(t + 1)
                if bound > self.best_cost or (bound == self.best_cost and rel > 0):
                    continue
                if self.crossings:
                    bound += self._unavoidable(
                        [c.need - m for c, m in zip(self.comps, self.matched)]
                    )
                    if bound > self.best_cost or (bound == self.best_cost and rel > 0):
                        continue
                self.rel[t + 1] = rel
                self._dfs(t + 1, new_cost)
            finally:
                self._undo(i, k, j, saved_last)


class _Found(Exception):
    pass


# --------------------------------------------------------------------------- one stage


def _groups(comps: list[_Component], tie_break: str) -> list[list[_Component]]:
    """Split components into groups whose choices cannot affect each other's cost.

    With crossings, two components interact only if some mapping of one could cross
    some mapping of the other, which needs their boxes (candidate span × reference
    span) not to lie one strictly below-left of the other. With chunks, two
    components interact only through an adjacency: a mapping ``(i, j)`` of one and
    ``(i + 1, j + 1)`` of the other must both be possible. Either way the cost is a
    sum over the groups, so the lexicographically first optimum of the stage is made
    of each group's lexicographically first optimum.
    """
    if len(comps) <= 1 or len(comps) > 2000:
        return [comps] if comps else []
    parent = list(range(len(comps)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    if tie_break == "chunks":
        comp_of_c = {i: k for k, c in enumerate(comps) for i in c.cands}
        comp_of_r = {j: k for k, c in enumerate(comps) for j in c.refs}
        for i, a in comp_of_c.items():
            b = comp_of_c.get(i + 1)
            if b is None or find(a) == find(b):
                continue
            first, second = comps[a], comps[b]
            for j in first.edges_of(i):
                if comp_of_r.get(j + 1) == b and second.edge(i + 1, j + 1):
                    parent[find(a)] = find(b)
                    break
        boxes = []
    else:
        boxes = [(c.cands[0], c.cands[-1], c.refs[0], c.refs[-1]) for c in comps]
    for a in range(len(boxes)):
        a0, a1, a2, a3 = boxes[a]
        for b in range(a + 1, len(comps)):
            b0, b1, b2, b3 = boxes[b]
            apart = (a1 < b0 and a3 < b2) or (b1 < a0 and b3 < a2)
            if not apart:
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[ra] = rb
    out: dict[int, list[_Component]] = defaultdict(list)
    for k, comp in enumerate(comps):
        out[find(k)].append(comp)
    return list(out.values())


_NO_KEY = object()  # "this word has no key at this stage"
_MISSING = object()  # "not looked up yet"


def _single_key_blocks(
    cand: Sequence[str], ref: Sequence[str], free_c: list[int], free_r: list[int], stage: Stage,
) -> Optional[list[tuple[list[int], list[int]]]]:
    """The stage's components when every word has at most one key (``exact``, ``stem``).

    Each key that words on both sides have is then a complete block: its candidate
    and reference positions, in order. ``None`` when some word has several keys
    (then :func:`_components` builds the general match graph).

    >>> from mtlearn.meteor_matchers import ExactMatcher
    >>> _single_key_blocks("a b a c".split(), "b a d".split(), [0, 1, 2, 3], [0, 1, 2], ExactMatcher())
    [([0, 2], [1]), ([1], [0])]
    """
    if type(stage) is SynonymMatcher:
        return None  # words have many synsets
    by_c: dict[Hashable, list[int]] = {}
    by_r: dict[Hashable, list[int]] = {}
    if type(stage) is ExactMatcher:  # its keys(word) is {word}: the word is the key
        for side, words, free in ((by_c, cand, free_c), (by_r, ref, free_r)):
            for i in free:
                w = words[i]
                found = side.get(w)
                if found is None:
                    side[w] = [i]
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


def _complete_block(cands: list[int], refs: list[int]) -> _Component:
    """A complete block as a component: one candidate type, one reference type."""
    return _Component(
        cands, refs, dict.fromkeys(cands, 0), dict.fromkeys(refs, 0), {0: frozenset((0,))},
        True, min(len(cands), len(refs)), {0: refs}, {0: cands},
    )


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
    optimal = True
    found: list[Pair] = []
    weights = _ContextCrossings(context) if crossings else None
    for group in _groups(open_comps, tie_break):
        pairs, proven = _solve_group(group, context, tie_break, budget, weights)
        found.extend(pairs)
        optimal = optimal and proven
    return new + found, optimal


class _ContextCrossings:
    """How many mappings of a fixed alignment each possible mapping ``(i, j)`` would cross.

    >>> _ContextCrossings({0: 2, 3: 0}).table([1, 2], [1, 3])  # (1, 1) crosses (0, 2) and (3, 0)
    [[2, 1], [2, 1]]
    """

    def __init__(self, context: dict[int, int]) -> None:
        items = sorted(context.items())
        self.cand = [i for i, _ in items]
        self.ref = [j for _, j in items]
        self.sorted_ref = sorted(self.ref)

    def table(self, cands: Sequence[int], refs: Sequence[int]) -> list[list[int]]:
        """``table[a][b]``: the crossings of ``(cands[a], refs[b])`` with the fixed mappings."""
        rows = []
        all_refs = self.sorted_ref
        for i in cands:
            k = bisect.bisect_left(self.cand, i)
            left = sorted(self.ref[:k])  # references of the fixed mappings left of i
            rows.append([
                k - bisect.bisect_right(left, j)  # left of i, above j
                + bisect.bisect_left(all_refs, j) - bisect.bisect_left(left, j)  # right, below
                for j in refs
            ])
        return rows


def _block_dp(cands: Sequence[int], refs: Sequence[int], weight: list[list[int]]) -> list[Pair]:
    """The cheapest in-order mappings of one complete block, the tie-break's choice among them.

    The smaller side is used up: its ``q``-th word takes word ``q + d_q`` of the
    larger side, ``d_q`` non-decreasing; ``weight[a][b]`` prices ``(cands[a],
    refs[b])``. A suffix dynamic programme gives every choice's best completion;
    walking forward, the first choice that still reaches the optimum is taken. That is
    the lexicographically smallest optimum of the rule: with more references, each
    candidate word takes the earliest reference it can; with more candidate words,
    the earliest candidate words are mapped (a mapped word sorts before an unmapped
    one).

    >>> _block_dp([0, 5], [1, 2, 3], [[1, 0, 0], [0, 0, 0]])  # (0, 1) would cost 1
    [(0, 2), (5, 3)]
    >>> _block_dp([0, 1, 2], [7], [[0], [0], [0]])  # all equal: the earliest word
    [(0, 7)]
    """
    return _block_optimum(cands, refs, weight)[1]


def _block_optimum(
    cands: Sequence[int], refs: Sequence[int], weight: list[list[int]]
) -> tuple[int, list[Pair]]:
    """:func:`_block_dp` with its cost: ``(total weight, mappings)``.

    >>> _block_optimum([0, 5], [1, 2, 3], [[1, 0, 0], [0, 0, 0]])
    (0, [(0, 2), (5, 3)])
    """
    nc, nr = len(cands), len(refs)
    small_is_cands = nc <= nr
    r = min(nc, nr)
    slack = max(nc, nr) - r
    if small_is_cands:
        rows = [weight[q][q:q + slack + 1] for q in range(r)]
    else:
        rows = [[weight[q + d][q] for d in range(slack + 1)] for q in range(r)]
    # best[q][d]: cost of word q at offset d plus the cheapest completion (offsets >= d).
    best: list[list[int]] = [[]] * r
    after: Optional[list[int]] = None
    for q in range(r - 1, -1, -1):
        row = rows[q]
        if after is not None:
            m = after[slack]
            tail = [0] * (slack + 1)
            for d in range(slack, -1, -1):
                v = after[d]
                if v < m:
                    m = v
                tail[d] = m
            row = [a + b for a, b in zip(row, tail)]
        best[q] = after = row
    target = min(best[0])
    pairs: list[Pair] = []
    spent = 0
    d = 0
    for q in range(r):
        row = best[q]
        while spent + row[d] != target:
            d += 1
        spent += rows[q][d]
        pairs.append((cands[q], refs[q + d]) if small_is_cands else (cands[q + d], refs[q]))
    return target, pairs


def _count_crossings(pairs: Sequence[Pair]) -> int:
    """Crossings of pairs sorted by candidate index (inversions of their reference positions).

    >>> _count_crossings([(0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)])
    8
    """
    seen: list[int] = []
    count = 0
    for _, j in pairs:
        pos = bisect.bisect_right(seen, j)
        count += len(seen) - pos
        seen.insert(pos, j)
    return count


def _count_chunks(pairs: Sequence[Pair]) -> int:
    """Chunks of pairs sorted by candidate index.

    >>> _count_chunks([(0, 3), (1, 4), (2, 5), (3, 2), (4, 0), (5, 1)])
    3
    """
    count = 0
    pi = pj = -2
    for i, j in pairs:
        if i != pi + 1 or j != pj + 1:
            count += 1
        pi, pj = i, j
    return count


def _crossing_weights(
    context: dict[int, int], blocks: Sequence[tuple[list[int], list[int]]]
) -> list[list[list[int]]]:
    """For each block, ``table[a][b]``: the mappings of ``context`` that ``(cands[a], refs[b])`` crosses.

    One sweep over the candidate positions: the context's reference positions left of
    the current word are kept sorted, so each entry is two binary searches. A mapping
    ``(i, j)`` crosses ``(k, l)`` of the context when ``k < i`` and ``l > j`` or
    ``k > i`` and ``l < j``: with ``L`` context mappings left of ``i``, ``L(j)`` of them
    below ``j`` and ``A(j)`` context mappings below ``j`` in all, that is
    ``(L − L(j)) + (A(j) − L(j))``.

    >>> _crossing_weights({0: 2, 3: 0}, [([1, 2], [1, 3])])  # (1, 1) crosses (0, 2) and (3, 0)
    [[[2, 1], [2, 1]]]
    """
    items = sorted(context.items())
    all_refs = sorted(context.values())
    order = sorted((i, b, a) for b, (cs, _) in enumerate(blocks) for a, i in enumerate(cs))
    tables: list[list[list[int]]] = [[[] for _ in cs] for cs, _ in blocks]
    below_all = [[bisect.bisect_left(all_refs, j) for j in rs] for _, rs in blocks]
    left: list[int] = []
    k = 0
    for i, b, a in order:
        while k < len(items) and items[k][0] < i:
            bisect.insort(left, items[k][1])
            k += 1
        n_left = len(left)
        tables[b][a] = [
            n_left - 2 * below + total
            for below, total in zip([bisect.bisect_left(left, j) for j in blocks[b][1]], below_all[b])
        ]
    return tables


def _crossing_blocks(own: Sequence[Sequence[Pair]]) -> set[int]:
    """The blocks whose mappings cross a mapping of another block.

    ``own[b]`` are block b's mappings, in order (so they never cross each other).

    >>> sorted(_crossing_blocks([[(0, 2)], [(1, 0)], [(5, 5)]]))  # (0, 2) and (1, 0) cross
    [0, 1]
    """
    items = sorted((i, j, b) for b, pairs in enumerate(own) for i, j in pairs)
    seen_j: list[int] = []  # reference positions of the mappings so far, sorted
    seen_b: list[int] = []  # their blocks, in the same order
    found: set[int] = set()
    for _, j, b in items:
        pos = bisect.bisect_right(seen_j, j)
        if pos < len(seen_j):  # earlier mappings above j: each crosses this one
            found.add(b)
            found.update(seen_b[pos:])
        seen_j.insert(pos, j)
        seen_b.insert(pos, b)
    return found


def _box_groups(boxes: Sequence[tuple[int, int, int, int]]) -> list[list[int]]:
    """Indices of ``boxes`` grouped by "may interact", transitively.

    Two blocks interact unless one's box (first and last candidate, first and last
    reference position) lies wholly below-left of the other's: then no mapping of one
    can cross a mapping of the other.

    >>> _box_groups([(0, 1, 0, 1), (2, 3, 2, 3), (1, 4, 0, 5)])  # the third spans both
    [[0, 1, 2]]
    >>> _box_groups([(0, 1, 0, 1), (2, 3, 2, 3)])
    [[0], [1]]
    """
    parent = list(range(len(boxes)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, (a0, a1, a2, a3) in enumerate(boxes):
        for b in range(a + 1, len(boxes)):
            b0, b1, b2, b3 = boxes[b]
            if not ((a1 < b0 and a3 < b2) or (b1 < a0 and b3 < a2)):
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[ra] = rb
    groups: dict[int, list[int]] = {}
    for b in range(len(boxes)):
        groups.setdefault(find(b), []).append(b)
    return list(groups.values())


#: Blocks in one stage beyond which they are not grouped box by box (a quadratic step):
#: all of them then form one group, for the search and its limits.
_GROUPING_LIMIT = 2_000


def _solve_complete_blocks(
    blocks: Sequence[tuple[list[int], list[int]]], context: dict[int, int], budget: _Budget,
) -> tuple[list[Pair], bool]:
    """Crossings rule: the optimum of unbalanced complete blocks against the fixed mappings.

    ``blocks`` are ``(candidate positions, reference positions)``, each side sorted;
    every candidate word of a block matches every reference word of it. Every optimum
    is in order inside each block (uncrossing two mappings of a block removes a
    crossing and adds none), so its cost is at least the sum of the blocks' own optima
    against ``context`` (:func:`_block_optimum`). When those own optima do not cross
    one another they reach that bound, and their combination is the lexicographically
    smallest optimum. Otherwise each group of blocks that may interact and holds a
    crossing goes to :func:`_choose_block_subsets`, then :func:`_layered_blocks`, then
    the general search. Returns the mappings and whether they are proven optimal.

    >>> _solve_complete_blocks([([0, 2], [1])], {1: 0}, _Budget(0))  # (0, 1) would cross (1, 0)
    ([(2, 1)], True)
    """
    if any(len(cs) * len(rs) > _TABLE_LIMIT for cs, rs in blocks):
        # Too big to tabulate: the general path, with its limits.
        return _finish_stage([], [_complete_block(c, r) for c, r in blocks], context,
                             "crossings", budget)
    tables = _crossing_weights(context, blocks)
    own = [_block_optimum(cs, rs, table) for (cs, rs), table in zip(blocks, tables)]
    crossing = _crossing_blocks([pairs for _, pairs in own]) if len(blocks) > 1 else set()
    if not crossing:
        return [pair for _, pairs in own for pair in pairs], True
    if len(blocks) > _GROUPING_LIMIT:
        groups = [list(range(len(blocks)))]
    else:
        groups = _box_groups([(cs[0], cs[-1], rs[0], rs[-1]) for cs, rs in blocks])
    found: list[Pair] = []
    optimal = True
    for group in groups:
        if crossing.isdisjoint(group):
            for b in group:
                found.extend(own[b][1])
            continue
        members = [blocks[b] for b in group]
        group_tables = [tables[b] for b in group]
        pairs = None
        combinations_count = 1
        for cs, rs in members:
            combinations_count *= comb(max(len(cs), len(rs)), min(len(cs), len(rs)))
        if combinations_count <= _ENUMERATE_LIMIT:
            pairs = _try_every_choice(members, group_tables)
        elif sum(len(cs) for cs, _ in members) <= _DEPTH_LIMIT:
            pairs = _choose_block_subsets(members, group_tables, [own[b] for b in group], budget)
            if pairs is None:
                start = sorted(pair for b in group for pair in own[b][1])
                comps = [_complete_block(cs, rs) for cs, rs in members]
                pairs = _layered_blocks(comps, group_tables, start, budget)
        if pairs is None:
            pairs, proven = _search_group(
                [_complete_block(cs, rs) for cs, rs in members], context, "crossings", budget)
            optimal = optimal and proven
        found.extend(pairs)
    return found, optimal


# A block of a subproblem of _choose_block_subsets: (its table, its own optimum's cost,
# that optimum's pairs), by block number.
_Blocks = dict[int, tuple[list[list[int]], int, list[Pair]]]


class _GiveUp(Exception):
    """_choose_block_subsets: the group is too big for this method."""


#: In-order choices one block may have for :func:`_choose_block_subsets` to list them.
_CHOICE_LIMIT = 400
#: Nodes :func:`_choose_block_subsets` may visit before it leaves the group to the next method.
_CHOICE_NODES = 4_000


def _block_choices(cands: Sequence[int], refs: Sequence[int], table: list[list[int]]) -> list[tuple[int, tuple[Pair, ...]]]:
    """Every in-order way to map a complete block (the smaller side used up), with its weight.

    Sorted by weight, then in the tie-break's order (the block's reference positions
    read in candidate order, an unmapped word last).

    >>> _block_choices([0, 4], [1], [[0], [2]])  # map word 0 (weight 0) or word 4 (weight 2)
    [(0, ((0, 1),)), (2, ((4, 1),))]
    """
    nc, nr = len(cands), len(refs)
    out = []
    if nc <= nr:
        for chosen in combinations(range(nr), nc):
            w = 0
            for a, x in enumerate(chosen):
                w += table[a][x]
            out.append((w, tuple(zip(cands, [refs[x] for x in chosen]))))
    else:
        # combinations() lists the mapped candidate words earliest first: that is the
        # tie-break's order (a mapped word sorts before an unmapped one).
        for chosen in combinations(range(nc), nr):
            w = 0
            for x, a in enumerate(chosen):
                w += table[a][x]
            out.append((w, tuple(zip([cands[a] for a in chosen], refs))))
    out.sort(key=lambda o: o[0])  # stable: equal weights keep the tie-break's order
    return out


def _pairs_crossing(first: Sequence[Pair], second: Sequence[Pair]) -> int:
    """Crossings between two sets of mappings with no position in common.

    >>> _pairs_crossing([(0, 2), (3, 5)], [(1, 0), (2, 6)])  # (0, 2)-(1, 0) and (3, 5)-(2, 6)
    2
    """
    count = 0
    for i, j in first:
        for k, l in second:
            if (i < k) != (j < l):
                count += 1
    return count


def _crossing_table(
    cands: Sequence[int], refs: Sequence[int], table: list[list[int]], others: Sequence[Pair]
) -> list[list[int]]:
    """``table`` plus, for every ``(cands[a], refs[b])``, its crossings with ``others``.

    ``table`` itself is returned when no mapping of the block can cross ``others``.

    >>> _crossing_table([1], [0, 2], [[0, 0]], [(0, 1)])  # (1, 0) crosses (0, 1); (1, 2) does not
    [[1, 0]]
    """
    c_lo, c_hi, r_lo, r_hi = cands[0], cands[-1], refs[0], refs[-1]
    relevant = [(k, l) for k, l in others
                if not ((k > c_hi and l > r_hi) or (k < c_lo and l < r_lo))]
    if not relevant:
        return table  # every other mapping lies beyond the block's box on both sides
    out = []
    for i, row in zip(cands, table):
        above = sorted(l for k, l in relevant if k < i)  # left of i: crosses (i, j) when l > j
        below = sorted(l for k, l in relevant if k > i)  # right of i: crosses when l < j
        n_above = len(above)
        out.append([
            w + n_above - bisect.bisect_right(above, j) + bisect.bisect_left(below, j)
            for w, j in zip(row, refs)
        ])
    return out


#: Combinations of the blocks' choices up to which :func:`_try_every_choice` is used.
_ENUMERATE_LIMIT = 24


def _try_every_choice(
    blocks: Sequence[tuple[list[int], list[int]]], tables: Sequence[list[list[int]]],
) -> list[Pair]:
    """Crossings rule, a few interacting complete blocks: every combination of their choices.

    The cost of a combination is its weights plus the crossings between blocks; the
    cheapest wins, then the tie-break (reference positions in candidate order,
    unmatched last). Cheaper than the branch and bound when the choices are few.

    >>> _try_every_choice([([0, 3], [2]), ([1, 2], [0, 1, 3])], [[[0], [0]], [[0, 0, 0], [0, 0, 0]]])
    [(1, 0), (2, 1), (3, 2)]
    """
    options = [_block_choices(cs, rs, table) for (cs, rs), table in zip(blocks, tables)]
    positions = sorted(i for cs, _ in blocks for i in cs)
    best: Optional[tuple[int, list[int], list[Pair]]] = None
    for combo in product(*options):
        cost = 0
        for w, _ in combo:
            cost += w
        for a in range(1, len(combo)):
            first = combo[a][1]
            for b in range(a):
                cost += _pairs_crossing(first, combo[b][1])
        if best is not None and cost > best[0]:
            continue
        pairs = sorted(pair for _, chosen in combo for pair in chosen)
        mapped = dict(pairs)
        seq = [mapped.get(i, _UNMATCHED) for i in positions]
        if best is None or cost < best[0] or seq < best[1]:
            best = (cost, seq, pairs)
    assert best is not None
    return best[2]


def _choose_block_subsets(
    blocks: Sequence[tuple[list[int], list[int]]], tables: Sequence[list[list[int]]],
    own: Sequence[tuple[int, list[Pair]]], budget: _Budget,
) -> Optional[list[Pair]]:
    """Crossings rule, interacting complete blocks: branch and bound over the blocks' choices.

    Each block's mappings are in order in every optimum, so an alignment of the group is
    one in-order choice per block; its cost is the blocks' weights (crossings with the
    fixed mappings, ``tables``) plus the crossings between blocks. ``own`` holds each
    block's own optimum ``(cost, pairs)`` against ``tables``. A subproblem is a set of
    blocks, each with its table against the fixed mappings and the blocks chosen above it:

    * every block's own optimum (:func:`_block_optimum`) bounds its cost from below;
      when those optima do not cross one another they are the subproblem's best and,
      each being its block's tie-break choice, its lexicographically smallest;
    * blocks whose boxes are apart (one below-left of the other: no choice of one can
      cross a choice of the other) fall into independent parts, solved one by one;
    * otherwise the search branches on the block with the fewest choices among those
      whose optimum crosses another's, lightest choice first, dropping a choice when
      its weight plus the other blocks' own optima exceeds the best found. Equal costs
      are compared by the tie-break (reference positions in candidate order, unmatched
      last).

    The own optima together are the first solution (its cost the first bound). The
    nodes visited are spent from ``budget``; ``None`` when a block to branch on has
    more than :data:`_CHOICE_LIMIT` choices or the search would visit more than
    :data:`_CHOICE_NODES` nodes or than ``budget`` has left.

    Block x has candidate words 0 and 3 and reference word 2; block y candidate words
    1, 2 and reference words 0, 1, 3; no fixed mappings (all weights 0). Each block's
    own first choice, (0, 2) and (1, 0), (2, 1), makes 2 crossings; mapping word 3 of
    x instead makes none:

    >>> x, y = ([0, 3], [2]), ([1, 2], [0, 1, 3])
    >>> _choose_block_subsets([x, y], [[[0], [0]], [[0, 0, 0], [0, 0, 0]]],
    ...                       [(0, [(0, 2)]), (0, [(1, 0), (2, 1)])], _Budget(100))
    [(1, 0), (2, 1), (3, 2)]
    """
    n_choices = [comb(max(len(cs), len(rs)), min(len(cs), len(rs))) for cs, rs in blocks]
    boxes = [(cs[0], cs[-1], rs[0], rs[-1]) for cs, rs in blocks]
    near = [
        {c for c, (c0, c1, c2, c3) in enumerate(boxes)
         if c != b and not ((b1 < c0 and b3 < c2) or (c1 < b0 and c3 < b2))}
        for b, (b0, b1, b2, b3) in enumerate(boxes)
    ]
    positions = sorted(i for cs, _ in blocks for i in cs)
    node_limit = min(_CHOICE_NODES, budget.left)
    nodes = 0

    def seq_of(pairs: Sequence[Pair]) -> list[int]:
        # Positions outside a subproblem read as unmatched in every one of its
        # solutions, so comparing over all positions compares over its own.
        chosen = dict(pairs)
        return [chosen.get(i, _UNMATCHED) for i in positions]

    def parts(open_blocks: _Blocks) -> list[list[int]]:
        # Connected parts of the open blocks under "near", each sorted, in the order of
        # their first block (a fixed order keeps the search, and its node count, the same
        # from run to run).
        part_of: dict[int, int] = {}
        out: list[list[int]] = []
        for start in open_blocks:  # ascending block numbers
            if start in part_of:
                continue
            part_of[start] = len(out)
            part = [start]
            todo = [start]
            while todo:
                b = todo.pop()
                for c in near[b]:
                    if c in open_blocks and c not in part_of:
                        part_of[c] = len(out)
                        part.append(c)
                        todo.append(c)
            part.sort()
            out.append(part)
        return out

    def solve(open_blocks: _Blocks, limit: int) -> Optional[tuple[int, list[Pair]]]:
        """The best alignment of ``open_blocks`` if its cost is at most ``limit``, else ``None``."""
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            raise _GiveUp
        bound = 0
        for _, value, _ in open_blocks.values():
            bound += value
        if bound > limit:
            return None
        order = list(open_blocks)
        crossing = _crossing_blocks([open_blocks[b][2] for b in order])
        if not crossing:
            return bound, [pair for _, _, pairs in open_blocks.values() for pair in pairs]
        split = parts(open_blocks)
        if len(split) > 1:
            total, found = 0, []
            unsolved = bound
            for part in split:
                sub = {b: open_blocks[b] for b in part}
                unsolved -= sum(value for _, value, _ in sub.values())
                got = solve(sub, limit - total - unsolved)
                if got is None:
                    return None
                total += got[0]
                found.extend(got[1])
            return total, found
        b = min(sorted(order[x] for x in crossing), key=lambda c: n_choices[c])
        if n_choices[b] > _CHOICE_LIMIT:
            raise _GiveUp
        table_b, value_b, _ = open_blocks[b]
        others = bound - value_b
        cands_b, refs_b = blocks[b]
        best: Optional[tuple[int, list[Pair], list[int]]] = None
        for w, pairs in _block_choices(cands_b, refs_b, table_b):
            if w + others > limit:
                break  # lightest first: every later choice is heavier
            rest: _Blocks = {}
            near_b = near[b]
            for c, entry in open_blocks.items():
                if c == b:
                    continue
                if c in near_b:
                    cs, rs = blocks[c]
                    new_table = _crossing_table(cs, rs, entry[0], pairs)
                    if new_table is not entry[0]:
                        rest[c] = (new_table, *_block_optimum(cs, rs, new_table))
                        continue
                rest[c] = entry
            got = solve(rest, limit - w)
            if got is None:
                continue
            cost = got[0] + w
            found = got[1] + list(pairs)
            if best is None or cost < best[0]:
                best = (cost, found, seq_of(found))
                limit = cost  # from now on only as good or better
            else:  # cost == best[0]: the tie-break decides
                seq = seq_of(found)
                if seq < best[2]:
                    best = (cost, found, seq)
        return None if best is None else (best[0], best[1])

    root: _Blocks = {b: (tables[b], value, pairs) for b, (value, pairs) in enumerate(own)}
    start = sorted(pair for _, pairs in own for pair in pairs)
    first = sum(value for value, _ in own) + _count_crossings(start)  # a solution's cost
    try:
        got = solve(root, first)
    except _GiveUp:
        return None
    assert got is not None  # the own optima cost ``first``: some solution is that cheap
    budget.used += nodes
    budget.left -= nodes
    return sorted(got[1])


def _polish_blocks(group: list[_Component], tables: list[list[list[int]]], pairs: list[Pair]) -> int:
    """Improve ``pairs`` in place block by block (each re-solved with the rest held); its cost.

    The cost is what :func:`_layered_blocks` minimises: crossings with the fixed
    mappings plus crossings among ``pairs``. Only a better starting bound: the result
    need not be optimal.
    """
    block_of = {i: b for b, comp in enumerate(group) for i in comp.cands}

    def cost(current: list[Pair]) -> int:
        total = _count_crossings(current)
        for i, j in current:
            comp = group[block_of[i]]
            total += tables[block_of[i]][bisect.bisect_left(comp.cands, i)][
                bisect.bisect_left(comp.refs, j)]
        return total

    best = cost(pairs)
    for _ in range(_POLISH_ROUNDS):
        improved = False
        for b, comp in enumerate(group):
            others = {i: j for i, j in pairs if block_of[i] != b}
            extra = _ContextCrossings(others).table(comp.cands, comp.refs)
            table = [[x + y for x, y in zip(row, more)] for row, more in zip(tables[b], extra)]
            trial = sorted(list(others.items()) + _block_dp(comp.cands, comp.refs, table))
            value = cost(trial)
            if value < best:
                best = value
                pairs[:] = trial
                improved = True
        if not improved:
            break
    return best


def _box_crossings(boxes: list[tuple[int, int, int, int]]) -> int:
    """Pairs of boxes ``(cand_min, cand_max, ref_min, ref_max)`` whose mappings must cross.

    Box A lies left of and above box B when ``A.cand_max < B.cand_min`` and
    ``A.ref_min > B.ref_max``: any mapping in A crosses any mapping in B.

    >>> _box_crossings([(0, 1, 5, 6), (2, 2, 0, 4), (3, 3, 9, 9)])
    1
    """
    if len(boxes) < 2:
        return 0
    by_start = sorted(boxes)
    by_end = sorted(boxes, key=lambda b: b[1])
    seen: list[int] = []  # ref_min of the boxes ending before the current one starts
    e = 0
    count = 0
    for box in by_start:
        while e < len(by_end) and by_end[e][1] < box[0]:
            bisect.insort(seen, by_end[e][2])
            e += 1
        count += len(seen) - bisect.bisect_right(seen, box[3])
    return count


#: States one layer of :func:`_layered_blocks` may hold before it leaves the group to the search.
_LAYER_LIMIT = 4_000
_SHARP_FROM = 4  # states in a layer from which the bound's costlier parts are computed


def _layered_blocks(
    group: list[_Component], tables: list[list[list[int]]], start: list[Pair], budget: _Budget
) -> Optional[list[Pair]]:
    """Crossings rule, complete blocks only: dynamic programming over candidate positions.

    Optima are in order inside each block, so at every position only few moves
    exist: in a block with more candidate than reference words, take the block's
    next reference word or stay unmapped; in a block with more reference words,
    take one of the next ones. The cost of a move ``(i, j)`` is its crossings with
    the fixed mappings (``tables``) plus the group's earlier mappings above ``j``
    (all of them lie left of ``i``), so the cost of the rest depends only on the
    reference words used so far: on those of the blocks still open exactly, and on
    the others only through how many lie above each reference word an open block may
    still take. That is the state. Layer by layer, each state keeps its cheapest
    prefix and, among equally cheap ones, the lexicographically smallest (states are
    kept in the order of their prefixes, moves tried in the rule's order: earlier
    reference word first, unmapped last). A state is dropped when its cost plus a
    lower bound on the rest (each block's cheapest in-order completion against the
    fixed mappings) exceeds the cost of ``start`` improved by :func:`_polish_blocks`.
    It may try no more moves than ``budget`` has nodes left, and spends none of them
    (so the branch and bound of later groups gets every node it had without this
    programme); ``None`` when a layer would exceed :data:`_LAYER_LIMIT` states or the
    moves would exceed the budget.
    """
    positions = sorted(i for c in group for i in c.cands)
    block_of: dict[int, int] = {}
    rank_in_block: dict[int, int] = {}
    info = []
    for b, comp in enumerate(group):
        for q, i in enumerate(comp.cands):
            block_of[i] = b
            rank_in_block[i] = q
        table = tables[b]
        nc, nr = len(comp.cands), len(comp.refs)
        more_cands = nc > nr
        slack = abs(nc - nr)
        r = min(nc, nr)
        # lower[k][e]: cheapest completion of the block's words k.. (of the smaller side)
        # at offsets >= e, by the same suffix programme as _block_dp.
        if more_cands:
            rows = [[table[q + d][q] for d in range(slack + 1)] for q in range(r)]
        else:
            rows = [table[q][q:q + slack + 1] for q in range(r)]
        lower = [[0] * (slack + 1) for _ in range(r + 1)]
        for q in range(r - 1, -1, -1):
            m = None
            for d in range(slack, -1, -1):
                v = rows[q][d] + lower[q + 1][d]
                if m is None or v < m:
                    m = v
                lower[q][d] = m
        bits = 0
        for j in comp.refs:
            bits |= 1 << j
        info.append((comp.refs, table, more_cands, slack, r, lower, bits, nc, nr))
    # After position t: the reference words of the blocks still open, and their bits.
    last_of = {block_of[i]: t for t, i in enumerate(positions)}
    bound = _polish_blocks(group, tables, list(start))
    lb0 = sum(x[5][0][0] for x in info)
    # A state: (mask, cost, lower bound of the rest, back pointer, rank).
    layer: list[tuple[int, int, int, int, int]] = [(0, 0, lb0, -1, 0)]
    history: list[list[tuple[int, int, int, int, int]]] = []
    spent = 0
    moves: list[list[int]] = []  # per layer, per state: the reference position taken
    seen_of = [0] * len(group)  # candidate words of each block processed so far
    for t, i in enumerate(positions):
        b = block_of[i]
        refs, table, more_cands, slack, r, lower, bits, nc, nr = info[b]
        k = rank_in_block[i]  # this word is the block's k-th candidate word
        seen_of[b] += 1
        still = [c for c, last in last_of.items() if last > t]
        keep_bits = sum(info[c][6] for c in still)
        future: list[int] = []  # sorted lazily: only closed blocks' bits need it
        # With few states nothing is worth pruning: the bound's second and third parts
        # are skipped (a smaller bound stays a lower bound).
        sharp = len(layer) >= _SHARP_FROM
        # The bound's second part: every later mapping (i', j') crosses the group's
        # mappings so far above j'. A block with more candidate words will use all its
        # references not yet used (exact); one with more references at least its last
        # ones. A new mapping at j therefore adds, per other open block, its such
        # references below j.
        many = [c for c in still if c != b and info[c][2]] if sharp else []
        fixed_below: dict[int, int] = {}
        many_below: dict[int, list[int]] = {}
        for j in refs:
            total = 0
            if sharp:
                for c in still:
                    if c != b and not info[c][2]:
                        cr, cnr, cnc = info[c][0], info[c][8], info[c][7]
                        total += max(0, bisect.bisect_left(cr, j) - (cnr - (cnc - seen_of[c])))
            fixed_below[j] = total
            many_below[j] = [bisect.bisect_left(info[c][0], j) for c in many]
        many_bits = [info[c][6] for c in many]
        # The bound's third part: crossings the later mappings must make among themselves,
        # whatever the state (boxes every state's later mappings lie in; see _box_crossings).
        sure = 0
        if sharp:
            boxes = []
            for c in still:
                cc, cr = group[c].cands, info[c][0]
                c_slack, c_nc, c_nr, seen = info[c][3], info[c][7], info[c][8], seen_of[c]
                if info[c][2]:  # references from index `seen` on are surely still to be mapped
                    boxes.extend((cc[q], cc[q + c_slack], cr[q], cr[q]) for q in range(seen, c_nr))
                else:  # every remaining candidate word is mapped
                    boxes.extend((cc[a], cc[a], cr[a], cr[a + c_slack]) for a in range(seen, c_nc))
            sure = _box_crossings(boxes)
        bound_t = bound - sure
        drop = None if more_cands else refs[nr - (nc - k)]  # leaves this block's last ones
        index: dict[object, int] = {}
        out: list[list[int]] = []
        counter = 0
        for s, (mask, cost, lb, _, _) in enumerate(layer):
            mine = mask & bits
            used = [(mask & x).bit_count() for x in many_bits]
            if more_cands:
                u = mine.bit_count()  # block references used: the first u
                # the bound's part for this block before the move
                old = lower[u][k - u] if u < r else 0
                options = []
                if u < nr:
                    j = refs[u]
                    above = (mask >> (j + 1)).bit_count()
                    new_u = u + 1
                    new = lower[new_u][k + 1 - new_u] if new_u < r else 0
                    add = fixed_below[j]
                    for x, y in zip(many_below[j], used):
                        if x > y:
                            add += x - y
                    # `above` moves from the bound into the cost
                    options.append((j, mask | (1 << j), cost + table[k][u] + above,
                                    lb - old + new - above + add))
                if nc - k - 1 >= nr - u:  # enough words left to use the block's references
                    new = lower[u][k + 1 - u] if u < r else 0
                    options.append((_UNMATCHED, mask, cost, lb - old + new))
            else:
                # k words mapped so far, the last at reference index x (or -1)
                x_last = bisect.bisect_left(refs, mine.bit_length() - 1) if mine else -1
                old = lower[k][x_last + 1 - k if k else 0]
                old += (mask >> (drop + 1)).bit_count()  # type: ignore[operator]
                options = []
                for x in range(max(x_last + 1, k), k + slack + 1):
                    j = refs[x]
                    step = table[k][x] + (mask >> (j + 1)).bit_count()
                    new = lower[k + 1][x - k]
                    add = fixed_below[j]
                    for z, y in zip(many_below[j], used):
                        if z > y:
                            add += z - y
                    options.append((j, mask | (1 << j), cost + step, lb - old + new + add))
            for j, new_mask, new_cost, new_lb in options:
                counter += 1
                if new_cost + new_lb > bound_t:
                    continue
                # Closed blocks' words only count through the open words below them.
                closed = new_mask & ~keep_bits
                key: object = new_mask
                if closed:
                    if not future:
                        # ([-1]: no block open, nothing to tell apart; sorted once)
                        future = sorted(j for c in still for j in group[c].refs) or [-1]
                    places = []
                    while closed:
                        low = closed & -closed
                        place = bisect.bisect_left(future, low.bit_length() - 1)
                        if place:
                            places.append(place)
                        closed ^= low
                    key = (new_mask & keep_bits, tuple(places))
                at = index.get(key)
                if at is None:
                    index[key] = len(out)
                    out.append([new_mask, new_cost, new_lb, s, counter, j])
                elif new_cost < out[at][1]:
                    out[at] = [new_mask, new_cost, new_lb, s, counter, j]
            if len(out) > _LAYER_LIMIT:
                return None
        spent += counter
        if spent > budget.left:
            return None
        out.sort(key=lambda e: e[4])
        history.append(layer)
        moves.append([e[5] for e in out])
        layer = [(e[0], e[1], e[2], e[3], e[4]) for e in out]
    if not layer:
        return None  # cannot happen: the polished start survives every bound
    best = min(range(len(layer)), key=lambda s: (layer[s][1], s))
    seq = []
    s = best
    for t in range(len(positions) - 1, -1, -1):
        seq.append(moves[t][s])
        s = layer[s][3]
        layer = history[t]
    seq.reverse()
    return [(i, j) for i, j in zip(positions, seq) if j != _UNMATCHED]


def _solve_group(
    group: list[_Component], context: dict[int, int], tie_break: str, budget: _Budget,
    weights: Optional[_ContextCrossings] = None,
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


#: Candidate words up to which a group is solved by :func:`_enumerate_group`.
_SMALL_GROUP = 12
#: Nodes :func:`_enumerate_group` may visit before it leaves the group to the search.
_ENUMERATE_NODES = 2_000


def _enumerate_group(
    group: list[_Component], context: dict[int, int], budget: _Budget
) -> Optional[list[Pair]]:
    """Crossings rule, a small group of any components: every maximum alignment, in order.

    A depth-first walk over the group's candidate words, each taking a free matching
    reference word (earliest first) or none (last), so alignments come in the
    tie-break's order; a branch ends when the words left cannot reach the group's
    maximum number of matches, or when its crossings (with ``context`` and among the
    group's mappings, added as they are made) exceed the best found. The first
    alignment of the fewest crossings is the rule's. Nodes are spent from ``budget``;
    ``None`` when the walk would visit more than :data:`_ENUMERATE_NODES` nodes or
    than ``budget`` has left.

    >>> from mtlearn.meteor_matchers import SynonymMatcher
    >>> comps = _components(["got", "cook"], ["have", "make", "developed"], [0, 1], [0, 1, 2],
    ...                     SynonymMatcher(), False)
    >>> _enumerate_group(comps, {}, _Budget(100))
    [(0, 0), (1, 1)]
    """
    positions = sorted(i for c in group for i in c.cands)
    comp_of = {i: c for c in group for i in c.cands}
    edges = [comp_of[i].edges_of(i) for i in positions]
    need = sum(c.need for c in group)
    weights = _ContextCrossings(context).table(positions, sorted(j for c in group for j in c.refs))
    ref_index = {j: x for x, j in enumerate(sorted(j for c in group for j in c.refs))}
    limit = min(_ENUMERATE_NODES, budget.left)
    nodes = 0
    best: list = [None, None]  # crossings, pairs
    chosen: list[Pair] = []
    used: set[int] = set()

    def walk(t: int, cost: int) -> bool:
        nonlocal nodes
        if len(chosen) + len(positions) - t < need:
            return True  # too few words left to reach the maximum
        if t == len(positions):
            if best[0] is None or cost < best[0]:
                best[0], best[1] = cost, list(chosen)
            return True
        i = positions[t]
        for j in edges[t]:
            if j in used:
                continue
            nodes += 1
            if nodes > limit:
                return False
            step = weights[t][ref_index[j]]
            for k, l in chosen:  # every earlier mapping lies left of i
                if l > j:
                    step += 1
            if best[0] is not None and cost + step >= best[0]:
                continue  # only a strictly cheaper alignment can replace the first best
            used.add(j)
            chosen.append((i, j))
            ok = walk(t + 1, cost + step)
            chosen.pop()
            used.discard(j)
            if not ok:
                return False
        nodes += 1
        if nodes > limit:
            return False
        return walk(t + 1, cost)

    if not walk(0, 0) or best[1] is None:
        return None
    budget.used += nodes
    budget.left -= nodes
    return best[1]


def _search_group(
    group: list[_Component], context: dict[int, int], tie_break: str, budget: _Budget,
) -> tuple[list[Pair], bool]:
    """The branch and bound for one group; beyond the size limits, a maximum matching
    that is marked optimal only when it provably is."""
    n_positions = sum(len(c.cands) for c in group)
    if n_positions > _DEPTH_LIMIT or sum(c.edge_count() for c in group) > _EDGE_LIMIT:
        pairs = _block_solution(group)
        # Proven optimal only when it reaches the trivial bound; in complete blocks it
        # is then also the tie-break's choice (the lexicographically first).
        all_complete = all(c.complete for c in group)
        base = sorted(context.items())
        if tie_break == "crossings":
            proven = count_crossings(base + pairs) == count_crossings(base)
        else:
            positions = sorted(i for c in group for i in c.cands)
            comp_of = {i: k for k, c in enumerate(group) for i in c.cands}
            bound = _potentials(group, context, positions, comp_of)[0]
            gain = (len(base) + len(pairs) - count_chunks(base + pairs)) - (
                len(base) - count_chunks(base))
            proven = gain == bound or count_chunks(base + pairs) == 1  # 1 chunk: cannot be beaten
        return pairs, proven and all_complete
    return _GroupSearch(group, context, tie_break, budget).solve()


# --------------------------------------------------------------------------- fast paths
# Most stages need no search at all. At the exact and stem stages every word has one
# key, so the match graph is a set of complete blocks (one per key): a block with as
# many candidate as reference words is mapped in order, and the others are solved by
# the dynamic programmes above. At the synonym stage the words left over are few, and
# their matches usually pair one word with one word. These functions find that out
# with plain dicts and lists, and hand anything else to the general machinery above.

#: Blocks whose weight table (candidate words x reference words) is larger than this go
#: to :func:`_solve_group`, which has limits of its own for huge inputs.
_TABLE_LIMIT = 20_000


def _stage_key(stage: Stage) -> Optional[Callable[[str], Hashable]]:
    """For a stage that gives every word exactly one key, the word -> key function.

    ``str`` stands for the exact stage (the word is its own key); ``None`` means the
    stage is not of that kind (synonyms, user matchers: the general path decides).

    >>> from mtlearn.meteor_matchers import ExactMatcher, StemMatcher
    >>> _stage_key(ExactMatcher()) is str, _stage_key(StemMatcher())("running")
    (True, 'run')
    """
    if type(stage) is ExactMatcher:
        return str
    if type(stage) is StemMatcher:
        return stage.stem
    return None


def _single_key_stage(
    cand: Sequence[str], ref: Sequence[str], free_c: Sequence[int], free_r: Sequence[int],
    key: Callable[[str], Hashable], fixed: dict[int, int], budget: _Budget,
) -> tuple[list[Pair], bool]:
    """One stage under the crossings rule when every word has one key (exact, stem).

    "b" is forced; of the two candidate "a", the second is mapped: the first would cross "b".

    >>> _single_key_stage("a b a".split(), "b a".split(), range(3), range(2), str, {}, _Budget(0))
    ([(1, 0), (2, 1)], True)
    """
    by_r: dict[Hashable, list[int]] = {}
    by_c: dict[Hashable, list[int]] = {}
    if key is str:  # the exact stage: no call per word
        for j in free_r:
            w = ref[j]
            found = by_r.get(w)
            if found is None:
                by_r[w] = [j]
            else:
                found.append(j)
        for i in free_c:
            w = cand[i]
            if w in by_r:
                found = by_c.get(w)
                if found is None:
                    by_c[w] = [i]
                else:
                    found.append(i)
    else:
        for j in free_r:
            k = key(ref[j])
            found = by_r.get(k)
            if found is None:
                by_r[k] = [j]
            else:
                found.append(j)
        for i in free_c:
            k = key(cand[i])
            if k in by_r:
                found = by_c.get(k)
                if found is None:
                    by_c[k] = [i]
                else:
                    found.append(i)
    new: list[Pair] = []
    unbalanced: list[tuple[list[int], list[int]]] = []
    for k, cs in by_c.items():
        rs = by_r[k]
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
    found, optimal = _solve_complete_blocks(unbalanced, context, budget)
    return new + found, optimal


def _finish_stage(
    new: list[Pair], comps: list[_Component], context: dict[int, int], tie_break: str,
    budget: _Budget,
) -> tuple[list[Pair], bool]:
    """``new`` plus the optimum of each independent group of ``comps``."""
    optimal = True
    weights = _ContextCrossings(context) if tie_break == "crossings" else None
    for group in _groups(comps, tie_break):
        pairs, proven = _solve_group(group, context, tie_break, budget, weights)
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

    >>> from mtlearn.meteor_matchers import SynonymMatcher
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

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, js in edges.items():
        for j in js:
            a, b = root(i), root(~j)
            if a != b:
                parent[a] = b
    comps: dict[int, tuple[list[int], list[int]]] = {}
    for i in edges:  # candidate positions in order
        comps.setdefault(root(i), ([], []))[0].append(i)
    for j, _ in ref_keys:  # reference positions in order
        if ~j in parent:
            comps[root(~j)][1].append(j)
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
    found, optimal = _solve_complete_blocks(sorted(unbalanced), context, budget)
    return new + found, optimal


def _align_core(
    cand: Sequence[str], ref: Sequence[str], stages: Sequence[Stage], tie_break: str,
    budget: _Budget,
) -> tuple[list[Pair], list[int], bool]:
    """The alignment as ``(pairs sorted by candidate index, stage number of each, optimal)``.

    >>> from mtlearn.meteor_matchers import resolve_stages
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
        if not crossings or _is_pair_matcher(stage):
            pairs, proven = _align_stage(cand, ref, stage, _is_pair_matcher(stage), fixed,
                                         tie_break, budget)
        else:
            key = _stage_key(stage)
            if key is not None:
                pairs, proven = _single_key_stage(cand, ref, free_c, free_r, key, fixed, budget)
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

    >>> from mtlearn.meteor_matchers import resolve_stages
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


def align_pairs(
    candidate: Sequence[str],
    reference: Sequence[str],
    stages: Sequence[Stage],
    *,
    tie_break: str = "crossings",
    node_budget: Optional[int] = None,
) -> AlignedPairs:
    """:func:`align` without the mapping objects: the pairs, their stages and the counts."""
    tie_break, node_budget = _check_budget(tie_break, node_budget)
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

    >>> from mtlearn.meteor_matchers import resolve_stages
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
        if not -self._size <= index < self._size:
            raise IndexError(f"index: pair {index} out of range for {self._size} pairs")
        index %= self._size
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

    >>> from mtlearn.meteor_matchers import resolve_stages
    >>> jobs = [("on the mat sat the cat".split(), "the cat sat on the mat".split()),
    ...         ("the cat".split(), "a cat".split())]
    >>> [(a.crossings, a.chunks) for a in align_pairs_many(jobs, resolve_stages(["exact"]))]
    [(8, 6), (0, 1)]
    """
    tie_break, node_budget = _check_budget(tie_break, node_budget)
    compiled = None
    if _meteor_fast is not None and tie_break == "crossings" and jobs:
        batch_words = _meteor_fast.Words([c for c, _ in jobs], [r for _, r in jobs])
        compiled_stages = _compiled_stages(stages, batch_words.words)
        if compiled_stages is not None:
            compiled = batch_words.align(
                compiled_stages, node_budget,
                (_ENUMERATE_LIMIT, _CHOICE_LIMIT, _CHOICE_NODES, _DEPTH_LIMIT, _TABLE_LIMIT,
                 _GROUPING_LIMIT, _SMALL_GROUP, _ENUMERATE_NODES),
            )
    if compiled is None:
        return AlignedBatch(len(jobs), None, {
            k: align_pairs(c, r, stages, tie_break=tie_break, node_budget=node_budget)
            for k, (c, r) in enumerate(jobs)
        })
    status = compiled[0]
    python = {
        k: align_pairs(jobs[k][0], jobs[k][1], stages, tie_break=tie_break, node_budget=node_budget)
        for k in range(len(jobs)) if not status[k]
    }
    return AlignedBatch(len(jobs), compiled, python)


def alignment_from_pairs(
    candidate: Sequence[str], reference: Sequence[str], stages: Sequence[str], tie_break: str,
    aligned: AlignedPairs,
) -> Alignment:
    """The :class:`Alignment` of an :func:`align_pairs` result (``stages``: the stage names).

    >>> from mtlearn.meteor_matchers import resolve_stages
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

    ``stages`` are matcher objects, e.g. from
    :func:`mtlearn.meteor_matchers.resolve_stages`. ``node_budget`` bounds the
    search (default :data:`DEFAULT_NODE_BUDGET` for the ``tie_break``); when it is
    spent the result is the best alignment found, with ``optimal=False``.

    >>> from mtlearn.meteor_matchers import resolve_stages
    >>> a = align("the cat was sat on the mat".split(), "the cat sat on the mat".split(),
    ...           resolve_stages(["exact"]))
    >>> a.pairs, a.crossings, a.chunks
    (((0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (6, 5)), 0, 2)
    """
    tie_break, node_budget = _check_budget(tie_break, node_budget)
    cand = tuple(candidate)
    ref = tuple(reference)
    aligned = align_pairs(cand, ref, stages, tie_break=tie_break, node_budget=node_budget)
    return alignment_from_pairs(cand, ref, [s.name for s in stages], tie_break, aligned)

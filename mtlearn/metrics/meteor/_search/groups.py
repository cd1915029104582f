"""One stage's match graph in components and groups, and the general search over a group.

At a stage of METEOR's alignment (see :mod:`mtlearn.metrics.meteor.alignment` for the rule),
the words earlier stages left unmatched are linked to the words they may be mapped to.
This module splits those links into *components* (connected parts; words that match
exactly the same words form a *type*) and *groups* (components whose choices can
change each other's cost: with crossings, components whose boxes are not one
below-left of the other; with chunks, components that can make an adjacency
together), and solves a group that no dynamic programme of
:mod:`mtlearn.metrics.meteor._search.blocks` covers:

* a small group (:data:`_SMALL_GROUP` candidate words at most), under the crossings
  rule, by walking every maximum alignment in the tie-break's order
  (:func:`_enumerate_group`);
* any other by a branch and bound over candidate positions (:class:`_GroupSearch`).
  Its first solution is a greedy dive improved by local search (with crossings each
  unbalanced block is re-solved exactly, in order, with the rest held still). Its
  lower bounds: with crossings, the cheapest in-order completion of every block (a
  dynamic programme: within a block mappings never cross, since swapping two
  crossing ones always removes crossings) plus the crossings blocks must make among
  themselves; with chunks, the adjacencies the remaining words can still make, at
  most one per reference gap (a matching). A transposition table drops a partial
  alignment when an earlier one, lexicographically smaller, used the same reference
  words at no higher cost. When the node budget (:class:`_Budget`) runs out, the best
  alignment found is kept and marked not optimal.

>>> from mtlearn.metrics.meteor.matchers import ExactMatcher
>>> comps = _components("a b a".split(), "b a".split(), [0, 1, 2], [0, 1], ExactMatcher(), False)
>>> [(c.cands, c.refs, c.complete) for c in comps]
[([0, 2], [1], True), ([1], [0], True)]
"""

from __future__ import annotations

import bisect
import sys
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Callable, Optional

from mtlearn.metrics.meteor.formulas import count_chunks, count_crossings
from mtlearn.metrics.meteor.matchers import Stage

# Groups bigger than this are not searched (too many candidate mappings to list):
# they get the block-monotone solution, marked optimal only when it provably is.
_EDGE_LIMIT = 20_000
_DEPTH_LIMIT = 400  # recursion depth of the search = candidate words in one group

_POLISH_FROM = 8  # groups with this many candidate words get a local search first
_POLISH_ROUNDS = 20  # sweeps of that local search at most

_UNMATCHED = sys.maxsize  # "no reference position": sorts after every real one

Pair = tuple[int, int]


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


def _root(parent: dict[int, int], x: int) -> int:
    """Union-find: the root of ``x`` in ``parent`` (a node missing from it is its own root).

    >>> parent = {1: 2, 2: 3}
    >>> _root(parent, 1), parent[1]  # the path is shortened on the way
    (3, 3)
    """
    root = x
    while parent.setdefault(root, root) != root:
        root = parent[root]
    while parent[x] != root:
        parent[x], x = root, parent[x]
    return root


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
        return _root(parent, x)

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

    >>> from mtlearn.metrics.meteor.matchers import ExactMatcher
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
        return _box_crossings(boxes)

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


Box = tuple[int, int, int, int]  # first and last candidate, first and last reference position


def _boxes_apart(a: Box, b: Box) -> bool:
    """Whether one box lies wholly below-left of the other: then no mapping in one can
    cross a mapping in the other.

    >>> _boxes_apart((0, 1, 0, 1), (2, 3, 2, 3)), _boxes_apart((0, 3, 0, 1), (2, 3, 2, 3))
    (True, False)
    """
    return (a[1] < b[0] and a[3] < b[2]) or (b[1] < a[0] and b[3] < a[2])


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

    for a, box in enumerate(boxes):
        for b in range(a + 1, len(boxes)):
            if not _boxes_apart(box, boxes[b]):
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[ra] = rb
    groups: dict[int, list[int]] = {}
    for b in range(len(boxes)):
        groups.setdefault(find(b), []).append(b)
    return list(groups.values())


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
    if tie_break != "chunks":
        boxes = [(c.cands[0], c.cands[-1], c.refs[0], c.refs[-1]) for c in comps]
        return [[comps[k] for k in group] for group in _box_groups(boxes)]
    parent = list(range(len(comps)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

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
    out: dict[int, list[_Component]] = defaultdict(list)
    for k, comp in enumerate(comps):
        out[find(k)].append(comp)
    return list(out.values())



def _complete_block(cands: list[int], refs: list[int]) -> _Component:
    """A complete block as a component: one candidate type, one reference type."""
    return _Component(
        cands, refs, dict.fromkeys(cands, 0), dict.fromkeys(refs, 0), {0: frozenset((0,))},
        True, min(len(cands), len(refs)), {0: refs}, {0: cands},
    )



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

    >>> from mtlearn.metrics.meteor.matchers import SynonymMatcher
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

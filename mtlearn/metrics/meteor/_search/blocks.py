"""Complete blocks under the crossings rule, solved by dynamic programming and small searches.

At the exact and stem stages every word has one key, so the words a stage may map form
*complete blocks*: all free candidate and reference words with the same key, each of
one side matching each of the other. A block with as many candidate as reference
words is mapped in order; the others (*unbalanced* blocks) must use up their smaller
side, and under the crossings rule always in order (uncrossing two mappings of a block
removes a crossing and adds none). Their cost is their crossings with the fixed
mappings (:func:`_crossing_weights`) plus the crossings between blocks.

* One block: its cheapest in-order mapping, and among equally cheap ones the
  tie-break's, by a dynamic programme (:func:`_block_optimum`).
* Several: each block's own optimum; when those do not cross one another they are the
  answer. Otherwise each group of blocks that may interact is solved by trying every
  combination of their choices when they are few (:func:`_try_every_choice`), else by
  a branch and bound over the blocks' choices (:func:`_choose_block_subsets`), else by
  a dynamic programme over candidate positions (:func:`_layered_blocks`), else by the
  general search of :mod:`mtlearn.metrics.meteor._search.groups`.

>>> _solve_complete_blocks([([0, 2], [1])], {1: 0}, _Budget(0))  # "a b a" against "b a"
([(2, 1)], True)
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from itertools import combinations, product
from math import comb
from typing import Optional

from mtlearn.metrics.meteor._search.groups import (
    _DEPTH_LIMIT,
    _POLISH_ROUNDS,
    _UNMATCHED,
    Pair,
    _box_crossings,
    _box_groups,
    _boxes_apart,
    _Budget,
    _Component,
    _complete_block,
    _ContextCrossings,
    _search_group,
)


#: Blocks whose weight table (candidate words x reference words) is larger than this are
#: not tabulated: :func:`mtlearn.metrics.meteor.alignment._solve_group` sends them to the general
#: search, which has limits of its own for huge inputs.
_TABLE_LIMIT = 20_000


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
        raise ValueError("blocks: a block's table exceeds _TABLE_LIMIT; the caller must not pass it")
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
    near = [{c for c, other in enumerate(boxes) if c != b and not _boxes_apart(box, other)}
            for b, box in enumerate(boxes)]
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

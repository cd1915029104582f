"""What a mapping costs, and the in-order alignments that bound and seed the search (see :mod:`.search`).

A mapping's cost is the crossings it makes with the fixed mappings (earlier stages and forced
ones), weighted, plus the chunk it may start (:func:`cell_costs`); a block mapped in order is
costed by a dynamic programme over its positions (:func:`in_order_table`), and
:func:`first_alignment` gives the search its first leaf.

>>> crossings_with_fixed({0: 1}, [(1, 0), (1, 2)])
{(1, 0): 1, (1, 2): 0}
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

from mtlearn.metrics.meteor._search.graph import Component, Pair, maximum_matching

INFINITE = float("inf")


def crossings_with_fixed(fixed: dict[int, int], cells: Iterable[Pair]) -> dict[Pair, int]:
    """For each mapping ``(i, j)`` in ``cells``, how many of the ``fixed`` mappings it crosses.

    One sweep in candidate order: ``before`` holds the (sorted) reference positions of
    the fixed mappings left of ``i``; those right of ``i`` are all the others. A fixed
    mapping crosses ``(i, j)`` when it is left of ``i`` and above ``j``, or right of ``i``
    and below ``j``.

    >>> crossings_with_fixed({0: 2, 3: 0}, [(1, 1), (2, 3)])
    {(1, 1): 2, (2, 3): 1}
    """
    order = sorted(fixed.items())
    every = sorted(fixed.values())
    before: list[int] = []
    k = 0
    table = {}
    for i, j in sorted(cells):
        while k < len(order) and order[k][0] < i:
            bisect.insort(before, order[k][1])
            k += 1
        below = bisect.bisect_left(before, j)
        above_left = len(before) - bisect.bisect_right(before, j)
        table[(i, j)] = above_left + bisect.bisect_left(every, j) - below
    return table


def cell_costs(cells: Iterable[Pair], fixed: dict[int, int], weight: int) -> dict[Pair, float]:
    """What each mapping costs against the ``fixed`` ones: ``weight`` per crossing, minus
    one per chunk link it makes with a fixed neighbour.

    >>> cell_costs([(1, 1), (2, 3)], {0: 0, 3: 2}, 10)
    {(1, 1): -1, (2, 3): 10}
    """
    cells = list(cells)
    table = crossings_with_fixed(fixed, cells) if weight else {}
    return {(i, j): weight * table.get((i, j), 0) - (fixed.get(i - 1) == j - 1) - (fixed.get(i + 1) == j + 1)
            for i, j in cells}


def lex_first_in_order(comp: Component, fixed: dict[int, int], weight: int) -> list[Pair]:
    """The best in-order mapping of one block alone, when its words cannot form chunks
    among themselves (no two adjacent on both sides): every mapping's cost is then
    fixed, and the programme's table gives the answer without search, read choice by
    choice in the tie-break's order (earliest reference first, unmatched last).

    >>> lex_first_in_order(Component((0, 2, 4), (1, 3), None), {1: 0, 3: 2}, 10)
    [(2, 1), (4, 3)]
    """
    cost = cell_costs(in_order_cells(comp), fixed, weight)
    table = in_order_table(comp, cost)
    cs, rs = comp.cands, comp.refs
    p, q = len(cs), len(rs)
    pairs = []
    a = b = 0
    while a < p and b < q:
        if p <= q:  # the first reference position that keeps the best cost
            b = next(b2 for b2 in range(b, q)
                     if cost[(cs[a], rs[b2])] + table.get((a + 1, b2 + 1), INFINITE) == table[a, b])
            pairs.append((cs[a], rs[b]))
            b += 1
        elif cost[(cs[a], rs[b])] + table.get((a + 1, b + 1), INFINITE) == table[a, b]:
            pairs.append((cs[a], rs[b]))  # mapped beats unmatched in the tie-break
            b += 1
        a += 1
    return pairs


def _adjacent_inside(comp: Component) -> bool:
    """Whether two of the block's mappings could form a chunk link."""
    cs, rs = comp.cands, comp.refs
    return (any(cs[k + 1] == cs[k] + 1 for k in range(len(cs) - 1))
            and any(rs[k + 1] == rs[k] + 1 for k in range(len(rs) - 1)))


def in_order_cells(comp: Component) -> list[Pair]:
    """The mappings an in-order block can make: with ``p`` candidate and ``q`` reference
    words, word ``a`` of the smaller side can only meet words ``a`` to ``a + |p − q|``
    of the other (a band, not the whole ``p × q`` rectangle).

    >>> in_order_cells(Component((0, 1), (5, 6, 7), None))
    [(0, 5), (0, 6), (1, 6), (1, 7)]
    """
    cs, rs = comp.cands, comp.refs
    p, q = len(cs), len(rs)
    if p <= q:
        return [(cs[a], rs[b]) for a in range(p) for b in range(a, a + q - p + 1)]
    return [(cs[a], rs[b]) for b in range(q) for a in range(b, b + p - q + 1)]


def in_order_table(comp: Component, cost: dict[Pair, float]) -> dict[tuple[int, int], float]:
    """The in-order block programme: ``table[a, b]`` is the least cost of mapping the
    block's candidate words ``a:`` to its reference words ``b:`` in order, every word of
    the smaller side mapped. ``table[0, 0]`` is the block's best cost.

    >>> block = Component((0, 1), (5, 6, 7), None)
    >>> cost = {(0, 5): 1, (0, 6): 0, (1, 6): 3, (1, 7): 0}
    >>> in_order_table(block, cost)[0, 0]
    0
    """
    cs, rs = comp.cands, comp.refs
    p, q = len(cs), len(rs)
    slack = abs(p - q)
    table: dict[tuple[int, int], float] = {}
    for a in range(p, -1, -1):
        low, high = (a, a + slack) if p <= q else (a - slack, a)
        for b in range(min(high, q), max(low, 0) - 1, -1):
            if (a == p and p <= q) or (b == q and p > q):
                table[a, b] = 0  # the smaller side is used up: done
            elif a < p and b < q:
                take = cost[(cs[a], rs[b])] + table.get((a + 1, b + 1), INFINITE)
                leave = table.get((a, b + 1) if p <= q else (a + 1, b), INFINITE)
                table[a, b] = min(take, leave)
            else:
                table[a, b] = INFINITE
    return table


def _in_order_path(comp: Component, table: dict[tuple[int, int], float],
                   cost: dict[Pair, float]) -> list[Pair]:
    """One in-order mapping of the block with the cost ``table[0, 0]``."""
    cs, rs = comp.cands, comp.refs
    p, q = len(cs), len(rs)
    a = b = 0
    pairs = []
    while a < p and b < q:
        if table[a, b] == cost[(cs[a], rs[b])] + table.get((a + 1, b + 1), INFINITE):
            pairs.append((cs[a], rs[b]))
            a, b = a + 1, b + 1
        elif p <= q:
            b += 1
        else:
            a += 1
    return pairs


def first_alignment(group: Sequence[Component]) -> list[Pair]:
    """The lexicographically first maximum alignment of blocks (each block's words in
    order), a maximum matching for other components: what a group too large to search
    gets.

    >>> first_alignment([Component((0, 2), (1,), None), Component((3, 4), (2, 3), {3: (2, 3), 4: (2,)})])
    [(0, 1), (3, 3), (4, 2)]
    """
    pairs: list[Pair] = []
    for comp in group:
        pairs += zip(comp.cands, comp.refs) if comp.complete else maximum_matching(comp).items()
    return sorted(pairs)

"""Which words may be mapped at one stage: the match graph, its components and groups.

A stage's free words and the pairs it allows form a bipartite graph. Its connected
components (found with a union-find) are independent as far as the *number* of
mappings goes: each contributes its own maximum matching. A component in which every
candidate word matches every reference word is *complete* (a block of equal words at
the exact and stem stages). Components whose mappings can cross each other or sit
next to each other (a possible chunk link) are put in one *group*; different groups
never interact, so each group is searched on its own.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple, Optional

Pair = tuple[int, int]


class Component(NamedTuple):
    """A connected component of a stage's match graph.

    ``cands``/``refs``: its words' positions, ascending. ``neighbours[i]``: the reference
    positions candidate ``i`` may take, ascending; ``None`` when the component is
    complete (every candidate word matches every reference word).

    >>> block = Component((0, 2), (1,), None)
    >>> block.complete, block.options(2), block.matches(2, 1)
    (True, (1,), True)
    """

    cands: tuple[int, ...]
    refs: tuple[int, ...]
    neighbours: Optional[dict[int, tuple[int, ...]]]

    @property
    def complete(self) -> bool:
        """Whether every candidate word matches every reference word."""
        return self.neighbours is None

    def options(self, i: int) -> tuple[int, ...]:
        """The reference positions candidate ``i`` may be mapped to."""
        return self.refs if self.neighbours is None else self.neighbours[i]

    def matches(self, i: int, j: int) -> bool:
        """Whether candidate ``i`` may be mapped to reference ``j``."""
        return j in self.options(i)


class UnionFind:
    """Disjoint sets over hashable items, with path halving.

    >>> sets = UnionFind()
    >>> sets.union(1, 2); sets.union(3, 4); sets.union(2, 4)
    >>> sets.find(1) == sets.find(3), sets.find(1) == sets.find(5)
    (True, False)
    """

    def __init__(self) -> None:
        self.parent: dict[Hashable, Hashable] = {}

    def find(self, x: Hashable) -> Hashable:
        parent = self.parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: Hashable, b: Hashable) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


def blocks_by_key(free_c: Sequence[int], keys_c: Sequence[Hashable], free_r: Sequence[int],
                  keys_r: Sequence[Hashable]) -> list[Component]:
    """The components when every word has exactly one key (``keys_c[k]``: the key of
    candidate ``free_c[k]``): one complete block per key that both sides have, in
    order of their first candidate word.

    >>> blocks_by_key([0, 1, 2, 3], "a b a c".split(), [0, 1, 2], "b a d".split())
    [Component(cands=(0, 2), refs=(1,), neighbours=None), Component(cands=(1,), refs=(0,), neighbours=None)]
    """
    by_r: dict[Hashable, list[int]] = {}
    for j, key in zip(free_r, keys_r):
        found = by_r.get(key)
        if found is None:
            by_r[key] = [j]
        else:
            found.append(j)
    by_c: dict[Hashable, list[int]] = {}
    for i, key in zip(free_c, keys_c):
        if key in by_r:
            found = by_c.get(key)
            if found is None:
                by_c[key] = [i]
            else:
                found.append(i)
    return [Component(tuple(cs), tuple(by_r[k]), None) for k, cs in by_c.items()]


def components_of_edges(edges: dict[int, tuple[int, ...]]) -> list[Component]:
    """The connected components of a bipartite graph, ``edges[i]``: candidate ``i``'s
    reference neighbours (ascending). Components come in order of their first candidate.

    >>> components_of_edges({0: (0, 1), 1: (1,), 3: (2,)})  # doctest: +NORMALIZE_WHITESPACE
    [Component(cands=(0, 1), refs=(0, 1), neighbours={0: (0, 1), 1: (1,)}),
     Component(cands=(3,), refs=(2,), neighbours=None)]
    """
    sets = UnionFind()
    for i, js in edges.items():
        for j in js:
            sets.union(i, ~j)  # reference j is the node ~j (negative), candidates stay >= 0
    cands: dict[Hashable, list[int]] = {}
    refs: dict[Hashable, set[int]] = {}
    for i in sorted(edges):
        root = sets.find(i)
        cands.setdefault(root, []).append(i)
        refs.setdefault(root, set()).update(edges[i])
    out = []
    for root, cs in cands.items():
        rs = tuple(sorted(refs[root]))
        complete = all(len(edges[i]) == len(rs) for i in cs)
        out.append(Component(tuple(cs), rs, None if complete else {i: edges[i] for i in cs}))
    return out


def maximum_matching(comp: Component) -> dict[int, int]:
    """A maximum matching of one component (augmenting paths), ``{candidate: reference}``.

    >>> maximum_matching(Component((0, 1), (5, 6), {0: (5, 6), 1: (5,)}))
    {1: 5, 0: 6}
    """
    owner: dict[int, int] = {}  # reference -> candidate

    def augment(i: int, seen: set[int]) -> bool:
        for j in comp.options(i):
            if j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in comp.cands:
        augment(i, set())
    return {i: j for j, i in owner.items()}


def _may_interact(a: Component, b: Component, crossings: bool) -> bool:
    """Whether a mapping of ``a`` may cross one of ``b`` (only under the crossings rule)
    or sit right before or after one (a chunk link)."""
    if crossings:
        a_first = a.cands[-1] < b.cands[0] and a.refs[-1] < b.refs[0]
        b_first = b.cands[-1] < a.cands[0] and b.refs[-1] < a.refs[0]
        if not (a_first or b_first):
            return True  # their boxes overlap: some mappings could cross
    for x, y in ((a, b), (b, a)):
        y_cands = set(y.cands)
        for i in x.cands:
            if i + 1 in y_cands and any(y.matches(i + 1, j + 1) for j in x.options(i)):
                return True
    return False


def groups(comps: Sequence[Component], crossings: bool) -> list[list[Component]]:
    """Split components into groups that cannot interact; each group in candidate order.

    >>> far = [Component((0,), (0, 1), None), Component((5,), (6, 7), None)]
    >>> len(groups(far, True)), len(groups([far[0], Component((5,), (0, 1), None)], True))
    (2, 1)
    """
    sets = UnionFind()
    for k, a in enumerate(comps):
        sets.find(k)
        for m in range(k):
            if _may_interact(a, comps[m], crossings):
                sets.union(k, m)
    found: dict[Hashable, list[Component]] = {}
    for k, comp in enumerate(comps):
        found.setdefault(sets.find(k), []).append(comp)
    return [sorted(g, key=lambda c: c.cands[0]) for g in found.values()]

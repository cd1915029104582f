"""The exact search of one stage: most mappings, fewest crossings, fewest chunks, lexicographic.

How a stage is solved (:func:`solve_stage`):

1. Build the stage's match graph over the free words and split it into components
   (:mod:`.graph`). A component with one word on each side is forced. Under the
   crossings rule, so is a *balanced block* (a complete component with as many
   candidate as reference words): every word is mapped, in order. Mapping a block in
   order is always best: uncrossing two crossing mappings removes their crossing and
   never adds one with a third mapping (nor a chunk).
2. The other components are split into groups that cannot interact; each group is
   searched on its own, against the fixed mappings (earlier stages and the forced ones).
3. A group's search walks its candidate words in candidate order. Each word takes one
   of its reference positions, in ascending order, or stays unmatched (last): the
   leaves are therefore met in the order of the lexicographic tie-break, and the first
   leaf of the least cost is the answer. The cost is ``weight × crossings − links``
   (a *link* joins two mappings ``(i, j)``, ``(i + 1, j + 1)`` into one chunk; the
   number of mappings is fixed, so fewer chunks means more links); ``weight`` is 0
   under the chunks rule and exceeds any number of links under the crossings rule.
4. Branch and bound: a branch is dropped when its cost so far plus a lower bound of
   what is left cannot beat the best leaf. The bound of a block (unbalanced, mapped
   in order) is an in-order dynamic programme over its positions; the bound of any
   other component is the sum of each word's cheapest choice; under the crossings
   rule, the crossings the blocks' words still to map must make with the mappings
   placed so far are added (:meth:`_GroupSearch._stop_waiting`, kept up to date word by word).
   Costs against the fixed mappings come from one table (:func:`.costs.crossings_with_fixed`).
   A branch that reaches the same word with the same reference positions taken as an earlier one,
   at no less cost, is dropped (the earlier one is lexicographically smaller). The
   best alignment starts as each block's programme, improved by a local search.
5. Shortcut: a group that is one block whose words cannot form chunks among
   themselves needs no walk: its table gives the answer (:func:`lex_first_in_order`).

Every node visited is paid from a :class:`Budget`; when it runs out the best alignment
found is kept and the stage reports ``optimal=False``. A large group with many possible
mappings may spend only part of the budget: past :attr:`SearchLimits.crossings_full_words`
words and :attr:`SearchLimits.crossings_full_cells` mappings (the chunks rule: past
:attr:`SearchLimits.chunks_full_words` words) its share shrinks with the cube of its size
(:meth:`Budget.group_share`), since a walk that cannot hope to finish only pays for a
slightly better alignment. A long group of few
mappings (near one to one, as real sentences are) keeps the whole budget: it is its many
equal choices that make a group hostile. The budget records which limit stopped a search
(:class:`SearchStop`), and so does a group too large to search at all.
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Optional

from mtlearn.metrics.meteor._search.costs import (
    INFINITE,
    _adjacent_inside,
    _in_order_path,
    cell_costs,
    first_alignment,
    in_order_cells,
    in_order_table,
    lex_first_in_order,
)
from mtlearn.metrics.meteor._search.graph import (
    Component,
    Pair,
    blocks_by_key,
    components_of_edges,
    groups,
    maximum_matching,
)
from mtlearn.metrics.meteor.fast import crossings_and_chunks
from mtlearn.metrics.meteor.matchers import ExactMatcher, Stage, StemMatcher, is_pair_matcher


@dataclass(frozen=True)
class SearchLimits:
    """The search's tuning constants: how many nodes one alignment may visit, per rule,
    how much of them a large group may spend, and the size of the largest group searched.

    A chunks-rule node is cheaper (no crossings to count), hence its larger budget.

    >>> SearchLimits().node_budget("chunks")
    200000
    >>> SearchLimits().full_words("crossings"), SearchLimits().full_cells("crossings")
    (50, 600)
    >>> SearchLimits().full_words("chunks"), SearchLimits().full_cells("chunks")
    (32, 0)
    """

    crossings_nodes: int = 100_000
    chunks_nodes: int = 200_000
    #: A group of up to this many words, or of up to ``full_cells`` possible mappings, may
    #: spend the whole node budget; a group of ``n > full_words`` words and more mappings only
    #: ``budget × (full_words / n)³`` of it (see :meth:`Budget.group_share`). Measured on
    #: WMT22 (every pair, system and reference): the crossings rule's groups that hit a share
    #: cut by words alone had at most 573 mappings, and cutting them lost proofs that the
    #: whole budget finds (de-en 1, ja-en 1, zh-en 27; tests/metrics/meteor/test_meteor_wmt22.py),
    #: so none is cut now. Under the chunks rule (0: no exemption) the cut, on 677 groups of 58-1,786
    #: mappings, lost no proof, and the whole budget would cost them 10 minutes more.
    #: The 300-token lines of repeated function words have 1,189-1,708 mappings (crossings).
    crossings_full_words: int = 50
    chunks_full_words: int = 32
    crossings_full_cells: int = 600
    chunks_full_cells: int = 0
    #: Larger groups are not searched (the walk recurses once per word, and tabulates
    #: every mapping it could make): they keep :func:`first_alignment`.
    group_words: int = 400
    group_cells: int = 200_000
    #: Groups with more words start from a local search (see ``_GroupSearch._improve``).
    local_search_words: int = 12

    def node_budget(self, tie_break: str) -> int:
        """The default node budget under ``tie_break``."""
        return self.crossings_nodes if tie_break == "crossings" else self.chunks_nodes

    def full_words(self, tie_break: str) -> int:
        """The most words a group may have and still spend the whole node budget under ``tie_break``."""
        return self.crossings_full_words if tie_break == "crossings" else self.chunks_full_words

    def full_cells(self, tie_break: str) -> int:
        """The most possible mappings a group may have and still spend the whole node budget."""
        return self.crossings_full_cells if tie_break == "crossings" else self.chunks_full_cells


class SearchStop(NamedTuple):
    """A limit that stopped the search before it proved its alignment.

    ``limit`` is one of :data:`STOP_LIMITS`: ``"nodes"``, the node budget (``size``: the
    nodes visited, ``allowed``: the budget); ``"group share"``, the share of the budget a
    group of ``words`` words and ``cells`` possible mappings may spend (``size``: its nodes;
    ``allowed``: the share);
    ``"group words"`` or ``"group cells"``, a group too large to search, which kept
    :func:`first_alignment` (``size``: its words or possible mappings; ``allowed``: the limit).

    >>> SearchStop("group words", 450, 400, 450)
    SearchStop(limit='group words', size=450, allowed=400, words=450, cells=0)
    """

    limit: str
    size: int
    allowed: int
    words: int  # the words of the group it stopped
    cells: int = 0  # and its possible mappings (0: not counted, as for the node budget)


#: The limits a :class:`SearchStop` names.
STOP_LIMITS = ("nodes", "group share", "group words", "group cells")


class Budget:
    """Search nodes left to visit, how many were used (an alignment's ``nodes``), and the
    limits that stopped a search (``stops``, one per limit: the first met).

    ``full_words``, ``full_cells``: a group of at most that many words, or of at most that
    many possible mappings, may spend all that is left (``None``: any group); a larger
    group, of ``n > full_words`` words, may spend ``nodes × (full_words / n)³``.

    >>> b = Budget(1)
    >>> b.spend(), b.spend(), b.used, b.stops
    (True, False, 1, [SearchStop(limit='nodes', size=1, allowed=1, words=0, cells=0)])
    >>> b = Budget(100, full_words=10, full_cells=50)
    >>> b.group_share(20, 50), b.group_share(20, 51)
    (None, 12)
    >>> sum(b.spend() for _ in range(30)), b.stops[0]
    (12, SearchStop(limit='group share', size=12, allowed=12, words=20, cells=51))
    """

    def __init__(self, nodes: int, full_words: Optional[int] = None,
                 full_cells: Optional[int] = None) -> None:
        self.nodes = nodes
        self.left = nodes
        self.used = 0
        self.full_words = full_words
        self.full_cells = full_cells
        self.words = self.cells = 0  # the size of the group being searched
        self.share_left: float = INFINITE
        self.share = 0
        self._stops: dict[str, SearchStop] = {}

    @property
    def stops(self) -> list[SearchStop]:
        """The limits met, in the order met, the first stop of each."""
        return list(self._stops.values())

    def group_share(self, words: int, cells: int = 0) -> Optional[int]:
        """Start a group of ``words`` words and ``cells`` possible mappings: the nodes it may
        spend, or ``None`` when it may spend all that is left."""
        self.words, self.cells = words, cells
        if (self.full_words is None or words <= self.full_words
                or (self.full_cells is not None and cells <= self.full_cells)):
            self.share_left = INFINITE
            return None
        self.share = self.nodes * self.full_words ** 3 // words ** 3
        self.share_left = self.share
        return self.share

    def stop(self, limit: str, size: int, allowed: int, words: int, cells: int = 0) -> None:
        """Record that ``limit`` stopped a search (only the first stop of each limit is kept)."""
        self._stops.setdefault(limit, SearchStop(limit, size, allowed, words, cells))

    def spend(self) -> bool:
        """Pay for one node; False when nothing is left (the limit met is recorded)."""
        if self.left <= 0:
            self.stop("nodes", self.used, self.nodes, self.words)
            return False
        if self.share_left <= 0:
            self.stop("group share", self.share, self.share, self.words, self.cells)
            return False
        self.left -= 1
        self.share_left -= 1
        self.used += 1
        return True


class StageResult(NamedTuple):
    """The mappings one stage adds, and whether the search proved them best."""

    pairs: list[Pair]
    optimal: bool


# --------------------------------------------------------------------------- the graph of a stage


def stage_components(cand: Sequence[str], ref: Sequence[str], stage: Stage,
                     free_c: Sequence[int], free_r: Sequence[int]) -> list[Component]:
    """The components of the stage's match graph over the free words.

    >>> from mtlearn.metrics.meteor.matchers import StemMatcher
    >>> stage_components(["cats", "run"], ["cat", "runs"], StemMatcher(), [0, 1], [0, 1])
    [Component(cands=(0,), refs=(0,), neighbours=None), Component(cands=(1,), refs=(1,), neighbours=None)]
    """
    if type(stage) is ExactMatcher:  # a word is its own key
        return blocks_by_key(free_c, [cand[i] for i in free_c], free_r, [ref[j] for j in free_r])
    if type(stage) is StemMatcher:  # one key a word: its stem
        stem = stage.stem
        return blocks_by_key(free_c, [stem(cand[i]) for i in free_c], free_r, [stem(ref[j]) for j in free_r])
    if is_pair_matcher(stage):
        matches = stage.matches  # type: ignore[union-attr]
        edges = {i: tuple(j for j in free_r if matches(cand[i], ref[j])) for i in free_c}
    else:
        edges = _edges_by_key_sets(cand, ref, stage, free_c, free_r)
    return components_of_edges({i: js for i, js in edges.items() if js})


def _edges_by_key_sets(cand: Sequence[str], ref: Sequence[str], stage: Stage,
                       free_c: Sequence[int], free_r: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """Each free candidate's reference neighbours when words have sets of keys (synonyms),
    through an index from key to reference positions."""
    keys = stage.keys  # type: ignore[union-attr]
    cand_keys = [(i, keys(cand[i])) for i in free_c]
    on_cand_side = frozenset().union(*(ks for _, ks in cand_keys))
    by_key: dict[Hashable, list[int]] = {}
    for j in free_r:
        for k in keys(ref[j]) & on_cand_side:  # only keys that some candidate word has
            by_key.setdefault(k, []).append(j)
    on_ref_side = frozenset(by_key)
    return {i: tuple(sorted({j for k in ks & on_ref_side for j in by_key[k]}))
            for i, ks in cand_keys if not ks.isdisjoint(on_ref_side)}


# --------------------------------------------------------------------------- one group


@dataclass
class _Part:
    """A component inside a group's search, and the tables its bound reads."""

    comp: Component
    target: int  # mappings it must make: its maximum matching
    in_order: bool  # a block under the crossings rule: mapped in order
    bound: Any  # in order: the in-order table; else suffix sums of per-word bounds


def _all_cells(comp: Component) -> list[Pair]:
    return [(i, j) for i in comp.cands for j in comp.options(i)]


def group_size(group: Sequence[Component], crossings: bool) -> tuple[int, int]:
    """``(words, possible mappings)`` a search of ``group`` would walk and tabulate."""
    words = sum(len(comp.cands) for comp in group)
    cells = 0
    for comp in group:
        p, q = len(comp.cands), len(comp.refs)
        if comp.complete:
            cells += min(p, q) * (abs(p - q) + 1) if crossings else p * q
        else:
            cells += sum(len(js) for js in comp.neighbours.values())  # type: ignore[union-attr]
    return words, cells


class _GroupSearch:
    """Branch and bound over one group's candidate words, in candidate order."""

    def __init__(self, group: Sequence[Component], fixed: dict[int, int], weight: int,
                 budget: Budget, limits: SearchLimits, cells: int) -> None:
        self.fixed, self.weight, self.budget = fixed, weight, budget
        self.words = sorted((i, k) for k, comp in enumerate(group) for i in comp.cands)
        self.cells = cells  # its possible mappings (group_size): they set the budget's share
        in_order = [comp.complete and weight > 0 for comp in group]
        cells = [cell for comp, o in zip(group, in_order)
                 for cell in (in_order_cells(comp) if o else _all_cells(comp))]
        self.cost, bound_cost = self._costs(group, cells)
        self.parts = [self._part(comp, o, bound_cost) for comp, o in zip(group, in_order)]
        self.waiting = sorted(j for part in self.parts if part.in_order  # see _stop_waiting
                              for j in part.comp.refs[self._ahead_start(part, (0, 0)):])
        self.track_ahead = weight > 0 and len(group) > 1  # the crossings ahead bound them apart
        self.state = [(0, 0)] * len(group)  # per part: (words done, next ref index or taken)
        self.placed: dict[int, int] = {}
        self.placed_refs: list[int] = []  # sorted
        self.placed_refs_set: set[int] = set()
        self.mask = 0  # the placed reference positions as bits: with k, all the future depends on
        self.seen: dict[tuple[int, int, Optional[int]], float] = {}
        self.best_pairs = self._first_alignment(bound_cost)
        self.best_cost = self.exact_cost(self.best_pairs)
        if len(self.words) > limits.local_search_words:
            self._improve()
        self.found = False  # whether best_pairs is a leaf of the walk (the first of its cost)
        self.exhausted = False

    def _costs(self, group: Sequence[Component],
               cells: list[Pair]) -> tuple[dict[Pair, float], dict[Pair, float]]:
        """Per possible mapping: its exact cost against the fixed mappings, and a lower
        bound that also counts a link with the previous candidate word if it may exist."""
        cost = cell_costs(cells, self.fixed, self.weight)
        owner = {i: comp for comp in group for i in comp.cands}
        bound = {}
        for (i, j), c in cost.items():
            before = owner.get(i - 1)
            bound[(i, j)] = c - (before is not None and before.matches(i - 1, j - 1))
        return cost, bound

    def _part(self, comp: Component, in_order: bool, bound_cost: dict[Pair, float]) -> _Part:
        if in_order:
            return _Part(comp, min(len(comp.cands), len(comp.refs)), True, in_order_table(comp, bound_cost))
        target = len(maximum_matching(comp))
        may_skip = target < len(comp.cands)
        suffix = [0.0] * (len(comp.cands) + 1)
        for a in range(len(comp.cands) - 1, -1, -1):
            i = comp.cands[a]
            cheapest = min(bound_cost[(i, j)] for j in comp.options(i))
            suffix[a] = suffix[a + 1] + (min(cheapest, 0) if may_skip else cheapest)
        return _Part(comp, target, False, suffix)

    def _first_alignment(self, bound_cost: dict[Pair, float]) -> list[Pair]:
        """A maximum alignment to start from: each block in order, by its programme; a matching elsewhere."""
        pairs: list[Pair] = []
        for part in self.parts:
            if part.in_order:
                pairs += _in_order_path(part.comp, part.bound, bound_cost)
            elif part.comp.complete:  # the chunks rule: in order is a good start, if not always best
                pairs += _in_order_path(part.comp, in_order_table(part.comp, bound_cost), bound_cost)
            else:
                pairs += maximum_matching(part.comp).items()
        return sorted(pairs)

    def _improve(self) -> None:
        """Local search for a better start: map each block again, at its best against
        every other mapping of the group, while the whole alignment gets cheaper."""
        blocks = [part.comp for part in self.parts if part.comp.complete]
        improved = len(blocks) > 1
        while improved:
            improved = False
            for comp in blocks:
                mine = set(comp.cands)
                others = dict(self.fixed)
                others.update((i, j) for i, j in self.best_pairs if i not in mine)
                cost = cell_costs(in_order_cells(comp), others, self.weight)
                pairs = sorted([p for p in self.best_pairs if p[0] not in mine]
                               + _in_order_path(comp, in_order_table(comp, cost), cost))
                total = self.exact_cost(pairs)
                if total < self.best_cost:
                    self.best_pairs, self.best_cost, improved = pairs, total, True

    def exact_cost(self, pairs: Sequence[Pair]) -> float:
        """The cost of the group's mappings ``pairs`` (sorted), as the walk counts it."""
        mapped = dict(pairs)
        links = sum(mapped.get(i + 1) == j + 1 for i, j in pairs)
        crossings = crossings_and_chunks(pairs).crossings
        return sum(self.cost[p] for p in pairs) + self.weight * crossings - links

    def _part_bound(self, part: _Part, state: tuple[int, int]) -> float:
        a, x = state
        return part.bound[a, x] if part.in_order else part.bound[a]

    def _choices(self, part: _Part, state: tuple[int, int],
                 i: int) -> Iterator[tuple[Optional[int], tuple[int, int]]]:
        """Candidate ``i``'s choices, as (reference position or None, the part's next state),
        in the tie-break's order: ascending positions, unmatched last."""
        a, x = state
        p = len(part.comp.cands)
        if part.in_order:  # x: the next reference index of the block
            rs = part.comp.refs
            q = len(rs)
            if p <= q:  # every candidate word is mapped; later ones need room
                for b in range(x, q - (p - a) + 1):
                    yield rs[b], (a + 1, b + 1)
            else:  # every reference word is mapped, in turn
                if x < q:
                    yield rs[x], (a + 1, x + 1)
                if p - a - 1 >= q - x:
                    yield None, (a + 1, x)
            return
        if x < part.target:  # x: mappings made so far
            for j in part.comp.options(i):
                if j not in self.placed_refs_set:
                    yield j, (a + 1, x + 1)
        if p - a - 1 >= part.target - x:
            yield None, (a + 1, x)

    def _increment(self, i: int, j: int) -> float:
        """The cost of adding ``(i, j)`` to the mappings placed so far."""
        if not self.weight:  # the chunks rule: no crossings to count
            return self.cost[(i, j)] - (self.placed.get(i - 1) == j - 1)
        above = len(self.placed_refs) - bisect.bisect_right(self.placed_refs, j)
        return self.cost[(i, j)] + self.weight * above - (self.placed.get(i - 1) == j - 1)

    def _worth(self, lower_bound: float) -> bool:
        return lower_bound < self.best_cost or (lower_bound == self.best_cost and not self.found)

    def walk(self, k: int, cost: float, rest: float, ahead: int) -> None:
        """Visit word ``k`` and everything after it (``rest``: the bound of what is left;
        ``ahead``: the blocks' crossings still to come, see :meth:`_stop_waiting`)."""
        if not self.budget.spend():
            self.exhausted = True
            return
        if k == len(self.words):
            self.best_pairs, self.best_cost, self.found = sorted(self.placed.items()), cost, True
            return
        i, n = self.words[k]
        part, state = self.parts[n], self.state[n]
        before = self._part_bound(part, state)
        for j, after in self._choices(part, state, i):
            step = 0 if j is None else self._increment(i, j)
            bound = rest - before + self._part_bound(part, after)
            if not self._worth(cost + step + bound):
                continue
            gone, now_ahead = self._stop_waiting(n, state, after, j, ahead) if self.track_ahead else ((), 0)
            self.state[n] = after
            if j is not None:
                self._place(i, j)
            if (self._worth(cost + step + bound + self.weight * now_ahead)
                    and self._new_best_way(k + 1, cost + step)):
                self.walk(k + 1, cost + step, bound, now_ahead)
            if j is not None:
                self._unplace(i, j)
            for y in gone:
                bisect.insort(self.waiting, y)
            self.state[n] = state
            if self.exhausted:
                return

    @staticmethod
    def _ahead_start(part: _Part, state: tuple[int, int]) -> int:
        """Where the references still to map of an in-order block begin, at their latest
        (the fewest crossings with the mappings placed before them): the ``m``-th word
        still to map takes at best reference ``q − need + m``."""
        a, x = state
        p, q = len(part.comp.cands), len(part.comp.refs)
        return q - (p - a) if p <= q else x

    def _stop_waiting(self, n: int, state: tuple[int, int], after: tuple[int, int], j: Optional[int],
                      ahead: int) -> tuple[Sequence[int], int]:
        """Part ``n`` moves from ``state`` to ``after`` and takes ``j``: the references that
        stop waiting (taken out of ``self.waiting``, the caller puts them back), and the
        new lower bound of the crossings between the blocks' mappings still to come and
        those placed. Every waiting reference (from :meth:`_ahead_start` on) crosses each
        placed mapping beyond it; kept up to date, not recounted: the references that stop
        waiting take their crossings with them, and ``j`` crosses every waiting one below it."""
        part = self.parts[n]
        gone = (part.comp.refs[self._ahead_start(part, state):self._ahead_start(part, after)]
                if part.in_order else ())
        placed, waiting = self.placed_refs, self.waiting
        for y in gone:
            ahead -= len(placed) - bisect.bisect_right(placed, y)
            del waiting[bisect.bisect_left(waiting, y)]
        if j is not None:
            ahead += bisect.bisect_left(waiting, j)
        return gone, ahead

    def _new_best_way(self, k: int, cost: float) -> bool:
        """Whether no earlier branch reached the same position at no more cost.

        What is left to decide after word ``k`` depends only on which reference
        positions are taken and where word ``i − 1`` went (for a chunk link); an earlier
        branch is lexicographically smaller, so a later one that costs as much loses."""
        if k == len(self.words):
            return True
        key = (k, self.mask, self.placed.get(self.words[k][0] - 1))
        if self.seen.get(key, INFINITE) <= cost:
            return False
        self.seen[key] = cost
        return True

    def _place(self, i: int, j: int) -> None:
        self.placed[i] = j
        bisect.insort(self.placed_refs, j)
        self.placed_refs_set.add(j)
        self.mask |= 1 << j

    def _unplace(self, i: int, j: int) -> None:
        del self.placed[i]
        self.placed_refs.remove(j)
        self.placed_refs_set.discard(j)
        self.mask ^= 1 << j

    def run(self) -> StageResult:
        self.budget.group_share(len(self.words), self.cells)
        rest = sum(self._part_bound(part, (0, 0)) for part in self.parts)
        self.walk(0, 0, rest, 0)
        return StageResult(self.best_pairs, not self.exhausted)


def solve_group(group: Sequence[Component], fixed: dict[int, int], weight: int,
                budget: Budget, limits: SearchLimits = SearchLimits()) -> StageResult:
    """The best mappings of one group of components against the ``fixed`` mappings.

    ``weight`` is what one crossing costs against one chunk link (0: the chunks rule).
    The three ``a`` of the candidate against two in the reference, between fixed words:

    >>> block = Component((0, 2, 4), (1, 3), None)
    >>> solve_group([block], {1: 0, 3: 2}, 10, Budget(100)).pairs
    [(2, 1), (4, 3)]
    """
    if weight and len(group) == 1 and group[0].complete and not _adjacent_inside(group[0]):
        return StageResult(lex_first_in_order(group[0], fixed, weight), True)
    words, cells = group_size(group, weight > 0)
    if words > limits.group_words or cells > limits.group_cells:
        first = first_alignment(group)
        # Proven only when nothing can do better: no context, no crossing, one chunk.
        proven = not fixed and tuple(crossings_and_chunks(first)) == (0, 1)
        if not proven:
            if words > limits.group_words:
                budget.stop("group words", words, limits.group_words, words, cells)
            else:
                budget.stop("group cells", cells, limits.group_cells, words, cells)
        return StageResult(first, proven)
    return _GroupSearch(group, fixed, weight, budget, limits, cells).run()


# --------------------------------------------------------------------------- one stage


def solve_stage(cand: Sequence[str], ref: Sequence[str], stage: Stage, fixed: dict[int, int],
                tie_break: str, budget: Budget) -> StageResult:
    """The mappings ``stage`` adds to the ``fixed`` ones (earlier stages), by the rule.

    >>> from mtlearn.metrics.meteor.matchers import ExactMatcher
    >>> cand, ref = "He He He eats sweet apple".split(), "He eats a sweet apple".split()
    >>> solve_stage(cand, ref, ExactMatcher(), {}, "crossings", Budget(100))
    StageResult(pairs=[(3, 1), (4, 3), (5, 4), (2, 0)], optimal=True)
    """
    used = set(fixed.values())
    free_c = [i for i in range(len(cand)) if i not in fixed]
    free_r = [j for j in range(len(ref)) if j not in used]
    if not free_c or not free_r:
        return StageResult([], True)
    crossings = tie_break == "crossings"
    forced, open_comps = _forced_and_open(stage_components(cand, ref, stage, free_c, free_r), crossings)
    if not open_comps:
        return StageResult(forced, True)
    context = dict(fixed)
    context.update(forced)
    weight = len(cand) + len(ref) + 1 if crossings else 0
    optimal = True
    for group in groups(open_comps, crossings):
        found = solve_group(group, context, weight, budget)
        forced.extend(found.pairs)
        optimal = optimal and found.optimal
    return StageResult(forced, optimal)


def _forced_and_open(comps: Iterable[Component], crossings: bool) -> tuple[list[Pair], list[Component]]:
    """The mappings no search is needed for, and the components left to search.

    One word on each side, or (crossings rule) a balanced block of equal words, is mapped in order.
    """
    forced: list[Pair] = []
    open_comps: list[Component] = []
    for comp in comps:
        cs, rs = comp.cands, comp.refs
        if len(cs) == len(rs) and (len(cs) == 1 or (crossings and comp.neighbours is None)):
            forced += zip(cs, rs)
        else:
            open_comps.append(comp)
    return forced, open_comps

"""The exact search (mtlearn.metrics.meteor._search) against the reference aligner.

The oracle is ``align(..., method="reference")``: every alignment listed, the rule
applied plainly (most matches, fewest crossings, fewest chunks, lexicographic; with
tie_break="chunks": most matches, fewest chunks, lexicographic). Random short pairs
with repeated words, stems, and a fake synonym matcher whose words have several keys.
"""

from __future__ import annotations

import itertools
import random

import pytest

import mtlearn.metrics.meteor._search.search as search_module
from mtlearn.metrics.meteor._search import Budget, SearchLimits
from mtlearn.metrics.meteor._search.costs import in_order_table
from mtlearn.metrics.meteor._search.graph import Component
from mtlearn.metrics.meteor.alignment import DEFAULT_NODE_BUDGET, align
from mtlearn.metrics.meteor.matchers import ExactMatcher, PredicateMatcher, StemMatcher

TIE_BREAKS = ("crossings", "chunks")


class FakeSynonyms:
    """A keys matcher where a word has several keys (like WordNet synsets)."""

    name = "fake-synonym"
    table = {"a": {1}, "b": {1, 2}, "c": {2, 3}, "d": {3}, "e": {3, 1}, "f": set()}

    def keys(self, word):
        return frozenset(self.table.get(word, ()))


def vowel_pairs(a, b):
    return (a in "aeiou") == (b in "aeiou")


SETUPS = {
    "exact": ([ExactMatcher()], "aabbcde"),
    "exact+stem": ([ExactMatcher(), StemMatcher()], ["cat", "cats", "run", "runs", "the", "a"]),
    "exact+fake synonyms": ([ExactMatcher(), FakeSynonyms()], "aabbcdef"),
    "fake synonyms": ([FakeSynonyms()], "abcdef"),
    "exact+predicate": ([ExactMatcher(), PredicateMatcher("vowels", vowel_pairs)], "abcde"),
}


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_search_equals_reference_on_random_pairs(setup, tie_break):
    stages, vocabulary = SETUPS[setup]
    rng = random.Random(f"{setup}|{tie_break}")
    for _ in range(60):
        cand = [rng.choice(vocabulary) for _ in range(rng.randint(0, 7))]
        ref = [rng.choice(vocabulary) for _ in range(rng.randint(0, 7))]
        got = align(cand, ref, stages, tie_break=tie_break)
        want = align(cand, ref, stages, tie_break=tie_break, method="reference")
        assert got.optimal
        assert got.mappings == want.mappings, (cand, ref)
        assert (got.crossings, got.chunks) == (want.crossings, want.chunks)


def test_the_issue_pair_gets_three_chunks():
    # Three alignments have 4 matches and 1 crossing; the rule's fewest-chunks step
    # keeps the one where the third "He" sits next to "eats" (3 chunks, NLTK's 0.5739).
    cand = "He He He eats sweet apple which is a fruit.".split()
    ref = "He eats a sweet apple.".split()
    got = align(cand, ref, [ExactMatcher()])
    assert (got.matches, got.crossings, got.chunks) == (4, 1, 3)
    assert got.pairs == align(cand, ref, [ExactMatcher()], method="reference").pairs


def test_grouping_does_not_change_the_result_on_long_pairs(monkeypatch):
    # Beyond the reference's reach: 15-30 words. Searching every open component as one
    # group must give what the independent groups give.
    rng = random.Random(104)
    vocab = ["the", "the", "of", "of", "a", ",", "cats", "cat", "runs", "run"]
    cases = []
    for _ in range(25):
        cand = [rng.choice(vocab) if rng.random() < 0.6 else f"c{k}" for k in range(rng.randint(15, 30))]
        ref = [rng.choice(vocab) if rng.random() < 0.6 else f"c{k}" for k in range(rng.randint(15, 30))]
        cases.append((cand, ref))
    stages = [ExactMatcher(), StemMatcher()]
    for tie_break in TIE_BREAKS:
        grouped = [align(c, r, stages, tie_break=tie_break, node_budget=10**6) for c, r in cases]
        with monkeypatch.context() as m:
            m.setattr(search_module, "groups", lambda comps, crossings: [list(comps)])
            joined = [align(c, r, stages, tie_break=tie_break, node_budget=10**6) for c, r in cases]
        for (c, r), a, b in zip(cases, grouped, joined):
            assert a.optimal and b.optimal, (c, r)
            assert a.pairs == b.pairs, (tie_break, c, r)


def test_in_order_table_is_the_best_in_order_choice():
    rng = random.Random(105)
    for _ in range(300):
        p, q = rng.randint(1, 5), rng.randint(1, 5)
        block = Component(tuple(range(p)), tuple(range(10, 10 + q)), None)
        cost = {(i, j): rng.randint(-1, 2) for i in block.cands for j in block.refs}
        k = min(p, q)
        best = min(sum(cost[(i, j)] for i, j in zip(cs, rs))
                   for cs in itertools.combinations(block.cands, k)
                   for rs in itertools.combinations(block.refs, k))
        assert in_order_table(block, cost)[0, 0] == best


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_spent_budget_keeps_a_maximum_alignment_and_says_so(tie_break):
    rng = random.Random(107)
    cut_short = 0
    for _ in range(30):
        cand = [rng.choice("abcd") for _ in range(16)]
        ref = [rng.choice("abcd") for _ in range(13)]
        full = align(cand, ref, [ExactMatcher()], tie_break=tie_break, node_budget=10**6)
        cut = align(cand, ref, [ExactMatcher()], tie_break=tie_break, node_budget=3)
        assert full.optimal
        assert cut.optimal == (full.nodes <= 3)  # proven only if the search fitted in
        cut_short += not cut.optimal
        assert cut.matches == full.matches
        assert len({j for _, j in cut.pairs}) == cut.matches
        assert all(cand[i] == ref[j] for i, j in cut.pairs)
        worse = (cut.crossings, cut.chunks) if tie_break == "crossings" else (cut.chunks,)
        best = (full.crossings, full.chunks) if tie_break == "crossings" else (full.chunks,)
        assert worse >= best
    assert cut_short > 20


def test_budget_counts_nodes_honestly():
    b = Budget(2)
    assert [b.spend(), b.spend(), b.spend()] == [True, True, False]
    assert b.used == 2


def test_default_budgets_come_from_the_limits():
    assert DEFAULT_NODE_BUDGET == {t: SearchLimits().node_budget(t) for t in TIE_BREAKS}


def test_unknown_method_is_named():
    with pytest.raises(ValueError, match="method"):
        align(["a"], ["a"], [ExactMatcher()], method="fast")

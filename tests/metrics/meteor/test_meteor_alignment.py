"""METEOR's alignment search against the reference aligner, which tries every alignment.

The oracle is :func:`mtlearn.metrics.meteor.alignment_reference.align_reference`, the
rule written plainly (digest of the Spanish Wikipedia article, items 3-4, and the fewest-chunks tie-break):
per stage, list every one-to-one mapping set over the words earlier stages left
free, keep those with the most mappings, then the fewest crossings, then the fewest
chunks (with ``tie_break="chunks"``: the fewest chunks only), counted over all
mappings so far, then the lexicographically smallest reference positions read in
candidate order (unmatched = after everything). It shares no code with the search.
"""

from __future__ import annotations

import itertools
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtlearn.metrics.meteor.alignment import align
from mtlearn.metrics.meteor.alignment_reference import align_reference
from mtlearn.metrics.meteor.formulas import chunk_spans, count_chunks, count_crossings
from mtlearn.metrics.meteor.matchers import ExactMatcher, PredicateMatcher, StemMatcher

UNMATCHED = sys.maxsize


def naive_crossings(pairs):
    return sum(1 for (a, b), (c, d) in itertools.combinations(pairs, 2) if (a - c) * (b - d) < 0)


def naive_chunks(pairs):
    count, prev = 0, None
    for i, j in sorted(pairs):
        if prev is None or (i, j) != (prev[0] + 1, prev[1] + 1):
            count += 1
        prev = (i, j)
    return count


def brute_force(cand, ref, stages, tie_break):
    """The oracle's alignment as (candidate index, reference index) pairs."""
    return tuple((i, j) for i, j, _ in align_reference(cand, ref, stages, tie_break=tie_break))


TIE_BREAKS = ["crossings", "chunks"]


class KeySets:
    """A keys matcher where a word may have several keys (like WordNet synsets)."""

    name = "overlap"
    table = {"a": {1}, "b": {1, 2}, "c": {2}, "d": {3}, "e": {3, 1}}

    def keys(self, word):
        return frozenset(self.table[word])


def parity(a, b):
    return a == b or (ord(a) + ord(b)) % 3 == 0


SETUPS = {
    # name: the stages, for the search and the oracle alike
    "exact": [ExactMatcher()],
    "exact+overlapping keys": [ExactMatcher(), KeySets()],
    "predicate": [PredicateMatcher("parity", parity)],
    "exact+predicate": [ExactMatcher(), PredicateMatcher("parity", parity)],
}

words = st.lists(st.sampled_from("aabbcde"), max_size=6)


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("setup", sorted(SETUPS))
@settings(max_examples=120, deadline=None)
@given(cand=words, ref=words)
def test_search_equals_brute_force(setup, tie_break, cand, ref):
    stages = SETUPS[setup]
    got = align(cand, ref, stages, tie_break=tie_break)
    assert got.optimal
    assert got.pairs == brute_force(cand, ref, stages, tie_break)
    assert got.crossings == naive_crossings(got.pairs)
    assert got.chunks == naive_chunks(got.pairs)


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_search_equals_brute_force_on_many_repeats(tie_break):
    # Sentences made of two or three words repeated: the hardest case for the tie rules.
    rng = random.Random(20240601)
    for _ in range(150):
        cand = [rng.choice("aab") for _ in range(rng.randint(3, 7))]
        ref = [rng.choice("abb") for _ in range(rng.randint(3, 7))]
        got = align(cand, ref, [ExactMatcher()], tie_break=tie_break)
        assert got.pairs == brute_force(cand, ref, [ExactMatcher()], tie_break), (cand, ref)


def test_later_stage_counts_crossings_with_earlier_stages():
    # exact maps a->a (0->1) and b->b (2->3); "cats" may take "cat" 0 or "cat" 2.
    # "cat" 0 crosses a->a, "cat" 2 crosses nothing: the rule picks 2 although the
    # lexicographic tie-break alone would pick 0.
    cand, ref = ["a", "cats", "b"], ["cat", "a", "cat", "b"]
    got = align(cand, ref, [ExactMatcher(), StemMatcher()])
    assert got.pairs == ((0, 1), (1, 2), (2, 3))
    assert [m.stage for m in got.mappings] == ["exact", "stem", "exact"]
    assert got.crossings == 0


def test_stage_order_matters():
    # Earlier stages are never undone: "cats" takes "cats" at the exact stage first.
    got = align(["cats", "cat"], ["cats", "cat"], [StemMatcher(), ExactMatcher()])
    assert got.matches_per_stage == {"stem": 2, "exact": 0}
    got = align(["cats"], ["cat", "cats"], [ExactMatcher(), StemMatcher()])
    assert got.pairs == ((0, 1),) and got.matches_per_stage == {"exact": 1, "stem": 0}


def test_words_carry_through_to_mappings():
    got = align(["the", "cats"], ["cat", "the"], [ExactMatcher(), StemMatcher()])
    assert [(m.candidate_word, m.reference_word, m.stage) for m in got.mappings] == [
        ("the", "the", "exact"), ("cats", "cat", "stem")]


def test_count_crossings_matches_naive_count():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(0, 40)
        refs = rng.sample(range(60), n)
        pairs = list(zip(rng.sample(range(60), n), refs))
        assert count_crossings(pairs) == naive_crossings(pairs)


def test_chunk_spans_cover_the_alignment():
    rng = random.Random(11)
    for _ in range(200):
        n = rng.randint(0, 12)
        pairs = list(zip(sorted(rng.sample(range(15), n)), rng.sample(range(15), n)))
        spans = chunk_spans(pairs)
        covered = sorted((s.candidate_start + k, s.reference_start + k)
                         for s in spans for k in range(s.length))
        assert covered == sorted(pairs)
        assert count_chunks(pairs) == naive_chunks(pairs) == len(spans)


def test_budget_exhausted_gives_best_found_marked_not_optimal():
    rng = random.Random(3)
    cand = [rng.choice("abcd") for _ in range(16)]
    ref = [rng.choice("abcd") for _ in range(13)]
    full = align(cand, ref, [ExactMatcher()])
    cut = align(cand, ref, [ExactMatcher()], node_budget=5)
    assert full.optimal and not cut.optimal
    assert cut.matches == full.matches  # still a maximum alignment
    assert cut.crossings >= full.crossings
    assert len({j for _, j in cut.pairs}) == cut.matches  # still one-to-one
    assert all(cand[i] == ref[j] for i, j in cut.pairs)


def test_large_sentence_with_repeated_function_words_is_proven():
    # A realistic 40-word pair with repeated "the", "of", ",": solved exactly.
    cand = ("the head of the committee said , in the end , that the rules of the house "
            "were , of course , the same for all of the members of the party").split()
    ref = ("in the end , the chairman of the committee said that the rules of the house "
           "are the same , of course , for all the members of the party").split()
    got = align(cand, ref, [ExactMatcher()])
    assert got.optimal
    assert got.crossings == naive_crossings(got.pairs)
    assert got.matches == sum(min(cand.count(w), ref.count(w)) for w in set(cand))


# Longer pairs over few words: groups of 8+ candidate words get the local-search start,
# the in-order DP bound and the transposition table; stages interact through crossings
# and adjacencies with the exact mappings; with chunks, components split into groups
# that share no possible adjacency.
LONG_SETUPS = {
    "exact": [ExactMatcher()],
    "exact+overlapping keys": [ExactMatcher(), KeySets()],
    "exact+predicate": [ExactMatcher(), PredicateMatcher("parity", parity)],
}


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("setup", sorted(LONG_SETUPS))
def test_search_equals_brute_force_on_longer_pairs(setup, tie_break):
    stages = LONG_SETUPS[setup]
    rng = random.Random(f"{setup}/{tie_break}")
    for _ in range(25):
        n_c, n_r = rng.choice([(9, 6), (8, 7), (6, 9), (10, 5)])
        cand = [rng.choice("aabbcde") for _ in range(n_c)]
        ref = [rng.choice("aabbcde") for _ in range(n_r)]
        got = align(cand, ref, stages, tie_break=tie_break)
        assert got.optimal
        assert got.pairs == brute_force(cand, ref, stages, tie_break), (cand, ref)


def test_repeated_phrase_is_solved_exactly_with_chunks():
    # The candidate says a phrase twice, the reference once: only one copy can make
    # the phrase's adjacencies, which the gap-matching bound knows.
    cand = "x a b c d y a b c d".split()
    ref = "a b c d y".split()
    got = align(cand, ref, [ExactMatcher()], tie_break="chunks")
    assert got.optimal
    assert got.pairs == brute_force(cand, ref, [ExactMatcher()], "chunks")
    assert got.chunks == 1


# --------------------------------------------------------------------------- fast paths
# With tie_break="crossings", groups made only of complete blocks (identical-key words)
# are solved without the branch and bound: one block by an in-order dynamic programme,
# blocks that cannot disturb each other block by block, interacting blocks by a
# dynamic programme over candidate positions. Inputs below are built to reach each.


def _fillers(rng, n, prefix):
    return [f"{prefix}{k}" for k in range(n)]


def test_single_unbalanced_block_between_fixed_words_equals_brute_force():
    # One repeated word, more (or fewer) copies on one side, among unique words that the
    # exact stage maps first: only the repeated word's block is open, with a context.
    rng = random.Random(101)
    for _ in range(60):
        words = _fillers(rng, rng.randint(2, 4), "u")
        cand = words + ["x"] * rng.randint(1, 3)
        ref = list(words) + ["x"] * rng.randint(1, 4)
        rng.shuffle(cand)
        rng.shuffle(ref)
        got = align(cand, ref, [ExactMatcher()])
        assert got.optimal
        assert got.pairs == brute_force(cand, ref, [ExactMatcher()], "crossings"), (cand, ref)


def test_independent_blocks_equal_brute_force():
    # Two repeated words far apart on both sides: their blocks cannot cross each other.
    rng = random.Random(102)
    for _ in range(40):
        left_c = ["x"] * rng.randint(1, 3) + ["a"]
        left_r = ["x"] * rng.randint(1, 3) + ["a"]
        right_c = ["y"] * rng.randint(1, 3) + ["b"]
        right_r = ["y"] * rng.randint(1, 3) + ["b"]
        rng.shuffle(left_c), rng.shuffle(left_r), rng.shuffle(right_c), rng.shuffle(right_r)
        cand, ref = left_c + right_c, left_r + right_r
        got = align(cand, ref, [ExactMatcher()])
        assert got.optimal
        assert got.pairs == brute_force(cand, ref, [ExactMatcher()], "crossings"), (cand, ref)


def test_interacting_blocks_equal_brute_force():
    # Three repeated words interleaved, unequal counts: the blocks cross each other, so
    # the position-by-position programme decides (its states merge once a block closes).
    rng = random.Random(103)
    for _ in range(60):
        n_c, n_r = rng.choice([(8, 6), (7, 7), (6, 8), (9, 5)])
        cand = [rng.choice("xxyyz") for _ in range(n_c)]
        ref = [rng.choice("xyyzz") for _ in range(n_r)]
        got = align(cand, ref, [ExactMatcher()])
        assert got.optimal
        assert got.pairs == brute_force(cand, ref, [ExactMatcher()], "crossings"), (cand, ref)

"""The reference aligner: METEOR's alignment rule written plainly, the tests' oracle.

Its own checks are small cases whose alignments can be listed on paper; then it must
agree with the fast search, ``align()``, on the digest's worked rows and the article's
alignments (a) and (b). ``tests/metrics/meteor/test_meteor_alignment.py`` uses it as the oracle on
random cases.
"""

from __future__ import annotations

from math import comb, factorial

import pytest

import mtlearn
from mtlearn.examples import meteor as examples
from mtlearn.metrics.meteor.alignment import align
from mtlearn.metrics.meteor.alignment_reference import REFERENCE_MAX_WORDS, align_reference, alignments
from mtlearn.metrics.meteor.fast import score_from_counts
from mtlearn.metrics.meteor.formulas import count_chunks, count_crossings
from mtlearn.metrics.meteor.matchers import ExactMatcher, PredicateMatcher, StemMatcher, resolve_stages

EXACT = [ExactMatcher()]

# A pair where the tie-break matters (whitespace tokens, so "apple" and "apple." differ): three alignments
# have the most matches (4) and the fewest crossings (1); only one of them has 3 chunks.
HE_CANDIDATE = "He He He eats sweet apple which is a fruit.".split()
HE_REFERENCE = "He eats a sweet apple.".split()


def pairs_of(aligned):
    return tuple((i, j) for i, j, _ in aligned)


# --------------------------------------------------------------------------- the enumeration


@pytest.mark.parametrize("n_c, n_r", [(0, 0), (1, 3), (3, 3), (4, 2), (5, 5)])
def test_alignments_lists_every_one_to_one_set_once(n_c, n_r):
    # Every word matching every word: sum over k of C(n_c, k) C(n_r, k) k! alignments.
    found = [tuple(a) for a in alignments(list(range(n_c)), list(range(n_r)), lambda i, j: True)]
    expected = sum(comb(n_c, k) * comb(n_r, k) * factorial(k) for k in range(min(n_c, n_r) + 1))
    assert len(found) == len(set(found)) == expected
    for a in found:
        assert len({i for i, _ in a}) == len({j for _, j in a}) == len(a)


def test_alignments_respect_the_stage():
    allowed = {(0, 1), (1, 0), (1, 1)}
    found = sorted(sorted(a) for a in alignments([0, 1], [0, 1], lambda i, j: (i, j) in allowed))
    assert found == [[], [(0, 1)], [(0, 1), (1, 0)], [(1, 0)], [(1, 1)]]


# --------------------------------------------------------------------------- the rule, by hand


def test_most_mappings_beat_fewer_crossings():
    # "b a" / "a b": two mappings with one crossing win over one mapping with none.
    assert align_reference(["b", "a"], ["a", "b"], EXACT) == ((0, 1, "exact"), (1, 0, "exact"))


def test_lexicographic_tie_break_takes_earlier_words_first():
    assert align_reference(["a"], ["a", "a"], EXACT) == ((0, 0, "exact"),)
    # An unmatched candidate word counts as after every reference position: [0, -] < [-, 0].
    assert align_reference(["a", "a"], ["a"], EXACT) == ((0, 0, "exact"),)


def test_later_stage_counts_crossings_with_earlier_stages():
    # exact maps a->a (0->1) and b->b (2->3); "cats" may take "cat" 0 (one crossing)
    # or "cat" 2 (none): the rule takes 2, though the lexicographic rule alone takes 0.
    got = align_reference(["a", "cats", "b"], ["cat", "a", "cat", "b"], [ExactMatcher(), StemMatcher()])
    assert got == ((0, 1, "exact"), (1, 2, "stem"), (2, 3, "exact"))


def test_fewest_chunks_before_the_lexicographic_rule():
    got = pairs_of(align_reference(HE_CANDIDATE, HE_REFERENCE, EXACT))
    # The enumeration itself shows the three tied alignments (4 matches, 1 crossing).
    every = list(alignments(range(len(HE_CANDIDATE)), range(len(HE_REFERENCE)),
                            lambda i, j: HE_CANDIDATE[i] == HE_REFERENCE[j]))
    most = max(len(a) for a in every)
    best = [a for a in every if len(a) == most]
    fewest = min(count_crossings(a) for a in best)
    tied = [sorted(a) for a in best if count_crossings(a) == fewest]
    assert (most, fewest, len(tied)) == (4, 1, 3)
    assert sorted(count_chunks(a) for a in tied) == [3, 4, 4]
    assert count_crossings(got) == 1 and count_chunks(got) == 3
    assert list(got) in tied
    score = score_from_counts(4, len(HE_CANDIDATE), len(HE_REFERENCE), count_chunks(got))
    assert f"{score:.4f}" == "0.5739"  # NLTK's score for this pair


def test_chunks_rule_leaves_crossings_out():
    # Row 1 under tie_break="chunks": alignment (b), 11 crossings but 3 chunks.
    row = examples.ROW_1
    got = pairs_of(align_reference(row.candidate.split(), row.reference.split(), EXACT, tie_break="chunks"))
    assert got == examples.ALIGNMENT_B.pairs
    assert count_chunks(got) == 3 and count_crossings(got) == 11


def test_stages_run_in_order_and_are_never_undone():
    got = align_reference(["cats", "cat"], ["cats", "cat"], [StemMatcher(), ExactMatcher()])
    assert [stage for _, _, stage in got] == ["stem", "stem"]
    assert align_reference(["cats"], ["cat", "cats"], [ExactMatcher(), StemMatcher()]) == ((0, 1, "exact"),)


def test_pair_matchers_and_keys_with_several_values():
    initial = PredicateMatcher("initial", lambda a, b: a[0] == b[0])
    assert (align_reference(["cow", "dog"], ["dig", "cat"], [initial])
            == ((0, 1, "initial"), (1, 0, "initial")))

    class Senses:  # a keys matcher where a word may have several keys (like WordNet synsets)
        name = "senses"
        table = {"bank": {1, 2}, "shore": {1}, "money": {2}}

        def keys(self, word):
            return frozenset(self.table.get(word, ()))

    assert align_reference(["bank"], ["money"], [Senses()]) == ((0, 0, "senses"),)
    assert align_reference(["shore"], ["money"], [Senses()]) == ()


def test_empty_sides_and_no_matches():
    assert align_reference([], ["a"], EXACT) == ()
    assert align_reference(["a"], [], EXACT) == ()
    assert align_reference(["a", "b"], ["c"], EXACT) == ()


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("argname", ["candidate", "reference"])
def test_too_long_a_side_is_refused_by_name(argname):
    long, short = ["w"] * (REFERENCE_MAX_WORDS + 1), ["w"]
    args = (long, short) if argname == "candidate" else (short, long)
    with pytest.raises(ValueError, match=rf"^{argname}: 13 words; .*exponentially.* at most 12 words"):
        align_reference(*args, EXACT)


def test_twelve_words_per_side_are_accepted():
    words = [f"w{k}" for k in range(REFERENCE_MAX_WORDS)]
    got = align_reference(words, list(reversed(words)), EXACT)
    assert pairs_of(got) == tuple((k, REFERENCE_MAX_WORDS - 1 - k) for k in range(REFERENCE_MAX_WORDS))


def test_a_sentence_not_split_is_refused_by_name():
    with pytest.raises(TypeError, match="^reference: expected a list of tokens, got str"):
        align_reference(["a"], "a b", EXACT)


def test_stage_names_are_resolved():
    assert align_reference(["cats"], ["cat"], ["exact", "stem"]) == ((0, 0, "stem"),)
    with pytest.raises(ValueError, match="^stages: unknown stage 'stems'"):
        align_reference(["cats"], ["cat"], ["stems"])


def test_unknown_tie_break_is_refused_by_name():
    with pytest.raises(ValueError, match="^tie_break: unknown value 'chunk'"):
        align_reference(["a"], ["a"], EXACT, tie_break="chunk")


# --------------------------------------------------------------------------- against the search


@pytest.mark.parametrize("tie_break", ["crossings", "chunks"])
@pytest.mark.parametrize("row", examples.TABLE, ids=lambda row: row.name.split(":")[0])
def test_agrees_with_align_on_the_digest_rows(row, tie_break):
    cand, ref = row.candidate.split(), row.reference.split()
    got = align_reference(cand, ref, EXACT, tie_break=tie_break)
    fast = align(cand, ref, EXACT, tie_break=tie_break)
    assert pairs_of(got) == fast.pairs
    assert [m.stage for m in fast.mappings] == [stage for _, _, stage in got]
    if tie_break == "crossings":
        assert len(got) == row.expected_matches and count_chunks(pairs_of(got)) == row.expected_chunks


def test_agrees_with_align_on_the_articles_alignments():
    # (a) is chosen under the crossing rule (8 crossings against 11); both counts as stated.
    row = examples.ROW_1
    got = pairs_of(align_reference(row.candidate.split(), row.reference.split(), EXACT))
    assert (got == examples.ALIGNMENT_A.pairs
            == align(row.candidate.split(), row.reference.split(), EXACT).pairs)
    for shown in (examples.ALIGNMENT_A, examples.ALIGNMENT_B):
        assert (count_crossings(shown.pairs), count_chunks(shown.pairs)) == (
            shown.stated_crossings, shown.stated_chunks)


def test_agrees_with_align_over_three_stages():
    stages = resolve_stages(["exact", "stem", "synonym"])
    cand, ref = "the cats were sitting on the mats".split(), "the cat sat on the mat".split()
    got = align_reference(cand, ref, stages)
    fast = align(cand, ref, stages)
    assert [(m.candidate_index, m.reference_index, m.stage) for m in fast.mappings] == list(got)
    assert {stage for _, _, stage in got} == {"exact", "stem", "synonym"}


@pytest.mark.parametrize("tie_break", ["crossings", "chunks"])
def test_agrees_with_align_on_the_tie_break_pair(tie_break):
    got = align_reference(HE_CANDIDATE, HE_REFERENCE, EXACT, tie_break=tie_break)
    fast = align(HE_CANDIDATE, HE_REFERENCE, EXACT, tie_break=tie_break)
    assert fast.pairs == pairs_of(got)
    by_reference = align(HE_CANDIDATE, HE_REFERENCE, EXACT, tie_break=tie_break, method="reference")
    assert (by_reference.mappings, by_reference.crossings, by_reference.chunks) == (
        fast.mappings, fast.crossings, fast.chunks)
    if tie_break == "crossings":  # the fewest chunks, 3: METEOR 0.5739, NLTK's score
        assert (fast.chunks == 3
                and f"{mtlearn.meteor(HE_CANDIDATE, [HE_REFERENCE], stages=['exact']).score:.4f}" == "0.5739")


def test_every_tie_of_row_1_is_listed():
    # Row 1 has exactly two alignments with six mappings, (a) and (b) (the two "the"s swap).
    cand, ref = examples.ROW_1.candidate.split(), examples.ROW_1.reference.split()
    every = [sorted(a) for a in alignments(range(6), range(6), lambda i, j: cand[i] == ref[j])]
    full = [tuple(a) for a in every if len(a) == 6]
    assert sorted(full) == sorted([examples.ALIGNMENT_A.pairs, examples.ALIGNMENT_B.pairs])
    assert len(every) == len({tuple(a) for a in every})
    assert all(cand[i] == ref[j] for a in every for i, j in a)

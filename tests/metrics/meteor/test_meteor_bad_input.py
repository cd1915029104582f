"""Bad and hostile input to METEOR: a defined 0 with its reason, or an error naming the argument."""

from __future__ import annotations

import math

import pytest

from mtlearn import corpus_meteor, meteor
from mtlearn.metrics.meteor.alignment import align, align_pairs, align_pairs_many
from mtlearn.metrics.meteor.matchers import ExactMatcher
from mtlearn.metrics.meteor.wordnet import find_wordnet

needs_wordnet = pytest.mark.skipif(find_wordnet() is None, reason="WordNet for NLTK is not installed")
EXACT = ["exact"]


# --------------------------------------------------------------------------- defined zeros


def test_empty_candidate_scores_zero_with_reason():
    r = meteor("", ["the cat"], stages=EXACT)
    assert r.score == 0 and r.precision == 0 and r.penalty == 0
    assert r.reason.startswith("empty candidate")


def test_empty_reference_scores_zero_with_reason():
    r = meteor("the cat", [""], stages=EXACT)
    assert r.score == 0 and r.recall == 0
    assert r.reason.startswith("empty reference")


def test_both_empty_scores_zero_with_reason():
    r = meteor([], [[]], stages=EXACT)
    assert r.score == 0 and r.reason.startswith("empty candidate and reference")


def test_no_overlap_scores_zero_with_reason():
    r = meteor("a b", ["c d"], stages=EXACT)
    assert r.score == 0 and r.f_mean == 0 and r.fragmentation == 0
    assert "no candidate word matches" in r.reason


def test_empty_corpus_segment_is_a_defined_zero():
    c = corpus_meteor(["", "a b"], [["a"], ["a b"]], stages=EXACT)
    assert c.segments[0].reason.startswith("empty candidate") and c.reason is None
    assert c.matches == 2


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("alpha", [-0.1, 1.5])
def test_alpha_outside_unit_interval(alpha):
    with pytest.raises(ValueError, match=r"^alpha: must lie in \[0, 1\]"):
        meteor("a", ["a"], stages=EXACT, alpha=alpha)


def test_alpha_not_a_number():
    with pytest.raises(TypeError, match=r"^alpha: expected a number"):
        meteor("a", ["a"], stages=EXACT, alpha="0.9")


def test_alpha_nan():
    with pytest.raises(ValueError, match=r"^alpha: must be a finite number"):
        meteor("a", ["a"], stages=EXACT, alpha=math.nan)


def test_negative_beta():
    with pytest.raises(ValueError, match=r"^beta: must be non-negative"):
        meteor("a", ["a"], stages=EXACT, beta=-1)


def test_negative_gamma():
    with pytest.raises(ValueError, match=r"^gamma: must be non-negative"):
        meteor("a", ["a"], stages=EXACT, gamma=-0.5)


def test_gamma_above_one():
    with pytest.raises(ValueError, match=r"^gamma: must be at most 1"):
        meteor("a", ["a"], stages=EXACT, gamma=1.5)


def test_unknown_stage():
    with pytest.raises(ValueError, match=r"^stages: unknown stage 'stemming'"):
        meteor("a", ["a"], stages=["exact", "stemming"])


def test_no_stages():
    with pytest.raises(ValueError, match=r"^stages: no stages given"):
        meteor("a", ["a"], stages=[])


def test_unknown_tie_break():
    with pytest.raises(ValueError, match=r"^tie_break: unknown value 'fewest'"):
        meteor("a", ["a"], stages=EXACT, tie_break="fewest")


def test_unknown_tokenizer():
    with pytest.raises(ValueError, match=r"^tokenize: unknown tokenizer 'moses'"):
        meteor(["a"], [["a"]], stages=EXACT, tokenize="moses")


def test_lowercase_not_bool():
    with pytest.raises(TypeError, match=r"^lowercase: expected True or False"):
        meteor("a", ["a"], stages=EXACT, lowercase="yes")


def test_no_references():
    with pytest.raises(ValueError, match=r"^references: no references given"):
        meteor("a", [], stages=EXACT)


def test_references_wrong_type():
    with pytest.raises(TypeError, match=r"^references: expected a list of references"):
        meteor("a", None, stages=EXACT)


def test_candidate_wrong_type():
    with pytest.raises(TypeError, match=r"^candidate: expected a string or a list"):
        meteor(42, ["a"], stages=EXACT)


def test_candidate_token_not_string():
    with pytest.raises(TypeError, match=r"^candidate: token 1 is int"):
        meteor(["a", 3], ["a"], stages=EXACT)


def test_corpus_lengths_mismatch():
    with pytest.raises(ValueError, match=r"^references: 1 reference lists for 2 candidates"):
        corpus_meteor(["a", "b"], [["a"]], stages=EXACT)


def test_corpus_empty():
    with pytest.raises(ValueError, match=r"^candidates: the corpus is empty"):
        corpus_meteor([], [], stages=EXACT)


def test_corpus_segment_without_references():
    with pytest.raises(ValueError, match=r"^references\[1\]: no references given"):
        corpus_meteor(["a", "b"], [["a"], []], stages=EXACT)


def test_corpus_candidates_as_one_string():
    with pytest.raises(TypeError, match=r"^candidates: expected a list of candidates"):
        corpus_meteor("a b", [["a b"]], stages=EXACT)


def test_node_budget_negative():
    with pytest.raises(ValueError, match=r"^node_budget: expected a non-negative integer"):
        align(["a"], ["a"], [ExactMatcher()], node_budget=-1)


def test_align_sentence_instead_of_tokens():
    # A string is a sequence of characters: aligning it would silently align letters.
    with pytest.raises(TypeError, match=r"^candidate: expected a list of str tokens, got str"):
        align("the cat", ["the", "cat"], EXACT)
    with pytest.raises(TypeError, match=r"^reference: expected a list of str tokens, got str"):
        align_pairs(["the", "cat"], "the cat", EXACT)


def test_align_token_not_string():
    with pytest.raises(TypeError, match=r"^reference: token 1 is int \(7\), expected str"):
        align(["a"], ["a", 7], EXACT)


def test_align_unknown_stage_name():
    with pytest.raises(ValueError, match=r"^stages: unknown stage 'exakt'"):
        align(["a"], ["a"], ["exakt"])


def test_align_many_bad_jobs():
    with pytest.raises(TypeError, match=r"^jobs: expected a list of \(candidate, reference\) pairs"):
        align_pairs_many("a b", EXACT)
    with pytest.raises(TypeError, match=r"^jobs\[1\]: expected a \(candidate, reference\) pair"):
        align_pairs_many([(["a"], ["a"]), (["a"],)], EXACT)
    with pytest.raises(TypeError, match=r"^jobs\[0\] candidate: token 0 is NoneType"):
        align_pairs_many([([None], ["a"])], EXACT)


def test_align_stage_names_are_accepted():
    assert align(["the", "cats"], ["a", "cat"], ["exact", "stem"]).pairs == ((1, 1),)


# --------------------------------------------------------------------------- hostile sizes
# These must finish in seconds (no timing asserted here: see benchmarks/); the block
# structure means no 10,000 x 10,000 table of pairs is ever built.


def test_ten_thousand_tokens_without_overlap():
    cand = [f"c{i}" for i in range(10_000)]
    ref = [f"r{i}" for i in range(10_000)]
    r = meteor(cand, [ref], stages=["exact", "stem"])
    assert r.score == 0 and r.matches == 0 and r.optimal


@needs_wordnet
@pytest.mark.wordnet
def test_ten_thousand_tokens_without_overlap_all_stages():
    r = meteor([f"c{i}" for i in range(10_000)], [[f"r{i}" for i in range(10_000)]])
    assert r.score == 0 and r.optimal


@pytest.mark.parametrize("tie_break", ["crossings", "chunks"])
def test_one_word_ten_thousand_times_on_both_sides(tie_break):
    r = meteor(["the"] * 10_000, [["the"] * 10_000], stages=["exact", "stem"], tie_break=tie_break)
    assert r.matches == 10_000 and r.chunks == 1 and r.crossings == 0 and r.optimal
    assert r.score == pytest.approx(1 - 0.5 / 10_000 ** 3)


@pytest.mark.parametrize("tie_break", ["crossings", "chunks"])
def test_one_word_repeated_unequal_counts(tie_break):
    r = meteor(["the"] * 10_000, [["the"] * 9_999], stages=EXACT, tie_break=tie_break)
    assert r.matches == 9_999 and r.crossings == 0 and r.chunks == 1 and r.optimal
    assert r.pairs[-1] == (9_998, 9_998)  # the tie-break: earliest words pair first

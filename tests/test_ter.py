"""TER by hand, its edit script, bad input, hostile inputs, and the fast path equal to the plain one."""

from __future__ import annotations

import json
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtlearn
from mtlearn.metrics.ter.edit_distance import levenshtein
from mtlearn.metrics.ter.fast import exact_distance, exact_levenshtein, fast_shift_search, ter_edits
from mtlearn.metrics.ter.score import TerStats, corpus_ter, ter, ter_from_stats
from mtlearn.metrics.ter.shifts import MAX_SHIFT_CANDIDATES, apply_shift, shift_search

# --------------------------------------------------------------------------------------
# Hand examples
# --------------------------------------------------------------------------------------


def test_identical_is_zero():
    r = ter("the cat sat on the mat", ["the cat sat on the mat"])
    assert (r.score, r.num_edits, r.shifts, r.reason) == (0.0, 0, (), None)
    assert [e.op for e in r.edits] == ["match"] * 6


def test_one_substitution():
    r = ter("the cat sat on a mat", ["the cat sat on the mat"])
    assert r.num_edits == 1 and r.score == pytest.approx(1 / 6)
    assert [(e.op, e.candidate_word, e.reference_word) for e in r.edits if e.op != "match"] == [
        ("substitute", "a", "the")
    ]


def test_insertion_and_deletion_conventions():
    # insert = a reference word the candidate lacks; delete = a candidate word the reference lacks.
    r = ter("the cat sat", ["the cat sat down"])
    assert [(e.op, e.candidate_index, e.reference_index, e.reference_word) for e in r.edits][-1] == (
        "insert", None, 3, "down")
    r = ter("the big cat sat", ["the cat sat"])
    assert [(e.op, e.candidate_index, e.candidate_word, e.reference_index) for e in r.edits if e.op != "match"] == [
        ("delete", 1, "big", None)]
    assert r.score == pytest.approx(1 / 3)


def test_block_shift_costs_one_edit():
    # Snover et al.'s point: moving a phrase is one edit, not one per word.
    r = ter("on the mat the cat sat", ["the cat sat on the mat"])
    assert r.num_edits == 1 and len(r.shifts) == 1
    s = r.shifts[0]
    assert s.round == 1 and s.length == 3 and s.gain == 6
    assert apply_shift(r.candidate_tokens, s.start, s.length, s.destination) == r.shifted_tokens
    assert r.shifted_tokens == r.reference_tokens
    assert "saves 6" in s.reason
    # WER sees six edits where TER sees one.
    assert mtlearn.wer("on the mat the cat sat", ["the cat sat on the mat"]).num_edits == 6


def test_two_rounds_of_shifts():
    r = ter("d e f a b c x", ["a b c x d e f"])
    search = shift_search(r.candidate_tokens, r.reference_tokens)
    assert r.shifts == search.shifts
    assert [s.round for s in r.shifts] == list(range(1, len(r.shifts) + 1))
    assert r.num_edits == len(r.shifts) + sum(e.op != "match" for e in r.edits)


def test_edit_script_rebuilds_both_sides():
    r = ter("a quick brown dog jumps over", ["the quick brown fox jumped over the dog"])
    cand = [e.candidate_word for e in r.edits if e.candidate_index is not None]
    ref = [e.reference_word for e in r.edits if e.reference_index is not None]
    assert tuple(cand) == r.shifted_tokens and tuple(ref) == r.reference_tokens
    assert [e.candidate_index for e in r.edits if e.candidate_index is not None] == list(range(len(cand)))
    counts = r.counts()
    assert counts["shift"] + counts["insert"] + counts["delete"] + counts["substitute"] == r.num_edits


def test_lowercased_by_default_and_case_sensitive_option():
    assert ter("The Cat", ["the cat"]).num_edits == 0
    assert ter("The Cat", ["the cat"], case_sensitive=True).num_edits == 2


def test_tercom_options():
    assert ter("Hello, world!", ["hello world"], no_punct=True).num_edits == 0
    assert ter("hello,world", ["hello , world"], normalized=True).num_edits == 0
    assert ter("猫坐在垫子上", ["猫 坐 在 垫 子 上"], normalized=True, asian_support=True).num_edits == 0


def test_several_references_fewest_edits_average_length():
    r = ter("a b c", ["a b c d e", "a b x"])
    assert r.reference_edits == (2, 1) and r.best_reference == 1
    assert r.reference_length == 4.0 and r.score == 0.25
    assert r.stats == TerStats(1, Fraction(4))
    assert "fewest edits" in r.reference_choice
    # Ties: the first reference is kept.
    assert ter("a b", ["a c", "a d"]).best_reference == 0


def test_token_lists_are_used_as_given():
    assert ter(["A", "b"], [["a", "b"]]).num_edits == 0
    assert ter(["A", "b"], [["a", "b"]], case_sensitive=True).num_edits == 1


def test_score_can_exceed_one():
    r = ter("a b c d e f", ["x"])
    assert r.num_edits == 6 and r.score == 6.0


def test_corpus_sums_edits_and_lengths():
    cands = ["on the mat the cat sat", "a b c", "x y"]
    refs = [["the cat sat on the mat"], ["a b c d", "a b"], ["x"]]
    r = corpus_ter(cands, refs)
    segs = [ter(c, rs) for c, rs in zip(cands, refs)]
    assert r.num_edits == sum(s.num_edits for s in segs)
    assert r.stats.ref_length == sum((s.stats.ref_length for s in segs), Fraction(0))
    assert r.score == pytest.approx(r.num_edits / r.reference_length, abs=1e-15)
    assert [s.num_edits for s in r.segments] == [s.num_edits for s in segs]
    assert r.segments[0].shifts == segs[0].shifts
    assert r.segments.stats()[1] == segs[1].stats
    assert "nrefs:var" in r.signature
    assert ter_from_stats(r.stats).score == r.score


def test_signature_is_sacrebleu_like():
    sig = ter("a", ["a"], normalized=True).signature
    assert sig.startswith("mtlearn-ter|nrefs:1|case:lc|tok:tercom|norm:yes|punct:yes|asian:no|version:")


def test_explain_text_and_html():
    r = ter("on the mat the cat sat", ["the cat sat on the mat"])
    text = r.explain()
    assert "round 1: move" in text and "TER = edits / reference length = 1 / 6 = 0.1667" in text
    html = r._repr_html_()
    assert "TER = 0.1667" in html and "<table>" in html
    assert "summed over the 2 segments" in corpus_ter(["a", "b"], [["a"], ["c"]]).explain()
    json.dumps(r.to_dict())
    json.dumps(corpus_ter(["a", "b"], [["a"], ["c"]]).to_dict(segments=True))


# --------------------------------------------------------------------------------------
# Bad input (issue 11, section 4)
# --------------------------------------------------------------------------------------


def test_empty_candidate_is_all_insertions_score_one():
    r = ter("", ["the cat sat"])
    assert (r.score, r.num_edits) == (1.0, 3)
    assert [e.op for e in r.edits] == ["insert"] * 3
    assert "candidate is empty" in r.reason


def test_empty_reference_follows_sacrebleu():
    r = ter("a b", [""])
    assert (r.score, r.num_edits, r.reference_length) == (1.0, 2, 0.0)
    assert [e.op for e in r.edits] == ["delete", "delete"]
    assert "sacreBLEU's rule" in r.reason
    both = ter("", [""])
    assert (both.score, both.num_edits) == (0.0, 0) and "gives 0" in both.reason
    # An empty reference beside a real one: its edits count, its length 0 enters the average.
    r = ter("a b", ["", "a b"])
    assert r.reference_edits == (2, 0) and r.best_reference == 1 and r.reference_length == 1.0


def test_no_references():
    with pytest.raises(ValueError, match="^references: no references given"):
        ter("a", [])
    with pytest.raises(ValueError, match=r"^references\[1\]: no references given"):
        corpus_ter(["a", "b"], [["a"], []])


def test_mismatched_corpus_lengths():
    with pytest.raises(ValueError, match="^references: 1 reference lists for 2 candidates"):
        corpus_ter(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="^candidates: the corpus is empty"):
        corpus_ter([], [])


@pytest.mark.parametrize("call, message", [
    (lambda: ter(3, ["a"]), "^candidate: expected a string or a list"),
    (lambda: ter("a", 3), "^references: expected a list of references"),
    (lambda: ter("a", [None]), r"^references\[0\]: expected a string"),
    (lambda: ter(["a", 1], ["a"]), "^candidate: token 1 is int"),
    (lambda: ter("a", ["a"], normalized="yes"), "^normalized: expected True or False"),
    (lambda: ter("a", ["a"], case_sensitive=1), "^case_sensitive: expected True or False"),
    (lambda: corpus_ter("a b", [["a"]]), "^candidates: expected a list"),
    (lambda: corpus_ter(["a"], [[3]]), r"^references\[0\]\[0\]: expected a string"),
    (lambda: ter_from_stats((1, 2)), "^stats: expected TerStats"),
    (lambda: ter_from_stats(TerStats(1, Fraction(1)), metric="bleu"), "^metric: unknown value"),
])
def test_wrong_types(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


# --------------------------------------------------------------------------------------
# Hostile inputs: tercom's limits keep them to seconds (generous bounds for a loaded CI machine)
# --------------------------------------------------------------------------------------

N = 10_000


def _timed(candidate, reference):
    start = time.perf_counter()
    result = ter(candidate, [reference])
    return result, time.perf_counter() - start


def test_10000_tokens_no_overlap():
    r, seconds = _timed(" ".join(f"a{i}" for i in range(N)), " ".join(f"b{i}" for i in range(N)))
    assert (r.num_edits, r.score, r.shifts) == (N, 1.0, ())
    assert seconds < 20


def test_10000_tokens_one_repeated_word():
    r, seconds = _timed(" ".join(["the"] * N), " ".join(["the"] * N))
    assert (r.num_edits, r.score) == (0, 0.0)
    assert seconds < 20
    r, seconds = _timed(" ".join(["the"] * N), " ".join(["the"] * (N // 2)))
    assert (r.num_edits, r.score) == (N // 2, 1.0)
    assert seconds < 30
    r, seconds = _timed(" ".join(["the"] * N), " ".join(["a"] * N))
    assert (r.num_edits, r.score) == (N, 1.0)
    assert seconds < 20


# --------------------------------------------------------------------------------------
# The fast path equals the plain version
# --------------------------------------------------------------------------------------

_words = st.lists(st.sampled_from("a b c d e".split()), max_size=30)


@settings(max_examples=300, deadline=None)
@given(_words, _words)
def test_fast_search_equals_plain_search(cand, ref):
    plain = shift_search(cand, ref)
    assert fast_shift_search(cand, ref) == plain
    assert ter_edits(cand, ref) == plain.edits


@settings(max_examples=8, deadline=None)
@given(st.lists(st.sampled_from("a b c".split()), min_size=30, max_size=60),
       st.lists(st.sampled_from("a b c".split()), min_size=30, max_size=60))
def test_fast_equals_plain_on_long_repetitive_pairs(cand, ref):
    # Long sentences of three words: the beam binds and the candidate limit is often reached.
    plain = shift_search(cand, ref)
    assert fast_shift_search(cand, ref) == plain


def test_the_candidate_limit_is_reached_and_reported():
    cand = ("a b c " * 20).split()
    ref = ("c b a " * 20).split()
    plain = shift_search(cand, ref)
    assert plain.tried >= MAX_SHIFT_CANDIDATES and "not applied" in plain.stopped
    assert fast_shift_search(cand, ref) == plain


@settings(max_examples=200, deadline=None)
@given(_words, _words)
def test_levenshtein_without_beam_is_the_textbook_distance(cand, ref):
    # The textbook recurrence, full table, no trace.
    d = list(range(len(ref) + 1))
    for i, w in enumerate(cand, 1):
        prev, d[0] = d[0], i
        for j, r in enumerate(ref, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (w != r))
    assert levenshtein(cand, ref, beam=False).distance == d[-1]
    # WER's and CER's fast twins (bit-parallel rows) too; tests/test_wer_cer.py compares their traces.
    assert exact_distance(cand, ref) == exact_levenshtein(cand, ref).distance == d[-1]
    # Within 25 words the beam covers the whole table.
    assert levenshtein(cand, ref).distance == d[-1]

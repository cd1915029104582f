"""ter(), corpus_ter() and ter_from_stats() (mtlearn/metrics/ter/score.py): TER by hand, its edit script, the
kept reference, a corpus, bad input and hostile inputs."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

import mtlearn
from mtlearn.metrics.ter.score import corpus_ter, ter, ter_from_stats
from mtlearn.metrics.ter.shifts import apply_shift, shift_search
from mtlearn.metrics.ter.stats import TerStats

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
    assert [(e.op, e.candidate_index, e.candidate_word, e.reference_index) for e in r.edits
            if e.op != "match"] == [
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


def test_several_references_fewest_edits_average_length():
    r = ter("a b c", ["a b c d e", "a b x"])
    assert r.reference_edits == (2, 1) and r.best_reference == 1
    assert r.reference_length == 4.0 and r.score == 0.25
    assert r.stats == TerStats(1, Fraction(4))
    assert "fewest edits" in r.reference_choice
    # Ties: the first reference is kept.
    assert ter("a b", ["a c", "a d"]).best_reference == 0


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


def test_corpus_segments_are_built_on_access():
    cands, refs = ["on the mat the cat sat", "a b c"], [["the cat sat on the mat"], ["a b c d", "a b"]]
    r = corpus_ter(cands, refs)
    assert repr(r.segments) == "<TerSegments: 2 segments>" and len(r.segments) == 2
    assert r.segments[-1] == ter(cands[1], refs[1]) == r.segments[0:2][1]
    assert r.segments.stats_of(1) == r.segments.stats()[1] == ter(cands[1], refs[1]).stats
    with pytest.raises(IndexError, match="^index: segment 2 out of range for 2 segments"):
        r.segments[2]


def test_layout_warnings_point_at_the_callers_line():
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="^references: 1 reference lists for 3 candidates"):
            corpus_ter(["a b c", "x y", "z"], [["a b c", "x y", "z"]])  # one stream: sacreBLEU's layout
        corpus_ter(["a b c", "x y"], [["a b c", "x y"], ["a", "x"]])  # square: scored both ways
    assert [type(w.message).__name__ for w in caught] == ["ReferenceLayoutWarning", "AmbiguousLayoutWarning"]
    assert [w.filename for w in caught] == [__file__, __file__]


# --------------------------------------------------------------------------------------
# Bad input
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
    (lambda: corpus_ter("a b", [["a"]]), "^candidates: expected a list"),
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

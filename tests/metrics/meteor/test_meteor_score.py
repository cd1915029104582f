"""MeteorResult: every exposed value, several references, corpus level, presentation and signature."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from mtlearn import corpus_meteor, meteor
from mtlearn.metrics.meteor.formulas import count_chunks, count_crossings
from mtlearn.metrics.meteor.score import (
    MeteorResult,
    MeteorStats,
    corpus_score_from_stats,
    meteor_from_stats,
)
from mtlearn.metrics.meteor.wordnet import find_wordnet

needs_wordnet = pytest.mark.skipif(find_wordnet() is None, reason="WordNet for NLTK is not installed")


def by_hand(m, wt, wr, c, alpha=0.9, beta=3.0, gamma=0.5):
    """The paper's formulas, written out independently, in floats."""
    if m == 0:
        return 0.0
    p, r = m / wt, m / wr
    f = p * r / (alpha * p + (1 - alpha) * r)
    return f * (1 - gamma * (c / m) ** beta)


def test_every_value_is_exposed_and_consistent():
    r = meteor("the cats sat down on a mat", ["the cat sat on the mat"], stages=["exact", "stem"])
    assert isinstance(r, MeteorResult)
    assert r.candidate == ("the", "cats", "sat", "down", "on", "a", "mat")
    assert r.reference == ("the", "cat", "sat", "on", "the", "mat")
    assert r.matches_per_stage == {"exact": 4, "stem": 1}
    assert [(m.candidate_word, m.reference_word, m.stage) for m in r.alignment] == [
        ("the", "the", "exact"), ("cats", "cat", "stem"), ("sat", "sat", "exact"),
        ("on", "on", "exact"), ("mat", "mat", "exact")]
    assert (r.matches, r.candidate_length, r.reference_length) == (5, 7, 6)
    assert r.crossings == count_crossings(r.pairs) == 0
    assert r.chunks == count_chunks(r.pairs) == len(r.chunk_spans) == 3
    assert [(s.candidate_start, s.candidate_stop, s.reference_start, s.reference_stop)
            for s in r.chunk_spans] == [(0, 3, 0, 3), (4, 5, 3, 4), (6, 7, 5, 6)]
    assert r.precision == Fraction(5, 7) and r.recall == Fraction(5, 6)
    assert r.fragmentation == Fraction(3, 5)
    assert r.penalty == Fraction(1, 2) * Fraction(3, 5) ** 3
    assert r.score == pytest.approx(by_hand(5, 7, 6, 3), abs=1e-15)
    assert r.score_exact == r.f_mean * (1 - r.penalty)
    assert r.optimal and r.reason is None
    assert r.stats == MeteorStats(5, 7, 6, 3)


@pytest.mark.parametrize("alpha,beta,gamma", [(0.9, 3, 0.5), (0.5, 1, 0.25), (1.0, 2, 1.0),
                                              (0.0, 0.5, 0.3), (0.75, 4.5, 0.0)])
def test_parameters_enter_the_formulas(alpha, beta, gamma):
    r = meteor("a b c d x", ["d a b c y z"], stages=["exact"], alpha=alpha, beta=beta, gamma=gamma)
    assert (r.matches, r.chunks) == (4, 2)
    assert r.score == pytest.approx(by_hand(4, 5, 6, 2, alpha, beta, gamma), rel=1e-12)
    assert isinstance(r.penalty, Fraction) == float(beta).is_integer()
    assert (r.score_exact is None) == (not float(beta).is_integer())


def test_alpha_extremes_give_precision_or_recall():
    assert meteor("a b c", ["a b x y"], stages=["exact"], alpha=1.0, gamma=0).f_mean == Fraction(1, 2)
    assert meteor("a b c", ["a b x y"], stages=["exact"], alpha=0.0, gamma=0).f_mean == Fraction(2, 3)


def test_several_references_keep_the_best_and_all_results():
    refs = ["the cat sat on the mat", "a cat sat on a mat", "the cat was on the mat"]
    r = meteor("a cat sat on a mat", refs, stages=["exact"])
    singles = [meteor("a cat sat on a mat", [ref], stages=["exact"]).score for ref in refs]
    assert [x.score for x in r.per_reference] == singles
    assert r.best_reference == 1 and r.score == max(singles) == r.per_reference[1].score
    assert r.reference == tuple(refs[1].split())
    assert r.signature.split("|")[-2] == "nrefs:3"


def test_tied_references_keep_the_first():
    r = meteor("a b", ["a b", "a b"], stages=["exact"])
    assert r.best_reference == 0


def test_case_and_tokenization_options():
    assert meteor("The Cat", ["the cat"], stages=["exact"]).matches == 2
    assert meteor("The Cat", ["the cat"], stages=["exact"], lowercase=False).matches == 0
    r = meteor("Hello, world!", ["hello world"], stages=["exact"], tokenize="13a")
    assert r.candidate == ("hello", ",", "world", "!") and r.matches == 2
    assert "tok:13a" in r.signature and "case:lc" in r.signature


def test_token_lists_are_used_as_given():
    r = meteor(["new york", "is"], [["new york", "was"]], stages=["exact"])
    assert r.candidate == ("new york", "is") and r.matches == 1


def test_signature_records_every_setting():
    r = meteor("a", ["a"], stages=["exact", "stem"], alpha=0.85, beta=2.5, gamma=0.3,
               tie_break="chunks", lowercase=False, tokenize="13a")
    assert r.signature.startswith(
        "mtlearn-meteor|stages:exact+stem|alpha:0.85|beta:2.5|gamma:0.3|tie:chunks|case:mixed|"
        "tok:13a|nrefs:1|version:")


def test_custom_stage_is_recorded():
    def vowel_start(a, b):
        return a[0] in "aeiou" and b[0] in "aeiou"

    r = meteor("apple tree", ["orange tree"], stages=["exact", vowel_start])
    assert r.matches_per_stage == {"exact": 1, "vowel_start": 1}
    assert "stages:exact+vowel_start" in r.signature


@needs_wordnet
@pytest.mark.wordnet
def test_synonym_stage_counts():
    r = meteor("the automobile is fast", ["the car is quick"])
    assert r.matches_per_stage == {"exact": 2, "stem": 0, "synonym": 2}
    assert {(m.candidate_word, m.reference_word) for m in r.alignment if m.stage == "synonym"} == {
        ("automobile", "car"), ("fast", "quick")}


def test_to_dict_is_json_and_complete():
    r = meteor("the cat was sat on the mat", ["the cat sat on the mat", "a mat"], stages=["exact"])
    d = json.loads(json.dumps(r.to_dict()))
    assert d["precision"] == "6/7" and d["precision_value"] == 6 / 7
    assert d["penalty"] == "1/54" and d["chunks"] == 2 and d["matches"] == 6
    assert d["best_reference"] == 0 and len(d["per_reference_scores"]) == 2
    assert d["alignment"][2] == {"candidate_index": 3, "reference_index": 2, "stage": "exact",
                                 "candidate_word": "sat", "reference_word": "sat"}
    assert d["chunk_spans"] == [[0, 2, 0, 2], [3, 7, 2, 6]]
    assert d["signature"] == r.signature


def test_explain_and_html_show_the_numbers():
    r = meteor("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"])
    text = r.explain()
    assert "8 crossings" in text and "chunks (c = 6)" in text
    assert "penalty = gamma * (c / u_m)^beta = 0.5 * 1.0000^3 = 1/2 = 0.5000" in text
    assert "= 0.5000" in text.splitlines()[-1]
    html = r._repr_html_()
    assert "<table" in html and "8 crossings" in html and "6 chunks" in html


def test_explain_for_reason_and_several_references():
    text = meteor("", ["a b", "c"], stages=["exact"]).explain()
    assert "empty candidate" in text and "per reference" in text


# --------------------------------------------------------------------------- corpus


def test_corpus_sums_counts_and_differs_from_mean_of_segments():
    cands = ["on the mat sat the cat", "the cat sat on the mat", "the cat was sat on the mat"]
    refs = [["the cat sat on the mat"]] * 3
    c = corpus_meteor(cands, refs, stages=["exact"])
    segs = [meteor(x, r, stages=["exact"]) for x, r in zip(cands, refs)]
    assert [s.score for s in c.segments] == [s.score for s in segs]
    assert (c.matches, c.candidate_length, c.reference_length, c.chunks) == (
        sum(s.matches for s in segs), sum(s.candidate_length for s in segs),
        sum(s.reference_length for s in segs), sum(s.chunks for s in segs)) == (18, 19, 18, 9)
    assert c.score == pytest.approx(by_hand(18, 19, 18, 9), abs=1e-15)
    mean = sum(s.score for s in segs) / 3
    assert abs(c.score - mean) > 0.05  # 0.9553 against 0.8210: not the same statistic
    assert c.is_corpus and c.optimal and c.matches_per_stage == {"exact": 18}
    assert c.crossings == sum(s.crossings for s in segs)


def test_corpus_uses_each_segments_best_reference():
    c = corpus_meteor(["a b c", "x y"], [["a b c", "a"], ["q", "x y z"]], stages=["exact"])
    assert [s.best_reference for s in c.segments] == [0, 1]
    assert c.reference_length == 3 + 3
    assert c.signature.split("|")[-2] == "nrefs:2"
    assert "nrefs:var" in corpus_meteor(["a", "b"], [["a"], ["b", "c"]], stages=["exact"]).signature


def test_stats_functions_reproduce_corpus_and_resample():
    rng = random.Random(5)
    vocab = "the a cat dog sat on mat rug".split()
    cands = [" ".join(rng.choices(vocab, k=rng.randint(1, 9))) for _ in range(25)]
    refs = [[" ".join(rng.choices(vocab, k=rng.randint(1, 9)))] for _ in range(25)]
    c = corpus_meteor(cands, refs, stages=["exact"])
    stats = [s.stats for s in c.segments]
    assert corpus_score_from_stats(stats) == pytest.approx(c.score, abs=1e-12)
    exact = meteor_from_stats(stats)
    assert exact.score == c.score and exact.f_mean == c.f_mean
    sample = [rng.randrange(25) for _ in range(25)]
    resampled = corpus_meteor([cands[k] for k in sample], [refs[k] for k in sample], stages=["exact"])
    assert corpus_score_from_stats(stats, sample) == pytest.approx(resampled.score, abs=1e-12)


def test_corpus_to_dict_and_explain():
    c = corpus_meteor(["a b", "c"], [["a b"], ["d"]], stages=["exact"])
    d = c.to_dict(segments=True)
    assert d["n_segments"] == 2 and len(d["segments"]) == 2 and d["matches"] == 2
    assert "corpus of 2 segments" in c.explain()

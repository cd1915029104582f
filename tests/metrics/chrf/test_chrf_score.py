"""chrf() and corpus_chrf() by hand: small examples worked with exact fractions, empty and bad input.

sacreBLEU parity on random inputs is in test_chrf_sacrebleu.py, on WMT22 in test_chrf_wmt22.py; the options'
checks in test_chrf_options.py.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import pytest

import mtlearn
import mtlearn.core.references
from mtlearn.core.corpus import Segments
from mtlearn.metrics.chrf import formulas as F
from mtlearn.metrics.chrf.score import chrf, chrf_from_stats, corpus_chrf
from mtlearn.metrics.chrf.stats import ChrfStats

# ----------------------------------------------------------------------------- by hand


def test_hand_example_character_orders_1_and_2() -> None:
    # "ab ab" -> "abab": unigrams a:2 b:2, bigrams ab:2 ba:1; "abc": a b c, ab bc.
    r = chrf("ab ab", ["abc"], char_order=2)
    assert [(o.kind, o.n, o.candidate_count, o.reference_count, o.matched) for o in r.orders] == [
        ("char", 1, 4, 3, 2),
        ("char", 2, 3, 2, 1),
    ]
    assert [o.precision for o in r.orders] == [Fraction(1, 2), Fraction(1, 3)]
    assert [o.recall for o in r.orders] == [Fraction(2, 3), Fraction(1, 2)]
    assert r.precision_fraction == Fraction(5, 12) and r.recall_fraction == Fraction(7, 12)
    # F_2 = 5 P R / (4 P + R) = 5 * 35/144 / (27/12) = 175/324
    assert r.score == float(Fraction(175, 324)) == r.f_beta
    assert r.orders[0].f == float(Fraction(5, 8))  # 5 * 1/2 * 2/3 / (2 + 2/3)
    assert r.orders[1].f == float(Fraction(5, 11))  # 5 * 1/3 * 1/2 / (4/3 + 1/2)


def test_hand_example_eps_smoothing_is_the_mean_of_per_order_f() -> None:
    r = chrf("ab ab", ["abc"], char_order=2, eps_smoothing=True)
    assert r.score == float((Fraction(5, 8) + Fraction(5, 11)) / 2)


def test_hand_example_chrf_plus_plus_words() -> None:
    # Words after chrF++'s punctuation rule: "the cat ." / "the cat sat ."
    r = chrf("the cat.", ["the cat sat."], char_order=1, word_order=2)
    words = [(o.label, o.candidate_count, o.reference_count, o.matched) for o in r.orders[1:]]
    assert words == [("w1", 3, 4, 3), ("w2", 2, 3, 1)]  # bigrams: (the cat) matched, (cat .) not
    # char unigrams: "thecat." (7) vs "thecatsat." (10): t:2/3 h e c a:1/2 . -> 7 matched
    assert (r.orders[0].candidate_count, r.orders[0].reference_count, r.orders[0].matched) == (7, 10, 7)
    p = (Fraction(7, 7) + Fraction(3, 3) + Fraction(1, 2)) / 3
    rec = (Fraction(7, 10) + Fraction(3, 4) + Fraction(1, 3)) / 3
    assert r.precision_fraction == p and r.recall_fraction == rec
    assert r.score == float(F.f_beta(p, rec, 2))


def test_identical_strings_score_one_and_disjoint_zero() -> None:
    assert chrf("Das ist gut.", ["Das ist gut."]).score == 1.0
    assert chrf("Das ist gut.", ["Das ist gut."], word_order=2).score == 1.0
    r = chrf("xyz", ["abc"])
    assert r.score == 0.0 and "no n-gram" in r.reason


def test_whitespace_is_removed_unless_asked() -> None:
    assert chrf("a b", ["ab"]).score == 1.0
    kept = chrf("a b", ["ab"], whitespace=True)
    assert kept.orders[0].candidate_count == 3 and kept.score < 1.0


def test_lowercase() -> None:
    assert chrf("The Cat", ["the cat"]).score < 1.0
    assert chrf("The Cat", ["the cat"], lowercase=True).score == 1.0


def test_beta_weighs_recall() -> None:
    # The candidate is half the reference: P = 1, R < 1; a larger beta gives a lower score.
    scores = [chrf("abc", ["abcdef"], beta=b).score for b in (0.5, 1, 2, 3)]
    assert scores == sorted(scores, reverse=True)
    r = chrf("abc", ["abcdef"], char_order=1, beta=1)
    assert r.score == float(F.f_beta(1, Fraction(1, 2), 1)) == float(Fraction(2, 3))


def test_effective_order_leaves_out_orders_the_candidate_is_too_short_for() -> None:
    r = chrf("ab", ["abcdef"])
    assert [o.used for o in r.orders] == [True, True, False, False, False, False]
    assert r.effective_order == 2
    assert "c3, c4, c5, c6 left out" in r.reason
    smoothed = chrf("ab", ["abcdef"], eps_smoothing=True)
    assert smoothed.effective_order == 6 and smoothed.score < r.score


def test_reference_without_ngrams_of_an_order_does_not_count_the_candidates() -> None:
    # sacreBLEU's rule: reference "ab" has no 3-grams, so the candidate's 3-grams are not counted.
    r = chrf("abcd", ["ab"], char_order=3)
    assert [(o.candidate_count, o.reference_count) for o in r.orders] == [(4, 2), (3, 1), (0, 0)]


def test_the_score_is_the_formulas_of_the_statistics() -> None:
    # One rule: the result's P, R and F are averaged_f (or eps_smoothed_f) of its statistics, exactly.
    for opts in ({}, {"eps_smoothing": True}, {"word_order": 2, "beta": 3}, {"char_order": 9}):
        r = chrf("the cats sat on a mat", ["the cat sat on the mat"], **opts)
        p, rec, f = F.averaged_f(r.stats.triples, r.beta)
        if r.eps_smoothing:
            f = F.eps_smoothed_f(r.stats.triples, r.beta)
        assert (r.precision_fraction, r.recall_fraction) == (p, rec)
        from_stats = chrf_from_stats(r.stats, beta=r.beta, eps_smoothing=r.eps_smoothing)
        assert r.score == float(f) == from_stats.score


# ----------------------------------------------------------------------------- empty and bad input


def test_empty_candidate_and_reference_have_defined_scores_with_a_reason() -> None:
    r = chrf("", ["the cat"])
    assert r.score == 0.0 and "candidate is empty" in r.reason
    r = chrf("   ", ["the cat"])
    assert r.score == 0.0 and "candidate is empty" in r.reason
    r = chrf("the cat", [""])
    assert r.score == 0.0 and "reference 0 is empty" in r.reason
    r = chrf("", [""])
    assert r.score == 0.0 and "candidate is empty" in r.reason and "reference 0 is empty" in r.reason
    r = chrf("the cat", ["", "the cat"])
    assert r.score == 1.0 and r.best_reference == 1 and "reference 0 is empty" in r.reason
    r = corpus_chrf(["", "a"], [["b"], [""]])
    assert r.score == 0.0 and "1 of 2 segments have an empty reference" in r.reason


def _quietly(fn, *args):
    """``fn(*args)`` without the reference-layout hints (before an error; a square corpus read both ways)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mtlearn.core.references.ReferenceLayoutWarning)
        return fn(*args)


@pytest.mark.parametrize(
    "call, error, start",
    [
        (lambda: chrf("a", []), ValueError, "references:"),
        (lambda: chrf("a", None), TypeError, "references:"),
        (lambda: chrf("a", [3]), TypeError, r"references\[0\]:"),
        (lambda: chrf(["a", "b"], ["a"]), TypeError, "candidate:"),
        (lambda: chrf(None, ["a"]), TypeError, "candidate:"),
        (lambda: corpus_chrf(["a", "b"], [["a"]]), ValueError, "references:"),
        (lambda: corpus_chrf([], []), ValueError, "candidates:"),
        (lambda: corpus_chrf("a b", [["a"]]), TypeError, "candidates:"),
        (lambda: _quietly(corpus_chrf, ["a"], "a"), TypeError, "references:"),
        (lambda: corpus_chrf(["a", 3], [["a"], ["b"]]), TypeError, r"candidates\[1\]:"),
        (lambda: corpus_chrf(["a", "b"], [["a"], []]), ValueError, r"references\[1\]:"),
        (lambda: corpus_chrf(["a", "b"], [["a"], ["b", None]]), TypeError, r"references\[1\]\[1\]:"),
        (lambda: corpus_chrf(["a"], [["a"]]).segments[1], IndexError, "index:"),
    ],
)
def test_bad_input_names_the_argument(call, error: type, start: str) -> None:
    with pytest.raises(error, match="^" + start):
        call()


def test_one_bare_reference_string_is_one_reference() -> None:
    assert chrf("the cat", "the cat").score == 1.0
    assert corpus_chrf(["the cat"], ["the cat"]).score == 1.0


def test_word_orders_only_and_char_orders_only() -> None:
    r = chrf("the cat sat", ["the cat sat"], char_order=0, word_order=2)
    assert [o.label for o in r.orders] == ["w1", "w2"] and r.score == 1.0
    assert chrf("a", ["a"], char_order=1).orders[0].label == "c1"


def test_no_match_with_eps_smoothing_says_why() -> None:
    r = chrf("xyz", ["abc"], eps_smoothing=True)
    assert 0 < r.score < 1e-15 and "no n-gram of any order matches" in r.reason and "epsilon" in r.reason


# ----------------------------------------------------------------------------- the corpus boundary


def test_corpus_segments_are_the_shared_lazy_segments() -> None:
    # One Segments class for every metric (core/corpus.py), with chrF's extra: the kept references.
    r = corpus_chrf(["ab ab", "abc", "x"], [["abc"], ["xyz", "abc"], ["y"]], char_order=2)
    assert isinstance(r.segments, Segments)
    assert r.segments.best_references() == [0, 1, 0]
    assert [s.score for s in r.segments[0:2]] == [chrf("ab ab", ["abc"], char_order=2).score, 1.0]
    assert r.segments.stats_of(-1) == ChrfStats((1, 0), (1, 0), (0, 0), 2, 0) == r.segments.stats()[-1]
    assert repr(r.segments) == "<ChrfSegments: 3 segments>"


def test_a_square_corpus_is_scored_both_ways_through_the_boundary() -> None:
    # corpus_call: the layout the shapes cannot tell is scored as streams too, and the warning says both.
    cands = ["the cat sat on the mat today", "a dog barked at the postman"]
    square = [["the cat sat on the mat today", "a dog barked at the postman"],
              ["a cat was sitting on the mat", "the dog barked at a man"]]
    with pytest.warns(mtlearn.core.references.AmbiguousLayoutWarning, match="corpus_chrf") as caught:
        r = corpus_chrf(cands, square)
    assert caught[0].filename == __file__  # the warning points at the caller's line
    as_streams = _quietly(corpus_chrf, cands, [list(refs) for refs in zip(*square)])
    assert f"{r.score:.4f} as read" in str(caught[0].message) and f"{as_streams.score:.4f} as streams" in str(
        caught[0].message)

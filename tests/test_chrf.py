"""chrF and chrF++ by hand: small examples worked with exact fractions, every bad input, the API's shape.

sacreBLEU parity on random inputs is in test_chrf_sacrebleu.py, on WMT22 in test_chrf_wmt22.py.
"""

from __future__ import annotations

import json
import random
import warnings
from dataclasses import FrozenInstanceError
from fractions import Fraction

import pytest

import mtlearn
import mtlearn.core.references
from mtlearn.metrics.chrf import formulas as F
from mtlearn.metrics.chrf.score import (
    ChrfOrder,
    ChrfResult,
    ChrfStats,
    chrf,
    chrf_from_stats,
    corpus_chrf,
    sum_stats,
)

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


def test_split_punctuation_rule() -> None:
    assert F.split_punctuation("(hi) ok, 'x' a") == ["(hi", ")", "ok", ",", "'x", "'", "a"]
    assert F.split_punctuation(",") == [","]
    assert F.split_punctuation("...") == ["..", "."]
    assert F.split_punctuation("«hi»") == ["«hi»"]  # only ASCII punctuation


def test_best_reference_and_why() -> None:
    r = chrf("the cat sat", ["a dog", "the cat sat"])
    assert r.best_reference == 1 and r.score == 1.0
    assert "highest chrF of the 2 references" in r.reference_choice
    assert r.reference_scores[1] == 1.0 and r.reference_scores[0] < 1.0
    tie = chrf("xyz", ["abc", "def"])
    assert tie.best_reference == 0 and "tie" in tie.reference_choice and "first" in tie.reference_choice
    last = chrf("xyz", ["abc", "def"], reference_ties="last")
    assert last.best_reference == 1 and "last" in last.signature


def _quietly(fn, *args):
    """``fn(*args)`` without the reference-layout hint that comes before its error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mtlearn.core.references.ReferenceLayoutWarning)
        return fn(*args)


@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")  # a 2 x 2 corpus, per segment
def test_reference_ties_change_the_corpus_recall() -> None:
    # Both references score 0 for segment 0, but their lengths enter the corpus recall.
    cands, refs = ["good", "the cat"], [["OK.", "Okay."], ["the cat", "the cat"]]
    first = corpus_chrf(cands, refs)
    last = corpus_chrf(cands, refs, reference_ties="last")
    assert first.segments.best_references() == [0, 0] and last.segments.best_references() == [1, 1]
    assert first.stats.reference[0] == 3 + 6 and last.stats.reference[0] == 5 + 6
    assert last.score < first.score


# ----------------------------------------------------------------------------- corpus = summed stats


def test_corpus_is_summed_statistics() -> None:
    cands = ["the cat sat on the mat", "a dog", ""]
    refs = [["the cat is on the mat"], ["the dog", "a dog barks"], ["nothing"]]
    r = corpus_chrf(cands, refs, word_order=2)
    per = [chrf(c, rs, word_order=2) for c, rs in zip(cands, refs)]
    assert sum_stats(p.stats for p in per) == r.stats
    assert r.segments.stats() == [p.stats for p in per]
    assert r.segments.stats_of(1) == per[1].stats
    assert chrf_from_stats(r.stats).score == r.score
    assert r.segments[1].score == per[1].score and r.segments[-1].candidate == ""
    assert [s.best_reference for s in r.segments[0:2]] == [0, 1]
    assert r.best_reference is None and r.candidate is None and r.references == ()
    assert "1 of 3 candidates are empty" in r.reason


def test_stats_add_and_check_orders() -> None:
    a = ChrfStats((1,), (2,), (1,), 1, 0)
    assert (a + a).reference == (4,)
    with pytest.raises(ValueError, match="^stats:"):
        a + ChrfStats((1, 1), (1, 1), (1, 1), 1, 1)
    with pytest.raises(ValueError, match="^stats:"):
        sum_stats([])
    with pytest.raises(TypeError, match="^stats:"):
        chrf_from_stats([1, 2, 3])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^row:"):
        ChrfStats.from_row([1, 2], 1, 0)


@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")  # random square corpora are per segment
def test_fast_path_equals_the_formula_steps_on_random_text() -> None:
    # corpus_chrf counts with a fused fast path; chrf() (and segments[i]) with formulas.segment_counts.
    rng = random.Random(11)
    alphabet = "aab c.,!(ÄÖ )-"
    for _ in range(60):
        n = rng.randint(1, 6)
        cands = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(n)]
        refs = [["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
                 for _ in range(rng.randint(1, 3))] for _ in range(n)]
        opts = dict(char_order=rng.randint(0, 7), word_order=rng.randint(1, 3),
                    whitespace=rng.random() < 0.3, lowercase=rng.random() < 0.3,
                    eps_smoothing=rng.random() < 0.3, reference_ties=rng.choice(["first", "last"]))
        fast = corpus_chrf(cands, refs, **opts)
        plain = [chrf(c, rs, **opts) for c, rs in zip(cands, refs)]
        assert fast.segments.stats() == [p.stats for p in plain]
        assert fast.segments.best_references() == [p.best_reference for p in plain]


def test_float_choice_key_equals_the_exact_score() -> None:
    rng = random.Random(3)
    for _ in range(300):
        counts = []
        for _ in range(rng.randint(1, 8)):
            c, r = rng.randint(0, 40), rng.randint(0, 40)
            counts.append((c if r else 0, r, rng.randint(0, min(c, r)) if r else 0))
        beta = rng.choice([1, 2, 3, 0.5])
        exact = F.averaged_f(counts, beta)[2]
        assert abs(F.sacrebleu_float_score(counts, beta, False) / 100 - float(exact)) < 1e-14
        assert abs(F.sacrebleu_float_score(counts, beta, True) / 100 - float(F.eps_smoothed_f(counts, beta))) < 1e-14


# ----------------------------------------------------------------------------- results


def test_result_shape_and_serialisation() -> None:
    r = mtlearn.chrf("the cat sat.", ["the cat sat on the mat."], word_order=2)
    assert isinstance(r, ChrfResult) and all(isinstance(o, ChrfOrder) for o in r.orders)
    assert [o.label for o in r.orders] == ["c1", "c2", "c3", "c4", "c5", "c6", "w1", "w2"]
    assert r.signature.startswith("mtlearn-chrf|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|beta:2|version:")
    assert mtlearn.chrf("a", ["a"], eps_smoothing=True, lowercase=True).signature.split("|")[2:4] == [
        "case:lc", "eff:no"]
    d = json.loads(json.dumps(r.to_dict()))
    assert d["score"] == r.score and d["orders"][6]["kind"] == "word"
    c = mtlearn.corpus_chrf(["a b", "c"], [["a b"], ["c", "d"]])
    assert c.signature.split("|")[1] == "nrefs:var"
    assert len(json.loads(json.dumps(c.to_dict(segments=True)))["segments"]) == 2
    with pytest.raises(FrozenInstanceError):
        r.score = 0.5  # type: ignore[misc]


def test_ngram_table() -> None:
    r = chrf("the cat.", ["the cat sat."], word_order=2)
    rows = r.ngram_table("word", 1)
    assert [(row.ngram, row.candidate_count, row.reference_count, row.matched) for row in rows] == [
        (("the",), 1, 1, 1), (("cat",), 1, 1, 1), ((".",), 1, 1, 1), (("sat",), 0, 1, 0)]
    chars = r.ngram_table("char", 1)
    assert sum(row.matched for row in chars) == r.orders[0].matched
    assert sum(row.candidate_count for row in chars) == r.orders[0].candidate_count
    with pytest.raises(ValueError, match="^kind:"):
        r.ngram_table("byte", 1)
    with pytest.raises(ValueError, match="^n:"):
        r.ngram_table("word", 3)
    with pytest.raises(ValueError, match="^ngram_table:"):
        corpus_chrf(["a"], [["a"]]).ngram_table("char", 1)
    with pytest.raises(ValueError, match="^ngram_table:"):
        chrf_from_stats(r.stats).ngram_table("char", 1)


def test_explain_text_and_html() -> None:
    r = chrf("the cat.", ["the dog.", "the cat sat."], word_order=2)
    text = r.explain()
    assert "chrF++" in text and "reference 1" in text and "kept" in text
    assert "F_2 = (1 + 2^2) * P * R" in text and f"{r.score:.4f}" in text
    assert "word 2-grams" in text  # the tables of one segment
    html = r._repr_html_()
    assert "<table>" in html and "w2" in html and "reference kept" in html
    corpus = corpus_chrf(["a b"], [["a c"]]).explain()
    assert "a corpus of 1 segment (" in corpus
    assert "eps_smoothing" in chrf("ab", ["abc"], eps_smoothing=True).explain()
    assert "why:" in chrf("", ["abc"]).explain()


# ----------------------------------------------------------------------------- bad input (issue §4)


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


@pytest.mark.parametrize(
    "call, error, start",
    [
        (lambda: chrf("a", []), ValueError, "references:"),
        (lambda: chrf("a", None), TypeError, "references:"),
        (lambda: chrf("a", [3]), TypeError, r"references\[0\]:"),
        (lambda: chrf(["a", "b"], ["a"]), TypeError, "candidate:"),
        (lambda: chrf(None, ["a"]), TypeError, "candidate:"),
        (lambda: chrf("a", ["a"], char_order=0, word_order=0), ValueError, "char_order:"),
        (lambda: chrf("a", ["a"], char_order=-1), ValueError, "char_order:"),
        (lambda: chrf("a", ["a"], word_order=-2), ValueError, "word_order:"),
        (lambda: chrf("a", ["a"], char_order=2.0), TypeError, "char_order:"),
        (lambda: chrf("a", ["a"], word_order=True), TypeError, "word_order:"),
        (lambda: chrf("a", ["a"], beta=0), ValueError, "beta:"),
        (lambda: chrf("a", ["a"], beta=-1.5), ValueError, "beta:"),
        (lambda: chrf("a", ["a"], beta=float("nan")), ValueError, "beta:"),
        (lambda: chrf("a", ["a"], beta="2"), TypeError, "beta:"),
        (lambda: chrf("a", ["a"], lowercase="yes"), TypeError, "lowercase:"),
        (lambda: chrf("a", ["a"], whitespace=1), TypeError, "whitespace:"),
        (lambda: chrf("a", ["a"], eps_smoothing=None), TypeError, "eps_smoothing:"),
        (lambda: chrf("a", ["a"], reference_ties="best"), ValueError, "reference_ties:"),
        (lambda: corpus_chrf(["a", "b"], [["a"]]), ValueError, "references:"),
        (lambda: corpus_chrf([], []), ValueError, "candidates:"),
        (lambda: corpus_chrf("a b", [["a"]]), TypeError, "candidates:"),
        (lambda: _quietly(corpus_chrf, ["a"], "a"), TypeError, "references:"),
        (lambda: corpus_chrf(["a", 3], [["a"], ["b"]]), TypeError, r"candidates\[1\]:"),
        (lambda: corpus_chrf(["a", "b"], [["a"], []]), ValueError, r"references\[1\]:"),
        (lambda: corpus_chrf(["a", "b"], [["a"], ["b", None]]), TypeError, r"references\[1\]\[1\]:"),
        (lambda: corpus_chrf(["a"], [["a"]], char_order=0, word_order=0), ValueError, "char_order:"),
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


# --------------------------------------------------------------------------- bounded orders

HUGE_ORDERS = """
import json, time, tracemalloc
import mtlearn
from mtlearn.metrics.chrf import score
MAX_ORDER = getattr(score, "MAX_ORDER", 4096)
tracemalloc.start()
start = time.perf_counter()
errors = []
for kwargs in ({"char_order": 10**7}, {"char_order": 10**22}, {"word_order": 10**9}, {"char_order": MAX_ORDER + 1},
               {"char_order": 10**100}):
    try:
        mtlearn.chrf("the cat sat on the mat", ["the cat sat on a mat"], **kwargs)
    except ValueError as error:
        errors.append(str(error))
top = mtlearn.chrf("the cat sat on the mat", ["the cat sat on a mat"], char_order=MAX_ORDER, word_order=MAX_ORDER)
corpus = mtlearn.corpus_chrf(["the cat sat on the mat", "a dog"], [["the cat sat on a mat"], ["a dog barked"]],
                             char_order=MAX_ORDER)
low = mtlearn.chrf("the cat sat on the mat", ["the cat sat on a mat"], char_order=30, word_order=30)
print(json.dumps({"seconds": time.perf_counter() - start, "peak": tracemalloc.get_traced_memory()[1],
                  "errors": errors, "top": top.score, "explain": len(top.explain()), "reason": top.reason,
                  "corpus": corpus.score, "low": low.score}))
"""


def _run_bounded(code: str, timeout: float = 120) -> dict:
    """``code`` in a fresh interpreter (it prints one JSON line); a failure, not a hang, if it runs over ``timeout`` s."""
    import subprocess
    import sys

    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {timeout} s: the orders are not bounded")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_orders_are_bounded_with_the_reason() -> None:
    # Before: char_order=10**7 ran past 30 s; --char-order 1000000000 reached 844 MB in 20 s.
    out = _run_bounded(HUGE_ORDERS)
    assert len(out["errors"]) == 5
    for error, name in zip(out["errors"], ("char_order", "char_order", "word_order", "char_order", "char_order")):
        assert error.startswith(f"{name}: at most 4096, got ") and "averages one F per order" in error
    assert "got 10000000000000000000000 (" in out["errors"][1] and "a number of 101 digits" in out["errors"][4]
    # At the bound: the orders past both texts leave the score as it is with fewer orders (effective order),
    # and say so in one line each, not one per order.
    assert out["top"] > 0 and out["low"] == out["top"]
    assert out["explain"] < 20_000 and "-c4096, w" in out["reason"] and "-w4096 left out" in out["reason"]
    assert out["corpus"] > 0

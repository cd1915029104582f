"""Bad input: a ValueError/TypeError naming the argument, or a defined score with the reason.

Every case also checks that no ZeroDivisionError, KeyError or AssertionError escapes.
"""

from __future__ import annotations

import warnings

import pytest

import mtlearn
from mtlearn.metrics.bleu.score import BleuStats, bleu_from_stats


def test_empty_candidate_scores_zero_with_reason():
    for empty in ("", [], "   "):
        result = mtlearn.bleu(empty, ["the cat sat"])
        assert result.score == 0.0 and result.brevity_penalty == 0.0
        assert "candidate is empty" in result.reason
        assert result.candidate_length == 0


def test_empty_candidate_in_a_corpus_is_counted_in_the_reason():
    result = mtlearn.corpus_bleu(["", "the cat sat"], [["the cat"], ["the cat sat"]], max_order=2)
    assert "1 of 2 candidates are empty" in result.reason
    assert result.segments[0].score == 0.0 and "candidate is empty" in result.segments[0].reason
    assert result.candidate_length == 3


def test_empty_reference_is_a_defined_result_with_reason():
    result = mtlearn.bleu("the cat", [""])
    assert result.score == 0.0 and result.reference_length == 0
    assert "reference 0 is empty" in result.reason
    # An empty reference among others only loses its vote.
    other = mtlearn.bleu("the cat", ["", "the cat"], max_order=2)
    assert other.score == 1.0 and "reference 0 is empty" in other.reason


def test_no_references():
    with pytest.raises(ValueError, match="^references: no references given"):
        mtlearn.bleu("the cat", [])
    with pytest.raises(ValueError, match=r"^references\[1\]: no references given"):
        mtlearn.corpus_bleu(["a", "b"], [["a"], []])


def test_candidate_shorter_than_n():
    result = mtlearn.bleu("the cat", ["the cat sat"])  # no 3-grams, no 4-grams
    assert result.score == 0.0 and result.totals == (2, 1, 0, 0)
    assert "no 3-grams" in result.reason and "effective_order=True" in result.reason
    effective = mtlearn.bleu("the cat", ["the cat sat"], effective_order=True)
    assert effective.score > 0 and effective.orders_used == 2
    assert "effective order keeps orders 1..2" in effective.reason
    assert mtlearn.d2l_bleu("A B".split(), "A B C".split(), 3).reason.startswith(
        "the prediction has 2 tokens, no 3-grams")


def test_d2l_divisions_by_zero_are_defined():
    empty = mtlearn.d2l_bleu([], "A B".split(), 2)
    assert empty.score == 0.0 and empty.penalty_exponent is None and "empty" in empty.reason
    short = mtlearn.d2l_bleu(["A"], ["A", "B"], 2)  # the document's code: 0 / (1 - 2 + 1)
    assert short.score == 0.0 and short.totals == (1, 0) and "p_2 is taken as 0" in short.reason
    with pytest.raises(ValueError, match="^k: "):
        mtlearn.d2l_bleu(["A"], ["A"], 0)
    with pytest.raises(TypeError, match="^k: "):
        mtlearn.d2l_bleu(["A"], ["A"], "2")


def test_mismatched_corpus_lengths():
    with pytest.raises(ValueError, match="^references: 1 reference lists for 2 candidates"):
        mtlearn.corpus_bleu(["a b", "c d"], [["a b"]])
    with pytest.raises(ValueError, match="^candidates: the corpus is empty"):
        mtlearn.corpus_bleu([], [])


def test_non_string_tokens():
    with pytest.raises(TypeError, match=r"^candidate: token 1 is int"):
        mtlearn.bleu(["the", 3], ["the cat"])
    with pytest.raises(TypeError, match=r"^references\[0\]: token 1 is NoneType"):
        mtlearn.bleu("the cat", [["the", None]])
    with pytest.raises(TypeError, match=r"^candidates\[1\]: expected a string"):
        mtlearn.corpus_bleu(["a", None], [["a"], ["b"]])
    with pytest.raises(TypeError, match=r"^references\[0\]\[1\]: token 1 is int"):
        mtlearn.corpus_bleu(["a b"], [["a b", ["x", 5]]])
    with pytest.raises(TypeError, match="^pred_tokens: token 0 is int"):
        mtlearn.d2l_bleu([1], ["a"], 1)


def test_weights_that_do_not_match_max_order():
    with pytest.raises(ValueError, match="^weights: 2 weights given for max_order=4"):
        mtlearn.bleu("a b", ["a b"], weights=[0.5, 0.5])


def test_weights_that_do_not_sum_to_one_warn_but_score():
    with pytest.warns(UserWarning, match="^weights: they sum to 1.1"):
        result = mtlearn.bleu("a b c", ["a b d"], weights=[0.5, 0.6], max_order=2)
    # exp(0.5 log(2/3) + 0.6 log(1/2)), computed by hand
    assert result.score == pytest.approx((2 / 3) ** 0.5 * 0.5 ** 0.6, rel=1e-12)
    assert "weights:0.5,0.6" in result.signature


def test_negative_weights():
    with pytest.raises(ValueError, match="^weights: weight 1 is negative"):
        mtlearn.bleu("a b", ["a b"], weights=[1.5, -0.5], max_order=2)


def test_non_numeric_weights():
    with pytest.raises(TypeError, match="^weights: weight 0 is str"):
        mtlearn.bleu("a b", ["a b"], weights=["0.5", 0.5], max_order=2)


def test_unknown_tokenizer_even_for_token_lists():
    with pytest.raises(ValueError, match="^tokenize: unknown value 'moses'"):
        mtlearn.bleu("a b", ["a b"], tokenize="moses")
    with pytest.raises(ValueError, match="^tokenize: unknown value 'moses'"):
        mtlearn.bleu(["a", "b"], [["a", "b"]], tokenize="moses")


def test_unknown_smoothing():
    with pytest.raises(ValueError, match="^smoothing: unknown value 'expo'"):
        mtlearn.bleu("a b", ["a b"], smoothing="expo")


def test_smooth_value_for_a_method_without_one_or_out_of_range():
    with pytest.raises(ValueError, match="^smooth_value: smoothing 'exp' takes no value"):
        mtlearn.bleu("a b", ["a b"], smoothing="exp", smooth_value=0.2)
    with pytest.raises(ValueError, match="^smooth_value: must be a positive"):
        mtlearn.bleu("a b", ["a b"], smoothing="floor", smooth_value=-1)


def test_bad_max_order_and_flags():
    with pytest.raises(ValueError, match="^max_order: must be at least 1"):
        mtlearn.bleu("a b", ["a b"], max_order=0)
    with pytest.raises(TypeError, match="^max_order: "):
        mtlearn.bleu("a b", ["a b"], max_order=2.0)
    with pytest.raises(TypeError, match="^lowercase: "):
        mtlearn.bleu("a b", ["a b"], lowercase="yes")


def test_method6_needs_a_trigram_match_and_order_three():
    with pytest.raises(ValueError, match="^smoothing: method6 needs at least one trigram match"):
        mtlearn.bleu("a b c d", ["a b x d"], smoothing="method6")
    with pytest.raises(ValueError, match="^smoothing: method6 needs max_order >= 3"):
        mtlearn.bleu("a b", ["a b"], smoothing="method6", max_order=2)


def test_stats_of_the_wrong_kind():
    with pytest.raises(TypeError, match="^stats: expected BleuStats"):
        bleu_from_stats([3, 3, 3, 3])
    short = BleuStats(2, 2, (2, 1), (2, 1), (2, 1))
    with pytest.raises(ValueError, match="^stats: counted up to order 2"):
        bleu_from_stats(short, max_order=4)
    with pytest.raises(ValueError, match="^stats: method5/method7 need statistics up to order 5"):
        bleu_from_stats(short, max_order=2, smoothing="method5")


def test_ngram_table_of_a_corpus_result_says_where_to_look():
    result = mtlearn.corpus_bleu(["a b"], [["a b"]])
    with pytest.raises(ValueError, match=r"^ngram_table: this is a corpus result"):
        result.ngram_table(1)
    with pytest.raises(IndexError, match="^index: segment 5 out of range"):
        result.segments[5]


def test_no_deep_errors_on_degenerate_inputs():
    cases = [("", [""]), ([], [[]]), ("a", ["a"]), ("a a a", ["a"])]
    methods = ["none", "floor", "add-k", "exp"] + [f"method{i}" for i in range(8)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no stray warnings either
        for cand, refs in cases:
            for method in methods:
                for effective in (False, True):
                    try:
                        result = mtlearn.bleu(cand, refs, smoothing=method, effective_order=effective)
                    except ValueError as err:
                        assert str(err).startswith("smoothing: method6")
                        continue
                    assert 0.0 <= result.score <= 1.0

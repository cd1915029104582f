"""mtlearn.metrics.bleu.d2l against a transcription of the Chinese blog post's own code."""

from __future__ import annotations

import collections
import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import mtlearn


def document_bleu(pred_tokens, label_tokens, k):
    """The Chinese blog post's code, transcribed as printed (''.join keys and all)."""
    len_pred, len_label = len(pred_tokens), len(label_tokens)
    score = math.exp(min(0, 1 - len_label / len_pred))
    for n in range(1, k + 1):
        num_matches, label_subs = 0, collections.defaultdict(int)
        for i in range(len_label - n + 1):
            label_subs[''.join(label_tokens[i: i + n])] += 1
        for i in range(len_pred - n + 1):
            if label_subs[''.join(pred_tokens[i: i + n])] > 0:
                num_matches += 1
                label_subs[''.join(pred_tokens[i: i + n])] -= 1
        score *= math.pow(num_matches / (len_pred - n + 1), math.pow(0.5, n))
    return score


letters = st.lists(st.sampled_from("ABCD"), min_size=0, max_size=10)


@settings(max_examples=200, deadline=None)
@given(pred=letters, label=letters, k=st.integers(1, 4))
def test_equals_the_documents_code_where_it_is_defined(pred, label, k):
    # One-letter tokens cannot collide under ''.join; the code is defined when len_pred >= k.
    result = mtlearn.d2l_bleu(pred, label, k)
    if len(pred) >= k:
        assert result.score == document_bleu(pred, label, k)
        assert result.reason is None or "= 0 (no matching" in result.reason
    else:
        assert result.score == 0.0 and result.reason


@settings(max_examples=100, deadline=None)
@given(pred=letters, label=letters, k=st.integers(1, 4))
def test_every_factor_multiplies_to_the_score(pred, label, k):
    result = mtlearn.d2l_bleu(pred, label, k)
    product = result.penalty
    for p, e, f in zip(result.precisions, result.exponents, result.factors):
        assert f == (math.pow(float(p), float(e)))
        product *= f
    assert product == result.score
    if pred:
        assert result.penalty_exponent == min(Fraction(0), 1 - Fraction(len(label), len(pred)))


def test_tuple_keys_avoid_the_join_collision():
    # "a"+"bc" and "ab"+"c" both join to "abc": the document's code sees two label
    # bigrams "abc" and credits both of the prediction's ("ab", "c"); only one is real.
    pred, label = ["ab", "c", "ab", "c"], ["a", "bc", "x", "ab", "c"]
    result = mtlearn.d2l_bleu(pred, label, 2)
    assert result.precisions == (Fraction(2, 4), Fraction(1, 3))
    expected_with_tuples = math.exp(min(0, 1 - 5 / 4)) * (2 / 4) ** 0.5 * (1 / 3) ** 0.25
    assert result.score == expected_with_tuples
    with_join = math.exp(min(0, 1 - 5 / 4)) * (2 / 4) ** 0.5 * (2 / 3) ** 0.25
    assert document_bleu(pred, label, 2) == with_join


def test_explain_shows_each_factor():
    text = mtlearn.d2l_bleu("A B".split(), "A B C D E F".split(), 2).explain()
    assert "penalty = exp(min(0, 1 - 6/2)) = exp(-2) = 0.1353" in text
    assert "p_2 = 1/1 = 1.0000, exponent 1/4, factor 1.0000^(1/4) = 1.0000" in text
    assert text.strip().endswith("= 0.1353")


def test_strings_are_split_on_white_space():
    assert mtlearn.d2l_bleu("A B B C D", "A B C D E F", 3) == mtlearn.d2l_bleu(
        "A B B C D".split(), "A B C D E F".split(), 3)

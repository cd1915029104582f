"""Property tests: mtlearn's BLEU against sacreBLEU and NLTK on random token sequences.

Sequences are drawn from a five-word vocabulary so that repeated words (and
hence clipping) are the rule, not the exception.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter

import pytest
import sacrebleu
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

import mtlearn
from mtlearn.metrics.bleu.score import bleu_from_stats, sum_stats

WORDS = ["the", "cat", "a", "mat", "on"]
tokens = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12)
nonempty = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12)
reference_lists = st.lists(tokens, min_size=1, max_size=3)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHEN_CHERRY = [f"method{i}" for i in range(8)]


def _nltk(refs, cand, method, weights=(0.25, 0.25, 0.25, 0.25)):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # method0's "0 counts of n-gram overlaps" warning
        fn = getattr(nltk_bleu.SmoothingFunction(), method)
        return nltk_bleu.sentence_bleu(refs, cand, weights, smoothing_function=fn)


@SETTINGS
@given(cand=tokens, refs=reference_lists)
def test_sentence_bleu_equals_sacrebleu_effective_order_exp(cand, refs):
    theirs = sacrebleu.sentence_bleu(" ".join(cand), [" ".join(r) for r in refs],
                                     smooth_method="exp", tokenize="none", use_effective_order=True)
    ours = mtlearn.bleu(cand, refs, smoothing="exp", effective_order=True)
    assert abs(ours.score - theirs.score / 100) <= 1e-12
    assert list(ours.matches) == list(theirs.counts)
    assert (ours.candidate_length, ours.reference_length) == (theirs.sys_len, theirs.ref_len)


@SETTINGS
@given(cand=tokens, refs=reference_lists, method=st.sampled_from(["none", "floor", "add-k", "exp"]),
       effective=st.booleans(), order=st.integers(1, 5))
def test_sentence_bleu_equals_sacrebleu_every_method(cand, refs, method, effective, order):
    theirs = sacrebleu.metrics.BLEU(smooth_method=method, tokenize="none", effective_order=effective,
                                    max_ngram_order=order)
    expected = theirs.sentence_score(" ".join(cand), [" ".join(r) for r in refs]).score / 100
    ours = mtlearn.bleu(cand, refs, smoothing=method, effective_order=effective, max_order=order)
    assert abs(ours.score - expected) <= 1e-12


@SETTINGS
@given(cand=tokens, refs=reference_lists, method=st.sampled_from(CHEN_CHERRY))
def test_sentence_bleu_equals_nltk_for_every_chen_cherry_method(cand, refs, method):
    try:
        expected = _nltk(refs, cand, method)
    except AssertionError:
        # NLTK's method6 asserts a non-zero trigram precision; mtlearn says so in a ValueError.
        assert method == "method6"
        with pytest.raises(ValueError, match="^smoothing: method6"):
            mtlearn.bleu(cand, refs, smoothing=method)
        return
    ours = mtlearn.bleu(cand, refs, smoothing=method)
    assert abs(ours.score - expected) <= 1e-12


@SETTINGS
@given(cand=nonempty, refs=reference_lists, method=st.sampled_from(CHEN_CHERRY),
       order=st.integers(3, 6))
def test_nltk_methods_with_other_orders(cand, refs, method, order):
    weights = (1 / order,) * order
    try:
        expected = _nltk(refs, cand, method, weights)
    except AssertionError:
        assume(False)
    ours = mtlearn.bleu(cand, refs, smoothing=method, max_order=order)
    assert abs(ours.score - expected) <= 1e-12


# random square corpora are per segment
@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")
@SETTINGS
@given(corpus=st.lists(st.tuples(tokens, reference_lists), min_size=1, max_size=6),
       method=st.sampled_from(["method0", "method1", "method2", "method3", "method4"]))
def test_corpus_bleu_equals_nltk_corpus_bleu(corpus, method):
    cands = [c for c, _ in corpus]
    refs = [r for _, r in corpus]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn = getattr(nltk_bleu.SmoothingFunction(), method)
        expected = nltk_bleu.corpus_bleu(refs, cands, smoothing_function=fn)
    ours = mtlearn.corpus_bleu(cands, refs, smoothing=method)
    assert abs(ours.score - expected) <= 1e-12


# random square corpora are per segment
@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")
@SETTINGS
@given(corpus=st.lists(st.tuples(tokens, reference_lists), min_size=1, max_size=6),
       method=st.sampled_from(["none", "floor", "add-k", "exp"]))
def test_corpus_bleu_equals_sacrebleu_with_varying_reference_counts(corpus, method):
    # sacreBLEU wants reference *streams*; pad missing references with None... it does not
    # allow that, so give every segment the same number of references by repetition.
    width = max(len(r) for _, r in corpus)
    cands = [" ".join(c) for c, _ in corpus]
    refs = [[" ".join(r[min(k, len(r) - 1)]) for k in range(width)] for _, r in corpus]
    streams = [list(s) for s in zip(*refs)]
    expected = sacrebleu.corpus_bleu(cands, streams, smooth_method=method, tokenize="none").score / 100
    ours = mtlearn.corpus_bleu(cands, refs, smoothing=method)
    assert abs(ours.score - expected) <= 1e-12


@SETTINGS
@given(cand=tokens, refs=reference_lists,
       method=st.sampled_from(["none", "floor", "add-k", "exp"] + [
           m for m in CHEN_CHERRY if m not in ("method5", "method7")]),
       effective=st.booleans())
def test_score_is_between_zero_and_one(cand, refs, method, effective):
    try:
        score = mtlearn.bleu(cand, refs, smoothing=method, effective_order=effective).score
    except ValueError as err:  # method6 without a trigram match
        assert str(err).startswith("smoothing: method6")
        return
    assert 0.0 <= score <= 1.0 and not math.isnan(score)


@SETTINGS
@given(cand=tokens, refs=reference_lists, method=st.sampled_from(["method5", "method7"]),
       effective=st.booleans())
def test_method5_above_one_is_explained(cand, refs, method, effective):
    # NLTK's method5 averages from m_0 = p_1 + 1, so it can exceed 1 (NLTK agrees, see above).
    result = mtlearn.bleu(cand, refs, smoothing=method, effective_order=effective)
    assert result.score >= 0.0 and not math.isnan(result.score)
    if result.score > 1.0:
        assert "BLEU can exceed 1" in result.reason


@SETTINGS
@given(cand=nonempty, method=st.sampled_from(["none", "floor", "add-k", "exp", "method1", "method3"]))
def test_identical_candidate_and_reference_score_one(cand, method):
    effective = len(cand) < 4  # shorter than 4 tokens has no 4-grams: BLEU-4 needs effective order
    result = mtlearn.bleu(cand, [list(cand)], smoothing=method, effective_order=effective)
    assert result.score == pytest.approx(1.0, abs=1e-12)
    assert result.brevity_penalty == 1.0


@SETTINGS
@given(cand=tokens, refs=reference_lists, n=st.integers(1, 5))
def test_clipping_never_credits_more_than_a_reference_has(cand, refs, n):
    result = mtlearn.bleu(cand, refs, max_order=5)
    table = result.ngram_table(n)
    for row in table:
        brute = [Counter(zip(*[r[i:] for i in range(n)]))[row.ngram] for r in refs]
        assert list(row.reference_counts) == brute
        assert row.clipped_count == min(row.candidate_count, max(brute))
        assert row.clipped_count <= row.candidate_count
    # The fast set-based counting equals the table's brute-force sum.
    assert result.matches[n - 1] == sum(row.clipped_count for row in table)
    assert result.totals[n - 1] == max(0, len(cand) - n + 1)


@SETTINGS
@given(corpus=st.lists(st.tuples(tokens, reference_lists), min_size=1, max_size=6))
def test_corpus_statistics_are_the_sum_of_segment_statistics(corpus):
    cands = [c for c, _ in corpus]
    refs = [r for _, r in corpus]
    result = mtlearn.corpus_bleu(cands, refs, smoothing="exp")
    per_segment = [mtlearn.bleu(c, r, smoothing="exp").stats for c, r in corpus]
    assert result.segments.stats() == per_segment
    assert sum_stats(per_segment) == result.stats
    again = bleu_from_stats(result.stats, smoothing="exp")
    assert again.score == result.score

"""The code that runs is the code the notebooks show.

Notebook 01 shows the public step functions (``closest_ref_length``,
``precision_counts``/``modified_precision``, ``brevity_penalty``, ``geometric_mean``).
``bleu()``/``corpus_bleu()`` call them, or a fast variant of them; here every
fast variant is proved equal to the steps it stands for, on random cases, and the
scores are rebuilt from the steps alone. (METEOR's: tests/metrics/meteor/test_meteor_fast_equals_formulas.py.)
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mtlearn
from mtlearn.metrics.bleu.formulas import (
    brevity_penalty,
    closest_ref_length,
    geometric_mean,
    modified_precision,
    precision_counts,
)
from mtlearn.metrics.bleu.score import _extract, bleu_from_stats, sum_stats
from mtlearn.metrics.bleu.smoothing import SACREBLEU_METHODS, SMOOTHING_METHODS, smooth

# A small vocabulary: repeated n-grams (and so clipping) are the rule, not the exception.
WORDS = ["the", "cat", "a", "mat", "on", "sat"]
tokens = st.lists(st.sampled_from(WORDS), max_size=14)
references = st.lists(tokens, min_size=1, max_size=4)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------------------ BLEU


@SETTINGS
@given(cand=tokens, refs=references, order=st.integers(1, 6))
def test_fused_counting_equals_the_formula_steps(cand, refs, order):
    # _extract is corpus BLEU's hot path; it must be closest_ref_length and precision_counts.
    row = _extract(cand, refs, order)
    counts = [precision_counts(cand, refs, n) for n in range(1, order + 1)]
    expected = [
        len(cand),
        closest_ref_length(len(cand), [len(r) for r in refs]),
        *[m for m, _ in counts],
        *[t for _, t in counts],
    ]
    assert row == expected


def _mean_weights(result):
    # The weight each order has in the mean: orders left out by effective order have none,
    # and the Chen-Cherry family leaves out a precision still 0 (NLTK's rule).
    skip_zero = result.smoothing not in SACREBLEU_METHODS
    return [
        w if n < result.orders_used and not (skip_zero and p == 0) else 0.0
        for n, (w, p) in enumerate(zip(result.effective_weights, result.precisions))
    ]


@SETTINGS
@given(cand=tokens, refs=references, order=st.integers(1, 5), effective=st.booleans(),
       method=st.sampled_from(SMOOTHING_METHODS))
def test_sentence_bleu_is_built_from_the_steps(cand, refs, order, effective, method):
    assume(not (method == "method6" and order < 3))
    try:
        result = mtlearn.bleu(cand, refs, max_order=order, smoothing=method, effective_order=effective)
    except ValueError as error:  # method6 without a trigram match: NLTK's assertion, as a clear error
        assert "method6" in str(error)
        return
    c = len(cand)
    r = closest_ref_length(c, [len(ref) for ref in refs])
    counts = [precision_counts(cand, refs, n) for n in range(1, max(order, 5) + 1)]
    assert (result.candidate_length, result.reference_length) == (c, r)
    assert result.brevity_penalty == brevity_penalty(c, r)
    assert list(result.precision_fractions) == [modified_precision(cand, refs, n) for n in range(1, order + 1)]
    m5, t5 = counts[4]
    smoothed = smooth(
        method, matches=[m for m, _ in counts[:order]], totals=[t for _, t in counts[:order]],
        effective_order=effective, candidate_length=c, fivegram=(m5, t5 or 1),
    )
    assert result.precisions == tuple(float(p) for p in smoothed.precisions)
    assert result.orders_used == smoothed.orders
    if smoothed.skip_zero and counts[0][0] == 0:
        assert result.score == 0.0  # NLTK: no unigram matches
    else:
        assert result.score == brevity_penalty(c, r) * geometric_mean(result.precisions, _mean_weights(result))


@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")  # square corpora: read per segment, as meant
@SETTINGS
@given(segments=st.lists(st.tuples(tokens, references), min_size=1, max_size=5),
       method=st.sampled_from(["none", "exp", "floor", "add-k", "method1", "method3"]))
def test_corpus_bleu_sums_the_segments_steps(segments, method):
    cands = [c for c, _ in segments]
    refs = [r for _, r in segments]
    result = mtlearn.corpus_bleu(cands, refs, smoothing=method)
    per_segment = [mtlearn.bleu(c, r, smoothing=method).stats for c, r in segments]
    assert result.segments.stats() == per_segment
    assert result.stats == sum_stats(per_segment)
    assert result.reference_length == sum(closest_ref_length(len(c), [len(x) for x in r]) for c, r in segments)
    assert list(result.matches) == [sum(precision_counts(c, r, n)[0] for c, r in segments) for n in range(1, 5)]
    assert result.score == bleu_from_stats(sum_stats(per_segment), smoothing=method).score


def test_the_fused_counting_sees_clipping_across_references():
    # Papineni's "the the ..." against two references: clipped at 2, the larger single-reference count.
    cand = "the the the the the the the".split()
    refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    row = _extract(cand, refs, 2)
    assert row[2] == precision_counts(cand, refs, 1)[0] == 2
    assert Fraction(row[2], row[4]) == modified_precision(cand, refs, 1) == Fraction(2, 7)
    assert row[1] == closest_ref_length(7, [6, 7]) == 7

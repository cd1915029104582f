"""The code that runs is the code the notebooks show.

Notebooks 01 and 04 show the public step functions (``closest_ref_length``,
``precision_counts``/``modified_precision``, ``brevity_penalty``, ``geometric_mean``;
``precision``, ``recall``, ``f_mean``, ``fragmentation_penalty``, ``meteor_score_value``,
``count_crossings``, ``chunk_spans``). ``bleu()``/``corpus_bleu()`` and
``meteor()``/``corpus_meteor()`` call them, or a fast variant of them; here every
fast variant is proved equal to the steps it stands for, on random cases, and the
scores are rebuilt from the steps alone.
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
from mtlearn.metrics.meteor.formulas import (
    chunk_spans,
    count_chunks,
    count_crossings,
    f_mean,
    fragmentation,
    fragmentation_penalty,
    meteor_score_value,
    precision,
    recall,
    score_from_counts,
)
from mtlearn.metrics.meteor.score import (
    MeteorStats,
    _exact_numbers,
    _exact_parameters,
    _numbers,
    _Options,
    _score_value,
)

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


# ------------------------------------------------------------------------------ METEOR

# Parameters a student might choose: exact decimals for alpha and gamma, whole and
# fractional beta (a fractional beta has a float penalty, and no integer shortcut).
alphas = st.sampled_from([0.9, 0.5, 0.0, 1.0, 0.85, 0.75, Fraction(2, 3)])
betas = st.sampled_from([3.0, 3, 1, 2.0, 0, 4, 0.5, 1.5])
gammas = st.sampled_from([0.5, 0.0, 1.0, 0.25, 0.6, Fraction(1, 3)])


@st.composite
def meteor_counts(draw):
    wt = draw(st.integers(0, 80))
    wr = draw(st.integers(0, 80))
    m = draw(st.integers(0, min(wt, wr)))
    c = draw(st.integers(1, m)) if m else 0
    return m, wt, wr, c


def _steps(m, wt, wr, c, alpha, beta, gamma):
    """METEOR from its counts, through the public steps only (notebook 04's code)."""
    p, r = precision(m, wt), recall(m, wr)
    f = f_mean(p, r, alpha)
    pen = fragmentation_penalty(c, m, beta, gamma)
    value = meteor_score_value(f, pen)
    return dict(
        precision=p, recall=r, f_mean=f, fragmentation=fragmentation(c, m), penalty=pen,
        score=float(value), score_exact=value if isinstance(value, Fraction) else None,
    )


@SETTINGS
@given(counts=meteor_counts(), alpha=alphas, beta=betas, gamma=gammas)
def test_meteor_numbers_are_the_formula_steps(counts, alpha, beta, gamma):
    opts = _Options((), alpha, beta, gamma, "crossings", True, "whitespace")
    steps = _steps(*counts, alpha, beta, gamma)
    assert _numbers(MeteorStats(*counts), opts) == steps


@SETTINGS
@given(counts=meteor_counts(), alpha=alphas, beta=betas, gamma=gammas)
def test_meteor_integer_shortcuts_equal_the_formula_steps(counts, alpha, beta, gamma):
    # The shortcuts serve segments with m, w_t, w_r > 0 and a whole beta (the exact case).
    m, wt, wr, c = counts
    opts = _Options((), alpha, beta, gamma, "crossings", True, "whitespace")
    params = _exact_parameters(opts)
    assume(params is not None and m and wt and wr)
    steps = _steps(m, wt, wr, c, alpha, beta, gamma)
    assert _exact_numbers(m, wt, wr, c, params) == steps
    assert _score_value(m, wt, wr, c, params) == steps["score"]


@SETTINGS
@given(counts=meteor_counts(), alpha=alphas, beta=betas, gamma=gammas)
def test_float_score_from_counts_is_the_formula_in_floats(counts, alpha, beta, gamma):
    # score_from_counts (for resampling) is the same formula in floats: equal up to rounding.
    m, wt, wr, c = counts
    fast = score_from_counts(m, wt, wr, c, float(alpha), float(beta), float(gamma))
    assert fast == pytest.approx(_steps(m, wt, wr, c, alpha, beta, gamma)["score"], rel=1e-12, abs=1e-15)


short = st.lists(st.sampled_from(WORDS), max_size=9)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cand=short, refs=st.lists(short, min_size=1, max_size=3), tie_break=st.sampled_from(["crossings", "chunks"]))
def test_meteor_result_is_its_alignment_through_the_steps(cand, refs, tie_break):
    result = mtlearn.meteor(cand, refs, stages=["exact"], tie_break=tie_break)
    for r in result.per_reference:
        pairs = list(r.pairs)
        assert r.crossings == count_crossings(pairs)
        assert r.chunks == count_chunks(pairs)
        assert r.chunk_spans == tuple(chunk_spans(pairs))
        steps = _steps(len(pairs), len(r.candidate), len(r.reference), r.chunks, 0.9, 3.0, 0.5)
        assert {k: getattr(r, k) for k in steps} == steps
    assert result.score == max(r.score for r in result.per_reference)


@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")  # square corpora: read per segment, as meant
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segments=st.lists(st.tuples(short, st.lists(short, min_size=1, max_size=2)), min_size=1, max_size=4))
def test_corpus_meteor_is_the_steps_on_summed_counts(segments):
    cands = [c for c, _ in segments]
    refs = [r for _, r in segments]
    corpus = mtlearn.corpus_meteor(cands, refs, stages=["exact"])
    best = [mtlearn.meteor(c, r, stages=["exact"]).stats for c, r in segments]
    assert corpus.segments.stats() == best
    total = sum(best, MeteorStats(0, 0, 0, 0))
    assert corpus.stats == total
    steps = _steps(total.matches, total.candidate_length, total.reference_length, total.chunks, 0.9, 3.0, 0.5)
    assert {k: getattr(corpus, k) for k in steps} == steps

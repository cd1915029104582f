"""BLEU's fast twins (mtlearn/metrics/bleu/fast.py) equal the formula steps the notebooks show.

Notebook 01 shows the public step functions (``closest_ref_length``,
``precision_counts``/``modified_precision``, ``brevity_penalty``, ``geometric_mean``).
``bleu()``/``corpus_bleu()`` call them, or a fast twin of them; here every twin is proved
equal to the steps it stands for -- on random cases (hypothesis), edge cases and a WMT22 de-en
sample -- and the scores are rebuilt from the steps alone.
"""

from __future__ import annotations

import random
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import tiers
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mtlearn
from mtlearn.core.tokenize import get_tokenizer
from mtlearn.metrics.bleu.fast import bleu_scores, count_width, segment_row
from mtlearn.metrics.bleu.formulas import (
    brevity_penalty,
    closest_ref_length,
    geometric_mean,
    modified_precision,
    precision_counts,
    uniform_weights,
)
from mtlearn.metrics.bleu.score import bleu_from_stats, resampling_scorer
from mtlearn.metrics.bleu.smoothing import SACREBLEU_METHODS, SMOOTHING_METHODS, smooth
from mtlearn.metrics.bleu.stats import BleuStats, sum_stats

# A small vocabulary: repeated n-grams (and so clipping) are the rule, not the exception.
WORDS = ["the", "cat", "a", "mat", "on", "sat"]
tokens = st.lists(st.sampled_from(WORDS), max_size=14)
references = st.lists(tokens, min_size=1, max_size=4)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(cand=tokens, refs=references, order=st.integers(1, 6))
def test_fused_counting_equals_the_formula_steps(cand, refs, order):
    # segment_row is corpus BLEU's hot path; it must be closest_ref_length and precision_counts.
    row = segment_row(cand, refs, order)
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
    assert list(result.precision_fractions) == [modified_precision(cand, refs, n)
                                                for n in range(1, order + 1)]
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
        assert (result.score
                == brevity_penalty(c, r) * geometric_mean(result.precisions, _mean_weights(result)))


# square corpora: read per segment, as meant
@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")
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
    assert result.reference_length == sum(closest_ref_length(len(c), [len(x) for x in r])
                                          for c, r in segments)
    assert list(result.matches) == [sum(precision_counts(c, r, n)[0] for c, r in segments)
                                    for n in range(1, 5)]
    assert result.score == bleu_from_stats(sum_stats(per_segment), smoothing=method).score


def test_the_fused_counting_sees_clipping_across_references():
    # Papineni's "the the ..." against two references: clipped at 2, the larger single-reference count.
    cand = "the the the the the the the".split()
    refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    row = segment_row(cand, refs, 2)
    assert row[2] == precision_counts(cand, refs, 1)[0] == 2
    assert Fraction(row[2], row[4]) == modified_precision(cand, refs, 1) == Fraction(2, 7)
    assert row[1] == closest_ref_length(7, [6, 7]) == 7


@pytest.mark.parametrize("cand, refs", [
    ([], [["a"]]), (["a"], [[]]), ([], [[]]), (["a", "a"], [["a"], ["a", "a", "a"]]),
    (["a", "b"], [["a", "b", "c"], ["a"]]), (["x"] * 9, [["x"] * 3, ["x", "y"] * 4]),
])
@pytest.mark.parametrize("order", [1, 4, 12])
def test_fused_counting_edge_cases(cand, refs, order):
    row = segment_row(cand, refs, order)
    assert row[:2] == [len(cand), closest_ref_length(len(cand), [len(r) for r in refs])]
    assert row[2:] == [m for n in range(1, order + 1) for m in [precision_counts(cand, refs, n)[0]]] + \
        [precision_counts(cand, refs, n)[1] for n in range(1, order + 1)]


def test_count_width_stops_at_the_longest_candidate_but_keeps_five_orders():
    # Orders past the candidate have no n-gram; NLTK's method5/method7 read the 5-grams whatever the order.
    assert ([count_width(4, 100), count_width(4096, 3), count_width(4096, 40), count_width(2, 0)]
            == [4, 5, 40, 2])


def test_repeated_credit_equals_the_plain_steps_on_long_repetitive_segments():
    tokens = st.lists(st.sampled_from(["a", "b", "c"]), max_size=120)

    @settings(max_examples=150, deadline=None)
    @given(tokens, st.lists(tokens, min_size=1, max_size=3))
    def check(cand, refs):
        row = segment_row(cand, refs, 6)
        for n in range(1, 7):
            m, t = precision_counts(cand, refs, n)
            assert (row[1 + n], row[7 + n]) == (m, t)

    check()


# ------------------------------------------------------------------------------ the paired test's scorer


def _formula_score(row: list[int], order: int, smoothing: str) -> float:
    """BLEU of one row of summed statistics, by the formula steps alone: smooth, BP, the weighted mean."""
    c, r, matches, totals = row[0], row[1], row[2:2 + order], row[2 + order:2 + 2 * order]
    precisions = smooth(smoothing, matches=matches, totals=totals).precisions
    return brevity_penalty(c, r) * geometric_mean(precisions, uniform_weights(order))


def _random_bleu_sums(rng: random.Random, order: int) -> list[int]:
    c = rng.randint(0, 60)
    r = rng.randint(0, 60)
    totals = [max(0, c - n) for n in range(order)]
    matches = [rng.randint(0, t) if rng.random() > 0.2 else 0 for t in totals]
    return [c, r, *matches, *totals, *(t or 1 for t in totals)]


#: numpy's exp/log against math's: a few units in the last place.
SCORE_TOLERANCE = 1e-12


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), order=st.integers(1, 8), smoothing=st.sampled_from(["none", "exp"]))
def test_bleu_scores_equal_the_formula_steps(seed, order, smoothing):
    rng = random.Random(seed)
    rows = [_random_bleu_sums(rng, order) for _ in range(20)]
    got = bleu_scores(np.array(rows), order, smoothing)
    for row, value in zip(rows, got):
        expected = _formula_score(row, order, smoothing)
        assert abs(value - expected) <= SCORE_TOLERANCE * max(1.0, expected), row


@pytest.mark.parametrize("row", [
    [0, 5, 0, 0, 0, 0, 1, 1], [3, 0, 3, 2, 3, 2, 3, 2], [2, 6, 0, 0, 2, 1, 2, 1], [1, 1, 1, 0, 1, 0, 1, 1],
    [4, 4, 4, 3, 4, 3, 4, 3],
])
@pytest.mark.parametrize("smoothing", ["none", "exp"])
def test_bleu_scores_edge_cases_equal_the_formula_steps(row, smoothing):
    # Empty candidate, empty reference, no match, no bigram, a perfect match.
    got = bleu_scores(np.array([row]), 2, smoothing)[0]
    assert got == pytest.approx(_formula_score(row, 2, smoothing), rel=SCORE_TOLERANCE, abs=0)


@pytest.mark.parametrize("smoothing", ["none", "exp"])
@pytest.mark.parametrize("order", [1, 2, 4])
def test_bleu_scorer_equals_bleu_from_stats(smoothing, order):
    rng = random.Random(order)
    rows = [_random_bleu_sums(rng, order) for _ in range(500)]
    got = resampling_scorer(max_order=order, smoothing=smoothing)(np.array(rows))
    for row, value in zip(rows, got):
        k = order
        stats = BleuStats(row[0], row[1], tuple(row[2:2 + k]), tuple(row[2 + k:2 + 2 * k]),
                          tuple(row[2 + 2 * k:]))
        expected = bleu_from_stats(stats, max_order=order, smoothing=smoothing).score
        assert abs(value - expected) <= SCORE_TOLERANCE * max(1.0, expected), row


def test_bleu_scorer_other_options_use_bleu_from_stats():
    rng = random.Random(9)
    rows = [_random_bleu_sums(rng, 4) for _ in range(50)]
    got = resampling_scorer(smoothing="add-k", effective_order=True)(np.array(rows))
    expected = [bleu_from_stats(BleuStats(r[0], r[1], tuple(r[2:6]), tuple(r[6:10]), tuple(r[10:])),
                                smoothing="add-k", effective_order=True).score for r in rows]
    assert got.tolist() == expected


def test_the_paired_test_scores_resamples_with_the_scorer():
    scorer = mtlearn.study.significance.resampling_scorer("bleu", max_order=2)
    assert scorer(np.array([[2, 6, 2, 1, 2, 1, 2, 1]])) == pytest.approx([brevity_penalty(2, 6)])


# ------------------------------------------------------------------------------ WMT22


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


@pytest.mark.wmt22
def test_wmt22_the_twins_count_what_the_formulas_count(wmt22: Path) -> None:
    # A de-en system against references A and B, 13a tokens: the fused row is the formula steps',
    # and the sample's corpus score is the numpy scorer's on the summed row.
    refs = {x: _lines(wmt22 / "references" / f"generaltest2022.de-en.ref.{x}.en") for x in ("A", "B")}
    system = sorted((wmt22 / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))[0]
    hyps = _lines(system)
    lines = tiers.sample_lines(len(hyps), every=tiers.CHRF_EVERY)
    tok = get_tokenizer("13a")
    rows = []
    for i in lines:
        cand, both = tok(hyps[i]), [tok(refs["A"][i]), tok(refs["B"][i])]
        row = segment_row(cand, both, 4)
        counts = [precision_counts(cand, both, n) for n in range(1, 5)]
        assert row == [len(cand), closest_ref_length(len(cand), [len(r) for r in both]),
                       *[m for m, _ in counts], *[t for _, t in counts]], i
        rows.append(row + [t or 1 for t in row[6:10]])
    total = np.array(rows).sum(axis=0)
    result = mtlearn.corpus_bleu(tiers.subset(hyps, lines), [[refs["A"][i], refs["B"][i]] for i in lines],
                                 tokenize="13a", smoothing="exp")
    assert bleu_scores(total[None, :], 4, "exp")[0] == pytest.approx(result.score, rel=SCORE_TOLERANCE, abs=0)
    assert result.stats == sum_stats(result.segments.stats())


def test_bleu_scores_at_the_highest_order_warn_nothing_and_equal_the_formula():
    # exp smoothing doubles its denominator at every order without a match: 2^k overflows past 1023 orders
    # (numpy's "overflow encountered in power" reached the command line's stderr at --max-order 4096).
    order = 4096
    row = [3, 3, 2, 1, 0, *[0] * (order - 3), 3, 2, 1, *[0] * (order - 3), 3, 2, 1, *[1] * (order - 3)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = bleu_scores(np.array([row]), order, "exp")[0]
    assert got == _formula_score(row, order, "exp") == 0.0

"""Every faster twin in mtlearn/metrics/meteor/fast.py equals the formula it stands for.

Notebooks 03 and 04 show the formula steps (``precision``, ``recall``, ``f_mean``,
``fragmentation_penalty``, ``meteor_score_value``, ``count_crossings``, ``chunk_spans``);
``meteor()`` and ``corpus_meteor()`` run them, or a twin of them. Here every twin is proved
equal to its formula on random counts, parameters and alignments, on edge cases, and on a
sample of WMT22 de-en, and the scores are rebuilt from the steps alone: the code the
notebooks show is the code that runs, by proof.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import tiers
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mtlearn
from mtlearn.metrics.meteor.alignment import align_pairs
from mtlearn.metrics.meteor.fast import (
    crossings_and_chunks,
    exact_numbers,
    exact_parameters,
    resampling_scorer,
    score_from_counts,
    score_value,
)
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
)
from mtlearn.metrics.meteor.greedy import count_chunks_in_order
from mtlearn.metrics.meteor.matchers import resolve_stages
from mtlearn.metrics.meteor.options import MeteorOptions
from mtlearn.metrics.meteor.stats import MeteorStats, numbers

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORDS = ["the", "cat", "a", "mat", "on", "sat"]

# Parameters a student might choose: exact decimals for alpha and gamma, whole and
# fractional beta (a fractional beta has a float penalty, and no integer shortcut), up to the bound.
alphas = st.sampled_from([0.9, 0.5, 0.0, 1.0, 0.85, 0.75, Fraction(2, 3)])
betas = st.sampled_from([3.0, 3, 1, 2.0, 0, 4, 0.5, 1.5, 0.2, 64, 64.0])
gammas = st.sampled_from([0.5, 0.0, 1.0, 0.25, 0.6, Fraction(1, 3)])


@st.composite
def meteor_counts(draw):
    wt = draw(st.integers(0, 80))
    wr = draw(st.integers(0, 80))
    m = draw(st.integers(0, min(wt, wr)))
    c = draw(st.integers(1, m)) if m else 0
    return m, wt, wr, c


@st.composite
def alignments(draw):
    """A one-to-one alignment sorted by candidate index, as the aligner returns it."""
    n = draw(st.integers(0, 25))
    cands = sorted(draw(st.lists(st.integers(0, 40), min_size=n, max_size=n, unique=True)))
    refs = draw(st.permutations(draw(st.lists(st.integers(0, 40), min_size=n, max_size=n, unique=True))))
    return list(zip(cands, refs))


def _steps(m, wt, wr, c, alpha, beta, gamma):
    """METEOR from its counts, through the public steps only (notebook 04's code)."""
    p, r = precision(m, wt), recall(m, wr)
    f = f_mean(p, r, alpha)
    pen = fragmentation_penalty(c, m, beta, gamma)
    value = meteor_score_value(f, pen)
    return dict(
        precision=p,
        recall=r,
        f_mean=f,
        fragmentation=fragmentation(c, m),
        penalty=pen,
        score=float(value),
        score_exact=value if isinstance(value, Fraction) else None,
    )


# ------------------------------------------------------------------------------ the score from the counts


@SETTINGS
@given(counts=meteor_counts(), alpha=alphas, beta=betas, gamma=gammas)
def test_meteor_numbers_are_the_formula_steps(counts, alpha, beta, gamma):
    opts = MeteorOptions(alpha=alpha, beta=beta, gamma=gamma)
    assert numbers(MeteorStats(*counts), opts) == _steps(*counts, opts.alpha, opts.beta, opts.gamma)


@SETTINGS
@given(counts=meteor_counts(), alpha=alphas, beta=betas, gamma=gammas)
def test_meteor_integer_shortcuts_equal_the_formula_steps(counts, alpha, beta, gamma):
    # The shortcuts serve segments with m, w_t, w_r > 0 and a whole beta (the exact case).
    m, wt, wr, c = counts
    params = exact_parameters(alpha, beta, gamma)
    assume(params is not None and m and wt and wr)
    steps = _steps(m, wt, wr, c, alpha, beta, gamma)
    assert exact_numbers(m, wt, wr, c, params) == steps
    assert score_value(m, wt, wr, c, params) == steps["score"]


def test_integer_shortcuts_only_for_a_whole_beta():
    assert exact_parameters(0.9, 1.5, 0.5) is None and exact_parameters(0.9, 0.2, 0.5) is None
    assert (
        exact_parameters(0.9, 3.0, 0.5)
        == exact_parameters(Fraction(9, 10), 3, Fraction(1, 2))
        == (9, 10, 3, 1, 2)
    )


@SETTINGS
@given(counts=meteor_counts(), alpha=alphas, beta=betas, gamma=gammas)
def test_float_score_from_counts_is_the_formula_in_floats(counts, alpha, beta, gamma):
    # score_from_counts (for resampling) is the same formula in floats: equal up to rounding.
    m, wt, wr, c = counts
    fast = score_from_counts(m, wt, wr, c, float(alpha), float(beta), float(gamma))
    assert fast == pytest.approx(_steps(m, wt, wr, c, alpha, beta, gamma)["score"], rel=1e-12, abs=1e-15)


@SETTINGS
@given(rows=st.lists(meteor_counts(), min_size=1, max_size=20), alpha=alphas, beta=betas, gamma=gammas)
def test_the_resampling_scorer_is_score_from_counts_row_by_row(rows, alpha, beta, gamma):
    scores = resampling_scorer(alpha=alpha, beta=beta, gamma=gamma)(np.array(rows, dtype=np.int64))
    assert scores.dtype == np.float64
    assert scores.tolist() == [
        score_from_counts(*row, float(alpha), float(beta), float(gamma)) for row in rows
    ]


# ------------------------------------------------------------------------------ crossings and chunks


@SETTINGS
@given(pairs=alignments())
def test_one_pass_counts_equal_the_formulas(pairs):
    assert crossings_and_chunks(pairs) == (count_crossings(pairs), count_chunks(pairs))
    assert count_chunks_in_order(pairs) == count_chunks(pairs) == len(chunk_spans(pairs))


@pytest.mark.parametrize(
    "pairs, crossings, chunks",
    [
        ([], 0, 0),
        ([(0, 0)], 0, 1),
        ([(i, i) for i in range(6)], 0, 1),
        ([(i, 5 - i) for i in range(6)], 15, 6),
        ([(0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)], 8, 6),  # the digest's alignment (a)
        ([(0, 3), (1, 4), (2, 5), (3, 2), (4, 0), (5, 1)], 11, 3),  # alignment (b)
        ([(0, 1), (2, 2)], 0, 2),  # a gap in the candidate breaks a chunk
    ],
)
def test_one_pass_counts_on_edge_cases(pairs, crossings, chunks):
    assert (
        tuple(crossings_and_chunks(pairs))
        == (count_crossings(pairs), count_chunks(pairs))
        == (crossings, chunks)
    )


def test_the_random_one_pass_sample_of_the_search_tests():
    # The search's own check, kept: 300 random sorted alignments of up to 12 mappings.
    import random

    rng = random.Random(106)
    for _ in range(300):
        n = rng.randint(0, 12)
        pairs = sorted(zip(rng.sample(range(20), n), rng.sample(range(20), n)))
        assert crossings_and_chunks(pairs) == (count_crossings(pairs), count_chunks(pairs))


# ------------------------------------------------------------------------------ results built from the steps

short = st.lists(st.sampled_from(WORDS), max_size=9)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cand=short,
    refs=st.lists(short, min_size=1, max_size=3),
    tie_break=st.sampled_from(["crossings", "chunks"]),
)
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


@pytest.mark.filterwarnings(
    "ignore::mtlearn.core.references.AmbiguousLayoutWarning"
)  # square corpora: read per segment
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


# ------------------------------------------------------------------------------ WMT22


def _lines(path):
    return [line.lower().split() for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_twins_equal_the_formulas_on_a_wmt22_sample(wmt22):
    # Every sampled de-en segment of one system against reference A: the search's one-pass counts are the
    # formulas' counts of its pairs, and the segment's integer numbers are the formula steps of its counts.
    refs = _lines(wmt22 / "references" / "generaltest2022.de-en.ref.A.en")
    hyps = _lines(sorted((wmt22 / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))[0])
    stages = resolve_stages(["exact", "stem"])
    params = exact_parameters(0.9, 3.0, 0.5)
    checked = 0
    for i in tiers.sample_lines(len(refs)):
        found = align_pairs(hyps[i], refs[i], stages)
        pairs = list(found.pairs)
        assert (found.crossings, found.chunks) == (count_crossings(pairs), count_chunks(pairs)), i
        m, wt, wr = len(pairs), len(hyps[i]), len(refs[i])
        if m and wt and wr:
            assert exact_numbers(m, wt, wr, found.chunks, params) == _steps(
                m, wt, wr, found.chunks, 0.9, 3.0, 0.5
            )
            checked += 1
    assert checked > 20

"""mtlearn.study.correlation against independent references: brute force, the standard library,
numpy, exact enumeration and (where installed — it is not a dependency) scipy."""

from __future__ import annotations

import itertools
import math
import random
import statistics

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtlearn.study.correlation import (
    average_ranks,
    bootstrap_ci,
    bootstrap_counts,
    kendall_counts,
    kendall_tau,
    paired_bootstrap,
    paired_bootstrap_test,
    pearson,
    percentile,
    rank_sum_test,
    resampled_scores,
    spearman,
    wmt_kendall_like,
)

try:
    import scipy.stats as scipy_stats
except ImportError:  # scipy is only an optional cross-check
    scipy_stats = None
needs_scipy = pytest.mark.skipif(scipy_stats is None, reason="scipy not installed (optional cross-check)")

# Small integer values make ties frequent, which is where Kendall variants differ.
tied_lists = st.integers(min_value=2, max_value=25).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 4), min_size=n, max_size=n),
                        st.lists(st.integers(0, 4), min_size=n, max_size=n))
)


def brute_kendall(x, y):
    c = d = tx = ty = txy = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        sx, sy = x[i] - x[j], y[i] - y[j]
        if sx == 0 and sy == 0:
            txy += 1
        elif sx == 0:
            tx += 1
        elif sy == 0:
            ty += 1
        elif (sx > 0) == (sy > 0):
            c += 1
        else:
            d += 1
    return c, d, tx, ty, txy


# ----------------------------------------------------------------------------- Pearson, Spearman


def test_pearson_matches_statistics_correlation():
    rng = random.Random(1)
    for _ in range(20):
        x = [rng.gauss(0, 1) for _ in range(30)]
        y = [a * 0.5 + rng.gauss(0, 1) for a in x]
        assert pearson(x, y) == pytest.approx(statistics.correlation(x, y), abs=1e-12)


def test_spearman_matches_textbook_formula_without_ties():
    rng = random.Random(2)
    for _ in range(20):
        n = 12
        x = rng.sample(range(100), n)
        y = rng.sample(range(100), n)
        rx = {v: r for r, v in enumerate(sorted(x), 1)}
        ry = {v: r for r, v in enumerate(sorted(y), 1)}
        d2 = sum((rx[a] - ry[b]) ** 2 for a, b in zip(x, y))
        assert spearman(x, y) == pytest.approx(1 - 6 * d2 / (n * (n * n - 1)), abs=1e-12)


def test_average_ranks_share_ties():
    assert average_ranks([5, 1, 5, 5, 0]) == [4.0, 2.0, 4.0, 4.0, 1.0]


@needs_scipy
@settings(max_examples=60, deadline=None)
@given(tied_lists)
def test_pearson_spearman_agree_with_scipy(xy):
    x, y = xy
    if len(set(x)) < 2 or len(set(y)) < 2:
        return
    assert pearson(x, y) == pytest.approx(scipy_stats.pearsonr(x, y)[0], abs=1e-9)
    assert spearman(x, y) == pytest.approx(scipy_stats.spearmanr(x, y)[0], abs=1e-9)


# ----------------------------------------------------------------------------- Kendall


@settings(max_examples=150, deadline=None)
@given(tied_lists)
def test_kendall_counts_match_brute_force(xy):
    x, y = xy
    c = kendall_counts(x, y)
    assert (c.concordant, c.discordant, c.ties_x, c.ties_y, c.ties_both) == brute_kendall(x, y)


@settings(max_examples=100, deadline=None)
@given(tied_lists)
def test_kendall_tau_b_and_a_from_brute_force_counts(xy):
    x, y = xy
    c, d, tx, ty, txy = brute_kendall(x, y)
    n0 = len(x) * (len(x) - 1) // 2
    assert kendall_tau(x, y, variant="a") == pytest.approx((c - d) / n0)
    if n0 - tx - txy and n0 - ty - txy:
        expected = (c - d) / math.sqrt((n0 - tx - txy) * (n0 - ty - txy))
        assert kendall_tau(x, y) == pytest.approx(expected)


@settings(max_examples=100, deadline=None)
@given(tied_lists)
def test_kendall_tau_c_from_brute_force_counts(xy):
    # Stuart's tau-c = 2(C - D) / (n^2 (m - 1) / m), m the fewer distinct values of x and y.
    x, y = xy
    c, d, *_ = brute_kendall(x, y)
    n, m = len(x), min(len(set(x)), len(set(y)))
    if m < 2:
        with pytest.raises(ValueError, match="all values are equal, so tau-c is undefined"):
            kendall_tau(x, y, variant="c")
    else:
        assert kendall_tau(x, y, variant="c") == pytest.approx(2 * (c - d) / (n * n * (m - 1) / m))


def test_kendall_tau_c_by_hand():
    # C = 3, D = 2, n = 4, m = min(4 distinct x, 3 distinct y) = 3: 2 * 1 / (16 * 2 / 3) = 3/16.
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 2], variant="c") == 3 / 16


def test_kendall_on_a_large_sample_matches_brute_force():
    rng = random.Random(3)
    x = [rng.randint(0, 30) for _ in range(600)]
    y = [a + rng.randint(-10, 10) for a in x]
    c = kendall_counts(x, y)
    assert (c.concordant, c.discordant, c.ties_x, c.ties_y, c.ties_both) == brute_kendall(x, y)


@needs_scipy
@settings(max_examples=60, deadline=None)
@given(tied_lists)
def test_kendall_tau_b_agrees_with_scipy(xy):
    x, y = xy
    if len(set(x)) < 2 or len(set(y)) < 2:
        return
    assert kendall_tau(x, y) == pytest.approx(scipy_stats.kendalltau(x, y)[0], abs=1e-9)


# ----------------------------------------------------------------------------- WMT tau-like


def test_wmt_kendall_like_by_hand():
    # Segment 1: A (90) vs B (60): 30 apart, metric agrees -> concordant.
    #            A vs C (62): 28 apart, metric says C > A -> discordant.
    #            B vs C: 2 apart -> left out.
    # Segment 2: D (20) vs E (50): 30 apart, metric ties -> discordant (a tie).
    #            D vs F (45): exactly 25 apart -> left out ("more than 25").
    groups = [[(90, 0.9), (60, 0.5), (62, 0.95)], [(20, 0.3), (50, 0.3), (45, 0.1)]]
    r = wmt_kendall_like(groups)
    # E (50) vs F (45): 5 apart -> left out. So C=1, D=2 (1 tie), 3 left out.
    assert (r.concordant, r.discordant, r.metric_ties, r.human_close) == (1, 2, 1, 3)
    assert r.tau == pytest.approx((1 - 2) / 3)
    assert r.pairs == 3


def test_wmt_kendall_like_pairs_only_within_a_segment():
    # Across segments the human scores differ by 80, but such pairs must not count.
    groups = [[(10, 0.1)], [(90, 0.9)], [(10, 0.2), (90, 0.1)]]
    r = wmt_kendall_like(groups)
    assert (r.concordant, r.discordant) == (0, 1)


def test_wmt_kendall_like_threshold_zero_is_plain_discordance_count():
    rng = random.Random(4)
    h = [rng.randint(0, 100) for _ in range(15)]
    m = [rng.random() for _ in range(15)]
    r = wmt_kendall_like([list(zip(h, m))], threshold=0)
    c, d, tx, ty, txy = brute_kendall(h, m)  # tx: human tied only -> excluded (|diff| = 0)
    assert (r.concordant, r.discordant) == (c, d + ty)


# ----------------------------------------------------------------------------- bootstrap


def test_percentile_matches_numpy_linear():
    rng = random.Random(5)
    values = [rng.random() for _ in range(37)]
    for q in (0, 2.5, 25, 50, 97.5, 100):
        assert percentile(values, q) == pytest.approx(float(np.percentile(values, q)), abs=1e-15)


def test_bootstrap_ci_follows_its_documented_resampling_rule():
    x = [0.1, 0.4, 0.35, 0.8, 0.5, 0.9, 0.2]
    y = [1.0, 2.1, 1.9, 3.5, 2.2, 3.9, 1.1]
    ci = bootstrap_ci(pearson, x, y, n_resamples=300, seed=99)
    rng = random.Random(99)
    values = []
    for _ in range(300):
        idx = [int(rng.random() * len(x)) for _ in range(len(x))]
        xs, ys = [x[i] for i in idx], [y[i] for i in idx]
        if len(set(xs)) > 1:
            values.append(statistics.correlation(xs, ys))
    assert ci.n_valid == len(values)
    assert ci.low == pytest.approx(float(np.percentile(values, 2.5)), abs=1e-12)
    assert ci.high == pytest.approx(float(np.percentile(values, 97.5)), abs=1e-12)
    assert ci.estimate == pytest.approx(statistics.correlation(x, y))


def test_bootstrap_ci_skips_resamples_without_a_correlation():
    # With three systems some resamples draw one system three times: no correlation.
    ci = bootstrap_ci(pearson, [1, 2, 3], [1, 3, 2], n_resamples=500, seed=1)
    assert 0 < ci.n_valid < 500


def test_bootstrap_counts_rows_are_resamples():
    counts = bootstrap_counts(50, 200, seed=3)
    assert counts.shape == (200, 50)
    assert set(counts.sum(axis=1).tolist()) == {50}
    assert (bootstrap_counts(50, 200, seed=3) == counts).all()
    assert not (bootstrap_counts(50, 200, seed=4) == counts).all()


def test_resampled_scores_equal_summing_drawn_segments():
    rng = random.Random(6)
    stats = [(rng.randint(0, 5), rng.randint(5, 9)) for _ in range(20)]
    counts = bootstrap_counts(20, 30, seed=8)
    got = resampled_scores(stats, counts, lambda s: s[0] / s[1])
    for row, value in zip(counts.tolist(), got):
        drawn = [stats[i] for i, k in enumerate(row) for _ in range(k)]
        assert value == sum(a for a, _ in drawn) / sum(b for _, b in drawn)


def test_paired_bootstrap_p_value_is_share_of_lost_resamples():
    rng = random.Random(7)
    a = [(rng.randint(0, 1), 1) for _ in range(40)]
    b = [(rng.randint(0, 1), 1) for _ in range(40)]
    score = lambda s: s[0] / s[1]  # noqa: E731
    r = paired_bootstrap(a, b, score, n_samples=400, seed=5)
    counts = bootstrap_counts(40, 400, seed=5).tolist()
    obs = sum(x for x, _ in a) / 40 - sum(x for x, _ in b) / 40
    wins = 0
    for row in counts:
        sa = sum(k * a[i][0] for i, k in enumerate(row))
        sb = sum(k * b[i][0] for i, k in enumerate(row))
        wins += (sa > sb) if obs > 0 else (sb > sa)
    assert r.delta == pytest.approx(obs)
    assert r.wins == wins and r.p_value == pytest.approx((400 - wins) / 400)


def test_paired_bootstrap_identical_systems_and_dominance():
    a = [(1, 1), (0, 1), (1, 1), (1, 1)]
    same = paired_bootstrap(a, a, lambda s: s[0] / s[1], n_samples=100)
    assert (same.delta, same.p_value) == (0.0, 1.0)
    # B is wrong wherever A is, and on one more segment: A never loses, except on
    # resamples that miss segment 3 entirely (then they tie, which is not a win).
    b = [(1, 1), (0, 1), (0, 1), (1, 1)]
    r = paired_bootstrap(a, b, lambda s: s[0] / s[1], n_samples=1000, seed=1)
    misses = sum(1 for row in bootstrap_counts(4, 1000, seed=1).tolist() if row[2] == 0)
    assert r.p_value == pytest.approx(misses / 1000)


# ----------------------------------------------------------------------------- rank-sum test


def test_rank_sum_u_counts_pairs():
    rng = random.Random(8)
    a = [rng.randint(0, 6) for _ in range(15)]
    b = [rng.randint(0, 6) for _ in range(11)]
    u = sum((x > y) + 0.5 * (x == y) for x in a for y in b)
    assert rank_sum_test(a, b).u == u


def test_rank_sum_variance_equals_exact_permutation_variance():
    # Under H0 every split of the pooled sample is equally likely; the tie-corrected
    # variance in the normal approximation must be the exact variance of U.
    a, b = [1, 2, 2, 3, 5], [2, 3, 3, 4]
    pooled = a + b
    us = []
    for idx in itertools.combinations(range(len(pooled)), len(a)):
        xa = [pooled[i] for i in idx]
        xb = [pooled[i] for i in range(len(pooled)) if i not in idx]
        us.append(sum((x > y) + 0.5 * (x == y) for x in xa for y in xb))
    var = statistics.pvariance(us)
    r = rank_sum_test(a, b, alternative="greater")
    mean = len(a) * len(b) / 2
    assert r.z == pytest.approx((r.u - mean - 0.5) / math.sqrt(var))
    assert r.p_value == pytest.approx(1 - statistics.NormalDist().cdf(r.z))


def test_rank_sum_alternatives_are_consistent():
    a, b = [3, 5, 6, 8, 9, 9], [1, 2, 4, 5, 7]
    greater, less = rank_sum_test(a, b, "greater"), rank_sum_test(b, a, "less")
    assert greater.p_value == pytest.approx(less.p_value)
    two = rank_sum_test(a, b, "two-sided")
    assert two.p_value == pytest.approx(min(1.0, 2 * greater.p_value))


@needs_scipy
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=3, max_size=40),
       st.lists(st.integers(0, 9), min_size=3, max_size=40),
       st.sampled_from(["greater", "less", "two-sided"]))
def test_rank_sum_agrees_with_scipy_asymptotic(a, b, alternative):
    if len(set(a + b)) < 2:
        return
    ref = scipy_stats.mannwhitneyu(a, b, alternative=alternative, method="asymptotic")
    assert rank_sum_test(a, b, alternative).p_value == pytest.approx(ref.pvalue, abs=1e-9)


# ----------------------------------------------------------------------------- bad input


def test_pearson_rejects_unpaired():
    with pytest.raises(ValueError, match="^y: 2 values for 3"):
        pearson([1, 2, 3], [1, 2])


def test_pearson_rejects_single_pair():
    with pytest.raises(ValueError, match="^x: 1 pairs"):
        pearson([1], [1])


def test_pearson_rejects_constant_x():
    with pytest.raises(ValueError, match="^x: all values are equal"):
        pearson([2, 2, 2], [1, 2, 3])


def test_pearson_rejects_constant_y():
    with pytest.raises(ValueError, match="^y: all values are equal"):
        pearson([1, 2, 3], [0, 0, 0])


def test_pearson_rejects_constant_values_whose_float_mean_is_inexact():
    # The mean of six 0.1s is not 0.1 in floating point, so the deviations are tiny but not 0:
    # the correlation must still be undefined, not 0.0.
    with pytest.raises(ValueError, match="^y: all values are equal"):
        pearson([1, 2, 3, 4, 5, 6], [0.1] * 6)
    with pytest.raises(ValueError, match="^x: all values are equal"):
        pearson([0.7] * 6, [1, 2, 3, 4, 5, 6])


def test_pearson_rejects_non_numbers():
    with pytest.raises(TypeError, match="^x: item 1 is str"):
        pearson([1, "2"], [1, 2])


def test_pearson_rejects_a_string():
    with pytest.raises(TypeError, match="^x: expected a sequence of numbers"):
        pearson("12", [1, 2])


def test_pearson_rejects_nan():
    with pytest.raises(ValueError, match="^y: item 0 is nan"):
        pearson([1, 2], [float("nan"), 1])


def test_kendall_tau_rejects_unknown_variant():
    with pytest.raises(ValueError, match="^variant: unknown value 'd'"):
        kendall_tau([1, 2], [1, 2], variant="d")


def test_kendall_tau_b_rejects_constant_input():
    with pytest.raises(ValueError, match="^y: all values are equal, so tau-b is undefined"):
        kendall_tau([1, 2, 3], [4, 4, 4])


def test_wmt_kendall_like_rejects_negative_threshold():
    with pytest.raises(ValueError, match="^threshold: expected a number >= 0"):
        wmt_kendall_like([[(1, 1), (90, 2)]], threshold=-1)


def test_wmt_kendall_like_without_pairs_is_an_error():
    with pytest.raises(ValueError, match="^groups: no pair"):
        wmt_kendall_like([[(50, 1), (60, 2)], [(10, 1)]])


def test_percentile_rejects_empty():
    with pytest.raises(ValueError, match="^values: empty"):
        percentile([], 50)


def test_percentile_rejects_q_out_of_range():
    with pytest.raises(ValueError, match="^q: 101 is outside"):
        percentile([1, 2], 101)


def test_bootstrap_ci_rejects_zero_resamples():
    with pytest.raises(ValueError, match="^n_resamples: expected a positive integer"):
        bootstrap_ci(pearson, [1, 2, 3], [1, 2, 3], n_resamples=0)


def test_bootstrap_ci_rejects_bad_level():
    with pytest.raises(ValueError, match="^level: 95 is outside"):
        bootstrap_ci(pearson, [1, 2, 3], [1, 2, 3], level=95)


def test_bootstrap_counts_rejects_no_items():
    with pytest.raises(ValueError, match="^n_items: expected a positive integer"):
        bootstrap_counts(0)


def test_bootstrap_counts_rejects_no_samples():
    with pytest.raises(ValueError, match="^n_samples: expected a positive integer"):
        bootstrap_counts(3, 0)


def test_resampled_scores_rejects_wrong_number_of_segments():
    with pytest.raises(ValueError, match="^segment_stats: expected 3 rows"):
        resampled_scores([(1, 1)], bootstrap_counts(3, 2), lambda s: 0.0)


def test_paired_bootstrap_test_rejects_unequal_samples():
    with pytest.raises(ValueError, match="^samples_b: 1 resampled score for 2"):
        paired_bootstrap_test(0.1, 0.2, [0.1, 0.2], [0.3])


def test_paired_bootstrap_rejects_different_test_sets():
    with pytest.raises(ValueError, match="^stats_b: 1 segment for 2"):
        paired_bootstrap([(1, 1), (0, 1)], [(1, 1)], lambda s: 0.0)


def test_paired_bootstrap_rejects_empty():
    with pytest.raises(ValueError, match="^stats_a: no segments"):
        paired_bootstrap([], [], lambda s: 0.0)


def test_rank_sum_rejects_empty_a():
    with pytest.raises(ValueError, match="^a: empty sample"):
        rank_sum_test([], [1.0])


def test_rank_sum_rejects_empty_b():
    with pytest.raises(ValueError, match="^b: empty sample"):
        rank_sum_test([1.0], [])


def test_rank_sum_rejects_unknown_alternative():
    with pytest.raises(ValueError, match="^alternative: unknown value 'bigger'"):
        rank_sum_test([1.0], [2.0], alternative="bigger")


def test_rank_sum_rejects_all_equal():
    with pytest.raises(ValueError, match="^a: all values in a and b are equal"):
        rank_sum_test([1.0, 1.0], [1.0])

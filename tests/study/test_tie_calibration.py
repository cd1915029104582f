"""mtlearn.study.tie_calibration: acc_eq and tie calibration (Deutsch, Foster & Freitag 2023), by hand.

Expected values are worked out in the comments or found by trying every threshold here (the
brute force below), never taken from the module under test.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from mtlearn.study.correlation import bootstrap_counts
from mtlearn.study.tie_calibration import (
    PairCounts,
    accuracy_with_ties,
    calibration_resamples,
    pair_counts,
    tie_calibrated_accuracy,
)


def test_the_five_classes_by_hand():
    # Humans 0, 0, -1, -5; metric 0.9, 0.8, 0.8, 0.1. Pairs: (1,2) humans tie, metric does not: T_h;
    # (2,3) metric ties, humans do not: T_m; the other four are concordant.
    assert pair_counts([0, 0, -1, -5], [0.9, 0.8, 0.8, 0.1]) == PairCounts(4, 0, 1, 1, 0)
    # With epsilon 0.1, (1,2) becomes T_hm and (1,3) (0.9 vs 0.8) a metric tie T_m.
    assert pair_counts([0, 0, -1, -5], [0.9, 0.8, 0.8, 0.1], epsilon=0.1000001) == PairCounts(3, 0, 0, 2, 1)
    assert pair_counts([0, -1], [0.1, 0.9]) == PairCounts(0, 1, 0, 0, 0)


def test_acc_eq_at_each_threshold_by_hand():
    # Humans 0, 0, -5; metric 0.5, 0.75, 0: differences 0.25 (1,2), 0.5 (1,3), 0.75 (2,3).
    human, metric = [0, 0, -5], [0.5, 0.75, 0.0]
    assert [accuracy_with_ties(human, metric, e) for e in (0, 0.25, 0.5, 0.75)] == [
        Fraction(2, 3), Fraction(1), Fraction(2, 3), Fraction(1, 3)]
    r = tie_calibrated_accuracy([(human, metric)])
    assert (r.accuracy, r.epsilon, r.n_groups, r.n_thresholds) == (1.0, 0.25, 1, 4)


def test_one_epsilon_serves_every_group_and_the_mean_is_over_groups():
    # Group 1 (humans 0, -1, metric 0.5, 0.25) is right below epsilon 0.25; group 2 (humans tie;
    # metric 0.5, 0.75) is right from 0.25. Group 3 (humans 0, 0, -1; metric 0.3, 0.3, 0.2) is right
    # below 0.1 (acc 1) and 1/3 from 0.1. Epsilon 0: (1 + 0 + 1)/3; 0.1: (1 + 0 + 1/3)/3; 0.25: (0 + 1 +
    # 1/3)/3.
    groups = [([0, -1], [0.5, 0.25]), ([0, 0], [0.5, 0.75]), ([0, 0, -1], [0.3, 0.3, 0.2])]
    r = tie_calibrated_accuracy(groups)
    assert (r.accuracy, r.epsilon) == (pytest.approx(2 / 3), 0.0)
    assert r.counts == sum((pair_counts(h, m) for h, m in groups), PairCounts(0, 0, 0, 0, 0))


def test_the_smallest_of_equal_best_thresholds_is_kept():
    groups = [([0, -1], [0.5, 0.25]), ([0, 0], [0.5, 0.75])]   # 1/2 at epsilon 0 and at 0.25
    assert tie_calibrated_accuracy(groups).epsilon == 0.0


def test_groups_without_a_pair_are_left_out():
    r = tie_calibrated_accuracy([([0], [0.3]), ([0, -1], [0.5, 0.25])])
    assert (r.accuracy, r.n_groups) == (1.0, 1)


def brute_force(groups):
    """Try every candidate threshold; the first best (smallest epsilon) wins."""
    candidates = sorted({0.0} | {abs(a - b) for _, m in groups for a, b in itertools.combinations(m, 2)})
    best = None
    for e in candidates:
        values = [accuracy_with_ties(h, m, e) for h, m in groups if len(h) > 1]
        acc = sum(values, Fraction(0)) / len(values)
        if best is None or acc > best[0]:
            best = (acc, e)
    return best


def random_groups(rng):
    groups = []
    for _ in range(rng.randint(1, 5)):
        n = rng.randint(1, 5)
        groups.append(([rng.choice([0, 0, -1, -5]) for _ in range(n)],
                       [rng.choice([0.25, 0.5, 0.75, 0.125, rng.random()]) for _ in range(n)]))
    return groups


def test_the_sweep_equals_trying_every_threshold():
    rng = random.Random(3)
    tried = 0
    while tried < 200:
        groups = random_groups(rng)
        if all(len(h) < 2 for h, _ in groups):
            continue
        accuracy, epsilon = brute_force(groups)
        r = tie_calibrated_accuracy(groups)
        assert r.accuracy == pytest.approx(float(accuracy), abs=1e-15) and r.epsilon == epsilon, groups
        tried += 1


def test_the_resamples_equal_the_statistic_on_the_resampled_groups():
    rng = random.Random(8)
    for trial in range(60):
        groups = random_groups(rng)
        if all(len(h) < 2 for h, _ in groups):
            continue
        counts = bootstrap_counts(len(groups), 8, seed=trial)
        accuracies, epsilons = calibration_resamples(groups, counts)
        for k, row in enumerate(counts):
            drawn = [groups[g] for g, c in enumerate(row) for _ in range(int(c))]
            if not any(len(h) > 1 for h, _ in drawn):
                assert math.isnan(accuracies[k])
                continue
            r = tie_calibrated_accuracy(drawn)
            assert (accuracies[k], epsilons[k]) == (pytest.approx(r.accuracy, abs=1e-15), r.epsilon)


def test_a_constant_metric_scores_the_share_of_human_ties():
    # Everything tied by the metric: credited pairs are the human ties. Group 1: 1 of 3; group 2: 1 of 1.
    r = tie_calibrated_accuracy([([0, 0, -1], [0.0, 0.0, 0.0]), ([-2, -2], [0.0, 0.0])])
    assert r.accuracy == pytest.approx((1 / 3 + 1) / 2)


@pytest.mark.parametrize("call, error, message", [
    (lambda: tie_calibrated_accuracy([]), ValueError, "^groups: expected a non-empty list"),
    (lambda: tie_calibrated_accuracy([([0], [1])]), ValueError, "^groups: no group has two translations"),
    (lambda: tie_calibrated_accuracy([([0, 1], [1])]), ValueError,
     r"^metric: 1 scores for 2 human scores \(group 1\)"),
    (lambda: tie_calibrated_accuracy([[0, 1, 2]]), TypeError, "^groups: item 0 is not a"),
    (lambda: pair_counts([0, 1], [0.1, math.nan]), ValueError,
     "^metric: contains a value that is not a finite"),
    (lambda: pair_counts([0, 1], [0.1, 0.2], epsilon=-1), ValueError,
     "^epsilon: expected a finite number >= 0"),
    (lambda: pair_counts("ab", [0.1, 0.2]), TypeError, "^human: expected a sequence of numbers"),
    (lambda: PairCounts(0, 0, 0, 0, 0).accuracy, ValueError, "^pairs: no pair"),
    (lambda: calibration_resamples([([0, 1], [1, 2])], np.ones((2, 3))), ValueError,
     "^counts: expected one column"),
])
def test_bad_input_names_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()

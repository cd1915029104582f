"""mtlearn.study.segment_level: the three groupings, worked by hand, and the resampler against the plain rule.

Expected values come from enumerating pairs here or from numpy's corrcoef, never from the module under test.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from mtlearn.study.correlation import bootstrap_counts
from mtlearn.study.segment_level import (
    GROUPINGS,
    STATISTICS,
    SegmentResampler,
    bootstrap_grouped,
    grouped_correlation,
)

HUMAN = [[0, -1, -5], [-2, -1, 0]]
METRIC = [[0.9, 0.5, 0.1], [0.4, 0.6, 0.2]]


def tau_b_by_hand(x, y):
    c = d = tx = ty = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        sx, sy = (x[i] > x[j]) - (x[i] < x[j]), (y[i] > y[j]) - (y[i] < y[j])
        tx += sx == 0
        ty += sy == 0
        c += sx * sy > 0
        d += sx * sy < 0
    n0 = len(x) * (len(x) - 1) // 2
    return (c - d) / math.sqrt((n0 - tx) * (n0 - ty))


def test_group_by_item_by_hand():
    # Segment 1: (0, 0.9) vs (-2, 0.4) concordant; segment 2: humans tie (undefined); segment 3: concordant.
    g = grouped_correlation(HUMAN, METRIC, "kendall", "item")
    assert (g.value, g.n_groups, g.n_undefined) == (1.0, 2, 1)


def test_group_by_system_by_hand():
    # System 1: three concordant pairs, tau 1; system 2: one concordant, two discordant, tau -1/3.
    g = grouped_correlation(HUMAN, METRIC, "kendall", "system")
    assert g.value == pytest.approx((1 - 1 / 3) / 2)
    p = grouped_correlation(HUMAN, METRIC, "pearson", "system")
    assert p.value == pytest.approx((np.corrcoef(HUMAN[0], METRIC[0])[0, 1]
                                     + np.corrcoef(HUMAN[1], METRIC[1])[0, 1]) / 2)


def test_no_grouping_is_one_correlation_over_every_translation():
    flat_h, flat_m = sum(HUMAN, []), sum(METRIC, [])
    assert (grouped_correlation(HUMAN, METRIC, "kendall", "none").value
            == pytest.approx(tau_b_by_hand(flat_h, flat_m)))
    assert (grouped_correlation(HUMAN, METRIC, "pearson", "none").value
            == pytest.approx(np.corrcoef(flat_h, flat_m)[0, 1]))


def _expanded(matrix, counts_row):
    cols = [j for j, c in enumerate(counts_row) for _ in range(int(c))]
    return [[row[j] for j in cols] for row in matrix]


def test_the_resampler_equals_the_plain_rule_on_the_resampled_matrix():
    # Random small matrices with many ties (MQM-like human scores, a few repeated metric values);
    # each resample's value must equal grouped_correlation of the matrix with each drawn segment
    # repeated as often as drawn (NaN exactly where that is undefined).
    rng = random.Random(5)
    checked = 0
    for trial in range(40):
        s, n = rng.randint(2, 5), rng.randint(2, 8)
        human = [[rng.choice([0, -1, -5, -0.1, -6]) for _ in range(n)] for _ in range(s)]
        metric = [[rng.choice([0.1, 0.2, 0.5, rng.random()]) for _ in range(n)] for _ in range(s)]
        counts = bootstrap_counts(n, 15, seed=trial)
        resampler = SegmentResampler(human, counts)
        for statistic, grouping in itertools.product(STATISTICS, GROUPINGS):
            values = resampler.values(metric, statistic, grouping)
            for k, row in enumerate(counts):
                try:
                    expected = grouped_correlation(_expanded(human, row), _expanded(metric, row), statistic,
                                                   grouping).value
                except ValueError:
                    expected = math.nan
                if math.isnan(expected):
                    assert math.isnan(values[k]), (statistic, grouping, trial, k)
                else:
                    assert values[k] == pytest.approx(expected, abs=1e-9), (statistic, grouping, trial, k)
                    checked += 1
    assert checked > 2000


def test_a_resample_of_every_segment_once_is_the_estimate():
    rng = random.Random(2)
    human = [[rng.choice([0, -1, -5]) for _ in range(30)] for _ in range(4)]
    metric = [[rng.random() for _ in range(30)] for _ in range(4)]
    resampler = SegmentResampler(human, np.ones((1, 30), dtype=np.int64))
    for statistic, grouping in itertools.product(STATISTICS, GROUPINGS):
        assert resampler.values(metric, statistic, grouping)[0] == pytest.approx(
            grouped_correlation(human, metric, statistic, grouping).value, abs=1e-12)


def test_the_bootstrap_is_seeded_and_brackets_the_estimate():
    rng = random.Random(4)
    human = [[rng.choice([0, -1, -5]) for _ in range(40)] for _ in range(3)]
    metric = [[h + rng.random() * 4 for h in row] for row in human]
    first = bootstrap_grouped(human, metric, "kendall", "none", n_resamples=200, seed=3)
    assert first == bootstrap_grouped(human, metric, "kendall", "none", n_resamples=200, seed=3)
    assert first != bootstrap_grouped(human, metric, "kendall", "none", n_resamples=200, seed=4)
    assert first.low <= first.estimate <= first.high and first.n_valid == 200


@pytest.mark.parametrize("call, error, message", [
    (lambda: grouped_correlation([[1, 2], [3]], [[1, 2], [3, 4]]), ValueError, "^human: row 1 has 1 scores"),
    (lambda: grouped_correlation([[1, 2], [3, 4]], [[1, 2, 3], [3, 4, 5]]), ValueError,
     "^metric: 2 x 3 scores for 2 x 2"),
    (lambda: grouped_correlation([[1, 2]], [[1, 2]]), ValueError, "^human: 1 system"),
    (lambda: grouped_correlation([[1, 2], [3, math.nan]], [[1, 2], [3, 4]]), ValueError,
     "not a finite number"),
    (lambda: grouped_correlation([[1, 2], [3, 4]], [[1, 2], [3, 4]], "spearman"), ValueError,
     "^statistic: unknown"),
    (lambda: grouped_correlation([[1, 2], [3, 4]], [[1, 2], [3, 4]], grouping="doc"), ValueError,
     "^grouping: unknown"),
    (lambda: grouped_correlation([[1, 1], [1, 1]], [[1, 2], [3, 4]], grouping="item"), ValueError,
     "^human: no 'item' group has a defined"),
    (lambda: grouped_correlation("ab", [[1, 2]]), TypeError, "^human: expected one row of scores"),
    (lambda: SegmentResampler([[1, 2], [3, 4]], np.ones((2, 3))), ValueError,
     "^counts: expected one column per segment"),
    (lambda: SegmentResampler([[1, 2], [3, 4]], -np.ones((2, 2))), ValueError,
     "^counts: a segment cannot be drawn"),
])
def test_bad_input_names_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()

"""mtlearn.study.accuracy: pairwise accuracy (Kocmi et al. 2021), pooled, and its bootstrap over systems.

Expected counts come from enumerating the pairs by hand here, never from the module under test.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from mtlearn.study.accuracy import bootstrap_accuracy, pairwise_accuracy, pooled_accuracy


def _by_hand(metric, human):
    same = sum((m1 > m2) == (h1 > h2) and (m1 < m2) == (h1 < h2)
               for (m1, h1), (m2, h2) in itertools.combinations(list(zip(metric, human)), 2))
    return same, len(metric) * (len(metric) - 1) // 2


def test_counts_equal_an_enumeration_on_random_scores():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(2, 9)
        metric = [rng.choice([0.1, 0.2, 0.3, rng.random()]) for _ in range(n)]  # ties on purpose
        human = [rng.choice([0.0, rng.random()]) for _ in range(n)]
        a = pairwise_accuracy(metric, human)
        assert (a.agreeing, a.comparisons) == _by_hand(metric, human)
        assert a.value == Fraction(*_by_hand(metric, human))
        assert a.metric_ties == sum(x == y for x, y in itertools.combinations(metric, 2))
        assert a.human_ties == sum(x == y for x, y in itertools.combinations(human, 2))
        assert a.disagreeing == a.comparisons - a.agreeing


def test_a_metric_tie_is_a_miss_unless_the_humans_tie_too():
    assert pairwise_accuracy([1, 1], [0, 1]).agreeing == 0
    assert pairwise_accuracy([1, 1], [2, 2]).agreeing == 1


def test_pooled_sums_counts_not_shares():
    a, b = ([3, 2, 1], [3, 2, 1]), ([1, 2], [2, 1])
    assert pooled_accuracy([a, b]).value == Fraction(3, 4)  # the mean of 1 and 0 would be 1/2


def test_bootstrap_is_seeded_and_brackets_the_estimate():
    groups = [([5, 4, 3, 2, 1], [5, 3, 4, 1, 2]), ([1, 2, 3], [1, 3, 2])]
    first = bootstrap_accuracy(groups, n_resamples=300, seed=3)
    assert first == bootstrap_accuracy(groups, n_resamples=300, seed=3)
    assert first != bootstrap_accuracy(groups, n_resamples=300, seed=4)
    assert first.low <= first.estimate <= first.high
    assert first.estimate == float(pooled_accuracy(groups).value)


def test_bootstrap_of_a_perfect_metric_is_one():
    ci = bootstrap_accuracy([([1, 2, 3, 4], [10, 20, 30, 40])], n_resamples=100, seed=1)
    assert (ci.low, ci.estimate, ci.high) == (1.0, 1.0, 1.0)
    assert ci.n_valid <= 100


@pytest.mark.parametrize("call, error, message", [
    (lambda: pairwise_accuracy([1, 2], [1]), ValueError, "^metric: 2 metric scores but 1 human scores"),
    (lambda: pairwise_accuracy([1], [1]), ValueError, "^metric: 1 system"),
    (lambda: pairwise_accuracy(["a", "b"], [1, 2]), TypeError, "^metric: expected two sequences of numbers"),
    (lambda: pooled_accuracy([]), ValueError, "^groups: expected a non-empty list"),
    (lambda: pooled_accuracy("ab"), ValueError, "^groups: expected a non-empty list"),
    (lambda: bootstrap_accuracy([([1, 2], [1, 2])], n_resamples=0), ValueError,
     "^n_resamples: expected a positive"),
    (lambda: bootstrap_accuracy([([1, 2], [1, 2])], level=1.0), ValueError, "^level: 1.0 is outside"),
])
def test_bad_input_names_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()

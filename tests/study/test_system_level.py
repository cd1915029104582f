"""mtlearn.study.system_level: correlations over systems, with a bootstrap that resamples segments.

Expected values are computed here from the drawn segments (numpy's corrcoef, ranks and an
enumeration of system pairs), never by the module under test.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from mtlearn.study.correlation import bootstrap_counts
from mtlearn.study.system_level import system_level, system_values

HUMAN = {"A": [0, -1, -1, 0], "B": [-5, -1, 0, -1], "C": [-5, -5, -1, -1]}
STATS = {"A": np.array([[3, 4], [2, 4], [3, 4], [4, 4]]), "B": np.array([[1, 4], [3, 4], [4, 4], [2, 4]]),
         "C": np.array([[1, 4], [0, 4], [2, 4], [3, 4]])}


def share(sums):
    return sums[:, 0] / sums[:, 1]


def ranks(values):
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def agreeing_pairs(metric, human):
    return sum((m1 > m2) - (m1 < m2) == (h1 > h2) - (h1 < h2)
               for (m1, h1), (m2, h2) in itertools.combinations(list(zip(metric, human)), 2))


def test_by_hand():
    # Human means: A -1/2, B -7/4, C -3; corpus shares: A 12/16, B 10/16, C 6/16: the same order.
    r = system_level(HUMAN, STATS, share, bootstrap_counts(4, 50, seed=1), seed=1)
    assert r["accuracy"].value == 1.0 and (r["accuracy"].agreeing, r["accuracy"].comparisons) == (3, 3)
    assert r["spearman"].value == 1.0
    assert r["pearson"].value == pytest.approx(np.corrcoef([-0.5, -1.75, -3], [0.75, 0.625, 0.375])[0, 1])
    assert all(s.n_systems == 3 and s.ci.n_resamples == 50 for s in r.values())


def test_each_resample_rescores_every_system_on_the_drawn_segments():
    rng = random.Random(6)
    names = [f"S{k}" for k in range(5)]
    human = {s: [rng.choice([0, -1, -5, -0.1]) for _ in range(12)] for s in names}
    stats = {s: np.array([[rng.randint(0, 5), 5] for _ in range(12)]) for s in names}
    counts = bootstrap_counts(12, 30, seed=2)
    h, m = system_values(human, stats, share, counts)
    for k, row in enumerate(counts):
        drawn = [i for i, c in enumerate(row) for _ in range(c)]
        want_h = [np.mean([human[s][i] for i in drawn]) for s in names]
        want_m = [sum(stats[s][i][0] for i in drawn) / sum(stats[s][i][1] for i in drawn) for s in names]
        assert h[k] == pytest.approx(want_h) and m[k] == pytest.approx(want_m)


def test_the_interval_is_the_percentiles_of_the_resampled_statistics():
    rng = random.Random(9)
    names = [f"S{k}" for k in range(6)]
    human = {s: [rng.choice([0, -1, -5]) for _ in range(20)] for s in names}
    stats = {s: np.array([[rng.randint(0, 5), 5] for _ in range(20)]) for s in names}
    counts = bootstrap_counts(20, 200, seed=4)
    r = system_level(human, stats, share, counts, seed=4, level=0.9)
    h, m = system_values(human, stats, share, counts)
    spear = [np.corrcoef(ranks(list(a)), ranks(list(b)))[0, 1] for a, b in zip(h, m)]
    spear = [v for v in spear if not np.isnan(v)]
    assert r["spearman"].ci.low == pytest.approx(np.percentile(spear, 5))
    assert r["spearman"].ci.high == pytest.approx(np.percentile(spear, 95))
    acc = [agreeing_pairs(b.tolist(), a.tolist()) / 15 for a, b in zip(h, m)]
    assert r["accuracy"].ci.low == pytest.approx(np.percentile(acc, 5))


def test_an_error_rate_is_negated():
    # The same statistics read as an error rate (lower is better): the order flips, so sign=-1 restores it.
    flipped = system_level(HUMAN, STATS, share, bootstrap_counts(4, 20, seed=1), sign=-1.0)
    assert flipped["spearman"].value == -1.0 and flipped["accuracy"].value == 0.0


def test_observed_scores_are_used_when_given():
    r = system_level(HUMAN, STATS, share, bootstrap_counts(4, 20, seed=1),
                     observed={"A": 0.1, "B": 0.2, "C": 0.3})
    assert r["spearman"].value == -1.0


@pytest.mark.parametrize("call, message", [
    (lambda: system_level({"A": [0], "B": [1]}, {"A": np.ones((1, 2)), "B": np.ones((1, 2))}, share,
                          bootstrap_counts(1, 5)), "^human: 2 system"),
    (lambda: system_level(HUMAN, {"A": STATS["A"]}, share, bootstrap_counts(4, 5)),
     "^stats: give statistics"),
    (lambda: system_level(HUMAN, STATS, share, bootstrap_counts(3, 5)), "^counts: 3 segments per resample"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()

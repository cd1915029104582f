"""TER's sufficient statistics (mtlearn/metrics/ter/stats.py): exact sums."""

from __future__ import annotations

from fractions import Fraction

from mtlearn.metrics.ter.score import corpus_ter, ter, ter_from_stats
from mtlearn.metrics.ter.stats import TerStats, corpus_stats


def test_stats_add_exactly():
    a, b = TerStats(3, Fraction(7, 2)), TerStats(1, Fraction(4, 3))
    assert a + b == TerStats(4, Fraction(29, 6))
    assert sum([a, b], TerStats(0, Fraction(0))) == a + b
    assert a.__add__((1, 2)) is NotImplemented


def test_a_corpus_sums_its_segments_statistics():
    cands, refs = ["a b c", "x y", "a"], [["a b c d", "a b"], ["x"], ["b", "a", "c"]]
    r = corpus_ter(cands, refs)
    assert r.segments.stats() == [ter(c, rs).stats for c, rs in zip(cands, refs)]
    summed = sum(r.segments.stats(), TerStats(0, Fraction(0)))
    assert r.stats == summed == corpus_stats([1, 1, 0], [6, 1, 3], [2, 1, 3])
    assert ter_from_stats(r.stats).score == r.score

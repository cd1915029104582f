"""BleuStats and the one way to sum them (mtlearn/metrics/bleu/stats.py): +, sum_stats, rows, profiles."""

from __future__ import annotations

from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtlearn
from mtlearn.metrics.bleu import profile_scores
from mtlearn.metrics.bleu.fast import segment_row, sum_rows
from mtlearn.metrics.bleu.stats import BleuStats, stats_from_row, sum_stats

counts = st.lists(st.integers(0, 50), min_size=3, max_size=3)
stats = st.builds(lambda c, r, m, t, k: BleuStats(c, r, tuple(m), tuple(t), tuple(k)),
                  st.integers(0, 50), st.integers(0, 50), counts, counts, counts)


@settings(max_examples=200, deadline=None)
@given(st.lists(stats, min_size=1, max_size=6))
def test_plus_and_sum_stats_are_the_same_sum(items):
    assert reduce(lambda a, b: a + b, items) == sum_stats(items)
    total = sum_stats(items)
    assert total.candidate_length == sum(s.candidate_length for s in items)
    assert total.matches == tuple(sum(s.matches[n] for s in items) for n in range(3))


def test_sums_of_different_orders_and_nothing_are_errors():
    a, b = BleuStats(1, 1, (1,), (1,), (1,)), BleuStats(1, 1, (1, 1), (1, 1), (1, 1))
    with pytest.raises(ValueError, match="^stats: cannot add statistics of different n-gram orders"):
        a + b
    with pytest.raises(ValueError, match="^stats: cannot add statistics of different n-gram orders"):
        sum_stats([a, b])
    with pytest.raises(ValueError, match="^stats: nothing to sum"):
        sum_stats([])
    assert a.__add__(3) is NotImplemented


def test_a_row_past_its_width_has_no_ngrams():
    row = segment_row("a b".split(), ["a b c".split()], 3)
    s = stats_from_row(row, 3, 6)
    assert (s.matches, s.totals, s.nltk_totals) == ((2, 1, 0, 0, 0, 0), (2, 1, 0, 0, 0, 0),
                                                    (2, 1, 1, 1, 1, 1))
    assert s.max_order == 6


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from("abc"), max_size=8),
                          st.lists(st.sampled_from("abc"), max_size=8)), min_size=1, max_size=5),
       st.integers(1, 4), st.integers(0, 3))
def test_the_corpus_column_sum_is_sum_stats_of_the_rows(pairs, width, extra):
    rows = [segment_row(c, [r], width) for c, r in pairs]
    flat = [v for row in rows for v in row]
    assert (sum_rows(flat, width, width + extra)
            == sum_stats(stats_from_row(r, width, width + extra) for r in rows))


def test_corpus_statistics_are_the_sum_of_the_segments():
    result = mtlearn.corpus_bleu(["a b c", "a", ""], [["a b"], ["a b"], ["c"]], max_order=6)
    assert result.stats == sum_stats(result.segments.stats())


def test_a_profile_sums_its_segments_with_sum_stats(monkeypatch):
    # profiles used to spell the sum again (_sum); it goes through the one sum now.
    calls = []

    def spy(items):
        items = list(items)
        calls.append(len(items))
        return sum_stats(items)

    monkeypatch.setattr(profile_scores, "sum_stats", spy)
    score = profile_scores.score_profile("sacrebleu-corpus", ["the cat sat", "a dog"],
                                         [["the cat sat"], ["a dog"]])
    assert calls == [2] and score.candidate_length == 5
    assert not hasattr(profile_scores, "_sum")

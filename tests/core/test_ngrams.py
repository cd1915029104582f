"""mtlearn.core.ngrams against brute-force counting."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtlearn.core.ngrams import count_elements, count_ngrams, max_reference_counts, ngrams

words = st.lists(st.sampled_from(["a", "b", "ab", "c"]), max_size=10)


@settings(max_examples=100, deadline=None)
@given(tokens=words, n=st.integers(1, 5))
def test_ngrams_and_counts_match_brute_force(tokens, n):
    brute = [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]
    assert ngrams(tokens, n) == brute
    assert count_ngrams(tokens, n) == Counter(brute)


@settings(max_examples=100, deadline=None)
@given(refs=st.lists(words, min_size=1, max_size=3), n=st.integers(1, 3))
def test_max_reference_counts(refs, n):
    merged = max_reference_counts(refs, n)
    for ref in refs:
        for gram, count in count_ngrams(ref, n).items():
            assert merged[gram] >= count
    for gram, count in merged.items():
        assert count == max(count_ngrams(r, n)[gram] for r in refs)


def test_tuple_keys_do_not_collide():
    assert count_ngrams(["ab", "c"], 2) != count_ngrams(["a", "bc"], 2)


def test_count_elements_counts_into_a_dict():
    counts: dict = {}
    count_elements(counts, ["a", "b", "a"])
    assert counts == {"a": 2, "b": 1}


def test_bad_order():
    with pytest.raises(ValueError, match="^n: the n-gram order must be at least 1"):
        ngrams(["a"], 0)
    with pytest.raises(TypeError, match="^n: expected a positive int"):
        ngrams(["a"], "2")

"""Formula steps against NLTK's functions of the same name and the paper's examples."""

from __future__ import annotations

import warnings
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

from mtlearn.examples import bleu as ex
from mtlearn.metrics.bleu.formulas import (
    brevity_penalty,
    check_weights,
    closest_ref_length,
    geometric_mean,
    modified_precision,
    precision_counts,
)

words = st.lists(st.sampled_from(["the", "cat", "mat"]), max_size=9)


@settings(max_examples=100, deadline=None)
@given(cand=words, refs=st.lists(words, min_size=1, max_size=3), n=st.integers(1, 4))
def test_modified_precision_equals_nltk(cand, refs, n):
    theirs = nltk_bleu.modified_precision(refs, cand, n)
    assert modified_precision(cand, refs, n) == Fraction(theirs.numerator, theirs.denominator)


@settings(max_examples=100, deadline=None)
@given(c=st.integers(0, 30), refs=st.lists(st.integers(0, 30), min_size=1, max_size=4))
def test_closest_ref_length_and_brevity_penalty_equal_nltk(c, refs):
    r = closest_ref_length(c, refs)
    assert r == nltk_bleu.closest_ref_length([["x"] * k for k in refs], c)
    if c == r == 0:
        # The libraries differ only here (sacreBLEU: c < r is false, BP = 1; NLTK: c = 0, BP = 0);
        # mtlearn follows sacreBLEU, and BLEU is 0 either way (no n-gram can match).
        assert brevity_penalty(0, 0) == 1.0 and nltk_bleu.brevity_penalty(0, 0) == 0
    else:
        assert brevity_penalty(c, r) == nltk_bleu.brevity_penalty(r, c)


def test_paper_examples():
    e = ex.PAPINENI_GUIDE_CANDIDATE_1
    assert precision_counts(e.candidate.split(), [r.split() for r in e.references], 2) == (10, 17)
    the = ex.PAPINENI_THE_THE
    refs = [r.lower().split() for r in the.references]
    assert modified_precision(the.candidate.split(), refs, 1) == Fraction(2, 7)
    # mteval-v13a's example in NLTK: references 11 and 8 words, candidate 7: r = 8
    assert closest_ref_length(7, [11, 8]) == 8
    assert brevity_penalty(7, 8) == pytest.approx(0.8668, abs=1e-4)


def test_geometric_mean_and_weights():
    assert geometric_mean([Fraction(1, 4), Fraction(1)], [0.5, 0.5]) == pytest.approx(0.5, rel=1e-15)
    assert geometric_mean([0, 0.5], [0, 1]) == 0.5  # a zero weight ignores its precision
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_weights([0.1, 0.3, 0.5, 0.1], 4) == (0.1, 0.3, 0.5, 0.1)

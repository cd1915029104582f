"""mtlearn.examples.bleu: each example's stated numbers come out of mtlearn."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import mtlearn
from mtlearn.examples import bleu as ex


@pytest.mark.parametrize("example", ex.EXAMPLES, ids=lambda e: e.name)
def test_example_counts_are_reproduced(example):
    if example.formula == "d2l":
        result = mtlearn.d2l_bleu(example.candidate.split(), example.references[0].split(),
                                  example.max_order)
        got = tuple(zip(result.matches, result.totals))
    else:
        result = mtlearn.bleu(example.candidate, list(example.references), max_order=example.max_order,
                              tokenize=example.tokenize, lowercase=example.lowercase)
        got = tuple(zip(result.matches, result.totals))
    assert got[: len(example.expected_counts)] == example.expected_counts
    if example.expected_score is not None:
        assert round(result.score, 2) == example.expected_score


def test_papineni_numbers_need_the_full_stop_dropped_not_lowercasing():
    refs = [ex.PAPINENI_SENTENCES[f"reference {i}"] for i in (1, 2, 3)]
    for key, stated in (("candidate 1", ((17, 18), (10, 17))), ("candidate 2", ((8, 14), (1, 13)))):
        for lowercase in (False, True):
            words = mtlearn.bleu(ex.PAPINENI_SENTENCES[key].rstrip("."), [r.rstrip(".") for r in refs],
                                 max_order=2, lowercase=lowercase)
            assert tuple(zip(words.matches, words.totals)) == stated
        with_stop = mtlearn.bleu(ex.PAPINENI_SENTENCES[key], refs, max_order=2, tokenize="13a")
        assert tuple(zip(with_stop.matches, with_stop.totals)) != stated


def test_digest_7_weights_example():
    w = ex.POST_B_WEIGHTS
    assert w.exponents == mtlearn.d2l_bleu("A B C D".split(), "A B C D".split(), 4).exponents
    for e, printed in zip(w.exponents, w.approximations):
        assert abs(float(w.precision) ** float(e) - printed) < 0.01


def test_digest_8_penalty():
    e = ex.POST_C_BREVITY
    result = mtlearn.d2l_bleu(e.candidate.split(), e.references[0].split(), e.max_order)
    assert round(result.penalty, 2) == e.expected_penalty and result.penalty == math.exp(-2)


def test_expected_precisions_property():
    assert ex.PAPINENI_GUIDE_CANDIDATE_2.expected_precisions == (Fraction(4, 7), Fraction(1, 13))

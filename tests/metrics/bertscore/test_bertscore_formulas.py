"""BERTScore's formulas on similarity matrices worked by hand (no encoder needed)."""

import math

import numpy as np
import pytest

from mtlearn.metrics.bertscore.formulas import (
    best_candidate_matches,
    best_reference_matches,
    cosine_matrix,
    document_frequencies,
    f1,
    idf,
    idf_weights,
    rescale,
    token_weights,
    weighted_mean,
)

# A 3 × 3 matrix, three content tokens a side, worked on paper.
SIM = np.array([[0.9, 0.1, 0.3],
                [0.2, 0.4, 0.8],
                [0.5, 0.7, 0.6]])


def test_greedy_matching_takes_the_best_of_each_row_and_each_column_without_one_to_one():
    assert best_candidate_matches(SIM).tolist() == [0, 2, 1]
    assert best_reference_matches(SIM).tolist() == [0, 2, 1]
    # Two candidate tokens may take the same reference token: greedy, not an alignment.
    shared = np.array([[0.9, 0.1], [0.8, 0.2]])
    assert best_candidate_matches(shared).tolist() == [0, 0]


def test_precision_recall_and_f1_by_hand():
    p = weighted_mean(SIM.max(axis=1), np.ones(3))
    r = weighted_mean(SIM.max(axis=0), np.ones(3))
    assert p == pytest.approx((0.9 + 0.8 + 0.7) / 3)
    assert r == pytest.approx((0.9 + 0.7 + 0.8) / 3)
    assert f1(0.6, 0.9) == pytest.approx(2 * 0.6 * 0.9 / 1.5)
    assert f1(0.0, 0.0) == 0.0


def test_idf_weighted_precision_by_hand():
    weights = np.array([0.5, 2.0, 1.0])
    expected = (0.5 * 0.9 + 2.0 * 0.8 + 1.0 * 0.7) / 3.5
    assert weighted_mean(SIM.max(axis=1), weights) == pytest.approx(expected)


def test_idf_uses_document_frequency_with_plus_one_smoothing():
    docs = [["[CLS]", "the", "cat", "the", "[SEP]"], ["[CLS]", "the", "dog", "[SEP]"]]
    counts, total = document_frequencies(docs)
    assert (counts["the"], counts["cat"], total) == (2, 1, 2)  # a document counts a token once
    table = idf_weights(docs)
    assert table["the"] == pytest.approx(math.log(3 / 3))
    assert table["cat"] == pytest.approx(math.log(3 / 2))
    assert idf("zebra", counts, total) == pytest.approx(math.log(3))
    w = token_weights(["[CLS]", "cat", "zebra", "[SEP]"], table, total)
    assert w.tolist() == pytest.approx([0.0, math.log(1.5), math.log(3), 0.0])


def test_cosine_matrix_is_scale_free():
    a = np.array([[1.0, 2.0], [3.0, -1.0]])
    b = np.array([[2.0, 4.0]])
    assert cosine_matrix(a, b)[0, 0] == pytest.approx(1.0)
    assert np.allclose(cosine_matrix(10 * a, b), cosine_matrix(a, b))


def test_rescale_maps_the_baseline_to_zero_and_keeps_one():
    assert rescale(0.4, 0.4) == 0.0
    assert rescale(1.0, 0.4) == pytest.approx(1.0)
    assert rescale(0.3, 0.4) < 0

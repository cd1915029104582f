"""COMET-mini's formula steps on small vectors worked by hand: pooling, features, ridge, blocks."""

import numpy as np
import pytest

from mtlearn.metrics.comet_mini.formulas import (
    BLOCKS,
    block_contributions,
    features,
    fit_ridge,
    mean_pool,
    normalize,
    predict,
    sentence_embedding,
)


def test_mean_pool_counts_every_token_and_normalize_scales_to_length_one():
    tokens = np.array([[1.0, 2.0], [3.0, 2.0], [2.0, 8.0]])   # [CLS], a word, [SEP]
    assert mean_pool(tokens).tolist() == [2.0, 4.0]
    assert sentence_embedding(tokens) == pytest.approx([2 / 20 ** 0.5, 4 / 20 ** 0.5])
    assert normalize(np.zeros(3)).tolist() == [0.0, 0.0, 0.0]


def test_mean_pool_refuses_a_matrix_without_tokens():
    with pytest.raises(ValueError, match="vectors: .*at least one token"):
        mean_pool(np.zeros((0, 4)))


def test_features_are_h_then_r_then_product_then_absolute_difference():
    h, r = np.array([1.0, -2.0, 0.5]), np.array([3.0, 1.0, 0.5])
    x = features(h, r)
    assert x.tolist() == [1.0, -2.0, 0.5, 3.0, 1.0, 0.5, 3.0, -2.0, 0.25, 2.0, 3.0, 0.0]
    assert BLOCKS == ("h", "r", "h*r", "|h-r|")


def test_features_refuse_vectors_of_different_sizes():
    with pytest.raises(ValueError, match="r: shape"):
        features(np.zeros(3), np.zeros(4))


def test_ridge_without_penalty_solves_an_exact_system():
    # y = 1 + 2 x1 - 3 x2 exactly on four points.
    x = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    y = 1 + 2 * x[:, 0] - 3 * x[:, 1]
    fit = fit_ridge(x, y, alpha=0.0)
    assert fit.weights == pytest.approx([2.0, -3.0])
    assert fit.bias == pytest.approx(1.0)
    assert predict(np.array([3.0, 3.0]), fit.weights, fit.bias) == pytest.approx(1 + 6 - 9)


def test_ridge_shrinks_the_weight_by_hand_and_leaves_the_bias_unpenalised():
    # x = (-1, 0, 1), y = (1, 3, 5): xc'xc = 2, xc'yc = 4; w = 4 / (2 + alpha); b = mean(y) - mean(x) w = 3.
    x, y = np.array([[-1.0], [0.0], [1.0]]), np.array([1.0, 3.0, 5.0])
    for alpha in (0.0, 2.0, 6.0):
        fit = fit_ridge(x, y, alpha)
        assert fit.weights[0] == pytest.approx(4 / (2 + alpha))
        assert fit.bias == pytest.approx(3.0)
    huge = fit_ridge(x + 10, y + 100, 1e12)        # weights -> 0: the bias becomes the mean target
    assert huge.weights[0] == pytest.approx(0.0, abs=1e-9) and huge.bias == pytest.approx(103.0)


def test_ridge_refuses_bad_shapes_and_alphas():
    with pytest.raises(ValueError, match="x, y"):
        fit_ridge(np.zeros((3, 2)), np.zeros(4), 1.0)
    for alpha in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="alpha"):
            fit_ridge(np.eye(3), np.zeros(3), alpha)


def test_block_contributions_add_up_to_the_prediction_without_bias():
    rng = np.random.default_rng(5)
    h, r, w = rng.normal(size=4), rng.normal(size=4), rng.normal(size=16)
    x = features(h, r)
    parts = block_contributions(x, w)
    assert list(parts) == list(BLOCKS)
    assert parts["h*r"] == pytest.approx(float((h * r) @ w[8:12]))
    assert sum(parts.values()) + 0.5 == pytest.approx(float(predict(x, w, 0.5)))
    with pytest.raises(ValueError, match="weights"):
        block_contributions(x, w[:12])

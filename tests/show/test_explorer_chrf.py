"""The chrF explorer, headless: every order's numbers it renders are mtlearn.chrf's."""

from __future__ import annotations

import html

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402
from explorer_html import descriptions, dom_classes, numbers, value  # noqa: E402

from mtlearn import chrf  # noqa: E402
from mtlearn.show.explorers import ChrfExplorer  # noqa: E402
from mtlearn.show.plots import find_gid  # noqa: E402


def _order_key(o) -> str:
    return f"{'c' if o.kind == 'char' else 'w'}{o.n}"


def test_chrf_renders_the_library_numbers():
    cand, refs = "the cats sat on the mats", ["the cat sat on the mat"]
    x = ChrfExplorer(cand, refs, word_order=2)
    direct = chrf(cand, refs, word_order=2)
    assert x.result == direct and x.error is None
    n = numbers(x.score_html, x.summary_html, x.table_html)
    assert float(n.values["score"]) == direct.score
    assert float(n.values["precision"]) == direct.precision and float(n.values["recall"]) == direct.recall
    assert float(n.values["f-beta"]) == direct.f_beta
    for o in direct.orders:
        k = _order_key(o)
        assert [int(n.values[f"{name}-{k}"])
                for name in ("candidate-count", "reference-count", "matched")] == [
            o.candidate_count, o.reference_count, o.matched]
        assert n.exact[f"precision-{k}"] == str(o.precision) and n.exact[f"recall-{k}"] == str(o.recall)
        assert float(n.values[f"f-{k}"]) == o.f
    assert "chrF2++ = " in x.score_html.value
    assert numbers(x.table_html).row_classes == ["mtlearn-order"] * 8


def test_chrf_picture_matches_the_result():
    x = ChrfExplorer("the cats sat", ["the cat sat"], char_order=3)
    ax = x.figure.axes[0]
    assert [b.get_height() for b in find_gid(ax, "recall-bar")] == [float(o.recall) for o in x.result.orders]
    assert bytes(x.image.value[:8]) == b"\x89PNG\r\n\x1a\n"
    first = bytes(x.image.value)
    x.char_order_input.value = 4
    assert len(find_gid(x.figure.axes[0], "recall-bar")) == 4 and bytes(x.image.value) != first


@pytest.mark.parametrize(
    "control, new, options",
    [
        ("char_order_input", 3, dict(char_order=3)),
        ("word_order_input", 2, dict(word_order=2)),
        ("beta_input", 1.0, dict(beta=1.0)),
        ("lowercase_input", True, dict(lowercase=True)),
        ("whitespace_input", True, dict(whitespace=True)),
        ("eps_smoothing_input", True, dict(eps_smoothing=True)),
    ],
)
def test_chrf_each_control_updates_live(control, new, options):
    cand, refs = "The cats sat on the mats.", ["the cat sat on the mat .", "A cat sat on a mat."]
    x = ChrfExplorer(cand, refs)
    assert x.result == chrf(cand, refs)
    getattr(x, control).value = new
    direct = chrf(cand, refs, **options)
    assert x.result == direct
    assert value(x, "score") == direct.score
    assert value(x, "precision") == direct.precision


def test_chrf_typing_the_candidate_updates():
    x = ChrfExplorer("the cat", ["the cat sat on the mat"])
    before = value(x, "score")
    x.candidate_input.value = "the cat sat on the mat"
    assert (value(x, "score") == chrf("the cat sat on the mat", ["the cat sat on the mat"]).score == 1.0
            != before)


def test_chrf_several_references_shows_the_kept_one():
    refs = ["a dog ran off", "the cat sat down"]
    x = ChrfExplorer("the cat sat", "\n".join(refs))
    direct = chrf("the cat sat", refs)
    assert value(x, "best-reference") == direct.best_reference + 1 == 2
    assert [value(x, f"reference-score-{k}") for k in (1, 2)] == list(direct.reference_scores)
    assert html.escape(direct.reference_choice) in x.summary_html.value
    assert "reference 2 of 2 kept" in x.figure.axes[0].get_title()


def test_chrf_beta_slider_is_rounded():
    x = ChrfExplorer("the cats sat", ["the cat sat"])
    x.beta_input.value = 1.5000000000000002  # what a browser may send
    assert x.result.beta == 1.5


def test_chrf_bad_settings_show_a_message():
    x = ChrfExplorer("the cat", ["the cat"])
    x.beta_input.value = 0.0
    assert x.result is None and x.error.startswith("beta:")
    assert "mtlearn-error" in x.message_html._dom_classes and x.table_html.value == ""
    assert bytes(x.image.value) == b"" and x.figure is None
    x.beta_input.value = 2.0
    x.set_inputs(char_order=0, word_order=0)
    assert x.result is None and x.error.startswith("char_order:")
    x.set_inputs(char_order=6)
    assert x.error is None and "mtlearn-error" not in x.message_html._dom_classes


def test_chrf_no_references():
    x = ChrfExplorer("the cat", " \n ")
    assert x.result is None and x.error == "references: give at least one reference, one per line"


def test_chrf_empty_candidate_shows_the_reason():
    x = ChrfExplorer("", ["the cat"])
    assert x.error is None and value(x, "score") == 0.0
    assert x.result.reason and html.escape(x.result.reason) in x.message_html.value
    assert "mtlearn-note" in x.message_html.value
    assert numbers(x.table_html).row_classes == ["mtlearn-unused-order"] * 6


def test_chrf_constructor_checks_arguments():
    with pytest.raises(ValueError, match="^beta: "):
        ChrfExplorer("a", ["a"], beta=-1)
    with pytest.raises(ValueError, match="^char_order: the explorer's slider goes up to 10"):
        ChrfExplorer("a", ["a"], char_order=12)
    with pytest.raises(TypeError, match="^references: "):
        ChrfExplorer("a", [1])  # type: ignore[list-item]


def test_chrf_set_inputs_recomputes_once(monkeypatch):
    x = ChrfExplorer("a b c", ["a b c"])
    calls = []
    original = x.refresh
    monkeypatch.setattr(x, "refresh", lambda: (calls.append(1), original())[1])
    x.set_inputs(candidate="a b", references=["a b", "a c"], word_order=2, beta=1)
    assert calls == [1]
    assert x.result == chrf("a b", ["a b", "a c"], word_order=2, beta=1)
    with pytest.raises(TypeError, match="^tokenize: not an input of ChrfExplorer"):
        x.set_inputs(tokenize="13a")


def test_chrf_is_a_displayable_widget_with_css_classes():
    x = ChrfExplorer("a b", ["a b"])
    assert isinstance(x, widgets.VBox) and x.widget is x
    assert "application/vnd.jupyter.widget-view+json" in x._repr_mimebundle_()
    assert {"mtlearn-chrf-explorer", "mtlearn-candidate", "mtlearn-references", "mtlearn-char-order",
            "mtlearn-word-order", "mtlearn-chrf-beta", "mtlearn-lowercase", "mtlearn-whitespace",
            "mtlearn-eps-smoothing", "mtlearn-score", "mtlearn-summary", "mtlearn-order-table",
            "mtlearn-chrf-plot", "mtlearn-message"} <= dom_classes(x)
    assert {"Candidate", "References", "Char order", "Word order", "beta", "Lowercase", "Whitespace",
            "Eps smoothing"} <= descriptions(x)

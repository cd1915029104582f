"""BERTScore's pictures show what the result says (read back from the artists); no encoder needed."""

from __future__ import annotations

from dataclasses import replace

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mtlearn.metrics.bertscore.formulas import idf_weights, token_weights  # noqa: E402
from mtlearn.metrics.bertscore.score import bertscore_from_stats  # noqa: E402
from mtlearn.metrics.bertscore.stats import BertScoreStats  # noqa: E402
from mtlearn.show.fonts import cjk_font_family  # noqa: E402
from mtlearn.show.plots import BERTSCORE_PICTURE_MAX_TOKENS, find_gid, plot_layers, plot_similarity  # noqa: E402
from mtlearn.show.plots.bertscore import demo_result  # noqa: E402


def with_idf(result):
    """``result`` with idf weights (from a two-document corpus), as bertscore(idf=True) would weigh it."""
    table = idf_weights([("[CLS]", "the", "a", "[SEP]"), ("[CLS]", "cat", "[SEP]")])
    best = result.best
    best = replace(best, candidate_weights=token_weights(result.candidate_tokens, table, 2),
                   reference_weights=token_weights(best.reference_tokens, table, 2))
    return replace(result, idf=True, comparisons=(best,))


def test_boxes_are_each_row_s_best_and_dots_each_column_s_best():
    r = demo_result()
    ax = plot_similarity(r).axes[0]
    sim = r.best.similarity
    boxes = find_gid(ax, "precision-match")
    assert [(round(b.get_x() + 0.5), round(b.get_y() + 0.5)) for b in boxes] == \
        [(int(np.argmax(row)), i) for i, row in enumerate(sim)]
    dots = [(round(d.get_xdata()[0] - 0.3), round(d.get_ydata()[0] + 0.3))
            for d in find_gid(ax, "recall-match")]
    assert dots == [(j, int(np.argmax(sim[:, j]))) for j in range(sim.shape[1])]
    # [CLS] and [SEP] weigh 0: their matches are faint
    assert [b.get_alpha() for b in boxes] == [0.35, 1.0, 1.0, 0.35]


def test_the_heat_map_is_the_matrix_with_readable_token_labels():
    r = demo_result()
    ax = plot_similarity(r).axes[0]
    assert ax.images[0].get_gid() == "similarity"
    assert np.array_equal(ax.images[0].get_array(), r.best.similarity)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(r.candidate_tokens)
    assert [t.get_text() for t in ax.get_xticklabels()] == list(r.best.reference_tokens)
    cells = [float(t.get_text()) for t in find_gid(ax, "cosine")]
    assert cells == [round(v, 2) for v in r.best.similarity.ravel().tolist()]
    first, second = ax.get_title().splitlines()
    assert first == f"BERTScore F1 = {r.f1:.4f}  (P = {r.precision:.4f}, R = {r.recall:.4f})"
    assert second == "layer 4, every token weighs 1"


def test_idf_weights_are_drawn_beside_rows_and_above_columns():
    r = with_idf(demo_result())
    ax = plot_similarity(r).axes[0]
    rows = [b.get_width() for a in ax.child_axes for b in find_gid(a, "candidate-weight")]
    cols = [b.get_height() for a in ax.child_axes for b in find_gid(a, "reference-weight")]
    assert rows == r.best.candidate_weights.tolist() and cols == r.best.reference_weights.tolist()
    assert "idf weights" in ax.get_title()
    assert not [a for a in plot_similarity(demo_result()).axes[0].child_axes]  # none without idf


def test_rescaled_result_says_the_matrix_is_raw():
    r = replace(demo_result(), rescale=True, f1=0.5, precision=0.6, recall=0.4)
    title = plot_similarity(r).axes[0].get_title()
    assert "F1 = 0.5000  (P = 0.6000, R = 0.4000)" in title and "rescaled (the matrix is raw)" in title


def test_tokens_are_drawn_as_typed_and_cjk_gets_a_font():
    r = demo_result()
    cand = ("[CLS]", "$x$", "猫", "[SEP]")
    ax = plot_similarity(replace(r, candidate_tokens=cand)).axes[0]
    labels = ax.get_yticklabels()
    assert [t.get_text() for t in labels] == list(cand) and not labels[1].get_parse_math()
    family = cjk_font_family()
    if family is not None:
        assert family in labels[2].get_fontfamily()


def test_refuses_what_it_cannot_draw():
    with pytest.raises(TypeError, match="^result: expected a BertScoreResult"):
        plot_similarity("the cat")  # type: ignore[arg-type]
    corpus = bertscore_from_stats(BertScoreStats(1.8, 1.6, 1.7, 2))
    with pytest.raises(ValueError, match="^result: a corpus result has no similarity matrix"):
        plot_similarity(corpus)
    n = BERTSCORE_PICTURE_MAX_TOKENS + 1
    tokens = tuple(f"w{k}" for k in range(n))
    big = demo_result()
    big = replace(big, candidate_tokens=tokens,
                  comparisons=(replace(big.best, similarity=np.zeros((n, 5)),
                                       precision_matches=np.zeros(n, dtype=int),
                                       candidate_weights=np.ones(n)),))
    with pytest.raises(ValueError, match=f"^result: {n} tokens on one side"):
        plot_similarity(big)
    with pytest.raises(TypeError, match="^results: expected a non-empty list"):
        plot_layers([])


def test_layers_plot_draws_each_layer_s_numbers_in_order():
    rs = [replace(demo_result(), layer=k, precision=0.9 - k / 100, recall=0.6 + k / 50, f1=0.7 + k / 40)
          for k in (3, 0, 6)]
    ax = plot_layers(rs).axes[0]
    f1 = find_gid(ax, "f1")[0]
    assert f1.get_xdata().tolist() == [0, 3, 6]
    assert f1.get_ydata().tolist() == [0.7, 0.7 + 3 / 40, 0.7 + 6 / 40]
    assert find_gid(ax, "recall")[0].get_ydata().tolist() == [0.6, 0.6 + 3 / 50, 0.6 + 6 / 50]

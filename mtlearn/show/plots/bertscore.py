"""BERTScore's pictures: the cosine matrix with both sides' greedy matches, and F1 at every layer.

:func:`plot_similarity` reads a segment's :class:`~mtlearn.metrics.bertscore.result.BertScoreResult`:
the cosine of every candidate token (rows) with every reference token (columns) of the best reference,
a box on each row's best column (the precision side: each candidate token takes its most similar
reference token), a dot on each column's best row (the recall side), and, with idf on, each token's
weight as a bar beside its row or above its column. :func:`plot_layers` draws P, R and F1 of one
pair at several layers (0, the embeddings before any context, to 6). Nothing here computes BERTScore.

>>> r = demo_result()
>>> ax = plot_similarity(r).axes[0]
>>> len(find_gid(ax, "precision-match")), len(find_gid(ax, "recall-match"))
(4, 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ._style import (
    figure_and_axes,
    find_gid,  # noqa: F401 - the doctests read the pictures back
    literal,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.bertscore.result import BertScoreResult

__all__ = ["BERTSCORE_COLOURS", "BERTSCORE_PICTURE_MAX_TOKENS", "demo_result", "plot_layers",
           "plot_similarity"]

#: The matches (precision: boxes, recall: dots) and the weight bars.
BERTSCORE_COLOURS: dict[str, str] = {"precision": "#d62728", "recall": "#ff7f0e", "f1": "#2ca02c",
                                     "weight": "#7b3294"}
#: plot_similarity draws sides of up to this many tokens ([CLS] and [SEP] included); more is unreadable.
BERTSCORE_PICTURE_MAX_TOKENS = 80
#: The cosines are written in the cells when both sides have at most this many tokens.
_NUMBERS_MAX_TOKENS = 14


def demo_result() -> "BertScoreResult":
    """A small hand-made result (no encoder needed): 4 candidate tokens, 5 reference tokens, layer 4.

    The cosines are made up; the matches, P, R and F1 are computed from them by BERTScore's formulas.

    >>> r = demo_result()
    >>> r.candidate_tokens, round(r.f1, 4)
    (('[CLS]', 'the', 'cat', '[SEP]'), 0.8077)
    """
    from mtlearn.metrics.bertscore.formulas import (
        best_candidate_matches,
        best_reference_matches,
        f1,
        token_weights,
        weighted_mean,
    )
    from mtlearn.metrics.bertscore.result import BertScoreComparison, BertScoreResult

    cand, ref = ("[CLS]", "the", "cat", "[SEP]"), ("[CLS]", "a", "cat", "sat", "[SEP]")
    sim = np.array([[0.9, 0.3, 0.2, 0.2, 0.5], [0.3, 0.8, 0.4, 0.3, 0.2],
                    [0.2, 0.3, 0.95, 0.5, 0.1], [0.5, 0.2, 0.1, 0.3, 0.9]])
    cw, rw = token_weights(cand, None), token_weights(ref, None)
    p, r = weighted_mean(sim.max(axis=1), cw), weighted_mean(sim.max(axis=0), rw)
    comparison = BertScoreComparison("a cat sat", ref, sim, cw, rw, best_candidate_matches(sim),
                                     best_reference_matches(sim), p, r, f1(p, r))
    return BertScoreResult(f1(p, r), p, r, f1(p, r), p, r, f1(p, r), 4, False, False, None, "demo",
                           candidate="the cat", candidate_tokens=cand, comparisons=(comparison,),
                           best_reference=0)


def _check_segment(result: object) -> "BertScoreResult":
    from mtlearn.metrics.bertscore.result import BertScoreResult

    if not isinstance(result, BertScoreResult):
        raise TypeError(f"result: expected a BertScoreResult, got {type(result).__name__}")
    if result.best is None:
        raise ValueError("result: a corpus result has no similarity matrix; plot one of its segments "
                         "(result.segments[i])")
    return result


def plot_similarity(result: "BertScoreResult", *, title: Optional[str] = None,
                    ax: Optional[Axes] = None) -> Figure:
    """The cosine matrix of the best reference as a heat map, with both sides' greedy matches.

    Rows are the candidate's tokens, columns the best reference's (``[CLS]`` and ``[SEP]``
    included: they take part in the matches but weigh 0, so they are drawn faint). A red box marks
    each row's most similar column (precision: the mean of these boxes' cosines, weighted), an
    orange dot each column's most similar row (recall). With idf on, purple bars beside the rows
    and above the columns are the tokens' weights. The title gives P, R and F1 (rescaled when the
    result is). Sides above :data:`BERTSCORE_PICTURE_MAX_TOKENS` tokens are refused (``ValueError``).

    >>> r = demo_result()
    >>> ax = plot_similarity(r).axes[0]
    >>> [int(b.get_x() + 0.5) for b in find_gid(ax, "precision-match")] == r.best.precision_matches.tolist()
    True
    >>> ax.get_title().splitlines()[0]
    'BERTScore F1 = 0.8077  (P = 0.8750, R = 0.7500)'
    """
    result = _check_segment(result)
    comparison = result.best
    assert comparison is not None  # checked above
    rows, cols = result.candidate_tokens, comparison.reference_tokens
    longest = max(len(rows), len(cols))
    if longest > BERTSCORE_PICTURE_MAX_TOKENS:
        raise ValueError(f"result: {longest} tokens on one side, above the {BERTSCORE_PICTURE_MAX_TOKENS} "
                         "the picture is drawn for (it would be unreadable); result.explain() has every "
                         "number")
    fig, ax = figure_and_axes(ax, max(5.0, 0.32 * len(cols) + 3.2), max(3.5, 0.3 * len(rows) + 2.2))
    sim = comparison.similarity
    image = ax.imshow(sim, cmap="Blues", vmin=min(0.0, float(sim.min())), vmax=1.0, aspect="auto",
                      gid="similarity")
    fig.colorbar(image, ax=ax, label="cosine similarity", shrink=0.8, pad=0.1 if result.idf else 0.03)
    _draw_numbers(ax, sim)
    _draw_matches(ax, comparison)
    _label_tokens(ax, rows, cols, comparison)
    if result.idf:
        _draw_weights(ax, comparison)
    ax.set_title(_title(result, title), fontsize=10)
    return literal(fig, ax)


def _draw_numbers(ax: Axes, sim: np.ndarray) -> None:
    """Each cell's cosine (2 decimals) when the matrix is small enough to read them."""
    if max(sim.shape) > _NUMBERS_MAX_TOKENS:
        return
    for (i, j), value in np.ndenumerate(sim):
        ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=6.5, gid="cosine",
                color="white" if value > 0.6 else "black")


def _draw_matches(ax: Axes, comparison: object) -> None:
    """A box on each row's best column, a dot on each column's best row; tokens of weight 0 faint."""
    for i, j in enumerate(comparison.precision_matches.tolist()):  # type: ignore[attr-defined]
        faint = comparison.candidate_weights[i] == 0  # type: ignore[attr-defined]
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, linewidth=2,
                               edgecolor=BERTSCORE_COLOURS["precision"], alpha=0.35 if faint else 1.0,
                               gid="precision-match"))
    for j, i in enumerate(comparison.recall_matches.tolist()):  # type: ignore[attr-defined]
        faint = comparison.reference_weights[j] == 0  # type: ignore[attr-defined]
        ax.plot([j + 0.3], [i - 0.3], marker="o", markersize=5, linestyle="",
                color=BERTSCORE_COLOURS["recall"], alpha=0.35 if faint else 1.0, gid="recall-match")


def _label_tokens(ax: Axes, rows: Sequence[str], cols: Sequence[str], comparison: object) -> None:
    ax.set_yticks(range(len(rows)), list(rows), fontsize=8)
    ax.set_xticks(range(len(cols)), list(cols), fontsize=8, rotation=90)
    ax.tick_params(top=False, bottom=True)
    for label in (*ax.get_xticklabels(), *ax.get_yticklabels()):
        label.set_parse_math(False)  # a token is drawn as typed ("$" is a dollar sign)
    ax.set_ylabel("candidate tokens")
    ax.set_xlabel("reference tokens\nred box: a row's best (precision)\norange dot: a column's best (recall)",
                  fontsize=8)


def _draw_weights(ax: Axes, comparison: object) -> None:
    """The idf weights: bars right of the rows (candidate), above the columns (reference)."""
    right = ax.inset_axes((1.01, 0.0, 0.1, 1.0), sharey=ax)
    right.barh(range(len(comparison.candidate_weights)), comparison.candidate_weights,  # type: ignore
               color=BERTSCORE_COLOURS["weight"], height=0.7, gid="candidate-weight")
    right.tick_params(labelleft=False, labelsize=6)
    right.set_xlabel("idf", fontsize=7)
    top = ax.inset_axes((0.0, 1.01, 1.0, 0.1), sharex=ax)
    top.bar(range(len(comparison.reference_weights)), comparison.reference_weights,  # type: ignore
            color=BERTSCORE_COLOURS["weight"], width=0.7, gid="reference-weight")
    top.tick_params(labelbottom=False, labelsize=6)
    top.set_ylabel("idf", fontsize=7)


def _title(result: "BertScoreResult", title: Optional[str]) -> str:
    first = f"BERTScore F1 = {result.f1:.4f}  (P = {result.precision:.4f}, R = {result.recall:.4f})"
    if len(result.comparisons) > 1 and result.best_reference is not None:
        first += f"  reference {result.best_reference + 1} of {len(result.comparisons)}"
    how = [f"layer {result.layer}", "idf weights" if result.idf else "every token weighs 1"]
    if result.rescale:
        how.append("P, R, F1 rescaled (the matrix is raw)")
    second = ", ".join(how)
    return f"{title}\n{first}\n{second}" if title else f"{first}\n{second}"


def plot_layers(results: Sequence["BertScoreResult"], *, title: Optional[str] = None,
                ax: Optional[Axes] = None) -> Figure:
    """P, R and F1 of one candidate and its references at several layers: what context adds.

    ``results``: one segment result per layer (e.g. layers 0..6 of the same pair); layer 0 is the
    embeddings before any context, so there a word's vector is the same in any sentence.

    >>> from dataclasses import replace
    >>> rs = [replace(demo_result(), layer=k, f1=0.5 + k / 20) for k in range(3)]
    >>> [round(y, 2) for y in find_gid(plot_layers(rs).axes[0], "f1")[0].get_ydata().tolist()]
    [0.5, 0.55, 0.6]
    """
    if isinstance(results, (str, bytes)) or not isinstance(results, Sequence) or not results:
        raise TypeError("results: expected a non-empty list of BertScoreResult, one per layer")
    checked = sorted((_check_segment(r) for r in results), key=lambda r: r.layer)
    fig, ax = figure_and_axes(ax, 5.0, 3.2)
    layers = [r.layer for r in checked]
    for name, style in (("precision", "--"), ("recall", ":"), ("f1", "-")):
        ax.plot(layers, [getattr(r, name) for r in checked], marker="o", linestyle=style,
                color=BERTSCORE_COLOURS[name], gid=name, label=name if name != "f1" else "F1")
    ax.set_xticks(layers)
    ax.set_xlabel("layer (0: embeddings, no context)")
    ax.set_ylabel("P, R, F1" + (" (rescaled)" if checked[0].rescale else ""))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    ax.set_title(title or "BERTScore at each layer of all-MiniLM-L6-v2", fontsize=10)
    return literal(fig, ax)

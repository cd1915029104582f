"""BLEU's pictures: an n-gram table with clipping marked, the brevity penalty, the weights of the orders.

>>> from mtlearn import bleu
>>> ax = plot_brevity_penalty(bleu("A B", ["A B C D E F"], max_order=2)).axes[0]
>>> [(round(x, 4), round(y, 4)) for x, y in marker_points(ax)]
[(0.3333, 0.1353)]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Optional, Union

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from mtlearn.metrics.bleu.formulas import brevity_penalty, geometric_mean

from ._style import CLIPPED_COLOUR, CROSSING_COLOUR, UNMATCHED_COLOUR, as_list, figure_and_axes, literal

# isort: split
from ._style import find_gid, marker_points  # noqa: F401 - the doctests read the pictures back

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.bleu.d2l import D2LBleuResult
    from mtlearn.metrics.bleu.result import BleuResult

__all__ = ["plot_ngram_table", "plot_brevity_penalty", "plot_weights"]

def plot_ngram_table(
    result: "BleuResult", n: int = 1, *, max_rows: int = 25, ax: Optional[Axes] = None
) -> Figure:
    """The n-grams of order ``n`` of a one-segment BLEU result, with clipping marked.

    Columns: the n-gram, its count in the candidate, in each reference, the
    maximum over references and the clipped count min(candidate, max). Rows whose
    count was clipped (some reference has the n-gram, fewer times than the
    candidate) are shaded :data:`CLIPPED_COLOUR`, rows no reference has
    :data:`UNMATCHED_COLOUR`; the last row sums the clipped counts over the
    candidate's n-grams: p_n. Papineni's "the the the ...":

    >>> from mtlearn import bleu
    >>> r = bleu("the the the the the the the", ["The cat is on the mat", "There is a cat on the mat"],
    ...          lowercase=True, max_order=1)
    >>> ax = plot_ngram_table(r, 1).axes[0]
    >>> cells = ax.tables[0].get_celld()
    >>> [cells[(1, c)].get_text().get_text() for c in range(6)]
    ['the', '7', '2', '1', '2', '2']
    >>> ax.get_title().splitlines()[0]
    'unigram precision p_1 = 2/7 = 0.2857'
    >>> from matplotlib.colors import to_rgba
    >>> cells[(1, 0)].get_facecolor() == to_rgba(CLIPPED_COLOUR)
    True
    """
    from mtlearn.metrics.bleu.result import BleuResult

    if not isinstance(result, BleuResult):
        raise TypeError(f"result: expected a BleuResult, got {type(result).__name__}")
    if isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 1:
        raise ValueError(f"max_rows: expected a positive int, got {max_rows!r}")
    rows = result.ngram_table(n)  # raises for corpus results and bad n
    nrefs = len(result.reference_tokens or ())
    header = ["n-gram", "candidate", *[f"ref {k + 1}" for k in range(nrefs)], "max ref", "clipped"]
    shown = rows[:max_rows]
    body = _table_body(rows, shown, nrefs, len(header))
    matched = sum(r.clipped_count for r in rows)
    total = sum(r.candidate_count for r in rows)

    longest = max((len(row[0]) for row in body), default=6)
    width = max(4.0, 0.09 * longest + 1.0 * (len(header) - 1) + 0.6)  # room for a bold "candidate"
    fig, ax = figure_and_axes(ax, width, 0.55 + 0.3 * (len(body) + 1))
    table = ax.table(cellText=body, colLabels=header, cellLoc="center", bbox=[0.0, 0.0, 1.0, 1.0])
    table.auto_set_font_size(False)
    table.set_fontsize(10)
    _shade_table(table, shown, len(header), len(body))
    ax.axis("off")
    names = {1: "unigram", 2: "bigram", 3: "trigram"}
    name = names.get(n, f"{n}-gram")
    value = f"{matched}/{total} = {matched / total:.4f}" if total else "0/0 (no n-grams of this order)"
    ax.set_title(f"{name} precision p_{n} = {value}\nred: clipped to the reference count; grey: no match",
                 fontsize=10)
    return literal(fig, ax)


def _table_body(rows: Sequence[Any], shown: Sequence[Any], nrefs: int, ncols: int) -> list[list[str]]:
    """The n-gram table's cells: a row per n-gram shown, how many more there are, the totals."""
    body = [
        [" ".join(r.ngram), str(r.candidate_count), *[str(c) for c in r.reference_counts],
         str(r.max_reference_count), str(r.clipped_count)]
        for r in shown
    ]
    if len(rows) > len(shown):
        body.append([f"... {len(rows) - len(shown)} more", *[""] * (ncols - 1)])
    matched = sum(r.clipped_count for r in rows)
    total = sum(r.candidate_count for r in rows)
    body.append(["total", str(total), *[""] * nrefs, "", str(matched)])
    return body


def _shade_table(table: Any, shown: Sequence[Any], ncols: int, nrows: int) -> None:
    """Bold header and totals; clipped rows red, rows no reference has grey."""
    for c in range(ncols):
        table[(0, c)].set_facecolor("#e8e8e8")
        table[(0, c)].get_text().set_fontweight("bold")
        table[(nrows, c)].get_text().set_fontweight("bold")
    for k, r in enumerate(shown, start=1):
        if r.max_reference_count == 0:
            for c in range(ncols):
                table[(k, c)].set_facecolor(UNMATCHED_COLOUR)
                table[(k, c)].get_text().set_color("#777777")
        elif r.clipped_count < r.candidate_count:
            for c in range(ncols):
                table[(k, c)].set_facecolor(CLIPPED_COLOUR)


def _bp_point(result: Any) -> tuple[float, float, str]:
    from mtlearn.metrics.bleu.d2l import D2LBleuResult
    from mtlearn.metrics.bleu.result import BleuResult

    if isinstance(result, BleuResult):
        c, r = result.candidate_length, result.reference_length
        return (c / r if r else 0.0), result.brevity_penalty, f"c={c}, r={r}"
    if isinstance(result, D2LBleuResult):
        c, r = result.pred_length, result.label_length
        return (c / r if r else 0.0), result.penalty, f"len_pred={c}, len_label={r}"
    raise TypeError(f"results: expected BleuResult or D2LBleuResult items, got {type(result).__name__}")


def plot_brevity_penalty(
    results: Union[None, "BleuResult", "D2LBleuResult", Sequence[Any]] = None,
    *,
    max_ratio: float = 1.6,
    reference_length: int = 200,
    ax: Optional[Axes] = None,
) -> Figure:
    """BP = exp(1 - r/c) for c < r, 1 otherwise, against the length ratio c/r.

    The curve is :func:`mtlearn.metrics.bleu.formulas.brevity_penalty` at every integer c for
    ``reference_length`` r. ``results`` (one or a list of ``BleuResult`` /
    ``D2LBleuResult``) are marked at their own (c/r, BP). The Chinese blog post's example C
    (c = 2, r = 6):

    >>> from mtlearn import bleu
    >>> r = bleu("A B", ["A B C D E F"], max_order=2)
    >>> ax = plot_brevity_penalty(r).axes[0]
    >>> [(round(x, 4), round(y, 4)) for x, y in marker_points(ax)]
    [(0.3333, 0.1353)]
    """
    if not (isinstance(max_ratio, (int, float)) and not isinstance(max_ratio, bool) and max_ratio > 0):
        raise ValueError(f"max_ratio: expected a positive number, got {max_ratio!r}")
    if isinstance(reference_length, bool) or not isinstance(reference_length, int) or reference_length < 2:
        raise ValueError(f"reference_length: expected an int >= 2, got {reference_length!r}")
    points = [_bp_point(r) for r in as_list(results)]
    fig, ax = figure_and_axes(ax, 6.0, 3.6)
    r = reference_length
    cs = range(1, int(max_ratio * r) + 1)
    ax.plot([c / r for c in cs], [brevity_penalty(c, r) for c in cs], color="#1f77b4", linewidth=2,
            gid="curve", label="BP = exp(1 - r/c) if c < r, else 1")
    ax.axvline(1.0, color="#999999", linestyle=":", linewidth=1)
    for k, (x, y, label) in enumerate(points):
        ax.plot([x], [y], "o", color=CROSSING_COLOUR, markersize=7, gid="marker",
                label="results" if k == 0 else None)
        ax.annotate(f"{label}\nBP={y:.4f}", (x, y), textcoords="offset points", xytext=(8, -4),
                    fontsize=8)
    ax.set_xlim(0, max(max_ratio, *(x * 1.05 for x, _, _ in points)) if points else max_ratio)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("length ratio c / r (candidate / reference)")
    ax.set_ylabel("brevity penalty BP")
    ax.set_title("BLEU's brevity penalty: short candidates pay, long ones do not", fontsize=11)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    return literal(fig, ax)


def plot_weights(max_order: int = 4, *, precision: float = 0.5, steps: int = 200,
                 ax: Optional[Axes] = None) -> Figure:
    """How each p_n enters BLEU: the Chinese blog post's p^(1/2^n) against Papineni's p^(1/N).

    Solid curves: the d2l factor p^(1/2^n) for n = 1..``max_order`` (longer n-grams
    get flatter curves, so a poor long-n-gram precision costs less). Dashed: the
    factor p^(1/N) of the uniform geometric mean, the same for every n. Every value is
    :func:`mtlearn.metrics.bleu.formulas.geometric_mean` of one precision with one weight.
    Points at p = ``precision`` are the Chinese blog post's example B:

    >>> ax = plot_weights().axes[0]
    >>> [round(y, 2) for _, y in marker_points(ax)]
    [0.71, 0.84, 0.92, 0.96]
    >>> len(find_gid(ax, "curve"))
    5
    """
    if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
        raise ValueError(f"max_order: expected a positive int, got {max_order!r}")
    if not (isinstance(precision, (int, float, Fraction)) and 0 < precision <= 1):
        raise ValueError(f"precision: expected a number in (0, 1], got {precision!r}")
    fig, ax = figure_and_axes(ax, 6.0, 4.0)
    ps = [k / steps for k in range(steps + 1)]
    for n in range(1, max_order + 1):
        w = 1 / 2 ** n
        colour = f"C{n - 1}"
        ax.plot(ps, [geometric_mean([p], [w]) for p in ps], color=colour, linewidth=2, gid="curve",
                label=f"d2l: p^(1/{2 ** n})  (n = {n})")
        y = geometric_mean([precision], [w])
        ax.plot([precision], [y], "o", color=colour, gid="marker")
        ax.annotate(f"{y:.2f}", (precision, y), textcoords="offset points", xytext=(-24, 2), fontsize=8)
    ax.plot(ps, [geometric_mean([p], [1 / max_order]) for p in ps], color="black", linestyle="--",
            linewidth=1.5, gid="curve", label=f"Papineni: p^(1/{max_order})  (every n, N = {max_order})",
            zorder=3)
    ax.plot(ps, ps, color="#bbbbbb", linewidth=1, linestyle=":", label="p itself")
    ax.axvline(float(precision), color="#999999", linestyle=":", linewidth=1)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("precision p_n")
    ax.set_ylabel("factor in BLEU")
    ax.set_title("p^(1/2^n) (Chinese blog post) against p^(1/N) (Papineni)", fontsize=11)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    return fig

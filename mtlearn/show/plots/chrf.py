"""chrF's picture: precision, recall and F_beta of every order as bars, the averages as lines.

>>> from mtlearn import chrf
>>> ax = plot_chrf_orders(chrf("the cats sat", ["the cat sat"], char_order=2)).axes[0]
>>> len(find_gid(ax, "recall-bar"))
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ._style import CHRF_COLOURS, figure_and_axes, literal

# isort: split
from ._style import find_gid  # noqa: F401 - the doctests read the pictures back

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.chrf.result import ChrfOrder, ChrfResult

__all__ = ["plot_chrf_orders"]

def _chrf_name(result: "ChrfResult") -> str:
    """sacreBLEU's name of the metric: chrF2, chrF2++ (one '+' per word order)."""
    return f"chrF{result.beta:g}" + "+" * result.word_order


def _order_label(order: "ChrfOrder") -> str:
    return f"{'c' if order.kind == 'char' else 'w'}{order.n}"


def plot_chrf_orders(result: "ChrfResult", *, title: Optional[str] = None,
                     ax: Optional[Axes] = None) -> Figure:
    """chrF's precision, recall and F_beta of every order, as bars; the averages as lines.

    One group of three bars per order, character orders first (``c1``, ``c2``, ...)
    then word orders (``w1``, ``w2``, chrF++): precision (blue), recall (orange) and
    that order's F_beta (green); under each group its counts, P = matched / candidate
    n-grams and R = matched / reference n-grams. Orders the candidate or the reference
    has no n-grams of are hatched: they do not enter the averages (sacreBLEU's
    effective order). Dashed lines mark the averaged precision and recall, the thick
    line the score F_beta computed from them (with ``eps_smoothing`` the score is
    the mean of the orders' F_beta instead). Works for a segment and for a corpus
    (summed counts).

    >>> from mtlearn import chrf
    >>> r = chrf("the cats sat", ["the cat sat"], char_order=2, word_order=1)
    >>> ax = plot_chrf_orders(r).axes[0]
    >>> [t.get_text().splitlines()[0] for t in ax.get_xticklabels()]
    ['c1', 'c2', 'w1']
    >>> len(find_gid(ax, "precision-bar")), len(find_gid(ax, "f-bar"))
    (3, 3)
    >>> ax.get_title().splitlines()[0] == f"chrF2+ = {r.score:.4f}"
    True
    """
    from mtlearn.metrics.chrf.result import ChrfResult

    if not isinstance(result, ChrfResult):
        raise TypeError(f"result: expected a ChrfResult, got {type(result).__name__}")
    orders = list(result.orders)
    fig, ax = figure_and_axes(ax, max(5.0, 0.75 * len(orders) + 2.6), 3.8)
    _draw_order_bars(ax, orders)
    averages = (("precision", result.precision, "--", f"averaged precision {float(result.precision):.4f}"),
                ("recall", result.recall, "--", f"averaged recall {float(result.recall):.4f}"))
    for name, value, style, label in averages:
        ax.axhline(float(value), color=CHRF_COLOURS[name], linestyle=style, linewidth=1.3,
                   gid=f"average-{name}",
                   label=label, zorder=3)
    ax.axhline(float(result.score), color="black", linewidth=2.2, gid="score", zorder=3,
               label=f"{_chrf_name(result)} = {result.score:.4f} (beta = {result.beta:g})")
    if result.char_order and result.word_order:
        ax.axvline(result.char_order - 0.5, color="#999999", linestyle=":", linewidth=1)
    ax.set_xticks(range(len(orders)),
                  [f"{_order_label(o)}\nP {o.matched}/{o.candidate_count}\nR {o.matched}/{o.reference_count}"
                   for o in orders], fontsize=8)
    ax.set_xlim(-0.6, len(orders) - 0.4)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("order (c: character n-grams, w: word n-grams); P = matched / candidate n-grams, "
                  "R = matched / reference n-grams", fontsize=8)
    ax.set_ylabel("precision, recall, F_beta")
    handles = [Patch(color=CHRF_COLOURS[k], label=label) for k, label in
               (("precision", "precision"), ("recall", "recall"), ("f", "F_beta of the order"))]
    lines, _ = ax.get_legend_handles_labels()
    ax.legend(handles=handles + lines, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    ax.grid(axis="y", alpha=0.3, zorder=0)
    ax.set_title(_title(result, title), fontsize=10)
    return literal(fig, ax)


def _draw_order_bars(ax: Axes, orders: "list[ChrfOrder]") -> None:
    """Three bars an order (precision, recall, F_beta); faint and hatched where the order is not used."""
    width = 0.26
    for k, order in enumerate(orders):
        used = order.used
        hatch = None if used else "//"
        for offset, (name, value) in zip((-width, 0.0, width), (("precision", order.precision),
                                                                 ("recall", order.recall), ("f", order.f))):
            ax.bar(k + offset, float(value), width=width, color=CHRF_COLOURS[name],
                   alpha=1.0 if used else 0.35,
                   hatch=hatch, edgecolor="white", gid=f"{name}-bar", zorder=2)


def _title(result: "ChrfResult", title: Optional[str]) -> str:
    """The score, which reference was kept (of several), and the rule that averaged the orders."""
    first = f"{_chrf_name(result)} = {result.score:.4f}"
    if result.best_reference is not None and result.references and len(result.references) > 1:
        first += f"  (reference {result.best_reference + 1} of {len(result.references)} kept)"
    rule = ("mean of the orders' F_beta (eps smoothing)" if result.eps_smoothing
            else "F_beta of the averaged precision and recall")
    return f"{title}\n{first}\n{rule}" if title else f"{first}\n{rule}"

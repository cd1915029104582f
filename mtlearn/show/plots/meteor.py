"""METEOR's curves: the fragmentation penalty, F_mean over (P, R), F_mean against alpha.

>>> [round(y, 4) for _, y in marker_points(plot_f_mean_alpha().axes[0])]
[0.9091, 0.5263, 0.9836]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Optional, Union

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from mtlearn.metrics.meteor.formulas import f_mean, fragmentation_penalty

from ._style import CROSSING_COLOUR, as_list, figure_and_axes, literal

# isort: split
from ._style import marker_points  # noqa: F401 - the doctests read the pictures back

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.meteor.result import MeteorResult

__all__ = ["plot_meteor_penalty", "plot_f_mean", "plot_f_mean_alpha"]

def _meteor_results(results: Any) -> list["MeteorResult"]:
    from mtlearn.metrics.meteor.result import MeteorResult

    items = as_list(results)
    for item in items:
        if not isinstance(item, MeteorResult):
            raise TypeError(f"results: expected MeteorResult items, got {type(item).__name__}")
    return items


def plot_meteor_penalty(
    results: Union[None, "MeteorResult", Sequence["MeteorResult"]] = None,
    *,
    beta: float = 3.0,
    gamma: float = 0.5,
    matches: int = 240,
    labels: Optional[Sequence[str]] = None,
    ax: Optional[Axes] = None,
) -> Figure:
    """METEOR's fragmentation penalty gamma * (c / u_m)^beta against c / u_m.

    The curve is :func:`mtlearn.metrics.meteor.formulas.fragmentation_penalty` at every chunk
    count c = 0..``matches`` for u_m = ``matches``. ``results`` are marked at their
    own (c/u_m, penalty) (computed with *their* beta and gamma); ``labels`` name them.
    The worked example's rows 1 and 3:

    >>> from mtlearn import meteor
    >>> rows = [meteor(c, ["the cat sat on the mat"], stages=["exact"])
    ...         for c in ("on the mat sat the cat", "the cat was sat on the mat")]
    >>> ax = plot_meteor_penalty(rows).axes[0]
    >>> [(round(x, 4), round(y, 4)) for x, y in marker_points(ax)]
    [(1.0, 0.5), (0.3333, 0.0185)]
    """
    from mtlearn.metrics.meteor.options import check_parameters

    check_parameters(0.5, beta, gamma)
    if isinstance(matches, bool) or not isinstance(matches, int) or matches < 1:
        raise ValueError(f"matches: expected a positive int, got {matches!r}")
    items = _meteor_results(results)
    if labels is not None and len(labels) != len(items):
        raise ValueError(f"labels: {len(labels)} labels for {len(items)} results")
    fig, ax = figure_and_axes(ax, 6.0, 3.8)
    cs = range(0, matches + 1)
    ax.plot([c / matches for c in cs], [float(fragmentation_penalty(c, matches, beta, gamma)) for c in cs],
            color="#1f77b4", linewidth=2, gid="curve",
            label=f"penalty = {gamma:g} * (c/u_m)^{beta:g}")
    for k, r in enumerate(items):
        x, y = float(r.fragmentation), float(r.penalty)
        ax.plot([x], [y], "o", color=f"C{(k + 1) % 10}", markersize=7, gid="marker")
        name = labels[k] if labels is not None else f"{r.chunks} chunks / {r.matches} matches"
        right = x > 0.6
        ax.annotate(f"{name}: penalty={y:.4f}, score={r.score:.4f}", (x, y), textcoords="offset points",
                    xytext=(-12, -14 - 16 * k) if right else (10, 14 + 16 * k),
                    ha="right" if right else "left", fontsize=8,
                    arrowprops=dict(arrowstyle="-", color="#999999", linewidth=0.8))
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, max(float(gamma), 0.01) * 1.15)
    ax.set_xlabel("fragmentation c / u_m (chunks / matched unigrams)")
    ax.set_ylabel("penalty")
    ax.set_title("METEOR's fragmentation penalty: score = F_mean * (1 - penalty)", fontsize=11)
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    return literal(fig, ax)


def plot_f_mean(
    alpha: float = 0.9,
    *,
    results: Union[None, "MeteorResult", Sequence["MeteorResult"]] = None,
    steps: int = 40,
    ax: Optional[Axes] = None,
) -> Figure:
    """F_mean = P R / (alpha P + (1 - alpha) R) over the unit square, as a filled contour.

    Values come from :func:`mtlearn.metrics.meteor.formulas.f_mean` on a grid of exact
    fractions k/``steps``. With alpha = 0.9 the contours hug the recall axis: recall
    counts nine times more. ``results`` are marked at their (P, R).

    >>> ax = plot_f_mean(0.9).axes[0]
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('precision P', 'recall R')
    >>> "alpha = 0.9" in ax.get_title()
    True
    """
    from mtlearn.metrics.meteor.options import check_parameters

    check_parameters(alpha, 3, 0.5)
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 2:
        raise ValueError(f"steps: expected an int >= 2, got {steps!r}")
    items = _meteor_results(results)
    fig, ax = figure_and_axes(ax, 5.2, 4.4)
    grid = [Fraction(k, steps) for k in range(steps + 1)]
    values = [[float(f_mean(p, r, alpha)) for p in grid] for r in grid]  # rows: R, columns: P
    xs = [float(p) for p in grid]
    levels = [k / 10 for k in range(11)]
    filled = ax.contourf(xs, xs, values, levels=levels, cmap="viridis")
    lines = ax.contour(xs, xs, values, levels=levels[1:-1], colors="white", linewidths=0.6)
    ax.clabel(lines, fmt="%.1f", fontsize=7)
    fig.colorbar(filled, ax=ax, label="F_mean")
    for k, r in enumerate(items):
        # Not clipped: a point on the border (R = 1, P = 1) is drawn whole.
        ax.plot([float(r.precision)], [float(r.recall)], "o", color=CROSSING_COLOUR,
                markeredgecolor="white", markersize=8, gid="marker", clip_on=False, zorder=4)
        # Dark type on a white box: readable on every colour of the map, yellow included.
        ax.annotate(f"F={float(r.f_mean):.4f}", (float(r.precision), float(r.recall)),
                    textcoords="offset points", xytext=(-9, -9 - 16 * k), ha="right", va="top", fontsize=8,
                    color="black",
                    bbox=dict(boxstyle="round,pad=0.25", facecolor="white", edgecolor="#555555",
                              linewidth=0.6, alpha=0.9),
                    arrowprops=dict(arrowstyle="-", color="white", linewidth=0.8, shrinkA=0, shrinkB=4))
    ax.set_xlabel("precision P")
    ax.set_ylabel("recall R")
    ax.set_aspect("equal")
    ax.set_title(f"F_mean, alpha = {alpha:g}", pad=10)  # room above a marker at R = 1
    return fig


def plot_f_mean_alpha(
    pairs: Sequence[tuple[Union[float, Fraction], Union[float, Fraction]]] = (
        (Fraction(1, 2), Fraction(1)), (Fraction(1), Fraction(1, 2)), (Fraction(6, 7), Fraction(1))),
    *,
    steps: int = 100,
    mark_alpha: Optional[float] = 0.9,
    ax: Optional[Axes] = None,
) -> Figure:
    """F_mean against alpha from 0 (precision only) to 1 (recall only), one curve per (P, R).

    Values from :func:`mtlearn.metrics.meteor.formulas.f_mean`; the vertical line marks
    ``mark_alpha`` (METEOR's 0.9). At alpha = 0.9 the pair (P=1/2, R=1) scores far
    higher than (P=1, R=1/2):

    >>> ax = plot_f_mean_alpha().axes[0]
    >>> [round(y, 4) for _, y in marker_points(ax)]
    [0.9091, 0.5263, 0.9836]
    """
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 2:
        raise ValueError(f"steps: expected an int >= 2, got {steps!r}")
    checked = _checked_pairs(pairs)
    fig, ax = figure_and_axes(ax, 6.0, 3.8)
    alphas = [Fraction(k, steps) for k in range(steps + 1)]
    for k, (p, r) in enumerate(checked):
        colour = f"C{k}"
        ax.plot([float(a) for a in alphas], [float(f_mean(p, r, a)) for a in alphas], color=colour,
                linewidth=2, gid="curve", label=f"P = {p}, R = {r}")
        if mark_alpha is not None:
            y = float(f_mean(p, r, mark_alpha))
            ax.plot([mark_alpha], [y], "o", color=colour, gid="marker")
            ax.annotate(f"{y:.4f}", (mark_alpha, y), textcoords="offset points", xytext=(-38, 4), fontsize=8)
    if mark_alpha is not None:
        ax.axvline(mark_alpha, color="#999999", linestyle=":", linewidth=1)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("alpha (0: precision only, 1: recall only)")
    ax.set_ylabel("F_mean")
    ax.set_title("F_mean = P R / (alpha P + (1 - alpha) R)")
    ax.legend(loc="lower left", fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def _checked_pairs(pairs: Sequence[Any]) -> list[tuple[Any, Any]]:
    """(P, R) pairs, each in [0, 1] (whole numbers as Fractions); at least one.

    >>> _checked_pairs([(1, 0.5)])
    [(Fraction(1, 1), 0.5)]
    """
    checked = []
    for k, pair in enumerate(pairs):
        try:
            p, r = pair
        except (TypeError, ValueError):
            raise TypeError(f"pairs: item {k} is not a (P, R) pair") from None
        if not (0 <= p <= 1 and 0 <= r <= 1):
            raise ValueError(f"pairs: item {k} = ({p}, {r}); P and R lie in [0, 1]")
        checked.append((Fraction(p) if isinstance(p, int) else p, Fraction(r) if isinstance(r, int) else r))
    if not checked:
        raise ValueError("pairs: give at least one (P, R) pair")
    return checked

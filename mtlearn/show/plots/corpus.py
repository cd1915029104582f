"""Two systems segment by segment: a sentence metric of system A against system B (``CorpusExplorer``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from mtlearn.show.plots._style import TeachingFigure

__all__ = ["plot_segment_pairs"]


def plot_segment_pairs(scores_a: Sequence[float], scores_b: Sequence[float], *, marked: Optional[int] = None,
                       metric: str = "score", name_a: str = "A", name_b: str = "B",
                       title: str = "") -> TeachingFigure:
    """One dot per segment: system A's sentence score (across) against system B's (up), the diagonal where
    they tie, segment ``marked`` (an index from 0) ringed. Dots above the diagonal: B scores the segment
    higher.

    Artists' gids: ``"segment"`` (the dots), ``"diagonal"``, ``"marked"`` (the ring).

    >>> from mtlearn.show.plots import find_gid
    >>> fig = plot_segment_pairs([0.2, 0.5, 0.9], [0.3, 0.4, 0.9], marked=1, metric="chrF")
    >>> ax = fig.axes[0]
    >>> ax.get_xlabel(), find_gid(ax, "marked")[0].get_offsets().tolist()
    ('chrF of A: A', [[0.5, 0.4]])
    """
    xs, ys = [float(x) for x in scores_a], [float(y) for y in scores_b]
    if len(xs) != len(ys):
        raise ValueError(f"scores_b: {len(ys)} scores for {len(xs)} of scores_a; one score a segment each")
    fig = TeachingFigure(figsize=(5.2, 4.4))
    ax = fig.add_subplot()
    top = max([1.0, *xs, *ys])
    ax.plot([0, top], [0, top], color="#999999", linewidth=1, linestyle="--", gid="diagonal")
    ax.scatter(xs, ys, s=16, alpha=0.55, color="#1f5fa8", linewidths=0, gid="segment")
    if marked is not None:
        if not 0 <= marked < len(xs):
            raise ValueError(f"marked: no segment {marked}; there are {len(xs)}")
        ax.scatter([xs[marked]], [ys[marked]], s=170, facecolors="none", edgecolors="#c0392b", linewidths=2,
                   gid="marked")
    ax.set_xlabel(f"{metric} of A: {_short(name_a)}", fontsize=9)
    ax.set_ylabel(f"{metric} of B: {_short(name_b)}", fontsize=9)
    ax.set_xlim(-0.02 * top, 1.02 * top)
    ax.set_ylim(-0.02 * top, 1.02 * top)
    ax.set_aspect("equal")
    ax.set_title(title or f"{len(xs)} segments", fontsize=8, wrap=True)
    ax.text(0.02, 0.97, "above the diagonal: B scores higher", transform=ax.transAxes, fontsize=8,
            va="top", color="#555555")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def _short(name: str, limit: int = 28) -> str:
    """A system's name short enough for an axis label (its end kept: file names differ there).

    >>> _short("generaltest2022.de-en.hyp.JDExploreAcademy.en")
    '…-en.hyp.JDExploreAcademy.en'
    """
    return name if len(name) <= limit else "…" + name[-(limit - 1):]

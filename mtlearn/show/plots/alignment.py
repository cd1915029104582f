"""METEOR's alignment pictures: two strings, one line per mapping coloured by stage, crossings, chunks.

:func:`plot_alignment` draws a :class:`~mtlearn.metrics.meteor.result.MeteorResult`'s alignment,
:func:`plot_alignment_pairs` any (candidate index, reference index) pairs, and
:func:`plot_alignment_comparison` several alignments of one pair, one row each.

>>> from mtlearn.examples.meteor import ROW_1, ALIGNMENT_A
>>> ax = plot_alignment_pairs(ROW_1.candidate.split(), ROW_1.reference.split(), ALIGNMENT_A.pairs).axes[0]
>>> len(find_gid(ax, "mapping")), crossing_points(ax), len(find_gid(ax, "chunk-candidate"))
(6, 8, 6)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Optional, Union

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from mtlearn.core.wording import plural
from mtlearn.metrics.meteor.formulas import ChunkSpan, chunk_spans, count_crossings

from ._style import (
    CHUNK_COLOUR,
    CROSSING_COLOUR,
    STAGE_COLOURS,
    Pair,
    figure_and_axes,
    literal,
    new_figure,
    stage_colour,
)

# isort: split
from ._style import crossing_points, find_gid  # noqa: F401 - the doctests read the pictures back

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.meteor.result import MeteorResult

__all__ = ["plot_alignment", "plot_alignment_pairs", "plot_alignment_comparison"]

def _check_pairs(pairs: Iterable[Sequence[int]], n_cand: int, n_ref: int) -> list[Pair]:
    out = []
    for k, pair in enumerate(pairs):
        try:
            i, j = (int(x) for x in pair)
        except (TypeError, ValueError):
            raise TypeError(f"pairs: item {k} is {pair!r}, expected (candidate index, reference index)"
                            ) from None
        if not (0 <= i < n_cand and 0 <= j < n_ref):
            raise ValueError(
                f"pairs: item {k} = ({i}, {j}) is outside the strings "
                f"({n_cand} candidate words, {n_ref} reference words)"
            )
        out.append((i, j))
    if len({i for i, _ in out}) != len(out) or len({j for _, j in out}) != len(out):
        raise ValueError("pairs: a word is mapped twice; an alignment maps each word at most once")
    return out


def _crossing_xy(pairs: Sequence[Pair], y_top: float, y_bottom: float) -> tuple[list[float], list[float]]:
    """The intersection points of every two crossing mapping lines (x = word index)."""
    xs, ys = [], []
    for a in range(len(pairs)):
        i1, j1 = pairs[a]
        for b in range(a + 1, len(pairs)):
            i2, j2 = pairs[b]
            if (i1 - i2) * (j1 - j2) < 0:
                # Line k: x = i_k + s (j_k - i_k), s in [0, 1] from top to bottom.
                s = (i2 - i1) / ((j1 - i1) - (j2 - i2))
                xs.append(i1 + s * (j1 - i1))
                ys.append(y_top - s * (y_top - y_bottom))
    return xs, ys


def _stage_per_pair(stages: Union[None, str, Sequence[str]], n_pairs: int) -> list[str]:
    """The stage of every pair: one name for all (``None`` is ``"exact"``), or one per pair."""
    if stages is None or isinstance(stages, str):
        return [stages or "exact"] * n_pairs
    stage_list = [str(s) for s in stages]
    if len(stage_list) != n_pairs:
        raise ValueError(f"stages: {len(stage_list)} stages for {n_pairs} pairs; give one per pair")
    return stage_list


def _draw_words(ax: Axes, cand: Sequence[str], ref: Sequence[str], y_cand: float, y_ref: float) -> None:
    """The two strings, one word per x position, each with its index in small grey type."""
    for i, w in enumerate(cand):
        ax.text(i, y_cand, w, ha="center", va="center", fontsize=11, gid="candidate-word")
        ax.text(i, y_cand + 0.2, str(i), ha="center", va="center", fontsize=7, color="#888888")
    for j, w in enumerate(ref):
        ax.text(j, y_ref, w, ha="center", va="center", fontsize=11, gid="reference-word")
        ax.text(j, y_ref - 0.2, str(j), ha="center", va="center", fontsize=7, color="#888888")


def _draw_chunks(ax: Axes, spans: Sequence[ChunkSpan], y_cand: float, y_ref: float) -> None:
    """A dashed box around every chunk, in the candidate and in the reference."""
    for span in spans:
        for start, stop, y, gid in ((span.candidate_start, span.candidate_stop, y_cand, "chunk-candidate"),
                                    (span.reference_start, span.reference_stop, y_ref, "chunk-reference")):
            ax.add_patch(Rectangle((start - 0.45, y - 0.13), stop - start - 0.1, 0.26, fill=False,
                                   edgecolor=CHUNK_COLOUR, linewidth=1.2, linestyle="--", gid=gid,
                                   zorder=1))


#: An alignment whose word rows would be wider than this (inches) is drawn as two columns instead.
_MAX_ROW_WIDTH = 13.0
#: The word size of the alignment pictures (points), and the height of a word's row in the columns (inches).
_WORD_SIZE = 11
_ROW_HEIGHT = 0.3
#: Inches between the two columns: room for the mapping lines and their crossings.
_COLUMN_GAP = 2.6


def _text_inches(text: str, size: float = _WORD_SIZE) -> float:
    """A generous estimate of how wide ``text`` is drawn: 0.62 em a character, 1 em a wide (CJK) one."""
    import unicodedata

    ems = sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.62 for ch in text)
    return ems * size / 72


def _alignment_size(cand: Sequence[str], ref: Sequence[str]) -> tuple[bool, float, float]:
    """(columns?, width, height) in inches: word rows side by side while they fit, else two columns.

    In rows every word gets at least an inch (crossing markers stay apart); past
    :data:`_MAX_ROW_WIDTH` the words are listed top to bottom, one row of
    :data:`_ROW_HEIGHT` each, so a long sentence grows the figure downwards, at full size.
    """
    longest = max((_text_inches(w) for w in [*cand, *ref]), default=0.2)
    n = max(len(cand), len(ref), 1)
    step = max(1.0, longest + 0.3)
    if step * n + 1.3 <= _MAX_ROW_WIDTH:
        return False, max(4.5, step * n + 1.3), 3.4
    wc = max((_text_inches(w) for w in cand), default=0.2)
    wr = max((_text_inches(w) for w in ref), default=0.2)
    return True, wc + wr + _COLUMN_GAP + 1.0, _ROW_HEIGHT * (n + 1.4) + 1.1


def _draw_alignment_rows(ax: Axes, cand: Sequence[str], ref: Sequence[str],
                         mapped: Sequence[tuple[Pair, str]],
                         spans: Sequence[ChunkSpan], order: Sequence[str]) -> None:
    """The candidate's words in a row above the reference's, mapping lines between them."""
    y_cand, y_ref = 1.6, 0.0
    y_top, y_bottom = 1.42, 0.18  # where mapping lines start and end: tall, so crossings stand apart
    _draw_words(ax, cand, ref, y_cand, y_ref)
    for (i, j), stage in mapped:
        ax.add_line(Line2D([i, j], [y_top, y_bottom], color=stage_colour(stage, order), linewidth=2.0,
                           gid="mapping", label=f"{cand[i]} -> {ref[j]} ({stage})", zorder=2))
    xs, ys = _crossing_xy([p for p, _ in mapped], y_top, y_bottom)
    _draw_crossings(ax, xs, ys)
    _draw_chunks(ax, spans, y_cand, y_ref)
    n = max(len(cand), len(ref), 1)
    ax.set_xlim(-0.7, n - 0.3)
    ax.set_ylim(-0.4, 2.0)
    ax.set_yticks([y_ref, y_cand], ["reference", "candidate"])
    ax.tick_params(axis="y", length=0)  # the row names only, no tick dash after them
    ax.set_xticks([])
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)


def _draw_crossings(ax: Axes, xs: Sequence[float], ys: Sequence[float]) -> None:
    if xs:  # small markers with a white rim: two close crossings stay two
        ax.add_line(Line2D(xs, ys, linestyle="none", marker="X", markersize=7, color=CROSSING_COLOUR,
                           markeredgecolor="white", markeredgewidth=0.8, gid="crossings", zorder=3))


def _draw_alignment_columns(ax: Axes, cand: Sequence[str], ref: Sequence[str],
                            mapped: Sequence[tuple[Pair, str]], spans: Sequence[ChunkSpan],
                            order: Sequence[str]) -> None:
    """Long sentences: the candidate's words down the left (word k at y = -k), the reference's down the right.

    x is measured in column gaps: candidate words end at x = 0, reference words start at
    x = 1, mapping lines run from 0.03 to 0.97.
    """
    wc = max((_text_inches(w) for w in cand), default=0.2) / _COLUMN_GAP
    wr = max((_text_inches(w) for w in ref), default=0.2) / _COLUMN_GAP
    index_gap = 0.05 / _COLUMN_GAP * 2
    for k, w in enumerate(cand):
        ax.text(-0.01, -k, w, ha="right", va="center", fontsize=_WORD_SIZE, gid="candidate-word")
        ax.text(-wc - index_gap, -k, str(k), ha="right", va="center", fontsize=7, color="#888888")
    for k, w in enumerate(ref):
        ax.text(1.01, -k, w, ha="left", va="center", fontsize=_WORD_SIZE, gid="reference-word")
        ax.text(1 + wr + index_gap, -k, str(k), ha="left", va="center", fontsize=7, color="#888888")
    x_left, x_right = 0.03, 0.97
    for (i, j), stage in mapped:
        ax.add_line(Line2D([x_left, x_right], [-i, -j], color=stage_colour(stage, order), linewidth=1.6,
                           gid="mapping", label=f"{cand[i]} -> {ref[j]} ({stage})", zorder=2))
    along, across = _crossing_xy([p for p, _ in mapped], 0.0, 1.0)  # (word index, fraction of the way)
    _draw_crossings(ax, [x_left + s * (x_right - x_left) for s in across], [-u for u in along])
    for span in spans:
        for start, stop, x0, width, gid in (
                (span.candidate_start, span.candidate_stop, -wc - 0.02, wc + 0.035, "chunk-candidate"),
                (span.reference_start, span.reference_stop, 0.985, wr + 0.035, "chunk-reference")):
            ax.add_patch(Rectangle((x0, -(stop - 1) - 0.42), width, stop - start - 0.16, fill=False,
                                   edgecolor=CHUNK_COLOUR, linewidth=1.2, linestyle="--", gid=gid, zorder=1))
    n = max(len(cand), len(ref), 1)
    ax.text(-0.01, 0.9, "candidate", ha="right", va="center", fontsize=10, fontweight="bold")
    ax.text(1.01, 0.9, "reference", ha="left", va="center", fontsize=10, fontweight="bold")
    ax.set_xlim(-wc - 0.15, 1 + wr + 0.15)
    ax.set_ylim(-(n - 1) - 0.7, 1.3)
    ax.set_axis_off()


def plot_alignment_pairs(
    candidate: Sequence[str],
    reference: Sequence[str],
    pairs: Iterable[Sequence[int]],
    stages: Union[None, str, Sequence[str]] = None,
    *,
    stage_order: Sequence[str] = (),
    title: Optional[str] = None,
    ax: Optional[Axes] = None,
) -> Figure:
    """Draw an alignment given as (candidate index, reference index) pairs.

    ``stages`` is the stage of every pair (a list as long as ``pairs``), one stage
    name for all of them, or ``None`` (all ``"exact"``). ``stage_order`` lists the
    stages for the legend (default: those that occur, standard ones first).
    Crossings are marked where two mapping lines intersect (their number is
    :func:`mtlearn.metrics.meteor.formulas.count_crossings` of the pairs); chunks
    (:func:`mtlearn.metrics.meteor.formulas.chunk_spans`) are boxed in both strings.
    Short sentences are drawn as two rows of words, at least an inch a word, so close
    crossings stay apart; sentences too long for that (more than about 12 words) as two
    columns, one word a line, so the figure grows downwards and the words keep their size.

    The Wikipedia articles' alignment (b): 11 crossings, 3 chunks.

    >>> from mtlearn.examples.meteor import ROW_1, ALIGNMENT_B
    >>> fig = plot_alignment_pairs(ROW_1.candidate.split(), ROW_1.reference.split(), ALIGNMENT_B.pairs,
    ...                            title="(b)")
    >>> ax = fig.axes[0]
    >>> crossing_points(ax), len(find_gid(ax, "chunk-candidate")), len(find_gid(ax, "chunk-reference"))
    (11, 3, 3)
    >>> ax.get_title().splitlines()[-1]
    '6 matches, 11 crossings, 3 chunks'
    """
    cand = [str(w) for w in candidate]
    ref = [str(w) for w in reference]
    checked = _check_pairs(pairs, len(cand), len(ref))
    stage_list = _stage_per_pair(stages, len(checked))
    order = list(stage_order) or sorted(
        set(stage_list), key=lambda s: (list(STAGE_COLOURS).index(s) if s in STAGE_COLOURS else 9, s)
    )
    # Mapping order = candidate order (the order the chunks and crossings are read in).
    mapped = sorted(zip(checked, stage_list))
    sorted_pairs = [p for p, _ in mapped]

    vertical, width, height = _alignment_size(cand, ref)
    fig, ax = figure_and_axes(ax, width, height)
    crossings = count_crossings(sorted_pairs)
    spans = chunk_spans(sorted_pairs)
    if vertical:
        _draw_alignment_columns(ax, cand, ref, mapped, spans, order)
    else:
        _draw_alignment_rows(ax, cand, ref, mapped, spans, order)
    counts = ", ".join((plural(len(sorted_pairs), "match"), plural(crossings, "crossing"),
                        plural(len(spans), "chunk")))
    ax.set_title(f"{title}\n{counts}" if title else counts, fontsize=10)
    handles = [Line2D([], [], color=stage_colour(s, order), linewidth=2.0, label=s) for s in order]
    handles.append(Line2D([], [], linestyle="none", marker="X", color=CROSSING_COLOUR, label="crossing"))
    handles.append(Patch(fill=False, edgecolor=CHUNK_COLOUR, linestyle="--", label="chunk"))
    if vertical:  # under the columns: the figure's width is the words' and the lines' only
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(len(handles), 3),
                  fontsize=8, frameon=False)
    else:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    if not sorted_pairs:
        where = (0.5, -(max(len(cand), len(ref), 1) - 1) / 2) if vertical else ((len(cand) - 1) / 2, 0.8)
        ax.text(*where, "no mappings", ha="center", va="center", color="#888888", fontsize=10)
    return literal(fig, ax)


def plot_alignment(
    result: "MeteorResult", *, title: Optional[str] = None, ax: Optional[Axes] = None
) -> Figure:
    """Draw the alignment a :func:`mtlearn.meteor` result chose (its best reference's).

    Lines are coloured by stage (:data:`STAGE_COLOURS`), each crossing is marked,
    each chunk boxed; the title gives matches, crossings and chunks. The worked example's row
    1 with the crossing rule:

    >>> from mtlearn import meteor
    >>> r = meteor("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"])
    >>> ax = plot_alignment(r).axes[0]
    >>> crossing_points(ax) == r.crossings == 8, len(find_gid(ax, "chunk-reference")) == r.chunks
    (True, True)
    """
    from mtlearn.metrics.meteor.result import MeteorResult

    if not isinstance(result, MeteorResult):
        raise TypeError(f"result: expected a MeteorResult, got {type(result).__name__}")
    if result.is_corpus:
        raise ValueError("result: a corpus result has no single alignment; draw result.segments[i]")
    return plot_alignment_pairs(
        result.candidate, result.reference, result.pairs, [m.stage for m in result.alignment],
        stage_order=result.stages, title=title, ax=ax,
    )


def plot_alignment_comparison(
    candidate: Sequence[str],
    reference: Sequence[str],
    alignments: Sequence[tuple[str, Iterable[Sequence[int]]]],
    *,
    stages: Union[None, str, Sequence[Optional[Sequence[str]]]] = None,
) -> Figure:
    """Several alignments of the same pair, one row each: ``alignments`` is ``[(title, pairs), ...]``.

    ``stages`` is ``None`` (all exact), one stage name, or one per-pair stage list
    per alignment.

    >>> from mtlearn.examples.meteor import ROW_1, ALIGNMENT_A, ALIGNMENT_B
    >>> fig = plot_alignment_comparison(ROW_1.candidate.split(), ROW_1.reference.split(),
    ...     [("(a)", ALIGNMENT_A.pairs), ("(b)", ALIGNMENT_B.pairs)])
    >>> [crossing_points(ax) for ax in fig.axes]
    [8, 11]
    """
    items = list(alignments)
    if not items:
        raise ValueError("alignments: give at least one (title, pairs)")
    vertical, width, height = _alignment_size([str(w) for w in candidate], [str(w) for w in reference])
    if vertical:  # long sentences: the alignments side by side, each two columns of words
        fig = new_figure(width * len(items), height)
        axes = fig.subplots(1, len(items), squeeze=False)[0, :]
    else:
        fig = new_figure(width, height * len(items))
        axes = fig.subplots(len(items), 1, squeeze=False)[:, 0]
    for k, (item, ax) in enumerate(zip(items, axes)):
        try:
            name, pairs = item
        except (TypeError, ValueError):
            raise TypeError(f"alignments: item {k} is not a (title, pairs) pair") from None
        if stages is None or isinstance(stages, str):
            these = stages
        else:
            these = stages[k]
        plot_alignment_pairs(candidate, reference, pairs, these, title=str(name), ax=ax)
    return fig

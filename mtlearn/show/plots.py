"""Matplotlib pictures of BLEU, METEOR, chrF and TER: every function returns a :class:`~matplotlib.figure.Figure`.

Presentation only: the pictures *read* results (``BleuResult``, ``MeteorResult``,
``ChrfResult``, ``TerResult``) and
call the library's formula functions for curves; nothing here computes a metric.
The library never calls ``plt.show()`` and never registers figures with pyplot (no
figure is left open): each function builds a :class:`TeachingFigure`, a plain
``Figure`` that also shows itself as a PNG when it is the last value of a notebook
cell. Pass ``ax=`` to draw into an axes of your own instead (the function then
returns ``ax.figure``).

The stable API (the notebooks and :mod:`mtlearn.show.widgets` call these names):

===================================  ================================================
``plot_alignment(result)``           METEOR alignment of a ``MeteorResult``: candidate
                                     words on top, reference words below, one line per
                                     mapping coloured by stage, every crossing marked
                                     with a red x, chunks boxed in both strings
``plot_alignment_pairs(cand, ref,    the same picture from explicit
pairs, stages=None)``                (candidate index, reference index) pairs, e.g.
                                     ``mtlearn.examples.meteor.ALIGNMENT_A.pairs``
``plot_alignment_comparison(cand,    several alignments of one pair, one row each
ref, [(title, pairs), ...])``        (the article's (a) against (b))
``plot_ngram_table(result, n)``      a ``BleuResult``'s n-grams of order n: count in
                                     the candidate, in each reference, the maximum and
                                     the clipped count; clipped rows red, unmatched grey
``plot_brevity_penalty(result)``     BP = exp(1 - r/c) against c/r, optionally marking
                                     results (BLEU or d2l)
``plot_weights(max_order=4)``        the d2l factors p^(1/2^n) against Papineni's
                                     p^(1/N), document 002's example B marked
``plot_meteor_penalty(results)``     METEOR's penalty gamma*(c/u_m)^beta against the
                                     fragmentation c/u_m, results marked
``plot_f_mean(alpha=0.9)``           F_mean over (P, R) as a filled contour, results
                                     marked
``plot_f_mean_alpha(pairs)``         F_mean against alpha in [0, 1] for a few (P, R)
``plot_chrf_orders(result)``        a ``ChrfResult``: precision, recall and F_beta of
                                     every order as bars (character orders, then word
                                     orders), counts under each, the averaged P and R
                                     and the score as lines
``plot_ter_edits(result)``           a ``TerResult``'s edit script: candidate, shifted
                                     candidate and reference rows, each shift an arrow
                                     labelled with its round, matches and
                                     substitutions as links, insertions and deletions
                                     shaded (up to ``TER_PICTURE_MAX_WORDS`` words a row)
``plot_system_agreement(pair,        WMT22: a metric's corpus score against the humans'
metric)``                            DA score, one labelled point per MT system
                                     (:mod:`mtlearn.study.agreement`'s tables)
``plot_agreement_grid(pairs)``       the same for several pairs, one row per pair,
                                     BLEU and METEOR (chrF, WMT's COMET) side by side
``plot_pairwise_accuracy()``         pairwise accuracy per pair and pooled, one bar
                                     per metric, with its 95% interval
``figure_to_png(fig)``               PNG bytes of a figure (widgets, files)
``find_gid(ax, gid)``,               helpers that read a picture back: artists by gid,
``crossing_points(ax)``,             the number of crossings marked, the marked points
``marker_points(ax)``
===================================  ================================================

Module constants: :data:`STAGE_COLOURS` (exact blue, stem green, synonym orange),
:data:`CROSSING_COLOUR`, :data:`CLIPPED_COLOUR`, :data:`UNMATCHED_COLOUR`,
:data:`METRIC_COLOURS` (BLEU blue, METEOR purple, chrF green, COMET orange), :data:`CHRF_COLOURS` (precision blue,
recall orange, F_beta green), :data:`TER_COLOURS` (shift purple, match green, substitution
orange, insertion blue, deletion red).

Artists carry *gids* so that tests (and curious students) can find them:
``"mapping"`` (one line per mapping), ``"crossings"`` (one line object whose
points are the crossings), ``"chunk-candidate"`` / ``"chunk-reference"`` (one
rectangle per chunk in each string), ``"candidate-word"`` / ``"reference-word"``,
``"curve"`` and ``"marker"`` in the curve plots; in the agreement plots ``"marker"``
(one line whose points are the systems), ``"system-label"`` (one text per system)
and ``"highlight"`` (rings around highlighted systems); in the chrF plot
``"precision-bar"``, ``"recall-bar"``, ``"f-bar"`` (one bar per order) and
``"average-precision"``, ``"average-recall"``, ``"score"`` (the lines); in the TER
plot ``"candidate-word"``, ``"shifted-word"``, ``"reference-word"``, ``"shift-arrow"``
and ``"shift-label"`` (one per shift), ``"shift-from"`` / ``"shift-to"`` (the moved
block boxed), ``"slide"`` (words that only move aside), ``"match"`` and
``"substitute"`` (links), ``"delete"`` and ``"insert"`` (shaded words).

The article's alignment (a), from the examples' data:

>>> from mtlearn.examples.meteor import ROW_1, ALIGNMENT_A
>>> fig = plot_alignment_pairs(ROW_1.candidate.split(), ROW_1.reference.split(), ALIGNMENT_A.pairs)
>>> ax = fig.axes[0]
>>> len(find_gid(ax, "mapping")), crossing_points(ax), len(find_gid(ax, "chunk-candidate"))
(6, 8, 6)
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Optional, Union

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from mtlearn.metrics.bleu.formulas import brevity_penalty, geometric_mean
from mtlearn.metrics.meteor.formulas import ChunkSpan, chunk_spans, count_crossings, f_mean, fragmentation_penalty
from mtlearn.core.wording import plural

from .fonts import use_script_fonts

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.chrf.score import ChrfOrder, ChrfResult
    from mtlearn.metrics.ter.score import Edit, TerResult
    from mtlearn.study.agreement import AgreementTables
    from mtlearn.metrics.bleu.result import BleuResult
    from mtlearn.metrics.bleu.d2l import D2LBleuResult
    from mtlearn.metrics.meteor.score import MeteorResult

__all__ = [
    "STAGE_COLOURS",
    "CROSSING_COLOUR",
    "CLIPPED_COLOUR",
    "UNMATCHED_COLOUR",
    "TeachingFigure",
    "stage_colour",
    "plot_alignment",
    "plot_alignment_pairs",
    "plot_alignment_comparison",
    "plot_ngram_table",
    "plot_brevity_penalty",
    "plot_weights",
    "plot_meteor_penalty",
    "plot_f_mean",
    "plot_f_mean_alpha",
    "CHRF_COLOURS",
    "plot_chrf_orders",
    "TER_COLOURS",
    "TER_PICTURE_MAX_WORDS",
    "plot_ter_edits",
    "METRIC_COLOURS",
    "plot_system_agreement",
    "plot_agreement_grid",
    "plot_pairwise_accuracy",
    "figure_to_png",
    "find_gid",
    "crossing_points",
    "marker_points",
]

#: The colour of each standard METEOR stage's mapping lines.
STAGE_COLOURS: dict[str, str] = {
    "exact": "#1f77b4",  # blue
    "stem": "#2ca02c",  # green
    "synonym": "#ff7f0e",  # orange
}
_OTHER_STAGE_COLOURS = ("#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")

#: Crossing markers in alignment pictures.
CROSSING_COLOUR = "#d62728"
#: Background of table rows whose count was clipped.
CLIPPED_COLOUR = "#f6c9c9"
#: Background of table rows no reference matches.
UNMATCHED_COLOUR = "#efefef"
_CHUNK_COLOUR = "#555555"
#: chrF's bars: precision, recall and each order's F_beta.
CHRF_COLOURS: dict[str, str] = {"precision": "#1f77b4", "recall": "#ff7f0e", "f": "#2ca02c"}
#: TER's edit picture: shifts, and each operation of the edit script.
TER_COLOURS: dict[str, str] = {
    "shift": "#7b3294",  # purple
    "match": "#2ca02c",  # green
    "substitute": "#ff7f0e",  # orange
    "insert": "#1f77b4",  # blue: a reference word the candidate lacks
    "delete": "#d62728",  # red: a candidate word the reference does not have
}
#: plot_ter_edits draws rows of up to this many words (CER: characters), as the METEOR explorer's
#: picture; longer, it refuses: 2,000 words took 28 s, 818 MB and an 18.5 MB PNG, and are unreadable.
TER_PICTURE_MAX_WORDS = 60
#: The points of each metric in the agreement plots.
METRIC_COLOURS: dict[str, str] = {"bleu": "#1f77b4", "meteor": "#7b3294", "chrf": "#2ca02c", "comet": "#d95f02"}

Pair = tuple[int, int]


class TeachingFigure(Figure):
    """A matplotlib ``Figure`` that shows itself as a PNG in a notebook (``_repr_png_``).

    It is not registered with pyplot, so it never stays open behind the user's back.

    >>> fig = TeachingFigure(figsize=(2, 1))
    >>> fig._repr_png_()[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    >>> fig
    <TeachingFigure with 0 Axes>
    """

    def _repr_png_(self) -> bytes:
        return figure_to_png(self)

    def __repr__(self) -> str:
        # A notebook stores this beside the PNG as text/plain, and strict nbval compares it: the
        # pixel size (measured from fonts and layout) would fail on a machine with other fonts.
        return f"<{type(self).__name__} with {len(self.axes)} Axes>"


def figure_to_png(fig: Figure, *, dpi: int = 110, palette: bool = False) -> bytes:
    """The PNG bytes of ``fig`` (no software metadata, so the same figure gives the same bytes).

    ``palette=True`` stores an opaque picture with 256 colours (median cut, no dithering)
    and the smallest compression: about a third of the bytes, for files kept in the
    repository (:mod:`mtlearn.show.figures`). A picture with transparency stays full colour.

    >>> png = figure_to_png(plot_weights())
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    >>> small = figure_to_png(plot_weights(), palette=True)
    >>> small[25], len(small) < len(png)  # PNG colour type 3: a palette
    (3, True)
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    if not palette:
        return buf.getvalue()
    from PIL import Image  # matplotlib's own dependency

    with Image.open(io.BytesIO(buf.getvalue())) as image:
        rgba = image.convert("RGBA")
    if rgba.getextrema()[3][0] < 255:  # some transparency: a palette would lose it
        return buf.getvalue()
    quantized = rgba.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, format="png", optimize=True)
    return out.getvalue()


def find_gid(ax: Axes, gid: str) -> list[Any]:
    """The artists of ``ax`` (lines, patches, texts) whose gid is ``gid``.

    >>> fig = plot_brevity_penalty()
    >>> len(find_gid(fig.axes[0], "curve"))
    1
    """
    artists = [*ax.lines, *ax.patches, *ax.texts, *ax.collections]
    return [a for a in artists if a.get_gid() == gid]


def crossing_points(ax: Axes) -> int:
    """How many crossings an alignment picture marks (the points of its ``"crossings"`` line).

    >>> from mtlearn.examples.meteor import ROW_1, ALIGNMENT_B
    >>> crossing_points(plot_alignment_pairs(ROW_1.candidate.split(), ROW_1.reference.split(),
    ...                                      ALIGNMENT_B.pairs).axes[0])
    11
    """
    return sum(len(line.get_xdata()) for line in find_gid(ax, "crossings"))


def marker_points(ax: Axes) -> list[tuple[float, float]]:
    """The (x, y) points of the ``"marker"`` artists of a curve plot, as plain floats.

    >>> marker_points(plot_weights(2).axes[0])
    [(0.5, 0.7071067811865476), (0.5, 0.8408964152537145)]
    """
    return [(float(x), float(y)) for m in find_gid(ax, "marker") for x, y in m.get_xydata()]


def stage_colour(stage: str, stages: Sequence[str] = ()) -> str:
    """The line colour of ``stage``: the standard three are fixed, others cycle by position.

    >>> stage_colour("exact"), stage_colour("stem"), stage_colour("synonym")
    ('#1f77b4', '#2ca02c', '#ff7f0e')
    >>> stage_colour("rhyme", ["exact", "rhyme"])
    '#9467bd'
    """
    if stage in STAGE_COLOURS:
        return STAGE_COLOURS[stage]
    others = [s for s in stages if s not in STAGE_COLOURS]
    k = others.index(stage) if stage in others else len(others)
    return _OTHER_STAGE_COLOURS[k % len(_OTHER_STAGE_COLOURS)]


def _new_figure(width: float, height: float) -> TeachingFigure:
    return TeachingFigure(figsize=(width, height), layout="constrained")


def _figure_and_axes(ax: Optional[Axes], width: float, height: float) -> tuple[Figure, Axes]:
    if ax is not None:
        if not isinstance(ax, Axes):
            raise TypeError(f"ax: expected a matplotlib Axes, got {type(ax).__name__}")
        return ax.figure, ax  # type: ignore[return-value]
    fig = _new_figure(width, height)
    return fig, fig.add_subplot()


def _literal(fig: Figure, ax: Axes) -> Figure:
    """``fig``, the texts put into ``ax`` (words, title, legend, table cells) drawn as typed.

    A word such as ``$x^$`` is then a dollar sign, an x and a caret, not matplotlib's
    mathtext (which would fail on it, or silently typeset ``$5 and $6``). Tick labels
    are left alone: their formatters may use mathtext on purpose. Texts with Chinese,
    Japanese or Korean characters get a CJK font as a fallback
    (:func:`mtlearn.show.fonts.use_script_fonts`), so they are not drawn as boxes.

    >>> fig = TeachingFigure()
    >>> ax = fig.add_subplot()
    >>> _ = ax.text(0, 0, "$x^$"), ax.set_title("$5 and $6")
    >>> _literal(fig, ax) is fig, ax.texts[0].get_parse_math(), ax.title.get_parse_math()
    (True, False, False)
    """
    legend = ax.get_legend()
    texts = [*ax.texts, ax.title, *(legend.get_texts() if legend is not None else ()),
             *(cell.get_text() for table in ax.tables for cell in table.get_celld().values())]
    for text in texts:
        text.set_parse_math(False)
    return use_script_fonts(fig)


# --------------------------------------------------------------------------- alignment


def _check_pairs(pairs: Iterable[Sequence[int]], n_cand: int, n_ref: int) -> list[Pair]:
    out = []
    for k, pair in enumerate(pairs):
        try:
            i, j = (int(x) for x in pair)
        except (TypeError, ValueError):
            raise TypeError(f"pairs: item {k} is {pair!r}, expected (candidate index, reference index)") from None
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
                                   edgecolor=_CHUNK_COLOUR, linewidth=1.2, linestyle="--", gid=gid,
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


def _draw_alignment_rows(ax: Axes, cand: Sequence[str], ref: Sequence[str], mapped: Sequence[tuple[Pair, str]],
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
                                   edgecolor=_CHUNK_COLOUR, linewidth=1.2, linestyle="--", gid=gid, zorder=1))
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

    The article's alignment (b): 11 crossings, 3 chunks.

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
    fig, ax = _figure_and_axes(ax, width, height)
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
    handles.append(Patch(fill=False, edgecolor=_CHUNK_COLOUR, linestyle="--", label="chunk"))
    if vertical:  # under the columns: the figure's width is the words' and the lines' only
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(len(handles), 3),
                  fontsize=8, frameon=False)
    else:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    if not sorted_pairs:
        where = (0.5, -(max(len(cand), len(ref), 1) - 1) / 2) if vertical else ((len(cand) - 1) / 2, 0.8)
        ax.text(*where, "no mappings", ha="center", va="center", color="#888888", fontsize=10)
    return _literal(fig, ax)


def plot_alignment(
    result: "MeteorResult", *, title: Optional[str] = None, ax: Optional[Axes] = None
) -> Figure:
    """Draw the alignment a :func:`mtlearn.meteor` result chose (its best reference's).

    Lines are coloured by stage (:data:`STAGE_COLOURS`), each crossing is marked,
    each chunk boxed; the title gives matches, crossings and chunks. The digest's row
    1 with the crossing rule:

    >>> from mtlearn import meteor
    >>> r = meteor("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"])
    >>> ax = plot_alignment(r).axes[0]
    >>> crossing_points(ax) == r.crossings == 8, len(find_gid(ax, "chunk-reference")) == r.chunks
    (True, True)
    """
    from mtlearn.metrics.meteor.score import MeteorResult

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
        fig = _new_figure(width * len(items), height)
        axes = fig.subplots(1, len(items), squeeze=False)[0, :]
    else:
        fig = _new_figure(width, height * len(items))
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


# --------------------------------------------------------------------------- BLEU


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
    body = [
        [" ".join(r.ngram), str(r.candidate_count), *[str(c) for c in r.reference_counts],
         str(r.max_reference_count), str(r.clipped_count)]
        for r in shown
    ]
    if len(rows) > len(shown):
        body.append([f"... {len(rows) - len(shown)} more", *[""] * (len(header) - 1)])
    matched = sum(r.clipped_count for r in rows)
    total = sum(r.candidate_count for r in rows)
    body.append(["total", str(total), *[""] * nrefs, "", str(matched)])

    longest = max((len(row[0]) for row in body), default=6)
    width = max(4.0, 0.09 * longest + 1.0 * (len(header) - 1) + 0.6)  # room for a bold "candidate"
    fig, ax = _figure_and_axes(ax, width, 0.55 + 0.3 * (len(body) + 1))
    table = ax.table(cellText=body, colLabels=header, cellLoc="center", bbox=[0.0, 0.0, 1.0, 1.0])
    table.auto_set_font_size(False)
    table.set_fontsize(10)
    ncols = len(header)
    for c in range(ncols):
        table[(0, c)].set_facecolor("#e8e8e8")
        table[(0, c)].get_text().set_fontweight("bold")
        table[(len(body), c)].get_text().set_fontweight("bold")
    for k, r in enumerate(shown, start=1):
        if r.max_reference_count == 0:
            for c in range(ncols):
                table[(k, c)].set_facecolor(UNMATCHED_COLOUR)
                table[(k, c)].get_text().set_color("#777777")
        elif r.clipped_count < r.candidate_count:
            for c in range(ncols):
                table[(k, c)].set_facecolor(CLIPPED_COLOUR)
    ax.axis("off")
    names = {1: "unigram", 2: "bigram", 3: "trigram"}
    name = names.get(n, f"{n}-gram")
    value = f"{matched}/{total} = {matched / total:.4f}" if total else "0/0 (no n-grams of this order)"
    ax.set_title(f"{name} precision p_{n} = {value}\nred: clipped to the reference count; grey: no match",
                 fontsize=10)
    return _literal(fig, ax)


def _bp_point(result: Any) -> tuple[float, float, str]:
    from mtlearn.metrics.bleu.result import BleuResult
    from mtlearn.metrics.bleu.d2l import D2LBleuResult

    if isinstance(result, BleuResult):
        c, r = result.candidate_length, result.reference_length
        return (c / r if r else 0.0), result.brevity_penalty, f"c={c}, r={r}"
    if isinstance(result, D2LBleuResult):
        c, r = result.pred_length, result.label_length
        return (c / r if r else 0.0), result.penalty, f"len_pred={c}, len_label={r}"
    raise TypeError(f"results: expected BleuResult or D2LBleuResult items, got {type(result).__name__}")


def _as_list(results: Any) -> list[Any]:
    if results is None:
        return []
    if isinstance(results, (list, tuple)):
        return list(results)
    return [results]


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
    ``D2LBleuResult``) are marked at their own (c/r, BP). Document 002's example C
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
    points = [_bp_point(r) for r in _as_list(results)]
    fig, ax = _figure_and_axes(ax, 6.0, 3.6)
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
    return _literal(fig, ax)


def plot_weights(max_order: int = 4, *, precision: float = 0.5, steps: int = 200,
                 ax: Optional[Axes] = None) -> Figure:
    """How each p_n enters BLEU: document 002's p^(1/2^n) against Papineni's p^(1/N).

    Solid curves: the d2l factor p^(1/2^n) for n = 1..``max_order`` (longer n-grams
    get flatter curves, so a poor long-n-gram precision costs less). Dashed: the
    factor p^(1/N) of the uniform geometric mean, the same for every n. Every value is
    :func:`mtlearn.metrics.bleu.formulas.geometric_mean` of one precision with one weight.
    Points at p = ``precision`` are document 002's example B:

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
    fig, ax = _figure_and_axes(ax, 6.0, 4.0)
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
            linewidth=1.5, gid="curve", label=f"Papineni: p^(1/{max_order})  (every n, N = {max_order})", zorder=3)
    ax.plot(ps, ps, color="#bbbbbb", linewidth=1, linestyle=":", label="p itself")
    ax.axvline(float(precision), color="#999999", linestyle=":", linewidth=1)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("precision p_n")
    ax.set_ylabel("factor in BLEU")
    ax.set_title("p^(1/2^n) (document 002) against p^(1/N) (Papineni)", fontsize=11)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    return fig


# --------------------------------------------------------------------------- METEOR


def _meteor_results(results: Any) -> list["MeteorResult"]:
    from mtlearn.metrics.meteor.score import MeteorResult

    items = _as_list(results)
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
    The digest's rows 1 and 3:

    >>> from mtlearn import meteor
    >>> rows = [meteor(c, ["the cat sat on the mat"], stages=["exact"])
    ...         for c in ("on the mat sat the cat", "the cat was sat on the mat")]
    >>> ax = plot_meteor_penalty(rows).axes[0]
    >>> [(round(x, 4), round(y, 4)) for x, y in marker_points(ax)]
    [(1.0, 0.5), (0.3333, 0.0185)]
    """
    from mtlearn.metrics.meteor.formulas import check_parameters

    check_parameters(0.5, beta, gamma)
    if isinstance(matches, bool) or not isinstance(matches, int) or matches < 1:
        raise ValueError(f"matches: expected a positive int, got {matches!r}")
    items = _meteor_results(results)
    if labels is not None and len(labels) != len(items):
        raise ValueError(f"labels: {len(labels)} labels for {len(items)} results")
    fig, ax = _figure_and_axes(ax, 6.0, 3.8)
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
    return _literal(fig, ax)


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
    from mtlearn.metrics.meteor.formulas import check_parameters

    check_parameters(alpha, 3, 0.5)
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 2:
        raise ValueError(f"steps: expected an int >= 2, got {steps!r}")
    items = _meteor_results(results)
    fig, ax = _figure_and_axes(ax, 5.2, 4.4)
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
                    color="black", bbox=dict(boxstyle="round,pad=0.25", facecolor="white", edgecolor="#555555",
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
    fig, ax = _figure_and_axes(ax, 6.0, 3.8)
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


# --------------------------------------------------------------------------- chrF


def _chrf_name(result: "ChrfResult") -> str:
    """sacreBLEU's name of the metric: chrF2, chrF2++ (one '+' per word order)."""
    return f"chrF{result.beta:g}" + "+" * result.word_order


def _order_label(order: "ChrfOrder") -> str:
    return f"{'c' if order.kind == 'char' else 'w'}{order.n}"


def plot_chrf_orders(result: "ChrfResult", *, title: Optional[str] = None, ax: Optional[Axes] = None) -> Figure:
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
    from mtlearn.metrics.chrf.score import ChrfResult

    if not isinstance(result, ChrfResult):
        raise TypeError(f"result: expected a ChrfResult, got {type(result).__name__}")
    orders = list(result.orders)
    fig, ax = _figure_and_axes(ax, max(5.0, 0.75 * len(orders) + 2.6), 3.8)
    width = 0.26
    for k, order in enumerate(orders):
        used = order.used
        hatch = None if used else "//"
        for offset, (name, value) in zip((-width, 0.0, width), (("precision", order.precision),
                                                                 ("recall", order.recall), ("f", order.f))):
            ax.bar(k + offset, float(value), width=width, color=CHRF_COLOURS[name], alpha=1.0 if used else 0.35,
                   hatch=hatch, edgecolor="white", gid=f"{name}-bar", zorder=2)
    averages = (("precision", result.precision, "--", f"averaged precision {float(result.precision):.4f}"),
                ("recall", result.recall, "--", f"averaged recall {float(result.recall):.4f}"))
    for name, value, style, label in averages:
        ax.axhline(float(value), color=CHRF_COLOURS[name], linestyle=style, linewidth=1.3, gid=f"average-{name}",
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
    first = f"{_chrf_name(result)} = {result.score:.4f}"
    if result.best_reference is not None and result.references and len(result.references) > 1:
        first += f"  (reference {result.best_reference + 1} of {len(result.references)} kept)"
    rule = ("mean of the orders' F_beta (eps smoothing)" if result.eps_smoothing
            else "F_beta of the averaged precision and recall")
    ax.set_title(f"{title}\n{first}\n{rule}" if title else f"{first}\n{rule}", fontsize=10)
    return _literal(fig, ax)


# --------------------------------------------------------------------------- TER


def _shift_moves(result: "TerResult") -> tuple[list[tuple[list[int], list[int]]], list[int]]:
    """Where every shift's words started (candidate indices) and where they end (shifted indices).

    The shifts are replayed with :func:`mtlearn.metrics.ter.shifts.apply_shift` on the
    words' candidate indices; the second value gives each candidate word's final place.
    """
    from mtlearn.metrics.ter.shifts import apply_shift

    state = [str(i) for i in range(len(result.candidate_tokens or ()))]  # candidate index of the word at each place
    blocks = []
    for shift in result.shifts:
        blocks.append([int(k) for k in state[shift.start:shift.start + shift.length]])
        state = list(apply_shift(state, shift.start, shift.length, shift.destination))
    final = [0] * len(state)
    for place, k in enumerate(state):
        final[int(k)] = place
    return [(block, [final[i] for i in block]) for block in blocks], final


def _word_step(words: Sequence[str]) -> float:
    longest = max((len(w) for w in words), default=1)
    return max(0.7, 0.1 * longest + 0.3)  # inches per word


def _box_places(ax: Axes, places: Sequence[int], y: float, colour: str, gid: str) -> None:
    """A dashed box around each run of neighbouring word places (a block an earlier shift split: several)."""
    run: list[int] = []
    for place in sorted(places) + [-2]:  # -2 closes the last run
        if run and place != run[-1] + 1:
            ax.add_patch(Rectangle((run[0] - 0.45, y - 0.14), len(run) - 0.1, 0.28, fill=False, edgecolor=colour,
                                   linewidth=1.4, linestyle="--", gid=gid, zorder=1))
            run = []
        run.append(place)


def _draw_row(ax: Axes, words: Sequence[str], y: float, gid: str, index_above: bool) -> None:
    for i, w in enumerate(words):
        ax.text(i, y, w, ha="center", va="center", fontsize=11, gid=gid)
        ax.text(i, y + (0.22 if index_above else -0.22), str(i), ha="center", va="center", fontsize=7,
                color="#888888")


def _draw_shifts(ax: Axes, result: "TerResult", y_from: float, y_to: float) -> None:
    """One arrow per shift, from the block's place in the candidate to its place after all shifts."""
    moves, final = _shift_moves(result)
    moved = {i for before, _ in moves for i in before}
    for i, j in enumerate(final):
        if i not in moved:  # words that only slide aside: a faint line
            ax.add_line(Line2D([i, j], [y_from - 0.16, y_to + 0.16], color="#cccccc", linewidth=1,
                               gid="slide", zorder=1))
    tails: list[float] = []
    for shift, (before, after) in zip(result.shifts, moves):
        colour = TER_COLOURS["shift"]
        for places, y, gid in ((before, y_from, "shift-from"), (after, y_to, "shift-to")):
            _box_places(ax, places, y, colour, gid)
        x0, x1 = sum(before) / len(before), sum(after) / len(after)
        ax.annotate("", xy=(x1, y_to + 0.17), xytext=(x0, y_from - 0.17), gid="shift-arrow",
                    arrowprops=dict(arrowstyle="-|>", color=colour, linewidth=2, shrinkA=0, shrinkB=0,
                                    connectionstyle="arc3,rad=0.15"), zorder=3)
        # The label sits at the arrow's tail, under the block it moves; lower if another is near.
        near = sum(1 for x in tails if abs(x - x0) < 1.2)
        tails.append(x0)
        ax.text(x0, y_from - 0.36 - 0.2 * near, f"shift {shift.round}", ha="center", va="center",
                fontsize=8, color=colour, gid="shift-label", zorder=4,
                bbox=dict(boxstyle="round,pad=0.2", facecolor="white", edgecolor=colour, linewidth=0.8))


def _draw_edits(ax: Axes, edits: Sequence["Edit"], y_cand: float, y_ref: float) -> None:
    """Matches and substitutions as links; deleted and inserted words boxed."""
    for e in edits:
        colour = TER_COLOURS[e.op]
        if e.op in ("match", "substitute"):
            ax.add_line(Line2D([e.candidate_index, e.reference_index], [y_cand - 0.17, y_ref + 0.17],
                               color=colour, linewidth=2.0 if e.op == "match" else 2.4,
                               linestyle="-" if e.op == "match" else "--", gid=e.op, zorder=2))
        elif e.op == "delete":
            ax.add_patch(Rectangle((e.candidate_index - 0.45, y_cand - 0.14), 0.9, 0.28, facecolor=colour,
                                   alpha=0.25, edgecolor=colour, gid="delete", zorder=0))
        else:
            ax.add_patch(Rectangle((e.reference_index - 0.45, y_ref - 0.14), 0.9, 0.28, facecolor=colour,
                                   alpha=0.25, edgecolor=colour, gid="insert", zorder=0))


def _ter_counts(result: "TerResult") -> str:
    ops = [e.op for e in result.edits]
    parts = [plural(len(result.shifts), "shift")] if result.metric == "ter" else []
    parts += [plural(ops.count("substitute"), "substitution"), plural(ops.count("insert"), "insertion"),
              plural(ops.count("delete"), "deletion")]
    return ", ".join(parts)


def _check_picture_size(result: "TerResult", max_words: Optional[int]) -> None:
    """Refuse (``ValueError``) a row longer than ``max_words`` tokens (``None``: any length)."""
    if max_words is None:
        return
    if isinstance(max_words, bool) or not isinstance(max_words, int) or max_words < 1:
        raise ValueError(f"max_words: expected a whole number of at least 1 or None, got {max_words!r}")
    longest = max(len(result.candidate_tokens or ()), len(result.shifted_tokens or ()),
                  len(result.reference_tokens or ()))
    if longest > max_words:
        unit = "characters" if result.metric == "cer" else "words"
        raise ValueError(f"result: {longest} {unit} on one side, above the {max_words} the edit picture is drawn "
                         f"for (it would be unreadable; max_words= draws more)")


def plot_ter_edits(result: "TerResult", *, title: Optional[str] = None, ax: Optional[Axes] = None,
                   max_words: Optional[int] = TER_PICTURE_MAX_WORDS) -> Figure:
    """TER's edit script over the word rows: the shifts, then the edits on the shifted candidate.

    Rows, top to bottom: the candidate as given; the candidate after every shift
    (only when there are shifts); the reference kept. Each shift is an arrow from
    the block's place in the candidate to its place after the shifts, labelled with
    its round, the block boxed at both ends (:data:`TER_COLOURS` ``"shift"``). Between
    the shifted candidate and the reference: matches as solid links, substitutions as
    dashed links, deleted candidate words (in no place of the reference) and
    inserted reference words (missing from the candidate) shaded. The title gives
    the score as edits / reference length. WER and CER results (no shifts) draw the
    two rows only. A row longer than ``max_words`` (default
    :data:`TER_PICTURE_MAX_WORDS`; ``None``: no limit) is refused with a ``ValueError``.

    >>> from mtlearn import ter
    >>> r = ter("on the mat the cat sat", ["the cat sat on the mat"])
    >>> ax = plot_ter_edits(r).axes[0]
    >>> len(find_gid(ax, "shift-arrow")) == len(r.shifts), len(find_gid(ax, "match"))
    (True, 6)
    >>> ax.get_title().splitlines()[0] == f"TER = {r.num_edits:g} / {r.reference_length:g} = {r.score:.4f}"
    True
    """
    from mtlearn.metrics.ter.score import TerResult

    if not isinstance(result, TerResult):
        raise TypeError(f"result: expected a TerResult, got {type(result).__name__}")
    if result.is_corpus or result.candidate_tokens is None:
        raise ValueError("result: a corpus result has no single edit script; draw result.segments[i]")
    _check_picture_size(result, max_words)
    cand, shifted, ref = (list(result.candidate_tokens), list(result.shifted_tokens),
                          list(result.reference_tokens))
    rows = 3 if result.shifts else 2
    n = max(len(cand), len(ref), 1)
    fig, ax = _figure_and_axes(ax, max(5.0, _word_step(cand + ref) * n + 2.0), 1.2 + 1.05 * rows)
    y_ref, y_edit = 0.0, 1.0
    _draw_row(ax, ref, y_ref, "reference-word", index_above=False)
    _draw_row(ax, shifted, y_edit, "shifted-word" if result.shifts else "candidate-word", index_above=True)
    labels = [(y_ref, "reference"), (y_edit, "after shifts" if result.shifts else "candidate")]
    if result.shifts:
        y_cand = 2.2
        _draw_row(ax, cand, y_cand, "candidate-word", index_above=True)
        _draw_shifts(ax, result, y_cand, y_edit)
        labels.append((y_cand, "candidate"))
    _draw_edits(ax, result.edits, y_edit, y_ref)
    ax.set_xlim(-0.7, n - 0.3)
    ax.set_ylim(-0.45, labels[-1][0] + 0.45)
    ax.set_yticks([y for y, _ in labels], [name for _, name in labels])
    ax.tick_params(axis="y", length=0)  # the row names only, no tick dash after them
    ax.set_xticks([])
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    name = result.metric.upper()
    first = f"{name} = {result.num_edits:g} / {result.reference_length:g} = {result.score:.4f}"
    counts = f"{_ter_counts(result)}; reference length {result.reference_length:g}"
    ax.set_title(f"{title}\n{first}\n{counts}" if title else f"{first}\n{counts}", fontsize=10)
    handles = ([Line2D([], [], color=TER_COLOURS["shift"], linewidth=2, marker=">", label="shift (round)")]
               if result.shifts else [])
    handles += [Line2D([], [], color=TER_COLOURS["match"], linewidth=2, label="match"),
                Line2D([], [], color=TER_COLOURS["substitute"], linewidth=2.4, linestyle="--",
                       label="substitution"),
                Patch(facecolor=TER_COLOURS["delete"], alpha=0.25, edgecolor=TER_COLOURS["delete"],
                      label="deletion (candidate word)"),
                Patch(facecolor=TER_COLOURS["insert"], alpha=0.25, edgecolor=TER_COLOURS["insert"],
                      label="insertion (reference word)")]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    return _literal(fig, ax)


# --------------------------------------------------------------------------- agreement with people


def _spread(targets: Sequence[float], gap: float, low: float = 0.0, high: float = 1.0) -> list[float]:
    """Label positions near ``targets``, in the same order, at least ``gap`` apart, inside [low, high]."""
    n = len(targets)
    if n == 0:
        return []
    gap = min(gap, (high - low) / (n - 1)) if n > 1 else gap
    order = sorted(range(n), key=lambda k: targets[k])
    pos = [min(max(targets[k], low), high) for k in order]
    for k in range(1, n):  # push up what sits too close to the label below
        pos[k] = max(pos[k], pos[k - 1] + gap)
    if pos[-1] > high:  # then push back down from the top
        pos[-1] = high
        for k in range(n - 2, -1, -1):
            pos[k] = min(pos[k], pos[k + 1] - gap)
    out = [0.0] * n
    for k, p in zip(order, pos):
        out[k] = p
    return out


def _system_names(names: Sequence[str], pair: str, t: "AgreementTables", argname: str, example: str) -> list[str]:
    """``names`` checked as scored systems of ``pair`` (a list, not one string)."""
    from mtlearn.study.agreement import check_system

    if isinstance(names, str):
        raise TypeError(f"{argname}: expected a list of system names, e.g. {example}")
    return [check_system(name, pair, t, argname) for name in names]


def _label_systems(ax: Axes, names: Sequence[str], xs: Sequence[float], ys: Sequence[float],
                   marked: set[str]) -> None:
    """Names in a column right of the axes, spread so they never overlap (about 9.5 pt a line)."""
    ylo, yhi = ax.get_ylim()
    height_pt = 72 * ax.figure.get_figheight() * ax.get_position().height
    targets = [(y - ylo) / (yhi - ylo) for y in ys]
    spots = _spread(targets, gap=9.5 / max(height_pt, 1.0))
    for name, x, y, spot in zip(names, xs, ys, spots):
        ax.annotate(name, (x, y), xytext=(1.03, spot), textcoords="axes fraction", ha="left",
                    va="center", fontsize=8, fontweight="bold" if name in marked else "normal",
                    annotation_clip=False, gid="system-label",
                    arrowprops=dict(arrowstyle="-", color="#c8c8c8", linewidth=0.6, shrinkA=0, shrinkB=3))


def _agreement_title(pair: str, metric: str, human_score: str, n_systems: int, left_out: Sequence[str],
                     t: "AgreementTables", reference: str = "all") -> str:
    """r and rho from the shipped table (r with its interval), or recomputed without ``left_out``."""
    from mtlearn.study.agreement import METRIC_NAMES, correlate_systems, system_correlation

    name = METRIC_NAMES[metric] + ("" if reference == "all" else f" (ref {reference})")
    if left_out:
        r_text, rho_value = [
            f"{correlate_systems(pair, metric, statistic=stat, human_score=human_score, exclude=left_out, reference=reference, tables=t):.3f}"  # noqa: E501
            for stat in ("pearson", "spearman")]
        return (f"{pair} · {name} without {', '.join(left_out)}: r = {r_text}, "
                f"ρ = {rho_value}  ({n_systems} systems)")
    r = system_correlation(pair, metric, "pearson", human_score, reference=reference, tables=t)
    rho = system_correlation(pair, metric, "spearman", human_score, reference=reference, tables=t)
    return (f"{pair} · {name}: r = {r.value:.3f} [{r.ci_low:.2f}, {r.ci_high:.2f}], "
            f"ρ = {rho.value:.3f}  ({n_systems} systems)")


def plot_system_agreement(
    pair: str,
    metric: str = "bleu",
    *,
    human_score: str = "z",
    highlight: Sequence[str] = (),
    exclude: Sequence[str] = (),
    reference: Optional[str] = None,
    tables: Optional["AgreementTables"] = None,
    ax: Optional[Axes] = None,
) -> Figure:
    """A metric's corpus score (y) against the humans' DA score (x), one point per MT system.

    The points are the MT systems of ``pair`` that have an output and a human score
    (:func:`mtlearn.study.agreement.system_scores` with ``scored_only=True``); each is
    labelled with its name in a column on the right, joined to its point by a thin
    line, in the order of the metric's scores. Systems named in ``highlight`` are
    ringed and their labels set in bold. The title gives Pearson's r and Spearman's
    rho from the shipped table (:func:`mtlearn.study.agreement.system_correlation`), with
    the 95% interval of r. Systems named in ``exclude`` are left out (to see the
    others up close); the title then gives r and rho recomputed without them
    (:func:`mtlearn.study.agreement.correlate_systems`, no interval). ``reference``: the
    reference the metric is scored against (default
    :func:`mtlearn.study.agreement.default_reference`: all, one for WMT's COMET).

    >>> ax = plot_system_agreement("de-en", "bleu").axes[0]
    >>> len(marker_points(ax)), len(find_gid(ax, "system-label"))
    (9, 9)
    >>> from mtlearn.study.agreement import system_scores
    >>> marker_points(ax)[0] == (system_scores("de-en", scored_only=True)[0].human_z,
    ...                         system_scores("de-en", scored_only=True)[0].bleu)
    True
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('humans: DA z-score', 'corpus BLEU')
    >>> ax = plot_system_agreement("ja-en", "bleu", exclude=["AIST"]).axes[0]
    >>> len(marker_points(ax)), ax.get_title().split(":")[0]
    (13, 'ja-en · BLEU without AIST')
    >>> plot_system_agreement("zh-en", "comet").axes[0].get_title().split(":")[0]
    "zh-en · WMT's COMET (ref A)"
    """
    from mtlearn.study.agreement import (METRIC_NAMES, agreement_tables, check_human_score, check_metric,
                                         check_pair, check_reference, system_scores)

    t = agreement_tables(tables)
    metric = check_metric(metric)
    human_score = check_human_score(human_score)
    reference = check_reference(reference, check_pair(pair, t), metric, t)
    systems = system_scores(pair, scored_only=True, reference=reference, tables=t)
    marked = set(_system_names(highlight, pair, t, "highlight", "['Online-A', 'Online-B']"))
    left_out = _system_names(exclude, pair, t, "exclude", "['AIST']")
    if left_out:
        systems = tuple(s for s in systems if s.system not in left_out)
    xs = [float(s.human(human_score)) for s in systems]  # type: ignore[arg-type]
    ys = [float(s.metric(metric)) for s in systems]  # type: ignore[arg-type]
    fig, ax = _figure_and_axes(ax, 5.2, 3.2)
    colour = METRIC_COLOURS[metric]
    ax.plot(xs, ys, "o", color=colour, markersize=6, markeredgecolor="white", markeredgewidth=0.6,
            gid="marker", zorder=3)
    if marked:
        ring = [(x, y) for s, x, y in zip(systems, xs, ys) if s.system in marked]
        ax.plot([x for x, _ in ring], [y for _, y in ring], "o", markersize=11, markerfacecolor="none",
                markeredgecolor="black", markeredgewidth=1.4, gid="highlight", zorder=4)
    xpad = 0.06 * ((max(xs) - min(xs)) or 1.0)
    ypad = 0.08 * ((max(ys) - min(ys)) or 1.0)
    ax.set_xlim(min(xs) - xpad, max(xs) + xpad)
    ax.set_ylim(min(ys) - ypad, max(ys) + ypad)

    _label_systems(ax, [s.system for s in systems], xs, ys, marked)
    ax.set_title(_agreement_title(pair, metric, human_score, len(systems), left_out, t, reference), fontsize=9)
    ax.set_xlabel("humans: DA z-score" if human_score == "z" else "humans: DA raw score (0-100)", fontsize=8)
    ax.set_ylabel(f"corpus {METRIC_NAMES[metric]}", fontsize=8)
    ax.tick_params(labelsize=8)
    ax.grid(alpha=0.3)
    return _literal(fig, ax)


def plot_agreement_grid(
    pairs: Optional[Sequence[str]] = None,
    metrics: Sequence[str] = ("bleu", "meteor"),
    *,
    human_score: str = "z",
    highlight: Sequence[str] = (),
    exclude: Sequence[str] = (),
    reference: Optional[str] = None,
    tables: Optional["AgreementTables"] = None,
) -> Figure:
    """:func:`plot_system_agreement` for several pairs: one row per pair, one column per metric.

    At most two panels a row: with more metrics a pair takes several rows (BLEU and
    METEOR, then chrF and COMET), so the grid stays 10 inches wide.

    ``pairs`` defaults to all six; the panels of a row share the human axis, so BLEU
    and METEOR of one pair can be read side by side. ``highlight`` rings those systems
    wherever they are drawn and ``exclude`` leaves them out (both meant for one pair).
    ``reference`` (``None``: each metric's default; ``"A"`` puts BLEU, METEOR, chrF and
    WMT's COMET against the same reference) applies to every panel.

    >>> fig = plot_agreement_grid()
    >>> len(fig.axes), [ax.get_ylabel() for ax in fig.axes[:2]]
    (12, ['corpus BLEU', 'corpus METEOR'])
    >>> [len(marker_points(ax)) for ax in fig.axes[::2]]
    [11, 9, 14, 10, 9, 12]
    """
    from mtlearn.study.agreement import agreement_tables, check_metric

    t = agreement_tables(tables)
    if isinstance(pairs, str):
        raise TypeError("pairs: expected a list of pairs, e.g. ['de-en', 'zh-en']")
    chosen = list(t.pairs if pairs is None else pairs)
    if isinstance(metrics, str):
        raise TypeError("metrics: expected a list of metrics, e.g. ['bleu', 'meteor']")
    columns = [check_metric(m, "metrics") for m in metrics]
    if not chosen or not columns:
        raise ValueError("pairs, metrics: give at least one pair and one metric")
    # At most two panels a row (a pair with more metrics takes several rows), so the grid stays
    # about 10 inches wide: readable when a notebook shows it 1,000 px wide.
    ncols = min(2, len(columns))
    rows_per_pair = -(-len(columns) // ncols)
    fig = _new_figure(5.0 * ncols, 2.9 * rows_per_pair * len(chosen))
    cells = list(fig.subplots(rows_per_pair * len(chosen), ncols, squeeze=False).flat)
    for p, pair in enumerate(chosen):
        panels = cells[p * rows_per_pair * ncols:(p + 1) * rows_per_pair * ncols]
        for ax in panels[len(columns):]:  # an odd number of metrics leaves a cell empty
            fig.delaxes(ax)
        for metric, ax in zip(columns, panels):
            if ax is not panels[0]:
                ax.sharex(panels[0])  # one pair's panels share the human axis
            plot_system_agreement(pair, metric, human_score=human_score, highlight=highlight,
                                  exclude=exclude, reference=reference, tables=t, ax=ax)
    return fig


def plot_pairwise_accuracy(
    metrics: Sequence[str] = ("bleu", "meteor", "chrf", "comet"),
    *,
    reference: str = "A",
    human_score: str = "z",
    tables: Optional["AgreementTables"] = None,
    ax: Optional[Axes] = None,
) -> Figure:
    """Pairwise accuracy (:func:`mtlearn.study.agreement.accuracy`) per pair and pooled, one bar
    per metric, its 95% bootstrap interval as a line, 0.5 (a coin) dashed.

    Every metric is scored against ``reference``; the groups are the pairs that have it,
    then ``pooled``. Bars carry the gid ``accuracy-<metric>``; their heights are the table's values.

    >>> ax = plot_pairwise_accuracy().axes[0]
    >>> from mtlearn.study.agreement import accuracy
    >>> heights = [float(b.get_height()) for b in find_gid(ax, "accuracy-bleu")]
    >>> heights[-1] == accuracy("pooled", "bleu", reference="A").value
    True
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['de-en', 'ja-en', 'ru-en', 'uk-en', 'zh-en', 'pooled']
    """
    from mtlearn.study.agreement import METRIC_NAMES, accuracies, agreement_tables, check_metric

    t = agreement_tables(tables)
    if isinstance(metrics, str):
        raise TypeError("metrics: expected a list of metrics, e.g. ['bleu', 'chrf']")
    columns = [check_metric(m, "metrics") for m in metrics]
    if not columns:
        raise ValueError("metrics: give at least one metric")
    rows = {(r.scope, r.metric): r for r in accuracies(reference=reference, human_score=human_score, tables=t)}
    scopes = [p for p in t.pairs if all((p, m) in rows for m in columns)]
    scopes += ["pooled"] if all(("pooled", m) in rows for m in columns) else []
    if not scopes:
        raise ValueError(f"reference: no pair has every metric of {columns} against reference {reference!r}")
    fig, ax = _figure_and_axes(ax, 1.1 * len(scopes) + 2.0, 3.2)
    width = 0.8 / len(columns)
    for k, m in enumerate(columns):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(scopes))]
        vals = [rows[(s, m)] for s in scopes]
        bars = ax.bar(xs, [r.value for r in vals], width * 0.9, color=METRIC_COLOURS[m], label=METRIC_NAMES[m])
        for b in bars:
            b.set_gid(f"accuracy-{m}")
        ax.vlines(xs, [r.ci_low for r in vals], [r.ci_high for r in vals], color="black", linewidth=0.8)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xticks(range(len(scopes)), scopes, fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel(f"pairwise accuracy (humans: DA {human_score})", fontsize=8)
    ax.set_title(f"Share of system pairs ordered as the humans order them (reference {reference}, 95% intervals)",
                 fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.tick_params(labelsize=7)
    return fig

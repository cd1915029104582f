"""What every picture shares: the colours, the figure class, PNG bytes, reading a picture back.

The colours are the contract between the pictures and the explorers' HTML (a clipped n-gram's
row is :data:`CLIPPED_COLOUR` in both); :class:`TeachingFigure` shows itself as a PNG in a
notebook and is never registered with pyplot; :func:`find_gid`, :func:`crossing_points` and
:func:`marker_points` read the artists back, as the tests do.

>>> stage_colour("stem"), TER_COLOURS["delete"]
('#2ca02c', '#d62728')
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, Optional

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from mtlearn.show.fonts import use_script_fonts

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
CHUNK_COLOUR = "#555555"
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
METRIC_COLOURS: dict[str, str] = {
    "bleu": "#1f77b4", "meteor": "#7b3294", "chrf": "#2ca02c", "comet": "#d95f02"}

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

    >>> from mtlearn.show.plots import plot_weights
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

    >>> from mtlearn.show.plots import plot_brevity_penalty
    >>> fig = plot_brevity_penalty()
    >>> len(find_gid(fig.axes[0], "curve"))
    1
    """
    artists = [*ax.lines, *ax.patches, *ax.texts, *ax.collections]
    return [a for a in artists if a.get_gid() == gid]


def crossing_points(ax: Axes) -> int:
    """How many crossings an alignment picture marks (the points of its ``"crossings"`` line).

    >>> from mtlearn.examples.meteor import ROW_1, ALIGNMENT_B
    >>> from mtlearn.show.plots import plot_alignment_pairs
    >>> crossing_points(plot_alignment_pairs(ROW_1.candidate.split(), ROW_1.reference.split(),
    ...                                      ALIGNMENT_B.pairs).axes[0])
    11
    """
    return sum(len(line.get_xdata()) for line in find_gid(ax, "crossings"))


def marker_points(ax: Axes) -> list[tuple[float, float]]:
    """The (x, y) points of the ``"marker"`` artists of a curve plot, as plain floats.

    >>> from mtlearn.show.plots import plot_weights
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


def new_figure(width: float, height: float) -> TeachingFigure:
    """A figure of ``width`` x ``height`` inches, laid out by matplotlib's constrained layout.

    >>> new_figure(4, 2).get_size_inches().tolist()
    [4.0, 2.0]
    """
    return TeachingFigure(figsize=(width, height), layout="constrained")


def figure_and_axes(ax: Optional[Axes], width: float, height: float) -> tuple[Figure, Axes]:
    """``ax`` and its figure (checked to be an ``Axes``), or a new figure of that size with one axes.

    >>> fig, ax = figure_and_axes(None, 3, 2)
    >>> figure_and_axes(ax, 9, 9) == (fig, ax)
    True
    """
    if ax is not None:
        if not isinstance(ax, Axes):
            raise TypeError(f"ax: expected a matplotlib Axes, got {type(ax).__name__}")
        return ax.figure, ax  # type: ignore[return-value]
    fig = new_figure(width, height)
    return fig, fig.add_subplot()


def literal(fig: Figure, ax: Axes) -> Figure:
    """``fig``, the texts put into ``ax`` (words, title, legend, table cells) drawn as typed.

    A word such as ``$x^$`` is then a dollar sign, an x and a caret, not matplotlib's
    mathtext (which would fail on it, or silently typeset ``$5 and $6``). Tick labels
    are left alone: their formatters may use mathtext on purpose. Texts with Chinese,
    Japanese or Korean characters get a CJK font as a fallback
    (:func:`mtlearn.show.fonts.use_script_fonts`), so they are not drawn as boxes.

    >>> fig = TeachingFigure()
    >>> ax = fig.add_subplot()
    >>> _ = ax.text(0, 0, "$x^$"), ax.set_title("$5 and $6")
    >>> literal(fig, ax) is fig, ax.texts[0].get_parse_math(), ax.title.get_parse_math()
    (True, False, False)
    """
    legend = ax.get_legend()
    texts = [*ax.texts, ax.title, *(legend.get_texts() if legend is not None else ()),
             *(cell.get_text() for table in ax.tables for cell in table.get_celld().values())]
    for text in texts:
        text.set_parse_math(False)
    return use_script_fonts(fig)


def as_list(results: Any) -> list[Any]:
    """``results`` to mark as a list: none, one result, or a list or tuple of them.

    >>> as_list(None), as_list("r"), as_list(("r", "s"))
    ([], ['r'], ['r', 's'])
    """
    if results is None:
        return []
    if isinstance(results, (list, tuple)):
        return list(results)
    return [results]

"""TER's picture: the candidate, the shifts as arrows, the shifted candidate, the edits against the reference.

>>> from mtlearn import ter
>>> ax = plot_ter_edits(ter("a b c", ["a c"])).axes[0]
>>> len(find_gid(ax, "delete")), len(find_gid(ax, "match"))
(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from mtlearn.core.wording import plural

from ._style import TER_COLOURS, TER_PICTURE_MAX_WORDS, figure_and_axes, literal

# isort: split
from ._style import find_gid  # noqa: F401 - the doctests read the pictures back

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.ter.result import Edit, TerResult

__all__ = ["plot_ter_edits"]

def _shift_moves(result: "TerResult") -> tuple[list[tuple[list[int], list[int]]], list[int]]:
    """Where every shift's words started (candidate indices) and where they end (shifted indices).

    The shifts are replayed with :func:`mtlearn.metrics.ter.shifts.apply_shift` on the
    words' candidate indices; the second value gives each candidate word's final place.
    """
    from mtlearn.metrics.ter.shifts import apply_shift

    # The candidate index of the word at each place.
    state = [str(i) for i in range(len(result.candidate_tokens or ()))]
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
            ax.add_patch(Rectangle((run[0] - 0.45, y - 0.14), len(run) - 0.1, 0.28, fill=False,
                                   edgecolor=colour, linewidth=1.4, linestyle="--", gid=gid, zorder=1))
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
        raise ValueError(f"result: {longest} {unit} on one side, above the {max_words} the edit picture is "
                         f"drawn for (it would be unreadable; max_words= draws more)")


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
    from mtlearn.metrics.ter.result import TerResult

    if not isinstance(result, TerResult):
        raise TypeError(f"result: expected a TerResult, got {type(result).__name__}")
    if result.is_corpus or result.candidate_tokens is None:
        raise ValueError("result: a corpus result has no single edit script; draw result.segments[i]")
    _check_picture_size(result, max_words)
    cand, shifted, ref = (list(result.candidate_tokens), list(result.shifted_tokens),
                          list(result.reference_tokens))
    rows = 3 if result.shifts else 2
    n = max(len(cand), len(ref), 1)
    fig, ax = figure_and_axes(ax, max(5.0, _word_step(cand + ref) * n + 2.0), 1.2 + 1.05 * rows)
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
    return literal(fig, ax)

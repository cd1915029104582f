"""Do the metrics agree with people? WMT22's systems: a metric's score against the humans', pairwise accuracy.

Every number comes from the shipped tables (:mod:`mtlearn.study.agreement`).

>>> ax = plot_system_agreement("de-en", "bleu").axes[0]
>>> len(marker_points(ax)), len(find_gid(ax, "system-label"))
(9, 9)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ._style import METRIC_COLOURS, figure_and_axes, literal, new_figure

# isort: split
from ._style import find_gid, marker_points  # noqa: F401 - the doctests read the pictures back

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.study.agreement import AgreementTables

__all__ = ["plot_system_agreement", "plot_agreement_grid", "plot_pairwise_accuracy"]

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


def _system_names(names: Sequence[str], pair: str, t: "AgreementTables", argname: str,
                  example: str) -> list[str]:
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
    from mtlearn.study.agreement import (
        METRIC_NAMES,
        agreement_tables,
        check_human_score,
        check_metric,
        check_pair,
        check_reference,
        system_scores,
    )

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
    fig, ax = figure_and_axes(ax, 5.2, 3.2)
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
    title = _agreement_title(pair, metric, human_score, len(systems), left_out, t, reference)
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("humans: DA z-score" if human_score == "z" else "humans: DA raw score (0-100)", fontsize=8)
    ax.set_ylabel(f"corpus {METRIC_NAMES[metric]}", fontsize=8)
    ax.tick_params(labelsize=8)
    ax.grid(alpha=0.3)
    return literal(fig, ax)


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
    fig = new_figure(5.0 * ncols, 2.9 * rows_per_pair * len(chosen))
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
    found = accuracies(reference=reference, human_score=human_score, tables=t)
    rows = {(r.scope, r.metric): r for r in found}
    scopes = _scopes_with_every_metric(t.pairs, columns, rows, reference)
    fig, ax = figure_and_axes(ax, 1.1 * len(scopes) + 2.0, 3.2)
    width = 0.8 / len(columns)
    for k, m in enumerate(columns):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(scopes))]
        vals = [rows[(s, m)] for s in scopes]
        bars = ax.bar(xs, [r.value for r in vals], width * 0.9, color=METRIC_COLOURS[m],
                      label=METRIC_NAMES[m])
        for b in bars:
            b.set_gid(f"accuracy-{m}")
        ax.vlines(xs, [r.ci_low for r in vals], [r.ci_high for r in vals], color="black", linewidth=0.8)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xticks(range(len(scopes)), scopes, fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel(f"pairwise accuracy (humans: DA {human_score})", fontsize=8)
    ax.set_title("Share of system pairs ordered as the humans order them "
                 f"(reference {reference}, 95% intervals)",
                 fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.tick_params(labelsize=7)
    return fig


def _scopes_with_every_metric(pairs: Sequence[str], columns: Sequence[str], rows: dict,
                              reference: str) -> list[str]:
    """The pairs (then ``pooled``) with an accuracy of every metric against ``reference``; at least one."""
    scopes = [p for p in pairs if all((p, m) in rows for m in columns)]
    scopes += ["pooled"] if all(("pooled", m) in rows for m in columns) else []
    if not scopes:
        raise ValueError(f"reference: no pair has every metric of {list(columns)} "
                         f"against reference {reference!r}")
    return scopes

"""Sentence level against expert MQM: pick a metric, a reference and a statistic; see every segment.

``MqmExplorer(metric="bleu", reference="ref", statistic="pearson", system=None, seg_id=None)``
    Dropdowns for the metric, the reference set (``ref``, ``refB``, ``ref+refB``), the
    statistic (Pearson's r, Kendall's tau_b, tie-calibrated pairwise accuracy), one of the
    13 MT systems and one of its segments -> the statistic from the shipped tables under
    each grouping of the WMT metrics task, with its 95% interval (and, for acc_eq, the
    constant metric it must beat); the scatter of the system's sentence scores against
    MQM, the chosen segment ringed; and the segment's source, reference(s), translation
    and every error the experts marked.

The numbers of the tables come from :func:`mtlearn.study.mqm_tables.load_mqm_tables`
(shipped: they show anywhere). The scatter and the texts need Google's data in
``../shared/data/mqm_ted_zhen`` (:func:`mtlearn.study.mqm.find_data_dir`): where it is
absent, the explorer shows the tables and says so. The sentence scores are computed by
mtlearn with the study's settings (:func:`mtlearn.study.metric_scores.score_system`), one
system at a time, when first shown (about 0.4 s for BLEU, 2 s for METEOR), and kept.
Every control is a dropdown that takes only an index from the browser, within its options
(the explorers' hardening, :mod:`mtlearn.show.explorers._base`).

CSS classes: ``mtlearn-mqm-explorer`` (the box), ``mtlearn-mqm-metric``,
``mtlearn-mqm-reference``, ``mtlearn-mqm-statistic``, ``mtlearn-mqm-system``,
``mtlearn-mqm-segment`` (the controls), ``mtlearn-mqm-texts`` (the texts and errors),
``mtlearn-mqm-plot`` (the scatter); numbers are ``<span class="mtlearn-num" data-name=...>``:
``value-<grouping>``, ``ci-low-<grouping>``, ``ci-high-<grouping>``, ``constant``,
``within-system``, ``within-system-shipped``, ``mqm``, ``metric-score``.

>>> x = MqmExplorer(data=None)  # the shipped tables only
>>> x.view.system, x.view.seg_id, round(x.view.rows["system"].value, 3)
('Online-W', 217, 0.135)
>>> x.set_inputs(statistic="accuracy_eq")
>>> sorted(x.view.rows), round(x.view.constant.value, 3)
(['item'], 0.416)
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

import ipywidgets as widgets
from matplotlib.figure import Figure

from mtlearn.show import plots
from mtlearn.show.plots import plot_mqm_scatter
from mtlearn.study.correlation import kendall_tau, pearson
from mtlearn.study.metric_scores import metric as study_metric
from mtlearn.study.metric_scores import oriented, score_system
from mtlearn.study.mqm import MqmData, MqmItem, find_data_dir, read_mqm
from mtlearn.study.mqm_tables import (
    GROUPING_NAMES,
    SEGMENT_STATISTICS,
    STATISTIC_NAMES,
    MqmTables,
    SegmentRow,
    WithinSystemRow,
    load_mqm_tables,
)

from ._base import Dropdown, Explorer, image_widget, num, show_png, with_class

__all__ = ["MqmExplorer", "MqmView", "plot_mqm_scatter", "load_mqm_data"]

#: Where the data is absent: what the explorer (and notebook 09) says.
ABSENT = ("The texts and the per-segment MQM scores are Google's data in ../shared/data/mqm_ted_zhen, "
          "which is not on this machine (or set MTLEARN_MQM_TED_ZHEN to its folder): the statistics of the "
          "tables are shipped with mtlearn; the scatter and the texts need the data.")


def load_mqm_data(path: Optional[Union[str, os.PathLike]] = None) -> Optional[MqmData]:
    """The MQM data read from ``path`` (a folder), or from :func:`find_data_dir`; ``None`` when absent.

    >>> load_mqm_data("/nonexistent") is None
    True
    """
    try:
        folder = find_data_dir() if path is None else path
        tsv = Path(folder) / "mqm_ted_zhen.tsv"
        if not tsv.is_file():
            return None
        return read_mqm(tsv)
    except FileNotFoundError:
        return None


@dataclass(frozen=True)
class MqmView:
    """What the explorer shows for one choice of controls (``data``-dependent parts ``None`` without data)."""

    metric: str
    reference: str
    statistic: str
    system: str
    seg_id: int
    rows: dict[str, SegmentRow]
    constant: Optional[SegmentRow]
    within_shipped: Optional[WithinSystemRow]
    within: Optional[float] = None
    mqm: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    item: Optional[MqmItem] = None
    references: tuple[str, ...] = ()
    point: Optional[tuple[float, float]] = None


class MqmExplorer(Explorer):
    """Segment scores of one metric against expert MQM, the shipped statistics, a segment's texts and errors.

    ``data``: an :class:`~mtlearn.study.mqm.MqmData`, ``None`` for the shipped tables only,
    or (default) read from :func:`~mtlearn.study.mqm.find_data_dir` when it is there.
    ``system``/``seg_id`` default to the pair the chosen metric orders most strongly against
    the experts (``disagreements.csv``, first row): its worse translation.
    """

    _css_class = "mtlearn-mqm-explorer"
    EMPTY_HEADLINE = ""
    _UNSET = object()

    def __init__(self, metric: str = "bleu", reference: str = "ref", statistic: str = "pearson",
                 system: Optional[str] = None, seg_id: Optional[int] = None, *,
                 tables: Optional[MqmTables] = None, data: Any = _UNSET) -> None:
        super().__init__()
        self.tables = tables if tables is not None else load_mqm_tables()
        self.data: Optional[MqmData] = load_mqm_data() if data is self._UNSET else data
        t = self.tables
        self._check(metric, t.metrics, "metric")
        self._check(reference, t.references, "reference")
        self._check(statistic, SEGMENT_STATISTICS, "statistic")
        worst = t.disagreements(reference, metric)[0]
        system = worst["worse"] if system is None else system
        self._check(system, t.mt_systems, "system")
        seg_ids = self._seg_ids(worst)
        seg_id = int(worst["seg_id"]) if seg_id is None else seg_id
        if seg_id not in seg_ids:
            raise ValueError(f"seg_id: no segment {seg_id!r}; the segments are {seg_ids[0]} … {seg_ids[-1]}")
        self.metric_input = self._dropdown(t.metrics, metric, "Metric", "mtlearn-mqm-metric")
        self.reference_input = self._dropdown(t.references, reference, "Reference", "mtlearn-mqm-reference")
        self.statistic_input = self._dropdown(SEGMENT_STATISTICS, statistic, "Statistic",
                                              "mtlearn-mqm-statistic")
        self.system_input = self._dropdown(t.mt_systems, system, "System", "mtlearn-mqm-system")
        self.segment_input = self._dropdown(seg_ids, seg_id, "Segment", "mtlearn-mqm-segment")
        self.texts_html = self._tagged(widgets.HTML(), "mtlearn-mqm-texts")
        self.image = self._tagged(image_widget(), "mtlearn-mqm-plot")
        self.figure: Optional[Figure] = None
        self.view: Optional[MqmView] = None
        self._scores: dict[tuple[str, str, str], list[float]] = {}  # (metric, reference, system): kept
        self._inputs = {"metric": self.metric_input, "reference": self.reference_input,
                        "statistic": self.statistic_input, "system": self.system_input,
                        "seg_id": self.segment_input}
        self.children = [widgets.HBox([self.metric_input, self.reference_input, self.statistic_input]),
                         widgets.HBox([self.system_input, self.segment_input]),
                         self.message_html, self.score_html, self.summary_html, self.image, self.texts_html]
        self._watch()
        self.refresh()

    @staticmethod
    def _check(value: object, choices: Sequence[Any], name: str) -> None:
        if value not in choices:
            raise ValueError(f"{name}: unknown value {value!r}; choose one of {', '.join(map(str, choices))}")

    @staticmethod
    def _dropdown(options: Sequence[Any], value: Any, description: str, css: str) -> Any:
        return with_class(Dropdown(options=list(options), value=value, description=description), css)

    def _seg_ids(self, worst: Any) -> list[int]:
        if self.data is not None:
            return list(self.data.seg_ids)
        return sorted({int(r["seg_id"]) for r in self.tables.disagreement_rows} | {int(worst["seg_id"])})

    def _sentence_scores(self, metric: str, reference: str, system: str) -> list[float]:
        key = (metric, reference, system)
        if key not in self._scores and self.data is not None:
            refs = [list(r) for r in zip(*(self.data.texts(n) for n in reference.split("+")))]
            self._scores[key] = list(score_system(study_metric(metric), self.data.texts(system),
                                                  refs).sentence)
        return self._scores[key]

    def _compute(self) -> MqmView:
        metric, reference = self.metric_input.value, self.reference_input.value
        statistic, system, seg = self.statistic_input.value, self.system_input.value, self.segment_input.value
        t = self.tables
        rows = {r.grouping: r for r in t.segment_rows
                if (r.reference, r.metric, r.statistic) == (reference, metric, statistic)}
        constant = t.constant if statistic == "accuracy_eq" else None
        shipped = t.within(reference, metric, system) if statistic != "accuracy_eq" else None
        base = MqmView(metric, reference, statistic, system, seg, rows, constant, shipped)
        if self.data is None:
            self.notes.append(ABSENT)
            return base
        mqm = [float(v) for v in self.data.scores(system)]
        scores = self._sentence_scores(metric, reference, system)
        signed = oriented(study_metric(metric), scores)  # error rates negated, as in the tables
        within = None if statistic == "accuracy_eq" else (
            pearson(signed, mqm) if statistic == "pearson" else kendall_tau(signed, mqm))
        k = self.data.seg_ids.index(seg)
        refs = tuple(self.data.item(n, seg).target for n in reference.split("+"))
        return MqmView(metric, reference, statistic, system, seg, rows, constant, shipped, within, mqm,
                       scores, self.data.item(system, seg), refs, (mqm[k], scores[k]))

    def _result_boxes(self) -> tuple[widgets.HTML, ...]:
        return (self.summary_html, self.texts_html)

    def _clear(self) -> None:
        self.view = None
        super()._clear()

    def _render(self) -> None:
        v = self.view = self.result
        self.score_html.value = self._headline(v)
        self.summary_html.value = self._table(v)
        if v.item is None:
            self.texts_html.value = ""
            show_png(self.image, b"")
            self.figure = None
            return
        label = v.metric if study_metric(v.metric).higher_is_better else f"{v.metric} (lower is better)"
        self.figure = plot_mqm_scatter(v.mqm, v.scores, point=v.point, metric=label, system=v.system,
                                       title=f"{v.system}, {v.metric} against {v.reference}: 529 segments; "
                                             f"segment {v.seg_id} ringed")
        show_png(self.image, plots.figure_to_png(self.figure, dpi=80))
        self.texts_html.value = self._texts(v)

    @staticmethod
    def _headline(v: MqmView) -> str:
        name = STATISTIC_NAMES[v.statistic]
        best = v.rows.get("system") or v.rows["item"]
        return (f'<b>{html.escape(name)}, {GROUPING_NAMES[best.grouping]}: '
                f'{num("headline", best.value, f"{best.value:.3f}")}</b> '
                f"(segment level, {html.escape(v.metric)} against expert MQM, TED talks zh→en, "
                f"reference {html.escape(v.reference)})")

    @staticmethod
    def _table(v: MqmView) -> str:
        rows = []
        for grouping, r in v.rows.items():
            value = num(f"value-{grouping}", r.value, f"{r.value:.3f}")
            low = num(f"ci-low-{grouping}", r.ci_low, f"{r.ci_low:.3f}")
            high = num(f"ci-high-{grouping}", r.ci_high, f"{r.ci_high:.3f}")
            rows.append(f"<tr><td>{GROUPING_NAMES[grouping]}</td><td>{value}</td><td>[{low}, "
                        f"{high}]</td></tr>")
        if v.constant is not None:
            c = v.constant
            rows.append(f"<tr><td>a constant metric (the level to beat)</td>"
                        f"<td>{num('constant', c.value, f'{c.value:.3f}')}</td>"
                        f"<td>[{c.ci_low:.3f}, {c.ci_high:.3f}]</td></tr>")
        if v.within_shipped is not None:
            w = v.within_shipped
            shipped = w.pearson if v.statistic == "pearson" else w.kendall
            rows.append(f"<tr><td>{html.escape(v.system)} alone (529 segments)</td>"
                        f"<td>{num('within-system-shipped', shipped, f'{shipped:.3f}')}</td>"
                        f"<td>after shuffling its MQM scores: r = {w.pearson_shuffled:.3f}</td></tr>")
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        head = "<tr><th>grouping</th><th>value</th><th>95% interval (bootstrap over segments)</th></tr>"
        return f'<table class="mtlearn-mqm-numbers" {style}>{head}{"".join(rows)}</table>'

    @staticmethod
    def _texts(v: MqmView) -> str:
        item = v.item
        assert item is not None and v.point is not None
        errors = "".join(f"<li>{html.escape(e.severity)} <b>{html.escape(e.category)}</b>: "
                         f"&ldquo;{html.escape(e.span)}&rdquo;"
                         f"{' (in the source)' if e.in_source else ''}</li>"
                         for e in item.errors) or "<li>no error marked</li>"
        refs = "".join(f"<div><b>reference {k}</b>: {html.escape(r)}</div>"
                       for k, r in enumerate(v.references, 1))
        return (f"<div><b>segment {v.seg_id}</b>, {html.escape(v.system)}: "
                f"MQM {num('mqm', v.point[0], f'{v.point[0]:g}')}, {html.escape(v.metric)} "
                f"{num('metric-score', v.point[1], f'{v.point[1]:.4f}')}</div>"
                f"<div><b>source</b>: {html.escape(item.source)}</div>{refs}"
                f"<div><b>translation</b>: {html.escape(item.target)}</div>"
                f"<div><b>errors the experts marked</b>:<ul>{errors}</ul></div>")

"""The agreement explorer: two MT systems of a WMT22 pair, who is ahead for the humans, for BLEU, for METEOR.

``AgreementExplorer(pair="de-en", system_1=None, system_2=None, *, leave_out=None)``: pick a WMT22
language pair and two of its MT systems (default: the humans' top two) -> both metrics against the
humans for that pair (:func:`mtlearn.show.plots.plot_agreement_grid`, the two systems ringed) and,
from :func:`mtlearn.study.agreement.compare_systems`, who is ahead for the humans, for BLEU and for
METEOR, with each significance test.

>>> AgreementExplorer("ja-en", "NAIST-NICT-TIT", "LanguageX").result.winner()
'LanguageX'
"""

from __future__ import annotations

import html
from typing import Any, Optional

import ipywidgets as widgets

from mtlearn.show import css, plots
from mtlearn.study.agreement import (
    METRIC_NAMES,
    METRICS,
    SIGNIFICANCE_METRICS,
    AgreementTables,
    PairwiseComparison,
    check_pair,
    check_system,
    compare_systems,
    correlate_systems,
    default_reference,
    load_agreement,
    p_value_text,
    ranking,
    system_correlation,
    system_scores,
)

from ._base import Dropdown, Explorer, image_widget, num, show_png, with_class

__all__ = ["AgreementExplorer"]


class AgreementExplorer(Explorer):
    """Two MT systems of a WMT22 pair: who is ahead for the humans, for BLEU, for METEOR.

    ``pair``: one of :func:`mtlearn.study.agreement.pairs`; ``system_1``, ``system_2``: two
    of its MT systems with a human score (default: the two the humans rank highest).
    Choosing another pair offers that pair's systems and starts from its humans' top
    two. Everything shown comes from the shipped tables
    (:func:`mtlearn.study.agreement.compare_systems`); the picture is
    :func:`mtlearn.show.plots.plot_agreement_grid` for the pair with the two systems ringed.
    ``leave_out`` (a third system, or ``None``) is left out of the picture, and a table shows
    how each metric's system-level r and rho move without it
    (:func:`mtlearn.study.agreement.correlate_systems`; WMT's COMET against its one reference).

    >>> x = AgreementExplorer("ja-en", "NAIST-NICT-TIT", "LanguageX")
    >>> x.result.winner(), x.result.winner("bleu"), bytes(x.image.value[:4])
    ('LanguageX', 'NAIST-NICT-TIT', b'\\x89PNG')
    >>> x.pair_input.value = "de-en"
    >>> x.system_1_input.value, x.system_2_input.value
    ('Lan-Bridge', 'Online-W')
    >>> x.system_2_input.value = "Lan-Bridge"
    >>> x.error
    "system_2: 'Lan-Bridge' is system_1 too; choose two different systems"
    >>> x = AgreementExplorer("ja-en", leave_out="AIST")
    >>> x.moves["bleu"][0] > x.moves["bleu"][1]  # BLEU's r without AIST is lower
    True
    """

    _css_class = css.AGREEMENT_EXPLORER
    EMPTY_HEADLINE = "<b>orders them as the humans do: &ndash;</b>"
    _NOBODY = "(nobody)"

    def __init__(self, pair: str = "de-en", system_1: Optional[str] = None, system_2: Optional[str] = None, *,
                 leave_out: Optional[str] = None, tables: Optional[AgreementTables] = None) -> None:
        super().__init__()
        self.tables = tables if tables is not None else load_agreement()
        pair = check_pair(pair, self.tables)
        top = self._top_two(pair)
        first = check_system(system_1, pair, self.tables, "system_1") if system_1 is not None else top[0]
        second = check_system(system_2, pair, self.tables, "system_2") if system_2 is not None else top[1]
        if first == second:
            raise ValueError(f"system_2: {second!r} is system_1 too; choose two different systems")
        names = self._names(pair)
        self.pair_input = with_class(Dropdown(options=list(self.tables.pairs), value=pair,
                                                    description="Pair"), css.PAIR)
        self.system_1_input = with_class(Dropdown(options=names, value=first, description="System 1"),
                                       css.SYSTEM_1)
        self.system_2_input = with_class(Dropdown(options=names, value=second, description="System 2"),
                                       css.SYSTEM_2)
        out = (check_system(leave_out, pair, self.tables, "leave_out") if leave_out is not None
               else self._NOBODY)
        self.leave_out_input = with_class(Dropdown(options=[self._NOBODY, *names], value=out,
                                                         description="Leave out"), css.LEAVE_OUT)
        self.moves_html = self._tagged(widgets.HTML(), css.AGREEMENT_MOVES)
        #: metric -> (r with every system, r without the left-out one, rho with, rho without); {} if nobody
        self.moves: dict[str, tuple[float, float, float, float]] = {}
        self.image = self._tagged(image_widget(), css.AGREEMENT_PLOT)
        self.figure: Optional[Any] = None
        self._inputs = {"pair": self.pair_input, "system_1": self.system_1_input,
                        "system_2": self.system_2_input,
                        "leave_out": self.leave_out_input}
        self.result: Optional[PairwiseComparison] = None
        self.children = [
            widgets.HBox([self.pair_input, self.system_1_input, self.system_2_input, self.leave_out_input]),
            self.message_html,
            self.score_html,
            self.summary_html,
            self.moves_html,
            self.image,
        ]
        self._watch()
        self.refresh()

    def _names(self, pair: str) -> list[str]:
        return [s.system for s in system_scores(pair, scored_only=True, tables=self.tables)]

    def _top_two(self, pair: str) -> list[str]:
        return list(ranking(pair, "human", tables=self.tables)[:2])

    def _watch(self) -> None:
        # A new pair first swaps the systems on offer, then recomputes once.
        self.pair_input.observe(self._on_pair, names="value")
        self.system_1_input.observe(self._on_change, names="value")
        self.system_2_input.observe(self._on_change, names="value")
        self.leave_out_input.observe(self._on_change, names="value")

    def _on_pair(self, _change: Any = None) -> None:  # ipywidgets passes the change; unread
        pair = self.pair_input.value
        quiet, self._quiet = self._quiet, True  # the dropdowns' own events must not recompute
        try:
            names = self._names(pair)
            first, second = self._top_two(pair)
            for box, value in ((self.system_1_input, first), (self.system_2_input, second)):
                box.options = names
                box.value = value
            self.leave_out_input.options = [self._NOBODY, *names]
            self.leave_out_input.value = self._NOBODY
        finally:
            self._quiet = quiet
        if not self._quiet:
            self.refresh()

    def set_inputs(self, **values: Any) -> None:
        """Set the pair and/or the systems, then recompute once (the pair is applied first).

        >>> x = AgreementExplorer()
        >>> x.set_inputs(system_2="LanguageX", pair="ja-en", system_1="NAIST-NICT-TIT")
        >>> x.result.pair, x.result.winner()
        ('ja-en', 'LanguageX')
        """
        if values.get("leave_out", "") is None:
            values["leave_out"] = self._NOBODY
        ordered = {k: values[k] for k in ("pair", "system_1", "system_2", "leave_out") if k in values}
        ordered.update(values)  # unknown names keep their place, for the base class's error
        super().set_inputs(**ordered)

    def _left_out(self) -> list[str]:
        name = self.leave_out_input.value
        return [] if name == self._NOBODY else [name]

    def _compute(self) -> PairwiseComparison:
        pair, first, second = self.pair_input.value, self.system_1_input.value, self.system_2_input.value
        result = compare_systems(pair, first, second, tables=self.tables)
        left_out = self._left_out()
        if left_out and left_out[0] in (first, second):
            raise ValueError(f"leave_out: {left_out[0]!r} is one of the two systems compared; choose another")
        self.moves = {}
        for m in METRICS if left_out else ():
            ref = default_reference(pair, m, tables=self.tables)
            r, rho = (system_correlation(pair, m, stat, reference=ref, tables=self.tables).value
                      for stat in ("pearson", "spearman"))
            r_out, rho_out = (correlate_systems(pair, m, statistic=stat, exclude=left_out, reference=ref,
                                                tables=self.tables) for stat in ("pearson", "spearman"))
            self.moves[m] = (r, r_out, rho, rho_out)
        return result

    def _result_boxes(self) -> tuple[widgets.HTML, ...]:
        return (self.summary_html, self.moves_html)

    def _render(self) -> None:
        c = self.result
        first, second = self.system_1_input.value, self.system_2_input.value
        self.score_html.value = (
            f'<b style="font-size:1.2em">orders them as the humans do: <span class="{css.NUMBER}" '
            f'data-name="agreeing" data-value="{c.agreeing}">{html.escape(c.verdict)}</span></b>')
        self.summary_html.value = self._summary(c, first, second)
        self.moves_html.value = self._moves_table(c.pair)
        self.figure = plots.plot_agreement_grid([c.pair], highlight=[first, second], exclude=self._left_out(),
                                                tables=self.tables)
        show_png(self.image, plots.figure_to_png(self.figure, dpi=80))

    @staticmethod
    def _summary(c: PairwiseComparison, first: str, second: str) -> str:
        swap = first != c.system_a  # the table stores the humans' winner first

        def ordered(a: float, b: float) -> tuple[float, float]:
            return (b, a) if swap else (a, b)

        def yes(flag: bool) -> str:
            return "yes" if flag else "no"

        h1, h2 = ordered(c.human_z_a, c.human_z_b)
        rows = [("humans (DA z)", num("human-1", h1), num("human-2", h2), html.escape(c.system_a),
                 num("human-p", c.human_p, p_value_text(c.human_p)) + " (Wilcoxon rank-sum)",
                 yes(c.human_significant), "")]
        for m in SIGNIFICANCE_METRICS:
            d = c.metric(m)
            v1, v2 = ordered(d.a, d.b)
            ahead = c.winner(m)
            rows.append((f"{METRIC_NAMES[m]} (corpus)", num(f"{m}-1", v1), num(f"{m}-2", v2),
                         html.escape(ahead) if ahead else "tie",
                         num(f"{m}-p", d.p_value, p_value_text(d.p_value)) + " (paired bootstrap)",
                         yes(d.significant), "&ndash;" if d.agrees is None else yes(d.agrees)))
        head = (f"<tr><th></th><th>{html.escape(first)}</th><th>{html.escape(second)}</th><th>ahead</th>"
                "<th>test</th><th>significant (5% level)</th><th>as the humans</th></tr>")
        body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        return f'<table class="{css.AGREEMENT_NUMBERS}" {style}>{head}{body}</table>'

    def _moves_table(self, pair: str) -> str:
        """How each metric's r and rho move without the left-out system ("" when nobody is left out)."""
        if not self.moves:
            return ""
        name = html.escape(self.leave_out_input.value)
        head = (f"<tr><th>system level</th><th>r, all</th><th>r without {name}</th>"
                f"<th>&rho;, all</th><th>&rho; without {name}</th></tr>")
        rows = []
        for m, values in self.moves.items():
            ref = default_reference(pair, m, tables=self.tables)
            label = METRIC_NAMES[m] + ("" if ref == "all" else f" (ref {ref})")
            cells = "".join(f"<td>{num(f'{m}-{k}', v, f'{v:.3f}')}</td>"
                            for k, v in zip(("r", "r-without", "rho", "rho-without"), values))
            rows.append(f"<tr><td>{html.escape(label)}</td>{cells}</tr>")
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        return f'<table class="{css.AGREEMENT_MOVES}" {style}>{head}{"".join(rows)}</table>'


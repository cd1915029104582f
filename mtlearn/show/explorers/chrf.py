"""The chrF explorer: chrF / chrF++ of a candidate, every order's counts and F, recomputed as you type.

``ChrfExplorer(candidate="", references=(), *, char_order=6, word_order=0, beta=2.0, lowercase=False,
whitespace=False, eps_smoothing=False)``: candidate and references boxes, character and word order
sliders (word order 2 is chrF++), a beta slider, lowercase, whitespace and eps smoothing boxes ->
the score, the averaged precision and recall, every order's n-gram counts (candidate, reference,
matched), precision and recall as exact fractions and F_beta, which reference was kept and why,
and :func:`mtlearn.show.plots.plot_chrf_orders` as a PNG ``Image``.

Its defaults, sliders and checks are :class:`~mtlearn.metrics.chrf.options.ChrfOptions`'; the
per-order table reads the rows of chrF's derivation (:func:`mtlearn.metrics.chrf.explain.derivation`).

>>> x = ChrfExplorer("ab", ["ab"], char_order=2)
>>> x.result.score, 'data-name="precision-c2"' in x.table_html.value
(1.0, True)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Optional, Union

import ipywidgets as widgets

from mtlearn.metrics.chrf.explain import OrderRow, OrderTable, derivation
from mtlearn.metrics.chrf.options import DEFAULTS, ChrfOptions
from mtlearn.metrics.chrf.result import ChrfOrder, ChrfResult
from mtlearn.metrics.chrf.score import chrf
from mtlearn.show import css, plots

from ._base import (
    Explorer,
    check_text,
    frac_text,
    image_widget,
    num,
    option_controls,
    parse_references,
    references_text,
    result_row,
    textarea,
)

__all__ = ["ChrfExplorer"]

#: The options with a control: (description, CSS class); built from ChrfOptions' specs.
_SHOWN = MappingProxyType({
    "char_order": ("Char order", css.CHAR_ORDER), "word_order": ("Word order", css.WORD_ORDER),
    "beta": ("beta", css.CHRF_BETA), "lowercase": ("Lowercase", css.LOWERCASE),
    "whitespace": ("Whitespace", css.WHITESPACE), "eps_smoothing": ("Eps smoothing", css.EPS_SMOOTHING),
})


class ChrfExplorer(Explorer):
    """chrF / chrF++ of a candidate against references, recomputed as you type.

    ``candidate``: the candidate text; ``references``: a list of strings or one
    string with one reference per line; the other arguments are :func:`mtlearn.chrf`'s
    (``word_order=2`` is chrF++). Shows the score, every order's counts, precision,
    recall and F_beta (exact fractions), the averages, which reference was kept and
    why, and :func:`mtlearn.show.plots.plot_chrf_orders`. The beta slider's value is
    rounded to 6 decimals.

    >>> x = ChrfExplorer("the cats sat", ["the cat sat"], char_order=2)
    >>> [str(o.recall) for o in x.result.orders], x.error
    (['1', '1'], None)
    >>> x.word_order_input.value = 2
    >>> [o.kind for o in x.result.orders]
    ['char', 'char', 'word', 'word']
    >>> x.beta_input.value = 0
    >>> x.error.split(":")[0]
    'beta'
    """

    _css_class = css.CHRF_EXPLORER
    EMPTY_HEADLINE = "<b>chrF = &ndash;</b>"
    OPTIONS = ChrfOptions
    NOT_CONTROLS = MappingProxyType({
        "reference_ties": "a tie between references keeps the first (sacreBLEU's rule); the summary says "
                          "which reference was kept and why"})

    def __init__(
        self,
        candidate: str = "",
        references: Union[str, Sequence[str]] = (),
        *,
        char_order: int = DEFAULTS.char_order,
        word_order: int = DEFAULTS.word_order,
        beta: float = DEFAULTS.beta,
        lowercase: bool = DEFAULTS.lowercase,
        whitespace: bool = DEFAULTS.whitespace,
        eps_smoothing: bool = DEFAULTS.eps_smoothing,
    ) -> None:
        super().__init__()
        candidate = check_text(candidate, "candidate")
        refs_text = references_text(references)
        options = ChrfOptions(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                              whitespace=whitespace, eps_smoothing=eps_smoothing)  # the metric's checks
        self.candidate_input = textarea(candidate, "Candidate", "the candidate translation", css.CANDIDATE, 2)
        self.references_input = textarea(refs_text, "References", "one reference per line", css.REFERENCES, 3)
        controls = option_controls(options, _SHOWN, {"beta": {"readout_format": ".1f"}})
        self.char_order_input = controls["char_order"]
        self.word_order_input = controls["word_order"]
        self.beta_input = controls["beta"]
        self.lowercase_input = controls["lowercase"]
        self.whitespace_input = controls["whitespace"]
        self.eps_smoothing_input = controls["eps_smoothing"]
        self.table_html = self._tagged(widgets.HTML(), css.ORDER_TABLE)
        self.image = self._tagged(image_widget(), css.CHRF_PLOT)
        self.figure: Optional[Any] = None
        self._inputs = {"candidate": self.candidate_input, "references": self.references_input, **controls}
        self.result: Optional[ChrfResult] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox([self.char_order_input, self.word_order_input, self.beta_input]),
            widgets.HBox([self.lowercase_input, self.whitespace_input, self.eps_smoothing_input]),
            self.message_html,
            result_row(self.image, [self.score_html, self.summary_html, self.table_html]),
        ]
        self._watch()
        self.refresh()

    def _compute(self) -> ChrfResult:
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        return chrf(
            self.candidate_input.value, refs,
            char_order=self.char_order_input.value,
            word_order=self.word_order_input.value,
            beta=round(float(self.beta_input.value), 6),
            lowercase=self.lowercase_input.value,
            whitespace=self.whitespace_input.value,
            eps_smoothing=self.eps_smoothing_input.value,
        )

    def _result_boxes(self) -> tuple[widgets.HTML, ...]:
        return (self.summary_html, self.table_html)

    def _render(self) -> None:
        r = self.result
        name = f"chrF{r.beta:g}" + "+" * r.word_order
        score = num("score", r.score)
        self.score_html.value = f'<b style="font-size:1.2em">{html.escape(name)} = {score}</b>'
        self.summary_html.value = self._summary(r)
        self.table_html.value = self._table(r)
        self._picture(lambda: plots.plot_chrf_orders(r))

    @staticmethod
    def _summary(r: ChrfResult) -> str:
        used = sum(1 for o in r.orders if o.used)
        b2 = f"{r.beta:g}&sup2;"
        rows = [
            (f"averaged precision P (over {used} of {len(r.orders)} orders with n-grams on both sides)",
             num("precision", r.precision)),
            ("averaged recall R", num("recall", r.recall)),
            (f"F_beta = (1 + {b2}) P R / ({b2} P + R)" if not r.eps_smoothing
             else "F_beta = mean of the orders' F_beta (eps smoothing)", num("f-beta", r.f_beta)),
        ]
        refs = r.references or ()
        if len(refs) > 1 and r.best_reference is not None:
            scores = ", ".join(f"{k + 1}: {num(f'reference-score-{k + 1}', x)}"
                               for k, x in enumerate(r.reference_scores))
            rows.append(("score against each reference", scores))
            why = (f" &nbsp;<i>{html.escape(r.reference_choice)}</i> (the library numbers references from 0)"
                   if r.reference_choice else "")
            kept = num('best-reference', r.best_reference + 1)
            rows.append(("reference kept", f"{kept} of {len(refs)}{why}"))
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        body = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
        return (f'<table class="{css.CHRF_NUMBERS}" {style}>{body}</table>'
                f"<p style='color:#666;font-size:0.85em'>{html.escape(r.signature)}</p>")

    @staticmethod
    def _table(r: ChrfResult) -> str:
        """Every order's row of the derivation (chrF's explain.py), its steps marked with their keys."""
        head = ("<tr><th>order</th><th>candidate n-grams</th><th>reference n-grams</th><th>matched</th>"
                "<th>precision</th><th>recall</th><th>F_beta</th></tr>")
        table = next(s for s in derivation(r, tables=False).sections if isinstance(s, OrderTable))
        body = [_order_row(row, order) for row, order in zip(table.rows, r.orders)]
        note = ('<p style="font-size:0.85em"><span style="color:#888">grey</span>: the candidate or the '
                "reference has no n-grams of this order; it does not enter the averages.</p>")
        return (f'<table class="{css.CHRF_ORDERS}" border="1" cellpadding="3" '
                f'style="border-collapse:collapse">{head}{"".join(body)}</table>{note}')


def _order_row(row: OrderRow, order: ChrfOrder) -> str:
    """One order's row: its counts, P_n and R_n (exact), F_n (the order's float: its step shows 4 digits)."""
    counts, ratios, f = row.steps[:3], row.steps[3:5], row.steps[5]
    kind = "character" if row.kind == "char" else "word"
    tr = (f'<tr class="{css.ORDER_ROW}">' if row.used
          else f'<tr class="{css.UNUSED_ORDER_ROW}" style="color:#888">')
    cells = ([num(s.key, int(s.exact or 0)) for s in counts]
             + [num(s.key, s.exact or Fraction(0), frac_text(s.exact or Fraction(0))) for s in ratios]
             + [num(f.key, order.f)])
    return f"{tr}<td>{kind} {row.n}-grams</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"

"""The BLEU explorer: type a candidate and references, watch every n-gram count, precision and score change.

``BleuExplorer(candidate="", references=(), *, max_order=4, smoothing="none", tokenize="whitespace",
lowercase=False, effective_order=False, weights=None)``: candidate box, references box (one
reference per line; blank lines are ignored), max order, smoothing, tokenizer, lowercase,
effective order and weights (empty: uniform; else comma-separated numbers or fractions such as
``1/2, 1/4``) -> the n-gram tables of every order with clipping marked, the precisions,
weights, brevity penalty and score.

Its defaults, slider (range, step), dropdowns (choices) and checks are
:class:`~mtlearn.metrics.bleu.options.BleuOptions`'; the weights box reads what is typed with
its own bounded parser (:func:`parse_weights`), then BLEU checks the weights.

The Chinese blog post's example C:

>>> x = BleuExplorer("A B", ["A B C D E F"], max_order=2)
>>> round(x.result.score, 4), x.error
(0.1353, None)
>>> 'data-name="brevity-penalty"' in x.summary_html.value
True
>>> x.candidate_input.value = "A B C D E F"
>>> x.result.score
1.0
"""

from __future__ import annotations

import html
import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Optional, Union

import ipywidgets as widgets

from mtlearn.core.number_text import parse_number
from mtlearn.metrics.bleu.options import DEFAULTS, BleuOptions
from mtlearn.metrics.bleu.result import BleuResult
from mtlearn.metrics.bleu.score import bleu
from mtlearn.show import css, plots

from ._base import (
    Explorer,
    Text,
    check_text,
    fmt,
    frac_text,
    num,
    option_control,
    option_controls,
    parse_references,
    references_text,
    result_row,
    textarea,
    with_class,
)

__all__ = ["BleuExplorer", "parse_weights", "WEIGHTS_MAX_CHARS", "WEIGHTS_MAX_EXPONENT"]

_MAX_ROWS = 40  # n-gram rows shown per order; the rest is counted
#: The options with a control: (description, CSS class); built from BleuOptions' specs.
_SHOWN = MappingProxyType({
    "max_order": ("Max order", css.MAX_ORDER), "smoothing": ("Smoothing", css.SMOOTHING),
    "tokenize": ("Tokenizer", css.TOKENIZE), "lowercase": ("Lowercase", css.LOWERCASE),
    "effective_order": ("Effective order", css.EFFECTIVE_ORDER),
})


def parse_weights(text: str) -> Optional[list[float]]:
    """Weights typed in a box: empty means uniform (``None``); else numbers or fractions.

    >>> parse_weights(""), parse_weights("1/2, 1/4 1/8"), parse_weights("0.25,0.25")
    (None, [0.5, 0.25, 0.125], [0.25, 0.25])
    >>> parse_weights("0.5, x")
    Traceback (most recent call last):
    ...
    ValueError: weights: cannot read 'x' as a number (write e.g. 0.25 or 1/4, separated by commas)
    """
    items = [t for t in text.replace(",", " ").replace(";", " ").split() if t]
    if not items:
        return None
    values = []
    for item in items:
        try:
            values.append(float(parse_number(item, "weights")))
        except (ValueError, ZeroDivisionError):
            raise ValueError(
                f"weights: cannot read {item!r} as a number (write e.g. 0.25 or 1/4, separated by commas)"
            ) from None
    return values


#: The weights box reads at most this many characters, with exponents up to this size (1e-30 .. 1e30):
#: a typed "1e300000000" would otherwise become a number of 300 million digits before it is read.
WEIGHTS_MAX_CHARS = 200
WEIGHTS_MAX_EXPONENT = 30
_EXPONENT = re.compile(r"[eE]([-+]?\d+(?:_\d+)*)")  # Python's number syntax allows 1_000


def _bounded_weights_text(text: str) -> str:
    """The weights box's text, refused (``ValueError``) if too long to be weights or with a huge exponent.

    At most :data:`WEIGHTS_MAX_CHARS` characters, exponents within
    ±:data:`WEIGHTS_MAX_EXPONENT`; checked on the text, before any number is built.

    >>> _bounded_weights_text("1/2, 2.5e-1, 25e-2")
    '1/2, 2.5e-1, 25e-2'
    >>> _bounded_weights_text("1e300000000")
    Traceback (most recent call last):
    ...
    ValueError: weights: '1e300000000' has an exponent beyond ±30 (write e.g. 0.25 or 1/4)
    """
    if len(text) > WEIGHTS_MAX_CHARS:
        raise ValueError(f"weights: {len(text)} characters typed; the box reads at most {WEIGHTS_MAX_CHARS}")
    for item in text.replace(",", " ").replace(";", " ").split():
        if any(abs(int(e)) > WEIGHTS_MAX_EXPONENT for e in _EXPONENT.findall(item)):
            shown = item if len(item) <= 40 else item[:37] + "..."
            raise ValueError(f"weights: {shown!r} has an exponent beyond ±{WEIGHTS_MAX_EXPONENT} "
                             "(write e.g. 0.25 or 1/4)")
    return text


def _max_order_slider(max_order: int) -> Any:
    """The max-order slider over BleuOptions' range, its end moved up to a larger order given from Python.

    >>> slider = _max_order_slider(8)
    >>> (slider.min, slider.max, slider.value), BleuOptions.spec("max_order").control
    ((1, 8, 8), (1, 6, 1))
    """
    spec = BleuOptions.spec("max_order")
    low, high, step = spec.control or (1, max_order, 1)
    return option_control(replace(spec, control=(low, max(high, max_order), step)), max_order,
                          *_SHOWN["max_order"])


def _weights_text(weights: Optional[Sequence[float]]) -> str:
    """What the weights box shows for ``weights``: nothing for uniform weights, else the numbers.

    >>> _weights_text(None), _weights_text((0.5, 0.25, 0.25))
    ('', '0.5, 0.25, 0.25')
    """
    return "" if weights is None else ", ".join(f"{float(w):g}" for w in weights)


class BleuExplorer(Explorer):
    """BLEU of a candidate against references, recomputed as you type.

    ``candidate``: the candidate text; ``references``: a list of strings or one
    string with one reference per line. The other arguments are :func:`mtlearn.bleu`'s
    (``weights`` a list of numbers, ``None`` for uniform); ``tables_open=False`` starts
    the n-gram tables folded (the workshop's projected page: one explorer a screen).
    Papineni's clipping example:

    >>> x = BleuExplorer("the the the the the the the",
    ...                  ["The cat is on the mat", "There is a cat on the mat"], max_order=1, lowercase=True)
    >>> str(x.result.precision_fractions[0]), x.table_html.value.count('class="mtlearn-clipped"')
    ('2/7', 1)
    >>> x.table_html.value.startswith('<details class="mtlearn-ngram-details" open>')
    True
    >>> x.references_input.value = ""
    >>> x.result is None, x.error
    (True, 'references: give at least one reference, one per line')
    """

    _css_class = css.BLEU_EXPLORER
    EMPTY_HEADLINE = "<b>BLEU = &ndash;</b>"
    OPTIONS = BleuOptions
    NOT_CONTROLS = MappingProxyType({
        "smooth_value": "each smoothing method uses its own value (its default, which the signature shows)"})

    def __init__(
        self,
        candidate: str = "",
        references: Union[str, Sequence[str]] = (),
        *,
        max_order: int = DEFAULTS.max_order,
        smoothing: str = DEFAULTS.smoothing,
        tokenize: str = DEFAULTS.tokenize,
        lowercase: bool = DEFAULTS.lowercase,
        effective_order: bool = DEFAULTS.effective_order,
        weights: Optional[Sequence[float]] = DEFAULTS.weights,
        tables_open: bool = True,
    ) -> None:
        super().__init__()
        candidate = check_text(candidate, "candidate")
        refs_text = references_text(references)
        if not isinstance(tables_open, bool):
            raise TypeError(f"tables_open: expected True or False, got {type(tables_open).__name__}")
        self.tables_open = tables_open  # False: the n-gram tables start folded (a projected page stays short)
        # BleuOptions checks every value, with the metric's own messages; a weights warning shows in the
        # widget once it runs.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            options = BleuOptions(max_order=max_order, weights=weights, smoothing=smoothing,
                                  tokenize=tokenize, lowercase=lowercase, effective_order=effective_order)
        self.candidate_input = textarea(candidate, "Candidate", "the candidate translation", css.CANDIDATE, 2)
        self.references_input = textarea(refs_text, "References", "one reference per line", css.REFERENCES, 3)
        controls = {"max_order": _max_order_slider(options.max_order),
                    **option_controls(options, {k: v for k, v in _SHOWN.items() if k != "max_order"})}
        self.max_order_input = controls["max_order"]
        self.smoothing_input = controls["smoothing"]
        self.tokenize_input = controls["tokenize"]
        self.lowercase_input = controls["lowercase"]
        self.effective_order_input = controls["effective_order"]
        self.weights_input = with_class(
            Text(value=_weights_text(options.weights), description="Weights",
                 placeholder="uniform; or e.g. 1/2, 1/4, 1/8, 1/16"),
            css.WEIGHTS)
        self.table_html = self._tagged(widgets.HTML(), css.NGRAM_TABLE)
        self._inputs = {"candidate": self.candidate_input, "references": self.references_input, **controls,
                        "weights": self.weights_input}
        self.result: Optional[BleuResult] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox([self.max_order_input, self.smoothing_input, self.tokenize_input]),
            widgets.HBox([self.lowercase_input, self.effective_order_input, self.weights_input]),
            self.message_html,
            result_row(self.table_html, [self.score_html, self.summary_html]),  # BLEU's picture: its tables
        ]
        self._watch()
        self.refresh()

    def set_inputs(self, **values: Any) -> None:  # noqa: D102 - documented in the base class
        if "weights" in values and not isinstance(values["weights"], str):
            values["weights"] = _weights_text(values["weights"])
        super().set_inputs(**values)

    def _compute(self) -> BleuResult:
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        return bleu(
            self.candidate_input.value, refs,
            max_order=self.max_order_input.value,
            weights=parse_weights(_bounded_weights_text(self.weights_input.value)),
            smoothing=self.smoothing_input.value,
            tokenize=self.tokenize_input.value,
            lowercase=self.lowercase_input.value,
            effective_order=self.effective_order_input.value,
        )

    def _result_boxes(self) -> tuple[widgets.HTML, ...]:
        return (self.summary_html, self.table_html)

    def _render(self) -> None:
        r = self.result
        self.score_html.value = (f'<b style="font-size:1.2em">BLEU = '
                                 f'{num("score", r.score)}</b>')
        self.summary_html.value = self._summary(r)
        opened = " open" if self.tables_open else ""
        self.table_html.value = (f'<details class="{css.NGRAM_DETAILS}"{opened}>'
                                 "<summary>n-gram tables: counts, clipping "
                                 f"(1..{r.max_order}-grams)</summary>"
                                 f"{self._tables(r)}</details>")

    @staticmethod
    def _summary(r: BleuResult) -> str:
        rows = []
        for n in range(1, r.max_order + 1):
            m, t = r.matches[n - 1], r.totals[n - 1]
            frac = r.precision_fractions[n - 1]
            p = r.precisions[n - 1]
            smoothed = "" if math.isclose(p, float(frac), rel_tol=0, abs_tol=1e-15) else " (smoothed)"
            w = r.effective_weights[n - 1]
            wl = r.weighted_log_precisions[n - 1]
            rows.append(
                f"<tr><td>{n}</td><td>{num(f'matches-{n}', m)} / {num(f'totals-{n}', t)}</td>"
                f"<td>{html.escape(frac_text(frac))}</td>"
                f"<td>{num(f'precision-{n}', p)}{smoothed}</td>"
                f"<td>{num(f'weight-{n}', w)}</td><td>{fmt(wl)}</td></tr>"
            )
        c, ref_len = r.candidate_length, r.reference_length
        if c >= ref_len:
            bp_rule = f"c = {c} &ge; r = {ref_len}, so BP = 1"
        elif c == 0:
            bp_rule = "c = 0: BP = 0"
        else:
            bp_rule = f"c = {c} &lt; r = {ref_len}: BP = exp(1 - {ref_len}/{c})"
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        return (
            f'<table class="{css.PRECISION_TABLE}" {style}>'
            "<tr><th>n</th><th>clipped matches / n-grams</th><th>p_n exact</th><th>p_n used</th>"
            "<th>weight w_n</th><th>w_n log p_n</th></tr>"
            + "".join(rows) + "</table>"
            f"<p>candidate length c = {num('candidate-length', c)}, "
            f"reference length r = {num('reference-length', ref_len)} (closest), "
            f"c/r = {num('ratio', r.ratio)}<br>"
            f"brevity penalty BP = {num('brevity-penalty', r.brevity_penalty)} ({bp_rule})<br>"
            f"geometric mean exp(&Sigma; w_n log p_n) = {num('geometric-mean', r.geometric_mean)}<br>"
            f"BLEU = BP &times; mean = {fmt(r.brevity_penalty)} &times; {fmt(r.geometric_mean)} = "
            f"<b>{fmt(r.score)}</b></p>"
            f"<p style='color:#666;font-size:0.85em'>{html.escape(r.signature)}</p>"
        )

    @staticmethod
    def _tables(r: BleuResult) -> str:
        nrefs = len(r.reference_tokens or ())
        parts = []
        for n in range(1, r.max_order + 1):
            rows = r.ngram_table(n)
            head = ("<tr><th>n-gram</th><th>candidate</th>"
                    + "".join(f"<th>ref {k + 1}</th>" for k in range(nrefs))
                    + "<th>max ref</th><th>clipped</th></tr>")
            body = []
            for row in rows[:_MAX_ROWS]:
                if row.max_reference_count == 0:
                    row_class, style, mark = css.UNMATCHED, "color:#888", ""
                elif row.clipped_count < row.candidate_count:
                    row_class, style = css.CLIPPED, f"background:{plots.CLIPPED_COLOUR}"
                    mark = f" &#9986; (from {row.candidate_count})"
                else:
                    row_class, style, mark = css.MATCHED, "", ""
                body.append(
                    f'<tr class="{row_class}" style="{style}"><td>{html.escape(" ".join(row.ngram))}</td>'
                    f"<td>{row.candidate_count}</td>"
                    + "".join(f"<td>{c}</td>" for c in row.reference_counts)
                    + f"<td>{row.max_reference_count}</td><td><b>{row.clipped_count}</b>{mark}</td></tr>"
                )
            if len(rows) > _MAX_ROWS:
                body.append(f"<tr><td colspan='{nrefs + 4}'>&hellip; {len(rows) - _MAX_ROWS} more</td></tr>")
            m, t = r.matches[n - 1], r.totals[n - 1]
            parts.append(
                f'<div style="display:inline-block;vertical-align:top;margin:0 1em 1em 0">'
                f"<b>{n}-grams</b>: p_{n} = {m}/{t}"
                f'<table class="{css.NGRAMS_TABLE}" data-n="{n}" border="1" cellpadding="3" '
                f'style="border-collapse:collapse">{head}{"".join(body)}</table></div>'
            )
        legend = (f'<p style="font-size:0.85em"><span style="background:{plots.CLIPPED_COLOUR}">'
                  "&#9986; clipped</span>: credited only as often as the reference that has it most; "
                  '<span style="color:#888">grey</span>: in no reference.</p>')
        return legend + "".join(parts)



"""chrF's derivation as rows, and what reads them: ``explain()``'s text, ``_repr_html_``, the summary line.

:func:`derivation` turns a :class:`~mtlearn.metrics.chrf.result.ChrfResult` into a
:class:`~mtlearn.core.derivation.Derivation`: the texts, the n-gram tables, every order's counts,
P_n, R_n and F_n (an :class:`OrderTable`), the averages P and R, then F_beta, each a
:class:`~mtlearn.core.derivation.Step` with its values substituted and its exact value. The text,
the HTML and the summary line read those rows; nothing here computes chrF.

>>> from mtlearn import chrf
>>> print(explain_text(chrf("ab ab", ["abc"], char_order=2), tables=False))
chrF (beta=2, char_order=2, word_order=0) of one segment (white space removed, case-sensitive)
<BLANKLINE>
candidate:   'ab ab'
reference 0: 'abc'   (kept: the only reference)
<BLANKLINE>
order | candidate | reference | matched | P_n           | R_n           | F_n
c1    |         4 |         3 |       2 | 2/4 = 0.5000  | 2/3 = 0.6667  | 0.6250
c2    |         3 |         2 |       1 | 1/3 = 0.3333  | 1/2 = 0.5000  | 0.4545
<BLANKLINE>
Average over the 2 orders used (effective order):
  P = (0.5000 + 0.3333) / 2 = 5/12 = 0.4167
  R = (0.6667 + 0.5000) / 2 = 7/12 = 0.5833
<BLANKLINE>
F_2 = (1 + 2^2) * P * R / (2^2 * P + R) = 5 * 0.4167 * 0.5833 / (4 * 0.4167 + 0.5833) = 0.5401
>>> derivation(chrf("ab ab", ["abc"], char_order=2)).step("precision-c1").exact
Fraction(1, 2)
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from mtlearn.core.derivation import Derivation, Section, Step, derive, derive_html, to_text
from mtlearn.core.signature import format_number
from mtlearn.core.wording import plural
from mtlearn.metrics.chrf.formulas import f_beta
from mtlearn.metrics.chrf.result import ChrfOrder, ChrfResult

__all__ = ["OrderRow", "OrderTable", "derivation", "explain_text", "explain_html", "summary"]

TABLE_HEADER = "order | candidate | reference | matched | P_n           | R_n           | F_n"
#: More consecutive orders than this with no n-gram on either side are shown as one line.
_RUN = 6


@dataclass(frozen=True)
class OrderRow:
    """One order's steps: its three counts, P_n, R_n and F_n (keys ``candidate-count-c1`` ... ``f-c1``)."""

    kind: str
    n: int
    used: bool
    steps: tuple[Step, ...]  # candidate, reference, matched, P_n, R_n, F_n

    @property
    def label(self) -> str:
        return f"{self.kind[0]}{self.n}"

    @property
    def empty(self) -> bool:
        """No n-gram of this order on either side."""
        return self.steps[0].exact == 0 and self.steps[1].exact == 0

    def cell(self, k: int) -> str:
        """Column ``k``'s text: a count, ``m/c = P_n`` (``0/0`` without n-grams), F_n."""
        step = self.steps[k]
        return " = ".join(part for part in (step.substituted, step.value) if part)

    def line(self, label: Optional[str] = None) -> str:
        f = self.steps[5]
        return (f"{label or self.label:<5} | {self.cell(0):>9} | {self.cell(1):>9} | {self.cell(2):>7} | "
                f"{self.cell(3):<13} | {self.cell(4):<13} | {f.value}" + (f"   {f.note}" if f.note else ""))


@dataclass(frozen=True)
class OrderTable(Section):
    """The per-order table: its steps are every order's, its text lays them out in columns."""

    rows: tuple[OrderRow, ...] = ()

    def runs(self) -> list[list[OrderRow]]:
        """The rows in order; more than 6 consecutive orders of one kind, none with n-grams, grouped.

        A high ``char_order`` has many orders longer than both texts: one line says them all.
        """
        runs: list[list[OrderRow]] = []
        for row in self.rows:
            last = runs[-1] if runs else None
            if last and row.empty and last[-1].empty and last[-1].kind == row.kind:
                last.append(row)
            else:
                runs.append([row])
        return [part for run in runs for part in ([run] if len(run) > _RUN else [[row] for row in run])]

    def text_lines(self) -> list[str]:
        lines = [self.heading]
        for run in self.runs():
            if len(run) == 1:
                lines.append(run[0].line())
            else:
                lines.append(run[0].line(f"{run[0].label}-{run[-1].label}")
                             + f"   ({len(run)} orders, no n-grams on either side)")
        return lines


def _count(key: str, name: str, value: int) -> Step:
    return Step(key, name, value=str(value), exact=Fraction(value))


def _ratio(key: str, name: str, formula: str, num: int, den: int, value: Fraction) -> Step:
    if not den:
        return Step(key, name, formula, "0/0", exact=value)
    return Step(key, name, formula, f"{num}/{den}", f"{float(value):.4f}", exact=value)


def _order_row(o: ChrfOrder, beta: str, eps: bool) -> OrderRow:
    k = o.label
    f_formula = f"(1 + {beta}^2) * P_n * R_n / ({beta}^2 * P_n + R_n)" + (", 0/0 -> 1e-16" if eps else "")
    steps = (
        _count(f"candidate-count-{k}", f"{k} candidate n-grams", o.candidate_count),
        _count(f"reference-count-{k}", f"{k} reference n-grams", o.reference_count),
        _count(f"matched-{k}", f"{k} matched", o.matched),
        _ratio(f"precision-{k}", f"P_{k}", "matched / candidate n-grams", o.matched, o.candidate_count,
               o.precision),
        _ratio(f"recall-{k}", f"R_{k}", "matched / reference n-grams", o.matched, o.reference_count,
               o.recall),
        Step(f"f-{k}", f"F_{k}", f_formula, value=f"{o.f:.4f}", note="" if o.used else "(left out)"),
    )
    return OrderRow(o.kind, o.n, o.used, steps)


def _title(result: ChrfResult) -> str:
    if result.is_corpus:
        scope = f"a corpus of {plural(len(result.segments), 'segment')}"
    else:
        scope = "one segment" if result.candidate is not None else "summed statistics"
    space = "white space kept" if result.whitespace else "white space removed"
    case = "lowercased" if result.lowercase else "case-sensitive"
    name = "chrF++" if result.word_order == 2 and result.char_order == 6 else "chrF"
    return (f"{name} (beta={format_number(result.beta)}, char_order={result.char_order}, "
            f"word_order={result.word_order}) of {scope} ({space}, {case})")


def _texts(result: ChrfResult) -> list[str]:
    lines = [f"candidate:   {result.candidate!r}"]
    for i, ref in enumerate(result.references):
        kept = f"   (kept: {result.reference_choice})" if i == result.best_reference else ""
        lines.append(f"reference {i}: {ref!r}{kept}")
    return lines


def _table_lines(result: ChrfResult, table: OrderTable) -> list[str]:
    """Every order's n-grams with their counts in the candidate and the kept reference."""
    lines = []
    for run in table.runs():
        row = run[0]
        if len(run) > 1:
            lines += [f"{row.kind} {row.n}-grams .. {run[-1].n}-grams: (none, longer than both texts)"]
            continue
        lines.append(f"{row.kind} {row.n}-grams: count in candidate | in reference | matched")
        grams = result.ngram_table(row.kind, row.n)
        for g in grams:
            gram = g.ngram if isinstance(g.ngram, str) else " ".join(g.ngram)
            lines.append(f"  {gram!r}: {g.candidate_count} | {g.reference_count} | {g.matched}")
        if not grams:
            lines.append("  (none)")
    return lines


def _averages(result: ChrfResult) -> Section:
    kept = [o for o in result.orders if o.candidate_count and o.reference_count]
    if not kept:
        return Section("No order has n-grams on both sides: P = R = 0")
    k = len(kept)
    p, r = result.precision_fraction, result.recall_fraction
    ps = " + ".join(f"{float(o.precision):.4f}" for o in kept)
    rs = " + ".join(f"{float(o.recall):.4f}" for o in kept)
    return Section(f"Average over the {k} orders used (effective order):", indent="  ", steps=(
        Step("precision", "P", substituted=f"({ps}) / {k}", value=f"{p} = {float(p):.4f}", exact=p),
        Step("recall", "R", substituted=f"({rs}) / {k}", value=f"{r} = {float(r):.4f}", exact=r),
    ))


def _f_step(result: ChrfResult, table: OrderTable) -> Step:
    b, b2, one = (format_number(x) for x in (result.beta, result.beta**2, 1 + result.beta**2))
    p, r = result.precision, result.recall
    if result.eps_smoothing:
        fs = " + ".join(run[0].steps[5].value + (f" x {len(run)}" if len(run) > 1 else "")
                        for run in table.runs())
        return Step("f-beta", "eps_smoothing: chrF", f"mean of every order's F_{b} (0/0 -> 1e-16)",
                    f"({fs}) / {len(result.orders)}", f"{result.score:.4f}")
    if p + r == 0:
        return Step("f-beta", f"F_{b}", value="0", note="(P = R = 0)")
    return Step("f-beta", f"F_{b}", f"(1 + {b}^2) * P * R / ({b}^2 * P + R)",
                f"{one} * {p:.4f} * {r:.4f} / ({b2} * {p:.4f} + {r:.4f})", f"{result.score:.4f}",
                exact=f_beta(result.precision_fraction, result.recall_fraction, result.beta))


def summary(result: ChrfResult) -> str:
    """The one line the command line prints (on mtlearn's 0-1 scale, without the signature).

    >>> from mtlearn import chrf
    >>> summary(chrf("ab ab", ["abc"], char_order=2))
    'chrF2 = 0.5401 (P = 0.4167 R = 0.5833 char_order = 2 word_order = 0 beta = 2)'
    """
    return (f"chrF{result.beta:g}{'+' * result.word_order} = {result.score:.4f} (P = {result.precision:.4f} "
            f"R = {result.recall:.4f} char_order = {result.char_order} word_order = {result.word_order} "
            f"beta = {result.beta:g})" + (f" [{result.reason}]" if result.reason else ""))


@derive.register
def derivation(result: ChrfResult, *, tables: Optional[bool] = None) -> Derivation:
    """The rows of ``result``'s derivation; ``tables`` (default: on for one segment) adds the n-gram tables.

    Registered with :func:`mtlearn.core.derivation.derive`, which ``result.explain()`` calls.

    >>> from mtlearn import chrf
    >>> d = derivation(chrf("ab ab", ["abc"], char_order=2))
    >>> d.step("recall-c2").text(), d.step("f-beta").exact
    ('R_c2 = matched / reference n-grams = 1/2 = 0.5000', Fraction(175, 324))
    >>> d.summary
    'chrF2 = 0.5401 (P = 0.4167 R = 0.5833 char_order = 2 word_order = 0 beta = 2)'
    """
    beta = format_number(result.beta)
    rows = tuple(_order_row(o, beta, result.eps_smoothing) for o in result.orders)
    table = OrderTable(TABLE_HEADER, rows=rows, steps=tuple(step for row in rows for step in row.steps))
    sections = []
    if result.candidate is not None:
        sections.append(Section(lines=tuple(_texts(result))))
        if tables is None or tables:
            sections.append(Section(lines=tuple(_table_lines(result, table))))
    sections += [table, _averages(result), Section(steps=(_f_step(result, table),))]
    notes = (f"why: {result.reason}",) if result.reason else ()
    return Derivation(_title(result), tuple(sections), summary=summary(result), notes=notes)


def explain_text(result: ChrfResult, *, tables: Optional[bool] = None) -> str:
    """The chrF derivation of ``result`` with every number substituted (what ``result.explain()`` prints).

    ``tables`` (default: on for one segment) adds every order's n-gram table.
    """
    return to_text(derivation(result, tables=tables))


_FADED = ' style="opacity:0.5"'  # an order left out of the averages


def _html_row(row: OrderRow) -> str:
    e = html.escape
    counts = "".join(f"<td>{step.value}</td>" for step in row.steps[:3])
    ratios = "".join(f"<td>{e(str(step.exact))} = {float(step.exact or 0):.4f}</td>"
                     for step in row.steps[3:5])
    return (f"<tr{'' if row.used else _FADED}><td>{row.label}</td>{counts}{ratios}"
            f"<td>{row.steps[5].value}</td></tr>")


@derive_html.register
def explain_html(result: ChrfResult) -> str:
    """A compact HTML table of ``result`` for Jupyter (per order counts, P, R, F; the averages; F_beta),
    read from the same rows as :func:`explain_text` (what ``result._repr_html_()`` returns).

    >>> from mtlearn import chrf
    >>> explain_html(chrf("ab", ["ab"], char_order=1))[:71]
    "<div class='mtlearn-chrf'><b>chrF = 1.0000</b> (1 segment; P = 1.0000, "
    """
    e = html.escape
    d = derivation(result, tables=False)
    table = next(s for s in d.sections if isinstance(s, OrderTable))
    scope = plural(len(result.segments), 'segment') if result.is_corpus else "1 segment"
    if not result.is_corpus and result.candidate is None:
        scope = "summed statistics"
    choice = f"<p>reference kept: {e(str(result.reference_choice))}</p>" if result.reference_choice else ""
    reason = f"<p><i>why:</i> {e(result.reason)}</p>" if result.reason else ""
    return (
        f"<div class='mtlearn-chrf'><b>chrF = {result.score:.4f}</b> "
        f"({scope}; P = {result.precision:.4f}, R = {result.recall:.4f}, "
        f"{result.effective_order} orders used)"
        "<table><tr><th>order</th><th>candidate</th><th>reference</th><th>matched</th>"
        "<th>P_n</th><th>R_n</th><th>F_n</th></tr>"
        + "".join(_html_row(row) for row in table.rows)
        + f"</table><p>{e(d.step('f-beta').text())}</p>{choice}{reason}"
        f"<small>{e(result.signature)}</small></div>"
    )

"""chrF's derivation as text and HTML. Presentation only: it reads a ``ChrfResult``, never computes chrF.

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
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import TYPE_CHECKING, Optional

from mtlearn.core.signature import format_number
from mtlearn.core.wording import plural

if TYPE_CHECKING:
    from mtlearn.metrics.chrf.score import ChrfOrder, ChrfResult


def _ratio(num: int, den: int, value: Fraction) -> str:
    return f"{num}/{den} = {float(value):.4f}" if den else "0/0"


def _empty(o: "ChrfOrder") -> bool:
    return not o.candidate_count and not o.reference_count


def _runs(orders: "list[ChrfOrder] | tuple[ChrfOrder, ...]") -> list[list["ChrfOrder"]]:
    """The orders in order; more than 6 consecutive orders of one kind with no n-gram on either side grouped.

    A high ``char_order`` has many orders longer than both texts: one line says them all.
    """
    runs: list[list["ChrfOrder"]] = []
    for o in orders:
        last = runs[-1] if runs else None
        if last and _empty(o) and _empty(last[-1]) and last[-1].kind == o.kind and last[-1].f == o.f:
            last.append(o)
        else:
            runs.append([o])
    return [part for run in runs for part in ([run] if len(run) > 6 else [[o] for o in run])]


def _run_label(run: list["ChrfOrder"]) -> str:
    return run[0].label if len(run) == 1 else f"{run[0].label}-{run[-1].label}"


def _order_line(o: "ChrfOrder") -> str:
    note = "" if o.used else "   (left out)"
    return (f"{o.label:<5} | {o.candidate_count:>9} | {o.reference_count:>9} | {o.matched:>7} | "
            f"{_ratio(o.matched, o.candidate_count, o.precision):<13} | "
            f"{_ratio(o.matched, o.reference_count, o.recall):<13} | {o.f:.4f}{note}")


def _title(result: "ChrfResult") -> str:
    if result.is_corpus:
        scope = f"a corpus of {plural(len(result.segments), 'segment')}"
    else:
        scope = "one segment" if result.candidate is not None else "summed statistics"
    space = "white space kept" if result.whitespace else "white space removed"
    case = "lowercased" if result.lowercase else "case-sensitive"
    name = "chrF++" if result.word_order == 2 and result.char_order == 6 else "chrF"
    return (f"{name} (beta={format_number(result.beta)}, char_order={result.char_order}, "
            f"word_order={result.word_order}) of {scope} ({space}, {case})")


def _texts(result: "ChrfResult") -> list[str]:
    if result.candidate is None:
        return []
    lines = [f"candidate:   {result.candidate!r}"]
    for i, ref in enumerate(result.references):
        kept = f"   (kept: {result.reference_choice})" if i == result.best_reference else ""
        lines.append(f"reference {i}: {ref!r}{kept}")
    return lines + [""]


def _table_lines(result: "ChrfResult") -> list[str]:
    """Every order's n-grams with their counts in the candidate and the kept reference."""
    lines = []
    for run in _runs(result.orders):
        o = run[0]
        if len(run) > 1:
            lines += [f"{o.kind} {o.n}-grams .. {run[-1].n}-grams: (none, longer than both texts)"]
            continue
        lines.append(f"{o.kind} {o.n}-grams: count in candidate | in reference | matched")
        rows = result.ngram_table(o.kind, o.n)
        for row in rows:
            gram = row.ngram if isinstance(row.ngram, str) else " ".join(row.ngram)
            lines.append(f"  {gram!r}: {row.candidate_count} | {row.reference_count} | {row.matched}")
        if not rows:
            lines.append("  (none)")
    return lines + [""]


def _average_lines(result: "ChrfResult") -> list[str]:
    kept = [o for o in result.orders if o.candidate_count and o.reference_count]
    if not kept:
        return ["No order has n-grams on both sides: P = R = 0"]
    k = len(kept)
    ps = " + ".join(f"{float(o.precision):.4f}" for o in kept)
    rs = " + ".join(f"{float(o.recall):.4f}" for o in kept)
    p, r = result.precision_fraction, result.recall_fraction
    return [
        f"Average over the {k} orders used (effective order):",
        f"  P = ({ps}) / {k} = {p} = {float(p):.4f}",
        f"  R = ({rs}) / {k} = {r} = {float(r):.4f}",
    ]


def _f_line(result: "ChrfResult") -> str:
    b = format_number(result.beta)
    b2 = format_number(result.beta**2)
    one = format_number(1 + result.beta**2)
    p, r = result.precision, result.recall
    if result.eps_smoothing:
        fs = " + ".join(f"{run[0].f:.4f}" + (f" x {len(run)}" if len(run) > 1 else "") for run in _runs(result.orders))
        return (f"eps_smoothing: chrF = mean of every order's F_{b} (0/0 -> 1e-16) = ({fs}) / "
                f"{len(result.orders)} = {result.score:.4f}")
    if p + r == 0:
        return f"F_{b} = 0   (P = R = 0)"
    return (f"F_{b} = (1 + {b}^2) * P * R / ({b}^2 * P + R) = {one} * {p:.4f} * {r:.4f} / "
            f"({b2} * {p:.4f} + {r:.4f}) = {result.score:.4f}")


def explain_text(result: "ChrfResult", *, tables: Optional[bool] = None) -> str:
    """The chrF derivation of ``result`` with every number substituted.

    ``tables`` (default: on for one segment) adds every order's n-gram table.
    """
    lines = [_title(result), ""]
    lines += _texts(result)
    if tables is None:
        tables = result.candidate is not None
    if tables and result.candidate is not None:
        lines += _table_lines(result)
    lines.append("order | candidate | reference | matched | P_n           | R_n           | F_n")
    for run in _runs(result.orders):
        line = _order_line(run[0])
        lines.append(line if len(run) == 1 else f"{_run_label(run):<5}" + line[len(f"{run[0].label:<5}"):]
                     + f"   ({len(run)} orders, no n-grams on either side)")
    lines.append("")
    lines += _average_lines(result)
    lines.append("")
    lines.append(_f_line(result))
    if result.reason:
        lines.append(f"why: {result.reason}")
    return "\n".join(lines)


_FADED = ' style="opacity:0.5"'  # an order left out of the averages


def explain_html(result: "ChrfResult") -> str:
    """A compact HTML table of ``result`` for Jupyter (per order counts, P, R, F; the averages; F_beta)."""
    e = html.escape
    rows = "".join(
        f"<tr{'' if o.used else _FADED}><td>{o.label}</td><td>{o.candidate_count}</td>"
        f"<td>{o.reference_count}</td><td>{o.matched}</td><td>{e(str(o.precision))} = {float(o.precision):.4f}</td>"
        f"<td>{e(str(o.recall))} = {float(o.recall):.4f}</td><td>{o.f:.4f}</td></tr>"
        for o in result.orders
    )
    scope = plural(len(result.segments), 'segment') if result.is_corpus else "1 segment"
    if not result.is_corpus and result.candidate is None:
        scope = "summed statistics"
    choice = f"<p>reference kept: {e(str(result.reference_choice))}</p>" if result.reference_choice else ""
    reason = f"<p><i>why:</i> {e(result.reason)}</p>" if result.reason else ""
    f_line = e(_f_line(result))
    return (
        f"<div class='mtlearn-chrf'><b>chrF = {result.score:.4f}</b> "
        f"({scope}; P = {result.precision:.4f}, R = {result.recall:.4f}, "
        f"{result.effective_order} orders used)"
        "<table><tr><th>order</th><th>candidate</th><th>reference</th><th>matched</th>"
        "<th>P_n</th><th>R_n</th><th>F_n</th></tr>"
        + rows
        + f"</table><p>{f_line}</p>{choice}{reason}<small>{e(result.signature)}</small></div>"
    )

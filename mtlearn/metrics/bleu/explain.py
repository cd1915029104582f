"""BLEU's derivation as rows, and what reads them: ``explain()``'s text, ``_repr_html_``, the summary line.

:func:`derivation` turns a :class:`~mtlearn.metrics.bleu.result.BleuResult` into a
:class:`~mtlearn.core.derivation.Derivation`: the tokens and n-gram tables, every order's p_n (an
:class:`OrderTable` whose rows also hold the smoothed value, the weight and the log), the brevity
penalty, the weighted geometric mean, then BLEU, each a :class:`~mtlearn.core.derivation.Step`
with its values substituted. The text, the HTML and the summary line read those rows; nothing
here computes BLEU.

>>> from mtlearn import bleu
>>> print(explain_text(bleu("A B B C D", ["A B C D E F"], max_order=2), tables=False))
BLEU-2 of one segment (smoothing=none, tokenize=whitespace, case-sensitive)
<BLANKLINE>
Modified n-gram precisions p_n = clipped matches / candidate n-grams:
  p_1 = 4/5 = 0.8000
  p_2 = 3/4 = 0.7500
<BLANKLINE>
Brevity penalty (c = candidate length, r = closest reference length):
  BP = exp(1 - r/c) = exp(1 - 6/5) = 0.8187   (c = 5 < r = 6)
<BLANKLINE>
Weighted geometric mean of the precisions:
  exp(1/2 * log 0.8000 + 1/2 * log 0.7500)
  = exp(1/2 * -0.2231 + 1/2 * -0.2877) = exp(-0.2554) = 0.7746
<BLANKLINE>
BLEU = BP * mean = 0.8187 * 0.7746 = 0.6342
>>> derivation(bleu("A B B C D", ["A B C D E F"], max_order=2)).step("p1").exact
Fraction(4, 5)
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from mtlearn.core.derivation import Derivation, Section, Step, derive, derive_html, to_text
from mtlearn.core.wording import plural
from mtlearn.metrics.bleu.result import BleuResult

__all__ = ["OrderRow", "OrderTable", "MeanSection", "derivation", "explain_text", "explain_html", "summary"]

PRECISION_HEADING = "Modified n-gram precisions p_n = clipped matches / candidate n-grams:"
BP_HEADING = "Brevity penalty (c = candidate length, r = closest reference length):"
MEAN_HEADING = "Weighted geometric mean of the precisions:"


def _weight(w: float) -> str:
    frac = Fraction(w).limit_denominator(64)
    return str(frac) if abs(float(frac) - w) < 1e-12 else f"{w:.4g}"


@dataclass(frozen=True)
class OrderRow:
    """One order's steps: p_n as counted (key ``p1``), as it enters the mean (``p1-used``), w_n, log p_n."""

    n: int
    counts: str  # "matches/totals"
    steps: tuple[Step, ...]

    @property
    def precision(self) -> Step:
        return self.steps[0]


@dataclass(frozen=True)
class OrderTable(Section):
    """The modified precisions: the text shows each order's p_n; the HTML reads every step of a row."""

    rows: tuple[OrderRow, ...] = ()

    def text_lines(self) -> list[str]:
        return [self.heading] + [self.indent + row.precision.text() for row in self.rows]


@dataclass(frozen=True)
class MeanSection(Section):
    """The weighted geometric mean, written out symbolically, then with the numbers, on two lines.

    Its one step (key ``mean``) holds exp(sum w_n log p_n) in ``formula``, the logs in
    ``substituted``; when a precision is 0 the step says which in ``note`` and the value is 0.
    """

    def text_lines(self) -> list[str]:
        (step,) = self.steps
        if not step.substituted:
            return [self.heading, f"  {step.note} = 0, so {step.formula} = {step.value}"]
        lines = [self.heading, f"  {step.formula}", f"  = {step.substituted} = {step.value}"]
        return lines + ([f"  {step.note}"] if step.note else [])


def _precision_step(result: BleuResult, n: int) -> Step:
    """p_n = m/t = value, with what smoothing or effective order did to it."""
    m, t = result.matches[n - 1], result.totals[n - 1]
    p = result.precisions[n - 1]
    if t == 0:
        text = f"0/0 (no {n}-grams in the candidate)"
        if n <= result.orders_used and p > 0:
            text += f", smoothed to {p:.4f}"
        elif n > result.orders_used:
            text += ", left out (effective order)"
        return Step(f"p{n}", f"p_{n}", substituted=text, exact=Fraction(0))
    exact = Fraction(m, t)
    note = f"smoothed ({result.smoothing}): {p:.4g}" if abs(p - float(exact)) > 1e-15 else ""
    return Step(f"p{n}", f"p_{n}", substituted=f"{m}/{t}", value=f"{m / t:.4f}", note=note, exact=exact)


def _order_row(result: BleuResult, n: int) -> OrderRow:
    lg = result.log_precisions[n - 1]
    steps = (
        _precision_step(result, n),
        Step(f"p{n}-used", f"p_{n} in the mean", value=f"{result.precisions[n - 1]:.4f}"),
        Step(f"w{n}", f"w_{n}", value=_weight(result.effective_weights[n - 1])),
        Step(f"log-p{n}", f"log p_{n}", value="-inf" if lg == -math.inf else f"{lg:.4f}"),
    )
    return OrderRow(n, f"{result.matches[n - 1]}/{result.totals[n - 1]}", steps)


def _title(result: BleuResult) -> str:
    if result.is_corpus:
        scope = f"a corpus of {plural(len(result.segments), 'segment')}"
    else:
        scope = "one segment" if result.candidate_tokens is not None else "summed statistics"
    case = "lowercased" if result.lowercase else "case-sensitive"
    return (f"BLEU-{result.max_order} of {scope} (smoothing={result.smoothing}, "
            f"tokenize={result.tokenize}, {case})")


def _table_lines(result: BleuResult) -> list[str]:
    """The tokens, then each order's n-gram table (candidate | each reference | max | clipped)."""
    lines = ["candidate:  " + " ".join(result.candidate_tokens or ())]
    for i, ref in enumerate(result.reference_tokens or ()):
        lines.append(f"reference {i}: " + " ".join(ref))
    lines.append("")
    # Orders past the candidate's length have no n-gram: one "(none)" stands for all of them.
    last = min(result.max_order, len(result.candidate_tokens or ()) + 1)
    for n in range(1, last + 1):
        rows = result.ngram_table(n)
        lines.append(f"{n}-grams: count in candidate | in each reference | max | clipped")
        for row in rows:
            refs = ",".join(str(x) for x in row.reference_counts)
            lines.append(
                f"  {' '.join(row.ngram)!r}: {row.candidate_count} | {refs} | "
                f"{row.max_reference_count} | {row.clipped_count}"
            )
        if not rows:
            lines.append("  (none)")
    if last < result.max_order:
        lines.append(f"{last + 1}-grams .. {result.max_order}-grams: (none), like the {last}-grams")
    return lines


def _brevity_step(result: BleuResult) -> Step:
    c, r, bp = result.candidate_length, result.reference_length, result.brevity_penalty
    if c == 0:
        return Step("bp", "BP", value="0", note="(c = 0: the candidate is empty)")
    if c < r:
        return Step("bp", "BP", "exp(1 - r/c)", f"exp(1 - {r}/{c})", f"{bp:.4f}", note=f"(c = {c} < r = {r})")
    return Step("bp", "BP", value="1", note=f"(c = {c} >= r = {r})")


def _mean_step(result: BleuResult) -> Step:
    """exp(sum w_n log p_n), written out symbolically and with the numbers."""
    used = [n for n in range(result.orders_used) if result.effective_weights[n] != 0]
    if result.geometric_mean == 0.0 and result.log_mean == -math.inf:
        which = ", ".join(f"p_{n + 1}" for n in used if result.precisions[n] == 0)
        return Step("mean", "mean", "exp(sum w_n log p_n)", value="0", note=which or "a precision")
    symbolic, numeric = _mean_terms(result, [n for n in used if result.precisions[n] > 0])
    skipped = [n + 1 for n in used if result.precisions[n] <= 0]
    note = f"({', '.join(f'p_{n}' for n in skipped)} = 0 left out of the sum, NLTK's rule)" if skipped else ""
    return Step("mean", "mean", f"exp({symbolic})", f"exp({numeric}) = exp({result.log_mean:.4f})",
                f"{result.geometric_mean:.4f}", note=note)


def _bleu_step(result: BleuResult) -> Step:
    return Step("bleu", "BLEU", "BP * mean", f"{result.brevity_penalty:.4f} * {result.geometric_mean:.4f}",
                f"{result.score:.4f}")


def _mean_terms(result: BleuResult, terms: list[int]) -> tuple[str, str]:
    """``w_n * log p_n + ...`` over the orders ``terms``, with p_n, then with log p_n ("0" if none)."""
    weights = [_weight(result.effective_weights[n]) for n in terms]
    symbolic = " + ".join(f"{w} * log {result.precisions[n]:.4f}" for w, n in zip(weights, terms))
    numeric = " + ".join(f"{w} * {result.log_precisions[n]:.4f}" for w, n in zip(weights, terms))
    return symbolic or "0", numeric or "0"


def summary(result: BleuResult) -> str:
    """The one line the command line prints (on mtlearn's 0-1 scale, without the signature).

    >>> from mtlearn import bleu
    >>> summary(bleu("A B", ["A B C D E F"], max_order=2))
    'BLEU = 0.1353 1.000/1.000 (BP = 0.135 ratio = 0.333 hyp_len = 2 ref_len = 6)'
    """
    precisions = "/".join(f"{p:.3f}" for p in result.precisions)
    return (f"BLEU = {result.score:.4f} {precisions} (BP = {result.brevity_penalty:.3f} "
            f"ratio = {result.ratio:.3f} hyp_len = {result.candidate_length} "
            f"ref_len = {result.reference_length})")


@derive.register
def derivation(result: BleuResult, *, tables: Optional[bool] = None) -> Derivation:
    """The rows of ``result``'s derivation; ``tables`` (default: on for one segment) adds the n-gram tables.

    Registered with :func:`mtlearn.core.derivation.derive`, which ``result.explain()`` calls.

    >>> from mtlearn import bleu
    >>> d = derivation(bleu("A B", ["A B C D E F"], max_order=2))
    >>> d.step("bp").text(), d.step("bleu").value
    ('BP = exp(1 - r/c) = exp(1 - 6/2) = 0.1353   (c = 2 < r = 6)', '0.1353')
    """
    if tables is None:
        tables = not result.is_corpus
    sections: list[Section] = []
    if tables and result.candidate_tokens is not None:
        sections.append(Section(lines=tuple(_table_lines(result))))
    rows = tuple(_order_row(result, n) for n in range(1, result.max_order + 1))
    sections += [
        OrderTable(PRECISION_HEADING, steps=tuple(step for row in rows for step in row.steps), indent="  ",
                   rows=rows),
        Section(BP_HEADING, steps=(_brevity_step(result),), indent="  "),
        MeanSection(MEAN_HEADING, steps=(_mean_step(result),)),
        Section(steps=(_bleu_step(result),)),
    ]
    notes = (f"why: {result.reason}",) if result.reason else ()
    return Derivation(_title(result), tuple(sections), summary=summary(result), notes=notes)


def explain_text(result: BleuResult, *, tables: Optional[bool] = None) -> str:
    """The BLEU derivation of ``result`` with every number substituted (what ``result.explain()`` prints).

    ``tables`` (default: on for one segment) adds each order's n-gram table with the
    candidate count, each reference's count, the maximum and the clipped count.
    """
    return to_text(derivation(result, tables=tables))


def _html_row(row: OrderRow) -> str:
    used, weight, log = (step.value for step in row.steps[1:])
    return f"<tr><td>{row.n}</td><td>{row.counts}</td><td>{used}</td><td>{weight}</td><td>{log}</td></tr>"


@derive_html.register
def explain_html(result: BleuResult) -> str:
    """A compact HTML table of ``result`` for Jupyter (orders, precisions, weights, BP, score), read from the
    same rows as :func:`explain_text` (what ``result._repr_html_()`` returns).

    >>> from mtlearn import bleu
    >>> explain_html(bleu("a b", ["a b"], max_order=1))[:70]
    "<div class='mtlearn-bleu'><b>BLEU = 1.0000</b> (1 segment; BP = 1.0000"
    """
    e = html.escape
    d = derivation(result, tables=False)
    table = next(s for s in d.sections if isinstance(s, OrderTable))
    scope = plural(len(result.segments), 'segment') if result.is_corpus else "1 segment"
    if not result.is_corpus and result.candidate_tokens is None:
        scope = "summed statistics"
    reason = f"<p><i>why:</i> {e(result.reason)}</p>" if result.reason else ""
    return (
        f"<div class='mtlearn-bleu'><b>BLEU = {d.step('bleu').value}</b> "
        f"({scope}; BP = {result.brevity_penalty:.4f}, c = {result.candidate_length}, "
        f"r = {result.reference_length}, mean = {result.geometric_mean:.4f})"
        "<table><tr><th>n</th><th>matches/total</th><th>p_n</th><th>w_n</th><th>log p_n</th></tr>"
        + "".join(_html_row(row) for row in table.rows)
        + f"</table>{reason}<small>{e(result.signature)}</small></div>"
    )

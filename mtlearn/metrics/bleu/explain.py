"""BLEU's derivation as text and HTML. Presentation only: it reads a ``BleuResult``, never computes BLEU.

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
"""

from __future__ import annotations

import html
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Optional

from mtlearn.core.ngrams import stored_length
from mtlearn.core.wording import plural

if TYPE_CHECKING:
    from mtlearn.metrics.bleu.score import BleuResult


def _weight(w: float) -> str:
    frac = Fraction(w).limit_denominator(64)
    return str(frac) if abs(float(frac) - w) < 1e-12 else f"{w:.4g}"


def _shown_orders(result: "BleuResult") -> int:
    """How many orders to write out: past the stored values every order is like the last shown.

    With a huge ``max_order`` (a :class:`~mtlearn.core.ngrams.PerOrder`), the orders beyond the
    candidate are one repeated value: one line stands for all of them.
    """
    stored = stored_length(result.matches, result.totals, result.precisions, result.effective_weights)
    cut = result.orders_used + 1 if result.orders_used < result.max_order else 0
    return min(result.max_order, max(stored + 1, cut))


def _tail_line(result: "BleuResult", shown: int) -> list[str]:
    """One line for the orders past ``shown`` (none when every order was shown)."""
    rest = result.max_order - shown
    if rest <= 0:
        return []
    return [f"  p_{shown + 1} .. p_{result.max_order}: {rest} more orders, each as p_{shown}"]


def _precision_line(result: "BleuResult", n: int) -> str:
    m, t = result.matches[n - 1], result.totals[n - 1]
    raw = f"{m}/{t}"
    p = result.precisions[n - 1]
    exact = Fraction(m, t) if t else None
    line = f"  p_{n} = {raw} = "
    if t == 0:
        line = f"  p_{n} = 0/0 (no {n}-grams in the candidate)"
        if n <= result.orders_used and p > 0:
            line += f", smoothed to {p:.4f}"
        elif n > result.orders_used:
            line += ", left out (effective order)"
        return line
    line += f"{m / t:.4f}"
    if exact is not None and abs(p - float(exact)) > 1e-15:
        line += f"   smoothed ({result.smoothing}): {p:.4g}"
    return line


def explain_text(result: "BleuResult", *, tables: Optional[bool] = None) -> str:
    """The BLEU derivation of ``result`` with every number substituted.

    ``tables`` (default: on for one segment) adds each order's n-gram table with the
    candidate count, each reference's count, the maximum and the clipped count.
    """
    N = result.max_order
    lines = [_title(result), ""]
    if tables is None:
        tables = not result.is_corpus
    if tables and result.candidate_tokens is not None:
        lines += _table_lines(result)
    lines.append("Modified n-gram precisions p_n = clipped matches / candidate n-grams:")
    shown = _shown_orders(result)
    lines += [_precision_line(result, n) for n in range(1, shown + 1)]
    lines += _tail_line(result, shown)
    lines.append("")
    lines += _brevity_lines(result)
    lines.append("")
    lines += _mean_lines(result)
    lines.append("")
    lines.append(
        f"BLEU = BP * mean = {result.brevity_penalty:.4f} * {result.geometric_mean:.4f} = {result.score:.4f}"
    )
    if result.reason:
        lines.append(f"why: {result.reason}")
    return "\n".join(lines)


def _title(result: "BleuResult") -> str:
    if result.is_corpus:
        scope = f"a corpus of {plural(len(result.segments), 'segment')}"
    else:
        scope = "one segment" if result.candidate_tokens is not None else "summed statistics"
    case = "lowercased" if result.lowercase else "case-sensitive"
    return f"BLEU-{result.max_order} of {scope} (smoothing={result.smoothing}, tokenize={result.tokenize}, {case})"


def _table_lines(result: "BleuResult") -> list[str]:
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
    lines.append("")
    return lines


def _brevity_lines(result: "BleuResult") -> list[str]:
    c, r, bp = result.candidate_length, result.reference_length, result.brevity_penalty
    lines = ["Brevity penalty (c = candidate length, r = closest reference length):"]
    if c == 0:
        lines.append("  BP = 0   (c = 0: the candidate is empty)")
    elif c < r:
        lines.append(f"  BP = exp(1 - r/c) = exp(1 - {r}/{c}) = {bp:.4f}   (c = {c} < r = {r})")
    else:
        lines.append(f"  BP = 1   (c = {c} >= r = {r})")
    return lines


def _mean_lines(result: "BleuResult") -> list[str]:
    """exp(sum w_n log p_n), written out symbolically and with the numbers."""
    lines = ["Weighted geometric mean of the precisions:"]
    shown = _shown_orders(result)
    used = [n for n in range(shown) if result.effective_weights[n] != 0 and n < result.orders_used]
    if result.geometric_mean == 0.0 and result.log_mean == -math.inf:
        zero = [n + 1 for n in used if result.precisions[n] == 0]
        which = ", ".join(f"p_{n}" for n in zero) or "a precision"
        lines.append(f"  {which} = 0, so exp(sum w_n log p_n) = 0")
        return lines
    terms = [n for n in used if result.precisions[n] > 0]
    skipped = [n + 1 for n in used if result.precisions[n] <= 0]
    symbolic, numeric = _mean_terms(result, terms)
    if shown < result.max_order and shown - 1 in terms:  # the orders not shown are like the last one
        more = f" + ({result.max_order - shown} more terms like the last)"
        symbolic, numeric = symbolic + more, numeric + more
    lines.append(f"  exp({symbolic})")
    lines.append(f"  = exp({numeric}) = exp({result.log_mean:.4f}) = {result.geometric_mean:.4f}")
    if skipped:
        names = ", ".join(f"p_{n}" for n in skipped)
        lines.append(f"  ({names} = 0 left out of the sum, NLTK's rule)")
    return lines


def _mean_terms(result: "BleuResult", terms: list[int]) -> tuple[str, str]:
    """``w_n * log p_n + ...`` over the orders ``terms``, with p_n, then with log p_n ("0" if none)."""
    weights = [_weight(result.effective_weights[n]) for n in terms]
    symbolic = " + ".join(f"{w} * log {result.precisions[n]:.4f}" for w, n in zip(weights, terms))
    numeric = " + ".join(f"{w} * {result.log_precisions[n]:.4f}" for w, n in zip(weights, terms))
    return symbolic or "0", numeric or "0"


def explain_html(result: "BleuResult") -> str:
    """A compact HTML table of ``result`` for Jupyter (orders, precisions, weights, BP, score)."""
    e = html.escape
    rows = []
    shown = _shown_orders(result)
    for n in range(1, shown + 1):
        m, t = result.matches[n - 1], result.totals[n - 1]
        lg = result.log_precisions[n - 1]
        rows.append(
            f"<tr><td>{n}</td><td>{m}/{t}</td><td>{result.precisions[n - 1]:.4f}</td>"
            f"<td>{_weight(result.effective_weights[n - 1])}</td>"
            f"<td>{'-inf' if lg == -math.inf else f'{lg:.4f}'}</td></tr>"
        )
    if shown < result.max_order:
        rows.append(f"<tr><td>{shown + 1}..{result.max_order}</td><td colspan='4'>each as order {shown}</td></tr>")
    scope = plural(len(result.segments), 'segment') if result.is_corpus else "1 segment"
    if not result.is_corpus and result.candidate_tokens is None:
        scope = "summed statistics"
    reason = f"<p><i>why:</i> {e(result.reason)}</p>" if result.reason else ""
    return (
        f"<div class='mtlearn-bleu'><b>BLEU = {result.score:.4f}</b> "
        f"({scope}; BP = {result.brevity_penalty:.4f}, c = {result.candidate_length}, "
        f"r = {result.reference_length}, mean = {result.geometric_mean:.4f})"
        "<table><tr><th>n</th><th>matches/total</th><th>p_n</th><th>w_n</th><th>log p_n</th></tr>"
        + "".join(rows)
        + f"</table>{reason}<small>{e(result.signature)}</small></div>"
    )

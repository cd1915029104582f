"""BERTScore's derivation as rows, and what reads them: ``explain()``'s text, ``_repr_html_``, the summary
line.

:func:`derivation` turns a :class:`~mtlearn.metrics.bertscore.result.BertScoreResult` into a
:class:`~mtlearn.core.derivation.Derivation`: the tokens, the cosine matrix, each candidate token's best
reference token (precision), each reference token's best candidate token (recall), P, R, F1 and the
rescaling, each a :class:`~mtlearn.core.derivation.Step` with its numbers substituted. Nothing here computes
BERTScore.

>>> from mtlearn.metrics.bertscore.result import BertScoreResult
>>> r = BertScoreResult(0.85, 0.9, 0.8, 0.85, 0.9, 0.8, 0.85, 4, False, False, None, "sig",
...                     segments=(None, None))
>>> print(summary(r))
BERTScore F1 = 0.8500 (P = 0.9000, R = 0.8000; 2 segments; all-MiniLM-L6-v2, layer 4)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mtlearn.core.derivation import Derivation, Section, Step, derive, derive_html, to_text
from mtlearn.core.wording import plural
from mtlearn.metrics.bertscore.model import MODEL_NAME
from mtlearn.metrics.bertscore.result import BertScoreComparison, BertScoreResult

if TYPE_CHECKING:  # in annotations only: rendering needs no numpy
    import numpy as np

__all__ = ["derivation", "explain_html", "explain_text", "matrix_lines", "summary"]

#: The text matrix shows at most this many tokens a side (the HTML and the plot show all).
MATRIX_TOKENS = 16


def summary(result: BertScoreResult) -> str:
    """The one line the command line prints."""
    scope = plural(len(result.segments), "segment") + "; " if result.is_corpus else ""
    scaled = ", rescaled" if result.rescale else ""
    weights = ", idf" if result.idf else ""
    return (f"BERTScore F1 = {result.f1:.4f} (P = {result.precision:.4f}, R = {result.recall:.4f}; {scope}"
            f"{MODEL_NAME}, layer {result.layer}{weights}{scaled})")


def _title(result: BertScoreResult) -> str:
    scope = f"a corpus of {plural(len(result.segments), 'segment')}" if result.is_corpus else "one segment"
    return f"BERTScore's algorithm on {MODEL_NAME} (layer {result.layer}) of {scope}"


def matrix_lines(comparison: BertScoreComparison, candidate_tokens: Sequence[str],
                 limit: int = MATRIX_TOKENS) -> list[str]:
    """The cosine matrix as text: a row per candidate token; ``*`` marks each row's best (its precision
    match)."""
    rows, cols = min(len(candidate_tokens), limit), min(len(comparison.reference_tokens), limit)
    width = max(6, *(len(t) for t in comparison.reference_tokens[:cols]))
    left = max(len(t) for t in candidate_tokens[:rows])
    lines = [" " * left + " | " + " ".join(t.rjust(width) for t in comparison.reference_tokens[:cols])]
    for i in range(rows):
        best = int(comparison.precision_matches[i])
        cells = [(f"*{comparison.similarity[i, j]:.2f}" if j == best
                  else f"{comparison.similarity[i, j]:.2f}")
                 .rjust(width) for j in range(cols)]
        lines.append(candidate_tokens[i].ljust(left) + " | " + " ".join(cells))
    if rows < len(candidate_tokens) or cols < len(comparison.reference_tokens):
        lines.append(f"(first {limit} tokens a side shown; the HTML and the plot show all)")
    return lines


def _match_lines(source: Sequence[str], target: Sequence[str], matches: np.ndarray, best: np.ndarray,
                 weights: np.ndarray) -> list[str]:
    return [f"{s:>12} -> {target[int(m)]:<12} {b:.4f}  (weight {w:.4f})"
            for s, m, b, w in zip(source, matches, best, weights)]


def _side_step(key: str, name: str, best: np.ndarray, weights: np.ndarray, value: float) -> Step:
    used = [(b, w) for b, w in zip(best, weights) if w > 0]
    shown = used[:6]
    terms = " + ".join(f"{w:.2f}*{b:.4f}" if w != 1 else f"{b:.4f}" for b, w in shown)
    terms += " + ..." if len(used) > len(shown) else ""
    total = sum(w for _, w in used)
    return Step(key, name, "Σ w·best / Σ w", f"({terms}) / {total:.4f}" if used else "0",
                f"{value:.4f}")


def _segment_sections(result: BertScoreResult) -> list[Section]:
    c = result.best
    assert c is not None
    tokens = result.candidate_tokens
    texts = [f"candidate:   {result.candidate!r}"] + [
        f"reference {i}: {cmp.reference!r}" + ("   (best F1)" if i == result.best_reference else "")
        for i, cmp in enumerate(result.comparisons)]
    tok = [f"candidate tokens: {' '.join(tokens)}", f"reference tokens: {' '.join(c.reference_tokens)}"]
    p_best, r_best = c.similarity.max(axis=1), c.similarity.max(axis=0)
    return [
        Section(lines=tuple(texts + tok)),
        Section("Cosine similarity of every token pair (rows: candidate; * = the row's best):",
                lines=tuple(matrix_lines(c, tokens)), indent="  "),
        Section("Precision: each candidate token takes its most similar reference token (w: its weight, "
                "best: that cosine)",
                lines=tuple(_match_lines(tokens, c.reference_tokens, c.precision_matches, p_best,
                                         c.candidate_weights)), indent="  ",
                steps=(_side_step("precision", "P", p_best, c.candidate_weights, c.precision),)),
        Section("Recall: each reference token takes its most similar candidate token",
                lines=tuple(_match_lines(c.reference_tokens, tokens, c.recall_matches, r_best,
                                         c.reference_weights)), indent="  ",
                steps=(_side_step("recall", "R", r_best, c.reference_weights, c.recall),)),
    ]


def _f_steps(result: BertScoreResult) -> tuple[Step, ...]:
    p, r = result.raw_precision, result.raw_recall
    steps = [Step("f1", "F1", "2PR / (P + R)", f"2 * {p:.4f} * {r:.4f} / ({p:.4f} + {r:.4f})",
                  f"{result.raw_f1:.4f}")]
    if result.baseline:
        for key, raw, b, new in zip(("P", "R", "F1"), (p, r, result.raw_f1), result.baseline,
                                    (result.precision, result.recall, result.f1)):
            steps.append(Step(f"rescaled-{key.lower()}", f"{key} rescaled", "(x - b) / (1 - b)",
                              f"({raw:.4f} - {b:.4f}) / (1 - {b:.4f})", f"{new:.4f}"))
    return tuple(steps)


def _corpus_sections(result: BertScoreResult) -> list[Section]:
    n = len(result.segments)
    steps = tuple(Step(f"mean-{k}", f"mean {k}", f"Σ {k} / {n}", "", f"{v:.4f}")
                  for k, v in (("P", result.raw_precision), ("R", result.raw_recall)))
    return [Section("The corpus score is the mean of its segments' scores:", steps=steps, indent="  ")]


@derive.register
def derivation(result: BertScoreResult) -> Derivation:
    """Every step of ``result`` as rows."""
    sections = _corpus_sections(result) if result.is_corpus else _segment_sections(result)
    if result.is_corpus:
        f_steps = (Step("f1", "mean F1", f"Σ F1 / {len(result.segments)}", "", f"{result.raw_f1:.4f}"),)
        f_steps += _f_steps(result)[1:]
    else:
        f_steps = _f_steps(result)
    sections.append(Section(steps=f_steps))
    notes = (f"why: {result.reason}",) if result.reason else ()
    return Derivation(_title(result), tuple(sections), summary=summary(result), notes=notes)


def explain_text(result: BertScoreResult) -> str:
    """The derivation of ``result`` as text (what ``result.explain()`` prints)."""
    return to_text(derivation(result))


_BOLD = ' style="font-weight:bold"'  # a candidate token's best reference token (its precision match)


def _matrix_html(comparison: BertScoreComparison, tokens: Sequence[str]) -> str:
    e = html.escape
    head = "".join(f"<th>{e(t)}</th>" for t in comparison.reference_tokens)
    rows = []
    for i, t in enumerate(tokens):
        best = int(comparison.precision_matches[i])
        cells = "".join(f"<td{_BOLD if j == best else ''}>{v:.2f}</td>"
                        for j, v in enumerate(comparison.similarity[i]))
        rows.append(f"<tr><th>{e(t)}</th>{cells}</tr>")
    return f"<table class='mtlearn-bertscore-matrix'><tr><th></th>{head}</tr>{''.join(rows)}</table>"


@derive_html.register
def explain_html(result: BertScoreResult) -> str:
    """A compact HTML view for Jupyter: the summary, the matrix (bold: each row's best), the steps."""
    e = html.escape
    d = derivation(result)
    matrix = ("" if result.is_corpus or result.best is None
              else _matrix_html(result.best, result.candidate_tokens))
    steps = "".join(f"<p>{e(s.text())}</p>" for s in d.steps())
    reason = f"<p><i>why:</i> {e(result.reason)}</p>" if result.reason else ""
    return (f"<div class='mtlearn-bertscore'><b>{e(summary(result))}</b>{matrix}{steps}{reason}"
            f"<small>{e(result.signature)}</small></div>")

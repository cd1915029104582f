"""METEOR's derivation as rows, and what reads them: ``explain()``'s text, ``_repr_html_``, the summary line.

:func:`derivation` turns a :class:`~mtlearn.metrics.meteor.result.MeteorResult` into a
:class:`~mtlearn.core.derivation.Derivation`: the texts and the alignment (or a corpus's sums), then
P, R, F_mean, fragmentation, penalty and score, each a :class:`~mtlearn.core.derivation.Step` with
its values substituted and its exact value; then every reference's score and the notes. The text,
the HTML and the summary line read those rows; nothing here computes METEOR.

>>> from mtlearn import meteor
>>> r = meteor("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"])
>>> print(explain_text(r))  # doctest: +ELLIPSIS
METEOR of one segment (stages exact, alpha=0.9, beta=3, gamma=0.5, tie_break=crossings)
candidate (w_t = 6): on the mat sat the cat
reference (w_r = 6): the cat sat on the mat
alignment: 6 mappings (exact 6), 8 crossings
  candidate[0] 'on'  -> reference[3] 'on'   exact
...
chunks (c = 6): [on] [the] [mat] [sat] [the] [cat]
...
score = F_mean * (1 - penalty) = 1.0000 * (1 - 0.5000) = 0.5000
>>> derivation(r).step("penalty").exact
Fraction(1, 2)
>>> print(summary(r))  # doctest: +NORMALIZE_WHITESPACE
METEOR = 0.5000 (P = 1.0000 R = 1.0000 F_mean = 1.0000 chunks = 6 matches = 6 penalty = 0.5000
                 hyp_len = 6 ref_len = 6)
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import TYPE_CHECKING, Optional, Union

from mtlearn.core.derivation import Derivation, Section, Step, derive, derive_html, to_text
from mtlearn.core.signature import format_number
from mtlearn.core.wording import plural
from mtlearn.metrics.meteor.alignment import FULL_BUDGET_CELLS, FULL_BUDGET_WORDS
from mtlearn.metrics.meteor.result import MeteorResult

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.meteor._search import SearchStop

__all__ = ["derivation", "formula_steps", "notes", "explain_text", "explain_html", "summary", "search_note"]

_NOT_PROVEN = "the alignment is the best found, not proven to have the fewest crossings/chunks"
#: What each limit of a search stop is called in a corpus note.
_LIMIT_NAMES = {
    "nodes": "the node budget",
    "group share": "a large group's share of the node budget",
    "group words": "the largest group searched (words)",
    "group cells": "the largest group searched (possible mappings)",
}


def _stop_text(stop: "SearchStop", tie_break: str) -> str:
    """One limit that stopped the search, in words."""
    if stop.limit == "nodes":
        return "the alignment search hit its node budget"
    if stop.limit == "group share":
        words, cells = FULL_BUDGET_WORDS.get(tie_break, 0), FULL_BUDGET_CELLS.get(tie_break, 0)
        return (f"the alignment search hit a large group's share of its node budget: a group of "
                f"{plural(stop.words, 'word')} and {plural(stop.cells, 'possible mapping')} may visit "
                f"{plural(stop.allowed, 'node')} (past {words} words"
                + (f" and {cells} mappings" if cells else "")
                + " the share shrinks with the cube of the group's words)")
    if stop.limit == "group words":
        return (f"a group of {plural(stop.words, 'word')} is larger than the search's limit "
                f"({stop.allowed} words): it kept the first alignment")
    return (f"a group of {plural(stop.words, 'word')} and {stop.size} possible mappings is larger than "
            f"the search's limit ({stop.allowed} mappings): it kept the first alignment")


def search_note(r: MeteorResult) -> str:
    """Why the alignment of ``r`` is not proven best: the limits that stopped the search, in words.

    >>> import random
    >>> from mtlearn import meteor
    >>> rng = random.Random(50)
    >>> cand, ref = ([rng.choice(["the", "a", "cat", "on"]) for _ in range(150)] for _ in "cr")
    >>> print(search_note(meteor(cand, [ref], stages=["exact"])))  # doctest: +NORMALIZE_WHITESPACE
    the alignment search hit a large group's share of its node budget: a group of 110 words and 642
    possible mappings may visit 9391 nodes (past 50 words and 600 mappings the share shrinks with the
    cube of the group's words); the alignment is the best found, not proven to have the fewest
    crossings/chunks
    """
    if r.is_corpus:
        names = ", ".join(_LIMIT_NAMES.get(s.limit, s.limit) for s in r.search_stops) or "a limit"
        return ("the alignment search stopped before proving some segments' alignments (limits met: "
                f"{names}); theirs are the best found, not proven to have the fewest crossings/chunks")
    found = "; ".join(_stop_text(s, r.tie_break) for s in r.search_stops)
    return f"{found or 'the alignment search stopped at a limit'}; {_NOT_PROVEN}"


def _num(x: Union[Fraction, float]) -> str:
    return f"{float(x):.4f}"


def _exact_part(x: Union[Fraction, float]) -> str:
    """A Fraction's ``p/q`` where it says more than its decimals (not for a whole number or a float)."""
    return str(x) if isinstance(x, Fraction) and x.denominator != 1 else ""


def _header(r: MeteorResult) -> str:
    kind = f"a corpus of {plural(len(r.segments), 'segment')}" if r.is_corpus else "one segment"
    language = "" if r.language == "en" else f", language={r.language}"  # English headers as before
    return (
        f"METEOR of {kind} (stages {'+'.join(r.stages) or '-'}, alpha={format_number(r.alpha)}, "
        f"beta={format_number(r.beta)}, gamma={format_number(r.gamma)}, tie_break={r.tie_break}{language})"
    )


def _exact(x: Union[Fraction, float]) -> Optional[Fraction]:
    return x if isinstance(x, Fraction) else None


def formula_steps(r: MeteorResult) -> tuple[Step, ...]:
    """P, R, F_mean, fragmentation, penalty and score, each with its values substituted.

    >>> from mtlearn import meteor
    >>> r = meteor("the cat was sat on the mat", ["the cat sat on the mat"], stages=["exact"])
    >>> print(formula_steps(r)[2].text())
    F_mean = P*R / (alpha*P + (1 - alpha)*R) = 60/61 = 0.9836   (= 10PR / (R + 9P))
    """
    m, wt, wr, c = r.matches, r.candidate_length, r.reference_length, r.chunks
    a = format_number(r.alpha)
    pen = _exact_part(r.penalty)
    return (
        Step("precision", "P", "m / w_t", f"{m}/{wt}", _num(r.precision), exact=r.precision),
        Step("recall", "R", "m / w_r", f"{m}/{wr}", _num(r.recall), exact=r.recall),
        Step("f-mean", "F_mean", "P*R / (alpha*P + (1 - alpha)*R)", _exact_part(r.f_mean), _num(r.f_mean),
             note=f"(alpha = {a})" if r.alpha != 0.9 else "(= 10PR / (R + 9P))", exact=r.f_mean),
        Step("fragmentation", "fragmentation", "c / u_m", f"{c}/{m}", _num(r.fragmentation),
             exact=r.fragmentation),
        Step("penalty", "penalty", "gamma * (c / u_m)^beta",
             f"{format_number(r.gamma)} * {_num(r.fragmentation)}^{format_number(r.beta)}",
             f"{pen} = {_num(r.penalty)}" if pen else _num(r.penalty), exact=_exact(r.penalty)),
        Step("score", "score", "F_mean * (1 - penalty)", f"{_num(r.f_mean)} * (1 - {_num(r.penalty)})",
             _num(r.score), exact=r.score_exact),
    )


def _alignment_lines(r: MeteorResult) -> list[str]:
    """One segment's texts, its alignment (a line per mapping) and its chunks."""
    per_stage = ", ".join(f"{k} {v}" for k, v in r.matches_per_stage.items())
    lines = [f"candidate (w_t = {r.candidate_length}): {' '.join(r.candidate)}",
             f"reference (w_r = {r.reference_length}): {' '.join(r.reference)}",
             f"alignment: {r.matches} mappings ({per_stage}), {r.crossings} crossings"]
    cw = max((len(repr(m.candidate_word)) for m in r.alignment), default=0)
    rw = max((len(repr(m.reference_word)) for m in r.alignment), default=0)
    for m in r.alignment:
        lines.append(f"  candidate[{m.candidate_index}] {repr(m.candidate_word):<{cw}} -> "
                     f"reference[{m.reference_index}] {repr(m.reference_word):<{rw}}  {m.stage}")
    spans = " ".join("[" + " ".join(r.candidate[s.candidate_slice]) + "]" for s in r.chunk_spans)
    lines.append(f"chunks (c = {r.chunks}): {spans or '-'}")
    return lines


def _corpus_lines(r: MeteorResult) -> list[str]:
    """A corpus's summed counts, and the mean of its segment scores (which is not its score)."""
    mean = _num(sum(s.score for s in r.segments) / len(r.segments)) if r.segments else "-"
    return [f"sums over segments (each with its best reference): m = {r.matches}, "
            f"w_t = {r.candidate_length}, w_r = {r.reference_length}, c = {r.chunks}",
            f"mean of the segment scores (not the corpus score): {mean}"]


def _per_reference(r: MeteorResult) -> str:
    return ", ".join(f"#{k} {_num(x.score)}" for k, x in enumerate(r.per_reference))


def notes(r: MeteorResult) -> list[str]:
    """What a reader should know besides the numbers: an unproven alignment, a float penalty, a defined 0."""
    found = [search_note(r)] if not r.optimal else []
    return found + list(r.notes) + [note for note in (r.penalty_note, r.reason) if note]


def summary(r: MeteorResult) -> str:
    """The one line the command line prints (on mtlearn's 0-1 scale, without the signature)."""
    return (f"METEOR = {_num(r.score)} (P = {_num(r.precision)} R = {_num(r.recall)} "
            f"F_mean = {_num(r.f_mean)} "
            f"chunks = {r.chunks} matches = {r.matches} penalty = {_num(r.penalty)} "
            f"hyp_len = {r.candidate_length} ref_len = {r.reference_length})"
            + ("" if r.optimal else " [alignment search stopped early: not proven optimal]"))


@derive.register
def derivation(r: MeteorResult) -> Derivation:
    """The rows of ``r``'s derivation (registered with :func:`mtlearn.core.derivation.derive`, which
    ``r.explain()`` calls): the texts and alignment (a corpus: its sums), the formula steps, every
    reference's score, the notes."""
    context = _corpus_lines(r) if r.is_corpus else _alignment_lines(r)
    sections = [Section(lines=tuple(context), blank_before=False),
                Section(steps=formula_steps(r), blank_before=False)]
    if len(r.per_reference) > 1:
        line = f"per reference: {_per_reference(r)}; kept #{r.best_reference} (the best)"
        sections.append(Section(lines=(line,), blank_before=False))
    return Derivation(_header(r), tuple(sections), summary=summary(r),
                      notes=tuple(f"note: {note}" for note in notes(r)))


def explain_text(r: MeteorResult) -> str:
    """The derivation of ``r`` with every number substituted, as plain text."""
    return to_text(derivation(r))


_COLOURS = ("#fde2e4", "#e2ece9", "#dfe7fd", "#fff1c1", "#e8dff5", "#d7f9f1", "#fce1c8")


def _tokens_html(tokens: tuple[str, ...], chunk_of: dict[int, int]) -> str:
    cells = []
    for i, tok in enumerate(tokens):
        k = chunk_of.get(i)
        style = (
            f"background:{_COLOURS[k % len(_COLOURS)]};border:1px solid #999;"
            if k is not None else "color:#888;"
        )
        title = f"chunk {k}" if k is not None else "unmatched"
        cells.append(
            f'<span style="{style}padding:1px 3px;margin:1px;display:inline-block" '
            f'title="{title}"><sub>{i}</sub> {html.escape(tok)}</span>'
        )
    return "".join(cells)


@derive_html.register
def explain_html(r: MeteorResult) -> str:
    """The derivation of ``r`` as an HTML fragment (chunks coloured, steps in a table), read from the
    same rows as :func:`explain_text`.

    >>> from mtlearn import meteor
    >>> h = explain_html(meteor("a <b>", ["a <b>"], stages=["exact"]))
    >>> "&lt;b&gt;" in h and "<table" in h
    True
    """
    d = derivation(r)
    parts = [f"<div><p><b>{html.escape(d.title)}</b></p>"]
    if not r.is_corpus:
        parts.extend(_alignment_html(r))
    steps = "".join(
        f"<tr><td style='text-align:left'><code>{html.escape(step.text())}</code></td></tr>"
        for step in d.steps()
    )
    parts.append(f"<table>{steps}</table>")
    if len(r.per_reference) > 1:
        parts.append(f"<p>per reference: {html.escape(_per_reference(r))}; kept #{r.best_reference}</p>")
    parts.extend(f"<p><i>{html.escape(note)}</i></p>" for note in notes(r))
    parts.append("</div>")
    return "".join(parts)


def _alignment_html(r: MeteorResult) -> list[str]:
    """Both texts with their chunks coloured, and the alignment as a table."""
    cand_chunk = {}
    ref_chunk = {}
    for k, s in enumerate(r.chunk_spans):
        for i in range(s.candidate_start, s.candidate_stop):
            cand_chunk[i] = k
        for j in range(s.reference_start, s.reference_stop):
            ref_chunk[j] = k
    rows = "".join(
        f"<tr><td>{m.candidate_index}</td><td>{html.escape(m.candidate_word)}</td>"
        f"<td>{m.reference_index}</td><td>{html.escape(m.reference_word)}</td>"
        f"<td>{html.escape(m.stage)}</td></tr>"
        for m in r.alignment
    )
    return [f"<p>candidate: {_tokens_html(r.candidate, cand_chunk)}</p>",
            f"<p>reference: {_tokens_html(r.reference, ref_chunk)}</p>",
            "<details><summary>alignment: "
            f"{r.matches} mappings, {r.crossings} crossings, {r.chunks} chunks</summary>"
            "<table><tr><th>cand</th><th>word</th><th>ref</th><th>word</th><th>stage</th></tr>"
            f"{rows}</table></details>"]

"""METEOR's derivation as text and as HTML; both only *read* a :class:`~mtlearn.metrics.meteor.score.MeteorResult`.

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
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import TYPE_CHECKING, Union

from mtlearn.core.signature import format_number
from mtlearn.core.wording import plural

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.meteor._search import SearchStop
    from mtlearn.metrics.meteor.score import MeteorResult

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
    from mtlearn.metrics.meteor.alignment import FULL_BUDGET_CELLS, FULL_BUDGET_WORDS

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


def search_note(r: "MeteorResult") -> str:
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


def _frac(x: Union[Fraction, float]) -> str:
    if isinstance(x, Fraction) and x.denominator != 1:
        return f"{x} = {_num(x)}"
    return _num(x)


def _header(r: "MeteorResult") -> str:
    kind = f"a corpus of {plural(len(r.segments), 'segment')}" if r.is_corpus else "one segment"
    return (
        f"METEOR of {kind} (stages {'+'.join(r.stages) or '-'}, alpha={format_number(r.alpha)}, "
        f"beta={format_number(r.beta)}, gamma={format_number(r.gamma)}, tie_break={r.tie_break})"
    )


def _formula_lines(r: "MeteorResult") -> list[str]:
    m, wt, wr, c = r.matches, r.candidate_length, r.reference_length, r.chunks
    a = format_number(r.alpha)
    lines = [
        f"P = m / w_t = {m}/{wt} = {_num(r.precision)}",
        f"R = m / w_r = {m}/{wr} = {_num(r.recall)}",
        f"F_mean = P*R / (alpha*P + (1 - alpha)*R) = {_frac(r.f_mean)}"
        + (f"   (alpha = {a})" if r.alpha != 0.9 else "   (= 10PR / (R + 9P))"),
        f"fragmentation = c / u_m = {c}/{m} = {_num(r.fragmentation)}",
        f"penalty = gamma * (c / u_m)^beta = {format_number(r.gamma)} * "
        f"{_num(r.fragmentation)}^{format_number(r.beta)} = {_frac(r.penalty)}",
        f"score = F_mean * (1 - penalty) = {_num(r.f_mean)} * (1 - {_num(r.penalty)}) = "
        f"{_num(r.score)}",
    ]
    return lines


def explain_text(r: "MeteorResult") -> str:
    """The derivation of ``r`` with every number substituted, as plain text."""
    lines = [_header(r)]
    if r.is_corpus:
        lines.append(
            f"sums over segments (each with its best reference): m = {r.matches}, "
            f"w_t = {r.candidate_length}, w_r = {r.reference_length}, c = {r.chunks}"
        )
        lines.append(f"mean of the segment scores (not the corpus score): "
                     f"{_num(sum(s.score for s in r.segments) / len(r.segments)) if r.segments else '-'}")
    else:
        lines.append(f"candidate (w_t = {r.candidate_length}): {' '.join(r.candidate)}")
        lines.append(f"reference (w_r = {r.reference_length}): {' '.join(r.reference)}")
        per_stage = ", ".join(f"{k} {v}" for k, v in r.matches_per_stage.items())
        lines.append(f"alignment: {r.matches} mappings ({per_stage}), {r.crossings} crossings")
        cw = max((len(repr(m.candidate_word)) for m in r.alignment), default=0)
        rw = max((len(repr(m.reference_word)) for m in r.alignment), default=0)
        for m in r.alignment:
            lines.append(
                f"  candidate[{m.candidate_index}] {repr(m.candidate_word):<{cw}} -> "
                f"reference[{m.reference_index}] {repr(m.reference_word):<{rw}}  {m.stage}"
            )
        spans = " ".join(
            "[" + " ".join(r.candidate[s.candidate_slice]) + "]" for s in r.chunk_spans
        )
        lines.append(f"chunks (c = {r.chunks}): {spans or '-'}")
    lines.extend(_formula_lines(r))
    if len(r.per_reference) > 1:
        lines.append("per reference: " + ", ".join(
            f"#{k} {_num(x.score)}" for k, x in enumerate(r.per_reference)
        ) + f"; kept #{r.best_reference} (the best)")
    if not r.optimal:
        lines.append(f"note: {search_note(r)}")
    if r.penalty_note:
        lines.append(f"note: {r.penalty_note}")
    if r.reason:
        lines.append(f"note: {r.reason}")
    return "\n".join(lines)


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


def explain_html(r: "MeteorResult") -> str:
    """The derivation of ``r`` as an HTML fragment (chunks coloured, steps in a table).

    >>> from mtlearn import meteor
    >>> h = explain_html(meteor("a <b>", ["a <b>"], stages=["exact"]))
    >>> "&lt;b&gt;" in h and "<table" in h
    True
    """
    parts = [f"<div><p><b>{html.escape(_header(r))}</b></p>"]
    if not r.is_corpus:
        cand_chunk = {}
        ref_chunk = {}
        for k, s in enumerate(r.chunk_spans):
            for i in range(s.candidate_start, s.candidate_stop):
                cand_chunk[i] = k
            for j in range(s.reference_start, s.reference_stop):
                ref_chunk[j] = k
        parts.append(f"<p>candidate: {_tokens_html(r.candidate, cand_chunk)}</p>")
        parts.append(f"<p>reference: {_tokens_html(r.reference, ref_chunk)}</p>")
        rows = "".join(
            f"<tr><td>{m.candidate_index}</td><td>{html.escape(m.candidate_word)}</td>"
            f"<td>{m.reference_index}</td><td>{html.escape(m.reference_word)}</td>"
            f"<td>{html.escape(m.stage)}</td></tr>"
            for m in r.alignment
        )
        parts.append(
            "<details><summary>alignment: "
            f"{r.matches} mappings, {r.crossings} crossings, {r.chunks} chunks</summary>"
            "<table><tr><th>cand</th><th>word</th><th>ref</th><th>word</th><th>stage</th></tr>"
            f"{rows}</table></details>"
        )
    steps = "".join(
        f"<tr><td style='text-align:left'><code>{html.escape(line)}</code></td></tr>"
        for line in _formula_lines(r)
    )
    parts.append(f"<table>{steps}</table>")
    if len(r.per_reference) > 1:
        parts.append("<p>per reference: " + html.escape(", ".join(
            f"#{k} {_num(x.score)}" for k, x in enumerate(r.per_reference)
        )) + f"; kept #{r.best_reference}</p>")
    if not r.optimal:
        parts.append(f"<p><i>{html.escape(search_note(r))}</i></p>")
    if r.penalty_note:
        parts.append(f"<p><i>{html.escape(r.penalty_note)}</i></p>")
    if r.reason:
        parts.append(f"<p><i>{html.escape(r.reason)}</i></p>")
    parts.append("</div>")
    return "".join(parts)

"""TER's (and WER's, CER's) derivation as rows, its text and HTML. Presentation only: it reads a result.

:func:`derivation` turns a result into a :class:`~mtlearn.core.derivation.Derivation`: the inputs,
the shifts round by round, the alignment, then the rows ``edits`` and ``score`` (formula, values
substituted, exact value). ``explain()`` prints it (:func:`~mtlearn.core.derivation.to_text`);
its ``summary`` is the one line the HTML view starts with. Registered with
:func:`~mtlearn.core.derivation.derive` and :func:`~mtlearn.core.derivation.derive_html`, so a
result reaches it without importing it.

>>> from mtlearn import ter
>>> from mtlearn.core.derivation import to_text
>>> d = derivation(ter("the cat sat on the mat", ["on the mat the cat sat"]))
>>> d.step("score").exact, d.summary
(Fraction(1, 6), 'TER = 0.1667 (1 edits / 6 reference words)')
>>> print(to_text(d))
TER of one segment (tercom tokens, lowercased)
<BLANKLINE>
candidate: the cat sat on the mat
reference: on the mat the cat sat
<BLANKLINE>
Shifts (greedy, one round each, cost 1 each):
  round 1: move "the cat sat" (words 0-2) to destination 3 -> on the mat the cat sat
           edit distance 6 -> 0 (saves 6), the largest saving of the 36 shifts tried in round 1
  search stopped: no shift lowers the edit distance
<BLANKLINE>
Alignment of the shifted candidate with the reference:
  match       on = on
  match       the = the
  match       mat = mat
  match       the = the
  match       cat = cat
  match       sat = sat
<BLANKLINE>
Edits: 1 shift + 0 insertions + 0 deletions + 0 substitutions = 1
TER = edits / reference length = 1 / 6 = 0.1667
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Any

from mtlearn.core.derivation import Derivation, Section, Step, derive, derive_html
from mtlearn.core.wording import plural
from mtlearn.metrics.ter.result import Edit, TerResult
from mtlearn.metrics.ter.shifts import apply_shift

__all__ = ["derivation", "derivation_html"]

_NAMES = {"ter": "TER", "wer": "WER", "cer": "CER"}


def _options(result: TerResult) -> str:
    parts = ["characters" if result.metric == "cer" else "tercom tokens"]
    parts.append("case-sensitive" if result.case_sensitive else "lowercased")
    for flag, name in ((result.normalized, "normalized"), (result.no_punct, "no punctuation"),
                       (result.asian_support, "Asian support")):
        if flag:
            parts.append(name)
    return ", ".join(parts)


def _join(result: TerResult, tokens: tuple[str, ...]) -> str:
    return "".join(tokens) if result.metric == "cer" else " ".join(tokens)


def _edit_line(e: Edit) -> str:
    if e.op == "match":
        return f"match       {e.candidate_word} = {e.reference_word}"
    if e.op == "substitute":
        return f"substitute  {e.candidate_word} -> {e.reference_word}"
    if e.op == "delete":
        return f"delete      {e.candidate_word}   (candidate word {e.candidate_index}, not in the reference)"
    where = f"reference word {e.reference_index}"
    return f"insert      {e.reference_word}   ({where}, missing from the candidate)"


def _edits_step(result: TerResult) -> Step:
    """``Edits: 1 shift + 1 insertion + 0 deletions + 1 substitution = 3`` (WER and CER: no shifts)."""
    c = result.counts()
    kinds = [plural(c["insert"], "insertion"), plural(c["delete"], "deletion"),
             plural(c["substitute"], "substitution")]
    if result.metric == "ter":
        kinds.insert(0, plural(c["shift"], "shift"))
    return Step("edits", "Edits: " + " + ".join(kinds), value=str(result.num_edits),
                exact=Fraction(result.num_edits))


def _score_step(result: TerResult) -> Step:
    """``TER = edits / reference length = 3 / 8 = 0.3750``, or sacreBLEU's rule for a length of 0."""
    name = _NAMES[result.metric]
    if result.stats.ref_length > 0:
        return Step("score", name, "edits / reference length",
                    f"{result.num_edits} / {result.reference_length:g}", f"{result.score:.4f}",
                    exact=result.score_fraction)
    return Step("score", name, value=f"{result.score:g} (reference length 0)", exact=result.score_fraction)


def _headline(result: TerResult) -> tuple[str, str]:
    """The score, and what it divides: the summary line's two halves (the HTML view bolds the first)."""
    return (f"{_NAMES[result.metric]} = {result.score:.4f}",
            f"({result.num_edits} edits / {result.reference_length:g} reference words)")


def _inputs(result: TerResult) -> Section:
    lines = [f"candidate: {_join(result, result.candidate_tokens or ())}"]
    refs = result.all_reference_tokens
    for k, ref in enumerate(refs):
        label = "reference" if len(refs) == 1 else f"reference {k}"
        mark = f"   ({result.reference_edits[k]} edits)" if len(refs) > 1 else ""
        lines.append(f"{label}: {_join(result, ref)}{mark}")
    if result.reference_choice:
        lines.append(f"best: {result.reference_choice}")
    return Section(lines=tuple(lines))


def _shifts(result: TerResult) -> Section:
    """Each shift taken, with the candidate after it and why it was taken; then why the search stopped."""
    lines = []
    current = result.candidate_tokens or ()
    for s in result.shifts:
        current = apply_shift(current, s.start, s.length, s.destination)
        words = f"words {s.start}-{s.start + s.length - 1}"
        lines.append(f"round {s.round}: move \"{' '.join(s.words)}\" ({words}) "
                     f"to destination {s.destination} -> {' '.join(current)}")
        lines.append(f"         {s.reason}")
    if not result.shifts:
        lines.append("none")
    lines.append(f"search stopped: {result.stopped}")
    return Section("Shifts (greedy, one round each, cost 1 each):", tuple(lines), indent="  ")


def _alignment(result: TerResult) -> Section:
    heading = ("Alignment of the shifted candidate with the reference:" if result.metric == "ter"
               else "Alignment of the candidate with the reference:")
    return Section(heading, tuple(_edit_line(e) for e in result.edits), indent="  ")


@derive.register(TerResult)
def derivation(result: TerResult, **_options_unused: Any) -> Derivation:
    """The derivation of ``result``: for one segment the inputs, shifts, alignment and score; for a corpus
    or summed statistics the score of the summed edits and lengths."""
    name = _NAMES[result.metric]
    notes = (f"why: {result.reason}",) if result.reason else ()
    summary = " ".join(_headline(result))
    if result.candidate_tokens is None:
        lines: tuple[str, ...] = ()
        scope = plural(len(result.segments), "segment") if result.is_corpus else "summed statistics"
        if result.is_corpus:
            lines = (f"Edits and average reference lengths summed over the {scope} "
                     "(per segment: result.segments[i].explain()).",)
        return Derivation(f"{name} of {scope} ({_options(result)})",
                          (Section(lines=lines, steps=(_score_step(result),)),), summary, notes)
    sections = [_inputs(result)]
    if result.metric == "ter":
        sections.append(_shifts(result))
    sections += [_alignment(result), Section(steps=(_edits_step(result), _score_step(result)))]
    return Derivation(f"{name} of one segment ({_options(result)})", tuple(sections), summary, notes)


_COLORS = {"match": "#e8f5e9", "substitute": "#fff3cd", "delete": "#f8d7da", "insert": "#d1ecf1"}


@derive_html.register(TerResult)
def derivation_html(result: TerResult) -> str:
    """A compact HTML view of ``result`` for Jupyter: the summary line, shifts, the alignment as two rows.

    >>> from mtlearn import corpus_ter
    >>> page = derivation_html(corpus_ter(["a b"], [["a c"]]))
    >>> page.split("<small>")[0]
    "<div class='mtlearn-ter'><b>TER = 0.5000</b> (1 edits / 2 reference words), 1 segment"
    """
    e = html.escape
    score, divides = _headline(result)
    head = f"<b>{score}</b> {divides}"
    reason = f"<p><i>why:</i> {e(result.reason)}</p>" if result.reason else ""
    if result.candidate_tokens is None:
        scope = plural(len(result.segments), 'segment') if result.is_corpus else "summed statistics"
        return f"<div class='mtlearn-ter'>{head}, {scope}{reason}<small>{e(result.signature)}</small></div>"
    return (f"<div class='mtlearn-ter'>{head}{_shifts_html(result)}{_alignment_html(result)}{reason}"
            f"<small>{e(result.signature)}</small></div>")


def _shifts_html(result: TerResult) -> str:
    """The shifts as a numbered list (nothing without shifts)."""
    e = html.escape
    shifts = "".join(f"<li>round {s.round}: <b>{e(' '.join(s.words))}</b> from {s.start} to {s.destination} "
                     f"(saves {s.gain})</li>" for s in result.shifts)
    return f"<p>Shifts:</p><ol>{shifts}</ol>" if result.shifts else ""


def _alignment_html(result: TerResult) -> str:
    """The edit script as a table: the candidate's words, each operation's letter, the reference's words."""
    e = html.escape

    def cells(words: list[str]) -> str:
        return "".join(f"<td style='background:{_COLORS[x.op]}'>{e(word)}</td>"
                       for x, word in zip(result.edits, words))

    cand = cells([x.candidate_word or "" for x in result.edits])
    ref = cells([x.reference_word or "" for x in result.edits])
    ops = "".join(f"<td><small>{x.op[0].upper() if x.op != 'match' else ''}</small></td>"
                  for x in result.edits)
    return (f"<table><tr><th>candidate</th>{cand}</tr><tr><th></th>{ops}</tr>"
            f"<tr><th>reference</th>{ref}</tr></table>")

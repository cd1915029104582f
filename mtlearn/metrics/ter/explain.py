"""TER's (and WER's, CER's) derivation as text and HTML. Presentation only: it reads a ``TerResult``.

>>> from mtlearn import ter
>>> print(explain_text(ter("the cat sat on the mat", ["on the mat the cat sat"])))
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
from typing import TYPE_CHECKING

from mtlearn.core.wording import plural

if TYPE_CHECKING:
    from mtlearn.metrics.ter.score import Edit, TerResult

_NAMES = {"ter": "TER", "wer": "WER", "cer": "CER"}


def _options(result: "TerResult") -> str:
    parts = ["characters" if result.metric == "cer" else "tercom tokens"]
    parts.append("case-sensitive" if result.case_sensitive else "lowercased")
    for flag, name in ((result.normalized, "normalized"), (result.no_punct, "no punctuation"),
                       (result.asian_support, "Asian support")):
        if flag:
            parts.append(name)
    return ", ".join(parts)


def _join(result: "TerResult", tokens: tuple) -> str:
    return ("".join(tokens) if result.metric == "cer" else " ".join(tokens))


def _edit_line(e: "Edit") -> str:
    if e.op == "match":
        return f"  match       {e.candidate_word} = {e.reference_word}"
    if e.op == "substitute":
        return f"  substitute  {e.candidate_word} -> {e.reference_word}"
    if e.op == "delete":
        return f"  delete      {e.candidate_word}   (candidate word {e.candidate_index}, not in the reference)"
    return f"  insert      {e.reference_word}   (reference word {e.reference_index}, missing from the candidate)"


def _summary(result: "TerResult") -> list[str]:
    name = _NAMES[result.metric]
    length = result.reference_length
    length_str = f"{length:g}"
    lines = []
    if result.candidate_tokens is not None:
        c = result.counts()
        lines.append(
            f"Edits: {plural(c['shift'], 'shift')} + {plural(c['insert'], 'insertion')} + "
            f"{plural(c['delete'], 'deletion')} + {plural(c['substitute'], 'substitution')} = {result.num_edits}"
            if result.metric == "ter" else
            f"Edits: {plural(c['insert'], 'insertion')} + {plural(c['delete'], 'deletion')} + "
            f"{plural(c['substitute'], 'substitution')} = {result.num_edits}"
        )
    if result.stats.ref_length > 0:
        lines.append(f"{name} = edits / reference length = {result.num_edits} / {length_str} = {result.score:.4f}")
    else:
        lines.append(f"{name} = {result.score:g} (reference length 0)")
    if result.reason:
        lines.append(f"why: {result.reason}")
    return lines


def explain_text(result: "TerResult") -> str:
    """The derivation of ``result``: shifts round by round, the alignment, edits / length, with numbers."""
    name = _NAMES[result.metric]
    if result.candidate_tokens is None:
        scope = plural(len(result.segments), 'segment') if result.is_corpus else "summed statistics"
        head = [f"{name} of {scope} ({_options(result)})", ""]
        if result.is_corpus:
            head.append(f"Edits and average reference lengths summed over the {plural(len(result.segments), 'segment')} "
                        "(per segment: result.segments[i].explain()).")
        return "\n".join(head + _summary(result))
    lines = [f"{name} of one segment ({_options(result)})", ""]
    lines.append(f"candidate: {_join(result, result.candidate_tokens)}")
    refs = result.all_reference_tokens
    for k, ref in enumerate(refs):
        label = "reference" if len(refs) == 1 else f"reference {k}"
        mark = f"   ({result.reference_edits[k]} edits)" if len(refs) > 1 else ""
        lines.append(f"{label}: {_join(result, ref)}{mark}")
    if result.reference_choice:
        lines.append(f"best: {result.reference_choice}")
    if result.metric == "ter":
        lines += ["", "Shifts (greedy, one round each, cost 1 each):"]
        current = result.candidate_tokens
        from mtlearn.metrics.ter.shifts import apply_shift

        for s in result.shifts:
            current = apply_shift(current, s.start, s.length, s.destination)
            lines.append(f"  round {s.round}: move \"{' '.join(s.words)}\" (words {s.start}-{s.start + s.length - 1}) "
                         f"to destination {s.destination} -> {' '.join(current)}")
            lines.append(f"           {s.reason}")
        if not result.shifts:
            lines.append("  none")
        lines.append(f"  search stopped: {result.stopped}")
    lines += ["", "Alignment of the shifted candidate with the reference:" if result.metric == "ter"
              else "Alignment of the candidate with the reference:"]
    lines += [_edit_line(e) for e in result.edits]
    lines.append("")
    return "\n".join(lines + _summary(result))


_COLORS = {"match": "#e8f5e9", "substitute": "#fff3cd", "delete": "#f8d7da", "insert": "#d1ecf1"}


def explain_html(result: "TerResult") -> str:
    """A compact HTML view of ``result`` for Jupyter: shifts, the alignment as two rows, the score."""
    e = html.escape
    name = _NAMES[result.metric]
    reason = f"<p><i>why:</i> {e(result.reason)}</p>" if result.reason else ""
    head = (f"<b>{name} = {result.score:.4f}</b> ({result.num_edits} edits / "
            f"{result.reference_length:g} reference words)")
    if result.candidate_tokens is None:
        scope = plural(len(result.segments), 'segment') if result.is_corpus else "summed statistics"
        return f"<div class='mtlearn-ter'>{head}, {scope}{reason}<small>{e(result.signature)}</small></div>"
    shifts = "".join(
        f"<li>round {s.round}: <b>{e(' '.join(s.words))}</b> from {s.start} to {s.destination} "
        f"(saves {s.gain})</li>" for s in result.shifts
    )
    shifts_html = f"<p>Shifts:</p><ol>{shifts}</ol>" if result.shifts else ""
    cand_cells = "".join(
        f"<td style='background:{_COLORS[x.op]}'>{e(x.candidate_word or '')}</td>" for x in result.edits
    )
    ref_cells = "".join(
        f"<td style='background:{_COLORS[x.op]}'>{e(x.reference_word or '')}</td>" for x in result.edits
    )
    ops = "".join(f"<td><small>{x.op[0].upper() if x.op != 'match' else ''}</small></td>" for x in result.edits)
    return (
        f"<div class='mtlearn-ter'>{head}{shifts_html}"
        f"<table><tr><th>candidate</th>{cand_cells}</tr><tr><th></th>{ops}</tr>"
        f"<tr><th>reference</th>{ref_cells}</tr></table>{reason}<small>{e(result.signature)}</small></div>"
    )

"""The TER explorer: the shifts and the edit script of a candidate, drawn, recomputed as you type.

``TerExplorer(candidate="", references=(), *, normalized=False, no_punct=False, asian_support=False,
case_sensitive=False)``: candidate and references boxes, one checkbox per option -> the score (edits
/ average reference length, exact), the shifts, substitutions, insertions, deletions and matches,
the edits against each reference, every shift (round, words, from, to, edits saved, why), the edit
script on the shifted candidate and :func:`mtlearn.show.plots.plot_ter_edits` as a PNG ``Image``.

Its checkboxes (one per :class:`~mtlearn.metrics.ter.options.TerOptions` field, its default ticked
or not) and checks are TerOptions'.

>>> x = TerExplorer("b a", ["a b"])
>>> x.result.num_edits, list(x.option_inputs)
(1, ['normalized', 'no_punct', 'asian_support', 'case_sensitive'])
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Optional, Union

import ipywidgets as widgets

from mtlearn.metrics.ter.explain import derivation
from mtlearn.metrics.ter.options import TER_DEFAULTS, TerOptions
from mtlearn.metrics.ter.result import TerResult
from mtlearn.metrics.ter.score import ter
from mtlearn.show import css, plots

from ._base import (
    Explorer,
    check_text,
    image_widget,
    num,
    option_controls,
    parse_references,
    references_text,
    result_row,
    textarea,
)

__all__ = ["TerExplorer"]

#: Each option's checkbox label (its class is css.control_class of its name).
_TER_LABELS = MappingProxyType({"normalized": "Normalized", "no_punct": "No punctuation",
                                "asian_support": "Asian support", "case_sensitive": "Case sensitive"})
_OP_NAMES = MappingProxyType({"match": "match", "substitute": "substitution", "insert": "insertion",
                              "delete": "deletion"})


class TerExplorer(Explorer):
    """TER of a candidate against references, with the edit script drawn, recomputed live.

    ``candidate``: the candidate text; ``references``: a list of strings or one
    string with one reference per line; the four options are :func:`mtlearn.ter`'s.
    Shows the score (edits / reference length), the counts, every shift (round,
    words, from, to, edits saved, why), the edit script on the shifted candidate and
    :func:`mtlearn.show.plots.plot_ter_edits`. Above
    :data:`mtlearn.show.plots.TER_PICTURE_MAX_WORDS` (60) words on a side the picture
    is not drawn and a note says so, as in the METEOR explorer.

    >>> x = TerExplorer("on the mat the cat sat", ["the cat sat on the mat"])
    >>> x.result.num_edits, [s.words for s in x.result.shifts], bytes(x.image.value[:4])
    (1, [('on', 'the', 'mat')], b'\\x89PNG')
    >>> x.candidate_input.value = ""
    >>> x.result.score, x.notes
    (1.0, ['the candidate is empty: every word of the best reference is an insertion'])
    >>> x.references_input.value = ""
    >>> x.error
    'references: give at least one reference, one per line'
    """

    _css_class = css.TER_EXPLORER
    EMPTY_HEADLINE = "<b>TER = &ndash;</b>"
    OPTIONS = TerOptions
    NOT_CONTROLS: Mapping[str, str] = MappingProxyType({})

    def __init__(
        self,
        candidate: str = "",
        references: Union[str, Sequence[str]] = (),
        *,
        normalized: bool = TER_DEFAULTS.normalized,
        no_punct: bool = TER_DEFAULTS.no_punct,
        asian_support: bool = TER_DEFAULTS.asian_support,
        case_sensitive: bool = TER_DEFAULTS.case_sensitive,
    ) -> None:
        super().__init__()
        candidate = check_text(candidate, "candidate")
        refs_text = references_text(references)
        options = TerOptions(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                             case_sensitive=case_sensitive)  # the metric's own checks and messages
        self.candidate_input = textarea(candidate, "Candidate", "the candidate translation", css.CANDIDATE, 2)
        self.references_input = textarea(refs_text, "References", "one reference per line", css.REFERENCES, 3)
        shown = {name: (label, css.control_class(name)) for name, label in _TER_LABELS.items()}
        boxes = {name: {"indent": False, "layout": widgets.Layout(width="auto")} for name in shown}
        self.option_inputs: dict[str, widgets.Checkbox] = option_controls(options, shown, boxes)
        self.shifts_html = self._tagged(widgets.HTML(), css.SHIFTS)
        self.edits_html = self._tagged(widgets.HTML(), css.EDITS)
        self.image = self._tagged(image_widget(), css.EDIT_PICTURE)
        self.figure: Optional[Any] = None
        self._inputs = {"candidate": self.candidate_input, "references": self.references_input,
                        **self.option_inputs}
        self.result: Optional[TerResult] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox(list(self.option_inputs.values())),
            self.message_html,
            result_row(self.image, [self.score_html, self.summary_html]),
            self.shifts_html,
            self.edits_html,
        ]
        self._watch()
        self.refresh()

    def _compute(self) -> TerResult:
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        options = {name: box.value for name, box in self.option_inputs.items()}
        return ter(self.candidate_input.value, refs, **options)

    def _result_boxes(self) -> tuple[widgets.HTML, ...]:
        return (self.summary_html, self.shifts_html, self.edits_html)

    def _render(self) -> None:
        r = self.result
        self.score_html.value = f'<b style="font-size:1.2em">TER = {num("score", r.score)}</b>'
        self.summary_html.value = self._summary(r)
        self.shifts_html.value = self._shifts(r)
        self.edits_html.value = self._edits(r)
        longest = max(len(r.candidate_tokens or ()), len(r.shifted_tokens or ()),
                      len(r.reference_tokens or ()))
        if not self._too_long_to_draw(longest, plots.TER_PICTURE_MAX_WORDS, "edit"):
            self._picture(lambda: plots.plot_ter_edits(r))

    @staticmethod
    def _summary(r: TerResult) -> str:
        counts = r.counts()
        # The edits and the score are the derivation's rows (explain.derivation): keys, exact values.
        rows_of = derivation(r)
        edits, score = rows_of.step("edits"), rows_of.step("score")
        exact = score.exact or r.score_fraction
        rows = [
            ("shifts (a block of words moved, 1 edit each)", num("shifts", counts["shift"])),
            ("substitutions", num("substitutions", counts["substitute"])),
            ("insertions (reference words the candidate lacks)", num("insertions", counts["insert"])),
            ("deletions (candidate words the reference lacks)", num("deletions", counts["delete"])),
            ("matches (free)", num("matches", counts["match"])),
            ("edits = shifts + substitutions + insertions + deletions",
             num(edits.key, int(edits.exact or 0))),
            ("reference length (average over the references)", num("reference-length", r.reference_length,
                                                                     f"{r.reference_length:g}")),
            ("TER = edits / reference length",
             "<b>" + num(score.key, r.score, f"{exact} = {r.score:.4f}" if exact.denominator != 1 else None)
             + "</b>"),
        ]
        if len(r.all_reference_tokens) > 1 and r.best_reference is not None:
            each = ", ".join(f"{k + 1}: {num(f'reference-edits-{k + 1}', e)}"
                             for k, e in enumerate(r.reference_edits))
            rows.append(("edits against each reference", each))
            rows.append(("reference whose edits count (fewest)",
                         f"{num('best-reference', r.best_reference + 1)} of {len(r.all_reference_tokens)}"))
        if r.stopped:
            rows.append(("shift search stopped", html.escape(r.stopped)))
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        body = "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in rows)
        return (f'<table class="{css.TER_NUMBERS}" {style}>{body}</table>'
                f"<p style='color:#666;font-size:0.85em'>{html.escape(r.signature)}</p>")

    @staticmethod
    def _shifts(r: TerResult) -> str:
        if not r.shifts:
            return "<p><b>Shifts</b>: none (no move of a block of words saves an edit)</p>"
        head = ("<tr><th>round</th><th>words</th><th>from</th><th>length</th><th>to</th>"
                "<th>edits saved</th><th>why</th></tr>")
        body = "".join(
            f'<tr class="{css.SHIFT_ROW}"><td>{s.round}</td><td>{html.escape(" ".join(s.words))}</td>'
            f"<td>{s.start}</td><td>{s.length}</td><td>{s.destination}</td>"
            f"<td>{num(f'shift-gain-{s.round}', s.gain)}</td><td>{html.escape(s.reason)}</td></tr>"
            for s in r.shifts)
        return (f"<p><b>Shifts</b>, one per round, each on the candidate as the earlier rounds left it "
                f"(positions count words from 0):</p>"
                f'<table class="{css.SHIFT_TABLE}" border="1" cellpadding="3" '
                f'style="border-collapse:collapse">{head}{body}</table>')

    @staticmethod
    def _edits(r: TerResult) -> str:
        head = "<tr><th>operation</th><th>shifted candidate</th><th>reference</th></tr>"
        body = []
        for e in r.edits:
            cand = ("" if e.candidate_word is None
                    else f"{html.escape(e.candidate_word)} ({e.candidate_index})")
            ref = "" if e.reference_word is None else f"{html.escape(e.reference_word)} ({e.reference_index})"
            colour = plots.TER_COLOURS[e.op]
            body.append(f'<tr class="{css.edit_class(e.op)}">'
                        f'<td style="color:{colour}">{_OP_NAMES[e.op]}</td>'
                        f"<td>{cand}</td><td>{ref}</td></tr>")
        return ("<p><b>Edit script</b> on the shifted candidate (word positions in brackets):</p>"
                f'<table class="{css.EDIT_SCRIPT}" border="1" cellpadding="3" '
                f'style="border-collapse:collapse">{head}{"".join(body)}</table>')


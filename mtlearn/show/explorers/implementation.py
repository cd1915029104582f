"""The implementation explorer: two libraries' BLEU or METEOR on one candidate, and the step where they part.

``ImplementationExplorer(candidate="", references=(), *, metric="bleu", profile_a=None, profile_b=None,
tokenize=None)``: candidate and references boxes, the metric, two implementations' profiles and one
tokenizer for both (or each library's own) -> both scores (and as each library reports them), the
first step at which they part, and the walk from A to B one pipeline step at a time
(:func:`mtlearn.compare_implementations`): each step's changed settings, the score after it and
its contribution, which add up exactly to the difference.

>>> ImplementationExplorer("the cat", ["the cat"]).divergence.profile_a
'sacrebleu-sentence'
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Optional, Union

import ipywidgets as widgets

from mtlearn.core.checks import check_choice
from mtlearn.core.tokenize import TOKENIZERS
from mtlearn.metrics.bleu.profiles import PROFILE_TOKENIZERS
from mtlearn.metrics.bleu.profiles import PROFILES as BLEU_PROFILES
from mtlearn.metrics.meteor.profiles import PROFILES as METEOR_PROFILES
from mtlearn.show import css
from mtlearn.why import METRICS as WHY_METRICS
from mtlearn.why import Divergence, ImplementationComparison, ProfileResult, compare_implementations
from mtlearn.why.divergence import step_rows

from ._base import (
    Dropdown,
    Explorer,
    check_text,
    num,
    parse_references,
    references_text,
    textarea,
    with_class,
)

__all__ = ["ImplementationExplorer"]


class ImplementationExplorer(Explorer):
    """Two implementations of BLEU or METEOR on one candidate: their scores, and where they part.

    ``metric``: ``"bleu"`` or ``"meteor"``; ``profile_a``, ``profile_b``: two of its
    profiles (:func:`mtlearn.compare_implementations`; default sacreBLEU's and NLTK's
    sentence BLEU, or Banerjee & Lavie's and NLTK's METEOR); ``tokenize``: one tokenizer
    for both (``None``: each library's own). The table walks from A to B one pipeline
    step at a time; the contributions add up exactly to the difference. Choosing the
    other metric offers its profiles and starts from its default pair.

    The Chinese blog post's example A, where only smoothing parts NLTK from KerasNLP:

    >>> x = ImplementationExplorer("A B B C D", ["A B C D E F"], profile_a="nltk-sentence",
    ...                            profile_b="keras-nlp-smooth")
    >>> x.divergence.first_divergence, round(float(x.divergence.difference), 4)
    ('precisions/smoothing', 0.4727)
    >>> x.walk_html.value.count('class="mtlearn-step"')
    7
    >>> x.profile_b_input.value = "nltk-sentence"
    >>> x.error
    "profile_b: 'nltk-sentence' is profile_a too; choose two different profiles"
    """

    _css_class = css.IMPLEMENTATION_EXPLORER
    EMPTY_HEADLINE = "<b>A = &ndash;, B = &ndash;</b>"
    _OWN = "each library's own"
    _DEFAULTS = {"bleu": ("sacrebleu-sentence", "nltk-sentence"), "meteor": ("banerjee-lavie-2005", "nltk")}

    def __init__(self, candidate: str = "", references: Union[str, Sequence[str]] = (), *,
                 metric: str = "bleu",
                 profile_a: Optional[str] = None, profile_b: Optional[str] = None,
                 tokenize: Optional[str] = None) -> None:
        super().__init__()
        candidate = check_text(candidate, "candidate")
        refs_text = references_text(references)
        metric = check_choice(metric, WHY_METRICS, "metric")
        names = self._names(metric)
        first, second = self._DEFAULTS[metric]
        first = check_choice(profile_a, names, "profile_a") if profile_a is not None else first
        second = check_choice(profile_b, names, "profile_b") if profile_b is not None else second
        tokenizers = self._tokenizers(metric)
        tokenize = check_choice(tokenize, tokenizers[1:], "tokenize") if tokenize is not None else self._OWN
        self.candidate_input = textarea(candidate, "Candidate", "the candidate translation", css.CANDIDATE, 2)
        self.references_input = textarea(refs_text, "References", "one reference per line", css.REFERENCES, 3)
        self.metric_input = with_class(
            Dropdown(options=list(WHY_METRICS), value=metric, description="Metric"), css.METRIC)
        self.profile_a_input = with_class(Dropdown(options=names, value=first, description="Profile A"),
                                        css.PROFILE_A)
        self.profile_b_input = with_class(Dropdown(options=names, value=second, description="Profile B"),
                                        css.PROFILE_B)
        self.tokenize_input = with_class(Dropdown(options=tokenizers, value=tokenize, description="Tokenizer",
                                                        style={"description_width": "initial"}), css.TOKENIZE)
        self.walk_html = self._tagged(widgets.HTML(), css.WALK)
        self._inputs = {"candidate": self.candidate_input, "references": self.references_input,
                        "metric": self.metric_input, "profile_a": self.profile_a_input,
                        "profile_b": self.profile_b_input, "tokenize": self.tokenize_input}
        self.result: Optional[ImplementationComparison] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox([self.metric_input, self.profile_a_input, self.profile_b_input,
                          self.tokenize_input]),
            self.message_html,
            self.score_html,
            self.summary_html,
            self.walk_html,
        ]
        self._watch()
        self.refresh()

    @staticmethod
    def _names(metric: str) -> list[str]:
        return list((BLEU_PROFILES if metric == "bleu" else METEOR_PROFILES).keys())

    @classmethod
    def _tokenizers(cls, metric: str) -> list[str]:
        return [cls._OWN, *(PROFILE_TOKENIZERS if metric == "bleu" else TOKENIZERS)]

    @property
    def divergence(self) -> Optional[Divergence]:
        """The walk from profile A to profile B (None while the inputs are incomplete)."""
        if self.result is None:
            return None
        return self.result.divergence(self.profile_a_input.value, self.profile_b_input.value)

    def _watch(self) -> None:
        # A new metric first swaps the profiles and tokenizers on offer, then recomputes once.
        self.metric_input.observe(self._on_metric, names="value")
        for name in ("candidate", "references", "profile_a", "profile_b", "tokenize"):
            self._inputs[name].observe(self._on_change, names="value")

    def _on_metric(self, _change: Any = None) -> None:  # ipywidgets passes the change; unread
        metric = self.metric_input.value
        quiet, self._quiet = self._quiet, True  # the dropdowns' own events must not recompute
        try:
            for box, value in zip((self.profile_a_input, self.profile_b_input), self._DEFAULTS[metric]):
                box.options = self._names(metric)
                box.value = value
            self.tokenize_input.options = self._tokenizers(metric)
            self.tokenize_input.value = self._OWN
        finally:
            self._quiet = quiet
        if not self._quiet:
            self.refresh()

    def set_inputs(self, **values: Any) -> None:
        """Set several controls, then recompute once (the metric first; ``tokenize=None``: each own).

        >>> x = ImplementationExplorer("the cat", ["the cat"])
        >>> x.set_inputs(profile_b="meteor-1.5", metric="meteor", candidate="the cats")
        >>> x.divergence.profile_a, x.divergence.profile_b
        ('banerjee-lavie-2005', 'meteor-1.5')
        """
        if "tokenize" in values and values["tokenize"] is None:
            values["tokenize"] = self._OWN
        ordered = {k: values[k] for k in ("metric",) if k in values}
        ordered.update(values)
        super().set_inputs(**ordered)

    def _compute(self) -> ImplementationComparison:
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        a, b = self.profile_a_input.value, self.profile_b_input.value
        if a == b:
            raise ValueError(f"profile_b: {b!r} is profile_a too; choose two different profiles")
        tokenize = None if self.tokenize_input.value == self._OWN else self.tokenize_input.value
        result = compare_implementations(self.candidate_input.value, refs, self.metric_input.value,
                                         tokenize=tokenize, profiles=[a, b])
        self.notes.extend(f"{p.name}: {note}" for p in result.profiles for note in p.notes)
        return result

    def _result_boxes(self) -> tuple[widgets.HTML, ...]:
        return (self.summary_html, self.walk_html)

    def _render(self) -> None:
        c, d = self.result, self.divergence
        if c is None or d is None:  # pragma: no cover - _compute always returns a result
            self._clear()
            return
        a, b = c.profile(d.profile_a), c.profile(d.profile_b)
        self.score_html.value = (
            f'<b style="font-size:1.2em">{html.escape(a.name)} = {num("score-a", a.score)}'
            f' &nbsp; {html.escape(b.name)} = {num("score-b", b.score)}</b>'
            f' <span style="color:#555">(as reported: {html.escape(_as_reported(a))}, '
            f'{html.escape(_as_reported(b))})</span>')
        where = d.first_divergence or "nowhere: they agree on these inputs"
        self.summary_html.value = (
            f"<p>{html.escape(a.library)} <code>{html.escape(a.call)}</code> against "
            f"{html.escape(b.library)} "
            f"<code>{html.escape(b.call)}</code>: the first step that moves a number is "
            f'<b data-name="first-divergence" data-value="{html.escape(d.first_divergence or "")}">'
            f"{html.escape(where)}</b>; the difference is {num('difference', d.difference)}.</p>")
        self.walk_html.value = self._walk(d)

    @staticmethod
    def _walk(d: Divergence) -> str:
        rows = "".join(
            f'<tr class="{css.STEP_ROW}" data-step="{html.escape(r["step"])}">'
            f'<td>{html.escape(r["step"])}</td>'
            f'<td>{html.escape(r["settings"])}</td><td>{num("score-after", r["score_after"])}</td>'
            f'<td>{num("contribution", r["contribution"], _signed(r["contribution"]))}</td>'
            f'<td>{html.escape(", ".join(r["moved"]) if r["settings_differ"] else "")}</td></tr>'
            for r in step_rows(d))
        exactly = " exactly" if d.total == d.difference else ""
        return ("<table><thead><tr><th>step (A &rarr; B)</th><th>settings that change</th>"
                "<th>score after</th>"
                f"<th>contribution</th><th>moves</th></tr></thead><tbody>{rows}"
                "<tr><td><b>total</b></td><td></td><td></td>"
                f"<td>{num('total', d.total, _signed(d.total))}</td>"
                f"<td>= B &minus; A{exactly}</td></tr></tbody></table>")


def _signed(x: Union[Fraction, float]) -> str:
    return f"{float(x):+.4f}"


def _as_reported(p: ProfileResult) -> str:
    return f"{float(p.reported):.2f}" if p.scale == 100 else f"{float(p.reported):.4f}"

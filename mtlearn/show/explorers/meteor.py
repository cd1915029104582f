"""The METEOR explorer: the alignment drawn, every number of the score, recomputed as you type.

``MeteorExplorer(candidate="", references=(), *, stages=("exact", "stem", "synonym"), alpha=0.9,
beta=3.0, gamma=0.5, tie_break="crossings", lowercase=True, tokenize="whitespace", language="en")``:
candidate and references boxes, one checkbox per stage, alpha/beta/gamma sliders, tie-break, lowercase,
tokenizer, language (``es``: Spanish stems, no synonym stage) -> the alignment picture of the best reference
(:func:`mtlearn.show.plots.plot_alignment`: lines coloured by stage, crossings marked, chunks
boxed) as a PNG ``Image`` and every number (P, R, F_mean, fragmentation, penalty, score,
matches per stage, crossings, chunks, the score against each reference).

Its defaults, sliders (range, step), dropdowns (choices) and checks are
:class:`~mtlearn.metrics.meteor.options.MeteorOptions`'; the stages are the three it offers.

>>> x = MeteorExplorer("the cat sat", ["the cat sat"], stages=["exact"])
>>> x.result.score == 1 - 0.5 * (1 / 3) ** 3, x.gamma_input.max
(True, 1.0)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Optional, Union

import ipywidgets as widgets

from mtlearn.metrics.meteor.explain import formula_steps, search_note
from mtlearn.metrics.meteor.options import DEFAULTS, MeteorOptions
from mtlearn.metrics.meteor.result import MeteorResult
from mtlearn.metrics.meteor.score import meteor
from mtlearn.show import css, plots

from ._base import (
    Checkbox,
    Explorer,
    check_text,
    fmt,
    frac_text,
    image_widget,
    num,
    option_controls,
    parse_references,
    references_text,
    result_row,
    textarea,
    with_class,
)

__all__ = ["MeteorExplorer", "PICTURE_MAX_WORDS"]

#: The stages the explorer offers, one checkbox each (stem:snowball and user matchers are the metric's).
_STAGES = ("exact", "stem", "synonym")
#: The options with a control: (description, CSS class); built from MeteorOptions' specs.
_SHOWN = MappingProxyType({
    "alpha": ("alpha", css.ALPHA), "beta": ("beta", css.BETA), "gamma": ("gamma", css.GAMMA),
    "tie_break": ("Tie-break", css.TIE_BREAK), "lowercase": ("Lowercase", css.LOWERCASE),
    "tokenize": ("Tokenizer", css.TOKENIZE), "language": ("Language", css.LANGUAGE),
})
#: The alignment picture is drawn up to this many words on each side (a note above).
PICTURE_MAX_WORDS = 60


def _offered_stages(stages: Iterable[str]) -> list[str]:
    """The stages ticked, each one the explorer offers (a list; checked before MeteorOptions sees them).

    >>> _offered_stages(["stem:snowball"])
    Traceback (most recent call last):
    ...
    ValueError: stages: unknown stage 'stem:snowball'; the explorer offers exact, stem, synonym
    """
    if isinstance(stages, str):
        raise TypeError("stages: expected a list of stage names, e.g. ['exact', 'stem']")
    chosen = list(stages)
    for s in chosen:
        if s not in _STAGES:
            raise ValueError(f"stages: unknown stage {s!r}; the explorer offers {', '.join(_STAGES)}")
    return chosen


class MeteorExplorer(Explorer):
    """METEOR of a candidate against references, with the alignment drawn, recomputed live.

    ``candidate``: the candidate text; ``references``: a list of strings or one
    string with one reference per line; ``stages`` a subset of ``exact``, ``stem``,
    ``synonym``; the other arguments are :func:`mtlearn.meteor`'s. The slider values
    are rounded to 6 decimals (so 0.9 means 9/10, whatever the browser sends).
    Above :data:`PICTURE_MAX_WORDS` (60) words on either side (the candidate or the
    best reference, as tokenized) the numbers are shown as ever but the alignment
    picture is not drawn: a note says so (the picture would be unreadable and
    take seconds to draw at each change).

    The worked example's row 1, crossing rule then chunk rule:

    >>> x = MeteorExplorer("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"])
    >>> x.result.score, x.result.crossings, bytes(x.image.value[:4])
    (0.5, 8, b'\\x89PNG')
    >>> x.tie_break_input.value = "chunks"
    >>> x.result.score, x.result.chunks
    (0.9375, 3)
    >>> x.stage_inputs["exact"].value = False
    >>> x.error
    'stages: tick at least one stage (exact, stem, synonym)'
    """

    _css_class = css.METEOR_EXPLORER
    EMPTY_HEADLINE = "<b>METEOR = &ndash;</b>"
    OPTIONS = MeteorOptions
    NOT_CONTROLS = MappingProxyType({"stages": "one checkbox per stage the explorer offers (stage_inputs)"})

    def __init__(
        self,
        candidate: str = "",
        references: Union[str, Sequence[str]] = (),
        *,
        stages: Iterable[str] = DEFAULTS.stages,
        alpha: float = DEFAULTS.alpha,
        beta: float = DEFAULTS.beta,
        gamma: float = DEFAULTS.gamma,
        tie_break: str = DEFAULTS.tie_break,
        lowercase: bool = DEFAULTS.lowercase,
        tokenize: str = DEFAULTS.tokenize,
        language: str = DEFAULTS.language,
    ) -> None:
        super().__init__()
        candidate = check_text(candidate, "candidate")
        refs_text = references_text(references)
        chosen = _offered_stages(stages)
        # MeteorOptions checks every value, with the metric's own messages (no stage ticked is the
        # widget's message, shown once it runs).
        options = MeteorOptions(stages=chosen or DEFAULTS.stages, alpha=alpha, beta=beta, gamma=gamma,
                                tie_break=tie_break, lowercase=lowercase, tokenize=tokenize,
                                language=language)
        self.candidate_input = textarea(candidate, "Candidate", "the candidate translation", css.CANDIDATE, 2)
        self.references_input = textarea(refs_text, "References", "one reference per line", css.REFERENCES, 3)
        self.stage_inputs: dict[str, widgets.Checkbox] = {
            s: with_class(Checkbox(value=s in chosen, description=s, indent=False,
                                   layout=widgets.Layout(width="auto")), css.stage_class(s))
            for s in _STAGES
        }
        sliders = {"readout_format": ".2f", "continuous_update": True}
        controls = option_controls(options, _SHOWN, {name: sliders for name in ("alpha", "beta", "gamma")})
        self.alpha_input = controls["alpha"]
        self.beta_input = controls["beta"]
        self.gamma_input = controls["gamma"]
        self.tie_break_input = controls["tie_break"]
        self.lowercase_input = controls["lowercase"]
        self.tokenize_input = controls["tokenize"]
        self.language_input = controls["language"]
        self.image = self._tagged(image_widget(), css.ALIGNMENT)
        self.figure: Optional[Any] = None
        self._inputs = {
            "candidate": self.candidate_input,
            "references": self.references_input,
            **{f"stage_{s}": box for s, box in self.stage_inputs.items()},
            **controls,
        }
        # The stages' languages, said where they are ticked (a German pair gets no stem match: say why).
        self.languages_html = self._tagged(widgets.HTML(
            '<span style="color:#555">stem and synonym are English only (the Porter stemmer, WordNet); '
            'with Language es, stem uses the Spanish Snowball stemmer and synonym is skipped; in any other '
            'language only exact relates words</span>'), css.STAGE_LANGUAGES)
        self.result: Optional[MeteorResult] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox([widgets.Label("Stages:"), *self.stage_inputs.values(), self.tie_break_input]),
            self.languages_html,
            widgets.HBox([self.alpha_input, self.beta_input, self.gamma_input]),
            widgets.HBox([self.lowercase_input, self.tokenize_input, self.language_input]),
            self.message_html,
            self.score_html,
            result_row(self.image, [self.summary_html], picture_first=True),
        ]
        self._watch()
        self.refresh()

    def set_inputs(self, **values: Any) -> None:
        """Set several controls at once, then recompute once.

        Names as in the constructor, ``stages`` a list of stage names (or
        ``stage_exact=True`` etc. for one box).

        >>> x = MeteorExplorer("the cat", ["the cat"], stages=["exact"])
        >>> x.set_inputs(candidate="cat the", tie_break="chunks", beta=1.0)
        >>> x.result.chunks, x.result.beta
        (2, 1.0)
        """
        if "stages" in values:
            chosen = _offered_stages(values.pop("stages"))
            for s in _STAGES:
                values[f"stage_{s}"] = s in chosen
        super().set_inputs(**values)

    def _stages(self) -> list[str]:
        return [s for s, box in self.stage_inputs.items() if box.value]

    def _compute(self) -> MeteorResult:
        from mtlearn.metrics.meteor.wordnet import WordNetMissingError

        stages = self._stages()
        if not stages:
            raise ValueError(f"stages: tick at least one stage ({', '.join(_STAGES)})")
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        options = dict(
            alpha=round(float(self.alpha_input.value), 6),
            beta=round(float(self.beta_input.value), 6),
            gamma=round(float(self.gamma_input.value), 6),
            tie_break=self.tie_break_input.value,
            lowercase=self.lowercase_input.value,
            tokenize=self.tokenize_input.value,
            language=self.language_input.value,
        )
        stages = self._language_stages(stages, options["language"])
        try:
            return meteor(self.candidate_input.value, refs, stages=stages, **options)
        except WordNetMissingError as error:
            rest = [s for s in stages if s != "synonym"]
            if "synonym" not in stages or not rest:
                raise
            first = str(error).splitlines()[0]
            self.notes.append(
                f"The synonym stage needs WordNet, which NLTK cannot find ({first}); the numbers below "
                f"use only {' + '.join(rest)}. Run: python -m mtlearn.metrics.meteor.wordnet"
            )
            return meteor(self.candidate_input.value, refs, stages=rest, **options)

    def _language_stages(self, stages: list[str], language: str) -> list[str]:
        """The ticked stages the language has: a ticked synonym box is left out for a language without
        WordNet (a note says so, as ``meteor()`` says it for its default stages)."""
        if language == "en" or "synonym" not in stages:
            return stages
        rest = [s for s in stages if s != "synonym"]
        if not rest:
            raise ValueError(f"stages: no synonym stage for language {language!r}; tick exact or stem")
        self.notes.extend(MeteorOptions(language=language).notes)
        return rest

    def _render(self) -> None:
        r = self.result
        # The numbers first: the browser shows them while the picture is drawn.
        self.score_html.value = f'<b style="font-size:1.2em">METEOR = {num("score", r.score)}</b>'
        self.summary_html.value = self._summary(r)
        longest = max(r.candidate_length, r.reference_length)
        if self._too_long_to_draw(longest, PICTURE_MAX_WORDS, "alignment"):
            return
        label = (f"reference {r.best_reference + 1} of {len(r.per_reference)} (best)"
                 if len(r.per_reference) > 1 and r.best_reference is not None else None)
        self._picture(lambda: plots.plot_alignment(r, title=label))

    @staticmethod
    def _summary(r: MeteorResult) -> str:
        stages = ", ".join(f"{html.escape(name)}: {num(f'matches-{name}', count)}"
                           for name, count in r.matches_per_stage.items())
        pen_text = (frac_text(r.penalty) if isinstance(r.penalty, Fraction) else fmt(r.penalty))
        # The formula's rows are the derivation's (explain.formula_steps): their keys are the data-names.
        steps = {step.key: step for step in formula_steps(r)}

        def exact(key: str) -> str:
            return num(key, steps[key].exact or Fraction(0), frac_text(steps[key].exact or Fraction(0)))

        rows = [
            ("matches m (= u_m)", num("matches", r.matches) + f" &nbsp;({stages})"),
            ("candidate length w_t", num("candidate-length", r.candidate_length)),
            ("reference length w_r", num("reference-length", r.reference_length)),
            ("P = m / w_t", exact("precision")),
            ("R = m / w_r", exact("recall")),
            (f"F_mean = P R / ({r.alpha:g} P + {1 - r.alpha:g} R)", exact("f-mean")),
            ("crossings", num("crossings", r.crossings)),
            ("chunks c", num("chunks", r.chunks)),
            ("fragmentation c / u_m", exact("fragmentation")),
            (f"penalty = {r.gamma:g} (c / u_m)^{r.beta:g}", num(steps["penalty"].key, r.penalty, pen_text)),
            ("score = F_mean (1 - penalty)", "<b>" + num(steps["score"].key, r.score) + "</b>"),
        ]
        if len(r.per_reference) > 1:
            scores = ", ".join(f"{k + 1}: {num(f'reference-score-{k + 1}', x.score)}"
                               for k, x in enumerate(r.per_reference))
            best = (r.best_reference or 0) + 1
            rows.append(("score against each reference", f"{scores}; best: {num('best-reference', best)}"))
        if not r.optimal:
            rows.append(("search", html.escape(search_note(r))))
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        body = "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>"
                       for k, v in rows)
        return (f'<table class="{css.METEOR_NUMBERS}" {style}>{body}</table>'
                f"<p style='color:#666;font-size:0.85em'>{html.escape(r.signature)}</p>")


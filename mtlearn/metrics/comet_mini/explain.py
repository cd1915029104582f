"""COMET-mini's derivation as rows, and what reads them: ``explain()``'s text, ``_repr_html_``, the summary
line.

:func:`derivation` turns a :class:`~mtlearn.metrics.comet_mini.result.CometMiniResult` into a
:class:`~mtlearn.core.derivation.Derivation`: the texts and tokens, the two sentence vectors (their length
before scaling, their cosine), each block of ``[h; r; h*r; |h-r|]`` with its share of the score, the bias, the
score. Nothing here computes COMET-mini.

>>> from mtlearn.metrics.comet_mini.result import CometMiniResult
>>> r = CometMiniResult(-1.25, "sig", segments=(None, None))
>>> print(summary(r))
COMET-mini = -1.2500 (mean of 2 segments; all-MiniLM-L6-v2, ridge on expert MQM; not COMET)
"""

from __future__ import annotations

import html

from mtlearn.core.derivation import Derivation, Section, Step, derive, derive_html, steps_html, to_text
from mtlearn.core.wording import plural
from mtlearn.metrics.bertscore.model import MODEL_NAME
from mtlearn.metrics.comet_mini.result import CometMiniResult

__all__ = ["derivation", "explain_html", "explain_text", "summary"]

#: Tokens shown per side in the text (the result keeps all).
SHOWN_TOKENS = 24

_BLOCK_WORDS = {"h": "the translation's vector", "r": "the reference's vector",
                "h*r": "their element-wise product (where both are large)",
                "|h-r|": "their element-wise distance (where they differ)"}


def summary(result: CometMiniResult) -> str:
    """The one line the command line would print."""
    scope = f"mean of {plural(len(result.segments), 'segment')}; " if result.is_corpus else ""
    return f"COMET-mini = {result.score:.4f} ({scope}{MODEL_NAME}, ridge on expert MQM; not COMET)"


def _tokens(tokens: tuple[str, ...]) -> str:
    shown = " ".join(tokens[:SHOWN_TOKENS])
    return shown + (f" ... ({len(tokens)} tokens)" if len(tokens) > SHOWN_TOKENS else "")


def _segment_sections(result: CometMiniResult) -> list[Section]:
    texts = (f"candidate: {result.candidate!r}", f"reference: {result.reference!r}",
             f"candidate tokens: {_tokens(result.candidate_tokens)}",
             f"reference tokens: {_tokens(result.reference_tokens)}")
    vectors = (
        Step("candidate-norm", "|mean(h tokens)|", "", "", f"{result.candidate_norm:.4f}",
             "then scaled to length 1: h"),
        Step("reference-norm", "|mean(r tokens)|", "", "", f"{result.reference_norm:.4f}",
             "then scaled to length 1: r"),
        Step("cosine", "cos(h, r)", "h · r", "", f"{result.cosine:.4f}"))
    parts = tuple(Step(f"block-{name}", f"w_{name} · {name}", "", "", f"{value:+.4f}", _BLOCK_WORDS[name])
                  for name, value in result.contributions)
    terms = " ".join(f"{value:+.4f}" for _, value in result.contributions)
    total = (Step("bias", "b", "", "", f"{result.bias:+.4f}",
                  "the mean MQM score of the training data, corrected"),
             Step("score", "COMET-mini", "b + Σ w_block · block", f"{result.bias:+.4f} {terms}",
                  f"{result.score:.4f}"))
    return [Section(lines=texts),
            Section("Sentence vectors: the mean of layer 6's token vectors ([CLS] and [SEP] included), "
                    "length 1:", steps=vectors, indent="  "),
            Section("Features [h; r; h*r; |h-r|] times the trained weights, block by block:",
                    steps=parts, indent="  "),
            Section(steps=total)]


def _corpus_sections(result: CometMiniResult) -> list[Section]:
    n = len(result.segments)
    return [Section("The corpus score is the mean of its segments' scores:",
                    steps=(Step("score", "COMET-mini", f"Σ score / {n}", "", f"{result.score:.4f}"),),
                    indent="  ")]


@derive.register
def derivation(result: CometMiniResult) -> Derivation:
    """Every step of ``result`` as rows."""
    sections = _corpus_sections(result) if result.is_corpus else _segment_sections(result)
    scope = f"a corpus of {plural(len(result.segments), 'segment')}" if result.is_corpus else "one segment"
    notes = (f"why: {result.reason}",) if result.reason else ()
    return Derivation(f"COMET-mini of {scope}\n(not COMET: {MODEL_NAME} sentence vectors, a ridge regression "
                      "trained on expert MQM)", tuple(sections), summary=summary(result), notes=notes)


def explain_text(result: CometMiniResult) -> str:
    """The derivation of ``result`` as text (what ``result.explain()`` prints)."""
    return to_text(derivation(result))


@derive_html.register
def explain_html(result: CometMiniResult) -> str:
    """A compact HTML view for Jupyter: the summary, the steps as a table, the reason."""
    e = html.escape
    d = derivation(result)
    texts = "".join(f"<p>{e(line)}</p>" for line in d.sections[0].lines) if not result.is_corpus else ""
    reason = f"<p><i>why:</i> {e(result.reason)}</p>" if result.reason else ""
    return (f"<div class='mtlearn-comet-mini'><b>{e(summary(result))}</b>{texts}"
            f"{steps_html(d.steps())}{reason}<small>{e(result.signature)}</small></div>")

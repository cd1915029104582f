"""The BERTScore explorer: type a candidate and references, watch the cosine matrix and the matches change.

``BertScoreExplorer(candidate="", references=(), *, layer=4, idf=False, rescale=False)``: candidate and
references boxes, a layer slider (0, the embeddings before any context, to 6), idf and rescale boxes ->
P, R and F1 (raw and rescaled), each candidate token's best reference token (precision) and each reference
token's best candidate token (recall) with their cosines and weights, and a picture: the cosine matrix of
the best reference (:func:`mtlearn.show.plots.plot_similarity`) above F1 at every layer
(:func:`mtlearn.show.plots.plot_layers`).

**The encoder runs once per text.** Every layer's vectors of a text are kept (:class:`StateCache`, the last
:data:`CACHED_TEXTS` texts), so moving the layer slider or ticking idf or rescale re-encodes nothing, and
typing in the candidate box re-encodes the candidate only.

**idf in one sentence.** idf weights come from a corpus's references (``mtlearn.bertscore`` refuses
``idf=True`` with one reference: every token of it would have idf log(2/2) = 0). The explorer's corpus is
the 40 English references of the WMT22 de-en sample shipped with mtlearn
(:data:`mtlearn.examples.wmt22.WMT22_DE_EN_SAMPLE`) plus the references typed, each a document; the
explorer says so on screen. A result is what ``mtlearn.bertscore(..., idf_weights=(table, M))`` gives with
that table.

Its defaults, slider and checks are :class:`~mtlearn.metrics.bertscore.options.BertScoreOptions`'.

>>> x = BertScoreExplorer("the cat sat", ["the cat sat"])      # doctest: +SKIP
>>> round(x.result.f1, 4), x.error                           # doctest: +SKIP
(1.0, None)
"""

from __future__ import annotations

import html
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Optional, Union

import ipywidgets as widgets
import numpy as np

from mtlearn.examples.wmt22 import WMT22_DE_EN_SAMPLE
from mtlearn.metrics.bertscore.embed import Embedded, embed_layers, tokens_of
from mtlearn.metrics.bertscore.encoder import load_encoder
from mtlearn.metrics.bertscore.formulas import idf_weights
from mtlearn.metrics.bertscore.options import DEFAULTS, BertScoreOptions
from mtlearn.metrics.bertscore.result import BertScoreResult
from mtlearn.metrics.bertscore.score import bertscore_from_embedded
from mtlearn.show import css, plots

from ._base import (
    Explorer,
    check_text,
    image_widget,
    num,
    option_controls,
    parse_references,
    references_text,
    show_png,
    textarea,
)

__all__ = ["BertScoreExplorer", "CACHED_TEXTS", "IDF_CORPUS", "StateCache", "idf_corpus_tokens"]

#: The options with a control: (description, CSS class); built from BertScoreOptions' specs.
_SHOWN = MappingProxyType({"layer": ("Layer", css.LAYER), "idf": ("idf", css.IDF),
                           "rescale": ("Rescale", css.RESCALE)})
#: How many texts' encoder states an explorer keeps (each: 7 layers x tokens x 384 floats).
CACHED_TEXTS = 16
#: The explorer's idf corpus: the shipped sample's English references (each line a document).
IDF_CORPUS = WMT22_DE_EN_SAMPLE / "ref.A.en"


@dataclass(frozen=True)
class States:
    """A text as the encoder saw it: tokens, ids, every layer's vectors (0..6), WordPieces cut."""

    text: str
    tokens: tuple[str, ...]
    ids: tuple[int, ...]
    layers: tuple[np.ndarray, ...]
    truncated: int

    def at(self, layer: int) -> Embedded:
        """The :class:`~mtlearn.metrics.bertscore.embed.Embedded` of one layer (what ``bertscore``
        compares)."""
        return Embedded(self.text, self.tokens, self.ids, layer, self.layers[layer], self.truncated)


class StateCache:
    """Every layer's vectors of the last ``size`` texts encoded: a text typed again is not re-encoded.

    >>> cache = StateCache(size=2)
    >>> cache.encoded, len(cache)
    (0, 0)
    """

    def __init__(self, size: int = CACHED_TEXTS) -> None:
        self.size = size
        self.encoded = 0  # how many times the encoder ran (the tests read it)
        self._states: OrderedDict[str, States] = OrderedDict()

    def __len__(self) -> int:
        return len(self._states)

    def get(self, text: str) -> States:
        """The states of ``text``: kept ones, or the encoder's (then kept, the oldest dropped)."""
        if text in self._states:
            self._states.move_to_end(text)
            return self._states[text]
        encoder = load_encoder()
        tokens, layers, cut = embed_layers(text, encoder)
        self.encoded += 1
        states = States(text, tokens, tuple(encoder.vocab[t] for t in tokens), tuple(layers), cut)
        self._states[text] = states
        while len(self._states) > self.size:
            self._states.popitem(last=False)
        return states


@lru_cache(maxsize=1)
def idf_corpus_tokens() -> tuple[tuple[str, ...], ...]:
    """The WordPieces (with ``[CLS]``/``[SEP]``) of each reference of :data:`IDF_CORPUS` (read once)."""
    encoder = load_encoder()
    lines = [line.rstrip() for line in IDF_CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(tokens_of(line, encoder.vocab, encoder.max_positions)[0] for line in lines)


def score_states(candidate: States, references: Sequence[States], options: BertScoreOptions,
                 weights: Optional[tuple[dict[str, float], int]]) -> BertScoreResult:
    """``mtlearn.bertscore``'s result from kept states (nothing re-encoded)."""
    return bertscore_from_embedded(candidate.at(options.layer), [ref.at(options.layer) for ref in references],
                                   options, weights)


class BertScoreExplorer(Explorer):
    """BERTScore of a candidate against references, recomputed as you type.

    ``candidate``: the candidate text; ``references``: a list of strings or one string with one
    reference per line; ``layer``, ``idf``, ``rescale``: :func:`mtlearn.bertscore`'s. Shows P, R, F1,
    both sides' matches (cosine and weight of each), and the matrix and layers picture. Needs the
    encoder's package (``mtlearn-course[neural]``); without it the message says how to install it.
    ``.encoded`` counts the encoder's runs.

    >>> x = BertScoreExplorer("the cat sat", ["a cat sat down"])     # doctest: +SKIP
    >>> x.layer_input.value = 0                                      # doctest: +SKIP
    >>> x.result.layer, x.encoded                                    # doctest: +SKIP
    (0, 2)
    """

    _css_class = css.BERTSCORE_EXPLORER
    EMPTY_HEADLINE = "<b>BERTScore F1 = &ndash;</b>"
    OPTIONS = BertScoreOptions

    def __init__(self, candidate: str = "", references: Union[str, Sequence[str]] = (), *,
                 layer: int = DEFAULTS.layer, idf: bool = DEFAULTS.idf,
                 rescale: bool = DEFAULTS.rescale) -> None:
        super().__init__()
        candidate = check_text(candidate, "candidate")
        refs_text = references_text(references)
        options = BertScoreOptions(layer=layer, idf=idf, rescale=rescale)  # the metric's checks
        self._cache = StateCache()
        self.candidate_input = textarea(candidate, "Candidate", "the candidate translation", css.CANDIDATE, 2)
        self.references_input = textarea(refs_text, "References", "one reference per line", css.REFERENCES, 3)
        controls = option_controls(options, _SHOWN)
        self.layer_input = controls["layer"]
        self.idf_input = controls["idf"]
        self.rescale_input = controls["rescale"]
        self.matches_html = self._tagged(widgets.HTML(), css.BERTSCORE_MATCHES)
        self.image = self._tagged(image_widget(), css.BERTSCORE_PLOT)
        self.figure: Optional[Any] = None
        self.idf_documents = 0  # the idf corpus's size M of the last result (0: idf off)
        self._layers_of: Any = None  # the last states scored and their weights (the layers plot reuses them)
        self._inputs = {"candidate": self.candidate_input, "references": self.references_input, **controls}
        self.result: Optional[BertScoreResult] = None
        self.children = [self.candidate_input, self.references_input,
                         widgets.HBox([self.layer_input, self.idf_input, self.rescale_input]),
                         self.message_html, self.score_html, self.summary_html, self.matches_html, self.image]
        self._watch()
        self.refresh()

    @property
    def encoded(self) -> int:
        """How many times this explorer ran the encoder (a text is encoded once, every layer kept)."""
        return self._cache.encoded

    def _options(self) -> BertScoreOptions:
        return BertScoreOptions(layer=self.layer_input.value, idf=self.idf_input.value,
                                rescale=self.rescale_input.value)

    def _compute(self) -> BertScoreResult:
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        options = self._options()
        candidate = self._cache.get(self.candidate_input.value.strip())
        references = [self._cache.get(r) for r in refs]
        weights = None
        self.idf_documents = 0
        if options.idf:
            documents = [*idf_corpus_tokens(), *(r.tokens for r in references)]
            weights = (idf_weights(documents), len(documents))
            self.idf_documents = len(documents)
        self._layers_of = (candidate, references, weights)
        return score_states(candidate, references, options, weights)

    def _result_boxes(self) -> tuple[widgets.HTML, ...]:
        return (self.summary_html, self.matches_html)

    def _render(self) -> None:
        r = self.result
        if r.idf:
            self.notes.append(f"idf weights from a corpus of {self.idf_documents} references: the "
                              f"{self.idf_documents - len(r.comparisons)} English references of the WMT22 "
                              "de-en sample shipped with mtlearn, and yours (one sentence has no idf of its "
                              "own)")
            self._render_messages()
        self.score_html.value = f'<b style="font-size:1.2em">BERTScore F1 = {num("score", r.score)}</b>'
        self.summary_html.value = self._summary(r, self.idf_documents)
        self.matches_html.value = _matches(r)
        longest = max(len(r.candidate_tokens), len(r.best.reference_tokens)) if r.best else 0
        if longest > plots.BERTSCORE_PICTURE_MAX_TOKENS:
            self.figure = None
            show_png(self.image, b"")
            self.notes.append(f"No picture: {longest} tokens on one side, above the "
                              f"{plots.BERTSCORE_PICTURE_MAX_TOKENS} it is drawn for; the numbers are "
                              "complete.")
            return
        self._picture(lambda: self._draw(r))

    def _draw(self, r: BertScoreResult) -> Any:
        """The matrix of the best reference above F1 at every layer (from the kept states: no encoding)."""
        candidate, references, weights = self._layers_of
        by_layer = [score_states(candidate, references, replace(self._options(), layer=k), weights)
                    for k in range(BertScoreOptions.spec("layer").control[1] + 1)]  # type: ignore[index]
        rows, cols = len(r.candidate_tokens), len(r.best.reference_tokens)  # type: ignore[union-attr]
        fig = plots.TeachingFigure(figsize=(max(6.0, 0.32 * cols + 3.6), max(4.0, 0.3 * rows + 2.6) + 2.6),
                                   layout="constrained")
        top, bottom = fig.subplots(2, 1, height_ratios=[max(4.0, 0.3 * rows + 2.6), 2.2])
        plots.plot_similarity(r, ax=top)
        plots.plot_layers(by_layer, ax=bottom)
        return fig

    @staticmethod
    def _summary(r: BertScoreResult, documents: int) -> str:
        rows = [("precision P (each candidate token's best cosine, weighted mean)",
                 num("precision", r.precision)),
                ("recall R (each reference token's best cosine, weighted mean)", num("recall", r.recall)),
                ("F1 = 2PR / (P + R)", num("f1", r.f1))]
        if r.rescale and r.baseline:
            rows += [("before rescaling: P, R, F1", ", ".join(num(f"raw-{k}", v) for k, v in (
                ("precision", r.raw_precision), ("recall", r.raw_recall), ("f1", r.raw_f1)))),
                     ("baseline b of P, R, F1 (rescaled x = (x_raw - b) / (1 - b))",
                      ", ".join(num(f"baseline-{k + 1}", b) for k, b in enumerate(r.baseline)))]
        if r.idf:
            rows.append(("idf corpus: references (documents M)", num("idf-documents", documents)))
        if len(r.comparisons) > 1 and r.best_reference is not None:
            rows.append(("F1 against each reference", ", ".join(
                f"{k + 1}: {num(f'reference-f1-{k + 1}', c.f1)}" for k, c in enumerate(r.comparisons))))
            rows.append(("reference drawn (best F1; P, R and F1 are each their best over the references)",
                         f"{num('best-reference', r.best_reference + 1)} of {len(r.comparisons)}"))
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        body = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
        return (f'<table class="{css.BERTSCORE_NUMBERS}" {style}>{body}</table>'
                f"<p style='color:#666;font-size:0.85em'>{html.escape(r.signature)}</p>")


def _matches(r: BertScoreResult) -> str:
    """Two tables: each candidate token's best reference token (precision), each reference token's best
    candidate token (recall), with the cosine and the weight; [CLS] and [SEP] (weight 0) grey."""
    c = r.best
    if c is None:  # pragma: no cover - a segment always has a best comparison
        return ""
    sides = (("precision", "candidate token", "its best reference token", r.candidate_tokens,
              c.reference_tokens, c.precision_matches, c.similarity.max(axis=1), c.candidate_weights),
             ("recall", "reference token", "its best candidate token", c.reference_tokens,
              r.candidate_tokens, c.recall_matches, c.similarity.max(axis=0), c.reference_weights))
    tables = []
    for name, source_head, target_head, source, target, matches, best, weights in sides:
        head = f"<tr><th>{source_head}</th><th>{target_head}</th><th>cosine</th><th>weight</th></tr>"
        body = []
        for k, (token, m, b, w) in enumerate(zip(source, matches.tolist(), best.tolist(), weights.tolist())):
            tr = (f'<tr class="{css.MATCH_ROW}">' if w > 0
                  else f'<tr class="{css.SPECIAL_MATCH_ROW}" style="color:#888">')
            body.append(f"{tr}<td>{html.escape(token)}</td><td>{html.escape(target[m])}</td>"
                        f"<td>{num(f'{name}-cosine-{k + 1}', b)}</td>"
                        f"<td>{num(f'{name}-weight-{k + 1}', w)}</td></tr>")
        tables.append(f'<table border="1" cellpadding="3" style="border-collapse:collapse;margin-right:1em">'
                      f'<caption>{name}</caption>{head}{"".join(body)}</table>')
    return (f'<div class="{css.BERTSCORE_MATCHES}" style="display:flex;align-items:flex-start">'
            f'{"".join(tables)}</div>')

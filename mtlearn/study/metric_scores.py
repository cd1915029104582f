"""The metrics a study of human judgements runs, with their settings: every sentence score and corpus score.

Each :class:`StudyMetric` names one mtlearn metric with fixed settings. :func:`score_system`
scores one system's translations against their references once and returns the sentence
score of every segment, the corpus score, and every segment's sufficient statistics, so a
bootstrap can recompute the corpus score of any resample of the segments without reading
a text again (:func:`corpus_scorer`).

The settings are the usual ones (see each ``label``): BLEU as sacreBLEU (``13a``;
sentence: ``exp`` smoothing with effective order, sacreBLEU's ``sentence_bleu``), and
with add-one smoothing (``add-k``, k = 1: Lin & Och's BLEU+1); chrF2 and chrF++ as
sacreBLEU; METEOR with the stages exact, stem, synonym, lowercased, ``13a`` tokens, its
alignment ties broken by fewest crossings (Banerjee & Lavie 2005) or by fewest chunks
(METEOR 1.x); TER as sacreBLEU (tercom's tokens, case-insensitive) and WER as jiwer
(words split on spaces, case-sensitive). TER and WER are error rates: lower is better
(``higher_is_better`` False); a study correlates their negation.

>>> r = score_system(metric("chrf"), ["the cat sat"], [["the cat sat down"]])
>>> round(r.sentence[0], 4), r.corpus == r.sentence[0], r.stats.shape  # sacreBLEU: 66.0176
(0.6602, True, (1, 18))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import mtlearn
from mtlearn.study.significance import resampling_scorer, segment_statistics

__all__ = ["StudyMetric", "METRICS", "metric", "SystemScores", "score_system", "corpus_scorer", "oriented"]

Scorer = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class StudyMetric:
    """One metric with fixed settings: ``sentence`` options for sentence scores, ``corpus`` for corpus ones.

    ``family`` is the mtlearn metric (``bleu``, ``chrf``, ``meteor``, ``ter``, ``wer``);
    ``system_level`` says whether the study correlates its corpus score with the humans'
    system scores (the add-one BLEU variant is a sentence-level smoothing only).
    """

    name: str
    family: str
    label: str
    sentence: Mapping[str, Any] = field(default_factory=dict)
    corpus: Mapping[str, Any] = field(default_factory=dict)
    higher_is_better: bool = True
    system_level: bool = True


_METEOR = {"stages": ("exact", "stem", "synonym"), "alpha": 0.9, "beta": 3.0, "gamma": 0.5,
           "lowercase": True, "tokenize": "13a"}

#: The metrics of the study, in table order.
METRICS: tuple[StudyMetric, ...] = (
    StudyMetric("bleu", "bleu",
                "BLEU: sacreBLEU's defaults (13a, exp smoothing; sentences with effective order)",
                {"tokenize": "13a", "smoothing": "exp", "effective_order": True},
                {"tokenize": "13a", "smoothing": "exp"}),
    StudyMetric("bleu_add1", "bleu", "sentence BLEU with add-one smoothing (add-k, k = 1, effective order; "
                "Lin & Och's BLEU+1)", {"tokenize": "13a", "smoothing": "add-k", "smooth_value": 1,
                                        "effective_order": True},
                {"tokenize": "13a", "smoothing": "add-k", "smooth_value": 1}, system_level=False),
    StudyMetric("chrf", "chrf", "chrF2: sacreBLEU's defaults (character 6-grams, beta 2)"),
    StudyMetric("chrf++", "chrf", "chrF2++: chrF2 with word unigrams and bigrams", {"word_order": 2},
                {"word_order": 2}),
    StudyMetric("meteor", "meteor", "METEOR: exact, stem, synonym; alignment ties by fewest crossings "
                "(Banerjee & Lavie 2005); lowercased, 13a", {**_METEOR, "tie_break": "crossings"},
                {**_METEOR, "tie_break": "crossings"}),
    StudyMetric("meteor_chunks", "meteor", "METEOR with alignment ties by fewest chunks (METEOR 1.x)",
                {**_METEOR, "tie_break": "chunks"}, {**_METEOR, "tie_break": "chunks"}),
    StudyMetric("ter", "ter", "TER: sacreBLEU's defaults (tercom tokens, case-insensitive); lower is better",
                higher_is_better=False),
    StudyMetric("wer", "wer", "WER: words split on spaces, case-sensitive (jiwer); lower is better",
                higher_is_better=False),
    StudyMetric("bertscore", "bertscore",
                "BERTScore's algorithm on all-MiniLM-L6-v2 (layer 3, F1, no idf, not rescaled; the corpus "
                "score is the mean of the sentence F1s)", {"layer": 3}, {"layer": 3}),
)


def metric(name: str) -> StudyMetric:
    """The study metric called ``name``.

    >>> metric("ter").higher_is_better
    False
    >>> metric("comet")
    Traceback (most recent call last):
    ...
    ValueError: name: unknown metric 'comet'; choose one of bleu, bleu_add1, chrf, chrf++, meteor, meteor_chunks, ter, wer, bertscore
    """  # noqa: E501
    for m in METRICS:
        if m.name == name:
            return m
    raise ValueError(f"name: unknown metric {name!r}; choose one of {', '.join(m.name for m in METRICS)}")


@dataclass(frozen=True)
class SystemScores:
    """One system's scores under one metric: ``sentence[i]`` of segment i, the ``corpus`` score,
    ``stats[i]`` segment i's sufficient statistics (a resample's corpus score is
    ``corpus_scorer(metric)`` of the drawn rows' sum), and the metric's ``signature``."""

    sentence: tuple[float, ...]
    corpus: float
    stats: np.ndarray
    signature: str


def _ter_rows(result: Any) -> np.ndarray:
    # Edits and average reference length per segment; lengths are halves at worst, exact in binary.
    return np.array([[s.edits, float(s.ref_length)] for s in result.segments.stats()], dtype=np.float64)


def _error_rate(sums: np.ndarray) -> np.ndarray:
    """Edits / reference length, with sacreBLEU's rule for a length of 0 (1 if there are edits, else 0)."""
    edits, length = sums[:, 0], sums[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(length > 0, edits / np.where(length > 0, length, 1.0), np.where(edits > 0, 1.0, 0.0))


def _score_bleu(m: StudyMetric, candidates: list[str], references: list[list[str]]) -> SystemScores:
    corpus = mtlearn.corpus_bleu(candidates, references, **m.corpus)
    sentence = tuple(mtlearn.bleu(c, r, **m.sentence).score for c, r in zip(candidates, references))
    return SystemScores(sentence, corpus.score, segment_statistics(corpus), corpus.signature)


def _score_from_corpus(m: StudyMetric, candidates: list[str], references: list[list[str]]) -> SystemScores:
    call = {"chrf": mtlearn.corpus_chrf, "meteor": mtlearn.corpus_meteor}[m.family]
    corpus = call(candidates, references, **m.corpus)
    sentence = tuple(s.score for s in corpus.segments)
    return SystemScores(sentence, corpus.score, segment_statistics(corpus), corpus.signature)


def _score_error_rate(m: StudyMetric, candidates: list[str], references: list[list[str]]) -> SystemScores:
    call = mtlearn.corpus_ter if m.family == "ter" else mtlearn.corpus_wer
    corpus = call(candidates, references, **m.corpus)
    rows = _ter_rows(corpus)
    return SystemScores(tuple(_error_rate(rows).tolist()), corpus.score, rows, corpus.signature)


def _score_bertscore(m: StudyMetric, candidates: list[str], references: list[list[str]]) -> SystemScores:
    corpus = mtlearn.corpus_bertscore(candidates, references, **m.corpus)
    sentence = tuple(s.f1 for s in corpus.segments)
    # F1 and a count per segment: a resample's corpus score is the mean of its drawn F1s.
    rows = np.array([[f, 1.0] for f in sentence], dtype=np.float64)
    return SystemScores(sentence, corpus.f1, rows, corpus.signature)


def _mean_of_first(sums: np.ndarray) -> np.ndarray:
    return sums[:, 0] / sums[:, 1]


_SCORERS = {"bleu": _score_bleu, "chrf": _score_from_corpus, "meteor": _score_from_corpus,
            "ter": _score_error_rate, "wer": _score_error_rate, "bertscore": _score_bertscore}


def score_system(m: StudyMetric, candidates: Sequence[str],
                 references: Sequence[Sequence[str]]) -> SystemScores:
    """Score one system: ``candidates[i]`` against the list ``references[i]`` (one or several references).

    >>> r = score_system(metric("wer"), ["a b c", "x y"], [["a b d"], ["x y"]])
    >>> r.sentence, r.corpus, r.stats.tolist()
    ((0.3333333333333333, 0.0), 0.2, [[1.0, 3.0], [0.0, 2.0]])
    """
    if len(candidates) != len(references):
        raise ValueError(f"references: {len(references)} segments of references "
                         f"for {len(candidates)} candidates")
    return _SCORERS[m.family](m, list(candidates), [list(r) for r in references])


def corpus_scorer(m: StudyMetric) -> Scorer:
    """Summed segment statistics (one resample a row) to corpus scores, by the rule of :func:`score_system`.

    >>> corpus_scorer(metric("ter"))(np.array([[3.0, 12.0], [0.0, 0.0]])).tolist()
    [0.25, 0.0]
    """
    if m.family in ("ter", "wer"):
        return _error_rate
    if m.family == "bertscore":
        return _mean_of_first
    return resampling_scorer(m.family, **m.corpus)


def oriented(m: StudyMetric, values: Sequence[float]) -> list[float]:
    """Scores turned so that higher is better: error rates are negated.

    >>> oriented(metric("ter"), [0.25, 0.5]), oriented(metric("bleu"), [0.25])
    ([-0.25, -0.5], [0.25])
    """
    return [float(v) for v in values] if m.higher_is_better else [-float(v) for v in values]

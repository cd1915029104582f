"""mtlearn.study.metric_scores: the study's metric settings, its sentence and corpus scores, its resampling
scorer.

The sentence scores must be what mtlearn's own sentence functions give (and sacreBLEU for BLEU, chrF
and TER), and the corpus scorer applied to all segments' summed statistics must give the corpus score.
"""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

import mtlearn
from mtlearn.study.metric_scores import METRICS, corpus_scorer, metric, oriented, score_system

HYPS = ["the cat sat on the mat", "a dog barked at night", "it rained all day long", "we went home"]
REFS = [["the cat is on the mat", "a cat sat on the mat"],
        ["the dog barked in the night", "a dog was barking"],
        ["it was raining all day", "rain fell the whole day"], ["we went home early", "we returned home"]]


@pytest.mark.wordnet
@pytest.mark.parametrize("m", METRICS, ids=lambda m: m.name)
def test_the_corpus_scorer_of_all_segments_is_the_corpus_score(m):
    for refs in (REFS, [[r[0]] for r in REFS]):
        r = score_system(m, HYPS, refs)
        assert corpus_scorer(m)(r.stats.sum(axis=0)[None, :])[0] == pytest.approx(r.corpus, abs=1e-12)
        assert len(r.sentence) == len(HYPS) and r.signature.startswith("mtlearn-")


@pytest.mark.wordnet
def test_sentence_scores_are_mtleans_sentence_functions():
    for m in METRICS:
        got = score_system(m, HYPS, REFS).sentence
        if m.family == "bleu":
            want = [mtlearn.bleu(h, r, **m.sentence).score for h, r in zip(HYPS, REFS)]
        elif m.family == "chrf":
            want = [mtlearn.chrf(h, r, **m.sentence).score for h, r in zip(HYPS, REFS)]
        elif m.family == "meteor":
            want = [mtlearn.meteor(h, r, **m.sentence).score for h, r in zip(HYPS, REFS)]
        elif m.family == "bertscore":
            want = [mtlearn.bertscore(h, r, **m.sentence).f1 for h, r in zip(HYPS, REFS)]
        else:
            call = mtlearn.ter if m.family == "ter" else mtlearn.wer
            want = [call(h, r).score for h, r in zip(HYPS, REFS)]
        # BERTScore's corpus call encodes through the batched twin (equal to encode() within 1e-5)
        tolerance = 1e-6 if m.family == "bertscore" else 1e-12
        assert list(got) == pytest.approx(want, abs=tolerance), m.name


def test_bleu_chrf_and_ter_equal_sacrebleus_sentence_scores():
    for name, f in (("bleu", sacrebleu.sentence_bleu), ("chrf", sacrebleu.sentence_chrf),
                    ("chrf++", lambda h, r: sacrebleu.sentence_chrf(h, r, word_order=2)),
                    ("ter", sacrebleu.sentence_ter)):
        got = score_system(metric(name), HYPS, REFS).sentence
        assert list(got) == pytest.approx([f(h, r).score / 100 for h, r in zip(HYPS, REFS)], abs=1e-12), name


def test_the_add_one_bleu_is_sacrebleus_add_k():
    got = score_system(metric("bleu_add1"), HYPS, REFS).sentence
    want = [sacrebleu.sentence_bleu(h, r, smooth_method="add-k", smooth_value=1).score / 100
            for h, r in zip(HYPS, REFS)]
    assert list(got) == pytest.approx(want, abs=1e-12)


def test_error_rates_are_turned_so_that_higher_is_better():
    assert oriented(metric("wer"), [0.5, 0.0]) == [-0.5, 0.0]
    assert [m.name for m in METRICS if not m.higher_is_better] == ["ter", "wer"]
    assert [m.name for m in METRICS if not m.system_level] == ["bleu_add1"]


def test_an_empty_reference_follows_sacrebleus_rule():
    r = score_system(metric("ter"), ["a b", ""], [[""], [""]])
    assert r.sentence == (1.0, 0.0)
    assert corpus_scorer(metric("ter"))(np.array([[2.0, 0.0]])).tolist() == [1.0]


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="^name: unknown metric 'comet'"):
        metric("comet")
    with pytest.raises(ValueError, match="^references: 1 segments of references for 2 candidates"):
        score_system(metric("bleu"), ["a", "b"], [["a"]])

"""studies/wmt22_learned.py on a tiny made-up corpus: each distinct text encoded once, both metrics from
that one pass equal to mtlearn's public ``corpus_bertscore`` and ``corpus_comet_mini``, including a sentence
longer than COMET-mini's 256 positions (encoded a second time, cut as sentence-transformers cuts it)."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from repo_paths import REPO

import mtlearn
from mtlearn.metrics.bertscore.encoder import load_encoder

pytestmark = pytest.mark.skipif(importlib.util.find_spec("all_minilm_l6_v2") is None,
                                reason="the encoder's weights (all_minilm_l6_v2, neural extra) are absent")


def _load_study():
    spec = importlib.util.spec_from_file_location("wmt22_learned", REPO / "studies" / "wmt22_learned.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["wmt22_learned"] = module
    spec.loader.exec_module(module)
    return module


study = _load_study()

LONG = " ".join(f"word{k} and the committee's reconsideration" for k in range(24))  # 264 WordPieces: > 254
REFS_A = ["The cat sat on the mat.", "Thank you.", LONG, "It rained all day in Prague."]
REFS_B = ["A cat was sitting on the mat.", "Thanks.", "Long.", "All day it rained in Prague."]
OUTPUTS = {
    "SysX": ["The cat sat on a mat.", "Thank you.", LONG, "It was raining all day in Prague."],
    "SysY": ["Cat mat sat.", "Thank you.", "Thank you.", "Prague rain."],
}


def _toy(pair: str = "xx-en"):
    return study.STUDY.PairData(pair, ["A", "B"], [REFS_A, REFS_B], OUTPUTS, {}, {})


def test_long_sentence_needs_the_second_pass():
    encoder = load_encoder()
    tokens, _ids, _cut = study.tokens_of(LONG, encoder.vocab, encoder.max_positions)
    assert study.MAX_TOKENS < len(tokens) <= encoder.max_positions


def test_plan_keeps_segments_that_share_a_text_together():
    jobs = study.plan([_toy()], chunk=1)
    # "Thank you." is segment 1's reference and SysY's output of segment 2; LONG is only in segment 2
    where = {seg.index: k for k, job in enumerate(jobs) for seg in job}
    assert where[1] == where[2]
    assert sorted(where) == [0, 1, 2, 3]
    distinct = {t for r, *outs in zip(REFS_A, *OUTPUTS.values()) for t in (r, *outs)}
    assert sum(study._job_size(j) for j in jobs) == len(distinct)


def test_one_pass_equals_the_public_functions():
    data = [_toy()]
    results = [study.score_job(job) for job in study.plan(data, chunk=2)]
    counts = {k: sum(c[k] for _r, c in results) for k in results[0][1]}
    distinct = {t for r, *outs in zip(REFS_A, *OUTPUTS.values()) for t in (r, *outs)}
    assert counts["texts"] == len(distinct)
    assert counts["passes"] == len(distinct) + 1  # LONG twice: 512 positions, then 256
    assert counts["cut_256"] == 1
    rows = study.system_scores(data, results)
    assert [r[:3] + r[5:] for r in rows] == [["xx-en", "SysX", "A", 4], ["xx-en", "SysY", "A", 4]]
    _pair, _system, _ref, bert, comet, _n = rows[0]  # SysX: its segment 2 is the long sentence
    # corpus_bertscore encodes through the batched twin, equal to encode() within 1e-5
    public = mtlearn.corpus_bertscore(OUTPUTS["SysX"], [[r] for r in REFS_A]).f1
    assert bert == pytest.approx(public, abs=1e-6)
    assert comet == mtlearn.corpus_comet_mini(OUTPUTS["SysX"], REFS_A).score

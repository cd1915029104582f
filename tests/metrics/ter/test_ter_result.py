"""TerResult and Edit (mtlearn/metrics/ter/result.py): data built by keyword, counts, exact score, dict."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest

from mtlearn.metrics.ter.result import TerResult
from mtlearn.metrics.ter.score import corpus_ter, ter, ter_from_stats
from mtlearn.metrics.ter.stats import TerStats


def test_a_result_is_built_by_keyword_only():
    r = ter_from_stats(TerStats(3, Fraction(12)))
    fields = {f.name: getattr(r, f.name) for f in dataclasses.fields(TerResult)}
    assert TerResult(**fields) == r
    first_eleven = [fields[f.name] for f in dataclasses.fields(TerResult)][:11]
    with pytest.raises(TypeError):
        TerResult(*first_eleven)


def test_counts_and_the_exact_score():
    r = ter("a b c d", ["b c x"])
    assert r.counts() == {"shift": 0, "insert": 0, "delete": 1, "substitute": 1, "match": 2}
    assert r.score_fraction == Fraction(2, 3) and r.stats == TerStats(2, Fraction(3))
    assert ter("a b", [""]).score_fraction == 1 and ter("", [""]).score_fraction == 0


def test_to_dict_is_json():
    r = ter("on the mat the cat sat", ["the cat sat on the mat"])
    json.dumps(r.to_dict())
    json.dumps(corpus_ter(["a", "b"], [["a"], ["c"]]).to_dict(segments=True))
    d = r.to_dict()
    assert d["shifts"][0]["words"] == ["on", "the", "mat"] and d["n_segments"] == 1
    corpus = corpus_ter(["a", "b"], [["a"], ["c"]]).to_dict(segments=True)
    assert corpus["n_segments"] == 2 and [s["num_edits"] for s in corpus["segments"]] == [0, 1]

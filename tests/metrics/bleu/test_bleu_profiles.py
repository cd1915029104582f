"""BLEU profiles against their libraries, the divergence walk's bookkeeping, and bad input.

- sacreBLEU and NLTK are dependencies: their profiles equal the installed libraries on random
  corpora and on a WMT22 de-en system (skipped with a reason when the data is absent).
- HF evaluate (its ``load`` needs the hub), torchmetrics and KerasNLP (torch / TensorFlow) and
  tensor2tensor (TensorFlow) are not installed: their profiles are checked against the numbers
  their own tests and documentation publish (file and line cited at each test; the commits
  are the ones named in each profile's ``source``).
- d2l: against ``mtlearn.d2l_bleu`` (the Chinese blog post's formula, tested on its examples) with k, and
  with d2l-en's min(k, len_pred).
- Every walk's contributions add up exactly (``Fraction``) to the difference of the scores.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import warnings
from fractions import Fraction
from pathlib import Path

import pytest
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

import mtlearn
from mtlearn.metrics.bleu.profile_scores import BleuProfileScorer, score_profile
from mtlearn.metrics.bleu.profiles import PROFILES, get_profile
from mtlearn.why import compare_implementations

VOCAB = ["the", "cat", "sat", "on", "mat", "a", "dog", ",", ".", "is", "it's", "5.5", "(", ")", "-"]


def _corpus(rng: random.Random, segments: int, refs: int) -> tuple[list[str], list[list[str]]]:
    def sentence() -> str:
        return " ".join(rng.choice(VOCAB) for _ in range(rng.randint(1, 12)))
    return [sentence() for _ in range(segments)], [[sentence() for _ in range(refs)] for _ in range(segments)]


def _random_corpora(count: int, seed: int) -> list[tuple[list[str], list[list[str]]]]:
    rng = random.Random(seed)
    return [_corpus(rng, rng.randint(1, 6), rng.randint(1, 3)) for _ in range(count)]


def _streams(refs: list[list[str]]) -> list[list[str]]:
    """sacreBLEU's layout: one stream per reference set."""
    return [list(stream) for stream in zip(*refs)]


def _nltk(cands: list[str], refs: list[list[str]]) -> tuple[list, list]:
    return [[r.split() for r in rs] for rs in refs], [c.split() for c in cands]


# ------------------------------------------------------------------ sacreBLEU and NLTK, random corpora


@pytest.mark.parametrize("cands,refs", _random_corpora(60, seed=12))
def test_sacrebleu_profiles_equal_sacrebleu(cands: list[str], refs: list[list[str]]) -> None:
    scorer = BleuProfileScorer(cands, refs)
    corpus = sacrebleu.corpus_bleu(cands, _streams(refs))
    assert scorer(PROFILES["sacrebleu-corpus"]).reported == pytest.approx(corpus.score, abs=1e-10)
    sentences = [sacrebleu.sentence_bleu(c, rs).score for c, rs in zip(cands, refs)]
    ours = scorer(PROFILES["sacrebleu-sentence"])
    assert ours.reported == pytest.approx(math.fsum(sentences) / len(sentences), abs=1e-10)


@pytest.mark.parametrize("cands,refs", _random_corpora(60, seed=34))
def test_nltk_profiles_equal_nltk(cands: list[str], refs: list[list[str]]) -> None:
    scorer = BleuProfileScorer(cands, refs)
    nrefs, nhyps = _nltk(cands, refs)
    method1 = SmoothingFunction().method1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns about zero counts without smoothing
        expected = {
            "nltk-corpus": corpus_bleu(nrefs, nhyps),
            "nltk-corpus-method1": corpus_bleu(nrefs, nhyps, smoothing_function=method1),
            "nltk-sentence": math.fsum(sentence_bleu(r, h) for r, h in zip(nrefs, nhyps)) / len(nhyps),
            "nltk-sentence-method1": math.fsum(
                sentence_bleu(r, h, smoothing_function=method1) for r, h in zip(nrefs, nhyps)) / len(nhyps),
        }
    for name, theirs in expected.items():
        ours = scorer(PROFILES[name]).score
        assert math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-15), (name, ours, theirs)


# ------------------------------------------------------------------ WMT22 de-en


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


@pytest.fixture(scope="module")
def online_a(wmt22: Path) -> tuple[list[str], list[list[str]]]:
    hyps = _lines(wmt22 / "system-outputs" / "generaltest2022.de-en.hyp.Online-A.en")
    ref_a = _lines(wmt22 / "references" / "generaltest2022.de-en.ref.A.en")
    return hyps, [[r] for r in ref_a]


@pytest.mark.wmt22
def test_wmt22_sacrebleu_profiles(online_a: tuple[list[str], list[list[str]]]) -> None:
    hyps, refs = online_a
    scorer = BleuProfileScorer(hyps, refs)
    corpus = sacrebleu.corpus_bleu(hyps, _streams(refs))
    assert scorer(PROFILES["sacrebleu-corpus"]).reported == pytest.approx(corpus.score, abs=1e-10)
    ours = scorer(PROFILES["sacrebleu-corpus"])
    assert list(ours.matches) == corpus.counts and list(ours.totals) == corpus.totals
    assert (ours.candidate_length, ours.reference_length) == (corpus.sys_len, corpus.ref_len)
    sentences = [sacrebleu.sentence_bleu(h, r).score for h, r in zip(hyps, refs)]
    assert scorer(PROFILES["sacrebleu-sentence"]).reported == pytest.approx(
        math.fsum(sentences) / len(sentences), abs=1e-10)


@pytest.mark.wmt22
def test_wmt22_nltk_profiles(online_a: tuple[list[str], list[list[str]]]) -> None:
    hyps, refs = online_a
    scorer = BleuProfileScorer(hyps, refs)
    nrefs, nhyps = _nltk(hyps, refs)
    method1 = SmoothingFunction().method1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert scorer(PROFILES["nltk-corpus"]).score == pytest.approx(corpus_bleu(nrefs, nhyps), rel=1e-12)
        sentences = [sentence_bleu(r, h, smoothing_function=method1) for r, h in zip(nrefs, nhyps)]
    assert scorer(PROFILES["nltk-sentence-method1"]).score == pytest.approx(
        math.fsum(sentences) / len(sentences), rel=1e-12)


@pytest.mark.wmt22
def test_wmt22_every_profile_scores_and_walks_add_up(online_a: tuple[list[str], list[list[str]]]) -> None:
    hyps, refs = online_a
    c = compare_implementations(hyps, refs, profiles=["sacrebleu-corpus", "hf-evaluate", "tensor2tensor",
                                                      "nltk-sentence-method1"])
    assert all(0 < p.score < 1 for p in c.profiles)
    for d in c.divergences:
        assert d.total == d.difference
    # One reference per segment: shortest = closest, so HF's BLEU differs from sacreBLEU's only in the
    # last bits (its BP's 1/(c/r)); tensor2tensor lowercases and tokenizes with the international rules.
    d = c.divergence("sacrebleu-corpus", "hf-evaluate")
    assert not d.step("reference length").values_move
    assert abs(float(d.difference)) < 1e-12
    assert c.divergence("sacrebleu-corpus", "tensor2tensor").first_divergence == "tokenisation"


# ------------------------------------------------------------------ published numbers of the other libraries


def test_hf_evaluate_card_examples() -> None:
    # huggingface/evaluate metrics/bleu/README.md line 47 (two references for the first prediction)
    # and line 93 (one reference each): bleu 1.0, lengths 7/6 and 7/7.
    preds = ["hello there general kenobi", "foo bar foobar"]
    two = score_profile("hf-evaluate", preds, [["hello there general kenobi", "hello there!"],
                                               ["foo bar foobar"]])
    assert (two.score, two.candidate_length, two.reference_length) == (1.0, 7, 6)
    assert two.candidate_length / two.reference_length == 1.1666666666666667
    assert two.precisions == (1.0, 1.0, 1.0, 1.0) and two.brevity_penalty == 1.0
    one = score_profile("hf-evaluate", preds, [["hello there general kenobi"], ["foo bar foobar"]])
    assert (one.score, one.candidate_length, one.reference_length) == (1.0, 7, 7)


def test_torchmetrics_docstring_example() -> None:
    # Lightning-AI/torchmetrics src/torchmetrics/functional/text/bleu.py line 180 and
    # src/torchmetrics/text/bleu.py line 63: tensor(0.7598).
    r = score_profile("torchmetrics", ["the cat is on the mat"],
                      [["there is a cat on the mat", "a cat is on the mat"]])
    assert round(r.score, 4) == 0.7598


def test_torchmetrics_smooth_is_nltk_method2_where_every_order_matches() -> None:
    # torchmetrics' own tests (tests/unittests/text/test_bleu.py lines 25, 43-44) compare smooth=True
    # with NLTK's corpus_bleu and SmoothingFunction().method2 on white-space tokens.
    cands = ["the cat is on the mat", "a dog sat on the mat today"]
    refs = [["there is a cat on the mat", "a cat is on the mat"], ["the dog sat on the mat"]]
    nrefs, nhyps = _nltk(cands, refs)
    theirs = corpus_bleu(nrefs, nhyps, smoothing_function=SmoothingFunction().method2)
    assert score_profile("torchmetrics-smooth", cands, refs).score == pytest.approx(theirs, rel=1e-6)


KERAS_REFS = [["He eats a sweet apple."], ["Silicon Valley is one of my favourite shows!"]]
KERAS_PREDS = ["He He He eats sweet apple which is a fruit.",
               "I love Silicon Valley, it's one of my favourite shows."]


def test_keras_nlp_published_numbers() -> None:
    # keras-team/keras-nlp keras_hub/src/metrics/bleu_test.py: line 40 (0.243), line 83
    # (max_order=5: 0.188), line 165 (a third segment added by update_state: 0.26), line 26
    # (smooth=True, one prediction, two references: 0.212); each assertAlmostEqual(delta=1e-3).
    assert score_profile("keras-nlp", KERAS_PREDS, KERAS_REFS).score == pytest.approx(0.243, abs=1e-3)
    five = dataclasses.replace(get_profile("keras-nlp"), max_order=5)
    assert score_profile(five, KERAS_PREDS, KERAS_REFS).score == pytest.approx(0.188, abs=1e-3)
    three = score_profile("keras-nlp", KERAS_PREDS + ["Virat Kohli is the greatest of all time!"],
                          KERAS_REFS + [["Virat Kohli is the GOAT."]])
    assert three.score == pytest.approx(0.26, abs=1e-3)
    smooth = score_profile("keras-nlp-smooth", ["He He He eats sweet apple which is a fruit."],
                           [["He eats a sweet apple.", "He is eating a tasty apple, isn't he?"]])
    assert smooth.score == pytest.approx(0.212, abs=1e-3)


def test_keras_nlp_smooth_adds_one_to_unigrams_too() -> None:
    # keras_hub/src/metrics/bleu.py's docstring: "Adds 1 ... for every order"; torchmetrics starts at bigrams.
    keras = score_profile("keras-nlp-smooth", ["a b c d"], [["a b x d"]])
    torch = score_profile("torchmetrics-smooth", ["a b c d"], [["a b x d"]])
    assert keras.precisions[0] == (3 + 1) / (4 + 1) and keras.precisions[1] == (1 + 1) / (3 + 1)
    assert torch.score == 0.0  # no trigram match: torchmetrics gives 0 before smoothing


T2T = "tensorflow/tensor2tensor tensor2tensor/utils/bleu_hook_test.py"


@pytest.mark.parametrize("refs,hyps,published,line", [
    ([[1, 2, 3]], [[1, 2, 3]], 1.0, 39),
    ([[5, 6, 7, 8]], [[1, 2, 3, 4]], 0.0798679, 47),
    ([[1, 2, 3, 4], [5, 6, 7, 10]], [[1, 2, 3, 4], [5, 6, 7, 0]], 0.7231, 54),
    ([[1, 2, 1, 13], [12, 6, 7, 4, 8, 9, 10]], [[1, 2, 1, 3], [5, 6, 7, 4]], 0.3436, 61),
])
def test_tensor2tensor_compute_bleu_published(refs: list, hyps: list, published: float, line: int) -> None:
    # T2T line `line`: compute_bleu on token ids, assertAllClose(atol=1e-3); ids as tokens here.
    cands = [[str(t) for t in h] for h in hyps]
    references = [[[str(t) for t in r]] for r in refs]
    assert score_profile("tensor2tensor", cands, references).score == pytest.approx(published, abs=1e-3), T2T


def test_tensor2tensor_bleu_wrapper_published() -> None:
    # T2T line 94: bleu_wrapper on files "a b a c"/"e f g d" against "a b a z"/"y f g d k l m": 0.3436.
    r = score_profile("tensor2tensor", ["a b a c", "e f g d"], [["a b a z"], ["y f g d k l m"]])
    assert r.score == pytest.approx(0.3436, abs=1e-3)


# ------------------------------------------------------------------ d2l


@pytest.mark.parametrize("cands,refs", _random_corpora(40, seed=56))
def test_d2l_profiles_equal_d2l_bleu(cands: list[str], refs: list[list[str]]) -> None:
    scorer = BleuProfileScorer(cands, refs)
    document = [mtlearn.d2l_bleu(c, rs[0], 4).score for c, rs in zip(cands, refs)]
    since_2022 = [mtlearn.d2l_bleu(c, rs[0], min(4, len(c.split()))).score for c, rs in zip(cands, refs)]
    assert (scorer(PROFILES["d2l-document"]).score
            == pytest.approx(math.fsum(document) / len(cands), abs=1e-12))
    assert scorer(PROFILES["d2l-en"]).score == pytest.approx(math.fsum(since_2022) / len(cands), abs=1e-12)


# ------------------------------------------------------------------ the walk


# random square corpora are per segment
@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")
@pytest.mark.parametrize("seed", range(12))
def test_contributions_add_up_exactly(seed: int) -> None:
    rng = random.Random(seed)
    cands, refs = _corpus(rng, rng.randint(1, 4), rng.randint(1, 3))
    names = rng.sample(list(PROFILES), 4)
    c = compare_implementations(cands, refs, profiles=names)
    assert len(c.divergences) == 6
    for d in c.divergences:
        assert isinstance(d.total, Fraction)
        assert (d.total == d.difference
                == Fraction(c.profile(d.profile_b).score) - Fraction(c.profile(d.profile_a).score))
        for s in d.steps:
            assert s.contribution == Fraction(s.score_after) - Fraction(s.score_before)
            assert s.settings_differ or (not s.moved and s.contribution == 0)
        first = [s.step for s in d.steps if s.settings_differ and s.moved]
        assert d.first_divergence == (first[0] if first else None)


def test_first_divergence_skips_a_setting_that_moves_nothing() -> None:
    # 13a and white space give the same tokens here, so tokenisation differs in its settings only.
    c = compare_implementations("the cat sat on the mat", ["the cat sat on a mat", "a cat sat"],
                                profiles=["nltk-corpus", "hf-evaluate"])
    d = c.divergence("hf-evaluate", "nltk-corpus")
    assert d.first_settings_difference == "tokenisation"
    assert not d.step("tokenisation").values_move
    assert d.first_divergence == "reference length"
    assert d.step("reference length").moved == ("reference_length",)


def test_tokenize_option_replaces_every_tokenizer() -> None:
    c = compare_implementations("The cat sat.", ["The cat sat ."], tokenize="13a",
                                profiles=["nltk-sentence", "tensor2tensor"])
    assert {p.settings["tokenize"] for p in c.profiles} == {"13a"}
    assert c.divergence("nltk-sentence", "tensor2tensor").step("tokenisation").settings_differ  # lowercase


def test_presentation_reads_the_comparison() -> None:
    c = compare_implementations("A B B C D", ["A B C D E F"])
    text = c.explain()
    for p in c.profiles:
        assert p.name in text
    assert "sacrebleu-corpus" in c._repr_html_()
    walk = c.explain("sacrebleu-sentence", "hf-evaluate-smooth")
    assert "first divergence" in walk and "exactly" in walk
    data = json.loads(json.dumps(c.to_dict()))
    assert len(data["divergences"]) == len(PROFILES) * (len(PROFILES) - 1) // 2
    assert (Fraction(data["divergences"][0]["steps"][0]["contribution_exact"])
            == c.divergences[0].steps[0].contribution)


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("kwargs,error,message", [
    ({"metric": "ter"}, ValueError, "metric: unknown value 'ter'"),
    ({"profiles": ["sacrebleu"]}, ValueError, "profiles: unknown BLEU profile 'sacrebleu'"),
    ({"profiles": []}, ValueError, "profiles: no profile given"),
    ({"profiles": "nltk-corpus"}, TypeError, "profiles: expected a list"),
    ({"profiles": ["nltk-corpus", "nltk-corpus"]}, ValueError, "profiles: nltk-corpus given more than once"),
    ({"tokenize": "moses"}, ValueError, "tokenize: unknown value 'moses'"),
])
def test_bad_options(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        compare_implementations(["a b"], [["a b"]], **kwargs)


@pytest.mark.parametrize("cands,refs,error,message", [
    ([], [], ValueError, "candidates: the corpus is empty"),
    (["a b", "c d"], [["a b"]], ValueError, "references: 1 reference lists for 2 candidates"),
    (["a b"], [[]], ValueError, r"references\[0\]: no references given"),
    (["a b"], ["a b"], TypeError, r"references\[0\]: expected a list of references"),
    (["a b"], [["a b", 3]], TypeError, r"references\[0\]\[1\]"),
    ("a b", 3, TypeError, "references: with one candidate string"),
])
def test_bad_inputs(cands: object, refs: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        compare_implementations(cands, refs)


def test_bad_profile_settings_and_lookups() -> None:
    with pytest.raises(ValueError, match="smoothing: unknown value 'lin'"):
        dataclasses.replace(get_profile("hf-evaluate"), smoothing="lin")
    c = compare_implementations("a b", ["a b"], profiles=["nltk-corpus", "hf-evaluate"])
    with pytest.raises(ValueError, match="name: no profile 'x'"):
        c.profile("x")
    with pytest.raises(ValueError, match="b: the same profile"):
        c.divergence("hf-evaluate", "hf-evaluate")
    with pytest.raises(ValueError, match="a, b: give both"):
        c.explain("hf-evaluate")


def test_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a profile opened a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    assert compare_implementations("a b c d", ["a b c d"]).profile("hf-evaluate").score == 1.0


# ------------------------------------------------------------------ the card's WMT22 profile table


def _card_profile_rows() -> dict[str, float]:
    from repo_paths import REPO

    text = (REPO / "mtlearn" / "metrics" / "bleu" / "CARD.md").read_text(encoding="utf-8")
    start = text.index("### Differences between implementations, step by step")
    rows = {}
    for line in text[start:].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] in PROFILES:
            rows[cells[0]] = float(cells[1])
    return rows


def test_card_profile_table_lists_every_profile() -> None:
    assert list(_card_profile_rows()) == list(PROFILES)


@pytest.mark.wmt22
def test_card_profile_table_is_mtlearn(online_a: tuple[list[str], list[list[str]]]) -> None:
    hyps, refs = online_a
    scorer = BleuProfileScorer(hyps, refs)
    for name, printed in _card_profile_rows().items():
        assert round(100 * scorer(PROFILES[name]).score, 2) == printed, name


def test_a_division_by_zero_of_the_library_is_a_note() -> None:
    # tensorflow/nmt computes 1/ratio with ratio = c/r: an empty candidate divides by zero there.
    r = score_profile("hf-evaluate", [""], [["a b"]])
    assert r.score == 0.0 and any("divides by zero" in n for n in r.notes)


def test_meteor_plugs_into_the_same_walk() -> None:
    from mtlearn.metrics.meteor import profiles as meteor_profiles

    cands, refs = ["the cats were sitting on the mats"], [["the cat sat on the mat"]]
    c = compare_implementations(cands, refs, metric="meteor")
    for p in c.profiles:
        assert p.score == meteor_profiles.score_profile(p.name, cands, refs).score_value
    for d in c.divergences:
        assert d.total == d.difference
    assert c.divergence("banerjee-lavie-2005", "nltk").first_divergence is not None


def test_a_profile_order_is_bounded_with_the_reason() -> None:
    # Before: compare_implementations with a profile of max_order=10**9 ran past 30 s.
    with pytest.raises(ValueError,
                       match=r"^max_order: at most 4096 in a profile, got 1000000000 \(.*corpus_bleu"):
        dataclasses.replace(get_profile("sacrebleu-corpus"), max_order=10**9)
    top = dataclasses.replace(get_profile("sacrebleu-sentence"), max_order=4096)
    low = dataclasses.replace(get_profile("sacrebleu-sentence"), max_order=4096, name="low")
    c = compare_implementations("the cat sat on a mat", ["the cat sat on the mat"], profiles=[top, low])
    assert c.profiles[0].score == mtlearn.bleu("the cat sat on a mat", ["the cat sat on the mat"],
                                               max_order=4096,
                                               smoothing="exp", effective_order=True, tokenize="13a").score


def test_a_square_or_transposed_call_is_named() -> None:
    # Before: compare_implementations scored both silently (as many streams as segments: read per segment).
    cands = ["the cat sat on the mat today", "a dog barked at the postman"]
    streams = [["the cat sat on the mat today", "a dog barked at the postman"],
               ["a cat was sitting on the mat", "the dog barked at a man"]]
    with pytest.warns(mtlearn.core.references.AmbiguousLayoutWarning,
                      match=r"compare_implementations = 0\.\d{4} as read, "
                                                                       r"1\.0000 as streams"):
        compare_implementations(cands, streams, profiles=["sacrebleu-corpus"])
    with pytest.warns(mtlearn.core.references.ReferenceLayoutWarning,
                      match="2 reference streams of 3 segments"):
        with pytest.raises(ValueError, match="2 reference lists for 3 candidates"):
            compare_implementations(cands + ["it rained"], [s + ["it rained"] for s in streams])

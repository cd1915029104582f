"""METEOR's profiles (mtlearn/metrics/meteor/profiles.py) against the implementations they name.

- ``nltk`` equals ``nltk.translate.meteor_score.meteor_score`` (the installed NLTK), float for
  float, on random inputs chosen to exercise every stage (stems, synonyms, repeated words,
  several references, empty sides) and on a WMT22 de-en sample;
- ``banerjee-lavie-2005`` equals ``mtlearn.meteor`` / ``mtlearn.corpus_meteor``;
- ``nltk-3.6.2`` gives the numbers NLTK's issues and Hugging Face's published before NLTK
  PR #2763 (HF evaluate #115: 0.7398; NLTK #2751: 105.6 %; NLTK #2729: 0.809) — NLTK 3.6.2
  cannot be installed beside the current one, so its published outputs are the oracle;
- ``meteor-1.5``'s own rules (stage weights, no penalty for a complete one-chunk match, δ
  cancelling without function words) each checked against mtlearn's formulas.
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from pathlib import Path

import pytest

import mtlearn
from mtlearn.metrics.meteor.formulas import f_mean, fragmentation_penalty
from mtlearn.metrics.meteor.profiles import PROFILES, STEPS, MeteorProfile, score_profile, with_step
from mtlearn.metrics.meteor.wordnet import find_wordnet

pytestmark = pytest.mark.wordnet

#: Words with shared stems, WordNet synonyms (both directions and one-way ones) and repeats.
VOCAB = ("the cat cats sat sit sitting on mat mats a dog dogs ran run running car auto automobile "
         "big large great always forever party Party commands command heed obeys obey of and").split()


@pytest.fixture(scope="module")
def nltk_wordnet():
    if find_wordnet() is None:
        pytest.skip("WordNet for NLTK is not installed (python -m mtlearn.metrics.meteor.wordnet)")
    from nltk.corpus import wordnet

    wordnet.ensure_loaded()
    return wordnet


def random_segment(rng: random.Random, low: int = 0) -> list[str]:
    return [rng.choice(VOCAB) for _ in range(rng.randint(low, 9))]


def random_cases(seed: int, n: int):
    rng = random.Random(seed)
    for _ in range(n):
        yield random_segment(rng), [random_segment(rng, low=1) for _ in range(rng.randint(1, 3))]


def test_nltk_profile_equals_nltk_on_random_inputs(nltk_wordnet):
    from nltk.translate.meteor_score import meteor_score

    differ_from_mtlearn = 0
    for hyp, refs in random_cases(seed=20221, n=400):
        theirs = meteor_score(refs, hyp, wordnet=nltk_wordnet)
        ours = score_profile("nltk", [hyp], [refs], wordnet=nltk_wordnet)
        assert ours.score == theirs, (hyp, refs)
        differ_from_mtlearn += ours.score != score_profile("banerjee-lavie-2005", [hyp], [refs]).score
    # The cases are not all easy: the greedy walk and NLTK's synonym lookup often change the score.
    assert differ_from_mtlearn > 50


def test_nltk_profile_passes_alpha_beta_gamma_like_nltk(nltk_wordnet):
    from nltk.translate.meteor_score import meteor_score

    profile = dataclasses.replace(PROFILES["nltk"], alpha=0.6, beta=1.5, gamma=0.3)
    for hyp, refs in random_cases(seed=7, n=100):
        assert score_profile(profile, [hyp], [refs]).score == meteor_score(
            refs, hyp, alpha=0.6, beta=1.5, gamma=0.3)


def read_lines(path: Path, n: int) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:n]


@pytest.fixture(scope="module")
def wmt22_sample(wmt22):
    """300 de-en segments of two systems against reference A, tokenized with 13a."""
    refs = read_lines(wmt22 / "references" / "generaltest2022.de-en.ref.A.en", 150)
    pairs = []
    for system in ("Lan-Bridge", "PROMT"):
        hyps = read_lines(wmt22 / "system-outputs" / f"generaltest2022.de-en.hyp.{system}.en", 150)
        pairs += [(mtlearn.tokenize(h, "13a"), mtlearn.tokenize(r, "13a")) for h, r in zip(hyps, refs)]
    return pairs


@pytest.mark.wmt22
def test_nltk_profile_equals_nltk_on_wmt22(nltk_wordnet, wmt22_sample):
    from nltk.translate.meteor_score import meteor_score

    scores = score_profile("nltk", [h for h, _ in wmt22_sample], [[r] for _, r in wmt22_sample])
    theirs = [meteor_score([r], h) for h, r in wmt22_sample]
    assert [s.score for s in scores.segments] == theirs
    # The corpus is NLTK's segment scores averaged (Hugging Face evaluate's np.mean).
    assert scores.score == pytest.approx(sum(theirs) / len(theirs), abs=1e-15)


@pytest.mark.wmt22
def test_banerjee_lavie_profile_equals_mtlearn_on_wmt22(nltk_wordnet, wmt22_sample):
    hyps, refs = [h for h, _ in wmt22_sample[:120]], [[r] for _, r in wmt22_sample[:120]]
    ours = score_profile("banerjee-lavie-2005", hyps, refs)
    corpus = mtlearn.corpus_meteor(hyps, refs)
    assert ours.score_value == corpus.score_exact and ours.score == corpus.score
    assert [s.score for s in ours.segments] == [s.score_exact for s in corpus.segments]


def test_banerjee_lavie_profile_equals_mtlearn_on_random_inputs(nltk_wordnet):
    for hyp, refs in random_cases(seed=3, n=150):
        ours = score_profile("banerjee-lavie-2005", [hyp], [refs])
        theirs = mtlearn.meteor(hyp, refs)
        assert ours.score == theirs.score and ours.segments[0].best_reference == theirs.best_reference


#: Published outputs of NLTK <= 3.6.2 (and of HF datasets 1.10.2, which called it on strings).
PUBLISHED_NLTK_362 = [
    # huggingface/evaluate#115 (and NLTK 3.6.2's own doctest of single_meteor_score): 0.7398
    ("It is a guide to action which ensures that the military always obeys the commands of the party",
     "It is a guide to action that ensures that the military will forever heed Party commands", 0.7398, 4),
    # nltk/nltk#2751: "METEOR score: 105.6"
    ("creates or updates a virtual machine scale set", "create or update a vm scale set", 1.056, 3),
    # nltk/nltk#2729: "it was 0.809"
    ("I likes pizza", "I really like pizza", 0.809, 3),
]


@pytest.mark.parametrize("hyp, ref, published, digits", PUBLISHED_NLTK_362)
def test_nltk_362_profile_gives_the_published_numbers(nltk_wordnet, hyp, ref, published, digits):
    assert round(score_profile("nltk-3.6.2", [hyp], [[ref]]).score, digits) == published


def test_hf_evaluate_115_is_the_old_nltk_bug_and_the_jar_is_not_reproduced(nltk_wordnet):
    """0.7398 is NLTK <= 3.6.2 (synonyms looked up unstemmed); today's NLTK gives 0.6944 on the same pair."""
    from nltk.translate.meteor_score import meteor_score

    hyp, ref = PUBLISHED_NLTK_362[0][:2]
    old = score_profile("nltk-3.6.2", [hyp], [[ref]])
    new = score_profile("nltk", [hyp], [[ref]])
    assert new.score == meteor_score([ref.split()], hyp.split())
    # The old synonym stage looked "always" up unstemmed and matched "forever"; today it looks up "alway".
    assert [p[2] for p in old.segments[0].pairs].count("synonym") == 1
    assert [p[2] for p in new.segments[0].pairs].count("synonym") == 0
    # Walking from the old profile to the new one, only the stages step moves the score.
    moved = with_step(PROFILES["nltk-3.6.2"], PROFILES["nltk"], "stages and their lookups")
    assert score_profile(moved, [hyp], [[ref]]).score == new.score


def test_meteor_15_profile_rules(nltk_wordnet):
    p15 = PROFILES["meteor-1.5"]
    # A complete one-chunk match has no penalty: the jar scores an identical segment 1.
    assert score_profile(p15, ["the cat sat on the mat"], [["the cat sat on the mat"]]).score == 1.0
    # A stem match earns 0.6 of an exact match in P and R.
    r = score_profile(p15, ["the cats"], [["the cat"]])
    assert r.segments[0].matches_per_stage == (1, 1, 0)
    assert r.precision == pytest.approx(1.6 / 2, abs=1e-15) and r.recall == pytest.approx(0.8, abs=1e-15)
    # Case-sensitive by default (no -lower, no -norm).
    assert score_profile(p15, ["The cat"], [["the cat"]]).segments[0].matches_per_stage[0] == 1
    # δ has no effect without a function-word list.
    other = dataclasses.replace(p15, delta=0.3)
    for hyp, refs in random_cases(seed=11, n=30):
        assert score_profile(other, [hyp], [refs]).score == score_profile(p15, [hyp], [refs]).score


def test_meteor_15_profile_is_mtlearn_with_its_settings_where_its_own_rules_are_off(nltk_wordnet):
    """With unit weights and the penalty always charged, the 1.5 profile is mtlearn.meteor with
    alpha/beta/gamma, the chunks rule, the Snowball stemmer and no lowercasing."""
    plain = dataclasses.replace(PROFILES["meteor-1.5"], stage_weights=(1.0, 1.0, 1.0),
                                full_match_penalty=True, arithmetic="exact")
    for hyp, refs in random_cases(seed=5, n=80):
        theirs = mtlearn.meteor(hyp, refs, alpha=0.85, beta=0.2, gamma=0.6, tie_break="chunks",
                                stages=["exact", "stem:snowball", "synonym"], lowercase=False)
        assert score_profile(plain, [hyp], [refs]).score == pytest.approx(theirs.score, abs=1e-12)


def test_profile_numbers_use_mtlearns_formulas():
    p = PROFILES["banerjee-lavie-2005"]
    r = score_profile(p, ["on the mat sat the cat"], [["the cat sat on the mat"]])
    s = r.segments[0]
    assert r.f_mean == f_mean(Fraction(s.matches, 6), Fraction(s.matches, 6))
    assert r.penalty == fragmentation_penalty(s.chunks, s.matches)


def test_walking_every_step_reaches_the_other_profile(nltk_wordnet):
    hyp, refs = "the cats were sitting on the mats".split(), ["the cat sat on the mat".split()]
    for a in PROFILES.values():
        for b in PROFILES.values():
            walked = a
            for step, _ in STEPS:
                walked = with_step(walked, b, step)
            settings = [f.name for f in dataclasses.fields(MeteorProfile)
                        if f.name not in ("name", "title", "source")]
            assert all(getattr(walked, f) == getattr(b, f) for f in settings)
            assert score_profile(walked, [hyp], [refs]).score == score_profile(b, [hyp], [refs]).score


def test_every_setting_is_in_exactly_one_step():
    from mtlearn.metrics.meteor.profiles import DESCRIPTIVE_FIELDS

    placed = list(DESCRIPTIVE_FIELDS) + [f for _, fields in STEPS for f in fields]
    assert sorted(placed) == sorted(f.name for f in dataclasses.fields(MeteorProfile))


def test_bad_profile_input():
    with pytest.raises(ValueError, match="profile: unknown METEOR profile 'meteor-2'"):
        score_profile("meteor-2", ["a"], [["a"]])
    with pytest.raises(ValueError, match="stage_weights: 2 weights for 3 stages"):
        dataclasses.replace(PROFILES["nltk"], stage_weights=(1.0, 1.0))
    with pytest.raises(ValueError, match="references: 1 reference lists for 2 candidates"):
        score_profile("nltk", ["a", "b"], [["a"]])


def test_compare_implementations_meteor_walks_add_up(nltk_wordnet):
    from mtlearn.metrics.meteor.profiles import DESCRIPTIVE_FIELDS
    from mtlearn.why import compare_implementations
    from mtlearn.why.divergence import check_steps

    check_steps(MeteorProfile, STEPS, DESCRIPTIVE_FIELDS)
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party"
    ref = "It is a guide to action that ensures that the military will forever heed Party commands"
    c = compare_implementations(hyp, [ref], metric="meteor")
    assert c.names == tuple(PROFILES)
    for p in c.profiles:
        assert p.score == score_profile(p.name, [hyp], [[ref]]).score_value
    for d in c.divergences:
        assert d.total == d.difference
    d = c.divergence("banerjee-lavie-2005", "nltk")
    assert d.first_divergence == "stages and their lookups"
    assert [s.step for s in d.steps if s.score_moves][:2] == ["stages and their lookups", "alignment rule"]


@pytest.mark.wmt22
def test_compare_implementations_meteor_on_wmt22(nltk_wordnet, wmt22_sample):
    from mtlearn.why import compare_implementations

    sample = wmt22_sample[:100]
    c = compare_implementations([h for h, _ in sample], [[r] for _, r in sample], metric="meteor",
                                profiles=["banerjee-lavie-2005", "nltk", "meteor-1.5"])
    assert c.profile("banerjee-lavie-2005").score == mtlearn.corpus_meteor(
        [h for h, _ in sample], [[r] for _, r in sample]).score_exact
    for d in c.divergences:
        assert d.total == d.difference and d.first_divergence is not None

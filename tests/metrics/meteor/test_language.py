"""METEOR's ``language`` option: Spanish text scored offline (Snowball's Spanish stems, no synonym stage).

- the stage ``stem`` of ``language="es"`` is NLTK's Spanish Snowball stemmer: every expected count here is
  derived from that stemmer's own stems, and the score from the formulas applied to the counts;
- the stems are memoised per stemmer: English, then Spanish, then English in one process, each right;
- with the default stages the synonym stage is skipped for Spanish and the result says why; asked for by
  name, it is an error, and so are an English stemmer and an unknown language;
- English (the default) is as it was: no ``lang`` in the signature, no notes, the same keys in ``to_dict``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from nltk.stem.porter import PorterStemmer
from nltk.stem.snowball import SnowballStemmer

from mtlearn.metrics.meteor import formulas
from mtlearn.metrics.meteor.matchers import StemMatcher
from mtlearn.metrics.meteor.options import LANGUAGES, MeteorOptions
from mtlearn.metrics.meteor.score import corpus_meteor, meteor

CANDIDATE = "los gatos comen"
REFERENCE = "el gato come"
SKIPPED = "synonym stage skipped: no Spanish WordNet offline"


Pairs = list[tuple[int, int]]


def expected_pairs(candidate: str, reference: str, stem) -> tuple[Pairs, Pairs]:
    """The exact pairs and the stem pairs of two sentences whose words each occur once (no choice to make):
    exact where the words are equal, stem where only ``stem`` of them are."""
    cand, ref = candidate.split(), reference.split()
    exact = [(i, j) for i, a in enumerate(cand) for j, b in enumerate(ref) if a == b]
    stemmed = [(i, j) for i, a in enumerate(cand) for j, b in enumerate(ref)
               if a != b and stem(a) == stem(b)]
    return exact, stemmed


def test_the_stem_stage_of_spanish_is_snowball_and_the_score_is_the_formulas_of_its_counts():
    spanish = SnowballStemmer("spanish").stem
    exact, stemmed = expected_pairs(CANDIDATE, REFERENCE, spanish)
    pairs = sorted(exact + stemmed)
    r = meteor(CANDIDATE, [REFERENCE], language="es")

    assert (len(exact), len(stemmed)) == (0, 2)  # gatos-gato, comen-come: what the brief's pair is about
    assert r.matches_per_stage == {"exact": len(exact), "stem": len(stemmed)}
    assert r.pairs == tuple(pairs)
    assert r.chunks == formulas.count_chunks(pairs) == 1
    wt, wr, m = len(CANDIDATE.split()), len(REFERENCE.split()), len(pairs)
    p, rec = formulas.precision(m, wt), formulas.recall(m, wr)
    assert (r.precision, r.recall) == (p, rec) == (Fraction(2, 3), Fraction(2, 3))
    penalty = formulas.fragmentation_penalty(r.chunks, m, 3, 0.5)
    assert r.penalty == penalty
    assert r.score_exact == formulas.meteor_score_value(formulas.f_mean(p, rec, 0.9), penalty)
    assert r.score == float(r.score_exact)


def test_english_stems_the_same_pair_with_porter():
    exact, stemmed = expected_pairs(CANDIDATE, REFERENCE, PorterStemmer().stem)
    r = meteor(CANDIDATE, [REFERENCE], stages=["exact", "stem"])
    assert r.matches_per_stage == {"exact": len(exact), "stem": len(stemmed)}
    assert len(stemmed) != 2  # Porter does not relate comen and come: the languages differ on this pair


def test_the_stem_memo_is_per_stemmer_english_then_spanish_then_english():
    porter, spanish = PorterStemmer().stem, SnowballStemmer("spanish").stem
    words = ["comen", "come", "gatos", "gato", "cantaron", "cantar"]
    assert any(porter(w) != spanish(w) for w in words)  # else this test could not tell them apart
    for language, stem in [("en", porter), ("es", spanish), ("en", porter)]:
        stemmer = "porter" if language == "en" else "spanish"
        assert [StemMatcher(stemmer).stem(w) for w in words] == [stem(w) for w in words], language
        r = meteor(CANDIDATE, [REFERENCE], stages=["exact", "stem"], language=language)
        assert r.matches_per_stage["stem"] == len(expected_pairs(CANDIDATE, REFERENCE, stem)[1]), language
        c = corpus_meteor(["cantaron " + CANDIDATE], [["cantar " + REFERENCE]], stages=["exact", "stem"],
                          language=language)
        found = expected_pairs("cantaron " + CANDIDATE, "cantar " + REFERENCE, stem)[1]
        assert c.matches_per_stage["stem"] == len(found), language


def test_the_default_stages_skip_synonym_for_spanish_and_say_why():
    r = meteor(CANDIDATE, [REFERENCE], language="es")
    assert r.stages == ("exact", "stem") and "synonym" not in r.matches_per_stage
    assert r.notes == (SKIPPED,) and r.language == "es"
    assert "|stages:exact+stem|" in r.signature and "|lang:es|" in r.signature
    d = r.to_dict()
    assert d["notes"] == [SKIPPED] and d["language"] == "es"
    assert f"note: {SKIPPED}" in r.explain()
    c = corpus_meteor([CANDIDATE], [[REFERENCE]], language="es")
    assert c.notes == (SKIPPED,) and c.segments[0].notes == (SKIPPED,) and c.stages == ("exact", "stem")


def test_spanish_stages_without_synonym_have_no_note():
    r = meteor(CANDIDATE, [REFERENCE], stages=["exact", "stem"], language="es")
    assert r.notes == () and r.matches_per_stage == {"exact": 0, "stem": 2}


@pytest.mark.parametrize("stages", [["exact", "synonym"], ["synonym"],
                                    ("exact", "stem", "synonym", "stem:snowball")])
def test_asking_for_the_synonym_stage_in_spanish_is_an_error(stages):
    with pytest.raises(ValueError, match=r"stages: no synonym stage for language 'es' \(no Spanish WordNet"):
        meteor(CANDIDATE, [REFERENCE], stages=stages, language="es")
    with pytest.raises(ValueError, match="no synonym stage for language 'es'"):
        corpus_meteor([CANDIDATE], [[REFERENCE]], stages=stages, language="es")


@pytest.mark.parametrize("name", ["stem:porter", "stem:snowball"])
def test_an_english_stemmer_in_spanish_is_an_error(name):
    message = f"stages: '{name}' is an English stemmer; with language 'es' use 'stem'"
    with pytest.raises(ValueError, match=message):
        meteor(CANDIDATE, [REFERENCE], stages=["exact", name], language="es")


@pytest.mark.parametrize("language", ["fr", "ES", "", "spanish"])
def test_an_unknown_language_is_an_error_listing_the_known_ones(language):
    with pytest.raises(ValueError, match=f"language: unknown value {language!r}; choose one of en, es"):
        meteor(CANDIDATE, [REFERENCE], language=language)
    assert LANGUAGES == ("en", "es")


@pytest.mark.parametrize("language", [None, 1, ["es"]])
def test_a_language_that_is_no_string_is_an_error(language):
    with pytest.raises(ValueError, match=r"^language: unknown value .*; choose one of en, es$"):
        MeteorOptions(language=language)


def test_english_is_unchanged():
    default, english = MeteorOptions(), MeteorOptions(language="en")
    assert default == english and english.signature(1) == default.signature(1)
    assert "lang" not in default.signature(1) and default.notes == ()
    r = meteor("the cats sat", ["the cat sat"], stages=["exact", "stem"])
    assert r.language == "en" and r.notes == () and r.matches_per_stage == {"exact": 2, "stem": 1}
    assert "language" not in r.to_dict() and "notes" not in r.to_dict()
    assert "language" not in r.explain().splitlines()[0]

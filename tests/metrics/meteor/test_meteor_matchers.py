"""METEOR's matching stages: what each matcher accepts, checked against NLTK's own stage functions."""

from __future__ import annotations

import pytest

from mtlearn.core.tokenize import tokenize
from mtlearn.metrics.meteor.matchers import (
    ExactMatcher,
    Matcher,
    PairMatcher,
    PredicateMatcher,
    StemMatcher,
    SynonymMatcher,
    resolve_stages,
    stage_matches,
)
from mtlearn.metrics.meteor.synonyms import WordNetMissingError
from mtlearn.metrics.meteor.wordnet import find_wordnet


def needs_wordnet(test):
    """Marked ``wordnet`` and skipped, with the command that installs it, where NLTK finds none."""
    skip = pytest.mark.skipif(find_wordnet() is None,
                              reason="WordNet for NLTK is not installed (python -m "
                                     "mtlearn.metrics.meteor.wordnet)")
    return pytest.mark.wordnet(skip(test))


@pytest.fixture(scope="module")
def wmt22_words(wmt22) -> list[str]:
    words: set[str] = set()
    for name in ("references/generaltest2022.de-en.ref.A.en",
                 "system-outputs/generaltest2022.de-en.hyp.Online-B.en"):
        for line in (wmt22 / name).read_text(encoding="utf-8").splitlines():
            words.update(tokenize(line.lower(), "13a"))
    return sorted(words)


# ------------------------------------------------------------------ exact and stem


def test_exact_matches_identical_strings_only():
    m = ExactMatcher()
    words = ["cat", "Cat", "cats", "cat ", ""]
    got = {(a, b) for a in words for b in words if stage_matches(m, a, b)}
    assert got == {(w, w) for w in words}


@pytest.mark.wmt22
def test_stems_are_nltks_porter_and_snowball(wmt22_words):
    from nltk.stem.porter import PorterStemmer
    from nltk.stem.snowball import SnowballStemmer

    porter, snowball = PorterStemmer(), SnowballStemmer("english")
    assert [StemMatcher().stem(w) for w in wmt22_words] == [porter.stem(w) for w in wmt22_words]
    assert [StemMatcher("snowball").stem(w) for w in wmt22_words] == [snowball.stem(w) for w in wmt22_words]


@pytest.mark.wmt22
def test_stem_stage_accepts_every_pair_nltks_stem_stage_makes(wmt22):
    from nltk.translate.meteor_score import _enum_stem_match, exact_match

    refs = (wmt22 / "references/generaltest2022.de-en.ref.A.en").read_text(encoding="utf-8").splitlines()
    hyps = (wmt22 / "system-outputs/generaltest2022.de-en.hyp.Online-B.en").read_text(
        encoding="utf-8").splitlines()
    stem = StemMatcher()
    pairs = 0
    for hyp, ref in zip(hyps[:500], refs[:500]):
        h, r = tokenize(hyp.lower(), "13a"), tokenize(ref.lower(), "13a")
        _, h_left, r_left = exact_match(h, r)
        stem_pairs, _, _ = _enum_stem_match(h_left, r_left)
        for i, j in stem_pairs:
            assert stage_matches(stem, h[i], r[j]), (h[i], r[j])
        pairs += len(stem_pairs)
    assert pairs > 100


def test_stem_cache_belongs_to_the_instance():
    a, b = StemMatcher(), StemMatcher()
    a.keys("running")
    assert "running" in a._cache and "running" not in b._cache


def test_snowball_and_porter_differ_where_the_algorithms_do():
    # Porter: generously -> gener, generous -> gener; Snowball keeps generous.
    porter, snowball = StemMatcher(), StemMatcher("snowball")
    assert stage_matches(porter, "generously", "generate")
    assert not stage_matches(snowball, "generously", "generate")


# ------------------------------------------------------------------ synonym


@needs_wordnet
def test_synonym_stage_is_sharing_a_synset():
    from nltk.corpus import wordnet

    syn = SynonymMatcher()
    for a, b in [("car", "automobile"), ("ran", "run"), ("run", "ran"), ("big", "large"), ("quick", "fast")]:
        shared = {s.name() for s in wordnet.synsets(a)} & {s.name() for s in wordnet.synsets(b)}
        assert stage_matches(syn, a, b) == bool(shared) == True, (a, b)  # noqa: E712
    for a, b in [("car", "banana"), ("the", "a"), ("cat", "qwxz")]:
        shared = {s.name() for s in wordnet.synsets(a)} & {s.name() for s in wordnet.synsets(b)}
        assert stage_matches(syn, a, b) == bool(shared) == False, (a, b)  # noqa: E712


@needs_wordnet
@pytest.mark.wmt22
def test_synonym_stage_accepts_every_pair_nltks_relation_accepts(wmt22_words):
    """NLTK: ``ref`` is a lemma name (without ``_``) of a synset of ``hyp``. Such a lemma's
    index entry lists that synset, so the two words share it: our relation contains NLTK's."""
    from nltk.corpus import wordnet

    syn = SynonymMatcher()
    checked = 0
    for hyp in wmt22_words:
        names = {lemma.name() for s in wordnet.synsets(hyp) for lemma in s.lemmas()
                 if "_" not in lemma.name()}
        for ref in names:
            # NLTK compares with the (lowercased) reference word, so only lowercase names can match.
            if ref == ref.lower():
                assert stage_matches(syn, hyp, ref), (hyp, ref)
                checked += 1
    assert checked > 20000


@needs_wordnet
def test_synonym_relation_is_symmetric_where_nltks_is_not():
    from nltk.translate.meteor_score import wordnetsyn_match

    syn = SynonymMatcher()
    # NLTK: "run" is a lemma of a synset of "ran", but "ran" is no lemma name of anything.
    assert len(wordnetsyn_match(["ran"], ["run"])[0]) == 1
    assert len(wordnetsyn_match(["run"], ["ran"])[0]) == 0
    assert stage_matches(syn, "ran", "run") and stage_matches(syn, "run", "ran")


@needs_wordnet
def test_synonym_matcher_takes_an_explicit_index(tmp_path):
    from mtlearn.metrics.meteor.synonyms import load_synonym_index

    index = load_synonym_index(cache=tmp_path)
    syn = SynonymMatcher(index)
    assert syn.index is index
    assert stage_matches(syn, "car", "automobile")
    assert resolve_stages(["synonym"], synonym_index=index)[0].index is index


def test_synonym_without_wordnet_says_how_to_get_it(monkeypatch):
    import nltk.data

    monkeypatch.setattr(nltk.data, "path", [])
    with pytest.raises(WordNetMissingError) as info:
        resolve_stages(["exact", "stem", "synonym"])
    message = str(info.value)
    assert "python -m mtlearn.metrics.meteor.wordnet" in message
    assert "nltk.download('wordnet')" in message
    assert "leave 'synonym' out of stages" in message
    assert isinstance(info.value, LookupError)


def test_synonym_matcher_rejects_a_wrong_index():
    with pytest.raises(TypeError, match="^index: expected a SynonymIndex, got dict"):
        SynonymMatcher({"car": {1}})  # type: ignore[arg-type]


# ------------------------------------------------------------------ user matchers


def test_predicate_matcher_asks_the_callable_with_candidate_first():
    calls = []

    def first_is_longer(a: str, b: str) -> bool:
        calls.append((a, b))
        return len(a) > len(b)

    m = resolve_stages([first_is_longer])[0]
    assert isinstance(m, PredicateMatcher) and m.name == "first_is_longer"
    assert stage_matches(m, "cats", "cat") and not stage_matches(m, "cat", "cats")
    assert calls == [("cats", "cat"), ("cat", "cats")]


def test_lambda_is_named_custom():
    assert resolve_stages(["exact", lambda a, b: a[:3] == b[:3]])[1].name == "custom"


def test_user_keys_matcher_object_is_used_as_given():
    class FirstLetter:
        name = "initial"

        def keys(self, word: str) -> frozenset:
            return frozenset(word[:1])

    m = FirstLetter()
    stages = resolve_stages(["exact", m])
    assert stages[1] is m and isinstance(m, Matcher) and not isinstance(m, PairMatcher)
    assert stage_matches(m, "cat", "cow") and not stage_matches(m, "cat", "dog")


def test_stage_names_and_objects_resolve_in_order():
    stages = resolve_stages(("stem:snowball", "exact", "stem:porter"))
    assert [type(s).__name__ for s in stages] == ["StemMatcher", "ExactMatcher", "StemMatcher"]
    assert [s.name for s in stages] == ["stem:snowball", "exact", "stem"]


def test_a_single_stage_name_is_one_stage():
    assert [s.name for s in resolve_stages("exact")] == ["exact"]


# ------------------------------------------------------------------ bad input, one test each


def test_unknown_stage_name():
    with pytest.raises(ValueError, match=r"^stages: unknown stage 'synonyms'; choose exact, stem"):
        resolve_stages(["exact", "synonyms"])


def test_no_stages():
    with pytest.raises(ValueError, match="^stages: no stages given"):
        resolve_stages([])


def test_stage_given_twice():
    with pytest.raises(ValueError, match="^stages: stage 'stem' appears twice"):
        resolve_stages(["stem", "stem:porter"])


def test_stage_of_wrong_type():
    with pytest.raises(TypeError,
                       match=r"^stages\[1\]: expected a stage name, a Matcher object or a callable, got int"):
        resolve_stages(["exact", 3])


def test_stages_not_a_list():
    with pytest.raises(TypeError, match="^stages: expected a list of stages"):
        resolve_stages(5)  # type: ignore[arg-type]


def test_unknown_stemmer():
    with pytest.raises(ValueError, match="^stemmer: unknown value 'lancaster'"):
        StemMatcher("lancaster")


def test_predicate_returning_a_non_bool():
    m = PredicateMatcher("score", lambda a, b: 0.5)
    with pytest.raises(TypeError, match="^stages: matcher 'score' returned float"):
        m.matches("a", "b")


def test_predicate_matcher_without_a_name():
    with pytest.raises(TypeError, match="^name: expected a non-empty string"):
        PredicateMatcher("", lambda a, b: True)


def test_predicate_matcher_with_a_non_callable():
    with pytest.raises(TypeError, match="^fn: expected a callable"):
        PredicateMatcher("x", "not callable")  # type: ignore[arg-type]

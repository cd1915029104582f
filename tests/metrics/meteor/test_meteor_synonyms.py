"""The compact synonym index: agreement with NLTK's ``wordnet.synsets``, and the cache file's life cycle."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from mtlearn.core.tokenize import tokenize
from mtlearn.metrics.meteor import synonyms
from mtlearn.metrics.meteor.synonyms import (
    SynonymIndex,
    WordNetMissingError,
    build_synonym_index,
    cache_path,
    load_synonym_index,
    shared_synonym_index,
    synset_id,
)
from mtlearn.metrics.meteor.wordnet import find_wordnet

# ------------------------------------------------------------------ agreement with NLTK


@pytest.fixture(scope="module")
def nltk_wordnet():
    if find_wordnet() is None:
        pytest.skip("WordNet for NLTK is not installed (python -m mtlearn.metrics.meteor.wordnet)")
    from nltk.corpus import wordnet

    wordnet.ensure_loaded()
    return wordnet


@pytest.fixture(scope="module")
def index(nltk_wordnet, tmp_path_factory) -> SynonymIndex:
    # Through the cache file (written, then read back), as scoring uses it.
    folder = tmp_path_factory.mktemp("cache")
    load_synonym_index(cache=folder)
    return load_synonym_index(cache=folder)


def nltk_ids(wordnet, word: str) -> frozenset[int]:
    return frozenset(synset_id(s.pos(), s.offset()) for s in wordnet.synsets(word))


def inflections(lemma: str) -> list[str]:
    """Regular and irregular-looking inflections, so every morphy rule is exercised."""
    stem_y = lemma[:-1] + "ies" if lemma.endswith("y") else lemma + "ies"
    return [lemma, lemma.upper(), lemma.capitalize(), lemma + "s", lemma + "es", lemma + "ed",
            lemma + "d", lemma + "ing", lemma[:-1] + "ing", lemma + "er", lemma + "est",
            lemma + "r", lemma + "st", stem_y, lemma[:-1] + "ves", lemma + "men"]


@pytest.mark.wordnet
def test_agrees_with_nltk_on_sampled_lemmas_and_their_inflections(index, nltk_wordnet):
    rng = random.Random(20240601)
    lemmas = sorted({lemma for pos in "nvar" for lemma in index.lemmas[pos]})
    sample = rng.sample(lemmas, 1500)
    words = sorted({form for lemma in sample for form in inflections(lemma)})
    assert len(words) > 15000
    disagree = [w for w in words if index.synsets(w) != nltk_ids(nltk_wordnet, w)]
    assert disagree == []
    # The sample really exercises morphy: many inflected forms have synsets they are not lemmas of.
    inflected = [w for w in words if index.synsets(w) and not any(w in index.lemmas[p] for p in "nvar")]
    assert len(inflected) > 1000


@pytest.mark.wordnet
def test_agrees_with_nltk_on_every_exception_form(index, nltk_wordnet):
    rng = random.Random(7)
    forms = sorted({form for pos in "nvar" for form in index.exceptions[pos]})
    assert len(forms) > 5000  # WordNet 3.0 lists about 6,000 irregular forms
    sample = rng.sample(forms, 2000) + ["ran", "geese", "went", "better", "best", "mice", "children"]
    disagree = [w for w in sample if index.synsets(w) != nltk_ids(nltk_wordnet, w)]
    assert disagree == []


@pytest.mark.wordnet
@pytest.mark.wmt22
def test_agrees_with_nltk_on_every_wmt22_de_en_word(index, nltk_wordnet, wmt22):
    files = [wmt22 / "references" / "generaltest2022.de-en.ref.A.en",
             *sorted((wmt22 / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))]
    assert len(files) == 10
    words: set[str] = set()
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            words.update(tokenize(line.lower(), "13a"))  # case variants: see the inflections test
    assert len(words) > 9000
    disagree = sorted(w for w in words if index.synsets(w) != nltk_ids(nltk_wordnet, w))
    assert disagree == []


@pytest.mark.wordnet
def test_odd_strings_agree_with_nltk(index, nltk_wordnet):
    odd = ["", "s", "es", "ies", "ing", "men", "'s", "-", "3", "1990s", "new_york", "New York",
           "a.m.", "ü", "Straße", "co-operation", "u.s.", "ses", "xes", "ves"]
    assert {w: index.synsets(w) for w in odd} == {w: nltk_ids(nltk_wordnet, w) for w in odd}


@pytest.mark.wordnet
def test_base_forms_are_nltks_morphy(index, nltk_wordnet):
    words = ["dogs", "ran", "churches", "books", "better", "aardwolves", "abaci", "hardrock", "axes"]
    for word in words:
        for pos in "nvar":
            assert index.base_forms(word, pos) == nltk_wordnet._morphy(word, pos), (word, pos)


# ------------------------------------------------------------------ the cache file, on a toy WordNet


def write_toy_wordnet(folder: Path, version: str = "3.0", cat_synsets: str = "00000001") -> Path:
    """A minimal WordNet folder in the real file formats (licence header lines start with a space)."""
    folder.mkdir(parents=True, exist_ok=True)
    header = "  1 toy licence line\n"
    n_cat = len(cat_synsets.split())
    (folder / "index.noun").write_text(
        header + f"cat n {n_cat} 1 @ {n_cat} 0 {cat_synsets}  \n" + "goose n 1 0 1 0 00000002  \n")
    (folder / "index.verb").write_text(header + "run v 1 0 1 0 00000003  \n")
    (folder / "index.adj").write_text(header + "tall a 1 0 1 0 00000004  \n")
    (folder / "index.adv").write_text(header)
    (folder / "noun.exc").write_text("geese goose\n")
    (folder / "verb.exc").write_text("ran run\n")
    (folder / "adj.exc").write_text("")
    (folder / "adv.exc").write_text("")
    (folder / "data.adj").write_text(f"  1 WordNet {version} Copyright 2006 by Princeton University.\n")
    return folder


def test_toy_index_reads_lemmas_exceptions_and_rules(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    index = load_synonym_index(toy, cache=False)
    assert index.wordnet_version == "3.0"
    assert index.synsets("cats") == {synset_id("n", 1)}
    assert index.synsets("geese") == {synset_id("n", 2)}
    assert index.synsets("ran") == index.synsets("runs") == {synset_id("v", 3)}
    assert index.synsets("taller") == index.synsets("tallest") == {synset_id("a", 4)}
    # morphy does not undouble consonants: real WordNet lists "running" in verb.exc.
    assert index.synsets("running") == frozenset()
    assert index.synsets("dog") == frozenset()


def test_cache_file_is_written_once_and_then_read(tmp_path, monkeypatch):
    toy = write_toy_wordnet(tmp_path / "wn")
    first = load_synonym_index(toy, cache=tmp_path / "cache")
    files = list((tmp_path / "cache").iterdir())
    assert [f.name for f in files] == [cache_path(toy, tmp_path / "cache").name]
    # A second load must not rebuild: make building impossible and load again.
    monkeypatch.setattr(synonyms, "build_synonym_index", lambda *a, **k: pytest.fail("rebuilt"))
    second = load_synonym_index(toy, cache=tmp_path / "cache")
    assert second.lemmas == first.lemmas and second.exceptions == first.exceptions


def test_cache_is_rebuilt_when_the_wordnet_version_changes(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn", version="3.0", cat_synsets="00000001")
    cache = tmp_path / "cache"
    assert load_synonym_index(toy, cache=cache).synsets("cat") == {synset_id("n", 1)}
    old_file = cache_path(toy, cache)
    # Version 3.1 with different content but the same file sizes: only the version tells them apart.
    write_toy_wordnet(toy, version="3.1", cat_synsets="00000009")
    new_file = cache_path(toy, cache)
    assert new_file != old_file and "3.1" in new_file.name
    index = load_synonym_index(toy, cache=cache)
    assert index.wordnet_version == "3.1"
    assert index.synsets("cat") == {synset_id("n", 9)}
    assert new_file.is_file()


def test_cache_key_includes_the_format_version(tmp_path, monkeypatch):
    toy = write_toy_wordnet(tmp_path / "wn")
    before = cache_path(toy, tmp_path)
    monkeypatch.setattr(synonyms, "FORMAT_VERSION", synonyms.FORMAT_VERSION + 1)
    assert cache_path(toy, tmp_path) != before


def test_cache_file_with_a_stale_key_is_not_trusted(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn", cat_synsets="00000001")
    cache = tmp_path / "cache"
    load_synonym_index(toy, cache=cache)
    # Someone else's valid cache file (another key) copied under this name must be rebuilt.
    other = write_toy_wordnet(tmp_path / "other", cat_synsets="00000005 00000006")
    load_synonym_index(other, cache=cache)
    cache_path(other, cache).replace(cache_path(toy, cache))
    assert load_synonym_index(toy, cache=cache).synsets("cat") == {synset_id("n", 1)}


@pytest.mark.parametrize("damage", ["empty", "truncated", "flipped byte", "garbage", "wrong magic"])
def test_corrupt_cache_file_is_rebuilt(tmp_path, damage):
    toy = write_toy_wordnet(tmp_path / "wn")
    cache = tmp_path / "cache"
    good = load_synonym_index(toy, cache=cache)
    path = cache_path(toy, cache)
    blob = path.read_bytes()
    damaged = {
        "empty": b"",
        "truncated": blob[: len(blob) // 2],
        "flipped byte": blob[:-3] + bytes([blob[-3] ^ 0xFF]) + blob[-2:],
        "garbage": b"\x00\xff" * 100,
        "wrong magic": b"X" + blob[1:],
    }[damage]
    path.write_bytes(damaged)
    rebuilt = load_synonym_index(toy, cache=cache)
    assert rebuilt.lemmas == good.lemmas and rebuilt.exceptions == good.exceptions
    assert path.read_bytes() == blob  # and the file is whole again


def test_failed_write_leaves_no_file_behind(tmp_path, monkeypatch):
    toy = write_toy_wordnet(tmp_path / "wn")
    cache = tmp_path / "cache"

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(synonyms.os, "replace", crash)
    with pytest.warns(UserWarning, match="cannot write"):
        index = load_synonym_index(toy, cache=cache)
    assert index.synsets("cats") == {synset_id("n", 1)}
    assert list(cache.iterdir()) == []  # neither a half file nor a temporary one


def test_unusable_cache_folder_only_warns(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    with pytest.warns(UserWarning, match="cannot write"):
        index = load_synonym_index(toy, cache=not_a_folder)
    assert index.synsets("geese") == {synset_id("n", 2)}


def test_concurrent_processes_share_one_cache_file(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    cache = tmp_path / "cache"
    script = tmp_path / "worker.py"
    script.write_text(
        "import sys\n"
        "from mtlearn.metrics.meteor.synonyms import cache_path, load_synonym_index\n"
        "wn, cache = sys.argv[1], sys.argv[2]\n"
        "for i in range(30):\n"
        "    assert load_synonym_index(wn, cache=cache).synsets('ran') == {32}\n"
        "    if i % 3 == 0:  # make the others rebuild while this one reads\n"
        "        cache_path(wn, cache).unlink(missing_ok=True)\n"
    )
    procs = [subprocess.Popen([sys.executable, str(script), str(toy), str(cache)],
                              stderr=subprocess.PIPE) for _ in range(4)]
    errors = [p.communicate(timeout=120)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, errors
    leftovers = [f.name for f in cache.iterdir() if f.name.endswith(".tmp")]
    assert leftovers == []


def test_cache_dir_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("MTLEARN_CACHE_DIR", str(tmp_path / "mine"))
    assert synonyms.cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("MTLEARN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert synonyms.cache_dir() == tmp_path / "xdg" / "mtlearn"
    toy = write_toy_wordnet(tmp_path / "wn")
    load_synonym_index(toy)
    assert [f.suffix for f in (tmp_path / "xdg" / "mtlearn").iterdir()] == [".bin"]


def test_shared_index_is_one_object_per_wordnet(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    other = write_toy_wordnet(tmp_path / "other", cat_synsets="00000007")
    a = shared_synonym_index(toy, cache=tmp_path / "c")
    assert shared_synonym_index(toy, cache=tmp_path / "c") is a
    b = shared_synonym_index(other, cache=tmp_path / "c")
    assert b is not a and b.synsets("cat") == {synset_id("n", 7)}


# ------------------------------------------------------------------ missing or broken WordNet


def test_no_wordnet_on_nltks_path_says_how_to_get_it(monkeypatch):
    import nltk.data

    monkeypatch.setattr(nltk.data, "path", [])
    with pytest.raises(WordNetMissingError) as info:
        load_synonym_index(cache=False)
    message = str(info.value)
    assert "nltk.download('wordnet')" in message and "python -m mtlearn.metrics.meteor.wordnet" in message


def test_wordnet_dir_that_is_not_a_folder(tmp_path):
    with pytest.raises(WordNetMissingError, match="wordnet_dir: .* is not a folder"):
        load_synonym_index(tmp_path / "nowhere", cache=False)


def test_incomplete_wordnet_folder(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    (toy / "verb.exc").unlink()
    with pytest.raises(WordNetMissingError, match="incomplete"):
        load_synonym_index(toy, cache=False)


def test_wordnet_without_version_line(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    (toy / "data.adj").write_text("  1 no version here\n00001740 00 a 01 able 0 000 | x\n")
    with pytest.raises(WordNetMissingError, match="names no WordNet version"):
        load_synonym_index(toy, cache=False)


def test_malformed_index_line(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    (toy / "index.adv").write_text("quickly r two 0 1 0 00000001\n")
    with pytest.raises(WordNetMissingError, match=r"index\.adv, line 1"):
        build_synonym_index(toy)


def test_cache_argument_of_wrong_type(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    with pytest.raises(TypeError, match="^cache: "):
        load_synonym_index(toy, cache=3)  # type: ignore[arg-type]

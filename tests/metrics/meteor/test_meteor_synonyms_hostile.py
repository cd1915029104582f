"""Hostile cases for the synonym cache (mtlearn.metrics.meteor.synonyms): it trusts only its owner's file.

An attacker here is a second user on the same machine (tests/second_user.py; the cases that need one run
as root and skip otherwise); the cases a single user can set up (a link planted in one's own folder, a
world-writable folder, a FIFO, a payload of the wrong types) always run. Each subprocess has a time-out,
so a hang (a FIFO read) fails in seconds.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from second_user import STEP_TIMEOUT_S, as_user, shared_folder

from mtlearn.metrics.meteor import wordnet
from mtlearn.metrics.meteor.synonyms import cache_path, load_synonym_index, shared_synonym_index, synset_id

MAGIC = b"MTLEARN-SYNIDX\n"  # the cache file's documented layout: magic, SHA-256 of the payload, payload
CANDIDATE, REFERENCE = "the dog sat on the rug", "the cat sat on the mat"


# ------------------------------------------------------------------ the synonym cache trusts only its owner


def write_toy_wordnet(folder: Path) -> Path:
    """A minimal WordNet folder (the formats of the real files): cat, dog, goose, run, tall."""
    folder.mkdir(parents=True, exist_ok=True)
    header = "  1 toy licence line\n"
    (folder / "index.noun").write_text(header + "cat n 1 0 1 0 00000001  \n" + "dog n 1 0 1 0 00000005  \n"
                                       + "goose n 1 0 1 0 00000002  \n")
    (folder / "index.verb").write_text(header + "run v 1 0 1 0 00000003  \n")
    (folder / "index.adj").write_text(header + "tall a 1 0 1 0 00000004  \n")
    (folder / "index.adv").write_text(header)
    (folder / "noun.exc").write_text("geese goose\n")
    (folder / "verb.exc").write_text("ran run\n")
    (folder / "adj.exc").write_text("")
    (folder / "adv.exc").write_text("")
    (folder / "data.adj").write_text("  1 WordNet 3.0 Copyright 2006 by Princeton University.\n")
    return folder


def rewrite_payload(path: Path, change) -> bytes:
    """The cache file at ``path`` with its payload changed by ``change`` and a valid checksum (a forgery)."""
    blob = path.read_bytes()
    assert blob.startswith(MAGIC)
    key, version, lemmas, exceptions = marshal.loads(blob[len(MAGIC) + 32:])
    payload = marshal.dumps(change(key, version, lemmas, exceptions))
    return MAGIC + hashlib.sha256(payload).digest() + payload


def dog_is_cat(key, version, lemmas, exceptions):
    """A forgery that would raise METEOR: dog and cat share a synset, so do rug and mat."""
    nouns = lemmas[0]
    nouns["dog"] = nouns["dog"] + nouns["cat"]
    if "rug" in nouns:
        nouns["rug"] = nouns["rug"] + nouns["mat"]
    return key, version, lemmas, exceptions


def test_a_file_in_a_folder_others_can_write_is_not_used(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    private = tmp_path / "private"
    load_synonym_index(toy, cache=private)
    forged = rewrite_payload(cache_path(toy, private), dog_is_cat)
    cache_path(toy, private).write_bytes(forged)
    assert load_synonym_index(toy, cache=private).synsets("dog") >= {synset_id("n", 1)}  # the forgery works
    shared = shared_folder(tmp_path)
    cache_path(toy, shared).write_bytes(forged)
    with pytest.warns(UserWarning, match=r"writable by other users; the synonym index is rebuilt in memory"):
        index = load_synonym_index(toy, cache=shared)
    assert index.synsets("dog") == {synset_id("n", 5)}
    assert cache_path(toy, shared).read_bytes() == forged  # nothing written where others can change it


def test_the_warning_comes_once_per_process(tmp_path, recwarn):
    toy = write_toy_wordnet(tmp_path / "wn")
    shared = shared_folder(tmp_path)
    for _ in range(3):
        shared_synonym_index(toy, cache=shared)
    assert len([w for w in recwarn if "not using" in str(w.message)]) == 1


def test_another_users_file_in_ones_own_folder_is_not_used(tmp_path, attacker):
    toy = write_toy_wordnet(tmp_path / "wn")
    cache = tmp_path / "cache"
    load_synonym_index(toy, cache=cache)
    path = cache_path(toy, cache)
    path.write_bytes(rewrite_payload(path, dog_is_cat))
    os.chown(path, attacker.uid, -1)
    with pytest.warns(UserWarning, match=rf"belongs to another user \(uid {attacker.uid}\)"):
        index = load_synonym_index(toy, cache=cache)
    assert index.synsets("dog") == {synset_id("n", 5)}
    assert path.stat().st_uid == os.geteuid()  # replaced by an honest file of one's own


def test_a_link_under_the_cache_name_is_not_followed(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    cache = tmp_path / "cache"
    load_synonym_index(toy, cache=cache)
    path = cache_path(toy, cache)
    elsewhere = tmp_path / "forged.bin"
    elsewhere.write_bytes(rewrite_payload(path, dog_is_cat))
    path.unlink()
    path.symlink_to(elsewhere)
    with pytest.warns(UserWarning, match="is a link"):
        index = load_synonym_index(toy, cache=cache)
    assert index.synsets("dog") == {synset_id("n", 5)}
    assert not path.is_symlink() and elsewhere.read_bytes() != path.read_bytes()


def test_a_fifo_under_the_cache_name_does_not_hang(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    os.mkfifo(cache_path(toy, cache))
    script = ("import sys, warnings\n"
              "from mtlearn.metrics.meteor.synonyms import load_synonym_index\n"
              "warnings.simplefilter('always')\n"
              "print(sorted(load_synonym_index(sys.argv[1], cache=sys.argv[2]).synsets('geese')))\n")
    done = subprocess.run([sys.executable, "-c", script, str(toy), str(cache)], capture_output=True,
                          text=True, timeout=STEP_TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str([synset_id("n", 2)])
    assert "is not a regular file" in done.stderr


@pytest.mark.parametrize("damage", ["int for a tuple", "str for an id", "list for a dict", "wrong shape"])
def test_a_payload_of_the_wrong_types_is_rebuilt_with_a_warning(tmp_path, damage):
    toy = write_toy_wordnet(tmp_path / "wn")
    cache = tmp_path / "cache"
    good = load_synonym_index(toy, cache=cache)
    path = cache_path(toy, cache)

    def spoil(key, version, lemmas, exceptions):
        if damage == "int for a tuple":
            lemmas[0]["cat"] = 7
        elif damage == "str for an id":
            lemmas[0]["cat"] = ("11",)
        elif damage == "list for a dict":
            exceptions[1] = [("ran", "run")]
        else:
            return key, version, lemmas
        return key, version, lemmas, exceptions

    path.write_bytes(rewrite_payload(path, spoil))
    with pytest.warns(UserWarning, match="not using .*: it holds"):
        index = load_synonym_index(toy, cache=cache)
    assert index.lemmas == good.lemmas and index.exceptions == good.exceptions
    assert index.synsets("cats") == {synset_id("n", 1)} and index.synsets("ran") == {synset_id("v", 3)}


def test_stale_temporaries_and_older_keys_are_removed(tmp_path):
    toy = write_toy_wordnet(tmp_path / "wn")
    cache = tmp_path / "cache"
    load_synonym_index(toy, cache=cache)
    current = cache_path(toy, cache)
    stem, tag, digest = current.name.rsplit("-", 2)
    older_key = cache / f"{stem}-{tag}-{'0' * 16}.bin"
    old_naming = cache / f"synonyms-wordnet-3.0-v1-{'1' * 16}.bin"
    other_wordnet = cache / f"{stem}-{'f' * 8}-{'2' * 16}.bin"
    crashed = cache / f".{current.name}.abc123.tmp"
    in_progress = cache / f".{current.name}.def456.tmp"
    for path in (older_key, old_naming, other_wordnet, crashed, in_progress):
        path.write_bytes(b"x")
    an_hour_ago = time.time() - 3600
    os.utime(crashed, (an_hour_ago, an_hour_ago))
    current.unlink()  # the next load writes a new file, and tidies up
    load_synonym_index(toy, cache=cache)
    assert (sorted(p.name for p in cache.iterdir())
            == sorted([current.name, other_wordnet.name, in_progress.name]))


def meteor_in_a_fresh_process(cache: Path) -> tuple[float, str]:
    """METEOR of the dog/cat pair with ``MTLEARN_CACHE_DIR=cache`` (a new process: no index in memory)."""
    script = (f"import mtlearn\nprint(repr(mtlearn.meteor({CANDIDATE!r}, [{REFERENCE!r}]).score))\n")
    env = {**os.environ, "MTLEARN_CACHE_DIR": str(cache), "PYTHONWARNINGS": "always"}
    env.pop("XDG_CACHE_HOME", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          timeout=STEP_TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    return float(done.stdout), done.stderr


@pytest.fixture(scope="module")
def real_wordnet():
    if wordnet.find_wordnet() is None:
        pytest.skip("WordNet for NLTK is not installed (python -m mtlearn.metrics.meteor.wordnet)")


def test_as_root_another_users_forged_file_in_a_shared_cache_does_not_change_meteor(
        real_wordnet, public_tmp, attacker):
    # The reproducer: MTLEARN_CACHE_DIR on a world-writable folder, the attacker's well-formed file in it.
    private = public_tmp / "private"
    honest, _ = meteor_in_a_fresh_process(private)
    forged = public_tmp / "forged.bin"
    forged.write_bytes(rewrite_payload(cache_path(directory=private), dog_is_cat))
    forged.chmod(0o644)
    cache_path(directory=private).write_bytes(forged.read_bytes())
    fooled, _ = meteor_in_a_fresh_process(private)
    assert fooled > honest  # the forgery would work if the file were trusted
    shared = shared_folder(public_tmp)
    as_user(attacker, "cp", str(forged), str(cache_path(directory=shared)))
    score, warning = meteor_in_a_fresh_process(shared)
    assert score == honest
    assert "not using" in warning and "writable by other users" in warning


def test_a_well_typed_payload_of_the_wrong_types_does_not_break_the_command_line(real_wordnet, tmp_path):
    # The reproducer: "mtlearn: error: 'int' object is not iterable".
    cache = tmp_path / "cache"
    honest, _ = meteor_in_a_fresh_process(cache)
    path = cache_path(directory=cache)

    def ints(key, version, lemmas, exceptions):
        lemmas[0]["dog"] = 2084071
        return key, version, lemmas, exceptions

    path.write_bytes(rewrite_payload(path, ints))
    (tmp_path / "c.txt").write_text(CANDIDATE + "\n")
    (tmp_path / "r.txt").write_text(REFERENCE + "\n")
    env = {**os.environ, "MTLEARN_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-m", "mtlearn", "meteor", "-i", str(tmp_path / "c.txt"),
                           "-r", str(tmp_path / "r.txt"), "--scale", "1"], capture_output=True, text=True,
                          env=env, timeout=STEP_TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    assert "not iterable" not in done.stderr and "entries of the wrong types" in done.stderr
    assert f"{honest:.4f}" in done.stdout

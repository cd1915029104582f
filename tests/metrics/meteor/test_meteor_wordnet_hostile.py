"""Hostile cases for WordNet's set-up (mtlearn.metrics.meteor.wordnet): it never follows a planted link.

An attacker here is a second user on the same machine (tests/second_user.py; the cases that need one run
as root and skip otherwise); the cases a single user can set up (a link planted in one's own folder, a
world-writable folder) always run. Each subprocess has a time-out.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest
from second_user import as_user, shared_folder

from mtlearn.metrics.meteor import wordnet

# ------------------------------------------------------------------ set-up: never follow a planted link


def small_source(folder: Path) -> Path:
    """A stand-in for /usr/sbin/wordnet: every file build_from_debian copies, a few bytes each."""
    folder.mkdir(parents=True)
    for name in wordnet.REQUIRED_FILES:
        (folder / name).write_text(f"{name} from the source\n")
    return folder


def victim_file(folder: Path) -> Path:
    """A private file (root's, when the tests run as root) that set-up must never write to."""
    victim = folder / "victim"
    victim.write_text("private\n")
    victim.chmod(0o600)
    return victim


def test_a_link_planted_in_the_target_is_replaced_not_followed(tmp_path):
    source, victim = small_source(tmp_path / "src"), victim_file(tmp_path)
    corpus = tmp_path / "T" / "corpora" / "wordnet"
    corpus.mkdir(parents=True)
    (corpus / "lexnames").symlink_to(victim)
    assert wordnet.build_from_debian(source, tmp_path / "T") == corpus
    assert victim.read_text() == "private\n" and stat.S_IMODE(victim.stat().st_mode) == 0o600
    assert not (corpus / "lexnames").is_symlink()
    assert (corpus / "lexnames").read_text() == wordnet.lexnames_text()


def test_a_dangling_link_does_not_create_a_file_at_its_target(tmp_path):
    source = small_source(tmp_path / "src")
    corpus = tmp_path / "T" / "corpora" / "wordnet"
    corpus.mkdir(parents=True)
    (corpus / "data.noun").symlink_to(tmp_path / "planted")
    wordnet.build_from_debian(source, tmp_path / "T")
    assert not (tmp_path / "planted").exists()
    assert not (corpus / "data.noun").is_symlink()
    assert (corpus / "data.noun").read_text() == "data.noun from the source\n"
    assert not [p.name for p in corpus.iterdir() if p.name.endswith(".tmp")]


def test_set_up_removes_what_a_crashed_run_left_but_not_a_running_ones(tmp_path):
    source = small_source(tmp_path / "src")
    corpus = tmp_path / "T" / "corpora" / "wordnet"
    corpus.mkdir(parents=True)
    crashed = corpus / f".data.noun.mtlearn-{'a' * 16}.tmp"
    running = corpus / f".data.adj.mtlearn-{'b' * 16}.tmp"
    crashed.write_text("half")
    running.write_text("half")
    an_hour_ago = time.time() - 3600
    os.utime(crashed, (an_hour_ago, an_hour_ago))
    wordnet.build_from_debian(source, tmp_path / "T")
    assert not crashed.exists() and running.exists()


def test_a_link_in_place_of_a_folder_is_refused(tmp_path):
    source = small_source(tmp_path / "src")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "T").mkdir()
    (tmp_path / "T" / "corpora").symlink_to(elsewhere)
    with pytest.raises(wordnet.UnsafeTargetError, match="is a link or not a folder"):
        wordnet.build_from_debian(source, tmp_path / "T")
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("where", ["in a world-writable folder", "world-writable itself"])
def test_a_target_others_can_write_to_is_refused(tmp_path, where):
    source = small_source(tmp_path / "src")
    shared = shared_folder(tmp_path, 0o777)
    target = shared / "T" if where == "in a world-writable folder" else shared
    with pytest.raises(wordnet.UnsafeTargetError, match="writable by other users"):
        wordnet.build_from_debian(source, target)
    assert not (shared / "T").exists() and not (shared / "corpora").exists()


def test_the_command_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    shared = shared_folder(tmp_path, 0o777)
    source, real_ensure = small_source(tmp_path / "src"), wordnet.ensure_wordnet
    monkeypatch.setattr(wordnet, "find_wordnet", lambda search_path=None: None)  # as on a fresh machine
    monkeypatch.setattr(wordnet, "_nltk_path", lambda: [])
    monkeypatch.setattr(wordnet, "ensure_wordnet",
                        lambda **options: real_ensure(debian_source=source, **options))
    status = wordnet.main(["--target", str(shared / "T"), "--no-download", "--no-apt"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.count("\n") == 1 and err.startswith("mtlearn: error: refusing to write WordNet into "), err
    assert "Traceback" not in err and "--target" in err


def test_nltks_downloader_is_not_pointed_at_a_folder_others_can_write(tmp_path, monkeypatch):
    shared = shared_folder(tmp_path, 0o777)
    monkeypatch.setattr(wordnet, "find_wordnet", lambda search_path=None: None)
    monkeypatch.setattr(wordnet, "_nltk_path", lambda: [])
    monkeypatch.setattr(wordnet, "try_nltk_download", lambda target: pytest.fail("downloading into it"))
    with pytest.raises(wordnet.UnsafeTargetError, match="writable by other users"):
        wordnet.ensure_wordnet(target=shared / "T", allow_apt=False, debian_source=tmp_path / "none",
                               log=lambda _m: None)


def test_a_target_that_cannot_be_made_is_one_line_saying_what_to_do(tmp_path, monkeypatch, capsys):
    if not Path("/proc/self").is_dir():
        pytest.skip("needs /proc (a folder no one can make folders in)")
    source, real_ensure = small_source(tmp_path / "src"), wordnet.ensure_wordnet
    monkeypatch.setattr(wordnet, "find_wordnet", lambda search_path=None: None)
    monkeypatch.setattr(wordnet, "_nltk_path", lambda: [])
    monkeypatch.setattr(wordnet, "ensure_wordnet",
                        lambda **options: real_ensure(debian_source=source, **options))
    assert wordnet.main(["--target", "/proc/mtlearn-nltk", "--no-download", "--no-apt"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mtlearn: error: cannot write WordNet into "
                                                   "/proc/mtlearn-nltk")
    assert "--target DIR" in err


def test_as_root_a_target_made_by_another_user_is_refused(public_tmp, attacker):
    # The reproducer: T/corpora/wordnet/lexnames -> a root-owned 0600 file; data.noun dangling.
    source, victim = small_source(public_tmp / "src"), victim_file(public_tmp)
    shared = shared_folder(public_tmp)
    corpus = shared / "T" / "corpora" / "wordnet"
    as_user(attacker, "mkdir", "-p", str(corpus))
    as_user(attacker, "ln", "-s", str(victim), str(corpus / "lexnames"))
    as_user(attacker, "ln", "-s", str(public_tmp / "planted"), str(corpus / "data.noun"))
    with pytest.raises(wordnet.UnsafeTargetError, match=r"belongs to another user"):
        wordnet.build_from_debian(source, shared / "T")
    assert victim.read_text() == "private\n" and victim.stat().st_uid == 0
    assert not (public_tmp / "planted").exists()


def test_as_root_a_link_made_by_another_user_as_the_target_is_refused(public_tmp, attacker):
    source = small_source(public_tmp / "src")
    shared = shared_folder(public_tmp)
    mine = public_tmp / "mine"
    mine.mkdir()
    as_user(attacker, "ln", "-s", str(mine), str(shared / "T"))
    with pytest.raises(wordnet.UnsafeTargetError, match="a link made by another user"):
        wordnet.build_from_debian(source, shared / "T")
    assert list(mine.iterdir()) == []

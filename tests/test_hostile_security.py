"""Hostile cases for the set-up, the synonym cache and the workshop server (issue 15, section 1).

An attacker here is a second user on the same machine. When the tests run as
root, the session makes one with ``useradd`` (removed at the end) and runs the
attacker's steps as that user with ``runuser``; the victim is the test process
(root, as ``make setup`` in a container is). Not as root, those cases skip with
the reason, and the cases a single user can set up (a link planted in one's own
folder, a world-writable folder, a FIFO, a payload of the wrong types) still run.
Each subprocess has a time-out, so a hang (a FIFO read) fails in seconds.

For the workshop server the attacker is a participant who has the token
(``workshop_client.py`` plays one): they ask for every place, talk to their
kernel's websocket in the legacy protocol or send it a malformed frame, or are
sent to the server by another site. Where an exchange could hang the server, the
test checks that ``/login`` still answers within seconds and kills the server if not.
"""

from __future__ import annotations

import asyncio
import hashlib
import marshal
import os
import pwd
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Optional

import pytest
import workshop_client as client
from repo_paths import REPO

from mtlearn.metrics.meteor import wordnet
from mtlearn.metrics.meteor.synonyms import cache_path, load_synonym_index, shared_synonym_index, synset_id
from mtlearn.tools import workshop

MAGIC = b"MTLEARN-SYNIDX\n"  # the cache file's documented layout: magic, SHA-256 of the payload, payload
CANDIDATE, REFERENCE = "the dog sat on the rug", "the cat sat on the mat"
STEP_TIMEOUT_S = 60


# ----------------------------------------------------------------- the second user, and places both can reach


@dataclass(frozen=True)
class User:
    name: str
    uid: int


@pytest.fixture(scope="session")
def attacker() -> Iterator[User]:
    """A second user, made with ``useradd`` for this session (root only), removed afterwards."""
    if os.geteuid() != 0:
        pytest.skip("a second user needs root (useradd, runuser); these tests run as uid %d" % os.geteuid())
    if shutil.which("useradd") is None or shutil.which("runuser") is None:
        pytest.skip("useradd or runuser is not installed")
    name = f"mtlh{os.getpid()}"
    made = subprocess.run(["useradd", "--system", "--no-create-home", "--user-group",
                           "--shell", "/usr/sbin/nologin", name], capture_output=True, text=True, timeout=30)
    if made.returncode != 0:
        pytest.skip(f"useradd failed: {made.stderr.strip()}")
    try:
        yield User(name, pwd.getpwnam(name).pw_uid)
    finally:
        subprocess.run(["userdel", name], capture_output=True, timeout=30)


def as_user(user: User, *argv: str) -> None:
    """Run ``argv`` as ``user`` (the attacker's step)."""
    done = subprocess.run(["runuser", "-u", user.name, "--", *argv], capture_output=True, text=True,
                          timeout=STEP_TIMEOUT_S)
    assert done.returncode == 0, f"{argv} as {user.name}: {done.stderr}"


@pytest.fixture
def public_tmp() -> Iterator[Path]:
    """A folder every user can enter (pytest's own tmp_path is private to its owner)."""
    folder = Path(tempfile.mkdtemp(prefix="mtlearn-hostile-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def shared_folder(parent: Path, mode: int = 0o1777) -> Path:
    """A folder everyone may write to (sticky, like /tmp, by default)."""
    folder = parent / "shared"
    folder.mkdir()
    folder.chmod(mode)
    return folder


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
    """The forgery of the issue: dog and cat share a synset, so do rug and mat."""
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
    """METEOR of the issue's pair with ``MTLEARN_CACHE_DIR=cache`` (a new process: no index in memory)."""
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


# ------------------------------------------------------------------ the workshop server
#
# One server for the module (what ``make workshop`` runs), with 2 places, 1 per client and its own
# kernel limits; each test opens the pages it needs and shuts their kernels down. A test whose
# exchange could hang the server checks that /login still answers, and kills the server if not.

WORKSHOP_PLACES, PLACES_PER_CLIENT, KERNEL_CPU_S, KERNEL_MEMORY_MB = 2, 1, 900, 768
ANSWER_TIMEOUT_S = 10


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def kernel_processes(pid: int) -> list:
    """The kernels running under the server ``pid`` (psutil processes)."""
    psutil = pytest.importorskip("psutil")
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    found = []
    for child in children:
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            pass
    return found


def kernels_of(pid: int) -> int:
    """How many kernels run under the server ``pid``."""
    return len(kernel_processes(pid))


def get(url: str) -> tuple[int, str]:
    """Status and final URL of a GET (redirects followed), waiting for the whole page."""
    try:
        with urllib.request.urlopen(url, timeout=STEP_TIMEOUT_S) as response:
            response.read()
            return response.status, response.url
    except urllib.error.HTTPError as error:
        return error.code, url


def page(base: str, token: Optional[str], *, source: str = "127.0.0.1",
         headers: Optional[dict[str, str]] = None) -> client.Answer:
    """The workshop page, asked for from ``source`` (with the token in the URL unless ``token`` is None)."""
    return client.request(base, "/" if token is None else f"/?token={token}", source=source, headers=headers)


def shut_down(base: str, token: str, *answers: client.Answer) -> None:
    """Shut down the kernels of the pages ``answers`` (jupyter_server's REST API, token in the header)."""
    for answer in answers:
        if answer.status == 200 and answer.kernel_id:
            done = client.request(base, f"/api/kernels/{answer.kernel_id}", method="DELETE",
                                  headers={"Authorization": f"token {token}"})
            assert done.status in (204, 404), (done.status, done.reason)


def assert_server_answers(base: str, process: subprocess.Popen) -> None:
    """/login answers within ANSWER_TIMEOUT_S; if not, the server is killed (it would spin on) and the test
    fails."""
    try:
        status = client.request(base, "/login", timeout=ANSWER_TIMEOUT_S).status
    except OSError as error:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"the server stopped answering: /login gave {error!r} (the server was killed)")
    assert status == 200


def server_rss(process: subprocess.Popen) -> int:
    psutil = pytest.importorskip("psutil")
    return psutil.Process(process.pid).memory_info().rss


@pytest.fixture(scope="module")
def workshop_server(tmp_path_factory) -> Iterator[tuple[str, str, subprocess.Popen, Path]]:
    """``python -m mtlearn.tools.workshop`` (what ``make workshop`` runs), small caps and limits; always
    stopped."""
    pytest.importorskip("voila")
    tmp = tmp_path_factory.mktemp("workshop")
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("JUPYTER_TOKEN", None)  # Voilà makes one and prints it, as for "make workshop"
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        env[name] = str(tmp / name.lower())
    log = tmp / "voila.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "mtlearn.tools.workshop", str(REPO / "notebooks" / "workshop.ipynb"),
             f"--port={port}", f"--max-kernels={WORKSHOP_PLACES}",
             f"--max-kernels-per-client={PLACES_PER_CLIENT}",
             f"--kernel-cpu-seconds={KERNEL_CPU_S}", f"--kernel-memory-mb={KERNEL_MEMORY_MB}",
             "--no-browser", "--Voila.port_retries=0"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=tmp, env=env,
            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        printed = None
        while printed is None:
            assert process.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
            printed = re.search(rf"{re.escape(base)}/\?token=([0-9a-f]+)", log.read_text(errors="replace"))
        yield base, printed.group(1), process, log
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def test_workshop_server_prints_the_url_with_a_long_token(workshop_server):
    _base, token, _process, _log = workshop_server
    assert len(token) >= 32  # the fixture found it in the printed URL


def test_workshop_page_needs_the_token_places_are_capped_and_kernels_limited(workshop_server):
    # The reproducer: one token holder asked for every place at once and got them all. The kernels
    # started meanwhile run with the server's CPU and memory limits.
    psutil = pytest.importorskip("psutil")
    base, token, process, log = workshop_server
    status, final = get(f"{base}/")
    assert status == 200 and "/login" in final  # the login page, not the app
    assert kernels_of(process.pid) == 0
    opened: list[client.Answer] = []
    try:
        with ThreadPoolExecutor(3) as pool:
            first = list(pool.map(lambda _: page(base, token), range(3)))  # one client, three pages at once
        opened += first
        assert sorted(a.status for a in first) == [200, 429, 429], [(a.status, a.reason) for a in first]
        assert all("workshop pages open" in a.reason for a in first if a.status == 429)
        opened.append(page(base, token, source="127.0.0.2"))  # another client still gets a place
        assert opened[-1].status == 200 and opened[-1].kernel_id
        last = page(base, token, source="127.0.0.3")
        assert last.status == 503 and "places are taken" in last.reason
        kernels = kernel_processes(process.pid)
        assert len(kernels) == WORKSHOP_PLACES
        for kernel in kernels:
            assert kernel.rlimit(psutil.RLIMIT_CPU) == (KERNEL_CPU_S, KERNEL_CPU_S + 10)
            assert kernel.rlimit(psutil.RLIMIT_DATA) == (KERNEL_MEMORY_MB * 2**20,) * 2
            assert kernel.rlimit(psutil.RLIMIT_CORE) == (0, 0)
    finally:
        shut_down(base, token, *opened)
    text = log.read_text(errors="replace")
    assert f"Culling kernels with idle durations > {workshop.CULL_IDLE_TIMEOUT_S} seconds at " \
           f"{workshop.CULL_INTERVAL_S} second intervals" in text


def test_on_the_loopback_each_user_account_is_a_client(workshop_server, attacker):
    # Everyone on this machine (or through an SSH tunnel) comes from 127.0.0.1: the account tells them apart.
    python = Path("/usr/bin/python3")  # one the other user may run (the venv's may sit in root's home)
    if not python.is_file():
        pytest.skip("no /usr/bin/python3 for the second user")
    base, token, _process, _log = workshop_server
    script = ("import http.client, re, sys\n"
              "c = http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]), timeout=60)\n"
              "c.request('GET', '/?token=' + sys.argv[2])\n"
              "r = c.getresponse()\n"
              "found = re.search(r'\"kernelId\": \"([0-9a-f-]{36})\"', r.read().decode())\n"
              "print(r.status, found.group(1) if found else '')\n")
    mine = page(base, token)
    theirs = ""
    try:
        assert mine.status == 200
        assert page(base, token).status == 429  # my place is taken
        done = subprocess.run(["runuser", "-u", attacker.name, "--", str(python), "-c", script,
                               base.rsplit(":", 1)[1], token], capture_output=True, text=True,
                              timeout=STEP_TIMEOUT_S)
        status, _, theirs = done.stdout.strip().partition(" ")
        assert status == "200", done.stdout + done.stderr  # theirs is not
    finally:
        shut_down(base, token, mine)
        if theirs:
            client.request(base, f"/api/kernels/{theirs}", method="DELETE",
                           headers={"Authorization": f"token {token}"})


def test_a_legacy_kernel_websocket_is_refused_and_the_server_keeps_answering(workshop_server):
    # The reproducer: the widgets' state asked for over the legacy protocol (no subprotocol); Voilà read
    # the binary answer as v1 and looped ~1e17 times on the server's only thread.
    base, token, process, _log = workshop_server
    opened = page(base, token)
    try:
        assert opened.status == 200 and opened.kernel_id
        before = server_rss(process)
        status = client.refused_handshake(base, token, opened.kernel_id)
        assert_server_answers(base, process)
        assert status == 400
        assert server_rss(process) - before < 64 * 2**20
    finally:
        shut_down(base, token, opened)


def test_a_v1_kernel_websocket_works_its_sliders_stay_in_range_and_a_malformed_frame_closes_it(
        workshop_server):
    base, token, process, _log = workshop_server
    opened = page(base, token)

    async def exchange(kernel_id: str) -> tuple[dict, dict, Optional[int]]:
        conn = await client.connect(base, token, kernel_id, v1=True)
        try:
            states = await client.request_states(conn, v1=True)
            assert states is not None, "no widget state came"
            # A page's widget message moving chrF's char-order slider to 1e9 (it pinned the kernel).
            slider = client.model_with_class(states, "mtlearn-char-order")
            await client.update_widget(conn, slider, {"max": 10**9, "value": 10**9})
            after = await client.request_states(conn, v1=True)  # answered once the update is done
            # A frame stating 1e17 offsets: jupyter_server's reader would loop over them all.
            code = await client.closes_after(conn, (10**17).to_bytes(8, "little") + bytes(64))
        finally:
            conn.close()
        return states, after[slider]["state"], code

    try:
        assert opened.status == 200 and opened.kernel_id
        states, slider, code = asyncio.run(exchange(opened.kernel_id))
        assert_server_answers(base, process)
        classes = {c for s in states.values() for c in s["state"].get("_dom_classes", ())}
        assert {"mtlearn-bleu-explorer", "mtlearn-meteor-explorer", "mtlearn-chrf-explorer",
                "mtlearn-ter-explorer"} <= classes
        assert any(s["model_name"] == "ImageModel" for s in states.values())  # the binary answers came
        assert (slider["max"], slider["value"]) == (10, 10)
        assert code == 1007
    finally:
        shut_down(base, token, opened)


def test_a_cross_site_navigation_without_the_token_starts_no_kernel(workshop_server):
    # The reproducer: a GET with the login cookie alone, marked cross-site, started a kernel.
    base, token, process, _log = workshop_server
    login = client.request(base, f"/login?token={token}")  # the cookie a participant's browser holds
    assert login.status == 302 and login.cookies
    cookie = client.cookie_header(login)
    before = kernels_of(process.pid)
    for site in ("cross-site", "same-site"):
        refused = page(base, None, headers={"Cookie": cookie, "Sec-Fetch-Site": site,
                                            "Sec-Fetch-Mode": "navigate"})
        assert (refused.status == 403
                and "another site" in refused.reason), (site, refused.status, refused.reason)
    assert kernels_of(process.pid) == before


def test_the_login_cookie_is_samesite_lax_and_lasts_a_workshop_day(workshop_server):
    # The reproducer: the login cookie lasted 30 days, with no SameSite.
    base, token, _process, _log = workshop_server
    login = client.request(base, f"/login?token={token}")
    (morsel,) = login.cookies.values()
    assert morsel["samesite"] == "Lax" and morsel["httponly"]
    lasts = parsedate_to_datetime(morsel["expires"]) - datetime.now(timezone.utc)
    assert (timedelta(hours=workshop.LOGIN_HOURS - 1) < lasts
            <= timedelta(hours=workshop.LOGIN_HOURS, minutes=1))


def test_closing_a_page_frees_its_place_at_once(workshop_server):
    # A shared link (another site, the token in the URL) opens the page; the page's shutdown request
    # (Voilà sends it when the page closes, with the _xsrf cookie) frees the place: with one place
    # per client, the reload after it gets a kernel at once.
    base, token, process, _log = workshop_server
    shared = page(base, token, headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
    reload = None
    try:
        assert shared.status == 200 and shared.kernel_id
        assert "_xsrf" in shared.cookies
        cookie = client.cookie_header(shared)
        closed = client.request(base, f"/voila/api/shutdown/{shared.kernel_id}", method="POST",
                                headers={"Cookie": cookie}, form={"_xsrf": shared.cookies["_xsrf"].value})
        assert closed.status == 204, (closed.status, closed.reason)
        reload = page(base, None, headers={"Cookie": cookie, "Sec-Fetch-Site": "same-origin"})
        assert reload.status == 200 and reload.kernel_id, (reload.status, reload.reason)
        assert kernels_of(process.pid) == 1
    finally:
        shut_down(base, token, shared, *([reload] if reload is not None else []))


def test_make_workshop_runs_the_capped_server():
    dry = subprocess.run(["make", "-n", "workshop"], cwd=REPO, capture_output=True, text=True, timeout=30)
    if dry.returncode != 0 or shutil.which("make") is None:
        pytest.skip(f"make -n workshop failed: {dry.stderr.strip()}")
    lines = [line for line in dry.stdout.splitlines() if "mtlearn.tools.workshop" in line]
    assert len(lines) == 1 and "notebooks/workshop.ipynb" in lines[0], dry.stdout
    options = workshop.voila_argv("notebooks/workshop.ipynb")
    assert "--token" in options and "--Voila.ip=127.0.0.1" in options
    assert (f"--VoilaConfiguration.multi_kernel_manager_class={workshop.__name__}.CappedKernelManager"
            in options)


def test_readme_states_the_workshop_settings():
    text = " ".join((REPO / "README.md").read_text().split())
    assert f"shut down after {workshop.CULL_IDLE_TIMEOUT_S // 60} minutes" in text
    assert f"at most {workshop.MAX_KERNELS} run at once" in text
    assert f"at most {workshop.MAX_KERNELS_PER_CLIENT} for one participant" in text
    assert (f"{workshop.KERNEL_CPU_SECONDS // 60} CPU minutes and {workshop.KERNEL_MEMORY_BYTES // 2**30} GB"
            in text)
    assert f"the login cookie lasts {workshop.LOGIN_HOURS} hours" in text


def test_make_workshop_passes_the_places_per_participant():
    dry = subprocess.run(["make", "-n", "workshop", "WORKSHOP_KERNELS_PER_CLIENT=0"], cwd=REPO,
                         capture_output=True, text=True, timeout=30)
    if dry.returncode != 0:
        pytest.skip(f"make -n workshop failed: {dry.stderr.strip()}")
    assert "--max-kernels-per-client=0" in dry.stdout
    assert (f"WORKSHOP_KERNELS_PER_CLIENT ?= {workshop.MAX_KERNELS_PER_CLIENT}"
            in (REPO / "Makefile").read_text())

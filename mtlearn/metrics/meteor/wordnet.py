"""Make WordNet available to NLTK, also on machines without internet.

METEOR's synonym stage needs WordNet. ``ensure_wordnet()`` tries, in order:

1. WordNet that NLTK already finds (``nltk.data.path``);
2. Debian's WordNet 3.0 in ``/usr/share/wordnet`` (packages ``wordnet-base`` and
   ``wordnet-sense-index``) copied into an NLTK corpus folder — no network needed;
3. ``nltk.download("wordnet")`` (needs the internet);
4. as root with ``apt-get``: install those two Debian packages, then step 2;

and otherwise stops with a :class:`WordNetMissingError` that says exactly what to do.

Set-up often runs as root (``make setup`` in a container), so it never follows a
link it did not expect: every file is written as a fresh temporary file in a
folder it opened without following links and checked (owned by the current user,
not writable by anyone else), then renamed into place; a target folder that
another user could change is refused with an :class:`UnsafeTargetError`.
The corpus folder goes to ``<virtual environment>/nltk_data`` when running inside a
virtual environment (NLTK searches ``sys.prefix/nltk_data``, so nothing outside the
environment is touched), else to ``~/nltk_data``.

Command line: ``python -m mtlearn.metrics.meteor.wordnet`` (``--help`` for options).

>>> LEXNAMES[0], LEXNAMES[3], LEXNAMES[44], len(LEXNAMES)
(('adj.all', 3), ('noun.Tops', 1), ('adj.ppl', 3), 45)
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import secrets
import shutil
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

DEBIAN_WORDNET = Path("/usr/share/wordnet")
DEBIAN_PACKAGES = ("wordnet-base", "wordnet-sense-index")

# NLTK reads these at load time; Debian's packages ship all but ``lexnames``.
REQUIRED_FILES = (
    "data.adj", "data.adv", "data.noun", "data.verb",
    "index.adj", "index.adv", "index.noun", "index.verb", "index.sense",
    "adj.exc", "adv.exc", "noun.exc", "verb.exc",
)
OPTIONAL_FILES = ("cntlist.rev", "cntlist", "verb.Framestext", "sentidx.vrb", "sents.vrb", "frames.vrb")

#: WordNet 3.0's lexicographer files, numbered 00..44, with their part of speech
#: (1 noun, 2 verb, 3 adjective, 4 adverb), as in ``man 5 lexnames``.
LEXNAMES: tuple[tuple[str, int], ...] = (
    ("adj.all", 3), ("adj.pert", 3), ("adv.all", 4), ("noun.Tops", 1), ("noun.act", 1),
    ("noun.animal", 1), ("noun.artifact", 1), ("noun.attribute", 1), ("noun.body", 1),
    ("noun.cognition", 1), ("noun.communication", 1), ("noun.event", 1), ("noun.feeling", 1),
    ("noun.food", 1), ("noun.group", 1), ("noun.location", 1), ("noun.motive", 1),
    ("noun.object", 1), ("noun.person", 1), ("noun.phenomenon", 1), ("noun.plant", 1),
    ("noun.possession", 1), ("noun.process", 1), ("noun.quantity", 1), ("noun.relation", 1),
    ("noun.shape", 1), ("noun.state", 1), ("noun.substance", 1), ("noun.time", 1),
    ("verb.body", 2), ("verb.change", 2), ("verb.cognition", 2), ("verb.communication", 2),
    ("verb.competition", 2), ("verb.consumption", 2), ("verb.contact", 2), ("verb.creation", 2),
    ("verb.emotion", 2), ("verb.motion", 2), ("verb.perception", 2), ("verb.possession", 2),
    ("verb.social", 2), ("verb.stative", 2), ("verb.weather", 2), ("adj.ppl", 3),
)

HOW_TO_GET_IT = (
    "WordNet for NLTK was not found. Do one of these, then try again:\n"
    "  * with internet:      python -c \"import nltk; nltk.download('wordnet')\"\n"
    "  * on Debian/Ubuntu:   sudo apt-get install -y wordnet-base wordnet-sense-index\n"
    "                        python -m mtlearn.metrics.meteor.wordnet\n"
    "  * or run the README's set-up command (make test / make lab), which does the above."
)


class WordNetMissingError(LookupError):
    """WordNet is needed (METEOR's synonym stage) but NLTK cannot find it.

    >>> str(WordNetMissingError()).splitlines()[0]
    'WordNet for NLTK was not found. Do one of these, then try again:'
    """

    def __init__(self, detail: str = "") -> None:
        super().__init__(HOW_TO_GET_IT + (f"\n({detail})" if detail else ""))


class UnsafeTargetError(PermissionError):
    """The WordNet target could be changed by another user, or a link was planted in it: nothing is written.

    >>> error = UnsafeTargetError(Path("/tmp/shared"), "is writable by other users")
    >>> print(error)  # doctest: +NORMALIZE_WHITESPACE
    refusing to write WordNet into /tmp/shared: it is writable by other users; choose a folder only you can
    write to (--target DIR, e.g. ~/nltk_data)
    """

    def __init__(self, path: Path, why: str) -> None:
        # The full path: a relative --target names a folder the reader cannot place.
        super().__init__(f"refusing to write WordNet into {os.path.abspath(path)}: it {why}; "
                         "choose a folder only you can write to (--target DIR, e.g. ~/nltk_data)")


def default_target() -> Path:
    """Where a new WordNet corpus folder goes: the virtual environment's ``nltk_data``, else ``~/nltk_data``.

    >>> default_target().name
    'nltk_data'
    """
    in_venv = sys.prefix != getattr(sys, "base_prefix", sys.prefix)
    return Path(sys.prefix) / "nltk_data" if in_venv else Path.home() / "nltk_data"


def lexnames_text() -> str:
    """The ``lexnames`` file NLTK needs and Debian does not ship.

    >>> lexnames_text().splitlines()[5]
    '05\\tnoun.animal\\t1'
    """
    return "".join(f"{i:02d}\t{name}\t{pos}\n" for i, (name, pos) in enumerate(LEXNAMES))


def find_wordnet(search_path: list[str] | None = None) -> Path | None:
    """The WordNet corpus NLTK would load (a folder or ``wordnet.zip``), or ``None``.

    ``search_path`` defaults to ``nltk.data.path``.

    >>> find_wordnet(search_path=[]) is None
    True
    """
    import nltk

    paths = nltk.data.path if search_path is None else search_path
    for base in paths:
        folder = Path(base) / "corpora" / "wordnet"
        if (folder / "data.noun").is_file() and (folder / "lexnames").is_file():
            return folder
        archive = Path(base) / "corpora" / "wordnet.zip"
        if archive.is_file():
            return archive
    return None


def build_from_debian(source: Path = DEBIAN_WORDNET, target: Path | None = None) -> Path:
    """Copy Debian's WordNet files into ``<target>/corpora/wordnet`` and write ``lexnames``.

    Files are copied, not linked: NLTK refuses links that leave the corpus folder.
    Each file is written new and renamed into place, so a link planted under its
    name is replaced, never followed. Returns the corpus folder. Raises
    :class:`WordNetMissingError` naming the missing files when ``source`` is
    incomplete, and :class:`UnsafeTargetError` when another user could change
    ``target`` (or the folders below it).

    >>> build_from_debian(Path("/nonexistent"), Path("/tmp/x"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtlearn.metrics.meteor.wordnet.WordNetMissingError: WordNet for NLTK was not found. ...
    """
    missing = [name for name in REQUIRED_FILES if not (source / name).is_file()]
    if missing:
        raise WordNetMissingError(f"{source} lacks {', '.join(missing)}")
    base = target or default_target()
    corpus = base / "corpora" / "wordnet"
    with _safe_folder(base, ("corpora", "wordnet")) as folder:
        _remove_stale_temporaries(folder)
        for name in REQUIRED_FILES + OPTIONAL_FILES:
            if (source / name).is_file():
                with open(source / name, "rb") as original:
                    _write_new_file(folder, name, original)
        _write_new_file(folder, "lexnames", lexnames_text().encode("ascii"))
        _write_new_file(folder, "LICENSE", (
            "WordNet 3.0 (c) Princeton University, copied from Debian's wordnet-base and "
            "wordnet-sense-index packages by mtlearn.metrics.meteor.wordnet.\n").encode("ascii"))
    return corpus


# ---------------------------------------------------------------- writing without following links

_DIR_FLAGS = (os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
              | getattr(os, "O_CLOEXEC", 0))
_NEW_FILE_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                   | getattr(os, "O_CLOEXEC", 0))
_TEMPORARY = re.compile(r"^\..+\.mtlearn-[0-9a-f]{16}\.tmp$")


def _private_group(gid: int) -> bool:
    """Whether only the current user is in group ``gid`` (Debian's one group per user, with umask 002)."""
    import grp
    import pwd

    if gid != os.getegid():
        return False
    try:
        me = pwd.getpwuid(os.geteuid()).pw_name
        members = set(grp.getgrgid(gid).gr_mem) - {me}
        others = [user for user in pwd.getpwall() if user.pw_gid == gid and user.pw_name != me]
    except KeyError:
        return False
    return not members and not others


def others_can_change(info: os.stat_result, *, above: bool = False) -> str:
    """Why another user could change the folder with this ``stat``, or ``""`` when only the current user can.

    A folder must belong to the current user or root and be writable by nobody else
    (a group that holds only this user counts as this user). A folder ``above`` the
    one written to need only not be writable by everyone: it may belong to another
    user or group (a CI checkout owned by the machine's user while the tests run as
    root; the writes go through folders already opened, so a later rename cannot
    redirect them), and it may be sticky such as ``/tmp`` (others may write in it
    but not rename what is not theirs).

    >>> import stat
    >>> folder = os.stat_result((stat.S_IFDIR | 0o777, 0, 0, 0, os.geteuid(), 0, 0, 0, 0, 0))
    >>> others_can_change(folder)
    'is writable by other users'
    >>> others_can_change(os.stat_result((stat.S_IFDIR | 0o1777, 0, 0, 0, 0, 0, 0, 0, 0, 0)), above=True)
    ''
    """
    if not hasattr(os, "geteuid"):
        return ""  # Windows: no POSIX owners and modes to check
    if above:
        shared = info.st_mode & stat.S_IWOTH and not info.st_mode & stat.S_ISVTX
        return "is writable by other users" if shared else ""
    if info.st_uid not in (os.geteuid(), 0):
        return f"belongs to another user (uid {info.st_uid})"
    if info.st_mode & stat.S_IWOTH or (info.st_mode & stat.S_IWGRP and not _private_group(info.st_gid)):
        return "is writable by other users"
    return ""


def _check_given_path(target: Path) -> None:
    """Refuse a link on the way to ``target`` that another user made (a planted ``--target``)."""
    path = Path(os.path.abspath(target))
    for part in [*reversed(path.parents), path]:
        try:
            info = os.lstat(part)
        except FileNotFoundError:
            return
        if stat.S_ISLNK(info.st_mode) and info.st_uid not in (os.geteuid(), 0):
            raise UnsafeTargetError(target, f"goes through {part}, a link made by another user "
                                            f"(uid {info.st_uid})")


def _open_child(parent: int, name: str, path: Path) -> int:
    """Open (making it, mode 0755, if missing) the folder ``name`` in ``parent`` without following a link."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except FileNotFoundError:
        with suppress(FileExistsError):
            os.mkdir(name, 0o755, dir_fd=parent)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            raise UnsafeTargetError(path, "is a link or not a folder") from None
        raise
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            raise UnsafeTargetError(path, "was replaced by a link while being made") from None
        raise


@contextmanager
def _safe_folder(target: Path, below: tuple[str, ...]) -> Iterator[int]:
    """A descriptor of ``target/below...``, every folder opened without following links and checked.

    Folders above ``target`` must not be open to everyone unless sticky (``/tmp``);
    ``target`` and the folders below it must be the current user's (or root's) and
    writable by the current user only (see :func:`others_can_change`).
    """
    _check_given_path(target)
    real = Path(os.path.realpath(target))
    names = [*real.parts[1:], *below]
    fd = os.open(real.anchor or "/", _DIR_FLAGS)
    try:
        path = Path(real.anchor or "/")
        for depth, name in enumerate(names):
            problem = others_can_change(os.fstat(fd), above=depth < len(real.parts) - 1)
            if problem:
                where = problem if path == real else f"lies in {path}, which {problem}"
                raise UnsafeTargetError(target, where)
            path = path / name
            child = _open_child(fd, name, path)
            os.close(fd)
            fd = child
        problem = others_can_change(os.fstat(fd))
        if problem:
            raise UnsafeTargetError(path, problem)
        yield fd
    finally:
        os.close(fd)


def _remove_stale_temporaries(folder: int, older_than_s: float = 600.0) -> None:
    """Temporary files a crashed set-up left behind (a running one's are seconds old; unlink removes a
    link's name, never its target)."""
    now = time.time()
    for name in os.listdir(folder):
        if _TEMPORARY.match(name):
            with suppress(FileNotFoundError):
                if now - os.stat(name, dir_fd=folder, follow_symlinks=False).st_mtime > older_than_s:
                    os.unlink(name, dir_fd=folder)


def _write_new_file(folder: int, name: str, content: "bytes | BinaryIO") -> None:
    """Write ``name`` in ``folder`` as a new file, then rename it over whatever was there (a link too)."""
    temporary = f".{name}.mtlearn-{secrets.token_hex(8)}.tmp"
    fd = os.open(temporary, _NEW_FILE_FLAGS, 0o644, dir_fd=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            if isinstance(content, bytes):
                out.write(content)
            else:
                shutil.copyfileobj(content, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise


def try_nltk_download(target: Path, timeout: float = 15.0) -> bool:
    """``nltk.download("wordnet")`` into ``target``; ``False`` (not an exception) when offline."""
    import nltk

    previous = socket.getdefaulttimeout()
    socket.setdefaulttimeout(timeout)  # NLTK's downloader sets none; offline it could hang
    try:
        return bool(nltk.download("wordnet", download_dir=str(target), quiet=True, raise_on_error=True))
    except Exception:  # noqa: BLE001 - any network or parse failure means "not this way"
        return False
    finally:
        socket.setdefaulttimeout(previous)


def try_apt_install() -> bool:
    """Install Debian's WordNet packages when running as root with apt-get; ``False`` otherwise."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-q", *DEBIAN_PACKAGES]
    if subprocess.run(install, env=env, capture_output=True).returncode == 0:
        return True
    # A fresh machine has no package lists yet.
    subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
    return subprocess.run(install, env=env, capture_output=True).returncode == 0


def wordnet_version(corpus: Path | None = None) -> str:
    """The version NLTK reports for the WordNet it loads (``corpus`` or NLTK's default)."""
    if corpus is None:
        from nltk.corpus import wordnet

        return str(wordnet.get_version())
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    return str(WordNetCorpusReader(str(corpus), None).get_version())


def wordnet_available() -> bool:
    """Whether NLTK finds a WordNet corpus (cheap: looks for files, loads nothing)."""
    return find_wordnet() is not None


def ensure_wordnet(
    *,
    target: Path | None = None,
    allow_download: bool = True,
    allow_apt: bool = True,
    debian_source: Path = DEBIAN_WORDNET,
    log=print,
) -> Path:
    """Make sure NLTK finds WordNet; return the corpus location (see the module docstring for the order).

    Raises :class:`WordNetMissingError` with instructions when every way failed.
    """
    found = find_wordnet()
    if found is not None:
        log(f"WordNet: found at {found}")
        return found
    target = target or default_target()
    if target.as_posix() not in [Path(p).as_posix() for p in _nltk_path()]:
        _nltk_path().append(str(target))  # this process only; new processes find it via sys.prefix
    if (debian_source / "data.noun").is_file():
        corpus = build_from_debian(debian_source, target)
        log(f"WordNet: built {corpus} from {debian_source}")
        return corpus
    if allow_download:
        with _safe_folder(target, ()):  # NLTK's downloader follows links: only into a folder that is ours
            pass
    if allow_download and try_nltk_download(target):
        found = find_wordnet([str(target)])
        if found is not None:
            log(f"WordNet: downloaded to {found}")
            return found
    if allow_apt and try_apt_install() and (debian_source / "data.noun").is_file():
        corpus = build_from_debian(debian_source, target)
        log(f"WordNet: installed {', '.join(DEBIAN_PACKAGES)} and built {corpus}")
        return corpus
    raise WordNetMissingError(
        f"looked in NLTK's path, in {debian_source}, "
        + ("tried nltk.download, " if allow_download else "")
        + ("tried apt-get" if allow_apt else "apt-get not tried")
    )


def _nltk_path() -> list[str]:
    import nltk

    return nltk.data.path


def main(argv: list[str] | None = None, prog: str = "python -m mtlearn.metrics.meteor.wordnet") -> int:
    """Command line: make WordNet available, print where it is and its version."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Make WordNet available to NLTK (for METEOR's synonym stage), also offline.",
    )
    parser.add_argument("--target", type=Path, default=None,
                        help=f"folder to put nltk_data in (default: {default_target()})")
    parser.add_argument("--no-download", action="store_true", help="do not try nltk.download")
    parser.add_argument("--no-apt", action="store_true", help="do not try apt-get")
    parser.add_argument("--check", action="store_true", help="only report whether WordNet is found")
    args = parser.parse_args(argv)
    if args.check:
        found = find_wordnet()
        print(f"WordNet: {'found at ' + str(found) if found else 'not found'}")
        return 0 if found else 1
    try:
        corpus = ensure_wordnet(target=args.target, allow_download=not args.no_download,
                                allow_apt=not args.no_apt)
        version = wordnet_version(corpus if corpus.is_dir() else None)
    except WordNetMissingError as error:
        print(error, file=sys.stderr)
        return 1
    except UnsafeTargetError as error:
        print(f"mtlearn: error: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # e.g. a read-only or full disk: say where, and what to do
        where = os.path.abspath(args.target or default_target())
        print(f"mtlearn: error: cannot write WordNet into {where}: {error.strerror or error}; "
              "choose a folder you can write to with --target DIR (e.g. ~/nltk_data)", file=sys.stderr)
        return 1
    except ValueError as error:  # NLTK refusing what it found (e.g. "Security Violation": a link out)
        print(f"mtlearn: error: NLTK cannot read the WordNet it found: {error}", file=sys.stderr)
        return 1
    print(f"WordNet {version} ready for NLTK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

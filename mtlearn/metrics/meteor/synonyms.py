"""A compact WordNet synonym index for METEOR's synonym stage, cached in a file.

METEOR's synonym stage asks, for every word, which WordNet synsets it belongs to.
NLTK answers with ``nltk.corpus.wordnet.synsets(word)``, but loading NLTK's
WordNet reader takes about 3 seconds, too long for a student who scores one
sentence. Only a small part of WordNet is needed for that question:

* the four ``index.*`` files: lemma -> synset offsets, per part of speech;
* the four ``*.exc`` files: irregular forms (``ran`` -> ``run``, ``geese`` -> ``goose``);
* NLTK's ``morphy`` suffix rules (``dogs`` -> ``dog``, ``churches`` -> ``church``).

:class:`SynonymIndex` holds exactly these and answers :meth:`SynonymIndex.synsets`
the way NLTK's ``wordnet.synsets`` does (same lowercasing, same exception lists,
same one round of suffix rules, all four parts of speech), as a set of integer
synset ids ``offset * 10 + part-of-speech digit`` (1 noun, 2 verb, 3 adjective,
4 adverb; satellite adjectives count as adjectives, as they live in ``data.adj``).
The index and its lookup rules are in :mod:`mtlearn.metrics.meteor.synonym_index`;
this module finds WordNet's files, builds the index and keeps it in a cache file.

The index is built once from the WordNet files NLTK would load and stored in a
cache file, keyed on WordNet's version, the index format, and the location, sizes
and modification times of the files read; a change of any of them gives a new
cache file. The file is written
atomically (temporary file + rename) and carries a SHA-256 checksum, so a crash
or a concurrent writer never leaves a file that is read as valid; a corrupt file is
rebuilt. Cache folder: ``$MTLEARN_CACHE_DIR``, else ``$XDG_CACHE_HOME/mtlearn``,
else ``~/.cache/mtlearn``.

A checksum proves nothing about who wrote the file, so the cache trusts only its
owner: a file is read only if it is a regular file owned by the current user, in a
folder no one else can write to (opened without following a link and without
blocking, so a FIFO under its name cannot hang the reader), and its payload's
types are checked before use. Otherwise the index is rebuilt in memory, with a
warning, and nothing is written to a folder others can change. Writing a new
file removes temporary files a crashed writer left behind and the cache files of
older keys for the same WordNet.

>>> index = shared_synonym_index()
>>> index.wordnet_version
'3.0'
>>> sorted(split_synset_id(i) for i in index.synsets("automobile"))  # car.n.01, automobile.v.01
[('n', 2958343), ('v', 1930756)]
>>> bool(index.synsets("car") & index.synsets("automobile"))
True
"""

from __future__ import annotations

import errno
import functools
import hashlib
import itertools
import marshal
import os
import re
import stat
import tempfile
import time
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Optional, Union

from mtlearn.metrics.meteor.synonym_index import (
    PARTS_OF_SPEECH,
    SynonymIndex,
    split_synset_id,
    synset_id,
)
from mtlearn.metrics.meteor.wordnet import WordNetMissingError, others_can_change

__all__ = [
    "FORMAT_VERSION",
    "SynonymIndex",
    "WordNetMissingError",
    "build_synonym_index",
    "cache_dir",
    "cache_path",
    "load_synonym_index",
    "shared_synonym_index",
    "split_synset_id",
    "synset_id",
]

#: Bumped whenever the layout of the cache file or the lookup rules change.
FORMAT_VERSION = 1

_MAGIC = b"MTLEARN-SYNIDX\n"
_FILE_SUFFIX = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_SOURCE_FILES = tuple(f"index.{s}" for s in _FILE_SUFFIX.values()) + tuple(
    f"{s}.exc" for s in _FILE_SUFFIX.values()
) + ("data.adj",)

_VERSION_RE = re.compile(r"Word[nN]et (\d+\+?|\d+\.\d+) Copyright")  # NLTK's get_version


# ---------------------------------------------------------------- finding WordNet


class _Source:
    """Where the WordNet files are: a folder, or an NLTK path pointer (a folder, or in ``wordnet.zip``)."""

    def __init__(self, label: str, folder: Optional[Path] = None, pointer: object = None) -> None:
        self.label = label
        self.folder = folder
        self.pointer = pointer

    def open(self, name: str) -> IO[str]:
        if self.folder is not None:
            return open(self.folder / name, encoding="utf8")
        return self.pointer.join(name).open(encoding="utf8")  # type: ignore[attr-defined]

    def stamp(self, name: str) -> str:
        """Size and modification time (as Python's ``.pyc`` files do), cheap to get."""
        if self.folder is not None:
            stat = (self.folder / name).stat()
            return f"{stat.st_size}@{stat.st_mtime_ns}"
        return str(self.pointer.join(name).file_size())  # type: ignore[attr-defined]


def _find_source(wordnet_dir: Union[str, os.PathLike, None]) -> _Source:
    """``wordnet_dir``, else the corpus NLTK's ``nltk.corpus.wordnet`` loads (same search)."""
    if wordnet_dir is not None:
        folder = Path(wordnet_dir).resolve()
        if not folder.is_dir():
            raise WordNetMissingError(f"wordnet_dir: {folder} is not a folder")
        return _Source(str(folder), folder=folder)
    import nltk.data

    # The same order as nltk.corpus.util.LazyCorpusLoader: the folder, then the zip file.
    for resource in ("corpora/wordnet", "corpora/wordnet.zip/wordnet/"):
        try:
            pointer = nltk.data.find(resource)
        except LookupError:
            continue
        path = getattr(pointer, "path", None)  # a FileSystemPathPointer: read the folder directly
        if isinstance(path, str) and os.path.isdir(path):
            return _Source(path, folder=Path(path))
        return _Source(str(pointer), pointer=pointer)
    raise WordNetMissingError("METEOR's synonym stage needs it; or leave 'synonym' out of stages")


def _read_version(source: _Source) -> str:
    with source.open("data.adj") as fh:
        for line in fh:
            match = _VERSION_RE.search(line)
            if match is not None:
                return match.group(1)
            if not line.startswith(" "):  # past the licence header
                break
    raise WordNetMissingError(f"{source.label}/data.adj names no WordNet version")


def _fingerprint(source: _Source) -> tuple[str, str]:
    """``(version, key)``: the key names WordNet's version, the index format, and the
    location, sizes and modification times of the files read (so a WordNet that was
    replaced in place, or another copy with the same version, gets its own cache)."""
    try:
        version = _read_version(source)
        stamps = [f"{name}={source.stamp(name)}" for name in _SOURCE_FILES]
    except (OSError, KeyError) as error:  # KeyError: a name missing from wordnet.zip
        raise WordNetMissingError(f"{source.label} is incomplete: {error}") from error
    return version, f"wordnet {version}; format {FORMAT_VERSION}; {source.label}; " + ", ".join(stamps)


# ---------------------------------------------------------------- building


def _parse_index(lines: Iterator[str], into: dict[str, dict[str, tuple[int, ...]]], name: str) -> None:
    # As NLTK's _load_lemma_pos_offset_map: "lemma pos n_synsets n_ptrs ptrs... n_senses n_tagged offsets..."
    for number, line in enumerate(lines, 1):
        if line.startswith(" "):
            continue
        tokens = line.split()
        try:
            lemma, pos, n_synsets, n_pointers = tokens[0], tokens[1], int(tokens[2]), int(tokens[3])
            offsets = tokens[6 + n_pointers: 6 + n_pointers + n_synsets]
            if n_synsets <= 0 or len(offsets) != n_synsets or pos not in into:
                raise ValueError("malformed entry")
            into[pos][lemma] = tuple(synset_id(pos, int(offset)) for offset in offsets)
        except (IndexError, ValueError) as error:
            raise WordNetMissingError(f"{name}, line {number} is not a "
                                      f"WordNet index line: {error}") from error


def build_synonym_index(wordnet_dir: Union[str, os.PathLike, None] = None) -> SynonymIndex:
    """Read the index from WordNet's files (about a second); no cache involved.

    ``wordnet_dir`` is a WordNet folder (``index.noun``, ``noun.exc``, ...,
    ``data.adj``); by default the corpus NLTK finds.

    >>> index = build_synonym_index()
    >>> index.base_forms("dogs", "n"), index.wordnet_version
    (['dog'], '3.0')
    """
    source = _find_source(wordnet_dir)
    version, _ = _fingerprint(source)
    lemmas: dict[str, dict[str, tuple[int, ...]]] = {pos: {} for pos in PARTS_OF_SPEECH}
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {pos: {} for pos in PARTS_OF_SPEECH}
    try:
        for pos, suffix in _FILE_SUFFIX.items():
            with source.open(f"index.{suffix}") as fh:
                _parse_index(iter(fh), lemmas, f"index.{suffix}")
            with source.open(f"{suffix}.exc") as fh:
                for line in fh:
                    terms = line.split()
                    if terms:
                        exceptions[pos][terms[0]] = tuple(terms[1:])
    except (OSError, KeyError) as error:
        raise WordNetMissingError(f"{source.label} is incomplete: {error}") from error
    return SynonymIndex(version, lemmas, exceptions, source.label)


# ---------------------------------------------------------------- the cache file


def cache_dir(environ: Optional[Mapping[str, str]] = None) -> Path:
    """Where mtlearn keeps caches: ``$MTLEARN_CACHE_DIR``, ``$XDG_CACHE_HOME/mtlearn`` or
    ``~/.cache/mtlearn``.

    ``environ`` defaults to ``os.environ``.

    >>> cache_dir({"MTLEARN_CACHE_DIR": "/tmp/mine", "XDG_CACHE_HOME": "/tmp/xdg"})
    PosixPath('/tmp/mine')
    >>> cache_dir({"XDG_CACHE_HOME": "/tmp/xdg"})
    PosixPath('/tmp/xdg/mtlearn')
    >>> cache_dir({}) == Path.home() / ".cache" / "mtlearn"
    True
    """
    env = os.environ if environ is None else environ
    if env.get("MTLEARN_CACHE_DIR"):
        return Path(env["MTLEARN_CACHE_DIR"])
    if env.get("XDG_CACHE_HOME"):
        return Path(env["XDG_CACHE_HOME"]) / "mtlearn"
    return Path.home() / ".cache" / "mtlearn"


def cache_path(wordnet_dir: Union[str, os.PathLike, None] = None,
               directory: Union[str, os.PathLike, None] = None) -> Path:
    """The cache file for the WordNet NLTK finds (or ``wordnet_dir``), in ``directory`` or :func:`cache_dir`.

    The name carries the WordNet version and a hash of the whole key (see :func:`load_synonym_index`).

    >>> cache_path(directory="/tmp/c").name  # doctest: +ELLIPSIS
    'synonyms-wordnet-3.0-v1-....bin'
    """
    source = _find_source(wordnet_dir)
    version, key = _fingerprint(source)
    return _cache_file(Path(directory) if directory is not None else cache_dir(), version, key, source.label)


def _location_tag(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()[:8]


def _cache_file(directory: Path, version: str, key: str, label: str) -> Path:
    key_hash = hashlib.sha256(key.encode()).hexdigest()[:16]
    return directory / f"synonyms-wordnet-{version}-v{FORMAT_VERSION}-{_location_tag(label)}-{key_hash}.bin"


# Cache files as named now (the location's tag, then the key's hash), and as named before tags.
_CACHE_NAME = re.compile(r"^synonyms-wordnet-.+-v\d+-(?:(?P<tag>[0-9a-f]{8})-)?[0-9a-f]{16}\.bin$")
_TEMPORARY_NAME = re.compile(r"^\.synonyms-wordnet-.+\.bin\..+\.tmp$")
#: A temporary file older than this was left by a crashed writer (a live one takes seconds).
_STALE_TEMPORARY_S = 600.0


def _encode(index: SynonymIndex, key: str) -> bytes:
    payload = marshal.dumps((key, index.wordnet_version,
                             [dict(index.lemmas[p]) for p in PARTS_OF_SPEECH],
                             [dict(index.exceptions[p]) for p in PARTS_OF_SPEECH]))
    return _MAGIC + hashlib.sha256(payload).digest() + payload


def _well_typed(tables: object, item: type) -> bool:
    """Whether ``tables`` is four dicts from ``str`` to tuples of ``item`` (the loops run in C)."""
    if not (type(tables) is list and len(tables) == 4 and all(type(t) is dict for t in tables)):
        return False
    for table in tables:
        if (not set(map(type, table)) <= {str} or not set(map(type, table.values())) <= {tuple}
                or not set(map(type, itertools.chain.from_iterable(table.values()))) <= {item}):
            return False
    return True


def _decode(blob: bytes, key: str, source: str) -> tuple[Optional[SynonymIndex], str]:
    """``(index, "")``, or ``(None, why)``: ``why`` is ``""`` for a file that is merely corrupt,
    truncated or for another key (rebuilt silently, as a crash can leave), and says what
    is wrong with a file whose checksum holds but whose payload is not an index."""
    head = len(_MAGIC)
    if not blob.startswith(_MAGIC) or len(blob) < head + 32:
        return None, ""
    payload = blob[head + 32:]
    if hashlib.sha256(payload).digest() != blob[head: head + 32]:
        return None, ""
    try:
        stored = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None, "holds no readable payload"
    if not (type(stored) is tuple and len(stored) == 4):
        return None, "holds a payload of the wrong shape"
    stored_key, version, lemmas, exceptions = stored
    if stored_key != key:
        return None, ""
    if type(version) is not str or not _well_typed(lemmas, int) or not _well_typed(exceptions, str):
        return None, "holds entries of the wrong types"
    return SynonymIndex(version, dict(zip(PARTS_OF_SPEECH, lemmas)), dict(zip(PARTS_OF_SPEECH, exceptions)),
                        source), ""


_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0))
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


def _read_file_in(folder: int, name: str) -> tuple[bytes, str]:
    """``(content, "")`` of a regular file of the current user's, else ``(b"", why not)``."""
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=folder)  # O_NONBLOCK: a FIFO does not wait for a writer
    except FileNotFoundError:
        return b"", ""
    except OSError as error:
        return b"", "is a link" if error.errno == errno.ELOOP else f"cannot be read ({error.strerror})"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return b"", "is not a regular file"
        if info.st_uid != os.geteuid():
            return b"", f"belongs to another user (uid {info.st_uid})"
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(), ""
    except OSError as error:
        return b"", f"cannot be read ({error.strerror})"
    finally:
        os.close(fd)


def _read_cache(path: Path) -> tuple[bytes, str, bool]:
    """``(content, why it is not trusted, whether the folder may be written)`` for the cache file ``path``."""
    if os.open not in os.supports_dir_fd or not hasattr(os, "geteuid"):  # Windows: no owners to check
        try:
            return path.read_bytes(), "", True
        except OSError:
            return b"", "", True
    try:
        folder = os.open(path.parent, _FOLDER_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        return b"", "", True  # made on writing (or writing fails and says why)
    except OSError as error:
        return b"", f"is in a folder that cannot be opened ({error.strerror})", False
    try:
        problem = others_can_change(os.fstat(folder))
        if problem:
            return b"", f"is in a folder that {problem}", False
        blob, problem = _read_file_in(folder, path.name)
        return blob, problem, True
    finally:
        os.close(folder)


def _remove_leftovers(path: Path) -> None:
    """Delete, next to the cache file ``path`` just written, stale temporary files and the
    files of older keys for the same WordNet (its location's tag) or of the old naming."""
    tag = _CACHE_NAME.match(path.name).group("tag")  # type: ignore[union-attr]
    now = time.time()
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        old = _CACHE_NAME.match(name)
        stale = (old is not None and name != path.name and old.group("tag") in (tag, None)) or (
            _TEMPORARY_NAME.match(name) is not None and _older_than(path.parent / name, now))
        if stale:
            try:
                if os.lstat(path.parent / name).st_uid == os.geteuid():
                    os.unlink(path.parent / name)
            except OSError:
                pass  # gone already, or not ours to remove


def _older_than(path: Path, now: float) -> bool:
    try:
        return now - os.lstat(path).st_mtime > _STALE_TEMPORARY_S
    except OSError:
        return False


def _write_atomically(path: Path, blob: bytes) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    problem = others_can_change(os.stat(path.parent))  # a folder made just now by someone else
    if problem:
        raise PermissionError(f"the folder {problem}")
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, path)  # atomic: readers see the old file or the whole new one
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def load_synonym_index(
    wordnet_dir: Union[str, os.PathLike, None] = None,
    *,
    cache: Union[str, os.PathLike, None, bool] = None,
) -> SynonymIndex:
    """The synonym index of the WordNet NLTK finds (or of ``wordnet_dir``), from the cache file if valid.

    ``cache`` is the cache folder (default :func:`cache_dir`), or ``False`` to build
    without any cache. A missing, corrupt or outdated cache file is (re)built and
    written atomically; an unwritable cache folder only costs a warning. A file
    that is not the current user's own regular file, in a folder only they can
    write to, or whose payload has the wrong types, is not used: the index is
    rebuilt (in memory only, if others can write to the folder) with a warning. Raises
    :class:`WordNetMissingError`, saying how to install WordNet, when there is none.
    Every call reads the file again; :func:`shared_synonym_index` keeps one index
    per WordNet and cache file for the whole process.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     first = load_synonym_index(cache=folder)   # builds and writes the cache file
    ...     second = load_synonym_index(cache=folder)  # reads it
    >>> second.synsets("ran") == first.synsets("ran") != frozenset()
    True
    """
    source = _find_source(wordnet_dir)
    if cache is False:
        return build_synonym_index(source.label)
    if cache is True or cache is None:
        directory = cache_dir()
    elif isinstance(cache, (str, os.PathLike)):
        directory = Path(cache)
    else:
        raise TypeError(f"cache: expected a folder, None or False, got {type(cache).__name__}")
    version, key = _fingerprint(source)
    path = _cache_file(directory, version, key, source.label)
    blob, problem, writable = _read_cache(path)
    index, problem = _decode(blob, key, source.label) if blob else (None, problem)
    if index is not None:
        return index
    if problem:
        warnings.warn(f"cache: not using {path}: it {problem}; the synonym index is rebuilt"
                      + ("" if writable else " in memory (nothing is written there)"), stacklevel=2)
    index = build_synonym_index(source.label)
    if not writable:
        return index
    try:
        _write_atomically(path, _encode(index, key))
    except OSError as error:
        warnings.warn(f"cache: cannot write {path} ({error}); the index is rebuilt next time",
                      stacklevel=2)
    else:
        _remove_leftovers(path)
    return index


@functools.lru_cache(maxsize=8)
def _cache_dir_string(mtlearn_cache_dir: Optional[str], xdg_cache_home: Optional[str],
                      home: Optional[str]) -> str:
    """``str(cache_dir())`` for these values of the three variables it reads."""
    env = {name: value for name, value in (("MTLEARN_CACHE_DIR", mtlearn_cache_dir),
                                           ("XDG_CACHE_HOME", xdg_cache_home)) if value}
    return str(cache_dir(env))


@functools.lru_cache(maxsize=8)
def _shared(wordnet_dir: Optional[str], directory: str, nltk_path: tuple[str, ...]) -> SynonymIndex:
    # nltk_path is only part of the cache key: NLTK finds WordNet on its search path, so a
    # changed path may find another WordNet and must not reuse the index of the old one.
    del nltk_path
    return load_synonym_index(wordnet_dir, cache=directory)


def shared_synonym_index(
    wordnet_dir: Union[str, os.PathLike, None] = None,
    *,
    cache: Union[str, os.PathLike, None] = None,
) -> SynonymIndex:
    """Like :func:`load_synonym_index`, but one index per process for each WordNet and cache folder.

    This is what the synonym stage uses by default, so that scoring segment after
    segment neither reads the cache file nor looks for WordNet again. It is a
    ``functools.lru_cache`` keyed on ``wordnet_dir``, the cache folder and NLTK's
    search path (``nltk.data.path``); the index is immutable, so sharing it is safe.
    A WordNet replaced while the process runs is seen by the next process (or by
    :func:`load_synonym_index`), not by this one.

    >>> shared_synonym_index() is shared_synonym_index()
    True
    """
    import nltk.data

    if cache is not None:
        directory = str(Path(cache))
    else:  # cache_dir() as a string, without building Paths on every call
        env = os.environ
        directory = _cache_dir_string(env.get("MTLEARN_CACHE_DIR"), env.get("XDG_CACHE_HOME"),
                                      env.get("HOME"))
    if wordnet_dir is not None:
        return _shared(str(Path(wordnet_dir).resolve()), directory, ())
    return _shared(None, directory, tuple(nltk.data.path))

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

The index is built once from the WordNet files NLTK would load and stored in a
cache file, keyed on WordNet's version, the index format, and the location, sizes
and modification times of the files read; a change of any of them gives a new
cache file. The file is written
atomically (temporary file + rename) and carries a SHA-256 checksum, so a crash
or a concurrent writer never leaves a file that is read as valid; a corrupt file is
rebuilt. Cache folder: ``$MTLEARN_CACHE_DIR``, else ``$XDG_CACHE_HOME/mtlearn``,
else ``~/.cache/mtlearn``.

>>> index = shared_synonym_index()
>>> index.wordnet_version
'3.0'
>>> sorted(split_synset_id(i) for i in index.synsets("automobile"))  # car.n.01, automobile.v.01
[('n', 2958343), ('v', 1930756)]
>>> bool(index.synsets("car") & index.synsets("automobile"))
True
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import re
import tempfile
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Optional, Union

from mtlearn.metrics.meteor.wordnet import WordNetMissingError

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
_POS = ("n", "v", "a", "r")  # NLTK's POS_LIST order
_POS_DIGIT = {"n": 1, "v": 2, "a": 3, "s": 3, "r": 4}
_DIGIT_POS = {1: "n", 2: "v", 3: "a", 4: "r"}
_FILE_SUFFIX = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_SOURCE_FILES = tuple(f"index.{s}" for s in _FILE_SUFFIX.values()) + tuple(
    f"{s}.exc" for s in _FILE_SUFFIX.values()
) + ("data.adj",)

#: NLTK's ``WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS`` (NLTK 3.10), in its order.
MORPHOLOGICAL_SUBSTITUTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"),
          ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}

#: Words whose synsets an index remembers (then it starts again).
_MEMO_SIZE = 1 << 18

_VERSION_RE = re.compile(r"Word[nN]et (\d+\+?|\d+\.\d+) Copyright")  # NLTK's get_version


def synset_id(pos: str, offset: int) -> int:
    """The integer id of the synset at ``offset`` in WordNet's ``data.<pos>`` file.

    >>> synset_id("n", 2084071), synset_id("s", 1234)
    (20840711, 12343)
    """
    return offset * 10 + _POS_DIGIT[pos]


def split_synset_id(ident: int) -> tuple[str, int]:
    """``(pos, offset)`` of a synset id, for ``wordnet.synset_from_pos_and_offset``.

    >>> split_synset_id(20840711)
    ('n', 2084071)
    """
    return _DIGIT_POS[ident % 10], ident // 10


@dataclass(frozen=True, eq=False)
class SynonymIndex:
    """Which WordNet synsets each word form belongs to, as NLTK's ``wordnet.synsets`` says.

    ``lemmas[p]`` maps a lemma (as in WordNet's ``index.*`` files: lowercase,
    ``_`` for spaces) to its synset ids for part of speech ``p`` (``"n"``, ``"v"``,
    ``"a"``, ``"r"``); ``exceptions[p]`` maps an irregular form to its base forms.
    Answers are memoised per index (a plain dict: the index itself never changes).

    >>> index = SynonymIndex(
    ...     wordnet_version="toy",
    ...     lemmas={"n": {"dog": (11, 21), "goose": (31,)}, "v": {"dog": (42,)}, "a": {}, "r": {}},
    ...     exceptions={"n": {"geese": ("goose",)}, "v": {}, "a": {}, "r": {}},
    ... )
    >>> sorted(index.synsets("Dogs"))  # lowercased, then morphy's rule s -> '' for nouns and verbs
    [11, 21, 42]
    >>> sorted(index.synsets("geese"))  # the exception list
    [31]
    >>> index.synsets("cat")
    frozenset()
    """

    wordnet_version: str
    lemmas: Mapping[str, Mapping[str, tuple[int, ...]]]
    exceptions: Mapping[str, Mapping[str, tuple[str, ...]]]
    source: str = ""
    _memo: dict[str, frozenset[int]] = field(default_factory=dict, repr=False, compare=False)

    def base_forms(self, word: str, pos: str) -> list[str]:
        """The forms of ``word`` that WordNet lists for ``pos`` — NLTK's ``_morphy(word, pos)``.

        As in NLTK 3.10: if ``word`` is an exception form, its listed base forms,
        else one round of the suffix rules; then, of the word itself followed by
        those candidates, the ones that are lemmas of ``pos``, without repeats.

        >>> index = shared_synonym_index()
        >>> index.base_forms("ran", "v"), index.base_forms("churches", "n"), index.base_forms("books", "v")
        (['run'], ['church'], ['book'])
        """
        word = word.lower()
        exceptions = self.exceptions[pos]
        if word in exceptions:
            forms: Union[list[str], tuple[str, ...]] = exceptions[word]
        else:
            forms = [word[: -len(old)] + new for old, new in MORPHOLOGICAL_SUBSTITUTIONS[pos]
                     if word.endswith(old)]
        lemmas = self.lemmas[pos]
        result: list[str] = []
        for form in (word, *forms):
            if form in lemmas and form not in result:
                result.append(form)
        return result

    def synsets(self, word: str) -> frozenset[int]:
        """The ids of the synsets ``nltk.corpus.wordnet.synsets(word)`` returns.

        >>> index = shared_synonym_index()
        >>> sorted(split_synset_id(i) for i in index.synsets("geese"))  # goose.n.01, goose.n.03, fathead.n.01
        [('n', 1855672), ('n', 7646821), ('n', 10157744)]
        """
        found = self._memo.get(word)
        if found is None:
            ids: set[int] = set()
            for pos in _POS:
                lemmas = self.lemmas[pos]
                for form in self.base_forms(word, pos):
                    ids.update(lemmas[form])
            if len(self._memo) >= _MEMO_SIZE:
                self._memo.clear()  # bounded: a stream of new words cannot fill the memory
            found = self._memo[word] = frozenset(ids)
        return found

    def __len__(self) -> int:
        """The number of (lemma, part of speech) entries.

        >>> len(shared_synonym_index())
        155287
        """
        return sum(len(lemmas) for lemmas in self.lemmas.values())


# ---------------------------------------------------------------- finding WordNet


class _Source:
    """Where the WordNet files are: a plain folder, or an NLTK path pointer (a folder or inside ``wordnet.zip``)."""

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
            raise WordNetMissingError(f"{name}, line {number} is not a WordNet index line: {error}") from error


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
    lemmas: dict[str, dict[str, tuple[int, ...]]] = {pos: {} for pos in _POS}
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {pos: {} for pos in _POS}
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
    """Where mtlearn keeps caches: ``$MTLEARN_CACHE_DIR``, ``$XDG_CACHE_HOME/mtlearn`` or ``~/.cache/mtlearn``.

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
    version, key = _fingerprint(_find_source(wordnet_dir))
    return _cache_file(Path(directory) if directory is not None else cache_dir(), version, key)


def _cache_file(directory: Path, version: str, key: str) -> Path:
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return directory / f"synonyms-wordnet-{version}-v{FORMAT_VERSION}-{digest}.bin"


def _encode(index: SynonymIndex, key: str) -> bytes:
    payload = marshal.dumps((key, index.wordnet_version,
                             [dict(index.lemmas[p]) for p in _POS],
                             [dict(index.exceptions[p]) for p in _POS]))
    return _MAGIC + hashlib.sha256(payload).digest() + payload


def _decode(blob: bytes, key: str, source: str) -> Optional[SynonymIndex]:
    """The index in ``blob``, or ``None`` if it is corrupt, truncated or for another key."""
    head = len(_MAGIC)
    if not blob.startswith(_MAGIC) or len(blob) < head + 32:
        return None
    payload = blob[head + 32:]
    if hashlib.sha256(payload).digest() != blob[head: head + 32]:
        return None
    try:
        stored_key, version, lemmas, exceptions = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if stored_key != key or not isinstance(version, str):
        return None
    if not (isinstance(lemmas, list) and isinstance(exceptions, list) and len(lemmas) == len(exceptions) == 4
            and all(isinstance(d, dict) for d in lemmas + exceptions)):
        return None
    return SynonymIndex(version, dict(zip(_POS, lemmas)), dict(zip(_POS, exceptions)), source)


def _write_atomically(path: Path, blob: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
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
    written atomically; an unwritable cache folder only costs a warning. Raises
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
    path = _cache_file(directory, version, key)
    try:
        blob = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        blob = b""
    except OSError as error:
        warnings.warn(f"cache: cannot read {path} ({error}); rebuilding", stacklevel=2)
        blob = b""
    index = _decode(blob, key, source.label) if blob else None
    if index is not None:
        return index
    index = build_synonym_index(source.label)
    try:
        _write_atomically(path, _encode(index, key))
    except OSError as error:
        warnings.warn(f"cache: cannot write {path} ({error}); the index is rebuilt next time",
                      stacklevel=2)
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

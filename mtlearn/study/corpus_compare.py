"""Corpus mode's data: a reference file and up to five system files read and checked, every system scored.

:func:`read_text_file` reads one uploaded file (bytes) as UTF-8 text, one segment a line,
refusing what is not a corpus with a :class:`CorpusFileError` naming the file and the problem
(too big, binary, not UTF-8, empty); :func:`corpus_set` checks the files together (at most
:data:`MAX_SYSTEMS` systems, every file as many lines as the reference, no name twice, no more text than
can be scored within about a minute: :data:`MAX_WORK`);
:func:`wmt22_sample` is the shipped sample (:data:`mtlearn.examples.wmt22.WMT22_DE_EN_SAMPLE`:
40 segments of WMT22 de-en, reference A, two systems). :func:`compare` scores every system with
mtlearn's corpus functions at their defaults (BLEU, chrF, TER, METEOR) and runs the paired
bootstrap of :mod:`mtlearn.study.significance` against the first system, on the same
statistics (:data:`N_RESAMPLES` samples, seed :data:`SEED`); :func:`sentence_scores` gives
each segment's sentence BLEU or chrF for the per-segment plot.

>>> corpus = corpus_set(read_text_file("ref.txt", b"the cat sat\\na dog\\n"),
...                     [read_text_file("a.txt", b"the cat sat\\na dog\\n"),
...                      read_text_file("b.txt", b"a cat sat\\nthe dog\\n")])
>>> corpus.names, corpus.n_segments
(('a.txt', 'b.txt'), 2)
>>> read_text_file("b.txt", b"\\xff\\xfe")
Traceback (most recent call last):
...
mtlearn.study.corpus_compare.CorpusFileError: b.txt: not UTF-8 text (byte 0xff at position 0 cannot be read)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from mtlearn.examples.wmt22 import WMT22_DE_EN_SAMPLE
from mtlearn.metrics.bleu.score import bleu, corpus_bleu
from mtlearn.metrics.chrf.score import chrf, corpus_chrf
from mtlearn.metrics.meteor.score import corpus_meteor
from mtlearn.metrics.ter.score import corpus_ter
from mtlearn.study.significance import (
    DEFAULT_SEED,
    PairedTestResult,
    paired_test_from_stats,
    resampling_scorer,
    segment_statistics,
)

__all__ = ["CorpusFileError", "TextFile", "CorpusSet", "Comparison", "read_text_file", "corpus_set",
           "wmt22_sample", "compare", "sentence_scores", "corpus_work", "MAX_FILE_BYTES", "MAX_SYSTEMS",
           "MAX_SEGMENTS", "MAX_WORK",
           "N_RESAMPLES", "SEED", "METRICS", "METRIC_NAMES", "SENTENCE_METRICS", "SENTENCE_OPTIONS"]

#: The largest file read (bytes): WMT22's biggest test set side is about 0.3 MB; 2 MB leaves room.
MAX_FILE_BYTES = 2 * 1024 * 1024
#: The most system files compared at once (the first is the baseline of the paired tests).
MAX_SYSTEMS = 5
#: The most segments (lines) a file may have (WMT22's test sets have about 2,000): scoring five systems of
#: WMT22 de-en (1,984 segments) takes about 28 s here, most of it TER's shift search (about 3 s a system).
MAX_SEGMENTS = 3000
#: The most work corpus mode takes on, in "word³" (over systems and segments, the longer side's words cubed:
#: TER's shift search grows about so). Measured here: five WMT22 de-en systems are 133 million (28 s to
#: score), one zh-en system 143 million (19 s), two 292 million; above this limit a minute is not enough.
MAX_WORK = 300_000_000
#: Paired-bootstrap samples (sacreBLEU's default number): measured here, the four metrics' tests take
#: 0.01 s on the shipped sample (40 segments, two systems) and 1.2 s on WMT22 de-en (1,984, five systems).
N_RESAMPLES = 1000
#: The bootstrap's seed: sacreBLEU's, so that a run is reproducible and matches ``mtlearn compare``.
SEED = DEFAULT_SEED
#: The corpus metrics of the table, in its column order, and their printed names.
METRICS: tuple[str, ...] = ("bleu", "chrf", "ter", "meteor")
METRIC_NAMES = {"bleu": "BLEU", "chrf": "chrF", "ter": "TER", "meteor": "METEOR"}
_CORPUS: dict[str, Callable[..., Any]] = {"bleu": corpus_bleu, "chrf": corpus_chrf, "ter": corpus_ter,
                                          "meteor": corpus_meteor}
#: The sentence metrics of the per-segment plot, and their settings: sacreBLEU's ``sentence_bleu``
#: (exponential smoothing, effective order: a sentence without a 4-gram match is not simply 0);
#: chrF at its defaults. The sentence explorers are opened with the same settings.
SENTENCE_METRICS: tuple[str, ...] = ("bleu", "chrf")
SENTENCE_OPTIONS: dict[str, dict[str, Any]] = {"bleu": {"smoothing": "exp", "effective_order": True},
                                               "chrf": {}}


class CorpusFileError(ValueError):
    """A file that cannot be used as a corpus side; the message names the file and the problem."""


@dataclass(frozen=True)
class TextFile:
    """One corpus file: its name and its lines (one segment a line, the final line break dropped)."""

    name: str
    lines: tuple[str, ...]


def _check_size(name: str, size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise CorpusFileError(f"{name}: {size:,} bytes; files of at most {MAX_FILE_BYTES:,} bytes "
                              f"({MAX_FILE_BYTES // (1024 * 1024)} MB) are read")
    if size == 0:
        raise CorpusFileError(f"{name}: the file is empty; give one segment a line")


def _decode(name: str, content: bytes) -> str:
    if b"\x00" in content:
        raise CorpusFileError(f"{name}: a binary file (it holds NUL bytes); give a plain text file, "
                              "one segment a line")
    try:
        return content.decode("utf-8-sig")  # a byte-order mark is not part of the first segment
    except UnicodeDecodeError as error:
        bad = content[error.start]
        raise CorpusFileError(f"{name}: not UTF-8 text (byte 0x{bad:02x} at position {error.start} "
                              "cannot be read)") from None


def read_text_file(name: str, content: bytes) -> TextFile:
    """``content`` (a file's bytes) as lines of UTF-8 text; a :class:`CorpusFileError` naming ``name`` if it
    is too big (:data:`MAX_FILE_BYTES`), empty, binary, not UTF-8 or too long (:data:`MAX_SEGMENTS` lines).

    Lines end at ``\\n`` (a ``\\r`` before it is dropped), as sacreBLEU reads a file: other Unicode
    line separators inside a segment stay in it.

    >>> read_text_file("hyp.txt", b"one\\r\\ntwo\\n").lines
    ('one', 'two')
    >>> read_text_file("hyp.txt", b"\\n\\n")
    Traceback (most recent call last):
    ...
    mtlearn.study.corpus_compare.CorpusFileError: hyp.txt: only blank lines; give one segment a line
    """
    if not isinstance(name, str) or not name:
        raise TypeError("name: expected the file's name (a non-empty string)")
    if not isinstance(content, (bytes, bytearray, memoryview)):
        raise TypeError(f"{name}: expected the file's bytes, got {type(content).__name__}")
    data = bytes(content)
    _check_size(name, len(data))
    text = _decode(name, data)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final line break ends the last segment
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if not any(line.strip() for line in lines):
        raise CorpusFileError(f"{name}: only blank lines; give one segment a line")
    if len(lines) > MAX_SEGMENTS:
        raise CorpusFileError(f"{name}: {len(lines):,} lines; corpus mode reads at most {MAX_SEGMENTS:,} "
                              "segments (the command line, mtlearn score, has no such limit)")
    return TextFile(name, tuple(lines))


@dataclass(frozen=True)
class CorpusSet:
    """A reference and the systems to compare, all line-aligned; the first system is the baseline."""

    reference: TextFile
    systems: tuple[TextFile, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The systems' names, the baseline first."""
        return tuple(s.name for s in self.systems)

    @property
    def n_segments(self) -> int:
        """The number of segments (lines) of every file."""
        return len(self.reference.lines)

    def references(self) -> list[list[str]]:
        """One list of references per segment (here one reference each), as the corpus functions take."""
        return [[line] for line in self.reference.lines]

    def hypotheses(self, name: str) -> list[str]:
        """System ``name``'s lines."""
        for s in self.systems:
            if s.name == name:
                return list(s.lines)
        raise LookupError(f"system: no system {name!r}; the systems are {', '.join(self.names)}")


def corpus_set(reference: TextFile, systems: Sequence[TextFile]) -> CorpusSet:
    """The reference and systems checked together: 1 to :data:`MAX_SYSTEMS` systems, every file as many lines
    as the reference, no system name twice, at most :data:`MAX_WORK` of work (:func:`corpus_work`); a
    :class:`CorpusFileError` naming the file (or the systems) otherwise.

    >>> ref = TextFile("ref.txt", ("a", "b"))
    >>> corpus_set(ref, [TextFile("sys.txt", ("a",))])
    Traceback (most recent call last):
    ...
    mtlearn.study.corpus_compare.CorpusFileError: sys.txt: 1 line, but the reference ref.txt has 2; \
every system file must translate the reference's segments, one a line
    """
    if not systems:
        raise CorpusFileError("systems: no system file; give at least one (and at most "
                              f"{MAX_SYSTEMS}), one segment a line")
    if len(systems) > MAX_SYSTEMS:
        raise CorpusFileError(f"systems: {len(systems)} system files ({', '.join(s.name for s in systems)}); "
                              f"corpus mode compares at most {MAX_SYSTEMS}")
    seen: set[str] = set()
    n = len(reference.lines)
    for s in systems:
        if s.name in seen:
            raise CorpusFileError(f"{s.name}: given twice; give each system file once (or rename one)")
        seen.add(s.name)
        if len(s.lines) != n:
            word = "line" if len(s.lines) == 1 else "lines"
            raise CorpusFileError(f"{s.name}: {len(s.lines)} {word}, but the reference {reference.name} "
                                  f"has {n}; every system file must translate the reference's segments, "
                                  "one a line")
    _check_work(reference, systems)
    return CorpusSet(reference, tuple(systems))


def corpus_work(reference: TextFile, systems: Sequence[TextFile]) -> int:
    """The work of scoring ``systems`` against ``reference``: over systems and segments, the longer side's
    number of words, cubed (TER's search, the slowest metric, grows about so).

    >>> corpus_work(TextFile("ref", ("a b", "c")), [TextFile("sys", ("a b c", ""))])
    28
    """
    lengths = [len(line.split()) for line in reference.lines]
    return sum(max(n, len(h.split())) ** 3 for s in systems for n, h in zip(lengths, s.lines))


def _check_work(reference: TextFile, systems: Sequence[TextFile]) -> None:
    work = corpus_work(reference, systems)
    if work > MAX_WORK:
        raise CorpusFileError(f"systems: too much text to score here within a minute ({work:,} units of "
                              "work: the longer side's words cubed, over systems and segments; at most "
                              f"{MAX_WORK:,}); give fewer systems, or fewer or shorter segments (the command "
                              "line, mtlearn score, has no such limit)")


def wmt22_sample() -> CorpusSet:
    """The shipped WMT22 de-en sample: reference A, then JDExploreAcademy (the baseline) and LT22.

    >>> s = wmt22_sample()
    >>> s.reference.name, s.names, s.n_segments
    ('ref.A.en', ('hyp.JDExploreAcademy.en', 'hyp.LT22.en'), 40)
    """
    def read(name: str) -> TextFile:
        return read_text_file(name, (WMT22_DE_EN_SAMPLE / name).read_bytes())

    return corpus_set(read("ref.A.en"), [read("hyp.JDExploreAcademy.en"), read("hyp.LT22.en")])


@dataclass(frozen=True)
class Comparison:
    """Every system's corpus results (metric -> system -> result), the paired tests per metric (``None``
    with a single system), and the reason of a metric that could not be scored (``failed``)."""

    corpus: CorpusSet
    results: dict[str, dict[str, Any]]
    tests: dict[str, PairedTestResult]
    failed: dict[str, str] = field(default_factory=dict)
    n_samples: int = N_RESAMPLES
    seed: int = SEED

    def score(self, metric: str, system: str) -> float:
        """System ``system``'s corpus score of ``metric`` (0-1)."""
        return float(self.results[metric][system].score)

    def p_value(self, metric: str, system: str) -> Any:
        """The paired bootstrap's p-value of ``system`` against the baseline (``None`` for the baseline or
        without a test)."""
        test = self.tests.get(metric)
        return None if test is None else test.system(system).p_value


def _metric_tests(metric: str, results: dict[str, Any], n_samples: int, seed: int) -> PairedTestResult:
    """The paired bootstrap of every system against the first, on the corpus results' own statistics."""
    first = next(iter(results.values()))
    orders = first.max_order if metric == "bleu" else None
    stats = {name: segment_statistics(r, orders) for name, r in results.items()}
    return paired_test_from_stats(stats, resampling_scorer(metric), n_samples=n_samples, seed=seed,
                                  observed={name: float(r.score) for name, r in results.items()},
                                  metric=metric, metric_name=METRIC_NAMES[metric], signature=first.signature)


def compare(corpus: CorpusSet, *, n_samples: int = N_RESAMPLES, seed: int = SEED,
            progress: Optional[Callable[[str], None]] = None) -> Comparison:
    """Every system of ``corpus`` scored by the four corpus metrics (defaults), and the paired bootstrap
    (``n_samples`` samples, ``seed``) of each system against the first, per metric. ``progress``, if
    given, is called with a short message before each metric.

    A metric that cannot run here (METEOR's synonym stage without WordNet) is left out with its reason
    in ``failed``; the others are kept.

    >>> c = compare(wmt22_sample(), n_samples=100)
    >>> round(c.score("bleu", "hyp.LT22.en"), 4), c.p_value("bleu", "hyp.JDExploreAcademy.en") is None
    (0.1939, True)
    """
    if not isinstance(corpus, CorpusSet):
        raise TypeError(f"corpus: expected a CorpusSet, got {type(corpus).__name__}")
    refs = corpus.references()
    results: dict[str, dict[str, Any]] = {}
    tests: dict[str, PairedTestResult] = {}
    failed: dict[str, str] = {}
    for metric in METRICS:
        if progress is not None:
            progress(f"{METRIC_NAMES[metric]}: scoring {len(corpus.systems)} system(s) of "
                     f"{corpus.n_segments:,} segments")
        try:
            with warnings.catch_warnings():  # one reference per segment: no layout to warn about
                warnings.simplefilter("ignore")
                results[metric] = {s.name: _CORPUS[metric](list(s.lines), refs) for s in corpus.systems}
        except LookupError as error:  # WordNet missing: the other metrics still show
            failed[metric] = f"{METRIC_NAMES[metric]}: {error}"
            continue
        if len(corpus.systems) > 1:
            tests[metric] = _metric_tests(metric, results[metric], n_samples, seed)
    return Comparison(corpus, results, tests, failed, n_samples, seed)


def sentence_scores(corpus: CorpusSet, system: str, metric: str) -> list[float]:
    """Each segment's sentence score of ``system`` (``metric``: ``"bleu"`` or ``"chrf"``, with
    :data:`SENTENCE_OPTIONS`), in line order.

    >>> [round(x, 4) for x in sentence_scores(wmt22_sample(), "hyp.LT22.en", "chrf")[:2]]
    [0.8698, 0.7098]
    """
    if metric not in SENTENCE_METRICS:
        raise ValueError(f"metric: unknown value {metric!r}; choose one of {', '.join(SENTENCE_METRICS)}")
    score = bleu if metric == "bleu" else chrf
    options = SENTENCE_OPTIONS[metric]
    return [float(score(h, [r], **options).score)
            for h, r in zip(corpus.hypotheses(system), corpus.reference.lines)]

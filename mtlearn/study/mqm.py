"""Expert MQM judgements with their texts: read Google's TSV, score every translation from its errors.

The data (``../shared/data/mqm_ted_zhen``, its README says where from) is Google's MQM
annotation of the WMT21 TED talks test suite, Chinese → English (Freitag et al. 2021,
"Experts, Errors, and Context", TACL). One row per annotated error, tab separated::

    system  doc  doc_id  seg_id  rater  source  target  category  severity

The *same row* holds the source, the translation and the error, so a metric computed on a
row's texts describes exactly the sentence the expert judged: no line-number join. The
error's words are marked ``<v>…</v>`` in ``target`` (or in ``source`` for a "Source
error"); :func:`strip_spans` removes the marks. A translation without errors has one row
with category and severity ``No-error``. The two human references, ``ref`` and ``refB``,
were rated like the systems.

The MQM score of a translation is minus the sum of its error weights (Freitag et al. 2021,
section 3; Google's ``mt-metrics-eval`` ``converters/score_mqm.py``): Major 5, Minor 1,
Minor ``Fluency/Punctuation`` 1/10, ``Non-translation`` 25, ``No-error``/``Neutral`` 0.
Higher is better, 0 is perfect; scores are exact fractions.

>>> error_weight("Accuracy/Mistranslation", "Major"), error_weight("Fluency/Punctuation", "Minor")
(Fraction(5, 1), Fraction(1, 10))
>>> mqm_score([("Style/Awkward", "Minor"), ("Fluency/Punctuation", "Minor"), ("Accuracy/Omission", "Major")])
Fraction(-61, 10)
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Optional, Union

__all__ = [
    "HEADER",
    "REFERENCES",
    "AVERAGE_FILE_ALIASES",
    "MAX_FILE_BYTES",
    "DATA_ENV",
    "strip_spans",
    "marked_span",
    "error_weight",
    "mqm_score",
    "MqmError",
    "MqmItem",
    "MqmData",
    "read_mqm",
    "read_average_scores",
    "find_data_dir",
    "error_counts",
]

#: The columns of the TSV, in order.
HEADER: tuple[str, ...] = ("system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category",
                          "severity")
#: The human references, rated like the systems; a reference text is the target of one of them.
REFERENCES: tuple[str, ...] = ("ref", "refB")
#: ``mqm_ted_zhen.avg_seg_scores.tsv`` names the references differently.
AVERAGE_FILE_ALIASES: Mapping[str, str] = {"ref-A": "ref", "ref-B": "refB"}
#: Files above this size are refused before they are read (the TSV is 2.6 MB).
MAX_FILE_BYTES = 64 * 2 ** 20
#: An environment variable that points :func:`find_data_dir` at the data.
DATA_ENV = "MTLEARN_MQM_TED_ZHEN"

_SPAN = re.compile(r"</?v>")
_MARKED = re.compile(r"<v>(.*?)</v>", re.S)
_NO_ERROR = ("no-error", "neutral")
_SEVERITY_WEIGHTS = {"major": Fraction(5), "minor": Fraction(1)}
_NON_TRANSLATION = Fraction(25)
_PUNCTUATION = Fraction(1, 10)

Key = tuple[str, int]


def strip_spans(text: str) -> str:
    """The text without the ``<v>``/``</v>`` marks around an error's words.

    >>> strip_spans("I want you to <v>take a moment</v> to consider")
    'I want you to take a moment to consider'
    """
    return _SPAN.sub("", text)


def marked_span(text: str) -> str:
    """The words between ``<v>`` and ``</v>`` (several marks joined by " … "), or "" if none.

    >>> marked_span("consider <v>the</v> very simple fact"), marked_span("no marks")
    ('the', '')
    """
    return " … ".join(_MARKED.findall(text))


def error_weight(category: str, severity: str) -> Fraction:
    """The weight of one annotated error (Freitag et al. 2021): what it costs the translation.

    ``Non-translation`` costs 25 whatever its severity (the rater could not judge the
    translation at all); a Minor ``Fluency/Punctuation`` error 1/10; otherwise Major 5 and
    Minor 1; a ``No-error`` (or ``Neutral``) row 0. An unknown severity is an error.

    >>> error_weight("Non-translation!", "Major"), error_weight("No-error", "No-error")
    (Fraction(25, 1), Fraction(0, 1))
    >>> error_weight("Accuracy/Omission", "Critical")
    Traceback (most recent call last):
    ...
    ValueError: severity: unknown value 'Critical'; expected Major, Minor, Neutral or No-error
    """
    sev = severity.strip().lower()
    if sev in _NO_ERROR:
        return Fraction(0)
    if sev not in _SEVERITY_WEIGHTS:
        raise ValueError(f"severity: unknown value {severity!r}; expected Major, Minor, Neutral or No-error")
    cat = category.strip().lower()
    if cat.startswith("non-translation"):
        return _NON_TRANSLATION
    if sev == "minor" and cat == "fluency/punctuation":
        return _PUNCTUATION
    return _SEVERITY_WEIGHTS[sev]


def mqm_score(errors: Iterable[tuple[str, str]]) -> Fraction:
    """Minus the summed weights of one rater's (category, severity) errors: 0 is perfect.

    >>> mqm_score([]), mqm_score([("No-error", "No-error")]), mqm_score([("Fluency/Grammar", "Major")] * 2)
    (Fraction(0, 1), Fraction(0, 1), Fraction(-10, 1))
    """
    return -sum((error_weight(c, s) for c, s in errors), Fraction(0))


@dataclass(frozen=True)
class MqmError:
    """One annotated error: what kind, how bad, which words, who marked it.

    ``span`` is the marked text (in the source when ``in_source``, for a "Source error"),
    "" when nothing was marked; ``weight`` is :func:`error_weight`.
    """

    category: str
    severity: str
    span: str
    in_source: bool
    rater: str
    weight: Fraction


@dataclass(frozen=True)
class MqmItem:
    """One rated translation: a system's output for one segment, with its errors and MQM score.

    ``score`` is the mean over ``raters`` of each rater's :func:`mqm_score` (one rater per
    item in this data, so it is that rater's score). ``errors`` excludes ``No-error`` rows.
    """

    system: str
    seg_id: int
    doc: str
    doc_id: str
    source: str
    target: str
    raters: tuple[str, ...]
    errors: tuple[MqmError, ...]
    score: Fraction


@dataclass(frozen=True)
class MqmData:
    """Every rated translation, on a complete grid: every system rated on every segment.

    ``systems`` are sorted (the MT systems and the references of :data:`REFERENCES`);
    ``seg_ids`` ascending. Lists returned by :meth:`scores` and :meth:`texts` follow
    ``seg_ids``.
    """

    items: Mapping[Key, MqmItem]
    systems: tuple[str, ...]
    seg_ids: tuple[int, ...]
    path: Optional[str] = None
    rows: int = 0
    _sources: tuple[str, ...] = field(default=(), repr=False)

    @property
    def mt_systems(self) -> tuple[str, ...]:
        """The systems that are not human references."""
        return tuple(s for s in self.systems if s not in REFERENCES)

    @property
    def references(self) -> tuple[str, ...]:
        """The human references present in the data, in :data:`REFERENCES` order."""
        return tuple(r for r in REFERENCES if r in self.systems)

    def item(self, system: str, seg_id: int) -> MqmItem:
        """The rated translation of ``seg_id`` by ``system``."""
        try:
            return self.items[(system, seg_id)]
        except KeyError:
            self._check_system(system)
            raise KeyError(f"seg_id: no segment {seg_id!r}; the data has {len(self.seg_ids)} segments "
                           f"({self.seg_ids[0]} … {self.seg_ids[-1]})") from None

    def _check_system(self, system: str) -> None:
        if system not in self.systems:
            raise KeyError(f"system: no system {system!r}; the systems are {', '.join(self.systems)}")

    def scores(self, system: str) -> list[Fraction]:
        """The MQM score of each segment's translation by ``system`` (exact)."""
        self._check_system(system)
        return [self.items[(system, s)].score for s in self.seg_ids]

    def texts(self, system: str) -> list[str]:
        """``system``'s translation of each segment, marks stripped (a reference's text for
        ``ref``/``refB``)."""
        self._check_system(system)
        return [self.items[(system, s)].target for s in self.seg_ids]

    def sources(self) -> list[str]:
        """The Chinese source of each segment, marks stripped."""
        return list(self._sources)

    def system_score(self, system: str) -> Fraction:
        """The system's MQM score: the mean of its segment scores (as WMT reports MQM)."""
        values = self.scores(system)
        return sum(values, Fraction(0)) / len(values)


# --------------------------------------------------------------------------------------- reading


def _check_size(path: Path) -> None:
    try:
        size = path.stat().st_size
    except OSError as e:
        raise FileNotFoundError(f"path: cannot read {path}: {e.strerror or e}") from None
    if not path.is_file():
        raise ValueError(f"path: {path} is not a file")
    if size > MAX_FILE_BYTES:
        raise ValueError(f"path: {path} has {size:,} bytes; files above {MAX_FILE_BYTES:,} are refused "
                         "(the MQM TSV of one language pair is a few MB)")


def _rows(path: Path) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) of every non-empty line, the header checked and skipped."""
    _check_size(path)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            # QUOTE_NONE: quotes occur inside the texts, and a default reader would merge rows.
            reader = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
            for number, cells in enumerate(reader, start=1):
                if number == 1:
                    if tuple(cells) != HEADER:
                        raise ValueError(f"path: {path.name} line 1 is not the MQM header "
                                         f"({' '.join(HEADER)}); got {' '.join(cells)[:120]!r}")
                    continue
                if cells:
                    yield number, cells
    except UnicodeDecodeError as e:
        raise ValueError(f"path: {path.name} is not UTF-8 text ({e.reason} at byte {e.start})") from None


@dataclass
class _Builder:
    """The rows of one (system, seg_id) as they are read, checked for consistency."""

    system: str
    seg_id: int
    doc: str
    doc_id: str
    source: str
    target: str
    errors: list[MqmError] = field(default_factory=list)
    raters: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def add(self, number: int, rater: str, source: str, target: str, category: str, severity: str) -> None:
        plain = strip_spans(target)
        if plain != self.target:
            raise ValueError(f"target: line {number} gives {self.system} segment {self.seg_id} another "
                             f"translation than its earlier rows (after stripping <v> marks)")
        try:
            weight = error_weight(category, severity)
        except ValueError as e:
            raise ValueError(f"{e} (line {number})") from None
        self.raters.setdefault(rater, []).append((category, severity))
        if severity.strip().lower() not in _NO_ERROR:
            in_source = "<v>" in source
            span = marked_span(source if in_source else target)
            self.errors.append(MqmError(category, severity, span, in_source, rater, weight))

    def build(self) -> MqmItem:
        per_rater = [mqm_score(errs) for errs in self.raters.values()]
        score = sum(per_rater, Fraction(0)) / len(per_rater)
        return MqmItem(self.system, self.seg_id, self.doc, self.doc_id, self.source, self.target,
                       tuple(sorted(self.raters)), tuple(self.errors), score)


def _seg_id(value: str, number: int) -> int:
    try:
        seg = int(value)
    except ValueError:
        raise ValueError(f"seg_id: line {number} has {value[:40]!r}, expected a whole number") from None
    if seg < 0:
        raise ValueError(f"seg_id: line {number} has {seg}, expected a number >= 0")
    return seg


def _read_builders(path: Path) -> tuple[dict[Key, _Builder], dict[int, str], int]:
    builders: dict[Key, _Builder] = {}
    sources: dict[int, str] = {}
    count = 0
    for number, cells in _rows(path):
        if len(cells) != len(HEADER):
            raise ValueError(f"path: {path.name} line {number} has {len(cells)} columns, expected "
                             f"{len(HEADER)} (tab separated)")
        system, doc, doc_id, seg, rater, source, target, category, severity = cells
        seg_id = _seg_id(seg, number)
        plain_source = strip_spans(source)
        if sources.setdefault(seg_id, plain_source) != plain_source:
            raise ValueError(f"source: line {number} gives segment {seg_id} another source than its "
                             "earlier rows (after stripping <v> marks)")
        key = (system, seg_id)
        if key not in builders:
            builders[key] = _Builder(system, seg_id, doc, doc_id, plain_source, strip_spans(target))
        builders[key].add(number, rater, source, target, category, severity)
        count += 1
    if not builders:
        raise ValueError(f"path: {path.name} has a header but no rows")
    return builders, sources, count


def _check_grid(keys: Iterable[Key], systems: Sequence[str], seg_ids: Sequence[int]) -> None:
    present = set(keys)
    missing = [(s, g) for s in systems for g in seg_ids if (s, g) not in present]
    if missing:
        shown = ", ".join(f"{s}/{g}" for s, g in missing[:5])
        raise ValueError(f"path: {len(missing)} (system, segment) pairs are not rated ({shown}"
                         f"{', …' if len(missing) > 5 else ''}); "
                         "the study needs every system on every segment")


def read_mqm(path: Union[str, os.PathLike]) -> MqmData:
    """Read ``mqm_ted_zhen.tsv`` (or another language pair's TSV of the same layout).

    Checks as it reads: the header, 9 tab-separated cells a row, whole-number seg ids,
    known severities, one translation per (system, segment) and one source per segment
    once the ``<v>`` marks are stripped, and a complete grid (every system rated on
    every segment). Any failure is a ValueError naming the line.
    """
    p = Path(path)
    builders, sources, count = _read_builders(p)
    systems = tuple(sorted({s for s, _ in builders}))
    seg_ids = tuple(sorted(sources))
    _check_grid(builders, systems, seg_ids)
    items = {key: b.build() for key, b in sorted(builders.items())}
    return MqmData(items, systems, seg_ids, str(p), count, tuple(sources[g] for g in seg_ids))


def read_average_scores(path: Union[str, os.PathLike]) -> dict[Key, Optional[float]]:
    """The authors' per-segment MQM scores (``mqm_ted_zhen.avg_seg_scores.tsv``).

    Each line is ``system<TAB>score seg_id`` (a space between the last two); ``None`` for
    a segment that was not rated. References are renamed by :data:`AVERAGE_FILE_ALIASES`
    so that keys match :func:`read_mqm`'s.
    """
    p = Path(path)
    _check_size(p)
    out: dict[Key, Optional[float]] = {}
    with open(p, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            line = line.rstrip("\n")
            if number == 1 or not line.strip():
                continue
            system, _, rest = line.partition("\t")
            parts = rest.split()
            if not system or len(parts) != 2:
                raise ValueError(f"path: {p.name} line {number} is not "
                                 f"'system<TAB>score seg_id': {line[:80]!r}")
            score, seg = parts
            try:
                value = None if score == "None" else float(score)
            except ValueError:
                raise ValueError(f"path: {p.name} line {number} has score {score[:40]!r}, "
                                 "expected a number or None") from None
            out[(AVERAGE_FILE_ALIASES.get(system, system), _seg_id(seg, number))] = value
    return out


def find_data_dir(start: Optional[Union[str, os.PathLike]] = None) -> Path:
    """Where the data is: ``$MTLEARN_MQM_TED_ZHEN``, else ``shared/data/mqm_ted_zhen`` in a parent folder.

    From a clone ``/work/mtlearn`` (or its ``notebooks/``), ``/work/shared/data/mqm_ted_zhen``
    is found. Raises FileNotFoundError saying where it looked.
    """
    env = os.environ.get(DATA_ENV)
    if env:
        p = Path(env)
        if not (p / "mqm_ted_zhen.tsv").is_file():
            raise FileNotFoundError(f"{DATA_ENV}: {p} has no mqm_ted_zhen.tsv")
        return p
    here = Path(start) if start is not None else Path.cwd()
    for folder in (here, *here.resolve().parents):
        candidate = folder / "shared" / "data" / "mqm_ted_zhen"
        if (candidate / "mqm_ted_zhen.tsv").is_file():
            return candidate
    raise FileNotFoundError(f"the MQM data (shared/data/mqm_ted_zhen) is not in {here} or a parent folder; "
                            f"set {DATA_ENV} to its folder")


def error_counts(data: MqmData, systems: Optional[Sequence[str]] = None) -> dict[tuple[str, str], int]:
    """How often each (category, severity) was marked in the translations of ``systems`` (default: all).

    Most frequent first (then by name). The counts need the data (``../shared``): the shipped
    tables hold only the severities (``systems.csv``).

    >>> e = MqmError("Accuracy/Mistranslation", "Major", "x", False, "r1", Fraction(5))
    >>> item = MqmItem("A", 1, "d", "1", "src", "tgt", ("r1",), (e, e), Fraction(-10))
    >>> error_counts(MqmData({("A", 1): item}, ("A",), (1,)))
    {('Accuracy/Mistranslation', 'Major'): 2}
    """
    names = data.systems if systems is None else tuple(systems)
    for name in names:
        data._check_system(name)
    counts: dict[tuple[str, str], int] = {}
    for name in names:
        for seg in data.seg_ids:
            for e in data.items[(name, seg)].errors:
                counts[(e.category, e.severity)] = counts.get((e.category, e.severity), 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

"""The shipped tables of the expert-MQM study, read into dataclasses: no texts needed.

``studies/mqm_ted_zhen.py`` scored the WMT21 TED talks (Chinese → English) once and wrote
small CSV tables of derived numbers into ``mtlearn/study/data/mqm_ted_zhen/`` (its README
says how each number is computed). :func:`load_mqm_tables` reads them as package data, so
a notebook or an explorer shows them anywhere, offline, without ``../shared``.

>>> t = load_mqm_tables()
>>> t.system("ref").mqm_rank, t.system("refB").mqm_rank, len(t.mt_systems)
(15, 1, 13)
>>> r = t.segment("ref", "meteor", "pearson", "none")
>>> round(r.value, 3), r.n_groups
(0.086, 1)
>>> s = t.system_level("ref", "bleu", "accuracy")
>>> (s.agreeing, s.comparisons, round(s.value, 3))
(25, 78, 0.321)
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Optional

__all__ = ["SEGMENT_STATISTICS", "GROUPING_NAMES", "STATISTIC_NAMES", "MqmSystem", "SegmentRow",
           "SystemLevelRow", "SystemScoreRow", "WithinSystemRow", "MqmTables", "load_mqm_tables"]

_DATA = ("data", "mqm_ted_zhen")

#: The segment-level statistics of ``segment_level.csv``, in table order.
SEGMENT_STATISTICS: tuple[str, ...] = ("pearson", "kendall", "accuracy_eq")
#: How a notebook names each statistic (the yardstick is named by the caller).
STATISTIC_NAMES: Mapping[str, str] = {"pearson": "Pearson's r", "kendall": "Kendall's tau_b",
                                      "accuracy_eq": "pairwise accuracy with ties (acc_eq, tie-calibrated)",
                                      "spearman": "Spearman's rho", "accuracy": "pairwise accuracy"}
#: How a notebook names each grouping of the WMT metrics task.
GROUPING_NAMES: Mapping[str, str] = {"none": "no grouping", "system": "group by system",
                                     "item": "group by item"}


@dataclass(frozen=True)
class MqmSystem:
    """One row of ``systems.csv``: a system (or a human reference) as the experts judged it."""

    system: str
    kind: str
    mqm: float
    mqm_rank: int
    segments: int
    major_errors: int
    minor_errors: int
    minor_punctuation_errors: int
    non_translation_errors: int
    source_errors: int
    perfect_segments: int
    raters: int

    @property
    def perfect_share(self) -> float:
        """The share of its segments with no error at all (MQM 0)."""
        return self.perfect_segments / self.segments


@dataclass(frozen=True)
class SegmentRow:
    """One row of ``segment_level.csv`` (the constant metric's row: reference ``none``, metric
    ``constant``)."""

    reference: str
    metric: str
    statistic: str
    grouping: str
    value: float
    ci_low: Optional[float]
    ci_high: Optional[float]
    n_groups: int
    n_undefined_groups: int
    epsilon: Optional[float]


@dataclass(frozen=True)
class SystemLevelRow:
    """One row of ``system_level.csv``: a corpus metric against the experts' system scores."""

    reference: str
    metric: str
    systems: str
    n_systems: int
    statistic: str
    value: float
    agreeing: Optional[int]
    comparisons: Optional[int]
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class SystemScoreRow:
    """One row of ``system_scores.csv``: a system's corpus score and mean sentence score (TER, WER raw)."""

    reference: str
    metric: str
    system: str
    corpus: float
    sentence_mean: float


@dataclass(frozen=True)
class WithinSystemRow:
    """One row of ``within_system.csv``: one MT system's 529 segments, metric against MQM."""

    reference: str
    metric: str
    system: str
    segments: int
    pearson: float
    kendall: float
    pearson_shuffled: float


def _text(name: str) -> str:
    return resources.files("mtlearn.study").joinpath(*_DATA, name).read_text(encoding="utf-8")


def _rows(name: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(_text(name))))


def _float(value: str) -> Optional[float]:
    return None if value == "" else float(value)


def _int(value: str) -> Optional[int]:
    return None if value == "" else int(value)


def _systems(rows: list[dict[str, str]]) -> tuple[MqmSystem, ...]:
    ints = ("mqm_rank", "segments", "major_errors", "minor_errors", "minor_punctuation_errors",
            "non_translation_errors", "source_errors", "perfect_segments", "raters")
    return tuple(MqmSystem(r["system"], r["kind"], float(r["mqm"]), *(int(r[k]) for k in ints)) for r in rows)


def _segment_rows(rows: list[dict[str, str]]) -> tuple[SegmentRow, ...]:
    return tuple(SegmentRow(r["reference"], r["metric"], r["statistic"], r["grouping"], float(r["value"]),
                            _float(r["ci_low"]), _float(r["ci_high"]), int(r["n_groups"]),
                            int(r["n_undefined_groups"] or 0), _float(r["epsilon"])) for r in rows)


def _system_level_rows(rows: list[dict[str, str]]) -> tuple[SystemLevelRow, ...]:
    return tuple(SystemLevelRow(r["reference"], r["metric"], r["systems"], int(r["n_systems"]),
                                r["statistic"],
                                float(r["value"]), _int(r["agreeing"]), _int(r["comparisons"]),
                                float(r["ci_low"]), float(r["ci_high"])) for r in rows)


def _score_rows(rows: list[dict[str, str]]) -> tuple[SystemScoreRow, ...]:
    return tuple(SystemScoreRow(r["reference"], r["metric"], r["system"], float(r["corpus"]),
                                float(r["sentence_mean"]))
                 for r in rows)


def _within_rows(rows: list[dict[str, str]]) -> tuple[WithinSystemRow, ...]:
    return tuple(WithinSystemRow(r["reference"], r["metric"], r["system"], int(r["segments"]),
                                 float(r["pearson"]),
                                 float(r["kendall"]), float(r["pearson_shuffled"])) for r in rows)


def _unique(values: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


@dataclass(frozen=True)
class MqmTables:
    """Every shipped table of the study; look rows up with the methods, which name what is unknown."""

    systems: tuple[MqmSystem, ...]
    segment_rows: tuple[SegmentRow, ...]
    system_level_rows: tuple[SystemLevelRow, ...]
    within_rows: tuple[WithinSystemRow, ...]
    score_rows: tuple[SystemScoreRow, ...]
    disagreement_rows: tuple[Mapping[str, str], ...]
    settings: Mapping[str, Any]

    @property
    def metrics(self) -> tuple[str, ...]:
        """The study's metrics, in table order (``segment_level.csv``; not the constant metric)."""
        return _unique(r.metric for r in self.segment_rows if r.metric != "constant")

    @property
    def references(self) -> tuple[str, ...]:
        """The reference sets: ``ref``, ``refB``, ``ref+refB``."""
        return _unique(r.reference for r in self.segment_rows if r.metric != "constant")

    @property
    def mt_systems(self) -> tuple[str, ...]:
        """The 13 MT systems (not the human references)."""
        return tuple(s.system for s in self.systems if s.kind == "mt")

    def system(self, name: str) -> MqmSystem:
        """The row of ``systems.csv`` for ``name`` (an MT system, ``ref`` or ``refB``)."""
        for s in self.systems:
            if s.system == name:
                return s
        raise LookupError(f"system: no system {name!r}; the systems are "
                          f"{', '.join(s.system for s in self.systems)}")

    def _check(self, reference: str, metric: str) -> None:
        if reference not in self.references:
            raise LookupError(f"reference: unknown value {reference!r}; choose one of "
                              f"{', '.join(self.references)}")
        if metric not in self.metrics:
            raise LookupError(f"metric: unknown value {metric!r}; choose one of {', '.join(self.metrics)}")

    def segment(self, reference: str, metric: str, statistic: str, grouping: str) -> SegmentRow:
        """The segment-level row of ``metric`` against ``reference``.

        >>> round(load_mqm_tables().segment("refB", "chrf", "kendall", "system").value, 3)
        0.124
        """
        self._check(reference, metric)
        for r in self.segment_rows:
            if (r.reference, r.metric, r.statistic, r.grouping) == (reference, metric, statistic, grouping):
                return r
        raise LookupError(f"statistic: no row for {statistic!r} grouped by {grouping!r}; the table has "
                          + ", ".join(sorted({f'{r.statistic}/{r.grouping}' for r in self.segment_rows})))

    @property
    def constant(self) -> SegmentRow:
        """The acc_eq of a metric that gives every translation the same score: the level to beat.

        Tie calibration lets it call every pair a tie, so it is right on exactly the pairs
        the experts tie (two perfect translations tie at 0).

        >>> round(load_mqm_tables().constant.value, 3)
        0.416
        """
        return next(r for r in self.segment_rows if r.metric == "constant")

    def system_level(self, reference: str, metric: str, statistic: str,
                     systems: str = "mt") -> SystemLevelRow:
        """The system-level row (``systems``: ``mt``, or ``mt+human`` with the other reference as a
        system)."""
        self._check(reference, metric)
        for r in self.system_level_rows:
            if (r.reference, r.metric, r.statistic, r.systems) == (reference, metric, statistic, systems):
                return r
        raise LookupError(f"statistic: no system-level row for {metric!r}, {statistic!r}, {systems!r} "
                          f"against {reference!r} (bleu_add1 has no corpus score; "
                          "mt+human needs one reference)")

    def within(self, reference: str, metric: str, system: str) -> WithinSystemRow:
        """One MT system's row of ``within_system.csv``."""
        self._check(reference, metric)
        for r in self.within_rows:
            if (r.reference, r.metric, r.system) == (reference, metric, system):
                return r
        raise LookupError(f"system: no MT system {system!r}; choose one of {', '.join(self.mt_systems)}")

    def corpus_score(self, reference: str, metric: str, system: str) -> float:
        """``system``'s corpus score against ``reference`` (the other human reference is scored too).

        >>> round(load_mqm_tables().corpus_score("ref", "bleu", "refB"), 4)
        0.2665
        """
        self._check(reference, metric)
        for r in self.score_rows:
            if (r.reference, r.metric, r.system) == (reference, metric, system):
                return r.corpus
        raise LookupError(f"system: no corpus score of {system!r} for {metric!r} against {reference!r}")

    def disagreements(self, reference: str, metric: str) -> list[Mapping[str, str]]:
        """The rows of ``disagreements.csv`` for ``reference`` and ``metric``, worst first."""
        self._check(reference, metric)
        return [r for r in self.disagreement_rows if (r["reference"], r["metric"]) == (reference, metric)]


def load_mqm_tables() -> MqmTables:
    """Read every shipped table of the study (package data: offline, from an installed wheel too).

    >>> load_mqm_tables().references
    ('ref', 'refB', 'ref+refB')
    """
    return MqmTables(_systems(_rows("systems.csv")), _segment_rows(_rows("segment_level.csv")),
                     _system_level_rows(_rows("system_level.csv")), _within_rows(_rows("within_system.csv")),
                     _score_rows(_rows("system_scores.csv")),
                     tuple(_rows("disagreements.csv")), json.loads(_text("settings.json")))

"""BERTScore-mini and COMET-mini in the WMT22 system-level study: the shipped tables, and how they are made.

``studies/wmt22_learned.py`` scores every into-English MT system of the WMT22 tables with mtlearn's two
learned miniatures against the pair's first reference
(:func:`~mtlearn.study.agreement.default_reference` of WMT's COMET) and writes ``learned_scores.csv``;
:func:`learned_correlation_rows` turns those scores and the shipped
``systems.csv`` / ``reference_scores.csv`` into ``learned_correlations.csv``: Pearson, Spearman and Kendall
with the human z, and pairwise accuracy, with the shipped tables' bootstrap settings (read from their
``settings.json``). BLEU, chrF and WMT's COMET are *read* from the shipped tables for the same systems, so
every metric is compared on one footing. No text is stored: figures only.

>>> t = load_learned()
>>> len({s.pair for s in t.scores}), sorted({c.metric for c in t.correlations})
(6, ['bertscore', 'bleu', 'chrf', 'comet', 'comet_mini'])
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from mtlearn.study.accuracy import bootstrap_accuracy, pooled_accuracy
from mtlearn.study.agreement.tables import AgreementTables, default_reference
from mtlearn.study.correlation import bootstrap_ci, kendall_tau, pearson, spearman

__all__ = [
    "LEARNED_FILES",
    "LEARNED_METRICS",
    "LearnedRow",
    "LearnedScore",
    "LearnedTables",
    "learned_correlation_rows",
    "load_learned",
    "metric_values",
    "read_learned_scores",
]

#: The files ``studies/wmt22_learned.py`` writes beside the shipped WMT22 tables.
LEARNED_FILES = {"scores": "learned_scores.csv", "correlations": "learned_correlations.csv",
                 "settings": "learned_settings.json"}
#: Every metric of ``learned_correlations.csv``; the last two are mtlearn's learned miniatures.
LEARNED_METRICS = ("bleu", "chrf", "comet", "bertscore", "comet_mini")
#: The metrics also compared against all of a pair's references (``systems.csv``).
ALL_REFERENCE_METRICS = ("bleu", "chrf")
POOLED = "pooled"
FIRST = "first"  # the reference of a pooled row: each pair's first
_STATISTICS: dict[str, Callable[[Sequence[float], Sequence[float]], float]] = {
    "pearson": pearson, "spearman": spearman, "kendall": kendall_tau}
HEADER = ["scope", "reference", "metric", "statistic", "human_score", "n_systems", "comparisons", "agreeing",
          "value", "ci_low", "ci_high", "ci_level", "n_resamples", "n_valid_resamples", "seed"]


@dataclass(frozen=True)
class LearnedScore:
    """One row of ``learned_scores.csv``: a system's corpus BERTScore-mini F1 and COMET-mini (0..1 and
    COMET-mini's regression scale) against ``reference`` over ``segments`` segments."""

    pair: str
    system: str
    reference: str
    bertscore: float
    comet_mini: float
    segments: int


@dataclass(frozen=True)
class LearnedRow:
    """One row of ``learned_correlations.csv``: a correlation (``statistic`` pearson, spearman, kendall) or a
    pairwise accuracy (``statistic`` accuracy, with ``comparisons`` and ``agreeing``) in one pair, or pooled
    over all pairs (``scope`` "pooled", ``reference`` "first"), with its bootstrap interval."""

    scope: str
    reference: str
    metric: str
    statistic: str
    human_score: str
    n_systems: int
    comparisons: int | None
    agreeing: int | None
    value: float
    ci_low: float
    ci_high: float
    ci_level: float
    n_resamples: int
    n_valid_resamples: int
    seed: int


@dataclass(frozen=True)
class LearnedTables:
    """Both learned tables and their settings."""

    scores: tuple[LearnedScore, ...]
    correlations: tuple[LearnedRow, ...]
    settings: dict[str, Any]

    def row(self, scope: str, metric: str, statistic: str, reference: str | None = None) -> LearnedRow:
        """The row of ``scope`` and ``metric`` (reference: the first, or "first" when pooled, by default).

        >>> load_learned().row("pooled", "comet", "accuracy").comparisons
        329
        """
        ref = reference or (FIRST if scope == POOLED else None)
        for r in self.correlations:
            if (r.scope, r.metric, r.statistic) == (scope, metric, statistic) and (
                    r.reference == ref or (ref is None and r.reference != "all")):
                return r
        raise ValueError(f"no row for scope {scope!r}, metric {metric!r}, statistic {statistic!r}")


def _opt_int(cell: str) -> int | None:
    return int(cell) if cell != "" else None


_SCORE_TYPES: dict[str, Callable[[str], Any]] = {
    "pair": str, "system": str, "reference": str, "bertscore": float, "comet_mini": float, "segments": int}
_ROW_TYPES: dict[str, Callable[[str], Any]] = {
    "scope": str, "reference": str, "metric": str, "statistic": str, "human_score": str, "n_systems": int,
    "comparisons": _opt_int, "agreeing": _opt_int, "value": float, "ci_low": float, "ci_high": float,
    "ci_level": float, "n_resamples": int, "n_valid_resamples": int, "seed": int}


def _parse(text: str, row_type: Callable[..., Any], types: dict[str, Callable[[str], Any]]) -> tuple:
    return tuple(row_type(**{k: f(r[k]) for k, f in types.items()})
                 for r in csv.DictReader(io.StringIO(text)))


def read_learned_scores(text: str) -> tuple[LearnedScore, ...]:
    """``learned_scores.csv``'s text, parsed.

    >>> read_learned_scores("pair,system,reference,bertscore,comet_mini,segments\\nde-en,X,A,0.9,0.1,3\\n")
    (LearnedScore(pair='de-en', system='X', reference='A', bertscore=0.9, comet_mini=0.1, segments=3),)
    """
    return _parse(text, LearnedScore, _SCORE_TYPES)


def _read(name: str) -> str:
    folder = resources.files("mtlearn.study").joinpath("data", "wmt22_agreement")
    return folder.joinpath(name).read_text(encoding="utf-8")


def load_learned() -> LearnedTables:
    """Read the shipped learned tables (package data: offline).

    >>> t = load_learned()
    >>> len(t.scores), t.settings["reference"]["cs-en"]
    (66, 'B')
    """
    return LearnedTables(read_learned_scores(_read(LEARNED_FILES["scores"])),
                         _parse(_read(LEARNED_FILES["correlations"]), LearnedRow, _ROW_TYPES),
                         json.loads(_read(LEARNED_FILES["settings"])))


# --------------------------------------------------------------------------- computing the correlations


def _available(pair: str, metric: str, reference: str, scores: Sequence[LearnedScore],
               tables: AgreementTables) -> dict[str, float | None]:
    """System -> score of ``metric`` against ``reference`` in ``pair``, from wherever that metric lives."""
    if metric in ("bertscore", "comet_mini"):
        return {s.system: getattr(s, metric) for s in scores if s.pair == pair and s.reference == reference}
    if reference == "all":
        return {s.system: getattr(s, metric) for s in tables.systems if s.pair == pair}
    column = "wmt_comet" if metric == "comet" else metric
    return {r.system: getattr(r, column) for r in tables.reference_scores
            if r.pair == pair and r.reference == reference}


def metric_values(pair: str, metric: str, reference: str, systems: Sequence[str],
                  scores: Sequence[LearnedScore], tables: AgreementTables) -> list[float]:
    """Each system's score: the learned ones from ``scores``, BLEU/chrF/COMET from the shipped tables
    (``systems.csv`` for reference "all", ``reference_scores.csv`` for one reference).

    >>> from mtlearn.study.agreement import load_agreement
    >>> metric_values("de-en", "comet", "A", ["JDExploreAcademy"], (), load_agreement())
    [0.579536]
    """
    got = _available(pair, metric, reference, scores, tables)
    missing = [s for s in systems if got.get(s) is None]
    if missing:
        raise ValueError(f"scores: no {metric} against {reference} for {pair} {', '.join(missing)}")
    return [float(got[s]) for s in systems]  # type: ignore[arg-type]


def _scored(pair: str, tables: AgreementTables) -> tuple[list[str], list[float]]:
    rows = sorted((s.system, s.human_z) for s in tables.systems if s.pair == pair and s.scored)
    return [r[0] for r in rows], [float(r[1]) for r in rows]


def _accuracy_row(scope: str, reference: str, metric: str, groups: list, settings: dict) -> list:
    acc = pooled_accuracy(groups)
    ci = bootstrap_accuracy(groups, n_resamples=settings["n_resamples"], seed=settings["seed"],
                            level=settings["level"])
    return [scope, reference, metric, "accuracy", "z", sum(len(g[0]) for g in groups), acc.comparisons,
            acc.agreeing, float(acc.value), ci.low, ci.high, ci.level, ci.n_resamples, ci.n_valid, ci.seed]


def learned_correlation_rows(scores: Sequence[LearnedScore],
                             tables: AgreementTables) -> tuple[list[str], list[list]]:
    """``learned_correlations.csv``: per pair, metric and reference, the three correlations with the human z
    (bootstrap of ``system_correlations.csv``) and pairwise accuracy (that of ``pairwise_accuracy.csv``);
    then the accuracy pooled over every pair, each against its first reference."""
    corr, acc = tables.settings["system_level_ci"], tables.settings["pairwise_accuracy"]
    rows, pooled = [], {m: [] for m in LEARNED_METRICS}
    pooled_all: dict[str, list] = {m: [] for m in ALL_REFERENCE_METRICS}
    for pair in sorted({s.pair for s in scores}):
        systems, human = _scored(pair, tables)
        first = default_reference(pair, "comet", tables=tables)
        for reference, metrics in ((first, LEARNED_METRICS), ("all", ALL_REFERENCE_METRICS)):
            for metric in metrics:
                x = metric_values(pair, metric, reference, systems, scores, tables)
                for name, stat in _STATISTICS.items():
                    ci = bootstrap_ci(stat, x, human, n_resamples=corr["n_resamples"], seed=corr["seed"],
                                      level=corr["level"])
                    rows.append([pair, reference, metric, name, "z", len(systems), None, None, ci.estimate,
                                 ci.low, ci.high, ci.level, ci.n_resamples, ci.n_valid, ci.seed])
                rows.append(_accuracy_row(pair, reference, metric, [(x, human)], acc))
                (pooled if reference == first else pooled_all)[metric].append((x, human))
    for metric, groups in pooled.items():
        rows.append(_accuracy_row(POOLED, FIRST, metric, groups, acc))
    for metric, groups in pooled_all.items():
        rows.append(_accuracy_row(POOLED, "all", metric, groups, acc))
    return HEADER, rows

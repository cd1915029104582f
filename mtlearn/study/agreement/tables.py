"""The shipped WMT22 agreement tables read from the package's data (offline), and what every question checks.

:func:`load_agreement` reads every table of ``mtlearn/study/data/wmt22_agreement/`` into the rows of
:mod:`.rows`; :func:`agreement_tables` is what each question calls with its ``tables`` argument
(``None``: read again, they are small). The checks that need the tables live here: a pair, a
reference set, a system of a pair.

>>> t = load_agreement()
>>> pairs(tables=t), references("de-en", tables=t)
(('cs-en', 'de-en', 'ja-en', 'ru-en', 'uk-en', 'zh-en'), ('all', 'A', 'B'))
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any, Optional, TypeVar

from mtlearn.study.agreement.rows import (
    SIGNIFICANCE_METRICS,
    JoinCheck,
    MetricDifference,
    PairwiseAccuracyRow,
    PairwiseComparison,
    ReferenceScore,
    SegmentCounts,
    SystemCorrelation,
    SystemScore,
    _choose,
    check_metric,
)

_DATA = ("data", "wmt22_agreement")
Row = TypeVar("Row")


@dataclass(frozen=True)
class AgreementTables:
    """All shipped tables, read once: rows as dataclasses, ``settings`` as parsed JSON.

    >>> t = load_agreement()
    >>> t.pairs, len(t.systems), len(t.system_correlations), len(t.join_checks) > 0
    (('cs-en', 'de-en', 'ja-en', 'ru-en', 'uk-en', 'zh-en'), 69, 216, True)
    >>> len(t.pairwise), t.settings["system_level_ci"]["n_resamples"]
    (329, 1000)
    """

    systems: tuple[SystemScore, ...]
    system_correlations: tuple[SystemCorrelation, ...]
    join_checks: tuple[JoinCheck, ...]
    pairwise: tuple[PairwiseComparison, ...]
    segment_counts: tuple[SegmentCounts, ...]
    settings: dict[str, Any]
    reference_scores: tuple[ReferenceScore, ...] = ()
    accuracies: tuple[PairwiseAccuracyRow, ...] = ()

    @property
    def pairs(self) -> tuple[str, ...]:
        """The language pairs, in the tables' (alphabetical) order."""
        return tuple(self.settings["pairs"])


def _read_text(name: str) -> str:
    return resources.files("mtlearn.study").joinpath(*_DATA, name).read_text(encoding="utf-8")


def _rows(name: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(_read_text(name))))


def _opt_float(cell: str) -> Optional[float]:
    return float(cell) if cell != "" else None


def _opt_int(cell: str) -> Optional[int]:
    return int(cell) if cell != "" else None


def _flag(cell: str) -> bool:
    if cell not in ("0", "1"):
        raise ValueError(f"expected 0 or 1 in a flag column, got {cell!r}")
    return cell == "1"


def _opt_flag(cell: str) -> Optional[bool]:
    return _flag(cell) if cell != "" else None


def _names(cell: str) -> tuple[str, ...]:
    # The study joins lists with "+"; an empty cell is an empty list.
    return tuple(cell.split("+")) if cell else ()


def _convert(row: dict[str, str], types: dict[str, Callable[[str], Any]]) -> dict[str, Any]:
    return {name: convert(row[name]) for name, convert in types.items()}


def _typed(row_type: Callable[..., Row], name: str,
           types: dict[str, Callable[[str], Any]]) -> tuple[Row, ...]:
    """Every row of the table ``name``, its cells converted by ``types``, as ``row_type``."""
    return tuple(row_type(**_convert(r, types)) for r in _rows(name))


_SYSTEM_TYPES: dict[str, Callable[[str], Any]] = {
    "pair": str, "system": str, "human_label": lambda c: c or None, "kind": str, "has_output": _flag,
    "bleu": _opt_float, "meteor": _opt_float, "chrf": _opt_float, "meteor_unproven_segments": _opt_int,
    "wmt_bleu_all": _opt_float, "wmt_chrf_all": _opt_float, "human_z": _opt_float, "human_raw": _opt_float,
    "human_segments": _opt_int, "human_judgements_all": _opt_int,
}
_SYSCORR_TYPES: dict[str, Callable[[str], Any]] = {
    "pair": str, "reference": str, "metric": str, "statistic": str, "human_score": str, "n_systems": int,
    "value": float, "ci_low": float, "ci_high": float, "ci_level": float, "n_resamples": int,
    "n_valid_resamples": int, "seed": int,
}
_REFERENCE_TYPES: dict[str, Callable[[str], Any]] = {
    "pair": str, "system": str, "reference": str,
    "bleu": _opt_float, "meteor": _opt_float, "chrf": _opt_float,
    "wmt_bleu": _opt_float, "wmt_chrf": _opt_float, "wmt_comet": _opt_float,
}
_ACCURACY_TYPES: dict[str, Callable[[str], Any]] = {
    "scope": str, "reference": str, "metric": str, "human_score": str, "pairs": _names, "n_systems": int,
    "comparisons": int, "agreeing": int, "metric_ties": int, "human_ties": int, "value": float,
    "ci_low": float, "ci_high": float, "ci_level": float, "n_resamples": int, "n_valid_resamples": int,
    "seed": int,
}
_JOIN_TYPES: dict[str, Callable[[str], Any]] = {
    "pair": str, "system": str, "x": str, "y": str, "alignment": str, "offset": _opt_int,
    "n_items": int, "pearson": _opt_float,
}
_COUNTS_TYPES: dict[str, Callable[[str], Any]] = {
    "pair": str, "segments": int, "references": int, "reference_ids": _names,
    "systems_with_output": int, "mt_systems_scored": int, "human_translation_rows": _names,
    "outputs_without_human_score": _names, "mt_scored_items": int, "mt_scored_items_min": int,
    "mt_scored_items_max": int, "segments_never_scored": int, "segments_scored_2plus_mt": int,
    "judgements_per_item_mean": float, "sys_n_equals_segment_rows": _flag,
    "sys_z_vs_segment_mean_max_diff": float,
}


def _pairwise_row(row: dict[str, str]) -> PairwiseComparison:
    sides = {
        m: MetricDifference(metric=m, a=float(row[f"{m}_a"]), b=float(row[f"{m}_b"]),
                            diff=float(row[f"{m}_diff"]), p_value=float(row[f"{m}_p"]),
                            significant=_flag(row[f"{m}_significant"]), agrees=_opt_flag(row[f"{m}_agrees"]))
        for m in SIGNIFICANCE_METRICS
    }
    return PairwiseComparison(
        pair=row["pair"], system_a=row["system_a"], system_b=row["system_b"],
        human_z_a=float(row["human_z_a"]), human_z_b=float(row["human_z_b"]),
        human_z_diff=float(row["human_z_diff"]), human_p=float(row["human_p"]),
        human_significant=_flag(row["human_significant"]), **sides,
    )


def load_agreement() -> AgreementTables:
    """Read every shipped table (package data, so it works offline and from an installed wheel).

    >>> from mtlearn.study.agreement import segment_counts
    >>> t = load_agreement()
    >>> [c.pair for c in t.segment_counts]
    ['cs-en', 'de-en', 'ja-en', 'ru-en', 'uk-en', 'zh-en']
    """
    return AgreementTables(
        systems=_typed(SystemScore, "systems.csv", _SYSTEM_TYPES),
        system_correlations=_typed(SystemCorrelation, "system_correlations.csv", _SYSCORR_TYPES),
        join_checks=_typed(JoinCheck, "join_check.csv", _JOIN_TYPES),
        pairwise=tuple(_pairwise_row(r) for r in _rows("pairwise_significance.csv")),
        segment_counts=_typed(SegmentCounts, "segment_counts.csv", _COUNTS_TYPES),
        settings=json.loads(_read_text("settings.json")),
        reference_scores=_typed(ReferenceScore, "reference_scores.csv", _REFERENCE_TYPES),
        accuracies=_typed(PairwiseAccuracyRow, "pairwise_accuracy.csv", _ACCURACY_TYPES),
    )


# --------------------------------------------------------------------------- checking arguments


def agreement_tables(tables: Optional[AgreementTables]) -> AgreementTables:
    """``tables`` checked, or the shipped tables (:func:`load_agreement`) when ``None``.

    >>> agreement_tables(None).pairs == load_agreement().pairs
    True
    """
    if tables is None:
        return load_agreement()
    if not isinstance(tables, AgreementTables):
        raise TypeError(f"tables: expected the result of load_agreement(), got {type(tables).__name__}")
    return tables


def check_pair(pair: object, t: AgreementTables, argname: str = "pair") -> str:
    """``pair`` if the tables ``t`` have that language pair, else a clear error naming ``argname``.

    >>> check_pair("de-en", load_agreement())
    'de-en'
    """
    return _choose(pair, t.pairs, argname, "pair")


def pairs(*, tables: Optional[AgreementTables] = None) -> tuple[str, ...]:
    """The language pairs of the tables.

    >>> len(pairs()), all(p.endswith("-en") for p in pairs())
    (6, True)
    """
    return agreement_tables(tables).pairs


def references(pair: str, *, tables: Optional[AgreementTables] = None) -> tuple[str, ...]:
    """The reference sets a metric of ``pair`` can be scored against: ``"all"``, then each id.

    >>> references("de-en"), references("cs-en"), references("ja-en")
    (('all', 'A', 'B'), ('all', 'B', 'C'), ('all', 'A'))
    """
    t = agreement_tables(tables)
    pair = check_pair(pair, t)
    return ("all", *next(c.reference_ids for c in t.segment_counts if c.pair == pair))


def default_reference(pair: str, metric: str, *, tables: Optional[AgreementTables] = None) -> str:
    """The reference used when none is given: ``"all"``, but for WMT's COMET (one reference) the
    pair's first (``"A"``; cs-en has B and C); ``pair="pooled"`` pools over the pairs with A.

    >>> default_reference("de-en", "bleu"), default_reference("de-en", "comet")
    ('all', 'A')
    >>> default_reference("cs-en", "comet")
    'B'
    """
    t = agreement_tables(tables)
    if check_metric(metric) != "comet":
        return "all"
    return "A" if pair == "pooled" else references(pair, tables=t)[1]


def check_reference(reference: Optional[str], pair: str, metric: str, t: AgreementTables) -> str:
    """``reference`` checked for ``pair`` and ``metric`` (``None``: :func:`default_reference`).

    >>> check_reference("all", "de-en", "comet", load_agreement())
    Traceback (most recent call last):
    ...
    ValueError: reference: WMT's COMET uses one reference; choose A, B
    """
    if reference is None:
        return default_reference(pair, metric, tables=t)
    options = references(pair, tables=t) if pair != "pooled" else ("all", "A", "B", "C")
    _choose(reference, options, "reference", "reference")
    if reference == "all" and metric == "comet":
        raise ValueError(f"reference: WMT's COMET uses one reference; choose {', '.join(options[1:])}")
    return reference


def check_system(system: object, pair: str, t: AgreementTables, argname: str) -> str:
    """``system`` if it is a scored MT system of ``pair`` in ``t``, else a clear error naming ``argname``.

    A human translation, or a system the humans did not score, is refused with the reason.

    >>> from mtlearn.study.agreement import ranking
    >>> t = load_agreement()
    >>> best = ranking("de-en", tables=t)[0]
    >>> check_system(best, "de-en", t, "system_1") == best
    True
    """
    if not isinstance(system, str):
        raise TypeError(f"{argname}: expected a system name (a string), got {type(system).__name__}")
    rows = {s.system: s for s in t.systems if s.pair == pair}
    scored = [name for name, s in rows.items() if s.scored]
    if system not in rows:
        raise ValueError(f"{argname}: unknown system {system!r} in {pair}; choose {', '.join(scored)}")
    if not rows[system].scored:
        why = ("a human translation, with no output to score" if rows[system].kind == "human"
               else "not scored by the humans")
        raise ValueError(f"{argname}: {system!r} is {why} in {pair}; choose {', '.join(scored)}")
    return system

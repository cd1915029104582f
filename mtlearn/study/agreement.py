"""Do BLEU, METEOR, chrF and COMET agree with people? The shipped WMT22 tables, read into plain dataclasses.

Document 003 reports that METEOR reached a correlation of 0.964 with human judgement at
corpus level, against 0.817 for BLEU, and 0.403 at sentence level
(:data:`DOCUMENT_CLAIM`). ``mtlearn/study/data/wmt22_agreement/`` holds the same kind of
figures for six WMT22 into-English pairs, computed by ``studies/wmt22_agreement.py``
(COMET is WMT's own official number, copied from ``automatic-scores.tsv``, never computed here)
(the folder's README explains every column and caveat). This module only *reads*
those tables -- nothing here needs the WMT22 data itself, so it works offline -- and
answers the questions a reader asks of them:

==========================================  =================================================
``pairs()``                                 the language pairs, e.g. ``'de-en'``
``system_scores(pair)``                     every system's corpus BLEU, METEOR, chrF (and,
                                            against one reference, WMT's COMET) and human
                                            DA score (:class:`SystemScore`)
``references(pair)``                        the reference sets: ``"all"``, then each one
``ranking(pair, by)``                       the systems best first, for the humans or a metric
``system_correlation(pair, metric)``        metric against humans over the systems, with a
                                            95% bootstrap interval (:class:`SystemCorrelation`)
``segment_counts(pair)``                    how much was judged (:class:`SegmentCounts`)
``join_checks(pair)``                       the check that shows the segment-level human
                                            scores cannot be joined to the texts
                                            (:class:`JoinCheck`)
``compare_systems(pair, x, y)``             two systems: who wins for the humans, for BLEU,
                                            for METEOR, and is each difference significant
                                            (:class:`PairwiseComparison`)
``summarize_correlations(...)``             the six pairs at once: means, which metric is
                                            higher, where the document's figure is reached
``pairwise_summary(metric)``                how often a significant metric difference points
                                            the wrong way (:class:`PairwiseSummary`)
``correlate_systems(pair, metric, ...)``    a correlation recomputed from the table's scores,
                                            e.g. leaving one system out
``leave_one_out(pair, metric)``             how much the correlation rests on any single
                                            system (:class:`LeaveOneOut`)
``accuracy(scope, metric)``                 pairwise accuracy (Kocmi et al. 2021) in a pair
                                            or pooled, with its interval
                                            (:class:`PairwiseAccuracyRow`)
==========================================  =================================================

Every function reads the files again (they are small); pass ``tables=load_agreement()``
to reuse one reading. Empty cells ("not applicable") become ``None``.

There is no segment-level correlation: SID in WMT22's segment-level human file is not
the line number of the text files, and the public data do not hold the mapping
(``../shared/data/wmt22/README.md``). :func:`join_checks` gives the evidence.

>>> pairs()
('cs-en', 'de-en', 'ja-en', 'ru-en', 'uk-en', 'zh-en')
>>> de = system_scores("de-en", scored_only=True)
>>> len(de), de[0].system, de[0].bleu, de[0].human_z
(9, 'JDExploreAcademy', 0.493303, -0.038408)
>>> system_scores("xx-en")
Traceback (most recent call last):
...
ValueError: pair: unknown pair 'xx-en'; choose cs-en, de-en, ja-en, ru-en, uk-en, zh-en
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Any, Optional

from mtlearn.study.correlation import pearson, spearman

__all__ = [
    "METRICS",
    "SIGNIFICANCE_METRICS",
    "METRIC_NAMES",
    "DocumentClaim",
    "DOCUMENT_CLAIM",
    "SystemScore",
    "SystemCorrelation",
    "JoinCheck",
    "SegmentCounts",
    "MetricDifference",
    "PairwiseComparison",
    "AgreementTables",
    "CorrelationSummary",
    "PairwiseSummary",
    "load_agreement",
    "pairs",
    "system_scores",
    "ranking",
    "system_correlations",
    "system_correlation",
    "join_checks",
    "segment_counts",
    "pairwise",
    "compare_systems",
    "summarize_correlations",
    "pairwise_summary",
    "correlate_systems",
    "LeaveOneOut",
    "leave_one_out",
    "ReferenceScore",
    "PairwiseAccuracyRow",
    "references",
    "default_reference",
    "check_reference",
    "accuracies",
    "accuracy",
    "agreement_tables",
    "check_metric",
    "check_human_score",
    "check_pair",
    "check_system",
    "p_value_text",
]

#: The metrics of the system-level tables, in table order. ``"comet"`` is WMT's official COMET
#: (``COMET-<ref>`` of ``automatic-scores.tsv``, one reference), copied, never computed by mtlearn.
METRICS: tuple[str, ...] = ("bleu", "meteor", "chrf", "comet")
#: The metrics of the pairwise significance table and of document 003's claim.
SIGNIFICANCE_METRICS: tuple[str, ...] = ("bleu", "meteor")
#: How to print each metric's name.
METRIC_NAMES: dict[str, str] = {"bleu": "BLEU", "meteor": "METEOR", "chrf": "chrF", "comet": "WMT's COMET"}
_SYSTEM_STATISTICS = ("pearson", "spearman")
_HUMAN_SCORES = ("z", "raw")
_DATA = ("data", "wmt22_agreement")


@dataclass(frozen=True)
class DocumentClaim:
    """Document 003's reported correlations with human judgement (digest, METEOR item 2).

    These are the document's own numbers, typed here once; everything else in this
    module comes from the tables. The document gives no sentence-level figure for BLEU.

    >>> DOCUMENT_CLAIM.corpus("meteor"), DOCUMENT_CLAIM.corpus("bleu"), DOCUMENT_CLAIM.sentence("meteor")
    (0.964, 0.817, 0.403)
    >>> DOCUMENT_CLAIM.sentence("bleu") is None
    True
    >>> round(DOCUMENT_CLAIM.corpus_gap, 3)
    0.147
    """

    corpus_meteor: float
    corpus_bleu: float
    sentence_meteor: float

    def corpus(self, metric: str) -> float:
        """The document's corpus-level (system-level) correlation for ``metric`` (BLEU or METEOR)."""
        return self.corpus_meteor if _significance_metric(metric) == "meteor" else self.corpus_bleu

    @property
    def corpus_gap(self) -> float:
        """How far METEOR's corpus-level figure is above BLEU's (0.964 - 0.817)."""
        return self.corpus_meteor - self.corpus_bleu

    def sentence(self, metric: str) -> Optional[float]:
        """The document's sentence-level correlation for ``metric`` (``None``: not stated)."""
        return self.sentence_meteor if _significance_metric(metric) == "meteor" else None


#: Document 003: "up to 0.964 at corpus level, against 0.817 for BLEU; 0.403 at sentence level".
DOCUMENT_CLAIM = DocumentClaim(corpus_meteor=0.964, corpus_bleu=0.817, sentence_meteor=0.403)


# --------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class SystemScore:
    """One row of ``systems.csv``: a system (or human translation) of one pair.

    ``bleu``/``meteor``/``chrf`` are mtlearn's corpus scores in 0..1 (``None`` for human
    translations, which have no output file) against ``reference``: ``"all"`` of the pair's
    references (``systems.csv``) or one (``"A"``, ``"B"``, ``"C"``; ``reference_scores.csv``,
    see :func:`system_scores`); ``comet`` is WMT's official COMET against that one reference
    (``None`` for ``"all"``: WMT's COMET uses one). ``human_z``/``human_raw`` the official DA
    system score (``None`` where the humans did not score the system). ``scored`` says
    whether the system enters the correlations: an MT system with an output and a human score.

    >>> s = next(x for x in system_scores("uk-en") if x.system == "GTCOM")
    >>> s.kind, s.has_output, s.bleu, s.human_z, s.scored
    ('mt', True, 0.438855, None, False)
    """

    pair: str
    system: str
    human_label: Optional[str]
    kind: str
    has_output: bool
    bleu: Optional[float]
    meteor: Optional[float]
    chrf: Optional[float]
    meteor_unproven_segments: Optional[int]
    wmt_bleu_all: Optional[float]
    wmt_chrf_all: Optional[float]
    human_z: Optional[float]
    human_raw: Optional[float]
    human_segments: Optional[int]
    human_judgements_all: Optional[int]
    comet: Optional[float] = None
    reference: str = "all"

    @property
    def scored(self) -> bool:
        """An MT system with both metric scores and a human score (it enters every statistic)."""
        return self.kind == "mt" and self.has_output and self.human_z is not None

    def metric(self, name: str) -> Optional[float]:
        """The corpus score of metric ``name`` (one of :data:`METRICS`) against :attr:`reference`.

        >>> system_scores("cs-en")[0].metric("bleu")
        0.368374
        >>> system_scores("cs-en")[0].metric("comet") is None  # WMT's COMET has no all-reference score
        True
        """
        return getattr(self, check_metric(name))

    def human(self, score: str = "z") -> Optional[float]:
        """The human system score: ``"z"`` (official) or ``"raw"`` (mean 0-100)."""
        return self.human_z if check_human_score(score) == "z" else self.human_raw


@dataclass(frozen=True)
class SystemCorrelation:
    """One row of ``system_correlations.csv``: metric against humans over a pair's systems.

    ``value`` is Pearson's r or Spearman's rho over ``n_systems`` systems, the metric
    scored against ``reference`` (``"all"`` of the pair's references, or one);
    ``ci_low``..``ci_high`` its percentile bootstrap interval (systems resampled).

    >>> c = system_correlation("ja-en", "bleu", "spearman")
    >>> c.n_systems, c.ci_level, c.n_resamples, c.seed
    (14, 0.95, 1000, 2022)
    >>> c.ci_low <= c.value <= c.ci_high
    True
    """

    pair: str
    reference: str
    metric: str
    statistic: str
    human_score: str
    n_systems: int
    value: float
    ci_low: float
    ci_high: float
    ci_level: float
    n_resamples: int
    n_valid_resamples: int
    seed: int

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies inside the interval (ends included).

        >>> system_correlation("de-en", "bleu").contains(DOCUMENT_CLAIM.corpus_bleu)
        True
        """
        return self.ci_low <= value <= self.ci_high


@dataclass(frozen=True)
class JoinCheck:
    """One row of ``join_check.csv``: a within-system correlation under one way of joining.

    A *check of a join*, not a measurement. ``alignment`` is
    ``"sid_as_line_plus_offset"`` (sentence metric of line SID - 1 + ``offset`` against
    the human z-score of SID), ``"shuffled"`` (the system's human scores shuffled over
    its judged lines, seeded; ``offset`` is ``None``) or ``"same_text_plus_offset"``
    (sentence BLEU of line i against sentence METEOR of line i + ``offset``: a join
    known to be right at offset 0). ``pearson`` is ``None`` where r does not exist.

    >>> rows = join_checks("de-en", x="sentence_bleu", y="sentence_meteor")
    >>> [r.offset for r in rows[:5]], rows[2].pearson > 0.5
    ([-2, -1, 0, 1, 2], True)
    """

    pair: str
    system: str
    x: str
    y: str
    alignment: str
    offset: Optional[int]
    n_items: int
    pearson: Optional[float]


@dataclass(frozen=True)
class SegmentCounts:
    """One row of ``segment_counts.csv``: what was judged in a pair.

    Counts of the human segment file only (no join to the texts): e.g.
    ``mt_scored_items_min``..``_max`` segments judged per MT system, out of ``segments``.

    >>> c = segment_counts("de-en")
    >>> c.segments, c.reference_ids, c.mt_systems_scored, c.human_translation_rows
    (1984, ('A', 'B'), 9, ('HUMAN-B',))
    """

    pair: str
    segments: int
    references: int
    reference_ids: tuple[str, ...]
    systems_with_output: int
    mt_systems_scored: int
    human_translation_rows: tuple[str, ...]
    outputs_without_human_score: tuple[str, ...]
    mt_scored_items: int
    mt_scored_items_min: int
    mt_scored_items_max: int
    segments_never_scored: int
    segments_scored_2plus_mt: int
    judgements_per_item_mean: float
    sys_n_equals_segment_rows: bool
    sys_z_vs_segment_mean_max_diff: float


@dataclass(frozen=True)
class MetricDifference:
    """One metric's side of a :class:`PairwiseComparison`: A's score, B's, and the test.

    ``p_value`` comes from sacreBLEU's paired bootstrap resampling (:func:`mtlearn.paired_test`, two-sided:
    is the difference beyond chance?); ``agrees`` is
    ``True`` when the metric also puts A (the humans' winner) ahead, ``False`` when it
    puts B ahead, ``None`` on an exact tie.
    """

    metric: str
    a: float
    b: float
    diff: float
    p_value: float
    significant: bool
    agrees: Optional[bool]

    @property
    def misleads(self) -> bool:
        """A significant metric difference that points the other way from the humans."""
        return self.significant and self.agrees is False


@dataclass(frozen=True)
class PairwiseComparison:
    """One row of ``pairwise_significance.csv``: two MT systems of a pair.

    A (``system_a``) is the system the humans rank higher (official z), so
    ``human_z_diff`` >= 0; ``human_p`` is WMT's one-sided Wilcoxon rank-sum test that
    A's segment z-scores are higher. ``bleu`` and ``meteor`` hold each metric's side
    (:class:`MetricDifference`). ``agreeing`` answers "which metric orders the two as
    the humans do?": ``"both"``, ``"bleu"``, ``"meteor"`` or ``"neither"``.

    >>> c = compare_systems("de-en", "Online-A", "Online-W")
    >>> c.system_a, c.system_b, c.human_z_diff > 0
    ('Online-W', 'Online-A', True)
    >>> c.bleu.a, c.bleu.b, c.bleu.agrees
    (0.487992, 0.501527, False)
    """

    pair: str
    system_a: str
    system_b: str
    human_z_a: float
    human_z_b: float
    human_z_diff: float
    human_p: float
    human_significant: bool
    bleu: MetricDifference
    meteor: MetricDifference

    def metric(self, name: str) -> MetricDifference:
        """The side of metric ``name`` (``"bleu"`` or ``"meteor"``, :data:`SIGNIFICANCE_METRICS`)."""
        return self.bleu if _significance_metric(name) == "bleu" else self.meteor

    @property
    def agreeing(self) -> str:
        """Which metrics put the humans' winner ahead: ``"both"``, ``"bleu"``, ``"meteor"``, ``"neither"``."""
        names = [m for m in SIGNIFICANCE_METRICS if self.metric(m).agrees]
        return "both" if len(names) == len(SIGNIFICANCE_METRICS) else (names[0] if names else "neither")

    def winner(self, metric: Optional[str] = None) -> Optional[str]:
        """The system ahead for the humans (``metric=None``) or for ``metric`` (``None`` on a tie)."""
        if metric is None:
            return self.system_a
        agrees = self.metric(metric).agrees
        return None if agrees is None else (self.system_a if agrees else self.system_b)

    def explain(self) -> str:
        """The comparison as text: the humans' verdict, then each metric's, with the tests.

        >>> print(compare_systems("de-en", "Online-W", "Online-A").explain())  # doctest: +ELLIPSIS
        de-en: Online-W against Online-A
        humans  Online-W ahead: z -0.0228 against -0.0700 (Wilcoxon rank-sum p = 0.051, not significant)
        BLEU    Online-A ahead: 0.4880 against 0.5015, unlike the humans (paired bootstrap p < 0.001, significant)
        METEOR  ...
        """
        lines = [f"{self.pair}: {self.system_a} against {self.system_b}",
                 f"{'humans':7} {self.system_a} ahead: z {self.human_z_a:.4f} against {self.human_z_b:.4f} "
                 f"(Wilcoxon rank-sum {p_value_text(self.human_p)}, "
                 f"{'significant' if self.human_significant else 'not significant'})"]
        for m in SIGNIFICANCE_METRICS:
            d = self.metric(m)
            if d.agrees is None:
                verdict = "a tie"
            else:
                ahead = self.system_a if d.agrees else self.system_b
                verdict = f"{ahead} ahead"
            how = "as the humans" if d.agrees else ("unlike the humans" if d.agrees is False else "no order")
            lines.append(f"{METRIC_NAMES[m]:7} {verdict}: {d.a:.4f} against {d.b:.4f}, {how} "
                         f"(paired bootstrap {p_value_text(d.p_value)}, "
                         f"{'significant' if d.significant else 'not significant'})")
        lines.append(f"orders them as the humans do: {self.agreeing}")
        return "\n".join(lines)


def p_value_text(p: float) -> str:
    """A p-value as a reader sees it: "p < 0.001" below what 1000 resamples resolve.

    The tables keep 6 decimals; the paired bootstrap's smallest p is 1/(1000 + 1), "no sample beyond".

    >>> p_value_text(0.0312), p_value_text(0.0001)
    ('p = 0.031', 'p < 0.001')
    """
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


@dataclass(frozen=True)
class ReferenceScore:
    """One row of ``reference_scores.csv``: a system's corpus scores against one reference set.

    ``reference`` is ``"all"`` (the pair's references together) or one id (``"A"``, ...);
    ``bleu``/``meteor``/``chrf`` are mtlearn's scores (0..1), ``wmt_bleu``/``wmt_chrf`` WMT's
    official ``bleu-<ref>``/``chrf-<ref>`` divided by 100 (for comparison), ``wmt_comet``
    WMT's official ``COMET-<ref>`` (``None`` for ``"all"``): WMT's number, not computed here.

    >>> r = next(x for x in load_agreement().reference_scores if x.pair == "de-en" and x.reference == "A")
    >>> r.system, r.bleu == r.wmt_bleu, r.wmt_comet is not None
    ('JDExploreAcademy', True, True)
    """

    pair: str
    system: str
    reference: str
    bleu: Optional[float]
    meteor: Optional[float]
    chrf: Optional[float]
    wmt_bleu: Optional[float]
    wmt_chrf: Optional[float]
    wmt_comet: Optional[float]


@dataclass(frozen=True)
class PairwiseAccuracyRow:
    """One row of ``pairwise_accuracy.csv`` (Kocmi et al. 2021): a metric's share of system pairs
    ordered as the humans order them.

    ``scope`` is a language pair or ``"pooled"`` (counts summed over ``pairs``); the metric is
    scored against ``reference``; ``agreeing`` of ``comparisons`` pairs of MT systems have the
    sign of the humans' difference (``human_score``: ``"z"`` official, or ``"raw"``); ``value``
    = agreeing / comparisons, with a 95% percentile bootstrap interval resampling systems within
    each pair (:func:`mtlearn.study.accuracy.bootstrap_accuracy`).

    >>> a = accuracy("pooled", "bleu", reference="A")
    >>> a.pairs, a.comparisons, a.exact, a.value == round(float(a.exact), 6)
    (('de-en', 'ja-en', 'ru-en', 'uk-en', 'zh-en'), 274, Fraction(109, 137), True)
    """

    scope: str
    reference: str
    metric: str
    human_score: str
    pairs: tuple[str, ...]
    n_systems: int
    comparisons: int
    agreeing: int
    metric_ties: int
    human_ties: int
    value: float
    ci_low: float
    ci_high: float
    ci_level: float
    n_resamples: int
    n_valid_resamples: int
    seed: int

    @property
    def exact(self) -> Fraction:
        """``agreeing / comparisons`` as an exact fraction (``value`` is it rounded to 6 decimals)."""
        return Fraction(self.agreeing, self.comparisons)


# --------------------------------------------------------------------------- reading


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
    "pair": str, "system": str, "reference": str, "bleu": _opt_float, "meteor": _opt_float, "chrf": _opt_float,
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

    >>> t = load_agreement()
    >>> [c.pair for c in t.segment_counts]
    ['cs-en', 'de-en', 'ja-en', 'ru-en', 'uk-en', 'zh-en']
    """
    return AgreementTables(
        systems=tuple(SystemScore(**_convert(r, _SYSTEM_TYPES)) for r in _rows("systems.csv")),
        system_correlations=tuple(SystemCorrelation(**_convert(r, _SYSCORR_TYPES))
                                  for r in _rows("system_correlations.csv")),
        join_checks=tuple(JoinCheck(**_convert(r, _JOIN_TYPES)) for r in _rows("join_check.csv")),
        pairwise=tuple(_pairwise_row(r) for r in _rows("pairwise_significance.csv")),
        segment_counts=tuple(SegmentCounts(**_convert(r, _COUNTS_TYPES)) for r in _rows("segment_counts.csv")),
        settings=json.loads(_read_text("settings.json")),
        reference_scores=tuple(ReferenceScore(**_convert(r, _REFERENCE_TYPES)) for r in _rows("reference_scores.csv")),
        accuracies=tuple(PairwiseAccuracyRow(**_convert(r, _ACCURACY_TYPES)) for r in _rows("pairwise_accuracy.csv")),
    )


# --------------------------------------------------------------------------- checking arguments


def _choose(value: object, options: Sequence[str], argname: str, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{argname}: expected a string, got {type(value).__name__}")
    if value not in options:
        raise ValueError(f"{argname}: unknown {what} {value!r}; choose {', '.join(options)}")
    return value


def check_metric(metric: object, argname: str = "metric") -> str:
    """``metric`` if it is one of :data:`METRICS`, else a clear error naming ``argname``.

    >>> check_metric("bleu")
    'bleu'
    >>> check_metric("ter", "metrics")
    Traceback (most recent call last):
    ...
    ValueError: metrics: unknown metric 'ter'; choose bleu, meteor, chrf, comet
    """
    return _choose(metric, METRICS, argname, "metric")


def _significance_metric(metric: object, argname: str = "metric") -> str:
    """``metric`` if the pairwise significance table and document 003 have it (BLEU, METEOR)."""
    if check_metric(metric, argname) not in SIGNIFICANCE_METRICS:
        raise ValueError(f"{argname}: {metric!r} has no paired significance test or document figure here; "
                         f"choose {', '.join(SIGNIFICANCE_METRICS)}")
    return str(metric)


def check_human_score(score: object, argname: str = "human_score") -> str:
    """``score`` if it names a human score of the tables ("z" or "raw"), else a clear error.

    >>> check_human_score("z")
    'z'
    """
    return _choose(score, _HUMAN_SCORES, argname, "human score")


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


# --------------------------------------------------------------------------- questions


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

    >>> default_reference("de-en", "bleu"), default_reference("de-en", "comet"), default_reference("cs-en", "comet")
    ('all', 'A', 'B')
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


def system_scores(pair: str, *, scored_only: bool = False, order: str = "name", reference: str = "all",
                  tables: Optional[AgreementTables] = None) -> tuple[SystemScore, ...]:
    """The systems of ``pair``; ``scored_only``: only those in the statistics.

    ``reference``: ``"all"`` (default; ``systems.csv``) or one reference id: then ``bleu``,
    ``meteor``, ``chrf`` are mtlearn's scores against that reference alone and ``comet`` is
    WMT's official COMET against it (``reference_scores.csv``); human rows keep ``None``.

    >>> a = {s.system: s for s in system_scores("de-en", reference="A", scored_only=True)}
    >>> a["LT22"].reference, a["LT22"].chrf < system_scores("de-en")[1].chrf, round(a["LT22"].comet, 4)
    ('A', True, 0.2555)

    ``scored_only=True`` keeps the MT systems with an output and a human score -- the
    points of a metric-against-humans plot; human translations (``HUMAN-*``) and
    outputs the humans did not score are left out. ``order``: ``"name"`` (default) or
    ``"human"`` (best official z first, systems without a human score last).

    >>> [s.system for s in system_scores("uk-en")][:3]
    ['ALMAnaCH-Inria', 'ARC-NKUA', 'GTCOM']
    >>> len(system_scores("uk-en")), len(system_scores("uk-en", scored_only=True))
    (10, 9)
    >>> [s.system for s in system_scores("uk-en", order="human")][-2:]
    ['ALMAnaCH-Inria', 'GTCOM']
    """
    t = agreement_tables(tables)
    pair = check_pair(pair, t)
    _choose(order, ("name", "human"), "order", "order")
    rows = [s for s in t.systems if s.pair == pair and (s.scored or not scored_only)]
    if reference != "all":
        _choose(reference, references(pair, tables=t), "reference", "reference")
        by_name = {r.system: r for r in t.reference_scores if r.pair == pair and r.reference == reference}
        rows = [s if s.system not in by_name else
                dataclasses.replace(s, reference=reference, bleu=by_name[s.system].bleu,
                                    meteor=by_name[s.system].meteor, chrf=by_name[s.system].chrf,
                                    comet=by_name[s.system].wmt_comet) for s in rows]
    if order == "human":
        # Unscored systems last; equal scores keep name order, so the order never varies.
        rows.sort(key=lambda s: (s.human_z is None, -(s.human_z or 0.0), s.system))
    return tuple(rows)


def ranking(pair: str, by: str = "human", *, human_score: str = "z", reference: Optional[str] = None,
            tables: Optional[AgreementTables] = None) -> tuple[str, ...]:
    """The scored MT systems of ``pair``, best first, by the humans or by a metric.

    ``by``: ``"human"`` (the official DA score, ``human_score`` ``"z"`` or ``"raw"``) or a
    metric of :data:`METRICS`, scored against ``reference`` (see :func:`default_reference`);
    equal scores keep name order.

    >>> ranking("ja-en")[-1], ranking("ja-en", "bleu")[-1]
    ('AIST', 'AIST')
    >>> ranking("de-en", "bleu")[:2]
    ('Online-A', 'Lan-Bridge')
    """
    t = agreement_tables(tables)
    _choose(by, ("human", *METRICS), "by", "ranking")
    check_human_score(human_score)
    ref = "all" if by == "human" else check_reference(reference, check_pair(pair, t), by, t)
    systems = system_scores(pair, scored_only=True, reference=ref, tables=t)

    def score(s: SystemScore) -> float:
        value = s.human(human_score) if by == "human" else s.metric(by)
        return float(value)  # type: ignore[arg-type]  # scored systems have every score

    return tuple(s.system for s in sorted(systems, key=lambda s: (-score(s), s.system)))


def system_correlations(pair: Optional[str] = None, *, metric: Optional[str] = None,
                        statistic: Optional[str] = None, human_score: str = "z", reference: Optional[str] = "all",
                        tables: Optional[AgreementTables] = None) -> tuple[SystemCorrelation, ...]:
    """System-level correlations, filtered by pair, metric, statistic and reference (``None``: all).

    ``reference`` defaults to ``"all"`` (the pair's references together), where COMET has no row.

    >>> rows = system_correlations(metric="bleu", statistic="pearson")
    >>> [r.pair for r in rows] == list(pairs()), {r.human_score for r in rows}
    (True, {'z'})
    >>> [(r.pair, r.reference) for r in system_correlations(metric="comet", statistic="pearson", reference=None)][:3]
    [('cs-en', 'B'), ('cs-en', 'C'), ('de-en', 'A')]
    """
    t = agreement_tables(tables)
    if pair is not None:
        check_pair(pair, t)
    if metric is not None:
        check_metric(metric)
    if statistic is not None:
        _choose(statistic, _SYSTEM_STATISTICS, "statistic", "statistic")
    check_human_score(human_score)
    if reference is not None:
        _choose(reference, ("all", "A", "B", "C"), "reference", "reference")
    return tuple(c for c in t.system_correlations
                 if (pair is None or c.pair == pair) and (metric is None or c.metric == metric)
                 and (statistic is None or c.statistic == statistic) and c.human_score == human_score
                 and (reference is None or c.reference == reference))


def system_correlation(pair: str, metric: str, statistic: str = "pearson", human_score: str = "z", *,
                       reference: Optional[str] = None,
                       tables: Optional[AgreementTables] = None) -> SystemCorrelation:
    """The one system-level correlation of ``metric`` with the humans in ``pair``.

    ``statistic``: ``"pearson"`` or ``"spearman"``; ``human_score``: ``"z"`` (the
    official DA score) or ``"raw"``; ``reference``: see :func:`default_reference`.

    >>> c = system_correlation("zh-en", "comet")
    >>> c.reference, round(c.value, 3), round(system_correlation("zh-en", "bleu", reference="A").value, 3)
    ('A', 0.476, 0.64)

    >>> c = system_correlation("cs-en", "bleu")
    >>> c.statistic, c.human_score, c.n_systems
    ('pearson', 'z', 11)
    >>> system_correlation("cs-en", "bleu", "kendall")
    Traceback (most recent call last):
    ...
    ValueError: statistic: unknown statistic 'kendall'; choose pearson, spearman
    """
    t = agreement_tables(tables)
    ref = check_reference(reference, check_pair(pair, t), check_metric(metric), t)
    rows = system_correlations(pair, metric=metric, statistic=statistic, human_score=human_score, reference=ref,
                               tables=t)
    if len(rows) != 1:  # pragma: no cover - the shipped table has every combination once
        raise LookupError(f"system_correlations.csv: {len(rows)} rows for {pair}, {metric}, {statistic}")
    return rows[0]


def join_checks(pair: Optional[str] = None, *, x: Optional[str] = None, y: Optional[str] = None,
                alignment: Optional[str] = None,
                tables: Optional[AgreementTables] = None) -> tuple[JoinCheck, ...]:
    """Rows of the join check (:class:`JoinCheck`), filtered by pair, x, y and alignment (``None``: all).

    Under the SID-as-line join, a metric and the humans correlate within a system at
    no offset better than after a random shuffle -- the join is wrong:

    >>> rows = join_checks("ru-en", x="sentence_bleu", y="human_z")
    >>> sorted({r.alignment for r in rows})
    ['shuffled', 'sid_as_line_plus_offset']
    >>> max(abs(r.pearson) for r in rows) < 0.1
    True
    """
    t = agreement_tables(tables)
    if pair is not None:
        check_pair(pair, t)
    for value, options, argname in ((x, {r.x for r in t.join_checks}, "x"),
                                    (y, {r.y for r in t.join_checks}, "y"),
                                    (alignment, {r.alignment for r in t.join_checks}, "alignment")):
        if value is not None:
            _choose(value, sorted(options), argname, argname)
    return tuple(r for r in t.join_checks
                 if (pair is None or r.pair == pair) and (x is None or r.x == x) and (y is None or r.y == y)
                 and (alignment is None or r.alignment == alignment))


def segment_counts(pair: str, *, tables: Optional[AgreementTables] = None) -> SegmentCounts:
    """What the humans judged in ``pair``: segments, systems, judged items per system.

    >>> c = segment_counts("de-en")
    >>> c.segments, c.mt_systems_scored, c.mt_scored_items_min, c.mt_scored_items_max
    (1984, 9, 1602, 1825)
    """
    t = agreement_tables(tables)
    pair = check_pair(pair, t)
    return next(c for c in t.segment_counts if c.pair == pair)


def pairwise(pair: Optional[str] = None, *,
             tables: Optional[AgreementTables] = None) -> tuple[PairwiseComparison, ...]:
    """Every pair of MT systems of ``pair`` (or of all pairs), A the humans' winner.

    A pair with n systems has n (n - 1) / 2 comparisons:

    >>> len(pairwise("de-en")), len(pairwise("ja-en"))
    (36, 91)
    """
    t = agreement_tables(tables)
    if pair is not None:
        check_pair(pair, t)
    return tuple(c for c in t.pairwise if pair is None or c.pair == pair)


def check_system(system: object, pair: str, t: AgreementTables, argname: str) -> str:
    """``system`` if it is a scored MT system of ``pair`` in ``t``, else a clear error naming ``argname``.

    A human translation, or a system the humans did not score, is refused with the reason.

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


def compare_systems(pair: str, system_1: str, system_2: str, *,
                    tables: Optional[AgreementTables] = None) -> PairwiseComparison:
    """Two MT systems of ``pair``, in either order: who wins for the humans and for each metric.

    The answer to "which metric ranks these two as the humans do?" is
    ``.agreeing``; ``.explain()`` gives the numbers and the significance tests.

    >>> c = compare_systems("ja-en", "NAIST-NICT-TIT", "LanguageX")
    >>> c.winner(), c.human_significant, c.winner("bleu"), c.bleu.significant
    ('LanguageX', True, 'NAIST-NICT-TIT', False)
    >>> compare_systems("de-en", "Online-A", "HUMAN-B")
    Traceback (most recent call last):
    ...
    ValueError: system_2: 'HUMAN-B' is a human translation, with no output to score in de-en; choose JDExploreAcademy, LT22, Lan-Bridge, Online-A, Online-B, Online-G, Online-W, Online-Y, PROMT
    """
    t = agreement_tables(tables)
    pair = check_pair(pair, t)
    first = check_system(system_1, pair, t, "system_1")
    second = check_system(system_2, pair, t, "system_2")
    if first == second:
        raise ValueError(f"system_2: {second!r} is system_1 too; choose two different systems")
    return next(c for c in t.pairwise
                if c.pair == pair and {c.system_a, c.system_b} == {first, second})


@dataclass(frozen=True)
class CorrelationSummary:
    """The six pairs at system level, BLEU beside METEOR.

    ``bleu``/``meteor`` hold the correlation per pair (in ``pairs`` order);
    ``meteor_higher``/``bleu_higher`` list the pairs where that metric's value is the
    higher. ``claim_bleu``/``claim_meteor`` are document 003's corpus-level figures;
    ``reaches_claim_*`` list the pairs whose value is at least the claim,
    ``interval_covers_claim_*`` the pairs whose 95% interval contains it. (``level`` is
    always ``"system"``: no segment-level correlation is shipped, see :func:`join_checks`.)
    """

    level: str
    statistic: str
    human_score: str
    pairs: tuple[str, ...]
    bleu: tuple[float, ...]
    meteor: tuple[float, ...]
    mean_bleu: float
    mean_meteor: float
    meteor_higher: tuple[str, ...]
    bleu_higher: tuple[str, ...]
    claim_bleu: float
    claim_meteor: float
    reaches_claim_bleu: tuple[str, ...]
    reaches_claim_meteor: tuple[str, ...]
    interval_covers_claim_bleu: tuple[str, ...]
    interval_covers_claim_meteor: tuple[str, ...]

    @property
    def mean_difference(self) -> float:
        """METEOR's mean minus BLEU's mean (compare with :attr:`DocumentClaim.corpus_gap`)."""
        return self.mean_meteor - self.mean_bleu


def summarize_correlations(level: str = "system", statistic: str = "pearson", human_score: Optional[str] = None,
                           *, tables: Optional[AgreementTables] = None) -> CorrelationSummary:
    """BLEU against METEOR over all pairs at system level.

    ``statistic``: ``"pearson"`` or ``"spearman"``; ``human_score`` ``"z"`` (default)
    or ``"raw"``. Means are plain means over the pairs. ``level="segment"`` is refused
    with the reason: the segment-level human scores cannot be joined to the texts.

    >>> s = summarize_correlations("system", "pearson")
    >>> s.pairs == pairs(), len(s.bleu), s.claim_meteor, s.claim_bleu
    (True, 6, 0.964, 0.817)
    >>> len(s.meteor_higher) + len(s.bleu_higher) <= 6
    True
    >>> summarize_correlations("segment")
    Traceback (most recent call last):
    ...
    ValueError: level: no segment-level correlation is shipped (SID is not the line number of the texts; see join_checks()); choose system
    """
    t = agreement_tables(tables)
    if level == "segment":
        raise ValueError("level: no segment-level correlation is shipped (SID is not the line number of the "
                         "texts; see join_checks()); choose system")
    level = _choose(level, ("system",), "level", "level")
    statistic = _choose(statistic, _SYSTEM_STATISTICS, "statistic", "statistic")
    human_score = check_human_score(human_score or "z")
    rows: dict[str, Sequence[SystemCorrelation]] = {
        m: system_correlations(metric=m, statistic=statistic, human_score=human_score, tables=t)
        for m in SIGNIFICANCE_METRICS}
    claims = {m: DOCUMENT_CLAIM.corpus(m) for m in SIGNIFICANCE_METRICS}
    order = t.pairs
    values = {m: tuple(next(r.value for r in rows[m] if r.pair == p) for p in order)
              for m in SIGNIFICANCE_METRICS}

    def reaching(m: str) -> tuple[str, ...]:
        return tuple(p for p, v in zip(order, values[m]) if v >= claims[m])

    def covering(m: str) -> tuple[str, ...]:
        return tuple(r.pair for r in rows[m] if r.contains(claims[m]))

    return CorrelationSummary(
        level=level, statistic=statistic, human_score=human_score, pairs=order,
        bleu=values["bleu"], meteor=values["meteor"],
        mean_bleu=math.fsum(values["bleu"]) / len(order), mean_meteor=math.fsum(values["meteor"]) / len(order),
        meteor_higher=tuple(p for p, b, m in zip(order, values["bleu"], values["meteor"]) if m > b),
        bleu_higher=tuple(p for p, b, m in zip(order, values["bleu"], values["meteor"]) if b > m),
        claim_bleu=claims["bleu"], claim_meteor=claims["meteor"],
        reaches_claim_bleu=reaching("bleu"), reaches_claim_meteor=reaching("meteor"),
        interval_covers_claim_bleu=covering("bleu"), interval_covers_claim_meteor=covering("meteor"),
    )


@dataclass(frozen=True)
class PairwiseSummary:
    """How one metric orders the pairs of systems, against the humans.

    Over ``comparisons`` pairs of MT systems (of ``pairs``): ``agrees``/``disagrees``/
    ``ties`` count the metric's order against the humans'; ``metric_significant`` and
    ``human_significant`` the significant differences; ``wrong_way_significant`` the
    significant metric differences that point the other way from the humans (the
    misleading ones), ``wrong_way_both_significant`` those where the humans' difference
    is significant too -- a confident metric contradicting confident humans.
    """

    metric: str
    pairs: tuple[str, ...]
    comparisons: int
    human_significant: int
    metric_significant: int
    agrees: int
    disagrees: int
    ties: int
    wrong_way_significant: int
    wrong_way_both_significant: int

    @property
    def wrong_way_share(self) -> float:
        """The share of the metric's significant differences that point the wrong way."""
        return self.wrong_way_significant / self.metric_significant if self.metric_significant else 0.0


def pairwise_summary(metric: str, pair: Optional[str] = None, *,
                     tables: Optional[AgreementTables] = None) -> PairwiseSummary:
    """Count, for ``metric``, how its pairwise orders and significant differences match the humans'.

    >>> s = pairwise_summary("bleu", "de-en")
    >>> s.comparisons, s.human_significant, s.agrees + s.disagrees + s.ties
    (36, 21, 36)
    >>> s.wrong_way_significant <= s.metric_significant
    True
    >>> pairwise_summary("meteor").comparisons == len(pairwise())
    True
    """
    t = agreement_tables(tables)
    metric = _significance_metric(metric)
    rows = pairwise(pair, tables=t)
    sides = [(c, c.metric(metric)) for c in rows]
    return PairwiseSummary(
        metric=metric,
        pairs=(pair,) if pair is not None else t.pairs,
        comparisons=len(rows),
        human_significant=sum(c.human_significant for c in rows),
        metric_significant=sum(d.significant for _, d in sides),
        agrees=sum(d.agrees is True for _, d in sides),
        disagrees=sum(d.agrees is False for _, d in sides),
        ties=sum(d.agrees is None for _, d in sides),
        wrong_way_significant=sum(d.misleads for _, d in sides),
        wrong_way_both_significant=sum(d.misleads and c.human_significant for c, d in sides),
    )


def correlate_systems(pair: str, metric: str, *, statistic: str = "pearson", human_score: str = "z",
                      exclude: Sequence[str] = (), reference: Optional[str] = None,
                      tables: Optional[AgreementTables] = None) -> float:
    """A system-level correlation recomputed from ``systems.csv``, optionally leaving systems out.

    Uses :func:`mtlearn.study.correlation.pearson` / :func:`~mtlearn.study.correlation.spearman` on
    the table's scores (rounded to 6 decimals, so with nothing excluded it matches
    ``system_correlation(...).value`` to about 1e-5, not to the last digit). ja-en's
    high r rests on one broken system:

    >>> abs(correlate_systems("ja-en", "bleu") - system_correlation("ja-en", "bleu").value) < 1e-5
    True
    >>> correlate_systems("ja-en", "bleu", exclude=["AIST"]) < system_correlation("ja-en", "bleu").value
    True
    >>> correlate_systems("ja-en", "bleu", exclude=["Nobody"])
    Traceback (most recent call last):
    ...
    ValueError: exclude: unknown system 'Nobody' in ja-en; choose AISP-SJTU, AIST, DLUT, JDExploreAcademy, KYB, Lan-Bridge, LanguageX, NAIST-NICT-TIT, NT5, Online-A, Online-B, Online-G, Online-W, Online-Y
    """
    t = agreement_tables(tables)
    pair = check_pair(pair, t)
    metric = check_metric(metric)
    statistic = _choose(statistic, _SYSTEM_STATISTICS, "statistic", "statistic")
    human_score = check_human_score(human_score)
    if isinstance(exclude, str):
        raise TypeError("exclude: expected a list of system names, e.g. ['AIST']")
    left_out = {check_system(name, pair, t, "exclude") for name in exclude}
    ref = check_reference(reference, pair, metric, t)
    kept = [s for s in system_scores(pair, scored_only=True, reference=ref, tables=t) if s.system not in left_out]
    if len(kept) < 3:
        raise ValueError(f"exclude: {len(kept)} systems would be left; a correlation needs at least 3")
    func = pearson if statistic == "pearson" else spearman
    return func([s.metric(metric) for s in kept], [s.human(human_score) for s in kept])  # type: ignore[misc]


@dataclass(frozen=True)
class LeaveOneOut:
    """A system-level correlation recomputed once without each system in turn.

    ``full`` is the correlation over all systems (recomputed from the table's scores,
    see :func:`correlate_systems`); ``values`` holds (left-out system, correlation
    without it) for every system, sorted by name; ``lowest``/``highest`` are the
    extreme entries: the system whose absence lowers (raises) the correlation most.
    """

    pair: str
    metric: str
    statistic: str
    human_score: str
    full: float
    values: tuple[tuple[str, float], ...]
    lowest: tuple[str, float]
    highest: tuple[str, float]


def leave_one_out(pair: str, metric: str, statistic: str = "pearson", human_score: str = "z", *,
                  tables: Optional[AgreementTables] = None) -> LeaveOneOut:
    """How much a pair's system-level correlation rests on any single system.

    With 9 to 14 systems, one far-off system can make a correlation: ja-en's broken
    AIST, which every method puts last, is the one whose absence lowers BLEU's r most.

    >>> loo = leave_one_out("ja-en", "bleu")
    >>> len(loo.values), loo.lowest[0], loo.lowest[1] < loo.full
    (14, 'AIST', True)
    """
    t = agreement_tables(tables)
    names = [s.system for s in system_scores(pair, scored_only=True, tables=t)]
    full = correlate_systems(pair, metric, statistic=statistic, human_score=human_score, tables=t)
    values = tuple((name, correlate_systems(pair, metric, statistic=statistic, human_score=human_score,
                                            exclude=[name], tables=t)) for name in names)
    # Ties go to the first name, so the result is the same on every run.
    return LeaveOneOut(pair=pair, metric=metric, statistic=statistic, human_score=human_score, full=full,
                       values=values, lowest=min(values, key=lambda v: v[1]),
                       highest=max(values, key=lambda v: v[1]))


def accuracies(scope: Optional[str] = None, *, metric: Optional[str] = None, reference: Optional[str] = None,
               human_score: str = "z", tables: Optional[AgreementTables] = None) -> tuple[PairwiseAccuracyRow, ...]:
    """Rows of ``pairwise_accuracy.csv``, filtered by scope (a pair or ``"pooled"``), metric and
    reference (``None``: all).

    >>> rows = accuracies("pooled", reference="A")
    >>> [(r.metric, r.comparisons) for r in rows]
    [('bleu', 274), ('meteor', 274), ('chrf', 274), ('comet', 274)]
    """
    t = agreement_tables(tables)
    if scope is not None and scope != "pooled":
        check_pair(scope, t, "scope")
    if metric is not None:
        check_metric(metric)
    if reference is not None:
        _choose(reference, ("all", "A", "B", "C"), "reference", "reference")
    check_human_score(human_score)
    return tuple(r for r in t.accuracies
                 if (scope is None or r.scope == scope) and (metric is None or r.metric == metric)
                 and (reference is None or r.reference == reference) and r.human_score == human_score)


def accuracy(scope: str, metric: str, *, reference: Optional[str] = None, human_score: str = "z",
             tables: Optional[AgreementTables] = None) -> PairwiseAccuracyRow:
    """Pairwise accuracy of ``metric`` in ``scope`` (a pair, or ``"pooled"`` over the pairs that
    have ``reference``), against ``reference`` (default: :func:`default_reference`).

    >>> a = accuracy("pooled", "comet", reference="A")
    >>> a.agreeing, a.comparisons, a.ci_low <= a.value <= a.ci_high
    (202, 274, True)
    >>> accuracy("pooled", "comet", reference="all")
    Traceback (most recent call last):
    ...
    ValueError: reference: WMT's COMET uses one reference; choose A, B, C
    """
    t = agreement_tables(tables)
    metric = check_metric(metric)
    if scope != "pooled":
        check_pair(scope, t, "scope")
    ref = check_reference(reference, scope, metric, t)
    rows = accuracies(scope, metric=metric, reference=ref, human_score=human_score, tables=t)
    if len(rows) != 1:
        raise ValueError(f"reference: no pairwise accuracy of {metric} against reference {ref} in {scope}")
    return rows[0]

"""The rows of the shipped WMT22 agreement tables, as frozen dataclasses, and the checks of their names.

One dataclass per table (:class:`SystemScore` a row of ``systems.csv``, :class:`SystemCorrelation` of
``system_correlations.csv``, ...), the Spanish Wikipedia article's own figures (:data:`DOCUMENT_CLAIM`),
and the checks every question of :mod:`mtlearn.study.agreement` runs on a metric's or a human score's
name. Nothing here reads a file (:mod:`.tables` does).

>>> check_metric("meteor"), METRIC_NAMES["comet"], p_value_text(0.0312)
('meteor', "WMT's COMET", 'p = 0.031')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

#: The metrics of the system-level tables, in table order. ``"comet"`` is WMT's official COMET
#: (``COMET-<ref>`` of ``automatic-scores.tsv``, one reference), copied, never computed by mtlearn.
METRICS: tuple[str, ...] = ("bleu", "meteor", "chrf", "comet")
#: The metrics of the pairwise significance table and of the Spanish Wikipedia article's claim.
SIGNIFICANCE_METRICS: tuple[str, ...] = ("bleu", "meteor")
#: How to print each metric's name.
METRIC_NAMES: dict[str, str] = {"bleu": "BLEU", "meteor": "METEOR", "chrf": "chrF", "comet": "WMT's COMET"}
_SYSTEM_STATISTICS = ("pearson", "spearman")
_HUMAN_SCORES = ("z", "raw")


@dataclass(frozen=True)
class DocumentClaim:
    """The reported correlations with human judgement in the Spanish Wikipedia article *METEOR*.

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


#: The Spanish Wikipedia article *METEOR* (CC BY-SA 4.0):
#: "up to 0.964 at corpus level, against 0.817 for BLEU; 0.403 at sentence level".
DOCUMENT_CLAIM = DocumentClaim(corpus_meteor=0.964, corpus_bleu=0.817, sentence_meteor=0.403)


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

    >>> from mtlearn.study.agreement import system_scores
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

        >>> from mtlearn.study.agreement import system_scores
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

    >>> from mtlearn.study.agreement import system_correlation
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

        >>> from mtlearn.study.agreement import system_correlation
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

    >>> from mtlearn.study.agreement import join_checks
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

    >>> from mtlearn.study.agreement import segment_counts
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

    >>> from mtlearn.study.agreement import compare_systems
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

    @property
    def verdict(self) -> str:
        """The answer to "which metric orders them as the humans do?", honest when there is no order.

        When the humans' own difference is not significant they do not separate the two systems, and
        ``agreeing`` (which follows the sign of a difference beyond chance) would be read as a verdict it is
        not: the verdict says so instead.

        >>> from mtlearn.study.agreement import compare_systems
        >>> compare_systems("de-en", "Lan-Bridge", "Online-W").verdict
        'both'
        >>> compare_systems("ja-en", "DLUT", "NT5").verdict
        'no order to agree with (the humans do not separate them, p = 0.352)'
        """
        if self.human_significant:
            return self.agreeing
        return f"no order to agree with (the humans do not separate them, {p_value_text(self.human_p)})"

    def winner(self, metric: Optional[str] = None) -> Optional[str]:
        """The system ahead for the humans (``metric=None``) or for ``metric`` (``None`` on a tie)."""
        if metric is None:
            return self.system_a
        agrees = self.metric(metric).agrees
        return None if agrees is None else (self.system_a if agrees else self.system_b)

    def explain(self) -> str:
        """The comparison as text: the humans' verdict, then each metric's, with the tests.

        >>> from mtlearn.study.agreement import compare_systems
        >>> print(compare_systems("de-en", "Online-W", "Online-A").explain())  # doctest: +ELLIPSIS
        de-en: Online-W against Online-A
        humans  Online-W ahead: z -0.0228 against -0.0700 (Wilcoxon rank-sum p = 0.051, not significant)
        BLEU    Online-A ahead: 0.4880 against 0.5015, unlike the humans (paired bootstrap p < 0.001, ...)
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
        lines.append(f"orders them as the humans do: {self.verdict}")
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

    >>> from mtlearn.study.agreement import load_agreement
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

    >>> from mtlearn.study.agreement import accuracy
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


# --------------------------------------------------------------------------- checking names


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
    """``metric`` if the pairwise significance table and the Spanish Wikipedia article *METEOR* have it
    (BLEU, METEOR)."""
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

"""Do BLEU, METEOR, chrF and COMET agree with people? The shipped WMT22 tables, read into plain dataclasses.

The Spanish Wikipedia article *METEOR* (CC BY-SA 4.0) reports that METEOR reached
a correlation of 0.964 with human judgement at corpus level, against 0.817 for BLEU, and 0.403 at sentence
level (:data:`DOCUMENT_CLAIM`). ``mtlearn/study/data/wmt22_agreement/`` holds the same kind of
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
``load_learned()``                          mtlearn's BERTScore-mini and COMET-mini beside
                                            BLEU, chrF and WMT's COMET: scores, correlations,
                                            pairwise accuracy (:class:`LearnedTables`)
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

from mtlearn.study.agreement.learned import LearnedRow, LearnedScore, LearnedTables, load_learned
from mtlearn.study.agreement.pairwise import (
    PairwiseSummary,
    accuracies,
    accuracy,
    compare_systems,
    pairwise,
    pairwise_summary,
)
from mtlearn.study.agreement.rows import (
    DOCUMENT_CLAIM,
    METRIC_NAMES,
    METRICS,
    SIGNIFICANCE_METRICS,
    DocumentClaim,
    JoinCheck,
    MetricDifference,
    PairwiseAccuracyRow,
    PairwiseComparison,
    ReferenceScore,
    SegmentCounts,
    SystemCorrelation,
    SystemScore,
    check_human_score,
    check_metric,
    p_value_text,
)
from mtlearn.study.agreement.systems import (
    CorrelationSummary,
    LeaveOneOut,
    correlate_systems,
    join_checks,
    leave_one_out,
    ranking,
    segment_counts,
    summarize_correlations,
    system_correlation,
    system_correlations,
    system_scores,
)
from mtlearn.study.agreement.tables import (
    AgreementTables,
    agreement_tables,
    check_pair,
    check_reference,
    check_system,
    default_reference,
    load_agreement,
    pairs,
    references,
)

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
    "LearnedScore",
    "LearnedRow",
    "LearnedTables",
    "load_learned",
]

"""Do BLEU, METEOR, chrF and COMET agree with people? The shipped WMT22 tables, read into plain dataclasses.

Document 003 reports that METEOR reached a correlation of 0.964 with human judgement at
corpus level, against 0.817 for BLEU, and 0.403 at sentence level
(:data:`DOCUMENT_CLAIM`). ``mtlearn/study/data/wmt22_agreement/`` holds the same kind of
figures for six WMT22 into-English pairs, computed by ``studies/wmt22_agreement.py``
(COMET is WMT's own official number, copied from ``automatic-scores.tsv``, never computed here)
(the folder's README explains every column and caveat). This module only *reads*
those tables -- nothing here needs the WMT22 data itself, so it works offline -- and
answers the questions a reader asks of them:

==========================================  ==========================================)

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

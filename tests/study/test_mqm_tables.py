"""mtlearn/study/mqm_tables.py: the shipped tables of the expert-MQM study, read and looked up.

The system-level rows are recomputed from the shipped scores (``systems.csv``, ``system_scores.csv``);
``error_counts`` on the real data (skipped where ../shared is absent) adds up to ``systems.csv``'s counts.
"""

from __future__ import annotations

import itertools

import pytest

from mtlearn.study.correlation import pearson, spearman
from mtlearn.study.disagreements import disagreement_cases
from mtlearn.study.metric_scores import metric as study_metric
from mtlearn.study.mqm import error_counts
from mtlearn.study.mqm_tables import SEGMENT_STATISTICS, load_mqm_tables

TABLES = load_mqm_tables()


def _scores(reference: str, name: str) -> tuple[list[float], list[float]]:
    """(MQM, corpus score turned so that higher is better) of the 13 MT systems."""
    sign = 1.0 if study_metric(name).higher_is_better else -1.0
    systems = TABLES.mt_systems
    return ([TABLES.system(s).mqm for s in systems],
            [sign * TABLES.corpus_score(reference, name, s) for s in systems])


@pytest.mark.parametrize("reference", TABLES.references)
def test_system_level_rows_are_the_shipped_scores_correlated(reference):
    for name in TABLES.metrics:
        if not study_metric(name).system_level:
            continue
        human, metric = _scores(reference, name)
        # The inputs are rounded to 6 decimals in the files: r and rho agree to about 1e-5.
        assert (TABLES.system_level(reference, name, "pearson").value
                == pytest.approx(pearson(metric, human), abs=1e-4))
        assert (TABLES.system_level(reference, name, "spearman").value
                == pytest.approx(spearman(metric, human), abs=1e-4))
        row = TABLES.system_level(reference, name, "accuracy")
        pairs = list(itertools.combinations(range(len(human)), 2))
        agreeing = sum((human[i] - human[j]) * (metric[i] - metric[j]) > 0 for i, j in pairs)
        assert (row.agreeing, row.comparisons) == (agreeing, len(pairs)), (reference, name)


def test_every_metric_has_every_statistic_and_grouping_against_every_reference():
    for reference, name in itertools.product(TABLES.references, TABLES.metrics):
        for statistic in SEGMENT_STATISTICS:
            groupings = ("item",) if statistic == "accuracy_eq" else ("none", "system", "item")
            for grouping in groupings:
                row = TABLES.segment(reference, name, statistic, grouping)
                assert row.ci_low <= row.value <= row.ci_high, row
    assert TABLES.constant.metric == "constant" and TABLES.constant.epsilon == 0.0
    assert [s.system for s in TABLES.systems if s.kind == "human"] == ["ref", "refB"]


@pytest.mark.parametrize("call, message", [
    (lambda: TABLES.segment("refC", "bleu", "pearson", "none"), "reference: unknown value 'refC'"),
    (lambda: TABLES.segment("ref", "comet", "pearson", "none"), "metric: unknown value 'comet'"),
    (lambda: TABLES.segment("ref", "bleu", "accuracy_eq", "none"),
     "no row for 'accuracy_eq' grouped by 'none'"),
    (lambda: TABLES.system_level("ref", "bleu_add1", "pearson"), "no system-level row"),
    (lambda: TABLES.system_level("ref+refB", "bleu", "pearson", systems="mt+human"), "no system-level row"),
    (lambda: TABLES.within("ref", "bleu", "refB"), "no MT system 'refB'"),
    (lambda: TABLES.system("nobody"), "system: no system 'nobody'"),
    (lambda: TABLES.corpus_score("ref", "bleu", "ref"), "no corpus score of 'ref'"),
])
def test_lookups_name_what_is_unknown(call, message):
    with pytest.raises(LookupError, match=message.replace("(", r"\(").replace("+", r"\+")):
        call()


def test_error_counts_add_up_to_the_shipped_severity_counts(mqm_data):
    for system in mqm_data.systems:
        counts = error_counts(mqm_data, [system])
        row = TABLES.system(system)
        assert (sum(n for (_, severity), n in counts.items() if severity == "Major")
                == row.major_errors), system
        assert (sum(n for (_, severity), n in counts.items() if severity == "Minor")
                == row.minor_errors), system
        assert counts.get(("Fluency/Punctuation", "Minor"), 0) == row.minor_punctuation_errors, system
    every = error_counts(mqm_data, mqm_data.mt_systems)
    assert list(every.values()) == sorted(every.values(), reverse=True)
    with pytest.raises(KeyError, match="system: no system 'nobody'"):
        error_counts(mqm_data, ["nobody"])


def test_notebook_09s_case_is_the_first_shipped_disagreement(mqm_data):
    # Notebook 09 prints the shipped row (checked by nbval) and, where ../shared is present, the case with its
    # texts.
    case = disagreement_cases(mqm_data, "bleu", "ref", k=1)[0].disagreement
    row = TABLES.disagreements("ref", "bleu")[0]
    assert (case.seg_id, case.better, case.worse) == (int(row["seg_id"]), row["better"], row["worse"])
    for name in ("mqm_better", "mqm_worse", "metric_better", "metric_worse"):
        assert getattr(case, name) == pytest.approx(float(row[name]), abs=1e-6), name


def test_notebook_09s_reading_the_commonest_error_is_a_major_mistranslation(mqm_data):
    # Section 5's text says so; its cell's output (the counts) is not compared by nbval.
    assert next(iter(error_counts(mqm_data, mqm_data.mt_systems))) == ("Accuracy/Mistranslation", "Major")

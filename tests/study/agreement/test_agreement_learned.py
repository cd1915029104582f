"""mtlearn/study/agreement/learned.py and the tables of studies/wmt22_learned.py: BERTScore-mini and
COMET-mini in the WMT22 system-level study.

Expected values come from the CSV files read with the csv module (``agreement_files.read``) and from
mtlearn's public metric functions on the WMT22 texts, never from the table under test.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
import tiers
from agreement_files import read

from mtlearn.metrics.bertscore.embed import embed_many
from mtlearn.metrics.bertscore.options import DEFAULTS as BERTSCORE
from mtlearn.metrics.bertscore.score import bertscore_from_stats, compare
from mtlearn.metrics.bertscore.stats import BertScoreStats, sum_stats
from mtlearn.study.accuracy import pooled_accuracy
from mtlearn.study.agreement import default_reference, load_agreement
from mtlearn.study.agreement.learned import (
    LEARNED_METRICS,
    LearnedScore,
    learned_correlation_rows,
    load_learned,
    metric_values,
    read_learned_scores,
)

HAS_MODEL = importlib.util.find_spec("all_minilm_l6_v2") is not None


@pytest.fixture(scope="module")
def learned():
    return load_learned()


@pytest.fixture(scope="module")
def agreement():
    return load_agreement()


def test_scores_cover_every_system_with_an_output_once(learned):
    shipped = {(r["pair"], r["system"]) for r in read("systems.csv") if r["has_output"] == "1"}
    keys = [(s.pair, s.system) for s in learned.scores]
    assert len(keys) == len(set(keys))
    assert set(keys) == shipped
    assert len(read("learned_scores.csv")) == len(learned.scores)


def test_scores_use_each_pairs_first_reference_and_every_segment(learned):
    segments = {r["pair"]: int(r["segments"]) for r in read("segment_counts.csv")}
    first = {r["pair"]: r["reference_ids"].split("+")[0] for r in read("segment_counts.csv")}
    for s in learned.scores:
        assert s.reference == first[s.pair] == learned.settings["reference"][s.pair]
        assert s.segments == segments[s.pair]
        assert 0 < s.bertscore <= 1


def test_correlation_rows_have_the_expected_shape(learned):
    rows = read("learned_correlations.csv")
    assert len(rows) == len(learned.correlations)
    pairs = sorted({r["pair"] for r in read("segment_counts.csv")})
    per_pair = [r for r in rows if r["scope"] != "pooled"]
    # per pair: five metrics against the first reference, BLEU and chrF against all; 3 correlations + accuracy
    assert len(per_pair) == len(pairs) * (len(LEARNED_METRICS) + 2) * 4
    pooled = [r for r in rows if r["scope"] == "pooled"]
    assert {(r["reference"], r["metric"]) for r in pooled} == (
        {("first", m) for m in LEARNED_METRICS} | {("all", "bleu"), ("all", "chrf")})
    scored = sum(1 for r in read("systems.csv") if r["has_output"] == "1" and r["human_z"])
    for r in pooled:
        assert int(r["n_systems"]) == scored
        assert int(r["comparisons"]) == sum(k * (k - 1) // 2 for k in (
            sum(1 for s in read("systems.csv") if s["pair"] == p and s["has_output"] == "1" and s["human_z"])
            for p in pairs))


def _cells(header: list[str], row: list) -> dict[str, str]:
    """A computed row spelled as the study writes it (6 decimals, empty for None)."""
    out = {}
    for name, value in zip(header, row):
        text = f"{value:.6f}" if isinstance(value, float) else ("" if value is None else str(value))
        out[name] = "0.000000" if text == "-0.000000" else text
    return out


def test_correlations_recompute_from_the_shipped_scores(learned, agreement):
    # The bootstrap of every row takes ~9 s: the sample tier recomputes two pairs (cs-en's first reference
    # is B), the full tier all six with the pooled rows; the pooled counts are checked in both.
    pairs = None if tiers.is_full() else {"cs-en", "de-en"}
    scores = [s for s in learned.scores if pairs is None or s.pair in pairs]
    header, rows = learned_correlation_rows(scores, agreement)
    shipped = read("learned_correlations.csv")
    assert list(shipped[0]) == header
    expected = [r for r in shipped if pairs is None or r["scope"] in pairs]
    assert [_cells(header, r) for r in rows if pairs is None or r[0] in pairs] == expected
    assert len(expected) == (len(shipped) if pairs is None else 2 * 28)


def test_pooled_accuracy_counts_recompute(learned, agreement):
    for row in (r for r in learned.correlations if r.scope == "pooled"):
        groups = []
        for pair in agreement.pairs:
            systems = sorted(s.system for s in agreement.systems if s.pair == pair and s.scored)
            human = [next(s.human_z for s in agreement.systems if (s.pair, s.system) == (pair, n))
                     for n in systems]
            ref = "all" if row.reference == "all" else default_reference(pair, "comet")
            groups.append((metric_values(pair, row.metric, ref, systems, learned.scores, agreement), human))
        acc = pooled_accuracy(groups)
        assert (row.agreeing, row.comparisons) == (acc.agreeing, acc.comparisons) and acc.comparisons == 329


def test_comparison_metrics_equal_the_shipped_tables(learned):
    # BLEU, chrF and WMT's COMET against the first reference are the rows system_correlations.csv and
    # pairwise_accuracy.csv already hold for that reference and the same systems.
    shipped = {(r["pair"], r["reference"], r["metric"], r["statistic"]): r
               for r in read("system_correlations.csv") if r["human_score"] == "z"}
    accuracy = {(r["scope"], r["reference"], r["metric"]): r
                for r in read("pairwise_accuracy.csv") if r["human_score"] == "z"}
    checked = 0
    for row in learned.correlations:
        if row.scope == "pooled" or row.metric not in ("bleu", "chrf", "comet") or row.statistic == "kendall":
            continue
        if row.statistic == "accuracy":
            theirs = accuracy[(row.scope, row.reference, row.metric)]
            assert (row.agreeing, row.comparisons) == (int(theirs["agreeing"]), int(theirs["comparisons"]))
        else:
            theirs = shipped[(row.scope, row.reference, row.metric, row.statistic)]
            # the learned table reads scores written with 6 decimals; the shipped one had every digit
            assert row.value == pytest.approx(float(theirs["value"]), abs=1e-4)
            assert int(theirs["n_systems"]) == row.n_systems
        checked += 1
    assert checked == 6 * 5 * 3  # six pairs; bleu, chrf, comet at the first reference, bleu, chrf at all


def test_a_missing_score_is_named():
    one = (LearnedScore("de-en", "JDExploreAcademy", "A", 0.9, 0.1, 1984),)
    with pytest.raises(ValueError, match="no bertscore against A for de-en"):
        learned_correlation_rows(one, load_agreement())


def test_read_learned_scores_parses_one_row():
    text = "pair,system,reference,bertscore,comet_mini,segments\nde-en,X,A,0.900000,-0.100000,3\n"
    assert read_learned_scores(text) == (LearnedScore("de-en", "X", "A", 0.9, -0.1, 3),)


# ----------------------------------------------------------------------------- the join, on the texts


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return (text.removesuffix("\n")).split("\n")


@pytest.mark.wmt22
@pytest.mark.skipif(not HAS_MODEL,
                    reason="the encoder's weights (all_minilm_l6_v2, the neural extra) are absent")
def test_shipped_scores_join_the_right_texts(wmt22, learned):
    """Two de-en systems (the shipped best and worst by BERTScore-mini) rescored on a seeded sample of 30
    segments encoded here: each sample mean lies near the shipped corpus value, far from the
    same sample scored against the reference one line off (a wrong join), and the two keep their order.
    COMET-mini's column comes from the same rows and encoder pass (tests/study/test_wmt22_learned.py)."""
    pair = "de-en"
    ref = default_reference(pair, "comet")
    mine = sorted((s for s in learned.scores if s.pair == pair), key=lambda s: s.bertscore)
    worst, best = mine[0], mine[-1]
    refs = _lines(wmt22 / "references" / f"generaltest2022.{pair}.ref.{ref}.en")
    sample = sorted(random.Random(2022).sample(range(len(refs) - 1), 30))
    embedded = dict(zip(sample, embed_many([refs[i] for i in sample], BERTSCORE.layer)))
    shifted_refs = dict(zip(sample, embed_many([refs[i + 1] for i in sample], BERTSCORE.layer)))

    def mean_f1(cands, against) -> float:  # corpus_bertscore's mean, each text encoded once here
        stats = sum_stats(BertScoreStats(c.precision, c.recall, c.f1, 1)
                          for c in (compare(h, against[i], None) for i, h in zip(sample, cands)))
        return bertscore_from_stats(stats).f1

    sample_scores = {}
    for s in (worst, best):
        hyps = _lines(wmt22 / "system-outputs" / f"generaltest2022.{pair}.hyp.{s.system}.en")
        cands = embed_many([hyps[i] for i in sample], BERTSCORE.layer)
        right, shifted = mean_f1(cands, embedded), mean_f1(cands, shifted_refs)
        assert right - shifted > 0.1, (s.system, right, shifted)
        assert abs(right - s.bertscore) < (right - shifted) / 4, (s.system, right, s.bertscore, shifted)
        sample_scores[s.system] = right
    assert sample_scores[best.system] > sample_scores[worst.system]

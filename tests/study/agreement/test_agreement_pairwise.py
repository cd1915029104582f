"""mtlearn/study/agreement/pairwise.py: two systems compared, the pairwise summaries and pairwise accuracy,
each counted by hand from the CSV files (``agreement_files.read``).
"""

from __future__ import annotations

import pytest
from agreement_files import TABLES, read

from mtlearn.study.agreement import (
    METRICS,
    SIGNIFICANCE_METRICS,
    accuracies,
    accuracy,
    compare_systems,
    pairs,
    pairwise_summary,
    system_scores,
)


@pytest.mark.parametrize("order", [("Lan-Bridge", "Online-G"), ("Online-G", "Lan-Bridge")])
def test_compare_systems_either_order(order):
    c = compare_systems("de-en", *order)
    raw = next(r for r in read("pairwise_significance.csv")
               if r["pair"] == "de-en" and {r["system_a"], r["system_b"]} == set(order))
    assert (c.system_a, c.system_b) == (raw["system_a"], raw["system_b"])
    assert c.human_z_a >= c.human_z_b and c.winner() == c.system_a
    assert c.bleu.a == float(raw["bleu_a"]) and c.bleu.agrees is (raw["bleu_agrees"] == "1")
    assert c.human_significant is (raw["human_significant"] == "1")


def test_same_system_twice():
    with pytest.raises(ValueError, match=r"^system_2: 'LT22' is system_1 too"):
        compare_systems("de-en", "LT22", "LT22")


def test_pairwise_summary_counts_by_hand():
    raw = read("pairwise_significance.csv")
    for pair in (None, *pairs()):
        rows = [r for r in raw if pair is None or r["pair"] == pair]
        for m in SIGNIFICANCE_METRICS:
            s = pairwise_summary(m, pair)
            assert s.comparisons == len(rows)
            assert s.human_significant == sum(r["human_significant"] == "1" for r in rows)
            assert s.metric_significant == sum(r[f"{m}_significant"] == "1" for r in rows)
            assert s.agrees == sum(r[f"{m}_agrees"] == "1" for r in rows)
            assert s.disagrees == sum(r[f"{m}_agrees"] == "0" for r in rows)
            wrong = [r for r in rows if r[f"{m}_significant"] == "1" and r[f"{m}_agrees"] == "0"]
            assert s.wrong_way_significant == len(wrong)
            assert s.wrong_way_both_significant == sum(r["human_significant"] == "1" for r in wrong)
            assert s.wrong_way_share == (len(wrong) / s.metric_significant if s.metric_significant else 0.0)


def _by_hand(scores: list[float], human: list[float]) -> tuple[int, int]:
    """Pairwise accuracy counted plainly: pairs whose differences have the same sign."""
    agree = total = 0
    for i in range(len(scores)):
        for j in range(i + 1, len(scores)):
            total += 1
            dm, dh = scores[i] - scores[j], human[i] - human[j]
            agree += (dm > 0) == (dh > 0) and (dm < 0) == (dh < 0)
    return agree, total


def test_pairwise_accuracy_by_hand_from_the_scores():
    for row in accuracies(human_score="z") + accuracies(human_score="raw"):
        agree = total = 0
        for pair in row.pairs:
            systems = system_scores(pair, scored_only=True, reference=row.reference)
            a, n = _by_hand([s.metric(row.metric) for s in systems],
                            [s.human(row.human_score) for s in systems])
            agree, total = agree + a, total + n
        assert (row.agreeing, row.comparisons) == (agree, total), row
        assert row.value == pytest.approx(agree / total, abs=5e-7)
        assert row.ci_low <= row.value <= row.ci_high and row.n_valid_resamples == row.n_resamples


def test_pooled_accuracy_covers_the_pairs_with_the_reference():
    assert accuracy("pooled", "comet", reference="A").pairs == ("de-en", "ja-en", "ru-en", "uk-en", "zh-en")
    assert accuracy("pooled", "bleu", reference="all").pairs == pairs()
    assert accuracy("pooled", "bleu", reference="B").pairs == ("cs-en", "de-en", "zh-en")
    assert accuracy("de-en", "comet").reference == "A" and accuracy("de-en", "bleu").reference == "all"
    assert {r.metric for r in accuracies("pooled", reference="A")} == set(METRICS)


def test_readme_explains_the_draft_figures_with_the_tables():
    """The README's "why figures differ": all references for BLEU/chrF over the five pairs with A."""
    from mtlearn.study.accuracy import pooled_accuracy

    five = accuracy("pooled", "comet", reference="A").pairs
    text = (TABLES / "README.md").read_text(encoding="utf-8")
    for metric, ref in (("bleu", "A"), ("chrf", "A"), ("comet", "A"), ("bleu", "all"), ("chrf", "all")):
        groups = []
        for pair in five:
            systems = system_scores(pair, scored_only=True, reference=ref)
            groups.append(([s.metric(metric) for s in systems], [s.human_z for s in systems]))
        value = pooled_accuracy(groups)
        assert value.comparisons == 274
        name = {"bleu": "BLEU", "chrf": "chrF", "comet": "COMET"}[metric]
        assert f"{name} {float(value.value):.3f}" in text, (metric, ref, float(value.value))

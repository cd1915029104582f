"""mtlearn/study/agreement/systems.py: the systems of a pair, their rankings and system-level correlations
(read from the table, or recomputed from its scores), the join check.

Expected values are computed independently here: the CSV files read with the csv module
(``agreement_files.read``) and the standard library (``statistics``). No METEOR digit is typed
(the tables may be regenerated).
"""

from __future__ import annotations

import statistics

import pytest
from agreement_files import read

from mtlearn.study.agreement import (
    SIGNIFICANCE_METRICS,
    correlate_systems,
    join_checks,
    leave_one_out,
    pairs,
    ranking,
    segment_counts,
    summarize_correlations,
    system_correlation,
    system_correlations,
    system_scores,
)


def test_scored_systems_are_those_in_the_statistics():
    for pair in pairs():
        scored = system_scores(pair, scored_only=True)
        assert len(scored) == segment_counts(pair).mt_systems_scored
        assert all(s.kind == "mt" and s.has_output and s.human_z is not None for s in scored)
        assert {c.n_systems for c in system_correlations(pair)} == {len(scored)}
    # That each pair of scored systems has one pairwise row: test_wmt22_agreement.py, on the file.


def test_system_correlation_is_the_file_row():
    raw = read("system_correlations.csv")
    for r in raw:
        c = system_correlation(r["pair"], r["metric"], r["statistic"], r["human_score"],
                               reference=r["reference"])
        assert (c.value, c.ci_low, c.ci_high, c.n_systems) == (
            float(r["value"]), float(r["ci_low"]), float(r["ci_high"]), int(r["n_systems"]))
        assert c.contains(c.value) and not c.contains(c.ci_high + 1e-6)


def test_join_check_rows_are_the_file_rows():
    raw = read("join_check.csv")
    rows = join_checks()
    assert len(rows) == len(raw)
    for r, c in zip(raw, rows):
        assert ((c.pair, c.system, c.x, c.y, c.alignment)
                == (r["pair"], r["system"], r["x"], r["y"], r["alignment"]))
        assert c.offset == (int(r["offset"]) if r["offset"] else None)
        assert c.pearson == (float(r["pearson"]) if r["pearson"] else None)
    assert ({c.alignment for c in join_checks(x="sentence_bleu", y="sentence_meteor")}
            == {"same_text_plus_offset"})


def test_join_check_shows_the_sid_as_line_join_is_wrong():
    """What the shipped check says: no offset beats a shuffle; a join known to be right peaks at 0."""
    for pair in pairs():
        human = [c for c in join_checks(pair, y="human_z") if c.pearson is not None]
        assert human and max(abs(c.pearson) for c in human) < 0.15, pair
        right = {c.offset: c.pearson for c in join_checks(pair, y="sentence_meteor")
                 if c.system == human[0].system}
        assert right[0] > 0.5 and all(abs(right[k]) < right[0] / 2 for k in (-2, -1, 1, 2)), (pair, right)


def _ranks(values):
    # Average ranks by counting (no sorting trick shared with mtlearn): 1 + #smaller + (#equal - 1) / 2.
    return [1 + sum(w < v for w in values) + (sum(w == v for w in values) - 1) / 2 for v in values]


def test_correlations_recomputed_from_the_scores_match_the_table():
    """An independent check of loader and table: r and rho from the tables' rounded scores, by the standard
    library, are correlate_systems', which is each shipped value to 2e-5 (the table was computed from the
    unrounded scores)."""
    systems = read("systems.csv")
    by_ref = {(s["pair"], s["system"], s["reference"]): s for s in read("reference_scores.csv")}
    metric_column = {"bleu": "bleu", "meteor": "meteor", "chrf": "chrf", "comet": "wmt_comet"}
    raw = read("system_correlations.csv")
    for r in raw:
        pts = [(float(by_ref[(s["pair"], s["system"], r["reference"])][metric_column[r["metric"]]]),
                float(s[f"human_{r['human_score']}"])) for s in systems
               if s["pair"] == r["pair"] and s["bleu"] and s["human_z"]]
        assert len(pts) == int(r["n_systems"])
        x, y = zip(*pts)
        if r["statistic"] == "pearson":
            by_hand = statistics.correlation(x, y)
        else:
            by_hand = statistics.correlation(_ranks(x), _ranks(y))
        again = correlate_systems(r["pair"], r["metric"], statistic=r["statistic"],
                                  human_score=r["human_score"], reference=r["reference"])
        assert again == pytest.approx(by_hand, abs=1e-12), r
        assert abs(again - float(r["value"])) < 2e-5, (r, again)
        assert float(r["ci_low"]) <= float(r["value"]) <= float(r["ci_high"])
    loaded = system_correlations(reference=None, human_score="z") + system_correlations(reference=None,
                                                                                         human_score="raw")
    assert len(loaded) == len(raw)


def test_correlate_systems_pearson_by_hand_without_a_system():
    rows = [r for r in read("systems.csv") if r["pair"] == "ja-en" and r["kind"] == "mt"
            and r["human_z"] and r["system"] != "AIST"]
    x = [float(r["bleu"]) for r in rows]
    y = [float(r["human_z"]) for r in rows]
    by_hand = statistics.correlation(x, y)  # Python's own Pearson
    assert correlate_systems("ja-en", "bleu", exclude=["AIST"]) == pytest.approx(by_hand, abs=1e-12)


def test_leave_one_out_tries_every_system():
    loo = leave_one_out("cs-en", "bleu")
    names = [s.system for s in system_scores("cs-en", scored_only=True)]
    assert [name for name, _ in loo.values] == names
    for name, value in loo.values:
        assert value == correlate_systems("cs-en", "bleu", exclude=[name])
    assert loo.lowest[1] == min(v for _, v in loo.values) and loo.highest[1] == max(v for _, v in loo.values)
    assert loo.lowest[1] <= loo.full <= loo.highest[1] or len(names) < 3


@pytest.mark.parametrize("statistic", ["pearson", "spearman"])
def test_system_summary_by_hand(statistic):
    raw = [r for r in read("system_correlations.csv") if r["statistic"] == statistic
           and r["human_score"] == "z"
           and r["reference"] == "all"]
    s = summarize_correlations("system", statistic)
    values = {m: [float(r["value"]) for r in raw if r["metric"] == m] for m in SIGNIFICANCE_METRICS}
    assert s.bleu == tuple(values["bleu"]) and s.meteor == tuple(values["meteor"])
    assert s.mean_bleu == pytest.approx(statistics.fmean(values["bleu"]), abs=1e-15)
    assert s.mean_meteor == pytest.approx(statistics.fmean(values["meteor"]), abs=1e-15)
    assert s.meteor_higher == tuple(p for p, b, m in zip(s.pairs, values["bleu"], values["meteor"]) if m > b)
    assert s.bleu_higher == tuple(p for p, b, m in zip(s.pairs, values["bleu"], values["meteor"]) if b > m)
    for m, claim in (("bleu", 0.817), ("meteor", 0.964)):
        rows = [r for r in raw if r["metric"] == m]
        assert getattr(s, f"interval_covers_claim_{m}") == tuple(
            r["pair"] for r in rows if float(r["ci_low"]) <= claim <= float(r["ci_high"]))
        assert (getattr(s, f"reaches_claim_{m}")
                == tuple(r["pair"] for r in rows if float(r["value"]) >= claim))


def test_no_segment_level_summary():
    with pytest.raises(ValueError, match=r"^level: no segment-level correlation is shipped"):
        summarize_correlations("segment", "pearson")


@pytest.mark.parametrize("by", ["human", "bleu", "meteor"])
def test_ranking_by_hand(by):
    for pair in pairs():
        rows = [r for r in read("systems.csv") if r["pair"] == pair and r["kind"] == "mt" and r["human_z"]]
        column = "human_z" if by == "human" else by
        expected = [r["system"] for r in sorted(rows, key=lambda r: (-float(r[column]), r["system"]))]
        assert list(ranking(pair, by)) == expected


def test_systems_in_human_order_include_human_translations():
    rows = system_scores("de-en", order="human")
    zs = [s.human_z for s in rows]
    assert zs == sorted(zs, reverse=True) and len(rows) == 10
    assert "HUMAN-B" in [s.system for s in rows]
    # Without a human score, GTCOM comes last.
    assert system_scores("uk-en", order="human")[-1].system == "GTCOM"


def test_exclude_checks():
    with pytest.raises(TypeError, match="^exclude: expected a list"):
        correlate_systems("ja-en", "bleu", exclude="AIST")  # type: ignore[arg-type]
    names = [s.system for s in system_scores("de-en", scored_only=True)]
    with pytest.raises(ValueError, match="^exclude: 2 systems would be left"):
        correlate_systems("de-en", "bleu", exclude=names[:-2])


def test_scores_against_one_reference_are_the_file_rows():
    raw = {(r["pair"], r["system"], r["reference"]): r for r in read("reference_scores.csv")}
    for pair in pairs():
        for ref in ("A", "B", "C"):
            if ref not in segment_counts(pair).reference_ids:
                continue
            for s in system_scores(pair, reference=ref):
                if s.kind == "human":
                    assert s.bleu is None and s.comet is None
                    continue
                r = raw[(pair, s.system, ref)]
                assert (s.reference, s.bleu, s.meteor, s.chrf, s.comet) == (
                    ref, float(r["bleu"]), float(r["meteor"]), float(r["chrf"]), float(r["wmt_comet"]))

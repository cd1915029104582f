"""mtlearn.study.agreement: the shipped WMT22 tables, read into typed rows, and the questions asked of them.

Expected values are computed independently here: the CSV files read with the csv module
and plain Python (statistics, sums), never with the module under test. No METEOR digit
is typed (the tables may be regenerated); BLEU and human columns, which cannot change
with METEOR, are compared with the files.
"""

from __future__ import annotations

import csv
import dataclasses
import re
import statistics

import pytest

from mtlearn.study.agreement import (
    DOCUMENT_CLAIM,
    METRICS,
    SIGNIFICANCE_METRICS,
    accuracies,
    accuracy,
    compare_systems,
    correlate_systems,
    leave_one_out,
    load_agreement,
    pairs,
    pairwise,
    pairwise_summary,
    join_checks,
    ranking,
    segment_counts,
    summarize_correlations,
    system_correlation,
    system_correlations,
    system_scores,
)
from repo_paths import REPO

TABLES = REPO / "mtlearn" / "study" / "data" / "wmt22_agreement"


def read(name: str) -> list[dict[str, str]]:
    with open(TABLES / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def tables():
    return load_agreement()


# --------------------------------------------------------------------------- reading


def test_every_row_is_read(tables):
    assert len(tables.systems) == len(read("systems.csv"))
    assert len(tables.system_correlations) == len(read("system_correlations.csv"))
    assert len(tables.join_checks) == len(read("join_check.csv"))
    assert len(tables.pairwise) == len(read("pairwise_significance.csv"))
    assert len(tables.segment_counts) == len(read("segment_counts.csv"))
    assert len(tables.reference_scores) == len(read("reference_scores.csv"))
    assert len(tables.accuracies) == len(read("pairwise_accuracy.csv"))
    assert tables.pairs == tuple(sorted({r["pair"] for r in read("systems.csv")}))


def _allowed(annotation: str) -> tuple[type, ...]:
    """The runtime types a dataclass field's annotation allows (None included for Optional)."""
    base = {"str": str, "int": int, "float": float, "bool": bool, "tuple[str, ...]": tuple}
    text = annotation.replace("Optional[", "").rstrip("]") if annotation.startswith("Optional[") else annotation
    if text.startswith("tuple[str"):
        text = "tuple[str, ...]"
    types: tuple[type, ...] = (base[text],)
    return types + ((type(None),) if annotation.startswith("Optional[") else ())


@pytest.mark.parametrize("field", ["systems", "system_correlations", "join_checks", "segment_counts",
                                   "reference_scores", "accuracies"])
def test_cells_have_their_declared_types(tables, field):
    for row in getattr(tables, field):
        assert dataclasses.is_dataclass(row)
        for f in dataclasses.fields(row):
            value = getattr(row, f.name)
            allowed = _allowed(str(f.type))
            # bool is an int subclass: an int field must not hold a bool, nor a float field an int.
            assert type(value) in allowed, f"{type(row).__name__}.{f.name} = {value!r} ({type(value).__name__})"


def test_rows_are_frozen(tables):
    with pytest.raises(dataclasses.FrozenInstanceError):
        tables.systems[0].bleu = 1.0  # type: ignore[misc]


def test_pairwise_rows_typed(tables):
    for c in tables.pairwise:
        assert type(c.human_significant) is bool and type(c.human_z_diff) is float
        for m in SIGNIFICANCE_METRICS:
            d = c.metric(m)
            assert type(d.significant) is bool and d.agrees in (True, False, None) and type(d.p_value) is float


def test_empty_cells_become_none():
    (gtcom,) = [s for s in system_scores("uk-en") if s.system == "GTCOM"]
    raw = next(r for r in read("systems.csv") if r["pair"] == "uk-en" and r["system"] == "GTCOM")
    assert raw["human_z"] == "" and gtcom.human_z is None and gtcom.human_label is None
    assert gtcom.bleu == float(raw["bleu"]) and not gtcom.scored
    human = [s for s in system_scores("cs-en") if s.kind == "human"]
    assert [s.system for s in human] == ["HUMAN-C"] and human[0].bleu is None and human[0].meteor is None


def test_bleu_and_human_columns_equal_the_file():
    for raw in read("systems.csv"):
        (row,) = [s for s in system_scores(raw["pair"]) if s.system == raw["system"]]
        for name in ("bleu", "chrf", "wmt_bleu_all", "wmt_chrf_all", "human_z", "human_raw"):
            assert getattr(row, name) == (float(raw[name]) if raw[name] else None)
        assert row.has_output is (raw["has_output"] == "1")


def test_lists_in_counts_are_split():
    raw = {r["pair"]: r for r in read("segment_counts.csv")}
    for pair in pairs():
        c = segment_counts(pair)
        assert "+".join(c.reference_ids) == raw[pair]["reference_ids"]
        assert len(c.reference_ids) == c.references
        assert "+".join(c.outputs_without_human_score) == raw[pair]["outputs_without_human_score"]
    assert segment_counts("uk-en").outputs_without_human_score == ("GTCOM",)
    assert segment_counts("ja-en").human_translation_rows == ()


def test_read_as_package_data():
    # importlib.resources finds the folder inside the installed package, wherever that is.
    from importlib import resources

    folder = resources.files("mtlearn.study").joinpath("data", "wmt22_agreement")
    assert folder.joinpath("systems.csv").is_file()
    assert load_agreement().settings["pairs"] == list(pairs())


# --------------------------------------------------------------------------- questions


def test_scored_systems_are_those_in_the_statistics():
    for pair in pairs():
        scored = system_scores(pair, scored_only=True)
        assert len(scored) == segment_counts(pair).mt_systems_scored
        assert all(s.kind == "mt" and s.has_output and s.human_z is not None for s in scored)
        assert {c.n_systems for c in system_correlations(pair)} == {len(scored)}
        n = len(scored)
        assert len(pairwise(pair)) == n * (n - 1) // 2


def test_system_correlation_is_the_file_row():
    raw = read("system_correlations.csv")
    for r in raw:
        c = system_correlation(r["pair"], r["metric"], r["statistic"], r["human_score"], reference=r["reference"])
        assert (c.value, c.ci_low, c.ci_high, c.n_systems) == (
            float(r["value"]), float(r["ci_low"]), float(r["ci_high"]), int(r["n_systems"]))
        assert c.contains(c.value) and not c.contains(c.ci_high + 1e-6)


def test_join_check_rows_are_the_file_rows():
    raw = read("join_check.csv")
    rows = join_checks()
    assert len(rows) == len(raw)
    for r, c in zip(raw, rows):
        assert (c.pair, c.system, c.x, c.y, c.alignment) == (r["pair"], r["system"], r["x"], r["y"], r["alignment"])
        assert c.offset == (int(r["offset"]) if r["offset"] else None)
        assert c.pearson == (float(r["pearson"]) if r["pearson"] else None)
    assert {c.alignment for c in join_checks(x="sentence_bleu", y="sentence_meteor")} == {"same_text_plus_offset"}


def test_join_check_shows_the_sid_as_line_join_is_wrong():
    """What the shipped check says: no offset beats a shuffle; a join known to be right peaks at 0."""
    for pair in pairs():
        human = [c for c in join_checks(pair, y="human_z") if c.pearson is not None]
        assert human and max(abs(c.pearson) for c in human) < 0.15, pair
        right = {c.offset: c.pearson for c in join_checks(pair, y="sentence_meteor") if c.system == human[0].system}
        assert right[0] > 0.5 and all(abs(right[k]) < right[0] / 2 for k in (-2, -1, 1, 2)), (pair, right)


def test_correlations_recomputed_from_the_scores_match_the_table():
    """An independent check of loader and table: r and rho from systems.csv's rounded scores."""
    seen = 0
    for row in system_correlations(reference=None, human_score="z") + system_correlations(reference=None,
                                                                                          human_score="raw"):
        again = correlate_systems(row.pair, row.metric, statistic=row.statistic, human_score=row.human_score,
                                  reference=row.reference)
        assert abs(again - row.value) < 2e-5, (row, again)
        seen += 1
    assert seen == len(read("system_correlations.csv"))


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


@pytest.mark.parametrize("order", [("Lan-Bridge", "Online-G"), ("Online-G", "Lan-Bridge")])
def test_compare_systems_either_order(order):
    c = compare_systems("de-en", *order)
    raw = next(r for r in read("pairwise_significance.csv")
               if r["pair"] == "de-en" and {r["system_a"], r["system_b"]} == set(order))
    assert (c.system_a, c.system_b) == (raw["system_a"], raw["system_b"])
    assert c.human_z_a >= c.human_z_b and c.winner() == c.system_a
    assert c.bleu.a == float(raw["bleu_a"]) and c.bleu.agrees is (raw["bleu_agrees"] == "1")
    assert c.human_significant is (raw["human_significant"] == "1")


def test_agreeing_follows_the_metrics(tables):
    for c in tables.pairwise:
        agreeing = {m for m in SIGNIFICANCE_METRICS if c.metric(m).agrees}
        expected = {frozenset(): "neither", frozenset(SIGNIFICANCE_METRICS): "both"}.get(frozenset(agreeing))
        assert c.agreeing == (expected or next(iter(agreeing)))
        for m in SIGNIFICANCE_METRICS:
            d = c.metric(m)
            # The sign of the difference is the order, and "agrees" says the same.
            assert d.agrees is None if d.a == d.b else d.agrees is (d.a > d.b)
            assert c.winner(m) == (None if d.agrees is None else (c.system_a if d.agrees else c.system_b))


def test_explain_names_both_systems_and_every_verdict():
    c = compare_systems("ja-en", "LanguageX", "NAIST-NICT-TIT")
    lines = c.explain().splitlines()
    assert lines[0] == "ja-en: LanguageX against NAIST-NICT-TIT"
    assert lines[1].startswith("humans  LanguageX ahead: z 0.0539 against -0.0210")
    assert lines[2].startswith("BLEU    NAIST-NICT-TIT ahead: 0.2236 against 0.2268, unlike the humans")
    assert lines[3].startswith("METEOR  ")
    assert lines[-1] == f"orders them as the humans do: {c.agreeing}"


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


@pytest.mark.parametrize("statistic", ["pearson", "spearman"])
def test_system_summary_by_hand(statistic):
    raw = [r for r in read("system_correlations.csv") if r["statistic"] == statistic and r["human_score"] == "z"
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
        assert getattr(s, f"reaches_claim_{m}") == tuple(r["pair"] for r in rows if float(r["value"]) >= claim)


def test_no_segment_level_summary():
    with pytest.raises(ValueError, match=r"^level: no segment-level correlation is shipped"):
        summarize_correlations("segment", "pearson")


def test_document_claim_is_the_digest_s():
    digest = REPO.parent / "shared" / "seeds" / "DIGEST.md"
    if not digest.is_file():
        pytest.skip(f"the digest is not available at {digest}")
    item = re.search(r"2\. \*\*Reported results\.\*\*(.+?)\n\d+\. ", digest.read_text(encoding="utf-8"), re.S)
    assert item, "METEOR item 2 not found in the digest"
    numbers = [float(x) for x in re.findall(r"\d\.\d+", item.group(1))]
    assert numbers == [DOCUMENT_CLAIM.corpus_meteor, DOCUMENT_CLAIM.corpus_bleu, DOCUMENT_CLAIM.sentence_meteor]


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


def test_document_gap_and_mean_difference():
    assert DOCUMENT_CLAIM.corpus_gap == DOCUMENT_CLAIM.corpus_meteor - DOCUMENT_CLAIM.corpus_bleu
    s = summarize_correlations()
    assert s.mean_difference == s.mean_meteor - s.mean_bleu


# --------------------------------------------------------------------------- bad input


def test_unknown_pair_names_the_argument_and_the_choices():
    with pytest.raises(ValueError, match=r"^pair: unknown pair 'xx-en'; choose cs-en, de-en, ja-en, ru-en, uk-en, zh-en$"):
        system_scores("xx-en")
    with pytest.raises(TypeError, match="^pair: expected a string"):
        segment_counts(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("call, message", [
    (lambda: system_correlation("de-en", "ter"), r"^metric: unknown metric 'ter'; choose bleu, meteor, chrf, comet$"),
    (lambda: system_correlation("de-en", "comet", reference="all"), r"^reference: WMT's COMET uses one reference"),
    (lambda: system_correlation("ja-en", "bleu", reference="B"), r"^reference: unknown reference 'B'; choose all, A$"),
    (lambda: accuracy("pooled", "comet", reference="all"), r"^reference: WMT's COMET uses one reference"),
    (lambda: accuracy("xx-en", "bleu"), r"^scope: unknown pair 'xx-en'"),
    (lambda: system_correlation("de-en", "bleu", "kendall"), r"^statistic: unknown statistic 'kendall'"),
    (lambda: system_correlation("de-en", "bleu", human_score="mqm"), r"^human_score: unknown human score 'mqm'"),
    (lambda: join_checks("de-en", x="sentence_ter"), r"^x: unknown x 'sentence_ter'; choose sentence_bleu"),
    (lambda: summarize_correlations("corpus"), r"^level: unknown level 'corpus'; choose system$"),
    (lambda: pairwise_summary("chrf"), r"^metric: 'chrf' has no paired significance test"),
    (lambda: ranking("de-en", "ter"), r"^by: unknown ranking 'ter'; choose human, bleu, meteor, chrf, comet$"),
    (lambda: system_scores("de-en", order="bleu"), r"^order: unknown order 'bleu'; choose name, human$"),
])
def test_unknown_options(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_unknown_system():
    with pytest.raises(ValueError, match=r"^system_1: unknown system 'Nobody' in de-en; choose JDExploreAcademy, LT22"):
        compare_systems("de-en", "Nobody", "LT22")


def test_system_without_a_human_score():
    with pytest.raises(ValueError, match=r"^system_2: 'GTCOM' is not scored by the humans in uk-en; choose "):
        compare_systems("uk-en", "Online-A", "GTCOM")


def test_human_translation_cannot_be_compared():
    with pytest.raises(ValueError, match=r"^system_1: 'HUMAN-C' is a human translation"):
        compare_systems("cs-en", "HUMAN-C", "Online-A")


def test_same_system_twice():
    with pytest.raises(ValueError, match=r"^system_2: 'LT22' is system_1 too"):
        compare_systems("de-en", "LT22", "LT22")


def test_system_name_must_be_a_string():
    with pytest.raises(TypeError, match="^system_2: expected a system name"):
        compare_systems("de-en", "LT22", None)  # type: ignore[arg-type]


def test_exclude_checks():
    with pytest.raises(TypeError, match="^exclude: expected a list"):
        correlate_systems("ja-en", "bleu", exclude="AIST")  # type: ignore[arg-type]
    names = [s.system for s in system_scores("de-en", scored_only=True)]
    with pytest.raises(ValueError, match="^exclude: 2 systems would be left"):
        correlate_systems("de-en", "bleu", exclude=names[:-2])


def test_tables_argument_checked():
    with pytest.raises(TypeError, match="^tables: expected the result of load_agreement"):
        pairs(tables={})  # type: ignore[arg-type]


def test_given_tables_are_used_instead_of_the_files(tables):
    # The tables argument really replaces the reading: a changed copy changes the answer.
    changed = dataclasses.replace(tables, systems=tuple(
        dataclasses.replace(s, bleu=0.5) if s.pair == "de-en" and s.system == "LT22" else s
        for s in tables.systems))
    lt22 = [s for s in system_scores("de-en", tables=changed) if s.system == "LT22"]
    assert lt22[0].bleu == 0.5
    assert [s for s in system_scores("de-en") if s.system == "LT22"][0].bleu != 0.5


# --------------------------------------------------------------------------- chrF, COMET, pairwise accuracy


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
            a, n = _by_hand([s.metric(row.metric) for s in systems], [s.human(row.human_score) for s in systems])
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

"""mtlearn/study/agreement/tables.py: every shipped table read (as package data), its cells converted,
and the checks that need the tables (a pair, the tables argument, a system of a pair).

Expected values come from the CSV files read with the csv module (``agreement_files.read``), never from
the module under test.
"""

from __future__ import annotations

import dataclasses

import pytest
from agreement_files import read

from mtlearn.study.agreement import (
    compare_systems,
    load_agreement,
    pairs,
    segment_counts,
    system_scores,
)


@pytest.fixture(scope="module")
def tables():
    return load_agreement()


def test_every_row_is_read(tables):
    assert len(tables.systems) == len(read("systems.csv"))
    assert len(tables.system_correlations) == len(read("system_correlations.csv"))
    assert len(tables.join_checks) == len(read("join_check.csv"))
    assert len(tables.pairwise) == len(read("pairwise_significance.csv"))
    assert len(tables.segment_counts) == len(read("segment_counts.csv"))
    assert len(tables.reference_scores) == len(read("reference_scores.csv"))
    assert len(tables.accuracies) == len(read("pairwise_accuracy.csv"))
    assert tables.pairs == tuple(sorted({r["pair"] for r in read("systems.csv")}))


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


def test_unknown_pair_names_the_argument_and_the_choices():
    with pytest.raises(ValueError,
                       match=r"^pair: unknown pair 'xx-en'; "
                             r"choose cs-en, de-en, ja-en, ru-en, uk-en, zh-en$"):
        system_scores("xx-en")
    with pytest.raises(TypeError, match="^pair: expected a string"):
        segment_counts(3)  # type: ignore[arg-type]


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


def test_unknown_system():
    with pytest.raises(ValueError,
                       match=r"^system_1: unknown system 'Nobody' in de-en; choose JDExploreAcademy, LT22"):
        compare_systems("de-en", "Nobody", "LT22")


def test_system_without_a_human_score():
    with pytest.raises(ValueError, match=r"^system_2: 'GTCOM' is not scored by the humans in uk-en; choose "):
        compare_systems("uk-en", "Online-A", "GTCOM")


def test_human_translation_cannot_be_compared():
    with pytest.raises(ValueError, match=r"^system_1: 'HUMAN-C' is a human translation"):
        compare_systems("cs-en", "HUMAN-C", "Online-A")


def test_system_name_must_be_a_string():
    with pytest.raises(TypeError, match="^system_2: expected a system name"):
        compare_systems("de-en", "LT22", None)  # type: ignore[arg-type]

"""studies/mqm_ted_zhen.py: the shipped tables regenerate exactly, and hold derived numbers only.

The default tier regenerates one metric against one reference (sentence and corpus BLEU against
``ref``: every table's rows of that pair, the systems table and the constant-metric baseline) and
compares them byte for byte with mtlearn/study/data/mqm_ted_zhen/; the full tier (``pytest --full``)
regenerates every table of every metric and reference set. Both need ../shared/data/mqm_ted_zhen.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from pathlib import Path

import pytest
from repo_paths import REPO

TABLES = REPO / "mtlearn" / "study" / "data" / "mqm_ted_zhen"
SAMPLE_METRIC, SAMPLE_REFERENCE = "bleu", "ref"


def _load_study():
    spec = importlib.util.spec_from_file_location("mqm_ted_zhen_study", REPO / "studies" / "mqm_ted_zhen.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["mqm_ted_zhen_study"] = module
    spec.loader.exec_module(module)
    return module


study = _load_study()


def _sample_rows(text: str, name: str) -> list[str]:
    """The header and the rows the sample run writes: its (reference, metric), all of systems.csv, the
    baseline."""
    lines = text.splitlines(keepends=True)
    if name == "systems.csv":
        return lines
    keep = [line for line in lines[1:]
            if line.split(",")[:2] in ([SAMPLE_REFERENCE, SAMPLE_METRIC], ["none", "constant"])]
    return lines[:1] + keep


def _sample_settings(settings: dict) -> dict:
    narrowed = dict(settings, references=[SAMPLE_REFERENCE],
                    metrics=[m for m in settings["metrics"] if m["name"] == SAMPLE_METRIC])
    signature = settings["signatures"][SAMPLE_REFERENCE][SAMPLE_METRIC]
    narrowed["signatures"] = {SAMPLE_REFERENCE: {SAMPLE_METRIC: signature}}
    return narrowed


@pytest.fixture(scope="module")
def sample(mqm_dir, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("mqm_sample")
    study.run(mqm_dir, out, workers=1, metrics=[SAMPLE_METRIC], references=[SAMPLE_REFERENCE])
    return out


@pytest.mark.parametrize("name", study.GENERATED)
def test_a_sample_regenerates_byte_for_byte(sample, name):
    hint = (f"{name} differs from a fresh run; regenerate with "
            "python studies/mqm_ted_zhen.py ../shared/data/mqm_ted_zhen")
    fresh, shipped = (sample / name).read_text(encoding="utf-8"), (TABLES / name).read_text(encoding="utf-8")
    if name.endswith(".json"):
        assert json.loads(fresh) == _sample_settings(json.loads(shipped)), hint
        return
    ours = _sample_rows(fresh, name)
    assert ours == fresh.splitlines(keepends=True), f"{name}: the sample run wrote rows of another metric"
    assert len(ours) > 1 and ours == _sample_rows(shipped, name), hint


@pytest.mark.full
@pytest.mark.wordnet
def test_every_table_regenerates_byte_for_byte(mqm_dir, tmp_path):
    study.run(mqm_dir, tmp_path, workers=2)
    for name in study.GENERATED:
        assert (tmp_path / name).read_bytes() == (TABLES / name).read_bytes(), name


def _read(name: str) -> list[dict[str, str]]:
    with open(TABLES / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_shipped_tables_are_small_and_hold_no_sentence():
    assert (TABLES / "README.md").is_file()
    for name in study.GENERATED:
        assert (TABLES / name).stat().st_size < 100_000, name
        if name.endswith(".csv"):
            for row in _read(name):
                for key, value in row.items():
                    assert " " not in value and len(value) < 40, (name, key, value)


def test_the_shipped_tables_cover_every_metric_and_reference():
    from mtlearn.study.metric_scores import METRICS

    seg = {(r["reference"], r["metric"]) for r in _read("segment_level.csv")}
    assert seg == {(ref, m.name) for ref in study.REFERENCES for m in METRICS} | {("none", "constant")}
    sys_level = {(r["reference"], r["metric"], r["systems"]) for r in _read("system_level.csv")}
    system_metrics = sum(m.system_level for m in METRICS)
    assert len(sys_level) == system_metrics * (2 + 2 + 1)  # mt and mt+human for one reference, mt for both
    settings = json.loads((TABLES / "settings.json").read_text(encoding="utf-8"))
    assert settings["mqm"]["check_against_avg_seg_scores"]["pairs_compared"] == 7935


def test_the_command_line_refuses_a_missing_folder_in_one_line(tmp_path, capsys):
    assert study.main([str(tmp_path / "absent"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mqm_ted_zhen: path: cannot read") and "absent" in err[0]
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------------- what the README says of the tables


def test_the_readme_claims_hold_in_the_shipped_tables():
    ranks = {r["system"]: int(r["mqm_rank"]) for r in _read("systems.csv")}
    assert (ranks["ref"], ranks["refB"]) == (15, 1)  # the experts' worst and best translation
    signs, bertscore = {}, {}
    for r in _read("system_level.csv"):
        if r["systems"] == "mt" and r["statistic"] in ("pearson", "spearman"):
            if r["metric"] == "bertscore":  # not a string metric: the README says it apart
                bertscore[(r["reference"], r["statistic"])] = float(r["value"])
            else:
                signs.setdefault(r["reference"], set()).add(float(r["value"]) > 0)
    assert signs["ref"] == {False} and signs["refB"] == {True}  # every string metric
    assert bertscore[("ref", "pearson")] < 0 < bertscore[("refB", "pearson")]
    assert abs(bertscore[("ref", "spearman")]) < 0.05 < bertscore[("refB", "spearman")]
    rows = _read("segment_level.csv")
    constant = next(float(r["value"]) for r in rows if r["metric"] == "constant")
    for r in rows:
        if r["statistic"] == "accuracy_eq" and r["metric"] != "constant":
            assert float(r["ci_low"]) < constant, r  # no metric clearly beats calling every pair a tie
        elif r["statistic"] != "accuracy_eq":
            assert float(r["ci_high"]) < 0.403, r  # the Spanish Wikipedia article's sentence-level figure

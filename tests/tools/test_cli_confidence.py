"""``--confidence`` (mtlearn.tools.cli.confidence): sacreBLEU's bootstrap interval for one system, equal to
sacreBLEU's.

The independent reference is sacreBLEU 2.6 itself: its API's ``corpus_score(...,
n_bootstrap=N)`` (mean ``_mean``, half-width ``_ci``) and its command line's text. Its
resampled statistics are summed in float32, mtlearn's in float64: measured on WMT22
de-en, BLEU's mean and half-width agree within 3e-7 and chrF's within 7e-6 on the 0-100
scale, hence the 1e-5 tolerance.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mtlearn
from mtlearn.examples.wmt22 import WMT22_DE_EN_SAMPLE as SAMPLE
from mtlearn.tools.cli.main import main

SACREBLEU = Path(sys.executable).parent / "sacrebleu"
MTLEARN = Path(sys.executable).parent / "mtlearn"
REF, HYP = str(SAMPLE / "ref.A.en"), str(SAMPLE / "hyp.LT22.en")
TOLERANCE = 1e-5  # 0-100 scale: sacreBLEU's float32 sums


def lines_of(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def cli_json(capsys, *args: object) -> dict:
    status = main([str(a) for a in args] + ["--confidence", "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def sacrebleu_interval(metric: str, hyps: list[str], refs: list[str],
                       n: int = 1000) -> tuple[float, float, float]:
    from sacrebleu.metrics import BLEU, CHRF

    score = {"bleu": BLEU(), "chrf": CHRF()}[metric].corpus_score(hyps, [refs], n_bootstrap=n)
    return score.score, score._mean, score._ci


@pytest.mark.parametrize("metric", ["bleu", "chrf"])
@pytest.mark.parametrize("n", [1000, 200])
def test_the_interval_is_sacrebleus_on_the_sample(capsys, metric, n):
    data = cli_json(capsys, metric, "-r", REF, "-i", HYP, "-cin", n)
    score, mean, ci = sacrebleu_interval(metric, lines_of(HYP), lines_of(REF), n)
    assert math.isclose(data["score"], score, rel_tol=1e-12)
    assert (abs(data["confidence"]["mean"] - mean) < TOLERANCE
            and abs(data["confidence"]["ci"] - ci) < TOLERANCE)
    assert (data["confidence"]["n_samples"], data["confidence"]["seed"]) == (n, 12345)


def test_the_text_is_sacrebleus_text(capsys):
    done = subprocess.run([str(SACREBLEU), REF, "-i", HYP, "--confidence", "-f", "text", "-w", "1"],
                          capture_output=True, text=True, check=True, timeout=120)
    theirs = done.stdout.split(" = ", 1)[1].split(") ")[0] + ")"   # "25.0 (μ = 24.9 ± 6.3)"
    assert main(["bleu", "-r", REF, "-i", HYP, "--confidence", "-w", "1"]) == 0
    line = capsys.readouterr().out
    assert line.startswith(f"BLEU = {theirs} "), (line, theirs)
    assert line.rstrip().endswith("|seed:12345|bs:1000")


def test_the_seed_is_sacrebleus_default_or_its_variable(capsys):
    default = cli_json(capsys, "chrf", "-r", REF, "-i", HYP, "-cin", "100")["confidence"]
    seven = cli_json(capsys, "chrf", "-r", REF, "-i", HYP, "-cin", "100", "--seed", "7")["confidence"]
    assert default["mean"] != seven["mean"]
    env = {**os.environ, "SACREBLEU_SEED": "7"}
    done = subprocess.run([str(MTLEARN), "chrf", "-r", REF, "-i", HYP, "-cin", "100", "--confidence",
                           "--json"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["confidence"] == seven


def test_a_bad_sacrebleu_seed_stops_only_what_draws_samples(capsys, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "twelve")
    assert main(["chrf", "-r", REF, "-i", HYP, "-b"]) == 0  # no samples drawn: the variable is not read
    assert capsys.readouterr().err == ""
    assert main(["chrf", "-r", REF, "-i", HYP, "--confidence"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("mtlearn: error: SACREBLEU_SEED (the default of --seed): 'twelve' is not a "
                                 "whole number (or 'none')\n")
    monkeypatch.setenv("SACREBLEU_SEED", "none")  # sacreBLEU's word for fresh randomness
    means = {cli_json(capsys, "chrf", "-r", REF, "-i", HYP, "-cin", "50")["confidence"]["mean"]
             for _ in range(3)}
    assert len(means) > 1


def test_meteor_resamples_its_counts_with_the_paired_tests_draws(capsys):
    # No sacreBLEU METEOR: the interval must be the paired bootstrap's own for the baseline (same draws).
    data = cli_json(capsys, "meteor", "-r", REF, "-i", HYP, "--stages", "exact,stem", "--scale", "1", "-cin",
                    "300")
    paired = mtlearn.paired_test({"a": lines_of(HYP), "b": lines_of(HYP)}, [[r] for r in lines_of(REF)],
                                 metric="meteor", n_samples=300, stages=("exact", "stem"))
    assert (data["confidence"]["mean"] == paired.baseline.mean
            and data["confidence"]["ci"] == paired.baseline.ci)


def test_several_systems_each_get_their_interval(capsys):
    other = str(SAMPLE / "hyp.JDExploreAcademy.en")
    assert main(["bleu", "-r", REF, "-i", HYP, other, "--confidence", "-f", "tsv", "-w", "4"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert rows[0] == ["system", "BLEU", "BLEU mean", "BLEU ci"]
    for row, system in zip(rows[1:], (HYP, other)):
        _, mean, ci = sacrebleu_interval("bleu", lines_of(system), lines_of(REF))
        assert row[0] == system and abs(float(row[2]) - mean) < 1e-4 and abs(float(row[3]) - ci) < 1e-4


def test_a_metric_without_resampled_statistics_is_refused(capsys):
    assert main(["wer", "-r", REF, "-i", HYP, "--confidence"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("mtlearn: error: --confidence: not available for "
                                        "wer; it is for bleu, ")


def test_too_many_draws_are_refused_before_drawing(capsys):
    assert main(["bleu", "-r", REF, "-i", HYP, "--confidence", "-cin", "100000000"]) == 2
    assert "more than 50,000,000; give fewer with --confidence-n" in capsys.readouterr().err


@pytest.mark.wmt22
@pytest.mark.parametrize("metric, system", [("bleu", "Online-B"), ("chrf", "JDExploreAcademy")])
def test_wmt22_de_en_interval_equals_sacrebleus(wmt22, capsys, metric, system):
    ref = str(wmt22 / "references" / "generaltest2022.de-en.ref.A.en")
    hyp = str(wmt22 / "system-outputs" / f"generaltest2022.de-en.hyp.{system}.en")
    data = cli_json(capsys, metric, "-r", ref, "-i", hyp)
    score, mean, ci = sacrebleu_interval(metric, lines_of(hyp), lines_of(ref))
    assert math.isclose(data["score"], score, rel_tol=1e-12)
    assert (abs(data["confidence"]["mean"] - mean) < TOLERANCE
            and abs(data["confidence"]["ci"] - ci) < TOLERANCE)

"""Running the scoring commands (mtlearn.tools.cli.run): ``mtlearn score -m``, several systems, -l, refused
combinations.

Expected numbers come from sacreBLEU's API with the same settings, or from the
library; refusals are one ``mtlearn: error:`` line, exit 2, nothing on standard output.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import mtlearn
from mtlearn.examples.wmt22 import WMT22_DE_EN_SAMPLE as SAMPLE
from mtlearn.tools.cli.main import main

REF, SYS_A, SYS_B = (str(SAMPLE / name) for name in ("ref.A.en", "hyp.LT22.en", "hyp.JDExploreAcademy.en"))


def lines_of(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def cli(capsys, *args: object) -> tuple[int, str, str]:
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def refused(capsys, *args: object) -> str:
    status, out, err = cli(capsys, *args)
    assert status == 2 and out == "" and "Traceback" not in err, (status, err)
    assert err.startswith("mtlearn: error: ") and err.count("\n") == 1, err
    return err


def test_score_options_with_sacrebleus_names_reach_their_metric(capsys):
    from sacrebleu.metrics import BLEU, CHRF, TER

    status, out, err = cli(capsys, "score", "-r", REF, "-i", SYS_A, "-m", "bleu", "chrf", "ter", "-f", "json",
                           "-tok", "intl", "-lc", "-cw", "2", "--chrf-beta", "1", "--ter-case-sensitive",
                           "--ter-no-punct")
    assert status == 0, err
    hyps, refs = lines_of(SYS_A), [lines_of(REF)]
    expected = {"BLEU": BLEU(tokenize="intl", lowercase=True).corpus_score(hyps, refs).score,
                "chrF1++": CHRF(word_order=2, beta=1).corpus_score(hyps, refs).score,
                "TER": TER(case_sensitive=True, no_punct=True).corpus_score(hyps, refs).score}
    got = {row["name"]: row["score"] for row in json.loads(out)}
    assert got.keys() == expected.keys()
    for name, score in expected.items():
        assert math.isclose(got[name], score, rel_tol=1e-12), name


def test_one_metric_one_system_is_the_metrics_own_command(capsys):
    _, mine, _ = cli(capsys, "score", "-r", REF, "-i", SYS_A, "-m", "chrf", "-cw", "2")
    _, own, _ = cli(capsys, "chrf", "-r", REF, "-i", SYS_A, "--plus")
    assert mine == own and mine.startswith("chrF2++ = ")


def test_an_option_of_a_metric_not_run_is_refused(capsys):
    err = refused(capsys, "score", "-r", REF, "-i", SYS_A, "-m", "bleu", "--chrf-beta", "3")
    assert "--chrf-beta is an option of chrf, which is not among the metrics (-m bleu)" in err


@pytest.mark.parametrize("args, message", [
    (["bleu", "-i", SYS_A, SYS_B, "--sentence-level"], "--sentence-level scores one system with one metric"),
    (["score", "-i", SYS_A, "-m", "bleu", "chrf", "--segment", "2"],
     "--segment scores one system with one metric"),
    (["bleu", "-i", SYS_A, SYS_B, "--explain"], "--explain prints one derivation"),
    (["chrf", "-i", SYS_A, SYS_B, "-b"], "-b/--score-only prints one score"),
    (["bleu", "-i", SYS_A, "--explain", "-f", "latex"], "leave out -f latex"),
    (["bleu", "-i", SYS_A, "--sentence-level", "--confidence"], "not with --sentence-level"),
    (["bleu", "-i", SYS_A, "--sentence-level", "-f", "latex"], "-f latex makes a table of corpus scores"),
    (["bleu", "-i", SYS_A, SYS_A], "is given twice to -i"),
    (["bleu", "-i", SYS_A, "-l", "german"], "is not a language pair"),
    (["bleu", "-i", SYS_A, "-w", "40"], "give 0 to 17 decimals"),
    (["bleu", "-i", SYS_A, "--scale", "10"], "choose 100"),
    (["bleu", "-i", SYS_A, "--confidence", "-cin", "0"], "0 is out of range"),
])
def test_combinations_that_cannot_be_honoured_are_refused(capsys, args, message):
    assert message in refused(capsys, args[0], "-r", REF, *args[1:])


def test_language_pair_chooses_bleus_tokenizer_as_sacrebleu(capsys, tmp_path):
    from sacrebleu.metrics import BLEU

    hyp, ref = ["我们今天去公园散步。", "猫坐在垫子上。"], ["今天我们去公园散步了。", "猫坐在垫子上。"]
    (tmp_path / "hyp.zh").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    (tmp_path / "ref.zh").write_text("\n".join(ref) + "\n", encoding="utf-8")
    status, out, err = cli(capsys, "bleu", "-r", tmp_path / "ref.zh", "-i", tmp_path / "hyp.zh", "-l",
                           "en-zh", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert "tok:zh" in data["signature"]
    assert math.isclose(data["score"], BLEU(trg_lang="zh").corpus_score(hyp, [ref]).score, rel_tol=1e-12)
    status, out, err = cli(capsys, "bleu", "-r", tmp_path / "ref.zh", "-i", tmp_path / "hyp.zh", "-l",
                           "en-zh", "--tokenize", "13a", "-b")
    assert status == 0 and err.startswith("mtlearn: warning: -l en-zh: consider --tokenize zh")
    assert float(out) == round(100 * mtlearn.corpus_bleu(hyp, [[r] for r in ref], tokenize="13a",
                                                         smoothing="exp").score, 2)


def test_japanese_target_gets_mecab_as_in_sacrebleu(capsys, tmp_path):
    pytest.importorskip("MeCab")
    pytest.importorskip("ipadic")
    from sacrebleu.metrics import BLEU

    hyp, ref = ["今日は天気です。"], ["今日は良い天気です。"]
    (tmp_path / "hyp.ja").write_text(hyp[0] + "\n", encoding="utf-8")
    (tmp_path / "ref.ja").write_text(ref[0] + "\n", encoding="utf-8")
    status, out, err = cli(capsys, "score", "-r", tmp_path / "ref.ja", "-i", tmp_path / "hyp.ja", "-l",
                           "en-ja", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert "tok:ja-mecab" in data["signature"]
    assert math.isclose(data["score"], BLEU(trg_lang="ja").corpus_score(hyp, [ref]).score, rel_tol=1e-12)

"""How the command line prints scores (mtlearn.tools.cli.format): one scale, sacreBLEU's -b/-w/-f, tables,
exact counts.

The scale: ``mtlearn bleu`` printed ``BLEU = 25.03`` while chrF, TER and METEOR printed
0-1 and ``--explain`` ended "= 0.2503". Every command now prints sacreBLEU's 0-100 by
default and mtlearn's 0-1 with ``--scale 1``, in text, JSON and sentence-level output,
and ``--explain`` ends with the scaled score. Expected numbers come from the library
(times 100) and from sacreBLEU's own command line and API on the shipped WMT22 sample.
"""

from __future__ import annotations

import csv
import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import mtlearn
from mtlearn.examples.wmt22 import WMT22_DE_EN_SAMPLE as SAMPLE
from mtlearn.tools.cli.main import main

SACREBLEU = Path(sys.executable).parent / "sacrebleu"
REF, SYS_A, SYS_B = (str(SAMPLE / name) for name in ("ref.A.en", "hyp.LT22.en", "hyp.JDExploreAcademy.en"))


def lines_of(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def cli(capsys, *args: object) -> str:
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def sacrebleu_cli(*args: str) -> str:
    done = subprocess.run([str(SACREBLEU), REF, *args], capture_output=True, text=True, check=True,
                          timeout=120)
    return done.stdout


# The library's corpus function and options for each command's defaults (mtlearn bleu: sacreBLEU's).
COMMANDS = {
    "bleu": (mtlearn.corpus_bleu, {"tokenize": "13a", "smoothing": "exp"}, "BLEU"),
    "chrf": (mtlearn.corpus_chrf, {}, "chrF2"),
    "ter": (mtlearn.corpus_ter, {}, "TER"),
    "meteor": (mtlearn.corpus_meteor, {"stages": ["exact", "stem"]}, "METEOR"),
    "wer": (mtlearn.corpus_wer, {}, "WER"),
    "cer": (mtlearn.corpus_cer, {}, "CER"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_prints_one_scale(capsys, command):
    corpus, options, name = COMMANDS[command]
    extra = ["--stages", "exact,stem"] if command == "meteor" else []
    score = corpus(lines_of(SYS_A), [[r] for r in lines_of(REF)], **options).score
    base = [command, "-r", REF, "-i", SYS_A, *extra]
    assert cli(capsys, *base).startswith(f"{name} = {100 * score:.2f} ")
    assert cli(capsys, *base, "--scale", "1").startswith(f"{name} = {score:.4f} ")
    data = json.loads(cli(capsys, *base, "--json"))
    assert ((data["name"], data["scale"]) == (name, 100)
            and math.isclose(data["score"], 100 * score, rel_tol=1e-12))
    assert json.loads(cli(capsys, *base, "--json", "--scale", "1"))["score"] == score
    # --explain derives in the exact 0-1 terms and ends with the score the line prints.
    assert cli(capsys, *base, "--explain").rstrip().endswith(f"= 100 * {score:.4f} = {100 * score:.2f}")
    # --sentence-level, first segment: the same scale again.
    one = json.loads(cli(capsys, *base, "--segment", "1", "--json"))["score"]
    sentence = cli(capsys, *base, "--sentence-level").splitlines()[1]
    assert sentence.startswith(f"1\t{name} = {one:.2f} "), sentence


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
@pytest.mark.parametrize("width", ["1", "3"])
def test_score_only_and_width_print_what_sacrebleu_prints(capsys, metric, width):
    theirs = sacrebleu_cli("-i", SYS_A, "-m", metric, "-b", "-w", width)
    assert cli(capsys, metric, "-r", REF, "-i", SYS_A, "-b", "-w", width) == theirs


def test_sentence_level_prints_the_signature_once_and_each_lines_number(capsys):
    out = cli(capsys, "bleu", "-r", REF, "-i", SYS_A, "--sentence-level").splitlines()
    result = mtlearn.bleu(lines_of(SYS_A)[0], [lines_of(REF)[0]], tokenize="13a", smoothing="exp",
                          effective_order=True)
    assert out[0] == f"signature: {result.signature}"
    assert sum("mtlearn-bleu|" in line for line in out) == 1
    assert [line.split("\t")[0] for line in out[1:]] == [str(n) for n in range(1, len(lines_of(REF)) + 1)]
    # sacreBLEU's sentence scores, one a line, with -b.
    theirs = sacrebleu_cli("-i", SYS_A, "--sentence-level", "-b", "-w", "2").splitlines()
    assert cli(capsys, "bleu", "-r", REF, "-i", SYS_A, "--sentence-level", "-b").splitlines() == theirs
    tsv = cli(capsys, "bleu", "-r", REF, "-i", SYS_A, "--sentence-level", "-f", "tsv").splitlines()
    assert tsv[0] == f"# BLEU: {result.signature}" and tsv[1] == "line\tBLEU"
    assert [row.split("\t")[1] for row in tsv[2:]] == theirs


def _sacrebleu_scores(system: str) -> dict[str, float]:
    from sacrebleu.metrics import BLEU, CHRF, TER

    refs = [lines_of(REF)]
    return {name: metric.corpus_score(lines_of(system), refs).score
            for name, metric in (("BLEU", BLEU()), ("chrF2", CHRF()), ("TER", TER()))}


def test_a_table_of_systems_and_metrics_is_sacrebleus_numbers(capsys):
    data = json.loads(cli(capsys, "score", "-r", REF, "-i", SYS_A, SYS_B, "-m", "bleu", "chrf", "ter", "-f",
                          "json"))
    assert [(row["system"], row["name"]) for row in data] == [(s, m) for s in (SYS_A, SYS_B)
                                                            for m in ("BLEU", "chrF2", "TER")]
    for system in (SYS_A, SYS_B):
        expected = _sacrebleu_scores(system)
        for row in (r for r in data if r["system"] == system):
            assert math.isclose(row["score"], expected[row["name"]], rel_tol=1e-12), (system, row["name"])
    text = cli(capsys, "score", "-r", REF, "-i", SYS_A, SYS_B, "-m", "bleu", "chrf", "ter").splitlines()
    assert text[0].split() == ["system", "BLEU", "chrF2", "TER"]
    assert text[1].split() == [SYS_A, *(f"{_sacrebleu_scores(SYS_A)[m]:.2f}"
                                        for m in ("BLEU", "chrF2", "TER"))]
    assert text[4].startswith("BLEU   mtlearn-bleu|") and text[6].startswith("TER    mtlearn-ter|")


def test_tsv_reads_back_with_csv_and_latex_escapes_file_names(capsys, tmp_path):
    odd = tmp_path / "sys_1 & 50%.txt"
    odd.write_text(Path(SYS_A).read_text(encoding="utf-8"), encoding="utf-8")
    tsv = cli(capsys, "chrf", "-r", REF, "-i", str(odd), SYS_B, "-f", "tsv", "--scale", "1", "-w", "6")
    rows = list(csv.reader((line for line in io.StringIO(tsv) if not line.startswith("#")), delimiter="\t"))
    expected = [mtlearn.corpus_chrf(lines_of(s), [[r] for r in lines_of(REF)]).score for s in (SYS_A, SYS_B)]
    assert rows == [["system", "chrF2"], [str(odd), f"{expected[0]:.6f}"], [SYS_B, f"{expected[1]:.6f}"]]
    latex = cli(capsys, "chrf", "-r", REF, "-i", str(odd), SYS_B, "-f", "latex").splitlines()
    assert latex[:4] == [r"\begin{tabular}{lr}", r"\toprule", r"System & chrF2 \\", r"\midrule"]
    shown = str(odd).replace("_", r"\_").replace("&", r"\&").replace("%", r"\%")
    assert latex[4] == f"{shown} & {100 * expected[0]:.2f} \\\\"
    assert latex[6:8] == [r"\bottomrule", r"\end{tabular}"] and latex[8].startswith("% chrF2: mtlearn-chrf|")


def test_a_single_result_in_latex_is_a_one_row_table(capsys):
    latex = cli(capsys, "ter", "-r", REF, "-i", SYS_A, "-f", "latex").splitlines()
    score = mtlearn.corpus_ter(lines_of(SYS_A), [[r] for r in lines_of(REF)]).score
    assert latex[4] == f"{SYS_A.replace('_', chr(92) + '_')} & {100 * score:.2f} \\\\"


def test_edit_counts_are_exact_integers(capsys, tmp_path):
    # 1,000,001 edits printed as 1e+06 ("3.83171e+06" for 3,831,709 on a real test set).
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text(" ".join(["w"] * 1_000_001) + "\n", encoding="utf-8")
    ref.write_text("x\n", encoding="utf-8")
    line = cli(capsys, "wer", "-r", ref, "-i", hyp)
    assert "(edits = 1000001 ref_len = 1.00)" in line, line


@pytest.mark.parametrize("case", ["meteor segment", "meteor corpus", "meteor unproven", "chrf segment",
                                  "chrf++ corpus", "chrf no n-grams"])
def test_on_the_0_1_scale_the_score_line_is_the_derivations_summary(case):
    # METEOR's and chrF's explain.py render "the one line the command line prints" from their rows; on
    # mtlearn's scale, with the default width, the command line's line is that line, word for word.
    import random

    from mtlearn import chrf, corpus_chrf, corpus_meteor, meteor
    from mtlearn.core.derivation import derive
    from mtlearn.tools.cli.format import Style, details, score_line

    hyps, refs = lines_of(SYS_A)[:5], [[line] for line in lines_of(REF)[:5]]
    rng = random.Random(50)
    words = [[rng.choice(["the", "a", "cat", "on"]) for _ in range(150)] for _ in range(2)]
    words[1] = [words[1]]
    result = {
        "meteor segment": lambda: meteor(hyps[0], refs[0], stages=["exact", "stem"]),
        "meteor corpus": lambda: corpus_meteor(hyps, refs, stages=["exact"], gamma=0.25, beta=1.5),
        "meteor unproven": lambda: meteor(*words, stages=["exact"]),  # 150 words of four: not proven optimal
        "chrf segment": lambda: chrf(hyps[1], refs[1], lowercase=True),
        "chrf++ corpus": lambda: corpus_chrf(hyps, refs, word_order=2, beta=1),
        "chrf no n-grams": lambda: chrf("", ["a b"]),
    }[case]()
    style = Style(scale=1)
    assert score_line(result, style, details(result, style)) == derive(result).summary

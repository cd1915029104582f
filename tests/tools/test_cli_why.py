"""``mtlearn why bleu|meteor``: every implementation's score on files, and where each pair parts.

The numbers are those of :func:`mtlearn.compare_implementations` on the same lines (the command
only reads files and prints); the sacreBLEU profile's reported number is also checked against
sacreBLEU's own command line on the shipped WMT22 sample. Every error is one ``mtlearn: error:``
line naming the option, with nothing on standard output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import mtlearn
from mtlearn.examples.wmt22 import WMT22_DE_EN_SAMPLE
from mtlearn.tools.cli.main import main

SACREBLEU = Path(sys.executable).parent / "sacrebleu"
REF = str(WMT22_DE_EN_SAMPLE / "ref.A.en")
HYP = str(WMT22_DE_EN_SAMPLE / "hyp.LT22.en")


def lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_table_prints_the_librarys_numbers(capsys):
    status, out, err = run(capsys, ["why", "bleu", "-r", REF, "-i", HYP])
    assert status == 0 and err == ""
    expected = mtlearn.compare_implementations(lines(HYP), [[r] for r in lines(REF)], "bleu")
    assert out.startswith(
        f"BLEU of {len(lines(HYP))} segments under {len(expected.profiles)} implementations")
    table = out.split("\n\n")[0].splitlines()[2:]  # the rows under the title and the header
    rows = {line.split()[0]: line.split() for line in table}
    assert len(rows) == len(expected.profiles)
    for p in expected.profiles:
        assert p.name in rows, p.name
        assert f"{float(p.score):.4f}" in rows[p.name], (p.name, rows[p.name])
    assert "(--walk A B prints one pair's walk step by step)" in out


def test_sacrebleu_corpus_is_sacrebleus_own_number(capsys):
    # An independent check: sacreBLEU's command line on the same files.
    done = subprocess.run([str(SACREBLEU), REF, "-i", HYP, "-b", "-w", "4"], capture_output=True, text=True,
                          check=True)
    _, out, _ = run(capsys, ["why", "bleu", "-r", REF, "-i", HYP, "--json", "--profiles", "sacrebleu-corpus"])
    found = json.loads(out)["profiles"][0]
    assert f"{found['reported']:.4f}" == done.stdout.strip()


def test_walk_adds_up_to_the_difference(capsys):
    a, b = "sacrebleu-sentence", "d2l-en"
    status, out, _ = run(capsys, ["why", "bleu", "-r", REF, "-i", HYP, "--profiles", f"{a},{b},nltk-sentence",
                                  "--walk", b, a, "--json"])
    assert status == 0
    found = json.loads(out)
    assert [p["name"] for p in found["profiles"]] == [a, b, "nltk-sentence"]
    walk = found["walk"]
    assert {walk["a"], walk["b"]} == {a, b}
    total = sum(Fraction(s["contribution_exact"]) for s in walk["steps"] if s["step"] != "total")
    library = mtlearn.compare_implementations(lines(HYP), [[r] for r in lines(REF)], "bleu",
                                              profiles=[a, b]).divergence(a, b)
    assert total == library.difference != 0
    assert walk["difference"] == float(library.difference)


def test_walk_as_text_and_a_shared_tokenizer(capsys):
    status, out, _ = run(capsys, ["why", "bleu", "-r", REF, "-i", HYP, "--profiles",
                                  "nltk-sentence,hf-evaluate",
                                  "--tokenize", "13a", "--walk", "nltk-sentence", "hf-evaluate"])
    assert status == 0
    assert "(tokenize: 13a)" in out
    expected = mtlearn.compare_implementations(lines(HYP), [[r] for r in lines(REF)], "bleu", tokenize="13a",
                                               profiles=["nltk-sentence", "hf-evaluate"])
    assert expected.explain("nltk-sentence", "hf-evaluate") in out


def test_meteor_and_standard_input(capsys, monkeypatch, tmp_path):
    import io

    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\n", encoding="utf-8")
    stdin = io.TextIOWrapper(io.BytesIO(b"the cats were sitting on the mat\n"), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    status, out, _ = run(capsys, ["why", "meteor", "-r", str(ref), "--profiles", "nltk,banerjee-lavie-2005",
                                  "--json"])
    assert status == 0
    got = {p["name"]: p["score"] for p in json.loads(out)["profiles"]}
    expected = mtlearn.compare_implementations("the cats were sitting on the mat", ["the cat sat on the mat"],
                                               "meteor", profiles=["nltk", "banerjee-lavie-2005"])
    assert got == {p.name: float(p.score) for p in expected.profiles}


@pytest.mark.parametrize(("extra", "status", "message"), [
    (["--profiles", "nltk,foo"], 2, "--profiles: unknown BLEU profile 'nltk'; choose from sacrebleu-corpus"),
    (["--profiles", ","], 2, "argument --profiles: give at least one profile name"),
    (["--walk", "nltk-sentence", "nltk-sentence"], 2, "--walk: the same profile as a ('nltk-sentence')"),
    (["--walk", "nltk-sentence", "x"], 2, "--walk: no profile 'x' in this comparison"),
    (["--tokenize", "moses"], 2, "--tokenize: unknown value 'moses'"),
])
def test_bad_options_are_named(capsys, extra, status, message):
    got, out, err = run(capsys, ["why", "bleu", "-r", REF, "-i", HYP, *extra])
    assert (got, out) == (status, "")
    assert err.startswith("mtlearn: error: ") and message in err and "Traceback" not in err, err


def test_bad_files_are_named(capsys, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    for argv, message in [
        (["why", "bleu", "-r", REF, "-i", str(short)], f"{REF} has 40 lines but {short} has 1"),
        (["why", "bleu", "-r", REF, "-i", str(empty)], f"{empty} is empty"),
        (["why", "bleu", "-r", str(tmp_path / "missing.txt"), "-i", HYP], "cannot read it"),
        (["why", "ter", "-r", REF, "-i", HYP], "invalid choice: 'ter'"),
    ]:
        status, out, err = run(capsys, argv)
        assert (status in (1, 2) and out == "" and err.startswith("mtlearn: error: ")
                and message in err), (argv, err)

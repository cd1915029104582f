"""``mtlearn compare``: sacreBLEU's paired tests on the command line.

Independent reference: sacreBLEU's own command line (``sacrebleu REF -i BASE SYS ... --paired-bs``,
``--paired-ar``, ``-f json``), run as a subprocess on the same WMT22 de-en files: the p-values are
equal to the last digit. The rest checks that the command passes its options on to
:func:`mtlearn.paired_test` (the numbers equal the library's), its output, and that every error
is one ``mtlearn: error:`` line with nothing on standard output and no traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import mtlearn
from mtlearn.tools.cli.main import main

SACREBLEU = Path(sys.executable).parent / "sacrebleu"
MTLEARN = Path(sys.executable).parent / "mtlearn"

REFS = ["the cat sat on the mat", "a dog barked at the postman", "it rained all day long",
        "we went home early", "the children played in the park", "she reads a book"]
BASE = ["the cat sat on the mat", "a dog barked at a postman", "it rained all day",
        "we went home", "children played in the park", "she read the book"]
OTHER = ["on the mat the cat sat", "dog barks", "all day long it rained", "we go early home",
         "the kids played in a park", "she is reading a book"]


def write_lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return {"ref": write_lines(tmp_path / "ref.txt", REFS), "base": write_lines(tmp_path / "base.txt", BASE),
            "other": write_lines(tmp_path / "other.txt", OTHER),
            "copy": write_lines(tmp_path / "copy.txt", BASE),
            "short": write_lines(tmp_path / "short.txt", BASE[:4])}


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _sacrebleu_json(refs: list[str], systems: list[str], metric: str, test: str) -> list[dict]:
    done = subprocess.run([str(SACREBLEU), *refs, "-i", *systems, "-m", metric, f"--paired-{test}", "-f",
                           "json", "-q"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.wmt22
@pytest.mark.parametrize(("metric", "test", "systems"), [
    ("bleu", "bs", ("Online-A", "Online-B", "PROMT")),
    ("chrf", "ar", ("Online-A", "Online-B", "Online-Y")),  # sacreBLEU cannot write chrF's bootstrap as JSON
])
def test_wmt22_de_en_p_values_equal_sacrebleus_command_line(wmt22, capsys, metric, test, systems):
    ref = str(wmt22 / "references" / "generaltest2022.de-en.ref.A.en")
    hyps = [str(wmt22 / "system-outputs" / f"generaltest2022.de-en.hyp.{s}.en") for s in systems]
    theirs = _sacrebleu_json([ref], hyps, metric, test)
    status, out, err = run(capsys, ["compare", "-r", ref, "-i", *hyps, "--metric", metric, f"--paired-{test}",
                                    "--json"])
    assert status == 0 and err == ""
    ours = json.loads(out)["systems"]
    for mine, row in zip(ours, theirs):
        numbers = next(v for k, v in row.items() if k != "system")
        assert mine["p_value"] == numbers["p_value"], mine["system"]
        assert abs(mine["score"] - numbers["score"]) < 1e-9  # both on the 0-100 scale
        if numbers["mean"] is not None:
            assert abs(mine["mean"] - numbers["mean"]) < 1e-5  # sacreBLEU's samples are float32


@pytest.mark.parametrize("metric", ["bleu", "chrf", "meteor", "ter"])
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_numbers_are_the_librarys(capsys, files, metric, test):
    extra = ["--stages", "exact,stem"] if metric == "meteor" else []
    status, out, err = run(capsys, ["compare", "-r", files["ref"], "-i", files["base"], files["other"],
                                    "--metric", metric, f"--paired-{test}", f"--paired-{test}-n", "300",
                                    "--json", *extra])
    assert status == 0 and err == ""
    options = {"stages": ("exact", "stem")} if metric == "meteor" else {}
    expected = mtlearn.paired_test({files["base"]: BASE, files["other"]: OTHER}, [[r] for r in REFS],
                                   metric=metric, test=test, n_samples=300, **options)
    assert json.loads(out) == scaled(expected.to_dict(), 100)


def scaled(data: dict, scale: int) -> dict:
    """What --json prints for a paired test's to_dict(): each system's score, mean and ci times ``scale``."""
    data = json.loads(json.dumps(data))
    for row in data["systems"]:
        for key in ("score", "mean", "ci"):
            row[key] = None if row[key] is None else scale * row[key]
    return {"scale": scale, **data}


def test_ter_p_values_equal_sacrebleus_command_line(capsys, files):
    # Before: --metric ter was an invalid choice. (sacreBLEU cannot write TER's bootstrap as JSON either:
    # its samples are float32; tests/test_significance.py compares the bootstrap through its Python API.)
    theirs = _sacrebleu_json([files["ref"]], [files["base"], files["other"]], "ter", "ar")
    status, out, err = run(capsys, ["compare", "-r", files["ref"], "-i", files["base"], files["other"],
                                    "--metric", "ter", "--paired-ar", "--json"])
    assert status == 0 and err == ""
    ours = json.loads(out)
    assert ours["metric_name"] == "TER"
    for mine, row in zip(ours["systems"], theirs):
        numbers = next(v for k, v in row.items() if k != "system")
        assert mine["p_value"] == numbers["p_value"], mine["system"]
        assert abs(mine["score"] - numbers["score"]) < 1e-9  # both on the 0-100 scale


def test_text_output_has_sacrebleus_columns(capsys, files):
    status, out, err = run(capsys, ["compare", "-r", files["ref"], "-i", files["base"], files["other"],
                                    files["copy"], "--metric", "chrf", "--paired-bs", "--paired-bs-n", "200"])
    assert status == 0 and err == ""
    expected = mtlearn.paired_test({files["base"]: BASE, files["other"]: OTHER, files["copy"]: BASE},
                                   [[r] for r in REFS], metric="chrf", n_samples=200)
    lines = out.splitlines()
    assert lines[0].startswith("Paired bootstrap resampling, chrF2, 200 samples, seed 12345")
    assert "chrF2 (mean ± 95% CI)" in lines[1] and "p-value" in lines[1]
    other = expected.system(files["other"])
    row = next(line for line in lines if line.startswith(files["other"]))
    assert f"{100 * other.score:.2f} ({100 * other.mean:.2f} ± {100 * other.ci:.2f})" in row
    assert f"(p = {other.p_value:.4f}){other.mark}" in row
    assert f"{files['copy']}: the same score as the baseline" in out
    assert lines[-1] == f"signature: {expected.signature}"


def test_bleu_defaults_are_mtlearn_bleus_and_options_pass_on(capsys, files):
    status, out, _ = run(capsys, ["compare", "-r", files["ref"], "-i", files["base"], files["other"],
                                  "--paired-ar", "--paired-ar-n", "500", "--json", "--seed", "7"])
    assert status == 0
    got = json.loads(out)
    assert "tok:13a" in got["signature"] and "smooth:exp" in got["signature"] and got["seed"] == 7
    status, out, _ = run(capsys, ["compare", "-r", files["ref"], "-i", files["base"], files["other"],
                                  "--paired-bs", "--json", "--tokenize", "none", "--smoothing", "floor",
                                  "--lowercase", "--max-order", "2"])
    expected = mtlearn.paired_test({files["base"]: BASE, files["other"]: OTHER}, [[r] for r in REFS],
                                   tokenize="none", smoothing="floor", lowercase=True, max_order=2)
    assert status == 0 and json.loads(out) == scaled(expected.to_dict(), 100)
    status, out, _ = run(capsys, ["compare", "-r", files["ref"], "-i", files["base"], files["other"],
                                  "--paired-bs", "--json", "--scale", "1"])
    assert status == 0 and json.loads(out) == scaled(mtlearn.paired_test(
        {files["base"]: BASE, files["other"]: OTHER}, [[r] for r in REFS]).to_dict(), 1)


def test_seed_none_is_fresh_randomness(capsys, files):
    means = set()
    for _ in range(3):
        status, out, _ = run(capsys, ["compare", "-r", files["ref"], "-i", files["base"], files["other"],
                                      "--metric", "chrf", "--paired-bs", "--seed", "none", "--json"])
        assert status == 0
        means.add(json.loads(out)["systems"][0]["mean"])
    assert len(means) > 1


def test_console_script_quiet_and_clean(files):
    done = subprocess.run([str(MTLEARN), "compare", "-r", files["ref"], "-i", files["base"], files["other"],
                           "--metric", "chrf", "--paired-ar", "--paired-ar-n", "100", "--quiet"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
    assert "(p = " in done.stdout


@pytest.mark.parametrize(("argv", "status", "message"), [
    (["-i", "{base}", "--paired-bs"], 2, "only one system given to -i"),
    (["-i", "{base}", "{short}", "--paired-bs"], 1, "short.txt has 4 lines but {base} has 6"),
    (["-i", "{base}", "{other}", "--paired-ar", "--metric", "wer"], 2, "invalid choice: 'wer'"),
    (["-i", "{base}", "{other}", "--paired-ar", "--metric", "ter", "--lowercase"], 2,
     "--lowercase does not apply to --metric ter"),
    (["-i", "{base}", "{other}"], 2, "one of the arguments --paired-bs/-pbs --paired-ar/-par is required"),
    (["-i", "{base}", "{other}", "--paired-bs", "--paired-ar"], 2, "not allowed with argument"),
    (["-i", "{base}", "{base}", "--paired-bs"], 2, "is given twice to -i"),
    (["-i", "{base}", "-", "--paired-bs"], 2, "standard input ('-') is not read here"),
    (["-i", "{base}", "{other}", "--paired-bs", "--stages", "exact"], 2,
     "--stages does not apply to --metric bleu"),
    (["-i", "{base}", "{other}", "--paired-bs", "--metric", "chrf", "--tokenize", "13a"], 2,
     "--tokenize does not apply to --metric chrf"),
    (["-i", "{base}", "{other}", "--paired-bs", "--paired-bs-n", "0"], 2, "0 is out of range"),
    (["-i", "{base}", "{other}", "--paired-bs", "--seed", "-3"], 2, "is negative"),
    (["-i", "{base}", "/nonexistent/sys.txt", "--paired-bs"], 1, "/nonexistent/sys.txt: cannot read it"),
    (["-i", "{base}", "{other}", "--paired-bs", "--metric", "chrf", "--beta", "-1"], 2, "beta"),
])
def test_errors_are_one_line(capsys, files, argv, status, message):
    argv = [a.format(**files) for a in argv]
    got, out, err = run(capsys, ["compare", "-r", files["ref"], *argv])
    assert got == status
    assert out == ""
    assert err.startswith("mtlearn: error:") and message.format(**files) in err
    assert "Traceback" not in err


class _Terminal:
    """A standard error that says it is a terminal, and keeps what is written to it."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_only_on_a_terminal_and_not_with_quiet(monkeypatch, capsys, files, quiet):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    argv = ["compare", "-r", files["ref"], "-i", files["base"], files["other"], "--metric", "chrf",
            "--paired-bs", "--paired-bs-n", "50"] + (["--quiet"] if quiet else [])
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "(p = " in out and "mtlearn: compare:" not in out  # progress never mixes with the table
    if quiet:
        assert terminal.text == ""
    else:
        assert f"mtlearn: compare: scoring {files['base']} (chrf)" in terminal.text
        assert f"mtlearn: compare: {files['other']} against {files['base']} (50 samples)" in terminal.text


def test_a_huge_max_order_is_bounded_and_equals_the_library(files):
    # Before: --max-order 10000000 on a one-line corpus took 26 s and 2.4 GB, then ran out of memory at 6 GB;
    # then it was accepted cheaply. Now BLEU's max_order is at most 4096 (BleuOptions), one line, exit 2.
    argv = [str(MTLEARN), "compare", "-r", files["ref"], "-i", files["base"], files["other"], "--paired-bs"]
    try:
        refused = subprocess.run(argv + ["--max-order", "10000000"], capture_output=True, text=True,
                                 timeout=120)
        done = subprocess.run(argv + ["--max-order", "4096", "--json"], capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("compare --max-order still running after 120 s")
    assert refused.returncode == 2 and refused.stdout == "", refused.stderr[-2000:]
    assert refused.stderr.count("\n") == 1 and "--max-order: at most 4096, got 10000000 (" in refused.stderr
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    expected = mtlearn.paired_test({files["base"]: BASE, files["other"]: OTHER}, [[r] for r in REFS],
                                   max_order=4096)
    assert json.loads(done.stdout) == scaled(expected.to_dict(), 100)

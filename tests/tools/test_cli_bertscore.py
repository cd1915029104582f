"""``mtlearn bertscore``: the numbers are mtlearn.bertscore's / corpus_bertscore's, errors are one line.

As for ``mtlearn chrf`` (tests/tools/test_cli_chrf_ter.py): most tests call
:func:`mtlearn.tools.cli.main.main` in this process; every error case checks the exit status, the
message on stderr, an empty stdout and that no traceback escaped. The tests that score need the encoder's
package (``mtlearn-course[neural]``) and are skipped without it; the missing-package test hides it on purpose.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import mtlearn
from mtlearn.metrics.bertscore.model import PACKAGE
from mtlearn.tools.cli.main import main

needs_model = pytest.mark.skipif(importlib.util.find_spec(PACKAGE[1]) is None,
                                 reason=f"the encoder's package {PACKAGE[0]} is not installed "
                                        "(mtlearn-course[neural])")

HYPOTHESES = ["The cat is on the mat.", "The dog barked.", ""]
REFERENCES_1 = ["The cat sat on the mat.", "A dog barked loudly.", "It rained."]
REFERENCES_2 = ["There is a cat on the mat.", "The dog was barking.", "Rain fell all day."]
REFS = [list(pair) for pair in zip(REFERENCES_1, REFERENCES_2)]


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {"hyp": write_lines(tmp_path / "hyp.txt", HYPOTHESES),
            "ref1": write_lines(tmp_path / "ref1.txt", REFERENCES_1),
            "ref2": write_lines(tmp_path / "ref2.txt", REFERENCES_2)}


def cli(capsys: pytest.CaptureFixture, *args: object) -> tuple[int, str, str]:
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def ok(capsys: pytest.CaptureFixture, *args: object) -> str:
    status, out, err = cli(capsys, *args)
    assert status == 0 and "Traceback" not in err, err
    return out


def assert_error(capsys: pytest.CaptureFixture, status: int, args: list[object], *fragments: str) -> str:
    got, out, err = cli(capsys, *args)
    assert got == status, (got, err)
    assert out == "" and "Traceback" not in err
    assert err.startswith("mtlearn: error: "), err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return err


def unnamed(text: str) -> dict:
    return {k: v for k, v in json.loads(text).items() if k not in ("name", "line")}


def as_json(result: object, scale: int = 100) -> dict:
    data = json.loads(json.dumps(result.to_dict(), ensure_ascii=False))  # type: ignore[attr-defined]
    return {"score": scale * data.pop("score"), "scale": scale, **data}


@needs_model
@pytest.mark.parametrize("options, keywords", [([], {}), (["--layer", "6"], {"layer": 6}),
                                               (["--idf", "--layer", "0"], {"idf": True, "layer": 0})],
                         ids=["defaults", "layer6", "idf-layer0"])
def test_corpus_is_the_librarys(capsys, files, options, keywords) -> None:
    out = ok(capsys, "bertscore", "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "--json", *options)
    assert unnamed(out) == as_json(mtlearn.corpus_bertscore(HYPOTHESES, REFS, **keywords))
    assert json.loads(out)["name"] == "BERTScore"


@needs_model
def test_text_line_and_stdin(capsys, files, monkeypatch) -> None:
    import io

    data = "".join(h + "\n" for h in HYPOTHESES).encode("utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    out = ok(capsys, "bertscore", "-r", files["ref1"], "--scale", "1")
    r = mtlearn.corpus_bertscore(HYPOTHESES, [[x] for x in REFERENCES_1])
    assert out.startswith(f"BERTScore = {r.score:.4f} (P = {r.precision:.4f} R = {r.recall:.4f} layer = "
                          f"{r.layer} idf = no rescale = no) [segment 2: the candidate is empty")
    assert out.rstrip().endswith(r.signature)


@needs_model
def test_sentence_level_and_one_segment(capsys, files) -> None:
    out = ok(capsys, "bertscore", "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "--sentence-level",
             "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [d["line"] for d in lines] == [1, 2, 3]
    for data, hyp, refs in zip(lines, HYPOTHESES, REFS):
        assert {k: v for k, v in data.items() if k not in ("name", "line")} == \
            as_json(mtlearn.bertscore(hyp, refs))
    out = ok(capsys, "bertscore", "-r", files["ref1"], "-i", files["hyp"], "--segment", "1", "--explain")
    assert out.rstrip("\n") == mtlearn.bertscore(HYPOTHESES[0], [REFERENCES_1[0]]).explain().rstrip("\n") + \
        f"\n\nOn the 0-100 scale (--scale 100): BERTScore = 100 * " \
        f"{mtlearn.bertscore(HYPOTHESES[0], [REFERENCES_1[0]]).score:.4f} = " \
        f"{100 * mtlearn.bertscore(HYPOTHESES[0], [REFERENCES_1[0]]).score:.2f}"


@needs_model
def test_bad_options_and_inputs_are_one_line(capsys, files, tmp_path) -> None:
    assert_error(capsys, 2, ["bertscore", "-r", files["ref1"], "-i", files["hyp"], "--layer", "7"],
                 "--layer: at most 6, got 7")
    assert_error(capsys, 2, ["bertscore", "-r", files["ref1"], "-i", files["hyp"], "--sentence-level",
                             "--idf"],
                 "--idf: idf weights come from the references of a corpus")
    assert_error(capsys, 2, ["bertscore", "-r", files["ref1"], "-i", files["hyp"], "--segment", "2", "--idf"],
                 "--idf:")
    assert_error(capsys, 2, ["bertscore", "-r", files["ref1"], "-i", files["hyp"], "--confidence"],
                 "--confidence: not available for bertscore")
    short = write_lines(tmp_path / "short.txt", HYPOTHESES[:2])
    assert_error(capsys, 1, ["bertscore", "-r", files["ref1"], "-i", short], "has 3 lines", "has 2")
    empty = write_lines(tmp_path / "empty.txt", [])
    assert_error(capsys, 1, ["bertscore", "-r", empty, "-i", empty], "empty")


@needs_model
def test_rescale_is_the_librarys_or_a_rejected_value(capsys, files) -> None:
    from mtlearn.metrics.bertscore.baseline import BASELINE_FILE

    args = ["bertscore", "-r", files["ref1"], "-i", files["hyp"], "--rescale", "--json"]
    if BASELINE_FILE.is_file():
        assert unnamed(ok(capsys, *args)) == as_json(
            mtlearn.corpus_bertscore(HYPOTHESES, [[x] for x in REFERENCES_1], rescale=True))
    else:
        assert_error(capsys, 2, args, "--rescale: the baseline table")


def test_missing_encoder_package_is_one_line_naming_the_install(files) -> None:
    """The package hidden as if not installed (find_spec sees None): one line, exit 2, no traceback."""
    code = ("import sys; sys.modules[%r] = None\n"
            "from mtlearn.tools.cli.main import main\n"
            "sys.exit(main(sys.argv[1:]))") % PACKAGE[1]
    proc = subprocess.run([sys.executable, "-c", code, "bertscore", "-r", str(files["ref1"]), "-i",
                           str(files["hyp"])], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("mtlearn: error: BERTScore and COMET-mini need the all-MiniLM-L6-v2 "
                                  "encoder: pip install 'mtlearn-course[neural]'")
    assert f"the package {PACKAGE[0]} is not installed" in proc.stderr


def test_help_lists_the_command(capsys) -> None:
    status, out, _ = cli(capsys, "--help")
    assert status == 0 and "bertscore" in out and "BERTScore's algorithm on all-MiniLM-L6-v2" in out
    status, out, _ = cli(capsys, "bertscore", "--help")
    assert status == 0 and all(flag in out for flag in ("--layer", "--idf", "--rescale", "--sentence-level"))

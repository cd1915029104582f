"""``mtlearn chrf``, ``mtlearn ter``, ``mtlearn wer`` and ``mtlearn cer``.

Most tests call :func:`mtlearn.tools.cli.main.main` in this process (fast); one per metric runs the
installed console script. Expected numbers come from the library functions called here
with the same settings (the CLI only passes them on) and, independently, from sacreBLEU's
API (chrF, TER: its 0-100 number, the command line's default scale) and jiwer (WER, CER, times 100). Every
error case checks the exit status, the message on stderr, an empty stdout and that no traceback escaped.
"""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import mtlearn
from mtlearn.tools.cli.main import main

MTLEARN = Path(sys.executable).parent / "mtlearn"

# Reordered clauses (TER shifts), punctuation and case differences, a repeated word,
# non-ASCII letters, and Chinese text (TER's --asian-support, chrF without tokenisation).
HYPOTHESES = [
    "The cat sat on the mat.",
    "he read the book because he was interested in world history",
    "Hello, World!",
    "Die Katze saß auf der Matte, auf der Matte.",
    "the the the cat",
    "我们今天去公园散步。",
]
REFERENCES_1 = [
    "The cat is on the mat.",
    "he was interested in world history because he read the book",
    "Hello world.",
    "Die Katze sass auf der Matte.",
    "the cat",
    "今天我们去公园散步了。",
]
REFERENCES_2 = [
    "There is a cat on the mat.",
    "He read the book because he was interested in world history.",
    "hello, world!",
    "Auf der Matte saß die Katze.",
    "a cat, the cat",
    "我们今天在公园里散步。",
]
REFS = [list(pair) for pair in zip(REFERENCES_1, REFERENCES_2)]


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {
        "hyp": write_lines(tmp_path / "hyp.txt", HYPOTHESES),
        "ref1": write_lines(tmp_path / "ref1.txt", REFERENCES_1),
        "ref2": write_lines(tmp_path / "ref2.txt", REFERENCES_2),
    }


def cli(capsys: pytest.CaptureFixture, *args: object) -> tuple[int, str, str]:
    """Run ``main`` in this process: (exit status, stdout, stderr)."""
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def ok(capsys: pytest.CaptureFixture, *args: object) -> str:
    status, out, err = cli(capsys, *args)
    assert status == 0, err
    assert "Traceback" not in err
    return out


def assert_error(capsys: pytest.CaptureFixture, status: int, args: list[object], *fragments: str) -> None:
    got, out, err = cli(capsys, *args)
    assert got == status, (got, err)
    assert out == ""
    assert "Traceback" not in err
    assert err.startswith("mtlearn: error: "), err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def as_json(result: object, scale: int = 100) -> object:
    """What ``--json`` must print for ``result`` (its name aside): the score on ``scale``, ``scale``, then the
    rest of its to_dict(), through a JSON round trip."""
    data = json.loads(json.dumps(result.to_dict(), ensure_ascii=False))  # type: ignore[attr-defined]
    return {"score": scale * data.pop("score"), "scale": scale, **data}


def unnamed(text: str) -> dict:
    """One JSON object printed by the command line, without its "name" (and "line") fields."""
    return {k: v for k, v in json.loads(text).items() if k not in ("name", "line")}


def run(*args: object, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """The installed console script, for real."""
    if not MTLEARN.is_file():
        pytest.fail(f"console script {MTLEARN} not found: install the package (pip install -e .)")
    proc = subprocess.run([str(MTLEARN), *map(str, args)], input=stdin, capture_output=True, timeout=600)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8"),
                                       proc.stderr.decode("utf-8"))


# --- chrF ---------------------------------------------------------------------------------

# (command-line options, the library's keywords, sacreBLEU's CHRF keywords)
CHRF_SETTINGS = [
    ([], {}, {}),
    (["--plus"], {"word_order": 2}, {"word_order": 2}),
    (["-cw", "2"], {"word_order": 2}, {"word_order": 2}),
    (["--char-order", "4", "--word-order", "1"], {"char_order": 4, "word_order": 1},
     {"char_order": 4, "word_order": 1}),
    (["--beta", "1"], {"beta": 1.0}, {"beta": 1}),
    (["--chrf-beta", "3", "--chrf-lowercase"], {"beta": 3.0, "lowercase": True},
     {"beta": 3, "lowercase": True}),
    (["--lowercase", "--whitespace"], {"lowercase": True, "whitespace": True},
     {"lowercase": True, "whitespace": True}),
    (["--eps-smoothing", "--plus"], {"eps_smoothing": True, "word_order": 2},
     {"eps_smoothing": True, "word_order": 2}),
]
CHRF_IDS = ["chrF2", "plus", "sacrebleu-cw", "orders", "beta1", "sacrebleu-names", "lc-whitespace", "eps"]


@pytest.mark.parametrize("options, keywords, sacre", CHRF_SETTINGS, ids=CHRF_IDS)
def test_chrf_corpus_is_the_librarys_and_sacrebleus(capsys, files, options, keywords, sacre) -> None:
    from sacrebleu.metrics import CHRF

    out = ok(capsys, "chrf", "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "--json", *options)
    got = unnamed(out)
    assert got == as_json(mtlearn.corpus_chrf(HYPOTHESES, REFS, **keywords))
    expected = CHRF(**sacre).corpus_score(HYPOTHESES, [REFERENCES_1, REFERENCES_2]).score  # 0-100, as printed
    assert math.isclose(got["score"], expected, rel_tol=1e-12, abs_tol=1e-12), (got["score"], expected)
    assert json.loads(out)["name"] == ("chrF2++" if keywords.get("word_order") == 2 else
                                       f"chrF{keywords.get('beta', 2):g}"
                                       + "+" * keywords.get("word_order", 0))


def test_chrf_defaults_are_the_librarys(capsys, files) -> None:
    import inspect

    defaults = {name: p.default for name, p in inspect.signature(mtlearn.chrf).parameters.items()
                if p.default is not inspect.Parameter.empty}
    line = ok(capsys, "chrf", "-r", files["ref1"], "-i", files["hyp"])
    result = mtlearn.corpus_chrf(HYPOTHESES, [[r] for r in REFERENCES_1], **defaults)
    assert line == (f"chrF2 = {100 * result.score:.2f} (P = {100 * float(result.precision):.2f} "
                    f"R = {100 * float(result.recall):.2f} char_order = 6 word_order = 0 beta = 2)  "
                    f"{result.signature}\n")
    line = ok(capsys, "chrf", "-r", files["ref1"], "-i", files["hyp"], "--scale", "1")
    assert line == (f"chrF2 = {result.score:.4f} (P = {float(result.precision):.4f} "
                    f"R = {float(result.recall):.4f} char_order = 6 word_order = 0 beta = 2)  "
                    f"{result.signature}\n")


def test_chrf_plus_line_is_named_like_sacrebleus(capsys, files) -> None:
    import sacrebleu

    line = ok(capsys, "chrf", "-r", files["ref1"], "-i", files["hyp"], "--plus")
    expected = sacrebleu.corpus_chrf(HYPOTHESES, [REFERENCES_1], word_order=2).score
    assert line.startswith(f"chrF2++ = {expected:.2f} ("), line
    assert mtlearn.corpus_chrf(HYPOTHESES, [[r] for r in REFERENCES_1], word_order=2).signature in line


@pytest.mark.parametrize("options, keywords", [([], {}), (["--plus", "--eps-smoothing"],
                                                           {"word_order": 2, "eps_smoothing": True})],
                         ids=["chrF2", "chrF2++-eps"])
def test_chrf_sentence_level_one_line_per_segment(capsys, files, options, keywords) -> None:
    import sacrebleu

    out = ok(capsys, "chrf", "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "-sl", "--json",
             *options)
    lines = out.splitlines()
    assert len(lines) == len(HYPOTHESES)
    for number, (line, hyp, refs) in enumerate(zip(lines, HYPOTHESES, REFS), 1):
        got = unnamed(line)
        assert json.loads(line)["line"] == number
        assert got == as_json(mtlearn.chrf(hyp, refs, **keywords))
        expected = sacrebleu.sentence_chrf(hyp, refs, **keywords).score
        assert math.isclose(got["score"], expected, rel_tol=1e-12, abs_tol=1e-12)
    text = ok(capsys, "chrf", "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "--sentence-level",
              *options)
    first, *rows = text.splitlines()
    assert first == f"signature: {mtlearn.chrf(HYPOTHESES[0], REFS[0], **keywords).signature}"  # once, first
    assert len(rows) == len(HYPOTHESES)
    assert all(row.startswith(f"{number}\tchrF2") for number, row in enumerate(rows, 1))


def test_chrf_segment_json_and_explain(capsys, files) -> None:
    args = ("chrf", "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "--plus", "--segment", "4")
    result = mtlearn.chrf(HYPOTHESES[3], REFS[3], word_order=2)
    assert unnamed(ok(capsys, *args, "--json")) == as_json(result)
    assert unnamed(ok(capsys, *args, "--json", "--scale", "1")) == as_json(result, scale=1)
    explained = ok(capsys, *args, "--explain").rstrip("\n")
    assert explained.startswith(result.explain().rstrip("\n"))
    assert explained.endswith(f"chrF2++ = 100 * {result.score:.4f} = {100 * result.score:.2f}")
    assert ok(capsys, *args, "--explain", "--scale", "1").rstrip("\n") == result.explain().rstrip("\n")


def test_chrf_reference_ties(capsys, tmp_path) -> None:
    # Two equally good references: sacreBLEU keeps the first, --reference-ties last the second.
    ref_a = write_lines(tmp_path / "a.txt", ["the cat sat", "a dog"])
    ref_b = write_lines(tmp_path / "b.txt", ["the cat sat", "the dog"])
    hyp = write_lines(tmp_path / "hyp.txt", ["the cat sat", "the dog"])
    refs = [["the cat sat", "the cat sat"], ["a dog", "the dog"]]
    for ties, kept in (("first", 0), ("last", 1)):
        options = [] if ties == "first" else ["--reference-ties", ties]
        segment = json.loads(ok(capsys, "chrf", "-r", ref_a, ref_b, "-i", hyp, "--segment", "1", "--json",
                                *options))
        assert segment["best_reference"] == kept
        corpus = unnamed(ok(capsys, "chrf", "-r", ref_a, ref_b, "-i", hyp, "--json", *options))
        assert corpus == as_json(mtlearn.corpus_chrf(["the cat sat", "the dog"], refs, reference_ties=ties))
    assert_error(capsys, 2, ["chrf", "-r", ref_a, "-i", hyp, "--reference-ties", "best"], "--reference-ties",
                 "best")


def test_chrf_console_script_reads_stdin(files) -> None:
    import sacrebleu

    proc = run("chrf", "-r", files["ref1"], files["ref2"], "--plus", stdin=files["hyp"].read_bytes())
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    expected = sacrebleu.corpus_chrf(HYPOTHESES, [REFERENCES_1, REFERENCES_2], word_order=2).score
    assert proc.stdout.startswith(f"chrF2++ = {expected:.2f}"), proc.stdout
    assert "nrefs:2" in proc.stdout


# --- TER --------------------------------------------------------------------------------------

TER_SETTINGS = [
    ([], {}),
    (["--case-sensitive"], {"case_sensitive": True}),
    (["--ter-case-sensitive"], {"case_sensitive": True}),
    (["--normalized"], {"normalized": True}),
    (["--no-punct"], {"no_punct": True}),
    (["--asian-support", "--normalized"], {"asian_support": True, "normalized": True}),
    (["--ter-normalized", "--ter-no-punct", "--ter-asian-support", "--lowercase"],
     {"normalized": True, "no_punct": True, "asian_support": True}),
]
TER_IDS = ["default", "case-sensitive", "sacrebleu-case", "normalized", "no-punct", "asian",
           "sacrebleu-names"]


@pytest.mark.parametrize("options, keywords", TER_SETTINGS, ids=TER_IDS)
def test_ter_corpus_is_the_librarys_and_sacrebleus(capsys, files, options, keywords) -> None:
    from sacrebleu.metrics import TER

    out = ok(capsys, "ter", "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "--json", *options)
    got = unnamed(out)
    assert got == as_json(mtlearn.corpus_ter(HYPOTHESES, REFS, **keywords))
    expected = TER(**keywords).corpus_score(HYPOTHESES, [REFERENCES_1, REFERENCES_2]).score
    assert math.isclose(got["score"], expected, rel_tol=1e-12, abs_tol=1e-12), (got["score"], expected)


def test_ter_line_and_sentence_level(capsys, files) -> None:
    import sacrebleu

    line = ok(capsys, "ter", "-r", files["ref1"], "-i", files["hyp"])
    expected = sacrebleu.corpus_ter(HYPOTHESES, [REFERENCES_1]).score
    result = mtlearn.corpus_ter(HYPOTHESES, [[r] for r in REFERENCES_1])
    assert line.startswith(f"TER = {expected:.2f} (edits = {result.num_edits} ref_len = "), line
    assert line.rstrip("\n").endswith(f"  {result.signature}"), line
    out = ok(capsys, "ter", "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "--sentence-level",
             "--json")
    lines = out.splitlines()
    assert len(lines) == len(HYPOTHESES)
    for got, hyp, refs in zip(lines, HYPOTHESES, REFS):
        assert unnamed(got) == as_json(mtlearn.ter(hyp, refs))
        want = sacrebleu.sentence_ter(hyp, refs).score
        assert math.isclose(json.loads(got)["score"], want, rel_tol=1e-12, abs_tol=1e-12)


def test_ter_segment_with_a_shift_json_and_explain(capsys, files) -> None:
    args = ("ter", "-r", files["ref1"], "-i", files["hyp"], "--segment", "2")
    result = mtlearn.ter(HYPOTHESES[1], [REFERENCES_1[1]])
    assert result.shifts, "segment 2 is the reordered sentence: TER shifts a block"
    got = unnamed(ok(capsys, *args, "--json"))
    assert got == as_json(result)
    assert ok(capsys, *args, "--explain").startswith(result.explain().rstrip("\n"))
    line = ok(capsys, *args)
    assert (line.startswith(f"TER = {100 * result.score:.2f} (edits = ")
            and f"shifts = {len(result.shifts)}" in line)


def test_ter_console_script(files) -> None:
    import sacrebleu

    proc = run("ter", "-r", files["ref1"], "-i", files["hyp"], "--case-sensitive")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    expected = sacrebleu.corpus_ter(HYPOTHESES, [REFERENCES_1], case_sensitive=True).score
    assert proc.stdout.startswith(f"TER = {expected:.2f}"), proc.stdout


# --- WER and CER --------------------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["wer", "cer"])
def test_wer_cer_are_the_librarys(capsys, files, metric) -> None:
    one, many = getattr(mtlearn, metric), getattr(mtlearn, f"corpus_{metric}")
    corpus = unnamed(ok(capsys, metric, "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "--json"))
    assert corpus == as_json(many(HYPOTHESES, REFS))
    out = ok(capsys, metric, "-r", files["ref1"], files["ref2"], "-i", files["hyp"], "-sl", "--json")
    assert ([unnamed(line) for line in out.splitlines()]
            == [as_json(one(h, r)) for h, r in zip(HYPOTHESES, REFS)])
    line = ok(capsys, metric, "-r", files["ref1"], "-i", files["hyp"], "--segment", "1", "--scale", "1")
    result = one(HYPOTHESES[0], [REFERENCES_1[0]])
    assert line.startswith(f"{metric.upper()} = {result.score:.4f} (edits = ") and "shifts" not in line, line


@pytest.mark.parametrize("metric", ["wer", "cer"])
def test_wer_cer_single_reference_match_jiwer(capsys, files, metric) -> None:
    jiwer = pytest.importorskip("jiwer")
    # jiwer compares the strings as given: the CLI keeps the case and the punctuation here.
    options = _parameters(metric)
    keep = ["--case-sensitive"] if "case_sensitive" in options or "lowercase" in options else []
    out = ok(capsys, metric, "-r", files["ref1"], "-i", files["hyp"], "-sl", "--json", *keep)
    for line, hyp, ref in zip(out.splitlines(), HYPOTHESES, REFERENCES_1):
        expected = getattr(jiwer, metric)(ref, hyp)
        assert math.isclose(json.loads(line)["score"], 100 * expected, rel_tol=1e-12), (hyp, ref)


def _parameters(metric: str) -> set[str]:
    import inspect

    return set(inspect.signature(getattr(mtlearn, metric)).parameters)


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["chrf", "ter", "wer", "cer"])
def test_missing_files(capsys, files, tmp_path, metric) -> None:
    missing = tmp_path / "nope.txt"
    assert_error(capsys, 1, [metric, "-r", missing, "-i", files["hyp"]], str(missing), "No such file")
    assert_error(capsys, 1, [metric, "-r", files["ref1"], "-i", missing], str(missing), "No such file")


@pytest.mark.parametrize("metric", ["chrf", "ter", "wer", "cer"])
def test_line_counts_differ(capsys, files, tmp_path, metric) -> None:
    short = write_lines(tmp_path / "short.txt", REFERENCES_1[:3])
    assert_error(capsys, 1, [metric, "-r", files["ref1"], short, "-i", files["hyp"]],
                 f"{short} has 3 lines", f"{files['hyp']} has {len(HYPOTHESES)}")


@pytest.mark.parametrize("metric", ["chrf", "ter", "wer", "cer"])
def test_empty_files(capsys, files, tmp_path, metric) -> None:
    empty = write_lines(tmp_path / "empty.txt", [])
    assert_error(capsys, 1, [metric, "-r", files["ref1"], "-i", empty], str(empty), "empty")
    assert_error(capsys, 1, [metric, "-r", empty, "-i", files["hyp"]], str(empty), "empty")


@pytest.mark.parametrize(
    "options, fragments",
    [
        (["chrf", "--char-order", "abc"], ["--char-order", "abc"]),
        (["chrf", "--word-order", "-1"], ["--word-order", "-1"]),
        (["chrf", "--char-order", "0", "--word-order", "0"], ["order"]),
        (["chrf", "--beta", "0"], ["--beta"]),
        (["chrf", "--beta", "-1"], ["--beta"]),
        (["chrf", "--beta", "x"], ["--beta", "x"]),
        (["chrf", "--plus", "--word-order", "1"], ["--word-order", "--plus"]),
        (["chrf", "--segment", "7"], ["--segment 7", "6 segments"]),
        (["chrf", "--segment", "0"], ["--segment"]),
        (["chrf", "--json", "--explain"], ["--explain"]),
        (["chrf", "--segment", "1", "--sentence-level"], ["--sentence-level"]),
        (["ter", "--tokenize", "13a"], ["--tokenize"]),
        (["ter", "--segment", "9"], ["--segment 9"]),
        (["ter", "--lowercase", "--case-sensitive"], ["--case-sensitive"]),
        (["wer", "--beta", "2"], ["--beta"]),
    ],
    ids=["order-not-a-number", "order-negative", "both-orders-zero", "beta-zero", "beta-negative",
         "beta-not-a-number", "plus-and-word-order", "segment-past-end", "segment-zero", "json-and-explain",
         "segment-and-sentence-level", "ter-has-no-tokenize", "ter-segment-past-end", "ter-both-cases",
         "wer-has-no-beta"],
)
def test_bad_option_values(capsys, files, options, fragments) -> None:
    metric, *rest = options
    assert_error(capsys, 2, [metric, "-r", files["ref1"], "-i", files["hyp"], *rest], *fragments)


def test_bad_option_from_the_console_script(files) -> None:
    proc = run("chrf", "-r", files["ref1"], "-i", files["hyp"], "--beta", "0")
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("mtlearn: error: --beta"), proc.stderr


def test_empty_lines_are_scored_not_rejected(capsys, tmp_path) -> None:
    # An empty hypothesis or reference line is a defined score (the library says why), as in sacreBLEU.
    ref = write_lines(tmp_path / "ref.txt", ["the cat", ""])
    hyp = write_lines(tmp_path / "hyp.txt", ["", "a cat"])
    for metric, one in (("chrf", mtlearn.chrf), ("ter", mtlearn.ter)):
        out = ok(capsys, metric, "-r", ref, "-i", hyp, "--sentence-level", "--json")
        assert [unnamed(line) for line in out.splitlines()] == [as_json(one("", ["the cat"])),
                                                                as_json(one("a cat", [""]))]


def test_help_gives_the_library_defaults(capsys) -> None:
    out = ok(capsys, "chrf", "--help")
    assert "(default: 6)" in out and "chrF++" in out and "sacreBLEU" in out
    assert "--ter-case-sensitive" in ok(capsys, "ter", "--help")


# --- WMT22 ---------------------------------------------------------------------------------------


@pytest.mark.wmt22
def test_wmt22_official_chrf_a(capsys, wmt22: Path) -> None:
    with open(wmt22 / "automatic-scores.tsv", encoding="utf-8", newline="") as handle:
        expected = next(float(row["score"]) for row in csv.DictReader(handle, delimiter="\t")
                        if (row["pair"], row["system"], row["metric"]) == ("de-en", "Lan-Bridge", "chrf-A"))
    ref = wmt22 / "references" / "generaltest2022.de-en.ref.A.en"
    hyp = wmt22 / "system-outputs" / "generaltest2022.de-en.hyp.Lan-Bridge.en"
    got = json.loads(ok(capsys, "chrf", "-r", ref, "-i", hyp, "--json"))["score"]
    assert math.isclose(got, expected, rel_tol=1e-13), (got, expected)


@pytest.mark.parametrize("option, value", [("--char-order", "1000000000"),
                                           ("--char-order", "12345678901234567890123"),
                                           ("--chrf-word-order", "4097")])
def test_chrf_orders_beyond_the_bound_are_one_line_and_quick(files, option, value) -> None:
    # Before: --char-order 1000000000 reached 844 MB in 20 s (1.37 GB after 25 s here), a 23-digit value 1.5
    # GB.
    proc = subprocess.run([str(MTLEARN), "chrf", "-r", str(files["ref1"]), "-i", str(files["hyp"]), option,
                           value],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    name = option.replace("chrf-", "")
    assert proc.stderr.startswith(f"mtlearn: error: {name}: at most 4096, got {value} (")
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr

"""The ``mtlearn`` console script, run for real in a subprocess.

Expected numbers come from independent sources: WMT22's official table, sacreBLEU and
NLTK computed here in the test process, and the Spanish Wikipedia article's worked examples (DIGEST.md).
Every error case checks the message on stderr, the exit status, an empty stdout and
that no traceback escaped.
"""

from __future__ import annotations

import csv
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

MTLEARN = Path(sys.executable).parent / "mtlearn"

HYPOTHESES = [
    "The cat sat on the mat.",
    "It is a guide to action which ensures that the military always obeys the commands of the party.",
    "he read the book because he was interested in world history",
    "Hello, World!",
]
REFERENCES_1 = [
    "The cat is on the mat.",
    "It is a guide to action that ensures that the military will forever heed Party commands.",
    "he was interested in world history because he read the book",
    "Hello world.",
]
REFERENCES_2 = [
    "There is a cat on the mat.",
    "It is the guiding principle which guarantees the military forces always being under the "
    "command of the Party.", "He read the book because he was interested in world history.",
    "hello, world!",
]


def run(*args: object, stdin: bytes = b"", env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run the installed console script; stdout/stderr as text."""
    if not MTLEARN.is_file():
        pytest.fail(f"console script {MTLEARN} not found: install the package (pip install -e .)")
    proc = subprocess.run([str(MTLEARN), *map(str, args)], input=stdin, capture_output=True,
                          timeout=600, env=env)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8"),
                                       proc.stderr.decode("utf-8"))


def ok(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout


def assert_error(proc: subprocess.CompletedProcess, status: int, *fragments: str) -> None:
    assert proc.returncode == status, (proc.returncode, proc.stderr)
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("mtlearn: error: "), proc.stderr
    for fragment in fragments:
        assert fragment in proc.stderr, (fragment, proc.stderr)


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def small(tmp_path: Path) -> dict[str, Path]:
    return {
        "hyp": write_lines(tmp_path / "hyp.txt", HYPOTHESES),
        "ref1": write_lines(tmp_path / "ref1.txt", REFERENCES_1),
        "ref2": write_lines(tmp_path / "ref2.txt", REFERENCES_2),
    }


def official_score(wmt22: Path, pair: str, system: str, metric: str) -> float:
    with open(wmt22 / "automatic-scores.tsv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if (row["pair"], row["system"], row["metric"]) == (pair, system, metric):
                return float(row["score"])
    raise AssertionError(f"{pair} {system} {metric} not in automatic-scores.tsv")


# --- BLEU: reproducing published numbers ------------------------------------------------


@pytest.mark.wmt22
def test_wmt22_official_bleu_from_files(wmt22: Path) -> None:
    expected = official_score(wmt22, "de-en", "Lan-Bridge", "bleu-A")
    ref = wmt22 / "references" / "generaltest2022.de-en.ref.A.en"
    hyp = wmt22 / "system-outputs" / "generaltest2022.de-en.hyp.Lan-Bridge.en"
    result = json.loads(ok(run("bleu", "-r", ref, "-i", hyp, "--json")))
    assert result["scale"] == 100
    assert math.isclose(result["score"], expected, rel_tol=1e-13), (result["score"], expected)


@pytest.mark.wmt22
def test_wmt22_official_bleu_two_references_from_stdin(wmt22: Path) -> None:
    expected = official_score(wmt22, "de-en", "Lan-Bridge", "bleu-all")
    refs = [wmt22 / "references" / f"generaltest2022.de-en.ref.{x}.en" for x in "AB"]
    hyp = (wmt22 / "system-outputs" / "generaltest2022.de-en.hyp.Lan-Bridge.en").read_bytes()
    out = ok(run("bleu", "-r", *refs, stdin=hyp))
    assert out.startswith(f"BLEU = {expected:.2f}"), out
    assert "nrefs:2" in out and "tok:13a" in out, out


def test_bleu_defaults_are_sacrebleus(small: dict[str, Path]) -> None:
    import sacrebleu

    expected = sacrebleu.corpus_bleu(HYPOTHESES, [REFERENCES_1, REFERENCES_2]).score
    result = json.loads(ok(run("bleu", "-r", small["ref1"], small["ref2"], "-i", small["hyp"], "--json")))
    assert math.isclose(result["score"], expected, rel_tol=1e-12)


def test_bleu_options_reach_the_metric(small: dict[str, Path]) -> None:
    from sacrebleu.metrics import BLEU

    metric = BLEU(tokenize="none", smooth_method="floor", smooth_value=0.2, lowercase=True, max_ngram_order=3)
    expected = metric.corpus_score(HYPOTHESES, [REFERENCES_1]).score
    out = ok(run("bleu", "-r", small["ref1"], "--tokenize", "none", "--smoothing", "floor",
                 "--smooth-value", "0.2", "--lowercase", "--max-order", "3", "--json",
                 stdin=small["hyp"].read_bytes()))
    assert math.isclose(json.loads(out)["score"], expected, rel_tol=1e-12)


def test_bleu_weights_match_nltk(small: dict[str, Path]) -> None:
    from nltk.translate.bleu_score import corpus_bleu

    expected = corpus_bleu([[r1.split(), r2.split()] for r1, r2 in zip(REFERENCES_1, REFERENCES_2)],
                           [h.split() for h in HYPOTHESES], weights=(0.75, 0.25))
    out = ok(run("bleu", "-r", small["ref1"], small["ref2"], "-i", small["hyp"], "--tokenize", "whitespace",
                 "--smoothing", "none", "--max-order", "2", "--weights", "3/4", "0.25", "--json", "--scale",
                 "1"))
    assert math.isclose(json.loads(out)["score"], expected, rel_tol=1e-12)  # NLTK's 0-1 scale


def test_bleu_sentence_level_matches_sacrebleu(small: dict[str, Path]) -> None:
    import sacrebleu

    out = ok(run("bleu", "-r", small["ref1"], small["ref2"], "-i", small["hyp"], "--sentence-level",
                 "--json"))
    scores = [json.loads(line)["score"] for line in out.splitlines()]
    expected = [sacrebleu.sentence_bleu(h, [r1, r2]).score
                for h, r1, r2 in zip(HYPOTHESES, REFERENCES_1, REFERENCES_2)]
    assert len(scores) == len(HYPOTHESES)
    for got, want in zip(scores, expected):
        assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)


def test_bleu_segment_score_and_explanation(small: dict[str, Path]) -> None:
    import sacrebleu

    import mtlearn

    args = ("bleu", "-r", small["ref1"], small["ref2"], "-i", small["hyp"], "--segment", "2")
    line = ok(run(*args))
    expected = sacrebleu.sentence_bleu(HYPOTHESES[1], [REFERENCES_1[1], REFERENCES_2[1]]).score
    assert line.startswith(f"BLEU = {expected:.2f}"), line
    # --explain prints the library's derivation for that segment, with the CLI's settings, in its exact
    # 0-1 terms; on the 0-100 scale it ends with the scaled score, which is the score line's.
    result = mtlearn.bleu(HYPOTHESES[1], [REFERENCES_1[1], REFERENCES_2[1]], tokenize="13a",
                          smoothing="exp", effective_order=True)
    explained = ok(run(*args, "--explain")).rstrip("\n")
    assert explained.startswith(result.explain().rstrip("\n"))
    assert explained.endswith(f"BLEU = 100 * {result.score:.4f} = {expected:.2f}"), explained
    assert ok(run(*args, "--explain", "--scale", "1")).rstrip("\n") == result.explain().rstrip("\n")


# --- METEOR ----------------------------------------------------------------------------

# The Spanish Wikipedia article's worked examples (DIGEST.md): reference, candidate, score to 4 places.
METEOR_EXAMPLES = [
    ("the cat sat on the mat", "on the mat sat the cat", 0.5000),
    ("the cat sat on the mat", "the cat sat on the mat", 0.9977),
    ("the cat sat on the mat", "the cat was sat on the mat", 0.9654),
]


@pytest.fixture
def meteor_files(tmp_path: Path) -> dict[str, Path]:
    return {
        "ref": write_lines(tmp_path / "ref.txt", [ref for ref, _, _ in METEOR_EXAMPLES]),
        "hyp": write_lines(tmp_path / "hyp.txt", [hyp for _, hyp, _ in METEOR_EXAMPLES]),
    }


def test_meteor_sentence_level_reproduces_the_worked_examples(meteor_files: dict[str, Path]) -> None:
    out = ok(run("meteor", "-r", meteor_files["ref"], "-i", meteor_files["hyp"], "--stages", "exact,stem",
                 "--sentence-level", "--json", "--scale", "1"))  # the document's 0-1 numbers
    scores = [json.loads(line)["score"] for line in out.splitlines()]
    assert [round(s, 4) for s in scores] == [score for _, _, score in METEOR_EXAMPLES]


def test_meteor_tie_break_chunks_gives_meteor_1x_number(meteor_files: dict[str, Path]) -> None:
    # DIGEST.md: minimising chunks finds [on the mat] [sat] [the cat], 3 chunks, score 0.9375.
    out = ok(run("meteor", "-r", meteor_files["ref"], "-i", meteor_files["hyp"], "--stages", "exact",
                 "--tie-break", "chunks", "--segment", "1", "--json"))
    assert math.isclose(json.loads(out)["score"], 93.75, rel_tol=1e-12)


def test_meteor_corpus_aggregates_counts(meteor_files: dict[str, Path]) -> None:
    # DIGEST.md rule 8: sum the counts over the segments, then apply the formula once.
    matches, hyp_words, ref_words, chunks = 6 + 6 + 6, 6 + 6 + 7, 6 + 6 + 6, 6 + 1 + 2
    p, r = matches / hyp_words, matches / ref_words
    f_mean = 10 * p * r / (r + 9 * p)
    expected = f_mean * (1 - 0.5 * (chunks / matches) ** 3)
    out = ok(run("meteor", "-r", meteor_files["ref"], "--stages", "exact,stem",
                 stdin=meteor_files["hyp"].read_bytes()))
    assert out.startswith(f"METEOR = {100 * expected:.2f}"), out
    assert "mtlearn-meteor" in out


class _NoSynonyms:
    """Stands in for NLTK's WordNet reader: no synonyms, so NLTK's METEOR runs only exact + stem."""

    def synsets(self, *args: object, **kwargs: object) -> list:
        return []


class _NoStemming:
    def stem(self, word: str) -> str:
        return word


@pytest.mark.parametrize("case_options, preprocess", [([], str.lower), (["--case-sensitive"], str)],
                         ids=["lowercase-default", "case-sensitive"])
def test_meteor_parameters_and_case_reach_the_metric(tmp_path: Path, case_options: list[str],
                                                     preprocess: object) -> None:
    from nltk.translate.meteor_score import meteor_score

    ref, hyp = "A Cat was sitting on mats", "a cat sits on the mats"
    expected = meteor_score([ref.split()], hyp.split(), preprocess=preprocess, stemmer=_NoStemming(),
                            wordnet=_NoSynonyms(), alpha=0.8, beta=2, gamma=0.4)
    out = ok(run("meteor", "-r", write_lines(tmp_path / "ref.txt", [ref]), "--stages", "exact",
                 "--alpha", "0.8", "--beta", "2", "--gamma", "0.4", *case_options, "--segment", "1", "--json",
                 "--scale", "1", stdin=(hyp + "\n").encode()))
    assert math.isclose(json.loads(out)["score"], expected, rel_tol=1e-12)


@pytest.mark.wordnet
def test_meteor_synonym_stage_matches_nltk(tmp_path: Path) -> None:
    pytest.importorskip("nltk")
    from mtlearn.metrics.meteor.wordnet import wordnet_available

    if not wordnet_available():
        pytest.skip("WordNet is not installed (run: mtlearn wordnet)")
    from nltk.translate.meteor_score import meteor_score

    # car/auto and quick/fast share WordNet synsets; Porter leaves all four words unchanged,
    # so NLTK's synonym stage (which sees stemmed leftovers) finds them too.
    ref, hyp = "the auto was fast", "the car was quick"
    expected = meteor_score([ref.split()], hyp.split())
    out = ok(run("meteor", "-r", write_lines(tmp_path / "ref.txt", [ref]), "--json", "--scale", "1",
                 stdin=(hyp + "\n").encode()))
    result = json.loads(out)
    assert result["matches_per_stage"]["synonym"] == 2
    assert math.isclose(result["score"], expected, rel_tol=1e-12), (result["score"], expected)


def test_meteor_without_wordnet_says_how_to_get_it(tmp_path: Path) -> None:
    # The console script only calls mtlearn.tools.cli.main.main; here it runs with NLTK's search path emptied,
    # which is what a machine without WordNet looks like to NLTK.
    ref = write_lines(tmp_path / "ref.txt", ["the big dog"])
    hyp = write_lines(tmp_path / "hyp.txt", ["the large dog"])
    code = ("import sys, nltk; nltk.data.path[:] = []; from mtlearn.tools.cli.main import main; "
            f"sys.exit(main(['meteor', '-r', {str(ref)!r}, '-i', {str(hyp)!r}, "
            "'--stages', 'exact,synonym']))")
    env = {k: v for k, v in os.environ.items() if k not in ("NLTK_DATA", "MTLEARN_CACHE_DIR")}
    env["MTLEARN_CACHE_DIR"] = str(tmp_path / "cache")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert_error(proc, 1, "WordNet", "nltk.download")


def test_meteor_language_es_stems_spanish_and_says_the_synonym_stage_is_skipped(tmp_path: Path) -> None:
    from nltk.stem.snowball import SnowballStemmer

    stem = SnowballStemmer("spanish").stem
    ref, hyp = "el gato come", "los gatos comen"
    stems = sum(a != b and stem(a) == stem(b) for a in hyp.split() for b in ref.split())
    out = ok(run("meteor", "-r", write_lines(tmp_path / "ref.es", [ref]), "--language", "es", "--json",
                 "--scale", "1", stdin=(hyp + "\n").encode()))
    result = json.loads(out)
    assert result["matches_per_stage"] == {"exact": 0, "stem": stems}
    assert result["notes"] == ["synonym stage skipped: no Spanish WordNet offline"]
    assert "|lang:es|" in result["signature"]
    line = ok(run("meteor", "-r", tmp_path / "ref.es", "--language", "es", stdin=(hyp + "\n").encode()))
    assert "[synonym stage skipped: no Spanish WordNet offline]" in line and "|lang:es|" in line
    both = ok(run("score", "-r", tmp_path / "ref.es", "-m", "meteor", "chrf", "--meteor-language", "es",
                  stdin=(hyp + "\n").encode()))  # sacreBLEU's main mode: -l is the language pair there
    assert "|stages:exact+stem|" in both and "|lang:es|" in both


@pytest.mark.parametrize("arguments, fragments", [
    (["--language", "fr"], ["--language", "'fr'", "'en', 'es'"]),
    (["--language", "es", "--stages", "exact,synonym"], ["no synonym stage for language 'es'"]),
    (["--language", "es", "--stages", "exact,stem:porter"], ["'stem:porter' is an English stemmer"]),
], ids=["unknown-language", "spanish-synonyms", "spanish-with-porter"])
def test_meteor_bad_language_is_one_line_and_exit_2(small: dict[str, Path], arguments: list[str],
                                                     fragments: list[str]) -> None:
    proc = run("meteor", "-r", small["ref1"], "-i", small["hyp"], *arguments)
    assert_error(proc, 2, *fragments)
    assert len(proc.stderr.splitlines()) == 1, proc.stderr


# --- errors ------------------------------------------------------------------------------


def test_missing_reference_file(small: dict[str, Path], tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    assert_error(run("bleu", "-r", missing, "-i", small["hyp"]), 1, str(missing), "No such file")


def test_missing_hypothesis_file(small: dict[str, Path], tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    assert_error(run("meteor", "-r", small["ref1"], "-i", missing, "--stages", "exact"), 1, str(missing),
                 "No such file")


def test_unreadable_file(small: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    assert_error(run("bleu", "-r", folder, "-i", small["hyp"]), 1, str(folder), "cannot read")


def test_line_counts_differ(small: dict[str, Path], tmp_path: Path) -> None:
    short = write_lines(tmp_path / "short.txt", REFERENCES_1[:3])
    assert_error(run("bleu", "-r", small["ref1"], short, "-i", small["hyp"]), 1,
                 f"{short} has 3 lines", f"{small['hyp']} has 4")


def test_bad_utf8_names_file_and_line(small: dict[str, Path], tmp_path: Path) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("ok\nstill ok\ncaf\u00e9\nend\n".encode("latin-1"))
    assert_error(run("bleu", "-r", bad, "-i", small["hyp"]), 1, f"{bad}, line 3", "UTF-8")


def test_bad_utf8_on_stdin(small: dict[str, Path]) -> None:
    assert_error(run("bleu", "-r", small["ref1"], stdin=b"a\nb\n\xff\xfe c\nd\n"), 1, "<stdin>, line 3",
                 "UTF-8")


def test_empty_input(small: dict[str, Path]) -> None:
    assert_error(run("bleu", "-r", small["ref1"], stdin=b""), 1, "empty")


def test_empty_reference_file(small: dict[str, Path], tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert_error(run("meteor", "-r", empty, "-i", small["hyp"], "--stages", "exact"), 1, str(empty), "empty")


@pytest.mark.parametrize(
    "options, fragments",
    [
        (["bleu", "--tokenize", "moses"], ["--tokenize", "moses"]),
        (["bleu", "--smoothing", "expo"], ["smoothing", "expo"]),
        (["bleu", "--max-order", "2", "--weights", "0.5", "0.25", "0.25"], ["weights"]),
        (["bleu", "--segment", "5"], ["--segment 5", "4 segments"]),
        (["bleu", "--segment", "0"], ["--segment"]),
        (["meteor", "--stages", "exact,synonyms"], ["stages", "synonyms"]),
        (["meteor", "--stages", "exact", "--tie-break", "fewest"], ["--tie-break", "fewest"]),
        (["meteor", "--stages", "exact", "--alpha", "abc"], ["--alpha", "abc"]),
        (["meteor", "--stages", "exact", "--alpha", "1.5"], ["alpha"]),
        (["meteor", "--json", "--explain"], ["--explain"]),
    ],
    ids=["tokenizer", "smoothing", "weights", "segment-past-end", "segment-zero", "stage", "tie-break",
         "not-a-number", "alpha-range", "json-and-explain"],
)
def test_bad_option_values(small: dict[str, Path], options: list[str], fragments: list[str]) -> None:
    metric, *rest = options
    assert_error(run(metric, "-r", small["ref1"], "-i", small["hyp"], *rest), 2, *fragments)


def test_references_are_required(small: dict[str, Path]) -> None:
    assert_error(run("bleu", "-i", small["hyp"]), 2, "-r")


# --- the rest of the interface -----------------------------------------------------------


def test_help_documents_the_sacrebleu_defaults() -> None:
    out = ok(run("bleu", "--help"))
    assert "sacreBLEU" in out and "13a" in out and "exp" in out


def test_wordnet_subcommand_reports_what_nltk_finds() -> None:
    from mtlearn.metrics.meteor.wordnet import find_wordnet

    proc = run("wordnet", "--check")
    assert "Traceback" not in proc.stderr
    found = find_wordnet()
    assert proc.returncode == (0 if found else 1)
    assert ("found at" in proc.stdout) == (found is not None)

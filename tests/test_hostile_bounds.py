"""Hostile input must cost bounded time and memory (issue 15, section 3: METEOR's side and streaming).

Each case that used to hang or eat gigabytes runs in a child process with a
time-out and an address-space limit, so that a regression fails here in seconds
instead of stalling the suite. The bounds are generous (tens of seconds, a
gigabyte or two): they tell "bounded" from "runaway", they are not speed targets.
"""

from __future__ import annotations

import io
import json
import math
import resource
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from repo_paths import REPO
from mtlearn import corpus_meteor, meteor
from mtlearn.metrics.meteor.formulas import (
    EXACT_BETA_MAX,
    fragmentation,
    fragmentation_penalty,
    penalty_is_exact,
)
from mtlearn.metrics.meteor.score import meteor_from_stats, MeteorStats

EXACT = ["exact"]
#: Address space a child may take: Python with mtlearn imported needs a few hundred MB.
CHILD_MEMORY = 2 << 30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))


def run_child(args: list[str], seconds: float, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run ``python args...`` from the repository with a time-out and a memory limit."""
    try:
        return subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True,
                              input=stdin, timeout=seconds, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"python {' '.join(args)[:120]} ran past {seconds} s")


def run_code(code: str, seconds: float) -> str:
    """Run ``code`` in a bounded child; its standard output (it must succeed)."""
    done = run_child(["-c", textwrap.dedent(code)], seconds)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


# --------------------------------------------------------------------------- a large beta


def test_meteor_with_a_huge_whole_beta_finishes_and_says_the_penalty_is_a_float():
    # chunks < matches: (c/m)^beta was an exact integer power with ~10^9 * log2(m) bits.
    out = run_code("""
        from mtlearn import meteor
        r = meteor("a b c d e f", ["a b d c e f"], stages=["exact"], beta=10**9)
        print(r.chunks, r.matches, repr(r.penalty), r.score, float(r.f_mean), r.penalty_arithmetic)
        print(r.penalty_note)
    """, seconds=30)
    first, note = out.splitlines()
    chunks, matches, penalty, score, f, arithmetic = first.split()
    assert int(chunks) < int(matches)
    assert arithmetic == "float" and float(penalty) == 0.5 * (int(chunks) / int(matches)) ** 1e9
    assert float(score) == float(f)  # the penalty vanishes: the score is F_mean
    assert "beta" in note and "float" in note


def test_cli_beta_1e300_corpus_and_sentence_level_finish(tmp_path: Path):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b c d e f\nthe cat sat on the mat\n", encoding="utf-8")
    ref.write_text("a b d c e f\non the mat the cat sat\n", encoding="utf-8")
    for extra in ([], ["--sentence-level"]):
        done = run_child(["-m", "mtlearn", "meteor", "-r", str(ref), "-i", str(hyp), "--stages", "exact",
                          "--beta", "1e300", "--json", *extra], seconds=30)
        assert done.returncode == 0, done.stderr[-2000:]
        text = done.stdout
        results = [json.loads(line) for line in text.splitlines()] if extra else [json.loads(text)]
        for d in results:
            assert d["penalty_arithmetic"] == "float" and "1e+300" in d["penalty_note"]
            assert d["chunks"] < d["matches"] and d["penalty_value"] == 0.0


def test_penalty_is_exact_up_to_the_limit_and_a_float_beyond():
    # The float beyond the limit is the exact power rounded (the limit is a cost choice, not a change of value).
    assert penalty_is_exact(EXACT_BETA_MAX) and not penalty_is_exact(EXACT_BETA_MAX + 1)
    for beta in (EXACT_BETA_MAX + 1, 3 * EXACT_BETA_MAX):
        as_float = fragmentation_penalty(5, 6, beta=beta, gamma=0.5)
        exact_value = Fraction(1, 2) * fragmentation(5, 6) ** beta
        assert isinstance(as_float, float) and math.isclose(as_float, float(exact_value), rel_tol=1e-12)
    assert isinstance(fragmentation_penalty(5, 6, beta=EXACT_BETA_MAX), Fraction)
    r = meteor("a b c d e f", ["a b d c e f"], stages=EXACT, beta=EXACT_BETA_MAX)
    assert r.penalty_arithmetic == "exact" and r.penalty_note is None and r.score_exact is not None
    r = meteor("a b c d e f", ["a b d c e f"], stages=EXACT, beta=EXACT_BETA_MAX + 1)
    assert r.penalty_arithmetic == "float" and r.score_exact is None and "whole number above" in r.penalty_note
    assert "float" in r.explain() and r.penalty_note in r.explain()


def test_a_fractional_beta_is_a_float_and_says_so():
    r = meteor("a b c d e f", ["a b d c e f"], stages=EXACT, beta=1.5)
    assert r.penalty_arithmetic == "float" and "not a whole number" in r.penalty_note
    assert meteor("a b", ["a b"], stages=EXACT).penalty_arithmetic == "exact"


def test_corpus_and_stats_with_a_huge_beta_are_floats():
    c = corpus_meteor(["a b c d e f", "the cat sat"], [["a b d c e f"], ["the cat sat"]], stages=EXACT,
                      beta=1e300)
    assert c.penalty_arithmetic == "float" and c.penalty == 0.0 and c.score == float(c.f_mean)
    assert all(s.penalty_arithmetic == "float" for s in c.segments)
    s = meteor_from_stats([MeteorStats(6, 6, 6, 4)], beta=10**12)
    assert s.penalty_arithmetic == "float" and s.score == 1.0


def test_a_beta_beyond_any_float_is_an_error_naming_it():
    with pytest.raises(ValueError, match="^beta: must be a finite number"):
        meteor("a b", ["b a"], stages=EXACT, beta=10**400)


# --------------------------------------------------------------------------- reading a corpus's segments


def _corpus(metric: str, n: int):
    import random

    from mtlearn import corpus_chrf, corpus_ter

    rng = random.Random(15)
    words = "the cat sat on a mat dog ran in park and then slept under tree".split()
    cands = [" ".join(rng.choices(words, k=10)) for _ in range(n)]
    refs = [[" ".join(rng.choices(words, k=10))] for _ in range(n)]
    if metric == "meteor":
        return corpus_meteor(cands, refs, stages=EXACT)
    return {"chrf": corpus_chrf, "ter": corpus_ter}[metric](cands, refs)


@pytest.mark.parametrize("metric, n", [("meteor", 1000), ("chrf", 500), ("ter", 400)])
def test_reading_every_segment_keeps_memory_bounded(metric, n):
    # Reading segment after segment must not keep every built result (MeteorSegments kept
    # them all: ~950 MB for 100k segments). Memory after reading all n segments is
    # compared with memory after the first n/10: bounded means (about) no further growth.
    import gc
    import tracemalloc

    corpus = _corpus(metric, n)
    segments = corpus.segments
    first = segments[5]
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for i in range(n // 10):
            segments[i].score
        gc.collect()
        after_few = tracemalloc.get_traced_memory()[0] - start
        for i in range(n // 10, n):
            segments[i].score
        gc.collect()
        after_all = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert after_all < 2 * after_few + (1 << 20), (after_few, after_all)
    assert segments[5] == first  # built again after it left the cache: the same result


# --------------------------------------------------------------------------- --sentence-level streams


class _Recorder(io.BytesIO):
    """A binary standard output that notes, at each write, how many segments were scored by then."""

    def __init__(self, scored: list[int]) -> None:
        super().__init__()
        self.scored = scored
        self.at_write: list[int] = []

    def write(self, data) -> int:  # type: ignore[override]
        self.at_write.append(self.scored[0])
        return super().write(data)


SENTENCE_METRICS = {"bleu": "bleu", "meteor": "meteor", "chrf": "chrf", "ter": "ter", "wer": "wer", "cer": "cer"}


@pytest.mark.parametrize("metric", sorted(SENTENCE_METRICS))
@pytest.mark.parametrize("form", [[], ["--json"], ["--explain"]])
def test_sentence_level_writes_each_line_as_it_is_scored(metric, form, tmp_path, monkeypatch):
    # Building every result before writing took 5.2 GB for 1M BLEU lines: a line must be
    # written before the next segments are scored (the first one is scored on its own,
    # so that a bad option is an error before any output).
    import functools

    from mtlearn import cli

    n = 30
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(f"the cat {k} sat on the mat\n" for k in range(n)), encoding="utf-8")
    ref.write_text("".join(f"a cat {k} sat on a mat\n" for k in range(n)), encoding="utf-8")
    scored = [0]
    one = getattr(cli, SENTENCE_METRICS[metric])

    @functools.wraps(one)
    def counting(*args, **kwargs):
        scored[0] += 1
        return one(*args, **kwargs)

    monkeypatch.setattr(cli, SENTENCE_METRICS[metric], counting)
    recorder = _Recorder(scored)
    out = io.TextIOWrapper(recorder, encoding="utf-8", write_through=True)  # type: ignore[arg-type]
    monkeypatch.setattr(sys, "stdout", out)
    extra = ["--stages", "exact,stem"] if metric == "meteor" else []
    status = cli.main([metric, "-r", str(ref), "-i", str(hyp), "--sentence-level", *extra, *form])
    out.flush()
    assert status == 0 and scored[0] == n
    assert recorder.at_write and recorder.at_write[0] <= 2, recorder.at_write[:5]
    assert len(recorder.at_write) >= n // 2  # written piece by piece, not as one block at the end
    text = recorder.getvalue().decode("utf-8")
    if form == ["--json"]:
        assert len([json.loads(line) for line in text.splitlines()]) == n
    elif form == ["--explain"]:
        assert text.count("--- segment ") == n
    else:  # the signature once, then one line per segment
        assert len(text.splitlines()) == n + 1 and text.startswith("signature: ")


def test_sentence_level_error_on_a_later_line_names_it(tmp_path, monkeypatch, capsys):
    # A segment that fails after output began ends the run with one message naming its line.
    from mtlearn import cli

    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b\nc d\ne f\n", encoding="utf-8")
    ref.write_text("a b\nc d\ne f\n", encoding="utf-8")
    import functools

    calls = [0]
    real = cli.bleu

    @functools.wraps(real)
    def failing(*args, **kwargs):
        calls[0] += 1
        if calls[0] == 3:
            raise ValueError("max_order: something only line 3 shows")
        return real(*args, **kwargs)

    monkeypatch.setattr(cli, "bleu", failing)
    status = cli.main(["bleu", "-r", str(ref), "-i", str(hyp), "--sentence-level", "--max-order", "2",
                       "--tokenize", "none", "--smoothing", "none", "--effective-order"])
    captured = capsys.readouterr()
    assert status != 0
    assert len(captured.out.splitlines()) == 1 + 2  # the signature, then lines 1 and 2
    assert f"{hyp}, line 3: --max-order: something only line 3 shows" in captured.err
    assert "Traceback" not in captured.err

"""METEOR speed and agreement: mtlearn against NLTK's ``meteor_score`` on every WMT22 de-en system.

Run: ``python benchmarks/meteor_bench.py`` (``--help`` for options). Needs WordNet
(``python -m mtlearn.metrics.meteor.wordnet``) and ../shared/data/wmt22 (or ``$MTLEARN_WMT22``).

Part 1, in this process, for each of the nine systems (1,984 segments, reference A,
13a-tokenised, lowercased, stages exact+stem+synonym, alpha 0.9, beta 3, gamma 0.5):
seconds for NLTK's ``meteor_score`` segment by segment (the anchor), seconds for
mtlearn's ``corpus_meteor`` and for ``meteor()`` called segment by segment (each
building the whole teaching result: mapping objects, chunk spans, exact fractions),
their speed-ups over NLTK, the share of segments with the same score (within 1e-12),
how many alignment searches hit their bound (``optimal=False``; target: none), and how
many segments mtlearn's compiled alignment handed back to its pure-Python path. Both
WordNets are loaded and one system is scored by both before timing starts; every
measurement starts after a full garbage collection and is the best of ``--repeats``
runs (the machines are shared and noisy). The summary gives medians over the systems
(target: mtlearn at least 10x faster).

Part 2, fresh processes: the wall time from starting ``python`` to (a) mtlearn and
(b) NLTK imported (the stem stage and the search for WordNet need NLTK; ``import nltk``
also imports scipy.stats when scipy is installed, which costs seconds, so where scipy is
installed the warm runs are repeated with scipy hidden from the child process, as on a
clean install of mtlearn's dependencies),
(c) the WordNet synonym index loaded, (d) the first segment scored, (e) all 1,984
segments of one system scored — with the cache file already there, and with an
empty cache folder (the index is built once and written). NLTK's own first segment
in a fresh process is timed for comparison.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STAGES = ("exact", "stem", "synonym")


def wmt22_path() -> Path:
    env = os.environ.get("MTLEARN_WMT22")
    return Path(env) if env else REPO.parent / "shared" / "data" / "wmt22"


def read_tokens(path: Path) -> list[list[str]]:
    import mtlearn

    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [[t.lower() for t in mtlearn.tokenize(line, "13a")] for line in lines]


def systems(data: Path) -> list[str]:
    return sorted(p.name.split(".hyp.")[1][:-3]
                  for p in (data / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))


def timed(fn):
    """``(seconds, result)`` of ``fn()``, after a full garbage collection.

    Collecting first gives each measurement the same start (no collection of what an
    earlier measurement left behind lands inside it); collections that the measured
    code itself causes are part of its cost and stay in."""
    gc.collect()
    t = time.perf_counter()
    result = fn()
    return time.perf_counter() - t, result


def in_process(data: Path, names: list[str], repeats: int) -> None:
    import mtlearn
    import mtlearn.metrics.meteor.alignment as alignment
    from mtlearn.metrics.meteor.matchers import resolve_stages
    from nltk.corpus import wordnet
    from nltk.translate.meteor_score import meteor_score

    wordnet.ensure_loaded()
    stages = resolve_stages(STAGES)  # loads the shared synonym index
    compiled = alignment._meteor_fast is not None
    print("mtlearn's compiled alignment (mtlearn._meteor_fast): "
          + ("installed" if compiled else "NOT installed: pure Python"))
    refs = read_tokens(data / "references" / "generaltest2022.de-en.ref.A.en")
    ref_lists = [[r] for r in refs]
    # Warm-up, not timed: NLTK's WordNet reads its synsets from disk on first use, and
    # both sides fill their stem and synonym memos on the first system.
    warm = read_tokens(data / "system-outputs" / f"generaltest2022.de-en.hyp.{names[0]}.en")
    for h, r in zip(warm, refs):
        meteor_score([r], h)
    mtlearn.corpus_meteor(warm, ref_lists, stages=stages)
    print(f"{'system':<18}{'NLTK s':>8}{'corpus s':>10}{'x NLTK':>8}{'meteor() s':>12}{'x NLTK':>8}"
          f"{'agree':>8}{'not optimal':>13}{'in Python':>11}")
    rows = []
    for name in names:
        hyps = read_tokens(data / "system-outputs" / f"generaltest2022.de-en.hyp.{name}.en")
        t_nltk = t_corpus = t_single = float("inf")
        for _ in range(repeats):  # the best of `repeats` runs of each: the least disturbed
            dt, theirs = timed(lambda: [meteor_score([r], h) for h, r in zip(hyps, refs)])
            t_nltk = min(t_nltk, dt)
            dt, corpus = timed(lambda: mtlearn.corpus_meteor(hyps, ref_lists, stages=stages))
            t_corpus = min(t_corpus, dt)
            del corpus
            dt, singles = timed(lambda: [mtlearn.meteor(h, [r], stages=STAGES) for h, r in zip(hyps, refs)])
            t_single = min(t_single, dt)
            del singles
        corpus = mtlearn.corpus_meteor(hyps, ref_lists, stages=stages)
        singles = [mtlearn.meteor(h, [r], stages=STAGES) for h, r in zip(hyps, refs)]
        assert [s.score for s in singles] == [s.score for s in corpus.segments]
        agree = sum(abs(s.score - o) <= 1e-12 for s, o in zip(corpus.segments, theirs)) / len(hyps)
        not_optimal = sum(not s.optimal for s in corpus.segments)
        in_python = len(corpus.segments._batch._python)
        del corpus, singles
        rows.append((t_nltk, t_corpus, t_single, agree, not_optimal, len(hyps), in_python))
        print(f"{name:<18}{t_nltk:>8.3f}{t_corpus:>10.3f}{t_nltk / t_corpus:>8.1f}{t_single:>12.3f}"
              f"{t_nltk / t_single:>8.1f}{agree:>8.1%}{not_optimal:>13}{in_python:>11}")
    segments = sum(r[5] for r in rows)
    print(f"median speed-up over NLTK: corpus_meteor {statistics.median(r[0] / r[1] for r in rows):.1f}x, "
          f"meteor() per segment {statistics.median(r[0] / r[2] for r in rows):.1f}x (target >= 10x)")
    print(f"total: NLTK {sum(r[0] for r in rows):.2f} s, corpus_meteor {sum(r[1] for r in rows):.2f} s, "
          f"meteor() {sum(r[2] for r in rows):.2f} s for {segments} segments (best of {repeats} runs each)")
    print(f"same score as NLTK (within 1e-12): {sum(r[3] * r[5] for r in rows) / segments:.1%} of "
          f"{segments} segments; searches not proven optimal: {sum(r[4] for r in rows)}; "
          f"segments the compiled part handed to Python: {sum(r[6] for r in rows)}")


CHILD = r"""
import json, os, sys, time
marks = {"python started": time.time()}
if os.environ.get("MTLEARN_BENCH_HIDE_SCIPY"):
    sys.modules["scipy"] = None  # as on a clean install: scipy is no dependency of mtlearn or NLTK
import mtlearn
from mtlearn.metrics.meteor.matchers import resolve_stages
marks["mtlearn imported"] = time.time()
import nltk.stem.porter  # what the stem stage and finding WordNet import anyway
marks["nltk imported"] = time.time()
stages = resolve_stages(["exact", "stem", "synonym"])
marks["WordNet index loaded"] = time.time()
hyp_path, ref_path = sys.argv[1], sys.argv[2]
tok = lambda line: [t.lower() for t in mtlearn.tokenize(line, "13a")]
hyp_lines = open(hyp_path, encoding="utf-8").read().split("\n")[:1984]
ref_lines = open(ref_path, encoding="utf-8").read().split("\n")[:1984]
first = mtlearn.meteor(tok(hyp_lines[0]), [tok(ref_lines[0])], stages=stages)
marks["first segment scored"] = time.time()
hyps, refs = [tok(l) for l in hyp_lines], [tok(l) for l in ref_lines]
marks["all tokenized"] = time.time()
corpus = mtlearn.corpus_meteor(hyps, [[r] for r in refs], stages=stages)
marks[f"{len(corpus.segments)} segments scored"] = time.time()
print(json.dumps(marks))
"""

NLTK_CHILD = r"""
import json, os, sys, time
marks = {"python started": time.time()}
if os.environ.get("MTLEARN_BENCH_HIDE_SCIPY"):
    sys.modules["scipy"] = None  # as on a clean install: scipy is no dependency of mtlearn or NLTK
from nltk.translate.meteor_score import meteor_score
marks["imports done"] = time.time()
import mtlearn
tok = lambda line: [t.lower() for t in mtlearn.tokenize(line, "13a")]
h = tok(open(sys.argv[1], encoding="utf-8").readline())
r = tok(open(sys.argv[2], encoding="utf-8").readline())
meteor_score([r], h)  # loads WordNet on first use
marks["first segment scored"] = time.time()
print(json.dumps(marks))
"""


def fresh_process(code: str, args: list[str], env: dict[str, str]) -> list[tuple[str, float]]:
    start = time.time()
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                         text=True, check=True).stdout
    marks = json.loads(out.strip().splitlines()[-1])
    # "python started" is when the child's first line ran; the process was started at `start`.
    return [(label, stamp - start) for label, stamp in marks.items()]


def fresh_processes(data: Path, system: str) -> None:
    hyp = data / "system-outputs" / f"generaltest2022.de-en.hyp.{system}.en"
    ref = data / "references" / "generaltest2022.de-en.ref.A.en"
    env = dict(os.environ)
    print(f"\nFresh processes (seconds since the process was started; {system}, 1,984 segments):")
    with tempfile.TemporaryDirectory() as empty:
        runs = [("cold cache (index built)", dict(env, MTLEARN_CACHE_DIR=empty))]
        runs += [(f"warm cache, run {k}", dict(env, MTLEARN_CACHE_DIR=empty)) for k in (1, 2, 3)]
        if importlib.util.find_spec("scipy") is not None:
            runs += [(f"warm cache, scipy hidden, run {k}",
                      dict(env, MTLEARN_CACHE_DIR=empty, MTLEARN_BENCH_HIDE_SCIPY="1")) for k in (1, 2, 3)]
        for label, run_env in runs:
            marks = fresh_process(CHILD, [str(hyp), str(ref)], run_env)
            print(f"  mtlearn, {label}: " + ", ".join(f"{name} {t:.2f}" for name, t in marks))
    marks = fresh_process(NLTK_CHILD, [str(hyp), str(ref)], env)
    print("  NLTK meteor_score: " + ", ".join(f"{name} {t:.2f}" for name, t in marks))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", nargs="*", help="de-en systems to run (default: all nine)")
    parser.add_argument("--skip-in-process", action="store_true")
    parser.add_argument("--skip-fresh", action="store_true")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs per system and method; the best is kept (default 3)")
    args = parser.parse_args(argv)
    data = wmt22_path()
    if not (data / "system-outputs").is_dir():
        print(f"WMT22 data not found at {data}; set MTLEARN_WMT22", file=sys.stderr)
        return 1
    names = args.systems or systems(data)
    started = time.perf_counter()
    if not args.skip_in_process:
        in_process(data, names, args.repeats)
    if not args.skip_fresh:
        fresh_processes(data, names[0] if args.systems else "Online-B")
    print(f"\nbenchmark wall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

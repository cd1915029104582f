"""Benchmark: mtlearn's corpus BLEU against sacreBLEU, and its cost on a 1,000,000-segment corpus.

Part 1 scores every WMT22 de-en system (against both references, 13a tokenization,
exp smoothing: WMT's official BLEU) with mtlearn and with sacreBLEU in one process,
alternating which goes first, for several repetitions, checks the scores agree to
1e-12, and prints median time ratios mtlearn / sacreBLEU (target: <= 1.0):

- ``mtlearn`` vs ``sacrebleu.corpus_bleu``: the calls as a user writes them, scoring
  system after system. mtlearn keeps one 13a tokenizer per process, so the
  references' tokens are cached from earlier calls (each system's own lines are
  new); ``sacrebleu.corpus_bleu`` builds a new BLEU object, hence a cold cache,
  every call;
- ``mtlearn, cold tokenizer cache`` vs ``sacrebleu.corpus_bleu``: both tokenize
  everything from scratch;
- ``mtlearn`` vs a reused ``sacrebleu.metrics.BLEU`` object: both caches warm.

mtlearn's per-segment trace stays available (``result.segments[i].ngram_table(n)``
is built on access); the benchmark checks that after timing.

Part 2 scores synthetic corpora of 250,000, 500,000 and 1,000,000 segments (one
reference each, whitespace tokens, exp smoothing), each in a fresh subprocess,
and prints segments per second, peak memory (``VmHWM``, peak resident set) and the
wall-clock and CPU time ratios between consecutive sizes (2.0 = linear; CPU time is
the steadier figure on a shared machine).

Usage::

    python benchmarks/bleu_bench.py [--wmt22 PATH] [--reps 5] [--sizes 250000,500000,1000000]
    python benchmarks/bleu_bench.py --no-synthetic      # part 1 only
    python benchmarks/bleu_bench.py --no-wmt22           # part 2 only
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def bench_wmt22(root: Path, reps: int) -> None:
    import sacrebleu
    from sacrebleu.metrics import BLEU

    import mtlearn
    from mtlearn.core.tokenize import get_tokenizer

    ref_a = _lines(root / "references" / "generaltest2022.de-en.ref.A.en")
    ref_b = _lines(root / "references" / "generaltest2022.de-en.ref.B.en")
    streams = [ref_a, ref_b]
    per_segment = [[a, b] for a, b in zip(ref_a, ref_b)]
    systems = {
        p.name.split(".hyp.")[1][: -len(".en")]: _lines(p)
        for p in sorted((root / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))
    }
    print(f"WMT22 de-en: {len(systems)} systems x {len(ref_a)} segments, 2 references, "
          f"13a, exp smoothing; {reps} repetitions, alternating order")

    reused = BLEU(tokenize="13a")

    def run_sacre(hyps):
        return sacrebleu.corpus_bleu(hyps, streams).score / 100

    def run_sacre_reused(hyps):
        return reused.corpus_score(hyps, streams).score / 100

    def run_mt(hyps):
        return mtlearn.corpus_bleu(hyps, per_segment, tokenize="13a", smoothing="exp").score

    def run_mt_cold(hyps):
        get_tokenizer.cache_clear()  # a fresh 13a tokenizer: an empty tokenization cache
        return run_mt(hyps)

    pairs = {
        "mtlearn / sacrebleu.corpus_bleu": (run_mt, run_sacre),
        "mtlearn (cold tokenizer cache) / sacrebleu.corpus_bleu": (run_mt_cold, run_sacre),
        "mtlearn / reused sacrebleu BLEU object (both warm)": (run_mt, run_sacre_reused),
    }
    ratios: dict[str, list[float]] = {k: [] for k in pairs}
    times: dict[str, list[float]] = {}
    worst = 0.0
    for rep in range(reps):
        for s_index, hyps in enumerate(systems.values()):
            for label, (ours, theirs) in pairs.items():
                order = [("mt", ours), ("sb", theirs)]
                if (rep + s_index) % 2:
                    order.reverse()
                measured, scores = {}, {}
                for key, fn in order:
                    start = time.perf_counter()
                    scores[key] = fn(hyps)
                    measured[key] = time.perf_counter() - start
                worst = max(worst, abs(scores["mt"] - scores["sb"]))
                ratios[label].append(measured["mt"] / measured["sb"])
                times.setdefault(label + " [mtlearn s]", []).append(measured["mt"])
                times.setdefault(label + " [sacreBLEU s]", []).append(measured["sb"])
    print(f"largest |mtlearn - sacreBLEU| over all runs: {worst:.3g} (must be <= 1e-12)")
    if worst > 1e-12:
        raise SystemExit("scores disagree")
    for label, values in ratios.items():
        mt = statistics.median(times[label + " [mtlearn s]"])
        sb = statistics.median(times[label + " [sacreBLEU s]"])
        print(f"  {label}: median ratio {statistics.median(values):.3f} "
              f"(median per system: mtlearn {mt * 1000:.0f} ms, sacreBLEU {sb * 1000:.0f} ms; "
              f"{len(values)} runs)")
    # The trace is still there: build every n-gram table of 200 segments of one result.
    result = mtlearn.corpus_bleu(next(iter(systems.values())), per_segment, tokenize="13a",
                                 smoothing="exp")
    start = time.perf_counter()
    rows = sum(len(result.segments[i].ngram_table(n)) for i in range(200) for n in range(1, 5))
    elapsed = time.perf_counter() - start
    print(f"  per-segment trace on demand: {rows} n-gram table rows of 200 segments in "
          f"{elapsed * 1000:.0f} ms ({elapsed / 200 * 1e6:.0f} us per segment)")


def synthetic_corpus(size: int, seed: int = 0) -> tuple[list[str], list[list[str]]]:
    """``size`` distinct (candidate, [reference]) pairs of 5-30 Zipf-distributed words."""
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(5000)]
    cum, total = [], 0.0
    for rank in range(1, len(vocab) + 1):
        total += 1.0 / rank
        cum.append(total)
    candidates, references = [], []
    for _ in range(size):
        length = rng.randint(5, 30)
        ref = rng.choices(vocab, cum_weights=cum, k=length)
        cand = [w if rng.random() < 0.7 else rng.choices(vocab, cum_weights=cum)[0] for w in ref]
        if rng.random() < 0.3:
            del cand[rng.randrange(len(cand))]
        candidates.append(" ".join(cand))
        references.append([" ".join(ref)])
    return candidates, references


def _rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_rss_mb() -> float:
    # VmHWM is this process image's high-water mark; ru_maxrss would carry over the
    # parent's peak across fork + exec on Linux.
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def synthetic_worker(size: int) -> None:
    import mtlearn

    candidates, references = synthetic_corpus(size)
    before = _rss_mb()
    start, cpu = time.perf_counter(), time.process_time()
    result = mtlearn.corpus_bleu(candidates, references, smoothing="exp")
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = _peak_rss_mb()
    seg = result.segments[size // 2]  # the trace of any segment is still available
    assert sum(r.clipped_count for r in seg.ngram_table(1)) == seg.matches[0]
    print(json.dumps({"size": size, "seconds": elapsed, "cpu_seconds": cpu, "score": result.score,
                      "rss_before_mb": before, "peak_rss_mb": peak, "rss_after_mb": _rss_mb()}))


def bench_synthetic(sizes: list[int]) -> None:
    print("\nSynthetic corpora (1 reference, whitespace tokens, exp smoothing), "
          "each in a fresh process:")
    previous = None
    for size in sizes:
        out = subprocess.run(
            [sys.executable, __file__, "--synthetic-worker", str(size)],
            check=True, capture_output=True, text=True,
        ).stdout.strip().splitlines()[-1]
        row = json.loads(out)
        rate = size / row["seconds"]
        growth = ""
        if previous:
            growth = (f", for size x{size / previous['size']:.1f}: wall time x"
                      f"{row['seconds'] / previous['seconds']:.2f}, CPU time x"
                      f"{row['cpu_seconds'] / previous['cpu_seconds']:.2f}")
        print(f"  {size:>9,} segments: {row['seconds']:6.1f} s wall ({row['cpu_seconds']:.1f} s CPU), "
              f"{rate:9,.0f} segments/s, "
              f"peak RSS {row['peak_rss_mb']:,.0f} MB (corpus alone {row['rss_before_mb']:,.0f} MB, "
              f"after scoring {row['rss_after_mb']:,.0f} MB){growth}")
        previous = row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wmt22", type=Path, default=REPO.parent / "shared" / "data" / "wmt22",
                        help="WMT22 data folder (default: ../shared/data/wmt22 beside the repository)")
    parser.add_argument("--reps", type=int, default=5, help="repetitions of the WMT22 part")
    parser.add_argument("--sizes", default="250000,500000,1000000",
                        help="synthetic corpus sizes, comma separated")
    parser.add_argument("--no-synthetic", action="store_true", help="skip the synthetic part")
    parser.add_argument("--no-wmt22", action="store_true", help="skip the WMT22 part")
    parser.add_argument("--synthetic-worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    if args.synthetic_worker:
        synthetic_worker(args.synthetic_worker)
        return
    if not args.no_wmt22:
        if not (args.wmt22 / "references").is_dir():
            raise SystemExit(f"--wmt22: no WMT22 data at {args.wmt22}")
        bench_wmt22(args.wmt22, args.reps)
    if not args.no_synthetic:
        bench_synthetic([int(s) for s in args.sizes.split(",")])


if __name__ == "__main__":
    main()

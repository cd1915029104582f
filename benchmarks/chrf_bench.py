"""Benchmark: mtlearn's corpus chrF and chrF++ against sacreBLEU on every WMT22 de-en system.

One process. For chrF (sacreBLEU's defaults) and chrF++ (``word_order=2``), every de-en system
is scored against reference A with ``mtlearn.corpus_chrf`` and ``sacrebleu.corpus_chrf`` (the
calls as a user writes them: sacreBLEU builds a new ``CHRF`` object each call, mtlearn has no
reference cache either), alternating which goes first, for several repetitions. It checks that
the scores agree within 1e-12 and prints the median time per system and the median of the
per-call ratios mtlearn / sacreBLEU (target <= 1.0), for wall-clock and for CPU time (CPU time is
the steadier figure on a shared machine).

The **cold** first pass is timed separately and first of all: the very first call of each library
in this process (mtlearn's first call also builds its cache of slice objects), on the first
system, before any repetition.

mtlearn's per-segment trace stays available: after timing, the benchmark builds the full
``segments[i]`` result (orders, kept reference, n-gram tables) of 200 segments of one result.

Usage::

    python benchmarks/chrf_bench.py [--wmt22 PATH] [--reps 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def _timed(fn, *args) -> tuple[float, float, float]:
    """(result, wall seconds, CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn(*args)
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wmt22", type=Path,
                        default=Path(os.environ.get("MTLEARN_WMT22",
                                                    REPO.parent / "shared" / "data" / "wmt22")))
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))

    import sacrebleu

    import mtlearn

    root = args.wmt22
    ref_a = _lines(root / "references" / "generaltest2022.de-en.ref.A.en")
    stream, per_segment = [ref_a], [[a] for a in ref_a]
    systems = {
        p.name.split(".hyp.")[1][: -len(".en")]: _lines(p)
        for p in sorted((root / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))
    }
    print(f"WMT22 de-en: {len(systems)} systems x {len(ref_a)} segments, reference A; "
          f"{args.reps} repetitions, alternating order")

    variants = {"chrF": 0, "chrF++": 2}

    def ours(hyps, word_order):
        return mtlearn.corpus_chrf(hyps, per_segment, word_order=word_order).score

    def theirs(hyps, word_order):
        return sacrebleu.corpus_chrf(hyps, stream, word_order=word_order).score / 100

    # Cold: the first call of each library in this process, first system.
    first = next(iter(systems.values()))
    mt_cold = _timed(ours, first, 0)
    sb_cold = _timed(theirs, first, 0)
    print(f"cold first call (chrF, {next(iter(systems))}): mtlearn {mt_cold[1] * 1000:.0f} ms wall / "
          f"{mt_cold[2] * 1000:.0f} ms CPU, sacreBLEU {sb_cold[1] * 1000:.0f} ms wall / "
          f"{sb_cold[2] * 1000:.0f} ms CPU; ratio {mt_cold[1] / sb_cold[1]:.3f} wall, "
          f"{mt_cold[2] / sb_cold[2]:.3f} CPU")

    worst = abs(mt_cold[0] - sb_cold[0])
    for label, word_order in variants.items():
        rec: dict[str, list[float]] = {k: []
                                       for k in ("mt_wall", "sb_wall", "mt_cpu", "sb_cpu", "r_wall", "r_cpu")}
        for rep in range(args.reps):
            for index, hyps in enumerate(systems.values()):
                order = [("mt", ours), ("sb", theirs)]
                if (rep + index) % 2:
                    order.reverse()
                got = {key: _timed(fn, hyps, word_order) for key, fn in order}
                worst = max(worst, abs(got["mt"][0] - got["sb"][0]))
                rec["mt_wall"].append(got["mt"][1])
                rec["sb_wall"].append(got["sb"][1])
                rec["mt_cpu"].append(got["mt"][2])
                rec["sb_cpu"].append(got["sb"][2])
                rec["r_wall"].append(got["mt"][1] / got["sb"][1])
                rec["r_cpu"].append(got["mt"][2] / got["sb"][2])
        med = {k: statistics.median(v) for k, v in rec.items()}
        print(f"  {label}: median per system mtlearn {med['mt_wall'] * 1000:.0f} ms, sacreBLEU "
              f"{med['sb_wall'] * 1000:.0f} ms; median ratio mtlearn/sacreBLEU {med['r_wall']:.3f} wall, "
              f"{med['r_cpu']:.3f} CPU ({len(rec['r_wall'])} runs)")
    print(f"largest |mtlearn - sacreBLEU| over all runs: {worst:.3g} (must be <= 1e-12)")
    if worst > 1e-12:
        raise SystemExit("scores disagree")

    # The trace is still there, lazily: full results of 200 segments of a chrF++ corpus result.
    result = mtlearn.corpus_chrf(first, per_segment, word_order=2)
    start = time.perf_counter()
    rows = 0
    for i in range(200):
        segment = result.segments[i]
        rows += sum(len(segment.ngram_table(o.kind, o.n)) for o in segment.orders)
    elapsed = time.perf_counter() - start
    print(f"  per-segment trace on demand: {rows} n-gram table rows of 200 segments in "
          f"{elapsed * 1000:.0f} ms ({elapsed / 200 * 1e3:.2f} ms per segment)")


if __name__ == "__main__":
    main()

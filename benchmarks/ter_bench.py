"""Benchmark: mtlearn's corpus TER against sacreBLEU on every WMT22 de-en system.

One process. Every de-en system (or the first ``--systems N``) is scored against reference A
with ``mtlearn.corpus_ter`` and ``sacrebleu.corpus_ter`` (the calls as a user writes them,
sacreBLEU's defaults: tercom tokenisation, case-insensitive), alternating which goes first, for
``--reps`` repetitions. It checks that the scores agree within 1e-12 (sacreBLEU's number / 100)
and prints the median time per system and the median of the per-call ratios mtlearn / sacreBLEU
(target <= 1.0), for wall-clock and for CPU time (CPU time is the steadier figure on a shared
machine).

The **cold** first pass is timed separately and first of all: the very first call of each library
in this process, on the first system, before any repetition (its score counts in the check).

mtlearn's per-segment trace stays available: after timing, the benchmark builds the full
``segments[i]`` result (shifts, edit script, best reference) of 200 segments of one result.

sacreBLEU's corpus TER takes several seconds per de-en system, so the whole set (9 systems) takes
a minute or two per repetition; ``--systems`` and ``--reps`` make a shorter run.

Usage::

    python benchmarks/ter_bench.py [--wmt22 PATH] [--systems N] [--reps 1]
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
    parser.add_argument("--systems", type=int, default=0,
                        help="score only the first N systems (default: all)")
    parser.add_argument("--reps", type=int, default=1, help="repetitions over the systems (default: 1)")
    args = parser.parse_args()
    if args.systems < 0 or args.reps < 1:
        parser.error("--systems must be >= 0 (0 = all) and --reps >= 1")
    sys.path.insert(0, str(REPO))

    import sacrebleu

    import mtlearn

    root = args.wmt22
    ref_a = _lines(root / "references" / "generaltest2022.de-en.ref.A.en")
    stream, per_segment = [ref_a], [[a] for a in ref_a]
    paths = sorted((root / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))
    systems = {p.name.split(".hyp.")[1][: -len(".en")]: _lines(p) for p in paths}
    if args.systems:
        systems = dict(list(systems.items())[: args.systems])
    print(f"WMT22 de-en: {len(systems)} of {len(paths)} systems x {len(ref_a)} segments, reference A; "
          f"{args.reps} repetition(s), alternating order")

    def ours(hyps):
        return mtlearn.corpus_ter(hyps, per_segment).score

    def theirs(hyps):
        return sacrebleu.corpus_ter(hyps, stream).score / 100

    # Cold: the first call of each library in this process, first system.
    first_name, first = next(iter(systems.items()))
    mt_cold = _timed(ours, first)
    sb_cold = _timed(theirs, first)
    print(f"cold first call ({first_name}): mtlearn {mt_cold[1]:.2f} s wall / {mt_cold[2]:.2f} s CPU, "
          f"sacreBLEU {sb_cold[1]:.2f} s wall / {sb_cold[2]:.2f} s CPU; ratio {mt_cold[1] / sb_cold[1]:.3f} "
          f"wall, {mt_cold[2] / sb_cold[2]:.3f} CPU")

    worst = abs(mt_cold[0] - sb_cold[0])
    rec: dict[str, list[float]] = {k: [] for k in ("mt_wall", "sb_wall", "mt_cpu", "sb_cpu", "r_wall",
                                                   "r_cpu")}
    for rep in range(args.reps):
        for index, (name, hyps) in enumerate(systems.items()):
            order = [("mt", ours), ("sb", theirs)]
            if (rep + index) % 2:
                order.reverse()
            got = {key: _timed(fn, hyps) for key, fn in order}
            worst = max(worst, abs(got["mt"][0] - got["sb"][0]))
            rec["mt_wall"].append(got["mt"][1])
            rec["sb_wall"].append(got["sb"][1])
            rec["mt_cpu"].append(got["mt"][2])
            rec["sb_cpu"].append(got["sb"][2])
            rec["r_wall"].append(got["mt"][1] / got["sb"][1])
            rec["r_cpu"].append(got["mt"][2] / got["sb"][2])
            print(f"  {name}: TER {got['mt'][0]:.6f}; mtlearn {got['mt'][1]:.2f} s, sacreBLEU "
                  f"{got['sb'][1]:.2f} s "
                  f"(ratio {rec['r_wall'][-1]:.3f})", flush=True)
    med = {k: statistics.median(v) for k, v in rec.items()}
    print(f"TER: median per system mtlearn {med['mt_wall']:.2f} s, sacreBLEU "
          f"{med['sb_wall']:.2f} s; median ratio "
          f"mtlearn/sacreBLEU {med['r_wall']:.3f} wall, {med['r_cpu']:.3f} CPU ({len(rec['r_wall'])} runs)")
    print(f"largest |mtlearn - sacreBLEU| over all runs: {worst:.3g} (must be <= 1e-12)")
    if worst > 1e-12:
        raise SystemExit("scores disagree")

    # The trace is still there, lazily: full results of 200 segments of a corpus result.
    result = mtlearn.corpus_ter(first, per_segment)
    start = time.perf_counter()
    shifts = edits = 0
    for i in range(200):
        segment = result.segments[i]
        shifts += len(segment.shifts)
        edits += len(segment.edits)
    elapsed = time.perf_counter() - start
    print(f"  per-segment trace on demand: {shifts} shifts and {edits} script entries of 200 segments in "
          f"{elapsed * 1000:.0f} ms ({elapsed / 200 * 1e3:.2f} ms per segment)")


if __name__ == "__main__":
    main()

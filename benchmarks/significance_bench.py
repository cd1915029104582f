"""Benchmark: mtlearn.paired_test against sacreBLEU's PairedTest on WMT22 de-en (baseline + two systems).

One process. For BLEU and chrF and for both tests (paired bootstrap, 1000 samples; approximate
randomization, 10000 trials) the baseline Online-A and the systems Online-B and PROMT are compared
against reference A with ``mtlearn.paired_test`` and with sacreBLEU's ``PairedTest`` (what
``sacrebleu --paired-bs`` / ``--paired-ar`` run), alternating which goes first, ``--reps`` times.
Every run checks that the p-values are equal. It prints the median seconds of each and the median
of the per-run ratios mtlearn / sacreBLEU, wall-clock and CPU. Both times include scoring the
systems (tokenizing, counting); the line "test alone" times ``paired_test_from_stats`` on statistics
computed beforehand, i.e. the resampling itself. METEOR (no sacreBLEU twin) is timed alone.

The **cold** first pass (the very first call of each library in this process) is timed first.

Usage::

    python benchmarks/significance_bench.py [--wmt22 PATH] [--reps 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SYSTEMS = ("Online-A", "Online-B", "PROMT")


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [line.rstrip() for line in (text[:-1] if text.endswith("\n") else text).split("\n")]


def _timed(fn, *args, **kwargs):
    """(result, wall seconds, CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wmt22", type=Path,
                        default=Path(os.environ.get("MTLEARN_WMT22",
                                                    REPO.parent / "shared" / "data" / "wmt22")))
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))

    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    import mtlearn
    from mtlearn.study.significance import paired_test_from_stats, resampling_scorer, segment_statistics

    root = args.wmt22
    ref = _lines(root / "references" / "generaltest2022.de-en.ref.A.en")
    refs = [[r] for r in ref]
    hyps = {s: _lines(root / "system-outputs" / f"generaltest2022.de-en.hyp.{s}.en") for s in SYSTEMS}
    print(f"WMT22 de-en, reference A, {len(ref)} segments: baseline {SYSTEMS[0]} against "
          f"{', '.join(SYSTEMS[1:])}; "
          f"{args.reps} repetitions, alternating order")

    def ours(metric, test):
        return [s.p_value for s in mtlearn.paired_test(hyps, refs, metric=metric, test=test).systems]

    def theirs(metric, test):
        scorer = BLEU() if metric == "bleu" else CHRF()
        _, scores = PairedTest(list(hyps.items()), {"m": scorer}, [ref], test_type=test)()
        return [r.p_value for r in next(v for k, v in scores.items() if k != "System")]

    mt_cold, sb_cold = _timed(ours, "bleu", "bs"), _timed(theirs, "bleu", "bs")
    print(f"cold first call (BLEU, bootstrap): mtlearn {mt_cold[1]:.2f} s, sacreBLEU {sb_cold[1]:.2f} s "
          f"(ratio {mt_cold[1] / sb_cold[1]:.3f})")
    if mt_cold[0] != sb_cold[0]:
        raise SystemExit("p-values disagree")

    for metric in ("bleu", "chrf"):
        for test in ("bs", "ar"):
            rec: dict[str, list[float]] = {k: [] for k in ("mt", "sb", "r_wall", "r_cpu")}
            for rep in range(args.reps):
                order = [("mt", ours), ("sb", theirs)]
                if rep % 2:
                    order.reverse()
                got = {key: _timed(fn, metric, test) for key, fn in order}
                if got["mt"][0] != got["sb"][0]:
                    raise SystemExit(f"p-values disagree: {metric} {test}: {got['mt'][0]} vs {got['sb'][0]}")
                rec["mt"].append(got["mt"][1])
                rec["sb"].append(got["sb"][1])
                rec["r_wall"].append(got["mt"][1] / got["sb"][1])
                rec["r_cpu"].append(got["mt"][2] / got["sb"][2])
            med = {k: statistics.median(v) for k, v in rec.items()}
            print(f"  {metric:5} {test}: mtlearn {med['mt']:.2f} s, sacreBLEU "
                  f"{med['sb']:.2f} s; median ratio "
                  f"{med['r_wall']:.3f} wall, {med['r_cpu']:.3f} CPU; p-values equal: {got['mt'][0][1:]}")

    options = {"bleu": {"tokenize": "13a", "smoothing": "exp"}, "chrf": {}}
    corpus = {"bleu": mtlearn.corpus_bleu, "chrf": mtlearn.corpus_chrf}
    for metric in ("bleu", "chrf"):
        stats = {s: segment_statistics(corpus[metric](h, refs, **options[metric])) for s, h in hyps.items()}
        score = resampling_scorer(metric, **options[metric])
        for test in ("bs", "ar"):
            _, wall, _cpu = _timed(paired_test_from_stats, stats, score, test=test)
            print(f"  test alone ({metric}, {test}, statistics given): {wall:.2f} s for "
                  f"{len(SYSTEMS) - 1} systems")

    meteor = _timed(mtlearn.paired_test, hyps, refs, metric="meteor", test="ar")
    print(f"  METEOR ar (scoring included): {meteor[1]:.2f} s; p-values "
          f"{[s.p_value for s in meteor[0].systems[1:]]}")


if __name__ == "__main__":
    main()

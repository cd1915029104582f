"""Benchmark: BLEU of ONE very long line, mtlearn against sacreBLEU (issue 15: it was quadratic).

One process. Two inputs, each a single hypothesis line against a single reference line:

- **80k tokens**: 80,000 tokens drawn at random from a 50-word vocabulary (every n-gram of low
  order repeats, the case that made ``_repeated_credit``'s ``list.count`` quadratic);
- **1 MB line**: WMT22 de-en system outputs (the first systems in turn) against reference A
  (repeated once per system taken), each joined into one line and cut at 1,000,000 characters
  (at a word boundary). Without ``../shared`` a 1 MB line of
  random words from a 2,000-word vocabulary stands in (said in the output).

Both libraries tokenize the same way (mtlearn ``whitespace``, sacreBLEU ``none``: both are
``str.split``), so the timing is the counting. The calls are as a user writes them:
``mtlearn.corpus_bleu([hyp], [[ref]])`` and ``sacrebleu.corpus_bleu([hyp], [[ref]])``.

The **cold** first pass is timed first of all: the very first call of each library in this process,
on the first input. Then, per input, ``--reps`` repetitions alternating which library goes first;
printed: median wall and CPU time of each, and the median of the per-repetition ratios
mtlearn / sacreBLEU. The scores must agree within 1e-12.

Usage::

    python benchmarks/bleu_longline_bench.py [--wmt22 PATH] [--reps 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _timed(fn, *args) -> tuple[float, float, float]:
    """(result, wall seconds, CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn(*args)
    return value, time.perf_counter() - wall, time.process_time() - cpu


def _cut(text: str, size: int) -> str:
    """``text`` cut to at most ``size`` characters, at a space."""
    return text if len(text) <= size else text[:size].rsplit(" ", 1)[0]


def _inputs(wmt22: Path) -> dict[str, tuple[str, str]]:
    rng = random.Random(15)
    small = [f"w{i}" for i in range(50)]
    inputs = {
        "80k tokens (50-word vocabulary)": (
            " ".join(rng.choice(small) for _ in range(80_000)),
            " ".join(rng.choice(small) for _ in range(80_000)),
        )
    }
    ref_path = wmt22 / "references" / "generaltest2022.de-en.ref.A.en"
    systems = sorted((wmt22 / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))
    if ref_path.is_file() and systems:
        def words(path: Path) -> str:
            return " ".join(path.read_text(encoding="utf-8").split())

        # One system is ~180 kB: take the systems in turn, the reference once per system taken.
        hyps, refs = [], []
        while sum(map(len, hyps)) < 1_000_000:
            hyps.append(words(systems[len(hyps) % len(systems)]))
            refs.append(words(ref_path))
        inputs[f"1 MB line (WMT22 de-en: {len(hyps)} systems' outputs vs reference A, each joined)"] = (
            _cut(" ".join(hyps), 1_000_000), _cut(" ".join(refs), 1_000_000))
    else:
        big = [f"v{i}" for i in range(2000)]
        words = [rng.choice(big) for _ in range(200_000)]
        words2 = [rng.choice(big) for _ in range(200_000)]
        inputs["1 MB line (random words; ../shared absent)"] = (
            _cut(" ".join(words), 1_000_000), _cut(" ".join(words2), 1_000_000))
    return inputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wmt22", type=Path,
                        default=Path(os.environ.get("MTLEARN_WMT22",
                                                    REPO.parent / "shared" / "data" / "wmt22")))
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))

    import sacrebleu

    import mtlearn

    def ours(hyp: str, ref: str) -> float:
        return mtlearn.corpus_bleu([hyp], [[ref]]).score

    def theirs(hyp: str, ref: str) -> float:
        return sacrebleu.corpus_bleu([hyp], [[ref]], tokenize="none").score / 100

    inputs = _inputs(args.wmt22)
    for label, (hyp, ref) in inputs.items():
        print(f"{label}: hypothesis {len(hyp.split()):,} tokens / {len(hyp):,} characters, "
              f"reference {len(ref.split()):,} tokens")
    print(f"{args.reps} repetitions per input, alternating which library goes first")

    first_label, (hyp, ref) = next(iter(inputs.items()))
    mt_cold = _timed(ours, hyp, ref)
    sb_cold = _timed(theirs, hyp, ref)
    print(f"cold first call ({first_label}): mtlearn {mt_cold[1]:.3f} s wall / {mt_cold[2]:.3f} s CPU, "
          f"sacreBLEU {sb_cold[1]:.3f} s wall / {sb_cold[2]:.3f} s CPU; ratio {mt_cold[1] / sb_cold[1]:.3f} "
          f"wall, {mt_cold[2] / sb_cold[2]:.3f} CPU")
    worst = abs(mt_cold[0] - sb_cold[0])

    for label, (hyp, ref) in inputs.items():
        rec: dict[str, list[float]] = {k: []
                                       for k in ("mt_wall", "sb_wall", "mt_cpu", "sb_cpu", "r_wall", "r_cpu")}
        for rep in range(args.reps):
            order = [("mt", ours), ("sb", theirs)]
            if rep % 2:
                order.reverse()
            got = {key: _timed(fn, hyp, ref) for key, fn in order}
            worst = max(worst, abs(got["mt"][0] - got["sb"][0]))
            for side in ("mt", "sb"):
                rec[f"{side}_wall"].append(got[side][1])
                rec[f"{side}_cpu"].append(got[side][2])
            rec["r_wall"].append(got["mt"][1] / got["sb"][1])
            rec["r_cpu"].append(got["mt"][2] / got["sb"][2])
        med = {k: statistics.median(v) for k, v in rec.items()}
        print(f"  {label}: median mtlearn {med['mt_wall']:.3f} s ({med['mt_cpu']:.3f} s CPU), sacreBLEU "
              f"{med['sb_wall']:.3f} s ({med['sb_cpu']:.3f} s CPU); median ratio mtlearn/sacreBLEU "
              f"{med['r_wall']:.3f} wall, {med['r_cpu']:.3f} CPU")
    print(f"largest |mtlearn - sacreBLEU| over all runs: {worst:.3g} (must be <= 1e-12)")
    if worst > 1e-12:
        raise SystemExit("scores disagree")


if __name__ == "__main__":
    main()

"""Benchmark: BERTScore's numpy encoder on one core, one sentence at a time and batched.

One process, one BLAS thread (OMP/OPENBLAS/MKL_NUM_THREADS=1 are set before numpy is imported). The
first 200 WMT22 de-en reference sentences (reference A) are cut into WordPiece ids as bert-score does
(``[CLS]`` + at most 510 pieces + ``[SEP]``), then encoded to all 7 layers by

- ``encode()``, one sentence after the other (what a student reads), and
- ``encode_batch()`` (mtlearn/metrics/bertscore/fast.py: chunks of 32 sorted by length, padded, masked).

The reference stack (PyTorch) is not a dependency, so the anchor, measured in the same run, is numpy
itself: a plain float32 matrix product of the same number of floating-point operations as the encoder's
work on these sentences (its linear layers and attention products, padding excluded). The ratios printed
are each way's time over the anchor's (how far from raw BLAS speed), and encode / encode_batch.

The **cold** first pass is timed separately and first of all: reading the model from the wheel
(``load_encoder()``), then the first pass of each way. Then ``--reps`` repetitions, each way in turn; the
medians are printed, with wall-clock and CPU time. Peak memory: tracemalloc's peak of one pass of each way
(numpy's arrays included), and the process's maximum resident size at the end.

Usage::

    python benchmarks/bertscore_bench.py [--wmt22 PATH] [--reps 3] [--sentences 200]
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"  # one core: before numpy is imported

import argparse  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
REFERENCE = "references/generaltest2022.de-en.ref.A.en"


def _timed(fn, *args) -> tuple[object, float, float]:
    """(result, wall seconds, CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn(*args)
    return value, time.perf_counter() - wall, time.process_time() - cpu


def _peak(fn, *args) -> int:
    """tracemalloc's peak (bytes) during one call."""
    tracemalloc.start()
    fn(*args)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def encoder_flops(lengths: list[int], width: int = 384, hidden: int = 1536, layers: int = 6) -> int:
    """Multiply-adds x 2 of the encoder on inputs of these lengths: Q, K, V, output and the two
    feed-forward matrices per token, and the two attention products (scores, mixing) per token pair."""
    per_token = 2 * (4 * width * width + 2 * width * hidden)
    return layers * sum(per_token * n + 2 * 2 * n * n * width for n in lengths)


def anchor_workload(flops: int):
    """A plain float32 matrix product of (about) ``flops`` operations: 1024x384 by 384x1536, repeated."""
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.standard_normal((1024, 384), dtype=np.float32)
    b = rng.standard_normal((384, 1536), dtype=np.float32)
    repeats = max(1, round(flops / (2 * 1024 * 384 * 1536)))

    def run() -> None:
        for _ in range(repeats):
            a @ b

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = Path(os.environ.get("MTLEARN_WMT22", REPO.parent / "shared" / "data" / "wmt22"))
    parser.add_argument("--wmt22", type=Path, default=default)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=200)
    args = parser.parse_args()
    path = args.wmt22 / REFERENCE
    if not path.is_file():
        sys.exit(f"WMT22 data not found: {path} is absent (pass --wmt22 or set MTLEARN_WMT22); nothing "
                 "measured")
    sys.path.insert(0, str(REPO))

    from mtlearn.metrics.bertscore.encoder import encode, load_encoder
    from mtlearn.metrics.bertscore.fast import encode_batch
    from mtlearn.metrics.bertscore.model import MissingModelError
    from mtlearn.metrics.bertscore.wordpiece import wordpiece

    try:
        encoder, load_wall, load_cpu = _timed(load_encoder)
    except MissingModelError as error:
        sys.exit(str(error))
    sentences = path.read_text(encoding="utf-8").splitlines()[: args.sentences]
    vocab = encoder.vocab
    id_lists = [[vocab["[CLS]"], *[vocab[p] for p in wordpiece(s.strip(), vocab)][:510], vocab["[SEP]"]]
                for s in sentences]
    lengths = [len(ids) for ids in id_lists]
    anchor = anchor_workload(encoder_flops(lengths))

    def one_by_one() -> None:
        for ids in id_lists:
            encode(ids, encoder)

    def batched() -> None:
        encode_batch(id_lists, encoder)

    ways = {"anchor (numpy matmul, same FLOPs)": anchor, "encode() one at a time": one_by_one,
            "encode_batch() chunks of 32": batched}
    print(f"{len(id_lists)} sentences of {path.name}: {sum(lengths)} tokens, {min(lengths)}..{max(lengths)} "
          f"per sentence (median {statistics.median(lengths)}); {encoder_flops(lengths) / 1e9:.2f} GFLOP")
    print(f"cold: load_encoder() {load_wall:.2f} s wall, {load_cpu:.2f} s CPU")
    cold = {name: _timed(fn)[1:] for name, fn in ways.items()}
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in ways}
    for _ in range(args.reps):
        for name, fn in ways.items():
            runs[name].append(_timed(fn)[1:])
    base = statistics.median(w for w, _ in runs["anchor (numpy matmul, same FLOPs)"])
    print(f"{'':36} {'cold s':>8} {'median s':>9} {'CPU s':>7} {'sent/s':>7} {'x anchor':>9}")
    for name in ways:
        wall = statistics.median(w for w, _ in runs[name])
        cpu = statistics.median(c for _, c in runs[name])
        print(f"{name:36} {cold[name][0]:8.2f} {wall:9.2f} {cpu:7.2f} {len(id_lists) / wall:7.1f} "
              f"{wall / base:9.2f}")
    one = statistics.median(w for w, _ in runs["encode() one at a time"])
    batch = statistics.median(w for w, _ in runs["encode_batch() chunks of 32"])
    print(f"encode / encode_batch: {one / batch:.2f} (median of {args.reps} repetitions)")
    print(f"peak traced memory: encode() {_peak(one_by_one) / 2**20:.0f} MiB, "
          f"encode_batch() {_peak(batched) / 2**20:.0f} MiB; "
          f"max resident size {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()

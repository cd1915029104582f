"""Train COMET-mini on expert MQM judgements and test it on held-out systems and segments.

Reads Google's MQM annotations of the WMT21 TED talks, Chinese → English (``../shared/data/mqm_ted_zhen``)
and writes *derived numbers only* (never a sentence)::

    python studies/train_comet_mini.py ../shared/data/mqm_ted_zhen [--reuse-vectors]

1. ``mtlearn/study/data/mqm_ted_zhen/minilm_embeddings.npz`` — the sentence vector (float16) of every
   rated translation of the 15 "systems" (13 MT systems, references ``ref`` and ``refB``) on the 529 segments,
   keyed by system and seg_id, with the MQM scores;
   ``baseline_scores.npz`` — sentence BLEU, chrF and BERTScore-mini F1 of each translation against ``ref``,
   and BLEU's and chrF's segment statistics (for corpus scores of any subset of segments);
2. ``mtlearn/metrics/comet_mini/weights.npz`` and ``weights.json`` — the ridge regression trained on the
   training cell (seeded split, alpha by cross-validation), with its provenance;
3. ``mtlearn/study/data/mqm_ted_zhen/comet_mini.csv`` — the evaluation on the held-out cells: segment-level
   Kendall tau (groupings none and item) and system-level pairwise accuracy, with bootstrap intervals, for
   COMET-mini, BLEU, chrF and BERTScore-mini.

Deterministic: seeded splits, folds and bootstrap draws; 6 decimals. Step 1 takes a few minutes (one encoder
pass per distinct text); ``--reuse-vectors`` skips it and reads the shipped files.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

# Before numpy loads: the encoder's products are small (tens of tokens x 384), and OpenBLAS's threads spin
# against each other on a busy machine (measured here: 26 ms a sentence on one thread, 263 ms on two).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mtlearn.metrics.bertscore.embed import Embedded, tokens_of  # noqa: E402
from mtlearn.metrics.bertscore.encoder import encode, load_encoder  # noqa: E402
from mtlearn.metrics.bertscore.options import DEFAULTS as BERTSCORE  # noqa: E402
from mtlearn.metrics.bertscore.score import compare  # noqa: E402
from mtlearn.metrics.comet_mini.embed import LAYER, MAX_TOKENS  # noqa: E402
from mtlearn.metrics.comet_mini.formulas import sentence_embedding  # noqa: E402
from mtlearn.study.comet_mini import BASELINES, DATA, EMBEDDINGS, REFERENCE, SEED, load_vectors, retrain  # noqa: E402
from mtlearn.study.metric_scores import metric, score_system  # noqa: E402
from mtlearn.study.mqm import MqmData, read_mqm  # noqa: E402


def _encode_text(text: str, encoder) -> tuple[np.ndarray, Embedded]:
    """The sentence vector (256 positions, layer 6) and BERTScore's Embedded (512 positions, its layer)."""
    tokens, ids, cut = tokens_of(text, encoder.vocab, encoder.max_positions)
    states = encode(list(ids), encoder)
    if len(tokens) > MAX_TOKENS:  # sentence-transformers cuts at 256: encode the cut input again
        _, short, _ = tokens_of(text, encoder.vocab, MAX_TOKENS)
        pooled = sentence_embedding(encode(list(short), encoder)[LAYER])
    else:
        pooled = sentence_embedding(states[LAYER])
    layer = BERTSCORE.layer
    return pooled, Embedded(text, tokens, ids, layer, states[layer], cut)


def embed_everything(data: MqmData) -> tuple[np.ndarray, np.ndarray]:
    """Every translation's sentence vector, and its BERTScore-mini F1 against ``ref``, segment by segment."""
    encoder = load_encoder()
    systems, seg_ids = data.systems, data.seg_ids
    vectors = np.zeros((len(systems), len(seg_ids), 384), dtype=np.float32)
    f1 = np.zeros((len(systems), len(seg_ids)), dtype=np.float64)
    start = time.monotonic()
    for i, seg in enumerate(seg_ids):
        done: dict[str, tuple[np.ndarray, Embedded]] = {}
        for text in {data.item(s, seg).target for s in systems}:
            done[text] = _encode_text(text, encoder)
        ref = done[data.item(REFERENCE, seg).target][1]
        for k, s in enumerate(systems):
            vector, embedded = done[data.item(s, seg).target]
            vectors[k, i] = vector
            f1[k, i] = compare(embedded, ref, None).f1
        sys.stderr.write(f"\rembedding segment {i + 1}/{len(seg_ids)} {time.monotonic() - start:6.1f}s")
    sys.stderr.write("\n")
    return vectors, f1


def baseline_arrays(data: MqmData) -> dict[str, np.ndarray]:
    """Sentence BLEU and chrF of every translation against ``ref``, with their segment statistics."""
    refs = [[r] for r in data.texts(REFERENCE)]
    out: dict[str, np.ndarray] = {}
    for name in ("bleu", "chrf"):
        scored = [score_system(metric(name), data.texts(s), refs) for s in data.systems]
        out[name] = np.array([s.sentence for s in scored], dtype=np.float64)
        out[f"{name}_stats"] = np.stack([s.stats for s in scored]).astype(np.int64)
    return out


def write_vectors(data: MqmData) -> None:
    start = time.monotonic()
    vectors, f1 = embed_everything(data)
    print(f"embedded {vectors.shape[0] * vectors.shape[1]} translations in {time.monotonic() - start:.0f} s")
    common = {"systems": np.array(data.systems), "seg_ids": np.array(data.seg_ids, dtype=np.int32)}
    mqm = np.array([[float(v) for v in data.scores(s)] for s in data.systems], dtype=np.float64)
    np.savez_compressed(EMBEDDINGS, **common, vectors=vectors.astype(np.float16), mqm=mqm,
                        mt_systems=np.array(data.mt_systems))
    np.savez_compressed(BASELINES, **common, bertscore=f1, **baseline_arrays(data))
    for path in (EMBEDDINGS, BASELINES):
        print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size / 1e6:.2f} MB)")


def provenance(model, command: str, took: float) -> dict:
    """What weights.json records: the data, the split, the alpha and how it was chosen, the seed, the
    command."""
    split = model.split
    return {"data": "Google's expert MQM of the WMT21 TED talks, Chinese-English "
                    "(google/wmt-mqm-human-evaluation ted/zhen, mqm_ted_zhen.tsv), scores as "
                    "mtlearn.study.mqm computes them",
            "target": "MQM score of a translation (0 = no error, higher is better)",
            "reference": REFERENCE,
            "features": "[h; r; h*r; |h-r|], h and r mean-pooled layer-6 all-MiniLM-L6-v2 vectors scaled "
                        "to length 1",
            "seed": split.seed, "train_systems": list(split.train_systems),
            "test_systems": list(split.test_systems),
            "n_train_segments": len(split.train_segments), "n_test_segments": len(split.test_segments),
            "n_train": model.n_train, "alpha": model.fit.alpha,
            "cv_mean_squared_error": {f"{a:g}": round(e, 6) for a, e in model.cv_errors.items()},
            "date": datetime.date.today().isoformat(), "command": command, "training_seconds": round(took, 1)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the folder holding mqm_ted_zhen.tsv")
    parser.add_argument("--reuse-vectors", action="store_true", help="read the shipped vectors, do not embed")
    args = parser.parse_args(argv)
    if not args.reuse_vectors:
        write_vectors(read_mqm(args.data / "mqm_ted_zhen.tsv"))
    # Here, not at the top: step 1 needs neither (and ran while they were written).
    from mtlearn.metrics.comet_mini.weights import WEIGHTS, save_weights
    from mtlearn.study.comet_mini_eval import evaluate, load_baselines, write_table

    vectors = load_vectors()
    start = time.monotonic()
    model = retrain(vectors, seed=SEED)
    took = time.monotonic() - start
    command = "python studies/train_comet_mini.py " + " ".join(argv if argv is not None else sys.argv[1:])
    save_weights(WEIGHTS, model.fit.weights, model.fit.bias, provenance(model, command, took))
    print(f"trained on {model.n_train} translations in {took:.1f} s: alpha {model.fit.alpha:g}; wrote "
          f"{WEIGHTS.relative_to(REPO)} ({WEIGHTS.stat().st_size / 1e3:.1f} kB)")
    rows = evaluate(vectors, load_baselines(), model)
    path = write_table(DATA / "comet_mini.csv", rows)
    print(f"wrote {path.relative_to(REPO)} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

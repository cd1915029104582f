"""Do the learned miniatures agree with people? BERTScore-mini and COMET-mini join the WMT22 study

Reads a WMT22 folder laid out like ``../shared/data/wmt22`` and writes *derived figures only* into
``--out`` (default ``mtlearn/study/data/wmt22_agreement``), beside the tables of
``studies/wmt22_agreement.py``, which it never rewrites::

    python studies/wmt22_learned.py ../shared/data/wmt22 [--out DIR] [--workers 1]

- ``learned_scores.csv``: every MT system with an output, per into-English pair: BERTScore-mini F1 (corpus
  mean, mtlearn's default settings) and COMET-mini (corpus mean) against the pair's first reference (the
  reference the shipped tables use for WMT's COMET:
  ``mtlearn.study.agreement.default_reference(pair, "comet")``).
- ``learned_correlations.csv``: per pair, metric and reference, Pearson, Spearman and Kendall (tau-b) with the
  official human z over the MT systems with an output and a human score, with the shipped tables' bootstrap
  (1000 resamples, seed 2022); and pairwise accuracy per pair and pooled over all pairs (seed 2021). BLEU,
  chrF and WMT's COMET are read from the shipped ``reference_scores.csv`` (the same reference) and
  ``systems.csv`` (``all`` references), for the same systems.
- ``learned_settings.json``: settings, counts, input hashes.

Cost: one encoder pass per distinct (segment, text) (~105k sentences, ~30-50 ms each on one core): both
metrics come from that pass (BERTScore: layer 3 token vectors, 512 positions; COMET-mini: layer 6 mean-pooled,
256 positions -- a text longer than 254 WordPieces is encoded a second time, cut as sentence-transformers cuts
it). Segments that share a text are scored in the same job, so every distinct text is encoded once per run.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # tiny products: one BLAS thread (see bertscore/embed.py)

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mtlearn.metrics.bertscore.embed import Embedded, one_blas_thread, tokens_of  # noqa: E402
from mtlearn.metrics.bertscore.encoder import encode, load_encoder  # noqa: E402
from mtlearn.metrics.bertscore.options import DEFAULTS as BERTSCORE  # noqa: E402
from mtlearn.metrics.bertscore.score import bertscore_from_stats, compare  # noqa: E402
from mtlearn.metrics.bertscore.stats import BertScoreStats, sum_stats  # noqa: E402
from mtlearn.metrics.comet_mini.embed import LAYER, MAX_TOKENS, SentenceVector  # noqa: E402
from mtlearn.metrics.comet_mini.formulas import mean_pool, normalize  # noqa: E402
from mtlearn.metrics.comet_mini.score import comet_mini_from_vectors  # noqa: E402
from mtlearn.metrics.comet_mini.weights import load_weights  # noqa: E402
from mtlearn.study.agreement import default_reference, load_agreement  # noqa: E402
from mtlearn.study.agreement.learned import (  # noqa: E402
    LEARNED_FILES,
    learned_correlation_rows,
    read_learned_scores,
)


def _agreement_study():
    """studies/wmt22_agreement.py as a module: its readers, CSV writer and progress bar are reused."""
    spec = importlib.util.spec_from_file_location("wmt22_agreement", REPO / "studies" / "wmt22_agreement.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


STUDY = _agreement_study()
DEFAULT_OUT = STUDY.DEFAULT_OUT


@dataclass(frozen=True)
class Segment:
    """One segment of one pair: its reference and the distinct outputs of its systems."""

    pair: str
    index: int
    reference: str
    outputs: tuple[tuple[str, str], ...]  # (system, output), systems in name order


# ----------------------------------------------------------------------------- encoding (in the workers)


def _vectors(text: str, encoder) -> tuple[Embedded, SentenceVector, int]:
    """One encoder pass: BERTScore's layer-3 vectors and COMET-mini's sentence vector (and encoder passes)."""
    tokens, ids, cut = tokens_of(text, encoder.vocab, encoder.max_positions)
    states = encode(list(ids), encoder)
    passes = 1
    short_tokens, short_cut, pooled_states = tokens, 0, states[LAYER]
    if len(tokens) > MAX_TOKENS:  # sentence-transformers cuts at 256 positions: encode the cut input again
        short_tokens, short_ids, short_cut = tokens_of(text, encoder.vocab, MAX_TOKENS)
        pooled_states = encode(list(short_ids), encoder)[LAYER]
        passes = 2
    pooled = mean_pool(pooled_states)
    sentence = SentenceVector(text, short_tokens, float(np.linalg.norm(pooled)), normalize(pooled), short_cut,
                              sum(t == "[UNK]" for t in short_tokens))
    return Embedded(text, tokens, ids, BERTSCORE.layer, states[BERTSCORE.layer], cut), sentence, passes


def score_job(segments: Sequence[Segment]) -> tuple[list[tuple], dict[str, int]]:
    """Every (pair, system, segment)'s BERTScore P, R, F1 and COMET-mini; each distinct text encoded once."""
    encoder, weights = load_encoder(), load_weights()
    cache: dict[str, tuple[Embedded, SentenceVector, int]] = {}
    counts = {"texts": 0, "passes": 0, "cut_256": 0, "cut_512": 0}

    def vectors(text: str):
        if text not in cache:
            cache[text] = _vectors(text, encoder)
            counts["texts"] += 1
            counts["passes"] += cache[text][2]
            counts["cut_256"] += cache[text][1].truncated > 0
            counts["cut_512"] += cache[text][0].truncated > 0
        return cache[text]

    rows = []
    with one_blas_thread():  # also where numpy was imported before OPENBLAS_NUM_THREADS was set (a test)
        for seg in segments:
            ref_emb, ref_vec, _ = vectors(seg.reference)
            for system, hyp in seg.outputs:
                hyp_emb, hyp_vec, _ = vectors(hyp)
                c = compare(hyp_emb, ref_emb, None)
                comet = comet_mini_from_vectors(hyp_vec, ref_vec, weights).score
                rows.append((seg.pair, system, seg.index, c.precision, c.recall, c.f1, comet))
    return rows, counts


# ----------------------------------------------------------------------------- planning (main process)


def _groups(segments: list[Segment]) -> list[list[Segment]]:
    """Segments joined when they share a text (union-find), so a text is encoded in one job only."""
    parent = list(range(len(segments)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for k, seg in enumerate(segments):
        for text in (seg.reference, *(h for _s, h in seg.outputs)):
            j = first.setdefault(text, k)
            a, b = find(j), find(k)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[Segment]] = {}
    for k, seg in enumerate(segments):
        groups.setdefault(find(k), []).append(seg)
    return [groups[key] for key in sorted(groups)]


def first_reference(d) -> str:
    """The pair's first reference id: the one the shipped tables use for WMT's COMET (default_reference)."""
    ref = d.reference_ids[0]
    if d.pair in load_agreement().pairs and ref != default_reference(d.pair, "comet"):
        raise ValueError(f"path: {d.pair}'s first reference is {ref}, the shipped tables' "
                         f"{default_reference(d.pair, 'comet')}")
    return ref


def plan(data, chunk: int = 40) -> list[list[Segment]]:
    """Jobs of about ``chunk`` segments each, groups of segments sharing a text never split."""
    segments = []
    for d in data:
        k = d.reference_ids.index(first_reference(d))
        for i in range(d.n_segments):
            outputs = tuple((s, d.outputs[s][i]) for s in sorted(d.outputs))
            segments.append(Segment(d.pair, i, d.references[k][i], outputs))
    jobs: list[list[Segment]] = [[]]
    for group in _groups(segments):
        if len(jobs[-1]) >= chunk:
            jobs.append([])
        jobs[-1].extend(group)
    return [j for j in jobs if j]


def _job_size(job: Sequence[Segment]) -> int:
    return len({t for s in job for t in (s.reference, *(h for _n, h in s.outputs))})


def system_scores(data, results) -> list[list]:
    """learned_scores.csv's rows: corpus means per system, segments added in line order."""
    per: dict[tuple[str, str], list[tuple]] = {}
    for rows, _counts in results:
        for pair, system, index, p, r, f, comet in rows:
            per.setdefault((pair, system), []).append((index, p, r, f, comet))
    table = []
    for d in data:
        ref = first_reference(d)
        for system in sorted(d.outputs):
            segs = sorted(per[(d.pair, system)])
            if [s[0] for s in segs] != list(range(d.n_segments)):
                raise RuntimeError(f"{d.pair} {system}: segments missing from the jobs' results")
            stats = sum_stats(BertScoreStats(p, r, f, 1) for _i, p, r, f, _c in segs)
            bert = bertscore_from_stats(stats, layer=BERTSCORE.layer, idf=BERTSCORE.idf,
                                        rescale=BERTSCORE.rescale)
            comet = float(np.mean([c for *_rest, c in segs]))
            table.append([d.pair, system, ref, bert.f1, comet, d.n_segments])
    return table


def run(root: Path, out: Path, workers: int = 1, pairs: Sequence[str] | None = None) -> tuple[float, dict]:
    """Score, correlate, write; returns the seconds it took and the encoder counts."""
    start = time.monotonic()
    available = STUDY.discover_pairs(Path(root))
    if not available:
        raise ValueError(f"path: no WMT22 pair with references and human scores under {root}")
    for p in pairs or ():
        if p not in available:
            raise ValueError(f"pairs: {p!r} is not in {root}; choose from {', '.join(available)}")
    data = [STUDY.load_pair(Path(root), p) for p in sorted(pairs or available)]
    jobs = plan(data)
    sizes = [_job_size(j) for j in jobs]
    progress = STUDY.Progress(sum(sizes), "encode")
    results = STUDY._run(score_job, jobs, workers, progress, sizes)
    progress.close()
    counts = {k: sum(c[k] for _r, c in results) for k in results[0][1]}
    scores = system_scores(data, results)
    out.mkdir(parents=True, exist_ok=True)
    score_header = ["pair", "system", "reference", "bertscore", "comet_mini", "segments"]
    STUDY.write_csv(out / LEARNED_FILES["scores"], score_header, scores)
    # The correlations read the scores as written (6 decimals), so they recompute from the shipped CSV alone.
    written = read_learned_scores((out / LEARNED_FILES["scores"]).read_text(encoding="utf-8"))
    header, rows = learned_correlation_rows(written, load_agreement())
    STUDY.write_csv(out / LEARNED_FILES["correlations"], header, rows)
    write_settings(out, data, counts)
    return time.monotonic() - start, counts


def write_settings(out: Path, data, counts: dict) -> None:
    weights = load_weights()
    settings = {
        "command": "python studies/wmt22_learned.py PATH_TO_WMT22 --out mtlearn/study/data/wmt22_agreement",
        "pairs": [d.pair for d in data],
        "reference": {d.pair: first_reference(d) for d in data},
        "bertscore": {"layer": BERTSCORE.layer, "idf": BERTSCORE.idf, "rescale": BERTSCORE.rescale,
                      "corpus": "mean of segment F1 (bertscore_from_stats)", "max_positions": 512},
        "comet_mini": {"weights_digest": weights.digest, "layer": LAYER, "max_positions": MAX_TOKENS,
                       "corpus": "mean of segment scores"},
        "encoder": {"distinct_texts": counts["texts"], "passes": counts["passes"],
                    "texts_cut_at_256": counts["cut_256"], "texts_cut_at_512": counts["cut_512"]},
        "system_level_ci": {**STUDY.SYSTEM_CI, "statistics": ["pearson", "spearman", "kendall (tau-b)"],
                            "human_score": "z", "systems": "MT systems with an output and a human score"},
        "pairwise_accuracy": {**STUDY.ACCURACY_CI, "pooled": "all pairs, each against its first reference"},
        "comparison": "bleu, chrf and WMT's comet from the shipped reference_scores.csv (the same reference) "
                      "and "
                      "bleu, chrf from systems.csv (reference 'all'), for the same systems",
        "float_format": STUDY.FLOAT,
        "inputs_sha256": {str(f.relative_to(root_of(data))): hashlib.sha256(f.read_bytes()).hexdigest()
                          for d in data for f in d.files if ".hyp." in f.name or ".ref." in f.name},
    }
    (out / LEARNED_FILES["settings"]).write_text(json.dumps(settings, indent=2, sort_keys=True) + "\n",
                                                 encoding="utf-8")


def root_of(data) -> Path:
    """The WMT22 folder (two levels above any reference file)."""
    return data[0].files[0].parent.parent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path", type=Path, help="a WMT22 folder laid out like ../shared/data/wmt22")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"output folder (default {DEFAULT_OUT})")
    parser.add_argument("--workers", type=int, default=1, help="processes for encoding (default 1)")
    parser.add_argument("--pairs", nargs="*", help="only these pairs (default: all found)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers: expected a positive integer")
    try:
        seconds, counts = run(args.path, args.out, args.workers, args.pairs)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"encoded {counts['texts']} texts ({counts['passes']} passes); wrote "
          f"{', '.join(LEARNED_FILES.values())} "
          f"to {args.out} in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

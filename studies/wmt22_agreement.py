"""Do BLEU and METEOR agree with people?  The Spanish Wikipedia article's correlation claim, checked on WMT22.

Reads a WMT22 folder laid out like ``../shared/data/wmt22`` (see its README) and
writes small CSV tables of *derived figures only* (scores, correlations, counts;
never a source sentence, reference or system output) into ``--out``
(default: ``mtlearn/study/data/wmt22_agreement`` of this repository)::

    python studies/wmt22_agreement.py ../shared/data/wmt22 [--out DIR] [--workers 2]

Every setting is recorded in ``settings.json``; ``mtlearn/study/data/wmt22_agreement/README.md``
describes every table and column. The output is deterministic: fixed seeds, rows in
sorted order, every float written with 6 decimals, whatever the number of workers.

Cost: sentence-level METEOR of every translation dominates. Each distinct
(segment, output) is aligned once (several systems often produce the same
sentence) and the same per-segment counts serve the corpus score, the join check
(``join_check.csv``) and the bootstrap. Work is spread over ``--workers`` processes.

No segment-level correlation is written: SID in ``ad-seg-scores-<pair>.csv`` is not
the line number of the text files (../shared/data/wmt22/README.md), and
``join_check.csv`` shows why -- it is a check of that join, not a measurement.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import mtlearn
from mtlearn.metrics.bleu.score import bleu_from_stats, corpus_bleu
from mtlearn.metrics.bleu.stats import BleuStats
from mtlearn.metrics.meteor.score import MeteorStats, meteor, meteor_from_stats
from mtlearn.study.accuracy import bootstrap_accuracy, pooled_accuracy
from mtlearn.study.correlation import (
    bootstrap_ci,
    pearson,
    rank_sum_test,
    spearman,
)
from mtlearn.study.significance import bootstrap_indices, bootstrap_p_value, resample_sums, resampling_scorer

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "mtlearn" / "study" / "data" / "wmt22_agreement"

# ----------------------------------------------------------------------------- settings

BLEU_CORPUS = dict(tokenize="13a", smoothing="exp", lowercase=False, max_order=4)
BLEU_SENTENCE = dict(tokenize="13a", smoothing="exp", effective_order=True, lowercase=False,
                     max_order=4)
METEOR = dict(stages=("exact", "stem", "synonym"), alpha=0.9, beta=3.0, gamma=0.5,
              tie_break="crossings", lowercase=True, tokenize="13a")
SYSTEM_CI = dict(n_resamples=1000, seed=2022, level=0.95)
#: sacreBLEU's paired bootstrap (mtlearn.paired_test): its 1000 samples, its seed; significant when p <=
#: alpha.
PAIRED_BOOTSTRAP = dict(n_samples=1000, seed=12345, alpha=0.05)
HUMAN_TEST = dict(test="wilcoxon-rank-sum", alternative="greater", score="z", alpha=0.05)
JOIN_OFFSETS = (-2, -1, 0, 1, 2)
JOIN_SHUFFLE_SEED = 13
CHRF = dict(char_order=6, word_order=0, beta=2.0, reference_ties="last")
ACCURACY_CI = dict(n_resamples=1000, seed=2021, level=0.95)
METRICS = ("bleu", "meteor")
#: Metrics of the system-level tables; COMET is WMT's own number (one reference), never computed here.
SYSTEM_METRICS = ("bleu", "meteor", "chrf", "comet")
FLOAT = "{:.6f}"


# ----------------------------------------------------------------------------- reading


@dataclass
class HumanSystem:
    """One row of ``ad-sys-scores-<pair>.csv``."""

    label: str  # SYS as written, e.g. "Online-A.8" or "HUMAN-B"
    name: str  # the label without its ".<index>" suffix, as in the output file names
    raw: float
    z: float
    n: int
    n_all: int


@dataclass
class PairData:
    """Everything the study reads for one language pair."""

    pair: str
    reference_ids: list[str]
    references: list[list[str]]  # references[k][i]: reference k of segment i
    outputs: dict[str, list[str]]  # system name -> its translations, line-aligned
    human_systems: dict[str, HumanSystem]  # by name
    human_segments: dict[str, dict[int, tuple[float, float, int]]]  # name -> sid -> raw, z, N
    files: list[Path] = field(default_factory=list)

    @property
    def n_segments(self) -> int:
        return len(self.references[0])

    def references_of(self, i: int) -> list[str]:
        return [ref[i] for ref in self.references]


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def _strip_index(label: str) -> str:
    stem, dot, suffix = label.rpartition(".")
    return stem if dot and suffix.isdigit() else label


def discover_pairs(root: Path) -> list[str]:
    """The pairs that have references, human system scores and system outputs."""
    pairs = {p.name.split(".")[1] for p in (root / "references").glob("generaltest2022.*.ref.*")}
    return sorted(
        p for p in pairs
        if (root / "humaneval" / f"ad-sys-scores-{p}.csv").is_file()
        and (root / "humaneval" / f"ad-seg-scores-{p}.csv").is_file()
    )


def load_pair(root: Path, pair: str) -> PairData:
    """Read one pair's references, outputs and human scores, checking their shapes."""
    ref_files = sorted((root / "references").glob(f"generaltest2022.{pair}.ref.*.en"))
    if not ref_files:
        raise ValueError(f"path: no references for {pair} under {root / 'references'}")
    references = [_lines(f) for f in ref_files]
    ref_ids = [f.name.split(".")[3] for f in ref_files]
    n = len(references[0])
    outputs = {}
    out_files = sorted((root / "system-outputs").glob(f"generaltest2022.{pair}.hyp.*.en"))
    for f in out_files:
        name = f.name[len(f"generaltest2022.{pair}.hyp."):-len(".en")]
        outputs[name] = _lines(f)
    for f, lines in itertools.chain(zip(ref_files, references),
                                    ((f, outputs[f.name.split(".hyp.")[1][:-3]]) for f in out_files)):
        if len(lines) != n:
            raise ValueError(f"path: {f.name} has {len(lines)} lines, the references {n}")
    human_systems = {}
    sys_file = root / "humaneval" / f"ad-sys-scores-{pair}.csv"
    for line in _lines(sys_file)[1:]:
        if not line.strip():
            continue
        raw, z, cnt, label, n_all = line.split()
        h = HumanSystem(label, _strip_index(label), float(raw), float(z), int(cnt), int(n_all))
        human_systems[h.name] = h
    human_segments: dict[str, dict[int, tuple[float, float, int]]] = {}
    seg_file = root / "humaneval" / f"ad-seg-scores-{pair}.csv"
    for line in _lines(seg_file)[1:]:
        if not line.strip():
            continue
        label, sid, raw, z, cnt = line.split()
        scores = human_segments.setdefault(_strip_index(label), {})
        sid_i = int(sid)
        if not 1 <= sid_i <= n:
            raise ValueError(f"path: {seg_file.name} has SID {sid_i} outside 1..{n}")
        if sid_i in scores:
            raise ValueError(f"path: {seg_file.name} scores {label} segment {sid_i} twice")
        scores[sid_i] = (float(raw), float(z), int(cnt))
    files = [*ref_files, *out_files, sys_file, seg_file]
    return PairData(pair, ref_ids, references, outputs, human_systems, human_segments, files)


def official_scores(root: Path) -> dict[tuple[str, str], dict[str, float]]:
    """Every row of WMT's ``automatic-scores.tsv``: (pair, system) -> {metric column: score}."""
    out: dict[tuple[str, str], dict[str, float]] = {}
    path = root / "automatic-scores.tsv"
    if path.is_file():
        for line in _lines(path)[1:]:
            cols = line.split("\t")
            if len(cols) == 6:
                out.setdefault((cols[0], cols[1]), {})[cols[4]] = float(cols[5])
    return out


def official_bleu(root: Path) -> dict[tuple[str, str], float]:
    """WMT's own ``bleu-all`` figures from ``automatic-scores.tsv`` (0-100)."""
    out = {}
    path = root / "automatic-scores.tsv"
    if path.is_file():
        for line in _lines(path)[1:]:
            cols = line.split("\t")
            if len(cols) == 6 and cols[4] == "bleu-all":
                out[(cols[0], cols[1])] = float(cols[5])
    return out


# ----------------------------------------------------------------------------- workers


def _bleu_job(job: tuple[str, str, list[str], list[list[str]]]):
    """Corpus BLEU (with its segment statistics) and chrF against all references, then each alone."""
    pair, system, hyps, refs = job
    result = corpus_bleu(hyps, refs, **BLEU_CORPUS)
    rows, sentence = [], []
    for s in result.segments.stats():
        rows.append([s.candidate_length, s.reference_length, *s.matches, *s.totals, *s.nltk_totals])
        sentence.append(bleu_from_stats(s, **BLEU_SENTENCE).score)
    chrf_all = mtlearn.corpus_chrf(hyps, refs, **CHRF)
    single = []
    for k in range(len(refs[0])):
        one = [[r[k]] for r in refs]
        single.append((corpus_bleu(hyps, one, **BLEU_CORPUS).score,
                       mtlearn.corpus_chrf(hyps, one, **CHRF).score))
    return (pair, system, result.score, result.signature, rows, sentence, chrf_all.score, chrf_all.signature,
            single)


def _meteor_job(items: list[tuple[str, tuple[str, ...]]]):
    out = []
    for hyp, refs in items:
        r = meteor(hyp, list(refs), **METEOR)
        per_ref = tuple((x.matches, x.candidate_length, x.reference_length, x.chunks)
                        for x in r.per_reference)
        out.append((r.matches, r.candidate_length, r.reference_length, r.chunks, r.score,
                    all(x.optimal for x in r.per_reference), per_ref))
    return out


def _meteor_signature(nrefs: int) -> str:
    return meteor("a", ["a"] * nrefs, **METEOR).signature


class Progress:
    """A plain text progress bar on stderr."""

    def __init__(self, total: int, label: str, stream=sys.stderr, width: int = 30):
        self.total, self.label, self.stream, self.width = max(total, 1), label, stream, width
        self.done = 0
        self.start = time.monotonic()
        self._shown = -1

    def update(self, k: int) -> None:
        self.done += k
        pct = int(100 * self.done / self.total)
        if pct != self._shown:
            self._shown = pct
            fill = int(self.width * self.done / self.total)
            self.stream.write(
                f"\r{self.label} [{'#' * fill}{'.' * (self.width - fill)}] {pct:3d}% "
                f"{self.done}/{self.total} {time.monotonic() - self.start:6.1f}s"
            )
            self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def _run(func: Callable, jobs: list, workers: int, progress: Progress, sizes: list[int]):
    """``func`` over ``jobs`` in order, on ``workers`` processes; results in job order."""
    results = []
    if workers <= 1:
        for job, size in zip(jobs, sizes):
            results.append(func(job))
            progress.update(size)
        return results
    import multiprocessing

    with multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(workers) as pool:
        for result, size in zip(pool.imap(func, jobs), sizes):
            results.append(result)
            progress.update(size)
    return results


# ----------------------------------------------------------------------------- scoring


@dataclass
class SystemScores:
    """Metric figures of one system of one pair."""

    bleu: float
    meteor: float
    bleu_rows: list[list[int]]  # per segment: c, r, matches(4), totals(4), nltk_totals(4)
    meteor_rows: list[tuple[int, int, int, int]]  # per segment: m, w_t, w_r, chunks
    sentence_bleu: list[float]
    sentence_meteor: list[float]
    meteor_unproven: int  # segments whose alignment search stopped at its node budget
    chrf: float = 0.0  # all references, reference_ties="last" (WMT's chrf-all)
    by_reference: dict[str, dict[str, float]] = field(default_factory=dict)  # ref id -> bleu, chrf, meteor


def score_all(data: list[PairData], workers: int) -> tuple[dict, dict]:
    """Corpus and sentence BLEU and METEOR of every system of every pair."""
    bleu_jobs = []
    for d in data:
        refs = [d.references_of(i) for i in range(d.n_segments)]
        for system in sorted(d.outputs):
            bleu_jobs.append((d.pair, system, d.outputs[system], refs))
    progress = Progress(sum(len(j[2]) for j in bleu_jobs), "BLEU  ")
    bleu_results = _run(_bleu_job, bleu_jobs, workers, progress, [len(j[2]) for j in bleu_jobs])
    progress.close()

    # METEOR: each distinct (segment, output) once, in a fixed order.
    unique: list[tuple[str, int, str]] = []
    for d in data:
        seen = set()
        for system in sorted(d.outputs):
            for i, hyp in enumerate(d.outputs[system]):
                if (i, hyp) not in seen:
                    seen.add((i, hyp))
                    unique.append((d.pair, i, hyp))
    by_pair = {d.pair: d for d in data}
    items = [(hyp, tuple(by_pair[p].references_of(i))) for p, i, hyp in unique]
    chunk = 100
    jobs = [items[k:k + chunk] for k in range(0, len(items), chunk)]
    progress = Progress(len(items), "METEOR")
    chunks = _run(_meteor_job, jobs, workers, progress, [len(j) for j in jobs])
    progress.close()
    meteor_of = dict(zip(unique, itertools.chain.from_iterable(chunks)))

    scores: dict[tuple[str, str], SystemScores] = {}
    signatures = {}
    for pair, system, bleu_score, bleu_sig, rows, sentence, chrf_score, chrf_sig, single in bleu_results:
        d = by_pair[pair]
        m_rows = [meteor_of[(pair, i, hyp)] for i, hyp in enumerate(d.outputs[system])]
        stats = [MeteorStats(*r[:4]) for r in m_rows]
        by_reference = {}
        for k, ref_id in enumerate(d.reference_ids):
            one = [MeteorStats(*r[6][k]) for r in m_rows]
            by_reference[ref_id] = {
                "bleu": single[k][0], "chrf": single[k][1],
                "meteor": meteor_from_stats(one, alpha=METEOR["alpha"], beta=METEOR["beta"],
                                            gamma=METEOR["gamma"]).score}
        scores[(pair, system)] = SystemScores(
            bleu=bleu_score,
            meteor=meteor_from_stats(stats, alpha=METEOR["alpha"], beta=METEOR["beta"],
                                     gamma=METEOR["gamma"]).score,
            bleu_rows=rows,
            meteor_rows=[tuple(r[:4]) for r in m_rows],
            sentence_bleu=sentence,
            sentence_meteor=[r[4] for r in m_rows],
            meteor_unproven=sum(1 for r in m_rows if not r[5]),
            chrf=chrf_score,
            by_reference=by_reference,
        )
        signatures[pair] = {
            "bleu_corpus": bleu_sig,
            "bleu_sentence": bleu_from_stats(BleuStats(0, 0, (0,) * 4, (0,) * 4, (0,) * 4),
                                             **BLEU_SENTENCE, nrefs=len(d.references)).signature,
            "meteor": _meteor_signature(len(d.references)),
            "chrf": chrf_sig,
        }
    return scores, signatures


def _bleu_from_row(row: Sequence[int]) -> float:
    return bleu_from_stats(
        BleuStats(row[0], row[1], tuple(row[2:6]), tuple(row[6:10]), tuple(row[10:14])),
        **BLEU_CORPUS,
    ).score


def _meteor_from_row(row: Sequence[int]) -> float:
    return meteor_from_stats([MeteorStats(*row)], alpha=METEOR["alpha"], beta=METEOR["beta"],
                             gamma=METEOR["gamma"]).score


# ----------------------------------------------------------------------------- tables


def fmt(value) -> str:
    """Fixed CSV spelling: floats with 6 decimals (no "-0.000000"), None as empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        text = FLOAT.format(value)
        return "0.000000" if text == "-0.000000" else text
    return str(value)


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence]) -> None:
    lines = [",".join(header)]
    for row in rows:
        cells = [fmt(v) for v in row]
        if any("," in c or "\n" in c for c in cells):
            raise ValueError(f"rows: a cell of {path.name} contains a comma or newline: {cells}")
        lines.append(",".join(cells))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def mt_systems(d: PairData) -> list[str]:
    """Systems with both an output and a human system score, sorted."""
    return sorted(s for s in d.outputs if s in d.human_systems)


def systems_table(data, scores, official):
    header = ["pair", "system", "human_label", "kind", "has_output", "bleu", "meteor", "chrf",
              "meteor_unproven_segments", "wmt_bleu_all", "wmt_chrf_all", "human_z", "human_raw",
              "human_segments", "human_judgements_all"]
    rows = []
    for d in data:
        for name in sorted(set(d.outputs) | set(d.human_systems)):
            h = d.human_systems.get(name)
            s = scores.get((d.pair, name))
            wmt = official.get((d.pair, name), {}) if s else {}
            rows.append([
                d.pair, name, h.label if h else None,
                "human" if name.startswith("HUMAN") else "mt",
                name in d.outputs,
                s.bleu if s else None, s.meteor if s else None, s.chrf if s else None,
                s.meteor_unproven if s else None,
                _percent(wmt.get("bleu-all")), _percent(wmt.get("chrf-all")),
                h.z if h else None, h.raw if h else None,
                h.n if h else None, h.n_all if h else None,
            ])
    return header, rows


def _percent(value):
    return None if value is None else value / 100


def reference_score(scores, official, pair: str, system: str, reference: str, metric: str):
    """A system's corpus score against ``reference`` ("all" or one id): mtlearn's, or WMT's COMET.

    COMET is WMT's official ``COMET-<ref>`` (one reference; ``None`` for "all" or where WMT has no row).
    """
    if metric == "comet":
        return None if reference == "all" else official.get((pair, system), {}).get(f"COMET-{reference}")
    s = scores[(pair, system)]
    return getattr(s, metric) if reference == "all" else s.by_reference[reference][metric]


def references_of(d: PairData) -> list[str]:
    """The reference sets of a pair: "all" of them together, then each alone."""
    return ["all", *d.reference_ids]


def metrics_of(d: PairData, reference: str, scores, official) -> list[str]:
    """The metrics with a score for every MT system of ``d`` against ``reference`` (COMET: single refs)."""
    return [m for m in SYSTEM_METRICS
            if all(reference_score(scores, official, d.pair, s, reference, m) is not None
                   for s in mt_systems(d))]


def reference_scores_table(data, scores, official):
    """Every system with an output, against all references and each alone: mtlearn's scores, WMT's."""
    header = ["pair", "system", "reference", "bleu", "meteor", "chrf", "wmt_bleu", "wmt_chrf", "wmt_comet"]
    rows = []
    for d in data:
        for name in sorted(d.outputs):
            wmt = official.get((d.pair, name), {})
            for ref in references_of(d):
                rows.append([d.pair, name, ref, *(reference_score(scores, official, d.pair, name, ref, m)
                                                  for m in ("bleu", "meteor", "chrf")),
                             _percent(wmt.get(f"bleu-{ref}")), _percent(wmt.get(f"chrf-{ref}")),
                             None if ref == "all" else wmt.get(f"COMET-{ref}")])
    return header, rows


def system_correlation_table(data, scores, official):
    header = ["pair", "reference", "metric", "statistic", "human_score", "n_systems", "value", "ci_low",
              "ci_high", "ci_level", "n_resamples", "n_valid_resamples", "seed"]
    rows = []
    stats = {"pearson": pearson, "spearman": spearman}
    for d in data:
        systems = mt_systems(d)
        for ref in references_of(d):
            for metric in metrics_of(d, ref, scores, official):
                x = [reference_score(scores, official, d.pair, s, ref, metric) for s in systems]
                for human_score in ("z", "raw"):
                    y = [getattr(d.human_systems[s], human_score) for s in systems]
                    for stat_name, stat in stats.items():
                        ci = bootstrap_ci(stat, x, y, **SYSTEM_CI)
                        rows.append([d.pair, ref, metric, stat_name, human_score, len(systems), ci.estimate,
                                     ci.low, ci.high, ci.level, ci.n_resamples, ci.n_valid, ci.seed])
    return header, rows


def pairwise_accuracy_table(data, scores, official):
    """Pairwise accuracy (Kocmi et al. 2021) per pair and pooled, per reference, metric and human score.

    Pooled rows (``scope`` "pooled") sum over the pairs that have the reference and a score of the
    metric for every system; ``pairs`` lists them.
    """
    header = ["scope", "reference", "metric", "human_score", "pairs", "n_systems", "comparisons", "agreeing",
              "metric_ties", "human_ties", "value", "ci_low", "ci_high", "ci_level", "n_resamples",
              "n_valid_resamples", "seed"]
    rows = []
    references = ["all", *sorted({r for d in data for r in d.reference_ids})]
    for ref in references:
        for metric in SYSTEM_METRICS:
            for human_score in ("z", "raw"):
                groups = {}
                for d in data:
                    if ((ref == "all" or ref in d.reference_ids)
                            and metric in metrics_of(d, ref, scores, official)):
                        systems = mt_systems(d)
                        groups[d.pair] = ([reference_score(scores, official, d.pair, s, ref, metric)
                                           for s in systems],
                                          [getattr(d.human_systems[s], human_score) for s in systems])
                scopes = [(p, [g]) for p, g in groups.items()]
                if len(groups) > 1:
                    scopes.append(("pooled", list(groups.values())))
                for scope, gs in scopes:
                    acc = pooled_accuracy(gs)
                    ci = bootstrap_accuracy(gs, **ACCURACY_CI)
                    names = [scope] if scope != "pooled" else list(groups)
                    rows.append([scope, ref, metric, human_score, "+".join(names), sum(len(g[0]) for g in gs),
                                 acc.comparisons, acc.agreeing, acc.metric_ties, acc.human_ties,
                                 float(acc.value), ci.low, ci.high, ci.level, ci.n_resamples, ci.n_valid,
                                 ci.seed])
    return header, rows


def _pearson_or_none(x: Sequence[float], y: Sequence[float]):
    """Pearson's r, or None where it does not exist (fewer than 3 items, or a constant side)."""
    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    return pearson(x, y)


def join_check_table(data, scores):
    """A check of the SID-as-line join, never a measurement: within-system correlations at offsets.

    For every scored MT system: sentence metric (line i) against the human z-score of SID s joined
    to line s - 1 + k, for k in JOIN_OFFSETS; the same after shuffling the system's human scores
    over its judged lines (seeded); and, as the picture of a join known to be right, sentence BLEU
    against sentence METEOR of line i + k (k = 0 is the true join of two scores of one text).
    """
    header = ["pair", "system", "x", "y", "alignment", "offset", "n_items", "pearson"]
    rows = []
    for d in data:
        rng = random.Random(JOIN_SHUFFLE_SEED)
        for s in mt_systems(d):
            sc = scores[(d.pair, s)]
            human = sorted(d.human_segments.get(s, {}).items())
            shuffled = [v[1] for _sid, v in human]
            rng.shuffle(shuffled)
            for metric in METRICS:
                sentence = getattr(sc, f"sentence_{metric}")
                for k in JOIN_OFFSETS:
                    pts = [(sentence[sid - 1 + k], v[1]) for sid, v in human if 0 <= sid - 1
                           + k < d.n_segments]
                    x, y = [p[0] for p in pts], [p[1] for p in pts]
                    rows.append([d.pair, s, f"sentence_{metric}", "human_z", "sid_as_line_plus_offset", k,
                                 len(pts), _pearson_or_none(x, y)])
                x = [sentence[sid - 1] for sid, _v in human]
                rows.append([d.pair, s, f"sentence_{metric}", "human_z", "shuffled", None, len(x),
                             _pearson_or_none(x, shuffled)])
            n = d.n_segments
            for k in JOIN_OFFSETS:
                idx = [i for i in range(n) if 0 <= i + k < n]
                rows.append([d.pair, s, "sentence_bleu", "sentence_meteor", "same_text_plus_offset", k,
                             len(idx), _pearson_or_none([sc.sentence_bleu[i] for i in idx],
                                              [sc.sentence_meteor[i + k] for i in idx])])
    return header, rows


#: Summed statistics of many bootstrap samples -> their scores (the study's BLEU and METEOR settings).
PAIRED_SCORERS = {
    "bleu": resampling_scorer("bleu", **BLEU_CORPUS),
    "meteor": resampling_scorer("meteor", alpha=METEOR["alpha"], beta=METEOR["beta"], gamma=METEOR["gamma"]),
}


def pairwise_table(data, scores, progress: Progress):
    header = ["pair", "system_a", "system_b", "human_z_a", "human_z_b", "human_z_diff",
              "human_p", "human_significant"]
    for metric in METRICS:
        header += [f"{metric}_a", f"{metric}_b", f"{metric}_diff", f"{metric}_p",
                   f"{metric}_significant", f"{metric}_agrees"]
    rows = []
    for d in data:
        systems = mt_systems(d)
        # mtlearn.paired_test's steps: one set of draws per pair shared by every system, so each row's p is
        # paired_test({A: ..., B: ...}, test="bs") with A as the baseline (the test is symmetric in A and B).
        indices = bootstrap_indices(d.n_segments, PAIRED_BOOTSTRAP["n_samples"], PAIRED_BOOTSTRAP["seed"])
        samples = {}
        for s in systems:
            sc = scores[(d.pair, s)]
            samples[(s, "bleu")] = PAIRED_SCORERS["bleu"](resample_sums(sc.bleu_rows, indices))
            samples[(s, "meteor")] = PAIRED_SCORERS["meteor"](resample_sums(sc.meteor_rows, indices))
            progress.update(1)
        seg_z = {s: [v[1] for _sid, v in sorted(d.human_segments.get(s, {}).items())] for s in systems}
        for s1, s2 in itertools.combinations(systems, 2):
            h1, h2 = d.human_systems[s1], d.human_systems[s2]
            # A is the system the humans rank higher (official z); ties keep name order.
            a, b = (s1, s2) if h1.z >= h2.z else (s2, s1)
            ha, hb = d.human_systems[a], d.human_systems[b]
            test = rank_sum_test(seg_z[a], seg_z[b], alternative=HUMAN_TEST["alternative"])
            row = [d.pair, a, b, ha.z, hb.z, ha.z - hb.z, test.p_value,
                   test.p_value < HUMAN_TEST["alpha"]]
            for metric in METRICS:
                va = getattr(scores[(d.pair, a)], metric)
                vb = getattr(scores[(d.pair, b)], metric)
                p = bootstrap_p_value(va, vb, samples[(a, metric)], samples[(b, metric)])
                agrees = None if va == vb else va > vb
                row += [va, vb, va - vb, p, p <= PAIRED_BOOTSTRAP["alpha"], agrees]
            rows.append(row)
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return header, rows


def counts_table(data, scores):
    header = ["pair", "segments", "references", "reference_ids", "systems_with_output",
              "mt_systems_scored", "human_translation_rows", "outputs_without_human_score",
              "mt_scored_items", "mt_scored_items_min", "mt_scored_items_max",
              "segments_never_scored", "segments_scored_2plus_mt",
              "judgements_per_item_mean", "sys_n_equals_segment_rows", "sys_z_vs_segment_mean_max_diff"]
    rows = []
    for d in data:
        systems = mt_systems(d)
        per_sys = [len(d.human_segments.get(s, {})) for s in systems]
        cover = [0] * d.n_segments
        for s in systems:
            for sid in d.human_segments.get(s, {}):
                cover[sid - 1] += 1
        all_seg = [v for scores_ in d.human_segments.values() for v in scores_.values()]
        n_match = all(h.n == len(d.human_segments.get(name, {})) for name, h in d.human_systems.items())
        zdiff = max((abs(h.z - statistics.fmean(v[1] for v in d.human_segments[name].values()))
                     for name, h in d.human_systems.items() if d.human_segments.get(name)),
                    default=None)
        rows.append([
            d.pair, d.n_segments, len(d.references), "+".join(d.reference_ids), len(d.outputs),
            len(systems), "+".join(sorted(h.label for n, h in d.human_systems.items() if n not in d.outputs))
            or None, "+".join(sorted(s for s in d.outputs if s not in d.human_systems)) or None,
            sum(per_sys), min(per_sys), max(per_sys), cover.count(0),
            sum(1 for c in cover if c >= 2),
            statistics.fmean(v[2] for v in all_seg), n_match, zdiff,
        ])
    return header, rows


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(root: Path, out: Path, workers: int = 2, pairs: Sequence[str] | None = None) -> float:
    """Run the whole study; returns the seconds it took. Tables go to ``out``."""
    start = time.monotonic()
    root = Path(root)
    available = discover_pairs(root)
    if not available:
        raise ValueError(f"path: no WMT22 pair with references and human scores under {root}")
    chosen = list(pairs) if pairs else available
    for p in chosen:
        if p not in available:
            raise ValueError(f"pairs: {p!r} is not in {root}; choose from {', '.join(available)}")
    data = [load_pair(root, p) for p in sorted(chosen)]
    official = official_scores(root)
    scores, signatures = score_all(data, workers)

    out.mkdir(parents=True, exist_ok=True)
    tables = {
        "systems.csv": systems_table(data, scores, official),
        "reference_scores.csv": reference_scores_table(data, scores, official),
        "system_correlations.csv": system_correlation_table(data, scores, official),
        "pairwise_accuracy.csv": pairwise_accuracy_table(data, scores, official),
        "join_check.csv": join_check_table(data, scores),
        "segment_counts.csv": counts_table(data, scores),
    }
    progress = Progress(sum(len(mt_systems(d)) for d in data), "bootstr")
    tables["pairwise_significance.csv"] = pairwise_table(data, scores, progress)
    progress.close()
    for name, (header, rows) in tables.items():
        write_csv(out / name, header, rows)

    settings = {
        "mtlearn_version": mtlearn.__version__,
        "command": "python studies/wmt22_agreement.py PATH_TO_WMT22 --out mtlearn/study/data/wmt22_agreement",
        "pairs": [d.pair for d in data],
        "bleu_corpus": {**BLEU_CORPUS, "references": "all of the pair's references"},
        "bleu_sentence": BLEU_SENTENCE,
        "meteor": {**METEOR, "stages": list(METEOR["stages"]),
                   "references": "best-scoring reference per segment; corpus sums m, w_t, w_r, chunks"},
        "signatures": signatures,
        "chrf": {**CHRF, "references": "all of the pair's references (reference_ties='last' reproduces WMT's "
                 "chrf-all) and each reference alone (chrf-A, -B, -C; ties cannot arise)"},
        "comet": {"source": "WMT's official COMET-<ref> column of automatic-scores.tsv, copied, not computed "
                  "by mtlearn; one reference each"},
        "pairwise_accuracy": {**ACCURACY_CI,
                              "method": "Kocmi et al. 2021: share of pairs of MT systems of one "
                              "language pair whose metric difference has the sign of the human difference "
                              "(a metric tie counts as not agreeing); pooled = counts summed over pairs; "
                              "percentile bootstrap resampling systems within each pair, pairs of two "
                              "different systems compared"},
        "system_level_ci": {**SYSTEM_CI, "method": "percentile bootstrap, resampling systems",
                            "systems": "MT systems with an output and a human score"},
        "paired_bootstrap": {**PAIRED_BOOTSTRAP, "method": "sacreBLEU's paired bootstrap resampling "
                             "(mtlearn.paired_test, as sacrebleu --paired-bs): one set of draws per pair "
                             "(numpy default_rng(seed).choice) shared by all systems; p = (c "
                             "+ 1) / (n + 1), c the "
                             "samples whose |difference| minus the mean |difference| exceeds the observed "
                             "|difference| (two-sided); significant when p <= alpha"},
        "human_significance": {**HUMAN_TEST, "method": "one-sided Wilcoxon rank-sum (Mann-Whitney U, "
                               "normal approximation with tie and continuity correction) on all "
                               "scored segment z-scores of A against B, A = higher official z"},
        "segment_level": {"tables": "none: SID in ad-seg-scores-*.csv is not the line number of the text "
                                    "files and the true mapping is not in the public data, so no "
                                    "segment-level correlation is shipped",
                          "join_check": {"offsets": list(JOIN_OFFSETS), "shuffle_seed": JOIN_SHUFFLE_SEED,
                                         "method": "within-system Pearson r of a sentence metric at line "
                                                   "SID - 1 + offset against the human z of SID; the same "
                                                   "after a seeded shuffle; sentence BLEU against sentence "
                                                   "METEOR of line i + offset as a join known to be right"}},
        "float_format": FLOAT,
        "inputs_sha256": {str(f.relative_to(root)): _sha256(f)
                          for d in data for f in d.files}
        | ({"automatic-scores.tsv": _sha256(root / "automatic-scores.tsv")}
           if (root / "automatic-scores.tsv").is_file() else {}),
    }
    (out / "settings.json").write_text(json.dumps(settings, indent=2, sort_keys=True) + "\n",
                                       encoding="utf-8")
    return time.monotonic() - start


GENERATED = ("systems.csv", "reference_scores.csv", "system_correlations.csv", "pairwise_accuracy.csv",
             "join_check.csv", "segment_counts.csv", "pairwise_significance.csv", "settings.json")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path", type=Path, help="a WMT22 folder laid out like ../shared/data/wmt22")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"output folder (default {DEFAULT_OUT})")
    parser.add_argument("--workers", type=int, default=2, help="processes for scoring (default 2)")
    parser.add_argument("--pairs", nargs="*", help="only these pairs (default: all found)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers: expected a positive integer")
    try:
        seconds = run(args.path, args.out, args.workers, args.pairs)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"wrote {', '.join(GENERATED)} to {args.out} in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

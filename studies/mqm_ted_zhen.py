"""Do mtlearn's metrics agree with expert MQM judgements, sentence by sentence and system by system?

Reads Google's MQM annotations of the WMT21 TED talks test suite, Chinese → English
(``../shared/data/mqm_ted_zhen``: 13 MT systems and the two human references, 529
segments, the texts and the errors in the same rows) and writes small CSV tables of
*derived numbers only* (scores, correlations, counts, system names and segment ids; never
a sentence) into ``--out`` (default: ``mtlearn/study/data/mqm_ted_zhen``)::

    python studies/mqm_ted_zhen.py ../shared/data/mqm_ted_zhen [--out DIR] [--workers 2]
                                   [--metrics bleu chrf] [--references ref refB]

``mtlearn/study/data/mqm_ted_zhen/README.md`` says how every number is computed. The
output is deterministic (seeded draws, rows in a fixed order, 6 decimals) whatever the
number of workers; a run on a subset of metrics or references writes exactly the rows of
the full tables that belong to them (``tests/study/test_mqm_study.py`` compares them).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

import mtlearn
from mtlearn.study.correlation import bootstrap_counts, kendall_tau, pearson
from mtlearn.study.disagreements import disagreements
from mtlearn.study.metric_scores import (
    METRICS,
    StudyMetric,
    SystemScores,
    corpus_scorer,
    metric,
    oriented,
    score_system,
)
from mtlearn.study.mqm import MqmData, read_average_scores, read_mqm
from mtlearn.study.segment_level import GROUPINGS, STATISTICS, SegmentResampler, grouped_correlation, interval
from mtlearn.study.system_level import SYSTEM_STATISTICS, system_level
from mtlearn.study.tie_calibration import calibration_resamples, tie_calibrated_accuracy

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "mtlearn" / "study" / "data" / "mqm_ted_zhen"
TSV = "mqm_ted_zhen.tsv"
AVERAGES = "mqm_ted_zhen.avg_seg_scores.tsv"

#: The reference sets: each human reference alone, then both.
REFERENCES: tuple[str, ...] = ("ref", "refB", "ref+refB")
#: One set of bootstrap draws of the segments, shared by every metric, statistic and level.
BOOTSTRAP = {"n_resamples": 1000, "seed": 2021, "level": 0.95}
#: The join check shuffles each system's MQM scores with random.Random(f"{seed}:{system}").
SHUFFLE_SEED = 13
#: Disagreement pairs kept per metric and reference set, and per segment.
DISAGREEMENTS = {"k": 10, "per_segment": 1}
GENERATED: tuple[str, ...] = ("systems.csv", "system_scores.csv", "within_system.csv", "segment_level.csv",
                              "system_level.csv", "disagreements.csv", "settings.json")


# ----------------------------------------------------------------------------- formatting


def number(value: float) -> str:
    """A float with 6 decimals ("" for NaN, never "-0.000000")."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = f"{float(value):.6f}"
    return "0.000000" if text == "-0.000000" else text


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([number(v) if isinstance(v, float) else v for v in row])
    path.write_text(buffer.getvalue(), encoding="utf-8")


# ----------------------------------------------------------------------------- scoring


def reference_names(reference: str) -> list[str]:
    return reference.split("+")


def candidate_systems(data: MqmData, reference: str) -> list[str]:
    """The MT systems, and the other human reference when one reference is used."""
    others = [r for r in data.references if r not in reference_names(reference)]
    return [*data.mt_systems, *(others if len(reference_names(reference)) == 1 else [])]


def _score_job(job: tuple[str, str, str, list[str], list[list[str]]]) -> tuple[str, str, str, SystemScores]:
    name, reference, system, candidates, references = job
    return name, reference, system, score_system(metric(name), candidates, references)


def score_everything(data: MqmData, metrics: Sequence[StudyMetric], references: Sequence[str],
                     workers: int) -> dict[tuple[str, str, str], SystemScores]:
    """Every (metric, reference set, system) scored once; METEOR first, the slowest."""
    jobs = []
    for ref in references:
        refs = [list(r) for r in zip(*(data.texts(n) for n in reference_names(ref)))]
        for m in metrics:
            for system in candidate_systems(data, ref):
                jobs.append((m.name, ref, system, data.texts(system), refs))
    jobs.sort(key=lambda j: metric(j[0]).family != "meteor")  # stable: the slow ones start first
    results = {}
    start = time.monotonic()
    if workers <= 1:
        outputs = map(_score_job, jobs)
        pool = None
    else:
        import multiprocessing

        pool = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(workers)
        outputs = pool.imap_unordered(_score_job, jobs)
    try:
        for k, (name, ref, system, scores) in enumerate(outputs, start=1):
            results[(name, ref, system)] = scores
            sys.stderr.write(f"\rscoring {k}/{len(jobs)} {time.monotonic() - start:6.1f}s")
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    sys.stderr.write("\n")
    return results


# ----------------------------------------------------------------------------- tables


def systems_rows(data: MqmData) -> list[list[object]]:
    means = {s: data.system_score(s) for s in data.systems}
    ranked = sorted(data.systems, key=lambda s: (-means[s], s))
    rows = []
    for s in data.systems:
        items = [data.item(s, g) for g in data.seg_ids]
        errors = [e for it in items for e in it.errors]
        rows.append([s, "human" if s in data.references else "mt", float(means[s]), ranked.index(s) + 1,
                     len(items), sum(e.severity == "Major" for e in errors),
                     sum(e.severity == "Minor" for e in errors),
                     sum(e.weight == Fraction(1, 10) for e in errors),
                     sum(e.category.lower().startswith("non-translation") for e in errors),
                     sum(e.category == "Source error" for e in errors), sum(it.score == 0 for it in items),
                     len({r for it in items for r in it.raters})])
    return rows


def human_scores(data: MqmData, systems: Sequence[str]) -> dict[str, list[Fraction]]:
    return {s: data.scores(s) for s in systems}


def within_system_rows(data: MqmData, scores: dict, m: StudyMetric, ref: str) -> list[list[object]]:
    rows = []
    for s in data.mt_systems:
        human = [float(v) for v in data.scores(s)]
        values = oriented(m, scores[(m.name, ref, s)].sentence)
        shuffled = list(human)
        random.Random(f"{SHUFFLE_SEED}:{s}").shuffle(shuffled)
        rows.append([ref, m.name, s, len(human), pearson(human, values), kendall_tau(human, values),
                     pearson(shuffled, values)])
    return rows


def segment_rows(data: MqmData, scores: dict, m: StudyMetric, ref: str, resampler: SegmentResampler) -> list:
    human = [[float(v) for v in data.scores(s)] for s in data.mt_systems]
    values = [oriented(m, scores[(m.name, ref, s)].sentence) for s in data.mt_systems]
    settings = (BOOTSTRAP["level"], BOOTSTRAP["seed"])
    rows = []
    for statistic in STATISTICS:
        for grouping in GROUPINGS:
            g = grouped_correlation(human, values, statistic, grouping)
            ci = interval(g.value, resampler.values(values, statistic, grouping), level=settings[0],
                          seed=settings[1])
            rows.append([ref, m.name, statistic, grouping, g.value, ci.low, ci.high, ci.level, ci.n_resamples,
                         ci.n_valid, ci.seed, g.n_groups, g.n_undefined, None])
    groups = [([h[i] for h in human], [v[i] for v in values]) for i in range(len(data.seg_ids))]
    tc = tie_calibrated_accuracy(groups)
    samples, _ = calibration_resamples(groups, resampler.counts)
    ci = interval(tc.accuracy, samples, level=settings[0], seed=settings[1])
    rows.append([ref, m.name, "accuracy_eq", "item", tc.accuracy, ci.low, ci.high, ci.level, ci.n_resamples,
                 ci.n_valid, ci.seed, tc.n_groups, 0, tc.epsilon])
    return rows


def constant_rows(data: MqmData, resampler: SegmentResampler) -> list:
    """acc_eq of a metric that scores every translation the same: it predicts every pair tied.

    Its value is the share of pairs the experts tie (mean over the segments): the level any
    real metric must beat, since tie calibration can always make a metric call everything a tie.
    """
    human = [[float(v) for v in data.scores(s)] for s in data.mt_systems]
    groups = [([h[i] for h in human], [0.0] * len(human)) for i in range(len(data.seg_ids))]
    tc = tie_calibrated_accuracy(groups)
    samples, _ = calibration_resamples(groups, resampler.counts)
    ci = interval(tc.accuracy, samples, level=BOOTSTRAP["level"], seed=BOOTSTRAP["seed"])
    return [["none", "constant", "accuracy_eq", "item", tc.accuracy, ci.low, ci.high, ci.level,
             ci.n_resamples, ci.n_valid, ci.seed, tc.n_groups, 0, tc.epsilon]]


def system_level_rows(data: MqmData, scores: dict, m: StudyMetric, ref: str, counts: np.ndarray) -> list:
    rows = []
    for label in ("mt", "mt+human"):
        systems = list(data.mt_systems) if label == "mt" else candidate_systems(data, ref)
        if label == "mt+human" and len(systems) == len(data.mt_systems):
            continue  # both references are the reference: no human translation left to score
        result = system_level(human_scores(data, systems),
                              {s: scores[(m.name, ref, s)].stats for s in systems}, corpus_scorer(m), counts,
                              observed={s: scores[(m.name, ref, s)].corpus for s in systems},
                              sign=1.0 if m.higher_is_better else -1.0, level=BOOTSTRAP["level"],
                              seed=BOOTSTRAP["seed"])
        for name in SYSTEM_STATISTICS:
            r = result[name]
            rows.append([ref, m.name, label, r.n_systems, name, r.value, r.agreeing, r.comparisons, r.ci.low,
                         r.ci.high, r.ci.level, r.ci.n_resamples, r.ci.n_valid, r.ci.seed])
    return rows


def disagreement_rows(data: MqmData, scores: dict, m: StudyMetric, ref: str) -> list:
    human = {s: [float(v) for v in data.scores(s)] for s in data.mt_systems}
    values = {s: list(scores[(m.name, ref, s)].sentence) for s in data.mt_systems}
    found = disagreements(human, values, data.seg_ids, higher_is_better=m.higher_is_better, **DISAGREEMENTS)
    return [[ref, m.name, k, d.seg_id, d.better, d.worse, d.mqm_better, d.mqm_worse, d.metric_better,
             d.metric_worse] for k, d in enumerate(found, start=1)]


# ----------------------------------------------------------------------------- checks and settings


@dataclass
class AverageCheck:
    compared: int
    max_difference: float


def check_against_averages(data: MqmData, path: Path) -> AverageCheck:
    """Every rated pair's MQM score equals the authors' avg_seg_scores file (else a ValueError)."""
    averages = {k: v for k, v in read_average_scores(path).items() if v is not None}
    if set(averages) != set(data.items):
        raise ValueError(f"{path.name}: rates {len(averages)} (system, segment) pairs, the TSV "
                         f"{len(data.items)}")
    worst = max(abs(float(data.items[k].score) - v) for k, v in averages.items())
    if worst > 1e-9:
        raise ValueError(f"{path.name}: an MQM score differs from the TSV's errors by {worst}")
    return AverageCheck(len(averages), worst)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def settings(data: MqmData, data_dir: Path, metrics: Sequence[StudyMetric], references: Sequence[str],
             scores: dict, check: AverageCheck) -> dict:
    signatures = {ref: {m.name: scores[(m.name, ref, data.mt_systems[0])].signature for m in metrics}
                  for ref in references}
    return {
        "command": "python studies/mqm_ted_zhen.py ../shared/data/mqm_ted_zhen --out "
                   "mtlearn/study/data/mqm_ted_zhen",
        "mtlearn_version": mtlearn.__version__,
        "inputs_sha256": {TSV: sha256(data_dir / TSV), AVERAGES: sha256(data_dir / AVERAGES)},
        "data": {"rows": data.rows, "systems": list(data.systems), "mt_systems": len(data.mt_systems),
                 "references": list(data.references), "segments": len(data.seg_ids),
                 "seg_id_first": data.seg_ids[0], "seg_id_last": data.seg_ids[-1]},
        "mqm": {"weights": "Major 5, Minor 1, Minor Fluency/Punctuation 0.1, Non-translation 25, No-error 0; "
                           "score = minus the sum (mean over raters: one rater per item here)",
                "system_score": "mean of the segment scores",
                "check_against_avg_seg_scores": {"pairs_compared": check.compared,
                                                 "max_abs_difference": check.max_difference}},
        "metrics": [{"name": m.name, "label": m.label, "higher_is_better": m.higher_is_better,
                     "system_level": m.system_level} for m in metrics],
        "references": list(references),
        "signatures": signatures,
        "bootstrap": {**BOOTSTRAP,
                      "draws": "mtlearn.study.correlation.bootstrap_counts(529, n_resamples, seed): "
                      "segments with replacement, random.Random(seed); the same draws for every metric, "
                      "statistic and level"},
        "segment_level": {"systems": "the 13 MT systems", "statistics": list(STATISTICS) + ["accuracy_eq"],
                          "groupings": list(GROUPINGS), "kendall_variant": "b",
                          "accuracy_eq": "Deutsch et al. 2023: (C + T_hm) / all pairs, grouped by item, "
                                         "one tie threshold epsilon for all items, chosen to maximise it"},
        "system_level": {"statistics": list(SYSTEM_STATISTICS),
                         "human": "mean MQM per system", "metric": "corpus score"},
        "join_check": {"shuffle_seed": SHUFFLE_SEED,
                       "method": "random.Random(f'{seed}:{system}').shuffle of the "
                       "system's MQM scores; Pearson with the unshuffled sentence scores"},
        "disagreements": DISAGREEMENTS,
    }


# ----------------------------------------------------------------------------- run


HEADERS: dict[str, list[str]] = {
    "systems.csv": ["system", "kind", "mqm", "mqm_rank", "segments", "major_errors", "minor_errors",
                    "minor_punctuation_errors", "non_translation_errors", "source_errors", "perfect_segments",
                    "raters"],
    "system_scores.csv": ["reference", "metric", "system", "corpus", "sentence_mean"],
    "within_system.csv": ["reference", "metric", "system", "segments", "pearson", "kendall",
                          "pearson_shuffled"],
    "segment_level.csv": ["reference", "metric", "statistic", "grouping", "value", "ci_low", "ci_high",
                          "ci_level",
                          "n_resamples", "n_valid_resamples", "seed", "n_groups", "n_undefined_groups",
                          "epsilon"],
    "system_level.csv": ["reference", "metric", "systems", "n_systems", "statistic", "value", "agreeing",
                         "comparisons", "ci_low", "ci_high", "ci_level", "n_resamples", "n_valid_resamples",
                         "seed"],
    "disagreements.csv": ["reference", "metric", "rank", "seg_id", "better", "worse", "mqm_better",
                          "mqm_worse", "metric_better", "metric_worse"],
}


def build_tables(data: MqmData, metrics: Sequence[StudyMetric], references: Sequence[str],
                 scores: dict) -> dict:
    """Every CSV table's rows, in their fixed order (reference sets, then metrics, as listed)."""
    counts = bootstrap_counts(len(data.seg_ids), BOOTSTRAP["n_resamples"], BOOTSTRAP["seed"])
    resampler = SegmentResampler([[float(v) for v in data.scores(s)] for s in data.mt_systems], counts)
    tables: dict[str, list] = {name: [] for name in HEADERS}
    tables["systems.csv"] = systems_rows(data)
    tables["segment_level.csv"] += constant_rows(data, resampler)
    for ref in references:
        for m in metrics:
            for system in candidate_systems(data, ref):
                s = scores[(m.name, ref, system)]
                tables["system_scores.csv"].append([ref, m.name, system, s.corpus,
                                                    math.fsum(s.sentence) / len(s.sentence)])
            tables["within_system.csv"] += within_system_rows(data, scores, m, ref)
            tables["segment_level.csv"] += segment_rows(data, scores, m, ref, resampler)
            if m.system_level:
                tables["system_level.csv"] += system_level_rows(data, scores, m, ref, counts)
            tables["disagreements.csv"] += disagreement_rows(data, scores, m, ref)
    return tables


def run(data_dir: Path, out: Path, *, workers: int = 2, metrics: Sequence[str] | None = None,
        references: Sequence[str] | None = None) -> None:
    """Compute every table for the chosen metrics and reference sets and write them into ``out``."""
    data_dir, out = Path(data_dir), Path(out)
    names = list(metrics) if metrics else [m.name for m in METRICS]
    chosen = [m for m in METRICS if m.name in {metric(n).name for n in names}]  # table order
    unknown = sorted(set(references or ()) - set(REFERENCES))
    if unknown:
        raise ValueError(f"references: unknown {', '.join(unknown)}; choose among {', '.join(REFERENCES)}")
    refs = [r for r in REFERENCES if references is None or r in references]
    data = read_mqm(data_dir / TSV)
    check = check_against_averages(data, data_dir / AVERAGES)
    scores = score_everything(data, chosen, refs, workers)
    tables = build_tables(data, chosen, refs, scores)
    out.mkdir(parents=True, exist_ok=True)
    for name, header in HEADERS.items():
        write_csv(out / name, header, tables[name])
    text = json.dumps(settings(data, data_dir, chosen, refs, scores, check), indent=2, sort_keys=True) + "\n"
    (out / "settings.json").write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path,
                        help="the folder of mqm_ted_zhen.tsv (../shared/data/mqm_ted_zhen)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--metrics", nargs="+", choices=[m.name for m in METRICS])
    parser.add_argument("--references", nargs="+", choices=REFERENCES)
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        run(args.data, args.out, workers=args.workers, metrics=args.metrics, references=args.references)
    except (OSError, ValueError) as e:
        print(f"mqm_ted_zhen: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} in {time.monotonic() - start:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

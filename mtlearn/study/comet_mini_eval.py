"""COMET-mini against BLEU, chrF and BERTScore-mini on the held-out cells, with bootstrap intervals.

Each *cell* is a block of the systems × segments grid (:mod:`mtlearn.study.comet_mini`):

* ``test`` — held-out systems × held-out segments: nothing of it was seen in training;
* ``unseen systems`` — held-out systems × training segments (the sentences were seen, translated by others);
* ``unseen segments`` — training systems × held-out segments (the systems were seen, not these sentences);
* ``train`` — the training cell itself (in-sample: how much better it looks where it was fitted).

On each: segment-level Kendall tau-b without grouping and grouped by item
(:func:`~mtlearn.study.segment_level.grouped_correlation`, intervals from
:class:`~mtlearn.study.segment_level.SegmentResampler` over the cell's segments), and system-level pairwise
accuracy over the cell's systems (:func:`~mtlearn.study.system_level.system_level`: corpus BLEU and chrF from
summed segment statistics, the mean sentence score for COMET-mini and BERTScore-mini). Every metric sees the
same bootstrap draws. The numbers are computed from the shipped files alone (vectors, MQM scores, sentence
scores): no text is needed.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np

from mtlearn.metrics.comet_mini.formulas import features, predict
from mtlearn.study.comet_mini import BASELINES, DATA, REFERENCE, MqmVectors, TrainedCometMini
from mtlearn.study.correlation import bootstrap_counts
from mtlearn.study.metric_scores import corpus_scorer, metric
from mtlearn.study.segment_level import SegmentResampler, grouped_correlation, interval
from mtlearn.study.system_level import system_level

__all__ = ["BOOTSTRAP", "CELLS", "METRICS", "TABLE", "Baselines", "EvaluationRow", "cell", "evaluate",
           "load_baselines", "predictions", "read_table", "write_table"]

#: The evaluation table the study writes.
TABLE = DATA / "comet_mini.csv"
#: The metrics compared, in table order.
METRICS: tuple[str, ...] = ("comet_mini", "bleu", "chrf", "bertscore")
#: The cells, in table order.
CELLS: tuple[str, ...] = ("test", "unseen systems", "unseen segments", "train")
#: The bootstrap draws of each cell's segments (shared by every metric).
BOOTSTRAP = {"n_resamples": 1000, "seed": 2021, "level": 0.95}


@dataclass(frozen=True)
class Baselines:
    """Sentence scores against ``ref`` (``sentence[name][s, i]``) and BLEU's and chrF's segment statistics."""

    systems: tuple[str, ...]
    seg_ids: tuple[int, ...]
    sentence: dict[str, np.ndarray]
    stats: dict[str, np.ndarray]


def load_baselines(path: Union[str, Path, None] = None) -> Baselines:
    """The shipped sentence scores of BLEU, chrF and BERTScore-mini (written by the study script)."""
    path = Path(path) if path else BASELINES
    if not path.is_file():
        raise FileNotFoundError(f"path: {path} is missing; run studies/train_comet_mini.py to write it")
    with np.load(path, allow_pickle=False) as f:
        return Baselines(tuple(str(s) for s in f["systems"]), tuple(int(i) for i in f["seg_ids"]),
                         {k: f[k].astype(np.float64) for k in ("bleu", "chrf", "bertscore")},
                         {k: f[f"{k}_stats"] for k in ("bleu", "chrf")})


def predictions(data: MqmVectors, weights: np.ndarray, bias: float, reference: str = REFERENCE) -> np.ndarray:
    """COMET-mini's score of every translation in ``data`` (one row per system, one column per segment)."""
    r = data.vectors[data.row(reference)].astype(np.float64)
    return np.stack([predict(features(data.vectors[k].astype(np.float64), r), weights, bias)
                     for k in range(len(data.systems))])


def cell(model: TrainedCometMini, name: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The systems and segments of the cell called ``name`` (see :data:`CELLS`)."""
    s = model.split
    cells = {"test": (s.test_systems, s.test_segments), "unseen systems": (s.test_systems, s.train_segments),
             "unseen segments": (s.train_systems, s.test_segments),
             "train": (s.train_systems, s.train_segments)}
    if name not in cells:
        raise ValueError(f"name: unknown cell {name!r}; choose one of {', '.join(CELLS)}")
    return cells[name]


@dataclass(frozen=True)
class EvaluationRow:
    """One number of the table: a statistic of a metric on a cell, with its interval."""

    cell: str
    n_systems: int
    n_segments: int
    metric: str
    statistic: str
    grouping: str
    value: float
    low: float
    high: float


def _mean_stats(scores: np.ndarray) -> np.ndarray:
    return np.stack([scores, np.ones_like(scores)], axis=1)


def _mean_scorer(sums: np.ndarray) -> np.ndarray:
    return sums[:, 0] / sums[:, 1]


def _system_rows(name: str, rows: list[int], cols: list[int], scores: dict[str, np.ndarray],
                 base: Baselines, human: np.ndarray, counts: np.ndarray, systems: Sequence[str]) -> dict:
    """Each metric's per-system statistics and scorer, for :func:`system_level`."""
    if name in ("bleu", "chrf"):
        stats = {s: base.stats[name][r][cols] for s, r in zip(systems, rows)}
        scorer = corpus_scorer(metric(name))
    else:
        stats = {s: _mean_stats(scores[name][r][cols]) for s, r in zip(systems, rows)}
        scorer = _mean_scorer
    out = system_level({s: human[k].tolist() for k, s in enumerate(systems)}, stats, scorer, counts,
                       seed=BOOTSTRAP["seed"], level=BOOTSTRAP["level"])
    return {"accuracy": out["accuracy"]}


def _cell_rows(name: str, systems: Sequence[str], segments: Sequence[int], data: MqmVectors,
               scores: dict[str, np.ndarray], base: Baselines) -> list[EvaluationRow]:
    rows, cols = [data.row(s) for s in systems], data.columns(segments)
    human = data.mqm[np.ix_(rows, cols)]
    counts = bootstrap_counts(len(cols), BOOTSTRAP["n_resamples"], BOOTSTRAP["seed"])
    resampler = SegmentResampler(human, counts)
    out = []
    for m in METRICS:
        matrix = scores[m][np.ix_(rows, cols)]
        for grouping in ("none", "item"):
            value = grouped_correlation(human, matrix, "kendall", grouping).value
            ci = interval(value, resampler.values(matrix, "kendall", grouping), level=BOOTSTRAP["level"],
                          seed=BOOTSTRAP["seed"])
            out.append(EvaluationRow(name, len(rows), len(cols), m, "kendall", grouping, value, ci.low,
                                     ci.high))
        if len(rows) >= 3:
            acc = _system_rows(m, rows, cols, scores, base, human, counts, systems)["accuracy"]
            out.append(EvaluationRow(name, len(rows), len(cols), m, "accuracy", "system", acc.value,
                                     acc.ci.low, acc.ci.high))
    return out


def evaluate(data: MqmVectors, base: Baselines, model: TrainedCometMini,
             cells: Sequence[str] = CELLS) -> list[EvaluationRow]:
    """Every row of the evaluation table (see the module's docstring)."""
    if base.systems != data.systems or base.seg_ids != data.seg_ids:
        raise ValueError("base: the sentence scores are not of the vectors' systems and segments; rerun the "
                         "study")
    scores = {"comet_mini": predictions(data, model.fit.weights, model.fit.bias), **base.sentence}
    return [row for name in cells for row in _cell_rows(name, *cell(model, name), data, scores, base)]


_HEADER = ("cell", "n_systems", "n_segments", "metric", "statistic", "grouping", "value", "low", "high")


def _number(value: float) -> str:
    text = "" if math.isnan(value) else f"{value:.6f}"
    return "0.000000" if text == "-0.000000" else text


def write_table(path: Union[str, Path], rows: Sequence[EvaluationRow]) -> Path:
    """Write the rows as CSV (6 decimals)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_HEADER)
    for r in rows:
        writer.writerow([r.cell, r.n_systems, r.n_segments, r.metric, r.statistic, r.grouping,
                         _number(r.value), _number(r.low), _number(r.high)])
    path = Path(path)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def read_table(path: Optional[Union[str, Path]] = None) -> list[EvaluationRow]:
    """The shipped evaluation table (or the one at ``path``).

    >>> rows = read_table()                                                      # doctest: +SKIP
    >>> test = [r for r in rows if r.cell == "test" and r.grouping == "item"]    # doctest: +SKIP
    >>> [(r.metric, round(r.value, 3)) for r in test]                            # doctest: +SKIP
    """
    with open(path or TABLE, encoding="utf-8", newline="") as f:
        return [EvaluationRow(r["cell"], int(r["n_systems"]), int(r["n_segments"]), r["metric"],
                              r["statistic"], r["grouping"], float(r["value"]), float(r["low"]),
                              float(r["high"]))
                for r in csv.DictReader(f)]

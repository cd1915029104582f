"""The baselines BERTScore's rescaling subtracts: the mean P, R and F1 of unrelated sentence pairs, per layer.

``bert-score`` ships baselines computed from random Common Crawl pairs for *its* models; none exists for
all-MiniLM-L6-v2, so mtlearn computes its own from random pairs of WMT22 English references
(``studies/bertscore_baseline.py``; the card says how).
"""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

__all__ = ["BASELINE_FILE", "baseline"]

BASELINE_FILE = Path(__file__).with_name("baselines.csv")


@lru_cache(maxsize=1)
def _table() -> dict[int, tuple[float, float, float]]:
    if not BASELINE_FILE.is_file():
        raise ValueError(f"rescale: the baseline table {BASELINE_FILE} is missing; reinstall mtlearn")
    with open(BASELINE_FILE, encoding="utf-8") as f:
        return {int(row["layer"]): (float(row["P"]), float(row["R"]), float(row["F"]))
                for row in csv.DictReader(f)}


def baseline(layer: int) -> tuple[float, float, float]:
    """The (P, R, F1) baseline of ``layer``."""
    table = _table()
    if layer not in table:
        raise ValueError(f"rescale: no baseline for layer {layer} in {BASELINE_FILE.name}")
    return table[layer]

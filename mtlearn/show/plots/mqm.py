"""Expert MQM against a sentence metric: one dot per segment (notebook 09, ``MqmExplorer``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Optional

from matplotlib.figure import Figure

_JITTER = 0.15  # MQM scores are few distinct values: spread the points sideways to see how many sit there


def plot_mqm_scatter(mqm: Sequence[float], scores: Sequence[float], *,
                     point: Optional[tuple[float, float]] = None,
                     metric: str = "metric", system: str = "", title: str = "") -> Figure:
    """Sentence scores (vertical) against MQM (horizontal), one dot per segment, ``point`` ringed.

    The MQM scores take few values (0, -1, -5, ...), so each dot is moved sideways by up to
    0.15, the same for a segment on every run (a seeded generator).

    >>> fig = plot_mqm_scatter([0, -1, -5], [0.5, 0.4, 0.2], point=(-1, 0.4), metric="BLEU")
    >>> fig.axes[0].get_xlabel()
    'MQM of the translation (0 = no error; dots spread by up to ±0.15)'
    """
    rng = random.Random(0)
    xs = [float(x) + rng.uniform(-_JITTER, _JITTER) for x in mqm]
    fig = Figure(figsize=(6.4, 3.6))
    ax = fig.add_subplot()
    ax.scatter(xs, list(scores), s=9, alpha=0.35, color="#1f5fa8", linewidths=0)
    if point is not None:
        ax.scatter([point[0]], [point[1]], s=160, facecolors="none", edgecolors="#c0392b", linewidths=2)
    ax.set_xlabel(f"MQM of the translation (0 = no error; dots spread by up to ±{_JITTER:g})")
    ax.set_ylabel(f"{metric} of the sentence")
    ax.set_title(title or f"{system}: {len(xs)} segments", fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig

"""What a paired test resamples, and how a sample is scored: each metric's segment statistics and scorer.

:func:`segment_statistics` turns a corpus result of BLEU, chrF, METEOR or TER into integer rows (a row
per segment), and :func:`resampling_scorer` gives the function from summed rows to scores (0-1): each
metric's vectorised twin of its formula (chrF, METEOR and TER in their folder's ``fast.py``).

>>> from mtlearn import corpus_chrf
>>> result = corpus_chrf(["ab", "b"], [["ab"], ["a"]], char_order=2)
>>> rows = segment_statistics(result)
>>> rows.tolist(), resampling_scorer("chrf", char_order=2)(rows.sum(0)[None, :]).round(4).tolist()
([[2, 2, 2, 1, 1, 1], [1, 1, 0, 0, 0, 0]], [0.8333])
>>> round(result.score, 4)       # the corpus score: the scorer of the whole corpus's sums
0.8333
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional

import numpy as np

from mtlearn.metrics.bleu.score import resampling_scorer as _bleu_scorer
from mtlearn.metrics.bleu.stats import BleuStats
from mtlearn.metrics.chrf.fast import resampling_scorer as _chrf_scorer
from mtlearn.metrics.chrf.stats import ChrfStats
from mtlearn.metrics.meteor.fast import resampling_scorer as _meteor_scorer
from mtlearn.metrics.meteor.score import meteor_from_stats
from mtlearn.metrics.ter.fast import ter_scores
from mtlearn.metrics.ter.stats import TerStats
from mtlearn.study.significance.resampling import Scorer

METRICS: tuple[str, ...] = ("bleu", "chrf", "meteor", "ter")
_FEW_ORDERS = 32  # chrF orders up to which a paired test keeps every column


def _ter_scorer(**_signature_only: Any) -> Scorer:
    """Summed TER statistics (edits, reference length, both times the same whole number) to scores (0-1):
    TER's vectorised twin of its formula, ``ter_scores``."""
    return ter_scores


_SCORERS: dict[str, Callable[..., Scorer]] = {"bleu": _bleu_scorer, "chrf": _chrf_scorer,
                                              "meteor": _meteor_scorer, "ter": _ter_scorer}
_SCORER_OPTIONS = {
    "bleu": ("max_order", "weights", "smoothing", "smooth_value", "effective_order"),
    "chrf": ("char_order", "word_order", "beta", "eps_smoothing"),
    "meteor": ("alpha", "beta", "gamma"),
    "ter": (),
}


def _check_metric(metric: object) -> str:
    if metric not in METRICS:
        raise ValueError(f"metric: unknown value {metric!r}; choose one of {', '.join(METRICS)}")
    return str(metric)


def resampling_scorer(metric: str, **options: Any) -> Scorer:
    """The function from a matrix of summed statistics (one sample a row) to the samples' scores (0-1).

    ``options`` are the metric's scoring options (those of ``bleu_from_stats``,
    ``chrf_from_stats``, ``meteor_from_stats``); tokenizer and case options are
    accepted and ignored (they were used when counting).

    >>> row = np.array([[2, 6, 2, 1, 2, 1, 2, 1]])       # c, r, matches, totals, NLTK totals (2 orders)
    >>> resampling_scorer("bleu", max_order=2)(row).round(4).tolist()
    [0.1353]
    """
    metric = _check_metric(metric)
    wanted = {k: v for k, v in options.items() if k in _SCORER_OPTIONS[metric]}
    if metric == "meteor":
        meteor_from_stats([], **wanted)
    return _SCORERS[metric](**wanted)


def segment_statistics(result: Any, orders: Optional[int] = None) -> np.ndarray:
    """The per-segment statistics of a corpus result of ``corpus_bleu``, ``corpus_chrf``, ``corpus_meteor``
    or ``corpus_ter``.

    One row per segment: BLEU ``c, r, matches..., totals..., NLTK totals...``; chrF
    sacreBLEU's ``c_1, r_1, m_1, c_2, ...``; METEOR ``m, w_t, w_r, chunks``; TER
    ``edits, reference length``, both multiplied by the least common multiple of the
    numbers of references (an average length of 7/2 is kept exactly as a whole number).

    BLEU keeps, by default, every order counted; ``orders`` keeps the first ones only (a paired
    test gives all systems the same number). ``max_order`` is at most
    :data:`~mtlearn.metrics.bleu.options.MAX_ORDER` (4096), so a row has at most 3 x 4096 + 2 numbers.

    >>> from mtlearn import corpus_bleu, corpus_chrf, corpus_ter
    >>> segment_statistics(corpus_chrf(["ab"], [["ab"]], char_order=2)).tolist()
    [[2, 2, 2, 1, 1, 1]]
    >>> segment_statistics(corpus_bleu(["a b"], [["a b"]], max_order=3)).tolist()   # c, r, 3 orders each
    [[2, 2, 2, 1, 0, 2, 1, 0, 2, 1, 1]]
    >>> segment_statistics(corpus_ter(["a b", "c"], [["a b", "a"], ["c d"]])).tolist()  # lengths 3/2, 2; x 2
    [[0, 3], [2, 4]]
    """
    segments = getattr(result, "segments", None)
    if segments is None or not hasattr(segments, "stats"):
        raise TypeError("result: expected a corpus result of corpus_bleu, corpus_chrf, corpus_meteor or "
                        f"corpus_ter, got {type(result).__name__}")
    stats = segments.stats()
    first = stats[0] if stats else None
    if isinstance(first, BleuStats):
        rows = _bleu_rows(stats, _bleu_width(stats) if orders is None else orders)
    elif isinstance(first, TerStats):
        rows = _ter_rows(stats)
    elif isinstance(first, ChrfStats):
        rows = [[v for triple in s.triples for v in triple] for s in stats]
    else:
        rows = [[s.matches, s.candidate_length, s.reference_length, s.chunks] for s in stats]
    return np.array(rows, dtype=np.int64)


def _bleu_rows(stats: Sequence[BleuStats], k: int) -> list[list[int]]:
    """c, r and the first ``k`` orders' matches, totals and NLTK totals of every segment."""
    return [[s.candidate_length, s.reference_length, *s.matches[:k], *s.totals[:k], *s.nltk_totals[:k]]
            for s in stats]


def _ter_rows(stats: Sequence[TerStats]) -> list[list[int]]:
    """Edits and average reference length of every segment, both times the same whole number (exact)."""
    scale = _common_denominator(s.ref_length for s in stats)
    return [[s.edits * scale, int(s.ref_length * scale)] for s in stats]


def _bleu_width(stats: Sequence[BleuStats]) -> int:
    """Orders to keep: every order counted."""
    return len(stats[0].matches)


def _common_denominator(values: Any) -> int:
    """The least common multiple of the denominators of some fractions (1 for whole numbers)."""
    scale = 1
    for v in values:
        scale = np.lcm(scale, v.denominator).item()
    return int(scale)


def _live_chrf_orders(matrices: Sequence[np.ndarray]) -> np.ndarray:
    """The chrF orders that can enter a sample's average: some segment has candidate n-grams and some
    reference ones.

    An order without candidate n-grams in every segment (or without reference n-grams) has
    none in any sample either, so it is left out of every sample's average (effective order):
    dropping its columns changes no score (a high ``char_order`` on short lines).
    """
    live = np.zeros(matrices[0].shape[1] // 3, dtype=bool)
    for m in matrices:
        live |= (m[:, 0::3] > 0).any(axis=0) & (m[:, 1::3] > 0).any(axis=0)
    if not live.any():
        live[0] = True  # nothing on both sides anywhere: one order keeps the shape (score 0)
    return np.repeat(live, 3)


def _statistics(metric: str, results: Mapping[str, Any],
                settings: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Every system's per-segment statistics, all with the same columns.

    BLEU keeps every order counted; chrF without
    ``eps_smoothing`` and with many orders drops those no sample can use (see
    :func:`_live_chrf_orders`; with few orders every column stays, so that the sums over the
    orders are added up exactly as before, bit for bit).
    """
    orders = None
    if metric == "bleu":
        orders = max(_bleu_width(r.segments.stats()) for r in results.values())
    stats = {name: segment_statistics(r, orders) for name, r in results.items()}
    n_orders = next(iter(stats.values())).shape[1] // 3
    if metric == "chrf" and not settings.get("eps_smoothing") and n_orders > _FEW_ORDERS:
        live = _live_chrf_orders(list(stats.values()))
        stats = {name: m[:, live] for name, m in stats.items()}
    return stats

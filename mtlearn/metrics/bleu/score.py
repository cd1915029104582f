"""BLEU with every step exposed: sufficient statistics, ``BleuResult``, ``bleu()``, ``corpus_bleu()``.

The architecture is sacreBLEU's (``sacrebleu/metrics/bleu.py``):

1. each segment is reduced once to its *sufficient statistics*, a :class:`BleuStats`
   (candidate length c, closest reference length r, clipped matches and candidate
   n-gram totals per order; :mod:`mtlearn.metrics.bleu.stats`);
2. statistics of a corpus are *summed* (``BleuStats`` supports ``+`` and
   :func:`~mtlearn.metrics.bleu.stats.sum_stats`);
3. ONE function, :func:`bleu_from_stats`, turns statistics into a score:
   p_n = matches_n / totals_n (smoothed), BP = exp(min(0, 1 - r/c)),
   BLEU = BP * exp(sum_n w_n log p_n).

Because step 3 only needs the summed numbers, a paired bootstrap resamples the
per-segment statistics (``result.segments.stats()``) and calls
:func:`bleu_from_stats` on each sample; nothing is re-tokenized or re-counted.

The Chinese blog post's example A, with BLEU-4 and no smoothing:

>>> r = bleu("A B B C D", ["A B C D E F"])
>>> [str(p) for p in r.precision_fractions]
['4/5', '3/4', '1/3', '0']
>>> r.score, r.reason
(0.0, "no 4-gram matches, so p_4 = 0 and BLEU = 0 (smoothing='none')")

The per-segment trace (``ngram_table``) is computed on demand, so scoring a large
corpus costs no more than counting.
"""

from __future__ import annotations

import math
import warnings
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Callable, Optional, Union

from mtlearn.core.checks import Segment, as_reference_list, as_tokens
from mtlearn.core.corpus import Segments, corpus_call
from mtlearn.core.references import check_sentence_call
from mtlearn.core.tokenize import cjk_note, get_tokenizer, unsplit_cjk
from mtlearn.core.wording import part_of
from mtlearn.metrics.bleu.fast import bleu_scores, count_width, segment_row, sum_rows
from mtlearn.metrics.bleu.formulas import brevity_penalty, geometric_mean
from mtlearn.metrics.bleu.options import DEFAULTS, BleuOptions
from mtlearn.metrics.bleu.result import BleuResult, NgramRow
from mtlearn.metrics.bleu.smoothing import NEEDS_FIVEGRAMS, SmoothedPrecisions, smooth
from mtlearn.metrics.bleu.stats import BleuStats, stats_from_row, sum_stats

if TYPE_CHECKING:  # numpy loads with the paired test that needs it, not with bleu()
    import numpy as np

__all__ = [
    "BleuStats",
    "NgramRow",
    "BleuResult",
    "BleuSegments",
    "bleu",
    "corpus_bleu",
    "bleu_from_stats",
    "sum_stats",
    "resampling_scorer",
]


# --------------------------------------------------------------------------------------
# Statistics -> score
# --------------------------------------------------------------------------------------


def bleu_from_stats(
    stats: BleuStats,
    *,
    max_order: int = DEFAULTS.max_order,
    weights: Optional[Sequence[float]] = DEFAULTS.weights,
    smoothing: str = DEFAULTS.smoothing,
    smooth_value: Optional[float] = DEFAULTS.smooth_value,
    effective_order: bool = DEFAULTS.effective_order,
    tokenize: str = DEFAULTS.tokenize,
    lowercase: bool = DEFAULTS.lowercase,
    nrefs: Union[int, str] = "?",
) -> BleuResult:
    """THE function turning (summed) sufficient statistics into a BLEU score.

    Cheap (no tokenizing, no counting: a few dozen arithmetic operations), so a
    paired bootstrap can call it thousands of times on resampled sums::

        stats = corpus_bleu(hyps, refs, tokenize="13a").segments.stats()
        sample = sum_stats(stats[i] for i in indices)
        bleu_from_stats(sample, tokenize="13a", smoothing="exp").score

    ``tokenize``, ``lowercase`` and ``nrefs`` only go into the signature (the
    statistics were already counted with them).

    The Chinese blog post's example C as statistics (c = 2, r = 6, every n-gram matched):

    >>> s = BleuStats(2, 6, (2, 1), (2, 1), (2, 1))
    >>> r = bleu_from_stats(s, max_order=2)
    >>> round(r.brevity_penalty, 4), round(r.score, 4)
    (0.1353, 0.1353)
    """
    opts = BleuOptions(max_order=max_order, weights=weights, smoothing=smoothing, smooth_value=smooth_value,
                       tokenize=tokenize, lowercase=lowercase, effective_order=effective_order)
    if not isinstance(stats, BleuStats):
        raise TypeError(f"stats: expected BleuStats, got {type(stats).__name__}")
    return result_from_stats(stats, opts, nrefs=str(nrefs))


def result_from_stats(
    stats: BleuStats,
    opts: BleuOptions,
    *,
    nrefs: str,
    extra_notes: Sequence[str] = (),
    segments: Sequence[BleuResult] = (),
    candidate_tokens: Optional[tuple[str, ...]] = None,
    reference_tokens: Optional[tuple[tuple[str, ...], ...]] = None,
    warn_stacklevel: int = 4,
) -> BleuResult:
    """Statistics to score, through the formula steps: smooth, BP, weighted geometric mean.

    ``extra_notes`` join the reason; ``segments`` or the tokens make a corpus's or a segment's result;
    ``warn_stacklevel`` points a warning about a precision above 1 at the user's line.

    >>> from mtlearn.metrics.bleu.stats import BleuStats
    >>> result_from_stats(BleuStats(2, 6, (2, 1), (2, 1), (2, 1)), BleuOptions(max_order=2), nrefs="1").score
    0.1353352832366127
    """
    N = opts.max_order
    matches, totals = stats.matches[:N], stats.totals[:N]
    smoothed = _smoothed(stats, opts)
    c, r = stats.candidate_length, stats.reference_length
    bp = brevity_penalty(c, r)
    used = smoothed.orders
    eff = _effective_weights(opts.resolved_weights, used)
    precisions = tuple(map(float, smoothed.precisions))
    logs = tuple(math.log(p) if p > 0 else -math.inf for p in precisions)
    # The weight each order has in the mean: 0 for an order left out by effective order, and
    # with the Chen-Cherry family (NLTK's ``if p_i > 0``) for every precision still 0.
    mean_weights = tuple(0.0 if n >= used or (smoothed.skip_zero and logs[n] == -math.inf) else eff[n]
                         for n in range(N))
    # The trace of the mean: w_n log p_n per order (0 for an order left out) and their sum.
    weighted = tuple(w * lg if w != 0 else 0.0 for w, lg in zip(mean_weights, logs))
    if smoothed.skip_zero and stats.matches[0] == 0:
        log_mean, geo = -math.inf, 0.0  # NLTK: no unigram matches, BLEU = 0
    else:
        log_mean = -math.inf if -math.inf in weighted else math.fsum(weighted)
        geo = geometric_mean(precisions, mean_weights)
    notes = _reason_notes(extra_notes, smoothed.notes, c)
    _warn_above_one(smoothed.notes, warn_stacklevel)
    return BleuResult(
        score=bp * geo,
        precisions=precisions,
        matches=tuple(matches),
        totals=tuple(totals),
        weights=opts.resolved_weights,
        effective_weights=eff,
        log_precisions=logs,
        weighted_log_precisions=weighted,
        log_mean=log_mean,
        geometric_mean=geo,
        brevity_penalty=bp,
        candidate_length=c,
        reference_length=r,
        max_order=N,
        orders_used=used,
        effective_order=opts.effective_order,
        smoothing=opts.smoothing,
        smooth_value=opts.smooth_value,
        tokenize=opts.tokenize,
        lowercase=opts.lowercase,
        signature=opts.signature(nrefs),
        reason="; ".join(notes) if notes else None,
        stats=stats,
        segments=segments,
        candidate_tokens=candidate_tokens,
        reference_tokens=reference_tokens,
        smoothing_notes=smoothed.notes,
    )


def _smoothed(stats: BleuStats, opts: BleuOptions) -> SmoothedPrecisions:
    """The precisions of orders 1..max_order after ``opts.smoothing`` (checks the orders counted)."""
    N = opts.max_order
    if len(stats.matches) < N:
        raise ValueError(f"stats: counted up to order {len(stats.matches)}, max_order={N} asked")
    fivegram = None
    if opts.smoothing in NEEDS_FIVEGRAMS:
        if len(stats.matches) < 5:
            raise ValueError("stats: method5/method7 need statistics up to order 5 (NLTK's rule)")
        fivegram = (stats.matches[4], stats.nltk_totals[4])
    return smooth(
        opts.smoothing, matches=stats.matches[:N], totals=stats.totals[:N],
        smooth_value=opts.smooth_value, effective_order=opts.effective_order,
        candidate_length=stats.candidate_length, nltk_totals=stats.nltk_totals[:N],
        fivegram=fivegram,
    )


def _effective_weights(weights: tuple[float, ...], used: int) -> tuple[float, ...]:
    """The weights as used when effective order keeps only orders 1..used.

    The kept weights are renormalised to the same total (1/used each when uniform),
    the orders left out get 0.

    >>> _effective_weights((0.25, 0.25, 0.25, 0.25), 2), _effective_weights((0.5, 0.5), 2)
    ((0.5, 0.5, 0.0, 0.0), (0.5, 0.5))
    """
    N = len(weights)
    if used >= N:
        return weights
    kept = weights[:used]
    kept_sum = math.fsum(kept)
    if kept_sum > 0:
        scale = math.fsum(weights) / kept_sum
        return tuple(w * scale for w in kept) + (0.0,) * (N - used)
    return weights


def _reason_notes(extra_notes: Sequence[str], smoothing_notes: Sequence[str], c: int) -> list[str]:
    """The notes that explain a zero or unusual score (the ``reason`` of a result)."""
    notes = list(extra_notes)
    notes.extend(n for n in smoothing_notes if _is_reason(n))
    if c == 0 and not any("candidate" in n and "empty" in n for n in notes):
        notes.append("the candidate is empty (c = 0): BP = 0 and BLEU = 0")
    if len(notes) > _REASON_NOTES:  # one note per order of a huge max_order would be megabytes
        kept = notes[: _REASON_NOTES - 1]
        kept.append(f"and {len(notes) - len(kept)} more notes of the same kinds (see smoothing_notes)")
        return kept
    return notes


#: At most this many notes in a result's ``reason``.
_REASON_NOTES = 6


def _warn_above_one(smoothing_notes: Sequence[str], stacklevel: int) -> None:
    """Warn when ``smooth_value > 1`` made a precision exceed 1 (floor, method1): a legal but odd score."""
    above = [n for n in smoothing_notes if n.startswith("smooth_value = ")]
    if above:
        warnings.warn(f"BLEU: {above[0]}", UserWarning, stacklevel=stacklevel)


def _is_reason(note: str) -> bool:
    # Reasons explain a zero or an unusual score; plain smoothing steps stay in smoothing_notes.
    keys = ("BLEU = 0", "0/0", "left out", "effective order", "tiny positive", "exceed 1")
    return any(k in note for k in keys)


def _segment_notes(cand: Sequence[str], refs: Sequence[Sequence[str]], tokenize: str) -> list[str]:
    notes = []
    better = unsplit_cjk(cand, tokenize) or next(filter(None, (unsplit_cjk(r, tokenize) for r in refs)), None)
    if better:
        notes.append(cjk_note(tokenize, better, "the segment holds"))
    if not cand:
        notes.append("the candidate is empty (c = 0): BP = 0 and BLEU = 0")
    empty = [i for i, ref in enumerate(refs) if not ref]
    if empty:
        which = ", ".join(str(i) for i in empty)
        notes.append(f"reference {which} is empty (0 tokens): it matches nothing and has length 0")
    return notes


def _corpus_cjk_notes(candidates: Sequence[Segment], tokenize: str) -> list[str]:
    """One note when candidates hold unsplit Chinese or Japanese (checked on the raw text: one regex pass)."""
    hints = [b for b in (unsplit_cjk(c, tokenize) for c in candidates) if b]
    if not hints:
        return []
    subject = part_of(len(hints), len(candidates), "candidate", ("holds", "hold"))
    return [cjk_note(tokenize, max(set(hints), key=hints.count), subject)]


# --------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------


def bleu(
    candidate: Segment,
    references: Sequence[Segment],
    *,
    max_order: int = DEFAULTS.max_order,
    weights: Optional[Sequence[float]] = DEFAULTS.weights,
    smoothing: str = DEFAULTS.smoothing,
    smooth_value: Optional[float] = DEFAULTS.smooth_value,
    tokenize: str = DEFAULTS.tokenize,
    lowercase: bool = DEFAULTS.lowercase,
    effective_order: bool = DEFAULTS.effective_order,
) -> BleuResult:
    """BLEU of one candidate against its references, with every step kept.

    ``candidate`` and each reference are strings (tokenized by ``tokenize``,
    lowercased first if ``lowercase``, as sacreBLEU does) or lists of tokens (used as
    given). ``smoothing`` is one of ``none``, ``floor``, ``add-k``, ``exp``
    (sacreBLEU) or ``method0`` .. ``method7`` (Chen and Cherry, as NLTK); see
    :mod:`mtlearn.metrics.bleu.smoothing`. For sentence BLEU sacreBLEU recommends
    ``smoothing="exp", effective_order=True``.

    Papineni's Candidate 1 against his three references (BLEU-2, words without
    the final full stop):

    >>> c1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
    >>> refs = ["It is a guide to action that ensures that the military will forever heed Party commands",
    ...         "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    ...         "It is the practical guide for the army always to heed the directions of the party"]
    >>> r = bleu(c1, refs, max_order=2)
    >>> r.matches, r.totals, round(r.score, 4)
    ((17, 10), (18, 17), 0.7454)
    """  # noqa: E501
    opts = BleuOptions(max_order=max_order, weights=weights, smoothing=smoothing, smooth_value=smooth_value,
                       tokenize=tokenize, lowercase=lowercase, effective_order=effective_order)
    check_sentence_call(candidate, references, call="bleu")  # a corpus here would score as one sentence
    cand = as_tokens(candidate, argname="candidate", tokenize=tokenize, lowercase=lowercase)
    refs = as_reference_list(references, argname="references", tokenize=tokenize,
                             lowercase=lowercase)
    return _segment_result(cand, refs, opts)


def _segment_result(cand: tuple[str, ...], refs: list[tuple[str, ...]], opts: BleuOptions,
                    stats: Optional[BleuStats] = None, warn_stacklevel: int = 5) -> BleuResult:
    """One segment's result from its tokens (its statistics counted here unless given)."""
    if stats is None:
        width = count_width(opts.extract_order, len(cand))
        stats = stats_from_row(segment_row(cand, refs, width), width, opts.extract_order)
    return result_from_stats(stats, opts, nrefs=str(len(refs)),
                             extra_notes=_segment_notes(cand, refs, opts.tokenize), candidate_tokens=cand,
                             reference_tokens=tuple(refs), warn_stacklevel=warn_stacklevel)


def _corpus_width(candidates: list, opts: BleuOptions) -> int:
    """How many orders corpus BLEU counts: :func:`~mtlearn.metrics.bleu.fast.count_width` of the longest
    candidate.

    The candidates are tokenized an extra time only for unusually high orders (above 8);
    below, counting every order costs nothing worth saving.
    """
    order = opts.extract_order
    if order <= 8:
        return order
    longest = max(
        len(as_tokens(cand, argname=f"candidates[{i}]", tokenize=opts.tokenize, lowercase=opts.lowercase))
        for i, cand in enumerate(candidates)
    )
    return count_width(order, longest)


def corpus_bleu(
    candidates: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
    *,
    max_order: int = DEFAULTS.max_order,
    weights: Optional[Sequence[float]] = DEFAULTS.weights,
    smoothing: str = DEFAULTS.smoothing,
    smooth_value: Optional[float] = DEFAULTS.smooth_value,
    tokenize: str = DEFAULTS.tokenize,
    lowercase: bool = DEFAULTS.lowercase,
    effective_order: bool = DEFAULTS.effective_order,
) -> BleuResult:
    """Corpus BLEU: statistics summed over segments, then one score (Papineni's p_n).

    ``references[i]`` is the list of references of ``candidates[i]``; segments may
    have different numbers of references. Options as in :func:`bleu`. WMT's
    official BLEU is ``corpus_bleu(..., tokenize="13a", smoothing="exp")``.
    Per-segment results are in ``.segments`` (built on access).

    NLTK's ``corpus_bleu`` doctest corpus (its score is 0.5920...):

    >>> hyp1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
    >>> refs1 = ["It is a guide to action that ensures that the military will forever heed Party commands",
    ...          "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    ...          "It is the practical guide for the army always to heed the directions of the party"]
    >>> hyp2 = "he read the book because he was interested in world history"
    >>> refs2 = ["he was interested in world history because he read the book"]
    >>> r = corpus_bleu([hyp1, hyp2], [refs1, refs2])
    >>> round(r.score, 4), r.candidate_length, r.reference_length
    (0.5921, 29, 29)
    """  # noqa: E501
    opts = BleuOptions(max_order=max_order, weights=weights, smoothing=smoothing, smooth_value=smooth_value,
                       tokenize=tokenize, lowercase=lowercase, effective_order=effective_order)
    return corpus_call("corpus_bleu", candidates, references,
                       lambda cands, refs: _corpus_result(cands, refs, opts))


def _count_rows(candidates: list, references: list, opts: BleuOptions,
                order: int) -> tuple[array, set[int], int]:
    """Every segment's row [c, r, matches..., totals...] (``order`` orders), the numbers of references
    seen, and how many segments have an empty reference.

    The hot loop of corpus BLEU: one tokenizer call per text.
    """
    tokenize, lc = opts.tokenize, opts.lowercase
    tok = get_tokenizer(tokenize)
    rows = array("i")
    extend = rows.extend
    nrefs_seen: set[int] = set()
    empty_refs = 0
    for i, (cand, refs) in enumerate(zip(candidates, references)):
        if type(cand) is str:
            ct = tok(cand.lower() if lc else cand)
        else:
            ct = as_tokens(cand, argname=f"candidates[{i}]", tokenize=tokenize, lowercase=lc)
        try:
            if type(refs) is str or not refs:
                raise TypeError
            rts = [tok(ref.lower() if lc else ref) for ref in refs]
        except (TypeError, AttributeError):
            rts = as_reference_list(refs, argname=f"references[{i}]", tokenize=tokenize, lowercase=lc)
        nrefs_seen.add(len(rts))
        if not all(rts):
            empty_refs += 1
        extend(segment_row(ct, rts, order))
    return rows, nrefs_seen, empty_refs


def _corpus_result(candidates: list, references: list, opts: BleuOptions) -> BleuResult:
    """:func:`corpus_bleu` inside the corpus boundary (options checked, shapes checked, plain lists)."""
    order = _corpus_width(candidates, opts)
    rows, nrefs_seen, empty_refs = _count_rows(candidates, references, opts, order)
    stats = sum_rows(rows, order, opts.extract_order)
    nrefs = str(next(iter(nrefs_seen))) if len(nrefs_seen) == 1 else "var"
    notes = []
    empty_cands = rows[0 :: 2 + 2 * order].count(0)
    if empty_cands:
        notes.append(f"{part_of(empty_cands, len(candidates), 'candidate')} empty")
    if empty_refs:
        notes.append(f"{part_of(empty_refs, len(candidates), 'segment', ('has', 'have'))} an empty reference")
    notes.extend(_corpus_cjk_notes(candidates, opts.tokenize))
    segments = BleuSegments(candidates, references, rows, order, opts)
    return result_from_stats(stats, opts, nrefs=nrefs, extra_notes=notes, segments=segments,
                             warn_stacklevel=7)


class BleuSegments(Segments[BleuResult, BleuStats]):
    """The per-segment results of a corpus, built on access from stored statistics (a core ``Segments``).

    Holds only the inputs (shallow copies of the lists) and a compact array of
    per-segment statistics; ``segments[i]`` re-tokenizes segment i to rebuild its
    trace. ``stats()`` gives every segment's :class:`BleuStats`, e.g. for a bootstrap.

    >>> r = corpus_bleu(["A B B C D", "A B"], [["A B C D E F"], ["A B C D E F"]], max_order=2)
    >>> len(r.segments), str(r.segments[1].precision_fractions[0]), r.segments.stats()[1].candidate_length
    (2, '1', 2)
    """

    def __init__(self, candidates: list, references: list, rows: array, width: int,
                 options: BleuOptions) -> None:
        self._candidates = candidates
        self._references = references
        self._rows = rows
        self._width = width  # orders counted (none beyond the longest candidate)
        self._options = options
        super().__init__("Bleu", len(candidates), stats_of=self._stats_of, build=self._build,
                         all_stats=self._all_stats)

    def _stats_of(self, index: int) -> BleuStats:
        step = 2 + 2 * self._width
        return stats_from_row(self._rows[index * step : (index + 1) * step], self._width,
                              self._options.extract_order)

    def _all_stats(self) -> list[BleuStats]:
        step = 2 + 2 * self._width
        rows = self._rows.tolist()
        order = self._options.extract_order
        return [stats_from_row(rows[i : i + step], self._width, order) for i in range(0, len(rows), step)]

    def _build(self, index: int) -> BleuResult:
        opts = self._options
        cand = as_tokens(self._candidates[index], argname=f"candidates[{index}]",
                         tokenize=opts.tokenize, lowercase=opts.lowercase)
        refs = as_reference_list(self._references[index], argname=f"references[{index}]",
                                 tokenize=opts.tokenize, lowercase=opts.lowercase)
        return _segment_result(cand, refs, opts, self._stats_of(index), warn_stacklevel=6)


# --------------------------------------------------------------------------------------
# A paired test's samples
# --------------------------------------------------------------------------------------


def resampling_scorer(
    max_order: int = DEFAULTS.max_order,
    weights: Optional[Sequence[float]] = DEFAULTS.weights,
    smoothing: str = DEFAULTS.smoothing,
    smooth_value: Optional[float] = DEFAULTS.smooth_value,
    effective_order: bool = DEFAULTS.effective_order,
    **_counting_only: object,
) -> Callable[[np.ndarray], np.ndarray]:
    """Summed BLEU statistics (a resample a row: c, r, matches, totals, NLTK totals) to scores (0-1).

    sacreBLEU's ``none`` and ``exp`` with uniform weights go through the fast twin
    :func:`~mtlearn.metrics.bleu.fast.bleu_scores`; every other setting through
    :func:`bleu_from_stats`, row by row. The options are checked once, as ``bleu()`` checks them
    (``tokenize`` and ``lowercase`` were used when counting). The rows may hold fewer orders than
    ``max_order`` (``segment_statistics(..., orders=k)``); every order past the last stored one is
    then like it.

    >>> import numpy as np
    >>> sums = np.array([[2, 6, 2, 1, 2, 1, 2, 1]])
    >>> resampling_scorer(max_order=2)(sums).round(4).tolist()
    [0.1353]
    >>> resampling_scorer(max_order=2, smoothing="add-k")(sums).tolist()
    [0.1353352832366127]
    """
    opts = BleuOptions(max_order=max_order, weights=weights, smoothing=smoothing, smooth_value=smooth_value,
                       effective_order=effective_order)  # one check, the messages of bleu()

    def orders(values: Sequence[int]) -> tuple[int, ...]:
        head = tuple(int(v) for v in values)
        return head + head[-1:] * (max_order - len(head))

    def one(row: Sequence[int]) -> float:
        k = (len(row) - 2) // 3
        stats = BleuStats(int(row[0]), int(row[1]), orders(row[2:2 + k]), orders(row[2 + k:2 + 2 * k]),
                          orders(row[2 + 2 * k:]))
        return result_from_stats(stats, opts, nrefs="?").score

    plain = smoothing in ("none", "exp") and not effective_order and weights is None

    def scores(sums: np.ndarray) -> np.ndarray:
        import numpy as np  # here: bleu() and corpus_bleu() never load numpy

        if not plain:
            return np.array([one(row) for row in sums.tolist()], dtype=np.float64)
        return bleu_scores(sums, max_order, smoothing)

    return scores

"""chrF and chrF++, the public entry points: ``chrf()``, ``corpus_chrf()``, ``chrf_from_stats()``.

Each segment is reduced to its :class:`~mtlearn.metrics.chrf.stats.ChrfStats` against the reference
it keeps; a corpus sums them; :func:`result_from_stats` turns statistics into a
:class:`~mtlearn.metrics.chrf.result.ChrfResult` through the formulas of
:mod:`mtlearn.metrics.chrf.formulas`. ``chrf()`` counts with the formulas themselves, ``corpus_chrf()``
with their twins in :mod:`mtlearn.metrics.chrf.fast`.

A worked example (character orders 1 and 2 only, so it fits on paper):

>>> r = chrf("ab ab", ["abc"], char_order=2)
>>> [(o.n, o.candidate_count, o.reference_count, o.matched) for o in r.orders]
[(1, 4, 3, 2), (2, 3, 2, 1)]
>>> [str(o.precision) for o in r.orders], [str(o.recall) for o in r.orders]
(['1/2', '1/3'], ['2/3', '1/2'])
>>> str(r.precision_fraction), str(r.recall_fraction), r.score  # F_2 = 5 * 5/12 * 7/12 / (4 * 5/12 + 7/12)
('5/12', '7/12', 0.5401234567901234)

Scores are on mtlearn's 0-1 scale (sacreBLEU prints 100 x this).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, Optional, Union

from mtlearn.core.corpus import Segments, corpus_call
from mtlearn.core.references import check_sentence_call
from mtlearn.core.wording import part_of
from mtlearn.metrics.chrf.fast import NgramCutter, profile_row, text_profile
from mtlearn.metrics.chrf.formulas import (
    averaged_f,
    effective_orders,
    eps_smoothed_f,
    order_f,
    precision,
    recall,
    segment_counts,
    strip_whitespace,
)
from mtlearn.metrics.chrf.options import DEFAULTS, MAX_ORDER, REFERENCE_TIES, ChrfOptions
from mtlearn.metrics.chrf.result import ChrfNgramRow, ChrfOrder, ChrfResult
from mtlearn.metrics.chrf.stats import ChrfStats, choice_text, choose_reference, sum_stats

__all__ = [
    "ChrfStats",
    "ChrfOrder",
    "ChrfNgramRow",
    "ChrfResult",
    "ChrfSegments",
    "REFERENCE_TIES",
    "MAX_ORDER",
    "chrf",
    "corpus_chrf",
    "chrf_from_stats",
    "result_from_stats",
    "sum_stats",
]


# --------------------------------------------------------------------------- input checks


def _check_text(value: object, argname: str) -> str:
    if not isinstance(value, str):
        raise TypeError(
            f"{argname}: expected a string (chrF reads characters, not tokens), got {type(value).__name__}"
        )
    return value


def _check_references(references: object, argname: str) -> list[str]:
    if isinstance(references, str):
        return [references]  # one reference given bare: only one reasonable meaning
    if not isinstance(references, (list, tuple)):
        raise TypeError(f"{argname}: expected a list of reference strings, got {type(references).__name__}")
    if not references:
        raise ValueError(f"{argname}: no references given; a candidate needs at least one")
    return [_check_text(ref, f"{argname}[{i}]") for i, ref in enumerate(references)]


def _is_empty(text: str, whitespace: bool) -> bool:
    """No characters to cut n-grams from (white space does not count unless it is kept)."""
    return not (text if whitespace else strip_whitespace(text))


# --------------------------------------------------------------------------- statistics -> result


def _orders(stats: ChrfStats, opts: ChrfOptions) -> tuple[ChrfOrder, ...]:
    triples = stats.triples
    used = set(range(len(triples))) if opts.eps_smoothing else set(effective_orders(triples))
    kinds = [("char", n) for n in range(1, opts.char_order + 1)]
    kinds += [("word", n) for n in range(1, opts.word_order + 1)]
    return tuple(
        ChrfOrder(kind, n, c, r, m, precision(m, c), recall(m, r),
                  float(order_f(c, r, m, opts.beta, eps=opts.eps_smoothing)), i in used)
        for i, ((kind, n), (c, r, m)) in enumerate(zip(kinds, triples))
    )


def _reason(orders: Sequence[ChrfOrder], opts: ChrfOptions, notes: Sequence[str],
            score: float) -> Optional[str]:
    """Why the score is what it is when a rule kicked in (left-out orders, a zero), else ``None``."""
    out = list(notes)
    if not opts.eps_smoothing:
        left = [o for o in orders if not o.used]
        if left and len(left) < len(orders):
            out.append(f"orders {_labels(left)} left out of the averages: the candidate or the reference "
                       "has no n-grams of them (effective order)")
        elif left:
            out.append("no order has n-grams on both sides, so P = R = 0 and chrF = 0")
    if not any(o.matched for o in orders) and not out:
        out.append("no n-gram of any order matches, so P = R = 0 and chrF = 0"
                   + (" (eps_smoothing: the mean of the epsilons 1e-16)" if score else ""))
    return "; ".join(out) if out else None


def _labels(orders: Sequence[ChrfOrder]) -> str:
    """The orders' labels; a run of more than 6 consecutive orders of one kind as a range (a short reason).

    >>> _labels([ChrfOrder("char", n, 0, 1, 0, 0, 0, 0.0, False) for n in (3, 5, 6, 7)])
    'c3, c5, c6, c7'
    >>> _labels([ChrfOrder("char", n, 0, 1, 0, 0, 0, 0.0, False) for n in range(7, 4097)])
    'c7-c4096'
    """
    runs: list[list[ChrfOrder]] = []
    for o in orders:
        if runs and runs[-1][-1].kind == o.kind and runs[-1][-1].n + 1 == o.n:
            runs[-1].append(o)
        else:
            runs.append([o])
    return ", ".join(f"{run[0].label}-{run[-1].label}" if len(run) > 6 else ", ".join(o.label for o in run)
                     for run in runs)


def result_from_stats(stats: ChrfStats, opts: ChrfOptions, *, nrefs: str, notes: Sequence[str] = (),
                      **segment: Any) -> ChrfResult:
    """Statistics to a :class:`ChrfResult` through the formulas: P and R by
    :func:`~mtlearn.metrics.chrf.formulas.averaged_f`, F by it or by
    :func:`~mtlearn.metrics.chrf.formulas.eps_smoothed_f`. ``segment`` holds what one segment adds
    (``candidate``, ``references``, ``best_reference``, ...) or a corpus's ``segments``.

    >>> result_from_stats(ChrfStats((4, 3), (3, 2), (2, 1), 2, 0), ChrfOptions(char_order=2), nrefs="1").score
    0.5401234567901234
    """
    orders = _orders(stats, opts)
    p, r, f = averaged_f(stats.triples, opts.beta)
    if opts.eps_smoothing:
        f = eps_smoothed_f(stats.triples, opts.beta)
    score = float(f)
    return ChrfResult(
        score=score, orders=orders, precision=float(p), recall=float(r), f_beta=score,
        effective_order=sum(o.used for o in orders), beta=opts.beta, char_order=opts.char_order,
        word_order=opts.word_order, lowercase=opts.lowercase, whitespace=opts.whitespace,
        eps_smoothing=opts.eps_smoothing, reference_ties=opts.reference_ties,
        best_reference=segment.get("best_reference"), reference_choice=segment.get("reference_choice"),
        reference_scores=segment.get("reference_scores", ()), candidate=segment.get("candidate"),
        references=segment.get("references", ()), stats=stats, signature=opts.signature(nrefs),
        reason=_reason(orders, opts, notes, score), segments=segment.get("segments", ()),
    )


def chrf_from_stats(
    stats: ChrfStats,
    *,
    beta: float = DEFAULTS.beta,
    eps_smoothing: bool = DEFAULTS.eps_smoothing,
    lowercase: bool = DEFAULTS.lowercase,
    whitespace: bool = DEFAULTS.whitespace,
    nrefs: Union[int, str] = "?",
) -> ChrfResult:
    """THE function turning (summed) sufficient statistics into chrF.

    Cheap (no text is read), so a bootstrap can call it on resampled sums::

        stats = corpus_chrf(hyps, refs).segments.stats()
        chrf_from_stats(sum_stats(stats[i] for i in sample)).score

    The orders come with the statistics; ``lowercase``, ``whitespace`` and ``nrefs`` only go into
    the signature.

    >>> r = chrf_from_stats(ChrfStats((4, 3), (3, 2), (2, 1), 2, 0))
    >>> r.score, str(r.precision_fraction)
    (0.5401234567901234, '5/12')
    """
    if not isinstance(stats, ChrfStats):
        raise TypeError(f"stats: expected ChrfStats, got {type(stats).__name__}")
    opts = ChrfOptions(char_order=stats.char_order, word_order=stats.word_order, beta=beta,
                       lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)
    return result_from_stats(stats, opts, nrefs=str(nrefs))


# --------------------------------------------------------------------------- one segment


def _segment_notes(candidate: str, references: Sequence[str], opts: ChrfOptions) -> list[str]:
    notes = []
    if _is_empty(candidate, opts.whitespace):
        notes.append("the candidate is empty (no characters): it has no n-grams, so chrF = 0")
    blank = [str(i) for i, ref in enumerate(references) if _is_empty(ref, opts.whitespace)]
    if blank:
        notes.append(f"reference {', '.join(blank)} is empty (no characters): it has no n-grams and scores 0")
    return notes


def _segment_result(candidate: str, references: list[str], opts: ChrfOptions) -> ChrfResult:
    """One segment's result, counted by :func:`~mtlearn.metrics.chrf.formulas.segment_counts` itself."""
    cand, refs = candidate, references
    if opts.lowercase:
        cand, refs = candidate.lower(), [r.lower() for r in references]
    rows = [[x for triple in segment_counts(cand, ref, opts.char_order, opts.word_order, opts.whitespace)
             for x in triple] for ref in refs]
    best, scores = choose_reference(rows, opts)
    return result_from_stats(
        ChrfStats.from_row(rows[best], opts.char_order, opts.word_order), opts, nrefs=str(len(references)),
        notes=_segment_notes(candidate, references, opts), best_reference=best,
        reference_choice=choice_text(best, scores, opts.reference_ties),
        reference_scores=tuple(s / 100 for s in scores), candidate=candidate, references=tuple(references),
    )


def chrf(
    candidate: str,
    references: Sequence[str],
    *,
    char_order: int = DEFAULTS.char_order,
    word_order: int = DEFAULTS.word_order,
    beta: float = DEFAULTS.beta,
    lowercase: bool = DEFAULTS.lowercase,
    whitespace: bool = DEFAULTS.whitespace,
    eps_smoothing: bool = DEFAULTS.eps_smoothing,
    reference_ties: str = DEFAULTS.reference_ties,
) -> ChrfResult:
    """chrF of one candidate against its references, with every step kept.

    sacreBLEU's semantics and defaults: character 6-grams, white space removed,
    beta = 2, P and R averaged over the orders both sides have (``eps_smoothing=False``).
    ``word_order=2`` is chrF++ (words split off one punctuation mark, see
    :func:`~mtlearn.metrics.chrf.formulas.split_punctuation`). With several references
    the one with the highest chrF is kept (``best_reference``); on a tie the first
    (``reference_ties="first"``, sacreBLEU's rule) or the last (``"last"``; WMT22's
    official ``chrf-all`` numbers are what this rule gives with references in A, B order,
    see the card). The options are :class:`~mtlearn.metrics.chrf.options.ChrfOptions`.

    >>> r = chrf("the cat sat", ["a cat sat", "the cat sat down"])
    >>> r.best_reference, round(r.score, 4)
    (0, 0.6723)
    >>> r.reference_choice
    'highest chrF of the 2 references: 0.6723, against 0.6602 (reference 1)'
    >>> round(chrf("the cat sat", ["the cat sat down"], word_order=2).score, 4)
    0.6836
    """
    opts = ChrfOptions(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                       whitespace=whitespace, eps_smoothing=eps_smoothing, reference_ties=reference_ties)
    check_sentence_call(candidate, references, call="chrf")  # name the corpus function, not only the type
    return _segment_result(_check_text(candidate, "candidate"), _check_references(references, "references"),
                           opts)


# --------------------------------------------------------------------------- a corpus


class ChrfSegments(Segments[ChrfResult, ChrfStats]):
    """The per-segment results of a corpus, built on access from the stored inputs.

    Holds the inputs (shallow copies of the lists), a compact array of per-segment
    statistics and the index of each segment's kept reference; ``segments[i]`` is
    ``chrf()`` of segment i with the corpus' options. ``stats()`` gives every segment's
    :class:`~mtlearn.metrics.chrf.stats.ChrfStats` (e.g. for a bootstrap), ``stats_of(i)`` one of
    them, ``best_references()`` the reference each segment kept.

    >>> r = corpus_chrf(["ab ab", "abc"], [["abc"], ["xyz", "abc"]], char_order=2)
    >>> len(r.segments), r.segments[1].best_reference, r.segments.stats_of(1).matched
    (2, 1, (3, 2))
    >>> r.segments.best_references(), r.segments
    ([0, 1], <ChrfSegments: 2 segments>)
    """

    def __init__(self, candidates: list, references: list, rows: array, best: array,
                 opts: ChrfOptions) -> None:
        k = 3 * opts.n_orders

        def stats_of(i: int) -> ChrfStats:
            return ChrfStats.from_row(rows[i * k:(i + 1) * k], opts.char_order, opts.word_order)

        def all_stats() -> list[ChrfStats]:
            flat = rows.tolist()
            return [ChrfStats.from_row(flat[i:i + k], opts.char_order, opts.word_order)
                    for i in range(0, len(flat), k)]

        def build(i: int) -> ChrfResult:
            refs = references[i]
            return _segment_result(candidates[i], [refs] if isinstance(refs, str) else list(refs), opts)

        super().__init__("Chrf", len(candidates), stats_of=stats_of, build=build, all_stats=all_stats)
        self._best = best

    def best_references(self) -> list[int]:
        """The index of the reference kept for every segment."""
        return self._best.tolist()


def _checked(candidate: object, references: object, i: int) -> tuple[str, list[str]]:
    """Segment ``i`` of a corpus: a string and a non-empty list of strings (the usual case, quickly)."""
    if type(candidate) is not str:
        _check_text(candidate, f"candidates[{i}]")
    if type(references) is not list or not references or not all(type(x) is str for x in references):
        references = _check_references(references, f"references[{i}]")
    return candidate, references  # type: ignore[return-value]


def _best_row(candidate: str, references: list[str], opts: ChrfOptions,
              cutter: NgramCutter) -> tuple[list[int], int]:
    """The statistics row ``[c_1, r_1, m_1, ...]`` against the reference kept, and its index."""
    if opts.lowercase:
        candidate, references = candidate.lower(), [x.lower() for x in references]
    nc, nw, space = opts.char_order, opts.word_order, opts.whitespace
    profile = text_profile(candidate, nc, nw, space, cutter=cutter)
    rows = [profile_row(profile, text_profile(ref, nc, nw, space, cutter=cutter)) for ref in references]
    best = choose_reference(rows, opts)[0] if len(rows) > 1 else 0
    return rows[best], best


def _corpus_notes(empty_candidates: int, empty_references: int, n: int) -> list[str]:
    notes = []
    if empty_candidates:
        notes.append(f"{part_of(empty_candidates, n, 'candidate')} empty")
    if empty_references:
        notes.append(f"{part_of(empty_references, n, 'segment', ('has', 'have'))} an empty reference")
    return notes


def _corpus_result(candidates: list, references: list, opts: ChrfOptions) -> ChrfResult:
    """Every segment's statistics by the fast twins (:mod:`~mtlearn.metrics.chrf.fast`), summed, scored."""
    rows, best_refs = array("q"), array("i")
    nrefs_seen: set[int] = set()
    empty_candidates = empty_references = 0
    cutter = NgramCutter()  # this call's slices, dropped with it
    for i, (cand, refs) in enumerate(zip(candidates, references)):
        cand, refs = _checked(cand, refs, i)
        row, best = _best_row(cand, refs, opts, cutter)
        rows.extend(row)
        best_refs.append(best)
        nrefs_seen.add(len(refs))
        empty_candidates += _is_empty(cand, opts.whitespace)
        empty_references += any(_is_empty(x, opts.whitespace) for x in refs)
    k = 3 * opts.n_orders
    stats = ChrfStats(*(tuple(sum(rows[j::k]) for j in range(first, k, 3)) for first in range(3)),
                      opts.char_order, opts.word_order)
    nrefs = str(next(iter(nrefs_seen))) if len(nrefs_seen) == 1 else "var"
    return result_from_stats(stats, opts, nrefs=nrefs,
                             notes=_corpus_notes(empty_candidates, empty_references, len(candidates)),
                             segments=ChrfSegments(candidates, references, rows, best_refs, opts))


def corpus_chrf(
    candidates: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    char_order: int = DEFAULTS.char_order,
    word_order: int = DEFAULTS.word_order,
    beta: float = DEFAULTS.beta,
    lowercase: bool = DEFAULTS.lowercase,
    whitespace: bool = DEFAULTS.whitespace,
    eps_smoothing: bool = DEFAULTS.eps_smoothing,
    reference_ties: str = DEFAULTS.reference_ties,
) -> ChrfResult:
    """Corpus chrF: each segment's statistics (against its best reference) summed, then one score.

    ``references[i]`` is the list of references of ``candidates[i]`` (segments may have
    different numbers). Options as in :func:`chrf`. WMT's official chrF is the default
    ``corpus_chrf(hyps, refs)``; chrF++ is ``word_order=2``. Per-segment results are in
    ``.segments`` (built on access).

    >>> r = corpus_chrf(["the cat sat", "a dog"], [["the cat sat"], ["the dog"]])
    >>> round(r.score, 4), r.stats.matched[:2]
    (0.7769, (12, 10))
    """
    opts = ChrfOptions(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                       whitespace=whitespace, eps_smoothing=eps_smoothing, reference_ties=reference_ties)
    return corpus_call("corpus_chrf", candidates, references,
                       lambda cands, refs: _corpus_result(cands, refs, opts))

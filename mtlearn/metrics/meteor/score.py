"""METEOR (Banerjee & Lavie 2005) for one segment or a corpus, every step exposed: the public entry points.

:func:`meteor` aligns the candidate with each reference stage by stage
(:mod:`mtlearn.metrics.meteor.alignment`), counts matches ``m``, chunks ``c`` and the
lengths ``w_t``, ``w_r``, and applies the formulas of
:mod:`mtlearn.metrics.meteor.formulas` (per segment through their integer twins in
:mod:`mtlearn.metrics.meteor.fast`, proven equal to them); the best-scoring reference is
kept (the Spanish Wikipedia article *METEOR*). :func:`corpus_meteor` sums the counts of every segment's
best reference and applies the formulas once (item 8); :func:`meteor_from_stats` does that from
counts alone. The options are :class:`~mtlearn.metrics.meteor.options.MeteorOptions`.

The worked example's worked examples (exact stage only, so that they need no WordNet):

>>> r = meteor("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"])
>>> r.score, r.chunks, r.crossings, r.penalty
(0.5, 6, 8, Fraction(1, 2))
>>> meteor("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"],
...        tie_break="chunks").score
0.9375
>>> r = meteor("the cat was sat on the mat", ["the cat sat on the mat"], stages=["exact"])
>>> r.precision, r.recall, r.f_mean, r.chunks, round(r.score, 5)
(Fraction(6, 7), Fraction(1, 1), Fraction(60, 61), 2, 0.96539)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, Optional, Union

from mtlearn.core.checks import as_reference_list, as_token_corpus, as_tokens
from mtlearn.core.corpus import Segments, corpus_call
from mtlearn.core.references import check_sentence_call
from mtlearn.metrics.meteor._search import SearchStop
from mtlearn.metrics.meteor.alignment import (
    DEFAULT_NODE_BUDGET,
    AlignedBatch,
    Alignment,
    _align_pairs_many,
    alignment_from_pairs,
)
from mtlearn.metrics.meteor.fast import Params, exact_numbers, exact_parameters, score_value
from mtlearn.metrics.meteor.formulas import chunk_spans
from mtlearn.metrics.meteor.matchers import Stage, resolve_stages
from mtlearn.metrics.meteor.options import DEFAULTS, MeteorOptions
from mtlearn.metrics.meteor.result import MeteorResult
from mtlearn.metrics.meteor.stats import (
    MeteorStats,
    arithmetic,
    corpus_score_from_stats,
    numbers,
    reason_of,
    sum_stats,
)

__all__ = [
    "MeteorResult",
    "MeteorSegments",
    "MeteorStats",
    "meteor",
    "corpus_meteor",
    "corpus_score_from_stats",
    "meteor_from_stats",
]

Number = Union[Fraction, float]

#: How many built segment results a :class:`MeteorSegments` keeps (the most recently read).
BUILT_SEGMENTS_KEPT = 64

# What a corpus keeps of one segment, as a plain tuple of strings and ints (the garbage
# collector stops tracking those, so a large corpus kept in memory costs no collection
# time): (candidate tokens, the references' tokens, the index of the best reference,
# the index in the AlignedBatch of its first reference's alignment).
_Segment = tuple[tuple[str, ...], tuple[tuple[str, ...], ...], int, int]


# --------------------------------------------------------------------------- one segment


def _segment_fields(alignment: Alignment, opts: MeteorOptions, signature: str, params: Optional[Params],
                    ) -> dict[str, Any]:
    """The fields of one segment's :class:`MeteorResult` against one reference."""
    mappings = alignment.mappings
    m = len(mappings)
    wt, wr = len(alignment.candidate), len(alignment.reference)
    stats = MeteorStats(m, wt, wr, alignment.chunks)
    if params is not None and m and wt and wr:
        values, reason = exact_numbers(m, wt, wr, alignment.chunks, params), None
    else:
        values, reason = numbers(stats, opts), reason_of(stats, corpus=False)
    return dict(
        candidate=alignment.candidate, reference=alignment.reference, alignment=mappings,
        matches_per_stage=alignment.matches_per_stage, crossings=alignment.crossings,
        chunk_spans=tuple(chunk_spans([(x.candidate_index, x.reference_index) for x in mappings])),
        chunks=alignment.chunks, matches=m, candidate_length=wt, reference_length=wr,
        optimal=alignment.optimal, reason=reason, signature=signature, search_nodes=alignment.nodes,
        search_stops=alignment.stops, alpha=opts.alpha, beta=opts.beta, gamma=opts.gamma,
        tie_break=opts.tie_break, stages=alignment.stages, **arithmetic(opts), **values,
        language=opts.language, notes=opts.notes,
    )


def _segment_score(m: int, wt: int, wr: int, c: int, opts: MeteorOptions, params: Optional[Params]) -> float:
    """A segment's METEOR score from its four counts (0 when nothing can match)."""
    if not (m and wt and wr):
        return 0.0
    if params is not None:
        return score_value(m, wt, wr, c, params)
    return numbers(MeteorStats(m, wt, wr, c), opts)["score"]


def _best_reference(batch: AlignedBatch, first: int, cand: tuple[str, ...], refs: Sequence[tuple[str, ...]],
                    opts: MeteorOptions, params: Optional[Params]) -> int:
    """The index of the best-scoring reference; on a tie the first (a documented, stable choice)."""
    if len(refs) == 1:
        return 0
    scores = []
    for k, ref in enumerate(refs):
        m, chunks = batch.counts(first + k)[:2]
        scores.append(_segment_score(m, len(cand), len(ref), chunks, opts, params))
    return max(range(len(scores)), key=lambda k: (scores[k], -k))


def _segment_result(segment: _Segment, batch: AlignedBatch, opts: MeteorOptions, signature: str,
                    params: Optional[Params]) -> MeteorResult:
    """The full :class:`MeteorResult` of a segment: every reference's, and the best one's."""
    cand, refs, best, first = segment
    names = opts.stage_names
    fields = [
        _segment_fields(alignment_from_pairs(cand, ref, names, opts.tie_break, batch[first + k]),
                        opts, signature, params)
        for k, ref in enumerate(refs)
    ]
    per_ref = tuple(MeteorResult(**f) for f in fields)
    return MeteorResult(**fields[best], per_reference=per_ref, best_reference=best)


def _align(jobs: list[tuple[tuple[str, ...], tuple[str, ...]]], stages: Sequence[Stage],
           opts: MeteorOptions) -> AlignedBatch:
    # Every (candidate, reference) pair in one call: stem and synonym lookups are shared.
    return _align_pairs_many(jobs, stages, opts.tie_break, DEFAULT_NODE_BUDGET[opts.tie_break])


def meteor(
    candidate: Union[str, Sequence[str]],
    references: Union[str, Sequence[Union[str, Sequence[str]]]],
    *,
    stages: Any = DEFAULTS.stages,
    alpha: float = DEFAULTS.alpha,
    beta: float = DEFAULTS.beta,
    gamma: float = DEFAULTS.gamma,
    tie_break: str = DEFAULTS.tie_break,
    lowercase: bool = DEFAULTS.lowercase,
    tokenize: str = DEFAULTS.tokenize,
    language: str = DEFAULTS.language,
) -> MeteorResult:
    """METEOR of one candidate against its references (the best-scoring one is kept).

    ``candidate`` and each reference are strings (tokenized with ``tokenize``) or
    lists of tokens. ``stages`` are stage names (``"exact"``, ``"stem"``,
    ``"stem:snowball"``, ``"synonym"``), matcher objects or callables
    ``(candidate_word, reference_word) -> bool`` (see
    :func:`mtlearn.metrics.meteor.matchers.resolve_stages`); ``tie_break`` is
    ``"crossings"`` (Banerjee & Lavie 2005) or ``"chunks"`` (METEOR 1.x); see
    :mod:`mtlearn.metrics.meteor.alignment` for the exact rule. An empty candidate or
    reference scores 0 with ``reason`` set. ``language="es"`` stems with NLTK's Spanish
    Snowball stemmer and, with the default stages, runs exact and stem only (no Spanish
    WordNet offline: ``notes`` says so). The options are checked by
    :class:`~mtlearn.metrics.meteor.options.MeteorOptions`.

    >>> r = meteor("the cat sat on the mat", ["the cat sat on the mat"], stages=["exact"])
    >>> r.chunks, r.matches, r.penalty, round(r.score, 5)  # worked example, row 2
    (1, 6, Fraction(1, 432), 0.99769)
    >>> r.signature  # doctest: +ELLIPSIS
    'mtlearn-meteor|stages:exact|alpha:0.9|beta:3|gamma:0.5|tie:crossings|case:lc|tok:whitespace|nrefs:1|...'
    >>> meteor("", ["the cat"], stages=["exact"]).reason
    'empty candidate: no words to match, METEOR is defined as 0'
    >>> es = meteor("los gatos comen", ["el gato come"], language="es")
    >>> es.matches_per_stage, es.chunks, es.precision, es.notes
    ({'exact': 0, 'stem': 2}, 1, Fraction(2, 3), ('synonym stage skipped: no Spanish WordNet offline',))
    """
    opts = MeteorOptions(stages=stages, alpha=alpha, beta=beta, gamma=gamma, tie_break=tie_break,
                         lowercase=lowercase, tokenize=tokenize, language=language)
    matchers = resolve_stages(opts.used_stages, language=opts.language)
    check_sentence_call(candidate, references, call="meteor")  # a corpus here would score as one sentence
    cand = as_tokens(candidate, argname="candidate", tokenize=opts.tokenize, lowercase=opts.lowercase)
    refs = as_reference_list(references, argname="references", tokenize=opts.tokenize,
                             lowercase=opts.lowercase)
    params = exact_parameters(opts.alpha, opts.beta, opts.gamma)
    batch = _align([(cand, ref) for ref in refs], matchers, opts)
    segment = (cand, tuple(refs), _best_reference(batch, 0, cand, refs, opts, params), 0)
    return _segment_result(segment, batch, opts, opts.signature(len(refs)), params)


# --------------------------------------------------------------------------- a corpus


class MeteorSegments(Segments[MeteorResult, MeteorStats]):
    """The per-segment results of a corpus, built on access from the stored alignments.

    A corpus keeps, per segment, the tokens and each reference's aligned pairs (what
    the corpus score needs); ``segments[i]`` builds segment i's full
    :class:`MeteorResult` (mapping objects, chunk spans, exact fractions) when asked.
    ``stats()`` gives every segment's :class:`~mtlearn.metrics.meteor.stats.MeteorStats`
    (of its best reference) without building anything, e.g. for a bootstrap. Only the last
    :data:`BUILT_SEGMENTS_KEPT` results built are kept; reading one again after that
    builds it again (the same numbers, a new object). Equal to any sequence of equal results.

    >>> c = corpus_meteor(["on the mat sat the cat", "the cat sat"],
    ...                   [["the cat sat on the mat"], ["the cat sat on the mat"]], stages=["exact"])
    >>> len(c.segments), c.segments[0].crossings, c.segments.stats()[1]
    (2, 8, MeteorStats(matches=3, candidate_length=3, reference_length=6, chunks=1))
    >>> c.segments
    <MeteorSegments: 2 segments>
    """

    def __init__(self, segments: list[_Segment], batch: AlignedBatch, opts: MeteorOptions,
                 signature: str, params: Optional[Params]) -> None:
        # The last few segments built, most recent last: reading segments one after the
        # other (a loop, a widget stepping through them) builds each once, and memory
        # stays bounded however many are read (a 100k-segment corpus kept every one).
        built: OrderedDict[int, MeteorResult] = OrderedDict()

        def build(index: int) -> MeteorResult:
            found = built.get(index)
            if found is not None:
                built.move_to_end(index)
                return found
            found = built[index] = _segment_result(segments[index], batch, opts, signature, params)
            if len(built) > BUILT_SEGMENTS_KEPT:
                built.popitem(last=False)
            return found

        def stats_of(index: int) -> MeteorStats:
            cand, refs, best, first = segments[index]
            m, chunks = batch.counts(first + best)[:2]
            return MeteorStats(m, len(cand), len(refs[best]), chunks)

        super().__init__("Meteor", len(segments), stats_of=stats_of, build=build)
        self._stored = segments
        self._batch = batch

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __hash__(self) -> int:
        return id(self)


def _corpus_counts(segments: MeteorSegments) -> tuple[MeteorStats, int, int, bool, dict[str, SearchStop]]:
    """The best references' counts, crossings and search nodes summed; all proven or not; the stops met."""
    batch = segments._batch
    crossings = nodes = 0
    optimal = True
    stops: dict[str, SearchStop] = {}
    for _, _, best, first in segments._stored:
        _, _, crossed, proven, visited = batch.counts(first + best)
        for stop in batch[first + best].stops:
            stops.setdefault(stop.limit, stop)
        crossings += crossed
        optimal = optimal and proven  # as the segments' own results say
        nodes += visited
    return sum_stats(segments.stats()), crossings, nodes, optimal, stops


def _corpus_result(segments: MeteorSegments, opts: MeteorOptions, signature: str) -> MeteorResult:
    """The corpus result: the best references' counts summed, the formulas applied once."""
    total, crossings, nodes, optimal, stops = _corpus_counts(segments)
    best = [first + best for _, _, best, first in segments._stored]
    per_stage = segments._batch.stage_totals(best, len(opts.stage_names))
    return MeteorResult(
        candidate=(), reference=(), alignment=(),
        matches_per_stage=dict(zip(opts.stage_names, per_stage)),
        crossings=crossings, chunk_spans=(), chunks=total.chunks, matches=total.matches,
        candidate_length=total.candidate_length, reference_length=total.reference_length,
        optimal=optimal, reason=reason_of(total, corpus=True),
        signature=signature, search_nodes=nodes, search_stops=tuple(stops.values()),
        segments=segments, is_corpus=True, **numbers(total, opts),
        alpha=opts.alpha, beta=opts.beta, gamma=opts.gamma, tie_break=opts.tie_break,
        stages=opts.stage_names, **arithmetic(opts), language=opts.language, notes=opts.notes,
    )


def _corpus_meteor(candidates: list[Any], references: list[Any], opts: MeteorOptions,
                   matchers: Sequence[Stage]) -> MeteorResult:
    """:func:`corpus_meteor` inside the corpus boundary (options checked, shapes checked)."""
    cands, ref_lists = as_token_corpus(candidates, references, tokenize=opts.tokenize,
                                       lowercase=opts.lowercase)
    nrefs = set(map(len, ref_lists))
    signature = opts.signature(nrefs.pop() if len(nrefs) == 1 else "var")
    params = exact_parameters(opts.alpha, opts.beta, opts.gamma)
    batch = _align([(cand, ref) for cand, refs in zip(cands, ref_lists) for ref in refs], matchers, opts)
    segments: list[_Segment] = []
    first = 0
    for cand, refs in zip(cands, ref_lists):
        segments.append((cand, tuple(refs), _best_reference(batch, first, cand, refs, opts, params), first))
        first += len(refs)
    return _corpus_result(MeteorSegments(segments, batch, opts, signature, params), opts, signature)


def corpus_meteor(
    candidates: Sequence[Union[str, Sequence[str]]],
    references: Sequence[Union[str, Sequence[Union[str, Sequence[str]]]]],
    *,
    stages: Any = DEFAULTS.stages,
    alpha: float = DEFAULTS.alpha,
    beta: float = DEFAULTS.beta,
    gamma: float = DEFAULTS.gamma,
    tie_break: str = DEFAULTS.tie_break,
    lowercase: bool = DEFAULTS.lowercase,
    tokenize: str = DEFAULTS.tokenize,
    language: str = DEFAULTS.language,
) -> MeteorResult:
    """Corpus METEOR: per segment the best reference, counts summed, formulas applied once.

    ``references[i]`` is the list of references of ``candidates[i]``. The result's
    ``segments`` give every segment's own result (a :class:`MeteorSegments`, built on
    access from the stored alignments). The corpus score is *not* the mean of the
    segment scores:

    >>> c = corpus_meteor(["on the mat sat the cat", "the cat sat on the mat"],
    ...                   [["the cat sat on the mat"], ["the cat sat on the mat"]], stages=["exact"])
    >>> c.matches, c.chunks, c.penalty, c.score
    (12, 7, Fraction(343, 3456), 0.9007523148148148)
    >>> [round(s.score, 5) for s in c.segments]
    [0.5, 0.99769]
    """
    opts = MeteorOptions(stages=stages, alpha=alpha, beta=beta, gamma=gamma, tie_break=tie_break,
                         lowercase=lowercase, tokenize=tokenize, language=language)
    matchers = resolve_stages(opts.used_stages, language=opts.language)
    return corpus_call("corpus_meteor", candidates, references,
                       lambda cands, refs: _corpus_meteor(cands, refs, opts, matchers))


def meteor_from_stats(
    stats: Iterable[MeteorStats], *, alpha: float = DEFAULTS.alpha, beta: float = DEFAULTS.beta,
    gamma: float = DEFAULTS.gamma,
) -> MeteorResult:
    """A corpus result (exact numbers, no alignments) from per-segment counts.

    >>> meteor_from_stats([MeteorStats(6, 6, 6, 6), MeteorStats(6, 6, 6, 1)]).score
    0.9007523148148148
    """
    opts = MeteorOptions(alpha=alpha, beta=beta, gamma=gamma)
    total = sum_stats(stats)
    return MeteorResult(
        candidate=(), reference=(), alignment=(), matches_per_stage={}, crossings=0,
        chunk_spans=(), chunks=total.chunks, matches=total.matches,
        candidate_length=total.candidate_length, reference_length=total.reference_length,
        optimal=True, reason=reason_of(total, corpus=True), signature="", is_corpus=True,
        **numbers(total, opts), alpha=opts.alpha, beta=opts.beta, gamma=opts.gamma, tie_break="",
        stages=(), **arithmetic(opts),
    )

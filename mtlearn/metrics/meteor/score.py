"""METEOR (Banerjee & Lavie 2005) for one segment or a corpus, every step exposed.

:func:`meteor` aligns the candidate with each reference stage by stage
(:mod:`mtlearn.metrics.meteor.alignment`), counts matches ``m``, chunks ``c`` and the
lengths ``w_t``, ``w_r``, and applies the formulas of
:mod:`mtlearn.metrics.meteor.formulas` (per segment through an integer shortcut that
tests/test_steps_are_the_code.py proves equal to them); the best-scoring reference is
kept (digest of document 003, item 9). :func:`corpus_meteor` sums the counts of every segment's
best reference and applies the formulas once (item 8).

The digest's worked examples (exact stage only, so that they need no WordNet):

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

import dataclasses
import functools
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional, Union, overload

from mtlearn.core.checks import as_reference_list, as_token_corpus, as_tokens, check_choice, check_index
from mtlearn.metrics.meteor.alignment import (
    DEFAULT_NODE_BUDGET,
    TIE_BREAKS,
    AlignedBatch,
    Alignment,
    UnigramMapping,
    _align_pairs_many,
    alignment_from_pairs,
)
from mtlearn.metrics.meteor.formulas import (
    ChunkSpan,
    check_parameters,
    chunk_spans,
    exact,
    f_mean,
    fragmentation,
    fragmentation_penalty,
    meteor_score_value,
    penalty_arithmetic_note,
    penalty_is_exact,
    precision,
    recall,
    score_from_counts,
)
from mtlearn.metrics.meteor.matchers import Stage, resolve_stages
from mtlearn.metrics.meteor._search import SearchStop
from mtlearn.core.signature import format_number, make_signature
from mtlearn.core.tokenize import get_tokenizer
from mtlearn.core.wording import plural
from mtlearn.core.references import check_sentence_call, warn_ambiguous_layout, warn_reference_layout

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


@dataclass(frozen=True)
class MeteorStats:
    """A segment's sufficient statistics: METEOR needs only these four counts.

    They add up over a corpus (digest item 8), so a corpus score is one call of
    the formulas on the sums.

    >>> MeteorStats(6, 6, 6, 6) + MeteorStats(6, 7, 6, 2)
    MeteorStats(matches=12, candidate_length=13, reference_length=12, chunks=8)
    """

    matches: int
    candidate_length: int
    reference_length: int
    chunks: int

    def __add__(self, other: "MeteorStats") -> "MeteorStats":
        return MeteorStats(
            self.matches + other.matches,
            self.candidate_length + other.candidate_length,
            self.reference_length + other.reference_length,
            self.chunks + other.chunks,
        )


@dataclass(frozen=True)
class MeteorResult:
    """Everything METEOR computed, for one segment or a corpus. Only data; see ``explain()``.

    - ``candidate``/``reference``: the tokens aligned (the best reference's);
    - ``alignment``: the mappings, :class:`~mtlearn.metrics.meteor.alignment.UnigramMapping`
      (candidate index, reference index, stage, both words), in candidate order;
      ``matches_per_stage``; ``crossings``; ``chunk_spans`` (spans in both strings);
    - ``chunks`` (c), ``matches`` (u_m = m), ``candidate_length`` (w_t),
      ``reference_length`` (w_r);
    - exact ``precision``, ``recall``, ``f_mean``, ``fragmentation`` (c/u_m) and
      ``penalty`` (a Fraction when β is whole, else a float); ``score`` (float) and
      ``score_exact`` (Fraction or ``None``);
    - ``penalty_arithmetic``: ``"exact"`` (the penalty and score are Fractions: β is a whole
      number up to 64) or ``"float"``, and ``penalty_note`` saying why when it is a float;
    - ``optimal``: the alignment search proved its choice; ``search_stops``: else, the
      limits that stopped it (:class:`~mtlearn.metrics.meteor._search.SearchStop`: the
      node budget, a large group's share of it, a group too large to search; for a corpus
      the first stop of each limit over its segments); ``reason``: why the score is
      a defined 0 (empty candidate, ...), else ``None``;
    - ``per_reference``: the result against every reference, ``best_reference``: the
      index of the one kept; ``segments``: per-segment results of a corpus;
    - ``alpha``, ``beta``, ``gamma``, ``tie_break``, ``stages``, ``signature``.

    >>> r = meteor("the cat sat on the mat", ["a cat sat", "the cat sat on the mat"], stages=["exact"])
    >>> r.best_reference, [round(x.score, 4) for x in r.per_reference]
    (1, [0.5682, 0.9977])
    >>> r.chunk_spans
    (ChunkSpan(candidate_start=0, candidate_stop=6, reference_start=0, reference_stop=6),)
    """

    candidate: tuple[str, ...]
    reference: tuple[str, ...]
    alignment: tuple[UnigramMapping, ...]
    matches_per_stage: dict[str, int]
    crossings: int
    chunk_spans: tuple[ChunkSpan, ...]
    chunks: int
    matches: int
    candidate_length: int
    reference_length: int
    precision: Fraction
    recall: Fraction
    f_mean: Fraction
    fragmentation: Fraction
    penalty: Number
    score: float
    score_exact: Optional[Fraction]
    optimal: bool
    reason: Optional[str]
    alpha: float
    beta: float
    gamma: float
    tie_break: str
    stages: tuple[str, ...]
    signature: str
    search_nodes: int = 0
    penalty_arithmetic: str = "exact"
    penalty_note: Optional[str] = None
    per_reference: tuple["MeteorResult", ...] = ()
    best_reference: Optional[int] = None
    segments: Sequence["MeteorResult"] = field(default=(), repr=False)
    is_corpus: bool = False
    search_stops: tuple[SearchStop, ...] = ()

    @property
    def stats(self) -> MeteorStats:
        """The four counts behind the score (summed over segments for a corpus)."""
        return MeteorStats(self.matches, self.candidate_length, self.reference_length, self.chunks)

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The alignment as ``(candidate index, reference index)`` pairs."""
        return tuple(m.pair for m in self.alignment)

    def explain(self) -> str:
        """The derivation as text, every number substituted (see :mod:`mtlearn.metrics.meteor.explain`).

        >>> print(meteor("the cat was sat on the mat", ["the cat sat on the mat"],
        ...              stages=["exact"]).explain())  # doctest: +ELLIPSIS
        METEOR of one segment (stages exact, alpha=0.9, beta=3, gamma=0.5, tie_break=crossings)
        ...
        P = m / w_t = 6/7 = 0.8571
        R = m / w_r = 6/6 = 1.0000
        F_mean = P*R / (alpha*P + (1 - alpha)*R) = 60/61 = 0.9836   (= 10PR / (R + 9P))
        fragmentation = c / u_m = 2/6 = 0.3333
        penalty = gamma * (c / u_m)^beta = 0.5 * 0.3333^3 = 1/54 = 0.0185
        score = F_mean * (1 - penalty) = 0.9836 * (1 - 0.0185) = 0.9654
        """
        from mtlearn.metrics.meteor.explain import explain_text

        return explain_text(self)

    def _repr_html_(self) -> str:
        from mtlearn.metrics.meteor.explain import explain_html

        return explain_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict: Fractions as "p/q" strings beside their float values.

        >>> import json
        >>> d = meteor("the cat was sat on the mat", ["the cat sat on the mat"], stages=["exact"]).to_dict()
        >>> d["precision"], d["precision_value"], d["chunks"], json.loads(json.dumps(d))["score"] > 0.96
        ('6/7', 0.8571428571428571, 2, True)
        """
        def frac(x: Number) -> str:
            return str(x) if isinstance(x, Fraction) else repr(float(x))

        out: dict[str, Any] = {
            "score": self.score,
            "score_exact": None if self.score_exact is None else str(self.score_exact),
            "matches": self.matches,
            "chunks": self.chunks,
            "crossings": self.crossings,
            "candidate_length": self.candidate_length,
            "reference_length": self.reference_length,
        }
        for name in ("precision", "recall", "f_mean", "fragmentation", "penalty"):
            value = getattr(self, name)
            out[name] = frac(value)
            out[f"{name}_value"] = float(value)
        out.update(
            matches_per_stage=dict(self.matches_per_stage),
            optimal=self.optimal,
            reason=self.reason,
            penalty_arithmetic=self.penalty_arithmetic,
            penalty_note=self.penalty_note,
            alpha=self.alpha,
            beta=self.beta,
            gamma=self.gamma,
            tie_break=self.tie_break,
            stages=list(self.stages),
            signature=self.signature,
        )
        if self.is_corpus:
            out["n_segments"] = len(self.segments)
            if segments:
                out["segments"] = [s.to_dict() for s in self.segments]
        else:
            out["candidate"] = list(self.candidate)
            out["reference"] = list(self.reference)
            out["alignment"] = [
                {"candidate_index": m.candidate_index, "reference_index": m.reference_index,
                 "stage": m.stage, "candidate_word": m.candidate_word,
                 "reference_word": m.reference_word}
                for m in self.alignment
            ]
            out["chunk_spans"] = [
                [s.candidate_start, s.candidate_stop, s.reference_start, s.reference_stop]
                for s in self.chunk_spans
            ]
            out["best_reference"] = self.best_reference
            out["per_reference_scores"] = [r.score for r in self.per_reference]
        return out


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class _Options:
    stages: tuple[Stage, ...]
    alpha: Any
    beta: Any
    gamma: Any
    tie_break: str
    lowercase: bool
    tokenize: str

    def signature(self, nrefs: Union[int, str]) -> str:
        return make_signature("meteor", {
            "stages": "+".join(s.name for s in self.stages),
            "alpha": format_number(self.alpha),
            "beta": format_number(self.beta),
            "gamma": format_number(self.gamma),
            "tie": self.tie_break,
            "case": "lc" if self.lowercase else "mixed",
            "tok": self.tokenize,
            "nrefs": nrefs,
        })


def _check_options(
    stages: object, alpha: object, beta: object, gamma: object, tie_break: object,
    lowercase: object, tokenize: object,
) -> _Options:
    alpha, beta, gamma = check_parameters(alpha, beta, gamma)
    tie_break = check_choice(tie_break, TIE_BREAKS, "tie_break")
    if not isinstance(lowercase, bool):
        raise TypeError(f"lowercase: expected True or False, got {type(lowercase).__name__}")
    get_tokenizer(tokenize)  # type: ignore[arg-type]  # raises "tokenize: unknown tokenizer ..."
    resolved = tuple(resolve_stages(stages))  # type: ignore[arg-type]
    return _Options(resolved, alpha, beta, gamma, tie_break, lowercase, tokenize)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- scoring


def _reason(stats: MeteorStats, corpus: bool) -> Optional[str]:
    what = "corpus" if corpus else "candidate"
    if stats.candidate_length == 0 and stats.reference_length == 0:
        return f"empty {what} and reference: nothing to compare, METEOR is defined as 0"
    if stats.candidate_length == 0:
        return f"empty {what}: no words to match, METEOR is defined as 0"
    if stats.reference_length == 0:
        return "empty reference: no words to match, METEOR is defined as 0"
    if stats.matches == 0:
        return "no candidate word matches the reference at any stage: P = R = 0, METEOR is 0"
    return None


def _exact_parameters(opts: _Options) -> Optional[tuple[int, int, int, int, int]]:
    """``(alpha numerator, alpha denominator, beta, gamma numerator, gamma denominator)``
    as exact integers, when β is whole and at most ``EXACT_BETA_MAX`` (the penalty is then a
    Fraction); else ``None``."""
    return _parameters_as_integers(opts.alpha, opts.beta, opts.gamma)


@functools.lru_cache(maxsize=64)
def _parameters_as_integers(alpha: Any, beta: Any, gamma: Any) -> Optional[tuple[int, int, int, int, int]]:
    a, b, g = exact(alpha), exact(beta), exact(gamma)
    if not penalty_is_exact(b):  # not whole, or so large that an exact power would not fit
        return None
    return a.numerator, a.denominator, int(b), g.numerator, g.denominator


def _exact_numbers(
    m: int, wt: int, wr: int, c: int, params: tuple[int, int, int, int, int]
) -> dict[str, Any]:
    """The fast variant of :func:`_numbers`: the formula steps in integers, one Fraction each.

    It equals :func:`_numbers`, i.e. :func:`~mtlearn.metrics.meteor.formulas.precision`,
    :func:`~mtlearn.metrics.meteor.formulas.recall`, :func:`~mtlearn.metrics.meteor.formulas.f_mean`,
    :func:`~mtlearn.metrics.meteor.formulas.fragmentation_penalty` and
    :func:`~mtlearn.metrics.meteor.formulas.meteor_score_value`, value for value
    (tests/test_steps_are_the_code.py proves it on random counts and parameters):
    with P = m/w_t and R = m/w_r, F_mean = P·R / (α·P + (1 − α)·R) is
    m / (α·w_r + (1 − α)·w_t); the penalty γ·(c/m)^β and the score F_mean·(1 − penalty)
    are single fractions too. Only for m, w_t, w_r > 0 and a whole β.

    >>> opts = _Options((), 0.9, 3, 0.5, "crossings", True, "whitespace")
    >>> fast = _exact_numbers(6, 7, 6, 2, _exact_parameters(opts))
    >>> fast == _numbers(MeteorStats(6, 7, 6, 2), opts), fast["f_mean"], fast["penalty"]
    (True, Fraction(60, 61), Fraction(1, 54))
    """
    an, ad, beta, gn, gd = params
    f = Fraction(m * ad, an * wr + (ad - an) * wt)
    pen = Fraction(gn * c ** beta, gd * m ** beta)
    value = Fraction(f.numerator * (pen.denominator - pen.numerator), f.denominator * pen.denominator)
    return dict(
        precision=Fraction(m, wt), recall=Fraction(m, wr), f_mean=f,
        fragmentation=Fraction(c, m), penalty=pen, score=float(value), score_exact=value,
    )


def _numbers(stats: MeteorStats, opts: _Options) -> dict[str, Any]:
    """The result's numbers from the four counts, through the formula steps of notebook 04."""
    p = precision(stats.matches, stats.candidate_length)
    r = recall(stats.matches, stats.reference_length)
    f = f_mean(p, r, opts.alpha)
    frag = fragmentation(stats.chunks, stats.matches)
    pen = fragmentation_penalty(stats.chunks, stats.matches, opts.beta, opts.gamma)
    value = meteor_score_value(f, pen)
    return dict(
        precision=p, recall=r, f_mean=f, fragmentation=frag, penalty=pen,
        score=float(value), score_exact=value if isinstance(value, Fraction) else None,
    )


def _common(opts: _Options) -> dict[str, Any]:
    return dict(
        alpha=opts.alpha, beta=opts.beta, gamma=opts.gamma, tie_break=opts.tie_break,
        stages=tuple(s.name for s in opts.stages), **_arithmetic(opts.beta),
    )


def _arithmetic(beta: Any) -> dict[str, Any]:
    """Which arithmetic the penalty is computed in, and why when it is not exact.

    >>> _arithmetic(3), _arithmetic(1e300)["penalty_arithmetic"]
    ({'penalty_arithmetic': 'exact', 'penalty_note': None}, 'float')
    """
    note = penalty_arithmetic_note(beta)
    return dict(penalty_arithmetic="exact" if note is None else "float", penalty_note=note)


Params = tuple[int, int, int, int, int]


def _score_value(m: int, wt: int, wr: int, c: int, params: Params) -> float:
    """The fast variant of ``float(meteor_score_value(f_mean(P, R, α), fragmentation_penalty(c, m, β, γ)))``.

    It equals the formula steps' score (tests/test_steps_are_the_code.py proves it on
    random counts and parameters), from integers alone, for m, w_t, w_r > 0 and a whole β:
    F_mean·(1 − penalty) = m·a_d·(g_d·m^β − g_n·c^β) / ((a_n·w_r + (a_d − a_n)·w_t)·g_d·m^β)
    with α = a_n/a_d and γ = g_n/g_d; Python's int / int is correctly rounded, so this
    is the float nearest the exact score, as ``float(Fraction)`` is.

    >>> opts = _Options((), 0.9, 3, 0.5, "crossings", True, "whitespace")
    >>> _score_value(6, 7, 6, 2, _exact_parameters(opts)) == float(_numbers(MeteorStats(6, 7, 6, 2), opts)["score"])
    True
    """
    an, ad, beta, gn, gd = params
    mb = m ** beta
    return (m * ad * (gd * mb - gn * c ** beta)) / ((an * wr + (ad - an) * wt) * gd * mb)


def _segment_fields(
    alignment: Alignment, opts: _Options, signature: str, params: Optional[Params],
) -> dict[str, Any]:
    """The fields of one segment's :class:`MeteorResult` against one reference."""
    mappings = alignment.mappings
    m = len(mappings)
    wt, wr = len(alignment.candidate), len(alignment.reference)
    stats = MeteorStats(m, wt, wr, alignment.chunks)
    if params is not None and m and wt and wr:
        numbers = _exact_numbers(m, wt, wr, alignment.chunks, params)
        reason = None
    else:
        numbers = _numbers(stats, opts)
        reason = _reason(stats, corpus=False)
    fields = dict(
        candidate=alignment.candidate,
        reference=alignment.reference,
        alignment=mappings,
        matches_per_stage=alignment.matches_per_stage,
        crossings=alignment.crossings,
        chunk_spans=tuple(chunk_spans([(x.candidate_index, x.reference_index) for x in mappings])),
        chunks=alignment.chunks,
        matches=m,
        candidate_length=wt,
        reference_length=wr,
        optimal=alignment.optimal,
        reason=reason,
        signature=signature,
        search_nodes=alignment.nodes,
        search_stops=alignment.stops,
        alpha=opts.alpha, beta=opts.beta, gamma=opts.gamma, tie_break=opts.tie_break,
        stages=alignment.stages, **_arithmetic(opts.beta),
    )
    fields.update(numbers)
    return fields


# What a corpus keeps of one segment, as a plain tuple of strings and ints (the garbage
# collector stops tracking those, so a large corpus kept in memory costs no collection
# time): (candidate tokens, the references' tokens, the index of the best reference,
# the index in the AlignedBatch of its first reference's alignment).
_Segment = tuple[tuple[str, ...], tuple[tuple[str, ...], ...], int, int]


def _best_reference(
    batch: AlignedBatch, first: int, cand: tuple[str, ...], refs: Sequence[tuple[str, ...]],
    opts: _Options, params: Optional[Params],
) -> int:
    """The index of the best-scoring reference; on a tie the first (a documented, stable choice)."""
    if len(refs) == 1:
        return 0
    scores = []
    for k, ref in enumerate(refs):
        m, chunks = batch.counts(first + k)[:2]
        scores.append(_segment_score(m, len(cand), len(ref), chunks, opts, params))
    return max(range(len(scores)), key=lambda k: (scores[k], -k))


def _segment_score(m: int, wt: int, wr: int, c: int, opts: _Options, params: Optional[Params]) -> float:
    """A segment's METEOR score from its four counts (0 when nothing can match)."""
    if not (m and wt and wr):
        return 0.0
    if params is not None:
        return _score_value(m, wt, wr, c, params)
    return _numbers(MeteorStats(m, wt, wr, c), opts)["score"]


def _segment_result(segment: _Segment, batch: AlignedBatch, opts: _Options, names: Sequence[str],
                    signature: str, params: Optional[Params]) -> MeteorResult:
    """The full :class:`MeteorResult` of a segment: every reference's, and the best one's.

    ``names`` are the stages' names (``opts.stages`` is not read: a corpus keeps its
    options without the matchers, which can hold all of WordNet)."""
    cand, refs, best, first = segment
    fields = [
        _segment_fields(alignment_from_pairs(cand, ref, names, opts.tie_break, batch[first + k]),
                        opts, signature, params)
        for k, ref in enumerate(refs)
    ]
    per_ref = tuple(MeteorResult(**f) for f in fields)
    return MeteorResult(**fields[best], per_reference=per_ref, best_reference=best)


def meteor(
    candidate: Union[str, Sequence[str]],
    references: Union[str, Sequence[Union[str, Sequence[str]]]],
    *,
    stages: Any = ("exact", "stem", "synonym"),
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
    tie_break: str = "crossings",
    lowercase: bool = True,
    tokenize: str = "whitespace",
) -> MeteorResult:
    """METEOR of one candidate against its references (the best-scoring one is kept).

    ``candidate`` and each reference are strings (tokenized with ``tokenize``) or
    lists of tokens. ``stages`` are stage names (``"exact"``, ``"stem"``,
    ``"stem:snowball"``, ``"synonym"``), matcher objects or callables
    ``(candidate_word, reference_word) -> bool`` (see
    :func:`mtlearn.metrics.meteor.matchers.resolve_stages`); ``tie_break`` is
    ``"crossings"`` (Banerjee & Lavie 2005) or ``"chunks"`` (METEOR 1.x); see
    :mod:`mtlearn.metrics.meteor.alignment` for the exact rule. An empty candidate or
    reference scores 0 with ``reason`` set.

    >>> r = meteor("the cat sat on the mat", ["the cat sat on the mat"], stages=["exact"])
    >>> r.chunks, r.matches, r.penalty, round(r.score, 5)  # digest row 2
    (1, 6, Fraction(1, 432), 0.99769)
    >>> r.signature
    'mtlearn-meteor|stages:exact|alpha:0.9|beta:3|gamma:0.5|tie:crossings|case:lc|tok:whitespace|nrefs:1|version:0.1.0'
    >>> meteor("", ["the cat"], stages=["exact"]).reason
    'empty candidate: no words to match, METEOR is defined as 0'
    """
    opts = _check_options(stages, alpha, beta, gamma, tie_break, lowercase, tokenize)
    check_sentence_call(candidate, references, call="meteor")  # a corpus here would score as one sentence
    cand = as_tokens(candidate, argname="candidate", tokenize=opts.tokenize, lowercase=opts.lowercase)
    refs = as_reference_list(
        references, argname="references", tokenize=opts.tokenize, lowercase=opts.lowercase
    )
    params = _exact_parameters(opts)
    batch = _align_pairs_many([(cand, ref) for ref in refs], opts.stages, opts.tie_break,
                              DEFAULT_NODE_BUDGET[opts.tie_break])
    segment = (cand, tuple(refs), _best_reference(batch, 0, cand, refs, opts, params), 0)
    return _segment_result(segment, batch, opts, [s.name for s in opts.stages],
                           opts.signature(len(refs)), params)


def corpus_meteor(
    candidates: Sequence[Union[str, Sequence[str]]],
    references: Sequence[Union[str, Sequence[Union[str, Sequence[str]]]]],
    *,
    stages: Any = ("exact", "stem", "synonym"),
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
    tie_break: str = "crossings",
    lowercase: bool = True,
    tokenize: str = "whitespace",
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
    opts = _check_options(stages, alpha, beta, gamma, tie_break, lowercase, tokenize)
    warn_reference_layout(candidates, references, call="corpus_meteor")  # the layout hint, before the shape errors
    result = _corpus_meteor(candidates, references, opts)
    warn_ambiguous_layout(candidates, references, result.score,
                          lambda refs: _corpus_meteor(candidates, refs, opts).score, call="corpus_meteor")
    return result


def _corpus_meteor(candidates: Sequence[Any], references: Sequence[Any], opts: _Options) -> MeteorResult:
    """:func:`corpus_meteor` once the options are checked and the layout hints given."""
    cands, ref_lists = as_token_corpus(candidates, references, tokenize=opts.tokenize,
                                       lowercase=opts.lowercase)
    nrefs = set(map(len, ref_lists))
    signature = opts.signature(nrefs.pop() if len(nrefs) == 1 else "var")
    params = _exact_parameters(opts)
    # Every (candidate, reference) pair aligned in one call (stem and synonym lookups are
    # shared across the corpus), then each segment keeps its best reference.
    jobs = [(cand, ref) for cand, refs in zip(cands, ref_lists) for ref in refs]
    batch = _align_pairs_many(jobs, opts.stages, opts.tie_break, DEFAULT_NODE_BUDGET[opts.tie_break])
    segments: list[_Segment] = []
    first = 0
    for cand, refs in zip(cands, ref_lists):
        best = _best_reference(batch, first, cand, refs, opts, params)
        segments.append((cand, tuple(refs), best, first))
        first += len(refs)
    return _corpus_result(MeteorSegments(segments, batch, opts, signature, params), opts, signature)


class MeteorSegments(Sequence[MeteorResult]):
    """The per-segment results of a corpus, built on access from the stored alignments.

    A corpus keeps, per segment, the tokens and each reference's aligned pairs (what
    the corpus score needs); ``segments[i]`` builds segment i's full
    :class:`MeteorResult` (mapping objects, chunk spans, exact fractions) when asked.
    ``stats()`` gives every segment's :class:`MeteorStats` (of its best reference)
    without building anything, e.g. for a bootstrap. Only the last
    :data:`BUILT_SEGMENTS_KEPT` results built are kept; reading one again after that
    builds it again (the same numbers, a new object).

    >>> c = corpus_meteor(["on the mat sat the cat", "the cat sat"],
    ...                   [["the cat sat on the mat"], ["the cat sat on the mat"]], stages=["exact"])
    >>> len(c.segments), c.segments[0].crossings, c.segments.stats()[1]
    (2, 8, MeteorStats(matches=3, candidate_length=3, reference_length=6, chunks=1))
    """

    def __init__(self, segments: list[_Segment], batch: AlignedBatch, options: _Options,
                 signature: str, params: Optional[Params]) -> None:
        self._segments = segments
        self._batch = batch
        # The options without the matchers (a synonym matcher holds all of WordNet):
        # a segment's result needs only the stages' names.
        self._names = [s.name for s in options.stages]
        self._options = dataclasses.replace(options, stages=())
        self._signature = signature
        self._params = params
        # The last few segments built, most recent last: reading segments one after the
        # other (a loop, a widget stepping through them) builds each once, and memory
        # stays bounded however many are read (a 100k-segment corpus kept every one).
        self._built: OrderedDict[int, MeteorResult] = OrderedDict()

    def __len__(self) -> int:
        return len(self._segments)

    @overload
    def __getitem__(self, index: int) -> MeteorResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[MeteorResult]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[MeteorResult, list[MeteorResult]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = check_index(index, len(self))
        found = self._built.get(index)
        if found is not None:
            self._built.move_to_end(index)
            return found
        found = self._built[index] = _segment_result(
            self._segments[index], self._batch, self._options, self._names, self._signature,
            self._params)
        if len(self._built) > BUILT_SEGMENTS_KEPT:
            self._built.popitem(last=False)
        return found

    def stats_of(self, index: int) -> MeteorStats:
        """The :class:`MeteorStats` of segment ``index`` (its best reference)."""
        cand, refs, best, first = self._segments[index]
        m, chunks = self._batch.counts(first + best)[:2]
        return MeteorStats(m, len(cand), len(refs[best]), chunks)

    def stats(self) -> list[MeteorStats]:
        """Every segment's :class:`MeteorStats`, in order."""
        return [self.stats_of(i) for i in range(len(self))]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<MeteorSegments: {plural(len(self), 'segment')}>"


def _corpus_result(segments: MeteorSegments, opts: _Options, signature: str) -> MeteorResult:
    """The corpus result: the best references' counts summed, the formulas applied once."""
    batch = segments._batch
    m = wt = wr = c = crossings = nodes = 0
    per_stage = [0] * len(opts.stages)
    optimal = True
    stops: dict[str, SearchStop] = {}
    for cand, refs, best, first in segments._segments:
        matches, chunks, crossed, proven, visited = batch.counts(first + best)
        for stop in batch[first + best].stops:
            stops.setdefault(stop.limit, stop)
        m += matches
        wt += len(cand)
        wr += len(refs[best])
        c += chunks
        crossings += crossed
        optimal = optimal and proven  # as the segments' own results say
        nodes += visited
    for s, n in enumerate(batch.stage_totals([first + best for _, _, best, first in segments._segments],
                                             len(opts.stages))):
        per_stage[s] += n
    total = MeteorStats(m, wt, wr, c)
    return MeteorResult(
        candidate=(), reference=(), alignment=(),
        matches_per_stage={s.name: n for s, n in zip(opts.stages, per_stage)},
        crossings=crossings, chunk_spans=(), chunks=total.chunks, matches=total.matches,
        candidate_length=total.candidate_length, reference_length=total.reference_length,
        optimal=optimal, reason=_reason(total, corpus=True),
        signature=signature, search_nodes=nodes, search_stops=tuple(stops.values()),
        segments=segments, is_corpus=True,
        **_numbers(total, opts), **_common(opts),
    )


def meteor_from_stats(
    stats: Iterable[MeteorStats], *, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5
) -> MeteorResult:
    """A corpus result (exact numbers, no alignments) from per-segment counts.

    >>> meteor_from_stats([MeteorStats(6, 6, 6, 6), MeteorStats(6, 6, 6, 1)]).score
    0.9007523148148148
    """
    alpha, beta, gamma = check_parameters(alpha, beta, gamma)
    total = MeteorStats(0, 0, 0, 0)
    for s in stats:
        total = total + s
    opts = _Options((), alpha, beta, gamma, "crossings", True, "whitespace")
    return MeteorResult(
        candidate=(), reference=(), alignment=(), matches_per_stage={}, crossings=0,
        chunk_spans=(), chunks=total.chunks, matches=total.matches,
        candidate_length=total.candidate_length, reference_length=total.reference_length,
        optimal=True, reason=_reason(total, corpus=True), signature="", is_corpus=True,
        **_numbers(total, opts), alpha=alpha, beta=beta, gamma=gamma, tie_break="",
        stages=(), **_arithmetic(beta),
    )


def corpus_score_from_stats(
    stats: Sequence[MeteorStats], indices: Optional[Iterable[int]] = None, *,
    alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5,
) -> float:
    """The corpus score of ``stats`` (or of ``stats[k]`` for ``k`` in ``indices``), fast.

    Made for resampling: a bootstrap draws ``indices`` with replacement and calls
    this thousands of times; it only sums four integers per segment. Parameters
    are not checked here (check them once, e.g. with :func:`meteor_from_stats`).

    >>> stats = [MeteorStats(6, 6, 6, 6), MeteorStats(6, 6, 6, 1)]
    >>> corpus_score_from_stats(stats), corpus_score_from_stats(stats, [1, 1])
    (0.9007523148148148, 0.9976851851851852)
    """
    m = wt = wr = c = 0
    chosen = stats if indices is None else (stats[k] for k in indices)
    for s in chosen:
        m += s.matches
        wt += s.candidate_length
        wr += s.reference_length
        c += s.chunks
    return score_from_counts(m, wt, wr, c, float(alpha), float(beta), float(gamma))

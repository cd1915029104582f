"""BLEU with every step exposed: sufficient statistics, ``BleuResult``, ``bleu()``, ``corpus_bleu()``.

The architecture is sacreBLEU's (``sacrebleu/metrics/bleu.py``):

1. each segment is reduced once to its *sufficient statistics*, a :class:`BleuStats`
   (candidate length c, closest reference length r, clipped matches and candidate
   n-gram totals per order);
2. statistics of a corpus are *summed* (``BleuStats`` supports ``+`` and
   :func:`sum_stats`);
3. ONE function, :func:`bleu_from_stats`, turns statistics into a score:
   p_n = matches_n / totals_n (smoothed), BP = exp(min(0, 1 - r/c)),
   BLEU = BP * exp(sum_n w_n log p_n).

Because step 3 only needs the summed numbers, a paired bootstrap resamples the
per-segment statistics (``result.segments.stats()``) and calls
:func:`bleu_from_stats` on each sample; nothing is re-tokenized or re-counted.

Document 002's example A, with BLEU-4 and no smoothing:

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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional, Union, overload

from mtlearn.metrics.bleu.formulas import brevity_penalty, check_weights, closest_ref_length, geometric_mean
from mtlearn.core.ngrams import (
    MATERIALIZED_ORDERS, PerOrder, json_orders, map_orders, per_order, stored_length, sum_orders,
)
from mtlearn.core.ngrams import count_elements as _count_elements
from mtlearn.metrics.bleu.smoothing import (
    NEEDS_FIVEGRAMS,
    SACREBLEU_METHODS,
    SMOOTHING_METHODS,
    SmoothedPrecisions,
    resolve_smooth_value,
    smooth,
)
from mtlearn.core.checks import Segment, as_reference_list, as_tokens, check_choice, check_corpus, check_index
from mtlearn.core.ngrams import count_ngrams
from mtlearn.core.references import check_sentence_call, warn_ambiguous_layout, warn_reference_layout
from mtlearn.core.signature import format_number, make_signature
from mtlearn.core.tokenize import TOKENIZERS, cjk_note, get_tokenizer, unsplit_cjk
from mtlearn.core.wording import part_of, plural

__all__ = [
    "BleuStats",
    "NgramRow",
    "BleuResult",
    "BleuSegments",
    "bleu",
    "corpus_bleu",
    "bleu_from_stats",
    "sum_stats",
]


# --------------------------------------------------------------------------------------
# Sufficient statistics
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BleuStats:
    """Sufficient statistics of one segment or of a whole corpus (sums of segments).

    ``matches[n-1]`` is the sum of clipped counts of n-grams, ``totals[n-1]`` the
    number of candidate n-grams, ``nltk_totals[n-1]`` the denominators NLTK uses
    (each segment's total floored at 1 before summing; only the Chen-Cherry
    smoothing methods read it). The tuples may be longer than the ``max_order``
    asked of :func:`bleu_from_stats` (method5 needs 5-grams).

    >>> a = BleuStats(5, 6, (4, 3, 1, 0), (5, 4, 3, 2), (5, 4, 3, 2))
    >>> b = BleuStats(2, 6, (2, 1, 0, 0), (2, 1, 0, 0), (2, 1, 1, 1))
    >>> (a + b).matches, (a + b).candidate_length
    ((6, 4, 1, 0), 7)
    """

    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    nltk_totals: tuple[int, ...]

    def __add__(self, other: "BleuStats") -> "BleuStats":
        if not isinstance(other, BleuStats):
            return NotImplemented
        if len(other.matches) != len(self.matches):
            raise ValueError("stats: cannot add statistics of different n-gram orders")
        return BleuStats(
            self.candidate_length + other.candidate_length,
            self.reference_length + other.reference_length,
            map_orders(int.__add__, self.matches, other.matches),
            map_orders(int.__add__, self.totals, other.totals),
            map_orders(int.__add__, self.nltk_totals, other.nltk_totals),
        )

    @property
    def max_order(self) -> int:
        """The number of n-gram orders counted."""
        return len(self.matches)


def sum_stats(stats: Iterable[BleuStats]) -> BleuStats:
    """Sum many :class:`BleuStats` at once (faster than chaining ``+``).

    >>> s = BleuStats(3, 4, (2, 1), (3, 2), (3, 2))
    >>> sum_stats([s, s, s]).matches
    (6, 3)
    """
    items = list(stats)
    if not items:
        raise ValueError("stats: nothing to sum; give at least one BleuStats")
    width = len(items[0].matches)
    if any(len(s.matches) != width for s in items):
        raise ValueError("stats: cannot add statistics of different n-gram orders")
    return BleuStats(
        sum(s.candidate_length for s in items),
        sum(s.reference_length for s in items),
        _sum_columns([s.matches for s in items]),
        _sum_columns([s.totals for s in items]),
        _sum_columns([s.nltk_totals for s in items]),
    )


def _sum_columns(columns: list[Sequence[int]]) -> Union[tuple[int, ...], PerOrder]:
    """Order-by-order sums; orders past every segment's stored values are summed once (their fill)."""
    if not any(isinstance(c, PerOrder) for c in columns):
        return tuple(map(sum, zip(*columns)))
    stored = stored_length(*columns)
    head = tuple(map(sum, zip(*[c[:stored] for c in columns])))
    return per_order(head, sum(c[stored] for c in columns), len(columns[0]))


def _stats_from_row(row: Sequence[int], width: int, order: Optional[int] = None) -> BleuStats:
    """The statistics of one row [c, r, matches..., totals...] counted up to ``width``, for ``order`` orders.

    Orders beyond ``width`` (beyond the candidate: no n-gram) have 0 matches and 0 totals
    (NLTK's denominator 1); they are stored once, not once per order (:class:`PerOrder`).
    """
    order = width if order is None else order
    totals = tuple(row[2 + width : 2 + 2 * width])
    return BleuStats(
        row[0], row[1], per_order(row[2 : 2 + width], 0, order), per_order(totals, 0, order),
        per_order(tuple(t if t else 1 for t in totals), 1, order),
    )


def _count_width(order: int, longest: int) -> int:
    """How many orders to count: none beyond the longest candidate (they have no n-gram), 5 at least.

    Five, because NLTK's method5/method7 read the 5-gram statistics whatever ``max_order`` is.

    >>> _count_width(4, 100), _count_width(10**8, 3), _count_width(10**8, 40)
    (4, 5, 40)
    """
    return min(order, max(longest, 5))


def _extract(cand: Sequence[str], refs: Sequence[Sequence[str]], order: int) -> list[int]:
    """The row [c, r, matches..., totals...] of one segment (the hot path of corpus BLEU).

    This is the formula steps fused, and equal to them (tests/test_steps_are_the_code.py
    proves it on random segments): r is :func:`~mtlearn.metrics.bleu.formulas.closest_ref_length`
    of the reference lengths, and for every order n, ``(matches[n-1], totals[n-1])`` is
    :func:`~mtlearn.metrics.bleu.formulas.precision_counts` ``(cand, refs, n)``, the pair
    behind :func:`~mtlearn.metrics.bleu.formulas.modified_precision`.

    >>> cand, refs = "the the cat".split(), ["the cat".split(), "a cat".split()]
    >>> _extract(cand, refs, 2)
    [3, 2, 2, 1, 3, 2]

    The matches are counted without a counter per n-gram: an n-gram that occurs once
    in the candidate is credited 1 exactly when it occurs in some reference, so the
    matches of order n are |set(candidate n-grams) & reference n-grams| (C-level set
    operations over ``zip`` of shifted copies), plus a correction for the few
    n-grams the candidate repeats (:func:`_repeated_credit`).
    """
    c = len(cand)
    shifts = [cand[i:] for i in range(order if order < c else c)]
    if len(refs) == 1:
        r = len(refs[0])
        matches = _single_reference_matches(cand, shifts, refs, order)
    else:
        r = closest_ref_length(c, [len(ref) for ref in refs])
        matches = _many_reference_matches(cand, shifts, refs, order)
    return [c, r, *matches, *[c - n if c > n else 0 for n in range(order)]]


def _single_reference_matches(
    cand: Sequence[str], shifts: list, refs: Sequence[Sequence[str]], order: int
) -> list[int]:
    """Clipped matches of every order against one reference (see :func:`_extract`)."""
    c = len(cand)
    ref = refs[0]
    r = len(ref)
    ref_shifts = [ref[i:] for i in range(order if order < r else r)]
    matches = []
    for n in range(1, order + 1):
        if c < n or r < n:
            matches.append(0)
            continue
        unique = set(cand) if n == 1 else set(zip(*shifts[:n]))
        common = unique.intersection(ref if n == 1 else zip(*ref_shifts[:n]))
        m = len(common)
        if m and len(unique) != c - n + 1:
            m += _repeated_credit(cand, refs, n, common)
        matches.append(m)
    return matches


def _many_reference_matches(
    cand: Sequence[str], shifts: list, refs: Sequence[Sequence[str]], order: int
) -> list[int]:
    """Clipped matches of every order against several references (see :func:`_extract`)."""
    c = len(cand)
    all_shifts = [[ref[i:] for i in range(order if order < len(ref) else len(ref))] for ref in refs]
    matches = []
    for n in range(1, order + 1):
        if c < n:
            matches.append(0)
            continue
        unique = set(cand) if n == 1 else set(zip(*shifts[:n]))
        common: set = set()
        for ref, ref_shifts in zip(refs, all_shifts):
            if len(ref) >= n:
                common.update(unique.intersection(ref if n == 1 else zip(*ref_shifts[:n])))
        m = len(common)
        if m and len(unique) != c - n + 1:
            m += _repeated_credit(cand, refs, n, common)
        matches.append(m)
    return matches


def _repeated_credit(cand: Sequence[str], refs: Sequence[Sequence[str]], n: int, common: set) -> int:
    """Extra credit for n-grams the candidate repeats: min(count, max ref count) - 1 each.

    ``common`` holds the candidate's n-grams found in some reference (tokens for
    n = 1, tuples above).

    Linear in the lengths: each reference's n-grams are counted once, keeping only the
    repeated n-grams asked about (not one ``list.count`` scan per repeated n-gram, which
    made one long line quadratic).

    >>> _repeated_credit("the the the cat".split(), ["the the cat".split()], 1, {"the", "cat"})
    1
    >>> _repeated_credit("a b a b a b".split(), ["a b x a b".split(), "a b".split()], 2, {("a", "b")})
    1
    """
    def grams(tokens: Sequence[str]) -> Iterable:
        return iter(tokens) if n == 1 else zip(*[tokens[i:] for i in range(n)])

    counts: dict = {}
    _count_elements(counts, grams(cand))
    repeated = {gram: k for gram, k in counts.items() if k > 1 and gram in common}
    if not repeated:
        return 0
    caps: dict = {}
    for ref in refs:
        ref_counts: dict = {}
        _count_elements(ref_counts, filter(repeated.__contains__, grams(ref)))
        for gram, count in ref_counts.items():
            if count > caps.get(gram, 0):
                caps[gram] = count
    # Every repeated n-gram is in ``common``, so some reference has it: its cap is >= 1.
    return sum((k if k < caps[gram] else caps[gram]) - 1 for gram, k in repeated.items())


# --------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Options:
    max_order: int
    weights: tuple[float, ...]
    smoothing: str
    smooth_value: Optional[float]
    tokenize: str
    lowercase: bool
    effective_order: bool

    @property
    def extract_order(self) -> int:
        # NLTK's method5 always looks at 5-grams.
        return max(self.max_order, 5) if self.smoothing in NEEDS_FIVEGRAMS else self.max_order


def _check_options(
    max_order: object, weights: object, smoothing: object, smooth_value: object,
    tokenize: object, lowercase: object, effective_order: object,
) -> _Options:
    if isinstance(max_order, bool) or not isinstance(max_order, int):
        raise TypeError(f"max_order: expected a positive int, got {type(max_order).__name__}")
    if max_order < 1:
        raise ValueError(f"max_order: must be at least 1, got {max_order}")
    check_choice(smoothing, SMOOTHING_METHODS, "smoothing")
    check_choice(tokenize, TOKENIZERS, "tokenize")
    for name, flag in (("lowercase", lowercase), ("effective_order", effective_order)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name}: expected True or False, got {type(flag).__name__}")
    value = resolve_smooth_value(smoothing, smooth_value)  # type: ignore[arg-type]
    if max_order > MATERIALIZED_ORDERS and smoothing not in SACREBLEU_METHODS:
        raise ValueError(
            f"max_order: smoothing {smoothing!r} (Chen and Cherry's) computes every order's precision "
            f"one by one; give at most {MATERIALIZED_ORDERS} orders with it (got {max_order}), or use "
            "sacreBLEU's none, floor, add-k or exp, for which orders past the candidate cost nothing"
        )
    if smoothing == "method6" and max_order < 3:
        raise ValueError("smoothing: method6 needs max_order >= 3 (it interpolates from p_1 and p_2)")
    return _Options(
        max_order, check_weights(weights, max_order, stacklevel=4), smoothing, value,  # type: ignore[arg-type]
        tokenize, lowercase, effective_order,  # type: ignore[arg-type]
    )


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NgramRow:
    """One line of an n-gram table: how an n-gram of the candidate is credited.

    ``clipped_count = min(candidate_count, max_reference_count)``.
    """

    ngram: tuple[str, ...]
    candidate_count: int
    reference_counts: tuple[int, ...]
    max_reference_count: int
    clipped_count: int


@dataclass(frozen=True)
class BleuResult:
    """Everything BLEU computed, for one segment or a corpus. Only data; see ``explain()``.

    - ``score`` = ``brevity_penalty * geometric_mean``, in [0, 1] (except with NLTK's
      method5/method7, whose averaging can exceed 1: ``reason`` then says so);
    - ``matches``/``totals`` per order, ``precision_fractions`` their exact ratios,
      ``precisions`` the (smoothed) values that enter the mean, as floats;
    - ``weights`` as asked, ``effective_weights`` as used (renormalised over the
      orders kept by effective order; 0 for orders left out);
    - ``log_precisions`` (log p_n, ``-inf`` for 0), ``weighted_log_precisions``
      (w_n log p_n), ``log_mean`` (their sum) and ``geometric_mean`` = exp(log_mean);
    - ``candidate_length`` c and ``reference_length`` r (closest reference length,
      the shorter on ties, summed over a corpus), ``brevity_penalty``;
    - ``smoothing``, ``smooth_value``, ``signature`` (every setting), ``reason``
      (why the score is what it is when a rule kicked in, else ``None``);
    - ``segments`` -- per-segment results of a corpus (computed on access);
      ``candidate_tokens``/``reference_tokens`` for one segment (``ngram_table``).

    >>> r = bleu("the cat sat on the mat", ["the cat sat on the mat"])
    >>> r.score, r.brevity_penalty, r.matches
    (1.0, 1.0, (6, 5, 4, 3))
    """

    score: float
    precisions: tuple[float, ...]
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    weights: tuple[float, ...]
    effective_weights: tuple[float, ...]
    log_precisions: tuple[float, ...]
    weighted_log_precisions: tuple[float, ...]
    log_mean: float
    geometric_mean: float
    brevity_penalty: float
    candidate_length: int
    reference_length: int
    max_order: int
    orders_used: int
    effective_order: bool
    smoothing: str
    smooth_value: Optional[float]
    tokenize: str
    lowercase: bool
    signature: str
    reason: Optional[str]
    stats: BleuStats
    segments: Sequence["BleuResult"] = ()
    candidate_tokens: Optional[tuple[str, ...]] = None
    reference_tokens: Optional[tuple[tuple[str, ...], ...]] = None
    smoothing_notes: tuple[str, ...] = field(default=(), repr=False)

    @property
    def precision_fractions(self) -> tuple[Fraction, ...]:
        """Unsmoothed modified precisions matches/totals, exact (0/0 is given as 0)."""
        return map_orders(_fraction, self.matches, self.totals)

    @property
    def ratio(self) -> float:
        """c / r, the length ratio behind the brevity penalty (0 when r = 0)."""
        return self.candidate_length / self.reference_length if self.reference_length else 0.0

    @property
    def is_corpus(self) -> bool:
        """``True`` for a corpus result (it has ``segments``)."""
        return len(self.segments) > 0

    def ngram_table(self, n: int) -> list[NgramRow]:
        """The candidate's n-grams with their counts: candidate, each reference, max, clipped.

        Papineni's "the the the ..." example (lowercased, as the paper counts "The"):

        >>> r = bleu("the the the the the the the", ["The cat is on the mat", "There is a cat on the mat"], lowercase=True)
        >>> r.ngram_table(1)
        [NgramRow(ngram=('the',), candidate_count=7, reference_counts=(2, 1), max_reference_count=2, clipped_count=2)]
        """
        if self.candidate_tokens is None or self.reference_tokens is None:
            if self.is_corpus:
                raise ValueError(
                    "ngram_table: this is a corpus result; use result.segments[i].ngram_table(n)"
                )
            raise ValueError("ngram_table: this result was built from statistics and has no tokens")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n: expected an n-gram order >= 1, got {n!r}")
        cand = count_ngrams(self.candidate_tokens, n)
        refs = [count_ngrams(ref, n) for ref in self.reference_tokens]
        rows = []
        for gram, count in cand.items():
            ref_counts = tuple(rc.get(gram, 0) for rc in refs)
            top = max(ref_counts)
            rows.append(NgramRow(gram, count, ref_counts, top, min(count, top)))
        return rows

    def explain(self, *, tables: Optional[bool] = None) -> str:
        """The derivation as text with every number substituted (see :mod:`mtlearn.metrics.bleu.explain`).

        >>> print(bleu("A B", ["A B C D E F"], max_order=2).explain(tables=False))  # doctest: +ELLIPSIS
        BLEU-2 of one segment (smoothing=none, tokenize=whitespace, case-sensitive)
        ...
          p_1 = 2/2 = 1.0000
          p_2 = 1/1 = 1.0000
        ...
          BP = exp(1 - r/c) = exp(1 - 6/2) = 0.1353   (c = 2 < r = 6)
        ...
        BLEU = BP * mean = 0.1353 * 1.0000 = 0.1353
        """
        from mtlearn.metrics.bleu.explain import explain_text

        return explain_text(self, tables=tables)

    def _repr_html_(self) -> str:
        from mtlearn.metrics.bleu.explain import explain_html

        return explain_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict (Fractions as "m/t" strings, infinities as ``None``).

        >>> import json
        >>> d = bleu("A B B C D", ["A B C D E F"]).to_dict()
        >>> d["precision_fractions"], json.loads(json.dumps(d))["score"]
        (['4/5', '3/4', '1/3', '0'], 0.0)

        Per-order values are lists; past :data:`~mtlearn.core.ngrams.MATERIALIZED_ORDERS`
        orders, a dict (see :func:`~mtlearn.core.ngrams.json_orders`):

        >>> bleu("a b", ["a b"], max_order=10**6).to_dict()["matches"]
        {'values': [2, 1], 'then': 0, 'orders': 1000000}
        """
        def num(x: float) -> Optional[float]:
            return float(x) if math.isfinite(x) else None

        out: dict[str, Any] = {
            "score": self.score,
            "precisions": json_orders(self.precisions, float),
            "precision_fractions": json_orders(self.precision_fractions, str),
            "matches": json_orders(self.matches, int),
            "totals": json_orders(self.totals, int),
            "weights": json_orders(self.weights, float),
            "effective_weights": json_orders(self.effective_weights, float),
            "log_precisions": json_orders(self.log_precisions, num),
            "weighted_log_precisions": json_orders(self.weighted_log_precisions, num),
            "log_mean": num(self.log_mean),
            "geometric_mean": self.geometric_mean,
            "brevity_penalty": self.brevity_penalty,
            "candidate_length": self.candidate_length,
            "reference_length": self.reference_length,
            "max_order": self.max_order,
            "orders_used": self.orders_used,
            "effective_order": self.effective_order,
            "smoothing": self.smoothing,
            "smooth_value": self.smooth_value,
            "tokenize": self.tokenize,
            "lowercase": self.lowercase,
            "signature": self.signature,
            "reason": self.reason,
            "n_segments": len(self.segments) if self.is_corpus else 1,
        }
        if self.candidate_tokens is not None:
            out["candidate_tokens"] = list(self.candidate_tokens or ())
            out["reference_tokens"] = [list(r) for r in self.reference_tokens or ()]
        elif segments:
            out["segments"] = [s.to_dict() for s in self.segments]
        return out


class BleuSegments(Sequence[BleuResult]):
    """The per-segment results of a corpus, built on access from stored statistics.

    Holds only the inputs (shallow copies of the lists) and a compact array of
    per-segment statistics; ``segments[i]`` re-tokenizes segment i to rebuild its
    trace. ``stats()`` gives every segment's :class:`BleuStats`, e.g. for a bootstrap.

    >>> r = corpus_bleu(["A B B C D", "A B"], [["A B C D E F"], ["A B C D E F"]], max_order=2)
    >>> len(r.segments), str(r.segments[1].precision_fractions[0]), r.segments.stats()[1].candidate_length
    (2, '1', 2)
    """

    def __init__(self, candidates: list, references: list, rows: array, width: int,
                 options: _Options) -> None:
        self._candidates = candidates
        self._references = references
        self._rows = rows
        self._width = width  # orders counted (none beyond the longest candidate)
        self._options = options

    def __len__(self) -> int:
        return len(self._candidates)

    @overload
    def __getitem__(self, index: int) -> BleuResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[BleuResult]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[BleuResult, list[BleuResult]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = check_index(index, len(self))
        opts = self._options
        cand = as_tokens(self._candidates[index], argname=f"candidates[{index}]",
                         tokenize=opts.tokenize, lowercase=opts.lowercase)
        refs = as_reference_list(self._references[index], argname=f"references[{index}]",
                                 tokenize=opts.tokenize, lowercase=opts.lowercase)
        return _finish(self.stats_of(index), opts, nrefs=str(len(refs)),
                       extra_notes=_segment_notes(cand, refs, opts.tokenize),
                       candidate_tokens=cand, reference_tokens=tuple(refs))

    def stats_of(self, index: int) -> BleuStats:
        """The :class:`BleuStats` of segment ``index``."""
        step = 2 + 2 * self._width
        return _stats_from_row(self._rows[index * step : (index + 1) * step], self._width,
                               self._options.extract_order)

    def stats(self) -> list[BleuStats]:
        """Every segment's :class:`BleuStats`, in order."""
        step = 2 + 2 * self._width
        rows = self._rows.tolist()
        order = self._options.extract_order
        return [_stats_from_row(rows[i : i + step], self._width, order) for i in range(0, len(rows), step)]

    def __repr__(self) -> str:
        return f"<BleuSegments: {plural(len(self), 'segment')}>"


# --------------------------------------------------------------------------------------
# Statistics -> score
# --------------------------------------------------------------------------------------


def bleu_from_stats(
    stats: BleuStats,
    *,
    max_order: int = 4,
    weights: Optional[Sequence[float]] = None,
    smoothing: str = "none",
    smooth_value: Optional[float] = None,
    effective_order: bool = False,
    tokenize: str = "whitespace",
    lowercase: bool = False,
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

    Document 002's example C as statistics (c = 2, r = 6, every n-gram matched):

    >>> s = BleuStats(2, 6, (2, 1), (2, 1), (2, 1))
    >>> r = bleu_from_stats(s, max_order=2)
    >>> round(r.brevity_penalty, 4), round(r.score, 4)
    (0.1353, 0.1353)
    """
    opts = _check_options(max_order, weights, smoothing, smooth_value, tokenize, lowercase,
                          effective_order)
    if not isinstance(stats, BleuStats):
        raise TypeError(f"stats: expected BleuStats, got {type(stats).__name__}")
    return _finish(stats, opts, nrefs=str(nrefs))


def _finish(
    stats: BleuStats,
    opts: _Options,
    *,
    nrefs: str,
    extra_notes: Sequence[str] = (),
    segments: Sequence[BleuResult] = (),
    candidate_tokens: Optional[tuple[str, ...]] = None,
    reference_tokens: Optional[tuple[tuple[str, ...], ...]] = None,
) -> BleuResult:
    """Statistics to score, through the formula steps: smooth, BP, weighted geometric mean."""
    N = opts.max_order
    matches, totals = stats.matches[:N], stats.totals[:N]
    smoothed = _smoothed(stats, opts)
    c, r = stats.candidate_length, stats.reference_length
    bp = brevity_penalty(c, r)
    used = smoothed.orders
    eff = _effective_weights(opts.weights, used)
    # Order by order; with a huge max_order the orders past the candidate are one repeated value.
    precisions = map_orders(float, smoothed.precisions)
    logs = map_orders(_log, precisions)  # floats: cheap
    mean_weights = _mean_weights(eff, logs, used, smoothed.skip_zero)
    # The trace of the mean: w_n log p_n per order (0 for an order left out) and their sum.
    weighted = map_orders(_weighted_log, mean_weights, logs)
    if smoothed.skip_zero and stats.matches[0] == 0:
        log_mean, geo = -math.inf, 0.0  # NLTK: no unigram matches, BLEU = 0
    else:
        log_mean = -math.inf if -math.inf in weighted else sum_orders(weighted)
        geo = _geometric_mean(precisions, mean_weights)
    notes = _reason_notes(extra_notes, smoothed.notes, c)
    _warn_above_one(smoothed.notes)
    return BleuResult(
        score=bp * geo,
        precisions=precisions,
        matches=matches if isinstance(matches, PerOrder) else tuple(matches),
        totals=totals if isinstance(totals, PerOrder) else tuple(totals),
        weights=opts.weights,
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
        signature=_signature(opts, nrefs),
        reason="; ".join(notes) if notes else None,
        stats=stats,
        segments=segments,
        candidate_tokens=candidate_tokens,
        reference_tokens=reference_tokens,
        smoothing_notes=smoothed.notes,
    )


def _smoothed(stats: BleuStats, opts: _Options) -> SmoothedPrecisions:
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


def _fraction(m: int, t: int) -> Fraction:
    return Fraction(m, t) if t else Fraction(0)


def _log(p: float) -> float:
    return math.log(p) if p > 0 else -math.inf


def _weighted_log(w: float, lg: float) -> float:
    return w * lg if w != 0 else 0.0


def _geometric_mean(precisions: Sequence[float], weights: Sequence[float]) -> float:
    """:func:`~mtlearn.metrics.bleu.formulas.geometric_mean`, with a repeated tail of orders taken once.

    For plain tuples it IS the formula step. For a :class:`PerOrder` (a huge max_order),
    the orders past the stored ones share one precision p and one weight w: they add
    nothing when w = 0 and make the mean 0 when p = 0 -- the only two cases BLEU's
    smoothing leaves there (tests/test_hostile_numbers.py checks it against the step).
    """
    if not isinstance(precisions, PerOrder) and not isinstance(weights, PerOrder):
        return geometric_mean(precisions, weights)
    stored = stored_length(precisions, weights)
    head = geometric_mean(precisions[:stored], weights[:stored])
    if stored == len(precisions) or weights[stored] == 0:
        return head
    if precisions[stored] <= 0:
        return 0.0
    tail = len(precisions) - stored  # not reached by BLEU's smoothing methods; exact enough
    return head * math.exp(weights[stored] * math.log(precisions[stored]) * tail)


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
    kept_sum = sum_orders(kept)
    if kept_sum > 0:
        return per_order(tuple(w * (sum_orders(weights) / kept_sum) for w in kept), 0.0, N)
    return weights


def _mean_weights(
    weights: tuple[float, ...], logs: tuple[float, ...], used: int, skip_zero: bool
) -> tuple[float, ...]:
    """The weight each order has in the geometric mean: 0 for an order left out.

    Orders beyond ``used`` (effective order) are left out, and with ``skip_zero``
    (the Chen-Cherry family, NLTK's ``if p_i > 0``) so is every precision still 0.
    """
    N = len(weights)
    # Computed one by one up to the stored values (and the cut of effective order); the rest
    # of the orders are all alike, so one of them stands for all.
    stored = stored_length(weights, logs)
    if used < N:
        stored = max(stored, used)
    values = tuple(
        0.0 if n >= used or (skip_zero and logs[n] == -math.inf) else weights[n]
        for n in range(min(stored + 1, N))
    )
    return per_order(values[:stored], values[stored] if stored < N else 0.0, N)


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


def _warn_above_one(smoothing_notes: Sequence[str]) -> None:
    """Warn when ``smooth_value > 1`` made a precision exceed 1 (floor, method1): a legal but odd score."""
    above = [n for n in smoothing_notes if n.startswith("smooth_value = ")]
    if above:
        warnings.warn(f"BLEU: {above[0]}", UserWarning, stacklevel=4)


def _is_reason(note: str) -> bool:
    # Reasons explain a zero or an unusual score; plain smoothing steps stay in smoothing_notes.
    keys = ("BLEU = 0", "0/0", "left out", "effective order", "tiny positive", "exceed 1")
    return any(k in note for k in keys)


def _signature(opts: _Options, nrefs: str) -> str:
    smooth_str = opts.smoothing
    if opts.smooth_value is not None:
        smooth_str += f"[{float(opts.smooth_value):.2f}]"
    weights = opts.weights
    alike = weights[: stored_length(weights) + 1]  # a PerOrder's tail is one value
    uniform = all(w == weights[0] for w in alike) and abs(sum_orders(weights) - 1) < 1e-12
    return make_signature("bleu", {
        "nrefs": nrefs,
        "case": "lc" if opts.lowercase else "mixed",
        "eff": "yes" if opts.effective_order else "no",
        "tok": opts.tokenize,
        "smooth": smooth_str,
        "order": opts.max_order,
        "weights": "uniform" if uniform else ",".join(format_number(w) for w in opts.weights),
    })


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
    max_order: int = 4,
    weights: Optional[Sequence[float]] = None,
    smoothing: str = "none",
    smooth_value: Optional[float] = None,
    tokenize: str = "whitespace",
    lowercase: bool = False,
    effective_order: bool = False,
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
    """
    opts = _check_options(max_order, weights, smoothing, smooth_value, tokenize, lowercase,
                          effective_order)
    check_sentence_call(candidate, references, call="bleu")  # a corpus here would score as one sentence
    cand = as_tokens(candidate, argname="candidate", tokenize=tokenize, lowercase=lowercase)
    refs = as_reference_list(references, argname="references", tokenize=tokenize,
                             lowercase=lowercase)
    width = _count_width(opts.extract_order, len(cand))
    stats = _stats_from_row(_extract(cand, refs, width), width, opts.extract_order)
    return _finish(stats, opts, nrefs=str(len(refs)), extra_notes=_segment_notes(cand, refs, opts.tokenize),
                   candidate_tokens=cand, reference_tokens=tuple(refs))


def _corpus_width(candidates: list, opts: _Options) -> int:
    """How many orders corpus BLEU counts: :func:`_count_width` of the longest candidate.

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
    return _count_width(order, longest)


def corpus_bleu(
    candidates: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
    *,
    max_order: int = 4,
    weights: Optional[Sequence[float]] = None,
    smoothing: str = "none",
    smooth_value: Optional[float] = None,
    tokenize: str = "whitespace",
    lowercase: bool = False,
    effective_order: bool = False,
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
    """
    opts = _check_options(max_order, weights, smoothing, smooth_value, tokenize, lowercase,
                          effective_order)
    warn_reference_layout(candidates, references, call="corpus_bleu")  # the layout hint, before the shape errors
    result = _corpus_bleu(candidates, references, opts)
    warn_ambiguous_layout(candidates, references, result.score, lambda refs: _corpus_bleu(candidates, refs, opts).score,
                          call="corpus_bleu")
    return result


def _corpus_bleu(candidates: Sequence[Segment], references: Sequence[Sequence[Segment]], opts: _Options) -> BleuResult:
    """:func:`corpus_bleu` once the options are checked and the layout hints given."""
    tokenize, lowercase = opts.tokenize, opts.lowercase
    check_corpus(candidates, references)
    candidates, references = list(candidates), list(references)
    order = _corpus_width(candidates, opts)
    tok = get_tokenizer(tokenize)
    lc = lowercase
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
            rts = as_reference_list(refs, argname=f"references[{i}]", tokenize=tokenize,
                                    lowercase=lc)
        nrefs_seen.add(len(rts))
        if not all(rts):
            empty_refs += 1
        extend(_extract(ct, rts, order))
    step = 2 + 2 * order
    c = sum(rows[0::step])
    r = sum(rows[1::step])
    matches = tuple(sum(rows[2 + n :: step]) for n in range(order))
    total_cols = [rows[2 + order + n :: step] for n in range(order)]
    totals = tuple(sum(col) for col in total_cols)
    nltk_totals = tuple(t + col.count(0) for t, col in zip(totals, total_cols))
    # Orders beyond the longest candidate were not counted: 0 matches, 0 totals, NLTK's 1 per segment.
    N = opts.extract_order
    stats = BleuStats(c, r, per_order(matches, 0, N), per_order(totals, 0, N),
                      per_order(nltk_totals, len(candidates), N))
    nrefs = str(next(iter(nrefs_seen))) if len(nrefs_seen) == 1 else "var"
    notes = []
    empty_cands = rows[0::step].count(0)
    if empty_cands:
        notes.append(f"{part_of(empty_cands, len(candidates), 'candidate')} empty")
    if empty_refs:
        notes.append(f"{part_of(empty_refs, len(candidates), 'segment', ('has', 'have'))} an empty reference")
    notes.extend(_corpus_cjk_notes(candidates, tokenize))
    segments = BleuSegments(candidates, references, rows, order, opts)
    return _finish(stats, opts, nrefs=nrefs, extra_notes=notes, segments=segments)

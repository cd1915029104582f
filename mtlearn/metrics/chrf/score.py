"""chrF and chrF++ with every step exposed: ``ChrfStats``, ``ChrfResult``, ``chrf()``, ``corpus_chrf()``.

The architecture is sacreBLEU's (``sacrebleu/metrics/chrf.py``), as for BLEU:

1. each segment is reduced once to its *sufficient statistics*, a :class:`ChrfStats`:
   per order (character orders 1..char_order, then word orders 1..word_order) the
   candidate's n-grams, the reference's n-grams and the matched n-grams, against the
   ONE reference kept for that segment (the one with the highest chrF);
2. statistics of a corpus are *summed* (``ChrfStats`` supports ``+``);
3. ONE function, :func:`chrf_from_stats`, turns statistics into a score: P_n and R_n per
   order, averaged over the orders used, and F_beta of the two averages.

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

import math
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional, Union, overload

from mtlearn.metrics.chrf.formulas import (
    average,
    char_ngrams,
    effective_orders,
    f_beta,
    order_f,
    precision,
    recall,
    sacrebleu_float_score,
    segment_counts,
    split_punctuation,
    strip_whitespace,
    word_ngrams,
)
from mtlearn.core.ngrams import MATERIALIZED_ORDERS, count_elements
from mtlearn.core.signature import format_number, make_signature
from mtlearn.core.references import check_sentence_call, warn_ambiguous_layout, warn_reference_layout
from mtlearn.core.checks import check_choice, check_corpus, check_index
from mtlearn.core.wording import part_of, plural

__all__ = [
    "ChrfStats",
    "ChrfOrder",
    "ChrfNgramRow",
    "ChrfResult",
    "ChrfSegments",
    "REFERENCE_TIES",
    "chrf",
    "corpus_chrf",
    "chrf_from_stats",
    "sum_stats",
]

#: How a tie between references (equal chrF) is broken: keep the ``first`` (sacreBLEU) or the ``last``.
REFERENCE_TIES: tuple[str, ...] = ("first", "last")


# --------------------------------------------------------------------------------------
# Sufficient statistics
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChrfStats:
    """Sufficient statistics of one segment or a corpus (sums of segments).

    ``candidate[k]``, ``reference[k]``, ``matched[k]`` belong to order k: the character
    orders 1..``char_order`` first, then the word orders 1..``word_order``.

    >>> a = ChrfStats((4, 3), (3, 2), (2, 1), char_order=2, word_order=0)
    >>> (a + a).matched, (a + a).triples
    ((4, 2), ((8, 6, 4), (6, 4, 2)))
    """

    candidate: tuple[int, ...]
    reference: tuple[int, ...]
    matched: tuple[int, ...]
    char_order: int
    word_order: int

    def __add__(self, other: "ChrfStats") -> "ChrfStats":
        if not isinstance(other, ChrfStats):
            return NotImplemented
        if (other.char_order, other.word_order) != (self.char_order, self.word_order):
            raise ValueError("stats: cannot add statistics of different char/word orders")
        return ChrfStats(
            tuple(map(int.__add__, self.candidate, other.candidate)),
            tuple(map(int.__add__, self.reference, other.reference)),
            tuple(map(int.__add__, self.matched, other.matched)),
            self.char_order,
            self.word_order,
        )

    @property
    def triples(self) -> tuple[tuple[int, int, int], ...]:
        """``(candidate, reference, matched)`` per order, the layout of the formula steps."""
        return tuple(zip(self.candidate, self.reference, self.matched))

    @classmethod
    def from_row(cls, row: Sequence[int], char_order: int, word_order: int) -> "ChrfStats":
        """Statistics from sacreBLEU's flat layout ``[c_1, r_1, m_1, c_2, r_2, m_2, ...]``.

        >>> ChrfStats.from_row([4, 3, 2, 3, 2, 1], 2, 0).candidate
        (4, 3)
        """
        row = list(row)
        if len(row) != 3 * (char_order + word_order):
            raise ValueError(f"row: expected {3 * (char_order + word_order)} numbers, got {len(row)}")
        return cls(tuple(row[0::3]), tuple(row[1::3]), tuple(row[2::3]), char_order, word_order)


def sum_stats(stats: Iterable[ChrfStats]) -> ChrfStats:
    """Sum many :class:`ChrfStats` at once (a corpus, or a bootstrap sample of segments).

    >>> s = ChrfStats((4,), (3,), (2,), 1, 0)
    >>> sum_stats([s, s, s]).matched
    (6,)
    """
    items = list(stats)
    if not items:
        raise ValueError("stats: nothing to sum; give at least one ChrfStats")
    first = items[0]
    if any((s.char_order, s.word_order) != (first.char_order, first.word_order) for s in items):
        raise ValueError("stats: cannot add statistics of different char/word orders")
    return ChrfStats(
        tuple(map(sum, zip(*[s.candidate for s in items]))),
        tuple(map(sum, zip(*[s.reference for s in items]))),
        tuple(map(sum, zip(*[s.matched for s in items]))),
        first.char_order,
        first.word_order,
    )


# --------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Options:
    char_order: int
    word_order: int
    beta: float
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool
    reference_ties: str

    @property
    def n_orders(self) -> int:
        return self.char_order + self.word_order


#: The most character (and, separately, word) orders chrF takes: as many as BLEU's Chen-Cherry smoothing.
MAX_ORDER = MATERIALIZED_ORDERS


def _check_order(value: object, name: str) -> int:
    """An order, 0 .. :data:`MAX_ORDER`.

    Bounded because chrF keeps every order's counts (per segment, and in every bootstrap
    sample of a paired test) and averages one F per order, while an order longer than every
    line has no n-grams: it is left out (effective order) or only lowers the score
    (``eps_smoothing``). ``char_order=10**9`` filled 844 MB in 20 s before it was refused.

    >>> _check_order(10**9, "char_order")
    Traceback (most recent call last):
    ...
    ValueError: char_order: at most 4096, got 1000000000 (chrF keeps the counts of every order and averages one F per order; an order longer than every line has no n-grams and only drops out of the average or lowers it)
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected an int >= 0, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name}: must be >= 0, got {value}")
    if value > MAX_ORDER:
        shown = str(value) if value < 10**30 else f"a number of {len(str(value))} digits"
        raise ValueError(f"{name}: at most {MAX_ORDER}, got {shown} (chrF keeps the counts of every order and "
                         "averages one F per order; an order longer than every line has no n-grams and only "
                         "drops out of the average or lowers it)")
    return value


def _check_beta(beta: object) -> float:
    if isinstance(beta, bool) or not isinstance(beta, (int, float, Fraction)):
        raise TypeError(f"beta: expected a positive number, got {type(beta).__name__}")
    if not math.isfinite(beta) or beta <= 0:
        raise ValueError(f"beta: must be a finite number > 0, got {beta!r}")
    return float(beta)


def _check_options(
    char_order: object, word_order: object, beta: object, lowercase: object, whitespace: object,
    eps_smoothing: object, reference_ties: object,
) -> _Options:
    nc = _check_order(char_order, "char_order")
    nw = _check_order(word_order, "word_order")
    if nc == 0 and nw == 0:
        raise ValueError("char_order: char_order and word_order are both 0; chrF needs at least one order")
    b = _check_beta(beta)
    flags = (("lowercase", lowercase), ("whitespace", whitespace), ("eps_smoothing", eps_smoothing))
    for name, flag in flags:
        if not isinstance(flag, bool):
            raise TypeError(f"{name}: expected True or False, got {type(flag).__name__}")
    ties = check_choice(reference_ties, REFERENCE_TIES, "reference_ties")
    return _Options(nc, nw, b, lowercase, whitespace, eps_smoothing, ties)  # type: ignore[arg-type]


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


# --------------------------------------------------------------------------------------
# Choosing the reference
# --------------------------------------------------------------------------------------


def _better(score: float, best: float, ties: str) -> bool:
    """Does a reference scoring ``score`` replace the best so far? (sacreBLEU: strictly greater)."""
    return score > best if ties == "first" else score >= best


def _choose(rows: Sequence[Sequence[int]], opts: _Options) -> tuple[int, list[float]]:
    """The index of the reference kept, and every reference's chrF x 100 as sacreBLEU compares it."""
    scores = [sacrebleu_float_score(list(zip(row[0::3], row[1::3], row[2::3])), opts.beta, opts.eps_smoothing)
              for row in rows]
    best, best_score = 0, -1.0
    for i, s in enumerate(scores):
        if _better(s, best_score, opts.reference_ties):
            best, best_score = i, s
    return best, scores


def _choice_text(best: int, scores: Sequence[float], ties: str) -> str:
    """Why reference ``best`` was kept, in words (``scores`` are chrF x 100)."""
    if len(scores) == 1:
        return "the only reference"
    tied = [i for i, s in enumerate(scores) if s == scores[best]]
    others = ", ".join(f"{scores[i] / 100:.4f} (reference {i})" for i in range(len(scores)) if i != best)
    if len(tied) > 1:
        which = ", ".join(str(i) for i in tied)
        return (f"references {which} tie at chrF {scores[best] / 100:.4f}; the {ties} is kept "
                f"(reference_ties={ties!r}{', as sacreBLEU' if ties == 'first' else ''})")
    return f"highest chrF of the {plural(len(scores), 'reference')}: {scores[best] / 100:.4f}, against {others}"


# --------------------------------------------------------------------------------------
# The corpus' hot path: the same counts as formulas.segment_counts, fused
# --------------------------------------------------------------------------------------


#: _SLICES[n][i] is slice(i, i + n), made once: slicing a string by a stored slice is the fastest way to cut n-grams.
#: Bounded: orders up to _SLICED_ORDERS and _SLICED_LENGTH n-grams (at most 24 * 4,096 slices, about 6 MB);
#: a higher order or a longer line cuts its n-grams on the fly, so no char_order or line grows the table.
_SLICES: dict[int, list[slice]] = {}
_SLICED_ORDERS = 24
_SLICED_LENGTH = 4096


def _slices(n: int, count: int) -> list[slice]:
    """The slices of the ``count`` n-grams of a string (``n <= _SLICED_ORDERS``, ``count <= _SLICED_LENGTH``)."""
    have = _SLICES.get(n)
    if have is None:
        have = _SLICES[n] = [slice(i, i + n) for i in range(_SLICED_LENGTH)]
    return have[:count]


def _grams(line: Union[str, list], n: int) -> Iterable:
    """The n-grams of a string (substrings) or of a word list (tuples; words themselves for n = 1)."""
    if n == 1:
        return line
    if isinstance(line, str):
        count = len(line) - n + 1
        if count <= 0:
            return ()
        if n > _SLICED_ORDERS or count > _SLICED_LENGTH:
            return (line[i:i + n] for i in range(count))
        return map(line.__getitem__, _slices(n, count))
    return zip(*[line[i:] for i in range(n)])


def _profile(text: str, opts: _Options) -> list[tuple[dict, int]]:
    """Every order's n-gram counts of one (lowercased) text, with their totals."""
    line = text if opts.whitespace else "".join(text.split())
    out = _orders_of(line, opts.char_order)
    if opts.word_order:
        out += _orders_of(split_punctuation(text), opts.word_order)
    return out


_NONE: tuple[dict, int] = ({}, 0)  # an order longer than the line: no n-grams (never written to)


def _orders_of(line: Union[str, list], orders: int) -> list[tuple[dict, int]]:
    """The n-gram counts of orders 1..``orders`` of one line; past its length, one shared empty entry."""
    out = []
    for n in range(1, min(orders, len(line)) + 1):
        counts: dict = {}
        count_elements(counts, _grams(line, n))
        out.append((counts, len(line) - n + 1))
    return out + [_NONE] * (orders - len(out))


def _fast_row(cand: list[tuple[dict, int]], ref: list[tuple[dict, int]]) -> list[int]:
    """``[c_1, r_1, m_1, ...]`` of a candidate against one reference (see ``order_counts``)."""
    row: list[int] = []
    for (hc, ht), (rc, rt) in zip(cand, ref):
        if not rt:
            row += (0, 0, 0)  # sacreBLEU: no reference n-grams, the candidate's are not counted
            continue
        common = hc.keys() & rc.keys()
        if len(hc) == ht or len(rc) == rt:
            m = len(common)  # one side has every n-gram once: min(1, count) = 1 for each common one
        else:
            m = sum(map(min, map(hc.__getitem__, common), map(rc.__getitem__, common)))
        row += (ht, rt, m)
    return row


def _plain_rows(candidate: str, references: Sequence[str], opts: _Options) -> list[list[int]]:
    """Every reference's row by the formula steps (:func:`~mtlearn.metrics.chrf.formulas.segment_counts`)."""
    if opts.lowercase:
        candidate, references = candidate.lower(), [r.lower() for r in references]
    return [
        [x for triple in segment_counts(candidate, ref, opts.char_order, opts.word_order, opts.whitespace)
         for x in triple]
        for ref in references
    ]


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChrfOrder:
    """One order of chrF: its counts, exact P_n and R_n, and its own F_beta.

    ``kind`` is ``"char"`` or ``"word"``; ``used`` says whether the order enters the
    average (both sides have n-grams of it; with ``eps_smoothing`` every order does).
    ``candidate_count`` is 0 when the reference has no n-gram of this order (sacreBLEU's rule).
    """

    kind: str
    n: int
    candidate_count: int
    reference_count: int
    matched: int
    precision: Fraction
    recall: Fraction
    f: float
    used: bool

    @property
    def label(self) -> str:
        """A short name: ``c3`` for character 3-grams, ``w1`` for word unigrams."""
        return f"{self.kind[0]}{self.n}"


@dataclass(frozen=True)
class ChrfNgramRow:
    """One n-gram of a segment: its count in the candidate, in the kept reference, and matched (the min).

    A character n-gram is a string; a word n-gram a tuple of words.
    """

    ngram: Union[str, tuple[str, ...]]
    candidate_count: int
    reference_count: int
    matched: int


@dataclass(frozen=True)
class ChrfResult:
    """Everything chrF computed, for one segment or a corpus. Only data; see ``explain()``.

    - ``score`` (== ``f_beta``) in [0, 1];
    - ``orders``: one :class:`ChrfOrder` per order, characters first, then words;
    - ``precision``/``recall``: P_n and R_n averaged over the orders used (exact:
      ``precision_fraction``/``recall_fraction``), ``effective_order`` their number;
    - ``best_reference``/``reference_choice``/``reference_scores`` (one segment): the
      reference kept and why, every reference's chrF;
    - ``candidate``/``references`` (one segment), ``segments`` (a corpus, built on access),
      ``stats``, ``signature``, ``reason`` (why the score is what it is when a rule
      kicked in, else ``None``) and the options.

    >>> r = chrf("the cat", ["the cat"])
    >>> r.score, r.effective_order, r.reason
    (1.0, 6, None)
    """

    score: float
    orders: tuple[ChrfOrder, ...]
    precision: float
    recall: float
    f_beta: float
    effective_order: int
    beta: float
    char_order: int
    word_order: int
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool
    reference_ties: str
    best_reference: Optional[int]
    reference_choice: Optional[str]
    reference_scores: tuple[float, ...]
    candidate: Optional[str]
    references: tuple[str, ...]
    stats: ChrfStats
    signature: str
    reason: Optional[str]
    segments: Sequence["ChrfResult"] = ()

    @property
    def is_corpus(self) -> bool:
        """``True`` for a corpus result (it has ``segments``)."""
        return len(self.segments) > 0

    @property
    def precision_fraction(self) -> Fraction:
        """The averaged precision, exact."""
        return average([o.precision for o in self.orders if o.used and o.candidate_count and o.reference_count])

    @property
    def recall_fraction(self) -> Fraction:
        """The averaged recall, exact."""
        return average([o.recall for o in self.orders if o.used and o.candidate_count and o.reference_count])

    def ngram_table(self, kind: str, n: int) -> list[ChrfNgramRow]:
        """The n-grams of the candidate and of the kept reference, with their counts (one segment).

        Candidate n-grams come first, in order of appearance, then those only the reference has.

        >>> chrf("aab", ["ab"], char_order=1).ngram_table("char", 1)
        [ChrfNgramRow(ngram='a', candidate_count=2, reference_count=1, matched=1), ChrfNgramRow(ngram='b', candidate_count=1, reference_count=1, matched=1)]
        """
        if self.candidate is None or self.best_reference is None:
            if self.is_corpus:
                raise ValueError("ngram_table: this is a corpus result; use result.segments[i].ngram_table(kind, n)")
            raise ValueError("ngram_table: this result was built from statistics and has no text")
        check_choice(kind, ("char", "word"), "kind")
        top = self.char_order if kind == "char" else self.word_order
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= top:
            raise ValueError(f"n: expected an order from 1 to {top} for kind={kind!r}, got {n!r}")
        cand, ref = self.candidate, self.references[self.best_reference]
        if self.lowercase:
            cand, ref = cand.lower(), ref.lower()
        if kind == "char":
            hc, rc = char_ngrams(cand, n, self.whitespace), char_ngrams(ref, n, self.whitespace)
        else:
            hc, rc = word_ngrams(split_punctuation(cand), n), word_ngrams(split_punctuation(ref), n)
        keys = list(hc) + [g for g in rc if g not in hc]
        return [ChrfNgramRow(g, hc.get(g, 0), rc.get(g, 0), min(hc.get(g, 0), rc.get(g, 0))) for g in keys]

    def explain(self, *, tables: Optional[bool] = None) -> str:
        """The derivation as text with every number substituted (see :mod:`mtlearn.metrics.chrf.explain`).

        >>> print(chrf("ab ab", ["abc"], char_order=2).explain(tables=False))  # doctest: +ELLIPSIS
        chrF (beta=2, char_order=2, word_order=0) of one segment ...
        ...
        F_2 = (1 + 2^2) * P * R / (2^2 * P + R) = 5 * 0.4167 * 0.5833 / (4 * 0.4167 + 0.5833) = 0.5401
        """
        from mtlearn.metrics.chrf.explain import explain_text

        return explain_text(self, tables=tables)

    def _repr_html_(self) -> str:
        from mtlearn.metrics.chrf.explain import explain_html

        return explain_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict (Fractions as "m/t" strings).

        >>> import json
        >>> d = chrf("ab ab", ["abc"], char_order=2).to_dict()
        >>> d["orders"][0]["precision"], json.loads(json.dumps(d))["score"]
        ('1/2', 0.5401234567901234)
        """
        out: dict[str, Any] = {
            "score": self.score,
            "precision": self.precision,
            "recall": self.recall,
            "precision_fraction": str(self.precision_fraction),
            "recall_fraction": str(self.recall_fraction),
            "f_beta": self.f_beta,
            "effective_order": self.effective_order,
            "orders": [
                {"kind": o.kind, "n": o.n, "candidate_count": o.candidate_count,
                 "reference_count": o.reference_count, "matched": o.matched,
                 "precision": str(o.precision), "recall": str(o.recall), "f": o.f, "used": o.used}
                for o in self.orders
            ],
            "beta": self.beta,
            "char_order": self.char_order,
            "word_order": self.word_order,
            "lowercase": self.lowercase,
            "whitespace": self.whitespace,
            "eps_smoothing": self.eps_smoothing,
            "reference_ties": self.reference_ties,
            "best_reference": self.best_reference,
            "reference_choice": self.reference_choice,
            "reference_scores": list(self.reference_scores),
            "signature": self.signature,
            "reason": self.reason,
            "n_segments": len(self.segments) if self.is_corpus else 1,
        }
        if self.candidate is not None:
            out["candidate"] = self.candidate
            out["references"] = list(self.references)
        elif segments:
            out["segments"] = [s.to_dict() for s in self.segments]
        return out


class ChrfSegments(Sequence[ChrfResult]):
    """The per-segment results of a corpus, built on access from the stored inputs.

    Holds the inputs (shallow copies of the lists), a compact array of per-segment
    statistics and the index of each segment's kept reference; ``segments[i]`` is
    ``chrf()`` of segment i with the corpus' options. ``stats()`` gives every segment's
    :class:`ChrfStats` (e.g. for a bootstrap), ``stats_of(i)`` one of them.

    >>> r = corpus_chrf(["ab ab", "abc"], [["abc"], ["xyz", "abc"]], char_order=2)
    >>> len(r.segments), r.segments[1].best_reference, r.segments.stats_of(1).matched
    (2, 1, (3, 2))
    """

    def __init__(self, candidates: list, references: list, rows: array, best: array, options: _Options) -> None:
        self._candidates = candidates
        self._references = references
        self._rows = rows
        self._best = best
        self._options = options

    def __len__(self) -> int:
        return len(self._candidates)

    @overload
    def __getitem__(self, index: int) -> ChrfResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[ChrfResult]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[ChrfResult, list[ChrfResult]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = check_index(index, len(self))
        refs = self._references[index]
        return _segment_result(self._candidates[index], [refs] if isinstance(refs, str) else list(refs),
                               self._options)

    def stats_of(self, index: int) -> ChrfStats:
        """The :class:`ChrfStats` of segment ``index`` (as summed into the corpus)."""
        index = check_index(index, len(self))
        k = 3 * self._options.n_orders
        return ChrfStats.from_row(self._rows[index * k : (index + 1) * k], self._options.char_order,
                                  self._options.word_order)

    def stats(self) -> list[ChrfStats]:
        """Every segment's :class:`ChrfStats`, in order."""
        k = 3 * self._options.n_orders
        rows = self._rows.tolist()
        nc, nw = self._options.char_order, self._options.word_order
        return [ChrfStats.from_row(rows[i : i + k], nc, nw) for i in range(0, len(rows), k)]

    def best_references(self) -> list[int]:
        """The index of the reference kept for every segment."""
        return self._best.tolist()

    def __repr__(self) -> str:
        return f"<ChrfSegments: {plural(len(self), 'segment')}>"


# --------------------------------------------------------------------------------------
# Statistics -> score
# --------------------------------------------------------------------------------------


def _orders(stats: ChrfStats, opts: _Options) -> tuple[ChrfOrder, ...]:
    triples = stats.triples
    used = set(range(len(triples))) if opts.eps_smoothing else set(effective_orders(triples))
    kinds = [("char", n) for n in range(1, opts.char_order + 1)] + [("word", n) for n in range(1, opts.word_order + 1)]
    return tuple(
        ChrfOrder(kind, n, c, r, m, precision(m, c), recall(m, r),
                  float(order_f(c, r, m, opts.beta, eps=opts.eps_smoothing)), i in used)
        for i, ((kind, n), (c, r, m)) in enumerate(zip(kinds, triples))
    )


def _exact_score(orders: Sequence[ChrfOrder], opts: _Options) -> tuple[Fraction, Fraction, Fraction]:
    """(P, R, F) exactly: the effective-order averages, and F of them (or the mean F_n with eps)."""
    kept = [o for o in orders if o.candidate_count and o.reference_count]
    p, r = average([o.precision for o in kept]), average([o.recall for o in kept])
    if opts.eps_smoothing:
        f = average([order_f(o.candidate_count, o.reference_count, o.matched, opts.beta, eps=True) for o in orders])
    else:
        f = f_beta(p, r, opts.beta)
    return p, r, f


def _reason(orders: Sequence[ChrfOrder], opts: _Options, notes: Sequence[str], score: float) -> Optional[str]:
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
    """The orders' labels; a run of more than 6 consecutive orders of one kind as a range, so a reason stays short.

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


def _signature(opts: _Options, nrefs: str) -> str:
    settings: dict[str, object] = {
        "nrefs": nrefs,
        "case": "lc" if opts.lowercase else "mixed",
        "eff": "no" if opts.eps_smoothing else "yes",
        "nc": opts.char_order,
        "nw": opts.word_order,
        "space": "yes" if opts.whitespace else "no",
        "beta": format_number(opts.beta),
    }
    if opts.reference_ties != "first":
        settings["ties"] = opts.reference_ties
    return make_signature("chrf", settings)


def _finish(stats: ChrfStats, opts: _Options, *, nrefs: str, notes: Sequence[str] = (),
            **segment: Any) -> ChrfResult:
    """Statistics to score, through the formula steps."""
    orders = _orders(stats, opts)
    p, r, f = _exact_score(orders, opts)
    score = float(f)
    return ChrfResult(
        score=score, orders=orders, precision=float(p), recall=float(r), f_beta=score,
        effective_order=sum(o.used for o in orders), beta=opts.beta, char_order=opts.char_order,
        word_order=opts.word_order, lowercase=opts.lowercase, whitespace=opts.whitespace,
        eps_smoothing=opts.eps_smoothing, reference_ties=opts.reference_ties,
        best_reference=segment.get("best_reference"), reference_choice=segment.get("reference_choice"),
        reference_scores=segment.get("reference_scores", ()), candidate=segment.get("candidate"),
        references=segment.get("references", ()), stats=stats, signature=_signature(opts, nrefs),
        reason=_reason(orders, opts, notes, score), segments=segment.get("segments", ()),
    )


def chrf_from_stats(
    stats: ChrfStats,
    *,
    beta: float = 2.0,
    eps_smoothing: bool = False,
    lowercase: bool = False,
    whitespace: bool = False,
    nrefs: Union[int, str] = "?",
) -> ChrfResult:
    """THE function turning (summed) sufficient statistics into chrF.

    Cheap (no text is read), so a bootstrap can call it on resampled sums::

        stats = corpus_chrf(hyps, refs).segments.stats()
        chrf_from_stats(sum_stats(stats[i] for i in sample)).score

    ``lowercase``, ``whitespace`` and ``nrefs`` only go into the signature.

    >>> r = chrf_from_stats(ChrfStats((4, 3), (3, 2), (2, 1), 2, 0))
    >>> r.score, str(r.precision_fraction)
    (0.5401234567901234, '5/12')
    """
    if not isinstance(stats, ChrfStats):
        raise TypeError(f"stats: expected ChrfStats, got {type(stats).__name__}")
    opts = _check_options(stats.char_order, stats.word_order, beta, lowercase, whitespace, eps_smoothing, "first")
    return _finish(stats, opts, nrefs=str(nrefs))


def _is_empty(text: str, whitespace: bool) -> bool:
    """No characters to cut n-grams from (white space does not count unless it is kept)."""
    return not (text if whitespace else strip_whitespace(text))


def _segment_notes(candidate: str, references: Sequence[str], opts: _Options) -> list[str]:
    def empty(text: str) -> bool:
        return _is_empty(text, opts.whitespace)

    notes = []
    if empty(candidate):
        notes.append("the candidate is empty (no characters): it has no n-grams, so chrF = 0")
    blank = [str(i) for i, ref in enumerate(references) if empty(ref)]
    if blank:
        notes.append(f"reference {', '.join(blank)} is empty (no characters): it has no n-grams and scores 0")
    return notes


def _segment_result(candidate: str, references: list[str], opts: _Options) -> ChrfResult:
    rows = _plain_rows(candidate, references, opts)
    best, scores = _choose(rows, opts)
    stats = ChrfStats.from_row(rows[best], opts.char_order, opts.word_order)
    return _finish(
        stats, opts, nrefs=str(len(references)), notes=_segment_notes(candidate, references, opts),
        best_reference=best, reference_choice=_choice_text(best, scores, opts.reference_ties),
        reference_scores=tuple(s / 100 for s in scores), candidate=candidate, references=tuple(references),
    )


# --------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------


def chrf(
    candidate: str,
    references: Sequence[str],
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2.0,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    reference_ties: str = "first",
) -> ChrfResult:
    """chrF of one candidate against its references, with every step kept.

    sacreBLEU's semantics and defaults: character 6-grams, white space removed,
    beta = 2, P and R averaged over the orders both sides have (``eps_smoothing=False``).
    ``word_order=2`` is chrF++ (words split off one punctuation mark, see
    :func:`~mtlearn.metrics.chrf.formulas.split_punctuation`). With several references
    the one with the highest chrF is kept (``best_reference``); on a tie the first
    (``reference_ties="first"``, sacreBLEU's rule) or the last (``"last"``; WMT22's
    official ``chrf-all`` numbers are what this rule gives with references in A, B order,
    see the card).

    >>> r = chrf("the cat sat", ["a cat sat", "the cat sat down"])
    >>> r.best_reference, round(r.score, 4)
    (0, 0.6723)
    >>> r.reference_choice
    'highest chrF of the 2 references: 0.6723, against 0.6602 (reference 1)'
    >>> round(chrf("the cat sat", ["the cat sat down"], word_order=2).score, 4)
    0.6836
    """
    opts = _check_options(char_order, word_order, beta, lowercase, whitespace, eps_smoothing, reference_ties)
    check_sentence_call(candidate, references, call="chrf")  # name the corpus function, not only the type
    cand = _check_text(candidate, "candidate")
    refs = _check_references(references, "references")
    return _segment_result(cand, refs, opts)


def corpus_chrf(
    candidates: Sequence[str],
    references: Sequence[Sequence[str]],
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2.0,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    reference_ties: str = "first",
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
    opts = _check_options(char_order, word_order, beta, lowercase, whitespace, eps_smoothing, reference_ties)
    warn_reference_layout(candidates, references, call="corpus_chrf")  # the layout hint, before the shape errors
    result = _corpus_chrf(candidates, references, opts)
    warn_ambiguous_layout(candidates, references, result.score, lambda refs: _corpus_chrf(candidates, refs, opts).score,
                          call="corpus_chrf")
    return result


def _corpus_chrf(candidates: Sequence[str], references: Sequence[Sequence[str]], opts: _Options) -> ChrfResult:
    """:func:`corpus_chrf` once the options are checked and the layout hints given."""
    check_corpus(candidates, references)
    candidates, references = list(candidates), list(references)
    rows = array("q")
    best_refs = array("i")
    nrefs_seen: set[int] = set()
    empty = [0, 0]
    for i, (cand, refs) in enumerate(zip(candidates, references)):
        if type(cand) is not str:
            _check_text(cand, f"candidates[{i}]")
        if type(refs) is not list or not refs or not all(type(x) is str for x in refs):
            refs = _check_references(refs, f"references[{i}]")
        if opts.lowercase:
            cand, refs = cand.lower(), [x.lower() for x in refs]
        profile = _profile(cand, opts)
        ref_rows = [_fast_row(profile, _profile(ref, opts)) for ref in refs]
        best = _choose(ref_rows, opts)[0] if len(ref_rows) > 1 else 0
        rows.extend(ref_rows[best])
        best_refs.append(best)
        nrefs_seen.add(len(refs))
        empty[0] += _is_empty(cand, opts.whitespace)
        empty[1] += any(_is_empty(x, opts.whitespace) for x in refs)
    k = 3 * opts.n_orders
    stats = ChrfStats(
        tuple(sum(rows[j::k]) for j in range(0, k, 3)),
        tuple(sum(rows[j::k]) for j in range(1, k, 3)),
        tuple(sum(rows[j::k]) for j in range(2, k, 3)),
        opts.char_order, opts.word_order,
    )
    nrefs = str(next(iter(nrefs_seen))) if len(nrefs_seen) == 1 else "var"
    notes = []
    if empty[0]:
        notes.append(f"{part_of(empty[0], len(candidates), 'candidate')} empty")
    if empty[1]:
        notes.append(f"{part_of(empty[1], len(candidates), 'segment', ('has', 'have'))} an empty reference")
    segments = ChrfSegments(candidates, references, rows, best_refs, opts)
    return _finish(stats, opts, nrefs=nrefs, notes=notes, segments=segments)

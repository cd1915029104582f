"""BLEU's results, data only: :class:`NgramRow`, :class:`BleuResult`.

A result's ``explain()`` and ``_repr_html_`` render the derivation that
:mod:`mtlearn.metrics.bleu.explain` registers for it (:func:`mtlearn.core.derivation.derive`),
so this module never imports its renderer.

>>> from mtlearn import bleu
>>> r = bleu("A B B C D", ["A B C D E F"])
>>> [str(p) for p in r.precision_fractions], r.to_dict()["matches"]
(['4/5', '3/4', '1/3', '0'], [4, 3, 1, 0])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional

from mtlearn.core.derivation import derive, derive_html, to_text
from mtlearn.core.ngrams import count_ngrams
from mtlearn.metrics.bleu.stats import BleuStats

__all__ = ["NgramRow", "BleuResult"]


def _finite(x: float) -> Optional[float]:
    """A float for JSON: infinities (log 0) as ``None``."""
    return float(x) if math.isfinite(x) else None


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

    >>> from mtlearn import bleu
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
        return tuple(Fraction(m, t) if t else Fraction(0) for m, t in zip(self.matches, self.totals))

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

        >>> from mtlearn import bleu
        >>> r = bleu("the the the the the the the", ["The cat is on the mat", "There is a cat on the mat"],
        ...          lowercase=True)
        >>> r.ngram_table(1)  # doctest: +NORMALIZE_WHITESPACE
        [NgramRow(ngram=('the',), candidate_count=7, reference_counts=(2, 1), max_reference_count=2,
                  clipped_count=2)]
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

        >>> from mtlearn import bleu
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
        return to_text(derive(self, tables=tables))

    def _repr_html_(self) -> str:
        return derive_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict (Fractions as "m/t" strings, infinities as ``None``).

        >>> import json
        >>> from mtlearn import bleu
        >>> d = bleu("A B B C D", ["A B C D E F"]).to_dict()
        >>> d["precision_fractions"], json.loads(json.dumps(d))["score"]
        (['4/5', '3/4', '1/3', '0'], 0.0)
        """
        out: dict[str, Any] = {
            "score": self.score,
            "precisions": list(map(float, self.precisions)),
            "precision_fractions": list(map(str, self.precision_fractions)),
            "matches": list(map(int, self.matches)),
            "totals": list(map(int, self.totals)),
            "weights": list(map(float, self.weights)),
            "effective_weights": list(map(float, self.effective_weights)),
            "log_precisions": list(map(_finite, self.log_precisions)),
            "weighted_log_precisions": list(map(_finite, self.weighted_log_precisions)),
            "log_mean": _finite(self.log_mean),
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

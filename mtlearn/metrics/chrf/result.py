"""chrF's results, data only: :class:`ChrfOrder`, :class:`ChrfNgramRow`, :class:`ChrfResult`.

A result's ``explain()`` and ``_repr_html_`` render the derivation that
:mod:`mtlearn.metrics.chrf.explain` registers for it (:func:`mtlearn.core.derivation.derive`),
so this module never imports its renderer.

>>> from mtlearn import chrf
>>> r = chrf("ab ab", ["abc"], char_order=2)
>>> [o.label for o in r.orders], str(r.precision_fraction), r.to_dict()["orders"][0]["precision"]
(['c1', 'c2'], '5/12', '1/2')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional, Union

from mtlearn.core.checks import check_choice
from mtlearn.core.derivation import derive, derive_html, to_text
from mtlearn.metrics.chrf.formulas import averaged_f, char_ngrams, split_punctuation, word_ngrams
from mtlearn.metrics.chrf.stats import ChrfStats

__all__ = ["ChrfOrder", "ChrfNgramRow", "ChrfResult"]


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

    >>> from mtlearn import chrf
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
        """The averaged precision, exact (:func:`~mtlearn.metrics.chrf.formulas.averaged_f`'s P)."""
        return averaged_f(self.stats.triples, self.beta)[0]

    @property
    def recall_fraction(self) -> Fraction:
        """The averaged recall, exact (:func:`~mtlearn.metrics.chrf.formulas.averaged_f`'s R)."""
        return averaged_f(self.stats.triples, self.beta)[1]

    def ngram_table(self, kind: str, n: int) -> list[ChrfNgramRow]:
        """The n-grams of the candidate and of the kept reference, with their counts (one segment).

        Candidate n-grams come first, in order of appearance, then those only the reference has.

        >>> from mtlearn import chrf
        >>> for row in chrf("aab", ["ab"], char_order=1).ngram_table("char", 1):
        ...     print(row)
        ChrfNgramRow(ngram='a', candidate_count=2, reference_count=1, matched=1)
        ChrfNgramRow(ngram='b', candidate_count=1, reference_count=1, matched=1)
        """
        if self.candidate is None or self.best_reference is None:
            if self.is_corpus:
                raise ValueError("ngram_table: this is a corpus result; "
                                 "use result.segments[i].ngram_table(kind, n)")
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

        ``tables`` (default: on for one segment) adds every order's n-gram table.

        >>> from mtlearn import chrf
        >>> print(chrf("ab ab", ["abc"], char_order=2).explain(tables=False))  # doctest: +ELLIPSIS
        chrF (beta=2, char_order=2, word_order=0) of one segment ...
        ...
        F_2 = (1 + 2^2) * P * R / (2^2 * P + R) = 5 * 0.4167 * 0.5833 / (4 * 0.4167 + 0.5833) = 0.5401
        """
        return to_text(derive(self, tables=tables))

    def _repr_html_(self) -> str:
        return derive_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict (Fractions as "m/t" strings).

        >>> import json
        >>> from mtlearn import chrf
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

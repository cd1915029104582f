"""What TER, WER and CER computed: the edit script's :class:`Edit` and :class:`TerResult`. Data only.

A result's ``explain()`` and ``_repr_html_`` reach :mod:`mtlearn.metrics.ter.explain` through
:func:`mtlearn.core.derivation.derive` (registered there), so this module never imports the
rendering.

>>> from mtlearn import ter
>>> r = ter("a b c d", ["b c x"])
>>> r.counts(), r.score_fraction
({'shift': 0, 'insert': 0, 'delete': 1, 'substitute': 1, 'match': 2}, Fraction(2, 3))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional

from mtlearn.core.derivation import derive, derive_html, to_text
from mtlearn.metrics.ter.formulas import ter_fraction
from mtlearn.metrics.ter.shifts import Shift
from mtlearn.metrics.ter.stats import TerStats

__all__ = ["Edit", "TerResult"]


@dataclass(frozen=True)
class Edit:
    """One operation of the edit script, read on the *shifted* candidate.

    Convention (candidate -> reference): ``insert`` = a reference word missing from the
    candidate (``candidate_index`` is ``None``), ``delete`` = a candidate word the reference
    does not have (``reference_index`` is ``None``); ``substitute`` and ``match`` pair one
    word of each. Indexes point into ``shifted_tokens`` and ``reference_tokens``.

    >>> from mtlearn import ter
    >>> ter("the cat sat", ["the cat sat down"]).edits[-1]
    Edit(op='insert', candidate_index=None, reference_index=3, candidate_word=None, reference_word='down')
    """

    op: str
    candidate_index: Optional[int]
    reference_index: Optional[int]
    candidate_word: Optional[str]
    reference_word: Optional[str]


@dataclass(frozen=True, kw_only=True)
class TerResult:
    """Everything TER (or WER/CER) computed, for one segment or a corpus. Only data; see ``explain()``.

    - ``score`` = ``num_edits / reference_length`` (sacreBLEU's number / 100; can exceed 1);
      ``metric`` is ``"ter"``, ``"wer"`` or ``"cer"``;
    - ``num_edits``: shifts + insertions + deletions + substitutions against the best reference;
      ``reference_length``: the average length of the references (summed over a corpus);
    - ``best_reference`` (index, fewest edits, first on a tie), ``reference_edits`` (edits per
      reference), ``reference_choice`` (why it was kept);
    - ``shifts`` (:class:`~mtlearn.metrics.ter.shifts.Shift`, round by round; empty for WER/CER), then
      ``edits`` (:class:`Edit`, the alignment of ``shifted_tokens`` with ``reference_tokens``);
    - ``candidate_tokens``, ``shifted_tokens`` (after the shifts), ``reference_tokens`` (best reference);
    - the options, ``signature``, ``reason`` (a rule that decided the score), ``stats``,
      ``segments`` (a corpus's per-segment results, computed on access).

    Built with keyword arguments only.

    >>> from mtlearn import ter
    >>> r = ter("a b c d", ["b c d a"])
    >>> r.num_edits, [e.op for e in r.edits], r.shifted_tokens
    (1, ['match', 'match', 'match', 'match'], ('b', 'c', 'd', 'a'))
    """

    score: float
    num_edits: int
    reference_length: float
    metric: str
    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool
    signature: str
    reason: Optional[str]
    stats: TerStats
    best_reference: Optional[int] = None
    reference_choice: Optional[str] = None
    reference_edits: tuple[int, ...] = ()
    shifts: tuple[Shift, ...] = ()
    edits: tuple[Edit, ...] = ()
    candidate_tokens: Optional[tuple[str, ...]] = None
    shifted_tokens: Optional[tuple[str, ...]] = None
    reference_tokens: Optional[tuple[str, ...]] = None
    all_reference_tokens: tuple[tuple[str, ...], ...] = ()
    stopped: Optional[str] = None
    segments: Sequence["TerResult"] = ()

    @property
    def is_corpus(self) -> bool:
        """``True`` for a corpus result (it has ``segments``)."""
        return len(self.segments) > 0

    @property
    def score_fraction(self) -> Fraction:
        """The score as an exact fraction (edits / average reference length; the edge rules as ``score``).

        >>> from mtlearn import ter
        >>> ter("a b", ["a b c"]).score_fraction
        Fraction(1, 3)
        """
        return ter_fraction(self.stats.edits, self.stats.ref_length)

    def counts(self) -> dict[str, int]:
        """How many edits of each kind: shifts, insertions, deletions, substitutions (and matches).

        >>> from mtlearn import ter
        >>> ter("a b c d", ["b c x"]).counts()
        {'shift': 0, 'insert': 0, 'delete': 1, 'substitute': 1, 'match': 2}
        """
        out = {"shift": len(self.shifts), "insert": 0, "delete": 0, "substitute": 0, "match": 0}
        for e in self.edits:
            out[e.op] += 1
        return out

    def explain(self) -> str:
        """The derivation as text: shifts round by round, the alignment, edits / length.

        >>> from mtlearn import ter
        >>> print(ter("a b c d", ["b c d a"]).explain())  # doctest: +ELLIPSIS
        TER of one segment ...
        """
        return to_text(derive(self))

    def _repr_html_(self) -> str:
        return derive_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict.

        >>> from mtlearn import ter
        >>> d = ter("a b c d", ["b c d a"]).to_dict()
        >>> d["num_edits"], d["shifts"][0]["words"], d["edits"][0]  # doctest: +NORMALIZE_WHITESPACE
        (1, ['a'], {'op': 'match', 'candidate_index': 0, 'reference_index': 0, 'candidate_word': 'b',
                    'reference_word': 'b'})
        """
        out: dict[str, Any] = {
            "metric": self.metric,
            "score": self.score,
            "num_edits": self.num_edits,
            "reference_length": self.reference_length,
            "normalized": self.normalized,
            "no_punct": self.no_punct,
            "asian_support": self.asian_support,
            "case_sensitive": self.case_sensitive,
            "signature": self.signature,
            "reason": self.reason,
            "n_segments": len(self.segments) if self.is_corpus else 1,
        }
        if self.candidate_tokens is not None:
            out.update(self._trace_dict())
        elif segments:
            out["segments"] = [s.to_dict() for s in self.segments]
        return out

    def _trace_dict(self) -> dict[str, Any]:
        """One segment's trace: the kept reference, the shifts, the edit script, the tokens."""
        return {
            "best_reference": self.best_reference,
            "reference_choice": self.reference_choice,
            "reference_edits": list(self.reference_edits),
            "shifts": [
                {"words": list(s.words), "start": s.start, "length": s.length, "destination": s.destination,
                 "landing": s.landing, "round": s.round, "gain": s.gain, "reason": s.reason}
                for s in self.shifts
            ],
            "edits": [e.__dict__.copy() for e in self.edits],
            "candidate_tokens": list(self.candidate_tokens or ()),
            "shifted_tokens": list(self.shifted_tokens or ()),
            "reference_tokens": list(self.reference_tokens or ()),
            "stopped": self.stopped,
        }

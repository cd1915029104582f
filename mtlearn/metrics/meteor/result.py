"""METEOR's result, data only: :class:`MeteorResult`, for one segment or a corpus.

A result's ``explain()`` and ``_repr_html_`` render the derivation that
:mod:`mtlearn.metrics.meteor.explain` registers for it (:func:`mtlearn.core.derivation.derive`),
so this module never imports its renderer.

>>> from mtlearn import meteor
>>> r = meteor("the cat was sat on the mat", ["the cat sat on the mat"], stages=["exact"])
>>> r.stats, r.pairs[:2], r.to_dict()["f_mean"]
(MeteorStats(matches=6, candidate_length=7, reference_length=6, chunks=2), ((0, 0), (1, 1)), '60/61')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional, Union

from mtlearn.core.derivation import derive, derive_html, to_text
from mtlearn.metrics.meteor._search import SearchStop
from mtlearn.metrics.meteor.alignment import UnigramMapping
from mtlearn.metrics.meteor.formulas import ChunkSpan
from mtlearn.metrics.meteor.stats import MeteorStats

__all__ = ["MeteorResult"]

Number = Union[Fraction, float]


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
      number) or ``"float"``, and ``penalty_note`` saying why when it is a float;
    - ``optimal``: the alignment search proved its choice; ``search_stops``: else, the
      limits that stopped it (:class:`~mtlearn.metrics.meteor._search.SearchStop`: the
      node budget, a large group's share of it, a group too large to search; for a corpus
      the first stop of each limit over its segments); ``reason``: why the score is
      a defined 0 (empty candidate, ...), else ``None``;
    - ``per_reference``: the result against every reference, ``best_reference``: the
      index of the one kept; ``segments``: per-segment results of a corpus;
    - ``alpha``, ``beta``, ``gamma``, ``tie_break``, ``stages`` (those that ran), ``signature``;
    - ``language`` of the texts (``"en"`` or ``"es"``), and ``notes``: what the options changed
      for it (``"synonym stage skipped: no Spanish WordNet offline"``), else ``()``.

    >>> from mtlearn import meteor
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
    language: str = "en"
    notes: tuple[str, ...] = ()

    @property
    def stats(self) -> MeteorStats:
        """The four counts behind the score (summed over segments for a corpus)."""
        return MeteorStats(self.matches, self.candidate_length, self.reference_length, self.chunks)

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The alignment as ``(candidate index, reference index)`` pairs."""
        return tuple(m.pair for m in self.alignment)

    def explain(self) -> str:
        """The derivation as text, every number substituted: the rows of
        :func:`mtlearn.metrics.meteor.explain.derivation`, registered with
        :func:`~mtlearn.core.derivation.derive`.

        >>> from mtlearn import meteor
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
        return to_text(derive(self))

    def _repr_html_(self) -> str:
        return derive_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict: Fractions as "p/q" strings beside their float values.

        >>> import json
        >>> from mtlearn import meteor
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
        if self.language != "en":  # English results keep the keys they always had
            out.update(language=self.language, notes=list(self.notes))
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

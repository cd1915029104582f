"""BERTScore's results, data only: :class:`BertScoreComparison` (one reference) and :class:`BertScoreResult`.

A result's ``explain()`` and ``_repr_html_`` render the derivation that
:mod:`mtlearn.metrics.bertscore.explain` registers for it, so this module never imports its renderer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:  # the arrays come from score.py; the CLI imports this module without numpy
    import numpy as np

from mtlearn.core.derivation import derive, derive_html, to_text

__all__ = ["BertScoreComparison", "BertScoreResult"]


@dataclass(frozen=True)
class BertScoreComparison:
    """The candidate against one reference: the similarity matrix, both sides' greedy matches and weights.

    Rows of ``similarity`` are the candidate's tokens, columns the reference's, ``[CLS]`` and ``[SEP]``
    included (they can be matched, but weigh 0). ``precision_matches[i]`` is the column candidate token i
    matched, ``recall_matches[j]`` the row reference token j matched.
    """

    reference: str
    reference_tokens: tuple[str, ...]
    similarity: np.ndarray
    candidate_weights: np.ndarray
    reference_weights: np.ndarray
    precision_matches: np.ndarray
    recall_matches: np.ndarray
    precision: float
    recall: float
    f1: float
    truncated: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (the matrix as nested lists, rounded to 6 decimals)."""
        import numpy as np

        return {"reference": self.reference, "reference_tokens": list(self.reference_tokens),
                "similarity": np.round(self.similarity, 6).tolist(),
                "candidate_weights": np.round(self.candidate_weights, 6).tolist(),
                "reference_weights": np.round(self.reference_weights, 6).tolist(),
                "precision_matches": self.precision_matches.tolist(),
                "recall_matches": self.recall_matches.tolist(),
                "precision": self.precision, "recall": self.recall, "f1": self.f1,
                "truncated": self.truncated}


@dataclass(frozen=True)
class BertScoreResult:
    """BERTScore of one candidate (``comparisons``: one per reference) or of a corpus (``segments``).

    ``precision``, ``recall``, ``f1`` (= ``score``) are rescaled when ``rescale`` is on, else equal to the
    ``raw_*`` values. With several references each of P, R and F1 is its best over the references, as the
    ``bert-score`` package takes them (so P and R may come from different references); ``best_reference`` is
    the reference with the best F1 (the first on a tie).
    """

    score: float
    precision: float
    recall: float
    f1: float
    raw_precision: float
    raw_recall: float
    raw_f1: float
    layer: int
    idf: bool
    rescale: bool
    baseline: Optional[tuple[float, float, float]]
    signature: str
    candidate: Optional[str] = None
    candidate_tokens: tuple[str, ...] = ()
    comparisons: tuple[BertScoreComparison, ...] = ()
    best_reference: Optional[int] = None
    truncated: int = 0
    reason: Optional[str] = None
    segments: tuple["BertScoreResult", ...] = ()

    @property
    def is_corpus(self) -> bool:
        """A corpus result (its segments' mean), not one segment."""
        return bool(self.segments)

    @property
    def best(self) -> Optional[BertScoreComparison]:
        """The comparison with the best reference (None for a corpus)."""
        return None if self.best_reference is None else self.comparisons[self.best_reference]

    def explain(self) -> str:
        """The derivation as text with every number substituted (see
        :mod:`mtlearn.metrics.bertscore.explain`)."""
        return to_text(derive(self))

    def _repr_html_(self) -> str:
        return derive_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict; ``segments=True`` adds every segment's (without their matrices)."""
        out: dict[str, Any] = {
            "score": self.score, "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "raw_precision": self.raw_precision, "raw_recall": self.raw_recall, "raw_f1": self.raw_f1,
            "layer": self.layer, "idf": self.idf, "rescale": self.rescale,
            "baseline": list(self.baseline) if self.baseline else None, "signature": self.signature,
            "reason": self.reason, "truncated": self.truncated}
        if not self.is_corpus:
            out.update(candidate=self.candidate, candidate_tokens=list(self.candidate_tokens),
                       best_reference=self.best_reference,
                       comparisons=[c.to_dict() for c in self.comparisons])
        elif segments:
            out["segments"] = [{k: v for k, v in s.to_dict().items() if k != "comparisons"}
                               for s in self.segments]
        return out

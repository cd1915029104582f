"""COMET-mini's result, data only: :class:`CometMiniResult` (one segment, or a corpus and its segments).

A result's ``explain()`` and ``_repr_html_`` render the derivation that
:mod:`mtlearn.metrics.comet_mini.explain` registers for it, so this module never imports its renderer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from mtlearn.core.derivation import derive, derive_html, to_text

__all__ = ["CometMiniResult"]


@dataclass(frozen=True)
class CometMiniResult:
    """COMET-mini of one translation against its reference, or the mean of a corpus's (``segments``).

    ``score`` = ``bias`` + the sum of ``contributions`` (each block's ``w_block · x_block``: which part of
    ``[h; r; h*r; |h-r|]`` moved the score). ``candidate_norm`` and ``reference_norm`` are the lengths of the
    mean-pooled vectors before they are scaled to 1, ``cosine`` the cosine of the two sentence vectors. The
    score is on the scale of the MQM scores it was trained on: 0 is a translation without errors, -5 one
    major error's worth.
    """

    score: float
    signature: str
    candidate: Optional[str] = None
    reference: Optional[str] = None
    candidate_tokens: tuple[str, ...] = ()
    reference_tokens: tuple[str, ...] = ()
    candidate_norm: float = float("nan")
    reference_norm: float = float("nan")
    cosine: float = float("nan")
    contributions: tuple[tuple[str, float], ...] = ()
    bias: float = float("nan")
    unknown: int = 0
    truncated: int = 0
    reason: Optional[str] = None
    segments: tuple["CometMiniResult", ...] = ()

    @property
    def is_corpus(self) -> bool:
        """A corpus result (its segments' mean), not one segment."""
        return bool(self.segments)

    def contribution(self, block: str) -> float:
        """The share of one block (``h``, ``r``, ``h*r`` or ``|h-r|``) in the score."""
        found = dict(self.contributions)
        if block not in found:
            raise KeyError(f"block: no block {block!r}; the blocks are "
                           f"{', '.join(found) or '(none: a corpus)'}")
        return found[block]

    def explain(self) -> str:
        """The derivation as text with every number substituted (see
        :mod:`mtlearn.metrics.comet_mini.explain`)."""
        return to_text(derive(self))

    def _repr_html_(self) -> str:
        return derive_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict; ``segments=True`` adds every segment's."""
        out: dict[str, Any] = {"score": self.score, "signature": self.signature, "reason": self.reason,
                               "truncated": self.truncated}
        if not self.is_corpus:
            out.update(candidate=self.candidate, reference=self.reference,
                       candidate_tokens=list(self.candidate_tokens),
                       reference_tokens=list(self.reference_tokens), candidate_norm=self.candidate_norm,
                       reference_norm=self.reference_norm, cosine=self.cosine,
                       contributions=dict(self.contributions), bias=self.bias, unknown=self.unknown)
        elif segments:
            out["segments"] = [s.to_dict() for s in self.segments]
        return out

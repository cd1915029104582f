"""The result of :func:`~mtlearn.why.compare.compare_implementations`: plain data.

:class:`ProfileResult` is one implementation's score; :class:`ImplementationComparison` all of
them and the walks between them. Their text and HTML are :mod:`mtlearn.why.explain`'s, reached
through :mod:`mtlearn.core.derivation`'s dispatch (this module never imports the renderer).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional, Union

from mtlearn.core.derivation import derive_html, derive_text
from mtlearn.why.divergence import Divergence, step_rows

__all__ = ["ProfileResult", "ImplementationComparison"]

Number = Union[float, Fraction]


@dataclass(frozen=True)
class ProfileResult:
    """One implementation's score on the inputs, with its settings and intermediate values.

    ``score`` on 0..1 (exact ``Fraction`` where the profile computes exactly), ``reported``
    as the library prints it (``scale`` x: sacreBLEU 100), ``settings`` every step setting,
    ``values`` the intermediate values (BLEU: tokens fingerprint, lengths, matches, totals,
    precisions, geometric mean, BP), ``notes`` where the library would differ (a division by zero ...).
    """

    name: str
    library: str
    call: str
    source: str
    score: Number
    reported: Number
    scale: int
    settings: dict[str, Any]
    values: dict[str, Any]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class ImplementationComparison:
    """Every profile's score and, for every pair (in table order), the step-by-step walk.

    Only data; :mod:`mtlearn.why.explain` registers the text of ``explain()`` and the HTML of
    ``_repr_html_()`` with :mod:`mtlearn.core.derivation`, so this module never imports it.
    """

    metric: str
    segments: int
    tokenize: Optional[str]
    steps: tuple[tuple[str, tuple[str, ...]], ...]
    profiles: tuple[ProfileResult, ...]
    divergences: tuple[Divergence, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The profiles' names, in table order."""
        return tuple(p.name for p in self.profiles)

    def profile(self, name: str) -> ProfileResult:
        """The result of profile ``name``."""
        for p in self.profiles:
            if p.name == name:
                return p
        raise ValueError(f"name: no profile {name!r} in this comparison; it has {', '.join(self.names)}")

    def divergence(self, a: str, b: str) -> Divergence:
        """The walk between profiles ``a`` and ``b`` (stored from the earlier in the table to the later).

        Ask in either order; ``d.profile_a`` says where the walk starts.
        """
        self.profile(a), self.profile(b)
        if a == b:
            raise ValueError(f"b: the same profile as a ({a!r}); pick two different profiles")
        for d in self.divergences:
            if {d.profile_a, d.profile_b} == {a, b}:
                return d
        raise ValueError(f"a, b: no walk between {a!r} and {b!r}")  # pragma: no cover - every pair is walked

    def explain(self, a: Optional[str] = None, b: Optional[str] = None) -> str:
        """The profile table, then where each profile parts from the first (or the full walk from ``a``
        to ``b``): :func:`mtlearn.why.explain.explain_text`, reached through ``derive_text``."""
        return derive_text(self, a=a, b=b)

    def _repr_html_(self) -> str:
        return derive_html(self)

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain JSON types (floats, with exact contributions as strings too)."""
        return {
            "metric": self.metric, "segments": self.segments, "tokenize": self.tokenize,
            "steps": [{"name": name, "fields": list(fields)} for name, fields in self.steps],
            "profiles": [
                {"name": p.name, "library": p.library, "call": p.call, "source": p.source,
                 "score": _plain(p.score), "reported": _plain(p.reported), "scale": p.scale,
                 "settings": _plain(p.settings), "values": _plain(p.values), "notes": list(p.notes)}
                for p in self.profiles
            ],
            "divergences": [_divergence_dict(d) for d in self.divergences],
        }


def _plain(value: Any) -> Any:
    """A value as JSON types (tuples as lists, Fractions as floats, non-finite floats as strings)."""
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _divergence_dict(d: Divergence) -> dict[str, Any]:
    """One walk as JSON types; each contribution also exact, as a string fraction."""
    return {"a": d.profile_a, "b": d.profile_b, "score_a": _plain(d.score_a), "score_b": _plain(d.score_b),
            "difference": float(d.difference), "first_divergence": d.first_divergence,
            "first_settings_difference": d.first_settings_difference,
            "steps": [{**_plain({k: v for k, v in r.items() if k != "contribution"}),
                       "contribution": float(r["contribution"]), "contribution_exact": str(r["contribution"])}
                      for r in step_rows(d)]}

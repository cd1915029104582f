"""Where two implementations part: walk from one profile to another, one pipeline step at a time.

A *profile* is a frozen dataclass whose fields are the settings of a metric's pipeline,
grouped into ordered *steps* (for BLEU: tokenisation, n-gram counting, reference length,
precisions/smoothing, brevity penalty, aggregation, score). :func:`walk` starts from
profile A and, step by step, replaces A's settings of that step by B's, scoring after
each step. A step's *contribution* is the score after it minus the score before it; the
contributions telescope, so they add up to score_B - score_A. They are exact
``Fraction``\\ s (a float converts to a ``Fraction`` without rounding), so the sum is
exactly the difference, not merely close to it.

The walker knows nothing of BLEU or METEOR: it needs the profiles, the steps as
``(name, fields)`` pairs and a *scorer*, a function from a profile to an :class:`Outcome`
(the score, the score on the library's own scale, and the intermediate values).

A toy metric whose profile has two steps:

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Toy:
...     name: str
...     add: int
...     times: int
>>> def score(p):
...     return Outcome(score=Fraction(p.add * p.times, 10), reported=p.add * p.times,
...                    values={"sum": p.add})
>>> d = walk(Toy("a", 1, 2), Toy("b", 3, 2), [("add", ("add",)), ("times", ("times",))], score)
>>> [(s.step, s.settings_differ, s.score_moves, str(s.contribution)) for s in d.steps]
[('add', True, True, '2/5'), ('times', False, False, '0')]
>>> d.first_divergence, sum(s.contribution for s in d.steps) == d.difference
('add', True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional, Union

__all__ = ["Outcome", "StepChange", "Divergence", "walk", "as_fraction", "check_steps", "step_rows"]

Number = Union[float, Fraction]


@dataclass(frozen=True)
class Outcome:
    """What a scorer returns for one profile.

    ``score`` -- on 0..1 (a ``Fraction`` where the profile computes exactly);
    ``reported`` -- the number the library prints (sacreBLEU: 100 x);
    ``values`` -- the intermediate values, by name (compared to see whether a step moves
    anything; ``None`` where a value does not exist for this profile);
    ``notes`` -- what the library would do differently here (e.g. divide by zero).
    """

    score: Number
    reported: Number
    values: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class StepChange:
    """One step of a walk: the settings before and after, and what moved.

    ``settings_before``/``settings_after`` are ``(field, value)`` pairs of this step;
    ``moved`` names the intermediate values that changed (``score`` among them when it
    did); ``contribution`` = ``score_after - score_before``, exact.
    """

    step: str
    settings_before: tuple[tuple[str, Any], ...]
    settings_after: tuple[tuple[str, Any], ...]
    settings_differ: bool
    moved: tuple[str, ...]
    score_before: Number
    score_after: Number
    contribution: Fraction

    @property
    def score_moves(self) -> bool:
        """Whether this step changed the score."""
        return self.contribution != 0

    @property
    def values_move(self) -> bool:
        """Whether this step changed any intermediate value (or the score)."""
        return bool(self.moved)


@dataclass(frozen=True)
class Divergence:
    """The walk from profile A to profile B (names ``profile_a``, ``profile_b``).

    ``steps`` in pipeline order; ``difference`` = score_b - score_a, exact, and equal to
    the sum of the contributions; ``first_settings_difference`` -- the first step whose
    settings differ; ``first_divergence`` -- the first step whose settings differ *and*
    whose change moves something (an intermediate value or the score); ``None`` when no
    step does (the two profiles agree on these inputs).
    """

    profile_a: str
    profile_b: str
    score_a: Number
    score_b: Number
    steps: tuple[StepChange, ...]
    difference: Fraction
    first_settings_difference: Optional[str]
    first_divergence: Optional[str]

    @property
    def total(self) -> Fraction:
        """The sum of the steps' contributions (equals ``difference``)."""
        return sum((s.contribution for s in self.steps), Fraction(0))

    def step(self, name: str) -> StepChange:
        """The step called ``name``."""
        for s in self.steps:
            if s.step == name:
                return s
        raise ValueError(f"step: no step {name!r}; the steps are {', '.join(s.step for s in self.steps)}")


def as_fraction(value: Number) -> Fraction:
    """A score as an exact ``Fraction`` (a float converts without rounding).

    >>> as_fraction(0.5), as_fraction(Fraction(1, 3))
    (Fraction(1, 2), Fraction(1, 3))
    """
    return value if isinstance(value, Fraction) else Fraction(value)


def check_steps(profile_type: type, steps: Iterable[tuple[str, Sequence[str]]],
                descriptive: Iterable[str]) -> None:
    """Every field of ``profile_type`` is in exactly one step, or descriptive (name, source ...).

    A field in no step would never move from A to B, and the walk would not end at B.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class P:
    ...     name: str
    ...     x: int
    >>> check_steps(P, [("x", ("x",))], ["name"])
    >>> check_steps(P, [], ["name"])
    Traceback (most recent call last):
    ...
    ValueError: steps: field(s) x of P are in no step
    """
    names = [f.name for f in dataclasses.fields(profile_type)]
    seen: list[str] = list(descriptive)
    for _, fields in steps:
        seen.extend(fields)
    missing = [n for n in names if n not in seen]
    if missing:
        raise ValueError(f"steps: field(s) {', '.join(missing)} of {profile_type.__name__} are in no step")
    doubled = sorted({n for n in seen if seen.count(n) > 1})
    if doubled:
        raise ValueError(f"steps: field(s) {', '.join(doubled)} are in more than one step")


def _moved(before: Outcome, after: Outcome) -> tuple[str, ...]:
    keys = list(before.values) + [k for k in after.values if k not in before.values]
    moved = [k for k in keys if before.values.get(k) != after.values.get(k)]
    if as_fraction(before.score) != as_fraction(after.score):
        moved.append("score")
    if before.reported != after.reported:
        moved.append("reported")
    return tuple(moved)


def walk(
    profile_a: Any,
    profile_b: Any,
    steps: Sequence[tuple[str, Sequence[str]]],
    scorer: Callable[[Any], Outcome],
    *,
    name: Callable[[Any], str] = lambda p: p.name,
) -> Divergence:
    """Move from ``profile_a`` to ``profile_b`` one step at a time, scoring after each step.

    ``steps`` are ``(step name, field names)`` in pipeline order; ``scorer`` maps a profile
    (also the hybrids met on the way) to an :class:`Outcome`. The last hybrid has every
    step's settings of B; its score must be B's (else a setting is in no step: an error).
    See the module docstring for an example.
    """
    current = profile_a
    before = scorer(current)
    changes = []
    for step_name, fields in steps:
        old = tuple((f, getattr(current, f)) for f in fields)
        new = tuple((f, getattr(profile_b, f)) for f in fields)
        current = dataclasses.replace(current, **dict(new))
        after = scorer(current) if old != new else before
        changes.append(StepChange(
            step=step_name, settings_before=old, settings_after=new, settings_differ=old != new,
            moved=_moved(before, after), score_before=before.score, score_after=after.score,
            contribution=as_fraction(after.score) - as_fraction(before.score),
        ))
        before = after
    outcome_a, outcome_b = scorer(profile_a), scorer(profile_b)
    if as_fraction(before.score) != as_fraction(outcome_b.score):
        raise ValueError(
            f"steps: walking from {name(profile_a)!r} to {name(profile_b)!r} did not reach "
            f"{name(profile_b)!r}'s score; a setting the scorer reads is in no step"
        )
    differ = [c.step for c in changes if c.settings_differ]
    diverge = [c.step for c in changes if c.settings_differ and c.moved]
    return Divergence(
        profile_a=name(profile_a), profile_b=name(profile_b),
        score_a=outcome_a.score, score_b=outcome_b.score, steps=tuple(changes),
        difference=as_fraction(outcome_b.score) - as_fraction(outcome_a.score),
        first_settings_difference=differ[0] if differ else None,
        first_divergence=diverge[0] if diverge else None,
    )


def _settings(change: StepChange) -> str:
    moved = [f"{f}: {a!r} -> {b!r}".replace("'", "")
             for (f, a), (_, b) in zip(change.settings_before, change.settings_after) if a != b]
    return "; ".join(moved) if moved else "same"


def step_rows(divergence: Divergence) -> list[dict[str, Any]]:
    """One row per step: name, the settings that change, score after, contribution, what moved."""
    return [
        {"step": s.step, "settings": _settings(s), "settings_differ": s.settings_differ,
         "score_after": s.score_after, "contribution": s.contribution, "moved": s.moved}
        for s in divergence.steps
    ]

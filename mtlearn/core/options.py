"""A metric's options, declared once: default, check, help, command-line spellings and explorer control.

Each metric folder has an ``options.py`` with one frozen dataclass whose fields are declared
with :func:`option`. Creating it checks every value (the same message wherever the value
came from: a keyword argument, a command-line flag, an explorer's control); the metric's
functions take their defaults from it, the command line builds its flags from it and the
explorers their controls.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class ToyOptions(Options):
...     order: int = option(4, "longest n-gram order", check_int(1, 10), flags=("--order",))
...     lowercase: bool = option(False, "lowercase both sides first", check_flag)
>>> ToyOptions(order=2)
ToyOptions(order=2, lowercase=False)
>>> ToyOptions(order=11)
Traceback (most recent call last):
...
ValueError: order: at most 10, got 11
>>> [(spec.name, spec.default, spec.flags) for spec in ToyOptions.specs()]
[('order', 4, ('--order',)), ('lowercase', False, ('--lowercase',))]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from fractions import Fraction
from typing import Any, Optional, TypeVar

from mtlearn.core.checks import check_choice

Check = Callable[[Any, str], Any]
OptionsT = TypeVar("OptionsT", bound="Options")


@dataclass(frozen=True)
class OptionSpec:
    """What mtlearn knows about one option besides its value."""

    name: str
    default: Any
    help: str
    check: Check
    #: Command-line spellings, mtlearn's first, then sacreBLEU's aliases (default: ``--name``).
    flags: tuple[str, ...] = ()
    #: A closed set of values (command-line choices, an explorer's dropdown).
    choices: tuple[Any, ...] = ()
    #: An explorer slider's range (the check may allow more: the slider shows what teaches).
    control: Optional[tuple[float, float, float]] = None


def option(default: Any, help: str, check: Check, *, flags: Sequence[str] = (), choices: Sequence[Any] = (),
           control: Optional[tuple[float, float, float]] = None) -> Any:
    """A dataclass field that carries its :class:`OptionSpec` (name filled in by :meth:`Options.specs`)."""
    spec = dict(help=help, check=check, flags=tuple(flags), choices=tuple(choices), control=control)
    return field(default=default, metadata={"option": spec})


class Options:
    """Base of every ``<Metric>Options``: checks each field, then :meth:`check_together`."""

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            if "option" in f.metadata:
                object.__setattr__(self, f.name, f.metadata["option"]["check"](getattr(self, f.name), f.name))
        self.check_together()

    def check_together(self) -> None:
        """Rules that involve several options (none by default)."""

    @classmethod
    def specs(cls) -> list[OptionSpec]:
        """Every option's :class:`OptionSpec`, in declaration order."""
        out = []
        for f in fields(cls):  # type: ignore[arg-type]
            if "option" in f.metadata:
                meta = dict(f.metadata["option"])
                meta["flags"] = meta["flags"] or ("--" + f.name.replace("_", "-"),)
                out.append(OptionSpec(name=f.name, default=None if f.default is MISSING else f.default,
                                      **meta))
        return out

    @classmethod
    def spec(cls, name: str) -> OptionSpec:
        found = [s for s in cls.specs() if s.name == name]
        if not found:
            raise KeyError(f"{cls.__name__} has no option {name!r}")
        return found[0]

    def but(self: OptionsT, **changes: Any) -> OptionsT:
        """A copy with ``changes`` (checked again)."""
        return replace(self, **changes)  # type: ignore[type-var]

    def as_kwargs(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


# --------------------------------------------------------------------------- checks shared by the metrics


def check_flag(value: object, name: str) -> bool:
    """True or False, nothing else (``1`` is not a flag).

    >>> check_flag(1, "lowercase")
    Traceback (most recent call last):
    ...
    TypeError: lowercase: expected True or False, got int
    """
    if not isinstance(value, bool):
        raise TypeError(f"{name}: expected True or False, got {type(value).__name__}")
    return value


def check_int(low: int, high: int, why: str = "") -> Check:
    """A whole number from ``low`` to ``high``; ``why`` says why there is an upper bound.

    >>> check_int(0, 4096, "too many orders")(-1, "char_order")
    Traceback (most recent call last):
    ...
    ValueError: char_order: must be >= 0, got -1
    """

    def check(value: object, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name}: expected an int >= {low}, got {type(value).__name__}")
        if value < low:
            raise ValueError(f"{name}: must be >= {low}, got {value}")
        if value > high:
            shown = str(value) if value < 10**30 else f"a number of {len(str(value))} digits"
            raise ValueError(f"{name}: at most {high}, got {shown}" + (f" ({why})" if why else ""))
        return value

    return check


def check_positive(value: object, name: str) -> float:
    """A finite number above 0, as a float.

    >>> check_positive(Fraction(1, 2), "beta"), check_positive(float("inf"), "beta")
    Traceback (most recent call last):
    ...
    ValueError: beta: must be a finite number > 0, got inf
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise TypeError(f"{name}: expected a positive number, got {type(value).__name__}")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name}: must be a finite number > 0, got {value!r}")
    return float(value)


def check_one_of(choices: Sequence[str]) -> Check:
    """One of ``choices`` (a string), by :func:`mtlearn.core.checks.check_choice`.

    >>> check_one_of(("first", "last"))("best", "reference_ties")
    Traceback (most recent call last):
    ...
    ValueError: reference_ties: unknown value 'best'; choose one of first, last
    """
    return lambda value, name: check_choice(value, choices, name)

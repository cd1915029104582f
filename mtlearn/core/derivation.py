"""A derivation as rows: what ``explain()``, ``_repr_html_``, the command line and the explorers all read.

A metric's ``explain.py`` turns a result into a :class:`Derivation`: a title, then sections, each a
heading, free lines (tables, alignments) and :class:`Step` rows — one formula step with its
values substituted and its value. :func:`to_text` and :func:`steps_html` render it; the explorers
render the same steps with their ``data-name`` marks (``key``), the command line prints
:attr:`Derivation.summary`.

>>> bp = Step("bp", "BP", "exp(1 - r/c)", "exp(1 - 6/5)", "0.8187", note="(c = 5 < r = 6)")
>>> bp.text()
'BP = exp(1 - r/c) = exp(1 - 6/5) = 0.8187   (c = 5 < r = 6)'
>>> d = Derivation("BLEU-3 of one segment", (Section("Brevity penalty:", steps=(bp,), indent="  "),),
...                summary="BLEU = 0.4788")
>>> print(to_text(d))
BLEU-3 of one segment
<BLANKLINE>
Brevity penalty:
  BP = exp(1 - r/c) = exp(1 - 6/5) = 0.8187   (c = 5 < r = 6)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import singledispatch
from typing import Any, Optional


@dataclass(frozen=True)
class Step:
    """One step: ``name = formula = substituted = value   note`` (empty parts are left out).

    ``key`` names the step for the explorers (their ``data-name``) and the tests; ``exact`` is
    the step's exact value where a student compares it with a hand calculation.
    """

    key: str
    name: str
    formula: str = ""
    substituted: str = ""
    value: str = ""
    note: str = ""
    exact: Optional[Fraction] = None

    def text(self) -> str:
        parts = [part for part in (self.formula, self.substituted, self.value) if part]
        line = f"{self.name} = " + " = ".join(parts) if parts else self.name
        return line + (f"   {self.note}" if self.note else "")


@dataclass(frozen=True)
class Section:
    """A heading, then free lines (already laid out), then steps; every line after the heading indented."""

    heading: str = ""
    lines: tuple[str, ...] = ()
    steps: tuple[Step, ...] = ()
    indent: str = ""
    #: A blank line before the section (the text layout of the metric's derivation).
    blank_before: bool = True

    def text_lines(self) -> list[str]:
        head = [self.heading] if self.heading else []
        return (head + [self.indent + line for line in self.lines]
                + [self.indent + s.text() for s in self.steps])


@dataclass(frozen=True)
class Derivation:
    title: str
    sections: tuple[Section, ...] = ()
    #: The one line the command line prints for the result.
    summary: str = ""
    notes: tuple[str, ...] = field(default=())

    def steps(self) -> list[Step]:
        return [step for section in self.sections for step in section.steps]

    def step(self, key: str) -> Step:
        found = [step for step in self.steps() if step.key == key]
        if not found:
            raise KeyError(f"no step {key!r} in the derivation of {self.title!r}")
        return found[0]


@singledispatch
def derive(result: object, **options: Any) -> Derivation:
    """The derivation of a metric's result. Each metric's ``explain.py`` registers its result types
    (``@derive.register(ChrfResult)``), so a result's ``explain()`` reaches its renderer without the
    result module importing the explain module (data never depends on its rendering).

    >>> derive(3)
    Traceback (most recent call last):
    ...
    TypeError: no derivation for int: its metric's explain module registers one (import the metric)
    """
    raise TypeError(f"no derivation for {type(result).__name__}: its metric's explain module registers one "
                    "(import the metric)")


@singledispatch
def derive_html(result: object) -> str:
    """A result's HTML (``_repr_html_``), registered by its metric's ``explain.py`` as :func:`derive` is."""
    raise TypeError(f"no HTML derivation for {type(result).__name__}: its metric's explain module registers "
                    "one (import the metric)")


@singledispatch
def derive_text(result: object, **options: Any) -> str:
    """A result's ``explain()`` text where its renderer writes the text itself rather than rows (the
    implementations' comparison in :mod:`mtlearn.why`), registered by its ``explain.py`` as :func:`derive` is.

    >>> derive_text(3)
    Traceback (most recent call last):
    ...
    TypeError: no text derivation for int: its explain module registers one (import its package)
    """
    raise TypeError(f"no text derivation for {type(result).__name__}: its explain module registers one "
                    "(import its package)")


def to_text(derivation: Derivation) -> str:
    """The derivation as the text ``explain()`` prints."""
    lines = [derivation.title]
    for section in derivation.sections:
        if section.blank_before:
            lines.append("")
        lines.extend(section.text_lines())
    lines.extend(derivation.notes)
    return "\n".join(lines)


def steps_html(steps: Sequence[Step], mark: Optional[Callable[[Step, str], str]] = None) -> str:
    """The steps as an HTML table (name | formula | substituted | value); ``mark`` may wrap each value
    (the explorers add their ``data-name`` spans there).

    >>> print(steps_html([Step("p1", "p_1", substituted="4/5", value="0.8000")]))
    <table><tr><td>p_1</td><td></td><td>4/5</td><td>0.8000</td></tr></table>
    """
    def cell(text: str) -> str:
        return f"<td>{html.escape(text)}</td>"

    rows = []
    for step in steps:
        value = html.escape(step.value)
        shown = mark(step, value) if mark else value
        rows.append(f"<tr>{cell(step.name)}{cell(step.formula)}{cell(step.substituted)}<td>{shown}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"

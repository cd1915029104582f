"""A concept check: a multiple-choice question whose every option explains itself.

Each notebook section ends with one or two of them. An option is a text and the
explanation shown after choosing it: why it is right, or why it is tempting and wrong.
Exactly one option is right (``answer`` is its index).

>>> c = ConceptCheck("99.s1a", "What does BLEU clip?",
...                  (Option("n-gram counts", "Yes: each n-gram at most as often as a reference has it."),
...                   Option("sentence lengths", "No: lengths go into the brevity penalty.")),
...                  answer=0)
>>> c.right.text
'n-gram counts'
>>> c.notebook, c.section
('99', 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Option", "ConceptCheck"]

_ID = re.compile(r"^(\d\d)\.s(\d+)([a-z])$")


@dataclass(frozen=True)
class Option:
    """One choice and the explanation shown after it is chosen."""

    text: str
    explanation: str


@dataclass(frozen=True)
class ConceptCheck:
    """A question on one section's key idea: ``id`` is ``"NN.sKx"`` (notebook, section, letter)."""

    id: str
    question: str
    options: tuple[Option, ...]
    answer: int

    def __post_init__(self) -> None:
        # A malformed bank entry is a programming error: fail when the bank is imported.
        if not _ID.match(self.id):
            raise ValueError(f"concept check id {self.id!r} is not of the form 'NN.sKx' (e.g. '01.s2a')")
        if len(self.options) < 2:
            raise ValueError(f"concept check {self.id}: needs at least two options")
        if not 0 <= self.answer < len(self.options):
            raise ValueError(f"concept check {self.id}: answer {self.answer} is not an option's index")

    @property
    def right(self) -> Option:
        """The right option."""
        return self.options[self.answer]

    @property
    def notebook(self) -> str:
        """The notebook's two digits (``"01"``)."""
        return self.id[:2]

    @property
    def section(self) -> int:
        """The number of the section it closes."""
        match = _ID.match(self.id)
        assert match is not None  # checked in __post_init__
        return int(match.group(2))

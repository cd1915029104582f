"""Worked solutions for self-learners: ``solution("01.3")`` prints the steps and the answer.

The steps are mtlearn's own: a question's derivation (the metric's ``explain()`` where it has
one), a coding exercise's function as mtlearn writes it (:func:`.show_source`). The first
line warns that it gives the answer away.

>>> solution("99.9")
Traceback (most recent call last):
...
LookupError: exercise_id '99.9': no such exercise; notebook 99 has none
"""

from __future__ import annotations

import numbers
import textwrap
from fractions import Fraction

from mtlearn.exercises.catalogue import exercise
from mtlearn.exercises.kinds import Exercise, Question
from mtlearn.exercises.source import show_source

__all__ = ["solution", "solution_text", "WARNING"]

#: The first line of every solution.
WARNING = "This gives the answer away: try `check` first."


def answer_text(value: object, decimals: int = 4) -> str:
    """A question's answer as the solution prints it: a fraction with its decimals, a float to the
    question's decimals, a count or a word as it is.

    >>> answer_text(Fraction(3, 4)), answer_text(0.60653066, 4), answer_text(7), answer_text("stem")
    ('3/4 = 0.7500', '0.6065', '7', 'stem')
    """
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{value} = {float(value):.{decimals}f}"
    if isinstance(value, float):
        return f"{value:.{decimals}f}"
    if isinstance(value, numbers.Rational):
        return str(value)
    return str(value)


def solution_text(found: Exercise) -> str:
    """The worked solution of one exercise, as :func:`solution` prints it.

    >>> print(solution_text(exercise("02.2")).splitlines()[0])
    This gives the answer away: try `check` first.
    """
    lines = [WARNING, textwrap.fill(f"{found.id}: {found.prompt}", 110, subsequent_indent="  ")]
    if isinstance(found, Question):
        if found.working is not None:
            lines.append(found.working().rstrip())
        lines.append(f"Answer: {answer_text(found.answer(), found.decimals)}")
    else:
        lines.append("mtlearn's function, which check_function compares yours with:")
        lines.append(show_source(found.reference).text)
    return "\n".join(lines)


def solution(exercise_id: str) -> None:
    """Print the worked solution of exercise ``exercise_id``: the steps, computed by mtlearn.

    >>> solution("02.2")  # doctest: +ELLIPSIS
    This gives the answer away: try `check` first.
    02.2: How many tokens has 'Hello, world!' with tokenize='13a'?
    ...
    Answer: 4
    """
    print(solution_text(exercise(exercise_id)))

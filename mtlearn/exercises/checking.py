"""Check a student's answers: ``check(id, answer)`` for a question, ``check_function(id, f)`` for code.

Both print ``correct`` or ``not yet: ...``. The expected values are computed by mtlearn
when the check runs (:mod:`.catalogue` says how, per exercise id), so no notebook cell
holds the expression that gives the answer away.

>>> check("01.1", "3/4")
correct
>>> def brevity_penalty(c, r):
...     return 1.0            # forgets the penalty
>>> check_function("01.c2", brevity_penalty)
not yet: brevity_penalty(2, 6) returned 1.0; mtlearn gives 0.1353352832366127
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Optional

from mtlearn.exercises.catalogue import exercise
from mtlearn.exercises.kinds import CodingExercise, Question

__all__ = ["check", "check_function", "verdict"]

CORRECT = "correct"
TRY_AGAIN = "not yet: try again"
NOT_ANSWERED = "not yet: replace None with your answer and run the cell again"

#: How close a number must be to count as correct: it agrees to four decimal places.
TOLERANCE = Fraction(1, 20_000)


def _as_number(answer: object) -> Optional[Fraction]:
    """``answer`` as an exact number, or None when it is not one (a word, a list, ``True``, nan).

    A float is read as the decimal it prints as (0.9091 is 9091/10000, not the binary
    value nearest to it); a string may hold an integer, a fraction or a decimal.

    >>> _as_number(0.9091), _as_number(" 3 / 4 "), _as_number(3), _as_number("eight")
    (Fraction(9091, 10000), Fraction(3, 4), Fraction(3, 1), None)
    """
    if isinstance(answer, bool):
        return None  # True == 1 in Python, but it is no answer to "how many"
    if isinstance(answer, numbers.Rational):
        return Fraction(answer)
    if isinstance(answer, numbers.Real):
        return Fraction(repr(float(answer))) if math.isfinite(answer) else None
    if isinstance(answer, str):
        try:
            return Fraction(answer.replace(" ", ""))
        except (ValueError, ZeroDivisionError):
            return None
    return None


def verdict(answer: object, expected: object) -> str:
    """The message :func:`check` prints, as a string.

    A word (``expected`` a ``str``) is compared ignoring case and surrounding spaces.
    A number is correct when it equals ``expected`` exactly, or agrees with it to
    four decimal places: ``"3/4"``, ``Fraction(3, 4)`` and ``0.75`` all answer 3/4,
    and ``0.9091`` answers 10/11. A word where a number is expected is told so.

    >>> verdict(None, Fraction(3, 4))
    'not yet: replace None with your answer and run the cell again'
    >>> verdict("3/4", Fraction(3, 4)), verdict(0.9091, Fraction(10, 11)), verdict(0.909, Fraction(10, 11))
    ('correct', 'correct', 'not yet: try again')
    >>> verdict(0.1353, 0.1353352832366127), verdict(" Stem", "stem")
    ('correct', 'correct')
    >>> verdict("eight", 8)
    "not yet: the answer is a number, and 'eight' is not one (type it as 3, '3/4' or 0.75)"
    """
    if answer is None:
        return NOT_ANSWERED
    if isinstance(expected, str):
        return CORRECT if str(answer).strip().lower() == expected.strip().lower() else TRY_AGAIN
    if isinstance(expected, bool) or not isinstance(expected, numbers.Real):
        raise TypeError(f"expected: a number or a word to compare with, got {type(expected).__name__}")
    given = _as_number(answer)
    if given is None:
        return f"not yet: the answer is a number, and {answer!r} is not one (type it as 3, '3/4' or 0.75)"
    target = _as_number(expected)
    if target is None:  # mtlearn computed nan or an infinity: nothing a student can type matches
        return TRY_AGAIN
    return CORRECT if abs(given - target) <= TOLERANCE else TRY_AGAIN


def check(exercise_id: str, answer: object) -> None:
    """Print ``correct`` when ``answer`` answers question ``exercise_id``, else what to do next.

    ``answer`` None means "not answered yet". See :func:`verdict` for what counts as correct.

    >>> check("01.1", None)
    not yet: replace None with your answer and run the cell again
    >>> check("01.1", 0.75), check("01.1", "three quarters")
    correct
    not yet: the answer is a number, and 'three quarters' is not one (type it as 3, '3/4' or 0.75)
    (None, None)
    >>> check("01.c1", 0.5)
    Traceback (most recent call last):
    ...
    TypeError: exercise_id '01.c1' is a coding exercise: check it with check_function('01.c1', your_function)
    """
    found = exercise(exercise_id)
    if not isinstance(found, Question):
        raise TypeError(f"exercise_id {exercise_id!r} is a coding exercise: check it with "
                        f"check_function({exercise_id!r}, your_function)")
    print(verdict(answer, found.answer()))


def _agrees(got: object, want: object) -> bool:
    """Whether a student's function returned mtlearn's value: numbers to 1e-9, containers item by item.

    >>> _agrees(0.1 + 0.2, 0.3), _agrees(Fraction(1, 2), 0.5), _agrees([1, 2], (1, 2)), _agrees(True, 1)
    (True, True, True, False)
    """
    if isinstance(want, bool) or isinstance(got, bool):
        return type(got) is type(want) and got == want
    if isinstance(want, numbers.Real):
        return isinstance(got, numbers.Real) and (got == want or math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12))
    if isinstance(want, Mapping):
        return isinstance(got, Mapping) and set(got) == set(want) and all(_agrees(got[k], want[k]) for k in want)
    if isinstance(want, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(got) == len(want)
                and all(_agrees(g, w) for g, w in zip(got, want)))
    return bool(got == want)


def _call(name: str, args: tuple[Any, ...]) -> str:
    """How a call reads in a message, cut to a line.

    >>> _call("f", ("a b".split(), 2))
    "f(['a', 'b'], 2)"
    """
    text = f"{name}({', '.join(map(repr, args))})"
    return text if len(text) <= 160 else text[:157] + "..."


def _first_disagreement(found: CodingExercise, function: Callable[..., Any]) -> Optional[str]:
    """What went wrong on the first case where ``function`` and mtlearn differ, or None."""
    name = getattr(function, "__name__", "your function")
    for args in found.cases():
        want = found.reference(*args)
        try:
            got = function(*args)
        except NotImplementedError:
            return f"not yet: write the body of {name} (it still raises NotImplementedError)"
        except Exception as error:  # the student's code: any error is an answer to explain
            return f"not yet: {_call(name, args)} raised {type(error).__name__}: {error}"
        if not _agrees(got, want):
            return f"not yet: {_call(name, args)} returned {got!r}; mtlearn gives {want!r}"
    return None


def check_function(exercise_id: str, function: object) -> None:
    """Test a student's ``function`` against mtlearn's on the worked examples and on random cases.

    Prints ``correct`` with how many cases agreed, or the first counter-example in words.

    >>> from mtlearn.metrics.bleu.formulas import brevity_penalty
    >>> check_function("01.c2", brevity_penalty)
    correct: agrees with mtlearn on 3 worked examples and 200 random cases
    >>> check_function("01.c2", lambda c, r: 1 / 0)
    not yet: <lambda>(2, 6) raised ZeroDivisionError: division by zero
    >>> check_function("01.c2", None)
    Traceback (most recent call last):
    ...
    TypeError: function: expected the function you wrote, got NoneType
    """
    found = exercise(exercise_id)
    if not isinstance(found, CodingExercise):
        raise TypeError(f"exercise_id {exercise_id!r} is a question: check it with check({exercise_id!r}, answer)")
    if not callable(function):
        raise TypeError(f"function: expected the function you wrote, got {type(function).__name__}")
    problem = _first_disagreement(found, function)
    print(problem or f"correct: agrees with mtlearn on {len(found.worked)} worked examples "
                     f"and {found.random_cases} random cases")

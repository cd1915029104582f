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

import decimal
import math
import numbers
import operator
import reprlib
import textwrap
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Optional, Union

from mtlearn.core.number_text import NumberError, parse_number
from mtlearn.exercises.catalogue import exercise
from mtlearn.exercises.kinds import CodingExercise, Question

__all__ = ["check", "check_function", "verdict", "question_verdict", "function_verdict", "coding_exercise"]

CORRECT = "correct"
TRY_AGAIN = "not yet: try again"
NOT_ANSWERED = "not yet: replace None with your answer and run the cell again"

#: How close a number must be to count as correct: it agrees to four decimal places.
TOLERANCE = Fraction(1, 20_000)
#: The longest line a message is printed on (notebooks keep their output lines readable at 1280 px).
LINE = 110


def _instance_repr(self: reprlib.Repr, x: object, level: int) -> str:
    """``repr(x)`` cut to ``maxother``; an object whose own ``__repr__`` fails is named by its type (no
    address)."""
    try:
        text = repr(x)
    except Exception:  # a student's object: its __repr__ may do anything
        return f"<{type(x).__name__} object>"
    return text if len(text) <= self.maxother else text[:self.maxother - 3] + "..."


class _ShortRepr(reprlib.Repr):
    """reprlib's short ``repr`` (long strings and containers cut), with :func:`_instance_repr` for other
    objects."""

    repr_instance = _instance_repr  # what reprlib calls for a type it has no method of its own for


#: How a student's value is shown in a message: a line, however large the value.
_REPR = _ShortRepr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8
_SHOWN_MAX = 120

Plain = Union[Fraction, float]


def _shown(value: object) -> str:
    """``repr(value)`` cut to a line; a value whose ``repr`` fails is named by its type.

    >>> len(_shown("x" * 20_000_000)), _shown([1.5, "a"])
    (60, "[1.5, 'a']")
    """
    try:
        text = _REPR.repr(value)  # slices long strings and containers before calling repr on them
    except Exception:  # a student's object: its __repr__ may do anything
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= _SHOWN_MAX else text[:_SHOWN_MAX - 3] + "..."


def _array_item(value: object) -> object:
    """A numpy 0-d array as its one Python number (``numpy.array(0.75)`` -> 0.75); anything else as it is."""
    if type(value).__module__ == "numpy" and getattr(value, "shape", None) == () and hasattr(value, "item"):
        return value.item()  # type: ignore[attr-defined]
    return value


def _plain(value: object) -> Optional[Plain]:
    """``value``'s number as a plain ``Fraction`` or ``float``, or None when it is not a number.

    Only the value is taken, never the object's own ``__eq__``: an int or float subclass
    gives its stored value, a ``numbers.Rational`` its numerator and denominator as plain
    ints, a ``Decimal`` or a string goes through the bounded :func:`mtlearn.core.number_text.parse_number`,
    another ``numbers.Real`` through ``float()``. ``bool`` is no number here; whatever
    raises on the way (a ``__float__`` that fails) is "not a number".

    >>> _plain(3), _plain(0.5), _plain(Fraction(6, 8)), _plain(True), _plain("three")
    (Fraction(3, 1), 0.5, Fraction(3, 4), None, None)
    """
    value = _array_item(value)
    if isinstance(value, bool):
        return None  # True == 1 in Python, but it is no answer to "how many"
    try:
        return _plain_number(value)
    except (ArithmeticError, TypeError, ValueError, AttributeError):  # a student's number that misbehaves
        return None


def _plain_number(value: object) -> Optional[Plain]:
    if isinstance(value, int):
        return Fraction(int.__index__(value))  # the stored value, whatever the subclass overrides
    if isinstance(value, float):
        plain = float.__float__(value)
        return plain if math.isfinite(plain) else None
    if isinstance(value, numbers.Integral):
        return Fraction(operator.index(value))
    if isinstance(value, numbers.Rational):
        return Fraction(operator.index(value.numerator), operator.index(value.denominator))
    if isinstance(value, decimal.Decimal):
        return _parsed(decimal.Decimal.__str__(value))
    if isinstance(value, numbers.Real):
        plain = float(value)  # float() returns an exact float or raises
        return plain if math.isfinite(plain) else None
    if isinstance(value, str):
        return _parsed(str.__str__(value).replace(" ", ""))
    return None


def _parsed(text: str) -> Optional[Fraction]:
    try:
        return parse_number(text, "answer")
    except NumberError:
        return None


def _as_number(answer: object) -> Optional[Fraction]:
    """``answer`` as an exact number, or None when it is not one (a word, a list, ``True``, nan).

    A float is read as the decimal it prints as (0.9091 is 9091/10000, not the binary
    value nearest to it); a string may hold an integer, a fraction or a decimal; a
    ``Decimal`` and a numpy 0-d array are numbers too.

    >>> _as_number(0.9091), _as_number(" 3 / 4 "), _as_number(3), _as_number("eight")
    (Fraction(9091, 10000), Fraction(3, 4), Fraction(3, 1), None)
    """
    plain = _plain(answer)
    if isinstance(plain, float):
        return Fraction(repr(plain))  # a finite float prints with at most 17 digits and a 3-digit exponent
    return plain


def _not_a_number(answer: object) -> str:
    """Why ``answer`` is no number: its string's bound, if it broke one, else the usual hint."""
    text = (str.__str__(answer).replace(" ", "") if isinstance(answer, str)
            else decimal.Decimal.__str__(answer) if isinstance(answer, decimal.Decimal) else None)
    if text is not None:
        try:
            parse_number(text, "answer")
        except NumberError as error:
            if error.bound:  # a number, but too large, too close to 0 or too long to read
                return f"not yet: {error.reason}"
    return f"not yet: the answer is a number, and {_shown(answer)} is not one (type it as 3, '3/4' or 0.75)"


def _as_word(answer: object) -> Optional[str]:
    """``answer`` as a plain string (``str()`` of a non-string), or None when ``str()`` fails."""
    try:
        text = answer if isinstance(answer, str) else str(answer)
        return str.__str__(text)  # a plain copy: no subclass's strip() or lower()
    except Exception:  # a student's object: its __str__ may do anything
        return None


def verdict(answer: object, expected: object, *, mistakes: Iterable[tuple[object, str]] = (),
            decimals: int = 4) -> str:
    """The message :func:`check` prints, as a string.

    A word (``expected`` a ``str``) is compared ignoring case and surrounding spaces.
    A number is correct when it equals ``expected`` exactly, or agrees with it to
    four decimal places: ``"3/4"``, ``Fraction(3, 4)`` and ``0.75`` all answer 3/4,
    and ``0.9091`` answers 10/11. A word where a number is expected is told so.

    A wrong answer that equals (as closely) the value of one of ``mistakes``, pairs
    ``(wrong value, hint)`` read only when the answer is not correct, gets that hint
    (every hint, when two mistakes give the same value). A number rounded or cut to
    fewer decimals than the question's ``decimals`` is told so (a fraction or a whole number is not a
    rounded decimal).

    >>> verdict(None, Fraction(3, 4))
    'not yet: replace None with your answer and run the cell again'
    >>> verdict("3/4", Fraction(3, 4)), verdict(0.9091, Fraction(10, 11)), verdict(0.8, Fraction(10, 11))
    ('correct', 'correct', 'not yet: try again')
    >>> verdict(0.1353, 0.1353352832366127), verdict(" Stem", "stem"), verdict(0.909, Fraction(10, 11))
    ('correct', 'correct', 'not yet: right to 3 decimals; give 4')
    >>> verdict(1, Fraction(3, 4), mistakes=[(Fraction(1), "the count without clipping")])
    'not yet: the count without clipping'
    >>> verdict("eight", 8)
    "not yet: the answer is a number, and 'eight' is not one (type it as 3, '3/4' or 0.75)"
    """
    if answer is None:
        return NOT_ANSWERED
    if isinstance(expected, str):
        word = _as_word(answer)
        return CORRECT if _same_word(word, expected) else _mistaken(lambda value: _same_word(word, value),
                                                                   mistakes)
    if isinstance(expected, bool) or not isinstance(expected, numbers.Real):
        raise TypeError(f"expected: a number or a word to compare with, got {type(expected).__name__}")
    given = _as_number(answer)
    if given is None:
        return _not_a_number(answer)
    target = _as_number(expected)
    if target is None:  # mtlearn computed nan or an infinity: nothing a student can type matches
        return TRY_AGAIN
    if abs(given - target) <= TOLERANCE:
        return CORRECT
    found = _mistaken(lambda value: _near(given, value), mistakes)
    if found != TRY_AGAIN:
        return found
    shown = None if _typed_exactly(answer) else _rounded_decimals(given, target, decimals)
    return TRY_AGAIN if shown is None else f"not yet: right to {_decimals(shown)}; give {decimals}"


def _typed_exactly(answer: object) -> bool:
    """Whether ``answer`` is a whole number or a fraction ("9/10", ``Fraction(9, 10)``), not a rounded
    decimal."""
    return isinstance(answer, numbers.Rational) or (isinstance(answer, str) and "/" in answer)


def _same_word(word: Optional[str], expected: object) -> bool:
    return word is not None and isinstance(expected, str) and word.strip().lower() == expected.strip().lower()


def _near(given: Fraction, value: object) -> bool:
    """Whether ``given`` is ``value`` (a number mtlearn computed) to :data:`TOLERANCE`."""
    if isinstance(value, str) or isinstance(value, bool):
        return False
    target = _as_number(value)
    return target is not None and abs(given - target) <= TOLERANCE


def _mistaken(matches: Callable[[object], bool], mistakes: Iterable[tuple[object, str]]) -> str:
    """``not yet: <hint>`` for the mistakes whose value ``matches`` the answer, else "try again"."""
    hints = [hint for value, hint in mistakes if matches(value)]
    if not hints:
        return TRY_AGAIN
    if len(hints) == 1:
        return f"not yet: {hints[0]}"
    return f"not yet: {len(hints)} mistakes give this answer. " + " Or: ".join(hints)


def _decimals(n: int) -> str:
    return f"{n} decimal" + ("" if n == 1 else "s")


def _rounded_decimals(given: Fraction, target: Fraction, decimals: int) -> Optional[int]:
    """How many decimals ``given`` has when it is ``target`` rounded (or cut) to fewer than ``decimals``.

    >>> _rounded_decimals(Fraction("0.607"), Fraction("0.60653"), 4), _rounded_decimals(Fraction("0.606"),
    ...     Fraction("0.60653"), 4), _rounded_decimals(Fraction("0.7"), Fraction("0.60653"), 4)
    (3, 3, None)
    """
    for n in range(1, decimals):
        scale = 10 ** n
        if (given * scale).denominator != 1:
            continue
        scaled = target * scale
        cut = math.floor(scaled) if scaled >= 0 else math.ceil(scaled)  # towards 0, as a student cuts
        # rounded, a half either way
        nearest = {math.floor(scaled + Fraction(1, 2)), math.ceil(scaled - Fraction(1, 2))}
        return n if given * scale in {cut, *nearest} and given != target else None
    return None


def check(exercise_id: str, answer: object) -> None:
    """Print ``correct`` when ``answer`` answers question ``exercise_id``, else what to do next.

    ``answer`` None means "not answered yet". See :func:`verdict` for what counts as correct;
    a wrong answer that a known mistake gives is told what the mistake was.

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
    _print(question_verdict(found, answer))


def question_verdict(question: Question, answer: object) -> str:
    """What :func:`check` prints for ``answer`` to ``question``, as one string (before it is wrapped).

    >>> from mtlearn.exercises.catalogue import exercise
    >>> question_verdict(exercise("01.3"), 0.607)
    'not yet: right to 3 decimals; give 4'
    """
    mistakes = ((m.answer(), m.hint) for m in question.misconceptions)  # computed only for a wrong answer
    return verdict(answer, question.answer(), mistakes=mistakes, decimals=question.decimals)


def _wrapped(message: str) -> str:
    """A message on lines of at most :data:`LINE` characters (a hint may be two sentences)."""
    return textwrap.fill(message, LINE, subsequent_indent="  ", break_long_words=False,
                         break_on_hyphens=False)


def _print(message: str) -> None:
    print(_wrapped(message))


def _agrees(got: object, want: object) -> bool:
    """Whether a student's function returned mtlearn's value: numbers to 1e-9, containers item by item.

    Numbers are compared by their plain values (see :func:`_plain`), never through the
    returned object's own ``__eq__``, which could say yes to anything.

    >>> _agrees(0.1 + 0.2, 0.3), _agrees(Fraction(1, 2), 0.5), _agrees([1, 2], (1, 2)), _agrees(True, 1)
    (True, True, True, False)
    >>> class Yes(float):
    ...     def __eq__(self, other): return True
    >>> _agrees(Yes(-5.0), 0.3)
    False
    """
    if isinstance(want, bool) or isinstance(got, bool):
        return type(got) is bool and type(want) is bool and got is want
    if isinstance(want, numbers.Real):
        return _same_number(_plain(got), _plain(want))
    if isinstance(want, str):
        return isinstance(got, str) and str.__eq__(got, want) is True
    if isinstance(want, (Mapping, list, tuple)):
        return _agrees_item_by_item(got, want)
    return type(got) is type(want) and (got == want) is True


def _agrees_item_by_item(got: object, want: Union[Mapping[Any, Any], list[Any], tuple[Any, ...]]) -> bool:
    if isinstance(want, Mapping):
        return (isinstance(got, Mapping) and set(got) == set(want)
                and all(_agrees(got[k], want[k]) for k in want))
    items = _items(got)
    return items is not None and len(items) == len(want) and all(_agrees(g, w) for g, w in zip(items, want))


def _same_number(got: Optional[Plain], want: Optional[Plain]) -> bool:
    if got is None or want is None:
        return False
    if isinstance(got, Fraction) and isinstance(want, Fraction):
        return got == want
    try:
        g, w = float(got), float(want)
    except OverflowError:  # a Fraction beyond any float is not a score mtlearn computes
        return False
    return g == w or math.isclose(g, w, rel_tol=1e-9, abs_tol=1e-12)


def _items(value: object) -> Optional[list[Any]]:
    """The items a list or tuple holds (not what a subclass's ``__iter__`` says), else None."""
    if isinstance(value, list):
        return list(list.__iter__(value))
    if isinstance(value, tuple):
        return list(tuple.__iter__(value))
    return None


def _call(name: str, args: tuple[Any, ...]) -> str:
    """How a call reads in a message, cut to a line.

    >>> _call("f", ("a b".split(), 2))
    "f(['a', 'b'], 2)"
    """
    text = f"{name}({', '.join(map(_shown, args))})"
    return text if len(text) <= 160 else text[:157] + "..."


def _error_text(error: BaseException) -> str:
    """``str(error)`` cut to a line; an error whose ``__str__`` fails is named by its type."""
    try:
        text = str(error)
    except Exception:
        return f"<{type(error).__name__}>"
    return text if len(text) <= _SHOWN_MAX else text[:_SHOWN_MAX - 3] + "..."


def _function_name(function: object) -> str:
    try:
        name = getattr(function, "__name__", None)
    except Exception:  # a callable object whose __getattr__ raises
        name = None
    return name[:60] if isinstance(name, str) and name else "your function"


def _first_disagreement(found: CodingExercise, function: Callable[..., Any]) -> tuple[Optional[str], bool]:
    """What went wrong on the first case where ``function`` and mtlearn differ (None if nowhere), and
    whether it was a value (not an error) that differed."""
    name = _function_name(function)
    for args in found.cases():
        want = found.reference(*args)
        try:
            got = function(*args)
        except NotImplementedError:
            return f"not yet: write the body of {name} (it still raises NotImplementedError)", False
        except Exception as error:  # the student's code: any error is an answer to explain
            return f"not yet: {_call(name, args)} raised {type(error).__name__}: {_error_text(error)}", False
        if not _safely_agrees(got, want):
            return f"not yet: {_call(name, args)} returned {_shown(got)}; mtlearn gives {want!r}", True
    return None, False


def _safely_agrees(got: object, want: object) -> bool:
    try:
        return _agrees(got, want)
    except Exception:  # a returned object that cannot even be compared (a Mapping whose keys raise)
        return False


_RAISED = object()  # what a student's function "returned" on a case where it raised


def _outputs(function: Callable[..., Any], cases: list[tuple[Any, ...]]) -> list[object]:
    """What ``function`` returns on every case (:data:`_RAISED` where it raises)."""
    outputs: list[object] = []
    for args in cases:
        try:
            outputs.append(function(*args))
        except Exception:  # the student's code
            outputs.append(_RAISED)
    return outputs


def _same_mistake(found: CodingExercise, function: Callable[..., Any]) -> Callable[[object], bool]:
    """A test of a misconception's wrong function: does the student's agree with it on every case?"""
    cases = found.cases()
    got = _outputs(function, cases)

    def agrees_everywhere(wrong: object) -> bool:
        return callable(wrong) and all(g is not _RAISED and _safely_agrees(g, wrong(*args))
                                       for g, args in zip(got, cases))
    return agrees_everywhere


def check_function(exercise_id: str, function: object) -> None:
    """Test a student's ``function`` against mtlearn's on the worked examples and on random cases.

    Prints ``correct`` with how many cases agreed, or the first counter-example in words; when the
    function agrees on every case with one of the exercise's misconceptions, what that mistake was.

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
    print(function_verdict(coding_exercise(exercise_id), function))


def coding_exercise(exercise_id: str) -> CodingExercise:
    """The coding exercise ``exercise_id``; a question's id is a ``TypeError`` saying to use ``check``.

    >>> coding_exercise("01.c2").id
    '01.c2'
    """
    found = exercise(exercise_id)
    if not isinstance(found, CodingExercise):
        raise TypeError(f"exercise_id {exercise_id!r} is a question: check it with "
                        f"check({exercise_id!r}, answer)")
    return found


def function_verdict(found: CodingExercise, function: object) -> str:
    """What :func:`check_function` prints for ``function`` (its lines joined), starting ``correct`` or
    ``not yet``.

    >>> function_verdict(coding_exercise("01.c2"), lambda c, r: 1.0)
    'not yet: <lambda>(2, 6) returned 1.0; mtlearn gives 0.1353352832366127'
    """
    if not callable(function):
        raise TypeError(f"function: expected the function you wrote, got {type(function).__name__}")
    problem, wrong_value = _first_disagreement(found, function)
    if problem is None:
        return (f"correct: agrees with mtlearn on {len(found.worked)} worked examples "
                f"and {found.random_cases} random cases")
    if wrong_value and found.misconceptions:
        told = _mistaken(_same_mistake(found, function), ((m.answer, m.hint) for m in found.misconceptions))
        if told != TRY_AGAIN:  # the mistake, then the counter-example on a line of its own
            return _wrapped(told) + "\n  " + problem.removeprefix("not yet: ")
    return problem

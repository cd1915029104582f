"""The exercise checks as assertions, for nbgrader's autograded test cells.

:func:`assert_correct` and :func:`assert_function` judge exactly as :func:`~.checking.check` and
:func:`~.checking.check_function` do (the same verdict, the same misconceptions); where those print
``not yet: ...``, these raise :class:`AnswerError` (an ``AssertionError``) with that message, so that
the cell errs and nbgrader gives it no points. A correct answer passes silently.
The nbgrader source (:mod:`mtlearn.tools.nbgrader_source`) puts one call in a locked test cell after
each exercise.

>>> assert_correct("01.1", "3/4")
>>> assert_correct("01.1", None)
Traceback (most recent call last):
...
mtlearn.exercises.grading.AnswerError: 01.1: not yet: replace None with your answer and run the cell again
"""

from __future__ import annotations

from mtlearn.exercises.catalogue import exercise
from mtlearn.exercises.checking import CORRECT, coding_exercise, function_verdict, question_verdict
from mtlearn.exercises.kinds import Question

__all__ = ["AnswerError", "assert_correct", "assert_function"]


class AnswerError(AssertionError):
    """An answer or a function that :func:`~.checking.check` (``check_function``) would not call correct."""


def _passed(message: str) -> bool:
    return message == CORRECT or message.startswith(CORRECT + ":")


def assert_correct(exercise_id: str, answer: object) -> None:
    """Return quietly when ``answer`` answers question ``exercise_id``; else raise :class:`AnswerError`
    with what :func:`~.checking.check` would print.

    >>> assert_correct("01.3", 0.607)
    Traceback (most recent call last):
    ...
    mtlearn.exercises.grading.AnswerError: 01.3: not yet: right to 3 decimals; give 4
    """
    found = exercise(exercise_id)
    if not isinstance(found, Question):
        raise TypeError(f"exercise_id {exercise_id!r} is a coding exercise: grade it with "
                        f"assert_function({exercise_id!r}, your_function)")
    message = question_verdict(found, answer)
    if not _passed(message):
        raise AnswerError(f"{exercise_id}: {message}")


def assert_function(exercise_id: str, function: object) -> None:
    """Return quietly when ``function`` agrees with mtlearn's on every case of coding exercise
    ``exercise_id``; else raise :class:`AnswerError` with what :func:`~.checking.check_function` would
    print.

    >>> from mtlearn.metrics.bleu.formulas import brevity_penalty
    >>> assert_function("01.c2", brevity_penalty)
    >>> assert_function("01.c2", lambda c, r: 1.0)
    Traceback (most recent call last):
    ...
    mtlearn.exercises.grading.AnswerError: 01.c2: not yet: <lambda>(2, 6) returned 1.0; mtlearn gives 0.135...
    """
    message = function_verdict(coding_exercise(exercise_id), function)
    if not _passed(message):
        raise AnswerError(f"{exercise_id}: {message}")

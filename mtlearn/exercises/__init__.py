"""What the notebooks use besides the metrics: exercise checks and a source viewer.

:func:`check` (a question) and :func:`check_function` (a function the student writes)
compare with what mtlearn computes and print ``correct`` or ``not yet: ...``; each
exercise is named by its id, and its answer lives in this folder, one module per
notebook (:mod:`.catalogue`), with the common mistakes (:class:`Misconception`) that
``check`` recognises. :func:`solution` prints a worked solution (it gives the answer
away). :func:`assert_correct` and :func:`assert_function` judge the same way but raise
:class:`AnswerError` instead of printing ``not yet`` (nbgrader's autograded test cells).
:func:`show_source` shows the source of a library function, so that a notebook shows the
code that runs (and strict nbval fails when the two drift apart).

A concept check (:func:`concept_check`, a multiple-choice question closing a notebook section) is
a widget: it is imported on first use, so that importing this package does not load ipywidgets.

>>> check("01.3", None)
not yet: replace None with your answer and run the cell again
"""

from typing import Any

from mtlearn.exercises.catalogue import exercise, exercises
from mtlearn.exercises.checking import check, check_function, verdict
from mtlearn.exercises.grading import AnswerError, assert_correct, assert_function
from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.exercises.solutions import solution
from mtlearn.exercises.source import SourceCode, show_source

__all__ = ["check", "check_function", "verdict", "assert_correct", "assert_function", "AnswerError",
           "solution", "show_source", "SourceCode", "exercise", "exercises", "Question", "CodingExercise",
           "Exercise", "Misconception", "concept_check", "ConceptCheckWidget"]


def __getattr__(name: str) -> Any:
    # PEP 562: the widget (and ipywidgets) load only when a notebook asks for a concept check.
    if name in ("concept_check", "ConceptCheckWidget"):
        from mtlearn.exercises import concept_widget

        return getattr(concept_widget, name)
    raise AttributeError(f"module 'mtlearn.exercises' has no attribute {name!r}")

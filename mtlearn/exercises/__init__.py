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

>>> check("01.3", None)
not yet: replace None with your answer and run the cell again
"""

from mtlearn.exercises.catalogue import exercise, exercises
from mtlearn.exercises.checking import check, check_function, verdict
from mtlearn.exercises.grading import AnswerError, assert_correct, assert_function
from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.exercises.solutions import solution
from mtlearn.exercises.source import SourceCode, show_source

__all__ = ["check", "check_function", "verdict", "assert_correct", "assert_function", "AnswerError",
           "solution", "show_source", "SourceCode", "exercise",
           "exercises", "Question", "CodingExercise", "Exercise", "Misconception"]

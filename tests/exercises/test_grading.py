"""``assert_correct`` and ``assert_function``: the checks as assertions for nbgrader's test cells, judging
exactly as ``check`` and ``check_function`` print."""

from __future__ import annotations

import contextlib
import io

import pytest

from mtlearn.exercises import (
    AnswerError,
    CodingExercise,
    Question,
    assert_correct,
    assert_function,
    check,
    check_function,
    exercises,
)

QUESTIONS = [e for e in exercises() if isinstance(e, Question)]
CODING = [e for e in exercises() if isinstance(e, CodingExercise)]


def _printed(call, *args) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        call(*args)
    return out.getvalue().rstrip("\n")


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.id)
def test_assert_correct_passes_the_answer_and_raises_checks_message_otherwise(question):
    assert assert_correct(question.id, question.answer()) is None
    for wrong in [None, "not a number at all", *(m.answer() for m in question.misconceptions)]:
        with pytest.raises(AnswerError) as raised:
            assert_correct(question.id, wrong)
        assert str(raised.value) == f"{question.id}: " + " ".join(_printed(check, question.id, wrong).split())


@pytest.mark.parametrize("coding", CODING, ids=lambda c: c.id)
def test_assert_function_passes_mtlearns_function_and_raises_check_functions_message_otherwise(coding):
    assert assert_function(coding.id, coding.reference) is None

    def unwritten(*args):
        raise NotImplementedError()

    for wrong in [unwritten, *(m.answer for m in coding.misconceptions)]:
        with pytest.raises(AnswerError) as raised:
            assert_function(coding.id, wrong)
        assert str(raised.value) == f"{coding.id}: " + _printed(check_function, coding.id, wrong)


def test_an_answer_error_is_an_assertion_error_and_ids_of_the_other_kind_are_refused():
    assert issubclass(AnswerError, AssertionError)  # nbgrader scores a test cell that raises as 0
    with pytest.raises(TypeError, match="assert_function"):
        assert_correct(CODING[0].id, 1)
    with pytest.raises(TypeError, match="check"):
        assert_function(QUESTIONS[0].id, len)
    with pytest.raises(LookupError):
        assert_correct("01.99", 1)

"""The worked solutions (mtlearn.exercises.solutions): every exercise's, from mtlearn."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mtlearn.exercises import CodingExercise, Question, exercise, exercises, show_source, solution
from mtlearn.exercises.solutions import WARNING, answer_text


@pytest.mark.parametrize("e", exercises(), ids=lambda e: e.id)
def test_every_exercise_prints_its_worked_solution(e, capsys):
    solution(e.id)
    printed = capsys.readouterr().out
    lines = printed.splitlines()
    assert lines[0] == WARNING == "This gives the answer away: try `check` first."
    words = " ".join(printed.split())  # the prompt is wrapped at 110 characters
    assert words.startswith(f"{WARNING} {e.id}: {' '.join(e.prompt.split())}")
    if isinstance(e, Question):
        assert e.working is not None, f"{e.id}: no worked steps"
        value = e.answer()
        assert lines[-1] == f"Answer: {answer_text(value, e.decimals)}"
        if isinstance(value, (int, float, Fraction)):
            assert f"{float(value):.{e.decimals}f}" in lines[-1] or str(value) in lines[-1]
        assert len(lines) > 3, f"{e.id}: the steps are missing"  # warning, prompt, steps, answer
        steps = "\n".join(lines[2:-1])
        assert steps.strip(), e.id
    else:
        assert isinstance(e, CodingExercise)
        assert show_source(e.reference).text in printed


def test_a_numeric_answer_is_in_the_steps_too(capsys):
    # 01.3's derivation ends with the score, as BLEU's explain() prints it.
    solution("01.3")
    printed = capsys.readouterr().out
    assert f"BLEU = BP * mean = 0.6065 * 1.0000 = {exercise('01.3').answer():.4f}" in printed


def test_an_unknown_id_is_the_error_exercise_gives():
    with pytest.raises(LookupError) as from_exercise:
        exercise("01.9")
    with pytest.raises(LookupError) as from_solution:
        solution("01.9")
    assert str(from_solution.value) == str(from_exercise.value)
    with pytest.raises(TypeError, match="^exercise_id: expected an id such as '01.3'"):
        solution(3)


def test_answers_are_shown_as_the_questions_ask():
    assert answer_text(Fraction(20, 39)) == "20/39 = 0.5128"
    assert answer_text(-4.24, 2) == "-4.24"
    assert answer_text(Fraction(-31, 5)) == "-31/5 = -6.2000"
    assert answer_text(48) == "48" and answer_text("synonym") == "synonym"

"""The notebooks' exercise checker and source viewer (mtlearn.exercises)."""

from __future__ import annotations

import ast
import functools
import math
import numbers
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

import mtlearn
from mtlearn.exercises import (
    CodingExercise,
    Question,
    SourceCode,
    check,
    check_function,
    exercise,
    exercises,
    show_source,
    verdict,
)
from mtlearn.exercises.checking import CORRECT, NOT_ANSWERED, TRY_AGAIN
from mtlearn.exercises.source import HEADER_WIDTH
from mtlearn.metrics.meteor.alignment_reference import align_reference
from mtlearn.metrics.meteor.formulas import chunk_spans, count_crossings

REPO = Path(mtlearn.__file__).resolve().parent.parent


# --------------------------------------------------------------------------- check


def test_none_means_not_answered_yet():
    assert verdict(None, Fraction(3, 4)) == verdict(None, "stem") == verdict(None, 0.5) == NOT_ANSWERED


@pytest.mark.parametrize("answer", ["3/4", " 3 / 4 ", Fraction(3, 4), 0.75, 3 / 4, "0.75", Fraction(6, 8)])
def test_every_way_of_writing_three_quarters(answer):
    assert verdict(answer, Fraction(3, 4)) == CORRECT


@pytest.mark.parametrize("answer, message", [
    (0.9091, CORRECT), ("0.9091", CORRECT), (0.90909, CORRECT), ("10/11", CORRECT),
    (0.909, "not yet: right to 3 decimals; give 4"), (0.9092, TRY_AGAIN),
    (0.91, "not yet: right to 2 decimals; give 4"), ("9/10", TRY_AGAIN), (Fraction(9, 10), TRY_AGAIN),
])
def test_a_fraction_typed_to_four_decimals(answer, message):
    assert verdict(answer, Fraction(10, 11)) == message


def test_counts_and_computed_scores():
    assert verdict(8, 8) == verdict("8", 8) == verdict(8.0, Fraction(8)) == CORRECT
    assert verdict(7, 8) == TRY_AGAIN
    # The Chinese blog post's example C: BLEU = exp(1 - 6/2) = 0.1353..., a float from mtlearn.
    score = mtlearn.d2l_bleu("A B".split(), "A B C D E F".split(), 2).score
    assert math.isclose(score, math.exp(-2))
    assert verdict(0.1353, score) == verdict("0.1353", score) == CORRECT
    assert verdict(0.1354, score) == verdict(0.15, score) == TRY_AGAIN
    assert verdict(0.14, score) == "not yet: right to 2 decimals; give 4"


def test_a_number_type_from_numpy_is_a_number():
    np = pytest.importorskip("numpy")
    assert verdict(np.float64(0.75), Fraction(3, 4)) == verdict(np.int64(3), 3) == CORRECT


@pytest.mark.parametrize("answer", ["eight", "", "3/0", "three quarters", [3], True, float("nan"), {"a": 1}])
def test_a_word_where_a_number_is_expected_gets_a_message_not_an_error(answer):
    message = verdict(answer, Fraction(3, 4))
    assert message.startswith("not yet: the answer is a number, and ")
    assert repr(answer) in message


def test_words_ignore_case_and_spaces():
    assert verdict("Stem ", "stem") == verdict("METEOR", "meteor") == CORRECT
    assert verdict("synonym", "stem") == verdict(3, "stem") == TRY_AGAIN


def test_nothing_matches_an_expected_nan():
    assert verdict(0.5, float("nan")) == TRY_AGAIN


def test_a_bad_expected_value_is_the_notebooks_error_named():
    with pytest.raises(TypeError, match="^expected: a number or a word"):
        verdict(1, [1])
    with pytest.raises(TypeError, match="^expected: "):
        verdict(1, True)


def test_check_prints_the_verdict_and_returns_nothing(capsys):
    expected = exercise("01.1").answer()
    assert check("01.1", expected) is None
    assert check("01.1", None) is None
    assert check("01.1", "x") is None
    assert capsys.readouterr().out.splitlines() == [CORRECT, NOT_ANSWERED, verdict("x", expected)]


# --------------------------------------------------------------------------- hostile answers


def test_a_huge_exponent_is_answered_at_once():
    # Fraction("1e100000000") computes 10**100000000 (> 20 s); the bounded parser refuses it from the text.
    code = ("from mtlearn.exercises import check\n"
            "check('01.1', '1e100000000')\ncheck('01.1', '1e-300000000')\ncheck('01.1', '3/4')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and lines[2] == CORRECT, lines
    assert lines[0].startswith("not yet: '1e100000000' is too large"), lines
    assert lines[1].startswith("not yet: '1e-300000000' is too close to 0"), lines


class _RaisingFloat(float):
    def __float__(self):
        raise RuntimeError("no float for you")


class _RaisingRepr:
    def __repr__(self):
        raise RuntimeError("no repr for you")


class _RaisingBool:
    def __bool__(self):
        raise RuntimeError("no bool for you")


class _RealWithRaisingEquality:
    """Registered as a real number; its == gives an object whose truth raises."""

    def __eq__(self, other):
        return _RaisingBool()

    __hash__ = object.__hash__


numbers.Real.register(_RealWithRaisingEquality)


def test_an_answer_whose_repr_raises_is_not_a_number():
    message = verdict(_RaisingRepr(), Fraction(3, 4))
    assert message == ("not yet: the answer is a number, and <_RaisingRepr object> is not one "
                       "(type it as 3, '3/4' or 0.75)")
    assert verdict(_RaisingRepr(), "stem") == TRY_AGAIN


def test_a_returned_value_whose_equality_cannot_be_told_is_not_correct(capsys):
    check_function("01.c2", lambda c, r: _RealWithRaisingEquality())
    printed = capsys.readouterr().out
    assert (printed.startswith("not yet: <lambda>(2, 6) returned <")
            and "; mtlearn gives 0.135" in printed), printed


def test_a_float_whose_float_raises_is_read_by_its_value():
    assert verdict(_RaisingFloat(0.75), Fraction(3, 4)) == CORRECT
    assert verdict(_RaisingFloat(0.5), Fraction(3, 4)) == TRY_AGAIN


class _Flatterer:
    """Registered as a real number; equal to everything."""

    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


numbers.Real.register(_Flatterer)


class _FlatteringFloat(float):
    def __eq__(self, other):
        return True

    __hash__ = float.__hash__


@pytest.mark.parametrize("returned", [_Flatterer(), _FlatteringFloat(-5.0), [_FlatteringFloat(-5.0)]],
                         ids=["registered-real", "float-subclass", "in-a-list"])
def test_an_answer_equal_to_everything_is_not_correct(returned, capsys):
    coding = exercise("01.c2")  # returns a float
    check_function("01.c2", lambda *args: returned if not isinstance(returned, list) else returned[0])
    assert capsys.readouterr().out.startswith("not yet: <lambda>(")
    assert verdict(_Flatterer(), Fraction(3, 4)) != CORRECT
    assert verdict(_FlatteringFloat(-5.0), Fraction(3, 4)) == TRY_AGAIN
    assert coding.reference(2, 6) != -5.0


def test_a_tuple_subclass_is_read_by_what_it_holds(capsys):
    # 02.c2 returns a tuple of Fractions; a tuple subclass is compared item by item, plainly.
    coding = exercise("02.c2")

    class Listed(tuple):
        pass

    check_function("02.c2", lambda *args: Listed(coding.reference(*args)))
    assert capsys.readouterr().out.startswith("correct: ")


def test_a_huge_returned_value_is_shown_cut_to_a_line(capsys):
    check_function("01.c2", lambda c, r: "x" * 20_000_000)
    printed = capsys.readouterr().out
    assert printed.startswith("not yet: <lambda>(2, 6) returned 'xxx") and len(printed) < 400, len(printed)


def test_a_function_raising_an_error_that_cannot_be_printed(capsys):
    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no str")

    def broken(c, r):
        raise Unprintable()

    check_function("01.c2", broken)
    assert capsys.readouterr().out == "not yet: broken(2, 6) raised Unprintable: <Unprintable>\n"


def test_decimal_and_numpy_zero_d_arrays_are_numbers():
    np = pytest.importorskip("numpy")
    assert verdict(Decimal("0.75"), Fraction(3, 4)) == verdict(np.array(0.75), Fraction(3, 4)) == CORRECT
    assert verdict(np.array(3), 3) == verdict(np.float32(0.75), Fraction(3, 4)) == CORRECT
    assert verdict(Decimal("0.6"), Fraction(3, 4)) == TRY_AGAIN
    assert verdict(Decimal("0.8"), Fraction(3, 4)) == "not yet: right to 1 decimal; give 4"
    assert verdict(Decimal("1e100000000"), Fraction(3, 4)).startswith("not yet: '1E+100000000' is too large")
    assert verdict(np.array([0.75]), Fraction(3, 4)).startswith("not yet: the answer is a number")
    assert verdict(np.array(True), 1).startswith("not yet: the answer is a number")


# --------------------------------------------------------------------------- the catalogue of exercises

NOTEBOOKS = sorted(p.name[:2] for p in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_ids_are_unique_well_formed_and_one_notebook_each():
    ids = [e.id for e in exercises()]
    assert len(ids) == len(set(ids)), ids
    for e in exercises():
        kind = "c" if isinstance(e, CodingExercise) else ""
        assert re.fullmatch(rf"(\d\d)\.{kind}\d+", e.id), e.id
        assert e.id[:2] in NOTEBOOKS, f"{e.id}: no notebook {e.id[:2]}"
        assert e.prompt.strip(), e.id


@pytest.mark.parametrize("question", [e for e in exercises() if isinstance(e, Question)], ids=lambda e: e.id)
def test_every_answer_is_computed_by_mtlearn_and_checkable(question, capsys):
    # The answer is a number or a word, and check() accepts it and nothing far from it.
    value = question.answer()
    assert (isinstance(value, (str, int, float, Fraction))
            and not isinstance(value, bool)), (question.id, value)
    check(question.id, value)
    wrong = "not-" + value if isinstance(value, str) else value + 1
    check(question.id, wrong)
    assert capsys.readouterr().out.splitlines() == [CORRECT, TRY_AGAIN]


@pytest.mark.parametrize("coding", [e for e in exercises() if isinstance(e, CodingExercise)],
                         ids=lambda e: e.id)
def test_every_coding_exercise_accepts_mtlearn_and_refuses_a_wrong_function(coding, capsys):
    check_function(coding.id, coding.reference)
    assert capsys.readouterr().out.startswith("correct: agrees with mtlearn on ")
    assert coding.worked, f"{coding.id}: no worked example"
    # A function off by a little on one case only is still caught, and the message names that case.
    first = coding.cases()[0]

    def almost(*args):
        value = coding.reference(*args)
        return value if args != first else _nudge(value)

    check_function(coding.id, almost)
    printed = capsys.readouterr().out
    assert printed.startswith("not yet: almost(") and "mtlearn gives" in printed, printed


def _nudge(value):
    """A value close to ``value`` but not equal to it."""
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return value + Fraction(1, 1000) if isinstance(value, (int, Fraction)) else value + 1e-3
    if isinstance(value, (list, tuple)):
        return type(value)([_nudge(value[0]), *value[1:]]) if value else [None]
    if isinstance(value, dict):
        return {**value, "nudged": True}
    return object()


def test_a_stub_is_told_to_write_the_body(capsys):
    def brevity_penalty(c, r):
        raise NotImplementedError()

    check_function("01.c2", brevity_penalty)
    assert (capsys.readouterr().out
            == "not yet: write the body of brevity_penalty (it still raises NotImplementedError)\n")


@pytest.mark.parametrize("call, error, message", [
    (lambda: check("01.99", 1), LookupError,
     r"^exercise_id '01.99': no such exercise; notebook 01 has 01.1, "),
    (lambda: check(0.75, "01.1"), TypeError,
     r"^exercise_id: expected an id such as '01.3', got float 0.75 \(the id comes first"),
    (lambda: check("01.c1", 1), TypeError, r"coding exercise: check it with check_function\('01.c1'"),
    (lambda: check_function("01.1", len), TypeError, r"is a question: check it with check\('01.1', answer\)"),
    (lambda: check_function("01.c1", "def f(): pass"), TypeError,
     r"^function: expected the function you wrote, got str"),
])
def test_misuse_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --------------------------------------------------------------------------- show_source


@pytest.mark.parametrize("function", [count_crossings, chunk_spans, align_reference, mtlearn.meteor])
def test_the_source_shown_is_the_file_that_runs(function):
    shown = show_source(function)
    one_line = f"# {function.__module__}.{function.__qualname__}, from {shown.path}"
    # A header wider than a notebook prints goes on two lines: the name, then the file.
    header_lines = 1 if len(one_line) <= HEADER_WIDTH else 2
    lines = shown.text.split("\n")
    header, code = "\n".join(lines[:header_lines]), "\n".join(lines[header_lines:])
    assert header == (one_line if header_lines == 1 else one_line.replace(", from ", "\n# from "))
    assert code in (REPO / shown.path).read_text(encoding="utf-8")
    tree = ast.parse(code)
    assert [node.name for node in tree.body] == [function.__name__]
    assert repr(shown) == str(shown) == shown.text
    assert shown == show_source(function)  # stable: nbval compares it run after run
    assert not re.search(r"\bat 0x[0-9a-fA-F]+", shown.text)


def test_without_the_docstring_the_code_is_the_same():
    full, bare = show_source(chunk_spans), show_source(chunk_spans, docstring=False)
    full_def = ast.parse(full.code).body[0]
    bare_def = ast.parse(bare.code).body[0]
    assert ast.get_docstring(full_def) and ast.get_docstring(bare_def) is None
    full_def.body = full_def.body[1:]
    assert ast.dump(full_def) == ast.dump(bare_def)
    assert len(bare.code.splitlines()) < len(full.code.splitlines())


def test_methods_classes_and_wrapped_functions():
    method = show_source(SourceCode._repr_html_)
    assert method.code.startswith("def _repr_html_(self)")  # dedented out of its class
    assert show_source(SourceCode).code.startswith("@dataclass(frozen=True)\nclass SourceCode:")

    @functools.lru_cache(maxsize=None)
    def cached(x):
        return x

    assert "return x" in show_source(cached).code
    assert show_source(cached).path == Path(__file__).resolve().relative_to(REPO).as_posix()


def test_jupyter_shows_it_highlighted():
    shown = show_source(count_crossings)
    page = shown._repr_html_()
    assert page.count("<pre") == 1 and "<span" in page
    assert "count_crossings" in page and "style=" in page  # inline colours, no stylesheet needed
    assert "&gt;" in page and "->" not in page  # the code is escaped ("-> int")


@pytest.mark.parametrize("thing, message", [
    (42, "function: expected a function or class to show, got int"),
    ("count_crossings", "function: expected a function or class to show, got str"),
    (len, "function: builtins.len has no Python source to show"),
])
def test_what_cannot_be_shown_is_refused_by_name(thing, message):
    with pytest.raises(TypeError, match="^" + re.escape(message)):
        show_source(thing)


def test_every_exercise_is_in_its_notebook_and_every_check_in_the_catalogue():
    # The catalogue and the notebooks name the same exercises: none unused, none missing.
    import nbformat

    used = set()
    for path in sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                found = re.findall(r'^check(?:_function)?\("(\d\d\.c?\d+)", \w+\)$', cell.source, re.M)
                assert all(i.startswith(path.name[:2] + ".") for i in found), (path.name, found)
                used.update(found)
    assert used == {e.id for e in exercises()}

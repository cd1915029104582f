"""What the notebooks use besides the metrics: an exercise checker and a source viewer.

:func:`check` compares a student's answer with the value mtlearn computes and prints
``correct`` or ``not yet: ...``; every notebook imports it instead of defining its own.
:func:`show_source` shows the source of a library function, so that a notebook shows
the code that runs (and strict nbval fails when the two drift apart).

>>> from fractions import Fraction
>>> check(0.9091, Fraction(10, 11))  # 10/11 to four decimals
correct
"""

from __future__ import annotations

import ast
import html
import inspect
import math
import numbers
import textwrap
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Optional

__all__ = ["check", "verdict", "show_source", "SourceCode"]

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


def check(answer: object, expected: object) -> None:
    """Print ``correct`` when ``answer`` is mtlearn's value ``expected``, else what to do next.

    ``answer`` None means "not answered yet". See :func:`verdict` for what counts as correct.

    >>> check(None, Fraction(2, 7))
    not yet: replace None with your answer and run the cell again
    >>> check("2/7", Fraction(2, 7))
    correct
    >>> check(0.2857, Fraction(2, 7))
    correct
    >>> check("two sevenths", Fraction(2, 7))
    not yet: the answer is a number, and 'two sevenths' is not one (type it as 3, '3/4' or 0.75)
    >>> check("synonym", "stem")
    not yet: try again
    """
    print(verdict(answer, expected))


@dataclass(frozen=True)
class SourceCode:
    """A function's source, as :func:`show_source` returns it.

    Jupyter shows it highlighted (``_repr_html_``); ``print`` and ``repr`` give the
    plain text, which is what nbval compares besides the HTML.

    >>> s = SourceCode("pkg.twice", "pkg/maths.py", "def twice(x):\\n    return 2 * x\\n")
    >>> print(s)
    # pkg.twice, from pkg/maths.py
    def twice(x):
        return 2 * x
    >>> "<pre" in s._repr_html_()
    True
    """

    name: str
    path: str
    code: str

    @property
    def text(self) -> str:
        """A header line naming the function and its file, then the code."""
        return f"# {self.name}, from {self.path}\n{self.code.rstrip()}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        try:
            from pygments import highlight
            from pygments.formatters import HtmlFormatter
            from pygments.lexers import PythonLexer
        except ImportError:  # pragma: no cover - pygments comes with IPython
            return f"<pre>{html.escape(self.text)}</pre>"
        return highlight(self.text, PythonLexer(), HtmlFormatter(noclasses=True))


def _without_docstring(code: str) -> str:
    """``code`` (one function or class) with its docstring's lines removed.

    >>> print(_without_docstring("def f():\\n    'Say one.'\\n    return 1\\n"))
    def f():
        return 1
    <BLANKLINE>
    """
    node = ast.parse(code).body[0]
    body = getattr(node, "body", [])
    if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)) or len(body) == 1:
        return code
    lines = code.splitlines(keepends=True)
    return "".join(lines[:body[0].lineno - 1] + lines[body[0].end_lineno:])


def show_source(function: object, *, docstring: bool = True) -> SourceCode:
    """The source of a library function (or class), for a notebook to display.

    As the last line of a cell it shows the code highlighted; it is the code that
    runs, read from mtlearn's files. ``docstring=False`` leaves the docstring out.
    The header names the function and its file, relative to the installation.

    >>> from mtlearn.metrics.meteor.formulas import count_chunks
    >>> print(show_source(count_chunks, docstring=False))
    # mtlearn.metrics.meteor.formulas.count_chunks, from mtlearn/metrics/meteor/formulas.py
    def count_chunks(pairs: Iterable[Pair]) -> int:
        return len(chunk_spans(pairs))
    >>> show_source(42)
    Traceback (most recent call last):
    ...
    TypeError: function: expected a function or class to show, got int
    >>> show_source(len)
    Traceback (most recent call last):
    ...
    TypeError: function: builtins.len has no Python source to show (it is built into Python)
    """
    target = inspect.unwrap(function) if callable(function) else function
    if not (inspect.isfunction(target) or inspect.ismethod(target) or inspect.isclass(target)
            or inspect.isbuiltin(target)):
        raise TypeError(f"function: expected a function or class to show, got {type(function).__name__}")
    name = f"{target.__module__}.{target.__qualname__}"
    try:
        code = textwrap.dedent(inspect.getsource(target))
        file = Path(inspect.getsourcefile(target) or "")
    except (OSError, TypeError):
        raise TypeError(f"function: {name} has no Python source to show (it is built into Python)") from None
    if not docstring:
        code = _without_docstring(code)
    root = Path(__file__).resolve().parent.parent
    path = file.resolve().relative_to(root).as_posix() if file.resolve().is_relative_to(root) else file.name
    return SourceCode(name, path, code)

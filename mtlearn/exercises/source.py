"""Show the source of a library function in a notebook: the code a student reads is the code that runs.

>>> from mtlearn.metrics.bleu.formulas import brevity_penalty
>>> show_source(brevity_penalty).name
'mtlearn.metrics.bleu.formulas.brevity_penalty'
"""

from __future__ import annotations

import ast
import html
import inspect
import textwrap
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SourceCode", "show_source"]


#: The widest header line: notebooks print at most 110 columns.
HEADER_WIDTH = 110


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
        header = f"# {self.name}, from {self.path}"
        if len(header) > HEADER_WIDTH:  # a long module path: the file on a line of its own
            header = f"# {self.name}\n# from {self.path}"
        return f"{header}\n{self.code.rstrip()}"

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
    root = Path(__file__).resolve().parents[2]  # the folder that holds mtlearn/
    path = file.resolve().relative_to(root).as_posix() if file.resolve().is_relative_to(root) else file.name
    return SourceCode(name, path, code)

"""Ctrl-C while an ``mtlearn`` command is still importing ends it in one line, with exit status 130.

The ``mtlearn`` console script and ``python -m mtlearn...`` import the whole package
before :func:`mtlearn.tools.cli.main.main` can catch anything, and that takes about a tenth of a
second: a Ctrl-C in that window would print a traceback from deep inside some import.
``mtlearn/__init__.py`` therefore calls :func:`install` first thing. In a process that
runs an mtlearn command it installs a ``sys.excepthook`` that turns an uncaught
``KeyboardInterrupt`` into ``mtlearn: error: interrupted (Ctrl-C)`` and exit status 130
(the shell's "stopped by Ctrl-C"); every other process (a notebook, a test, a script
that imports mtlearn) is left exactly as it was. The hook only runs once the exception
has unwound, so ``finally`` blocks (temporary files) still run.

A Ctrl-C can also land in code that swallows it (a finaliser, whose exceptions Python only
prints as "Exception ignored"), after which the command would go on and wait for its input.
So the command's SIGINT handler also notes the interrupt, and :func:`raise_if_interrupted`,
called when the command starts, raises it again.

>>> is_command(["/venv/bin/mtlearn", "bleu"], ["/venv/bin/python", "/venv/bin/mtlearn", "bleu"])
True
>>> is_command(["-m", "bleu"], ["python", "-X", "utf8", "-m", "mtlearn.show.figures", "out"])
True
>>> is_command(["-m"], ["python", "-m", "pytest"]), is_command(["script.py"], ["python", "script.py"])
(False, False)
"""

from __future__ import annotations

# The C module behind `signal` (`signal` builds enums on import, 1 ms: the window this module closes).
import _signal as signal
import os
import sys

TYPE_CHECKING = False  # typing itself takes 10 ms to import: the window this module exists to close
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import TracebackType
    from typing import Optional

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT), as the shell reports it.
EXIT_INTERRUPTED = 130

MESSAGE = "mtlearn: error: interrupted (Ctrl-C)\n"


def is_command(argv: Sequence[str], orig_argv: Sequence[str]) -> bool:
    """Whether this process runs an mtlearn command: the ``mtlearn`` script or ``python -m mtlearn[.x]``.

    ``argv`` is ``sys.argv`` (``"-m"`` while ``-m`` imports the package), ``orig_argv``
    the interpreter's own command line (``sys.orig_argv``). See the module's examples.
    """
    if argv and os.path.basename(argv[0]).removesuffix(".exe") == "mtlearn":
        return True
    args = list(orig_argv)
    if "-m" in args[1:-1]:
        module = args[args.index("-m", 1) + 1]
        return module == "mtlearn" or module.startswith("mtlearn.")
    return False


def was_interrupted(error: Optional[BaseException]) -> bool:
    """Whether ``error`` is a Ctrl-C, or was raised because of one.

    Python wraps an exception raised while a class is being created (in ``__set_name__``, e.g.
    a dataclass field) in a ``RuntimeError`` whose cause is the original, so a Ctrl-C at that
    moment of an import surfaces as a ``RuntimeError``.

    >>> try:
    ...     raise RuntimeError("Error calling __set_name__") from KeyboardInterrupt()
    ... except RuntimeError as error:
    ...     was_interrupted(error)
    True
    >>> was_interrupted(RuntimeError("no")), was_interrupted(KeyboardInterrupt())
    (False, True)
    """
    seen = 0
    while error is not None and seen < 100:  # a bounded walk: chains can be long, never loop
        if isinstance(error, KeyboardInterrupt):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def _interrupts_seen() -> int:
    """How many Ctrl-Cs the command's handler has seen (0 where it is not installed)."""
    handler = signal.getsignal(signal.SIGINT)
    return handler.count if isinstance(handler, _Interrupts) else 0


def _excepthook(kind: type[BaseException], value: BaseException, tb: Optional[TracebackType]) -> None:
    # A Ctrl-C inside an extension's import comes out as that extension's ImportError (numpy: "Importing
    # the numpy C-extensions failed"), the interrupt lost: the handler's count remembers it.
    if not (issubclass(kind, KeyboardInterrupt) or was_interrupted(value) or _interrupts_seen()):
        sys.__excepthook__(kind, value, tb)
        return
    try:
        if sys.stderr is not None:
            sys.stderr.write(MESSAGE)
            sys.stderr.flush()
    except (OSError, ValueError):
        pass  # standard error is gone: the status still says what happened
    os._exit(EXIT_INTERRUPTED)  # sys.exit cannot be raised from an excepthook


class _Interrupts:
    """The command's SIGINT handler: Python's own (raise KeyboardInterrupt), also counting the interrupts."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, signum: int, frame: object) -> None:
        self.count += 1
        raise KeyboardInterrupt


def raise_if_interrupted() -> None:
    """Raise KeyboardInterrupt if a Ctrl-C came earlier in the command and was swallowed (by an import's
    finaliser, say). Called when the command starts and again before it waits for its input: modules
    loaded on first use (``import mtlearn`` is lazy) import after the command has started, so the
    counting handler stays in place for the whole command."""
    if _interrupts_seen():
        raise KeyboardInterrupt


def install() -> None:
    """Install the hook if this process is an mtlearn command (see the module's docstring); else do nothing.

    >>> previous = sys.excepthook
    >>> install()  # under pytest or a notebook: not an mtlearn command
    >>> sys.excepthook is previous
    True
    """
    if is_command(sys.argv, getattr(sys, "orig_argv", [])):
        sys.excepthook = _excepthook
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where Ctrl-C is ignored
            signal.signal(signal.SIGINT, _Interrupts())

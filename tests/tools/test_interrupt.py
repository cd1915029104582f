"""mtlearn/tools/cli/interrupt.py: a Ctrl-C while a command imports ends in one line and exit status 130,
also when Python has wrapped the KeyboardInterrupt in another exception."""

from __future__ import annotations

import signal
import subprocess
import sys

from mtlearn.tools.cli.interrupt import EXIT_INTERRUPTED, MESSAGE

# A Ctrl-C that lands while a dataclass is being created reaches the top as
# "RuntimeError: Error calling __set_name__ ..." caused by the KeyboardInterrupt (seen in the suite
# under load: the interrupt tests then got a traceback and exit status 1).
WRAPPED = """
import sys
sys.argv = ["mtlearn", "bleu"]
from mtlearn.tools.cli import interrupt
interrupt.install()
class Field:
    def __set_name__(self, owner, name):
        raise KeyboardInterrupt
class Result:
    notes = Field()
"""

PLAIN_ERROR = """
import sys
sys.argv = ["mtlearn", "bleu"]
from mtlearn.tools.cli import interrupt
interrupt.install()
raise RuntimeError("not an interruption")
"""


def _as_a_shell_starts_it() -> None:
    # Ctrl-C at its default action: this test process may have inherited it ignored (an earlier
    # test's server or kernel), and a child would inherit that too.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _run(code: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=_as_a_shell_starts_it, **kwargs)


def test_a_wrapped_ctrl_c_is_an_interruption():
    proc = _run(WRAPPED)
    assert (proc.returncode, proc.stderr, proc.stdout) == (EXIT_INTERRUPTED, MESSAGE, "")


def test_another_error_keeps_its_traceback():
    proc = _run(PLAIN_ERROR)
    assert proc.returncode == 1 and "RuntimeError: not an interruption" in proc.stderr


# A Ctrl-C that lands in code which swallows it (a finaliser: Python prints "Exception ignored" and goes
# on) must still stop the command before it starts waiting for its input.
SWALLOWED = """
import signal, sys
sys.argv = ["mtlearn", "bleu", "-r", "/dev/null"]
import mtlearn.tools.cli.main
try:
    signal.raise_signal(signal.SIGINT)
except KeyboardInterrupt:
    pass  # what a finaliser or a careless library does with it
sys.exit(mtlearn.tools.cli.main.main())
"""

IGNORED = """
import signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)  # started with Ctrl-C ignored (nohup, a background job)
sys.argv = ["mtlearn", "bleu"]
from mtlearn.tools.cli import interrupt
interrupt.install()
print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
"""


def test_a_swallowed_ctrl_c_while_importing_stops_the_command():
    proc = _run(SWALLOWED, stdin=subprocess.PIPE)
    assert (proc.returncode, proc.stderr, proc.stdout) == (EXIT_INTERRUPTED, MESSAGE, "")


def test_a_command_started_with_ctrl_c_ignored_keeps_ignoring_it():
    proc = _run(IGNORED)
    assert (proc.returncode, proc.stdout) == (0, "True\n")


# A Ctrl-C inside an extension's import comes out as that extension's ImportError, the interrupt itself
# lost (seen: numpy's "Importing the numpy C-extensions failed ... could not import module datetime").
LOST_IN_AN_IMPORT = """
import signal, sys
sys.argv = ["mtlearn", "bleu"]
from mtlearn.tools.cli import interrupt
interrupt.install()
try:
    signal.raise_signal(signal.SIGINT)
except KeyboardInterrupt:
    raise ImportError("Importing the C-extensions failed") from None
"""


def test_an_import_error_after_a_ctrl_c_is_an_interruption():
    proc = _run(LOST_IN_AN_IMPORT)
    assert (proc.returncode, proc.stderr, proc.stdout) == (EXIT_INTERRUPTED, MESSAGE, "")

"""A second user of the machine, the attacker of the hostile tests, and folders both users can reach.

When the tests run as root, the ``attacker`` fixture (tests/conftest.py) makes one with ``useradd``
(removed at the end of the session) and :func:`as_user` runs the attacker's steps as that user with
``runuser``; the victim is the test process (root, as ``make setup`` in a container is). Not as root, the
cases that need a second user skip with the reason. Each step has a time-out, so a hang fails in seconds.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

#: Seconds one step of a hostile test (the attacker's command, a fresh process) may take.
STEP_TIMEOUT_S = 60


@dataclass(frozen=True)
class User:
    name: str
    uid: int


def make_attacker() -> Iterator[User]:
    """A second user, made with ``useradd`` for this session (root only), removed afterwards."""
    if os.geteuid() != 0:
        pytest.skip("a second user needs root (useradd, runuser); these tests run as uid %d" % os.geteuid())
    if shutil.which("useradd") is None or shutil.which("runuser") is None:
        pytest.skip("useradd or runuser is not installed")
    name = f"mtlh{os.getpid()}"
    made = subprocess.run(["useradd", "--system", "--no-create-home", "--user-group",
                           "--shell", "/usr/sbin/nologin", name], capture_output=True, text=True, timeout=30)
    if made.returncode != 0:
        pytest.skip(f"useradd failed: {made.stderr.strip()}")
    try:
        yield User(name, pwd.getpwnam(name).pw_uid)
    finally:
        subprocess.run(["userdel", name], capture_output=True, timeout=30)


def as_user(user: User, *argv: str) -> None:
    """Run ``argv`` as ``user`` (the attacker's step)."""
    done = subprocess.run(["runuser", "-u", user.name, "--", *argv], capture_output=True, text=True,
                          timeout=STEP_TIMEOUT_S)
    assert done.returncode == 0, f"{argv} as {user.name}: {done.stderr}"


def make_public_tmp() -> Iterator[Path]:
    """A folder every user can enter (pytest's own tmp_path is private to its owner)."""
    folder = Path(tempfile.mkdtemp(prefix="mtlearn-hostile-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def shared_folder(parent: Path, mode: int = 0o1777) -> Path:
    """A folder everyone may write to (sticky, like /tmp, by default)."""
    folder = parent / "shared"
    folder.mkdir()
    folder.chmod(mode)
    return folder

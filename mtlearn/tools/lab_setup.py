"""Set up an environment for the notebooks: WordNet for NLTK, and a JupyterLab that stays quiet.

``python -m mtlearn.tools.lab_setup`` is the last install step of ``make lab`` and of the
student hand-out (``make student``'s README.md). It

1. tells JupyterLab, in this environment only, not to load two extensions a student does not
   need: the news and update announcements (``@jupyterlab/apputils-extension:announcements``,
   whose pop-up asks for consent to fetch Jupyter news at every first start) and nbgrader's
   panels (``@jupyter/nbgrader``: course lists and the formgrader, there when ``make test`` has
   installed nbgrader for ``make student``). It writes them as ``disabledExtensions`` into
   :data:`CONFIG_NAME` under ``<prefix>/etc/jupyter/labconfig/page_config.d/`` (JupyterLab
   reads every ``*.json`` there; ``prefix`` is ``sys.prefix``, the virtual environment), so
   nothing outside the environment changes and ``jupyter labextension enable NAME`` still
   overrides it (``page_config.json`` is read after the ``.d`` folder);
2. makes WordNet available to NLTK (:mod:`mtlearn.metrics.meteor.wordnet`, also offline).

>>> import json, tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = quiet_jupyterlab(Path(tmp))
...     sorted(json.loads(path.read_text())["disabledExtensions"])
['@jupyter/nbgrader', '@jupyterlab/apputils-extension:announcements']
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Optional

__all__ = ["CONFIG_NAME", "DISABLED_EXTENSIONS", "LabSetupError", "main", "page_config_folder",
           "quiet_jupyterlab"]

#: The JupyterLab extensions (or single plugins) a student's JupyterLab does not load.
DISABLED_EXTENSIONS = (
    "@jupyterlab/apputils-extension:announcements",
    "@jupyter/nbgrader",
)

#: The file written into ``page_config.d``.
CONFIG_NAME = "mtlearn-course.json"

PROG = "python -m mtlearn.tools.lab_setup"


class LabSetupError(OSError):
    """The page configuration cannot be written; the message names the file and says why."""


def page_config_folder(prefix: Path) -> Path:
    """Where JupyterLab reads the page configuration of the environment at ``prefix``.

    >>> page_config_folder(Path("/venv")).as_posix()
    '/venv/etc/jupyter/labconfig/page_config.d'
    """
    return Path(prefix) / "etc" / "jupyter" / "labconfig" / "page_config.d"


def quiet_jupyterlab(prefix: Optional[Path] = None) -> Path:
    """Write :data:`DISABLED_EXTENSIONS` into the page configuration of the environment at ``prefix``
    (default ``sys.prefix``); return the file written. See the module's example.

    Written to a temporary file, then renamed: never half written, never through a symbolic link.
    """
    folder = page_config_folder(Path(sys.prefix if prefix is None else prefix))
    path = folder / CONFIG_NAME
    text = json.dumps({"disabledExtensions": {name: True for name in DISABLED_EXTENSIONS}}, indent=1) + "\n"
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise LabSetupError(f"{path}: not a regular file; remove it and run {PROG} again")
    temporary = folder / f".{CONFIG_NAME}.{secrets.token_hex(6)}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(temporary, "x", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except OSError as error:
        with suppress(OSError):  # the folder may not exist (or be a file): nothing to remove then
            temporary.unlink(missing_ok=True)
        raise LabSetupError(f"{path}: cannot be written: {error.strerror or error}") from None
    return path


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m mtlearn.tools.lab_setup [--prefix DIR] [--no-wordnet]``: 0 when both steps are done."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--prefix", type=Path, default=None,
                        help=f"the environment whose JupyterLab is set up (default: {sys.prefix})")
    parser.add_argument("--no-wordnet", action="store_true", help="do not set up WordNet")
    args = parser.parse_args(argv)
    try:
        path = quiet_jupyterlab(args.prefix)
    except LabSetupError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 2
    print(f"JupyterLab: no news pop-up, no nbgrader panels ({path})")
    if args.no_wordnet:
        return 0
    from mtlearn.metrics.meteor.wordnet import main as wordnet_main

    return wordnet_main([])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

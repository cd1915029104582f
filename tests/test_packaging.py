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


def _split(requirement: str) -> tuple[str, str]:
    requirement = requirement.split(";")[0].strip()
    name, spec = re.match(r"([A-Za-z0-9_.\-]+)\s*(.*)", requirement).groups()
    return name.lower().replace("_", "-"), spec.replace(" ", "")


def _pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())


def pip_requirements() -> dict[str, str]:
    project = _pyproject()["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += [r for r in extra if "python_version <" not in r]  # back-ports conda doesn't need
    return dict(_split(r) for r in reqs)


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
    assert pip_section == ["-e ."], "environment.yml installs mtlearn itself with pip"


def test_console_script_and_version_are_declared():
    project = _pyproject()["project"]
    assert project["scripts"]["mtlearn"] == "mtlearn.cli:main"
    assert "version" in project["dynamic"]

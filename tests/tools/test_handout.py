"""``make student``'s hand-out stands alone: mtlearn's wheel with its package data, a requirements file with
only what a student needs, a README with the three steps; unzipped into an empty folder, it installs into a
fresh virtual environment (from PyPI, as a student's machine would) and a student notebook runs in it.

The wheel is built as the Makefile builds it (``pip wheel --no-deps``), from a copy of the package's files,
so that nothing is written into the repository.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from repo_paths import REPO

from mtlearn.metrics.bertscore.model import PACKAGE
from mtlearn.tools.editions import main as editions_main
from mtlearn.tools.handout import DIST_NAME, NO_DEPS_FILE, REQUIREMENTS_FILE, handout_files, wheel_metadata

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

pytest.importorskip("nbgrader",
                    reason="the editions need nbgrader (the notebooks extra: pip install -e '.[notebooks]')")

#: The student notebook the installed hand-out runs top to bottom.
NOTEBOOK = "01_bleu_from_scratch.ipynb"
#: What never reaches a student's environment: the test tools, nbgrader, Korean MeCab.
NOT_FOR_STUDENTS = ("pytest", "nbval", "hypothesis", "playwright", "radon", "vulture", "ruff", "nbgrader",
                    "voila", "jiwer", "mecab_ko")
PIP_TIMEOUT_S = 1200


def _run(argv: list[str], cwd: Path, env: "dict[str, str] | None" = None,
         timeout: float = PIP_TIMEOUT_S) -> str:
    """Run ``argv``; its output, or a failure that shows the end of it."""
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(map(str, argv))} exited {done.returncode}:\n{done.stdout[-3000:]}\n"
                    f"{done.stderr[-3000:]}")
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(REPO / "mtlearn", source / "mtlearn",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    out = tmp_path_factory.mktemp("wheel")
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), "."], source)
    (built,) = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def handout(wheel, tmp_path_factory) -> Path:
    """``make student``'s zip, built with the command line as the Makefile runs it."""
    out = tmp_path_factory.mktemp("build")
    archive = out / "mtlearn-student.zip"
    assert editions_main(["student", "--source", str(REPO / "notebooks"), "--out",
                          str(out / "mtlearn-student"), "--zip", str(archive), "--wheel", str(wheel)]) == 0
    return archive


def _project() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def test_the_wheel_holds_mtlearn_and_all_its_package_data(wheel):
    name, version, _ = wheel_metadata(wheel)
    assert (name, wheel.name) == (DIST_NAME, f"mtlearn_course-{version}-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    data = {p.relative_to(REPO).as_posix() for p in (REPO / "mtlearn").rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts}
    assert data, "no package data found"
    assert data <= names, sorted(data - names)
    assert "mtlearn/study/data/mqm_ted_zhen/minilm_embeddings.npz" in names


def test_requirements_hold_what_a_student_needs_and_no_test_tool(wheel):
    files = handout_files(wheel)
    lines = [line for line in files[REQUIREMENTS_FILE].decode().splitlines() if not line.startswith("#")]
    assert lines[0] == f"./{wheel.name}"
    wanted = _project()["dependencies"] + _project()["optional-dependencies"]["lab"]
    def names(requirements):
        return [re.match(r"[A-Za-z0-9_.\-]+", r).group().lower() for r in requirements]
    assert names(lines[1:]) == names(wanted)
    assert all(re.search(r"[<>=]", line) for line in lines[1:]), "every package with its version range"
    assert not {"pytest", "playwright", "hypothesis", "radon", "vulture", "nbgrader", "mecab-ko"} & set(
        names(lines[1:]))
    no_deps = [line for line in files[NO_DEPS_FILE].decode().splitlines() if not line.startswith("#")]
    assert no_deps == [f"{PACKAGE[0]}=={PACKAGE[2]}"]


def test_the_readme_gives_the_three_steps_without_make(wheel):
    readme = handout_files(wheel, (REPO / "notebooks" / "README.md").read_bytes())["README.md"].decode()
    for python in (".venv/bin/python", r".venv\Scripts\python"):
        for step in (f"-m pip install -r {REQUIREMENTS_FILE}", f"-m pip install --no-deps -r {NO_DEPS_FILE}",
                     "-m mtlearn.tools.lab_setup"):
            assert f"{python} {step}\n" in readme
    assert "python3 -m venv .venv\n" in readme and "py -m venv .venv\n" in readme
    assert ".venv/bin/jupyter lab\n" in readme and ".venv\\Scripts\\jupyter lab\n" in readme
    assert not re.search(r"\bmake\b", readme), "the hand-out has no Makefile"
    assert f"]({NOTEBOOK})" in readme


def _zip_of(tmp_path: Path, name: str, metadata: str) -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mtlearn/__init__.py", "")
        zf.writestr(f"{name.split('-')[0]}-1.0.dist-info/METADATA", metadata)
    return path


@pytest.mark.parametrize("case", ["missing", "not-a-zip", "another-project", "renamed", "no-metadata"])
def test_a_wrong_wheel_is_refused_in_one_line(tmp_path, capsys, case):
    wheels = {
        "missing": lambda: tmp_path / "mtlearn_course-0.1.0-py3-none-any.whl",
        "not-a-zip": lambda: _text(tmp_path / "mtlearn_course-0.1.0-py3-none-any.whl", "not a zip"),
        "another-project": lambda: _zip_of(tmp_path, "mtlearn-1.3.0-py3-none-any.whl",
                                           "Metadata-Version: 2.1\nName: mtlearn\nVersion: 1.3.0\n"),
        "renamed": lambda: _zip_of(tmp_path, "mtlearn_course-1.0-py3-none-any.whl",
                                   "Metadata-Version: 2.1\nName: other\nVersion: 1.0\n"),
        "no-metadata": lambda: _without_metadata(tmp_path / "mtlearn_course-1.0-py3-none-any.whl"),
    }
    wheel = wheels[case]()
    out = tmp_path / "out"
    code = editions_main(["student", "--source", str(REPO / "notebooks"), "--out", str(out),
                          "--zip", str(tmp_path / "s.zip"), "--wheel", str(wheel)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--wheel" in err and "Traceback" not in err, err
    assert not out.exists() and not (tmp_path / "s.zip").exists(), "nothing is written"


def _text(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _without_metadata(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mtlearn/__init__.py", "")
    return path


def test_only_the_student_edition_takes_a_wheel(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        editions_main(["instructor", "--out", str(tmp_path / "i"), "--wheel", str(tmp_path / "x.whl")])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.count("\n") == 1 and "only the student edition" in err


def _clean_env(venv: Path) -> dict[str, str]:
    """The environment of a student's shell: nothing of this repository or this test's Python leaks in."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("JUPYTER", "PYTHON", "VIRTUAL_ENV", "MTLEARN", "NLTK_DATA"))}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    return env


_PROBE = """\
import importlib.util, json, sys
import mtlearn
from mtlearn.metrics.bertscore.model import model_files
model_files()
print(json.dumps({"executable": sys.executable, "mtlearn": mtlearn.__file__,
                  "ja": mtlearn.tokenize("私は本を買った。", "ja-mecab"),
                  "absent": [m for m in %r if importlib.util.find_spec(m) is not None]}))
""" % (NOT_FOR_STUDENTS,)


def test_the_handout_installs_from_its_zip_alone_and_a_notebook_runs(handout, tmp_path):
    folder = tmp_path / "student"
    folder.mkdir()
    with zipfile.ZipFile(handout) as zf:
        assert all(not Path(n).is_absolute() and ".." not in Path(n).parts for n in zf.namelist())
        zf.extractall(folder)
    (root,) = folder.iterdir()
    assert root.name == "mtlearn-student"
    assert {p.name for p in root.iterdir()} >= {NOTEBOOK, REQUIREMENTS_FILE, NO_DEPS_FILE, "README.md"}
    # The README's steps, as a student runs them (Linux and macOS spelling), in the unzipped folder.
    _run([sys.executable, "-m", "venv", ".venv"], root, _clean_env(root / ".venv"))
    venv = root / ".venv"
    env = _clean_env(venv)
    python = str(venv / "bin" / "python")
    readme = (root / "README.md").read_text()
    steps = re.search(r"```bash\n(.*?)```", readme, re.S).group(1).splitlines()
    assert steps[0] == "python3 -m venv .venv" and steps[-1] == ".venv/bin/jupyter lab"
    for step in steps[1:-1]:
        argv = step.split()
        assert argv[0] == ".venv/bin/python", step
        _run([python, *argv[1:]], root, env)
    probe = json.loads(_run([python, "-c", _PROBE], root, env, timeout=300))
    assert Path(probe["executable"]).parent.parent == venv
    assert Path(probe["mtlearn"]).is_relative_to(venv), "mtlearn imported from outside the environment"
    assert probe["ja"][:2] == ["私", "は"] and probe["absent"] == []
    assert (venv / "etc/jupyter/labconfig/page_config.d/mtlearn-course.json").is_file()
    # The notebook top to bottom in that environment's kernel, plus a last cell that says whose it is.
    nb = json.loads((root / NOTEBOOK).read_text())
    nb["cells"].append({"cell_type": "code", "execution_count": None, "id": "whose-kernel", "metadata": {},
                        "outputs": [],
                        "source": "import sys, mtlearn; print(sys.executable, mtlearn.__file__)"})
    (root / "run.ipynb").write_text(json.dumps(nb))
    _run([str(venv / "bin" / "jupyter"), "nbconvert", "--to", "notebook", "--execute", "run.ipynb",
          "--output", "ran.ipynb", "--ExecutePreprocessor.timeout=600"], root, env, timeout=900)
    ran = json.loads((root / "ran.ipynb").read_text())
    errors = [out for cell in ran["cells"] if cell["cell_type"] == "code" for out in cell["outputs"]
              if out["output_type"] == "error"]
    assert not errors, errors[0]
    last = "".join(ran["cells"][-1]["outputs"][0]["text"]).split()
    assert Path(last[0]).parent.parent == venv and Path(last[1]).is_relative_to(venv)
    printed = "".join("".join(out.get("text", "")) for cell in ran["cells"] if cell["cell_type"] == "code"
                      for out in cell["outputs"])
    assert "not yet" in printed, "the exercise checks ran on the stubs"


def test_an_added_file_cannot_replace_a_notebook(tmp_path):
    from mtlearn.tools.editions import EditionError, build_edition

    with pytest.raises(EditionError, match="may not take a notebook's name"):
        build_edition("student", REPO / "notebooks", tmp_path / "out", extra_files={NOTEBOOK: b"{}"})
    assert not (tmp_path / "out").exists()

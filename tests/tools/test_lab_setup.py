"""``python -m mtlearn.tools.lab_setup``: JupyterLab, as make lab and the hand-out open it, shows no news
pop-up and no nbgrader panels, and changes nothing outside the environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import REPO

from mtlearn.tools.lab_setup import (
    CONFIG_NAME,
    DISABLED_EXTENSIONS,
    main,
    page_config_folder,
    quiet_jupyterlab,
)

pytest.importorskip("jupyterlab_server", reason="JupyterLab is in the lab extra: pip install -e '.[lab]'")


def _page_config(prefix: Path) -> dict:
    """The page configuration JupyterLab's server gives the browser, with ``prefix`` as the only config folder
    (JupyterLab reads it when its page is requested: a fresh process, so no earlier config is cached)."""
    code = ("import json; from jupyterlab_server.config import get_page_config; "
            "print(json.dumps(get_page_config([], None)))")
    env = {key: value for key, value in os.environ.items() if not key.startswith("JUPYTER")}
    env.update(JUPYTER_CONFIG_PATH=str(prefix / "etc" / "jupyter"), JUPYTER_CONFIG_DIR=str(prefix / "user"),
               JUPYTER_NO_CONFIG="", PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          check=True)
    return json.loads(done.stdout)


def test_jupyterlab_reads_the_disabled_news_and_nbgrader_extensions(tmp_path):
    assert not set(DISABLED_EXTENSIONS) & set(_page_config(tmp_path).get("disabledExtensions", []))
    path = quiet_jupyterlab(tmp_path)
    assert path == page_config_folder(tmp_path) / CONFIG_NAME
    disabled = set(_page_config(tmp_path)["disabledExtensions"])
    assert {"@jupyterlab/apputils-extension:announcements", "@jupyter/nbgrader"} <= disabled


def test_a_user_can_still_enable_them(tmp_path):
    # page_config.json (what `jupyter labextension enable` writes) is read after the page_config.d folder.
    quiet_jupyterlab(tmp_path)
    user = tmp_path / "etc" / "jupyter" / "labconfig" / "page_config.json"
    user.write_text(json.dumps({"disabledExtensions": {"@jupyter/nbgrader": False}}))
    disabled = set(_page_config(tmp_path)["disabledExtensions"])
    assert "@jupyter/nbgrader" not in disabled
    assert "@jupyterlab/apputils-extension:announcements" in disabled


def test_run_twice_writes_one_file_and_nothing_else(tmp_path):
    assert main(["--prefix", str(tmp_path), "--no-wordnet"]) == 0
    assert main(["--prefix", str(tmp_path), "--no-wordnet"]) == 0
    files = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert files == [f"etc/jupyter/labconfig/page_config.d/{CONFIG_NAME}"]


def test_a_link_in_its_place_is_refused_in_one_line(tmp_path, capsys):
    folder = page_config_folder(tmp_path)
    folder.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}")
    (folder / CONFIG_NAME).symlink_to(elsewhere)
    assert main(["--prefix", str(tmp_path), "--no-wordnet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a regular file" in err and "Traceback" not in err
    assert elsewhere.read_text() == "{}"


def test_an_unwritable_prefix_is_refused_in_one_line(tmp_path, capsys):
    blocker = tmp_path / "etc"
    blocker.write_text("a file where the etc folder should be")
    assert main(["--prefix", str(tmp_path), "--no-wordnet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be written" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["etc"]

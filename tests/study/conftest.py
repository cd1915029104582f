"""Fixtures of the study tests: where the MQM data is, skipping cleanly where it is not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from repo_paths import REPO

from mtlearn.study.mqm import DATA_ENV, MqmData, read_mqm


def mqm_path() -> Path:
    """``$MTLEARN_MQM_TED_ZHEN`` if set, else ``../shared/data/mqm_ted_zhen`` beside the repository."""
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else REPO.parent / "shared" / "data" / "mqm_ted_zhen"


@pytest.fixture(scope="session")
def mqm_dir() -> Path:
    path = mqm_path()
    if not (path / "mqm_ted_zhen.tsv").is_file():
        pytest.skip(f"MQM data not found at {path} (it sits in ../shared beside the repository; "
                    f"set {DATA_ENV} to point elsewhere)")
    return path


@pytest.fixture(scope="session")
def mqm_data(mqm_dir: Path) -> MqmData:
    return read_mqm(mqm_dir / "mqm_ted_zhen.tsv")

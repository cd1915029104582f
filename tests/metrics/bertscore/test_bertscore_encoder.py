"""The numpy BERT encoder (metrics/bertscore/encoder.py) equals transformers on PyTorch, layer by layer.

The reference states were recorded by scripts/record_minilm_reference.py (torch 2.14, transformers 5.25)
on 30 sentences, from the empty text to one cut at 512 positions. Measured on the recorded states: max
absolute error 1e-6 at layer 0 rising to 5e-6 at layer 6; the bound checked is 1e-4.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from mtlearn.metrics.bertscore.encoder import _erf, encode, gelu, softmax

TOLERANCE = 1e-4


# One test per sentence (the longest, 512 positions, takes about 3 s).
SENTENCES = json.loads((Path(__file__).resolve().parents[2] / "data" / "minilm_reference.json").read_text())
INDICES = [s["index"] for s in SENTENCES["sentences"]]


@pytest.mark.parametrize("index", INDICES)
def test_encode_equals_the_reference_on_every_recorded_layer(encoder, reference, index):
    sentences, arrays = reference
    sentence = sentences[index]
    states = encode(arrays[f"ids_{index}"].tolist(), encoder)
    assert len(states) == 7 and all(s.shape == (sentence["tokens"], 384) for s in states)
    for layer in sentence["layers"]:
        error = np.abs(states[layer][arrays[f"rows_{index}"]] - arrays[f"layer{layer}_{index}"]).max()
        assert error < TOLERANCE, (layer, float(error))


def test_the_fixture_covers_every_layer_the_empty_text_and_the_512_limit(reference):
    sentences, arrays = reference
    assert {layer for s in sentences for layer in s["layers"]} == set(range(7))
    assert [101, 102] in [arrays[f"ids_{s['index']}"].tolist() for s in sentences]
    longest = max(sentences, key=lambda s: s["tokens"])
    assert longest["tokens"] == 512 and arrays[f"rows_{longest['index']}"][-1] == 511


def test_erf_is_within_its_textbook_bound_of_math_erf():
    grid = np.linspace(-6.0, 6.0, 120_001)
    error = np.abs(_erf(grid) - np.array([math.erf(x) for x in grid]))
    assert error.max() < 1.5e-7  # Abramowitz & Stegun 7.1.26; measured 1.4e-7
    assert _erf(np.array([0.0]))[0] == 0.0 and np.array_equal(_erf(-grid), -_erf(grid))


def test_gelu_and_softmax_on_extremes():
    assert gelu(np.array([-40.0, 40.0])).tolist() == [0.0, 40.0]
    weights = softmax(np.array([[1000.0, 1000.0, -1000.0]]))
    assert np.isfinite(weights).all() and weights.sum() == pytest.approx(1.0) and weights[0, 2] == 0.0

"""A BERT encoder in numpy, written to be read: embeddings, then six layers of attention and feed-forward.

This is all-MiniLM-L6-v2 (6 layers, 384 dimensions, 12 attention heads), the model BERTScore runs on in
mtlearn. Each layer does two things to every token's vector, and after each adds what it computed to what
came in and normalises (the "residual" and the "layer norm"):

1. :func:`attention` — every token looks at every token of the sentence and takes a weighted mix of them
   (12 heads of 32 dimensions, each with its own idea of what to look at): this is where context enters;
2. :func:`feed_forward` — every token alone goes through a two-layer network (384 → 1536 → 384).

Layer 0 (:func:`embed`) is the vocabulary's vector for each WordPiece plus a vector for its position: no
context yet — "bank" is the same vector in "river bank" and in "bank account", except for its position.

Tests prove :func:`encode` equal, layer by layer, to the reference implementation (Hugging Face
``transformers`` on PyTorch) within 1e-4 on ~30 recorded sentences (``tests/data/minilm_reference.npz``).

>>> encoder = load_encoder()                                   # doctest: +SKIP
>>> [layer.shape for layer in encode([101, 7592, 102], encoder)][:2]  # doctest: +SKIP
[(3, 384), (3, 384)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mtlearn.metrics.bertscore.model import ModelFiles, model_files

__all__ = ["Encoder", "Layer", "attention", "embed", "encode", "feed_forward", "gelu", "layer_norm",
           "load_encoder", "softmax"]


@dataclass(frozen=True)
class Layer:
    """One encoder layer's weights (each matrix stored as PyTorch does: ``out × in``)."""

    query: tuple[np.ndarray, np.ndarray]
    key: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    attention_out: tuple[np.ndarray, np.ndarray]
    attention_norm: tuple[np.ndarray, np.ndarray]
    hidden: tuple[np.ndarray, np.ndarray]
    out: tuple[np.ndarray, np.ndarray]
    out_norm: tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Encoder:
    """The whole model: embedding tables, their layer norm, the layers, and the sizes from its
    configuration."""

    words: np.ndarray
    positions: np.ndarray
    token_types: np.ndarray
    embedding_norm: tuple[np.ndarray, np.ndarray]
    layers: tuple[Layer, ...]
    heads: int
    eps: float
    vocab: dict[str, int]

    @property
    def max_positions(self) -> int:
        """The longest input the encoder takes, ``[CLS]`` and ``[SEP]`` included (512)."""
        return int(self.positions.shape[0])


def _pair(tensors: dict[str, np.ndarray], name: str) -> tuple[np.ndarray, np.ndarray]:
    return tensors[f"{name}.weight"], tensors[f"{name}.bias"]


def _layer(tensors: dict[str, np.ndarray], index: int) -> Layer:
    p = f"encoder.layer.{index}."
    return Layer(
        query=_pair(tensors, p + "attention.self.query"), key=_pair(tensors, p + "attention.self.key"),
        value=_pair(tensors, p + "attention.self.value"),
        attention_out=_pair(tensors, p + "attention.output.dense"),
        attention_norm=_pair(tensors, p + "attention.output.LayerNorm"),
        hidden=_pair(tensors, p + "intermediate.dense"), out=_pair(tensors, p + "output.dense"),
        out_norm=_pair(tensors, p + "output.LayerNorm"))


def build_encoder(files: ModelFiles) -> Encoder:
    """The :class:`Encoder` of a model's files (the names are BERT's, as PyTorch saved them)."""
    t, config = files.tensors, files.config
    return Encoder(
        words=t["embeddings.word_embeddings.weight"], positions=t["embeddings.position_embeddings.weight"],
        token_types=t["embeddings.token_type_embeddings.weight"],
        embedding_norm=_pair(t, "embeddings.LayerNorm"),
        layers=tuple(_layer(t, i) for i in range(config["num_hidden_layers"])),
        heads=config["num_attention_heads"], eps=config["layer_norm_eps"], vocab=files.vocab)


@lru_cache(maxsize=1)
def load_encoder() -> Encoder:
    """The installed all-MiniLM-L6-v2, read once per process."""
    return build_encoder(model_files())


def layer_norm(x: np.ndarray, weight_bias: tuple[np.ndarray, np.ndarray], eps: float) -> np.ndarray:
    """Each vector shifted to mean 0 and scaled to variance 1, then scaled and shifted by learned weights."""
    weight, bias = weight_bias
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * weight + bias


def _erf(x: np.ndarray) -> np.ndarray:
    # numpy has no erf: Abramowitz & Stegun 7.1.26, absolute error below 1.5e-7 (float32 resolves 1.2e-7).
    t = 1.0 / (1.0 + 0.3275911 * np.abs(x))
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return np.sign(x) * (1.0 - poly * np.exp(-x * x))


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's activation: ``x`` times the probability that a standard normal variable is below ``x``.

    >>> [round(float(v), 4) for v in gelu(np.array([-1.0, 0.0, 1.0]))]
    [-0.1587, 0.0, 0.8413]
    """
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def softmax(scores: np.ndarray) -> np.ndarray:
    """Each row turned into weights that are positive and sum to 1 (the largest subtracted first: no
    overflow)."""
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def _linear(x: np.ndarray, weight_bias: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    weight, bias = weight_bias
    return x @ weight.T + bias


def embed(ids: list[int], encoder: Encoder) -> np.ndarray:
    """Layer 0: each token's vocabulary vector + its position's vector (+ segment A's), layer-normalised."""
    positions = np.arange(len(ids))
    x = encoder.words[ids] + encoder.positions[positions] + encoder.token_types[0]
    return layer_norm(x, encoder.embedding_norm, encoder.eps)


def attention(x: np.ndarray, layer: Layer, heads: int) -> np.ndarray:
    """Self-attention: the weights (tokens × tokens, per head) with which each token mixes every token.

    Returns the weights, shape ``heads × tokens × tokens``; :func:`attend` applies them.
    """
    size = x.shape[-1] // heads
    q = _linear(x, layer.query).reshape(-1, heads, size).transpose(1, 0, 2)
    k = _linear(x, layer.key).reshape(-1, heads, size).transpose(1, 0, 2)
    return softmax(q @ k.transpose(0, 2, 1) / math.sqrt(size))


def attend(x: np.ndarray, weights: np.ndarray, layer: Layer, eps: float) -> np.ndarray:
    """Each token's weighted mix of the value vectors, heads joined, projected, added to ``x``, normalised."""
    heads, tokens, _ = weights.shape
    v = _linear(x, layer.value).reshape(tokens, heads, -1).transpose(1, 0, 2)
    mixed = (weights @ v).transpose(1, 0, 2).reshape(tokens, -1)
    return layer_norm(x + _linear(mixed, layer.attention_out), layer.attention_norm, eps)


def feed_forward(x: np.ndarray, layer: Layer, eps: float) -> np.ndarray:
    """Each token alone: 384 → 1536 (GELU) → 384, added to ``x``, normalised."""
    return layer_norm(x + _linear(gelu(_linear(x, layer.hidden)), layer.out), layer.out_norm, eps)


def encode(ids: list[int], encoder: Encoder) -> list[np.ndarray]:
    """Every layer's token vectors for one input (``[CLS] … [SEP]`` ids): layer 0 (embeddings) to layer 6."""
    x = embed(ids, encoder)
    states = [x]
    for layer in encoder.layers:
        x = attend(x, attention(x, layer, encoder.heads), layer, encoder.eps)
        x = feed_forward(x, layer, encoder.eps)
        states.append(x)
    return states

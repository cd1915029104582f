"""The encoder's fast twin: many inputs at once, padded to a common length, the padding masked out.

:func:`~mtlearn.metrics.bertscore.encoder.encode` runs one sentence at a time, which is what a student reads.
Scoring a corpus runs thousands: :func:`encode_batch` stacks up to :data:`CHUNK` of them into one array,
so that numpy multiplies large matrices instead of many small ones. Inputs are sorted by length first
(similar lengths pad little), padded with ``[PAD]`` to the longest of their chunk, and every padded
position gets a large negative score before the softmax, so no real token attends to it: each input gets
the states :func:`encode` gives it (tests: within 1e-5), returned in the input order, without padding.

>>> from mtlearn.metrics.bertscore.encoder import encode, load_encoder  # doctest: +SKIP
>>> encoder = load_encoder()                                            # doctest: +SKIP
>>> batch = encode_batch([[101, 7592, 102], [101, 102]], encoder)       # doctest: +SKIP
>>> [states[6].shape for states in batch]                               # doctest: +SKIP
[(3, 384), (2, 384)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mtlearn.metrics.bertscore.encoder import Encoder, Layer, feed_forward, layer_norm, softmax

__all__ = ["CHUNK", "encode_batch"]

#: Inputs encoded together (more pads more and needs more memory: 32 inputs of 512 tokens, ~25 MB a layer).
CHUNK = 32
# Added to the attention score of a padded key: exp() of it, after the row's max is subtracted, is 0.
_MASKED = -1e9


def _check(id_lists: Sequence[Sequence[int]], encoder: Encoder) -> None:
    vocab_size = encoder.words.shape[0]
    for number, ids in enumerate(id_lists):
        if not 0 < len(ids) <= encoder.max_positions:
            raise ValueError(f"input {number} has {len(ids)} token ids; the encoder takes 1 to "
                             f"{encoder.max_positions} ([CLS] and [SEP] included)")
        if min(ids) < 0 or max(ids) >= vocab_size:
            raise ValueError(f"input {number} has a token id outside the vocabulary (0 to {vocab_size - 1})")


def _embed(ids: np.ndarray, encoder: Encoder) -> np.ndarray:
    x = encoder.words[ids] + encoder.positions[: ids.shape[1]] + encoder.token_types[0]
    return layer_norm(x, encoder.embedding_norm, encoder.eps)


def _heads(x: np.ndarray, weight_bias: tuple[np.ndarray, np.ndarray], heads: int) -> np.ndarray:
    # batch × tokens × 384 -> batch × heads × tokens × 32
    weight, bias = weight_bias
    batch, tokens, width = x.shape
    flat = x.reshape(-1, width) @ weight.T + bias  # one large matrix product, not one per input
    return flat.reshape(batch, tokens, heads, -1).transpose(0, 2, 1, 3)


def _attention_block(x: np.ndarray, mask: np.ndarray, layer: Layer, encoder: Encoder) -> np.ndarray:
    q, k, v = (_heads(x, pair, encoder.heads) for pair in (layer.query, layer.key, layer.value))
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(q.shape[-1]) + mask[:, None, None, :]
    mixed = (softmax(scores) @ v).transpose(0, 2, 1, 3).reshape(-1, x.shape[-1])
    weight, bias = layer.attention_out
    return layer_norm(x + (mixed @ weight.T + bias).reshape(x.shape), layer.attention_norm, encoder.eps)


def _encode_chunk(id_lists: list[Sequence[int]], encoder: Encoder) -> list[list[np.ndarray]]:
    lengths = [len(ids) for ids in id_lists]
    padded = np.full((len(id_lists), max(lengths)), encoder.vocab.get("[PAD]", 0), dtype=np.int64)
    for row, ids in enumerate(id_lists):
        padded[row, : len(ids)] = ids
    mask = np.where(np.arange(padded.shape[1]) < np.array(lengths)[:, None], 0.0, _MASKED).astype(np.float32)
    x = _embed(padded, encoder)
    states = [x]
    for layer in encoder.layers:
        x = _attention_block(x, mask, layer, encoder)
        x = feed_forward(x.reshape(-1, x.shape[-1]), layer, encoder.eps).reshape(x.shape)  # token by token
        states.append(x)
    return [[layer_states[row, :length].copy() for layer_states in states]
            for row, length in enumerate(lengths)]


def encode_batch(id_lists: Sequence[Sequence[int]], encoder: Encoder,
                 chunk: int = CHUNK) -> list[list[np.ndarray]]:
    """Every layer's token vectors for each input, as :func:`~mtlearn.metrics.bertscore.encoder.encode` gives.

    ``id_lists`` are ``[CLS] … [SEP]`` id lists of 1 to 512 ids; an empty or too long list, or an id outside
    the vocabulary, is a ValueError naming the input. Results come back in the order of ``id_lists``.
    """
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    _check(id_lists, encoder)
    order = sorted(range(len(id_lists)), key=lambda number: len(id_lists[number]))
    results: list[list[np.ndarray]] = [[] for _ in id_lists]
    for start in range(0, len(order), chunk):
        numbers = order[start:start + chunk]
        for number, states in zip(numbers, _encode_chunk([id_lists[n] for n in numbers], encoder)):
            results[number] = states
    return results

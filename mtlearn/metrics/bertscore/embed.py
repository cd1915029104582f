"""From a sentence to the vectors BERTScore compares: WordPiece tokens, ``[CLS]``/``[SEP]``, one layer's
states.

BERTScore (as the ``bert-score`` package does) strips the sentence, cuts it into WordPieces, wraps them in
``[CLS] … [SEP]`` and keeps the first 512 positions (the encoder has no more): a longer input is *truncated*,
and :attr:`Embedded.truncated` records how many WordPieces were dropped, so a result can say so. Splitting a
long text into windows would give vectors that saw a different context than the sentence; BERTScore compares
sentences, and a 500-WordPiece "sentence" is almost always a corpus passed by mistake.

>>> tokens_of("Hi!", {"[UNK]": 100, "[CLS]": 101, "[SEP]": 102, "hi": 1, "!": 2}, 512)
(('[CLS]', 'hi', '!', '[SEP]'), (101, 1, 2, 102), 0)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional

import numpy as np

from mtlearn.metrics.bertscore.encoder import Encoder, encode, load_encoder
from mtlearn.metrics.bertscore.fast import encode_batch
from mtlearn.metrics.bertscore.wordpiece import wordpiece

__all__ = ["Embedded", "embed", "embed_layers", "embed_many", "one_blas_thread", "tokens_of"]


@lru_cache(maxsize=1)
def _controller() -> Any:
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # the neural extra brings it; without it the encoder runs, only less predictably
        return None
    return ThreadpoolController()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the encoder's small matrix products on one BLAS thread.

    A sentence's matrices are tiny (tens of rows): two BLAS threads gain little on an idle machine and, on a
    busy one (a test run with one worker per core, a notebook beside a browser), spin against each other —
    measured 263 ms a sentence against 26 ms on one thread.
    """
    controller = _controller()
    if controller is None:
        yield
        return
    with controller.limit(limits=1, user_api="blas"):
        yield


@dataclass(frozen=True)
class Embedded:
    """A sentence as the encoder saw it: its tokens (with ``[CLS]``, ``[SEP]``), ids, and one layer's
    vectors."""

    text: str
    tokens: tuple[str, ...]
    ids: tuple[int, ...]
    layer: int
    vectors: np.ndarray
    truncated: int

    @property
    def words(self) -> tuple[str, ...]:
        """The WordPieces without ``[CLS]`` and ``[SEP]``."""
        return self.tokens[1:-1]


def tokens_of(text: str, vocab: Mapping[str, int],
              max_positions: int) -> tuple[tuple[str, ...], tuple[int, ...], int]:
    """``[CLS]`` + the WordPieces of ``text.strip()`` + ``[SEP]``, at most ``max_positions``; and how many
    were cut."""
    pieces = wordpiece(text.strip(), vocab)
    keep = max_positions - 2
    tokens = ("[CLS]", *pieces[:keep], "[SEP]")
    return tokens, tuple(vocab[t] for t in tokens), max(0, len(pieces) - keep)


def embed_layers(text: str,
                 encoder: Optional[Encoder] = None) -> tuple[tuple[str, ...], list[np.ndarray], int]:
    """The tokens of ``text``, every layer's vectors (0 = embeddings … 6), and how many WordPieces were
    cut."""
    encoder = encoder or load_encoder()
    tokens, ids, cut = tokens_of(text, encoder.vocab, encoder.max_positions)
    with one_blas_thread():
        return tokens, encode(list(ids), encoder), cut


def embed(text: str, layer: int, encoder: Optional[Encoder] = None) -> Embedded:
    """One layer's vectors for ``text`` (a row per token, ``[CLS]`` first, ``[SEP]`` last)."""
    encoder = encoder or load_encoder()
    tokens, ids, cut = tokens_of(text, encoder.vocab, encoder.max_positions)
    with one_blas_thread():
        states = encode(list(ids), encoder)
    return Embedded(text, tokens, ids, layer, states[layer], cut)


def embed_many(texts: Sequence[str], layer: int, encoder: Optional[Encoder] = None,
               block: int = 256) -> list[Embedded]:
    """:func:`embed` of each text, in order, run through the batched twin of the encoder
    (:func:`~mtlearn.metrics.bertscore.fast.encode_batch`, proven equal to :func:`encode` within 1e-5), a
    ``block`` of texts at a time, keeping only ``layer``'s vectors (every layer of a corpus would not fit)."""
    encoder = encoder or load_encoder()
    cut = [tokens_of(text, encoder.vocab, encoder.max_positions) for text in texts]
    out: list[Embedded] = []
    for start in range(0, len(texts), block):
        part = cut[start:start + block]
        with one_blas_thread():
            states = encode_batch([list(ids) for _, ids, _ in part], encoder)
        out += [Embedded(text, tokens, ids, layer, layers[layer], dropped)
                for text, (tokens, ids, dropped), layers in zip(texts[start:start + block], part, states)]
    return out

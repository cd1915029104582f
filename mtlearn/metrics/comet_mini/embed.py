"""From a sentence to COMET-mini's sentence vector: WordPiece tokens, the encoder's last layer, mean, length
1.

all-MiniLM-L6-v2 is a sentence-transformers model: its files say how it makes *one* vector of a sentence
(``modules.json``: Transformer → Pooling → Normalize; ``1_Pooling/config.json``: mean of the token vectors;
``sentence_bert_config.json``: at most 256 tokens). :func:`embed_sentence` follows them with mtlearn's own
encoder (:mod:`mtlearn.metrics.bertscore.encoder`): ``[CLS]`` + WordPieces + ``[SEP]``, cut at 256 positions
(the count of dropped WordPieces is kept), layer 6, :func:`~mtlearn.metrics.comet_mini.formulas.mean_pool`
over every position, then :func:`~mtlearn.metrics.comet_mini.formulas.normalize`.

The vocabulary is English (uncased BERT's): a Chinese sentence becomes one token per ideograph, most of them
``[UNK]`` — :attr:`SentenceVector.unknown` counts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

import numpy as np

from mtlearn.metrics.bertscore.embed import one_blas_thread, tokens_of
from mtlearn.metrics.bertscore.encoder import Encoder, encode, load_encoder
from mtlearn.metrics.comet_mini.formulas import mean_pool, normalize

__all__ = ["LAYER", "MAX_TOKENS", "SentenceVector", "embed_sentence", "embed_sentences"]

#: The layer sentence-transformers pools: the last of the six.
LAYER = 6
#: ``max_seq_length`` of the model's ``sentence_bert_config.json`` ([CLS] and [SEP] included).
MAX_TOKENS = 256


@dataclass(frozen=True)
class SentenceVector:
    """One sentence as COMET-mini sees it: its tokens, the mean-pooled vector's length before it is scaled to
    1 (``pooled_norm``), the unit vector, how many WordPieces were cut and how many tokens are ``[UNK]``."""

    text: str
    tokens: tuple[str, ...]
    pooled_norm: float
    vector: np.ndarray
    truncated: int
    unknown: int

    @property
    def words(self) -> tuple[str, ...]:
        """The WordPieces without ``[CLS]`` and ``[SEP]``."""
        return self.tokens[1:-1]


def embed_sentence(text: str, encoder: Optional[Encoder] = None) -> SentenceVector:
    """The sentence vector of ``text`` (see the module's docstring for each step)."""
    encoder = encoder or load_encoder()
    tokens, ids, cut = tokens_of(text, encoder.vocab, MAX_TOKENS)
    with one_blas_thread():
        pooled = mean_pool(encode(list(ids), encoder)[LAYER])
    return SentenceVector(text, tokens, float(np.linalg.norm(pooled)), normalize(pooled), cut,
                          sum(t == "[UNK]" for t in tokens))


def embed_sentences(texts: Sequence[str], encoder: Optional[Encoder] = None) -> list[SentenceVector]:
    """:func:`embed_sentence` of each text, in order; a text that occurs twice is encoded once."""
    encoder = encoder or load_encoder()
    done: dict[str, SentenceVector] = {}
    for text in texts:
        if text not in done:
            done[text] = embed_sentence(text, encoder)
    return [done[text] for text in texts]

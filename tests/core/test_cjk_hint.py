"""The CJK hints of mtlearn/core/tokenize.py: a Chinese or Japanese segment without spaces is one token
under the default tokenizers, so BLEU says little more than "no n-gram matches"; the result's notes
(``reason``) and the BLEU explorer suggest a tokenizer that splits it, and stay quiet where none is needed."""

from __future__ import annotations

import pytest

import mtlearn
from mtlearn.show.explorers import BleuExplorer

ZH_CAND, ZH_REF = "猫坐在垫子上", "猫坐在垫子上了"
JA_CAND, JA_REF = "猫がマットの上に座った", "猫はマットの上に座っていた"


@pytest.mark.parametrize("tokenize", ["whitespace", "13a", "intl", "none"])
def test_unsplit_chinese_suggests_zh_or_char(tokenize: str) -> None:
    r = mtlearn.bleu(ZH_CAND, [ZH_REF], tokenize=tokenize)
    assert len(r.candidate_tokens) == 1  # the whole sentence is one token: why the hint is needed
    assert 'tokenize="zh" or "char"' in r.reason and tokenize in r.reason


def test_japanese_suggests_mecab() -> None:
    r = mtlearn.bleu(JA_CAND, [JA_REF])
    assert 'tokenize="ja-mecab" or "char"' in r.reason


@pytest.mark.parametrize("tokenize", ["zh", "char"])
def test_no_hint_once_split(tokenize: str) -> None:
    r = mtlearn.bleu(ZH_CAND, [ZH_REF], tokenize=tokenize)
    assert r.score > 0 and "Chinese" not in (r.reason or "")


def test_no_hint_for_spaced_text_korean_or_pretokenised_characters() -> None:
    assert mtlearn.bleu("the cat sat on it", ["the cat sat on it"]).reason is None
    assert (mtlearn.bleu("고양이가 매트 위에 앉았다", ["고양이가 매트 위에 앉았다"], max_order=2).reason
            is None)
    assert "Chinese" not in (mtlearn.bleu(list(ZH_CAND), [list(ZH_REF)]).reason or "")


def test_pretokenised_unsplit_tokens_get_the_hint() -> None:
    assert "zh" in mtlearn.bleu([ZH_CAND], [[ZH_REF]]).reason


def test_corpus_counts_the_candidates_and_segments_keep_their_note() -> None:
    c = mtlearn.corpus_bleu([ZH_CAND, "the cat", JA_CAND], [[ZH_REF], ["the cat"], [JA_REF]])
    assert "2 of 3 candidates hold Chinese or Japanese text" in c.reason
    assert "Chinese" in c.segments[0].reason and "Chinese" not in (c.segments[1].reason or "")
    assert "Chinese" not in (mtlearn.corpus_bleu([ZH_CAND], [[ZH_REF]], tokenize="zh").reason or "")


def test_bleu_explorer_shows_the_hint() -> None:
    x = BleuExplorer(ZH_CAND, [ZH_REF])
    assert any('tokenize="zh"' in note for note in x.notes)
    x.set_inputs(tokenize="zh")
    assert not any("Chinese" in note for note in x.notes)

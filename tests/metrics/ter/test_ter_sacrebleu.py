"""Sentence TER equals sacreBLEU 2.6's ``sentence_ter`` / 100 on random inputs, for every option combination.

The inputs are drawn from a small vocabulary (so words repeat and shifts pay off) with
mixed case, punctuation, XML escapes, digits and CJK characters, so that each tokenizer
option changes the tokens.
"""

from __future__ import annotations

import itertools

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import mtlearn

OPTIONS = ("normalized", "no_punct", "asian_support", "case_sensitive")
COMBINATIONS = [dict(zip(OPTIONS, flags)) for flags in itertools.product((False, True), repeat=4)]

_VOCAB = ["the", "The", "cat", "Cat", "sat", "on", "mat", "a", ",", ".", "cat's", "3.5", "1,000", "-",
          "&quot;hi&quot;", "(x)", "猫", "坐在", "。", "、", "カタカナ", "ひらがな", "don't", "U.S."]
_sentence = st.lists(st.sampled_from(_VOCAB), max_size=18).map(" ".join)
_glued = st.lists(st.sampled_from(_VOCAB), max_size=6).map("".join)
_text = st.one_of(_sentence, _sentence, _glued)


@pytest.mark.parametrize("options", COMBINATIONS, ids=lambda o: "-".join(k for k, v in o.items() if v)
                         or "default")
@settings(max_examples=40, deadline=None)
@given(candidate=_text, references=st.lists(_text, min_size=1, max_size=3))
def test_sentence_ter_equals_sacrebleu(options, candidate, references):
    ours = mtlearn.ter(candidate, references, **options)
    theirs = sacrebleu.sentence_ter(candidate, references, **options)
    assert abs(ours.score - theirs.score / 100) <= 1e-12
    assert ours.num_edits == theirs.num_edits
    assert abs(ours.reference_length - theirs.ref_length) <= 1e-12


@settings(max_examples=60, deadline=None)
@given(candidate=st.lists(st.sampled_from("a b c d".split()), max_size=45).map(" ".join),
       reference=st.lists(st.sampled_from("a b c d".split()), max_size=45).map(" ".join))
def test_long_repetitive_sentences_equal_sacrebleu(candidate, reference):
    # Up to 45 words of four: the beam binds, several shift rounds, sometimes tercom's 1000-candidate limit.
    ours = mtlearn.ter(candidate, [reference])
    theirs = sacrebleu.sentence_ter(candidate, [reference])
    assert ours.num_edits == theirs.num_edits
    assert abs(ours.score - theirs.score / 100) <= 1e-12


# square corpora: read per segment, as meant
@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")
@settings(max_examples=30, deadline=None)
@given(candidates=st.lists(_sentence, min_size=1, max_size=5), data=st.data())
def test_corpus_ter_equals_sacrebleu(candidates, data):
    refs = [data.draw(st.lists(_sentence, min_size=2, max_size=2)) for _ in candidates]
    ours = mtlearn.corpus_ter(candidates, refs)
    theirs = sacrebleu.corpus_ter(candidates, [list(stream) for stream in zip(*refs)])
    assert abs(ours.score - theirs.score / 100) <= 1e-12

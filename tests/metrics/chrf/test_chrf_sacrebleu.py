"""Sentence chrF equals sacreBLEU's on random inputs (hypothesis), for every option.

The texts are drawn from a small alphabet so that characters and words repeat (the clipping
``min(count, count)`` matters), with ASCII punctuation at word edges (chrF++'s splitting rule),
non-ASCII letters whose case changes, several kinds of white space, and empty strings.
sacreBLEU's ``CHRF`` class is the oracle: ``sentence_score`` with the same options, / 100.
"""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF

import mtlearn
from mtlearn.metrics.chrf.score import corpus_chrf

TOLERANCE = 1e-12

ALPHABET = "aabbcAB.,!?()'\"-ÄäßİI  \t\u00a0"
words = st.text(alphabet="abcAB.,!()'-Ää", min_size=1, max_size=5)
sentences = st.one_of(
    st.text(alphabet=ALPHABET, max_size=40),
    st.lists(words, max_size=10).map(" ".join),
)
options = st.fixed_dictionaries({
    "char_order": st.integers(0, 7),
    "word_order": st.sampled_from([0, 0, 1, 2, 2, 3]),
    "beta": st.sampled_from([1, 2, 2, 3, 0.5]),
    "lowercase": st.booleans(),
    "whitespace": st.booleans(),
    "eps_smoothing": st.booleans(),
})


@lru_cache(maxsize=None)
def _sacrebleu(char_order: int, word_order: int, beta: float, lowercase: bool, whitespace: bool,
               eps_smoothing: bool) -> CHRF:
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                whitespace=whitespace, eps_smoothing=eps_smoothing)


def _valid(opts: dict) -> bool:
    return opts["char_order"] + opts["word_order"] > 0


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate=sentences, references=st.lists(sentences, min_size=1, max_size=4), opts=options)
def test_sentence_chrf_equals_sacrebleu(candidate: str, references: list[str], opts: dict) -> None:
    if not _valid(opts):
        return
    theirs = _sacrebleu(**opts).sentence_score(candidate, references).score / 100
    ours = mtlearn.chrf(candidate, references, **opts)
    assert abs(ours.score - theirs) <= TOLERANCE, (ours.score, theirs)
    assert 0.0 <= ours.score <= 1.0


@settings(max_examples=300, deadline=None)
@given(
    candidate=st.lists(st.sampled_from(["the", "cat", "cat.", "(the", "sat,", "a", "aa", "!"]),
                       max_size=12).map(" ".join),
    references=st.lists(
        st.lists(st.sampled_from(["the", "cat", "cat.", "the)", "sat", "a", "aa", "?"]),
                 max_size=12).map(" ".join),
        min_size=1, max_size=3),
    word_order=st.sampled_from([0, 2]),
    eps_smoothing=st.booleans(),
)
def test_repeated_words_and_punctuation_chrf_plus_plus(candidate: str, references: list[str], word_order: int,
                                                      eps_smoothing: bool) -> None:
    metric = _sacrebleu(6, word_order, 2, False, False, eps_smoothing)
    theirs = metric.sentence_score(candidate, references).score / 100
    ours = mtlearn.chrf(candidate, references, word_order=word_order, eps_smoothing=eps_smoothing)
    assert abs(ours.score - theirs) <= TOLERANCE


# square corpora: read per segment, as meant
@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")
@settings(max_examples=150, deadline=None)
@given(
    corpus=st.lists(st.tuples(sentences, st.lists(sentences, min_size=2, max_size=2)), min_size=1,
                    max_size=6),
    opts=options,
)
def test_corpus_chrf_equals_sacrebleu_on_random_corpora(corpus: list, opts: dict) -> None:
    # Two references per segment, as streams for sacreBLEU; ties between them are common here.
    if not _valid(opts):
        return
    hyps = [c for c, _ in corpus]
    refs = [list(rs) for _, rs in corpus]
    theirs = _sacrebleu(**opts).corpus_score(hyps, [list(s) for s in zip(*refs)]).score / 100
    assert abs(corpus_chrf(hyps, refs, **opts).score - theirs) <= TOLERANCE
    # reference_ties="last" is sacreBLEU with the references in reverse order.
    reversed_theirs = _sacrebleu(**opts).corpus_score(hyps, [list(s) for s in zip(*refs)][::-1]).score / 100
    assert abs(corpus_chrf(hyps, refs, reference_ties="last", **opts).score - reversed_theirs) <= TOLERANCE

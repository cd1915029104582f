"""What TER, WER and CER count (mtlearn/metrics/ter/tokens.py): tercom's words or characters, token lists as
given, and anything else refused with a message that names it."""

from __future__ import annotations

import pytest

from mtlearn.metrics.ter.options import TerOptions, WerOptions
from mtlearn.metrics.ter.score import corpus_ter, corpus_wer, ter
from mtlearn.metrics.ter.tokens import reference_tokens, segment_tokens, tokenizer


def test_lowercased_by_default_and_case_sensitive_option():
    assert ter("The Cat", ["the cat"]).num_edits == 0
    assert ter("The Cat", ["the cat"], case_sensitive=True).num_edits == 2


def test_tercom_options():
    assert ter("Hello, world!", ["hello world"], no_punct=True).num_edits == 0
    assert ter("hello,world", ["hello , world"], normalized=True).num_edits == 0
    assert ter("猫坐在垫子上", ["猫 坐 在 垫 子 上"], normalized=True, asian_support=True).num_edits == 0


def test_token_lists_are_used_as_given():
    assert ter(["A", "b"], [["a", "b"]]).num_edits == 0
    assert ter(["A", "b"], [["a", "b"]], case_sensitive=True).num_edits == 1


def test_references_are_tokenised_twice_for_ter_as_sacrebleu_does():
    options = TerOptions(normalized=True)
    assert tokenizer("ter", options)("the cat's,") == ("the", "cat's", ",")
    assert tokenizer("ter", options, reference=True)("the cat's,") == ("the", "cat", "'s", ",")
    assert tokenizer("wer", options, reference=True)("the cat's,") == ("the", "cat's", ",")


def test_characters_for_cer():
    assert tokenizer("cer", WerOptions())(" A b ") == ("A", " ", "b")
    assert tokenizer("cer", WerOptions(case_sensitive=False))(" A b ") == ("a", " ", "b")
    assert tokenizer("cer", WerOptions(no_punct=True))("a, b") == ("a", " ", "b")


@pytest.mark.parametrize("call, message", [
    (lambda: ter(3, ["a"]), "^candidate: expected a string or a list"),
    (lambda: ter("a", 3), "^references: expected a list of references"),
    (lambda: ter("a", [None]), r"^references\[0\]: expected a string"),
    (lambda: ter(["a", 1], ["a"]), "^candidate: token 1 is int"),
    (lambda: corpus_ter(["a"], [[3]]), r"^references\[0\]\[0\]: expected a string"),
    (lambda: ter("a", []), "^references: no references given"),
    (lambda: ter(b"a b", ["a"]), "^candidate: got bytes, not text; decode it first"),
    (lambda: ter("a b", [b"a"]), r"^references\[0\]: got bytes, not text"),
    (lambda: ter("a b", b"a"), "^references: got bytes, not text"),
    (lambda: corpus_wer(["a"], [[b"a"]]), r"^references\[0\]\[0\]: got bytes, not text"),
])
def test_wrong_types(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def test_the_helpers_name_what_they_refuse():
    tok = tokenizer("ter", TerOptions())
    with pytest.raises(TypeError, match=r"^hyp\[2\]: expected a string or a list of string tokens, got int"):
        segment_tokens(7, "hyp[2]", tok, TerOptions())
    with pytest.raises(ValueError, match=r"^refs: no references given"):
        reference_tokens((), "refs", tok, TerOptions())
    assert reference_tokens("The cat", "refs", tok, TerOptions()) == [("the", "cat")]

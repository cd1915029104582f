"""ImplementationExplorer, headless: the numbers it renders are compare_implementations' own.

Each rendered number is read from the HTML (``data-name``/``data-value``/``data-exact``)
and compared with :func:`mtlearn.compare_implementations` called directly; the walk's
exact contributions must add up to the difference the library reports.
"""

from __future__ import annotations

from fractions import Fraction
from html.parser import HTMLParser

import pytest

import mtlearn
from mtlearn.metrics.bleu.profiles import PROFILES as BLEU_PROFILES
from mtlearn.metrics.meteor.profiles import PROFILES as METEOR_PROFILES
from mtlearn.metrics.meteor.wordnet import wordnet_available
from mtlearn.show.explorers import ImplementationExplorer

CANDIDATE = "the cat sat on the mat"
REFERENCES = ["the cat sat on a mat", "a cat sat"]


class _Spans(HTMLParser):
    """Every data-name span as (name, value, exact), in order, and the steps' names."""

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[tuple[str, str, str | None]] = []
        self.steps: list[str] = []
        self.first: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-name" in a and a["data-name"] == "first-divergence":
            self.first = a["data-value"]
        elif "data-name" in a:
            self.spans.append((a["data-name"], a["data-value"], a.get("data-exact")))
        if tag == "tr" and a.get("class") == "mtlearn-step":
            self.steps.append(a["data-step"])


def read(x: ImplementationExplorer) -> _Spans:
    parser = _Spans()
    for box in (x.score_html, x.summary_html, x.walk_html):
        parser.feed(box.value)
    return parser


def exact(value: str, exact_text: str | None) -> Fraction:
    return Fraction(exact_text) if exact_text is not None else Fraction(value)


@pytest.mark.parametrize(("a", "b"), [("sacrebleu-sentence", "nltk-sentence"),
                                      ("hf-evaluate-smooth", "d2l-en"),
                                      ("tensor2tensor", "keras-nlp-smooth")])
def test_the_walk_is_the_librarys_and_adds_up(a, b):
    x = ImplementationExplorer(CANDIDATE, REFERENCES, profile_a=a, profile_b=b)
    assert x.error is None
    expected = mtlearn.compare_implementations(CANDIDATE, REFERENCES, profiles=[a, b])
    d = expected.divergence(a, b)
    got = read(x)
    values = {name: (v, e) for name, v, e in got.spans
              if name in ("score-a", "score-b", "difference", "total")}
    assert float(values["score-a"][0]) == float(expected.profile(a).score)
    assert float(values["score-b"][0]) == float(expected.profile(b).score)
    assert got.steps == [s.step for s in d.steps]
    contributions = [exact(v, e) for name, v, e in got.spans if name == "contribution"]
    assert len(contributions) == len(d.steps)
    assert sum(contributions) == exact(*values["total"]) == d.difference == exact(*values["difference"])
    assert got.first == (d.first_divergence or "")


def test_two_profiles_that_agree_say_so():
    # A perfect match: NLTK's corpus_bleu and HF evaluate move no number at any step.
    x = ImplementationExplorer("A B C D", ["A B C D"], profile_a="nltk-corpus", profile_b="hf-evaluate")
    assert x.divergence.difference == 0 and x.divergence.first_divergence is None
    assert "nowhere: they agree on these inputs" in x.summary_html.value and read(x).first == ""
    x.candidate_input.value = "A B C"  # any edit recomputes the walk
    fresh = mtlearn.compare_implementations("A B C", ["A B C D"], profiles=["nltk-corpus", "hf-evaluate"])
    assert x.divergence.difference == fresh.divergence("nltk-corpus", "hf-evaluate").difference


def test_a_shared_tokenizer_takes_tokenisation_out():
    x = ImplementationExplorer("the cat, sat.", ["the cat , sat ."], profile_a="nltk-sentence",
                               profile_b="sacrebleu-sentence")
    before = x.divergence.step("tokenisation").contribution
    x.tokenize_input.value = "13a"
    assert x.divergence.step("tokenisation").contribution == 0 != before
    x.set_inputs(tokenize=None)
    assert (x.tokenize_input.value == "each library's own"
            and x.divergence.step("tokenisation").contribution == before)


@pytest.mark.skipif(not wordnet_available(), reason="METEOR's synonym stage needs WordNet (mtlearn wordnet)")
def test_choosing_meteor_offers_its_profiles():
    x = ImplementationExplorer(CANDIDATE, REFERENCES)
    assert list(x.profile_a_input.options) == list(BLEU_PROFILES)
    x.metric_input.value = "meteor"
    assert list(x.profile_b_input.options) == list(METEOR_PROFILES)
    assert (x.profile_a_input.value, x.profile_b_input.value) == ("banerjee-lavie-2005", "nltk")
    expected = mtlearn.compare_implementations(CANDIDATE, REFERENCES, "meteor",
                                               profiles=["banerjee-lavie-2005", "nltk"])
    assert x.divergence.difference == expected.divergence("banerjee-lavie-2005", "nltk").difference
    assert x.result.metric == "meteor" and x.error is None


@pytest.mark.parametrize(("change", "message"), [
    ({"references": ""}, "references: give at least one reference, one per line"),
    ({"profile_b": "sacrebleu-sentence"}, "profile_b: 'sacrebleu-sentence' is profile_a too"),
])
def test_unusable_inputs_show_a_message_not_a_traceback(change, message):
    x = ImplementationExplorer(CANDIDATE, REFERENCES)
    x.set_inputs(**change)
    assert x.result is None and x.error.startswith(message)
    assert "mtlearn-error" in x.message_html.value and x.walk_html.value == ""
    x.set_inputs(references="\n".join(REFERENCES), profile_b="nltk-sentence")
    assert x.error is None and x.result is not None


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"profile_a": "nltk"}, ValueError, "profile_a: unknown value 'nltk'"),
    ({"metric": "ter"}, ValueError, "metric: unknown value 'ter'"),
    ({"tokenize": "moses"}, ValueError, "tokenize: unknown value 'moses'"),
    ({"candidate": 3}, TypeError, "candidate: expected a string, got int"),
])
def test_bad_arguments_are_named(kwargs, error, message):
    args = {"candidate": CANDIDATE, "references": REFERENCES, **kwargs}
    with pytest.raises(error, match=message):
        ImplementationExplorer(**args)


def test_set_inputs_refuses_an_unknown_control():
    with pytest.raises(TypeError, match="^weights: not an input of ImplementationExplorer"):
        ImplementationExplorer(CANDIDATE, REFERENCES).set_inputs(weights=[1])

"""wer(), cer(), corpus_wer(), corpus_cer(): parity with jiwer, hostile inputs (their fast exact Levenshtein
equal to the plain table: test_ter_fast_equals_formulas.py).

jiwer (a test extra) is the reference implementation of WER and CER. Its definitions (jiwer 3 and 4,
``jiwer.process_words``): the reference comes first; with its default transforms a text becomes words
by collapsing runs of two or more white-space characters to one space, stripping, and splitting on
``" "`` (so a single tab or newline stays *inside* a word), or characters by stripping only (spaces
count, runs of spaces are kept); the error rate is ``(S + D + I) / (H + S + D)`` summed over all
sentences, that is the summed edits over the summed reference lengths. mtlearn's ``wer`` splits
tercom-tokenised text on any white space, and its ``cer`` takes the characters of the stripped
text. To compare like with like the random texts below separate their words by spaces only (any
number of them, leading and trailing too): there both split the same words. CER compares any text.

jiwer names an edit from the reference's side: its *deletion* is a reference word missing from
the hypothesis, which mtlearn (candidate -> reference, tercom's convention) calls an ``insert``;
its *insertion* is mtlearn's ``delete``.

Where jiwer and mtlearn are defined differently: a reference length of 0 (jiwer's WER is then
the number of insertions, mtlearn follows sacreBLEU: 1 if there are edits), so the parity tests
keep at least one reference word; and several references (jiwer takes one).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtlearn

jiwer = pytest.importorskip("jiwer", reason="jiwer is in the test extra: pip install -e .[test]")

MTLEARN = Path(sys.executable).parent / "mtlearn"

# --------------------------------------------------------------------------------------
# Parity with jiwer
# --------------------------------------------------------------------------------------

_word = st.sampled_from("the cat sat on a mat dog The Cat x y".split())
_spaces = st.text(alphabet=" ", min_size=1, max_size=3)


@st.composite
def _sentence(draw, min_words=0):
    """Words separated by one or more spaces, sometimes with leading/trailing spaces."""
    words = draw(st.lists(_word, min_size=min_words, max_size=12))
    gaps = [draw(_spaces) for _ in words]
    text = "".join(g + w for g, w in zip(gaps, words))
    return text + draw(st.sampled_from(["", " ", "  "]))


@settings(max_examples=200, deadline=None)
@given(_sentence(), _sentence(min_words=1))
def test_sentence_wer_equals_jiwer(hyp, ref):
    assert mtlearn.wer(hyp, [ref]).score == jiwer.wer(ref, hyp)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_sentence(), _sentence()), min_size=1, max_size=6), _sentence(min_words=1))
def test_corpus_wer_equals_jiwer(pairs, last_ref):
    # jiwer sums the edits over all sentences and divides by all reference words; some references
    # may be empty as long as the total is not 0 (``last_ref`` has a word).
    hyps = [h for h, _ in pairs] + [""]
    refs = [r for _, r in pairs] + [last_ref]
    r = mtlearn.corpus_wer(hyps, [[x] for x in refs])
    assert r.score == jiwer.wer(refs, hyps)
    assert r.num_edits == sum(mtlearn.wer(h, [x]).num_edits for h, x in zip(hyps, refs))


_chars = st.text(alphabet=st.sampled_from("abcAB \t.é"), max_size=30)


@settings(max_examples=200, deadline=None)
@given(_chars, _chars.filter(lambda s: s.strip()))
def test_sentence_cer_equals_jiwer(hyp, ref):
    assert mtlearn.cer(hyp, [ref]).score == jiwer.cer(ref, hyp)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_chars, _chars), min_size=1, max_size=6),
       _chars.filter(lambda s: s.strip()))
def test_corpus_cer_equals_jiwer(pairs, last_ref):
    hyps = [h for h, _ in pairs] + ["x"]
    refs = [r for _, r in pairs] + [last_ref]
    assert mtlearn.corpus_cer(hyps, [[x] for x in refs]).score == jiwer.cer(refs, hyps)


def _jiwer_counts(output) -> dict[str, int]:
    """jiwer's counts in mtlearn's names (its deletion is a reference word the candidate lacks: an insert)."""
    return {"insert": output.deletions, "delete": output.insertions, "substitute": output.substitutions,
            "match": output.hits}


def _check_counts_well_defined(mine: dict[str, int], theirs: dict[str, int], ref_len: int,
                               hyp_len: int) -> None:
    # Every optimal script has the same total (the distance) and the same insert - delete
    # (= reference length - candidate length: match + substitute + insert covers the reference,
    # match + substitute + delete the candidate). The single counts are not unique when scripts
    # tie: "a b" -> "b a" is two substitutions or a deletion, a match and an insertion (jiwer,
    # via rapidfuzz, and tercom's preference may pick either), so they are not compared here.
    for c in (mine, theirs):
        assert c["match"] + c["substitute"] + c["insert"] == ref_len
        assert c["match"] + c["substitute"] + c["delete"] == hyp_len
    total = ("insert", "delete", "substitute")
    assert sum(mine[k] for k in total) == sum(theirs[k] for k in total)
    assert mine["insert"] - mine["delete"] == theirs["insert"] - theirs["delete"]


@settings(max_examples=200, deadline=None)
@given(_sentence(), _sentence(min_words=1))
def test_word_counts_agree_with_jiwer_where_defined(hyp, ref):
    r = mtlearn.wer(hyp, [ref])
    mine = r.counts()
    _check_counts_well_defined(mine, _jiwer_counts(jiwer.process_words(ref, hyp)), len(ref.split()),
                               len(hyp.split()))


@settings(max_examples=200, deadline=None)
@given(_chars, _chars.filter(lambda s: s.strip()))
def test_character_counts_agree_with_jiwer_where_defined(hyp, ref):
    mine = mtlearn.cer(hyp, [ref]).counts()
    _check_counts_well_defined(mine, _jiwer_counts(jiwer.process_characters(ref, hyp)),
                               len(ref.strip()), len(hyp.strip()))


@st.composite
def _edited(draw):
    """A reference and a candidate made from it by replacing some words with words the reference does not
    have and either deleting some reference words or inserting new words (not both).

    Then every optimal script has the same counts: at most the untouched words can match, and each
    other reference word costs at least one edit, so the construction (substitute the replaced words,
    insert the deleted ones or delete the new ones) is the only way to reach the distance.
    """
    ref = draw(st.lists(st.sampled_from("a b c d".split()), min_size=1, max_size=15))
    kind = draw(st.lists(st.sampled_from(["keep", "replace", "drop" if draw(st.booleans()) else "add"]),
                         min_size=len(ref), max_size=len(ref)))
    cand, expected, fresh = [], {"insert": 0, "delete": 0, "substitute": 0, "match": 0}, iter(range(10**6))
    for word, k in zip(ref, kind):
        if k == "keep":
            cand.append(word)
            expected["match"] += 1
        elif k == "replace":
            cand.append(f"new{next(fresh)}")
            expected["substitute"] += 1
        elif k == "drop":
            expected["insert"] += 1  # the candidate lacks this reference word
        else:
            cand.extend([word, f"new{next(fresh)}"])
            expected["match"] += 1
            expected["delete"] += 1
    return " ".join(cand), " ".join(ref), expected


@settings(max_examples=200, deadline=None)
@given(_edited())
def test_word_counts_equal_jiwer_where_the_optimum_is_unique(case):
    hyp, ref, expected = case
    assert mtlearn.wer(hyp, [ref]).counts() == {"shift": 0, **expected}
    assert _jiwer_counts(jiwer.process_words(ref, hyp)) == expected


def test_the_naming_of_insertions_and_deletions():
    # jiwer: "a b c" (reference) -> "a c" (hypothesis) has one deletion; mtlearn: one insert of "b".
    assert jiwer.process_words("a b c", "a c").deletions == 1
    r = mtlearn.wer("a c", ["a b c"])
    assert [(e.op, e.reference_word) for e in r.edits if e.op != "match"] == [("insert", "b")]


def test_empty_reference_differs_from_jiwer_by_definition():
    # jiwer returns the number of insertions when the reference has no word; mtlearn keeps
    # sacreBLEU's rule (1 if there are edits, with the reason recorded).
    assert jiwer.wer("", "a b") == 2
    r = mtlearn.wer("a b", [""])
    assert r.score == 1.0 and r.num_edits == 2 and "reference length is 0" in r.reason


# --------------------------------------------------------------------------------------
# Hostile inputs: exact, and in seconds (generous bounds; the plain table took minutes)
# --------------------------------------------------------------------------------------

N = 10_000
BOUND = 30  # seconds; measured well under one second on the development machine


def _elapsed(fn, *args):
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


def _no_overlap() -> tuple[str, str]:
    return " ".join(f"a{i}" for i in range(N)), " ".join(f"b{i}" for i in range(N))


def test_wer_10000_tokens_no_overlap():
    hyp, ref = _no_overlap()
    (r, seconds) = _elapsed(lambda: mtlearn.wer(hyp, [ref]))
    assert (r.score, r.num_edits, r.counts()["substitute"], len(r.edits)) == (1.0, N, N, N)
    assert seconds < BOUND
    (c, seconds) = _elapsed(lambda: mtlearn.corpus_wer([hyp, "a b"], [[ref], ["a b"]]))
    assert (c.num_edits, c.reference_length) == (N, N + 2)
    assert seconds < BOUND


@pytest.mark.parametrize("ref_words", [["the"] * N, ["the"] * (N // 2), ["a"] * N, ["the"] * (N // 2)
                                       + ["a"]])
def test_wer_10000_tokens_one_repeated_word(ref_words):
    hyp = " ".join(["the"] * N)
    (r, seconds) = _elapsed(lambda: mtlearn.wer(hyp, [" ".join(ref_words)]))
    assert seconds < BOUND
    # Independently of any table: N times "the" against k "the" and other words.
    # At most min(N, k) words match, and every script costs at least max(N, len) - matches (the
    # unmatched words of the longer side each need an edit); substituting pairwise reaches it.
    expected = max(N, len(ref_words)) - min(N, ref_words.count("the"))
    assert r.num_edits == expected
    assert r.num_edits == mtlearn.corpus_wer([hyp], [[" ".join(ref_words)]]).num_edits


def test_cer_10000_characters():
    hyp, ref = "x" * N, "y" * N
    (r, seconds) = _elapsed(lambda: mtlearn.cer(hyp, [ref]))
    assert (r.score, r.num_edits, len(r.edits)) == (1.0, N, N)
    assert seconds < BOUND
    # A realistic pair of long lines: one character in ten changed, checked against jiwer.
    line = ("the cat sat on the mat and " * (N // 27 + 1))[:N]
    edited = "".join("#" if i % 10 == 3 else ch for i, ch in enumerate(line))
    (r, seconds) = _elapsed(lambda: mtlearn.cer(edited, [line]))
    assert seconds < BOUND
    assert r.score == jiwer.cer(line, edited)
    (c, seconds) = _elapsed(lambda: mtlearn.corpus_cer([hyp, edited], [[ref], [line]]))
    assert seconds < BOUND
    assert c.score == jiwer.cer([ref, line], [hyp, edited])


def test_mtlearn_wer_cli_10000_tokens_no_overlap(tmp_path):
    hyp, ref = _no_overlap()
    (tmp_path / "hyp.txt").write_text(hyp + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text(ref + "\n", encoding="utf-8")
    for extra, expected in (([], "WER = 100.00 (edits = 10000 "),
                            (["--segment", "1", "--explain"], "10000 / 10000 = 1.0000")):
        start = time.perf_counter()
        done = subprocess.run([str(MTLEARN), "wer", "-r", "ref.txt", "-i", "hyp.txt", *extra], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        seconds = time.perf_counter() - start
        assert done.returncode == 0, done.stderr
        assert expected in done.stdout
        assert seconds < BOUND

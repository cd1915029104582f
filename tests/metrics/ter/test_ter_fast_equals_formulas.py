"""Every fast twin in mtlearn/metrics/ter/fast.py (and stats.py's corpus sum) equals the formula it names.

- ``fast_shift_search`` / ``ter_edits`` = ``shifts.shift_search`` (TER's search; ``ter`` / ``corpus_ter`` run
them);
- ``exact_levenshtein`` / ``exact_distance`` = ``edit_distance.levenshtein(beam=False)`` (WER's and CER's);
- ``ter_scores`` (a paired test's resamples, numpy) = ``formulas.ter_fraction``, correctly rounded;
- ``stats.corpus_stats`` = the ``sum`` of the segments' ``TerStats``.

On random inputs (hypothesis), on edge cases, and on the WMT22 de-en sample of tests/tiers.py (every system,
references A and B, tokenised as TER tokenises them).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import tiers
from hypothesis import given, settings
from hypothesis import strategies as st

import mtlearn
from mtlearn.metrics.ter.edit_distance import levenshtein
from mtlearn.metrics.ter.fast import (
    exact_distance,
    exact_levenshtein,
    fast_shift_search,
    ter_edits,
    ter_scores,
)
from mtlearn.metrics.ter.formulas import ter_fraction, ter_score
from mtlearn.metrics.ter.options import TerOptions
from mtlearn.metrics.ter.shifts import MAX_SHIFT_CANDIDATES, shift_search
from mtlearn.metrics.ter.stats import TerStats, corpus_stats
from mtlearn.metrics.ter.tokens import tokenizer
from mtlearn.study.significance import resampling_scorer

# --------------------------------------------------------------------------------------
# TER's shift search
# --------------------------------------------------------------------------------------

_words = st.lists(st.sampled_from("a b c d e".split()), max_size=30)


@settings(max_examples=300, deadline=None)
@given(_words, _words)
def test_fast_search_equals_plain_search(cand, ref):
    plain = shift_search(cand, ref)
    assert fast_shift_search(cand, ref) == plain
    assert ter_edits(cand, ref) == plain.edits


@settings(max_examples=8, deadline=None)
@given(st.lists(st.sampled_from("a b c".split()), min_size=30, max_size=60),
       st.lists(st.sampled_from("a b c".split()), min_size=30, max_size=60))
def test_fast_equals_plain_on_long_repetitive_pairs(cand, ref):
    # Long sentences of three words: the beam binds and the candidate limit is often reached.
    plain = shift_search(cand, ref)
    assert fast_shift_search(cand, ref) == plain


def test_the_candidate_limit_is_reached_and_reported():
    cand = ("a b c " * 20).split()
    ref = ("c b a " * 20).split()
    plain = shift_search(cand, ref)
    assert plain.tried >= MAX_SHIFT_CANDIDATES and "not applied" in plain.stopped
    assert fast_shift_search(cand, ref) == plain


EDGE_PAIRS = [
    ((), ()), ((), ("a",)), (("a",), ()), (("a", "b"), ()), (("a",), ("a",)), (("a",), ("b",)),
    (("b", "a"), ("a", "b")), (("a",) * 12, ("a",) * 3), (("x",) * 3, ("a", "b", "c")),
    (tuple("the cat sat on the mat".split()), tuple("on the mat the cat sat".split())),
]


@pytest.mark.parametrize("cand, ref", EDGE_PAIRS)
def test_fast_twins_equal_the_formulas_on_edge_cases(cand, ref):
    plain = shift_search(cand, ref)
    assert fast_shift_search(cand, ref) == plain and ter_edits(cand, ref) == plain.edits
    exact = levenshtein(cand, ref, beam=False)
    assert exact_levenshtein(cand, ref) == exact and exact_distance(cand, ref) == exact.distance


# --------------------------------------------------------------------------------------
# WER's and CER's exact Levenshtein distance
# --------------------------------------------------------------------------------------

# Few distinct words: many ties between scripts of the same cost, where tercom's preference decides.
_few = st.lists(st.sampled_from("a b c".split()), max_size=40)
_more = st.lists(st.sampled_from("a b c d e f g".split()), max_size=40)


@settings(max_examples=400, deadline=None)
@given(_few, _few)
def test_exact_levenshtein_equals_the_plain_table_with_ties(cand, ref):
    plain = levenshtein(cand, ref, beam=False)
    assert exact_levenshtein(cand, ref) == plain
    assert exact_distance(cand, ref) == plain.distance


@settings(max_examples=200, deadline=None)
@given(_more, _more)
def test_exact_levenshtein_equals_the_plain_table(cand, ref):
    plain = levenshtein(cand, ref, beam=False)
    assert exact_levenshtein(cand, ref) == plain
    assert exact_distance(cand, ref) == plain.distance


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from("ab"), min_size=60, max_size=150),
       st.lists(st.sampled_from("ab"), min_size=60, max_size=150))
def test_exact_levenshtein_equals_the_plain_table_on_long_pairs(cand, ref):
    # Long enough that the trace crosses several recomputed blocks of rows (isqrt(n) rows each).
    assert exact_levenshtein(cand, ref) == levenshtein(cand, ref, beam=False)


def test_wer_and_cer_report_the_plain_tables_script():
    cand, ref = "a b a c b a".split(), "b a c a b".split()
    r = mtlearn.wer(" ".join(cand), [" ".join(ref)])
    assert [e.op for e in r.edits] == list(levenshtein(cand, ref, beam=False).ops)
    r = mtlearn.cer("abacba", ["bacab"])
    assert [e.op for e in r.edits] == list(levenshtein(list("abacba"), list("bacab"), beam=False).ops)


# --------------------------------------------------------------------------------------
# Scores of many summed statistics (a paired test's resamples)
# --------------------------------------------------------------------------------------

_count = st.integers(min_value=0, max_value=2**53 - 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_count, st.one_of(st.just(0), _count)), min_size=1, max_size=20))
def test_ter_scores_equal_the_exact_fraction_correctly_rounded(rows):
    got = ter_scores(np.array(rows, dtype=np.int64)).tolist()
    assert got == [float(ter_fraction(e, Fraction(n))) for e, n in rows]
    # With whole lengths sacreBLEU's float division is the same number.
    assert got == [ter_score(e, Fraction(n)) for e, n in rows]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 500), st.integers(0, 500), st.integers(1, 4)), min_size=1,
                max_size=30))
def test_significance_scores_scaled_statistics_as_the_formula(segments):
    # paired_test's rows: edits and average lengths times the least common multiple of the numbers of
    # references; the scorer it uses is ter_scores, and the score of summed rows is the exact fraction's.
    stats = [TerStats(e, Fraction(n, k)) for e, n, k in segments]
    total = sum(stats, TerStats(0, Fraction(0)))
    scale = int(np.lcm.reduce([s.ref_length.denominator for s in stats]))
    rows = np.array([[s.edits * scale, int(s.ref_length * scale)] for s in stats], dtype=np.int64)
    assert resampling_scorer("ter") is ter_scores
    exact = float(ter_fraction(total.edits, total.ref_length))
    assert ter_scores(rows.sum(axis=0)[None, :]).tolist() == [exact]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(1, 6)), max_size=40))
def test_corpus_stats_is_the_sum_of_the_segments(segments):
    edits, lengths, nrefs = (list(column) for column in zip(*segments)) if segments else ([], [], [])
    plain = sum((TerStats(e, Fraction(n, k)) for e, n, k in segments), TerStats(0, Fraction(0)))
    assert corpus_stats(edits, lengths, nrefs) == plain


# --------------------------------------------------------------------------------------
# WMT22 de-en, the sample of tests/tiers.py
# --------------------------------------------------------------------------------------


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


@pytest.mark.wmt22
@pytest.mark.parametrize("label", ["A", "B"])
def test_fast_twins_equal_the_formulas_on_wmt22(wmt22, label):
    # The sample in both tiers: the plain search is the slow side (the full tier's sweep,
    # test_ter_wmt22.py, checks every segment of corpus_ter against sacreBLEU).
    ref = _lines(wmt22 / "references" / f"generaltest2022.de-en.ref.{label}.en")
    systems = sorted((wmt22 / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))
    assert len(systems) == 9
    words, ref_words = tokenizer("ter", TerOptions()), tokenizer("ter", TerOptions(), reference=True)
    checked = 0
    for path in systems:
        hyp = _lines(path)
        for i in tiers.sample_lines(len(ref), full=False):
            cand, reference = words(hyp[i]), ref_words(ref[i])
            plain = shift_search(cand, reference)
            assert fast_shift_search(cand, reference) == plain, (path.name, i)
            assert ter_edits(cand, reference) == plain.edits, (path.name, i)
            exact = levenshtein(cand, reference, beam=False)
            assert exact_levenshtein(cand, reference) == exact, (path.name, i)
            checked += 1
    assert checked == 9 * len(tiers.sample_lines(len(ref), full=False))

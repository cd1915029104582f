"""Each fast twin in fast.py equals the formula it stands for (formulas.py): random texts, WMT22, edge cases.

"The code notebooks show is the code that runs" holds by proof: corpus_chrf counts with text_profile and
profile_row, chrf() with segment_counts, and a paired test scores resamples with resampling_scorer
(averaged_f_many) where chrf_from_stats would use averaged_f and eps_smoothed_f.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import tiers
from hypothesis import given, settings
from hypothesis import strategies as st

from mtlearn.metrics.chrf import formulas as F
from mtlearn.metrics.chrf.fast import (
    NgramCutter,
    averaged_f_many,
    fast_segment_counts,
    profile_row,
    resampling_scorer,
    text_profile,
)
from mtlearn.metrics.chrf.score import chrf, chrf_from_stats, corpus_chrf
from mtlearn.metrics.chrf.stats import ChrfStats
from mtlearn.study.significance import resampling_scorer as study_scorer

#: Letters that repeat (so clipping matters), punctuation at word edges (chrF++'s rule), case that changes
#: length when lowered (İ), CJK, a combining mark, and several kinds of white space.
ALPHABET = "aabbc AB.,!?()'\"-ÄäßİI\t\u00a0\u3000猫が座った。e\u0301"
texts = st.text(alphabet=ALPHABET, max_size=60)
words = st.lists(st.sampled_from(["the", "cat", "cat.", "(the", "sat,", "a", "aa", "!", "猫", "über"]),
                 max_size=14).map(" ".join)
any_text = st.one_of(texts, words)


def _expected_profile(text: str, char_order: int, word_order: int,
                      whitespace: bool) -> list[tuple[dict, int]]:
    """What text_profile must give, by the formulas (word unigrams keyed by the word itself)."""
    out = []
    for n in range(1, char_order + 1):
        grams = F.char_ngrams(text, n, whitespace)
        out.append((dict(grams), sum(grams.values())))
    tokens = F.split_punctuation(text)
    for n in range(1, word_order + 1):
        grams = F.word_ngrams(tokens, n)
        out.append(({(g[0] if n == 1 else g): c for g, c in grams.items()}, sum(grams.values())))
    return out


# --------------------------------------------------------------------------- counting


@settings(max_examples=300, deadline=None)
@given(text=any_text, char_order=st.integers(0, 9), word_order=st.integers(0, 4), whitespace=st.booleans())
def test_text_profile_is_char_ngrams_and_word_ngrams(text: str, char_order: int, word_order: int,
                                                     whitespace: bool) -> None:
    got = text_profile(text, char_order, word_order, whitespace)
    assert got == _expected_profile(text, char_order, word_order, whitespace)


@settings(max_examples=400, deadline=None)
@given(candidate=any_text, reference=any_text, char_order=st.integers(0, 9), word_order=st.integers(0, 4),
       whitespace=st.booleans())
def test_profile_row_is_order_counts_of_every_order(candidate: str, reference: str, char_order: int,
                                                    word_order: int, whitespace: bool) -> None:
    expected = F.segment_counts(candidate, reference, char_order, word_order, whitespace)
    assert fast_segment_counts(candidate, reference, char_order, word_order, whitespace) == expected
    cutter = NgramCutter()  # one cutter shared by both sides, as in corpus_chrf
    row = profile_row(text_profile(candidate, char_order, word_order, whitespace, cutter=cutter),
                      text_profile(reference, char_order, word_order, whitespace, cutter=cutter))
    assert row == [x for triple in expected for x in triple]


@pytest.mark.parametrize("candidate, reference, char_order, word_order", [
    ("", "", 6, 2),                                  # nothing on either side
    ("   \t", "abc", 6, 2),                          # white space only
    ("a", "a", 6, 0),                                # one character: every order past 1 is empty
    ("ab" * 40, "ba" * 40, 30, 0),                   # orders past NgramCutter.ORDERS are cut on the fly
    ("abcd" * 1500, "dcba" * 1300, 4, 0),            # lines past NgramCutter.LENGTH n-grams, too
    ("猫が座った。" * 3, "猫が座った", 6, 2),          # CJK, no spaces: one "word"
    ("e\u0301te\u0301", "\u00e9t\u00e9", 3, 1),      # a combining accent is a character of its own
    ("(hi) ok, 'x' a ...", "(hi ok ,'x' a...", 2, 3),  # chrF++'s punctuation rule
])
def test_edge_cases(candidate: str, reference: str, char_order: int, word_order: int) -> None:
    for whitespace in (False, True):
        assert fast_segment_counts(candidate, reference, char_order, word_order, whitespace) == \
            F.segment_counts(candidate, reference, char_order, word_order, whitespace)


# random square corpora are per segment
@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")
def test_fast_path_equals_the_formula_steps_on_random_text() -> None:
    # corpus_chrf counts with a fused fast path; chrf() (and segments[i]) with formulas.segment_counts.
    rng = random.Random(11)
    alphabet = "aab c.,!(ÄÖ )-"
    for _ in range(60):
        n = rng.randint(1, 6)
        cands = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(n)]
        refs = [["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
                 for _ in range(rng.randint(1, 3))] for _ in range(n)]
        opts = dict(char_order=rng.randint(0, 7), word_order=rng.randint(1, 3),
                    whitespace=rng.random() < 0.3, lowercase=rng.random() < 0.3,
                    eps_smoothing=rng.random() < 0.3, reference_ties=rng.choice(["first", "last"]))
        fast = corpus_chrf(cands, refs, **opts)
        plain = [chrf(c, rs, **opts) for c, rs in zip(cands, refs)]
        assert fast.segments.stats() == [p.stats for p in plain]
        assert fast.segments.best_references() == [p.best_reference for p in plain]


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


@pytest.mark.wmt22
def test_wmt22_the_twins_count_what_the_formulas_count(wmt22: Path) -> None:
    # de-en, both references and the first system, on the sample tier's segments (every one in the full tier).
    refs = {x: _lines(wmt22 / "references" / f"generaltest2022.de-en.ref.{x}.en") for x in ("A", "B")}
    system = sorted((wmt22 / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))[0]
    hyps = _lines(system)
    lines = tiers.sample_lines(len(hyps), every=tiers.CHRF_EVERY)
    for i in lines:
        for ref in (refs["A"][i], refs["B"][i]):
            for char_order, word_order, whitespace in ((6, 0, False), (6, 2, False), (6, 2, True)):
                assert fast_segment_counts(hyps[i], ref, char_order, word_order, whitespace) == \
                    F.segment_counts(hyps[i], ref, char_order, word_order, whitespace), (system.name, i)
    chosen_hyps, chosen_refs = tiers.subset(hyps, lines), [[refs["A"][i], refs["B"][i]] for i in lines]
    for opts in ({}, {"word_order": 2, "lowercase": True}, {"reference_ties": "last"}):
        fast = corpus_chrf(chosen_hyps, chosen_refs, **opts)
        plain = [chrf(h, rs, **opts) for h, rs in zip(chosen_hyps, chosen_refs)]
        assert fast.segments.stats() == [p.stats for p in plain], opts
        assert fast.segments.best_references() == [p.best_reference for p in plain], opts


# --------------------------------------------------------------------------- the cutter keeps nothing


def test_the_cutter_is_bounded_and_belongs_to_one_call() -> None:
    cutter = NgramCutter()
    line = "ab" * 10_000
    for n in (2, 3, NgramCutter.ORDERS, NgramCutter.ORDERS + 1):
        assert list(cutter.grams(line[:100], n)) == [line[i:i + n] for i in range(100 - n + 1)]
        assert list(cutter.grams(line, n)) == [line[i:i + n] for i in range(len(line) - n + 1)]
    assert sorted(cutter._slices) == [2, 3, NgramCutter.ORDERS]  # nothing stored past ORDERS
    assert all(len(s) <= NgramCutter.LENGTH for s in cutter._slices.values())
    assert NgramCutter()._slices == {}  # a new cutter starts empty: nothing is shared between calls


def _retained_after(call) -> int:
    """Bytes still allocated (and reachable) after ``call()`` returns, its result dropped."""
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        call()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("char_order, length", [(400, 400), (3, 200_000)])
def test_chrf_huge_char_order_or_line_keeps_no_growing_table(char_order, length):
    # A new char_order each time and a long line: whatever chrF keeps between calls must not grow with either.
    def call(order=char_order, n=length):
        line = "".join(chr(0x4E00 + (i * 7919) % 2000) for i in range(n))
        corpus_chrf([line], [[line[::-1]]], char_order=order)

    call()  # any bounded cache fills here; then twice the order (new orders) and the length
    retained = _retained_after(lambda: call(order=2 * char_order, n=2 * length))
    assert retained < 1_000_000, f"{retained:,} bytes kept after one corpus_chrf call"


# --------------------------------------------------------------------------- scoring resamples


def _random_rows(rng: random.Random, orders: int, n: int) -> list[list[int]]:
    rows = []
    for _ in range(n):
        row = []
        for _k in range(orders):
            c, r = rng.choice([0, rng.randint(1, 40)]), rng.choice([0, rng.randint(1, 40)])
            row += [c, r, rng.randint(0, min(c, r))]
        rows.append(row)
    return rows


@pytest.mark.parametrize("orders", [(6, 0), (6, 2), (2, 1)])
def test_chrf_scorer_equals_chrf_from_stats(orders):
    char_order, word_order = orders
    rng = random.Random(sum(orders))
    rows = _random_rows(rng, char_order + word_order, 500)
    got = study_scorer("chrf", char_order=char_order, word_order=word_order, beta=2)(np.array(rows))
    for row, value in zip(rows, got):
        expected = chrf_from_stats(ChrfStats.from_row(row, char_order, word_order)).score
        assert abs(value - expected) <= 1e-12, row


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), orders=st.integers(1, 12), beta=st.sampled_from([0.5, 1, 2, 3, 1.5]))
def test_averaged_f_many_is_averaged_f_in_floating_point(seed: int, orders: int, beta: float) -> None:
    rows = _random_rows(random.Random(seed), orders, 20)
    got = averaged_f_many(np.array(rows), beta)
    for row, value in zip(rows, got.tolist()):
        exact = F.averaged_f(list(zip(row[0::3], row[1::3], row[2::3])), beta)[2]
        assert abs(value - float(exact)) <= 1e-15 * max(1.0, float(exact)), row


def test_eps_smoothing_resamples_are_eps_smoothed_f_exactly() -> None:
    rows = _random_rows(random.Random(5), 8, 200)
    got = resampling_scorer(char_order=6, word_order=2, beta=3, eps_smoothing=True)(np.array(rows)).tolist()
    assert got == [chrf_from_stats(ChrfStats.from_row(row, 6, 2), beta=3, eps_smoothing=True).score
                   for row in rows]
    assert got == [float(F.eps_smoothed_f(list(zip(r[0::3], r[1::3], r[2::3])), 3)) for r in rows]


def test_the_paired_test_scores_resamples_with_the_twin() -> None:
    # study/significance.py has no chrF formula of its own: it calls fast.resampling_scorer.
    rows = np.array(_random_rows(random.Random(8), 6, 50))  # 6 orders a row, as each option set below has
    options = ({}, {"eps_smoothing": True, "beta": 1}, {"char_order": 4, "word_order": 2, "lowercase": True},
               {"char_order": 0, "word_order": 6, "eps_smoothing": True})
    for opts in options:
        assert study_scorer("chrf", **opts)(rows).tolist() == resampling_scorer(**opts)(rows).tolist()
    with pytest.raises(ValueError, match="^beta:"):
        study_scorer("chrf", beta=float("nan"))

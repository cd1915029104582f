"""The digest's METEOR worked examples (Spanish Wikipedia, METEOR), computed by mtlearn and compared
with the table."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mtlearn import meteor
from mtlearn.examples import meteor as ex
from mtlearn.metrics.meteor.formulas import count_chunks, count_crossings
from mtlearn.metrics.meteor.wordnet import find_wordnet

needs_wordnet = pytest.mark.skipif(find_wordnet() is None, reason="WordNet for NLTK is not installed")

# The table's figures to five places, beyond the digest's rounding (NLTK agrees: ../shared/notes).
FIVE_PLACES = {"row 1": 0.5, "row 2": 0.99769, "row 3": 0.96539}


def check_row(row: ex.MeteorExample, result) -> None:
    # The table prints four decimals: compare at that precision.
    for value, printed in [(result.precision, row.expected_precision),
                           (result.recall, row.expected_recall),
                           (result.f_mean, row.expected_f_mean),
                           (result.penalty, row.expected_penalty)]:
        assert round(float(value), 4) == float(printed)
    assert (result.chunks, result.matches) == (row.expected_chunks, row.expected_matches)
    assert f"{result.score:.4f}" == row.expected_score
    assert round(result.score, 5) == FIVE_PLACES[row.name[:5]]
    assert result.optimal


@pytest.mark.parametrize("row", ex.TABLE, ids=lambda r: r.name[:5])
def test_digest_table_exact_stage(row):
    check_row(row, meteor(row.candidate, [row.reference], stages=["exact"]))


@needs_wordnet
@pytest.mark.wordnet
@pytest.mark.parametrize("row", ex.TABLE, ids=lambda r: r.name[:5])
def test_digest_table_all_stages(row):
    result = meteor(row.candidate, [row.reference])  # exact, stem, synonym
    check_row(row, result)
    assert result.matches_per_stage == {"exact": 6, "stem": 0, "synonym": 0}


def test_digest_row_3_exact_fractions():
    r = meteor(ex.ROW_3.candidate, [ex.ROW_3.reference], stages=["exact"])
    # By hand: P = 6/7, R = 1, F = 10PR/(R+9P) = 60/61, penalty = 0.5 (2/6)^3 = 1/54.
    assert r.precision == Fraction(6, 7) and r.recall == 1
    assert r.f_mean == 10 * Fraction(6, 7) / (1 + 9 * Fraction(6, 7))
    assert r.penalty == Fraction(1, 2) * Fraction(2, 6) ** 3
    assert r.score_exact == Fraction(60, 61) * (1 - Fraction(1, 54))


def test_row_1_chunks_rule_gives_09375():
    r = meteor(ex.ROW_1.candidate, [ex.ROW_1.reference], stages=["exact"], tie_break="chunks")
    assert f"{r.score:.4f}" == ex.ROW_1_CHUNKS_SCORE
    assert r.chunks == 3 and r.optimal
    assert r.pairs == ex.ALIGNMENT_B.pairs


@pytest.mark.parametrize("alignment", [ex.ALIGNMENT_A, ex.ALIGNMENT_B], ids=["a", "b"])
def test_illustrated_alignments_counts(alignment):
    cand, ref = ex.ROW_1.candidate.split(), ex.ROW_1.reference.split()
    # A valid alignment of the pair: one-to-one, every word mapped to the same word.
    assert len({i for i, _ in alignment.pairs}) == len({j for _, j in alignment.pairs}) == 6
    assert all(cand[i] == ref[j] for i, j in alignment.pairs)
    assert count_crossings(alignment.pairs) == alignment.stated_crossings
    assert count_chunks(alignment.pairs) == alignment.stated_chunks


def test_illustration_a_is_the_chosen_one():
    r = meteor(ex.ROW_1.candidate, [ex.ROW_1.reference], stages=["exact"])
    assert ex.ALIGNMENT_A.chosen and not ex.ALIGNMENT_B.chosen
    assert r.pairs == ex.ALIGNMENT_A.pairs
    assert r.crossings == count_crossings(ex.ALIGNMENT_A.pairs) == 8
    # The digest's 1-based description of (a): candidate the(2)-reference the(1), the(5)-the(5).
    assert (2 - 1, 1 - 1) in r.pairs and (5 - 1, 5 - 1) in r.pairs

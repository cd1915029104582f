"""chrF's sufficient statistics: they add up, a corpus is their sum, and each segment keeps one reference."""

from __future__ import annotations

import pytest

from mtlearn.metrics.chrf import formulas as F
from mtlearn.metrics.chrf.options import ChrfOptions
from mtlearn.metrics.chrf.score import chrf, chrf_from_stats, corpus_chrf
from mtlearn.metrics.chrf.stats import ChrfStats, choice_text, choose_reference, sum_stats


def test_best_reference_and_why() -> None:
    r = chrf("the cat sat", ["a dog", "the cat sat"])
    assert r.best_reference == 1 and r.score == 1.0
    assert "highest chrF of the 2 references" in r.reference_choice
    assert r.reference_scores[1] == 1.0 and r.reference_scores[0] < 1.0
    tie = chrf("xyz", ["abc", "def"])
    assert tie.best_reference == 0 and "tie" in tie.reference_choice and "first" in tie.reference_choice
    last = chrf("xyz", ["abc", "def"], reference_ties="last")
    assert last.best_reference == 1 and "last" in last.signature


def test_the_reference_is_chosen_by_sacrebleus_float_score() -> None:
    rows = [[4, 3, 2, 3, 2, 1], [4, 6, 2, 3, 5, 1], [4, 3, 2, 3, 2, 1]]
    opts = ChrfOptions(char_order=2)
    best, scores = choose_reference(rows, opts)
    assert scores == [F.sacrebleu_float_score(list(zip(r[0::3], r[1::3], r[2::3])), 2.0, False) for r in rows]
    assert best == 0 and choose_reference(rows, opts.but(reference_ties="last"))[0] == 2
    assert choice_text(best, scores, "first") == (f"references 0, 2 tie at chrF {scores[0] / 100:.4f}; "
                                                  "the first is kept (reference_ties='first', as sacreBLEU)")
    assert choice_text(0, [12.5], "first") == "the only reference"


# a 2 x 2 corpus, per segment
@pytest.mark.filterwarnings("ignore::mtlearn.core.references.AmbiguousLayoutWarning")
def test_reference_ties_change_the_corpus_recall() -> None:
    # Both references score 0 for segment 0, but their lengths enter the corpus recall.
    cands, refs = ["good", "the cat"], [["OK.", "Okay."], ["the cat", "the cat"]]
    first = corpus_chrf(cands, refs)
    last = corpus_chrf(cands, refs, reference_ties="last")
    assert first.segments.best_references() == [0, 0] and last.segments.best_references() == [1, 1]
    assert first.stats.reference[0] == 3 + 6 and last.stats.reference[0] == 5 + 6
    assert last.score < first.score


def test_corpus_is_summed_statistics() -> None:
    cands = ["the cat sat on the mat", "a dog", ""]
    refs = [["the cat is on the mat"], ["the dog", "a dog barks"], ["nothing"]]
    r = corpus_chrf(cands, refs, word_order=2)
    per = [chrf(c, rs, word_order=2) for c, rs in zip(cands, refs)]
    assert sum_stats(p.stats for p in per) == r.stats
    assert r.segments.stats() == [p.stats for p in per]
    assert r.segments.stats_of(1) == per[1].stats
    assert chrf_from_stats(r.stats).score == r.score
    assert r.segments[1].score == per[1].score and r.segments[-1].candidate == ""
    assert [s.best_reference for s in r.segments[0:2]] == [0, 1]
    assert r.best_reference is None and r.candidate is None and r.references == ()
    assert "1 of 3 candidates are empty" in r.reason


def test_stats_add_and_check_orders() -> None:
    a = ChrfStats((1,), (2,), (1,), 1, 0)
    assert (a + a).reference == (4,)
    with pytest.raises(ValueError, match="^stats:"):
        a + ChrfStats((1, 1), (1, 1), (1, 1), 1, 1)
    with pytest.raises(ValueError, match="^stats:"):
        sum_stats([])
    with pytest.raises(TypeError, match="^stats:"):
        chrf_from_stats([1, 2, 3])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^row:"):
        ChrfStats.from_row([1, 2], 1, 0)
    assert a.__add__(3) is NotImplemented


def test_adding_two_is_summing_them() -> None:
    a, b = ChrfStats((4, 3), (3, 2), (2, 1), 1, 1), ChrfStats((1, 0), (5, 1), (1, 0), 1, 1)
    assert a + b == sum_stats([a, b]) == ChrfStats((5, 3), (8, 3), (3, 1), 1, 1)
    assert ChrfStats.from_row([c for t in (a + b).triples for c in t], 1, 1) == a + b

"""TER's Levenshtein distance with its trace (mtlearn/metrics/ter/edit_distance.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mtlearn.metrics.ter.edit_distance import levenshtein
from mtlearn.metrics.ter.fast import exact_distance, exact_levenshtein

_words = st.lists(st.sampled_from("a b c d e".split()), max_size=30)


@settings(max_examples=200, deadline=None)
@given(_words, _words)
def test_levenshtein_without_beam_is_the_textbook_distance(cand, ref):
    # The textbook recurrence, full table, no trace.
    d = list(range(len(ref) + 1))
    for i, w in enumerate(cand, 1):
        prev, d[0] = d[0], i
        for j, r in enumerate(ref, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (w != r))
    assert levenshtein(cand, ref, beam=False).distance == d[-1]
    # WER's and CER's fast twins (bit-parallel rows) too; test_ter_fast_equals_formulas.py compares traces.
    assert exact_distance(cand, ref) == exact_levenshtein(cand, ref).distance == d[-1]
    # Within 25 words the beam covers the whole table.
    assert levenshtein(cand, ref).distance == d[-1]

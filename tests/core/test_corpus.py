"""mtlearn/core/corpus.py's lazy ``Segments``: reading a corpus's segments one after another costs
bounded memory, whichever metric's segments they are.

The bounds are generous: they tell "bounded" from "runaway", they are not speed targets.
"""

from __future__ import annotations

import pytest

from mtlearn import corpus_meteor

EXACT = ["exact"]


def _corpus(metric: str, n: int):
    import random

    from mtlearn import corpus_chrf, corpus_ter

    rng = random.Random(15)
    words = "the cat sat on a mat dog ran in park and then slept under tree".split()
    cands = [" ".join(rng.choices(words, k=10)) for _ in range(n)]
    refs = [[" ".join(rng.choices(words, k=10))] for _ in range(n)]
    if metric == "meteor":
        return corpus_meteor(cands, refs, stages=EXACT)
    return {"chrf": corpus_chrf, "ter": corpus_ter}[metric](cands, refs)


@pytest.mark.parametrize("metric, n", [("meteor", 1000), ("chrf", 500), ("ter", 400)])
def test_reading_every_segment_keeps_memory_bounded(metric, n):
    # Reading segment after segment must not keep every built result (MeteorSegments kept
    # them all: ~950 MB for 100k segments). Memory after reading all n segments is
    # compared with memory after the first n/10: bounded means (about) no further growth.
    import gc
    import tracemalloc

    corpus = _corpus(metric, n)
    segments = corpus.segments
    first = segments[5]
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for i in range(n // 10):
            _ = segments[i].score  # reading a segment's score computes it
        gc.collect()
        after_few = tracemalloc.get_traced_memory()[0] - start
        for i in range(n // 10, n):
            _ = segments[i].score
        gc.collect()
        after_all = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert after_all < 2 * after_few + (1 << 20), (after_few, after_all)
    assert segments[5] == first  # built again after it left the cache: the same result

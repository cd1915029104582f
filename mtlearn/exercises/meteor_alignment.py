"""Notebook 03's exercises (METEOR: the alignment): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['03.1', '03.2', '03.3', '03.c1', '03.c2']
"""

from __future__ import annotations

import random
from typing import Any

import mtlearn
from mtlearn.examples import meteor as examples
from mtlearn.exercises.kinds import CodingExercise, Exercise, Question
from mtlearn.metrics.meteor.formulas import count_chunks, count_crossings

__all__ = ["EXERCISES"]

_REFERENCE = "the cat sat on the mat"


def _worked_alignments() -> tuple[tuple[Any, ...], ...]:
    """The notebook's alignments, one argument tuple each: the article's (a) and (b), 'b a' against 'a b',
    the three rows of the worked example in the Spanish Wikipedia article *METEOR* as mtlearn aligns them
    (exact stage), and the empty alignment."""
    rows = tuple(mtlearn.meteor(row.candidate, [row.reference], stages=["exact"]).pairs
                 for row in examples.TABLE)
    alignments = (examples.ALIGNMENT_A.pairs, examples.ALIGNMENT_B.pairs, ((0, 1), (1, 0)), *rows, ())
    return tuple((pairs,) for pairs in dict.fromkeys(alignments))  # row 1 is (a): once


def _random_alignment(rng: random.Random) -> tuple[list[tuple[int, int]]]:
    """A random one-to-one alignment in candidate order (up to 7 words a side); half of them in nearly
    the reference's order, so that chunks longer than one word happen."""
    n_candidate, n_reference = rng.randint(0, 7), rng.randint(0, 7)
    k = rng.randint(0, min(n_candidate, n_reference))
    candidate_positions = sorted(rng.sample(range(n_candidate), k))
    reference_positions = rng.sample(range(n_reference), k)
    if rng.random() < 0.5:
        reference_positions.sort()
        if k >= 2:  # one swap of neighbours: a crossing between chunks
            s = rng.randrange(k - 1)
            swapped = reference_positions[s + 1], reference_positions[s]
            reference_positions[s], reference_positions[s + 1] = swapped
    return (list(zip(candidate_positions, reference_positions)),)


def _stage_of_running() -> str:
    """The stage that maps 'running' to 'ran' (exercise 03.3)."""
    alignment = mtlearn.meteor("he was running", ["he ran"]).alignment
    return next(m.stage for m in alignment if m.candidate_word == "running")


EXERCISES: tuple[Exercise, ...] = (
    Question("03.1", "Crossings of the alignment METEOR chooses for 'the mat sat on the cat' against "
             "'the cat sat on the mat' (exact stage only)",
             lambda: mtlearn.meteor("the mat sat on the cat", [_REFERENCE], stages=["exact"]).crossings),
    Question("03.2", "Chunks of 'the cat sat on a mat' against 'the cat sat on the mat' (exact stage only)",
             lambda: mtlearn.meteor("the cat sat on a mat", [_REFERENCE], stages=["exact"]).chunks),
    Question("03.3", "Which stage maps 'running' (candidate 'he was running') to 'ran' (reference 'he ran')?",
             _stage_of_running),
    CodingExercise(
        "03.c1", "count_crossings(pairs): how many pairs of mappings (i1, j1), (i2, j2) cross, "
        "(i1 - i2) * (j1 - j2) < 0",
        count_crossings, _worked_alignments(), _random_alignment),
    CodingExercise(
        "03.c2", "count_chunks(pairs): the fewest chunks, runs of mappings (i, j), (i + 1, j + 1), ... "
        "adjacent and in the same order in both strings",
        count_chunks, _worked_alignments(), _random_alignment),
)

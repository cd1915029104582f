"""Notebook 03's exercises (METEOR: the alignment): the answers, computed by mtlearn.

>>> [e.id for e in EXERCISES]
['03.1', '03.2', '03.3', '03.c1', '03.c2']
"""

from __future__ import annotations

import random
from typing import Any

import mtlearn
from mtlearn.examples import meteor as examples
from mtlearn.exercises.kinds import CodingExercise, Exercise, Misconception, Question
from mtlearn.metrics.meteor.formulas import count_chunks, count_crossings

__all__ = ["EXERCISES"]

_REFERENCE = "the cat sat on the mat"


def _worked_alignments() -> tuple[tuple[Any, ...], ...]:
    """The notebook's alignments, one argument tuple each: the Wikipedia articles' (a) and (b), 'b a' against
    'a b', the three worked rows of the English Wikipedia article *METEOR* as mtlearn aligns them
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


def _stage_of(candidate: str, reference: str, word: str) -> str:
    """The stage that maps ``word`` of ``candidate`` (exercise 03.3: 'running' to 'ran')."""
    alignment = mtlearn.meteor(candidate, [reference]).alignment
    return next(m.stage for m in alignment if m.candidate_word == word)


def _stage_of_running() -> str:
    """The stage that maps 'running' to 'ran' (exercise 03.3)."""
    return _stage_of("he was running", "he ran", "running")


def _exact(candidate: str) -> mtlearn.MeteorResult:
    return mtlearn.meteor(candidate, [_REFERENCE], stages=["exact"])


def _other_thes_crossings() -> int:
    """03.1's crossings when the two 'the's of the candidate are mapped the other way round."""
    result = _exact("the mat sat on the cat")
    pairs = list(result.pairs)
    thes = [k for k, (i, _) in enumerate(pairs) if result.candidate[i] == "the"]
    (a, b) = thes[:2]
    pairs[a], pairs[b] = (pairs[a][0], pairs[b][1]), (pairs[b][0], pairs[a][1])
    return count_crossings(pairs)


def _crossings_of_neighbours(pairs: Any) -> int:
    """Coding misconception: only neighbouring mappings (in candidate order) are compared."""
    ordered = sorted(pairs)
    return sum(1 for (i1, j1), (i2, j2) in zip(ordered, ordered[1:]) if (i1 - i2) * (j1 - j2) < 0)


def _chunks_by_candidate_only(pairs: Any) -> int:
    """Coding misconception: a chunk goes on while the candidate positions are adjacent, whatever the
    reference's."""
    chunks, previous = 0, None
    for i, _ in sorted(pairs):
        if previous is None or i != previous + 1:
            chunks += 1
        previous = i
    return chunks


def _runs_of_reference_order(pairs: Any) -> int:
    """Coding misconception: a chunk goes on while the reference positions go up (not one step at a time)."""
    chunks, previous = 0, None
    for _, j in sorted(pairs):
        if previous is None or j <= previous:
            chunks += 1
        previous = j
    return chunks


_CHUNK_RULE = ("a chunk is a run of mappings adjacent and in the same order in both strings: "
               "(i, j) then (i + 1, j + 1)")

EXERCISES: tuple[Exercise, ...] = (
    Question("03.1", "Crossings of the alignment METEOR chooses for 'the mat sat on the cat' against "
             "'the cat sat on the mat' (exact stage only)",
             lambda: _exact("the mat sat on the cat").crossings,
             (Misconception("chunks instead of crossings",
                            "this is the number of chunks: crossings count the *pairs* of mapping lines "
                            "that cross, (i1 - i2)(j1 - j2) < 0.",
                            lambda: _exact("the mat sat on the cat").chunks),
              Misconception("the other alignment",
                            "this is the alignment with the two 'the's mapped the other way: of the "
                            "alignments with the most matches METEOR chooses the one with the fewest "
                            "crossings.", _other_thes_crossings)),
             working=lambda: _exact("the mat sat on the cat").explain()),
    Question("03.2", "Chunks of 'the cat sat on a mat' against 'the cat sat on the mat' (exact stage only)",
             lambda: _exact("the cat sat on a mat").chunks,
             (Misconception("crossings instead of chunks",
                            f"this is the number of crossings: {_CHUNK_RULE}.",
                            lambda: _exact("the cat sat on a mat").crossings),
              Misconception("matched words instead of chunks",
                            f"this is the number of matched words: {_CHUNK_RULE}, so several words can "
                            f"form one chunk.", lambda: _exact("the cat sat on a mat").matches)),
             working=lambda: _exact("the cat sat on a mat").explain()),
    Question("03.3", "Which stage maps 'running' (candidate 'he was running') to 'ran' (reference 'he ran')?",
             _stage_of_running,
             (Misconception("stem for an irregular verb",
                            "the stem stage compares Porter stems, which cut suffixes: 'running' becomes "
                            "'run' but 'ran' stays 'ran'; an irregular form is found through WordNet.",
                            lambda: _stage_of("he was running", "he run", "running")),),
             working=lambda: mtlearn.meteor("he was running", ["he ran"]).explain()),
    CodingExercise(
        "03.c1", "count_crossings(pairs): how many pairs of mappings (i1, j1), (i2, j2) cross, "
        "(i1 - i2) * (j1 - j2) < 0",
        count_crossings, _worked_alignments(), _random_alignment,
        misconceptions=(
            Misconception("neighbours only",
                          "this compares each mapping with the next one only: every *pair* of mappings, "
                          "near or far, may cross.", _crossings_of_neighbours),
            Misconception("chunks instead of crossings",
                          "this counts chunks: a crossing is a pair of mappings with (i1 - i2)(j1 - j2) < 0.",
                          count_chunks))),
    CodingExercise(
        "03.c2", "count_chunks(pairs): the fewest chunks, runs of mappings (i, j), (i + 1, j + 1), ... "
        "adjacent and in the same order in both strings",
        count_chunks, _worked_alignments(), _random_alignment,
        misconceptions=(
            Misconception("candidate side only",
                          f"this looks at the candidate's positions only: {_CHUNK_RULE}.",
                          _chunks_by_candidate_only),
            Misconception("rising, not adjacent",
                          f"this continues a chunk whenever the reference position goes up: {_CHUNK_RULE}, "
                          f"one step at a time.", _runs_of_reference_order))),
)

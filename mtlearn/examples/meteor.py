"""The METEOR worked examples of the Wikipedia articles *METEOR* (CC BY-SA 4.0), as data.

The English article's three worked examples, and the illustration of two alignments that the
English and Spanish articles share (the Spanish one translates the English description of the
algorithm: "De las dos alineaciones mostradas, se seleccionaría la alineación (a) en este punto").

Each :class:`MeteorExample` is one of the English article's worked examples: reference,
candidate, and the numbers as the article prints them (rounded to four places). The
illustration's two alignments of row 1 are :data:`ALIGNMENT_A` (chosen: fewer crossings)
and :data:`ALIGNMENT_B`, as (candidate index, reference index) pairs, 0-based, with their
crossings and chunks counted by hand on the drawing. Nothing here is computed: the tests and
notebooks compute these numbers with mtlearn and compare.

>>> ROW_1.reference, ROW_1.candidate, ROW_1.expected_score
('the cat sat on the mat', 'on the mat sat the cat', '0.5000')
>>> ALIGNMENT_A.stated_crossings, ALIGNMENT_B.stated_crossings
(8, 11)
>>> [(ROW_1.candidate.split()[i], ROW_1.reference.split()[j]) for i, j in ALIGNMENT_A.pairs][:2]
[('on', 'on'), ('the', 'the')]
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "MeteorExample",
    "IllustratedAlignment",
    "ROW_1",
    "ROW_2",
    "ROW_3",
    "TABLE",
    "ALIGNMENT_A",
    "ALIGNMENT_B",
    "ROW_1_CHUNKS_SCORE",
    "EXPLORER_PAIR",
]


@dataclass(frozen=True)
class MeteorExample:
    """One of the English article's worked examples (values as printed there).

    ``expected_*`` are strings exactly as the table prints them (four decimals),
    so a test compares ``f"{value:.4f}"`` with them.
    """

    name: str
    reference: str
    candidate: str
    expected_precision: str
    expected_recall: str
    expected_f_mean: str
    expected_chunks: int
    expected_matches: int
    expected_penalty: str
    expected_score: str


ROW_1 = MeteorExample(
    "row 1: every word matched, no two in order", "the cat sat on the mat",
    "on the mat sat the cat", "1", "1", "1", 6, 6, "0.5", "0.5000",
)
ROW_2 = MeteorExample(
    "row 2: identical strings", "the cat sat on the mat", "the cat sat on the mat",
    "1", "1", "1", 1, 6, "0.0023", "0.9977",
)
ROW_3 = MeteorExample(
    "row 3: one inserted word", "the cat sat on the mat", "the cat was sat on the mat",
    "0.8571", "1", "0.9836", 2, 6, "0.0185", "0.9654",
)

#: The English article's worked examples, in order.
TABLE: tuple[MeteorExample, ...] = (ROW_1, ROW_2, ROW_3)

#: Row 1's score under METEOR 1.x's rule (most matches, then fewest chunks), worked out by hand: the
#: articles give only the crossing rule's 0.5000.
ROW_1_CHUNKS_SCORE = "0.9375"

#: (candidate, reference) where the METEOR explorers start (not from the worked example). Row 1 has
#: P = R = 1 and one match a chunk, so alpha and beta cannot move its score; here P differs
#: from R and the matches fall in fewer chunks than matches, so every slider moves it
#: (tests/test_workshop_pairs.py checks one step of each).
EXPLORER_PAIR = ("the cat sat on the mat", "the big cat was sitting on the mat")


@dataclass(frozen=True)
class IllustratedAlignment:
    """One of the illustration's alignments of row 1, with its crossings and chunks counted by hand."""

    name: str
    pairs: tuple[tuple[int, int], ...]
    stated_crossings: int
    stated_chunks: int
    chosen: bool


# Row 1: candidate "on the mat sat the cat" (0..5), reference "the cat sat on the mat" (0..5).
# The illustration (1-based): (a) pairs candidate "the"(2) with reference "the"(1) and candidate
# "the"(5) with reference "the"(5); (b) is the other pairing of the two "the"s.
ALIGNMENT_A = IllustratedAlignment(
    "(a): the(2)-the(1), the(5)-the(5)",
    ((0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)),
    stated_crossings=8, stated_chunks=6, chosen=True,
)
ALIGNMENT_B = IllustratedAlignment(
    "(b): the(2)-the(5), the(5)-the(1)",
    ((0, 3), (1, 4), (2, 5), (3, 2), (4, 0), (5, 1)),
    stated_crossings=11, stated_chunks=3, chosen=False,
)

"""The BLEU worked examples of the Chinese blog post *BLEU—机器翻译评价方法* (2021) and of Papineni et al.
(2002), as data.

Each :class:`BleuExample` holds a candidate, its references, how to tokenize them
and the numbers the source states (``expected_counts``: (clipped matches, candidate
n-grams) per order, unreduced, so 8/14 stays 8/14). The notebooks and tests compute
these numbers with mtlearn and compare; nothing here is computed.

>>> POST_A_PRECISIONS.candidate, POST_A_PRECISIONS.references
('A B B C D', ('A B C D E F',))
>>> [str(p) for p in POST_A_PRECISIONS.expected_precisions]
['4/5', '3/4', '1/3', '0']
>>> PAPINENI_GUIDE_CANDIDATE_2.expected_counts
((8, 14), (1, 13))

Papineni's sentences keep their final full stop in :data:`PAPINENI_SENTENCES`; the
paper counts *words*, without that full stop (Candidate 1 has 18 words), so the
examples drop it. Case does not change these numbers: "Party" (references 1
and 2) never matches, "party" (Candidate 1, Candidate 2, reference 3) always
does, and lowercasing gives the same 17/18, 10/17, 8/14, 1/13. Keeping the full
stop changes them (13a tokenization: 18/19, 11/18, 9/15, 1/14).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

__all__ = [
    "BleuExample",
    "WeightsExample",
    "POST_A_PRECISIONS",
    "POST_B_WEIGHTS",
    "POST_C_BREVITY",
    "POST_ONE_REFERENCE",
    "PAPINENI_THE_THE",
    "PAPINENI_SENTENCES",
    "PAPINENI_GUIDE_CANDIDATE_1",
    "PAPINENI_GUIDE_CANDIDATE_2",
    "EXAMPLES",
]


@dataclass(frozen=True)
class BleuExample:
    """A candidate, its references and the numbers its source states.

    ``formula`` is ``"d2l"`` for the Chinese blog post's formula (one label, ``k`` = max
    order) and ``"papineni"`` for modified n-gram precision; ``expected_counts[n-1]``
    is (clipped matches, candidate n-grams) of order n; ``expected_penalty`` and
    ``expected_score`` are the source's values where it gives them (approximate
    ones are given as printed, see ``note``).
    """

    name: str
    source: str
    candidate: str
    references: tuple[str, ...]
    formula: str
    max_order: int
    expected_counts: tuple[tuple[int, int], ...]
    tokenize: str = "whitespace"
    lowercase: bool = False
    expected_penalty: Optional[float] = None
    expected_score: Optional[float] = None
    note: str = ""

    @property
    def expected_precisions(self) -> tuple[Fraction, ...]:
        """The stated precisions as Fractions (reduced: 8/14 becomes 4/7)."""
        return tuple(Fraction(m, t) if t else Fraction(0) for m, t in self.expected_counts)


@dataclass(frozen=True)
class WeightsExample:
    """The Chinese blog post's example B: p_n fixed at ``precision``, raised to 1/2^n.

    ``approximations`` are the values the document prints (rounded by it).
    """

    name: str
    source: str
    precision: Fraction
    exponents: tuple[Fraction, ...]
    approximations: tuple[float, ...]
    note: str = ""


POST_A_PRECISIONS = BleuExample(
    name="the Chinese blog post *BLEU—机器翻译评价方法* (2021), example A (precisions)",
    source="the Chinese blog post BLEU—机器翻译评价方法 (2021), example A",
    candidate="A B B C D",
    references=("A B C D E F",),
    formula="d2l",
    max_order=4,
    expected_counts=((4, 5), (3, 4), (1, 3), (0, 2)),
    note="p1 = 4/5, p2 = 3/4, p3 = 1/3, p4 = 0: the label has one B, so the second B is not credited.",
)

POST_B_WEIGHTS = WeightsExample(
    name="the Chinese blog post *BLEU—机器翻译评价方法* (2021), example B (weights 1/2^n)",
    source="the Chinese blog post BLEU—机器翻译评价方法 (2021), example B",
    precision=Fraction(1, 2),
    exponents=(Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 16)),
    approximations=(0.7, 0.84, 0.92, 0.96),
    note="0.5^(1/2) is 0.7071..., printed by the document as 0.7.",
)

POST_C_BREVITY = BleuExample(
    name="the Chinese blog post *BLEU—机器翻译评价方法* (2021), example C (brevity penalty)",
    source="the Chinese blog post BLEU—机器翻译评价方法 (2021), example C",
    candidate="A B",
    references=("A B C D E F",),
    formula="d2l",
    max_order=2,
    expected_counts=((2, 2), (1, 1)),
    expected_penalty=0.14,
    expected_score=0.14,
    note="p1 = p2 = 1 but the penalty is exp(1 - 6/2) = exp(-2) = 0.1353..., printed as 0.14.",
)

POST_ONE_REFERENCE = BleuExample(
    name="the Chinese blog post *BLEU—机器翻译评价方法* (2021), one reference is not enough",
    source="the Chinese blog post BLEU—机器翻译评价方法 (2021), one-reference example",
    candidate="how are you",
    references=("hello",),
    formula="papineni",
    max_order=4,
    expected_counts=((0, 3),),
    expected_score=0.0,
    note=(
        'Source "你好"; the machine answer "how are you" shares no word with the one reference '
        '"hello", so BLEU is 0 although the answer is acceptable: more varied references give a '
        "good candidate more chances to match."
    ),
)

PAPINENI_THE_THE = BleuExample(
    name="Papineni et al. (2002), 'the the the ...'",
    source="Papineni et al. 2002, section 2.1, example 2; the Chinese blog post",
    candidate="the the the the the the the",
    references=("The cat is on the mat", "There is a cat on the mat"),
    formula="papineni",
    max_order=1,
    expected_counts=((2, 7),),
    lowercase=True,
    note=(
        'Modified unigram precision 2/7: "the" is credited at most twice, its count in reference 1. '
        'The paper counts "The" as "the" (lowercase=True); case-sensitive it would be 1/7.'
    ),
)

#: Papineni et al. (2002), example 1, exactly as printed (with the final full stop).
PAPINENI_SENTENCES: dict[str, str] = {
    "candidate 1": "It is a guide to action which ensures that the military always obeys the "
                   "commands of the party.",
    "candidate 2": "It is to insure the troops forever hearing the activity guidebook that party direct.",
    "reference 1": "It is a guide to action that ensures that the military will forever heed Party commands.",
    "reference 2": "It is the guiding principle which guarantees the military forces always being under the "
                   "command of the Party.",
    "reference 3": "It is the practical guide for the army always to heed the directions of the party.",
}


def _words(sentence: str) -> str:
    # The paper counts words; the final full stop is not one.
    return sentence.rstrip(".")


_GUIDE_REFS = tuple(_words(PAPINENI_SENTENCES[f"reference {i}"]) for i in (1, 2, 3))
_GUIDE_NOTE = (
    "Words without the final full stop, case-sensitive (lowercasing gives the same numbers)."
)

PAPINENI_GUIDE_CANDIDATE_1 = BleuExample(
    name="Papineni et al. (2002), candidate 1 'It is a guide to action ...'",
    source="Papineni et al. 2002, sections 2.1 and 2.1.1, example 1",
    candidate=_words(PAPINENI_SENTENCES["candidate 1"]),
    references=_GUIDE_REFS,
    formula="papineni",
    max_order=2,
    expected_counts=((17, 18), (10, 17)),
    note=_GUIDE_NOTE,
)

PAPINENI_GUIDE_CANDIDATE_2 = BleuExample(
    name="Papineni et al. (2002), candidate 2 'It is to insure the troops ...'",
    source="Papineni et al. 2002, sections 2.1 and 2.1.1, example 1",
    candidate=_words(PAPINENI_SENTENCES["candidate 2"]),
    references=_GUIDE_REFS,
    formula="papineni",
    max_order=2,
    expected_counts=((8, 14), (1, 13)),
    note=_GUIDE_NOTE,
)

#: Every sentence-pair example, in the order a notebook would show them.
EXAMPLES: tuple[BleuExample, ...] = (
    POST_A_PRECISIONS,
    POST_C_BREVITY,
    POST_ONE_REFERENCE,
    PAPINENI_THE_THE,
    PAPINENI_GUIDE_CANDIDATE_1,
    PAPINENI_GUIDE_CANDIDATE_2,
)

"""METEOR's alignment rule written plainly: try every alignment, keep the best.

This is the rule of the Spanish Wikipedia article *METEOR* (CC BY-SA 4.0) as a student would write it,
with no optimisation. For each stage in turn:

1. list every one-to-one set of mappings between the words earlier stages left
   unmatched (a word may also stay unmatched) that the stage allows;
2. keep those with the **most mappings**;
3. then those with the **fewest crossings**, counted over all mappings so far
   (earlier stages included);
4. then those with the **fewest chunks**, over all mappings so far;
5. then the **lexicographic tie-break**: read the stage's reference positions in
   candidate order, an unmatched candidate word counting as after every reference
   position; the smallest sequence wins.

With ``tie_break="chunks"`` (METEOR 1.x) step 3 is left out: most mappings, fewest
chunks, lexicographic. The fast search of :func:`mtlearn.metrics.meteor.alignment.align`
must give the same alignment; this module is the tests' oracle.

**It is exponential.** A stage with ``n`` free words on each side that all match
each other has ``sum_k C(n, k)² k!`` alignments to list: 1,546 for ``n = 5``, 1.4 million
for ``n = 8``, 53 billion for ``n = 12``. :data:`REFERENCE_MAX_WORDS` refuses longer
sentences; even at 12 words, a sentence of one repeated word would take weeks (8 words:
half a minute). Real sentences, where most words match one word or none, take under a second.

The worked example's row 1 ("on the mat sat the cat" against "the cat sat on the mat") gives the
article's alignment (a), 8 crossings, and not (b), 11 crossings but 3 chunks:

>>> from mtlearn.examples.meteor import ALIGNMENT_A, ALIGNMENT_B, ROW_1, ROW_3
>>> from mtlearn.metrics.meteor.matchers import resolve_stages
>>> exact = resolve_stages(["exact"])
>>> a = align_reference(ROW_1.candidate.split(), ROW_1.reference.split(), exact)
>>> a
((0, 3, 'exact'), (1, 0, 'exact'), (2, 5, 'exact'), (3, 2, 'exact'), (4, 4, 'exact'), (5, 1, 'exact'))
>>> tuple((i, j) for i, j, _ in a) == ALIGNMENT_A.pairs
True
>>> b = align_reference(ROW_1.candidate.split(), ROW_1.reference.split(), exact, tie_break="chunks")
>>> tuple((i, j) for i, j, _ in b) == ALIGNMENT_B.pairs
True

Row 3, one inserted word, and several stages (``cats`` takes ``cat`` at the stem stage):

>>> [(i, j) for i, j, _ in align_reference(ROW_3.candidate.split(), ROW_3.reference.split(), exact)]
[(0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (6, 5)]
>>> align_reference(["the", "cats", "sat"], ["a", "cat", "sat"], resolve_stages(["exact", "stem"]))
((1, 1, 'stem'), (2, 2, 'exact'))

Fewest chunks before the lexicographic rule: three alignments have 4 mappings and
1 crossing; the one kept has 3 chunks (``He eats`` together), not 4:

>>> from mtlearn.metrics.meteor.formulas import count_chunks
>>> cand, ref = "He He He eats sweet apple which is a fruit.".split(), "He eats a sweet apple.".split()
>>> pairs = [(i, j) for i, j, _ in align_reference(cand, ref, exact)]
>>> pairs, count_chunks(pairs)
([(2, 0), (3, 1), (4, 3), (8, 2)], 3)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence

from mtlearn.core.checks import check_choice
from mtlearn.metrics.meteor.formulas import count_chunks, count_crossings
from mtlearn.metrics.meteor.matchers import Stage, resolve_stages, stage_matches

#: The longest sentence (in words, per side) :func:`align_reference` accepts.
REFERENCE_MAX_WORDS = 12

Pair = tuple[int, int]
UNMATCHED = sys.maxsize  # an unmatched candidate word reads as after every reference position


def alignments(free_c: Sequence[int], free_r: Sequence[int], ok) -> Iterator[list[Pair]]:
    """Every one-to-one set of mappings from ``free_c`` to ``free_r`` that ``ok(i, j)`` allows.

    >>> list(alignments([0, 1], [0], lambda i, j: True))
    [[], [(1, 0)], [(0, 0)]]
    """
    if not free_c:
        yield []
        return
    i, rest = free_c[0], free_c[1:]
    yield from alignments(rest, free_r, ok)  # candidate word i stays unmatched
    for j in free_r:
        if ok(i, j):
            for more in alignments(rest, [r for r in free_r if r != j], ok):
                yield [(i, j)] + more


def align_reference(
    candidate: Sequence[str], reference: Sequence[str], stages: Sequence[Stage], *,
    tie_break: str = "crossings",
) -> tuple[tuple[int, int, str], ...]:
    """The alignment the rule chooses, as ``(candidate index, reference index, stage name)``.

    ``stages`` are stage objects or names, as :func:`mtlearn.metrics.meteor.matchers.resolve_stages`
    takes them. The mappings are sorted by candidate index. See the module docstring for the rule.

    >>> from mtlearn.metrics.meteor.matchers import resolve_stages
    >>> align_reference(["b", "a"], ["a", "b"], resolve_stages(["exact"]))
    ((0, 1, 'exact'), (1, 0, 'exact'))
    >>> align_reference(["a"] * 13, ["a"], resolve_stages(["exact"]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: candidate: 13 words; the reference aligner ... takes at most 12 words per side ...
    """
    check_choice(tie_break, ("crossings", "chunks"), "tie_break")
    stages = resolve_stages(stages)  # names become matchers; matchers pass through
    for argname, words in (("candidate", candidate), ("reference", reference)):
        if isinstance(words, str):
            raise TypeError(f"{argname}: expected a list of tokens, got str (split the sentence first)")
        if len(words) > REFERENCE_MAX_WORDS:
            raise ValueError(
                f"{argname}: {len(words)} words; the reference aligner lists every alignment, whose "
                "number grows exponentially with the length, so it takes at most "
                f"{REFERENCE_MAX_WORDS} words per side "
                "(the search, align()'s default method, takes any length)")
    fixed: list[Pair] = []  # the mappings of the earlier stages
    stage_of: dict[int, str] = {}
    for stage in stages:
        used = {j for _, j in fixed}
        free_c = [i for i in range(len(candidate)) if i not in stage_of]
        free_r = [j for j in range(len(reference)) if j not in used]

        def allowed(i: int, j: int) -> bool:
            return stage_matches(stage, candidate[i], reference[j])

        def rank(new: list[Pair]) -> tuple:
            # Smaller is better: most mappings, fewest crossings, fewest chunks (both over
            # all mappings so far), then the stage's reference positions in candidate order.
            every = fixed + new
            crossings = count_crossings(every) if tie_break == "crossings" else 0
            where = dict(new)
            reading = [where.get(i, UNMATCHED) for i in free_c]
            return (-len(new), crossings, count_chunks(every), reading)

        best = min(alignments(free_c, free_r, allowed), key=rank)
        fixed += best
        stage_of.update((i, stage.name) for i, _ in best)
    return tuple(sorted((i, j, stage_of[i]) for i, j in fixed))

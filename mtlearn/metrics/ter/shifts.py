"""TER's greedy shift search (Snover et al. 2006), as sacreBLEU 2.6 re-implements tercom's.

TER allows one more edit than Levenshtein: a **shift** moves a contiguous block of
candidate words elsewhere, at cost 1 whatever its length. Finding the cheapest
sequence of shifts is NP-hard, so tercom searches greedily, round by round:

1. align the current candidate with the reference (:func:`~mtlearn.metrics.ter.edit_distance.levenshtein`
   with the beam) and note which candidate words and which reference words are wrong;
2. list the **shift candidates**: every block ``cand[s:s+k]`` equal to some
   ``ref[t:t+k]`` with ``k <= 10`` words (``MAX_SHIFT_SIZE``) and ``|s - t| <= 50``
   (``MAX_SHIFT_DISTANCE``), such that the block holds a wrong candidate word, the
   reference span holds a wrong reference word, and the reference span is not already
   aligned inside the block; each such block may land just after the candidate word
   aligned with ``ref[t-1]``, ``ref[t]``, ... ``ref[t+k-1]`` (or at the very start);
3. try each one and keep the shift that lowers the edit distance most; on a tie the
   longer block, then the earlier block, then the earlier destination;
4. if it lowers the distance, apply it (one edit) and start a new round; else stop.

sacreBLEU gives up after trying ``MAX_SHIFT_CANDIDATES = 1000`` shifts in all rounds of
one sentence pair: the round in which the 1000th is tried is dropped, its shift is not
applied (sacreBLEU's own limit, kept for parity; tercom has none). TER = (shifts + final edit
distance) / reference length. Where tercom's Java code differs (its beam, how it measures the
shift distance, a block moved past fewer words than its length), the TER card lists each
difference with a pair that shows it.

This module is the plain version, written to be read; ``fast.py`` computes the same
search faster and ``tests/metrics/ter/`` proves the two equal on random inputs.

>>> search = shift_search("c d a b".split(), "a b c d".split())
>>> [(s.words, s.start, s.destination, s.gain) for s in search.shifts]
[(('c', 'd'), 0, 2, 4)]
>>> search.shifted, search.alignment.distance, search.edits
(('a', 'b', 'c', 'd'), 0, 1)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from mtlearn.metrics.ter.edit_distance import Alignment, levenshtein

__all__ = [
    "Shift",
    "ShiftSearch",
    "shift_search",
    "apply_shift",
    "shift_candidates",
    "MAX_SHIFT_SIZE",
    "MAX_SHIFT_DISTANCE",
    "MAX_SHIFT_CANDIDATES",
    "LIMIT_NOTE",
    "make_shift",
    "error_marks",
    "shift_round",
]

#: Longest block a shift moves (words).
MAX_SHIFT_SIZE = 10
#: Largest |candidate position - reference position| of a block that may be shifted (tercom: 50 too, measured
#: from the candidate word aligned with the reference position).
MAX_SHIFT_DISTANCE = 50
#: Shifts tried over all rounds of one pair before the search gives up (sacreBLEU's; tercom has no limit).
MAX_SHIFT_CANDIDATES = 1000

#: ``ShiftSearch.stopped`` when the limit was reached.
LIMIT_NOTE = ("{limit} shift candidates tried (sacreBLEU's limit): the search stopped in round {round}, "
              "whose best shift is not applied")


@dataclass(frozen=True)
class Shift:
    """One shift taken by the search.

    - ``words``: the block moved; ``start``: its first index in the candidate *as it was
      before this shift*; ``length`` = ``len(words)``;
    - ``destination``: tercom/sacreBLEU's target index ``t`` in the same coordinates: the
      block is cut out and put back so that it lands before the word that was at ``t``
      (when ``t < start``), or after the word at ``t - 1`` (when ``t > start + length``); for
      ``start <= t <= start + length`` (a move right past fewer than ``length`` words) the
      block starts at index ``t`` of the new sentence. ``landing`` is where it starts after the shift;
    - ``round`` (1-based), ``gain``: edits saved by this shift in its round (edit distance
      before minus after, not counting the shift itself), ``reason``: why it was taken.

    >>> s = shift_search("c d a b".split(), "a b c d".split()).shifts[0]
    >>> s.landing, s.round, s.reason
    (2, 1, 'edit distance 4 -> 0 (saves 4), the largest saving of the 14 shifts tried in round 1')
    """

    words: tuple[str, ...]
    start: int
    length: int
    destination: int
    round: int
    gain: int
    reason: str

    @property
    def landing(self) -> int:
        """The index of the block's first word after the shift."""
        moved_right = self.destination > self.start + self.length
        return self.destination - self.length if moved_right else self.destination


@dataclass(frozen=True)
class ShiftSearch:
    """What :func:`shift_search` found: the shifts, the shifted candidate, its alignment.

    ``edits`` = ``len(shifts) + alignment.distance`` (each shift costs one edit);
    ``tried`` counts the shift candidates evaluated over all rounds; ``stopped`` says why
    the search ended.
    """

    shifts: tuple[Shift, ...]
    shifted: tuple[str, ...]
    alignment: Alignment
    tried: int
    stopped: str

    @property
    def edits(self) -> int:
        """Shifts plus the edit distance of the shifted candidate."""
        return len(self.shifts) + self.alignment.distance


def apply_shift(words: Sequence[str], start: int, length: int, destination: int) -> tuple[str, ...]:
    """Move ``words[start:start+length]`` to ``destination`` (tercom's coordinates, see :class:`Shift`).

    >>> apply_shift("a b c d e".split(), 3, 2, 0)       # to the front
    ('d', 'e', 'a', 'b', 'c')
    >>> apply_shift("a b c d e".split(), 0, 2, 5)       # after the word at index 4
    ('c', 'd', 'e', 'a', 'b')
    >>> apply_shift("a b c d e".split(), 0, 2, 1)       # a short move right: lands at index 1
    ('c', 'a', 'b', 'd', 'e')
    """
    block = tuple(words[start : start + length])
    rest = tuple(words[:start]) + tuple(words[start + length :])
    landing = destination - length if destination > start + length else destination
    return rest[:landing] + block + rest[landing:]


def error_marks(alignment: Alignment) -> tuple[list[bool], list[bool], list[int]]:
    """From an alignment: the candidate words wrong, the reference words wrong, where each reference word is.

    ``aligned[t]`` is the candidate index aligned with reference word ``t`` (for a
    reference word the candidate lacks: the index of the candidate word before it, -1 at
    the start).

    >>> a = levenshtein("x b".split(), "a b c".split())
    >>> error_marks(a)
    ([True, False], [True, False, True], [0, 1, 1])
    """
    cand_wrong: list[bool] = []
    ref_wrong: list[bool] = []
    aligned: list[int] = []
    i = -1
    for op in alignment.ops:
        if op in ("match", "substitute"):
            i += 1
            cand_wrong.append(op == "substitute")
            ref_wrong.append(op == "substitute")
            aligned.append(i)
        elif op == "delete":  # a candidate word the reference does not have
            i += 1
            cand_wrong.append(True)
        else:  # insert: a reference word the candidate lacks
            ref_wrong.append(True)
            aligned.append(i)
    return cand_wrong, ref_wrong, aligned


def shift_candidates(
    words: Sequence[str], reference: Sequence[str], alignment: Alignment
) -> Iterator[tuple[int, int, int, int]]:
    """Every shift worth trying, in tercom's order, as ``(start, ref_start, length, destination)``.

    Blocks are listed by candidate start, then reference start, then length; each
    block's destinations follow the reference words just before and inside its reference
    span (a destination equal to the previous one is skipped).

    >>> a = levenshtein("c d a b".split(), "a b c d".split())
    >>> [c for c in shift_candidates("c d a b".split(), "a b c d".split(), a)][:3]
    [(0, 2, 1, 2), (0, 2, 1, 3), (0, 2, 2, 2)]
    """
    cand_wrong, ref_wrong, aligned = error_marks(alignment)
    n, m = len(words), len(reference)
    for s in range(n):
        for t in range(max(0, s - MAX_SHIFT_DISTANCE), min(m, s + MAX_SHIFT_DISTANCE + 1)):
            k = 0
            while k < MAX_SHIFT_SIZE and s + k < n and t + k < m and words[s + k] == reference[t + k]:
                k += 1
                # Worth trying only if the block fixes something on both sides, and the
                # reference span is not already aligned inside the block.
                if not any(cand_wrong[s : s + k]) or not any(ref_wrong[t : t + k]):
                    continue
                if s <= aligned[t] < s + k:
                    continue
                previous = None
                for r in range(t - 1, t + k):
                    destination = 0 if r == -1 else aligned[r] + 1
                    if destination != previous:
                        yield s, t, k, destination
                    previous = destination


def shift_round(
    words: Sequence[str], reference: Sequence[str], alignment: Alignment, round_number: int, tried: int
) -> tuple[Shift | None, int]:
    """One round: try every candidate shift, return the best one (or ``None``) and the updated count tried.

    The best is the largest gain (edit distance before minus after), then the longest
    block, then the earliest start, then the earliest destination. Trying stops after
    the block during which the total count reached ``MAX_SHIFT_CANDIDATES``.

    >>> a = levenshtein("b a".split(), "a b".split())
    >>> shift, tried = shift_round("b a".split(), "a b".split(), a, 1, 0)
    >>> shift.words, shift.destination, shift.gain, tried
    (('b',), 1, 2, 4)
    """
    best: tuple | None = None
    tried_here = 0
    block = None
    for s, t, k, destination in shift_candidates(words, reference, alignment):
        if block is not None and block != (s, t, k) and tried >= MAX_SHIFT_CANDIDATES:
            break
        block = (s, t, k)
        shifted = apply_shift(words, s, k, destination)
        gain = alignment.distance - levenshtein(shifted, reference).distance
        tried += 1
        tried_here += 1
        key = (gain, k, -s, -destination)
        if best is None or key > best[0]:
            best = (key, s, k, destination, tried_here)
    if best is None or best[0][0] <= 0:
        return None, tried
    (gain, _, _, _), s, k, destination, _ = best
    return make_shift(words, s, k, destination, round_number, gain, tried_here, alignment.distance), tried


def make_shift(
    words: Sequence[str], start: int, length: int, destination: int, round_number: int, gain: int,
    tried_here: int, distance_before: int,
) -> Shift:
    """The :class:`Shift` record of a shift taken, with its reason written out.

    >>> make_shift("b a".split(), 1, 1, 0, 1, 2, 2, 2).reason
    'edit distance 2 -> 0 (saves 2), the largest saving of the 2 shifts tried in round 1'
    """
    reason = (f"edit distance {distance_before} -> {distance_before - gain} (saves {gain}), the largest "
              f"saving of the {tried_here} shifts tried in round {round_number}")
    return Shift(tuple(words[start : start + length]), start, length, destination, round_number, gain, reason)


def shift_search(candidate: Sequence[str], reference: Sequence[str]) -> ShiftSearch:
    """Shift greedily until no shift lowers the edit distance (or 1000 shifts were tried).

    An empty reference needs no search: every candidate word is a deletion.

    >>> s = shift_search("the cat sat on the mat".split(), "on the mat the cat sat".split())
    >>> [(x.words, x.destination) for x in s.shifts], s.shifted, s.edits
    ([(('the', 'cat', 'sat'), 3)], ('on', 'the', 'mat', 'the', 'cat', 'sat'), 1)
    """
    words = tuple(candidate)
    alignment = levenshtein(words, reference)
    shifts: list[Shift] = []
    tried = 0
    stopped = "no shift lowers the edit distance"
    while reference:
        shift, tried = shift_round(words, reference, alignment, len(shifts) + 1, tried)
        if tried >= MAX_SHIFT_CANDIDATES:
            stopped = LIMIT_NOTE.format(limit=MAX_SHIFT_CANDIDATES, round=len(shifts) + 1)
            break
        if shift is None:
            break
        shifts.append(shift)
        words = apply_shift(words, shift.start, shift.length, shift.destination)
        alignment = levenshtein(words, reference)
    if not reference:
        stopped = "empty reference: no shifts, every candidate word is deleted"
    return ShiftSearch(tuple(shifts), words, alignment, tried, stopped)

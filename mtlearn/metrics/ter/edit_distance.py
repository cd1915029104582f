"""Word-level Levenshtein distance with its trace, as TER (tercom, sacreBLEU) computes it.

The edit distance turns the candidate into the reference with three operations of
cost 1 each: **substitute** a word, **delete** a candidate word that the reference
does not have, **insert** a reference word that the candidate lacks. Matches cost 0.

The table ``d[i][j]`` is the cheapest way to turn the first ``i`` candidate words
into the first ``j`` reference words::

    d[0][j] = j                       (insert j reference words)
    d[i][0] = i                       (delete i candidate words)
    d[i][j] = min(d[i-1][j-1] + (0 if cand[i-1] == ref[j-1] else 1),   match / substitute
                  d[i-1][j] + 1,                                       delete cand[i-1]
                  d[i][j-1] + 1)                                       insert ref[j-1]

On a tie the first line wins, then delete, then insert (tercom's preference, which
sacreBLEU keeps); the trace is read back from ``d[n][m]``.

TER's version adds tercom's **beam**: row ``i`` is only filled around the
"pseudo-diagonal" ``floor(i * m / n)``, 25 columns either side (wider when the
lengths differ by more than a factor 50), and the last row in full; the other cells
count as unreachable. On sentences of up to about 25 words the beam covers the whole
table and the distance is the exact Levenshtein distance; on long sentences it can be
larger (a cheaper path that leaves the beam is not seen). ``beam=False`` gives the
exact distance, WER's and CER's; this plain table is their definition, and they run its
fast twin :func:`~mtlearn.metrics.ter.fast.exact_levenshtein` (bit-parallel rows, the same
distance and trace, proved equal by ``tests/metrics/ter/``), which takes a fraction of a
second where this table takes minutes (10,000 words against 10,000).

>>> a = levenshtein("the cat sat".split(), "the cat sat down".split())
>>> a.distance, a.ops
(1, ('match', 'match', 'match', 'insert'))
>>> levenshtein("a b c".split(), "a x c".split()).ops
('match', 'substitute', 'match')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Alignment", "levenshtein", "beam_window", "BEAM_WIDTH"]

#: Columns either side of the pseudo-diagonal that tercom's beam fills.
BEAM_WIDTH = 25

#: The value of a cell outside the beam (sacreBLEU's "infinity"; any finite path is cheaper).
UNREACHABLE = 10**16

_MATCH, _SUB, _DEL, _INS = "match", "substitute", "delete", "insert"


@dataclass(frozen=True)
class Alignment:
    """The result of :func:`levenshtein`: the distance and the operations, in order.

    ``ops`` walks both sequences left to right: ``match``/``substitute`` consume one
    candidate word and one reference word, ``delete`` one candidate word, ``insert``
    one reference word. The distance is the number of ops other than ``match``.

    >>> a = levenshtein(["b", "a"], ["a", "b"])
    >>> a.distance, a.ops
    (2, ('substitute', 'substitute'))
    """

    distance: int
    ops: tuple[str, ...]


def beam_window(i: int, n_candidate: int, n_reference: int) -> tuple[int, int]:
    """The columns ``range(lo, hi)`` that row ``i`` (1-based) of the beam fills.

    The pseudo-diagonal is ``floor(i * m / n)`` computed in floating point as tercom's
    port does; the width is 25 either side, or ``ceil(ratio / 2 + 25)`` when the reference
    is more than 50 times longer than the candidate (so consecutive rows still overlap).
    The last row is filled to the end.

    >>> beam_window(1, 40, 40), beam_window(30, 40, 40), beam_window(40, 40, 40)
    ((0, 26), (5, 41), (15, 41))
    """
    ratio = n_reference / n_candidate if n_candidate else 1
    width = math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH
    diagonal = math.floor(i * ratio)
    lo = max(0, diagonal - width)
    hi = n_reference + 1 if i == n_candidate else min(n_reference + 1, diagonal + width)
    return lo, hi


def levenshtein(candidate: Sequence[str], reference: Sequence[str], *, beam: bool = True) -> Alignment:
    """The edit distance from ``candidate`` to ``reference`` and its trace (see the module docstring).

    The table is filled row by row (one row per candidate word); each cell keeps its
    cost and the operation that reached it. With ``beam=True`` (TER) only the cells of
    :func:`beam_window` are filled; ``beam=False`` fills every cell (exact Levenshtein).

    >>> levenshtein("a b c d".split(), "b c d a".split()).distance
    2
    >>> levenshtein([], ["x", "y"]).ops, levenshtein(["x"], []).ops
    (('insert', 'insert'), ('delete',))
    """
    n, m = len(candidate), len(reference)
    # Row 0: j insertions. Rows are stored only over the columns they fill: (lo, costs, ops).
    rows: list[tuple[int, list[int], list[str]]] = [(0, list(range(m + 1)), [_INS] * (m + 1))]
    for i in range(1, n + 1):
        lo, hi = beam_window(i, n, m) if beam else (0, m + 1)
        rows.append(_fill_row(rows[i - 1], lo, hi, candidate[i - 1], reference))
    return Alignment(_cost(rows[n], m), _trace(rows, n, m))


def _cost(row: tuple[int, list[int], list[str]], j: int) -> int:
    lo, costs, _ = row
    return costs[j - lo] if lo <= j < lo + len(costs) else UNREACHABLE


def _fill_row(
    prev: tuple[int, list[int], list[str]], lo: int, hi: int, word: str, reference: Sequence[str]
) -> tuple[int, list[int], list[str]]:
    """Row i from row i-1 over columns lo..hi-1: the three moves, first-best wins."""
    costs: list[int] = []
    ops: list[str] = []
    for j in range(lo, hi):
        if j == 0:
            best, op = _cost(prev, 0) + 1, _DEL
        else:
            diagonal = _cost(prev, j - 1)
            same = word == reference[j - 1]
            best, op = (diagonal, _MATCH) if same else (diagonal + 1, _SUB)
            if _cost(prev, j) + 1 < best:
                best, op = _cost(prev, j) + 1, _DEL
            left = costs[-1] if j > lo else UNREACHABLE
            if left + 1 < best:
                best, op = left + 1, _INS
        costs.append(min(best, UNREACHABLE))
        ops.append(op)
    return lo, costs, ops


def _trace(rows: list[tuple[int, list[int], list[str]]], n: int, m: int) -> tuple[str, ...]:
    """Read the operations back from cell (n, m) to (0, 0)."""
    out = []
    i, j = n, m
    while i > 0 or j > 0:
        lo, _, ops = rows[i]
        op = ops[j - lo]
        out.append(op)
        if op in (_MATCH, _SUB):
            i, j = i - 1, j - 1
        elif op == _DEL:
            i -= 1
        else:
            j -= 1
    out.reverse()
    return tuple(out)

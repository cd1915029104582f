"""The fast twins of TER's formulas, each proved equal to its formula by
``tests/metrics/ter/test_ter_fast_equals_formulas.py``.

:func:`ter_edits` returns exactly ``shift_search(candidate, reference).edits`` and
:func:`fast_shift_search` exactly ``shift_search(candidate, reference)``
(:mod:`~mtlearn.metrics.ter.shifts`); ``corpus_ter`` runs the first per segment, ``ter`` the second.
It fills fewer cells of the edit-distance table, by three rules that cannot change the result:

- **shared prefix**: a shift changes nothing before ``min(start, landing)``, so the rows of
  the current candidate's table are reused up to there;
- **no better than the best**: a cell value never decreases along a path and the length
  difference still ahead costs at least that many edits, so once every cell of a row plus
  that difference exceeds the largest distance that could still beat the best shift so far
  (or save at least one edit), the candidate is dropped;
- **back on track**: after the shifted block, a row equal to the current candidate's row
  means the rest of the table is equal too, so the shift saves nothing.

Shift candidates are listed from a table of where each word occurs in the reference
rather than by comparing every pair of positions.

WER and CER need the *exact* Levenshtein distance (no beam) of pairs that can be long.
:func:`exact_levenshtein` returns exactly ``levenshtein(candidate, reference, beam=False)``
(same distance, same trace with tercom's preference on ties) and :func:`exact_distance` its
distance, by Myers' bit-parallel
algorithm (Myers 1999, in Hyyrö's 2001 formulation for the global distance): a row of the
table is stored as two bit masks over the reference, ``plus`` (``d[i][j] - d[i][j-1] = +1``)
and ``minus`` (``= -1``), so ``d[i][j] = i + popcount(plus below j) - popcount(minus below j)``;
the next row is a dozen operations on Python integers, whatever the length. The trace is read
back from those rows with the plain rule (diagonal if it gives the cell's value, else delete,
else insert); only every ``isqrt(n)``-th row is kept while filling, and the rows of one block are
recomputed when the trace reaches it (memory about ``2 * isqrt(n)`` rows instead of ``n``).

A paired significance test scores thousands of resampled corpora: :func:`ter_scores` is
:func:`~mtlearn.metrics.ter.formulas.ter_fraction` of many summed statistics at once (numpy).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import isqrt
from operator import add as _add

import numpy as np

from mtlearn.metrics.ter.edit_distance import (
    UNREACHABLE,
    Alignment,
    beam_window,
    levenshtein,  # noqa: F401 - exact_levenshtein's doctest compares
)
from mtlearn.metrics.ter.shifts import (
    LIMIT_NOTE,
    MAX_SHIFT_CANDIDATES,
    MAX_SHIFT_DISTANCE,
    MAX_SHIFT_SIZE,
    ShiftSearch,
    apply_shift,
    make_shift,
    shift_search,
)

__all__ = ["ter_edits", "fast_shift_search", "exact_levenshtein", "exact_distance", "ter_scores"]

_INF = UNREACHABLE
_Row = tuple  # (lo, costs): the costs of columns lo, lo + 1, ...


def _next_row(prev: _Row, lo: int, hi: int, word: str, reference: Sequence[str]) -> list[int]:
    """Costs of columns lo..hi-1 of the next row (distance only; ties do not matter here)."""
    plo, pcosts = prev
    pad = hi - plo - len(pcosts)
    ext = [_INF, *pcosts, *([_INF] * pad)] if pad > 0 else [_INF, *pcosts]
    if lo == 0:
        left = ext[1] + 1
        cur = [left]
        j0 = 1
    else:
        left = _INF
        cur = []
        j0 = lo
    append = cur.append
    a = j0 - plo
    for diag, up, ref_word in zip(ext[a : hi - plo], ext[a + 1 : hi - plo + 1], reference[j0 - 1 : hi - 1]):
        if ref_word != word:
            diag += 1
        up += 1
        if up < diag:
            diag = up
        left += 1
        if left < diag:
            diag = left
        append(diag)
        left = diag
    return cur


def _trace_rows(words: Sequence[str], reference: Sequence[str], windows: list) -> tuple[list, list]:
    """Every row of the beam table (lo, costs) and every row's moves."""
    m = len(reference)
    rows: list = [(0, list(range(m + 1)))]
    ops_rows: list = [None]
    for i in range(1, len(words) + 1):
        lo, hi = windows[i]
        costs, ops = _next_row_ops(rows[i - 1], lo, hi, words[i - 1], reference)
        rows.append((lo, costs))
        ops_rows.append(ops)
    return rows, ops_rows


def _next_row_ops(prev: _Row, lo: int, hi: int, word: str, reference: Sequence[str]) -> tuple[list, list]:
    """Like :func:`_next_row`, keeping each cell's move by tercom's preference (diagonal, delete, insert)."""
    plo, pcosts = prev
    pad = hi - plo - len(pcosts)
    ext = [_INF, *pcosts, *([_INF] * pad)] if pad > 0 else [_INF, *pcosts]
    if lo == 0:
        left = ext[1] + 1
        cur, ops = [left], ["D"]
        j0 = 1
    else:
        left, cur, ops = _INF, [], []
        j0 = lo
    a = j0 - plo
    for diag, up, ref_word in zip(ext[a : hi - plo], ext[a + 1 : hi - plo + 1], reference[j0 - 1 : hi - 1]):
        op = "M"
        if ref_word != word:
            diag += 1
            op = "S"
        if up + 1 < diag:
            diag, op = up + 1, "D"
        if left + 1 < diag:
            diag, op = left + 1, "I"
        cur.append(diag)
        ops.append(op)
        left = diag
    return cur, ops


_NAMES = {"M": "match", "S": "substitute", "D": "delete", "I": "insert"}


def _ops(rows: list, ops_rows: list, n: int, m: int) -> list[str]:
    """The trace from (n, m) back to (0, 0), as move letters in reading order."""
    out = []
    i, j = n, m
    while i > 0 or j > 0:
        op = ops_rows[i][j - rows[i][0]] if i > 0 else "I"
        out.append(op)
        if op == "M" or op == "S":
            i -= 1
            j -= 1
        elif op == "D":
            i -= 1
        else:
            j -= 1
    out.reverse()
    return out


def _marks(ops: list, n: int, m: int) -> tuple[list, list, list]:
    """From the trace: candidate words wrong, reference words wrong, each reference word's candidate index."""
    cand_wrong = [False] * n
    ref_wrong = [False] * m
    aligned = [0] * m
    i, j = n, m
    for op in reversed(ops):
        if op == "M" or op == "S":
            i -= 1
            j -= 1
            aligned[j] = i
            if op == "S":
                cand_wrong[i] = ref_wrong[j] = True
        elif op == "D":
            i -= 1
            cand_wrong[i] = True
        else:
            j -= 1
            ref_wrong[j] = True
            aligned[j] = i - 1
    return cand_wrong, ref_wrong, aligned


def _next_error(wrong: list) -> list[int]:
    """``out[p]`` = the first index >= p marked wrong (``len(wrong)`` if none)."""
    out = [0] * (len(wrong) + 1)
    nxt = len(wrong)
    out[nxt] = nxt
    for p in range(len(wrong) - 1, -1, -1):
        if wrong[p]:
            nxt = p
        out[p] = nxt
    return out


def _candidates(words: Sequence[str], reference: Sequence[str], marks: tuple, where: dict):
    """The shift candidates of :func:`~mtlearn.metrics.ter.shifts.shift_candidates`, same order."""
    cand_wrong, ref_wrong, aligned = marks
    cand_next, ref_next = _next_error(cand_wrong), _next_error(ref_wrong)
    n, m = len(words), len(reference)
    for s in range(n):
        k_min = cand_next[s] - s + 1  # the block must hold a wrong candidate word
        if k_min > MAX_SHIFT_SIZE:
            continue
        for t in where.get(words[s], ()):
            if t < s - MAX_SHIFT_DISTANCE:
                continue
            if t > s + MAX_SHIFT_DISTANCE:
                break
            k_max = min(MAX_SHIFT_SIZE, n - s, m - t)
            k = 1
            while k < k_max and words[s + k] == reference[t + k]:
                k += 1
            at = aligned[t]
            for length in range(max(k_min, ref_next[t] - t + 1), k + 1):
                if s <= at < s + length:
                    continue
                yield s, length, _destinations(aligned, t, length)


def _destinations(aligned: list, t: int, length: int) -> list[int]:
    out = [0] if t == 0 else [aligned[t - 1] + 1]
    for r in range(t, t + length):
        d = aligned[r] + 1
        if d != out[-1]:
            out.append(d)
    return out


def _to_corner(windows: list, n: int, m: int) -> list:
    """Per row i, the fewest edits still needed from each cell (i, j): ``|(n - i) - (m - j)|``."""
    out: list = [None]
    for i in range(1, n + 1):
        lo, hi = windows[i]
        target = m - (n - i)
        out.append([abs(j - target) for j in range(lo, hi)])
    return out


def _shifted_distance(words, reference, rows, windows, corner, s, length, landing, limit):
    """Edit distance of ``words`` with the block moved, or ``None`` once it must exceed ``limit``."""
    block = words[s : s + length]
    rest = words[:s] + words[s + length :]
    shifted = rest[:landing] + block + rest[landing:]
    first = min(s, landing)
    last = max(s, landing) + length  # from here on the words are the current ones
    row = rows[first]
    for i in range(first + 1, len(words) + 1):
        lo, hi = windows[i]
        costs = _next_row(row, lo, hi, shifted[i - 1], reference)
        # Any path through row i costs at least its cell plus the length difference still ahead.
        if min(map(_add, costs, corner[i])) > limit:
            return None
        if i >= last and costs == rows[i][1]:
            return None  # back on the current table: no saving
        row = (lo, costs)
    return row[1][-1]


def _best_shift(words, reference, rows, marks, windows, corner, where, tried):
    """One round of the search: the best shift (start, length, destination, gain) or ``None``, tried."""
    pre = rows[-1][1][-1]
    best_key = (0, 0, 0, 0)
    best = None
    for s, length, destinations in _candidates(words, reference, marks, where):
        if tried >= MAX_SHIFT_CANDIDATES:
            break
        for destination in destinations:
            tried += 1
            key = (length, -s, -destination)
            need = best_key[0] if best is not None and key > best_key[1:] else best_key[0] + 1
            landing = destination - length if destination > s + length else destination
            dist = _shifted_distance(words, reference, rows, windows, corner, s, length, landing,
                                     pre - need)
            if dist is not None and pre - dist >= need:
                best_key = (pre - dist, *key)
                best = (s, length, destination, pre - dist)
    return best, tried


def _run(candidate: Sequence[str], reference: Sequence[str]) -> tuple:
    """The greedy search: (shifts taken, final words, its rows and ops rows, shifts tried, why it stopped).

    Each shift taken is (start, length, destination, gain, shifts tried in its round, distance before it).
    """
    words = tuple(candidate)
    reference = tuple(reference)
    n, m = len(words), len(reference)
    windows = [None] + [beam_window(i, n, m) for i in range(1, n + 1)]
    corner = _to_corner(windows, n, m)
    where: dict = {}
    for t, w in enumerate(reference):
        where.setdefault(w, []).append(t)
    taken = []
    tried = 0
    stopped = "no shift lowers the edit distance"
    while True:
        rows, ops_rows = _trace_rows(words, reference, windows)
        marks = _marks(_ops(rows, ops_rows, n, m), n, m)
        if not any(marks[0]):
            break
        before = tried
        best, tried = _best_shift(words, reference, rows, marks, windows, corner, where, tried)
        if tried >= MAX_SHIFT_CANDIDATES:
            stopped = LIMIT_NOTE.format(limit=MAX_SHIFT_CANDIDATES, round=len(taken) + 1)
            break
        if best is None:
            break
        s, length, destination, gain = best
        taken.append((s, length, destination, gain, tried - before, rows[-1][1][-1]))
        words = apply_shift(words, s, length, destination)
    return taken, words, rows, ops_rows, tried, stopped


def ter_edits(candidate: Sequence[str], reference: Sequence[str]) -> int:
    """TER's edit count (shifts + final edit distance) of one candidate against one reference.

    Equal to ``shift_search(candidate, reference).edits``.

    >>> ter_edits("c d a b".split(), "a b c d".split())
    1
    >>> ter_edits("a b".split(), [])
    2
    """
    if not reference:
        return len(candidate)
    taken, _, rows, _, _, _ = _run(candidate, reference)
    return len(taken) + rows[-1][1][-1]


def fast_shift_search(candidate: Sequence[str], reference: Sequence[str]) -> ShiftSearch:
    """:func:`~mtlearn.metrics.ter.shifts.shift_search`, computed by the fast path (same result).

    >>> s = fast_shift_search("c d a b".split(), "a b c d".split())
    >>> s == shift_search("c d a b".split(), "a b c d".split())
    True
    """
    if not reference:
        return shift_search(candidate, reference)
    taken, words, rows, ops_rows, tried, stopped = _run(candidate, reference)
    shifts = []
    current = tuple(candidate)
    for number, (s, length, destination, gain, tried_here, before) in enumerate(taken, start=1):
        shifts.append(make_shift(current, s, length, destination, number, gain, tried_here, before))
        current = apply_shift(current, s, length, destination)
    ops = tuple(_NAMES[op] for op in _ops(rows, ops_rows, len(words), len(reference)))
    return ShiftSearch(tuple(shifts), words, Alignment(rows[-1][1][-1], ops), tried, stopped)


# --------------------------------------------------------------------------------------
# Exact Levenshtein (WER, CER): bit-parallel rows
# --------------------------------------------------------------------------------------


def _equal_masks(candidate: Sequence[str], reference: Sequence[str]) -> dict[str, int]:
    """Per candidate word that the reference has, the bit mask of its reference positions."""
    where: dict = {}
    for j, w in enumerate(reference):
        where.setdefault(w, []).append(j)
    out = {}
    for w in set(candidate):
        positions = where.get(w)
        if positions:
            bits = bytearray(positions[-1] // 8 + 1)
            for j in positions:
                bits[j >> 3] |= 1 << (j & 7)
            out[w] = int.from_bytes(bits, "little")
    return out


def _next_bit_row(plus: int, minus: int, equal: int, mask: int) -> tuple[int, int]:
    """Row i from row i - 1 (Hyyrö's step): ``equal`` marks the reference words equal to candidate word i."""
    x_row = equal | minus
    x_col = (((equal & plus) + plus) ^ plus) | equal
    up_plus = minus | (mask & ~(x_col | plus))  # d[i][j] - d[i-1][j] = +1, bit j - 1
    up_minus = plus & x_col  # ... = -1
    up_plus = ((up_plus << 1) | 1) & mask  # column 0: d[i][0] - d[i-1][0] = +1
    up_minus = (up_minus << 1) & mask
    return up_minus | (mask & ~(x_row | up_plus)), up_plus & x_row


def _bit_rows(candidate: Sequence[str], equal: dict, mask: int, start: tuple[int, int], first: int,
              last: int) -> list[tuple[int, int]]:
    """Rows ``first..last`` (inclusive) as (plus, minus), from row ``first``'s ``start``."""
    rows = [start]
    plus, minus = start
    for i in range(first + 1, last + 1):
        plus, minus = _next_bit_row(plus, minus, equal.get(candidate[i - 1], 0), mask)
        rows.append((plus, minus))
    return rows


def _value(i: int, row: tuple[int, int], j: int) -> int:
    """``d[i][j]`` from row i's masks."""
    below = (1 << j) - 1
    return i + (row[0] & below).bit_count() - (row[1] & below).bit_count()


def exact_distance(candidate: Sequence[str], reference: Sequence[str]) -> int:
    """The exact Levenshtein distance, no trace: ``levenshtein(candidate, reference, beam=False).distance``.

    A shared prefix and suffix are dropped first (they never change the distance), and the
    rows run over the shorter sequence (the distance is symmetric).

    >>> exact_distance("the cat sat".split(), "the cat sat down".split())
    1
    >>> exact_distance(list("kitten"), list("sitting")), exact_distance([], ["x"])
    (3, 1)
    """
    a, b = tuple(candidate), tuple(reference)
    p = 0
    while p < len(a) and p < len(b) and a[p] == b[p]:
        p += 1
    q = 0
    while q < len(a) - p and q < len(b) - p and a[-1 - q] == b[-1 - q]:
        q += 1
    a, b = a[p : len(a) - q], b[p : len(b) - q]
    if len(a) > len(b):
        a, b = b, a
    if not a:
        return len(b)
    mask = (1 << len(b)) - 1
    equal = _equal_masks(a, b)
    plus, minus = mask, 0
    for w in a:
        plus, minus = _next_bit_row(plus, minus, equal.get(w, 0), mask)
    return len(a) + plus.bit_count() - minus.bit_count()


def exact_levenshtein(candidate: Sequence[str], reference: Sequence[str]) -> Alignment:
    """``levenshtein(candidate, reference, beam=False)``, computed by bit-parallel rows (same result).

    >>> a = exact_levenshtein("a b c d".split(), "b c d a".split())
    >>> a == levenshtein("a b c d".split(), "b c d a".split(), beam=False), a.ops
    (True, ('delete', 'match', 'match', 'match', 'insert'))
    """
    candidate, reference = tuple(candidate), tuple(reference)
    n, m = len(candidate), len(reference)
    mask = (1 << m) - 1
    equal = _equal_masks(candidate, reference)
    block = max(1, isqrt(n))
    checkpoints = [(mask, 0)]  # rows 0, block, 2 * block, ...
    plus, minus = mask, 0
    for i in range(1, n + 1):
        plus, minus = _next_bit_row(plus, minus, equal.get(candidate[i - 1], 0), mask)
        if i % block == 0:
            checkpoints.append((plus, minus))
    distance = n + plus.bit_count() - minus.bit_count()
    return Alignment(distance, tuple(_NAMES[op] for op in _bit_trace(candidate, reference, equal, mask,
                                                                     checkpoints, block, distance)))


def _bit_trace(candidate: tuple, reference: tuple, equal: dict, mask: int, checkpoints: list, block: int,
               distance: int) -> list[str]:
    """The plain trace rule, read from the bit rows: diagonal if it gives the cell's value, else delete, else
    insert."""
    out = []
    i, j, d = len(candidate), len(reference), distance
    rows: list = []
    base = -1  # the first row of the block in ``rows``
    while i > 0 and j > 0:
        if candidate[i - 1] == reference[j - 1]:
            out.append("M")  # equal words: d[i][j] = d[i-1][j-1], so the diagonal wins
            i, j = i - 1, j - 1
            continue
        if not base <= i - 1 < base + len(rows):
            base = (i - 1) // block * block
            rows = _bit_rows(candidate, equal, mask, checkpoints[base // block], base,
                             min(len(candidate), base + block - 1))
        row = rows[i - 1 - base]
        diagonal = _value(i - 1, row, j - 1)
        if diagonal + 1 == d:
            out.append("S")
            i, j, d = i - 1, j - 1, diagonal
            continue
        up = diagonal + (row[0] >> (j - 1) & 1) - (row[1] >> (j - 1) & 1)
        if up + 1 == d:
            out.append("D")
            i, d = i - 1, up
        else:
            out.append("I")
            j, d = j - 1, d - 1
    out.extend("D" * i)
    out.extend("I" * j)
    out.reverse()
    return out


# --------------------------------------------------------------------------------------
# Many scores at once (a paired test's resamples)
# --------------------------------------------------------------------------------------


def ter_scores(sums: np.ndarray) -> np.ndarray:
    """``float(ter_fraction(edits, length))`` of every row of ``sums`` (columns: edits, reference length).

    The columns are whole numbers (a significance test scales average lengths by the least
    common multiple of the numbers of references, and the edits with them), below 2**53, so
    each division is the exact fraction correctly rounded. A length of 0 follows sacreBLEU's
    rule (1 if there are edits, else 0), as :func:`~mtlearn.metrics.ter.formulas.ter_fraction`.

    >>> ter_scores(np.array([[3, 12], [2, 0], [0, 0]])).tolist()
    [0.25, 1.0, 0.0]
    """
    edits, length = sums[:, 0].astype(np.float64), sums[:, 1].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(length > 0, edits / np.where(length > 0, length, 1.0), (edits > 0).astype(np.float64))

"""Wording shared by every message: counts with their nouns."""

from __future__ import annotations


def plural(n: int, noun: str) -> str:
    """``n`` followed by ``noun``, with an ``s`` unless ``n`` is 1 — for counts in explanations and messages.

    >>> plural(1, "segment"), plural(2, "segment"), plural(0, "candidate"), plural(3, "match")
    ('1 segment', '2 segments', '0 candidates', '3 matches')
    """
    suffix = "es" if noun.endswith(("ch", "sh", "s", "x")) else "s"  # match -> matches
    return f"{n} {noun}{'' if n == 1 else suffix}"


def part_of(k: int, total: int, noun: str, verb: tuple[str, str] = ("is", "are")) -> str:
    """``k of <total nouns> <verb>``, noun and verb singular when ``total`` is 1 — for corpus notes.

    >>> part_of(1, 1, "candidate"), part_of(1, 2, "candidate"), part_of(2, 3, "segment", ("has", "have"))
    ('1 of 1 candidate is', '1 of 2 candidates are', '2 of 3 segments have')
    """
    return f"{k} of {plural(total, noun)} {verb[0] if total == 1 else verb[1]}"


#: Tokenizers that split Chinese or Japanese text (no hint needed after them).

"""Input checks, shared by every metric: what users pass in, normalised or refused with a message that names
it.

A *segment* (a candidate or a reference) is either a string, tokenized with the
metric's ``tokenize`` setting, or a list/tuple of string tokens, used as given.
Everything here raises ``TypeError``/``ValueError`` whose message starts with the
name of the offending argument, so a student sees *what* was wrong, not a
traceback from deep inside a formula.

>>> as_tokens("the cat sat", argname="candidate")
('the', 'cat', 'sat')
>>> as_tokens(["The", "Cat"], argname="candidate", lowercase=True)
('the', 'cat')
>>> as_tokens(["the", 3], argname="candidate")
Traceback (most recent call last):
...
TypeError: candidate: token 1 is int (3), expected str
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from itertools import chain
from typing import Optional, Union

from mtlearn.core.tokenize import get_tokenizer

# --- input checks ---------------------------------------------------------

Segment = Union[str, Sequence[str]]
Tokens = tuple[str, ...]

_PLAIN_STR = {str}


def as_tokens(
    segment: Segment, *, argname: str, tokenize: str = "whitespace", lowercase: bool = False
) -> Tokens:
    """Return ``segment`` as a tuple of tokens (see the module docstring)."""
    if isinstance(segment, str):
        text = segment.lower() if lowercase else segment
        return tuple(get_tokenizer(tokenize)(text))
    if isinstance(segment, (list, tuple)):
        # Fast paths (a corpus passes thousands of segments); a token that is no str
        # falls through to the loop below, which names it.
        if lowercase:
            try:
                return tuple(map(str.lower, segment))
            except TypeError:
                pass
        elif set(map(type, segment)) <= _PLAIN_STR:
            return tuple(segment)
        for i, token in enumerate(segment):
            if not isinstance(token, str):
                raise TypeError(
                    f"{argname}: token {i} is {type(token).__name__} ({token!r}), expected str"
                )
        return tuple(t.lower() for t in segment) if lowercase else tuple(segment)
    _refuse_bytes(segment, argname)
    raise TypeError(
        f"{argname}: expected a string or a list of string tokens, got {type(segment).__name__}"
    )


def _refuse_bytes(value: object, argname: str) -> None:
    """Bytes are text not yet decoded: say so, rather than treat them as a list of ints."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"{argname}: got {type(value).__name__}, not text; decode it first, "
            "e.g. data.decode('utf-8')"
        )


def as_reference_list(
    references: object, *, argname: str = "references", tokenize: str = "whitespace",
    lowercase: bool = False,
) -> list[Tokens]:
    """Normalise the references of ONE candidate to a non-empty list of token tuples.

    A single string is accepted as one reference (a common slip that has only
    one reasonable meaning); a list of tokens is *not* guessed at, because
    ``["the", "cat"]`` could mean two one-word references.

    >>> as_reference_list(["the cat", "a cat"])
    [('the', 'cat'), ('a', 'cat')]
    >>> as_reference_list("the cat")
    [('the', 'cat')]
    >>> as_reference_list([])
    Traceback (most recent call last):
    ...
    ValueError: references: no references given; a candidate needs at least one
    """
    if isinstance(references, str):
        references = [references]
    _refuse_bytes(references, argname)
    if not isinstance(references, (list, tuple)):
        raise TypeError(
            f"{argname}: expected a list of references (strings or token lists), "
            f"got {type(references).__name__}"
        )
    if len(references) == 0:
        raise ValueError(f"{argname}: no references given; a candidate needs at least one")
    return [
        as_tokens(ref, argname=f"{argname}[{i}]", tokenize=tokenize, lowercase=lowercase)
        for i, ref in enumerate(references)
    ]


def check_corpus(candidates: object, references: object) -> None:
    """Check the shapes of a corpus call: ``references[i]`` lists the references of ``candidates[i]``.

    >>> check_corpus(["a b", "c d"], [["a b"]])
    Traceback (most recent call last):
    ...
    ValueError: references: 1 reference lists for 2 candidates; references[i] must hold the references of candidates[i]
    """  # noqa: E501
    _refuse_bytes(candidates, "candidates")
    _refuse_bytes(references, "references")
    if isinstance(candidates, str) or not isinstance(candidates, Sequence):
        raise TypeError(
            f"candidates: expected a list of candidates, got {type(candidates).__name__}"
        )
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            f"references: expected a list with one list of references per candidate, "
            f"got {type(references).__name__}"
        )
    if len(candidates) == 0:
        raise ValueError("candidates: the corpus is empty; give at least one candidate")
    if len(references) != len(candidates):
        raise ValueError(
            f"references: {len(references)} reference lists for {len(candidates)} candidates; "
            "references[i] must hold the references of candidates[i]"
        )


def as_token_corpus(
    candidates: object, references: object, *, tokenize: str = "whitespace", lowercase: bool = False,
) -> tuple[list[Tokens], list[list[Tokens]]]:
    """A corpus call's candidates and reference lists as token tuples, checked.

    ``references[i]`` holds the references of ``candidates[i]``. Corpora given as lists
    of token lists (the common case for thousands of segments) take a fast path; any
    other shape, and any bad value, goes segment by segment through :func:`as_tokens`
    and :func:`as_reference_list`, whose errors name the offending segment.

    >>> as_token_corpus([["The", "cat"]], [[["the", "cat"], ["a", "cat"]]], lowercase=True)
    ([('the', 'cat')], [[('the', 'cat'), ('a', 'cat')]])
    >>> as_token_corpus(["a b"], [["a c", 3]])
    Traceback (most recent call last):
    ...
    TypeError: references[0][1]: expected a string or a list of string tokens, got int
    """
    check_corpus(candidates, references)
    assert isinstance(candidates, Sequence) and isinstance(references, Sequence)
    fast = _token_corpus_fast(candidates, references, lowercase)
    if fast is not None:
        return fast
    cands = [
        as_tokens(c, argname=f"candidates[{i}]", tokenize=tokenize, lowercase=lowercase)
        for i, c in enumerate(candidates)
    ]
    refs = [
        as_reference_list(r, argname=f"references[{i}]", tokenize=tokenize, lowercase=lowercase)
        for i, r in enumerate(references)
    ]
    return cands, refs


def _all_token_lists(candidates: Sequence, references: Sequence) -> bool:
    """Every candidate a list or tuple, every segment's references a non-empty list or tuple of them."""
    lists = (list, tuple)
    return all(type(c) in lists for c in candidates) and all(
        type(r) in lists and r and all(type(x) in lists for x in r) for r in references)


def _token_corpus_fast(
    candidates: Sequence, references: Sequence, lowercase: bool
) -> Optional[tuple[list[Tokens], list[list[Tokens]]]]:
    """The corpus when every segment is a list or tuple of str tokens, else ``None``."""
    if not _all_token_lists(candidates, references):
        return None
    if lowercase:
        lower = str.lower
        try:  # str.lower refuses anything that is not a str
            return ([tuple(map(lower, c)) for c in candidates],
                    [[tuple(map(lower, x)) for x in r] for r in references])
        except TypeError:
            return None
    tokens = chain(chain.from_iterable(candidates), chain.from_iterable(chain.from_iterable(references)))
    if not set(map(type, tokens)) <= _PLAIN_STR:
        return None
    return [tuple(c) for c in candidates], [[tuple(x) for x in r] for r in references]


def as_real(value: object, argname: str) -> Union[int, float, Fraction]:
    """A numeric parameter given by the user, as a plain ``int``, ``Fraction`` or ``float``.

    Every real number is accepted the same way every time (``numbers.Real``: Python
    numbers, ``Fraction``, numpy scalars such as the items of ``np.linspace``):
    integers become ``int``, other rationals ``Fraction``, everything else ``float``,
    so no numpy type and no float subclass reaches a formula, a cache or a signature.
    ``bool`` is refused (``True`` is rarely meant as 1), and so are NaN and infinities.

    >>> as_real(0.5, "alpha"), as_real(Fraction(1, 3), "alpha"), as_real(3, "beta")
    (0.5, Fraction(1, 3), 3)
    >>> as_real("0.5", "alpha")
    Traceback (most recent call last):
    ...
    TypeError: alpha: expected a number, got str ('0.5')
    >>> as_real(float("nan"), "gamma")
    Traceback (most recent call last):
    ...
    ValueError: gamma: must be a finite number, got nan
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{argname}: expected a number, got {type(value).__name__} ({value!r})")
    try:
        finite = math.isfinite(float(value))
    except OverflowError:  # a whole number or a fraction beyond any float, e.g. 10**400
        finite = False
    if not finite:
        raise ValueError(f"{argname}: must be a finite number, got {value!r:.40}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    return float(value)


#: The most digits :func:`parse_number` reads in a number (the digits of a decimal, or of each side of a
#: fraction).

def check_index(index: object, size: int, what: str = "segment") -> int:
    """A sequence position given by the user, checked and made non-negative.

    >>> check_index(-1, 3), check_index(2, 3)
    (2, 2)
    >>> check_index(3, 3)
    Traceback (most recent call last):
    ...
    IndexError: index: segment 3 out of range for 3 segments
    >>> check_index("1", 3)
    Traceback (most recent call last):
    ...
    TypeError: index: expected an int or a slice, got str
    """
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"index: expected an int or a slice, got {type(index).__name__}")
    if not -size <= index < size:
        raise IndexError(f"index: {what} {index} out of range for {size} {what}s")
    return index % size


def check_choice(value: object, choices: Sequence[str], argname: str) -> str:
    """Check that ``value`` is one of ``choices``.

    >>> check_choice("exp", ("none", "exp"), "smoothing")
    'exp'
    >>> check_choice("expo", ("none", "exp"), "smoothing")
    Traceback (most recent call last):
    ...
    ValueError: smoothing: unknown value 'expo'; choose one of none, exp
    """
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{argname}: unknown value {value!r}; choose one of {', '.join(choices)}")
    return value

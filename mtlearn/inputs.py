"""Checking and normalising what users pass in, shared by every metric.

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

from collections.abc import Sequence
from typing import Union

from .tokenizers import get_tokenizer

Segment = Union[str, Sequence[str]]
Tokens = tuple[str, ...]


def as_tokens(
    segment: Segment, *, argname: str, tokenize: str = "whitespace", lowercase: bool = False
) -> Tokens:
    """Return ``segment`` as a tuple of tokens (see the module docstring)."""
    if isinstance(segment, str):
        text = segment.lower() if lowercase else segment
        return tuple(get_tokenizer(tokenize)(text))
    if isinstance(segment, (list, tuple)):
        for i, token in enumerate(segment):
            if not isinstance(token, str):
                raise TypeError(
                    f"{argname}: token {i} is {type(token).__name__} ({token!r}), expected str"
                )
        return tuple(t.lower() for t in segment) if lowercase else tuple(segment)
    raise TypeError(
        f"{argname}: expected a string or a list of string tokens, got {type(segment).__name__}"
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
    """
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

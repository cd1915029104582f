"""What an option's text may be on the command line: numbers, whole numbers in a range, a seed, a language.

Each function here is an argparse ``type``: it reads the text the user typed and returns the
value, or raises :class:`argparse.ArgumentTypeError` with the reason (argparse names the option:
``argument --segment: 0 is out of range; segments are numbered from 1``). Every whole-number
option is read by one validator, :func:`whole`, whose digits are counted before ``int()`` reads
them; its ranges and their messages are the constants below.

>>> segment_number("3"), order("0"), positive("12")
(3, 0, 12)
>>> order("-1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: -1 is negative; an order is 0 or more
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from typing import Optional

from mtlearn.core.number_text import NumberError, parse_number
from mtlearn.tools.cli.format import MAX_WIDTH
from mtlearn.tools.cli.io import EXIT_USAGE, CommandLineError

__all__ = ["number", "whole", "segment_number", "order", "max_order", "positive", "width", "scale", "seed",
           "SEED_FROM_ENVIRONMENT", "resolved_seed", "language_pair", "stage_list", "WHOLE_MAX_DIGITS"]

#: The most digits a whole-number option is read with (an order, a count, a seed: far beyond any use).
WHOLE_MAX_DIGITS = 30


def number(text: str) -> float:
    """A number given as a decimal or a fraction (``0.25``, ``1/4``), read by the bounded parser.

    >>> number("1/4"), number("2.5e-3")
    (0.25, 0.0025)
    >>> number("1e400")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '1e400' is too large: give a number of at most 1e300 in magnitude
    """
    try:
        return float(parse_number(text, "value"))
    except NumberError as error:  # argparse names the option: "argument --beta: <reason>"
        raise argparse.ArgumentTypeError(error.reason) from None


def _whole_number(text: str) -> int:
    """A whole number typed on the command line, its digits counted before ``int()`` reads them."""
    stripped = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", stripped):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
    if len(stripped.lstrip("+-")) > WHOLE_MAX_DIGITS:
        shown = repr(stripped[:37]) + "..." if len(stripped) > 40 else repr(stripped)
        raise argparse.ArgumentTypeError(f"{shown} is too large (at most {WHOLE_MAX_DIGITS} digits)")
    return int(stripped)


def whole(low: Optional[int] = None, below: str = "", high: Optional[int] = None,
          above: str = "") -> Callable[[str], int]:
    """The argparse type of a whole number from ``low`` to ``high`` (``None``: no bound on that side).

    ``below`` and ``above`` are the messages of a value out of range, with ``{value}`` for the value.

    >>> whole()(" 42 "), whole()("-3")
    (42, -3)
    >>> whole()("9" * 5000)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '9999999999999999999999999999999999999'... is too large (at most 30 digits)
    >>> whole(1, "{value} is too small")("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 0 is too small
    """

    def read(text: str) -> int:
        value = _whole_number(text)
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(below.format(value=value))
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(above.format(value=value))
        return value

    return read


#: ``--segment N``: a line number.
segment_number = whole(1, "{value} is out of range; segments are numbered from 1")
#: An n-gram order (chrF's): 0 or more (0 leaves that kind of n-gram out; the library bounds it above).
order = whole(0, "{value} is negative; an order is 0 or more")
#: BLEU's longest order: a whole number (the library checks that it is 1 or more) that Python can index with.
max_order = whole(high=sys.maxsize, above="{value} is too large; an order is at most " + str(sys.maxsize))
#: A count (bootstrap samples, randomization trials): 1 or more.
positive = whole(1, "{value} is out of range; give 1 or more")
#: ``-w/--width``: the decimals of a score.
width = whole(0, f"{{value}} is out of range; give 0 to {MAX_WIDTH} decimals",
              MAX_WIDTH, f"{{value}} is out of range; give 0 to {MAX_WIDTH} decimals")
_seed_number = whole(0, "{value} is negative; a seed is 0 or more")
_any_whole = whole()


def scale(text: str) -> int:
    """``--scale``: 100 (sacreBLEU's 0-100) or 1 (mtlearn's 0-1)."""
    if text.strip() not in ("100", "1"):
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: choose 100 (sacreBLEU's "
                                         "0-100 scale) or 1 (mtlearn's 0-1)")
    return int(text)


def seed(text: str) -> Optional[int]:
    """A seed: a whole number >= 0, or 'none' for fresh randomness (sacreBLEU's SACREBLEU_SEED=none).

    >>> seed("none"), seed("7")
    (None, 7)
    """
    if text.strip().lower() == "none":
        return None
    try:
        _any_whole(text)  # not a number at all: say that 'none' is the other choice
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{error} (or 'none')") from None
    return _seed_number(text)


class _SeedFromEnvironment:
    """``--seed``'s default: sacreBLEU's ``$SACREBLEU_SEED`` when set, else 12345, read only when a seed is
    needed (so that a stray value there stops only the commands that draw samples)."""

    def __repr__(self) -> str:
        return "$SACREBLEU_SEED or 12345"


SEED_FROM_ENVIRONMENT = _SeedFromEnvironment()


def resolved_seed(value: object) -> Optional[int]:
    """The seed to draw with: ``--seed``'s value, or the default :data:`SEED_FROM_ENVIRONMENT` stands for.

    >>> resolved_seed(7), resolved_seed(None)
    (7, None)
    """
    if not isinstance(value, _SeedFromEnvironment):
        return value  # type: ignore[return-value]
    text = os.environ.get("SACREBLEU_SEED", "12345")
    try:
        return seed(text)
    except argparse.ArgumentTypeError as error:
        raise CommandLineError(f"SACREBLEU_SEED (the default of --seed): {error}", EXIT_USAGE) from None


def language_pair(text: str) -> str:
    """sacreBLEU's ``-l``: source-target language codes, e.g. ``en-zh`` (lowercased).

    >>> language_pair("EN-zh")
    'en-zh'
    """
    pair = text.strip().lower()
    if not re.fullmatch(r"[a-z]{2,3}-[a-z]{2,3}", pair):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a language pair; write source-target, "
                                         "e.g. en-zh or de-en")
    return pair


def stage_list(text: str) -> tuple[str, ...]:
    """METEOR's ``--stages``: comma-separated names (the library checks them).

    >>> stage_list("exact, stem,")
    ('exact', 'stem')
    """
    return tuple(part.strip() for part in text.split(",") if part.strip())

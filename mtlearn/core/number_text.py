"""Numbers typed as text (options on the command line, the explorers' boxes, answers to exercises), read
exactly and within bounds."""

from __future__ import annotations

import re
from fractions import Fraction

NUMBER_MAX_DIGITS = 400
#: The magnitudes :func:`parse_number` accepts, besides 0: from 10**-300 to 10**300 (well inside a float's
#: range).
NUMBER_MAX_EXPONENT = 300

_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
_FRACTION = re.compile(r"([+-]?[0-9]+)\s*/\s*([0-9]+)")  # a sign on the numerator only, as Python's Fraction
_LARGEST = Fraction(10**NUMBER_MAX_EXPONENT)
_SMALLEST = 1 / _LARGEST


class NumberError(ValueError):
    """Text that :func:`parse_number` refuses: the message is ``"<name>: <reason>"``; ``reason`` alone is
    kept.

    ``bound`` is True when the text is a number beyond the bounds (too large, too close
    to 0, too many digits), False when it is no number at all.

    >>> error = NumberError("--beta", "'x' is not a number")
    >>> str(error), error.reason, error.bound
    ("--beta: 'x' is not a number", "'x' is not a number", False)
    """

    def __init__(self, name: str, reason: str, bound: bool = False) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason
        self.bound = bound


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut to a line."""
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


def parse_number(text: str, name: str) -> Fraction:
    """A number typed by a user (an option, a text box, an answer), read exactly and within bounds.

    Accepts a whole number, a decimal (``0.25``, ``.5``, ``2.5e-3``) or a fraction of
    whole numbers (``1/4``, ``3 / 4``), with a sign and surrounding spaces. The bounds are
    checked on the text, before any big-integer arithmetic: at most
    :data:`NUMBER_MAX_DIGITS` digits, and a magnitude of 0 or from 1e-300 to 1e300 (so
    ``float()`` of the result never overflows and never rounds a typed number to 0).
    Anything else is a :class:`NumberError` (a ``ValueError``) whose message starts with
    ``name`` and says what is wrong, at once: ``Fraction("1e100000000")`` would compute
    10**100000000 first.

    >>> parse_number("0.25", "--beta"), parse_number(" 3 / 4 ", "answer"), parse_number("-2e-3", "x")
    (Fraction(1, 4), Fraction(3, 4), Fraction(-1, 500))
    >>> parse_number("1e100000000", "--beta")
    Traceback (most recent call last):
    ...
    mtlearn.core.number_text.NumberError: --beta: '1e100000000' is too large: give a number of at most 1e300 in magnitude
    >>> parse_number("1/0", "weights")
    Traceback (most recent call last):
    ...
    mtlearn.core.number_text.NumberError: weights: '1/0' divides by zero
    >>> parse_number("nan", "--alpha")
    Traceback (most recent call last):
    ...
    mtlearn.core.number_text.NumberError: --alpha: 'nan' is not a number (write e.g. 0.25 or 1/4)
    """  # noqa: E501
    if not isinstance(text, str):
        raise TypeError(f"{name}: expected the text of a number, got {type(text).__name__}")
    stripped = text.strip()
    if len(stripped) > 2 * NUMBER_MAX_DIGITS + 20:  # before any regular expression runs over it
        raise NumberError(name, f"{_shown(stripped)} is too long for a number (at most "
                                f"{NUMBER_MAX_DIGITS} digits)", bound=True)
    fraction = _FRACTION.fullmatch(stripped)
    if fraction:
        return _read_fraction(fraction.group(1), fraction.group(2), stripped, name)
    decimal = _DECIMAL.fullmatch(stripped)
    if decimal and (decimal.group(2) or decimal.group(3)):
        sign, whole, part, exponent = decimal.groups()
        return _read_decimal(sign == "-", whole, part or "", exponent or "0", stripped, name)
    raise NumberError(name, f"{_shown(stripped)} is not a number (write e.g. 0.25 or 1/4)")


def _too_many_digits(digits: str, text: str, name: str) -> None:
    if len(digits.lstrip("+-")) > NUMBER_MAX_DIGITS:
        raise NumberError(name, f"{_shown(text)} has more than {NUMBER_MAX_DIGITS} digits", bound=True)


def _read_decimal(negative: bool, whole: str, part: str, exponent: str, text: str, name: str) -> Fraction:
    """``[-]whole.part e exponent`` as a Fraction; its order of magnitude is checked before 10**k is
    computed."""
    digits = (whole + part).lstrip("0")
    _too_many_digits(whole + part, text, name)
    if not digits:
        return Fraction(0)
    shift = int(exponent) - len(part)  # value = int(digits) * 10**shift; exponent has at most ~800 digits
    order = len(digits) - 1 + shift  # the value lies in [10**order, 10**(order + 1))
    _check_order(order, text, name)
    value = Fraction(int(digits)) * Fraction(10) ** shift
    return _in_range(-value if negative else value, text, name)


def _read_fraction(numerator: str, denominator: str, text: str, name: str) -> Fraction:
    _too_many_digits(numerator, text, name)
    _too_many_digits(denominator, text, name)
    if int(denominator) == 0:
        raise NumberError(name, f"{_shown(text)} divides by zero")
    return _in_range(Fraction(int(numerator), int(denominator)), text, name)


def _check_order(order: int, text: str, name: str) -> None:
    if order > NUMBER_MAX_EXPONENT:
        raise NumberError(name, f"{_shown(text)} is too large: give a number of at most "
                                f"1e{NUMBER_MAX_EXPONENT} in magnitude", bound=True)
    if order < -NUMBER_MAX_EXPONENT - 1:
        raise NumberError(name, f"{_shown(text)} is too close to 0: give 0 or a number of at least "
                                f"1e-{NUMBER_MAX_EXPONENT} in magnitude", bound=True)


def _in_range(value: Fraction, text: str, name: str) -> Fraction:
    """``value`` when 0 or within the magnitudes allowed; the exact check after :func:`_check_order`'s rough
    one."""
    if value and abs(value) > _LARGEST:
        _check_order(NUMBER_MAX_EXPONENT + 1, text, name)
    if value and abs(value) < _SMALLEST:
        _check_order(-NUMBER_MAX_EXPONENT - 2, text, name)
    return value

"""Reproducibility signatures, in sacreBLEU's ``key:value|key:value`` style.

A reported score is only comparable with another if every setting that changes
it is known; the signature writes them all down.

>>> make_signature("bleu", {"nrefs": 1, "case": "mixed", "tok": "13a"})
'mtlearn-bleu|nrefs:1|case:mixed|tok:13a|version:0.1.0'
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from fractions import Fraction

from mtlearn.version import __version__


def make_signature(metric: str, settings: Mapping[str, object]) -> str:
    """Join ``settings`` (in the given order) after ``mtlearn-<metric>`` and before the version."""
    parts = [f"mtlearn-{metric}"]
    parts += [f"{key}:{value}" for key, value in settings.items()]
    parts.append(f"version:{__version__}")
    return "|".join(parts)


def format_number(value: object) -> str:
    """A compact, exact-enough spelling of a setting value for a signature.

    Any real number is spelled the same way whatever its type (``int``, ``float``,
    ``Fraction``, numpy scalars): a fraction that no short decimal spells exactly
    keeps its ``p/q`` form.

    >>> format_number(0.9), format_number(3.0), format_number(0.25)
    ('0.9', '3', '0.25')
    >>> from fractions import Fraction
    >>> format_number(Fraction(1, 2)), format_number(Fraction(1, 3)), format_number(Fraction(6, 2))
    ('0.5', '1/3', '3')
    """
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Rational):
        exact = Fraction(int(value.numerator), int(value.denominator))
        if exact.denominator == 1:
            return str(exact.numerator)
        short = f"{float(exact):g}"
        return short if Fraction(short) == exact else str(exact)
    number = float(value)  # type: ignore[arg-type]
    short = f"{number:g}"
    return short if number == float(short) else repr(number)

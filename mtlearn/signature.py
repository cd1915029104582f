"""Reproducibility signatures, in sacreBLEU's ``key:value|key:value`` style.

A reported score is only comparable with another if every setting that changes
it is known; the signature writes them all down.

>>> make_signature("bleu", {"nrefs": 1, "case": "mixed", "tok": "13a"})
'mtlearn-bleu|nrefs:1|case:mixed|tok:13a|version:0.1.0'
"""

from __future__ import annotations

from collections.abc import Mapping

from mtlearn._version import __version__


def make_signature(metric: str, settings: Mapping[str, object]) -> str:
    """Join ``settings`` (in the given order) after ``mtlearn-<metric>`` and before the version."""
    parts = [f"mtlearn-{metric}"]
    parts += [f"{key}:{value}" for key, value in settings.items()]
    parts.append(f"version:{__version__}")
    return "|".join(parts)


def format_number(value: float) -> str:
    """A compact, exact-enough spelling of a setting value for a signature.

    >>> format_number(0.9), format_number(3.0), format_number(0.25)
    ('0.9', '3', '0.25')
    """
    return f"{value:g}" if float(value) == float(f"{value:g}") else repr(float(value))

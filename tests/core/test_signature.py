"""mtlearn/core/signature.py: a signature spells every real number the same way, whatever its type."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from mtlearn.core.signature import format_number


def test_format_number_spells_every_real_the_same_way():
    assert format_number(Fraction(1, 2)) == format_number(0.5) == format_number(np.float64(0.5)) == "0.5"
    assert format_number(Fraction(1, 3)) == "1/3"
    assert format_number(np.int64(3)) == format_number(3.0) == format_number(Fraction(6, 2)) == "3"

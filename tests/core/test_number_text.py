"""mtlearn/core/number_text.py: numbers typed as text (the command line's options, the BLEU explorer's
weights box, the exercises' answers) go through one bounded parser, ``parse_number``, exact, which refuses
what is too large, too close to 0 or too long from the text, before computing 10**exponent.
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from mtlearn.core.number_text import NUMBER_MAX_DIGITS, NumberError, parse_number


@pytest.mark.parametrize("text, value", [
    ("0.25", Fraction(1, 4)), ("1/4", Fraction(1, 4)), (" 3 / 4 ", Fraction(3, 4)),
    ("-2e-3", Fraction(-1, 500)),
    (".5", Fraction(1, 2)), ("5.", Fraction(5)), ("+7", Fraction(7)), ("-1/4", Fraction(-1, 4)),
    ("1e300", Fraction(10 ** 300)), ("1e-300", Fraction(1, 10 ** 300)), ("0e999999", Fraction(0)),
    ("0." + "0" * 298 + "1", Fraction(1, 10 ** 299)),
    ("0." + "1" * (NUMBER_MAX_DIGITS - 1), Fraction(int("1" * (NUMBER_MAX_DIGITS - 1)),
                                                    10 ** (NUMBER_MAX_DIGITS - 1))),
])
def test_parse_number_reads_decimals_and_fractions_exactly(text, value):
    got = parse_number(text, "x")
    assert got == value and type(got) is Fraction
    assert got == Fraction(text.replace(" ", ""))  # what Python reads, where Python can read it at once


@pytest.mark.parametrize("text, reason", [
    ("1e301", "too large"), ("1.5e300", "too large"), ("-1e400", "too large"), ("1e100000000", "too large"),
    ("9e-301", "too close to 0"), ("1e-300000000", "too close to 0"), ("1/" + "1" * 301, "too close to 0"),
    ("1" * (NUMBER_MAX_DIGITS + 1), f"more than {NUMBER_MAX_DIGITS} digits"), ("1" * 5000, "too long"),
    ("1/0", "divides by zero"), ("nan", "is not a number"), ("inf", "is not a number"),
    ("1_000", "is not a number"),
    ("0x10", "is not a number"), ("١٢", "is not a number"), ("", "is not a number"),
    ("1/2/3", "is not a number"), ("1/-4", "is not a number"), ("9" * 301, "too large"),
])
def test_parse_number_refuses_by_name_and_reason(text, reason):
    with pytest.raises(NumberError) as caught:
        parse_number(text, "--beta")
    assert str(caught.value).startswith("--beta: ") and reason in caught.value.reason
    assert len(str(caught.value)) < 200
    assert caught.value.bound == (reason.startswith(("too", "more than")))


def test_parse_number_refuses_a_huge_exponent_at_once():
    # Fraction("1e100000000") computes 10**100000000 (> 20 s): a subprocess bounds the wait.
    code = ("from mtlearn.core.number_text import NumberError, parse_number\n"
            "for text in ('1e100000000', '1e-300000000', '-7e999999999'):\n"
            "    try:\n        parse_number(text, 'x')\n    except NumberError as e:\n        "
            "print(e.reason)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [line.split("'")[2].split(":")[0].strip() for line in done.stdout.splitlines()] == \
        ["is too large", "is too close to 0", "is too large"]

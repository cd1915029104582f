"""mtlearn/core/checks.py: the checks every metric runs on what it is given, here with hostile values:
numpy scalars, Fractions, booleans, non-finite and huge numbers (``as_real``), and bytes where text is
expected, refused by every metric with a message that says to decode them.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import mtlearn


def test_as_real_normalises_numpy_and_refuses_non_numbers():
    from mtlearn.core.checks import as_real

    assert type(as_real(np.float64(0.25), "x")) is float
    assert type(as_real(np.int32(4), "x")) is int
    assert as_real(Fraction(1, 3), "x") == Fraction(1, 3)
    for bad in (True, np.bool_(True), "0.5", None, 1j):
        with pytest.raises(TypeError, match=r"^x: expected a number"):
            as_real(bad, "x")
    for bad in (math.nan, np.float64("inf"), 10**400):
        with pytest.raises(ValueError, match=r"^x: must be a finite number"):
            as_real(bad, "x")


@pytest.mark.parametrize("call", [
    lambda: mtlearn.corpus_bleu(b"the cat sat", [["the cat sat"]]),
    lambda: mtlearn.corpus_bleu(["the cat sat"], b"the cat sat"),
    lambda: mtlearn.corpus_bleu(["the cat sat"], [b"the cat sat"]),
    lambda: mtlearn.corpus_bleu([b"the cat sat"], [["the cat sat"]]),
    lambda: mtlearn.corpus_bleu(["the cat sat"], [[b"the cat sat"]]),
    lambda: mtlearn.bleu(b"the cat sat", ["the cat sat"]),
    lambda: mtlearn.bleu("the cat sat", b"the cat sat"),
    lambda: mtlearn.bleu("the cat sat", [bytearray(b"the cat sat")]),
    lambda: mtlearn.corpus_chrf(b"the cat sat", [["the cat sat"]]),
    lambda: mtlearn.corpus_ter(b"the cat sat", [["the cat sat"]]),
    lambda: mtlearn.corpus_meteor(b"the cat sat", [["the cat sat"]], stages=["exact"]),
    lambda: mtlearn.meteor(b"the cat sat", ["the cat sat"], stages=["exact"]),
], ids=["bleu-cands", "bleu-refs", "bleu-reflist", "bleu-cand", "bleu-ref", "bleu1-cand",
        "bleu1-refs", "bleu1-bytearray", "chrf", "ter", "meteor-corpus", "meteor"])
def test_bytes_are_refused_with_a_message_to_decode(call):
    with pytest.raises(TypeError, match=r"^[a-z_\[\]0-9]+: got (bytes|bytearray), not text; decode it first"):
        call()

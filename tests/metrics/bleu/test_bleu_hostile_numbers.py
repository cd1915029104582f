"""BLEU's careless and hostile numbers, and the parameter checks BLEU shares with the other metrics.

- weights summing to 0 are an error naming ``weights`` (they made BLEU exp(0) = 1 for anything);
- ``smooth_value > 1`` with ``floor`` or ``method1`` keeps sacreBLEU's / NLTK's number (above 1)
  but records why on the result and warns;
- any real number (numpy scalars from ``np.linspace``, ``Fraction``) is accepted the same way every
  time as alpha/beta/gamma, smooth_value and weights; a numpy array is accepted as weights;
- ``smoothing="floor"`` with ``smooth_value=0`` is accepted (sacreBLEU's own tests use it);
- d2l's k is bounded as BLEU's max_order is (tests/metrics/bleu/test_bleu_options.py), and at the bound
  ``reason`` and the explanation stay short;
- one very long line is scored in linear time.

The command line's refusal of weights summing to 0: tests/tools/test_hostile_cli.py; the BLEU explorer's
weights box: tests/show/test_explorer_bleu.py. The shared checks' own cases live beside them: ``as_real``
and bytes in tests/core/test_checks.py, ``format_number`` in tests/core/test_signature.py,
``parse_number`` in tests/core/test_number_text.py.

Expected numbers come from sacreBLEU and NLTK computed here, or from mtlearn's own plain
formula steps, never typed in.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import warnings
from fractions import Fraction

import numpy as np
import pytest
from repo_paths import REPO

import mtlearn
from mtlearn.metrics.bleu.formulas import check_weights, precision_counts
from mtlearn.metrics.bleu.score import bleu_from_stats

HYP = "the cat sat on a mat"
REF = "the cat is on the mat"


# ------------------------------------------------------------------ weights summing to 0


def test_weights_summing_to_zero_are_an_error_naming_the_argument():
    # No match at all: with weights 0 the old code gave exp(0) = 1, i.e. BLEU = 100.
    with pytest.raises(ValueError, match=r"^weights: they sum to 0"):
        mtlearn.bleu("x y z w", ["a b c d"], weights=[0, 0, 0, 0])
    with pytest.raises(ValueError, match=r"^weights: they sum to 0"):
        mtlearn.corpus_bleu(["x y z w"], [["a b c d"]], weights=np.zeros(4))
    with pytest.raises(ValueError, match=r"^weights: they sum to 0"):
        bleu_from_stats(mtlearn.bleu("a b", ["a b"]).stats, weights=(0.0,) * 4)


def test_weights_whose_sum_overflows_are_an_error_naming_the_argument():
    with pytest.raises(ValueError, match=r"^weights: their sum is beyond the largest float"):
        mtlearn.bleu(HYP, [REF], weights=[1e308, 1e308, 0, 0])


# ------------------------------------------------------------------ smooth_value > 1


def _sacrebleu_bleu(hyp: str, refs: list[str], **kwargs) -> float:
    from sacrebleu.metrics import BLEU

    return BLEU(tokenize="none", effective_order=False, **kwargs).sentence_score(hyp, refs).score


# Candidates with n-gram orders that match nothing and have few n-grams, so that floor 3 / 1
# pushes p_n above 1; found and checked by the test, not typed in.
ABOVE_ONE_CASES = [
    ("a b c d", ["a b x d"]),  # BLEU 102.99 with floor 3, as sacreBLEU gives
    ("a b c d", ["a b c e"]),
    ("a b c d e", ["a b x d e"]),
    ("a b x c d", ["a b y c d", "q a b"]),
]


@pytest.mark.parametrize("hyp, refs", ABOVE_ONE_CASES)
def test_floor_above_one_keeps_sacrebleu_parity_with_a_reason_and_a_warning(hyp, refs):
    with pytest.warns(UserWarning, match=r"smooth_value = 3 > 1 with smoothing 'floor'"):
        r = mtlearn.bleu(hyp, refs, smoothing="floor", smooth_value=3)
    expected = _sacrebleu_bleu(hyp, refs, smooth_method="floor", smooth_value=3)
    assert 100 * r.score == pytest.approx(expected, rel=1e-12, abs=1e-9)
    assert any(p > 1 for p in r.precisions)
    assert r.reason is not None and "BLEU can exceed 1" in r.reason


def test_floor_above_one_reaches_a_score_above_one_somewhere():
    # At least one of the cases really scores above 1 (as sacreBLEU does): the reason is needed.
    scores = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for hyp, refs in ABOVE_ONE_CASES:
            scores.append(mtlearn.bleu(hyp, refs, smoothing="floor", smooth_value=3).score)
            assert _sacrebleu_bleu(hyp, refs, smooth_method="floor", smooth_value=3) == pytest.approx(
                100 * scores[-1], rel=1e-12)
    assert max(scores) > 1


def test_method1_huge_epsilon_matches_nltk_with_a_reason_and_a_warning():
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    hyp, ref = "a b c d e f", "a b c d e g"
    with pytest.warns(UserWarning, match=r"smooth_value = 1e\+300 > 1 with smoothing 'method1'"):
        r = mtlearn.bleu(hyp, [ref], smoothing="method1", smooth_value=1e300, max_order=8)
    expected = sentence_bleu([ref.split()], hyp.split(), weights=(1 / 8,) * 8,
                             smoothing_function=SmoothingFunction(epsilon=1e300).method1)
    assert r.score == pytest.approx(expected, rel=1e-9)
    assert r.score > 1
    assert "BLEU can exceed 1" in r.reason
    assert len(r.reason) < 300  # one sentence, however many orders are above 1


def test_smooth_value_at_most_one_draws_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = mtlearn.bleu("a b c d", ["a b c e"], smoothing="floor", smooth_value=1)
    assert r.score <= 1


# ------------------------------------------------------------------ any real number, every time


# METEOR's options (numpy scalars, Fractions): tests/metrics/meteor/test_meteor_options.py.


def test_bleu_accepts_numpy_smooth_values_and_weights():
    for value in np.linspace(0.05, 0.95, 5):
        for method in ("floor", "add-k", "method1", "method4"):
            a = mtlearn.bleu("a b c d", ["a b c e"], smoothing=method, smooth_value=value)
            b = mtlearn.bleu("a b c d", ["a b c e"], smoothing=method, smooth_value=float(value))
            assert a.score == b.score and a.signature == b.signature
            assert type(a.smooth_value) is float
    for w in (np.linspace(0.1, 0.4, 4), np.array([0.25] * 4, dtype=np.float32)):
        weights = w / w.sum()
        r = mtlearn.bleu(HYP, [REF], weights=weights)
        assert r.score == mtlearn.bleu(HYP, [REF], weights=[float(x) for x in weights]).score
        assert r.weights == tuple(float(x) for x in weights)


def test_bleu_accepts_fraction_smooth_value():
    r = mtlearn.bleu("a b c d", ["a b c e"], smoothing="floor", smooth_value=Fraction(1, 10))
    assert r.score == pytest.approx(mtlearn.bleu("a b c d", ["a b c e"], smoothing="floor").score, rel=1e-12)
    assert "smooth:floor[0.10]" in r.signature
    r.explain()


def test_weights_as_numpy_array_like_nltk():
    from nltk.translate.bleu_score import sentence_bleu

    weights = np.array([0.25, 0.25, 0.25, 0.25])
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party"
    refs = ["It is a guide to action that ensures that the military will forever heed Party commands"]
    r = mtlearn.bleu(hyp, refs, weights=weights)
    assert r.score == pytest.approx(sentence_bleu([refs[0].split()], hyp.split(), weights=weights), rel=1e-12)
    assert check_weights(np.array([0.5, 0.5]), 2) == (0.5, 0.5)
    with pytest.raises(TypeError, match=r"^weights: weight 0 is ndarray"):
        check_weights(np.array([[0.5, 0.5]]), 1)


def test_floor_with_zero_smooth_value_like_sacrebleu():
    for hyp, refs in [("a b c d", ["a b c e"]), (HYP, [REF]), ("a b c d e", ["a b c d e"])]:
        r = mtlearn.bleu(hyp, refs, smoothing="floor", smooth_value=0)
        theirs = _sacrebleu_bleu(hyp, refs, smooth_method="floor", smooth_value=0)
        assert 100 * r.score == pytest.approx(theirs, abs=1e-9)
    r = mtlearn.bleu("a b c d", ["a b c e"], smoothing="floor", smooth_value=0)
    assert r.score == 0 and "BLEU = 0" in r.reason
    with pytest.raises(ValueError, match=r"^smooth_value: must be a positive"):
        mtlearn.bleu("a b", ["a b"], smoothing="floor", smooth_value=-0.1)
    with pytest.raises(ValueError, match=r"^smooth_value: must be a positive"):
        mtlearn.bleu("a b", ["a b"], smoothing="method4", smooth_value=0)


# ------------------------------------------------------------------ one long line


def _run_bounded(code: str, timeout: float) -> dict:
    """Run ``code`` in a fresh interpreter (it prints one JSON line); fail if it takes over ``timeout`` s."""
    try:
        proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                              text=True, timeout=timeout, cwd=REPO)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {timeout} s (unbounded on hostile input)")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


LONG_LINE = """
    import json, random, resource, time
    import mtlearn
    random.seed(15)
    words = [f"w{i}" for i in range(40)]
    hyp = " ".join(random.choice(words) for _ in range(200_000))
    ref = " ".join(random.choice(words) for _ in range(200_000))
    start = time.perf_counter()
    r = mtlearn.bleu(hyp, [ref])
    c = mtlearn.corpus_bleu([hyp], [[ref, ref[::-1]]])
    print(json.dumps({"seconds": time.perf_counter() - start, "matches": r.matches, "totals": r.totals,
                      "score": r.score, "corpus_matches": c.matches}))
"""


def test_one_long_line_of_200k_tokens_is_linear():
    # Quadratic before (list.count per repeated n-gram): 80k tokens took 22.8 s; 200k would take minutes.
    out = _run_bounded(LONG_LINE, timeout=90)
    import random

    random.seed(15)
    words = [f"w{i}" for i in range(40)]
    hyp = [random.choice(words) for _ in range(200_000)]
    ref = [random.choice(words) for _ in range(200_000)]
    # The plain formula steps (Counter per order) give the same statistics.
    for n in (1, 2, 3, 4):
        assert tuple(precision_counts(hyp, [ref], n)) == (out["matches"][n - 1], out["totals"][n - 1])
    from sacrebleu.metrics import BLEU

    expected = BLEU(tokenize="none", effective_order=False).sentence_score(" ".join(hyp), [" ".join(ref)])
    assert 100 * out["score"] == pytest.approx(expected.score, rel=1e-12)
    # Two references (one reversed): the many-reference path, against the plain steps too.
    reversed_ref = list(" ".join(ref)[::-1].split())
    assert out["corpus_matches"][1] == precision_counts(hyp, [ref, reversed_ref], 2)[0]


# ------------------------------------------------------------------ huge n-gram orders


# BLEU's max_order is bounded at 4096 (tests/metrics/bleu/test_bleu_options.py); d2l's k the same way.


def test_d2l_k_is_bounded_like_bleus_max_order():
    # Before: k=10**5 took 12 s and wrote an 11.5 MB reason; then a lazy sequence kept it cheap. Now refused,
    # as BLEU's max_order is: orders past the prediction only add factors of 0.
    with pytest.raises(ValueError, match=r"^k: at most 4096 \(BLEU's max_order bound\), got 100000$"):
        mtlearn.d2l_bleu("a b c".split(), "a b c d".split(), k=10**5)
    with pytest.raises(ValueError, match="a number of 41 digits"):
        mtlearn.d2l_bleu("a".split(), "a".split(), k=10**40)


def test_d2l_at_the_bound_is_cheap_and_says_the_empty_orders_once():
    r = mtlearn.d2l_bleu("a b c".split(), "a b c d".split(), k=4096)
    assert r.score == 0.0 and len(r.exponents) == 4096 and r.precisions[-1] == 0
    assert r.exponents[-1] == Fraction(1, 2**4096)
    text = r.explain()
    assert len(text) < 5000 and len(r.reason) < 1000
    assert "(and 4092 more orders, each 0.0000)" in text

"""Smoothing BLEU's n-gram precisions: what to do when some p_n is zero.

One n-gram order without a single match makes the geometric mean, and BLEU, zero.
That is harsh for a single sentence, so two families of fixes exist, both here:

**sacreBLEU's** (``sacrebleu.metrics.bleu.BLEU.compute_bleu``, same semantics and
defaults as sacreBLEU 2.x):

- ``none`` -- no smoothing; a zero precision gives BLEU = 0.
- ``floor`` -- a zero match count becomes ``smooth_value`` (default 0.1): p_n = 0.1 / total_n.
- ``add-k`` -- for n >= 2, add ``smooth_value`` (default 1) to matches *and* totals.
- ``exp`` -- the NIST/mteval-v13a rule: the k-th order with no match gets p_n = 1 / (2^k total_n).
  This is sacreBLEU's default and what WMT's official scores use.

**Chen and Cherry (2014)**, "A Systematic Comparison of Smoothing Techniques for
Sentence-Level BLEU", with the exact semantics of NLTK's
``nltk.translate.bleu_score.SmoothingFunction`` (``method0`` .. ``method7``),
including its quirks, which are kept on purpose so that the numbers agree:

- precisions are m_n / d_n with d_n = max(1, total_n) (NLTK's denominator floor);
- after smoothing, precisions that are still 0 are *left out* of the weighted sum
  (as if they were 1) -- NLTK's ``if p_i > 0``;
- ``method0`` replaces a zero precision by ``sys.float_info.min``, so BLEU is a tiny
  positive number (about 1e-77 for BLEU-4), not 0;
- ``method4``'s smoothed count is 1 / (2^i k / ln(c)) (c = candidate length), and it
  smooths nothing when c <= 1;
- ``method5`` always uses the 5-gram precision as its "n+1" neighbour of the
  last order (NLTK hard-codes order 5), so it needs 5-gram statistics; and it
  starts its average from p_1 + 1, so precisions, and BLEU, can exceed 1 (an
  identical 6-word pair scores 1.1167 with method5 and method7, in NLTK too);
- ``method6`` needs a non-zero *trigram* precision (NLTK asserts ``p_n[2]``).

At corpus level the Chen-Cherry methods see the summed statistics: method0..4
then equal NLTK's ``corpus_bleu`` exactly; for method5/6/7 NLTK mixes in the *last*
segment's hypothesis (a bug), mtlearn uses the corpus sums instead.

Defaults of ``smooth_value``: floor 0.1, add-k 1, method1 epsilon 0.1, method4 and
method7 k = 5, method6 alpha = 5 (NLTK's and Chen and Cherry's values).

>>> smooth("exp", matches=[3, 1, 0, 0], totals=[4, 3, 2, 1]).precisions
(Fraction(3, 4), Fraction(1, 3), Fraction(1, 4), Fraction(1, 4))
>>> smooth("none", matches=[3, 1, 0, 0], totals=[4, 3, 2, 1]).precisions
(Fraction(3, 4), Fraction(1, 3), Fraction(0, 1), Fraction(0, 1))
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Union

from mtlearn.core.checks import as_real
from mtlearn.core.signature import format_number

Number = Union[float, Fraction]

#: sacreBLEU's smoothing methods.
SACREBLEU_METHODS: tuple[str, ...] = ("none", "floor", "add-k", "exp")
#: Chen and Cherry's methods as NLTK implements them.
CHEN_CHERRY_METHODS: tuple[str, ...] = tuple(f"method{i}" for i in range(8))
#: Every name accepted by ``smoothing=``.
SMOOTHING_METHODS: tuple[str, ...] = SACREBLEU_METHODS + CHEN_CHERRY_METHODS

#: Default ``smooth_value`` per method; ``None``: the method takes no value.
SMOOTH_DEFAULTS: dict[str, Optional[float]] = {
    "none": None,
    "floor": 0.1,
    "add-k": 1,
    "exp": None,
    "method0": None,
    "method1": 0.1,
    "method2": None,
    "method3": None,
    "method4": 5,
    "method5": None,
    "method6": 5,
    "method7": 5,
}

#: Methods whose ``smooth_value`` may be 0 (it then adds nothing; sacreBLEU's tests use floor 0).
ZERO_ALLOWED: frozenset[str] = frozenset({"floor", "add-k", "method1"})

#: Methods that need the 5-gram statistics whatever ``max_order`` is (NLTK's method5 quirk).
NEEDS_FIVEGRAMS: frozenset[str] = frozenset({"method5", "method7"})


@dataclass(frozen=True)
class SmoothedPrecisions:
    """The precisions that enter the geometric mean, after smoothing.

    ``precisions`` -- one per order (``Fraction`` where the value is exact);
    ``orders`` -- how many orders enter the mean (less than ``max_order`` only with
    effective order); ``skip_zero`` -- ``True`` for the Chen-Cherry family, where a
    precision still 0 is left out of the sum (NLTK); ``notes`` -- what happened and why.
    """

    precisions: tuple[Number, ...]
    orders: int
    skip_zero: bool
    notes: tuple[str, ...]


def resolve_smooth_value(method: str, value: Optional[float]) -> Optional[float]:
    """The value a method will use: ``value`` if given, else the method's default.

    >>> resolve_smooth_value("floor", None), resolve_smooth_value("add-k", 0.5)
    (0.1, 0.5)
    >>> resolve_smooth_value("exp", 0.3)
    Traceback (most recent call last):
    ...
    ValueError: smooth_value: smoothing 'exp' takes no value (got 0.3)
    """
    default = SMOOTH_DEFAULTS[method]
    if value is None:
        return default
    if default is None:
        raise ValueError(f"smooth_value: smoothing {method!r} takes no value (got {value!r})")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"smooth_value: expected a number, got {type(value).__name__}")
    value = as_real(value, "smooth_value")  # numpy scalars, Fraction: plain numbers, every time
    if method in ZERO_ALLOWED:
        if value < 0:
            raise ValueError(
                f"smooth_value: must be a positive finite number or 0 (smoothing {method!r}), got {value!r}"
            )
    elif value <= 0:
        raise ValueError(f"smooth_value: must be a positive finite number, got {value!r}")
    return value


def smooth(
    method: str,
    *,
    matches: Sequence[int],
    totals: Sequence[int],
    smooth_value: Optional[float] = None,
    effective_order: bool = False,
    candidate_length: Optional[int] = None,
    nltk_totals: Optional[Sequence[int]] = None,
    fivegram: Optional[tuple[int, int]] = None,
) -> SmoothedPrecisions:
    """Smooth the precisions matches[n]/totals[n] with ``method`` (see the module docstring).

    ``candidate_length`` (method4/7) defaults to totals[0]; ``nltk_totals``, the
    denominators NLTK uses (sum of max(1, total) per segment), default to
    max(1, total); ``fivegram`` = (matches, NLTK denominator) of order 5 (method5/7)
    defaults to the fifth order of ``matches``/``nltk_totals`` when there is one.

    Chen and Cherry's method3 is sacreBLEU's exp, up to the 0/0 orders:

    >>> smooth("method3", matches=[3, 1, 0, 0], totals=[4, 3, 2, 1]).precisions
    (Fraction(3, 4), Fraction(1, 3), Fraction(1, 4), Fraction(1, 4))
    >>> smooth("add-k", matches=[3, 1, 0, 0], totals=[4, 3, 2, 1]).precisions
    (Fraction(3, 4), Fraction(1, 2), Fraction(1, 3), Fraction(1, 2))
    """
    if method not in SMOOTHING_METHODS:
        raise ValueError(
            f"smoothing: unknown value {method!r}; choose one of {', '.join(SMOOTHING_METHODS)}"
        )
    value = resolve_smooth_value(method, smooth_value)
    if method in SACREBLEU_METHODS:
        return _smooth_sacrebleu(method, value, matches, totals, effective_order)
    if candidate_length is None:
        candidate_length = totals[0] if totals else 0
    if nltk_totals is None:
        nltk_totals = [t if t > 0 else 1 for t in totals]
    if fivegram is None and len(matches) >= 5:
        fivegram = (matches[4], nltk_totals[4])
    return _smooth_chen_cherry(
        method, value, list(matches), list(totals), list(nltk_totals),
        candidate_length, fivegram, effective_order,
    )


def _smooth_sacrebleu(
    method: str, value: Optional[float], matches: Sequence[int], totals: Sequence[int],
    effective_order: bool,
) -> SmoothedPrecisions:
    # Mirrors sacrebleu.metrics.bleu.BLEU.compute_bleu step by step. It stops at the first
    # order without n-grams; the orders after it keep p_n = 0.
    max_order = len(matches)
    precisions: list[Number] = []
    notes: list[str] = []
    if not any(matches):
        notes.append("no n-gram of the candidate matches a reference, so BLEU = 0")
        return SmoothedPrecisions((Fraction(0),) * max_order, max_order, False, tuple(notes))
    doublings = 1
    orders = max_order
    for n in range(1, max_order + 1):
        correct, total = matches[n - 1], totals[n - 1]
        if method == "add-k" and n > 1:
            correct += value
            total += value
        if total == 0:
            if effective_order:
                notes.append(
                    f"the candidate has no {n}-grams: effective order keeps orders 1..{orders}"
                )
            else:
                notes.append(
                    f"the candidate has no {n}-grams (fewer than {n} tokens): p_{n} = 0/0 "
                    "counts as 0 and BLEU = 0 (effective_order=True leaves such orders out)"
                )
            break
        if effective_order:
            orders = n
        if correct == 0:
            if method == "exp":
                doublings *= 2
                precisions.append(Fraction(1, doublings * total))
                notes.append(f"p_{n} has no match: exp smoothing sets it to 1/({doublings}*{total})")
            elif method == "floor":
                precisions.append(_ratio(value, total))
                notes.append(_floor_note("floor smoothing", n, value, total))
            else:
                precisions.append(Fraction(0))
                notes.append(f"no {n}-gram matches, so p_{n} = 0 and BLEU = 0 (smoothing='{method}')")
        else:
            precisions.append(_ratio(correct, total))
    if method == "floor":
        _append(notes, _above_one_note(method, value, precisions))
    padded = tuple(precisions) + (Fraction(0),) * (max_order - len(precisions))
    return SmoothedPrecisions(padded, orders, False, tuple(notes))


def _append(notes: list[str], note: Optional[str]) -> None:
    if note is not None:
        notes.append(note)


def _smooth_chen_cherry(
    method: str, value: Optional[float], matches: list[int], totals: list[int],
    denominators: list[int], candidate_length: int, fivegram: Optional[tuple[int, int]],
    effective_order: bool,
) -> SmoothedPrecisions:
    # Mirrors nltk.translate.bleu_score.SmoothingFunction; see the module docstring.
    max_order = len(matches)
    notes: list[str] = []
    orders = max_order
    if effective_order:
        orders = max(1, min(max_order, sum(1 for t in totals if t > 0)))
        if orders < max_order:
            notes.append(f"the candidate has no {orders + 1}-grams: effective order keeps orders 1..{orders}")
    if matches[0] == 0:
        notes.append("no unigram of the candidate matches a reference, so BLEU = 0")
        zero = tuple(Fraction(0) for _ in matches)
        return SmoothedPrecisions(zero, orders, True, tuple(notes))
    p = _apply_method(method, value, [Fraction(m, d) for m, d in zip(matches, denominators)], matches, totals,
                      denominators, candidate_length, fivegram, notes)
    for i in range(orders):
        if p[i] <= 0:
            notes.append(f"p_{i + 1} = 0 is left out of the weighted sum (NLTK's rule), as if it were 1")
    return SmoothedPrecisions(tuple(p), orders, True, tuple(notes))


def _apply_method(
    method: str, value: Optional[float], p: list[Number], matches: list[int], totals: list[int],
    denominators: list[int], candidate_length: int, fivegram: Optional[tuple[int, int]], notes: list[str],
) -> list[Number]:
    """The precisions ``p`` after Chen and Cherry's ``method`` (NLTK's SmoothingFunction.methodN)."""
    if method == "method0":
        return _method0(p, matches, notes)
    if method == "method1":
        p = _method1(p, matches, denominators, value, notes)
        _append(notes, _above_one_note(method, value, p))
        return p
    if method == "method2":
        return _method2(p, matches, denominators, notes)
    if method == "method3":
        return _method3(p, matches, denominators, notes)
    if method in ("method4", "method7"):
        p = _method4(p, matches, denominators, candidate_length, value, notes)
        return _method5(p, fivegram, notes) if method == "method7" else p
    if method == "method5":
        return _method5(p, fivegram, notes)
    return _method6(p, matches, totals, value, notes)


def _method0(p, matches, notes):
    p = list(p)
    for i, m in enumerate(matches):
        if m == 0:
            p[i] = sys.float_info.min
            notes.append(
                f"no {i + 1}-gram matches: method0 (NLTK) puts sys.float_info.min for p_{i + 1}, "
                "so BLEU is a tiny positive number, in effect 0"
            )
    return p


def _method1(p, matches, denominators, epsilon, notes):
    p = list(p)
    for i, m in enumerate(matches):
        if m == 0:
            p[i] = _ratio(m + epsilon, denominators[i])
            notes.append(_floor_note("method1 (epsilon)", i + 1, epsilon, denominators[i]))
    return p


def _method2(p, matches, denominators, notes):
    notes.append("method2 adds 1 to the matches and the totals of every order n >= 2")
    return [p[0]] + [Fraction(m + 1, d + 1) for m, d in zip(matches[1:], denominators[1:])]


def _method3(p, matches, denominators, notes):
    p = list(p)
    k = 1
    for i, m in enumerate(matches):
        if m == 0:
            p[i] = Fraction(1, 2**k * denominators[i])  # NLTK: 1 / (2**k * d), same value
            notes.append(f"p_{i + 1} has no match: method3 sets it to 1/(2^{k}*{denominators[i]})")
            k += 1
    return p


def _method4(p, matches, denominators, candidate_length, k, notes):
    p = list(p)
    count = 1
    for i, m in enumerate(matches):
        if m == 0 and candidate_length > 1:
            numerator = 1 / (_times_power_of_two(k, count) / math.log(candidate_length))
            p[i] = numerator / denominators[i]
            notes.append(
                f"p_{i + 1} has no match: method4 sets it to "
                f"1/(2^{count}*{format_number(k)}/ln {candidate_length})/{denominators[i]}"
            )
            count += 1
    return p


def _method5(p, fivegram, notes):
    if fivegram is None:
        raise ValueError("smoothing: method5/method7 need 5-gram statistics (NLTK uses order 5)")
    # NLTK: the neighbour above the last order is always the 5-gram precision.
    above = list(p) + [Fraction(fivegram[0], fivegram[1])]
    previous = p[0] + 1
    out = list(p)
    for i, p_i in enumerate(p):
        out[i] = (previous + p_i + above[i + 1]) / 3
        previous = out[i]
    notes.append("method5 averages each precision with its neighbours "
                 "(m_0 = p_1 + 1; order 5 above the last)")
    above_one = [f"p_{i + 1} = {float(v):.4f}" for i, v in enumerate(out) if v > 1]
    if above_one:
        notes.append(
            f"method5's average starts from m_0 = p_1 + 1, so {', '.join(above_one)} > 1 and "
            "BLEU can exceed 1 (NLTK gives the same numbers)"
        )
    return out


def _method6(p, matches, totals, alpha, notes):
    if len(p) < 3:
        raise ValueError("smoothing: method6 needs max_order >= 3 (it interpolates from p_1 and p_2)")
    if matches[2] == 0:
        raise ValueError(
            "smoothing: method6 needs at least one trigram match (NLTK asserts a non-zero p_3); "
            "choose another method for this candidate"
        )
    p = list(p)
    for i in range(2, len(p)):
        p[i] = (matches[i] + alpha * _prior(p[i - 1], p[i - 2])) / (totals[i] + alpha)
    notes.append("method6 interpolates p_3.. with the prior p_(n-1)^2/p_(n-2), alpha = "
                 f"{format_number(alpha)}")
    return p


def _floor_note(rule: str, n: int, value: Number, total: int) -> str:
    """What floor/method1 did to p_n (a value above the total makes p_n > 1).

    >>> _floor_note("floor smoothing", 4, 3, 2)
    'p_4 has no match: floor smoothing sets it to 3/2 = 1.5 > 1'
    """
    note = f"p_{n} has no match: {rule} sets it to {format_number(value)}/{total}"
    if value > total:
        note += f" = {float(value) / total:g} > 1"
    elif value == 0 and rule.startswith("floor"):  # method1's zero is left out instead (NLTK)
        note += f", so p_{n} = 0 and BLEU = 0"
    return note


def _above_one_note(method: str, value: Number, precisions: Sequence[Number]) -> Optional[str]:
    """The reason to record when ``smooth_value > 1`` pushed some p_n above 1, else ``None``.

    >>> _above_one_note("floor", 3, [Fraction(1, 2), Fraction(3, 2)])
    "smooth_value = 3 > 1 with smoothing 'floor' makes p_2 > 1, so BLEU can exceed 1 (sacreBLEU and NLTK give the same)"
    """  # noqa: E501
    above = [f"p_{i + 1}" for i, p in enumerate(precisions) if p > 1]
    if not above:
        return None
    named = ", ".join(above[:4]) + (f" and {len(above) - 4} more" if len(above) > 4 else "")
    return (
        f"smooth_value = {format_number(value)} > 1 with smoothing {method!r} makes "
        f"{named} > 1, so BLEU can exceed 1 (sacreBLEU and NLTK give the same)"
    )


def _prior(last: Number, before: Number) -> Number:
    """method6's prior p_(n-1)^2 / p_(n-2): exact while the fraction stays small, a float after.

    Each order squares the previous one, so the exact fraction doubles in size per order
    (order 40 would need a billion digits); past 256 bits the float is as good as the number.

    >>> _prior(Fraction(1, 2), Fraction(3, 4)), _prior(Fraction(1, 3), 0)
    (Fraction(1, 3), 0)
    """
    if before == 0:
        return 0
    if isinstance(last, Fraction) and isinstance(before, Fraction):
        exact = last * last / before
        if exact.denominator.bit_length() < 256 and exact.numerator.bit_length() < 256:
            return exact
    last, before = float(last), float(before)
    if before == 0:  # underflowed: the prior is 0, as for an exact 0
        return 0.0
    return last * last / before if math.isfinite(last) else math.inf


def _times_power_of_two(k: Number, count: int) -> float:
    """2^count * k as a float, exactly as ``2**count * k``; ``inf`` past the largest float, not an error.

    >>> _times_power_of_two(5, 3), _times_power_of_two(5, 2000)
    (40.0, inf)
    """
    try:
        return math.ldexp(float(k), count)
    except OverflowError:
        return math.inf


def _ratio(numerator: Number, denominator: Number) -> Number:
    if isinstance(numerator, int) and isinstance(denominator, int):
        return Fraction(numerator, denominator)
    return numerator / denominator

"""The Chinese blog post's d2l-style BLEU, every factor exposed.

The formula (the d2l-style definition given in the Chinese blog post, after Dive into Deep
Learning, §10.7 / d2l.ai), with p_n the clipped n-gram precision of the
prediction against ONE label, len_label and len_pred the word counts::

    BLEU = exp(min(0, 1 - len_label / len_pred)) * prod_{n=1..k} p_n ^ (1 / 2^n)

It differs from Papineni's BLEU: one reference, the penalty uses the label
length directly, and the weights are 1/2^n (which do *not* sum to 1), so a
long n-gram's precision counts for less loss, not more weight in a mean.

The Chinese blog post's example C: k = 2, label A B C D E F, prediction A B:

>>> r = d2l_bleu("A B".split(), "A B C D E F".split(), 2)
>>> [str(p) for p in r.precisions], str(r.penalty_exponent), round(r.penalty, 4), round(r.score, 2)
(['1', '1'], '-2', 0.1353, 0.14)

The document's code keys n-grams with ``''.join(tokens)``, so ("ab", "c") and
("a", "bc") collide; here n-grams are tuples:

>>> d2l_bleu(["ab", "c"], ["a", "bc"], 2).precisions[1]
Fraction(0, 1)
>>> ''.join(["ab", "c"]) == ''.join(["a", "bc"])  # what the document's code compares
True
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Union

from mtlearn.core.checks import as_tokens
from mtlearn.core.ngrams import orders_text
from mtlearn.core.references import CorpusGivenError, segment_shape_problem
from mtlearn.metrics.bleu.options import MAX_ORDER


@dataclass(frozen=True)
class D2LBleuResult:
    """Every number of the Chinese blog post's formula.

    ``penalty_exponent`` = min(0, 1 - len_label/len_pred) (``None`` for an empty
    prediction), ``penalty`` = exp of it; per order n = 1..k: ``matches[n-1]``,
    ``totals[n-1]`` (len_pred - n + 1, or 0), ``precisions`` p_n (exact),
    ``exponents`` 1/2^n, ``factors`` p_n^(1/2^n); ``score`` = penalty * product of
    the factors; ``reason`` says why the score is a defined 0 where the document's
    code would divide by zero.
    """

    score: float
    k: int
    pred_tokens: tuple[str, ...]
    label_tokens: tuple[str, ...]
    pred_length: int
    label_length: int
    penalty_exponent: Optional[Fraction]
    penalty: float
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: tuple[Fraction, ...]
    exponents: tuple[Fraction, ...]
    factors: tuple[float, ...]
    reason: Optional[str]

    def explain(self) -> str:
        """The derivation with the numbers substituted.

        >>> print(d2l_bleu("A B B C D".split(), "A B C D E F".split(), 2).explain())
        d2l BLEU, k = 2: exp(min(0, 1 - len_label/len_pred)) * prod p_n^(1/2^n)
          len_pred = 5, len_label = 6
          penalty = exp(min(0, 1 - 6/5)) = exp(-1/5) = 0.8187
          p_1 = 4/5 = 0.8000, exponent 1/2, factor 0.8000^(1/2) = 0.8944
          p_2 = 3/4 = 0.7500, exponent 1/4, factor 0.7500^(1/4) = 0.9306
          BLEU = 0.8187 * 0.8944 * 0.9306 = 0.6815
        """
        lines = [
            f"d2l BLEU, k = {self.k}: exp(min(0, 1 - len_label/len_pred)) * prod p_n^(1/2^n)",
            f"  len_pred = {self.pred_length}, len_label = {self.label_length}",
        ]
        if self.penalty_exponent is None:
            lines.append("  penalty: len_pred = 0, 1 - len_label/0 is undefined; taken as 0")
        else:
            lines.append(
                f"  penalty = exp(min(0, 1 - {self.label_length}/{self.pred_length})) = "
                f"exp({self.penalty_exponent}) = {self.penalty:.4f}"
            )
        shown = min(self.k, self.pred_length + 1)  # past the prediction's length every order is alike
        for n in range(1, shown + 1):
            m, t, p = self.matches[n - 1], self.totals[n - 1], self.precisions[n - 1]
            e, f = self.exponents[n - 1], self.factors[n - 1]
            said = f"{m}/{t} = {float(p):.4f}" if t else f"0 (no {n}-grams in the prediction)"
            lines.append(f"  p_{n} = {said}, exponent {e}, factor {float(p):.4f}^({e}) = {f:.4f}")
        if shown < self.k:
            lines.append(f"  p_{shown + 1} .. p_{self.k}: {self.k - shown} more orders, each p = 0 (no "
                         "n-grams), factor 0")
        product = orders_text(self.factors, "{:.4f}".format, " * ")
        lines.append(f"  BLEU = {self.penalty:.4f} * {product} = {self.score:.4f}")
        if self.reason:
            lines.append(f"  why: {self.reason}")
        return "\n".join(lines)


def d2l_bleu(
    pred_tokens: Union[str, Sequence[str]],
    label_tokens: Union[str, Sequence[str]],
    k: int,
) -> D2LBleuResult:
    """The Chinese blog post's ``bleu(pred_tokens, label_tokens, k)``, with tuple-keyed n-grams.

    Strings are split on white space. Where the document's code divides by zero
    (an empty prediction, or a prediction with exactly n - 1 tokens) or takes
    0 / negative (shorter still), p_n is a defined 0 and ``reason`` says why.

    The Chinese blog post's example A:

    >>> r = d2l_bleu("A B B C D".split(), "A B C D E F".split(), 4)
    >>> [str(p) for p in r.precisions]
    ['4/5', '3/4', '1/3', '0']
    >>> [str(e) for e in r.exponents]
    ['1/2', '1/4', '1/8', '1/16']
    """
    for name, value in (("pred_tokens", pred_tokens), ("label_tokens", label_tokens)):
        problem = segment_shape_problem(value)  # a corpus here would score as one sentence
        if problem:
            raise CorpusGivenError(f"{name}: {problem}, not the tokens of one sentence: d2l_bleu() scores "
                                   "one prediction against one label; call it once per pair")
    pred = as_tokens(pred_tokens, argname="pred_tokens")
    label = as_tokens(label_tokens, argname="label_tokens")
    _check_k(k)
    len_pred, len_label = len(pred), len(label)
    reasons: list[str] = []
    exponent, penalty = _penalty(len_pred, len_label, reasons)
    matches, totals, precisions, factors = _orders(pred, label, k, reasons)
    score = penalty
    for factor in factors:
        score *= factor
    if score == 0.0 and not reasons:
        zero = [f"p_{n}" for n, p in enumerate(precisions, 1) if p == 0]
        if zero:
            reasons.append(f"{', '.join(zero)} = 0 (no matching n-gram), so the product is 0")
    return D2LBleuResult(
        score=score, k=k, pred_tokens=pred, label_tokens=label, pred_length=len_pred,
        label_length=len_label, penalty_exponent=exponent, penalty=penalty,
        matches=_padded(matches, 0, k), totals=_padded(totals, 0, k),
        precisions=_padded(precisions, Fraction(0), k),
        exponents=tuple(Fraction(1, 2**n) for n in range(1, k + 1)),
        factors=_padded(factors, 0.0, k),
        reason="; ".join(reasons) if reasons else None,
    )


def _check_k(k: object) -> None:
    """A whole number from 1 to BLEU's :data:`~mtlearn.metrics.bleu.options.MAX_ORDER`."""
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"k: expected a positive int, got {type(k).__name__}")
    if k < 1:
        raise ValueError(f"k: the longest n-gram order must be at least 1, got {k}")
    if k > MAX_ORDER:  # BLEU's bound: an order longer than every sentence only adds factors of 0
        shown = str(k) if k < 10**30 else f"a number of {len(str(k))} digits"
        raise ValueError(f"k: at most {MAX_ORDER} (BLEU's max_order bound), got {shown}")


def _penalty(len_pred: int, len_label: int, reasons: list[str]) -> tuple[Optional[Fraction], float]:
    """The penalty's exponent min(0, 1 - len_label/len_pred) and its exp (0, with a reason, when there is
    no prediction)."""
    if len_pred == 0:
        reasons.append(
            "the prediction is empty: the document's code divides by zero (len_label/len_pred); "
            "the penalty and BLEU are taken as 0"
        )
        return None, 0.0
    return min(Fraction(0), 1 - Fraction(len_label, len_pred)), math.exp(min(0, 1 - len_label / len_pred))


def _orders(pred: tuple[str, ...], label: tuple[str, ...], k: int,
            reasons: list[str]) -> tuple[list[int], list[int], list[Fraction], list[float]]:
    """Matches, totals, p_n and the factors p_n^(1/2^n) of the orders up to the prediction's length + 1.

    Orders past the prediction's length have no n-gram and are all alike: counted once.
    """
    len_pred = len(pred)
    matches, totals, precisions, factors = [], [], [], []
    for n in range(1, min(k, len_pred + 1) + 1):
        num_matches = _clipped_matches(pred, label, n)
        total = max(0, len_pred - n + 1)
        if total == 0:
            p = Fraction(0)
            if len_pred:
                reasons.append(_no_ngrams_reason(len_pred, n, k, num_matches))
        else:
            p = Fraction(num_matches, total)
        matches.append(num_matches)
        totals.append(total)
        precisions.append(p)
        factors.append(math.pow(num_matches / total, math.pow(0.5, n)) if total else 0.0)
    return matches, totals, precisions, factors


def _clipped_matches(pred: tuple[str, ...], label: tuple[str, ...], n: int) -> int:
    """As in the document: count the label's n-grams, then credit each prediction n-gram while one is left.

    >>> _clipped_matches(("A", "A", "B"), ("A", "B"), 1)
    2
    """
    label_subs: defaultdict[tuple[str, ...], int] = defaultdict(int)
    for i in range(len(label) - n + 1):
        label_subs[label[i : i + n]] += 1
    num_matches = 0
    for i in range(len(pred) - n + 1):
        gram = pred[i : i + n]
        if label_subs[gram] > 0:
            num_matches += 1
            label_subs[gram] -= 1
    return num_matches


def _no_ngrams_reason(len_pred: int, n: int, k: int, num_matches: int) -> str:
    """Why p_n (and every order after it, up to k) is taken as 0: one sentence for all of them."""
    orders = f"p_{n} is" if n == k else f"p_{n} .. p_{k} are"
    return (
        f"the prediction has {len_pred} token{'s' if len_pred > 1 else ''}, no {n}-grams: "
        f"the document's code computes {num_matches}/({len_pred} - {n} + 1); {orders} taken as 0"
    )


def _padded(values: list, fill: object, k: int) -> tuple:
    """The orders computed (up to the prediction's length + 1), then ``fill`` up to order k (no n-grams)."""
    return tuple(values) + (fill,) * (k - len(values))

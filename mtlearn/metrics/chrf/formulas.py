"""chrF's formula steps, one small function each, exact where a student checks by hand.

chrF (Popović 2015) compares *character* n-grams of a candidate and a reference;
chrF++ (Popović 2017) adds *word* unigrams and bigrams. For every order n:

- the candidate's n-grams and the reference's n-grams are counted;
- ``matched`` is the size of their multiset intersection (each n-gram credited
  ``min(count in candidate, count in reference)`` times);
- precision P_n = matched / candidate n-grams, recall R_n = matched / reference n-grams.

The orders are then combined. sacreBLEU's default (``eps_smoothing=False``) averages
P_n and R_n over the orders that both sides have n-grams of (its "effective order")
and takes ONE F-score of the two averages:

    F_beta = (1 + beta^2) * P * R / (beta^2 * P + R)

With ``eps_smoothing=True`` (chrF++.py, Moses and NLTK) every order gets its own
F_beta (a tiny epsilon standing in for 0/0) and chrF is the mean of those.

A worked example a student can do by hand (character unigrams and bigrams):

>>> cand, ref = "ab ab", "abc"
>>> char_ngrams(cand, 1), char_ngrams(ref, 1)
(Counter({'a': 2, 'b': 2}), Counter({'a': 1, 'b': 1, 'c': 1}))
>>> order_counts(char_ngrams(cand, 1), char_ngrams(ref, 1))
(4, 3, 2)
>>> order_counts(char_ngrams(cand, 2), char_ngrams(ref, 2))
(3, 2, 1)
>>> p = [precision(2, 4), precision(1, 3)]; r = [recall(2, 3), recall(1, 2)]
>>> average(p), average(r)
(Fraction(5, 12), Fraction(7, 12))
>>> f_beta(Fraction(5, 12), Fraction(7, 12), 2)  # 5 * 5/12 * 7/12 / (4 * 5/12 + 7/12)
Fraction(175, 324)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Union

__all__ = [
    "EPS",
    "PUNCTUATION",
    "strip_whitespace",
    "char_ngrams",
    "split_punctuation",
    "word_ngrams",
    "order_counts",
    "precision",
    "recall",
    "f_beta",
    "average",
    "effective_orders",
    "averaged_f",
    "eps_smoothed_f",
    "order_f",
    "segment_counts",
    "sacrebleu_float_score",
]

#: The epsilon of chrF++.py / sacreBLEU's ``eps_smoothing``: it stands in for a 0/0 precision or recall.
EPS = 1e-16

#: ASCII punctuation (Python's ``string.punctuation``): chrF++ splits one of these off a word's end or start.
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')

Number = Union[int, float, Fraction]


def strip_whitespace(text: str) -> str:
    """The text without any white space: what chrF's character n-grams run over by default.

    Every Unicode white-space run is removed (``str.split()``'s notion), so word
    boundaries are invisible to character n-grams unless ``whitespace=True``.

    >>> strip_whitespace(" the  cat\\tsat ")
    'thecatsat'
    """
    return "".join(text.split())


def char_ngrams(text: str, n: int, whitespace: bool = False) -> Counter:
    """How often each character n-gram (a string of ``n`` characters) occurs in ``text``.

    White space is removed first unless ``whitespace`` is true (sacreBLEU's default).

    >>> char_ngrams("a b a", 2)
    Counter({'ab': 1, 'ba': 1})
    >>> char_ngrams("a b", 2, whitespace=True)
    Counter({'a ': 1, ' b': 1})
    """
    line = text if whitespace else strip_whitespace(text)
    return Counter(line[i : i + n] for i in range(len(line) - n + 1))


def split_punctuation(text: str) -> list[str]:
    """chrF++'s words: split on white space, then one punctuation mark off each word.

    The rule of Popović's chrF++.py, as sacreBLEU has it: a word of one character
    stays; otherwise a punctuation mark at the *end* is split off, else one at the
    *start*; never both (so ``"(hi)"`` gives ``"(hi"`` and ``")"``, as reported in
    mjpost/sacrebleu#124), and nothing inside a word.

    >>> split_punctuation("Hello, world! (hi) 'ok")
    ['Hello', ',', 'world', '!', '(hi', ')', "'", 'ok']
    >>> split_punctuation("e.g. U.S.A ...")
    ['e.g', '.', 'U.S.A', '..', '.']
    """
    words: list[str] = []
    for word in text.split():
        if len(word) > 1 and word[-1] in PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif len(word) > 1 and word[0] in PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


def word_ngrams(words: Sequence[str], n: int) -> Counter:
    """How often each word n-gram (a tuple of ``n`` words) occurs in ``words``.

    >>> word_ngrams(["the", "cat", "the", "cat"], 2)
    Counter({('the', 'cat'): 2, ('cat', 'the'): 1})
    """
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def order_counts(candidate: Counter, reference: Counter) -> tuple[int, int, int]:
    """``(candidate n-grams, reference n-grams, matched)`` of one order, as sacreBLEU counts them.

    ``matched`` is the multiset intersection: each n-gram counts ``min(candidate
    count, reference count)`` times. One rule of sacreBLEU (kept for parity): when
    the reference has *no* n-gram of this order, the candidate's n-grams are not
    counted either (0), so that order drops out of a corpus' precision as well as
    its recall.

    >>> order_counts(Counter("aab"), Counter("abbb"))
    (3, 4, 2)
    >>> order_counts(Counter("aab"), Counter())
    (0, 0, 0)
    """
    matched = sum(min(count, reference[gram]) for gram, count in candidate.items() if gram in reference)
    candidate_total = sum(candidate.values()) if reference else 0
    return candidate_total, sum(reference.values()), matched


def precision(matched: int, candidate_count: int) -> Fraction:
    """P_n = matched / candidate n-grams, exact (0 when the candidate has none).

    >>> precision(2, 4), precision(0, 0)
    (Fraction(1, 2), Fraction(0, 1))
    """
    return Fraction(matched, candidate_count) if candidate_count else Fraction(0)


def recall(matched: int, reference_count: int) -> Fraction:
    """R_n = matched / reference n-grams, exact (0 when the reference has none).

    >>> recall(2, 3)
    Fraction(2, 3)
    """
    return Fraction(matched, reference_count) if reference_count else Fraction(0)


def f_beta(p: Number, r: Number, beta: Number) -> Fraction:
    """F_beta = (1 + beta^2) P R / (beta^2 P + R), exact; 0 when P = R = 0.

    beta = 2 (the default) weighs recall twice as much as precision.

    >>> f_beta(Fraction(1, 2), Fraction(1, 4), 2)
    Fraction(5, 18)
    >>> f_beta(0, 0, 2)
    Fraction(0, 1)
    """
    p, r, b2 = Fraction(p), Fraction(r), Fraction(beta) ** 2
    denominator = b2 * p + r
    return (1 + b2) * p * r / denominator if denominator else Fraction(0)


def average(values: Sequence[Fraction]) -> Fraction:
    """The arithmetic mean, exact (0 for no values).

    >>> average([Fraction(1, 2), Fraction(1, 3)])
    Fraction(5, 12)
    """
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def effective_orders(counts: Sequence[tuple[int, int, int]]) -> list[int]:
    """The positions of the orders that enter the average: both sides have n-grams of them.

    sacreBLEU's "effective order" (as before 2.0): an order the candidate or the
    reference is too short for is left out instead of counting as 0.

    >>> effective_orders([(4, 3, 2), (3, 2, 1), (0, 1, 0)])
    [0, 1]
    """
    return [i for i, (c, r, _) in enumerate(counts) if c > 0 and r > 0]


def averaged_f(counts: Sequence[tuple[int, int, int]], beta: Number) -> tuple[Fraction, Fraction, Fraction]:
    """sacreBLEU's default chrF: ``(P, R, F)`` with P and R averaged over the effective orders.

    ``counts`` holds ``(candidate, reference, matched)`` per order. The module's example:

    >>> averaged_f([(4, 3, 2), (3, 2, 1)], 2)
    (Fraction(5, 12), Fraction(7, 12), Fraction(175, 324))
    """
    used = effective_orders(counts)
    p = average([precision(counts[i][2], counts[i][0]) for i in used])
    r = average([recall(counts[i][2], counts[i][1]) for i in used])
    return p, r, f_beta(p, r, beta)


def order_f(candidate_count: int, reference_count: int, matched: int, beta: Number, *, eps: bool) -> Fraction:
    """One order's F_beta; with ``eps`` chrF++.py's rule: 0/0 becomes EPS, and F = 0 becomes EPS.

    Without ``eps``: plain :func:`f_beta` of the order's exact P_n and R_n.

    >>> order_f(4, 3, 2, 2, eps=False)  # P = 1/2, R = 2/3: 5 * 1/3 / (2 + 2/3)
    Fraction(5, 8)
    >>> order_f(3, 2, 0, 2, eps=True) == Fraction(EPS)
    True
    """
    p, r = precision(matched, candidate_count), recall(matched, reference_count)
    if not eps:
        return f_beta(p, r, beta)
    if not candidate_count:
        p = Fraction(EPS)
    if not reference_count:
        r = Fraction(EPS)
    f = f_beta(p, r, beta)
    return f if p or r else Fraction(EPS)


def eps_smoothed_f(counts: Sequence[tuple[int, int, int]], beta: Number) -> Fraction:
    """chrF with ``eps_smoothing=True``: the mean of every order's :func:`order_f` (no order left out).

    >>> eps_smoothed_f([(4, 3, 2), (3, 2, 1)], 2)  # (5/8 + 5/11) / 2
    Fraction(95, 176)
    """
    return average([order_f(c, r, m, beta, eps=True) for c, r, m in counts])


def segment_counts(
    candidate: str, reference: str, char_order: int, word_order: int, whitespace: bool = False
) -> list[tuple[int, int, int]]:
    """``(candidate, reference, matched)`` of every order: characters 1..char_order, then words 1..word_order.

    The plain rule, step by step (its fast twin, ``fast.fast_segment_counts``, is proven equal to it).

    >>> segment_counts("ab ab", "abc", 2, 1)
    [(4, 3, 2), (3, 2, 1), (2, 1, 0)]
    """
    counts = [
        order_counts(char_ngrams(candidate, n, whitespace), char_ngrams(reference, n, whitespace))
        for n in range(1, char_order + 1)
    ]
    if word_order:
        cand_words, ref_words = split_punctuation(candidate), split_punctuation(reference)
        counts += [
            order_counts(word_ngrams(cand_words, n), word_ngrams(ref_words, n))
            for n in range(1, word_order + 1)
        ]
    return counts


def sacrebleu_float_score(counts: Sequence[Sequence[int]], beta: Number, eps_smoothing: bool) -> float:
    """chrF x 100 in floating point, operation by operation in sacreBLEU's order.

    Exact arithmetic (:func:`averaged_f`, :func:`eps_smoothed_f`) gives the score; this
    float is what sacreBLEU *compares* when it keeps the best of several references, so
    mtlearn compares it too: two references whose exact scores are equal (or differ in
    the last bit) are then ranked exactly as sacreBLEU ranks them.

    The floats can differ from the exact value in the last bits (here 100 x 175/324):

    >>> sacrebleu_float_score([(4, 3, 2), (3, 2, 1)], 2, False), float(100 * Fraction(175, 324))
    (54.01234567901233, 54.01234567901235)
    """
    factor = beta**2
    total = avg_p = avg_r = 0.0
    used = 0
    for c, r, m in counts:
        p = m / c if c > 0 else EPS
        q = m / r if r > 0 else EPS
        denominator = factor * p + q
        total += ((1 + factor) * p * q / denominator) if denominator > 0 else EPS
        if c > 0 and r > 0:
            avg_p += p
            avg_r += q
            used += 1
    if eps_smoothing:
        return 100 * total / len(counts)
    if used:
        avg_p /= used
        avg_r /= used
    else:
        avg_p = avg_r = 0.0
    if avg_p + avg_r:
        return 100 * ((1 + factor) * avg_p * avg_r / (factor * avg_p + avg_r))
    return 0.0

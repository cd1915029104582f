"""BLEU's options, declared once: :class:`BleuOptions` (defaults, checks, help, flags, controls, signature).

:func:`~mtlearn.metrics.bleu.score.bleu`, :func:`~mtlearn.metrics.bleu.score.corpus_bleu` and
:func:`~mtlearn.metrics.bleu.stats.bleu_from_stats` take their defaults from :data:`DEFAULTS` and
build a :class:`BleuOptions` to check what they are given; the command line's flags and the
explorer's controls are described by :meth:`BleuOptions.specs`.

>>> BleuOptions(max_order=2, smoothing="floor").signature("1")  # doctest: +ELLIPSIS
'mtlearn-bleu|nrefs:1|case:mixed|eff:no|tok:whitespace|smooth:floor[0.10]|order:2|weights:uniform|version:...'
>>> BleuOptions(max_order=10**8)
Traceback (most recent call last):
...
ValueError: max_order: at most 4096, got 100000000 (BLEU computes every order's precision and weight one \
by one, and an order longer than every candidate has no n-gram: past it every order adds the same 0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

from mtlearn.core.options import Options, check_flag, check_one_of, option
from mtlearn.core.signature import format_number, make_signature
from mtlearn.core.tokenize import TOKENIZERS
from mtlearn.metrics.bleu.formulas import check_weights, uniform_weights
from mtlearn.metrics.bleu.smoothing import (
    NEEDS_FIVEGRAMS,
    SMOOTH_DEFAULTS,
    SMOOTHING_METHODS,
    resolve_smooth_value,
)

__all__ = ["MAX_ORDER", "BleuOptions", "DEFAULTS"]

#: The most n-gram orders BLEU takes. Bounded because every order's count, precision, log and weight is
#: kept one by one (and, in a paired test, every bootstrap sample's), while an order longer than every
#: candidate has no n-gram. ``max_order=10**8`` on a one-line corpus took 30 s and 4.6 GB before it was
#: refused; 4096 is as many orders as chrF takes.
MAX_ORDER = 4096
_TOO_MANY = ("BLEU computes every order's precision and weight one by one, and an order longer than every "
             "candidate has no n-gram: past it every order adds the same 0")

#: How many of the weights' stack frames lie between the user's call and ``warnings.warn`` in
#: ``check_weights``: check_weights, check_together, __post_init__, __init__, the public function.
_WEIGHTS_STACKLEVEL = 6


def check_max_order(value: object, name: str) -> int:
    """A whole number from 1 to :data:`MAX_ORDER` (the messages BLEU has always given below the bound).

    >>> check_max_order(0, "max_order")
    Traceback (most recent call last):
    ...
    ValueError: max_order: must be at least 1, got 0
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected a positive int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name}: must be at least 1, got {value}")
    if value > MAX_ORDER:
        shown = str(value) if value < 10**30 else f"a number of {len(str(value))} digits"
        raise ValueError(f"{name}: at most {MAX_ORDER}, got {shown} ({_TOO_MANY})")
    return value


def _checked_together(value: object, name: str) -> object:
    """Kept as given here; :meth:`BleuOptions.check_together` checks it against the other options."""
    return value


_SMOOTH_VALUE_HELP = ("the value of floor, add-k, method1, method4, method6, method7 (defaults: "
                      + ", ".join(f"{name} {value:g}" for name, value in SMOOTH_DEFAULTS.items()
                                  if value is not None)
                      + ")")


@dataclass(frozen=True)
class BleuOptions(Options):
    """Every BLEU option (the library's defaults: BLEU-4, uniform weights, no smoothing, whitespace tokens).

    ``weights`` stays ``None`` for uniform weights (:attr:`resolved_weights` gives them);
    ``smooth_value`` is the value the smoothing method uses (its default when ``None`` is given).
    The command line's defaults are sacreBLEU's (``--tokenize 13a --smoothing exp``).

    >>> BleuOptions(smoothing="add-k").smooth_value, BleuOptions(max_order=2).resolved_weights
    (1, (0.5, 0.5))
    """

    max_order: int = option(
        4, "longest n-gram order (default: %(default)s)", check_max_order,
        flags=("--max-order",), control=(1, 6, 1))
    weights: Optional[Sequence[float]] = option(
        None, "one weight per n-gram order, e.g. --weights 1/2 1/2 with --max-order 2 "
              "(default: uniform, 1/N each)",
        _checked_together, flags=("--weights",))
    smoothing: str = option(
        "none", "smoothing of zero n-gram counts: sacreBLEU's none, floor, add-k, exp, or Chen & Cherry's "
                "method0..method7 as NLTK has them (default: %(default)s, as sacreBLEU)",
        check_one_of(SMOOTHING_METHODS), flags=("--smoothing", "--smooth-method", "-s"),
        choices=SMOOTHING_METHODS)
    smooth_value: Optional[float] = option(
        None, _SMOOTH_VALUE_HELP, _checked_together, flags=("--smooth-value", "-sv"))
    tokenize: str = option(
        "whitespace",
        "tokenizer (default: 13a, or what -l chooses, as sacreBLEU); 'whitespace' and 'none' only "
        "split on spaces (for text tokenized beforehand), 'intl', 'zh', 'char', 'ja-mecab', "
        "'ko-mecab' are sacreBLEU's",
        check_one_of(TOKENIZERS), flags=("--tokenize", "-tok"), choices=tuple(TOKENIZERS))
    lowercase: bool = option(
        False, "lowercase hypotheses and references first", check_flag, flags=("--lowercase", "-lc"))
    effective_order: bool = option(
        False, "leave out n-gram orders the hypothesis is too short for (default: on for --segment and "
               "--sentence-level, as sacreBLEU's sentence BLEU; off for the corpus)", check_flag,
        flags=("--effective-order",))

    def check_together(self) -> None:
        """The smoothing's value, method6's three orders, one weight per order (each option checked first)."""
        object.__setattr__(self, "smooth_value", resolve_smooth_value(self.smoothing, self.smooth_value))
        if self.smoothing == "method6" and self.max_order < 3:
            raise ValueError("smoothing: method6 needs max_order >= 3 (it interpolates from p_1 and p_2)")
        if self.weights is not None:
            object.__setattr__(self, "weights", check_weights(self.weights, self.max_order,
                                                              stacklevel=_WEIGHTS_STACKLEVEL))

    @property
    def resolved_weights(self) -> tuple[float, ...]:
        """w_1..w_N as the mean uses them: the weights given, else 1/N each."""
        return uniform_weights(self.max_order) if self.weights is None else tuple(self.weights)

    @property
    def extract_order(self) -> int:
        """How many orders to count: NLTK's method5 and method7 always look at 5-grams."""
        return max(self.max_order, 5) if self.smoothing in NEEDS_FIVEGRAMS else self.max_order

    def signature(self, nrefs: str) -> str:
        """The reproducibility signature (sacreBLEU's keys, plus the order and the weights).

        >>> BleuOptions(weights=(0.5, 0.5, 0, 0)).signature("var").split("|")[1:-1]  # doctest: +NORMALIZE_WHITESPACE
        ['nrefs:var', 'case:mixed', 'eff:no', 'tok:whitespace', 'smooth:none', 'order:4',
         'weights:0.5,0.5,0,0']
        """  # noqa: E501
        smooth_str = self.smoothing
        if self.smooth_value is not None:
            smooth_str += f"[{float(self.smooth_value):.2f}]"
        weights = self.resolved_weights
        uniform = all(w == weights[0] for w in weights) and abs(math.fsum(weights) - 1) < 1e-12
        return make_signature("bleu", {
            "nrefs": nrefs,
            "case": "lc" if self.lowercase else "mixed",
            "eff": "yes" if self.effective_order else "no",
            "tok": self.tokenize,
            "smooth": smooth_str,
            "order": self.max_order,
            "weights": "uniform" if uniform else ",".join(format_number(w) for w in weights),
        })


#: The defaults, which the public functions' keyword arguments take.
DEFAULTS = BleuOptions()

"""chrF's options, declared once: :class:`ChrfOptions` (defaults, checks, help, flags, controls, signature).

:func:`~mtlearn.metrics.chrf.score.chrf`, :func:`~mtlearn.metrics.chrf.score.corpus_chrf` and
:func:`~mtlearn.metrics.chrf.stats.chrf_from_stats` take their defaults from :data:`DEFAULTS` and
build a :class:`ChrfOptions` to check what they are given; the command line's flags and the
explorer's controls are described by :meth:`ChrfOptions.specs`.

>>> ChrfOptions(word_order=2).signature("1")
'mtlearn-chrf|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|beta:2|version:0.1.0'
>>> ChrfOptions(char_order=0, word_order=0)
Traceback (most recent call last):
...
ValueError: char_order: char_order and word_order are both 0; chrF needs at least one order
"""

from __future__ import annotations

from dataclasses import dataclass

from mtlearn.core.options import Options, check_flag, check_int, check_one_of, check_positive, option
from mtlearn.core.signature import format_number, make_signature

__all__ = ["MAX_ORDER", "REFERENCE_TIES", "ChrfOptions", "DEFAULTS"]

#: The most character (and, separately, word) orders chrF takes. Bounded because chrF keeps every order's
#: counts (per segment, and in every bootstrap sample of a paired test) and averages one F per order, while
#: an order longer than every line has no n-grams. ``char_order=10**9`` filled 844 MB in 20 s before it was
#: refused; 4096 is as many orders as BLEU's Chen-Cherry smoothing takes.
MAX_ORDER = 4096
_TOO_MANY = ("chrF keeps the counts of every order and averages one F per order; an order longer than every "
             "line has no n-grams and only drops out of the average or lowers it")

#: How a tie between references (equal chrF) is broken: keep the ``first`` (sacreBLEU) or the ``last``.
REFERENCE_TIES: tuple[str, ...] = ("first", "last")


@dataclass(frozen=True)
class ChrfOptions(Options):
    """Every chrF option (sacreBLEU's defaults: chrF2, character 6-grams, no word n-grams).

    ``word_order=2`` is chrF++; the command line's ``--plus`` (``--chrf++``) is a shorthand for it.
    """

    char_order: int = option(
        6, "longest character n-gram order (default: %(default)s)", check_int(0, MAX_ORDER, _TOO_MANY),
        flags=("--char-order", "--chrf-char-order", "-cc"), control=(0, 10, 1))
    word_order: int = option(
        0, "longest word n-gram order; 2 is chrF++ (default: %(default)s)",
        check_int(0, MAX_ORDER, _TOO_MANY),
        flags=("--word-order", "--chrf-word-order", "-cw"), control=(0, 4, 1))
    beta: float = option(
        2.0, "recall counts beta times as much as precision in F_beta (default: %(default)g)", check_positive,
        flags=("--beta", "--chrf-beta"), control=(0.0, 6.0, 0.5))
    lowercase: bool = option(
        False, "lowercase hypotheses and references first", check_flag,
        flags=("--lowercase", "-lc", "--chrf-lowercase"))
    whitespace: bool = option(
        False, "keep spaces inside character n-grams (default: spaces removed)", check_flag,
        flags=("--whitespace", "--chrf-whitespace"))
    eps_smoothing: bool = option(
        False, "average the F-scores of all orders, an order without n-grams counting a tiny epsilon, as "
               "chrF++.py, NLTK and Moses (default: F of the precision and recall averaged over the orders "
               "both sides have, sacreBLEU's effective order)", check_flag,
        flags=("--eps-smoothing", "--chrf-eps-smoothing"))
    reference_ties: str = option(
        "first", "with several references each segment keeps its best one; on a tie keep the 'first' "
                 "(sacreBLEU) or the 'last' (what WMT22's official chrf-all numbers need, with the "
                 "references given in A, B order; see the chrF card) (default: %(default)s)",
        check_one_of(REFERENCE_TIES),
        flags=("--reference-ties",), choices=REFERENCE_TIES)

    def check_together(self) -> None:
        """At least one order, of either kind (each option alone was checked first)."""
        if self.char_order == 0 and self.word_order == 0:
            raise ValueError("char_order: char_order and word_order are both 0; "
                             "chrF needs at least one order")

    @property
    def n_orders(self) -> int:
        """Character orders, then word orders: the (candidate, reference, matched) triples of a segment."""
        return self.char_order + self.word_order

    def signature(self, nrefs: str) -> str:
        """The reproducibility signature (sacreBLEU's keys; ``ties`` only when it is not sacreBLEU's rule).

        >>> ChrfOptions(eps_smoothing=True, reference_ties="last").signature("var")  # doctest: +ELLIPSIS
        'mtlearn-chrf|nrefs:var|case:mixed|eff:no|nc:6|nw:0|space:no|beta:2|ties:last|version:...'
        """
        settings: dict[str, object] = {
            "nrefs": nrefs,
            "case": "lc" if self.lowercase else "mixed",
            "eff": "no" if self.eps_smoothing else "yes",
            "nc": self.char_order,
            "nw": self.word_order,
            "space": "yes" if self.whitespace else "no",
            "beta": format_number(self.beta),
        }
        if self.reference_ties != "first":
            settings["ties"] = self.reference_ties
        return make_signature("chrf", settings)


#: The defaults, which the public functions' keyword arguments take.
DEFAULTS = ChrfOptions()

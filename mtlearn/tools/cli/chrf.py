"""``mtlearn chrf``: chrF and chrF++, options built from :class:`~mtlearn.metrics.chrf.options.ChrfOptions`.

Besides the declared options, ``--plus`` (``--chrf++``) is the command line's shorthand for
``--word-order 2``.

>>> from mtlearn.tools.cli.arguments import Parser
>>> commands = Parser(prog="mtlearn").add_subparsers(dest="command")
>>> add_command(commands)
>>> args = commands.choices["chrf"].parse_args(["-r", "ref.txt", "--plus", "-cc", "4"])
>>> METRIC.options(args, False)  # doctest: +ELLIPSIS
{'char_order': 4, 'word_order': 2, 'beta': 2.0, 'lowercase': False, 'whitespace': False, ...}
"""

from __future__ import annotations

from typing import Any

from mtlearn.metrics.chrf.options import ChrfOptions
from mtlearn.metrics.chrf.score import chrf, corpus_chrf
from mtlearn.tools.cli.arguments import (
    CASE_OPTIONS,
    add_case_options,
    add_io_arguments,
    add_option,
    add_output_arguments,
    options_reader,
)
from mtlearn.tools.cli.run import Metric

__all__ = ["METRIC", "add_command"]

#: How ``mtlearn chrf`` (and ``mtlearn score -m chrf``) scores.
METRIC = Metric("chrf", chrf, corpus_chrf, options_reader(ChrfOptions))


def add_command(commands: Any) -> None:
    """Add ``mtlearn chrf`` to the subcommands ``commands``."""
    parser = commands.add_parser(
        "chrf", help="chrF and chrF++ (sacreBLEU's defaults)",
        description="Corpus chrF of the hypotheses against the references (or one segment's chrF): the "
                    "F-score of character n-grams (and, for chrF++, word n-grams), averaged over the orders. "
                    "The defaults are those of the Python function mtlearn.chrf, which are sacreBLEU's "
                    "(chrF2: character orders 1-6, no word orders, beta 2, case-sensitive, spaces removed). "
                    "Scores are on sacreBLEU's 0-100 scale (--scale 1: mtlearn's 0-1). The options also have "
                    "sacreBLEU's names (--chrf-char-order, -cc, --chrf-word-order, -cw, --chrf-beta, ...).",
        epilog="Example: mtlearn chrf -r newstest.ref.en -i system.en --plus   (chrF++). "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    add_io_arguments(parser)
    settings = parser.add_argument_group("chrF settings")
    for spec in ChrfOptions.specs():
        if spec.name == "word_order":  # --word-order N or --plus, not both
            words = settings.add_mutually_exclusive_group()
            add_option(words, spec)
            words.add_argument("--plus", "--chrf++", dest="word_order", action="store_const", const=2,
                               help="chrF++: add word orders 1 and 2 (the same as --word-order 2)")
        elif spec.name not in CASE_OPTIONS:
            add_option(settings, spec)
    add_case_options(parser, ChrfOptions.spec("lowercase"))
    add_output_arguments(parser)
    parser.set_defaults(metric=METRIC)

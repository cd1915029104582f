"""``mtlearn meteor``: METEOR, its options built from :class:`~mtlearn.metrics.meteor.options.MeteorOptions`.

>>> from mtlearn.tools.cli.arguments import Parser
>>> commands = Parser(prog="mtlearn").add_subparsers(dest="command")
>>> add_command(commands)
>>> args = commands.choices["meteor"].parse_args(["-r", "r", "--stages", "exact,stem", "--gamma", "1/4"])
>>> METRIC.options(args, False)  # doctest: +ELLIPSIS
{'stages': ('exact', 'stem'), 'alpha': 0.9, 'beta': 3.0, 'gamma': 0.25, 'tie_break': 'crossings', ...}
"""

from __future__ import annotations

from typing import Any

from mtlearn.metrics.meteor.options import MeteorOptions
from mtlearn.metrics.meteor.score import corpus_meteor, meteor
from mtlearn.tools.cli.arguments import add_io_arguments, add_options, add_output_arguments, options_reader
from mtlearn.tools.cli.run import Metric

__all__ = ["METRIC", "add_command"]

#: How ``mtlearn meteor`` (and ``mtlearn score -m meteor``) scores.
METRIC = Metric("meteor", meteor, corpus_meteor, options_reader(MeteorOptions))


def add_command(commands: Any) -> None:
    """Add ``mtlearn meteor`` to the subcommands ``commands``."""
    parser = commands.add_parser(
        "meteor", help="METEOR (exact, stem and synonym stages)",
        description="Corpus METEOR of the hypotheses against the references (or one segment's METEOR), on "
                    "the 0-100 scale of every mtlearn command (--scale 1: 0-1, as METEOR 1.5 prints it). The "
                    "defaults are those of the Python function mtlearn.meteor. The corpus score sums "
                    "matches, lengths and chunks over the segments (each with its best reference) and "
                    "applies the formulas once. The synonym stage needs WordNet: run 'mtlearn wordnet' once, "
                    "or leave 'synonym' out of --stages. --language es stems Spanish (NLTK's Snowball "
                    "stemmer, no download) and runs exact,stem (no Spanish WordNet offline).",
        epilog="Example: mtlearn meteor -r ref.en -i system.en --stages exact,stem --segment 3 --explain; "
               "mtlearn meteor -r ref.es -i system.es --language es. "
               "Exit status: 0 ok, 1 bad input data or WordNet missing, 2 wrong command line.",
    )
    add_io_arguments(parser)
    add_options(parser, MeteorOptions, "METEOR settings")
    add_output_arguments(parser)
    parser.set_defaults(metric=METRIC)

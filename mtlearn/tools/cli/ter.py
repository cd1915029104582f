"""``mtlearn ter``, ``wer`` and ``cer``: options built from :class:`~mtlearn.metrics.ter.options.TerOptions`
(sacreBLEU's spellings too) and :class:`~mtlearn.metrics.ter.options.WerOptions` (jiwer's default case).

>>> from mtlearn.tools.cli.arguments import Parser
>>> commands = Parser(prog="mtlearn").add_subparsers(dest="command")
>>> add_commands(commands)
>>> args = commands.choices["ter"].parse_args(["-r", "ref.txt", "--ter-normalized", "--ter-case-sensitive"])
>>> METRICS["ter"].options(args, False)
{'normalized': True, 'no_punct': False, 'asian_support': False, 'case_sensitive': True}
"""

from __future__ import annotations

from typing import Any

from mtlearn.core.options import Options
from mtlearn.metrics.ter.options import TerOptions, WerOptions
from mtlearn.metrics.ter.score import cer, corpus_cer, corpus_ter, corpus_wer, ter, wer
from mtlearn.tools.cli.arguments import add_io_arguments, add_options, add_output_arguments, options_reader
from mtlearn.tools.cli.run import Metric

__all__ = ["METRICS", "add_commands"]

#: Each command's options.
OPTIONS: dict[str, type[Options]] = {"ter": TerOptions, "wer": WerOptions, "cer": WerOptions}
#: How ``mtlearn ter``, ``wer`` and ``cer`` (and ``mtlearn score -m ...``) score.
METRICS = {"ter": Metric("ter", ter, corpus_ter, options_reader(TerOptions)),
           "wer": Metric("wer", wer, corpus_wer, options_reader(WerOptions)),
           "cer": Metric("cer", cer, corpus_cer, options_reader(WerOptions))}


def add_commands(commands: Any) -> None:
    """Add ``mtlearn ter``, ``mtlearn wer`` and ``mtlearn cer`` to the subcommands ``commands``."""
    parser = commands.add_parser(
        "ter", help="TER, translation edit rate (sacreBLEU's defaults)",
        description="Corpus TER of the hypotheses against the references (or one segment's TER): the fewest "
                    "edits (insertions, deletions, substitutions and block shifts, found by tercom's greedy "
                    "search) divided by the average reference length. The defaults are those of the Python "
                    "function mtlearn.ter, which are sacreBLEU's (case-insensitive, no normalisation). "
                    "Scores are on sacreBLEU's 0-100 scale (--scale 1: mtlearn's 0-1) and can exceed 100. "
                    "The options also have sacreBLEU's names (--ter-case-sensitive, --ter-normalized, ...).",
        epilog="Example: mtlearn ter -r ref.en -i system.en --segment 7 --explain   (the edit script of line "
               "7). Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_arguments(parser, "ter")
    for name in ("wer", "cer"):
        _add_error_rate_command(commands, name)


def _add_error_rate_command(commands: Any, name: str) -> None:
    unit = "word" if name == "wer" else "character"
    parser = commands.add_parser(
        name, help=f"{name.upper()}, {unit} error rate (Levenshtein distance, no shifts)",
        description=f"Corpus {name.upper()} of the hypotheses against the references (or one segment's): the "
                    f"fewest {unit} insertions, deletions and substitutions divided by the reference length, "
                    "that is TER without shifts. The defaults are those of the Python function "
                    f"mtlearn.{name}. Scores on the 0-100 scale (--scale 1: 0-1); they can exceed 100.",
        epilog=f"Example: mtlearn {name} -r ref.txt -i hyp.txt --sentence-level. "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_arguments(parser, name)


def _add_arguments(parser: Any, name: str) -> None:
    """The input, the command's options (switches, then the case), the output."""
    add_io_arguments(parser)
    add_options(parser, OPTIONS[name], f"{name.upper()} settings")
    add_output_arguments(parser)
    parser.set_defaults(metric=METRICS[name])

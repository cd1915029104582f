"""``mtlearn score``: sacreBLEU's main mode, several metrics (``-m``) and systems (``-i``) in one table.

The options of chrF, TER and METEOR here are those of their ``Options`` that have a second,
prefixed spelling (sacreBLEU's ``--chrf-word-order``/``-cw``, ``--ter-case-sensitive``; mtlearn's
``--meteor-stages``), built from the declarations; BLEU's are written here, as in ``mtlearn bleu``.
Each metric runs with the defaults of its own command, changed by the options that name it.

>>> options = score_options()
>>> options["chrf_word_order"].flags, options["ter_case_sensitive"].flags, options["meteor_stages"].flags
(('--chrf-word-order', '-cw'), ('--ter-case-sensitive',), ('--meteor-stages',))
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Optional

from mtlearn.core.options import Options, OptionSpec
from mtlearn.core.tokenize import TOKENIZERS
from mtlearn.metrics.bleu.smoothing import SMOOTHING_METHODS
from mtlearn.metrics.chrf.options import ChrfOptions
from mtlearn.metrics.meteor.options import MeteorOptions
from mtlearn.metrics.ter.options import TerOptions
from mtlearn.tools.cli import bleu, chrf, meteor, ter
from mtlearn.tools.cli.arguments import Parser, add_io_arguments, add_option, add_output_arguments
from mtlearn.tools.cli.io import EXIT_USAGE, CommandLineError
from mtlearn.tools.cli.run import Job, Metric
from mtlearn.tools.cli.values import language_pair, number

__all__ = ["METRIC_NAMES", "METRICS", "ScoreOption", "score_options", "add_command", "jobs"]

#: The metrics a command can run, as ``mtlearn score -m`` names them.
METRIC_NAMES: tuple[str, ...] = ("bleu", "chrf", "ter", "meteor", "wer", "cer")
#: How each of them scores (its command's :class:`~mtlearn.tools.cli.run.Metric`).
METRICS: dict[str, Metric] = {"bleu": bleu.METRIC, "chrf": chrf.METRIC, "meteor": meteor.METRIC,
                               **ter.METRICS}

#: ``mtlearn score``'s BLEU options (dest: flags); BLEU's options are not declared in an ``Options`` yet.
_BLEU_FLAGS = {"tokenize": ("--tokenize", "-tok"), "smoothing": ("--smooth-method", "--smoothing", "-s"),
               "smooth_value": ("--smooth-value", "-sv"), "lowercase": ("--lowercase", "-lc"),
               "language_pair": ("--language-pair", "-l")}
#: The metrics whose declared options ``mtlearn score`` takes, in help order, with their group's title.
_DECLARED: tuple[tuple[str, type[Options], str], ...] = (
    ("chrf", ChrfOptions, "chrF (default: chrF2)"),
    ("ter", TerOptions, "TER (default: tercom's, case-insensitive)"),
    ("meteor", MeteorOptions, "METEOR (default: stages exact,stem,synonym)"),
)
#: What ``mtlearn score --help`` says of some of them (the rest: only the flag, as sacreBLEU's help has it).
_HELP = {"chrf_word_order": "2 is chrF++", "meteor_stages": "e.g. exact,stem where WordNet is missing"}


@dataclass(frozen=True)
class ScoreOption:
    """One option of ``mtlearn score``: the metric it is for, that metric's option, its flags."""

    metric: str
    target: str
    flags: tuple[str, ...]
    spec: Optional[OptionSpec] = None  # None: BLEU's, written here


def score_options() -> dict[str, ScoreOption]:
    """Every metric option of ``mtlearn score`` by its dest: BLEU's, then each declared option's spellings
    after mtlearn's own that BLEU's do not take."""
    found = {dest: ScoreOption("bleu", dest, flags) for dest, flags in _BLEU_FLAGS.items()}
    taken = {flag for flags in _BLEU_FLAGS.values() for flag in flags}
    for metric, options, _ in _DECLARED:
        for spec in options.specs():
            flags = tuple(flag for flag in spec.flags[1:] if flag not in taken)
            if flags:
                found[f"{metric}_{spec.name}"] = ScoreOption(metric, spec.name, flags, spec)
    return found


def add_command(commands: Any) -> None:
    """Add ``mtlearn score`` to the subcommands ``commands``."""
    p_score = commands.add_parser(
        "score", help="several metrics (-m) and systems (-i) in one table, with sacreBLEU's option names",
        description="sacreBLEU's main mode: every system (-i A B ...) scored with every metric (-m bleu chrf "
                    "ter ...) into one table, a row per system, on sacreBLEU's 0-100 scale (--scale 1: "
                    "mtlearn's 0-1). Each metric runs with the defaults of its own command ('mtlearn bleu', "
                    "'mtlearn chrf' ...); the options below have sacreBLEU's names and apply to the metric "
                    "they name. With one system and one metric the output is that command's (a score line, "
                    "JSON, --explain, --sentence-level).",
        epilog="Example: mtlearn score -r ref.en -i sys1.en sys2.en -m bleu chrf ter -f latex. "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    add_io_arguments(p_score)
    p_score.add_argument("-m", "--metrics", nargs="+", choices=METRIC_NAMES, default=None, metavar="METRIC",
                         help=f"the metrics, columns of the table: {', '.join(METRIC_NAMES)} (default: bleu)")
    _add_bleu_options(p_score)
    groups = {metric: p_score.add_argument_group(title) for metric, _, title in _DECLARED}
    for dest, option in score_options().items():
        if option.spec is not None:
            add_option(groups[option.metric], option.spec, flags=option.flags, dest=dest, default=None,
                       help=_HELP.get(dest))
    add_output_arguments(p_score)


def _add_bleu_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("BLEU (default: --tokenize 13a --smooth-method exp, as sacreBLEU)")
    group.add_argument(*_BLEU_FLAGS["tokenize"], choices=TOKENIZERS, default=None, help="BLEU's tokenizer")
    group.add_argument(*_BLEU_FLAGS["smoothing"], dest="smoothing", choices=SMOOTHING_METHODS, default=None,
                       metavar="METHOD", help="BLEU's smoothing")
    group.add_argument(*_BLEU_FLAGS["smooth_value"], type=number, default=None, metavar="X",
                       help="the value of BLEU's smoothing")
    group.add_argument(*_BLEU_FLAGS["lowercase"], action="store_true", default=None, help="BLEU: lowercase "
                                                                                          "first")
    group.add_argument(*_BLEU_FLAGS["language_pair"], type=language_pair, default=None, metavar="SRC-TGT",
                       help="BLEU's tokenizer for the target: zh, ja-mecab, ko-mecab or 13a (as sacreBLEU)")


def _own_args(name: str) -> argparse.Namespace:
    """Metric ``name``'s own command's namespace with its defaults (as ``mtlearn NAME -r -`` parses)."""
    commands = Parser(prog="mtlearn").add_subparsers(dest="command", parser_class=Parser)
    {"bleu": bleu.add_command, "chrf": chrf.add_command, "meteor": meteor.add_command}.get(
        name, ter.add_commands)(commands)
    return commands.choices[name].parse_args(["-r", "-"], argparse.Namespace(command=name))


def _metric_args(args: argparse.Namespace, name: str) -> argparse.Namespace:
    """Metric ``name``'s own command's namespace (its defaults), with ``mtlearn score``'s options for it."""
    own = _own_args(name)
    for dest, option in score_options().items():
        value = getattr(args, dest)
        if value is not None and option.metric == name:
            if option.target == "case_sensitive":  # its command reads the case pair into args.lowercase
                own.lowercase = not value
            else:
                setattr(own, option.target, value)
    return own


def jobs(args: argparse.Namespace) -> list[Job]:
    """The metrics a scoring command runs: its own, or (``mtlearn score``) one per ``-m``, in their order."""
    if args.command != "score":
        return [Job(args.metric, args)]
    names = list(dict.fromkeys(args.metrics or ["bleu"]))
    for dest, option in score_options().items():
        if getattr(args, dest) is not None and option.metric not in names:
            raise CommandLineError(f"{option.flags[0]} is an option of {option.metric}, which is not among "
                                   f"the metrics (-m {' '.join(names)})", EXIT_USAGE)
    return [Job(METRICS[name], _metric_args(args, name)) for name in names]

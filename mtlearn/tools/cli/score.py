"""``mtlearn score``: sacreBLEU's main mode, several metrics (``-m``) and systems (``-i``) in one table.

The options here are built from the metrics' ``Options``: BLEU's that sacreBLEU's command line
has too (those with a second spelling: ``-tok``, ``--smooth-method``/``-s``, ``-sv``, ``-lc``), under
every spelling, and those of chrF, TER and METEOR that have a second, prefixed spelling (sacreBLEU's
``--chrf-word-order``/``-cw``, ``--ter-case-sensitive``; mtlearn's ``--meteor-stages``), under it.
``-l`` is the command's own (it picks BLEU's tokenizer, as in ``mtlearn bleu``). Each metric runs
with the defaults of its own command, changed by the options that name it.

>>> options = score_options()
>>> options["chrf_word_order"].flags, options["ter_case_sensitive"].flags, options["meteor_stages"].flags
(('--chrf-word-order', '-cw'), ('--ter-case-sensitive',), ('--meteor-stages',))
>>> options["smoothing"].flags, options["language_pair"].spec
(('--smooth-method', '--smoothing', '-s'), None)
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Optional

from mtlearn.core.options import Options, OptionSpec
from mtlearn.metrics.bleu.options import BleuOptions
from mtlearn.metrics.chrf.options import ChrfOptions
from mtlearn.metrics.meteor.options import MeteorOptions
from mtlearn.metrics.ter.options import TerOptions
from mtlearn.tools.cli import bleu, chrf, meteor, ter
from mtlearn.tools.cli.arguments import Parser, add_io_arguments, add_option, add_output_arguments
from mtlearn.tools.cli.io import EXIT_USAGE, CommandLineError
from mtlearn.tools.cli.run import Job, Metric
from mtlearn.tools.cli.values import language_pair

__all__ = ["METRIC_NAMES", "METRICS", "ScoreOption", "score_options", "add_command", "jobs"]

#: The metrics a command can run, as ``mtlearn score -m`` names them.
METRIC_NAMES: tuple[str, ...] = ("bleu", "chrf", "ter", "meteor", "wer", "cer")
#: How each of them scores (its command's :class:`~mtlearn.tools.cli.run.Metric`).
METRICS: dict[str, Metric] = {"bleu": bleu.METRIC, "chrf": chrf.METRIC, "meteor": meteor.METRIC,
                               **ter.METRICS}

#: BLEU's options whose sacreBLEU spelling ``mtlearn score --help`` shows first (as sacreBLEU's help has it).
_SACREBLEU_FIRST = {"smoothing": "--smooth-method"}
#: The command's own option: ``-l`` picks BLEU's tokenizer for the target language (as in ``mtlearn bleu``).
_LANGUAGE_PAIR = ("--language-pair", "-l")
_BLEU_TITLE = "BLEU (default: --tokenize 13a --smooth-method exp, as sacreBLEU)"
#: The metrics whose declared options ``mtlearn score`` takes, in help order, with their group's title.
_DECLARED: tuple[tuple[str, type[Options], str], ...] = (
    ("chrf", ChrfOptions, "chrF (default: chrF2)"),
    ("ter", TerOptions, "TER (default: tercom's, case-insensitive)"),
    ("meteor", MeteorOptions, "METEOR (default: stages exact,stem,synonym)"),
)
#: What ``mtlearn score --help`` says of some of them (the rest: only the flag, as sacreBLEU's help has it).
_HELP = {"tokenize": "BLEU's tokenizer", "smoothing": "BLEU's smoothing",
         "smooth_value": "the value of BLEU's smoothing", "lowercase": "BLEU: lowercase first",
         "chrf_word_order": "2 is chrF++", "meteor_stages": "e.g. exact,stem where WordNet is missing",
         "meteor_language": "es: Spanish stems, no synonym stage"}


@dataclass(frozen=True)
class ScoreOption:
    """One option of ``mtlearn score``: the metric it is for, that metric's option, its flags."""

    metric: str
    target: str
    flags: tuple[str, ...]
    spec: Optional[OptionSpec] = None  # None: the command's own (-l)


def _bleu_flags(spec: OptionSpec) -> tuple[str, ...]:
    """Every spelling of BLEU's option ``spec``, sacreBLEU's first where :data:`_SACREBLEU_FIRST` names it."""
    first = _SACREBLEU_FIRST.get(spec.name, spec.flags[0])
    return (first, *(flag for flag in spec.flags if flag != first))


def score_options() -> dict[str, ScoreOption]:
    """Every metric option of ``mtlearn score`` by its dest: BLEU's with a second spelling and ``-l``, then
    each declared option's spellings after mtlearn's own that BLEU's do not take."""
    found = {spec.name: ScoreOption("bleu", spec.name, _bleu_flags(spec), spec)
             for spec in bleu.in_help_order(BleuOptions.specs()) if len(spec.flags) > 1}
    found["language_pair"] = ScoreOption("bleu", "language_pair", _LANGUAGE_PAIR)
    taken = {flag for option in found.values() for flag in option.flags}
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
    groups = {"bleu": p_score.add_argument_group(_BLEU_TITLE),
              **{metric: p_score.add_argument_group(title) for metric, _, title in _DECLARED}}
    for dest, option in score_options().items():
        if option.spec is None:  # -l
            groups["bleu"].add_argument(*option.flags, type=language_pair, default=None, metavar="SRC-TGT",
                                        help="BLEU's tokenizer for the target: zh, ja-mecab, "
                                             "ko-mecab or 13a (as sacreBLEU)")
        else:
            read = bleu.ARGUMENTS.get(dest, {}) if option.metric == "bleu" else {}
            add_option(groups[option.metric], option.spec, flags=option.flags, dest=dest, default=None,
                       help=_HELP.get(dest), **read)
    add_output_arguments(p_score)


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

"""The arguments the scoring commands share, and a metric's options as arguments, built from its ``Options``.

A metric folder declares each option once (:mod:`mtlearn.core.options`): default, check, help,
flags, choices. :func:`add_option` turns one :class:`~mtlearn.core.options.OptionSpec` into an
argparse argument (its flags, help, default and choices; a switch for a True/False option; the
text read as a number, an order or a list of stages by the option's type), :func:`add_case_options`
turns the case option (``lowercase`` or ``case_sensitive``) into the pair ``--lowercase`` /
``--case-sensitive``, and :func:`options_reader` reads the metric's keyword arguments back from the
parsed command line. The values themselves are checked by the metric, through its ``Options``, with
the same messages as in Python (the command line names the flag: ``--beta: must be ...``).

>>> from mtlearn.metrics.chrf.options import ChrfOptions
>>> parser = Parser(prog="demo")
>>> add_options(parser, ChrfOptions, "chrF settings")
>>> args = parser.parse_args(["-cc", "4", "--chrf-lowercase"])
>>> options_reader(ChrfOptions)(args, False)["char_order"], args.lowercase
(4, True)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from mtlearn.core.options import Options, OptionSpec
from mtlearn.tools.cli.format import DEFAULT_SCALE, FORMATS
from mtlearn.tools.cli.io import EXIT_USAGE
from mtlearn.tools.cli.values import (
    SEED_FROM_ENVIRONMENT,
    number,
    order,
    positive,
    scale,
    seed,
    segment_number,
    stage_list,
    whole,
    width,
)

__all__ = ["Parser", "add_io_arguments", "add_output_arguments", "add_option", "add_options",
           "add_case_options", "options_reader", "CASE_OPTIONS", "LOWERCASE_HELP", "KEEP_CASE_HELP"]

#: The options that become the pair --lowercase / --case-sensitive (into ``args.lowercase``).
CASE_OPTIONS = ("lowercase", "case_sensitive")
#: The help of the side of that pair an ``Options`` does not declare.
LOWERCASE_HELP = "lowercase hypotheses and references first"
KEEP_CASE_HELP = "keep the case"

Reader = Callable[[argparse.Namespace, bool], dict[str, object]]


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one ``mtlearn: error:`` line (exit 2), like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"mtlearn: error: {message} (see '{self.prog} --help')\n")


def _reader(spec: OptionSpec) -> tuple[Callable[[str], Any], str]:
    """How an option's text is read, by the type of its default, and its metavar."""
    if isinstance(spec.default, tuple):
        return stage_list, "S1,S2,..."
    if isinstance(spec.default, int):  # an order (chrF's) is 0 or more; any other: the check's range
        return (order if spec.name.endswith("_order") else whole()), "N"
    return number, "X"


def add_option(container: Any, spec: OptionSpec, **overrides: Any) -> argparse.Action:
    """``spec`` as an argument of ``container`` (a parser or a group): its flags, help and default, then
    ``overrides``.

    A True/False option is a switch (its help says ``(default)`` when it is on by default), one with
    choices takes one of them, any other is read by :func:`_reader`.
    """
    kwargs: dict[str, Any] = dict(dest=spec.name, default=spec.default,
                                  help=_said_default(spec.help, spec.default))
    if isinstance(spec.default, bool):
        kwargs["action"] = "store_true"
    elif spec.choices:
        kwargs["choices"] = spec.choices
    else:
        kwargs["type"], kwargs["metavar"] = _reader(spec)
    kwargs.update(overrides)
    flags = kwargs.pop("flags", spec.flags)
    return container.add_argument(*flags, **kwargs)


def _said_default(help: str, on: object) -> str:
    """``help``, ending in `` (default)`` when ``on`` is True (a switch on by default) unless it says so."""
    return help + " (default)" if on is True and "(default)" not in help else help


def add_case_options(parser: argparse.ArgumentParser, spec: OptionSpec) -> None:
    """``--lowercase`` / ``--case-sensitive`` into ``args.lowercase``, from the ``lowercase`` or
    ``case_sensitive`` option ``spec`` (its flags are that side's, with sacreBLEU's spelling; the other
    side is mtlearn's)."""
    lowercase_by_default = spec.default if spec.name == "lowercase" else not spec.default
    if spec.name == "lowercase":
        lowercase, lowercase_help = spec.flags, _said_default(spec.help, spec.default)
        keep, keep_help = ("--case-sensitive",), _said_default(KEEP_CASE_HELP, not spec.default)
    else:
        lowercase = ("--lowercase", "-lc")
        lowercase_help = _said_default(LOWERCASE_HELP, not spec.default)
        keep, keep_help = spec.flags, _said_default(spec.help, spec.default)
    group = parser.add_argument_group("case").add_mutually_exclusive_group()
    group.add_argument(*lowercase, dest="lowercase", action="store_true", help=lowercase_help)
    group.add_argument(*keep, dest="lowercase", action="store_false", help=keep_help)
    parser.set_defaults(lowercase=lowercase_by_default)


def add_options(parser: argparse.ArgumentParser, options: type[Options], title: str) -> None:
    """Every option of ``options``: a group ``title`` in declaration order, then the case pair (if any)."""
    settings = parser.add_argument_group(title)
    for spec in options.specs():
        if spec.name not in CASE_OPTIONS:
            add_option(settings, spec)
    for spec in options.specs():
        if spec.name in CASE_OPTIONS:
            add_case_options(parser, spec)


def options_reader(options: type[Options]) -> Reader:
    """The keyword arguments of ``options``'s metric from a parsed command line (``case_sensitive`` is the
    negation of ``args.lowercase``)."""
    names = [spec.name for spec in options.specs()]

    def read(args: argparse.Namespace, one_segment: bool) -> dict[str, object]:
        return {name: not args.lowercase if name == "case_sensitive" else getattr(args, name)
                for name in names}

    return read


def add_io_arguments(parser: argparse.ArgumentParser) -> None:
    """``-r`` (several files: several references per segment) and ``-i`` (several files: several systems)."""
    group = parser.add_argument_group("input (UTF-8 text, one segment a line, all files line-aligned)")
    group.add_argument("-r", "--references", "--refs", nargs="+", action="extend", required=True,
                       metavar="REF",
                       help="reference file(s); several files give several references per segment "
                            "(-r A B and -r A -r B are the same)")
    group.add_argument("-i", "--input", nargs="+", action="extend", metavar="HYP", default=None,
                       help="hypothesis file (default: standard input; '-' also means standard input); "
                            "several files are several systems, scored into one table")


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """What to score (a segment, every segment), how to print it, and sacreBLEU's confidence interval."""
    which = parser.add_argument_group("what to score").add_mutually_exclusive_group()
    which.add_argument("--segment", type=segment_number, metavar="N", default=None,
                       help="score only segment N (1-based line number)")
    which.add_argument("--sentence-level", "-sl", action="store_true",
                       help="score every segment on its own: the signature once, then each line's number and "
                            "score; the files are read in step (memory stays flat), and a file that ends "
                            "before the others is an error at the end, naming the line")
    out = parser.add_argument_group("output (scores on the 0-100 scale unless --scale 1)")
    out.add_argument("--scale", type=scale, default=DEFAULT_SCALE, metavar="100|1",
                     help="print scores on sacreBLEU's 0-100 scale (100, the default: BLEU = 25.03) or on "
                          "mtlearn's 0-1 scale (1: BLEU = 0.2503); text, tables, JSON and "
                          "--sentence-level alike")
    out.add_argument("-f", "--format", choices=FORMATS, default="text",
                     help="text (default): the score line, or a table for several systems or metrics; json: "
                          "the result's to_dict() with 'score' on the scale and a 'scale' field (one JSON "
                          "object a line with --sentence-level); latex: a booktabs table; tsv: "
                          "tab-separated, signatures as '#' lines first")
    out.add_argument("-w", "--width", type=width, default=None, metavar="N",
                     help="decimals of the score (default: 2 on the 0-100 scale, 4 on the 0-1 scale)")
    how = out.add_mutually_exclusive_group()
    how.add_argument("--json", dest="format", action="store_const", const="json", help="the same as -f json")
    how.add_argument("--explain", action="store_true",
                     help="print the step-by-step derivation with the numbers substituted (mtlearn's exact "
                          "0-1 terms; on the 0-100 scale it ends with the scaled score)")
    how.add_argument("-b", "--score-only", action="store_true",
                     help="print only the score (with --sentence-level: one score a line)")
    stats = parser.add_argument_group("confidence interval (sacreBLEU's, for one system's corpus score)")
    stats.add_argument("--confidence", "-ci", action="store_true",
                       help="add the bootstrap estimate of the mean and the half-width of its 95%% interval, "
                            "as sacreBLEU: BLEU = 25.03 (μ = 24.91 ± 6.27)")
    stats.add_argument("--confidence-n", "-cin", type=positive, default=1000, metavar="N",
                       help="number of bootstrap samples (default: %(default)s)")
    stats.add_argument("--seed", type=seed, default=SEED_FROM_ENVIRONMENT, metavar="N",
                       help="the bootstrap's seed, 'none' for fresh randomness (default: $SACREBLEU_SEED "
                            "when set, else 12345, sacreBLEU's)")

"""``mtlearn compare``: sacreBLEU's paired significance tests between a baseline and other systems.

The metric's options are built from BLEU's, chrF's and METEOR's ``Options`` (each once, unset by
default); those not given take the defaults of ``mtlearn bleu``, ``chrf`` or ``meteor``; an option of
another metric than ``--metric`` is refused by name.

>>> _scaled_compare({"systems": [{"score": 0.25, "mean": None, "ci": None}]}, 100)
{'scale': 100, 'systems': [{'score': 25.0, 'mean': None, 'ci': None}]}
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import warnings
from typing import Any

from mtlearn.core.options import Options
from mtlearn.core.references import AmbiguousLayoutWarning
from mtlearn.core.wording import plural
from mtlearn.metrics.bleu.options import BleuOptions
from mtlearn.metrics.chrf.options import ChrfOptions
from mtlearn.metrics.meteor.options import MeteorOptions
from mtlearn.tools.cli import bleu
from mtlearn.tools.cli.arguments import CASE_OPTIONS, add_option
from mtlearn.tools.cli.format import DEFAULT_SCALE
from mtlearn.tools.cli.io import EXIT_USAGE, CommandLineError, read_segments
from mtlearn.tools.cli.values import SEED_FROM_ENVIRONMENT, positive, resolved_seed, scale, seed

__all__ = ["add_command", "run"]


#: BLEU's options that ``mtlearn compare`` takes besides the case (a pair of its own, below), in help order.
_BLEU_OPTIONS = ("tokenize", "smoothing", "smooth_value", "max_order")
#: How ``mtlearn compare`` reads an option where ``mtlearn bleu`` reads it otherwise (a count: 1 or more).
_READ = {"max_order": {"type": positive}}
#: The metrics whose declared options ``mtlearn compare`` takes (every spelling), in help order.
_DECLARED: tuple[type[Options], ...] = (ChrfOptions, MeteorOptions)
#: The options of ``mtlearn compare`` that each metric takes (the rest are refused by name).
_COMPARE_OPTIONS = {
    "bleu": (*_BLEU_OPTIONS, "lowercase"),
    "chrf": tuple(spec.name for spec in ChrfOptions.specs()),
    "meteor": tuple(spec.name for spec in MeteorOptions.specs()),
    "ter": (),
}
#: What ``mtlearn compare --help`` says of each declared option (an option two metrics share: said once).
_HELP = {
    "tokenize": "BLEU, METEOR: tokenizer",
    "smoothing": "BLEU: smoothing (default: exp)",
    "smooth_value": "BLEU: its value",
    "max_order": "BLEU: longest n-gram",
    "char_order": "chrF: longest character n-gram",
    "word_order": "chrF: longest word n-gram (2: chrF++)",
    "beta": "chrF's beta, or METEOR's (the exponent of its penalty)",
    "whitespace": "chrF: keep spaces",
    "eps_smoothing": "chrF: chrF++.py's epsilon smoothing",
    "reference_ties": "chrF: reference ties",
    "stages": "METEOR: stages",
    "alpha": "METEOR: alpha",
    "gamma": "METEOR: gamma",
    "tie_break": "METEOR: tie break",
    "language": "METEOR: language of the texts (es: Spanish stems, no synonym stage)",
}
#: What ``mtlearn compare`` uses where an option is not given: the defaults of ``mtlearn bleu``, ``chrf``,
#: ``meteor``.
_COMPARE_DEFAULTS = {
    "bleu": dict(bleu.SACREBLEU_DEFAULTS),
    "chrf": {},
    "meteor": {},
    "ter": {},
}


def add_command(commands: Any) -> None:
    """Add ``mtlearn compare`` to the subcommands ``commands``."""
    p_compare = commands.add_parser(
        "compare", help="paired significance tests between a baseline and other systems (sacreBLEU's)",
        description="Is each system's score different from the baseline's by more than chance? sacreBLEU's "
                    "paired bootstrap resampling (--paired-bs, 1000 samples) or paired approximate "
                    "randomization (--paired-ar, 10000 trials), on mtlearn's BLEU, chrF, METEOR or TER, with "
                    "sacreBLEU's seed (12345): the p-values are sacreBLEU's. The first -i file is the "
                    "baseline. Each row gives the score (on the 0-100 scale of every mtlearn command; "
                    "--scale 1: 0-1), for the bootstrap the mean and the half-width of the 95% interval over "
                    "the samples, and the p-value, marked * when p <= 0.05. Options not given take the "
                    "defaults of 'mtlearn bleu', 'mtlearn chrf' or 'mtlearn meteor'.",
        epilog="Example: mtlearn compare -r ref.en -i baseline.en system2.en system3.en --metric chrf "
               "--paired-bs. Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    group = p_compare.add_argument_group("input (UTF-8 text, one segment a line, all files line-aligned)")
    group.add_argument("-r", "--references", "--refs", nargs="+", action="extend", required=True,
                       metavar="REF",
                       help="reference file(s); several files give several references per segment")
    group.add_argument("-i", "--input", nargs="+", action="extend", required=True, metavar="SYS",
                       help="the baseline's hypothesis file, then those of the systems to compare with it")
    test = p_compare.add_argument_group("the test").add_mutually_exclusive_group(required=True)
    test.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap resampling")
    test.add_argument("--paired-ar", "-par", action="store_true", help="paired approximate randomization")
    settings = p_compare.add_argument_group("test settings")
    settings.add_argument("--metric", "-m", choices=("bleu", "chrf", "meteor", "ter"), default="bleu",
                          help="the metric compared (default: %(default)s)")
    settings.add_argument("--paired-bs-n", "-pbsn", type=positive, default=1000, metavar="N",
                          help="number of bootstrap samples (default: %(default)s)")
    settings.add_argument("--paired-ar-n", "-parn", type=positive, default=10000, metavar="N",
                          help="number of randomization trials (default: %(default)s)")
    settings.add_argument("--seed", type=seed, default=SEED_FROM_ENVIRONMENT, metavar="N",
                          help="the random generator's seed, 'none' for fresh randomness (default: "
                               "$SACREBLEU_SEED when set, else 12345, sacreBLEU's)")
    metric = p_compare.add_argument_group("metric settings (default: those of mtlearn bleu / chrf / meteor)")
    for name in _BLEU_OPTIONS:
        read = {**bleu.ARGUMENTS.get(name, {}), **_READ.get(name, {})}
        add_option(metric, BleuOptions.spec(name), default=None, help=_HELP[name], **read)
    _add_declared_options(metric)
    case = metric.add_mutually_exclusive_group()
    case.add_argument("--lowercase", "-lc", dest="lowercase", action="store_true", default=None,
                      help="lowercase first")
    case.add_argument("--case-sensitive", dest="lowercase", action="store_false", help="keep the case")
    out = p_compare.add_argument_group("output")
    out.add_argument("--scale", type=scale, default=DEFAULT_SCALE, metavar="100|1",
                     help="scores on sacreBLEU's 0-100 scale (100, the default) or mtlearn's 0-1 (1)")
    out.add_argument("--json", action="store_true",
                     help="print the result's to_dict() as JSON (scores, means and half-widths on the scale, "
                          "and a 'scale' field)")
    out.add_argument("--quiet", "-q", action="store_true",
                     help="no progress messages on standard error (they appear only when it is a terminal)")


def _add_declared_options(group: Any) -> None:
    """chrF's and METEOR's declared options (not the case, a pair of its own), each once: unset by default."""
    seen = {"tokenize"}  # BLEU's and METEOR's, added above
    for options in _DECLARED:
        for spec in options.specs():
            if spec.name not in seen and spec.name not in CASE_OPTIONS:
                add_option(group, spec, default=None, help=_HELP[spec.name])
                seen.add(spec.name)


def _compare_options(args: argparse.Namespace) -> dict[str, object]:
    """The metric's options from the command line; an option of another metric is a usage error."""
    allowed = _COMPARE_OPTIONS[args.metric]
    everything = {name for names in _COMPARE_OPTIONS.values() for name in names}
    options: dict[str, object] = dict(_COMPARE_DEFAULTS[args.metric])
    for name in sorted(everything):
        value = getattr(args, name)
        if value is None:
            continue
        if name not in allowed:
            raise CommandLineError(f"--{name.replace('_', '-')} does not apply to --metric {args.metric}",
                                   EXIT_USAGE)
        options[name] = value
    return options


def _compare_inputs(args: argparse.Namespace) -> tuple[dict[str, list[str]], list[list[str]]]:
    """The systems (file name -> lines, the baseline first) and the references per segment, checked."""
    if len(args.input) < 2:
        raise CommandLineError("compare: only one system given to -i; give the baseline and at least one "
                               "system to compare with it (-i BASELINE SYS2 [SYS3 ...])", EXIT_USAGE)
    if "-" in args.input or "-" in args.references:
        raise CommandLineError("compare: name every file; standard input ('-') is not read here", EXIT_USAGE)
    systems: dict[str, list[str]] = {}
    for path in args.input:
        if path in systems:
            raise CommandLineError(f"compare: {path} is given twice to -i", EXIT_USAGE)
        systems[path] = read_segments(path)[1]
    references = [read_segments(path) for path in args.references]
    first, lines = next(iter(systems.items()))
    if not lines:
        raise CommandLineError(f"{first} is empty: no hypotheses to compare")
    for name, other in [*systems.items(), *references]:
        if len(other) != len(lines):
            raise CommandLineError(f"{name} has {plural(len(other), 'line')} but {first} "
                                   f"has {len(lines)}; "
                                   "the files must be line-aligned (one segment a line)")
    return systems, [list(refs) for refs in zip(*(lines for _, lines in references))]


def run(args: argparse.Namespace) -> list[str]:
    """``mtlearn compare``: read the files, run :func:`mtlearn.paired_test`, render the table (or JSON)."""
    from mtlearn.study.significance import paired_test

    options = _compare_options(args)
    systems, references = _compare_inputs(args)
    test = "bs" if args.paired_bs else "ar"
    show = not args.quiet and sys.stderr is not None and sys.stderr.isatty()

    def progress(message: str) -> None:
        print(f"mtlearn: compare: {message}", file=sys.stderr, flush=True)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        warnings.simplefilter("ignore", AmbiguousLayoutWarning)  # a file per reference stream: layout known
        result = paired_test(systems, references, metric=args.metric, test=test,
                             n_samples=args.paired_bs_n if test == "bs" else args.paired_ar_n,
                             seed=resolved_seed(args.seed),
                             progress=progress if show else None, **options)
    for warning in caught:
        print(f"mtlearn: warning: {warning.message}", file=sys.stderr)
    result = dataclasses.replace(result, scale=args.scale)
    if args.json:
        return [json.dumps(_scaled_compare(result.to_dict(), args.scale), indent=2, ensure_ascii=False)]
    return [result.explain(), f"signature: {result.signature}"]


def _scaled_compare(data: dict[str, Any], scale: int) -> dict[str, Any]:
    """A paired test's ``to_dict()`` with each system's score, mean and half-width on ``scale``.

    >>> _scaled_compare({"systems": [{"score": 0.25, "mean": None, "ci": None}]}, 100)
    {'scale': 100, 'systems': [{'score': 25.0, 'mean': None, 'ci': None}]}
    """
    systems = [{key: (scale * value if key in ("score", "mean", "ci") and value is not None else value)
                for key, value in row.items()} for row in data["systems"]]
    return {"scale": scale, **data, "systems": systems}

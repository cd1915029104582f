"""``mtlearn bleu``: BLEU, its options built from :class:`~mtlearn.metrics.bleu.options.BleuOptions`, with
sacreBLEU's command-line defaults (``--tokenize 13a --smoothing exp``).

Besides the declared options, ``-l`` picks sacreBLEU's tokenizer for a zh, ja or ko target; one
segment's BLEU uses effective order unless ``--no-effective-order`` is given, as sacreBLEU's
sentence BLEU.

>>> from mtlearn.tools.cli.arguments import Parser
>>> commands = Parser(prog="mtlearn").add_subparsers(dest="command")
>>> add_command(commands)
>>> args = commands.choices["bleu"].parse_args(["-r", "ref.txt", "-l", "en-zh", "--weights", "1/2", "1/2"])
>>> METRIC.options(args, True)  # doctest: +NORMALIZE_WHITESPACE
{'max_order': 4, 'weights': [0.5, 0.5], 'smoothing': 'exp', 'smooth_value': None, 'tokenize': 'zh',
 'lowercase': False, 'effective_order': True}
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Iterable
from typing import Any

from mtlearn.core.options import OptionSpec
from mtlearn.metrics.bleu.options import BleuOptions
from mtlearn.metrics.bleu.score import bleu, corpus_bleu
from mtlearn.tools.cli.arguments import (
    CASE_OPTIONS,
    add_case_options,
    add_io_arguments,
    add_option,
    add_output_arguments,
    options_reader,
)
from mtlearn.tools.cli.run import Metric
from mtlearn.tools.cli.values import language_pair, max_order

__all__ = ["METRIC", "LANGUAGE_TOKENIZERS", "SACREBLEU_DEFAULTS", "COMMAND_DEFAULTS", "ARGUMENTS",
           "add_command", "bleu_tokenizer", "in_help_order", "options"]

#: The tokenizer sacreBLEU gives a target language when --tokenize is not given (its BLEU._TOKENIZER_MAP).
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
#: sacreBLEU's command-line defaults where they are not the library's; ``mtlearn compare`` takes them too.
SACREBLEU_DEFAULTS = {"tokenize": "13a", "smoothing": "exp"}
#: ``mtlearn bleu``'s defaults where they are not the library's: no tokenizer (None: ``-l`` chooses, else
#: 13a) and no effective order (None: on for one segment, off for the corpus) until one is given.
COMMAND_DEFAULTS: dict[str, object] = {"tokenize": None, "smoothing": SACREBLEU_DEFAULTS["smoothing"],
                                       "effective_order": None}
#: How an option is read where its declaration alone does not say (the rest: :func:`add_option`'s way).
ARGUMENTS: dict[str, dict[str, Any]] = {
    "max_order": {"type": max_order},  # a whole number Python can index; BleuOptions bounds it (4096)
    "weights": {"nargs": "+", "metavar": "W"},
    "smoothing": {"metavar": "METHOD"},
    "effective_order": {"action": argparse.BooleanOptionalAction},  # --no-effective-order for one segment
}
#: Where each option stands in ``mtlearn bleu --help`` (``-l`` follows the tokenizer; an option not named
#: here comes last, in declaration order; the case pair is a group of its own).
_HELP_ORDER = ("tokenize", "smoothing", "smooth_value", "max_order", "weights", "effective_order")


def bleu_tokenizer(args: argparse.Namespace) -> str:
    """``--tokenize``, else the one ``-l``'s target asks for, else 13a; sacreBLEU's warning on a mismatch.

    >>> bleu_tokenizer(argparse.Namespace(tokenize=None, language_pair="en-ja"))
    'ja-mecab'
    >>> bleu_tokenizer(argparse.Namespace(tokenize=None, language_pair=None))
    '13a'
    """
    target = args.language_pair.split("-")[1] if args.language_pair else None
    if args.tokenize is None:
        return LANGUAGE_TOKENIZERS.get(target or "", SACREBLEU_DEFAULTS["tokenize"])
    if target in LANGUAGE_TOKENIZERS and args.tokenize != LANGUAGE_TOKENIZERS[target]:
        # no stacklevel: the command prints the message alone, never where it was raised
        warnings.warn(f"-l {args.language_pair}: consider --tokenize {LANGUAGE_TOKENIZERS[target]} for "  # noqa: B028
                      f"this target language (sacreBLEU's choice); scoring with {args.tokenize} as asked",
                      UserWarning)
    return args.tokenize


def in_help_order(specs: Iterable[OptionSpec]) -> list[OptionSpec]:
    """BLEU's options ``specs`` in the order the help lists them: by :data:`_HELP_ORDER`, then the others.

    >>> [spec.name for spec in in_help_order(BleuOptions.specs())][:3]
    ['tokenize', 'smoothing', 'smooth_value']
    """
    def position(spec: OptionSpec) -> int:
        return _HELP_ORDER.index(spec.name) if spec.name in _HELP_ORDER else len(_HELP_ORDER)

    return sorted(specs, key=position)


def options(args: argparse.Namespace, one_segment: bool) -> dict[str, object]:
    """BLEU's keyword arguments from ``args``: the tokenizer by :func:`bleu_tokenizer`, effective order
    by default for one segment."""
    kwargs = options_reader(BleuOptions)(args, one_segment)
    kwargs["tokenize"] = bleu_tokenizer(args)
    if kwargs["effective_order"] is None:
        kwargs["effective_order"] = one_segment
    return kwargs


#: How ``mtlearn bleu`` (and ``mtlearn score -m bleu``) scores.
METRIC = Metric("bleu", bleu, corpus_bleu, options)


def add_command(commands: Any) -> None:
    """Add ``mtlearn bleu`` to the subcommands ``commands``."""
    p_bleu = commands.add_parser(
        "bleu", help="BLEU (sacreBLEU-compatible defaults)",
        description="Corpus BLEU of the hypotheses against the references (or one segment's BLEU), on "
                    "sacreBLEU's 0-100 scale (--scale 1: mtlearn's 0-1). The defaults are sacreBLEU's "
                    "command-line defaults (--tokenize 13a --smoothing exp, case-sensitive), so the number "
                    "matches sacreBLEU's; note that they differ from the defaults of the Python function "
                    "mtlearn.bleu (whitespace tokens, no smoothing).",
        epilog="Example: mtlearn bleu -r newstest.ref.en -i system.en   (or: cat system.en | mtlearn bleu -r "
               "newstest.ref.en). Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    add_io_arguments(p_bleu)
    settings = p_bleu.add_argument_group("BLEU settings")
    for spec in in_help_order(s for s in BleuOptions.specs() if s.name not in CASE_OPTIONS):
        defaults = {"default": COMMAND_DEFAULTS[spec.name]} if spec.name in COMMAND_DEFAULTS else {}
        add_option(settings, spec, **defaults, **ARGUMENTS.get(spec.name, {}))
        if spec.name == "tokenize":
            settings.add_argument(
                "--language-pair", "-l", type=language_pair, default=None, metavar="SRC-TGT",
                help="as sacreBLEU: without --tokenize, a zh target gets 'zh', ja 'ja-mecab', ko 'ko-mecab' "
                     "(the last two need mtlearn's extras ja, ko), any other '13a'")
    add_case_options(p_bleu, BleuOptions.spec("lowercase"))
    add_output_arguments(p_bleu)
    p_bleu.set_defaults(metric=METRIC)

"""``mtlearn bleu``: BLEU with sacreBLEU's command-line defaults (``--tokenize 13a --smoothing exp``).

Its flags are written here (BLEU's options are not declared in an ``Options`` yet); ``-l`` picks
sacreBLEU's tokenizer for a zh, ja or ko target; one segment's BLEU uses effective order unless
``--no-effective-order`` is given, as sacreBLEU's sentence BLEU.

>>> args = argparse.Namespace(max_order=4, weights=None, smoothing="exp", smooth_value=None, tokenize=None,
...                           language_pair="en-zh", lowercase=False, effective_order=None)
>>> options(args, True)["tokenize"], options(args, True)["effective_order"]
('zh', True)
"""

from __future__ import annotations

import argparse
import inspect
import warnings
from typing import Any

from mtlearn.core.tokenize import TOKENIZERS
from mtlearn.metrics.bleu.score import bleu, corpus_bleu
from mtlearn.metrics.bleu.smoothing import SMOOTH_DEFAULTS, SMOOTHING_METHODS
from mtlearn.tools.cli.arguments import LOWERCASE_HELP, KEEP_CASE_HELP, add_io_arguments, add_output_arguments
from mtlearn.tools.cli.run import Metric
from mtlearn.tools.cli.values import language_pair, max_order, number

__all__ = ["METRIC", "LANGUAGE_TOKENIZERS", "add_command", "bleu_tokenizer", "options"]


def _library_default(name: str) -> object:
    """The default of keyword ``name`` of :func:`mtlearn.bleu` (the help never disagrees with the library)."""
    return inspect.signature(bleu).parameters[name].default


#: The tokenizer sacreBLEU gives a target language when --tokenize is not given (its BLEU._TOKENIZER_MAP).
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def bleu_tokenizer(args: argparse.Namespace) -> str:
    """``--tokenize``, else the one ``-l``'s target asks for, else 13a; sacreBLEU's warning on a mismatch.

    >>> bleu_tokenizer(argparse.Namespace(tokenize=None, language_pair="en-ja"))
    'ja-mecab'
    >>> bleu_tokenizer(argparse.Namespace(tokenize=None, language_pair=None))
    '13a'
    """
    target = args.language_pair.split("-")[1] if args.language_pair else None
    if args.tokenize is None:
        return LANGUAGE_TOKENIZERS.get(target or "", "13a")
    if target in LANGUAGE_TOKENIZERS and args.tokenize != LANGUAGE_TOKENIZERS[target]:
        warnings.warn(f"-l {args.language_pair}: consider --tokenize {LANGUAGE_TOKENIZERS[target]} for this "
                      f"target language (sacreBLEU's choice); scoring with {args.tokenize} as asked",
                      UserWarning)
    return args.tokenize


def options(args: argparse.Namespace, one_segment: bool) -> dict[str, object]:
    """BLEU's keyword arguments from ``args``; effective order by default for one segment."""
    effective = args.effective_order if args.effective_order is not None else one_segment
    return dict(max_order=args.max_order, weights=args.weights, smoothing=args.smoothing,
                smooth_value=args.smooth_value, tokenize=bleu_tokenizer(args), lowercase=args.lowercase,
                effective_order=effective)


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
    settings.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=None,
                          help="tokenizer (default: 13a, or what -l chooses, as sacreBLEU); 'whitespace' and "
                               "'none' only split on spaces (for text tokenized beforehand), 'intl', 'zh', "
                               "'char', 'ja-mecab', 'ko-mecab' are sacreBLEU's")
    settings.add_argument("--language-pair", "-l", type=language_pair, default=None, metavar="SRC-TGT",
                          help="as sacreBLEU: without --tokenize, a zh target gets 'zh', ja 'ja-mecab', ko "
                               "'ko-mecab' (the last two need mtlearn's extras ja, ko), any other '13a'")
    settings.add_argument("--smoothing", "--smooth-method", "-s", choices=SMOOTHING_METHODS, default="exp",
                          metavar="METHOD",
                          help="smoothing of zero n-gram counts: sacreBLEU's none, floor, add-k, exp, or "
                               "Chen & Cherry's method0..method7 as NLTK has them (default: %(default)s, as "
                               "sacreBLEU)")
    settings.add_argument("--smooth-value", "-sv", type=number, default=None, metavar="X",
                          help="the value of floor, add-k, method1, method4, method6, method7 (defaults: "
                               + ", ".join(f"{name} {value:g}" for name, value in SMOOTH_DEFAULTS.items()
                                           if value is not None) + ")")
    settings.add_argument("--max-order", type=max_order, metavar="N", default=_library_default("max_order"),
                          help="longest n-gram order (default: %(default)s)")
    settings.add_argument("--weights", type=number, nargs="+", metavar="W", default=None,
                          help="one weight per n-gram order, e.g. --weights 1/2 1/2 with --max-order 2 "
                               "(default: uniform, 1/N each)")
    settings.add_argument("--effective-order", action=argparse.BooleanOptionalAction, default=None,
                          help="leave out n-gram orders the hypothesis is too short for (default: on for "
                               "--segment and --sentence-level, as sacreBLEU's sentence BLEU; off for the "
                               "corpus)")
    case = p_bleu.add_argument_group("case").add_mutually_exclusive_group()
    case.add_argument("--lowercase", "-lc", dest="lowercase", action="store_true", help=LOWERCASE_HELP)
    case.add_argument("--case-sensitive", dest="lowercase", action="store_false",
                      help=KEEP_CASE_HELP + " (default)")
    p_bleu.set_defaults(lowercase=False)
    add_output_arguments(p_bleu)
    p_bleu.set_defaults(metric=METRIC)

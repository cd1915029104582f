"""The ``mtlearn`` command line: BLEU, METEOR, chrF, TER, WER, CER of text files, with the derivation on demand.

::

    mtlearn bleu   -r REF [REF ...] [-i HYP [HYP ...]] [options]
    mtlearn meteor -r REF [REF ...] [-i HYP [HYP ...]] [options]
    mtlearn chrf   -r REF [REF ...] [-i HYP [HYP ...]] [--plus] [options]   # chrF2, chrF2++
    mtlearn ter    -r REF [REF ...] [-i HYP [HYP ...]] [options]
    mtlearn wer    -r REF [REF ...] [-i HYP [HYP ...]] [options]            # also: mtlearn cer
    mtlearn score  -r REF [REF ...] -i SYS [SYS ...] -m bleu chrf ter ...   # one table, sacreBLEU's -m
    mtlearn wordnet [--check]           # make WordNet available for METEOR's synonym stage
    mtlearn compare -r REF [REF ...] -i BASELINE SYS2 [SYS3 ...] [--metric bleu|chrf|meteor|ter] --paired-bs|--paired-ar
    mtlearn why bleu|meteor -r REF [REF ...] [-i HYP] [--profiles A,B,...] [--walk A B]  # why libraries disagree

Files follow sacreBLEU's conventions: UTF-8, one segment a line, all files
line-aligned; several ``-r`` files give several references for every segment;
the hypotheses come from standard input when ``-i`` is absent. Trailing white
space of every line is dropped, as sacreBLEU does.

**One scale.** Every command prints scores on sacreBLEU's 0-100 scale
(``BLEU = 25.03``, ``chrF2 = 49.58``, ``TER = 58.25``, ``METEOR = 27.10``), in text,
tables, JSON and sentence-level output alike; ``--scale 1`` prints mtlearn's library
scale (0.2503) instead. JSON says which in its ``"scale"`` field; ``--explain`` derives
the score in mtlearn's exact 0-1 terms and ends with the scaled score (see
:mod:`mtlearn.cli_format`). ``mtlearn why`` shows both scales side by side, as it
compares the scales libraries report.

sacreBLEU's conveniences keep sacreBLEU's names: ``-b/--score-only``,
``-w/--width``, ``-f/--format text|json|latex|tsv``, ``--confidence`` (its bootstrap
interval, ``--confidence-n``, seed 12345 or ``SACREBLEU_SEED``), several ``-i``
systems and several ``-m`` metrics (``mtlearn score``) in one table,
``-l/--language-pair`` choosing BLEU's tokenizer for a zh, ja or ko target.

BLEU's *command-line* defaults are sacreBLEU's (``--tokenize 13a --smoothing
exp``), so that a number printed here can be put next to a published sacreBLEU
number; the library's own defaults (``whitespace``, no smoothing) are unchanged.
As in sacreBLEU, one segment's BLEU (``--segment``, ``--sentence-level``) uses
effective order unless ``--no-effective-order`` is given.
chrF's and TER's defaults are the library's, which are sacreBLEU's; their
options also answer to sacreBLEU's names (``--chrf-word-order``, ``-cw``,
``--ter-case-sensitive`` ...), so a sacreBLEU command line carries over.
``--sentence-level`` prints the signature once, then each line's number and score; it
reads the files in step, so memory stays flat however long they are, and a file that
ends before the others is an error at the end, naming the line.

Every number option (``--beta``, ``--weights``, ``--smooth-value``, ``--alpha``,
``--gamma`` ...) is read by :func:`mtlearn.core.number_text.parse_number`: decimals or fractions,
bounded before any arithmetic. Every problem with the input ends in one message on
standard error starting ``mtlearn: error:``, nothing more on standard output, and exit
status 1 (bad input data, missing WordNet) or 2 (a wrong command line).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "ref.txt").write_text("the cat sat on the mat\\n", encoding="utf-8")
>>> _ = (folder / "hyp.txt").write_text("the cat sat on the mat\\n", encoding="utf-8")
>>> main(["bleu", "-r", str(folder / "ref.txt"), "-i", str(folder / "hyp.txt")])  # doctest: +ELLIPSIS
BLEU = 100.00 ...
0
>>> main(["meteor", "-r", str(folder / "ref.txt"), "--stages", "exact,stem", "--json",
...       "-i", str(folder / "hyp.txt")])  # doctest: +ELLIPSIS
{
  "name": "METEOR",
  "score": 99.768518518518...,
  "scale": 100,
  ...
0
>>> main(["chrf", "-r", str(folder / "ref.txt"), "-i", str(folder / "hyp.txt"), "--plus", "--scale", "1"])  # doctest: +ELLIPSIS
chrF2++ = 1.0000 (P = 1.0000 R = 1.0000 char_order = 6 word_order = 2 beta = 2)  mtlearn-chrf|nrefs:1|...
0
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn, Optional

from mtlearn import _interrupt
from mtlearn.version import __version__
from mtlearn.cli_format import DEFAULT_SCALE, FORMATS, MAX_WIDTH
from mtlearn.cli_io import (EXIT_INPUT, EXIT_INTERRUPTED, EXIT_USAGE, STDOUT_CLOSED, CommandLineError, Corpus,
                            load_corpus, quiet_stdout, read_lines, read_segments, write_output)
from mtlearn.cli_run import Job, Metric, as_option, check_combination, run
from mtlearn.metrics.bleu.score import bleu, corpus_bleu
from mtlearn.metrics.bleu.smoothing import SMOOTH_DEFAULTS, SMOOTHING_METHODS
from mtlearn.metrics.chrf.options import REFERENCE_TIES
from mtlearn.metrics.chrf.score import chrf, corpus_chrf
from mtlearn.metrics.meteor.options import TIE_BREAKS
from mtlearn.metrics.meteor.score import corpus_meteor, meteor
from mtlearn.metrics.ter.score import cer, corpus_cer, corpus_ter, corpus_wer, ter, wer
from mtlearn.core.number_text import NumberError, parse_number
from mtlearn.core.tokenize import TOKENIZERS
from mtlearn.core.wording import plural
from mtlearn.core.references import AmbiguousLayoutWarning
from mtlearn.metrics.meteor.wordnet import WordNetMissingError

__all__ = ["CommandLineError", "Corpus", "build_parser", "load_corpus", "main", "read_lines", "read_segments"]

#: The metrics a command can run, as ``mtlearn score -m`` names them.
METRIC_NAMES: tuple[str, ...] = ("bleu", "chrf", "ter", "meteor", "wer", "cer")


# ---------------------------------------------------------------------------
# Parsing the command line


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one ``mtlearn: error:`` line (exit 2), like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"mtlearn: error: {message} (see '{self.prog} --help')\n")


def _library_default(function: Callable[..., object], name: str) -> object:
    """The default of keyword ``name`` of ``function``, so that the help never disagrees with the library."""
    return inspect.signature(function).parameters[name].default


def _number(text: str) -> float:
    """A number given as a decimal or a fraction (``0.25``, ``1/4``), read by the bounded parser.

    >>> _number("1/4"), _number("2.5e-3")
    (0.25, 0.0025)
    >>> _number("1e400")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '1e400' is too large: give a number of at most 1e300 in magnitude
    """
    try:
        return float(parse_number(text, "value"))
    except NumberError as error:  # argparse names the option: "argument --beta: <reason>"
        raise argparse.ArgumentTypeError(error.reason) from None


#: The most digits a whole-number option is read with (an order, a count, a seed: far beyond any use).
_WHOLE_MAX_DIGITS = 30


def _whole(text: str) -> int:
    """A whole number typed on the command line, its digits counted before ``int()`` reads them.

    >>> _whole(" 42 "), _whole("-3")
    (42, -3)
    >>> _whole("9" * 5000)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '9999999999999999999999999999999999999'... is too large (at most 30 digits)
    """
    stripped = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", stripped):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
    if len(stripped.lstrip("+-")) > _WHOLE_MAX_DIGITS:
        shown = repr(stripped[:37]) + "..." if len(stripped) > 40 else repr(stripped)
        raise argparse.ArgumentTypeError(f"{shown} is too large (at most {_WHOLE_MAX_DIGITS} digits)")
    return int(stripped)


def _segment_number(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is out of range; segments are numbered from 1")
    return value


def _order(text: str) -> int:
    """An n-gram order: a whole number, 0 or more (0 leaves that kind of n-gram out)."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; an order is 0 or more") from None
    return value


def _max_order(text: str) -> int:
    """BLEU's longest order: a whole number (the library checks that it is 1 or more) that Python can index with."""
    value = _whole(text)
    if value > sys.maxsize:
        raise argparse.ArgumentTypeError(f"{value} is too large; an order is at most {sys.maxsize}")
    return value


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is out of range; give 1 or more") from None
    return value


def _width(text: str) -> int:
    value = _whole(text)
    if not 0 <= value <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(f"{value} is out of range; give 0 to {MAX_WIDTH} decimals")
    return value


def _scale(text: str) -> int:
    """``--scale``: 100 (sacreBLEU's 0-100) or 1 (mtlearn's 0-1)."""
    if text.strip() not in ("100", "1"):
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: choose 100 (sacreBLEU's 0-100 scale) or 1 (mtlearn's 0-1)")
    return int(text)


def _seed(text: str) -> Optional[int]:
    """A seed: a whole number >= 0, or 'none' for fresh randomness (sacreBLEU's SACREBLEU_SEED=none)."""
    if text.strip().lower() == "none":
        return None
    try:
        value = _whole(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{error} (or 'none')") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; a seed is 0 or more") from None
    return value


class _SeedFromEnvironment:
    """``--seed``'s default: sacreBLEU's ``$SACREBLEU_SEED`` when set, else 12345, read only when a seed is needed
    (so that a stray value there stops only the commands that draw samples)."""

    def __repr__(self) -> str:
        return "$SACREBLEU_SEED or 12345"


_SEED_FROM_ENVIRONMENT = _SeedFromEnvironment()


def _resolved_seed(seed: object) -> Optional[int]:
    """The seed to draw with: ``--seed``'s value, or the default of :class:`_SeedFromEnvironment`.

    >>> _resolved_seed(7), _resolved_seed(None)
    (7, None)
    """
    if not isinstance(seed, _SeedFromEnvironment):
        return seed  # type: ignore[return-value]
    text = os.environ.get("SACREBLEU_SEED", "12345")
    try:
        return _seed(text)
    except argparse.ArgumentTypeError as error:
        raise CommandLineError(f"SACREBLEU_SEED (the default of --seed): {error}", EXIT_USAGE) from None


def _language_pair(text: str) -> str:
    """sacreBLEU's ``-l``: source-target language codes, e.g. ``en-zh`` (lowercased).

    >>> _language_pair("EN-zh")
    'en-zh'
    """
    pair = text.strip().lower()
    if not re.fullmatch(r"[a-z]{2,3}-[a-z]{2,3}", pair):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a language pair; write source-target, "
                                         "e.g. en-zh or de-en")
    return pair


def _stage_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _add_io_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("input (UTF-8 text, one segment a line, all files line-aligned)")
    group.add_argument("-r", "--references", "--refs", nargs="+", action="extend", required=True, metavar="REF",
                       help="reference file(s); several files give several references per segment "
                            "(-r A B and -r A -r B are the same)")
    group.add_argument("-i", "--input", nargs="+", action="extend", metavar="HYP", default=None,
                       help="hypothesis file (default: standard input; '-' also means standard input); several "
                            "files are several systems, scored into one table")


def _add_output_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_argument_group("what to score").add_mutually_exclusive_group()
    which.add_argument("--segment", type=_segment_number, metavar="N", default=None,
                       help="score only segment N (1-based line number)")
    which.add_argument("--sentence-level", "-sl", action="store_true",
                       help="score every segment on its own: the signature once, then each line's number and "
                            "score; the files are read in step (memory stays flat), and a file that ends before "
                            "the others is an error at the end, naming the line")
    out = parser.add_argument_group("output (scores on the 0-100 scale unless --scale 1)")
    out.add_argument("--scale", type=_scale, default=DEFAULT_SCALE, metavar="100|1",
                     help="print scores on sacreBLEU's 0-100 scale (100, the default: BLEU = 25.03) or on "
                          "mtlearn's 0-1 scale (1: BLEU = 0.2503); text, tables, JSON and --sentence-level alike")
    out.add_argument("-f", "--format", choices=FORMATS, default="text",
                     help="text (default): the score line, or a table for several systems or metrics; json: the "
                          "result's to_dict() with 'score' on the scale and a 'scale' field (one JSON object a line "
                          "with --sentence-level); latex: a booktabs table; tsv: tab-separated, signatures as "
                          "'#' lines first")
    out.add_argument("-w", "--width", type=_width, default=None, metavar="N",
                     help="decimals of the score (default: 2 on the 0-100 scale, 4 on the 0-1 scale)")
    how = out.add_mutually_exclusive_group()
    how.add_argument("--json", dest="format", action="store_const", const="json", help="the same as -f json")
    how.add_argument("--explain", action="store_true",
                     help="print the step-by-step derivation with the numbers substituted (mtlearn's exact 0-1 "
                          "terms; on the 0-100 scale it ends with the scaled score)")
    how.add_argument("-b", "--score-only", action="store_true",
                     help="print only the score (with --sentence-level: one score a line)")
    stats = parser.add_argument_group("confidence interval (sacreBLEU's, for one system's corpus score)")
    stats.add_argument("--confidence", "-ci", action="store_true",
                       help="add the bootstrap estimate of the mean and the half-width of its 95%% interval, "
                            "as sacreBLEU: BLEU = 25.03 (μ = 24.91 ± 6.27)")
    stats.add_argument("--confidence-n", "-cin", type=_positive, default=1000, metavar="N",
                       help="number of bootstrap samples (default: %(default)s)")
    stats.add_argument("--seed", type=_seed, default=_SEED_FROM_ENVIRONMENT, metavar="N",
                       help="the bootstrap's seed, 'none' for fresh randomness (default: $SACREBLEU_SEED when "
                            "set, else 12345, sacreBLEU's)")


def _add_case_arguments(parser: argparse.ArgumentParser, default: bool, alias: Optional[str] = None,
                        alias_keeps_case: bool = False) -> None:
    """``--lowercase`` / ``--case-sensitive`` into ``args.lowercase``; ``alias`` is sacreBLEU's name of one of them."""
    lowercase, keep = ["--lowercase", "-lc"], ["--case-sensitive"]
    if alias:
        (keep if alias_keeps_case else lowercase).append(alias)
    group = parser.add_argument_group("case").add_mutually_exclusive_group()
    group.add_argument(*lowercase, dest="lowercase", action="store_true",
                       help="lowercase hypotheses and references first" + (" (default)" if default else ""))
    group.add_argument(*keep, dest="lowercase", action="store_false",
                       help="keep the case" + ("" if default else " (default)"))
    parser.set_defaults(lowercase=default)


def build_parser() -> argparse.ArgumentParser:
    """The ``mtlearn`` argument parser with its ``bleu``, ``meteor``, ``chrf``, ``ter``, ``wer``, ``cer``, ``score``,
    ``compare``, ``why`` and ``wordnet`` subcommands.

    >>> args = build_parser().parse_args(["bleu", "-r", "ref.txt"])
    >>> args.tokenize, args.smoothing, args.input, args.references, args.scale, args.format
    (None, 'exp', None, ['ref.txt'], 100, 'text')
    >>> build_parser().parse_args(["bleu", "-r", "a.txt", "-r", "b.txt", "-i", "s1", "s2"]).references
    ['a.txt', 'b.txt']
    >>> args = build_parser().parse_args(["meteor", "-r", "ref.txt", "--stages", "exact,stem"])
    >>> args.stages, args.lowercase
    (('exact', 'stem'), True)
    >>> args = build_parser().parse_args(["chrf", "-r", "ref.txt", "--plus"])
    >>> args.char_order, args.word_order, args.beta
    (6, 2, 2.0)
    >>> args = build_parser().parse_args(["ter", "-r", "ref.txt", "--case-sensitive"])
    >>> args.lowercase, args.normalized
    (False, False)
    """
    parser = _Parser(
        prog="mtlearn",
        description="BLEU, METEOR, chrF, TER, WER and CER of plain-text files, computed step by step.",
        epilog="Scores are on sacreBLEU's 0-100 scale in every command (--scale 1: mtlearn's 0-1). "
               "Run 'mtlearn METRIC --help' (e.g. 'mtlearn chrf --help') for the options of each metric. "
               "Exit status: 0 ok, 1 bad input data (or WordNet missing), 2 wrong command line.",
    )
    parser.add_argument("--version", action="version", version=f"mtlearn {__version__}")
    commands = parser.add_subparsers(dest="command",
                                     metavar="{bleu,meteor,chrf,ter,wer,cer,score,compare,why,wordnet}",
                                     required=True, parser_class=_Parser)
    _add_bleu_command(commands)
    _add_meteor_command(commands)
    _add_chrf_command(commands)
    _add_ter_command(commands)
    for name in ("wer", "cer"):
        _add_error_rate_command(commands, name)
    _add_score_command(commands)
    _add_compare_command(commands)
    _add_why_command(commands)
    commands.add_parser(
        "wordnet", add_help=False,
        help="make WordNet available to NLTK for METEOR's synonym stage, also offline "
             "('mtlearn wordnet --help' for its options)",
    )
    return parser


def _add_bleu_command(commands: Any) -> None:
    p_bleu = commands.add_parser(
        "bleu", help="BLEU (sacreBLEU-compatible defaults)",
        description="Corpus BLEU of the hypotheses against the references (or one segment's BLEU), on sacreBLEU's "
                    "0-100 scale (--scale 1: mtlearn's 0-1). "
                    "The defaults are sacreBLEU's command-line defaults (--tokenize 13a --smoothing exp, "
                    "case-sensitive), so the number matches sacreBLEU's; note that they differ from the "
                    "defaults of the Python function mtlearn.bleu (whitespace tokens, no smoothing).",
        epilog="Example: mtlearn bleu -r newstest.ref.en -i system.en   (or: cat system.en | mtlearn bleu -r "
               "newstest.ref.en). Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_io_arguments(p_bleu)
    settings = p_bleu.add_argument_group("BLEU settings")
    settings.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=None,
                          help="tokenizer (default: 13a, or what -l chooses, as sacreBLEU); 'whitespace' and 'none' "
                               "only split on spaces (for text tokenized beforehand), 'intl', 'zh', 'char', "
                               "'ja-mecab', 'ko-mecab' are sacreBLEU's")
    settings.add_argument("--language-pair", "-l", type=_language_pair, default=None, metavar="SRC-TGT",
                          help="as sacreBLEU: without --tokenize, a zh target gets 'zh', ja 'ja-mecab', ko 'ko-mecab' "
                               "(the last two need mtlearn's extras ja, ko), any other '13a'")
    settings.add_argument("--smoothing", "--smooth-method", "-s", choices=SMOOTHING_METHODS, default="exp",
                          metavar="METHOD",
                          help="smoothing of zero n-gram counts: sacreBLEU's none, floor, add-k, exp, or Chen & "
                               "Cherry's method0..method7 as NLTK has them (default: %(default)s, as sacreBLEU)")
    settings.add_argument("--smooth-value", "-sv", type=_number, default=None, metavar="X",
                          help="the value of floor, add-k, method1, method4, method6, method7 (defaults: "
                               + ", ".join(f"{name} {value:g}" for name, value in SMOOTH_DEFAULTS.items()
                                           if value is not None) + ")")
    settings.add_argument("--max-order", type=_max_order, metavar="N", default=_library_default(bleu, "max_order"),
                          help="longest n-gram order (default: %(default)s)")
    settings.add_argument("--weights", type=_number, nargs="+", metavar="W", default=None,
                          help="one weight per n-gram order, e.g. --weights 1/2 1/2 with --max-order 2 "
                               "(default: uniform, 1/N each)")
    settings.add_argument("--effective-order", action=argparse.BooleanOptionalAction, default=None,
                          help="leave out n-gram orders the hypothesis is too short for (default: on for "
                               "--segment and --sentence-level, as sacreBLEU's sentence BLEU; off for the corpus)")
    _add_case_arguments(p_bleu, default=False)
    _add_output_arguments(p_bleu)
    p_bleu.set_defaults(metric=Metric("bleu", bleu, corpus_bleu, _bleu_options))


def _add_meteor_command(commands: Any) -> None:
    p_meteor = commands.add_parser(
        "meteor", help="METEOR (exact, stem and synonym stages)",
        description="Corpus METEOR of the hypotheses against the references (or one segment's METEOR), on the "
                    "0-100 scale of every mtlearn command (--scale 1: 0-1, as METEOR 1.5 prints it). "
                    "The defaults are those of the Python function mtlearn.meteor. The corpus score sums "
                    "matches, lengths and chunks over the segments (each with its best reference) and applies "
                    "the formulas once. The synonym stage needs WordNet: run 'mtlearn wordnet' once, or leave 'synonym' out of --stages.",
        epilog="Example: mtlearn meteor -r ref.en -i system.en --stages exact,stem --segment 3 --explain. "
               "Exit status: 0 ok, 1 bad input data or WordNet missing, 2 wrong command line.",
    )
    _add_io_arguments(p_meteor)
    settings = p_meteor.add_argument_group("METEOR settings")
    default_stages = ",".join(_library_default(meteor, "stages"))
    settings.add_argument("--stages", type=_stage_list, metavar="S1,S2,...",
                          default=tuple(_library_default(meteor, "stages")),
                          help=f"matching stages, in order, comma-separated: exact, stem (= stem:porter), "
                               f"stem:snowball, synonym (default: {default_stages})")
    for name, meaning in (("alpha", "weight of precision against recall in F_mean"),
                          ("beta", "exponent of the fragmentation penalty"),
                          ("gamma", "maximum fragmentation penalty")):
        settings.add_argument(f"--{name}", type=_number, metavar="X", default=_library_default(meteor, name),
                              help=f"{meaning} (default: %(default)s)")
    settings.add_argument("--tie-break", choices=TIE_BREAKS, default=_library_default(meteor, "tie_break"),
                          help="among alignments with the most matches prefer the fewest 'crossings' "
                               "(document 003, METEOR 0.x) or the fewest 'chunks' (METEOR 1.x) "
                               "(default: %(default)s)")
    settings.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=_library_default(meteor, "tokenize"),
                          help="tokenizer (default: %(default)s; '13a' also splits off punctuation)")
    _add_case_arguments(p_meteor, default=bool(_library_default(meteor, "lowercase")))
    _add_output_arguments(p_meteor)
    p_meteor.set_defaults(metric=Metric("meteor", meteor, corpus_meteor, _meteor_options))


def _add_chrf_command(commands: Any) -> None:
    p_chrf = commands.add_parser(
        "chrf", help="chrF and chrF++ (sacreBLEU's defaults)",
        description="Corpus chrF of the hypotheses against the references (or one segment's chrF): the F-score "
                    "of character n-grams (and, for chrF++, word n-grams), averaged over the orders. The "
                    "defaults are those of the Python function mtlearn.chrf, which are sacreBLEU's (chrF2: "
                    "character orders 1-6, no word orders, beta 2, case-sensitive, spaces removed). Scores are on "
                    "sacreBLEU's 0-100 scale (--scale 1: mtlearn's 0-1). The options also have sacreBLEU's names "
                    "(--chrf-char-order, -cc, --chrf-word-order, -cw, --chrf-beta, ...).",
        epilog="Example: mtlearn chrf -r newstest.ref.en -i system.en --plus   (chrF++). "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_io_arguments(p_chrf)
    settings = p_chrf.add_argument_group("chrF settings")
    settings.add_argument("--char-order", "--chrf-char-order", "-cc", type=_order, metavar="N",
                          default=_library_default(chrf, "char_order"),
                          help="longest character n-gram order (default: %(default)s)")
    words = settings.add_mutually_exclusive_group()
    words.add_argument("--word-order", "--chrf-word-order", "-cw", type=_order, metavar="N",
                       default=_library_default(chrf, "word_order"),
                       help="longest word n-gram order; 2 is chrF++ (default: %(default)s)")
    words.add_argument("--plus", "--chrf++", dest="word_order", action="store_const", const=2,
                       help="chrF++: add word orders 1 and 2 (the same as --word-order 2)")
    settings.add_argument("--beta", "--chrf-beta", type=_number, metavar="X", default=_library_default(chrf, "beta"),
                          help="recall counts beta times as much as precision in F_beta (default: %(default)g)")
    settings.add_argument("--whitespace", "--chrf-whitespace", action="store_true",
                          default=_library_default(chrf, "whitespace"),
                          help="keep spaces inside character n-grams (default: spaces removed)")
    settings.add_argument("--eps-smoothing", "--chrf-eps-smoothing", action="store_true",
                          default=_library_default(chrf, "eps_smoothing"),
                          help="average the F-scores of all orders, an order without n-grams counting a tiny "
                               "epsilon, as chrF++.py, NLTK and Moses (default: F of the precision and recall "
                               "averaged over the orders both sides have, sacreBLEU's effective order)")
    settings.add_argument("--reference-ties", choices=REFERENCE_TIES, default=_library_default(chrf, "reference_ties"),
                          help="with several references each segment keeps its best one; on a tie keep the 'first' "
                               "(sacreBLEU) or the 'last' (what WMT22's official chrf-all numbers need, with the "
                               "references given in A, B order; see the chrF card) (default: %(default)s)")
    _add_case_arguments(p_chrf, default=bool(_library_default(chrf, "lowercase")), alias="--chrf-lowercase")
    _add_output_arguments(p_chrf)
    p_chrf.set_defaults(metric=Metric("chrf", chrf, corpus_chrf, _chrf_options))


#: TER's switches: the library keyword, its sacreBLEU spelling, and what it does.
_EDIT_SWITCHES = (
    ("normalized", "--ter-normalized", "normalise and tokenize punctuation, numbers and a few symbols first "
                                       "(tercom's -N)"),
    ("no_punct", "--ter-no-punct", "remove punctuation first"),
    ("asian_support", "--ter-asian-support", "CJK text: with --normalized split CJK characters into words, with "
                                             "--no-punct also remove CJK and full-width punctuation (no effect "
                                             "alone)"),
)


def _add_ter_command(commands: Any) -> None:
    p_ter = commands.add_parser(
        "ter", help="TER, translation edit rate (sacreBLEU's defaults)",
        description="Corpus TER of the hypotheses against the references (or one segment's TER): the fewest "
                    "edits (insertions, deletions, substitutions and block shifts, found by tercom's greedy "
                    "search) divided by the average reference length. The defaults are those of the Python "
                    "function mtlearn.ter, which are sacreBLEU's (case-insensitive, no normalisation). Scores "
                    "are on sacreBLEU's 0-100 scale (--scale 1: mtlearn's 0-1) and can exceed 100. The options also "
                    "have sacreBLEU's names (--ter-case-sensitive, --ter-normalized, ...).",
        epilog="Example: mtlearn ter -r ref.en -i system.en --segment 7 --explain   (the edit script of line 7). "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_edit_arguments(p_ter, ter, "TER", sacrebleu_names=True)
    p_ter.set_defaults(metric=Metric("ter", ter, corpus_ter, _edit_options(ter)))


def _add_error_rate_command(commands: Any, name: str) -> None:
    unit = "word" if name == "wer" else "character"
    one, many = (wer, corpus_wer) if name == "wer" else (cer, corpus_cer)
    parser = commands.add_parser(
        name, help=f"{name.upper()}, {unit} error rate (Levenshtein distance, no shifts)",
        description=f"Corpus {name.upper()} of the hypotheses against the references (or one segment's): the "
                    f"fewest {unit} insertions, deletions and substitutions divided by the reference length, "
                    "that is TER without shifts. The defaults are those of the Python function "
                    f"mtlearn.{name}. Scores on the 0-100 scale (--scale 1: 0-1); they can exceed 100.",
        epilog=f"Example: mtlearn {name} -r ref.txt -i hyp.txt --sentence-level. "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_edit_arguments(parser, one, name.upper(), sacrebleu_names=False)
    parser.set_defaults(metric=Metric(name, one, many, _edit_options(one)))


def _add_edit_arguments(parser: argparse.ArgumentParser, function: Callable[..., object], title: str,
                        sacrebleu_names: bool) -> None:
    """The input, TER's switches that ``function`` has (with sacreBLEU's ``--ter-*`` names), the case, the output."""
    _add_io_arguments(parser)
    parameters = inspect.signature(function).parameters
    settings = parser.add_argument_group(f"{title} settings")
    for name, alias, meaning in _EDIT_SWITCHES:
        if name in parameters:
            flags = ["--" + name.replace("_", "-")] + ([alias] if sacrebleu_names else [])
            settings.add_argument(*flags, action="store_true", default=_library_default(function, name),
                                  help=meaning + (" (default)" if _library_default(function, name) else ""))
    if "case_sensitive" in parameters:
        _add_case_arguments(parser, default=not _library_default(function, "case_sensitive"),
                            alias="--ter-case-sensitive" if sacrebleu_names else None, alias_keeps_case=True)
    _add_output_arguments(parser)


# ---------------------------------------------------------------------------
# mtlearn compare: sacreBLEU's paired significance tests


#: The options of ``mtlearn compare`` that each metric takes (the rest are refused by name).
_COMPARE_OPTIONS = {
    "bleu": ("tokenize", "smoothing", "smooth_value", "max_order", "lowercase"),
    "chrf": ("char_order", "word_order", "beta", "whitespace", "eps_smoothing", "reference_ties", "lowercase"),
    "meteor": ("stages", "alpha", "beta", "gamma", "tie_break", "tokenize", "lowercase"),
    "ter": (),
}
#: What ``mtlearn compare`` uses where an option is not given: ``mtlearn bleu``'s, ``chrf``'s, ``meteor``'s defaults.
_COMPARE_DEFAULTS = {
    "bleu": {"tokenize": "13a", "smoothing": "exp"},
    "chrf": {},
    "meteor": {},
    "ter": {},
}


def _add_compare_command(commands: Any) -> None:
    p_compare = commands.add_parser(
        "compare", help="paired significance tests between a baseline and other systems (sacreBLEU's)",
        description="Is each system's score different from the baseline's by more than chance? sacreBLEU's "
                    "paired bootstrap resampling (--paired-bs, 1000 samples) or paired approximate randomization "
                    "(--paired-ar, 10000 trials), on mtlearn's BLEU, chrF, METEOR or TER, with sacreBLEU's seed "
                    "(12345): the p-values are sacreBLEU's. The first -i file is the baseline. Each row gives the "
                    "score (on the 0-100 scale of every mtlearn command; --scale 1: 0-1), for "
                    "the bootstrap the mean and the half-width of the 95% interval over the samples, and the "
                    "p-value, marked * when p <= 0.05. Options not given take the defaults of 'mtlearn bleu', "
                    "'mtlearn chrf' or 'mtlearn meteor'.",
        epilog="Example: mtlearn compare -r ref.en -i baseline.en system2.en system3.en --metric chrf --paired-bs. "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    group = p_compare.add_argument_group("input (UTF-8 text, one segment a line, all files line-aligned)")
    group.add_argument("-r", "--references", "--refs", nargs="+", action="extend", required=True, metavar="REF",
                       help="reference file(s); several files give several references per segment")
    group.add_argument("-i", "--input", nargs="+", action="extend", required=True, metavar="SYS",
                       help="the baseline's hypothesis file, then those of the systems to compare with it")
    test = p_compare.add_argument_group("the test").add_mutually_exclusive_group(required=True)
    test.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap resampling")
    test.add_argument("--paired-ar", "-par", action="store_true", help="paired approximate randomization")
    settings = p_compare.add_argument_group("test settings")
    settings.add_argument("--metric", "-m", choices=("bleu", "chrf", "meteor", "ter"), default="bleu",
                          help="the metric compared (default: %(default)s)")
    settings.add_argument("--paired-bs-n", "-pbsn", type=_positive, default=1000, metavar="N",
                          help="number of bootstrap samples (default: %(default)s)")
    settings.add_argument("--paired-ar-n", "-parn", type=_positive, default=10000, metavar="N",
                          help="number of randomization trials (default: %(default)s)")
    settings.add_argument("--seed", type=_seed, default=_SEED_FROM_ENVIRONMENT, metavar="N",
                          help="the random generator's seed, 'none' for fresh randomness (default: $SACREBLEU_SEED "
                               "when set, else 12345, sacreBLEU's)")
    metric = p_compare.add_argument_group("metric settings (default: those of mtlearn bleu / chrf / meteor)")
    metric.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=None, help="BLEU, METEOR: tokenizer")
    metric.add_argument("--smoothing", "--smooth-method", "-s", choices=SMOOTHING_METHODS, default=None,
                        metavar="METHOD", help="BLEU: smoothing (default: exp)")
    metric.add_argument("--smooth-value", "-sv", type=_number, default=None, metavar="X", help="BLEU: its value")
    metric.add_argument("--max-order", type=_positive, default=None, metavar="N", help="BLEU: longest n-gram")
    metric.add_argument("--char-order", "--chrf-char-order", "-cc", type=_order, default=None, metavar="N",
                        help="chrF: longest character n-gram")
    metric.add_argument("--word-order", "--chrf-word-order", "-cw", type=_order, default=None, metavar="N",
                        help="chrF: longest word n-gram (2: chrF++)")
    metric.add_argument("--beta", "--chrf-beta", type=_number, default=None, metavar="X",
                        help="chrF's beta, or METEOR's (the exponent of its penalty)")
    metric.add_argument("--whitespace", "--chrf-whitespace", action="store_true", default=None,
                        help="chrF: keep spaces")
    metric.add_argument("--eps-smoothing", "--chrf-eps-smoothing", action="store_true", default=None,
                        help="chrF: chrF++.py's epsilon smoothing")
    metric.add_argument("--reference-ties", choices=REFERENCE_TIES, default=None, help="chrF: reference ties")
    metric.add_argument("--stages", type=_stage_list, default=None, metavar="S1,S2,...", help="METEOR: stages")
    metric.add_argument("--alpha", type=_number, default=None, metavar="X", help="METEOR: alpha")
    metric.add_argument("--gamma", type=_number, default=None, metavar="X", help="METEOR: gamma")
    metric.add_argument("--tie-break", choices=TIE_BREAKS, default=None, help="METEOR: tie break")
    case = metric.add_mutually_exclusive_group()
    case.add_argument("--lowercase", "-lc", dest="lowercase", action="store_true", default=None,
                      help="lowercase first")
    case.add_argument("--case-sensitive", dest="lowercase", action="store_false", help="keep the case")
    out = p_compare.add_argument_group("output")
    out.add_argument("--scale", type=_scale, default=DEFAULT_SCALE, metavar="100|1",
                     help="scores on sacreBLEU's 0-100 scale (100, the default) or mtlearn's 0-1 (1)")
    out.add_argument("--json", action="store_true",
                     help="print the result's to_dict() as JSON (scores, means and half-widths on the scale, and "
                          "a 'scale' field)")
    out.add_argument("--quiet", "-q", action="store_true",
                     help="no progress messages on standard error (they appear only when it is a terminal)")


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


def _compare(args: argparse.Namespace) -> list[str]:
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
        warnings.simplefilter("ignore", AmbiguousLayoutWarning)  # one file per reference stream: the layout is known
        result = paired_test(systems, references, metric=args.metric, test=test,
                             n_samples=args.paired_bs_n if test == "bs" else args.paired_ar_n,
                             seed=_resolved_seed(args.seed),
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


# ---------------------------------------------------------------------------
# mtlearn why: every implementation's score and where each pair parts


def _profile_list(value: str) -> list[str]:
    """``--profiles a,b,c`` as a list of names (checked by the library, which lists the known ones).

    >>> _profile_list("nltk-sentence, sacrebleu-sentence")
    ['nltk-sentence', 'sacrebleu-sentence']
    """
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one profile name, e.g. --profiles nltk-sentence,sacrebleu-sentence")
    return names


def _add_why_command(commands: Any) -> None:
    p_why = commands.add_parser(
        "why", help="why libraries disagree: each implementation's BLEU or METEOR on the files, and where they part",
        description="Score the hypotheses as each well-known implementation would (sacreBLEU, NLTK, Hugging Face "
                    "evaluate, torchmetrics, KerasNLP, d2l, tensor2tensor for BLEU; Banerjee & Lavie 2005, NLTK "
                    "and METEOR 1.5 for METEOR), every profile computed by mtlearn's own step functions, offline. "
                    "Prints the table of scores (0-1, and as each library reports it), then for every profile "
                    "the first step at which it parts from the first profile; --walk A B prints the whole walk "
                    "from A to B, step by step, whose contributions add up to the difference in score.",
        epilog="Example: mtlearn why bleu -r ref.txt -i hyp.txt --profiles sacrebleu-sentence,nltk-sentence "
               "--walk sacrebleu-sentence nltk-sentence. Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    p_why.add_argument("metric", choices=("bleu", "meteor"), help="the metric whose implementations are compared")
    group = p_why.add_argument_group("input (UTF-8 text, one segment a line, all files line-aligned)")
    group.add_argument("-r", "--references", "--refs", nargs="+", required=True, metavar="REF",
                       help="reference file(s); several files give several references per segment")
    group.add_argument("-i", "--input", default=None, metavar="HYP",
                       help="the hypotheses (default: standard input)")
    settings = p_why.add_argument_group("comparison")
    settings.add_argument("--profiles", type=_profile_list, default=None, metavar="A,B,...",
                          help="the profiles to compare, in table order (default: all of the metric's)")
    settings.add_argument("--tokenize", "-tok", default=None, metavar="NAME",
                          help="give every profile this tokenizer, so that tokenisation drops out of the differences")
    settings.add_argument("--walk", nargs=2, default=None, metavar=("A", "B"),
                          help="also print the step-by-step walk from profile A to profile B")
    out = p_why.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print the comparison's to_dict() as JSON")


def _why(args: argparse.Namespace) -> list[str]:
    """``mtlearn why``: read the files, run :func:`mtlearn.compare_implementations`, print the table (or JSON)."""
    from mtlearn.why import compare_implementations

    corpus = load_corpus(args.references, args.input)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        warnings.simplefilter("ignore", AmbiguousLayoutWarning)  # one file per reference stream: the layout is known
        result = compare_implementations(list(corpus.hypotheses), [list(refs) for refs in corpus.references],
                                         args.metric, tokenize=args.tokenize, profiles=args.profiles)
        if args.walk:
            try:
                walk = result.explain(*args.walk)
            except ValueError as error:  # an unknown name, or the same one twice
                raise CommandLineError("--walk: " + re.sub(r"^[a-z_, ]+: ", "", str(error)), EXIT_USAGE) from None
    for warning in caught:
        print(f"mtlearn: warning: {warning.message}", file=sys.stderr)
    if args.json:
        found = result.to_dict()
        if args.walk:
            found["walk"] = next(d for d in found["divergences"] if {d["a"], d["b"]} == set(args.walk))
        return [json.dumps(found, indent=2, ensure_ascii=False)]
    table = result.explain().replace("(c.explain(a, b) prints", "(--walk A B prints")  # the command line's way
    return [table] + (["", walk] if args.walk else [])


# ---------------------------------------------------------------------------
# Each metric's options, from its command's namespace


#: The tokenizer sacreBLEU gives a target language when --tokenize is not given (its BLEU._TOKENIZER_MAP).
_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def _bleu_tokenizer(args: argparse.Namespace) -> str:
    """``--tokenize``, else the one ``-l``'s target language asks for, else 13a; sacreBLEU's warning on a mismatch.

    >>> _bleu_tokenizer(argparse.Namespace(tokenize=None, language_pair="en-ja"))
    'ja-mecab'
    >>> _bleu_tokenizer(argparse.Namespace(tokenize=None, language_pair=None))
    '13a'
    """
    target = args.language_pair.split("-")[1] if args.language_pair else None
    if args.tokenize is None:
        return _LANGUAGE_TOKENIZERS.get(target or "", "13a")
    if target in _LANGUAGE_TOKENIZERS and args.tokenize != _LANGUAGE_TOKENIZERS[target]:
        warnings.warn(f"-l {args.language_pair}: consider --tokenize {_LANGUAGE_TOKENIZERS[target]} for this "
                      f"target language (sacreBLEU's choice); scoring with {args.tokenize} as asked", UserWarning)
    return args.tokenize


def _bleu_options(args: argparse.Namespace, one_segment: bool) -> dict[str, object]:
    effective = args.effective_order if args.effective_order is not None else one_segment
    return dict(max_order=args.max_order, weights=args.weights, smoothing=args.smoothing,
                smooth_value=args.smooth_value, tokenize=_bleu_tokenizer(args), lowercase=args.lowercase,
                effective_order=effective)


def _meteor_options(args: argparse.Namespace, one_segment: bool) -> dict[str, object]:
    return dict(stages=args.stages, alpha=args.alpha, beta=args.beta, gamma=args.gamma,
                tie_break=args.tie_break, lowercase=args.lowercase, tokenize=args.tokenize)


def _chrf_options(args: argparse.Namespace, one_segment: bool) -> dict[str, object]:
    return dict(char_order=args.char_order, word_order=args.word_order, beta=args.beta, lowercase=args.lowercase,
                whitespace=args.whitespace, eps_smoothing=args.eps_smoothing, reference_ties=args.reference_ties)


def _edit_options(function: Callable[..., object]) -> Callable[[argparse.Namespace, bool], dict[str, object]]:
    """The options of TER (or WER, CER) from the command line: those of its switches ``function`` has."""
    parameters = inspect.signature(function).parameters
    names = [name for name, _, _ in _EDIT_SWITCHES if name in parameters]

    def options(args: argparse.Namespace, one_segment: bool) -> dict[str, object]:
        out: dict[str, object] = {name: getattr(args, name) for name in names}
        if "case_sensitive" in parameters:
            out["case_sensitive"] = not args.lowercase
        return out

    return options


# ---------------------------------------------------------------------------
# mtlearn score: several metrics (sacreBLEU's -m) and systems in one table


#: ``mtlearn score``'s metric options, with sacreBLEU's names: its dest -> (metric, that metric's dest, the flag).
_SCORE_OPTIONS: dict[str, tuple[str, str, str]] = {
    "tokenize": ("bleu", "tokenize", "--tokenize"),
    "smoothing": ("bleu", "smoothing", "--smooth-method"),
    "smooth_value": ("bleu", "smooth_value", "--smooth-value"),
    "lowercase": ("bleu", "lowercase", "--lowercase"),
    "language_pair": ("bleu", "language_pair", "--language-pair"),
    "chrf_char_order": ("chrf", "char_order", "--chrf-char-order"),
    "chrf_word_order": ("chrf", "word_order", "--chrf-word-order"),
    "chrf_beta": ("chrf", "beta", "--chrf-beta"),
    "chrf_whitespace": ("chrf", "whitespace", "--chrf-whitespace"),
    "chrf_lowercase": ("chrf", "lowercase", "--chrf-lowercase"),
    "chrf_eps_smoothing": ("chrf", "eps_smoothing", "--chrf-eps-smoothing"),
    "ter_lowercase": ("ter", "lowercase", "--ter-case-sensitive"),
    "ter_normalized": ("ter", "normalized", "--ter-normalized"),
    "ter_no_punct": ("ter", "no_punct", "--ter-no-punct"),
    "ter_asian_support": ("ter", "asian_support", "--ter-asian-support"),
    "meteor_stages": ("meteor", "stages", "--meteor-stages"),
}


def _add_score_command(commands: Any) -> None:
    p_score = commands.add_parser(
        "score", help="several metrics (-m) and systems (-i) in one table, with sacreBLEU's option names",
        description="sacreBLEU's main mode: every system (-i A B ...) scored with every metric (-m bleu chrf ter "
                    "...) into one table, a row per system, on sacreBLEU's 0-100 scale (--scale 1: mtlearn's 0-1). "
                    "Each metric runs with the defaults of its own command ('mtlearn bleu', 'mtlearn chrf' ...); "
                    "the options below have sacreBLEU's names and apply to the metric they name. With one system "
                    "and one metric the output is that command's (a score line, JSON, --explain, "
                    "--sentence-level).",
        epilog="Example: mtlearn score -r ref.en -i sys1.en sys2.en -m bleu chrf ter -f latex. "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_io_arguments(p_score)
    p_score.add_argument("-m", "--metrics", nargs="+", choices=METRIC_NAMES, default=None, metavar="METRIC",
                         help=f"the metrics, columns of the table: {', '.join(METRIC_NAMES)} (default: bleu)")
    bleu_group = p_score.add_argument_group("BLEU (default: --tokenize 13a --smooth-method exp, as sacreBLEU)")
    bleu_group.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=None, help="BLEU's tokenizer")
    bleu_group.add_argument("--smooth-method", "--smoothing", "-s", dest="smoothing", choices=SMOOTHING_METHODS,
                            default=None, metavar="METHOD", help="BLEU's smoothing")
    bleu_group.add_argument("--smooth-value", "-sv", type=_number, default=None, metavar="X",
                            help="the value of BLEU's smoothing")
    bleu_group.add_argument("--lowercase", "-lc", action="store_true", default=None, help="BLEU: lowercase first")
    bleu_group.add_argument("--language-pair", "-l", type=_language_pair, default=None, metavar="SRC-TGT",
                            help="BLEU's tokenizer for the target: zh, ja-mecab, ko-mecab or 13a (as sacreBLEU)")
    chrf_group = p_score.add_argument_group("chrF (default: chrF2)")
    chrf_group.add_argument("--chrf-char-order", "-cc", type=_order, default=None, metavar="N")
    chrf_group.add_argument("--chrf-word-order", "-cw", type=_order, default=None, metavar="N",
                            help="2 is chrF++")
    chrf_group.add_argument("--chrf-beta", type=_number, default=None, metavar="X")
    chrf_group.add_argument("--chrf-whitespace", action="store_true", default=None)
    chrf_group.add_argument("--chrf-lowercase", action="store_true", default=None)
    chrf_group.add_argument("--chrf-eps-smoothing", action="store_true", default=None)
    ter_group = p_score.add_argument_group("TER (default: tercom's, case-insensitive)")
    ter_group.add_argument("--ter-case-sensitive", dest="ter_lowercase", action="store_false", default=None)
    ter_group.add_argument("--ter-normalized", action="store_true", default=None)
    ter_group.add_argument("--ter-no-punct", action="store_true", default=None)
    ter_group.add_argument("--ter-asian-support", action="store_true", default=None)
    meteor_group = p_score.add_argument_group("METEOR (default: stages exact,stem,synonym)")
    meteor_group.add_argument("--meteor-stages", type=_stage_list, default=None, metavar="S1,S2,...",
                              help="e.g. exact,stem where WordNet is missing")
    _add_output_arguments(p_score)


def _metric_args(args: argparse.Namespace, name: str) -> argparse.Namespace:
    """Metric ``name``'s own command-line namespace (its command's defaults), with ``mtlearn score``'s options for it."""
    own = build_parser().parse_args([name, "-r", "-"])
    for dest, (metric, target, _) in _SCORE_OPTIONS.items():
        value = getattr(args, dest)
        if value is not None and metric == name:
            setattr(own, target, value)
    return own


def _jobs(args: argparse.Namespace) -> list[Job]:
    """The metrics a scoring command runs: its own, or (``mtlearn score``) one per ``-m``, in the order given."""
    if args.command != "score":
        return [Job(args.metric, args)]
    names = list(dict.fromkeys(args.metrics or ["bleu"]))
    for dest, (metric, _, flag) in _SCORE_OPTIONS.items():
        if getattr(args, dest) is not None and metric not in names:
            raise CommandLineError(f"{flag} is an option of {metric}, which is not among the metrics (-m "
                                   f"{' '.join(names)})", EXIT_USAGE)
    metrics = {"bleu": Metric("bleu", bleu, corpus_bleu, _bleu_options),
               "chrf": Metric("chrf", chrf, corpus_chrf, _chrf_options),
               "ter": Metric("ter", ter, corpus_ter, _edit_options(ter)),
               "meteor": Metric("meteor", meteor, corpus_meteor, _meteor_options),
               "wer": Metric("wer", wer, corpus_wer, _edit_options(wer)),
               "cer": Metric("cer", cer, corpus_cer, _edit_options(cer))}
    return [Job(metrics[name], _metric_args(args, name)) for name in names]


# ---------------------------------------------------------------------------
# The entry point


def _error(message: object) -> None:
    """``mtlearn: error: <message>`` on standard error, if there is one to write to."""
    try:
        if sys.stderr is not None:  # `2>&-`: print(file=None) would write to standard output
            print(f"mtlearn: error: {message}", file=sys.stderr)
    except (OSError, ValueError):  # `2> /dev/full`: the exit status still tells
        pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    Output is written only when everything succeeded, so an error never leaves a
    half-written standard output (except with ``--sentence-level``, whose lines are
    written as they are scored: an error on a later line stops the output there).
    The errors a user can cause (bad files, bad option values, missing WordNet, a
    closed or full standard output, too little memory, Ctrl-C: status 130) end in one ``mtlearn: error:`` line; anything else is
    a bug and shows its traceback. A reader that stops reading early (``| head``) is
    not an error: the status is 0 whatever the size of the output.

    >>> main(["bleu", "-r", "/nonexistent/ref.txt", "-i", "/nonexistent/hyp.txt"])  # message on stderr
    1
    >>> main(["bleu", "-r", "ref.txt", "--tokenize", "moses"])  # a usage error
    2
    """
    try:
        _interrupt.raise_if_interrupted()  # a Ctrl-C while importing that some import swallowed
        return _main(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        _error("interrupted (Ctrl-C)")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `mtlearn bleu ... --sentence-level | head -1`
        quiet_stdout()
        return 0
    except MemoryError:
        _error("out of memory: the input or the options need more memory than is available")
        return EXIT_INPUT


def _main(argv: list[str]) -> int:
    """:func:`main` without its last resorts (Ctrl-C, a closed pipe, no memory left)."""
    if argv[:1] == ["wordnet"]:
        return _wordnet(argv[1:])
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:  # --help, --version, usage errors: argparse has printed its message
        return int(done.code or 0) if not isinstance(done.code, str) else EXIT_USAGE
    if sys.stdout is None:  # say so before scoring, not after
        _error(STDOUT_CLOSED)
        return EXIT_INPUT
    try:
        chunks = _score_files(args)
    except CommandLineError as error:
        _error(error)
        return error.status
    except WordNetMissingError as error:  # its message says how to install WordNet
        _error(error)
        stages = "--meteor-stages" if args.command == "score" else "--stages"
        print("mtlearn: from the command line: run 'mtlearn wordnet', or leave the synonym stage out "
              f"({stages} exact,stem)", file=sys.stderr)
        return EXIT_INPUT
    except (LookupError, OSError) as error:
        _error(error)
        return EXIT_INPUT
    except (ValueError, TypeError) as error:  # the library rejects an option value; the message names it
        _error(as_option(str(error), args))
        return EXIT_USAGE
    except OverflowError as error:  # a number too large for the computation (the message may not name it)
        _error(as_option(f"a number is too large for the computation ({error}); give smaller values", args))
        return EXIT_USAGE
    try:
        return write_output(chunks)
    except CommandLineError as error:  # standard output closed or full
        _error(error)
        return error.status


def _wordnet(argv: list[str]) -> int:
    """``mtlearn wordnet ...``: the set-up's own command line, its unexpected failures in one line too."""
    from mtlearn.metrics.meteor import wordnet as wordnet_setup

    try:
        with warnings.catch_warnings():  # NLTK's note on reading WordNet 3.0, not a problem of the set-up
            warnings.filterwarnings("ignore", message="The multilingual functions", category=UserWarning)
            return wordnet_setup.main(argv, prog="mtlearn wordnet")
    except OSError as error:  # e.g. a --target that cannot be written to
        where = f" ({error.filename})" if getattr(error, "filename", None) else ""
        _error(f"wordnet: {error.strerror or error}{where}; give a folder you can write to with --target DIR "
               "(e.g. ~/nltk_data, which NLTK searches) or check its permissions")
        return EXIT_INPUT
    except ValueError as error:  # e.g. a target refused for safety; the message says why
        _error(f"wordnet: {error}")
        return EXIT_INPUT


def _score_files(args: argparse.Namespace) -> Iterable[str]:
    """Read the files named in ``args``, score them, and return the output; warnings go to standard error."""
    if args.command == "compare":  # several hypothesis files: read and checked by _compare_inputs
        return _compare(args)
    if args.command == "why":
        return _why(args)
    jobs = _jobs(args)
    systems = args.input or [None]
    check_combination(args, len(systems), len(jobs))
    args.seed = _resolved_seed(args.seed) if args.confidence else None
    if None in systems or "-" in systems:
        if sys.stdin is not None and sys.stdin.isatty():
            print("mtlearn: reading hypotheses from standard input (end with Ctrl-D, or give -i HYP)",
                  file=sys.stderr)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)  # e.g. "weights: they sum to 2, not 1"
        warnings.simplefilter("ignore", AmbiguousLayoutWarning)  # one file per reference stream: the layout is known
        chunks = run(args, jobs, systems)
    for warning in caught:
        print(f"mtlearn: warning: {warning.message}", file=sys.stderr)
    return chunks


if __name__ == "__main__":
    sys.exit(main())

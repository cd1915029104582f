"""The ``mtlearn`` command line: BLEU, METEOR, chrF, TER, WER, CER of text files, with the derivation on demand.

::

    mtlearn bleu   -r REF [REF ...] [-i HYP] [options]
    mtlearn meteor -r REF [REF ...] [-i HYP] [options]
    mtlearn chrf   -r REF [REF ...] [-i HYP] [--plus] [options]   # chrF2, chrF2++
    mtlearn ter    -r REF [REF ...] [-i HYP] [options]
    mtlearn wer    -r REF [REF ...] [-i HYP] [options]            # also: mtlearn cer
    mtlearn wordnet [--check]           # make WordNet available for METEOR's synonym stage
    mtlearn compare -r REF [REF ...] -i BASELINE SYS2 [SYS3 ...] [--metric bleu|chrf|meteor|ter] --paired-bs|--paired-ar
    mtlearn why bleu|meteor -r REF [REF ...] [-i HYP] [--profiles A,B,...] [--walk A B]  # why libraries disagree

Files follow sacreBLEU's conventions: UTF-8, one segment a line, all files
line-aligned; several ``-r`` files give several references for every segment;
the hypotheses come from standard input when ``-i`` is absent. Trailing white
space of every line is dropped, as sacreBLEU does.

BLEU's *command-line* defaults are sacreBLEU's (``--tokenize 13a --smoothing
exp``), so that a number printed here can be put next to a published sacreBLEU
number; the library's own defaults (``whitespace``, no smoothing) are unchanged.
As in sacreBLEU, one segment's BLEU (``--segment``, ``--sentence-level``) uses
effective order unless ``--no-effective-order`` is given.
chrF's and TER's defaults are the library's, which are sacreBLEU's; their
options also answer to sacreBLEU's names (``--chrf-word-order``, ``-cw``,
``--ter-case-sensitive`` ...), so a sacreBLEU command line carries over.

The output is a readable score line with the signature, ``--json`` the result's
``to_dict()`` (scores on the 0-1 scale) and ``--explain`` its step-by-step
derivation. Every problem with the input ends in one message on standard error
starting ``mtlearn: error:``, nothing on standard output, and exit status 1
(bad input data, missing WordNet) or 2 (a wrong command line).

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
  "score": 0.997685185185185...,
  ...
0
>>> main(["chrf", "-r", str(folder / "ref.txt"), "-i", str(folder / "hyp.txt"), "--plus"])  # doctest: +ELLIPSIS
chrF2++ = 1.0000 (P = 1.0000 R = 1.0000 char_order = 6 word_order = 2 beta = 2)  mtlearn-chrf|nrefs:1|...
0
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import argparse
import errno
import inspect
import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import IO, Any, NoReturn, Optional, Union

from mtlearn._version import __version__
from mtlearn.metrics.bleu.score import BleuResult, bleu, corpus_bleu
from mtlearn.metrics.bleu.smoothing import SMOOTH_DEFAULTS, SMOOTHING_METHODS
from mtlearn.metrics.chrf.score import REFERENCE_TIES, ChrfResult, chrf, corpus_chrf
from mtlearn.metrics.meteor.alignment import TIE_BREAKS
from mtlearn.metrics.meteor.score import MeteorResult, corpus_meteor, meteor
from mtlearn.metrics.ter.score import TerResult, cer, corpus_cer, corpus_ter, corpus_wer, ter, wer
from mtlearn.text import TOKENIZERS, plural
from mtlearn.ngrams import orders_text
from mtlearn.references import AmbiguousLayoutWarning
from mtlearn.metrics.meteor.wordnet import WordNetMissingError

__all__ = ["CommandLineError", "Corpus", "build_parser", "load_corpus", "main", "read_lines", "read_segments"]

STDIN_NAME = "<stdin>"

Result = Union[BleuResult, MeteorResult, ChrfResult, TerResult]

#: Exit statuses: the input data is wrong (or WordNet is missing) / the command line is wrong.
EXIT_INPUT = 1
EXIT_USAGE = 2
#: ... stopped by Ctrl-C (128 + SIGINT, the shell's convention).
EXIT_INTERRUPTED = 130


class CommandLineError(Exception):
    """A problem the user can fix, reported as ``mtlearn: error: <message>`` with exit ``status``.

    >>> error = CommandLineError("ref.txt: no such file", EXIT_INPUT)
    >>> str(error), error.status
    ('ref.txt: no such file', 1)
    """

    def __init__(self, message: str, status: int = EXIT_INPUT) -> None:
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------------------
# Reading the files


def read_lines(data: bytes, name: str) -> list[str]:
    """Split ``data`` (the bytes of file ``name``) into lines, sacreBLEU's way.

    Lines end at ``\\n`` only (other Unicode line separators stay inside a
    segment, as in sacreBLEU); trailing white space (also ``\\r``) is dropped; a
    last line without ``\\n`` still counts; a leading UTF-8 byte-order mark is
    ignored. Bad UTF-8 is reported with the file name and the line number.

    >>> read_lines(b"the cat \\r\\nsat\\n\\non the mat", "hyp.txt")
    ['the cat', 'sat', '', 'on the mat']
    >>> read_lines(b"", "hyp.txt")
    []
    >>> read_lines(b"ok\\nbad \\xff here\\n", "hyp.txt")
    Traceback (most recent call last):
    ...
    mtlearn.cli.CommandLineError: hyp.txt, line 2: not valid UTF-8 (byte 0xff at byte 5 of the line); save the file as UTF-8
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        line_number = data.count(b"\n", 0, error.start) + 1
        bad = data[error.start:error.end]
        raise CommandLineError(
            f"{name}, line {line_number}: not valid UTF-8 (byte {'0x%02x' % bad[0] if bad else '?'} "
            f"at byte {error.start - line_start + 1} of the line); save the file as UTF-8"
        ) from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it does not start a new one
    return [line.rstrip() for line in lines]


def read_segments(path: Optional[str], stdin: Optional[IO[bytes]] = None) -> tuple[str, list[str]]:
    """Read file ``path`` (standard input for ``None`` or ``"-"``): its display name and its lines.

    >>> read_segments("/nonexistent/ref.txt")
    Traceback (most recent call last):
    ...
    mtlearn.cli.CommandLineError: /nonexistent/ref.txt: cannot read it: No such file or directory
    """
    if path is None or path == "-":
        if stdin is None and sys.stdin is None:  # `<&-`
            raise CommandLineError("standard input is closed: name the file instead of '-' (e.g. -i HYP)")
        stream = stdin if stdin is not None else sys.stdin.buffer
        try:
            return STDIN_NAME, read_lines(_read_all(stream.read, "standard input"), STDIN_NAME)
        except OSError as error:  # `< /`: a folder
            raise CommandLineError(f"standard input: cannot read it: {error.strerror or error}") from None
    try:
        with open(path, "rb") as handle:
            data = _read_all(handle.read, path)
    except OSError as error:
        raise CommandLineError(f"{path}: cannot read it: {error.strerror or error}") from None
    return path, read_lines(data, path)


def _read_all(read: Callable[[], bytes], name: str) -> bytes:
    """``read()``, with running out of memory (``-r /dev/zero``, a file larger than the memory) said in one line."""
    try:
        return read()
    except MemoryError:
        raise CommandLineError(f"{name}: too large to read into the memory available") from None


@dataclass(frozen=True)
class Corpus:
    """Hypotheses and references read from files: ``references[i]`` lists the references of ``hypotheses[i]``.

    >>> corpus = Corpus(("a b", "c"), (("a b", "a c"), ("c", "d")), "hyp.txt", ("r1.txt", "r2.txt"))
    >>> len(corpus), corpus.references[1]
    (2, ('c', 'd'))
    """

    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    hypothesis_file: str
    reference_files: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.hypotheses)


def load_corpus(reference_paths: Sequence[str], hypothesis_path: Optional[str],
                stdin: Optional[IO[bytes]] = None) -> Corpus:
    """Read and line-align the reference files and the hypotheses; every mismatch is a :class:`CommandLineError`.

    >>> load_corpus(["/nonexistent/ref.txt"], "/nonexistent/hyp.txt")
    Traceback (most recent call last):
    ...
    mtlearn.cli.CommandLineError: /nonexistent/ref.txt: cannot read it: No such file or directory
    """
    if list(reference_paths).count("-") + (hypothesis_path in (None, "-")) > 1:
        raise CommandLineError("standard input ('-') can be read only once; give the other files by name",
                               EXIT_USAGE)
    references = [read_segments(path, stdin) for path in reference_paths]
    hyp_name, hypotheses = read_segments(hypothesis_path, stdin)
    if not hypotheses:
        where = "standard input" if hyp_name == STDIN_NAME else hyp_name
        raise CommandLineError(f"{where} is empty: no hypotheses to score"
                               + (" (give them on standard input or with -i HYP)" if hyp_name == STDIN_NAME else ""))
    for name, lines in references:
        if not lines:
            raise CommandLineError(f"{name} is empty: no references")
    for name, lines in references:
        if len(lines) != len(hypotheses):
            raise CommandLineError(
                f"{name} has {plural(len(lines), 'line')} but {hyp_name} has {len(hypotheses)}; "
                "the files must be line-aligned (one segment a line)"
            )
    return Corpus(
        hypotheses=tuple(hypotheses),
        references=tuple(zip(*(lines for _, lines in references))),
        hypothesis_file=hyp_name,
        reference_files=tuple(name for name, _ in references),
    )


# ---------------------------------------------------------------------------
# Parsing the command line


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one ``mtlearn: error:`` message (exit 2), like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"mtlearn: error: {message}\n(see '{self.prog} --help')\n")


def _library_default(function: Callable[..., object], name: str) -> object:
    """The default of keyword ``name`` of ``function``, so that the help never disagrees with the library."""
    return inspect.signature(function).parameters[name].default


def _number(text: str) -> float:
    """A number given as a decimal or a fraction: ``0.25`` or ``1/4``."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (write e.g. 0.25 or 1/4)") from None
    return float(value)


def _segment_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is out of range; segments are numbered from 1")
    return value


def _order(text: str) -> int:
    """An n-gram order: a whole number, 0 or more (0 leaves that kind of n-gram out)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; an order is 0 or more") from None
    return value


def _max_order(text: str) -> int:
    """BLEU's longest order: a whole number (the library checks that it is 1 or more) that Python can index with."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value > sys.maxsize:
        raise argparse.ArgumentTypeError(f"{value} is too large; an order is at most {sys.maxsize}")
    return value


def _stage_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _add_io_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("input (UTF-8 text, one segment a line, all files line-aligned)")
    group.add_argument("-r", "--references", "--refs", nargs="+", required=True, metavar="REF",
                       help="reference file(s); several files give several references per segment")
    group.add_argument("-i", "--input", metavar="HYP", default=None,
                       help="hypothesis file (default: standard input; '-' also means standard input)")


def _add_output_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_argument_group("what to score").add_mutually_exclusive_group()
    which.add_argument("--segment", type=_segment_number, metavar="N", default=None,
                       help="score only segment N (1-based line number)")
    which.add_argument("--sentence-level", "-sl", action="store_true",
                       help="score every segment on its own: one score a line")
    how = parser.add_argument_group("output").add_mutually_exclusive_group()
    how.add_argument("--json", action="store_true",
                     help="print the result's to_dict() as JSON (scores on the 0-1 scale); "
                          "with --sentence-level one JSON object a line")
    how.add_argument("--explain", action="store_true",
                     help="print the step-by-step derivation with the numbers substituted")


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
    """The ``mtlearn`` argument parser with its ``bleu``, ``meteor``, ``chrf``, ``ter``, ``wer``, ``cer`` and
    ``wordnet`` subcommands.

    >>> args = build_parser().parse_args(["bleu", "-r", "ref.txt"])
    >>> args.tokenize, args.smoothing, args.input, args.references
    ('13a', 'exp', None, ['ref.txt'])
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
        epilog="Run 'mtlearn METRIC --help' (e.g. 'mtlearn chrf --help') for the options of each metric. "
               "Exit status: 0 ok, 1 bad input data (or WordNet missing), 2 wrong command line.",
    )
    parser.add_argument("--version", action="version", version=f"mtlearn {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="{bleu,meteor,chrf,ter,wer,cer,compare,why,wordnet}",
                                     required=True, parser_class=_Parser)
    _add_bleu_command(commands)
    _add_meteor_command(commands)
    _add_chrf_command(commands)
    _add_ter_command(commands)
    for name in ("wer", "cer"):
        _add_error_rate_command(commands, name)
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
        description="Corpus BLEU of the hypotheses against the references (or one segment's BLEU). "
                    "The defaults are sacreBLEU's command-line defaults (--tokenize 13a --smoothing exp, "
                    "case-sensitive), so the number matches sacreBLEU's; note that they differ from the "
                    "defaults of the Python function mtlearn.bleu (whitespace tokens, no smoothing).",
        epilog="Example: mtlearn bleu -r newstest.ref.en -i system.en   (or: cat system.en | mtlearn bleu -r "
               "newstest.ref.en). Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_io_arguments(p_bleu)
    settings = p_bleu.add_argument_group("BLEU settings")
    settings.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default="13a",
                          help="tokenizer (default: %(default)s, as sacreBLEU); 'whitespace' and 'none' only split "
                               "on spaces (for text tokenized beforehand), 'intl', 'zh', 'char' are "
                               "sacreBLEU's")
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
    p_bleu.set_defaults(metric=_Metric(bleu, corpus_bleu, _bleu_options, _bleu_line))


def _add_meteor_command(commands: Any) -> None:
    p_meteor = commands.add_parser(
        "meteor", help="METEOR (exact, stem and synonym stages)",
        description="Corpus METEOR of the hypotheses against the references (or one segment's METEOR). "
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
    p_meteor.set_defaults(metric=_Metric(meteor, corpus_meteor, _meteor_options, _meteor_line))


def _add_chrf_command(commands: Any) -> None:
    p_chrf = commands.add_parser(
        "chrf", help="chrF and chrF++ (sacreBLEU's defaults)",
        description="Corpus chrF of the hypotheses against the references (or one segment's chrF): the F-score "
                    "of character n-grams (and, for chrF++, word n-grams), averaged over the orders. The "
                    "defaults are those of the Python function mtlearn.chrf, which are sacreBLEU's (chrF2: "
                    "character orders 1-6, no word orders, beta 2, case-sensitive, spaces removed). Scores are on "
                    "mtlearn's 0-1 scale: sacreBLEU's number / 100. The options also have sacreBLEU's names "
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
    p_chrf.set_defaults(metric=_Metric(chrf, corpus_chrf, _chrf_options, _chrf_line))


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
                    "are on mtlearn's 0-1 scale (sacreBLEU's number / 100) and can exceed 1. The options also "
                    "have sacreBLEU's names (--ter-case-sensitive, --ter-normalized, ...).",
        epilog="Example: mtlearn ter -r ref.en -i system.en --segment 7 --explain   (the edit script of line 7). "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_edit_arguments(p_ter, ter, "TER", sacrebleu_names=True)
    p_ter.set_defaults(metric=_Metric(ter, corpus_ter, _edit_options(ter), _edit_line))


def _add_error_rate_command(commands: Any, name: str) -> None:
    unit = "word" if name == "wer" else "character"
    one, many = (wer, corpus_wer) if name == "wer" else (cer, corpus_cer)
    parser = commands.add_parser(
        name, help=f"{name.upper()}, {unit} error rate (Levenshtein distance, no shifts)",
        description=f"Corpus {name.upper()} of the hypotheses against the references (or one segment's): the "
                    f"fewest {unit} insertions, deletions and substitutions divided by the reference length, "
                    "that is TER without shifts. The defaults are those of the Python function "
                    f"mtlearn.{name}. Scores on the 0-1 scale; they can exceed 1.",
        epilog=f"Example: mtlearn {name} -r ref.txt -i hyp.txt --sentence-level. "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    _add_edit_arguments(parser, one, name.upper(), sacrebleu_names=False)
    parser.set_defaults(metric=_Metric(one, many, _edit_options(one), _edit_line))


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


def _seed(text: str) -> Optional[int]:
    """A seed: a whole number >= 0, or 'none' for fresh randomness (sacreBLEU's SACREBLEU_SEED=none)."""
    if text.strip().lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (or 'none')") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; a seed is 0 or more") from None
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is out of range; give 1 or more") from None
    return value


def _add_compare_command(commands: Any) -> None:
    p_compare = commands.add_parser(
        "compare", help="paired significance tests between a baseline and other systems (sacreBLEU's)",
        description="Is each system's score different from the baseline's by more than chance? sacreBLEU's "
                    "paired bootstrap resampling (--paired-bs, 1000 samples) or paired approximate randomization "
                    "(--paired-ar, 10000 trials), on mtlearn's BLEU, chrF, METEOR or TER, with sacreBLEU's seed "
                    "(12345): the p-values are sacreBLEU's. The first -i file is the baseline. Each row gives the "
                    "score (BLEU on the 0-100 scale as 'mtlearn bleu', chrF, METEOR and TER on the 0-1 scale), for "
                    "the bootstrap the mean and the half-width of the 95% interval over the samples, and the "
                    "p-value, marked * when p <= 0.05. Options not given take the defaults of 'mtlearn bleu', "
                    "'mtlearn chrf' or 'mtlearn meteor'.",
        epilog="Example: mtlearn compare -r ref.en -i baseline.en system2.en system3.en --metric chrf --paired-bs. "
               "Exit status: 0 ok, 1 bad input data, 2 wrong command line.",
    )
    group = p_compare.add_argument_group("input (UTF-8 text, one segment a line, all files line-aligned)")
    group.add_argument("-r", "--references", "--refs", nargs="+", required=True, metavar="REF",
                       help="reference file(s); several files give several references per segment")
    group.add_argument("-i", "--input", nargs="+", required=True, metavar="SYS",
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
    settings.add_argument("--seed", type=_seed, default=12345, metavar="N",
                          help="the random generator's seed, 'none' for fresh randomness (default: %(default)s, "
                               "sacreBLEU's)")
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
    out.add_argument("--json", action="store_true", help="print the result's to_dict() as JSON (0-1 scale)")
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
                             n_samples=args.paired_bs_n if test == "bs" else args.paired_ar_n, seed=args.seed,
                             progress=progress if show else None, **options)
    for warning in caught:
        print(f"mtlearn: warning: {warning.message}", file=sys.stderr)
    if args.json:
        return [json.dumps(result.to_dict(), indent=2, ensure_ascii=False)]
    return [result.explain(), f"signature: {result.signature}"]


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
# Running a metric


@dataclass(frozen=True)
class _Metric:
    """How one subcommand scores: one segment, a corpus, the library options from the command line, a score line."""

    segment: Callable[..., Result]
    corpus: Callable[..., Result]
    options: Callable[[argparse.Namespace, bool], dict[str, object]]  # (args, one_segment) -> keyword arguments
    line: Callable[[Any], str]


def _run(args: argparse.Namespace, corpus: Corpus) -> Iterable[str]:
    """Score ``corpus`` with the subcommand's metric: the corpus, one segment, or every segment."""
    metric: _Metric = args.metric
    if args.segment is not None or args.sentence_level:
        options = metric.options(args, True)
        return _render_segments(args, corpus, lambda hyp, refs: metric.segment(hyp, list(refs), **options),
                                metric.line)
    result = metric.corpus(list(corpus.hypotheses), [list(refs) for refs in corpus.references],
                           **metric.options(args, False))
    return [_render(args, result, metric.line)]


def _bleu_options(args: argparse.Namespace, one_segment: bool) -> dict[str, object]:
    effective = args.effective_order if args.effective_order is not None else one_segment
    return dict(max_order=args.max_order, weights=args.weights, smoothing=args.smoothing,
                smooth_value=args.smooth_value, tokenize=args.tokenize, lowercase=args.lowercase,
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


def _render_segments(args: argparse.Namespace, corpus: Corpus, score: Callable[[str, Sequence[str]], Result],
                     line: Callable[[Result], str]) -> Iterable[str]:
    if args.segment is not None:
        if args.segment > len(corpus):
            raise CommandLineError(
                f"--segment {args.segment} is out of range: {corpus.hypothesis_file} has "
                f"{plural(len(corpus), 'segment')} (numbered 1..{len(corpus)})",
                EXIT_USAGE,
            )
        i = args.segment - 1
        return [_render(args, score(corpus.hypotheses[i], corpus.references[i]), line)]
    return _SentenceLevel(args, corpus, score, line)


class _SentenceLevel:
    """``--sentence-level``: every segment's output, each computed when it is written.

    Nothing is kept from one segment to the next, so memory does not grow with the
    number of lines (a 1M-line BLEU run built every result first: 5.2 GB). The first
    segment is scored at once, so that a bad option is the usual error before anything
    is written; a later segment's error ends the output there with its line number, as
    a :class:`CommandLineError`. A warning is said once, not once a line.
    """

    def __init__(self, args: argparse.Namespace, corpus: Corpus, score: Callable[[str, Sequence[str]], Result],
                 line: Callable[[Result], str]) -> None:
        self.args, self.corpus, self.score, self.line = args, corpus, score, line
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            self.first = self._render(1, score(corpus.hypotheses[0], corpus.references[0]))
        self.said = {str(w.message) for w in caught}
        for w in caught:  # said by _score_files, with the other warnings of the run
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)

    def _render(self, number: int, result: Result) -> str:
        if self.args.json:
            return json.dumps(result.to_dict(), ensure_ascii=False)  # JSON Lines
        if self.args.explain:
            return f"--- segment {number} ---\n{result.explain().rstrip()}\n"
        return self.line(result)

    def __iter__(self) -> Iterator[str]:
        yield self.first
        self.first = ""  # the lines written are not kept
        corpus = self.corpus
        with warnings.catch_warnings(record=True) as caught:  # one for all lines: it costs a little each time
            warnings.simplefilter("always", UserWarning)
            for number in range(2, len(corpus) + 1):
                try:
                    text = self._render(number, self.score(corpus.hypotheses[number - 1],
                                                           corpus.references[number - 1]))
                except (LookupError, OSError, ValueError, TypeError, OverflowError) as error:
                    raise CommandLineError(f"{corpus.hypothesis_file}, line {number}: "
                                           f"{_as_option(str(error), self.args)}") from None
                if caught:
                    self._say(caught)
                    caught.clear()
                yield text

    def _say(self, caught: list[warnings.WarningMessage]) -> None:
        for w in caught:
            message = str(w.message)
            if message not in self.said and sys.stderr is not None:
                print(f"mtlearn: warning: {message}", file=sys.stderr)
            self.said.add(message)


def _render(args: argparse.Namespace, result: Result, line: Callable[[Result], str]) -> str:
    if args.json:
        return json.dumps(result.to_dict(), indent=2, ensure_ascii=False)
    if args.explain:
        return result.explain().rstrip("\n")
    return line(result)


def _bleu_line(result: BleuResult) -> str:
    """sacreBLEU's text format (0-100 scale), then the signature.

    Document 002's example C: p_1 = p_2 = 1, but BP = exp(1 - 6/2) = 0.14.

    >>> _bleu_line(bleu("A B", ["A B C D E F"], max_order=2))  # doctest: +ELLIPSIS
    'BLEU = 13.53 100.0/100.0 (BP = 0.135 ratio = 0.333 hyp_len = 2 ref_len = 6)  mtlearn-bleu|nrefs:1|case:mixed|eff:no|tok:whitespace|smooth:none|order:2|weights:uniform|version:...'
    """
    precisions = orders_text(result.precisions, lambda p: f"{100 * p:.1f}")  # a huge max_order: said once
    return (f"BLEU = {100 * result.score:.2f} {precisions} (BP = {result.brevity_penalty:.3f} "
            f"ratio = {result.ratio:.3f} hyp_len = {result.candidate_length} "
            f"ref_len = {result.reference_length})  {result.signature}")


def _meteor_line(result: MeteorResult) -> str:
    """The score (0-1 scale, as METEOR reports it) with P, R, F_mean, chunks and penalty, then the signature.

    >>> _meteor_line(meteor("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"]))  # doctest: +ELLIPSIS
    'METEOR = 0.5000 (P = 1.0000 R = 1.0000 F_mean = 1.0000 chunks = 6 matches = 6 penalty = 0.5000 hyp_len = 6 ref_len = 6)  mtlearn-meteor|stages:exact|alpha:0.9|beta:3|gamma:0.5|tie:crossings|case:lc|tok:whitespace|nrefs:1|version:...'
    """
    return (f"METEOR = {result.score:.4f} (P = {float(result.precision):.4f} R = {float(result.recall):.4f} "
            f"F_mean = {float(result.f_mean):.4f} chunks = {result.chunks} matches = {result.matches} "
            f"penalty = {float(result.penalty):.4f} hyp_len = {result.candidate_length} "
            f"ref_len = {result.reference_length})"
            + ("" if result.optimal else " [alignment search stopped early: not proven optimal]")
            + f"  {result.signature}")


def _chrf_line(result: ChrfResult) -> str:
    """sacreBLEU's name (chrF2, chrF2++), the score on the 0-1 scale, the averaged P and R, the orders, the signature.

    >>> _chrf_line(chrf("the cat sat", ["the cat sat"]))  # doctest: +ELLIPSIS
    'chrF2 = 1.0000 (P = 1.0000 R = 1.0000 char_order = 6 word_order = 0 beta = 2)  ...'
    """
    name = f"chrF{result.beta:g}" + "+" * result.word_order
    return (f"{name} = {result.score:.4f} (P = {float(result.precision):.4f} R = {float(result.recall):.4f} "
            f"char_order = {result.char_order} word_order = {result.word_order} beta = {result.beta:g})"
            + _reason(result) + f"  {result.signature}")


def _edit_line(result: TerResult) -> str:
    """TER (or WER, CER) on the 0-1 scale, the edits (for a segment: of each kind), the reference length, the signature.

    >>> _edit_line(ter("d a b c", ["a b c d"]))  # doctest: +ELLIPSIS
    'TER = 0.2500 (edits = 1 shifts = 1 ins = 0 del = 0 sub = 0 ref_len = 4.00)  mtlearn-ter|nrefs:1|...'
    >>> _edit_line(corpus_wer(["d a b c", "a b"], [["a b c d"], ["a b"]]))  # doctest: +ELLIPSIS
    'WER = 0.3333 (edits = 2 ref_len = 6.00)  mtlearn-wer|nrefs:1|...'
    """
    kinds = ""
    if not result.is_corpus:  # a corpus's kinds would need every segment's edit script: not worth the time
        counts = result.counts()
        kinds = (f" shifts = {counts['shift']}" if result.metric == "ter" else "") + \
            f" ins = {counts['insert']} del = {counts['delete']} sub = {counts['substitute']}"
    return (f"{result.metric.upper()} = {result.score:.4f} (edits = {result.num_edits:g}{kinds} "
            f"ref_len = {result.reference_length:.2f})" + _reason(result) + f"  {result.signature}")


def _reason(result: Union[ChrfResult, TerResult]) -> str:
    return f" [{result.reason}]" if result.reason else ""


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
        return _main(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        _error("interrupted (Ctrl-C)")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `mtlearn bleu ... --sentence-level | head -1`
        _quiet_stdout()
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
        _error(_STDOUT_CLOSED)
        return EXIT_INPUT
    try:
        chunks = _score_files(args)
    except CommandLineError as error:
        _error(error)
        return error.status
    except WordNetMissingError as error:  # its message says how to install WordNet
        _error(error)
        print("mtlearn: from the command line: run 'mtlearn wordnet', or leave the synonym stage out "
              "(--stages exact,stem)", file=sys.stderr)
        return EXIT_INPUT
    except (LookupError, OSError) as error:
        _error(error)
        return EXIT_INPUT
    except (ValueError, TypeError) as error:  # the library rejects an option value; the message names it
        _error(_as_option(str(error), args))
        return EXIT_USAGE
    except OverflowError as error:  # a number too large for the computation (the message may not name it)
        _error(_as_option(f"a number is too large for the computation ({error}); give smaller values", args))
        return EXIT_USAGE
    try:
        return _write(chunks)
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
    if (args.input is None or args.input == "-") and sys.stdin is not None and sys.stdin.isatty():
        print("mtlearn: reading hypotheses from standard input (end with Ctrl-D, or give -i HYP)",
              file=sys.stderr)
    corpus = load_corpus(args.references, args.input)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)  # e.g. "weights: they sum to 2, not 1"
        warnings.simplefilter("ignore", AmbiguousLayoutWarning)  # one file per reference stream: the layout is known
        chunks = _run(args, corpus)
    for warning in caught:
        print(f"mtlearn: warning: {warning.message}", file=sys.stderr)
    return chunks


def _as_option(message: str, args: argparse.Namespace) -> str:
    """A library message starting with a keyword the command line sets, spelled as the option the user typed.

    >>> _as_option("char_order: must be 1 or more", argparse.Namespace(char_order=0))
    '--char-order: must be 1 or more'
    >>> _as_option("candidates: 3 lines", argparse.Namespace(char_order=0))
    'candidates: 3 lines'
    """
    match = re.match(r"[a-z_]+", message)
    if match and match.group() in vars(args) and match.group() not in ("references", "metric", "command"):
        return "--" + match.group().replace("_", "-") + message[match.end():]
    return message


def _write(chunks: Iterable[str]) -> int:
    """Write each chunk and a newline to standard output (see :func:`_write_pieces`); return 0."""
    _write_pieces(chunk + "\n" for chunk in chunks)
    return 0


_STDOUT_CLOSED = ("standard output is closed (`>&-`); send the output to a file (`> out.txt`) "
                  "or discard it (`> /dev/null`)")


def _write_pieces(pieces: Iterable[str], stream: Optional[IO[str]] = None) -> None:
    """Write ``pieces`` to ``stream`` (default standard output) and flush; each failure a :class:`CommandLineError`.

    Characters that the stream's encoding cannot represent (``PYTHONIOENCODING=ascii``)
    are written as JSON's ``\\uXXXX`` escapes, so that ``--json`` stays valid JSON,
    with one warning on standard error. A full or closed output is an error; a reader
    that went away raises ``BrokenPipeError``, which :func:`main` turns into status 0.

    >>> import io
    >>> out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    >>> _write_pieces(['{"word": "café"}\\n'], out)  # and a warning on standard error
    >>> out.buffer.getvalue()
    b'{"word": "caf\\\\u00e9"}\\n'
    >>> json.loads(out.buffer.getvalue())
    {'word': 'café'}
    """
    stream = sys.stdout if stream is None else stream
    if stream is None:
        raise CommandLineError(_STDOUT_CLOSED)
    try:
        writer = _Writer(stream)
        for piece in pieces:
            writer.write(piece)
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as error:  # `> /dev/full`, a full disk
        _quiet(stream)
        raise CommandLineError(f"cannot write the output: {error.strerror or error}") from None
    except ValueError as error:  # "I/O operation on closed file"
        raise CommandLineError(f"cannot write the output: {error}") from None


class _Writer:
    """Text to ``stream``'s bytes in its encoding, what it lacks as ``\\uXXXX`` (said once), short writes retried."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.buffer: Optional[IO[bytes]] = getattr(stream, "buffer", None)
        self.encoding = getattr(stream, "encoding", None) or "utf-8"
        self.errors = getattr(stream, "errors", None) or "strict"
        self.warned = False
        stream.flush()  # what was printed before goes first

    def write(self, text: str) -> None:
        if self.buffer is None:  # io.StringIO, doctest's output: text all the way
            self.stream.write(text)
            return
        try:
            data = text.encode(self.encoding, self.errors)  # the user's own choice, e.g. ascii:replace
        except UnicodeEncodeError:
            data = _escape_unencodable(text, self.encoding).encode(self.encoding)
            self._warn()
        view = memoryview(data)
        while view:  # a buffered write can be short when the reader goes away: the next one then fails
            written = self.buffer.write(view)
            if not written:
                raise OSError(errno.EIO, "standard output accepts no more data")
            view = view[written:]

    def _warn(self) -> None:
        if not self.warned and sys.stderr is not None:
            print(f"mtlearn: warning: the output's encoding ({self.encoding}) cannot represent some characters; "
                  "they are written as \\uXXXX escapes (set PYTHONIOENCODING=utf-8 to have them as they are)",
                  file=sys.stderr)
        self.warned = True


def _escape_unencodable(text: str, encoding: str) -> str:
    r"""``text`` with each character ``encoding`` lacks written as JSON writes it (``\u00e9``; a pair beyond U+FFFF).

    >>> print(_escape_unencodable("café 😀", "ascii"))
    caf\u00e9 \ud83d\ude00
    """
    out = []
    for char in text:
        try:
            char.encode(encoding)
            out.append(char)
        except UnicodeEncodeError:
            out.append(json.dumps(char)[1:-1])
    return "".join(out)


def _quiet(stream: Optional[IO[str]]) -> None:
    """Point ``stream``'s file descriptor at os.devnull, so that Python's last flush at exit says nothing."""
    try:
        fd = stream.fileno()  # type: ignore[union-attr]
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # no descriptor (io.StringIO) or already gone
        pass


def _quiet_stdout() -> None:
    _quiet(sys.stdout)


if __name__ == "__main__":
    sys.exit(main())

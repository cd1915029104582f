"""The ``mtlearn`` command line (parser, dispatch, :func:`main`): BLEU, METEOR, chrF, TER, WER, CER of text
files, with the derivation on demand.

::

    mtlearn bleu   -r REF [REF ...] [-i HYP [HYP ...]] [options]
    mtlearn meteor -r REF [REF ...] [-i HYP [HYP ...]] [options]
    mtlearn chrf   -r REF [REF ...] [-i HYP [HYP ...]] [--plus] [options]   # chrF2, chrF2++
    mtlearn ter    -r REF [REF ...] [-i HYP [HYP ...]] [options]
    mtlearn wer    -r REF [REF ...] [-i HYP [HYP ...]] [options]            # also: mtlearn cer
    mtlearn bertscore -r REF [REF ...] [-i HYP [HYP ...]] [--layer N] [--idf]   # needs mtlearn-course[neural]
    mtlearn score  -r REF [REF ...] -i SYS [SYS ...] -m bleu chrf ter ...   # one table, sacreBLEU's -m
    mtlearn wordnet [--check]           # make WordNet available for METEOR's synonym stage
    mtlearn compare -r REF [REF ...] -i BASELINE SYS2 [SYS3 ...] [--metric bleu|chrf|meteor|ter]
                    --paired-bs|--paired-ar             # sacreBLEU's paired significance tests
    mtlearn why bleu|meteor -r REF [REF ...] [-i HYP] [--profiles A,B,...] [--walk A B]  # libraries disagree

Files follow sacreBLEU's conventions: UTF-8, one segment a line, all files
line-aligned; several ``-r`` files give several references for every segment;
the hypotheses come from standard input when ``-i`` is absent. Trailing white
space of every line is dropped, as sacreBLEU does.

**One scale.** Every command prints scores on sacreBLEU's 0-100 scale
(``BLEU = 25.03``, ``chrF2 = 49.58``, ``TER = 58.25``, ``METEOR = 27.10``), in text,
tables, JSON and sentence-level output alike; ``--scale 1`` prints mtlearn's library
scale (0.2503) instead. JSON says which in its ``"scale"`` field; ``--explain`` derives
the score in mtlearn's exact 0-1 terms and ends with the scaled score (see
:mod:`mtlearn.tools.cli.format`). ``mtlearn why`` shows both scales side by side, as it
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
>>> main(["chrf", "-r", str(folder / "ref.txt"), "-i", str(folder / "hyp.txt"), "--plus",
...       "--scale", "1"])  # doctest: +ELLIPSIS
chrF2++ = 1.0000 (P = 1.0000 R = 1.0000 char_order = 6 word_order = 2 beta = 2)  mtlearn-chrf|nrefs:1|...
0
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Iterable, Sequence
from typing import Optional

from mtlearn.core.references import AmbiguousLayoutWarning
from mtlearn.metrics.meteor.wordnet import WordNetMissingError
from mtlearn.tools.cli import bertscore, bleu, chrf, compare, interrupt, meteor, score, ter, why, wordnet
from mtlearn.tools.cli.arguments import Parser
from mtlearn.tools.cli.io import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    STDOUT_CLOSED,
    CommandLineError,
    print_error,
    quiet_stdout,
    write_output,
)
from mtlearn.tools.cli.run import as_option, check_combination, run
from mtlearn.tools.cli.values import resolved_seed
from mtlearn.version import __version__

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``mtlearn`` argument parser with its ``bleu``, ``meteor``, ``chrf``, ``ter``, ``wer``, ``cer``,
    ``bertscore``, ``score``, ``compare``, ``why`` and ``wordnet`` subcommands.

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
    parser = Parser(
        prog="mtlearn",
        description="BLEU, METEOR, chrF, TER, WER, CER and BERTScore of plain-text files, "
                    "computed step by step.",
        epilog="Scores are on sacreBLEU's 0-100 scale in every command (--scale 1: mtlearn's 0-1). "
               "Run 'mtlearn METRIC --help' (e.g. 'mtlearn chrf --help') for the options of each metric. "
               "Exit status: 0 ok, 1 bad input data (or WordNet missing), 2 wrong command line.",
    )
    parser.add_argument("--version", action="version", version=f"mtlearn {__version__}")
    commands = parser.add_subparsers(dest="command",
                                     metavar="{bleu,meteor,chrf,ter,wer,cer,bertscore,score,compare,why,wordnet}",
                                     required=True, parser_class=Parser)
    bleu.add_command(commands)
    meteor.add_command(commands)
    chrf.add_command(commands)
    ter.add_commands(commands)  # ter, wer, cer
    bertscore.add_command(commands)
    score.add_command(commands)
    compare.add_command(commands)
    why.add_command(commands)
    commands.add_parser(
        "wordnet", add_help=False,
        help="make WordNet available to NLTK for METEOR's synonym stage, also offline "
             "('mtlearn wordnet --help' for its options)",
    )
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    Output is written only when everything succeeded, so an error never leaves a
    half-written standard output (except with ``--sentence-level``, whose lines are
    written as they are scored: an error on a later line stops the output there).
    The errors a user can cause (bad files, bad option values, missing WordNet, a
    closed or full standard output, too little memory, Ctrl-C: status 130) end in one
    ``mtlearn: error:`` line; anything else is a bug and shows its traceback. A reader that
    stops reading early (``| head``) is not an error: the status is 0 whatever the size of
    the output.

    >>> main(["bleu", "-r", "/nonexistent/ref.txt", "-i", "/nonexistent/hyp.txt"])  # message on stderr
    1
    >>> main(["bleu", "-r", "ref.txt", "--tokenize", "moses"])  # a usage error
    2
    """
    try:
        interrupt.raise_if_interrupted()  # a Ctrl-C while importing that some import swallowed
        return _main(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        print_error("interrupted (Ctrl-C)")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `mtlearn bleu ... --sentence-level | head -1`
        quiet_stdout()
        return 0
    except MemoryError:
        print_error("out of memory: the input or the options need more memory than is available")
        return EXIT_INPUT


def _main(argv: list[str]) -> int:
    """:func:`main` without its last resorts (Ctrl-C, a closed pipe, no memory left)."""
    if argv[:1] == ["wordnet"]:
        return wordnet.run(argv[1:])
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:  # --help, --version, usage errors: argparse has printed its message
        return int(done.code or 0) if not isinstance(done.code, str) else EXIT_USAGE
    if sys.stdout is None:  # say so before scoring, not after
        print_error(STDOUT_CLOSED)
        return EXIT_INPUT
    try:
        chunks = _score_files(args)
    except CommandLineError as error:
        print_error(error)
        return error.status
    except WordNetMissingError as error:  # its message says how to install WordNet
        print_error(error)
        stages = "--meteor-stages" if args.command == "score" else "--stages"
        print("mtlearn: from the command line: run 'mtlearn wordnet', or leave the synonym stage out "
              f"({stages} exact,stem)", file=sys.stderr)
        return EXIT_INPUT
    except (LookupError, OSError) as error:
        print_error(error)
        return EXIT_INPUT
    except (ValueError, TypeError) as error:  # the library rejects an option value; the message names it
        print_error(as_option(str(error), args))
        return EXIT_USAGE
    except OverflowError as error:  # a number too large for the computation (the message may not name it)
        message = f"a number is too large for the computation ({error}); give smaller values"
        print_error(as_option(message, args))
        return EXIT_USAGE
    try:
        return write_output(chunks)
    except CommandLineError as error:  # standard output closed or full
        print_error(error)
        return error.status


def _score_files(args: argparse.Namespace) -> Iterable[str]:
    """Read the files named in ``args``, score them, and return the output; warnings go to standard error."""
    if args.command == "compare":  # several hypothesis files: read and checked by _compare_inputs
        return compare.run(args)
    if args.command == "why":
        return why.run(args)
    jobs = score.jobs(args)
    systems = args.input or [None]
    check_combination(args, len(systems), len(jobs))
    args.seed = resolved_seed(args.seed) if args.confidence else None
    if None in systems or "-" in systems:
        if sys.stdin is not None and sys.stdin.isatty():
            print("mtlearn: reading hypotheses from standard input (end with Ctrl-D, or give -i HYP)",
                  file=sys.stderr)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)  # e.g. "weights: they sum to 2, not 1"
        warnings.simplefilter("ignore", AmbiguousLayoutWarning)  # a file per reference stream: layout known
        chunks = run(args, jobs, systems)
    for warning in caught:
        print(f"mtlearn: warning: {warning.message}", file=sys.stderr)
    return chunks


if __name__ == "__main__":
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())

"""Running the scoring commands: a corpus score, a table of systems and metrics, one segment, every segment.

:func:`run` takes the parsed command line and the metrics to run (:class:`Job`: a
:class:`Metric` and the options it reads) and returns the output, a chunk at a time:

* one system, one metric: the score line (``-f text``), JSON, the derivation
  (``--explain``) or the bare score (``-b``), with sacreBLEU's bootstrap interval when
  ``--confidence`` is given;
* several systems (``-i A B ...``) or metrics (``mtlearn score -m ...``), or ``-f latex``
  / ``-f tsv``: one table, a row per system and a column per metric;
* ``--segment N``: one segment's score;
* ``--sentence-level``: every segment's score, a line each with its line number, the
  signature once at the top; the files are read in step (:class:`~mtlearn.tools.cli.io.AlignedLines`)
  and each line is written as soon as it is scored, so memory stays flat.

Combinations that cannot be honoured are refused before anything is read
(:func:`check_combination`), as sacreBLEU refuses them: ``--sentence-level`` or ``--segment``
with several systems or metrics, or with ``--confidence``; ``--explain`` or ``-b`` with a
table; ``--explain`` with another format than text.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Optional, Union

from mtlearn.core.wording import plural
from mtlearn.metrics.bleu.result import BleuResult
from mtlearn.metrics.chrf.result import ChrfResult
from mtlearn.metrics.meteor.result import MeteorResult
from mtlearn.metrics.ter.result import TerResult
from mtlearn.tools.cli.confidence import Confidence, bootstrap_confidence
from mtlearn.tools.cli.format import (
    Cell,
    Style,
    details,
    explain_text,
    metric_name,
    result_json,
    score_line,
    table,
)
from mtlearn.tools.cli.io import EXIT_USAGE, AlignedLines, CommandLineError, Corpus, load_corpora

__all__ = ["Metric", "Job", "check_combination", "run", "as_option"]

Result = Union[BleuResult, MeteorResult, ChrfResult, TerResult]


@dataclass(frozen=True)
class Metric:
    """How one metric scores: its name (``bleu`` ...), one segment, a corpus, its options from the command
    line.

    >>> from mtlearn import chrf, corpus_chrf
    >>> m = Metric("chrf", chrf, corpus_chrf, lambda args, one_segment: {"word_order": args.word_order})
    >>> round(m.segment("a cat", ["a cat"], **m.options(argparse.Namespace(word_order=2), True)).score, 4)
    1.0
    """

    key: str
    segment: Callable[..., Result]
    corpus: Callable[..., Result]
    #: (args, one_segment) -> the keyword arguments of ``segment`` and ``corpus``.
    options: Callable[[argparse.Namespace, bool], dict[str, object]]


@dataclass(frozen=True)
class Job:
    """A metric to run, and the namespace its options are read from (the command's own, or one per -m)."""

    metric: Metric
    args: argparse.Namespace


def as_option(message: str, args: argparse.Namespace) -> str:
    """A library message starting with a keyword the command line sets, spelled as the option the user typed.

    >>> as_option("char_order: must be 1 or more", argparse.Namespace(char_order=0))
    '--char-order: must be 1 or more'
    >>> as_option("candidates: 3 lines", argparse.Namespace(char_order=0))
    'candidates: 3 lines'
    """
    match = re.match(r"[a-z_]+", message)
    if match and match.group() in vars(args) and match.group() not in ("references", "metric", "command"):
        return "--" + match.group().replace("_", "-") + message[match.end():]
    return message


def _usage(message: str) -> CommandLineError:
    return CommandLineError(message, EXIT_USAGE)


def check_combination(args: argparse.Namespace, n_systems: int, n_metrics: int) -> None:
    """Refuse, before reading anything, the output options that cannot go together.

    >>> args = argparse.Namespace(segment=None, sentence_level=True, explain=False, score_only=False,
    ...                           format="text", confidence=False)
    >>> check_combination(args, 2, 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtlearn.tools.cli.io.CommandLineError: --sentence-level scores one system with one metric (as ...
    """
    if n_systems > 1 or n_metrics > 1:
        several = "several systems (-i)" if n_systems > 1 else "several metrics (-m)"
        if args.sentence_level or args.segment is not None:
            option = "--sentence-level" if args.sentence_level else "--segment"
            raise _usage(f"{option} scores one system with one metric (as sacreBLEU); "
                         f"here there are {several}")
        if args.explain:
            raise _usage(f"--explain prints one derivation; here there are {several}")
        if args.score_only:
            raise _usage(f"-b/--score-only prints one score; here there are {several} (-f "
                         "tsv gives a plain table)")
    _check_formats(args)


def _check_formats(args: argparse.Namespace) -> None:
    if args.explain and args.format != "text":
        raise _usage(f"--explain prints the derivation as text; leave out -f {args.format}")
    if args.confidence and (args.sentence_level or args.segment is not None):
        raise _usage("--confidence is a bootstrap interval for a corpus score; not with "
                     + ("--sentence-level" if args.sentence_level else "--segment") + " (as sacreBLEU)")
    if args.format == "latex" and (args.sentence_level or args.segment is not None):
        raise _usage("-f latex makes a table of corpus scores; with "
                     + ("--sentence-level" if args.sentence_level else "--segment")
                     + " use text, json or tsv")
    if args.format == "tsv" and args.segment is not None:
        raise _usage("--segment prints one score: as text, JSON (-f json), its derivation (--explain) or "
                     "alone (-b); -f tsv is for tables and --sentence-level")


def run(args: argparse.Namespace, jobs: Sequence[Job], systems: Sequence[Optional[str]]) -> Iterable[str]:
    """The output of a scoring command: ``jobs`` (one per metric) on the hypothesis files ``systems``.

    A list of chunks, or (``--sentence-level``) an iterable that scores each line when it
    is asked for the next chunk; :func:`mtlearn.tools.cli.main.main` writes them. See the module's
    docstring for what each option combination prints.
    """
    style = Style(args.scale, args.width)
    if args.sentence_level:
        job = jobs[0]
        options = job.metric.options(job.args, True)
        lines = AlignedLines(args.references, systems[0])
        return _SentenceLevel(args, style, lines,
                              lambda hyp, refs: job.metric.segment(hyp, list(refs), **options))
    corpora = load_corpora(args.references, systems)
    if args.segment is not None:
        return [_one_segment(args, style, jobs[0], corpora[0])]
    cells = [[_corpus_cell(args, job, corpus) for job in jobs] for corpus in corpora]
    if len(cells) == 1 and len(jobs) == 1 and args.format in ("text", "json"):
        return [_render_one(args, style, cells[0][0].result, cells[0][0].interval)]
    return [table([corpus.hypothesis_file for corpus in corpora], cells, style, args.format)]


def _one_segment(args: argparse.Namespace, style: Style, job: Job, corpus: Corpus) -> str:
    if args.segment > len(corpus):
        raise _usage(f"--segment {args.segment} is out of range: {corpus.hypothesis_file} has "
                     f"{plural(len(corpus), 'segment')} (numbered 1..{len(corpus)})")
    i = args.segment - 1
    options = job.metric.options(job.args, True)
    result = job.metric.segment(corpus.hypotheses[i], list(corpus.references[i]), **options)
    return _render_one(args, style, result)


def _corpus_cell(args: argparse.Namespace, job: Job, corpus: Corpus) -> Cell:
    options = job.metric.options(job.args, False)
    result = job.metric.corpus(list(corpus.hypotheses), [list(refs) for refs in corpus.references], **options)
    interval = None
    if args.confidence:
        interval = bootstrap_confidence(job.metric.key, result, options, args.confidence_n, args.seed)
    return Cell(result, interval)


def _render_one(args: argparse.Namespace, style: Style, result: Result,
                interval: Optional[Confidence] = None) -> str:
    if args.score_only:
        return style.score(result.score)
    if args.format == "json":
        return json.dumps(result_json(result, style, interval), indent=2, ensure_ascii=False)
    if args.explain:
        return explain_text(result, style)
    signature = result.signature + (interval.signature_suffix if interval is not None else "")
    return f"{score_line(result, style, details(result, style), interval)}  {signature}"


class _SentenceLevel:
    """``--sentence-level``: every segment's output, each computed when it is written.

    The files are read in step and nothing is kept from one segment to the next, so
    memory does not grow with the number of lines (reading the files whole first took
    145 MB at 200k lines, 572 MB at 1M). The first segment is scored at once, so that a
    bad option or file is the usual error before anything is written; a later segment's
    error, or a file that ends before the others, ends the output there with its line
    number, as a :class:`CommandLineError`. A warning is said once, not once a line.
    """

    def __init__(self, args: argparse.Namespace, style: Style, lines: AlignedLines,
                 score: Callable[[str, Sequence[str]], Result]) -> None:
        self.args, self.style, self.score, self.file = args, style, score, lines.hypothesis_file
        self.lines = iter(lines)
        number, hypothesis, references = next(self.lines)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            first = score(hypothesis, references)
        self.first = [*self._head(first), self._render(number, first)]
        self.said = {str(w.message) for w in caught}
        for w in caught:  # said by the command, with the other warnings of the run
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)

    def _head(self, result: Result) -> list[str]:
        """What comes before the first line: the signature, once (and TSV's header)."""
        if self.args.score_only or self.args.explain or self.args.format == "json":
            return []  # bare scores; derivations and JSON carry the signature themselves
        if self.args.format == "tsv":
            return [f"# {metric_name(result)}: {result.signature}", f"line\t{metric_name(result)}"]
        return [f"signature: {result.signature}"]

    def _render(self, number: int, result: Result) -> str:
        if self.args.score_only:
            return self.style.score(result.score)
        if self.args.format == "json":
            return json.dumps(result_json(result, self.style, line=number), ensure_ascii=False)  # JSON Lines
        if self.args.explain:
            return f"--- segment {number} ---\n{explain_text(result, self.style)}\n"
        if self.args.format == "tsv":
            return f"{number}\t{self.style.score(result.score)}"
        return f"{number}\t{score_line(result, self.style, details(result, self.style))}"

    def __iter__(self) -> Iterator[str]:
        yield from self.first
        self.first = []  # the lines written are not kept
        with warnings.catch_warnings(record=True) as caught:  # one for all lines: it costs a little each time
            warnings.simplefilter("always", UserWarning)
            for number, hypothesis, references in self.lines:
                try:
                    text = self._render(number, self.score(hypothesis, references))
                except (LookupError, OSError, ValueError, TypeError, OverflowError) as error:
                    reason = as_option(str(error), self.args)
                    raise CommandLineError(f"{self.file}, line {number}: {reason}") from None
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

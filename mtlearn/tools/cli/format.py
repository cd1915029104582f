"""How the command line prints scores: one scale for every command, a line, JSON, a table (text, LaTeX, TSV).

**The scale.** Every command prints its scores on one scale, chosen with
``--scale``: ``100`` (the default, sacreBLEU's: ``BLEU = 25.03``, ``chrF2 = 49.58``,
``TER = 58.25``) or ``1`` (mtlearn's library scale: ``0.2503``). :class:`Style` holds
the scale and the number of decimals of the score (``-w/--width``; by default 2 on
the 0-100 scale, 4 on the 0-1 scale). The scale applies to the score and to the
parts of the same kind (BLEU's n-gram precisions, chrF's and METEOR's P, R and
F_mean); factors (BP, ratio, METEOR's penalty), counts and lengths are printed as
they are. JSON carries the score on the scale, a ``"scale"`` field saying which,
and every other field of the result's ``to_dict()`` unchanged (mtlearn's exact 0-1
terms, all digits). ``--explain`` prints the derivation in those exact 0-1 terms
and ends, on the 0-100 scale, with the scaled score stated as such.

>>> from mtlearn import bleu
>>> result = bleu("A B", ["A B C D E F"], max_order=2)   # the Chinese blog post's example C
>>> score_line(result, Style(), details(result, Style()))
'BLEU = 13.53 100.0/100.0 (BP = 0.135 ratio = 0.333 hyp_len = 2 ref_len = 6)'
>>> score_line(result, Style(scale=1), details(result, Style(scale=1)))
'BLEU = 0.1353 1.000/1.000 (BP = 0.135 ratio = 0.333 hyp_len = 2 ref_len = 6)'
>>> Style(width=1).score(result.score), Style(scale=1, width=6).score(result.score)
('13.5', '0.135335')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional, Protocol, Union

from mtlearn.core.ngrams import orders_text
from mtlearn.metrics.bertscore.result import BertScoreResult
from mtlearn.metrics.bleu.result import BleuResult
from mtlearn.metrics.chrf.result import ChrfResult
from mtlearn.metrics.meteor.result import MeteorResult
from mtlearn.metrics.ter.result import TerResult

__all__ = ["SCALES", "DEFAULT_SCALE", "FORMATS", "MAX_WIDTH", "Style", "Interval", "Cell", "metric_name",
           "details", "score_line", "result_json", "explain_text", "table", "count_text"]

Result = Union[BleuResult, MeteorResult, ChrfResult, TerResult, BertScoreResult]

#: The scales a score can be printed on: sacreBLEU's 0-100 (the default) and mtlearn's library 0-1.
SCALES: tuple[int, ...] = (100, 1)
DEFAULT_SCALE = 100
#: Output formats (sacreBLEU's ``-f`` names, and ``tsv``).
FORMATS: tuple[str, ...] = ("text", "json", "latex", "tsv")
#: The most decimals ``-w`` gives (a float holds about 17 significant digits).
MAX_WIDTH = 17


class Interval(Protocol):
    """A bootstrap confidence interval (:mod:`mtlearn.tools.cli.confidence`): mean, half-width (0-1)."""

    mean: float
    ci: float

    def to_dict(self, scale: int) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Style:
    """How scores are printed: ``scale`` 100 or 1, ``width`` decimals of the score (None: 2, or 4 on 0-1).

    >>> Style().score(0.25027), Style(scale=1).score(0.25027)
    ('25.03', '0.2503')
    >>> Style().part(0.6543), Style(scale=1).part(0.6543)
    ('65.43', '0.6543')
    """

    scale: int = DEFAULT_SCALE
    width: Optional[int] = None

    @property
    def digits(self) -> int:
        """Decimals of the score."""
        if self.width is not None:
            return self.width
        return 2 if self.scale == 100 else 4

    def score(self, value: float) -> str:
        """A score (or a mean, an interval's half-width) on the scale, with the score's decimals."""
        return f"{self.scale * value:.{self.digits}f}"

    def part(self, value: float) -> str:
        """A part of the score's kind (a precision, a recall, F_mean) on the scale: 2 or 4 decimals."""
        return f"{self.scale * value:.{2 if self.scale == 100 else 4}f}"

    def interval(self, interval: Optional[Interval]) -> str:
        """`` (μ = mean ± half-width)`` as sacreBLEU writes a confidence interval, or nothing."""
        if interval is None:
            return ""
        return f" (μ = {self.score(interval.mean)} ± {self.score(interval.ci)})"


def metric_name(result: Result) -> str:
    """The name a result is printed under: BLEU, METEOR, chrF2, chrF2++, TER, WER, CER.

    >>> from mtlearn import chrf, wer
    >>> metric_name(chrf("a b", ["a b"], word_order=2)), metric_name(wer("a b", ["a b"]))
    ('chrF2++', 'WER')
    """
    if isinstance(result, BleuResult):
        return "BLEU"
    if isinstance(result, MeteorResult):
        return "METEOR"
    if isinstance(result, ChrfResult):
        return f"chrF{result.beta:g}" + "+" * result.word_order
    if isinstance(result, BertScoreResult):
        return "BERTScore"
    return result.metric.upper()


def count_text(value: Union[int, float]) -> str:
    """A count (of edits) as an exact whole number, never in floating notation; a fraction with two decimals.

    >>> count_text(3831709), count_text(3831709.0), count_text(2.5)
    ('3831709', '3831709', '2.50')
    """
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}"


def _reason(result: Union[ChrfResult, TerResult, BertScoreResult]) -> str:
    return f" [{result.reason}]" if result.reason else ""


def _bleu_details(result: BleuResult, style: Style) -> str:
    """sacreBLEU's text after the score: the precisions on the scale, BP, ratio, lengths."""
    digits = 1 if style.scale == 100 else 3
    # A huge order: said once.
    precisions = orders_text(result.precisions, lambda p: f"{style.scale * p:.{digits}f}")
    return (f" {precisions} (BP = {result.brevity_penalty:.3f} ratio = {result.ratio:.3f} "
            f"hyp_len = {result.candidate_length} ref_len = {result.reference_length})")


def _meteor_details(result: MeteorResult, style: Style) -> str:
    return (f" (P = {style.part(float(result.precision))} R = {style.part(float(result.recall))} "
            f"F_mean = {style.part(float(result.f_mean))} chunks = {result.chunks} "
            f"matches = {result.matches} "
            f"penalty = {float(result.penalty):.4f} hyp_len = {result.candidate_length} "
            f"ref_len = {result.reference_length})"
            + ("" if result.optimal else " [alignment search stopped early: not proven optimal]")
            + "".join(f" [{note}]" for note in result.notes))  # e.g. a stage the language has not


def _chrf_details(result: ChrfResult, style: Style) -> str:
    return (f" (P = {style.part(float(result.precision))} R = {style.part(float(result.recall))} "
            f"char_order = {result.char_order} word_order = {result.word_order} beta = {result.beta:g})"
            + _reason(result))


def _bertscore_details(result: BertScoreResult, style: Style) -> str:
    """P and R on the scale (F1 is the score), the layer, idf and rescaling (the raw F1 when rescaled).

    >>> from mtlearn.metrics.bertscore.score import bertscore_from_stats
    >>> from mtlearn.metrics.bertscore.stats import BertScoreStats
    >>> _bertscore_details(bertscore_from_stats(BertScoreStats(1.8, 1.6, 1.7, 2), layer=4), Style())
    ' (P = 90.00 R = 80.00 layer = 4 idf = no rescale = no)'
    """
    yes = {True: "yes", False: "no"}
    raw = f" raw_F1 = {style.part(result.raw_f1)}" if result.rescale else ""
    return (f" (P = {style.part(result.precision)} R = {style.part(result.recall)}{raw} layer = "
            f"{result.layer} idf = {yes[result.idf]} rescale = {yes[result.rescale]})" + _reason(result))


def _edit_details(result: TerResult, style: Style) -> str:
    """The edits (for one segment: of each kind), exact whole numbers, and the reference length."""
    kinds = ""
    if not result.is_corpus:  # a corpus's kinds would need every segment's edit script: not worth the time
        counts = result.counts()
        kinds = (f" shifts = {counts['shift']}" if result.metric == "ter" else "") + \
            f" ins = {counts['insert']} del = {counts['delete']} sub = {counts['substitute']}"
    return (f" (edits = {count_text(result.num_edits)}{kinds} ref_len = {result.reference_length:.2f})"
            + _reason(result))


def details(result: Result, style: Style) -> str:
    """What a score line says after the score (sacreBLEU's "verbose" part, and mtlearn's notes).

    >>> from mtlearn import meteor, ter
    >>> details(meteor("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"]), Style())
    ' (P = 100.00 R = 100.00 F_mean = 100.00 chunks = 6 matches = 6 penalty = 0.5000 hyp_len = 6 ref_len = 6)'
    >>> details(ter("d a b c", ["a b c d"]), Style(scale=1))
    ' (edits = 1 shifts = 1 ins = 0 del = 0 sub = 0 ref_len = 4.00)'
    """
    if isinstance(result, BleuResult):
        return _bleu_details(result, style)
    if isinstance(result, MeteorResult):
        return _meteor_details(result, style)
    if isinstance(result, ChrfResult):
        return _chrf_details(result, style)
    if isinstance(result, BertScoreResult):
        return _bertscore_details(result, style)
    return _edit_details(result, style)


def score_line(result: Result, style: Style, tail: str = "", interval: Optional[Interval] = None) -> str:
    """``NAME = score`` on the scale, the interval if any, then ``tail`` (the details; not the signature).

    >>> from mtlearn import ter
    >>> result = ter("d a b c", ["a b c d"])
    >>> score_line(result, Style()), score_line(result, Style(scale=1, width=2), details(result, Style()))
    ('TER = 25.00', 'TER = 0.25 (edits = 1 shifts = 1 ins = 0 del = 0 sub = 0 ref_len = 4.00)')
    """
    return f"{metric_name(result)} = {style.score(result.score)}{style.interval(interval)}{tail}"


def result_json(result: Result, style: Style, interval: Optional[Interval] = None,
                **extra: Any) -> dict[str, Any]:
    """The result as JSON data: its name, the score on the scale, ``scale``, then its ``to_dict()`` (0-1).

    >>> from mtlearn import chrf
    >>> data = result_json(chrf("the cat", ["the cat"]), Style(), line=3)
    >>> data["line"], data["name"], data["score"], data["scale"], data["f_beta"]
    (3, 'chrF2', 100.0, 100, 1.0)
    """
    data = result.to_dict()
    data.pop("score", None)
    out: dict[str, Any] = dict(extra)
    out.update(name=metric_name(result), score=style.scale * result.score, scale=style.scale)
    if interval is not None:
        out["confidence"] = interval.to_dict(style.scale)
    out.update(data)
    return out


def explain_text(result: Result, style: Style) -> str:
    """The derivation in mtlearn's exact 0-1 terms; on the 0-100 scale, a last line with the scaled score.

    >>> from mtlearn import bleu
    >>> print(explain_text(bleu("A B", ["A B C D E F"], max_order=2), Style()).splitlines()[-1])
    On the 0-100 scale (--scale 100): BLEU = 100 * 0.1353 = 13.53
    """
    text = result.explain().rstrip("\n")
    if style.scale == 1:
        return text
    return (f"{text}\n\nOn the 0-100 scale (--scale 100): {metric_name(result)} = "
            f"100 * {result.score:.{style.digits + 2}f} = {style.score(result.score)}")


# ---------------------------------------------------------------------------
# Tables: several systems, several metrics


@dataclass(frozen=True)
class Cell:
    """One score of a table: a system's result for one metric, with its bootstrap interval if asked for."""

    result: Result
    interval: Optional[Interval] = None


def table(systems: Sequence[str], cells: Sequence[Sequence[Cell]], style: Style, form: str) -> str:
    """Rows = systems, columns = metrics (named from the first row), in ``form`` text, latex, tsv or json.

    Text and LaTeX end with each metric's signature (from the first system), TSV
    starts with them as ``#`` lines; JSON is a list of :func:`result_json` objects,
    each with its ``"system"``.

    >>> from mtlearn import corpus_bleu, corpus_chrf
    >>> hyps = {"sys-a.txt": ["the cat sat"], "sys_b.txt": ["a cat"]}
    >>> refs = [["the cat sat down"]]
    >>> rows = [[Cell(corpus_bleu(h, refs, max_order=2)), Cell(corpus_chrf(h, refs))] for h in hyps.values()]
    >>> print(table(list(hyps), rows, Style(), "text"))  # doctest: +ELLIPSIS
    system      BLEU  chrF2
    sys-a.txt  71.65  66.02
    sys_b.txt   0.00  16.58
    <BLANKLINE>
    BLEU   mtlearn-bleu|nrefs:1|...|order:2|...
    chrF2  mtlearn-chrf|nrefs:1|...
    >>> print(table(list(hyps), rows, Style(scale=1), "tsv").replace("\\t", " <tab> "))  # doctest: +ELLIPSIS
    # BLEU: mtlearn-bleu|...
    # chrF2: mtlearn-chrf|...
    system <tab> BLEU <tab> chrF2
    sys-a.txt <tab> 0.7165 <tab> 0.6602
    sys_b.txt <tab> 0.0000 <tab> 0.1658
    """
    names = [metric_name(cell.result) for cell in cells[0]]
    signatures = [_signature(cell) for cell in cells[0]]
    if form == "json":
        data = [result_json(cell.result, style, cell.interval, system=system)
                for system, row in zip(systems, cells) for cell in row]
        return json.dumps(data, indent=2, ensure_ascii=False)
    if form == "tsv":
        return _tsv(systems, cells, style, names, signatures)
    if form == "latex":
        return _latex(systems, cells, style, names, signatures)
    return _text_table(systems, cells, style, names, signatures)


def _signature(cell: Cell) -> str:
    """The result's signature, with the bootstrap's settings when it has an interval."""
    suffix = getattr(cell.interval, "signature_suffix", "")
    return cell.result.signature + suffix


def _text_table(systems: Sequence[str], cells: Sequence[Sequence[Cell]], style: Style, names: list[str],
                signatures: list[str]) -> str:
    rows = [["system", *names]] + [
        [system, *(style.score(c.result.score) + style.interval(c.interval) for c in row)]
        for system, row in zip(systems, cells)]
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    lines = ["  ".join([row[0].ljust(widths[0])] + [v.rjust(w) for v, w in zip(row[1:], widths[1:])]).rstrip()
             for row in rows]
    width = max(len(name) for name in names)
    return "\n".join(lines + [""] + [f"{name:<{width}}  {sig}" for name, sig in zip(names, signatures)])


def _tsv_cell(text: str) -> str:
    """A cell without the tabs and line ends that would break the row."""
    return " ".join(text.replace("\t", " ").splitlines())


def _tsv(systems: Sequence[str], cells: Sequence[Sequence[Cell]], style: Style, names: list[str],
         signatures: list[str]) -> str:
    with_interval = any(c.interval is not None for c in cells[0])
    header = ["system"]
    for name in names:
        header += [name, f"{name} mean", f"{name} ci"] if with_interval else [name]
    lines = [f"# {name}: {sig}" for name, sig in zip(names, signatures)] + ["\t".join(header)]
    for system, row in zip(systems, cells):
        values = [_tsv_cell(system)]
        for c in row:
            values.append(style.score(c.result.score))
            if with_interval and c.interval is not None:
                values += [style.score(c.interval.mean), style.score(c.interval.ci)]
        lines.append("\t".join(values))
    return "\n".join(lines)


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _latex_text(text: str) -> str:
    r"""``text`` safe inside a LaTeX table cell.

    >>> print(_latex_text("hyp_A & 50%.txt"))
    hyp\_A \& 50\%.txt
    """
    return "".join(_LATEX_SPECIAL.get(char, char) for char in " ".join(text.splitlines()))


def _latex(systems: Sequence[str], cells: Sequence[Sequence[Cell]], style: Style, names: list[str],
           signatures: list[str]) -> str:
    """A booktabs table (sacreBLEU's ``-f latex``), the signatures as LaTeX comments after it."""
    def value(c: Cell) -> str:
        if c.interval is None:
            return style.score(c.result.score)
        interval = f"{style.score(c.interval.mean)} $\\pm$ {style.score(c.interval.ci)}"
        return f"{style.score(c.result.score)} ({interval})"

    lines = [r"\begin{tabular}{l" + "r" * len(names) + "}", r"\toprule",
             " & ".join(["System", *map(_latex_text, names)]) + r" \\", r"\midrule"]
    lines += [" & ".join([_latex_text(system), *map(value, row)]) + r" \\"
              for system, row in zip(systems, cells)]
    lines += [r"\bottomrule", r"\end{tabular}"]
    lines += [f"% {name}: {sig}" for name, sig in zip(names, signatures)]
    return "\n".join(lines)

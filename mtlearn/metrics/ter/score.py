"""TER, WER and CER: ``ter()``, ``wer()``, ``cer()``, ``corpus_ter()``, ``corpus_wer()``, ``corpus_cer()``.

TER (Snover et al. 2006) is the number of edits that turn the candidate into a
reference, divided by the reference length. The edits are insertions, deletions and
substitutions of single words plus **shifts** of whole blocks (cost 1 each), found by
tercom's greedy search (:mod:`mtlearn.metrics.ter.shifts`). mtlearn follows sacreBLEU 2.6
(``sacrebleu.metrics.ter``), which is tercom-compatible:

1. tokenisation by sacreBLEU's own ``TercomTokenizer`` (lowercased unless ``case_sensitive``;
   ``normalized``, ``no_punct``, ``asian_support`` as tercom; :mod:`~mtlearn.metrics.ter.tokens`);
2. per reference, the edits of the shift search; the **best reference** is the one with the
   fewest edits (the first on a tie), and the length used is the **average** reference length
   (:mod:`~mtlearn.metrics.ter.formulas`);
3. statistics (edits, average reference length) are summed over a corpus, and
   TER = summed edits / summed lengths (:func:`ter_from_stats`). It can exceed 1.

WER and CER are the same without shifts: the exact Levenshtein distance over words
(whitespace) or characters, divided by the reference length (jiwer's definition).
The options are declared in :mod:`~mtlearn.metrics.ter.options`; the functions take their
defaults from there.

>>> r = ter("the cat sat on the mat", ["on the mat the cat sat"])
>>> r.num_edits, r.reference_length, r.score
(1, 6.0, 0.16666666666666666)
>>> [(s.words, s.start, s.destination) for s in r.shifts]
[(('the', 'cat', 'sat'), 0, 3)]
>>> wer("the cat sat on the mat", ["on the mat the cat sat"]).num_edits
6
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import Any, Optional, Union

from mtlearn.core.corpus import Segments, corpus_call
from mtlearn.core.references import check_sentence_call
from mtlearn.core.wording import part_of, plural
from mtlearn.metrics.ter.edit_distance import Alignment
from mtlearn.metrics.ter.fast import exact_distance, exact_levenshtein, fast_shift_search, ter_edits
from mtlearn.metrics.ter.formulas import average_length, best_reference, ter_score, zero_length_rule
from mtlearn.metrics.ter.options import TER_DEFAULTS, WER_DEFAULTS, TerOptions, WerOptions, check_metric
from mtlearn.metrics.ter.result import Edit, TerResult
from mtlearn.metrics.ter.shifts import Shift
from mtlearn.metrics.ter.stats import TerStats, corpus_stats, segment_stats
from mtlearn.metrics.ter.tokens import reference_tokens, segment_tokens, tokenizer

__all__ = ["TerResult", "ter", "corpus_ter", "wer", "cer", "corpus_wer", "corpus_cer", "ter_from_stats"]

Segment = Union[str, Sequence[str]]


# --------------------------------------------------------------------------------------
# Statistics -> result
# --------------------------------------------------------------------------------------


def _result(metric: str, options: TerOptions, stats: TerStats, nrefs: str, reason: Optional[str],
            **trace: Any) -> TerResult:
    """The result of ``stats``: its score (sacreBLEU's rule), options, signature; a segment's ``trace``."""
    return TerResult(
        score=ter_score(stats.edits, stats.ref_length), num_edits=stats.edits,
        reference_length=float(stats.ref_length), metric=metric, normalized=options.normalized,
        no_punct=options.no_punct, asian_support=options.asian_support, case_sensitive=options.case_sensitive,
        signature=options.signature(metric, nrefs), reason=reason, stats=stats, **trace,
    )


def ter_from_stats(
    stats: TerStats, *, metric: str = "ter", normalized: bool = TER_DEFAULTS.normalized,
    no_punct: bool = TER_DEFAULTS.no_punct, asian_support: bool = TER_DEFAULTS.asian_support,
    case_sensitive: bool = TER_DEFAULTS.case_sensitive, nrefs: Union[int, str] = "?",
) -> TerResult:
    """THE function from (summed) statistics to a score: edits / reference length.

    The options only go into the signature (the statistics were counted with them); ``metric``
    names the result and ``nrefs`` the number of references in the signature.

    >>> from fractions import Fraction
    >>> r = ter_from_stats(TerStats(3, Fraction(12)))
    >>> r.score, r.signature  # doctest: +ELLIPSIS
    (0.25, 'mtlearn-ter|nrefs:?|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:...')
    >>> ter_from_stats(TerStats(2, Fraction(0))).reason
    "the reference length is 0 (empty references) and the candidate has words: sacreBLEU's rule gives 1"
    """
    metric = check_metric(metric)
    if not isinstance(stats, TerStats):
        raise TypeError(f"stats: expected TerStats, got {type(stats).__name__}")
    options = TerOptions(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive)
    return _result(metric, options, stats, str(nrefs), zero_length_rule(stats.edits, stats.ref_length))


# --------------------------------------------------------------------------------------
# One segment
# --------------------------------------------------------------------------------------


def _edit_script(shifted: Sequence[str], reference: Sequence[str], alignment: Alignment) -> tuple[Edit, ...]:
    """The alignment's operations with their words and positions (see :class:`Edit`)."""
    out = []
    i = j = 0
    for op in alignment.ops:
        if op in ("match", "substitute"):
            out.append(Edit(op, i, j, shifted[i], reference[j]))
            i, j = i + 1, j + 1
        elif op == "delete":
            out.append(Edit(op, i, None, shifted[i], None))
            i += 1
        else:
            out.append(Edit(op, None, j, None, reference[j]))
            j += 1
    return tuple(out)


Searched = tuple[tuple[Shift, ...], tuple[str, ...], Alignment, Optional[str]]


def _searches(metric: str, cand: tuple[str, ...], refs: list[tuple[str, ...]]) -> list[Searched]:
    """Per reference: the shifts, the shifted candidate, its alignment, why the search stopped (WER, CER:
    no shifts, the candidate, its exact alignment, ``None``)."""
    if metric == "ter":
        return [(s.shifts, tuple(s.shifted), s.alignment, s.stopped)
                for s in (fast_shift_search(cand, ref) for ref in refs)]
    return [((), cand, exact_levenshtein(cand, ref), None) for ref in refs]


def _segment(metric: str, options: TerOptions, cand: tuple[str, ...],
             refs: list[tuple[str, ...]]) -> TerResult:
    """One segment with its full trace (shift records and edit script against the best reference)."""
    searches = _searches(metric, cand, refs)
    counts = [len(shifts) + alignment.distance for shifts, _, alignment, _ in searches]
    best = best_reference(counts)
    shifts, shifted, alignment, stopped = searches[best]
    stats = TerStats(counts[best], average_length(refs))
    notes = _segment_notes(cand, refs, zero_length_rule(stats.edits, stats.ref_length))
    choice = None
    if len(refs) > 1:
        choice = (f"reference {best} needs the fewest edits ({counts[best]} of "
                  f"{', '.join(map(str, counts))}; the first on a tie); the length is the average "
                  f"of all {plural(len(refs), 'reference')}")
    return _result(
        metric, options, stats, str(len(refs)), "; ".join(notes) if notes else None,
        best_reference=best, reference_choice=choice, reference_edits=tuple(counts), shifts=shifts,
        edits=_edit_script(shifted, refs[best], alignment), candidate_tokens=cand, shifted_tokens=shifted,
        reference_tokens=refs[best], all_reference_tokens=tuple(refs), stopped=stopped,
    )


def _segment_notes(cand: Sequence[str], refs: Sequence[Sequence[str]], rule: Optional[str]) -> list[str]:
    notes = []
    if not cand:
        notes.append("the candidate is empty: every word of the best reference is an insertion")
    empty = [str(k) for k, ref in enumerate(refs) if not ref]
    if empty:
        notes.append(f"reference {', '.join(empty)} is empty: it costs one deletion per candidate word "
                     "and adds 0 to the length (sacreBLEU's rule)")
    if rule:
        notes.append(rule)
    return notes


def _one(metric: str, options: TerOptions, candidate: object, references: object,
         names: tuple[str, str] = ("candidate", "references")) -> TerResult:
    """Tokenise one segment and score it with its trace; ``names`` name the two in messages."""
    cand = segment_tokens(candidate, names[0], tokenizer(metric, options), options)
    refs = reference_tokens(references, names[1], tokenizer(metric, options, reference=True), options)
    return _segment(metric, options, cand, refs)


def _sentence(metric: str, options: TerOptions, candidate: object, references: object) -> TerResult:
    check_sentence_call(candidate, references, call=metric)  # a corpus here would score as one sentence
    return _one(metric, options, candidate, references)


def ter(
    candidate: Segment,
    references: Sequence[Segment],
    *,
    normalized: bool = TER_DEFAULTS.normalized,
    no_punct: bool = TER_DEFAULTS.no_punct,
    asian_support: bool = TER_DEFAULTS.asian_support,
    case_sensitive: bool = TER_DEFAULTS.case_sensitive,
) -> TerResult:
    """TER of one candidate against its references (sacreBLEU's ``sentence_ter`` / 100).

    Strings are tokenised by tercom's rules (lowercased unless ``case_sensitive``); a list
    of tokens is used as given (lowercased unless ``case_sensitive``).

    >>> r = ter("the cat sat on the mat", ["the cat sat on a mat", "a cat is on the mat"])
    >>> r.num_edits, r.reference_length, r.best_reference, r.reference_edits
    (1, 6.0, 0, (1, 2))
    >>> [(e.op, e.candidate_word, e.reference_word) for e in r.edits if e.op != "match"]
    [('substitute', 'the', 'a')]
    """
    options = TerOptions(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive)
    return _sentence("ter", options, candidate, references)


def wer(
    candidate: Segment,
    references: Sequence[Segment],
    *,
    normalized: bool = WER_DEFAULTS.normalized,
    no_punct: bool = WER_DEFAULTS.no_punct,
    asian_support: bool = WER_DEFAULTS.asian_support,
    case_sensitive: bool = WER_DEFAULTS.case_sensitive,
) -> TerResult:
    """Word error rate: the exact Levenshtein distance over words / reference length (no shifts).

    Words are split on white space (jiwer's default); case-sensitive by default (jiwer);
    the tercom options apply as in :func:`ter`. Several references: as TER, the fewest
    edits and the average length.

    >>> r = wer("the cat sat on mat", ["the cat sat on the mat"])
    >>> r.num_edits, r.score, r.metric, r.shifts
    (1, 0.16666666666666666, 'wer', ())
    """
    options = WerOptions(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive)
    return _sentence("wer", options, candidate, references)


def cer(
    candidate: Segment,
    references: Sequence[Segment],
    *,
    normalized: bool = WER_DEFAULTS.normalized,
    no_punct: bool = WER_DEFAULTS.no_punct,
    asian_support: bool = WER_DEFAULTS.asian_support,
    case_sensitive: bool = WER_DEFAULTS.case_sensitive,
) -> TerResult:
    """Character error rate: Levenshtein distance over characters / reference length in characters.

    The characters of the stripped text, spaces included (jiwer's default); with
    ``normalized`` or ``no_punct`` the characters of tercom's tokenised text.

    >>> r = cer("kitten", ["sitting"])
    >>> r.num_edits, round(r.score, 4), r.signature.split("|")[3]
    (3, 0.4286, 'tok:char')
    """
    options = WerOptions(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive)
    return _sentence("cer", options, candidate, references)


# --------------------------------------------------------------------------------------
# Corpus
# --------------------------------------------------------------------------------------


def _fewest_edits(metric: str, cand: tuple[str, ...], refs: list[tuple[str, ...]]) -> int:
    """The edits of the best reference, by the fast twins (no trace: a corpus needs the counts only)."""
    count = ter_edits if metric == "ter" else exact_distance
    counts = [count(cand, ref) for ref in refs]
    return counts[best_reference(counts)]


def _corpus_notes(n: int, empty_cands: int, empty_refs: int, rule: Optional[str]) -> Optional[str]:
    notes = []
    if empty_cands:
        notes.append(f"{part_of(empty_cands, n, 'candidate')} empty")
    if empty_refs:
        notes.append(f"{part_of(empty_refs, n, 'segment', ('has', 'have'))} an empty reference "
                     "(one deletion per candidate word, length 0: sacreBLEU's rule)")
    if rule:
        notes.append(rule)
    return "; ".join(notes) if notes else None


def _corpus_run(metric: str, options: TerOptions) -> Callable[[list[Any], list[Any]], TerResult]:
    """What :func:`~mtlearn.core.corpus.corpus_call` runs: every segment's edits and lengths, summed."""

    def run(candidates: list[Any], references: list[Any]) -> TerResult:
        tok, ref_tok = tokenizer(metric, options), tokenizer(metric, options, reference=True)
        edits, lengths, nrefs = array("q"), array("q"), array("q")
        empty_cands = empty_refs = 0
        for i, (c, rs) in enumerate(zip(candidates, references)):
            cand = segment_tokens(c, f"candidates[{i}]", tok, options)
            refs = reference_tokens(rs, f"references[{i}]", ref_tok, options)
            edits.append(_fewest_edits(metric, cand, refs))
            lengths.append(sum(map(len, refs)))
            nrefs.append(len(refs))
            empty_cands += not cand
            empty_refs += not all(refs)
        stats = corpus_stats(edits, lengths, nrefs)
        seen = set(nrefs)
        segments = Segments(
            "Ter", len(candidates),
            stats_of=lambda i: segment_stats(edits[i], lengths[i], nrefs[i]),
            build=lambda i: _one(metric, options, candidates[i], references[i],
                                 (f"candidates[{i}]", f"references[{i}]")),
            all_stats=lambda: list(map(segment_stats, edits, lengths, nrefs)),
        )
        reason = _corpus_notes(len(candidates), empty_cands, empty_refs,
                               zero_length_rule(stats.edits, stats.ref_length))
        return _result(metric, options, stats, str(next(iter(seen))) if len(seen) == 1 else "var", reason,
                       segments=segments)

    return run


def corpus_ter(
    candidates: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
    *,
    normalized: bool = TER_DEFAULTS.normalized,
    no_punct: bool = TER_DEFAULTS.no_punct,
    asian_support: bool = TER_DEFAULTS.asian_support,
    case_sensitive: bool = TER_DEFAULTS.case_sensitive,
) -> TerResult:
    """Corpus TER: summed edits / summed average reference lengths (sacreBLEU's ``corpus_ter`` / 100).

    ``references[i]`` lists the references of ``candidates[i]`` (as :func:`~mtlearn.corpus_bleu`;
    sacreBLEU takes the transpose, one stream per reference). Per-segment results with their
    shifts and edit scripts are in ``.segments`` (recomputed on access; ``.segments.stats()``
    gives every segment's :class:`~mtlearn.metrics.ter.stats.TerStats` without recomputing).

    >>> r = corpus_ter(["the cat sat on the mat", "a b c d"], [["on the mat the cat sat"], ["a b x d"]])
    >>> r.num_edits, r.reference_length, round(r.score, 4)
    (2, 10.0, 0.2)
    >>> r.segments, r.segments[1].num_edits, r.segments.stats()[1]
    (<TerSegments: 2 segments>, 1, TerStats(edits=1, ref_length=Fraction(4, 1)))
    """
    options = TerOptions(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive)
    return corpus_call("corpus_ter", candidates, references, _corpus_run("ter", options))


def corpus_wer(
    candidates: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
    *,
    normalized: bool = WER_DEFAULTS.normalized,
    no_punct: bool = WER_DEFAULTS.no_punct,
    asian_support: bool = WER_DEFAULTS.asian_support,
    case_sensitive: bool = WER_DEFAULTS.case_sensitive,
) -> TerResult:
    """Corpus WER: summed word edits / summed reference lengths (jiwer's ``wer`` on lists).

    >>> corpus_wer(["a b", "c"], [["a c"], ["c d"]]).score
    0.5
    """
    options = WerOptions(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive)
    return corpus_call("corpus_wer", candidates, references, _corpus_run("wer", options))


def corpus_cer(
    candidates: Sequence[Segment],
    references: Sequence[Sequence[Segment]],
    *,
    normalized: bool = WER_DEFAULTS.normalized,
    no_punct: bool = WER_DEFAULTS.no_punct,
    asian_support: bool = WER_DEFAULTS.asian_support,
    case_sensitive: bool = WER_DEFAULTS.case_sensitive,
) -> TerResult:
    """Corpus CER: summed character edits / summed reference lengths in characters (jiwer's ``cer``).

    >>> corpus_cer(["kitten", "abc"], [["sitting"], ["abc"]]).num_edits
    3
    """
    options = WerOptions(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive)
    return corpus_call("corpus_cer", candidates, references, _corpus_run("cer", options))

"""TER, WER and CER with every step exposed: ``TerStats``, ``TerResult``, ``ter()``, ``corpus_ter()``, ``wer()``, ``cer()``.

TER (Snover et al. 2006) is the number of edits that turn the candidate into a
reference, divided by the reference length. The edits are insertions, deletions and
substitutions of single words plus **shifts** of whole blocks (cost 1 each), found by
tercom's greedy search (:mod:`mtlearn.metrics.ter.shifts`). mtlearn follows sacreBLEU 2.6
(``sacrebleu.metrics.ter``), which is tercom-compatible:

1. tokenisation by sacreBLEU's own ``TercomTokenizer`` (lowercased unless ``case_sensitive``;
   ``normalized``, ``no_punct``, ``asian_support`` as tercom);
2. per reference, the edits of the shift search; the **best reference** is the one with the
   fewest edits (the first on a tie), and the length used is the **average** reference length;
3. statistics (edits, average reference length) are summed over a corpus, and
   TER = summed edits / summed lengths (:func:`ter_from_stats`). It can exceed 1.

WER and CER are the same without shifts: the exact Levenshtein distance over words
(whitespace) or characters, divided by the reference length (jiwer's definition).

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
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Optional, Union, overload

from mtlearn.metrics.ter.edit_distance import Alignment
from mtlearn.metrics.ter.fast import exact_distance, exact_levenshtein, fast_shift_search, ter_edits
from mtlearn.metrics.ter.shifts import Shift
from mtlearn.core.signature import make_signature
from mtlearn.core.references import check_sentence_call, warn_ambiguous_layout, warn_reference_layout
from mtlearn.core.checks import check_corpus, check_index
from mtlearn.core.wording import part_of, plural

__all__ = [
    "TerStats",
    "Edit",
    "Shift",
    "TerResult",
    "TerSegments",
    "ter",
    "corpus_ter",
    "wer",
    "cer",
    "corpus_wer",
    "corpus_cer",
    "ter_from_stats",
]

METRICS = ("ter", "wer", "cer")


# --------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TerStats:
    """Sufficient statistics: the edits of the best reference and the average reference length.

    Exact (the average length is a ``Fraction``); summed over a corpus with ``+`` or ``sum``.

    >>> a, b = TerStats(3, Fraction(7, 2)), TerStats(1, Fraction(4))
    >>> a + b
    TerStats(edits=4, ref_length=Fraction(15, 2))
    >>> sum([a, b], TerStats(0, Fraction(0))).edits
    4
    """

    edits: int
    ref_length: Fraction

    def __add__(self, other: "TerStats") -> "TerStats":
        if not isinstance(other, TerStats):
            return NotImplemented
        return TerStats(self.edits + other.edits, self.ref_length + other.ref_length)


@dataclass(frozen=True)
class Edit:
    """One operation of the edit script, read on the *shifted* candidate.

    Convention (candidate -> reference): ``insert`` = a reference word missing from the
    candidate (``candidate_index`` is ``None``), ``delete`` = a candidate word the reference
    does not have (``reference_index`` is ``None``); ``substitute`` and ``match`` pair one
    word of each. Indexes point into ``shifted_tokens`` and ``reference_tokens``.
    """

    op: str
    candidate_index: Optional[int]
    reference_index: Optional[int]
    candidate_word: Optional[str]
    reference_word: Optional[str]


def _edit_script(shifted: Sequence[str], reference: Sequence[str], alignment: Alignment) -> tuple[Edit, ...]:
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


# --------------------------------------------------------------------------------------
# Options and tokenisation
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Options:
    metric: str
    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool


def _check_options(metric: str, normalized: object, no_punct: object, asian_support: object,
                   case_sensitive: object) -> _Options:
    for name, flag in (("normalized", normalized), ("no_punct", no_punct),
                       ("asian_support", asian_support), ("case_sensitive", case_sensitive)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name}: expected True or False, got {type(flag).__name__}")
    return _Options(metric, normalized, no_punct, asian_support, case_sensitive)  # type: ignore[arg-type]


@lru_cache(maxsize=None)
def _tercom(normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> Callable[[str], str]:
    # sacreBLEU's own tokenizer class: the tokens TER sees are sacreBLEU's.
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    return TercomTokenizer(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                           case_sensitive=case_sensitive)


def _tokenizer(opts: _Options, *, reference: bool = False) -> Callable[[str], tuple[str, ...]]:
    """str -> tokens for the metric: tercom words (TER, WER) or characters (CER).

    sacreBLEU 2.6 tokenises TER's *references* twice (``_cache_references`` preprocesses
    them, then ``_extract_reference_info`` preprocesses the result again); the rules are not
    idempotent with ``normalized``/``no_punct`` (``"cat's,"`` -> ``"cat's"`` -> ``"cat 's"``),
    so mtlearn does the same for parity.
    """
    tok = _tercom(opts.normalized, opts.no_punct, opts.asian_support, opts.case_sensitive)
    if opts.metric == "ter" and reference:
        return lambda text: tuple(tok(tok(text.rstrip()).rstrip()).split())
    if opts.metric != "cer":
        return lambda text: tuple(tok(text.rstrip()).split())
    if opts.normalized or opts.no_punct:
        return lambda text: tuple(tok(text.rstrip()))
    # jiwer's CER: the characters of the stripped text, spaces included.
    if opts.case_sensitive:
        return lambda text: tuple(text.strip())
    return lambda text: tuple(text.strip().lower())


def _as_tokens(segment: object, argname: str, tok: Callable[[str], tuple[str, ...]],
               opts: _Options) -> tuple[str, ...]:
    if isinstance(segment, str):
        return tok(segment)
    if isinstance(segment, (list, tuple)):
        for i, token in enumerate(segment):
            if not isinstance(token, str):
                raise TypeError(f"{argname}: token {i} is {type(token).__name__} ({token!r}), expected str")
        return tuple(segment) if opts.case_sensitive else tuple(t.lower() for t in segment)
    raise TypeError(f"{argname}: expected a string or a list of string tokens, got {type(segment).__name__}")


def _as_references(references: object, argname: str, tok: Callable[[str], tuple[str, ...]],
                   opts: _Options) -> list[tuple[str, ...]]:
    if isinstance(references, str):
        references = [references]
    if not isinstance(references, (list, tuple)):
        raise TypeError(f"{argname}: expected a list of references (strings or token lists), "
                        f"got {type(references).__name__}")
    if len(references) == 0:
        raise ValueError(f"{argname}: no references given; a candidate needs at least one")
    return [_as_tokens(r, f"{argname}[{i}]", tok, opts) for i, r in enumerate(references)]


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TerResult:
    """Everything TER (or WER/CER) computed, for one segment or a corpus. Only data; see ``explain()``.

    - ``score`` = ``num_edits / reference_length`` (sacreBLEU's number / 100; can exceed 1);
      ``metric`` is ``"ter"``, ``"wer"`` or ``"cer"``;
    - ``num_edits``: shifts + insertions + deletions + substitutions against the best reference;
      ``reference_length``: the average length of the references (summed over a corpus);
    - ``best_reference`` (index, fewest edits, first on a tie), ``reference_edits`` (edits per
      reference), ``reference_choice`` (why it was kept);
    - ``shifts`` (:class:`~mtlearn.metrics.ter.shifts.Shift`, round by round; empty for WER/CER), then
      ``edits`` (:class:`Edit`, the alignment of ``shifted_tokens`` with ``reference_tokens``);
    - ``candidate_tokens``, ``shifted_tokens`` (after the shifts), ``reference_tokens`` (best reference);
    - the options, ``signature``, ``reason`` (a rule that decided the score), ``stats``,
      ``segments`` (a corpus's per-segment results, computed on access).

    >>> r = ter("a b c d", ["b c d a"])
    >>> r.num_edits, [e.op for e in r.edits], r.shifted_tokens
    (1, ['match', 'match', 'match', 'match'], ('b', 'c', 'd', 'a'))
    """

    score: float
    num_edits: int
    reference_length: float
    metric: str
    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool
    signature: str
    reason: Optional[str]
    stats: TerStats
    best_reference: Optional[int] = None
    reference_choice: Optional[str] = None
    reference_edits: tuple[int, ...] = ()
    shifts: tuple[Shift, ...] = ()
    edits: tuple[Edit, ...] = ()
    candidate_tokens: Optional[tuple[str, ...]] = None
    shifted_tokens: Optional[tuple[str, ...]] = None
    reference_tokens: Optional[tuple[str, ...]] = None
    all_reference_tokens: tuple[tuple[str, ...], ...] = ()
    stopped: Optional[str] = None
    segments: Sequence["TerResult"] = ()

    @property
    def is_corpus(self) -> bool:
        """``True`` for a corpus result (it has ``segments``)."""
        return len(self.segments) > 0

    @property
    def score_fraction(self) -> Fraction:
        """The score as an exact fraction (edits / average reference length; the edge rules as ``score``).

        >>> ter("a b", ["a b c"]).score_fraction
        Fraction(1, 3)
        """
        if self.stats.ref_length > 0:
            return Fraction(self.stats.edits) / self.stats.ref_length
        return Fraction(1 if self.stats.edits > 0 else 0)

    def counts(self) -> dict[str, int]:
        """How many edits of each kind: shifts, insertions, deletions, substitutions (and matches).

        >>> ter("a b c d", ["b c x"]).counts()
        {'shift': 0, 'insert': 0, 'delete': 1, 'substitute': 1, 'match': 2}
        """
        out = {"shift": len(self.shifts), "insert": 0, "delete": 0, "substitute": 0, "match": 0}
        for e in self.edits:
            out[e.op] += 1
        return out

    def explain(self) -> str:
        """The derivation as text: shifts round by round, the alignment, edits / length.

        >>> print(ter("a b c d", ["b c d a"]).explain())  # doctest: +ELLIPSIS
        TER of one segment ...
        """
        from mtlearn.metrics.ter.explain import explain_text

        return explain_text(self)

    def _repr_html_(self) -> str:
        from mtlearn.metrics.ter.explain import explain_html

        return explain_html(self)

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        """A JSON-able dict.

        >>> d = ter("a b c d", ["b c d a"]).to_dict()
        >>> d["num_edits"], d["shifts"][0]["words"], d["edits"][0]
        (1, ['a'], {'op': 'match', 'candidate_index': 0, 'reference_index': 0, 'candidate_word': 'b', 'reference_word': 'b'})
        """
        out: dict[str, Any] = {
            "metric": self.metric,
            "score": self.score,
            "num_edits": self.num_edits,
            "reference_length": self.reference_length,
            "normalized": self.normalized,
            "no_punct": self.no_punct,
            "asian_support": self.asian_support,
            "case_sensitive": self.case_sensitive,
            "signature": self.signature,
            "reason": self.reason,
            "n_segments": len(self.segments) if self.is_corpus else 1,
        }
        if self.candidate_tokens is not None:
            out.update({
                "best_reference": self.best_reference,
                "reference_choice": self.reference_choice,
                "reference_edits": list(self.reference_edits),
                "shifts": [
                    {"words": list(s.words), "start": s.start, "length": s.length, "destination": s.destination,
                     "landing": s.landing, "round": s.round, "gain": s.gain, "reason": s.reason}
                    for s in self.shifts
                ],
                "edits": [e.__dict__.copy() for e in self.edits],
                "candidate_tokens": list(self.candidate_tokens),
                "shifted_tokens": list(self.shifted_tokens or ()),
                "reference_tokens": list(self.reference_tokens or ()),
                "stopped": self.stopped,
            })
        elif segments:
            out["segments"] = [s.to_dict() for s in self.segments]
        return out


# --------------------------------------------------------------------------------------
# Statistics -> score
# --------------------------------------------------------------------------------------


def _score(stats: TerStats) -> tuple[float, Optional[str]]:
    """sacreBLEU's rule: edits / length; with length 0, 1 if there are edits, else 0."""
    if stats.ref_length > 0:
        return stats.edits / float(stats.ref_length), None
    if stats.edits > 0:
        return 1.0, ("the reference length is 0 (empty references) and the candidate has words: "
                     "sacreBLEU's rule gives 1")
    return 0.0, "the reference length is 0 and there are no edits: sacreBLEU's rule gives 0"


def _signature(opts: _Options, nrefs: str) -> str:
    yes = {True: "yes", False: "no"}
    return make_signature(opts.metric, {
        "nrefs": nrefs,
        "case": "mixed" if opts.case_sensitive else "lc",
        "tok": "char" if opts.metric == "cer" else "tercom",
        "norm": yes[opts.normalized],
        "punct": yes[not opts.no_punct],
        "asian": yes[opts.asian_support],
    })


def ter_from_stats(
    stats: TerStats, *, metric: str = "ter", normalized: bool = False, no_punct: bool = False,
    asian_support: bool = False, case_sensitive: bool = False, nrefs: Union[int, str] = "?",
) -> TerResult:
    """THE function from (summed) statistics to a score: edits / reference length.

    The options only go into the signature (the statistics were counted with them).

    >>> r = ter_from_stats(TerStats(3, Fraction(12)))
    >>> r.score, r.signature  # doctest: +ELLIPSIS
    (0.25, 'mtlearn-ter|nrefs:?|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:...')
    >>> ter_from_stats(TerStats(2, Fraction(0))).reason
    "the reference length is 0 (empty references) and the candidate has words: sacreBLEU's rule gives 1"
    """
    if metric not in METRICS:
        raise ValueError(f"metric: unknown value {metric!r}; choose one of {', '.join(METRICS)}")
    if not isinstance(stats, TerStats):
        raise TypeError(f"stats: expected TerStats, got {type(stats).__name__}")
    opts = _check_options(metric, normalized, no_punct, asian_support, case_sensitive)
    score, reason = _score(stats)
    return TerResult(score, stats.edits, float(stats.ref_length), metric, opts.normalized, opts.no_punct,
                     opts.asian_support, opts.case_sensitive, _signature(opts, str(nrefs)), reason, stats)


# --------------------------------------------------------------------------------------
# One segment
# --------------------------------------------------------------------------------------


def _best(edit_counts: Sequence[int]) -> int:
    best = 0
    for k, e in enumerate(edit_counts):
        if e < edit_counts[best]:
            best = k
    return best


def _segment(cand: tuple[str, ...], refs: list[tuple[str, ...]], opts: _Options) -> TerResult:
    """One segment with its full trace (shift records and edit script against the best reference)."""
    if opts.metric == "ter":
        searches = [fast_shift_search(cand, ref) for ref in refs]
        edit_counts = [s.edits for s in searches]
    else:
        alignments = [exact_levenshtein(cand, ref) for ref in refs]
        edit_counts = [a.distance for a in alignments]
    best = _best(edit_counts)
    if opts.metric == "ter":
        found = searches[best]
        shifts, shifted, alignment, stopped = found.shifts, found.shifted, found.alignment, found.stopped
    else:
        shifts, shifted, alignment, stopped = (), cand, alignments[best], None
    stats = TerStats(edit_counts[best], Fraction(sum(map(len, refs)), len(refs)))
    score, rule = _score(stats)
    notes = _segment_notes(cand, refs, rule)
    choice = None
    if len(refs) > 1:
        choice = (f"reference {best} needs the fewest edits ({edit_counts[best]} of "
                  f"{', '.join(map(str, edit_counts))}; the first on a tie); the length is the average "
                  f"of all {plural(len(refs), 'reference')}")
    return TerResult(
        score, stats.edits, float(stats.ref_length), opts.metric, opts.normalized, opts.no_punct,
        opts.asian_support, opts.case_sensitive, _signature(opts, str(len(refs))),
        "; ".join(notes) if notes else None, stats,
        best_reference=best, reference_choice=choice, reference_edits=tuple(edit_counts),
        shifts=shifts, edits=_edit_script(shifted, refs[best], alignment), candidate_tokens=cand,
        shifted_tokens=tuple(shifted), reference_tokens=refs[best], all_reference_tokens=tuple(refs),
        stopped=stopped,
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


def _run_segment(metric: str, candidate: object, references: object, normalized: object, no_punct: object,
                 asian_support: object, case_sensitive: object) -> TerResult:
    opts = _check_options(metric, normalized, no_punct, asian_support, case_sensitive)
    check_sentence_call(candidate, references, call=metric)  # a corpus here would score as one sentence
    cand = _as_tokens(candidate, "candidate", _tokenizer(opts), opts)
    refs = _as_references(references, "references", _tokenizer(opts, reference=True), opts)
    return _segment(cand, refs, opts)


def ter(
    candidate: Union[str, Sequence[str]],
    references: Sequence[Union[str, Sequence[str]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
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
    return _run_segment("ter", candidate, references, normalized, no_punct, asian_support, case_sensitive)


def wer(
    candidate: Union[str, Sequence[str]],
    references: Sequence[Union[str, Sequence[str]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = True,
) -> TerResult:
    """Word error rate: the exact Levenshtein distance over words / reference length (no shifts).

    Words are split on white space (jiwer's default); case-sensitive by default (jiwer);
    the tercom options apply as in :func:`ter`. Several references: as TER, the fewest
    edits and the average length.

    >>> r = wer("the cat sat on mat", ["the cat sat on the mat"])
    >>> r.num_edits, r.score, r.metric, r.shifts
    (1, 0.16666666666666666, 'wer', ())
    """
    return _run_segment("wer", candidate, references, normalized, no_punct, asian_support, case_sensitive)


def cer(
    candidate: Union[str, Sequence[str]],
    references: Sequence[Union[str, Sequence[str]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = True,
) -> TerResult:
    """Character error rate: Levenshtein distance over characters / reference length in characters.

    The characters of the stripped text, spaces included (jiwer's default); with
    ``normalized`` or ``no_punct`` the characters of tercom's tokenised text.

    >>> r = cer("kitten", ["sitting"])
    >>> r.num_edits, round(r.score, 4), r.signature.split("|")[3]
    (3, 0.4286, 'tok:char')
    """
    return _run_segment("cer", candidate, references, normalized, no_punct, asian_support, case_sensitive)


# --------------------------------------------------------------------------------------
# Corpus
# --------------------------------------------------------------------------------------


class TerSegments(Sequence[TerResult]):
    """The per-segment results of a corpus, built on access (the trace is recomputed for segment i).

    ``stats()`` gives every segment's :class:`TerStats` without recomputing anything.

    >>> r = corpus_ter(["a b c", "b a"], [["a b c"], ["a b"]])
    >>> len(r.segments), r.segments[1].num_edits, r.segments.stats()[1]
    (2, 1, TerStats(edits=1, ref_length=Fraction(2, 1)))
    """

    def __init__(self, candidates: list, references: list, edits: array, lengths: array, nrefs: array,
                 options: _Options) -> None:
        self._candidates = candidates
        self._references = references
        self._edits = edits
        self._lengths = lengths
        self._nrefs = nrefs
        self._options = options

    def __len__(self) -> int:
        return len(self._candidates)

    @overload
    def __getitem__(self, index: int) -> TerResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[TerResult]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[TerResult, list[TerResult]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = check_index(index, len(self))
        opts = self._options
        cand = _as_tokens(self._candidates[index], f"candidates[{index}]", _tokenizer(opts), opts)
        refs = _as_references(self._references[index], f"references[{index}]",
                              _tokenizer(opts, reference=True), opts)
        return _segment(cand, refs, opts)

    def stats_of(self, index: int) -> TerStats:
        """The :class:`TerStats` of segment ``index``."""
        index = check_index(index, len(self))
        return TerStats(self._edits[index], Fraction(self._lengths[index], self._nrefs[index]))

    def stats(self) -> list[TerStats]:
        """Every segment's :class:`TerStats`, in order."""
        return [TerStats(e, Fraction(n, k)) for e, n, k in zip(self._edits, self._lengths, self._nrefs)]

    def __repr__(self) -> str:
        return f"<TerSegments: {plural(len(self), 'segment')}>"


def _segment_edits(metric: str, cand: tuple[str, ...], refs: list[tuple[str, ...]]) -> int:
    if metric == "ter":
        return min(ter_edits(cand, ref) for ref in refs)
    return min(exact_distance(cand, ref) for ref in refs)


def _run_corpus(metric: str, candidates: object, references: object, normalized: object, no_punct: object,
                asian_support: object, case_sensitive: object) -> TerResult:
    opts = _check_options(metric, normalized, no_punct, asian_support, case_sensitive)
    check_corpus(candidates, references)
    assert isinstance(candidates, Sequence) and isinstance(references, Sequence)
    candidates, references = list(candidates), list(references)
    tok, ref_tok = _tokenizer(opts), _tokenizer(opts, reference=True)
    edits, lengths, nrefs = array("q"), array("q"), array("q")
    # Exact sum of the average lengths: the summed lengths per number of references.
    by_nrefs: dict[int, int] = {}
    empty_cands = empty_refs = 0
    for i, (c, rs) in enumerate(zip(candidates, references)):
        cand = _as_tokens(c, f"candidates[{i}]", tok, opts)
        refs = _as_references(rs, f"references[{i}]", ref_tok, opts)
        total = sum(map(len, refs))
        edits.append(_segment_edits(metric, cand, refs))
        lengths.append(total)
        nrefs.append(len(refs))
        by_nrefs[len(refs)] = by_nrefs.get(len(refs), 0) + total
        empty_cands += not cand
        empty_refs += not all(refs)
    stats = TerStats(sum(edits), sum((Fraction(v, k) for k, v in by_nrefs.items()), Fraction(0)))
    score, rule = _score(stats)
    notes = []
    if empty_cands:
        notes.append(f"{part_of(empty_cands, len(candidates), 'candidate')} empty")
    if empty_refs:
        notes.append(f"{part_of(empty_refs, len(candidates), 'segment', ('has', 'have'))} an empty reference "
                     "(one deletion per candidate word, length 0: sacreBLEU's rule)")
    if rule:
        notes.append(rule)
    seen = set(nrefs)
    return TerResult(
        score, stats.edits, float(stats.ref_length), metric, opts.normalized, opts.no_punct, opts.asian_support,
        opts.case_sensitive, _signature(opts, str(next(iter(seen))) if len(seen) == 1 else "var"),
        "; ".join(notes) if notes else None, stats,
        segments=TerSegments(candidates, references, edits, lengths, nrefs, opts),
    )


def _checked_corpus(metric: str, candidates: object, references: object, *options: object) -> TerResult:
    """A corpus call with the layout hints: a mis-shaped layout before the shape errors, a square one after."""
    warn_reference_layout(candidates, references, call=f"corpus_{metric}", stacklevel=4)
    result = _run_corpus(metric, candidates, references, *options)
    assert isinstance(candidates, Sequence)
    warn_ambiguous_layout(candidates, references, result.score,
                          lambda refs: _run_corpus(metric, candidates, refs, *options).score, call=f"corpus_{metric}",
                          stacklevel=4)
    return result


def corpus_ter(
    candidates: Sequence[Union[str, Sequence[str]]],
    references: Sequence[Sequence[Union[str, Sequence[str]]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TerResult:
    """Corpus TER: summed edits / summed average reference lengths (sacreBLEU's ``corpus_ter`` / 100).

    ``references[i]`` lists the references of ``candidates[i]`` (as :func:`~mtlearn.corpus_bleu`;
    sacreBLEU takes the transpose, one stream per reference). Per-segment results with their
    shifts and edit scripts are in ``.segments`` (recomputed on access).

    >>> r = corpus_ter(["the cat sat on the mat", "a b c d"], [["on the mat the cat sat"], ["a b x d"]])
    >>> r.num_edits, r.reference_length, round(r.score, 4)
    (2, 10.0, 0.2)
    """
    return _checked_corpus("ter", candidates, references, normalized, no_punct, asian_support, case_sensitive)


def corpus_wer(
    candidates: Sequence[Union[str, Sequence[str]]],
    references: Sequence[Sequence[Union[str, Sequence[str]]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = True,
) -> TerResult:
    """Corpus WER: summed word edits / summed reference lengths (jiwer's ``wer`` on lists).

    >>> corpus_wer(["a b", "c"], [["a c"], ["c d"]]).score
    0.5
    """
    return _checked_corpus("wer", candidates, references, normalized, no_punct, asian_support, case_sensitive)


def corpus_cer(
    candidates: Sequence[Union[str, Sequence[str]]],
    references: Sequence[Sequence[Union[str, Sequence[str]]]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = True,
) -> TerResult:
    """Corpus CER: summed character edits / summed reference lengths in characters (jiwer's ``cer``).

    >>> corpus_cer(["kitten", "abc"], [["sitting"], ["abc"]]).num_edits
    3
    """
    return _checked_corpus("cer", candidates, references, normalized, no_punct, asian_support, case_sensitive)

"""BLEU profiles scored: the steps that are not mtlearn's defaults, and the scorer of one corpus.

:class:`BleuProfileScorer` scores profiles on one corpus, tokenizing and counting once per
setting; :func:`score_profile` scores one. The profiles themselves (settings, sources) are
:mod:`mtlearn.metrics.bleu.profiles`.

>>> cand, refs = "the cat sat on the mat", ["the cat is on the mat", "there is a cat on the mat"]
>>> for name in ("sacrebleu-sentence", "nltk-sentence-method1", "hf-evaluate", "hf-evaluate-smooth"):
...     print(name, round(score_profile(name, [cand], [refs]).score, 4))
sacrebleu-sentence 0.3799
nltk-sentence-method1 0.2541
hf-evaluate 0.0
hf-evaluate-smooth 0.4889
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import struct
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional, Union

from mtlearn.core.checks import as_tokens, check_corpus
from mtlearn.metrics.bleu.formulas import (
    brevity_penalty as papineni_brevity_penalty,
)
from mtlearn.metrics.bleu.formulas import (
    closest_ref_length,
    geometric_mean,
    precision_counts,
)
from mtlearn.metrics.bleu.profiles import OWN_RULES, BleuProfile, get_profile
from mtlearn.metrics.bleu.score import bleu_from_stats
from mtlearn.metrics.bleu.smoothing import NEEDS_FIVEGRAMS
from mtlearn.metrics.bleu.stats import BleuStats, sum_stats

__all__ = ["BleuProfileScore", "BleuProfileScorer", "score_profile", "brevity_penalty_ratio",
           "reference_length"]


# --------------------------------------------------------------------------------------
# The steps that are not mtlearn's defaults
# --------------------------------------------------------------------------------------


def reference_length(rule: str, ties: str, candidate_length: int, lengths: Sequence[int]) -> int:
    """r of one segment: the closest reference length (ties to the shorter or to the first listed) or the
    shortest.

    >>> reference_length("closest", "shorter", 5, [6, 4]), reference_length("closest", "first-listed", 5, [6, 4])
    (4, 6)
    >>> reference_length("shortest", "shorter", 5, [3, 6])
    3
    """  # noqa: E501
    if rule == "shortest":
        return min(lengths)
    if ties == "shorter":
        return closest_ref_length(candidate_length, lengths)
    gaps = [abs(length - candidate_length) for length in lengths]
    return lengths[gaps.index(min(gaps))]


def brevity_penalty_ratio(candidate_length: int, reference_length: int) -> tuple[float, Optional[str]]:
    """tensorflow/nmt's BP: ratio = c/r; 1 when ratio > 1, else exp(1 - 1/ratio); and a note at a division by
    zero.

    >>> brevity_penalty_ratio(5, 6)[0] == math.exp(1 - 1 / (5 / 6))
    True
    >>> brevity_penalty_ratio(0, 6)
    (0.0, 'c = 0: tensorflow/nmt divides by zero here (1/ratio); BP taken as 0')
    """
    if reference_length == 0:
        return 1.0, "r = 0: tensorflow/nmt divides by zero here (c/r); BP taken as 1 (tensor2tensor's)"
    if candidate_length == 0:
        return 0.0, "c = 0: tensorflow/nmt divides by zero here (1/ratio); BP taken as 0"
    ratio = candidate_length / reference_length
    return (1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)), None


def _weights(rule: str, orders: int) -> tuple[float, ...]:
    if rule == "halvings":
        return tuple(0.5 ** n for n in range(1, orders + 1))
    return tuple(1.0 / orders for _ in range(orders))


def _own_precisions(rule: str, matches: Sequence[int], totals: Sequence[int]) -> list[Fraction]:
    """The precisions of lin-och, torchmetrics-add-one and t2t-exp (0 for an order left out)."""
    if rule == "lin-och":
        return [Fraction(m + 1, t + 1) for m, t in zip(matches, totals)]
    if rule == "torchmetrics-add-one":
        if min(matches) == 0:
            return [Fraction(0) for _ in matches]
        return [Fraction(matches[0], totals[0])] + [Fraction(m + 1, t + 1)
                                                    for m, t in zip(matches[1:], totals[1:])]
    out, doubling = [], 1
    for m, t in zip(matches, totals):  # t2t-exp
        if t == 0:
            out.append(Fraction(0))
        elif m > 0:
            out.append(Fraction(m, t))
        else:
            doubling *= 2
            out.append(Fraction(1, doubling * t))
    return out


@dataclass(frozen=True)
class _Mean:
    precisions: tuple[float, ...]
    geometric_mean: float
    note: Optional[str]


def _geometric(profile: BleuProfile, stats: BleuStats, orders: int) -> _Mean:
    """Step 4: the smoothed precisions of orders 1..``orders`` and their weighted geometric mean."""
    if orders == 0:
        return _Mean((), 0.0, "no order is left (an empty candidate): BLEU = 0")
    weights = _weights(profile.weights, orders)
    if profile.smoothing in OWN_RULES:
        p = _own_precisions(profile.smoothing, stats.matches[:orders], stats.totals[:orders])
        if profile.smoothing == "t2t-exp":  # orders without n-grams left out, the sum still over N
            kept = [(x, w) for x, w in zip(p, weights) if x > 0]
            geo = geometric_mean([x for x, _ in kept], [w for _, w in kept]) if kept else 0.0
        else:
            geo = geometric_mean(p, weights)
        return _Mean(tuple(float(x) for x in p), geo, None)
    with warnings.catch_warnings():  # halvings do not sum to 1; smooth_value > 1: said in the notes
        warnings.simplefilter("ignore")
        result = bleu_from_stats(stats, max_order=orders, weights=weights, smoothing=profile.smoothing,
                                 smooth_value=profile.smooth_value, effective_order=profile.effective_order)
    return _Mean(tuple(result.precisions), result.geometric_mean, result.reason)


def _brevity(profile: BleuProfile, c: int, r: int) -> tuple[float, Optional[str]]:
    """Step 5."""
    if profile.brevity_penalty == "none":
        return 1.0, None
    if profile.brevity_penalty == "ratio":
        return brevity_penalty_ratio(c, r)
    return papineni_brevity_penalty(c, r), None


def _float32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


# --------------------------------------------------------------------------------------
# Scoring a corpus under profiles
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Counts:
    """One segment after counting: c, every reference length used, matches and totals per order."""

    candidate_length: int
    reference_lengths: tuple[int, ...]
    matches: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class BleuProfileScore:
    """A profile's BLEU of a corpus (one segment is a corpus of one), with the intermediate values.

    ``score`` on 0..1 (float32-rounded where the library returns float32), ``reported`` on
    the library's scale; ``candidate_length``, ``reference_length`` (the profile's rule,
    summed), ``matches``, ``totals`` (summed, orders 1..max_order); ``precisions``,
    ``geometric_mean``, ``brevity_penalty`` of the summed statistics (``None`` when the
    profile averages segment scores over several segments); ``segment_scores`` (that
    mean's terms, else empty); ``tokens`` a fingerprint of the tokenised corpus; ``notes``.
    """

    profile: BleuProfile
    score: float
    reported: float
    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: Optional[tuple[float, ...]]
    geometric_mean: Optional[float]
    brevity_penalty: Optional[float]
    segment_scores: tuple[float, ...]
    tokens: str
    notes: tuple[str, ...]

    def values(self) -> dict[str, Any]:
        """The intermediate values by name (what a divergence walk compares)."""
        return {
            "tokens": self.tokens, "candidate_length": self.candidate_length,
            "reference_length": self.reference_length, "matches": self.matches, "totals": self.totals,
            "precisions": self.precisions, "geometric_mean": self.geometric_mean,
            "brevity_penalty": self.brevity_penalty,
        }


def _check_segments(candidates: Sequence[Any], references: Sequence[Any]) -> None:
    check_corpus(candidates, references)
    for i, refs in enumerate(references):
        if isinstance(refs, str) or not isinstance(refs, (list, tuple)):
            raise TypeError(f"references[{i}]: expected a list of references of candidates[{i}], "
                            f"got {type(refs).__name__}")
        if len(refs) == 0:
            raise ValueError(f"references[{i}]: no references given; a candidate needs at least one")


class BleuProfileScorer:
    """Scores BLEU profiles on one corpus; each tokenisation and each counting is done once.

    ``references[i]`` lists the references of ``candidates[i]`` (strings, or token lists
    used as given). Calling the scorer with a profile gives its :class:`BleuProfileScore`.

    >>> scorer = BleuProfileScorer(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat"]])
    >>> [(scorer(get_profile(name)).reference_length, round(scorer(get_profile(name)).score, 4))
    ...  for name in ("sacrebleu-corpus", "hf-evaluate", "hf-evaluate-smooth")]
    [(6, 0.5373), (3, 0.5373), (3, 0.6435)]
    """

    def __init__(self, candidates: Sequence[Any], references: Sequence[Any]) -> None:
        _check_segments(candidates, references)
        self.candidates = list(candidates)
        self.references = [list(r) for r in references]
        self._tokens: dict[tuple, tuple] = {}
        self._counts: dict[tuple, list[_Counts]] = {}
        self._scores: dict[tuple, BleuProfileScore] = {}

    def _tokenise(self, segment: Any, argname: str, tokenize: str, lowercase: bool) -> tuple[str, ...]:
        if tokenize == "split-space" and isinstance(segment, str):
            return tuple((segment.lower() if lowercase else segment).split(" "))
        name = "whitespace" if tokenize == "split-space" else tokenize
        return as_tokens(segment, argname=argname, tokenize=name, lowercase=lowercase)

    def tokens(self, tokenize: str, lowercase: bool) -> tuple[list, list, str]:
        """Step 1: candidates and references as tokens, and a fingerprint of them."""
        key = (tokenize, lowercase)
        if key not in self._tokens:
            cands = [self._tokenise(c, f"candidates[{i}]", tokenize, lowercase)
                     for i, c in enumerate(self.candidates)]
            refs = [[self._tokenise(r, f"references[{i}][{k}]", tokenize, lowercase)
                     for k, r in enumerate(rs)]
                    for i, rs in enumerate(self.references)]
            fingerprint = hashlib.blake2b(digest_size=8)
            for c, rs in zip(cands, refs):
                for seg in (c, *rs):
                    fingerprint.update("\x1f".join(seg).encode("utf-8", "surrogatepass") + b"\x1e")
            self._tokens[key] = (cands, refs, fingerprint.hexdigest())
        return self._tokens[key]

    def counts(self, profile: BleuProfile) -> list[_Counts]:
        """Step 2: each segment's clipped matches and totals per order, with the references used."""
        order = max(profile.max_order, 5) if profile.smoothing in NEEDS_FIVEGRAMS else profile.max_order
        single = all(len(rs) == 1 for rs in self.references)
        key = (profile.tokenize, profile.lowercase, order, "all" if single else profile.references)
        if key not in self._counts:
            cands, refs, _ = self.tokens(profile.tokenize, profile.lowercase)
            rows = []
            for cand, rs in zip(cands, refs):
                used = rs[:1] if profile.references == "first" else rs
                # Past the candidate's length an order has no n-gram: 0 matches of 0, not counted one by one.
                pairs = [precision_counts(cand, used, n) for n in range(1, min(order, len(cand)) + 1)]
                pairs += [(0, 0)] * (order - len(pairs))
                rows.append(_Counts(len(cand), tuple(len(r) for r in used),
                                    tuple(m for m, _ in pairs), tuple(t for _, t in pairs)))
            self._counts[key] = rows
        return self._counts[key]

    def __call__(self, profile: Union[str, BleuProfile]) -> BleuProfileScore:
        profile = get_profile(profile)
        key = tuple(profile.settings().items())
        if key not in self._scores:
            self._scores[key] = self._score(profile)
        return self._scores[key]

    def _score(self, profile: BleuProfile) -> BleuProfileScore:
        rows = self.counts(profile)
        stats = [_stats(profile, row) for row in rows]
        total = sum_stats(stats)
        N = profile.max_order
        notes: list[str] = []
        if profile.aggregation == "mean" and len(rows) > 1:
            segment_scores = tuple(_formula(profile, s, notes)[0] for s in stats)
            value = math.fsum(segment_scores) / len(segment_scores)
            precisions = geo = bp = None
        else:
            value, precisions, geo, bp = _formula(profile, total, notes)
            segment_scores = ()
        if profile.dtype == "float32":
            value = _float32(value)
        return BleuProfileScore(
            profile=profile, score=value, reported=value * profile.scale,
            candidate_length=total.candidate_length, reference_length=total.reference_length,
            matches=tuple(total.matches[:N]), totals=tuple(total.totals[:N]), precisions=precisions,
            geometric_mean=geo, brevity_penalty=bp, segment_scores=segment_scores,
            tokens=self.tokens(profile.tokenize, profile.lowercase)[2], notes=tuple(dict.fromkeys(notes)),
        )


def _stats(profile: BleuProfile, row: _Counts) -> BleuStats:
    """Step 3: one segment's statistics, r by the profile's reference-length rule."""
    r = reference_length(profile.ref_length, profile.ties, row.candidate_length, row.reference_lengths)
    return BleuStats(row.candidate_length, r, row.matches, row.totals,
                     tuple(t if t else 1 for t in row.totals))


def _formula(profile: BleuProfile, stats: BleuStats, notes: list[str]) -> tuple[float, tuple, float, float]:
    """Steps 4 and 5 on (one segment's or summed) statistics: (BLEU, precisions, geometric mean, BP)."""
    orders = profile.max_order
    if profile.orders == "up-to-candidate":
        orders = min(orders, stats.candidate_length)
    mean = _geometric(profile, stats, orders)
    bp, bp_note = _brevity(profile, stats.candidate_length, stats.reference_length)
    for note in (mean.note, bp_note):
        if note:
            notes.append(note)
    return bp * mean.geometric_mean, mean.precisions, mean.geometric_mean, bp


def score_profile(
    profile: Union[str, BleuProfile], candidates: Sequence[Any], references: Sequence[Any],
    *, tokenize: Optional[str] = None,
) -> BleuProfileScore:
    """BLEU of a corpus (``references[i]`` lists the references of ``candidates[i]``) under ``profile``.

    ``tokenize`` replaces the profile's tokenizer (every profile then sees the same tokens).

    >>> r = score_profile("sacrebleu-corpus", ["the cat sat on the mat"], [["the cat sat on a mat"]])
    >>> r.matches, r.totals, round(r.reported, 2)
    ((5, 3, 2, 1), (6, 5, 4, 3), 53.73)
    """
    profile = get_profile(profile)
    if tokenize is not None:
        profile = dataclasses.replace(profile, tokenize=tokenize)
    return BleuProfileScorer(candidates, references)(profile)

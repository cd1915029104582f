"""METEOR as well-known implementations compute it: named profiles of mtlearn's own steps.

A :class:`MeteorProfile` is a frozen dataclass of settings, grouped into the pipeline's
ordered :data:`STEPS` (text → stages and their lookups → alignment rule → parameters →
chunks → penalty → score); :func:`score_profile` runs mtlearn's step functions (its
matchers, its exact alignment search or :mod:`~mtlearn.metrics.meteor.greedy`'s NLTK
walk, the formulas of :mod:`~mtlearn.metrics.meteor.formulas`) configured by it. Changing
one step's fields at a time moves one implementation's score to another's.

The profiles (:data:`PROFILES`), each written from its published source:

* ``banerjee-lavie-2005`` — mtlearn's default (``mtlearn.meteor``): stages exact, Porter
  stem, WordNet synonym (two words sharing a synset), each stage's most matches with the
  fewest crossings (then chunks, then a lexicographic rule), α = 0.9, β = 3, γ = 0.5,
  exact fractions, a corpus from summed counts.
* ``nltk`` — ``nltk.translate.meteor_score.meteor_score`` (NLTK ≥ 3.6.6, read in the
  installed ``nltk/translate/meteor_score.py``): pre-tokenised input lowercased by
  ``preprocess=str.lower`` (strings are split on white space here, as a caller does), the
  greedy walk of :func:`~mtlearn.metrics.meteor.greedy.greedy_align`, synonyms looked up by
  Porter stem in one direction (:class:`~mtlearn.metrics.meteor.greedy.NltkSynonymMatcher`,
  its ``wordnet`` argument: pass ``wordnet=`` to :func:`score_profile`), α = 0.9, β = 3,
  γ = 0.5 in floats, in NLTK's order of operations. NLTK has no corpus METEOR; a corpus
  is the mean of segment scores, as Hugging Face evaluate's ``meteor`` reports it.
* ``nltk-3.6.2`` — the same before NLTK PR #2763 (fixed in 3.6.3): the stem stage's matches
  were not removed, so the synonym stage (looking up the words themselves) could map them
  again, and a segment could score above 1. Hugging Face ``datasets`` 1.10.2 called it on
  strings split on white space: its 0.7398 in huggingface/evaluate#115.
* ``meteor-1.5`` — METEOR 1.5's defaults for English (task ``rank``, read in
  github.com/cmu-mtlab/meteor, ``util/Constants.java``, ``scorer/MeteorScorer.java``,
  ``scorer/MeteorConfiguration.java``): no lowercasing without ``-lower``/``-norm``, the
  Snowball stemmer, α = 0.85, β = 0.20, γ = 0.60, δ = 0.75, stage weights exact 1.0,
  stem 0.6, synonym 0.8 in P and R, fragmentation 0 when every word of both strings is
  matched in one chunk, a corpus from summed statistics, doubles.

What ``meteor-1.5`` **cannot reproduce**: the paraphrase stage (weight 0.6; its tables are
not here), the function-word list (every word counts as a content word, so δ cancels out of
P and R: with no function words P = δ·Σwₛmₛ / (δ·w_t)), the jar's own synonym files (mtlearn's
WordNet synsets stand in), ``-norm``'s tokenisation and normalisation, and its aligner: a
beam search (beam 40) over every stage's candidate matches at once, ranking partial
alignments by more matches, fewer chunks, then the smaller total distance |i − j|; mtlearn
runs its exact stage-by-stage search with the fewest-chunks rule (``tie_break="chunks"``) and
breaks the last ties lexicographically. Its score is therefore an approximation of the jar's,
not the jar's (HF evaluate #115: the jar 0.4474).

The candidate/reference pair "the cat was sat on the mat" / "the cat sat on the mat" under each profile:

>>> cand, ref = "the cat was sat on the mat", "the cat sat on the mat"
>>> for name in PROFILES:
...     print(name, round(score_profile(PROFILES[name], [cand], [[ref]]).score, 4))
banerjee-lavie-2005 0.9654
nltk 0.9654
nltk-3.6.2 0.9654
meteor-1.5 0.5057
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional, Union

from mtlearn.core.checks import as_token_corpus, check_choice
from mtlearn.metrics.meteor.alignment import align
from mtlearn.metrics.meteor.formulas import (
    count_chunks,
    exact,
    f_mean,
    fragmentation_penalty,
    meteor_score_value,
)
from mtlearn.metrics.meteor.greedy import count_chunks_in_order, greedy_align, stages_for
from mtlearn.metrics.meteor.matchers import Stage
from mtlearn.metrics.meteor.options import check_parameters

__all__ = ["MeteorProfile", "STEPS", "DESCRIPTIVE_FIELDS", "PROFILES", "ProfileSegment", "ProfileScore",
           "score_profile", "profile_numbers", "profile_pairs", "get_profile", "with_step"]

Number = Union[Fraction, float]

#: The pipeline's steps in order, each with the profile fields it sets.
STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("lowercasing/tokenisation", ("lowercase", "tokenize")),
    ("stages and their lookups", ("stages", "stemmer", "synonyms", "reuse_stem_matches")),
    ("alignment rule", ("alignment",)),
    ("parameters", ("alpha", "beta", "gamma", "delta", "stage_weights")),
    ("chunks", ("fragmentation_matches",)),
    ("penalty", ("full_match_penalty",)),
    ("score", ("arithmetic", "corpus")),
)

#: The fields that describe a profile rather than set a step (``mtlearn.why``'s ``check_steps`` reads them).
DESCRIPTIVE_FIELDS: tuple[str, ...] = ("name", "title", "source")

#: Values the profile's choice fields take.
ALIGNMENTS = ("crossings", "chunks", "greedy")
SYNONYMS = ("synset", "lemma-of-stem", "lemma-of-word")
FRAGMENTATION_MATCHES = ("matches", "mean-of-both-sides")
ARITHMETICS = ("exact", "float")
CORPUS_RULES = ("summed-counts", "mean-of-segments")


@dataclass(frozen=True)
class MeteorProfile:
    """One implementation's METEOR, as settings of mtlearn's steps (see :data:`STEPS`).

    ``name``, ``title`` and ``source`` describe it; every other field is a setting:

    - text: ``lowercase``, ``tokenize`` (an mtlearn tokenizer for strings; token lists are
      taken as they are);
    - stages: ``stages`` (names), ``stemmer`` (``porter``/``snowball``), ``synonyms``
      (``synset``: two words share a WordNet synset; ``lemma-of-stem``: NLTK ≥ 3.6.3;
      ``lemma-of-word``: NLTK ≤ 3.6.2), ``reuse_stem_matches`` (NLTK ≤ 3.6.2's bug; only
      the greedy walk can map a word twice, the search never does);
    - ``alignment``: ``crossings`` (Banerjee & Lavie), ``chunks`` (METEOR 1.x's rule, by
      mtlearn's exact search) or ``greedy`` (NLTK);
    - parameters: ``alpha``, ``beta``, ``gamma``, ``delta`` (METEOR 1.5's content-word
      weight; without a function-word list it cancels out), ``stage_weights`` (one per
      stage: the credit of a match in P and R);
    - chunks: ``fragmentation_matches`` — the denominator of c/m: ``matches``, or METEOR
      1.5's ``mean-of-both-sides`` (matched words counted in each string, averaged: the
      same number for one-to-one unigram matches);
    - penalty: ``full_match_penalty`` — False is METEOR 1.5's rule: no penalty when every
      word of both strings is matched in one chunk;
    - score: ``arithmetic`` (``exact`` Fractions or NLTK's ``float`` operations) and
      ``corpus`` (``summed-counts`` or the ``mean-of-segments``).

    >>> PROFILES["nltk"].alignment, PROFILES["meteor-1.5"].stage_weights
    ('greedy', (1.0, 0.6, 0.8))
    >>> dataclasses.replace(PROFILES["nltk"], alignment="diagonal")
    Traceback (most recent call last):
    ...
    ValueError: alignment: unknown value 'diagonal'; choose one of crossings, chunks, greedy
    """

    name: str
    title: str
    source: str
    lowercase: bool = True
    tokenize: str = "whitespace"
    stages: tuple[str, ...] = ("exact", "stem", "synonym")
    stemmer: str = "porter"
    synonyms: str = "synset"
    reuse_stem_matches: bool = False
    alignment: str = "crossings"
    alpha: float = 0.9
    beta: float = 3.0
    gamma: float = 0.5
    delta: float = 1.0
    stage_weights: tuple[float, ...] = (1.0, 1.0, 1.0)
    fragmentation_matches: str = "matches"
    full_match_penalty: bool = True
    arithmetic: str = "exact"
    corpus: str = "summed-counts"

    def __post_init__(self) -> None:
        check_choice(self.alignment, ALIGNMENTS, "alignment")
        check_choice(self.synonyms, SYNONYMS, "synonyms")
        check_choice(self.fragmentation_matches, FRAGMENTATION_MATCHES, "fragmentation_matches")
        check_choice(self.arithmetic, ARITHMETICS, "arithmetic")
        check_choice(self.corpus, CORPUS_RULES, "corpus")
        check_parameters(self.alpha, self.beta, self.gamma)
        if len(self.stage_weights) != len(self.stages):
            raise ValueError(f"stage_weights: {len(self.stage_weights)} weights for "
                             f"{len(self.stages)} stages")


PROFILES: dict[str, MeteorProfile] = {
    "banerjee-lavie-2005": MeteorProfile(
        "banerjee-lavie-2005", "Banerjee & Lavie 2005 (mtlearn.meteor)",
        "Banerjee and Lavie (2005), ACL workshop W05-0909; mtlearn/metrics/meteor/score.py"),
    "nltk": MeteorProfile(
        "nltk", "NLTK meteor_score (>= 3.6.6)",
        "github.com/nltk/nltk, nltk/translate/meteor_score.py (installed NLTK)",
        synonyms="lemma-of-stem", alignment="greedy", arithmetic="float", corpus="mean-of-segments"),
    "nltk-3.6.2": MeteorProfile(
        "nltk-3.6.2", "NLTK meteor_score <= 3.6.2 (HF datasets 1.10.2)",
        "github.com/nltk/nltk, nltk/translate/meteor_score.py before nltk/nltk#2763 (nltk/nltk#2751)",
        synonyms="lemma-of-word", reuse_stem_matches=True, alignment="greedy", arithmetic="float",
        corpus="mean-of-segments"),
    "meteor-1.5": MeteorProfile(
        "meteor-1.5", "METEOR 1.5 (English, task rank; no paraphrases, no function words)",
        "github.com/cmu-mtlab/meteor: src/edu/cmu/meteor/util/Constants.java, scorer/MeteorScorer.java",
        lowercase=False, stemmer="snowball", alignment="chunks", alpha=0.85, beta=0.2, gamma=0.6,
        delta=0.75, stage_weights=(1.0, 0.6, 0.8), fragmentation_matches="mean-of-both-sides",
        full_match_penalty=False, arithmetic="float"),
}


def get_profile(profile: Union[str, MeteorProfile]) -> MeteorProfile:
    """A profile by name (or the profile itself).

    >>> get_profile("nltk").title
    'NLTK meteor_score (>= 3.6.6)'
    >>> get_profile("nltk-3.9")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: profile: unknown METEOR profile 'nltk-3.9'; choose one of banerjee-lavie-2005, nltk, ...
    """
    if isinstance(profile, MeteorProfile):
        return profile
    if not isinstance(profile, str) or profile not in PROFILES:
        raise ValueError(f"profile: unknown METEOR profile {profile!r}; choose one of {', '.join(PROFILES)}")
    return PROFILES[profile]


@dataclass(frozen=True)
class ProfileSegment:
    """One segment under a profile, against its best reference (the first on a tie).

    ``pairs`` are ``(candidate index, reference index, stage)`` in the profile's order;
    ``matches_per_stage`` counts them per stage (a word mapped twice counts twice, as in
    NLTK ≤ 3.6.2); ``score`` is this segment's own score.
    """

    pairs: tuple[tuple[int, int, str], ...]
    matches_per_stage: tuple[int, ...]
    candidate_length: int
    reference_length: int
    chunks: int
    best_reference: int
    score: Number

    @property
    def matches(self) -> int:
        """All mappings, every stage."""
        return sum(self.matches_per_stage)


@dataclass(frozen=True)
class ProfileScore:
    """A profile's METEOR of a corpus (one segment is a corpus of one): every number.

    ``precision`` … ``penalty`` are the corpus's (of the summed counts; for a
    ``mean-of-segments`` corpus of several segments, ``None``: no single formula gives it).
    """

    profile: MeteorProfile
    score: float
    score_value: Number
    precision: Optional[Number]
    recall: Optional[Number]
    f_mean: Optional[Number]
    fragmentation: Optional[Number]
    penalty: Optional[Number]
    segments: tuple[ProfileSegment, ...]


def _float_numbers(profile: MeteorProfile, weighted: float, m: int, wt: int, wr: int, c: int,
                   full: bool) -> dict[str, Number]:
    """NLTK's float operations, in its order (``single_meteor_score``); weighted matches as METEOR 1.5."""
    p, r = weighted / wt, weighted / wr
    f = (p * r) / (profile.alpha * p + (1 - profile.alpha) * r)
    frag = 0.0 if full else float(c) / m
    pen = profile.gamma * frag ** profile.beta
    return dict(precision=p, recall=r, f_mean=f, fragmentation=frag, penalty=pen, score=(1 - pen) * f)


def profile_numbers(profile: MeteorProfile, matches_per_stage: Sequence[int], candidate_length: int,
                    reference_length: int, chunks: int) -> dict[str, Number]:
    """P, R, F_mean, fragmentation, penalty and score from the counts, as the profile computes them.

    P = Σ wₛ·mₛ / w_t and R = Σ wₛ·mₛ / w_r (weights 1: m / w_t, m / w_r), then mtlearn's
    :func:`~mtlearn.metrics.meteor.formulas.f_mean` and
    :func:`~mtlearn.metrics.meteor.formulas.fragmentation_penalty` (``exact``) or NLTK's
    float expressions (``float``). No match, or an empty side, scores 0 (NLTK catches the
    division by zero, METEOR 1.5 its NaN).

    >>> profile_numbers(PROFILES["banerjee-lavie-2005"], (6, 0, 0), 7, 6, 2)["score"]
    Fraction(530, 549)
    >>> profile_numbers(PROFILES["meteor-1.5"], (6, 0, 0), 6, 6, 1)["score"]  # no penalty
    1.0
    """
    m = sum(matches_per_stage)
    zero: dict[str, Number] = dict(precision=0, recall=0, f_mean=0, fragmentation=0, penalty=0, score=0)
    if m == 0 or candidate_length == 0 or reference_length == 0:
        return zero if profile.arithmetic == "exact" else {k: 0.0 for k in zero}
    full = (not profile.full_match_penalty and chunks == 1
            and m == candidate_length and m == reference_length)
    if profile.arithmetic == "float":
        weighted = sum(w * n for w, n in zip(profile.stage_weights, matches_per_stage))
        return _float_numbers(profile, weighted, m, candidate_length, reference_length, chunks, full)
    return _exact_numbers(profile, matches_per_stage, candidate_length, reference_length, chunks, full)


def _exact_numbers(profile: MeteorProfile, matches_per_stage: Sequence[int], candidate_length: int,
                   reference_length: int, chunks: int, full: bool) -> dict[str, Number]:
    """mtlearn's formula steps on the weighted matches (weights 1: exactly ``mtlearn.meteor``'s numbers)."""
    m = sum(matches_per_stage)
    weighted = sum(exact(w) * n for w, n in zip(profile.stage_weights, matches_per_stage))
    p, r = Fraction(weighted) / candidate_length, Fraction(weighted) / reference_length
    f = f_mean(p, r, profile.alpha) if p and r else Fraction(0)
    pen = Fraction(0) if full else fragmentation_penalty(chunks, m, profile.beta, profile.gamma)
    frag = Fraction(0) if full else Fraction(chunks, m)
    return dict(precision=p, recall=r, f_mean=f, fragmentation=frag, penalty=pen,
                score=meteor_score_value(f, pen))


def _profile_stages(profile: MeteorProfile, wordnet: Any) -> list[Stage]:
    return stages_for(profile.stages, profile.stemmer, profile.synonyms, wordnet)


def profile_pairs(profile: MeteorProfile, candidate: Sequence[str], reference: Sequence[str],
                  stages: Sequence[Stage]) -> tuple[tuple[tuple[int, int, str], ...], int]:
    """The profile's alignment as ``(i, j, stage)`` triples and its chunk count.

    >>> stages = _profile_stages(PROFILES["nltk"], None)
    >>> profile_pairs(PROFILES["nltk"], "a b a".split(), "a a b".split(), stages)
    (((0, 0, 'exact'), (1, 2, 'exact'), (2, 1, 'exact')), 3)
    >>> profile_pairs(PROFILES["banerjee-lavie-2005"], "a b a".split(), "a a b".split(), stages)
    (((0, 0, 'exact'), (1, 2, 'exact'), (2, 1, 'exact')), 3)
    """
    if profile.alignment == "greedy":
        mappings = greedy_align(candidate, reference, stages, reuse_stem_matches=profile.reuse_stem_matches)
        pairs = tuple((m.candidate_index, m.reference_index, m.stage) for m in mappings)
        return pairs, count_chunks_in_order([(i, j) for i, j, _ in pairs])
    found = align(candidate, reference, stages, tie_break=profile.alignment)
    pairs = tuple((m.candidate_index, m.reference_index, m.stage) for m in found.mappings)
    return pairs, count_chunks([(i, j) for i, j, _ in pairs])


def _segment(profile: MeteorProfile, cand: Sequence[str], refs: Sequence[Sequence[str]],
             stages: Sequence[Stage]) -> ProfileSegment:
    best: Optional[ProfileSegment] = None
    names = [s.name for s in stages]
    for k, ref in enumerate(refs):
        pairs, chunks = profile_pairs(profile, cand, ref, stages)
        per_stage = tuple(sum(1 for p in pairs if p[2] == name) for name in names)
        score = profile_numbers(profile, per_stage, len(cand), len(ref), chunks)["score"]
        if best is None or score > best.score:
            best = ProfileSegment(pairs, per_stage, len(cand), len(ref), chunks, k, score)
    assert best is not None
    return best


def score_profile(profile: Union[str, MeteorProfile], candidates: Sequence[Any], references: Sequence[Any], *,
                  wordnet: Any = None) -> ProfileScore:
    """METEOR of a corpus (``references[i]`` lists the references of ``candidates[i]``) under ``profile``.

    ``wordnet`` is the WordNet corpus reader of NLTK's synonym lookups (NLTK's argument of
    that name; default ``nltk.corpus.wordnet``). Candidates and references are strings
    (tokenized with the profile's ``tokenize``) or token lists.

    >>> r = score_profile("nltk", ["the cats were sitting on the mats"], [["the cat sat on the mat"]])
    >>> r.segments[0].matches_per_stage, round(r.score, 4)
    ((3, 2, 0), 0.7934)
    >>> round(score_profile("banerjee-lavie-2005", ["the cats were sitting on the mats"],
    ...                     [["the cat sat on the mat"]]).score, 4)
    0.9654
    """
    profile = get_profile(profile)
    cands, ref_lists = as_token_corpus(candidates, references, tokenize=profile.tokenize,
                                       lowercase=profile.lowercase)
    stages = _profile_stages(profile, wordnet)
    segments = tuple(_segment(profile, c, refs, stages) for c, refs in zip(cands, ref_lists))
    if profile.corpus == "mean-of-segments" and len(segments) > 1:
        total = sum((s.score for s in segments), Fraction(0) if profile.arithmetic == "exact" else 0.0)
        value = total / len(segments)
        return ProfileScore(profile, float(value), value, None, None, None, None, None, segments)
    per_stage = tuple(sum(s.matches_per_stage[k] for s in segments) for k in range(len(stages)))
    numbers = profile_numbers(profile, per_stage, sum(s.candidate_length for s in segments),
                              sum(s.reference_length for s in segments), sum(s.chunks for s in segments))
    return ProfileScore(profile, float(numbers["score"]), numbers["score"], numbers["precision"],
                        numbers["recall"], numbers["f_mean"], numbers["fragmentation"], numbers["penalty"],
                        segments)


def with_step(profile: MeteorProfile, other: MeteorProfile, step: str) -> MeteorProfile:
    """``profile`` with the fields of ``step`` taken from ``other`` (one move of the divergence walk).

    >>> with_step(PROFILES["banerjee-lavie-2005"], PROFILES["nltk"], "alignment rule").alignment
    'greedy'
    """
    fields = dict(STEPS)[step]
    return dataclasses.replace(profile, **{f: getattr(other, f) for f in fields})

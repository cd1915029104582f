"""``compare_implementations``: the score each well-known implementation reports, and where they part.

Every implementation is a *profile* of mtlearn's own steps
(:mod:`mtlearn.metrics.bleu.profiles`, :mod:`mtlearn.metrics.meteor.profiles`); for every
pair of profiles :func:`~mtlearn.why.divergence.walk` moves from one to the other a step
at a time, so the table says which step makes the difference and by how much.

>>> c = compare_implementations(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat"]],
...                             profiles=["sacrebleu-corpus", "hf-evaluate-smooth"])
>>> [(p.name, round(p.score, 4), round(p.reported, 2)) for p in c.profiles]
[('sacrebleu-corpus', 0.5373, 53.73), ('hf-evaluate-smooth', 0.6435, 0.64)]
>>> d = c.divergence("sacrebleu-corpus", "hf-evaluate-smooth")
>>> d.first_settings_difference, d.first_divergence, d.total == d.difference
('reference length', 'reference length', True)
>>> [(s.step, round(float(s.contribution), 4)) for s in d.steps if s.score_moves]
[('precisions/smoothing', 0.1062)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from mtlearn.core.checks import check_choice
from mtlearn.core.references import warn_ambiguous_layout, warn_reference_layout
from mtlearn.core.tokenize import TOKENIZERS
from mtlearn.metrics.bleu import profiles as bleu_profiles
from mtlearn.metrics.bleu.profile_scores import BleuProfileScorer
from mtlearn.why import explain as _explain  # noqa: F401  (registers the comparison's text and HTML)
from mtlearn.why.divergence import Outcome, check_steps, walk
from mtlearn.why.result import ImplementationComparison, ProfileResult

__all__ = ["METRICS", "ProfileResult", "ImplementationComparison", "compare_implementations"]

#: The metrics ``compare_implementations`` knows.
METRICS: tuple[str, ...] = ("bleu", "meteor")



# --------------------------------------------------------------------------------------
# The metrics' adapters: profiles, steps and a scorer of one corpus
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Metric:
    profiles: dict[str, Any]
    steps: tuple[tuple[str, tuple[str, ...]], ...]
    get_profile: Callable[[Any], Any]
    make_scorer: Callable[[Sequence[Any], Sequence[Any]], Callable[[Any], Any]]
    describe: Callable[[Any], tuple[str, str, str]]
    to_result: Callable[[Any, Any], tuple[Outcome, int]]


def _bleu_outcome(profile: Any, score: Any) -> tuple[Outcome, int]:
    return Outcome(score.score, score.reported, score.values(), score.notes), profile.scale


def _bleu() -> _Metric:
    check_steps(bleu_profiles.BleuProfile, bleu_profiles.STEPS, bleu_profiles.DESCRIPTIVE_FIELDS)
    return _Metric(
        profiles=bleu_profiles.PROFILES, steps=bleu_profiles.STEPS, get_profile=bleu_profiles.get_profile,
        make_scorer=BleuProfileScorer,
        describe=lambda p: (p.library, p.call, p.source), to_result=_bleu_outcome,
    )


def _meteor_outcome(profile: Any, score: Any) -> tuple[Outcome, int]:
    names = ("precision", "recall", "f_mean", "fragmentation", "penalty")
    values = {k: getattr(score, k, None) for k in names}
    segments = getattr(score, "segments", ())
    values["matches_per_stage"] = tuple(map(sum, zip(*[s.matches_per_stage for s in segments])))
    values["chunks"] = sum(s.chunks for s in segments)
    values["candidate_length"] = sum(s.candidate_length for s in segments)
    values["reference_length"] = sum(s.reference_length for s in segments)
    exact = getattr(score, "score_value", score.score)
    return Outcome(exact, score.score, values), 1


def _meteor() -> _Metric:
    try:
        from mtlearn.metrics.meteor import profiles as meteor_profiles
    except ImportError as error:  # pragma: no cover - the METEOR profiles ship with mtlearn
        raise ValueError(f"metric: METEOR's profiles are not available ({error})") from error

    def make_scorer(candidates: Sequence[Any], references: Sequence[Any]) -> Callable[[Any], Any]:
        memo: dict[Any, Any] = {}

        def score(profile: Any) -> Any:
            key = tuple(getattr(profile, f) for _, fields in meteor_profiles.STEPS for f in fields)
            if key not in memo:
                memo[key] = meteor_profiles.score_profile(profile, candidates, references)
            return memo[key]
        return score

    def describe(p: Any) -> tuple[str, str, str]:
        title = getattr(p, "title", getattr(p, "library", p.name))
        return title, getattr(p, "call", title), getattr(p, "source", "")

    return _Metric(
        profiles=meteor_profiles.PROFILES, steps=tuple(meteor_profiles.STEPS),
        get_profile=meteor_profiles.get_profile, make_scorer=make_scorer, describe=describe,
        to_result=_meteor_outcome,
    )


# --------------------------------------------------------------------------------------
# The entry point
# --------------------------------------------------------------------------------------


def _chosen(metric: _Metric, profiles: Optional[Sequence[Any]], tokenize: Optional[str]) -> list[Any]:
    if profiles is None:
        chosen = list(metric.profiles.values())
    else:
        if isinstance(profiles, (str, bytes)) or not isinstance(profiles, Sequence):
            raise TypeError("profiles: expected a list of profile names (or profiles), "
                            f"got {type(profiles).__name__}")
        if len(profiles) == 0:
            raise ValueError("profiles: no profile given; give at least one name, or None for all")
        chosen = [metric.get_profile(p) for p in profiles]
    names = [p.name for p in chosen]
    doubled = sorted({n for n in names if names.count(n) > 1})
    if doubled:
        raise ValueError(f"profiles: {', '.join(doubled)} given more than once")
    if tokenize is not None:
        chosen = [dataclasses.replace(p, tokenize=tokenize) for p in chosen]
    return chosen


def _one_segment(candidates: Any, references: Any) -> tuple[Any, Any]:
    """A single candidate string with its list of references is a corpus of one segment."""
    if isinstance(candidates, str):
        if isinstance(references, str):
            return [candidates], [[references]]
        if isinstance(references, Sequence) and all(isinstance(r, str) for r in references):
            return [candidates], [list(references)]
        raise TypeError("references: with one candidate string, give its references as a list of strings")
    return candidates, references


def compare_implementations(
    candidates: Any,
    references: Any,
    metric: str = "bleu",
    *,
    tokenize: Optional[str] = None,
    profiles: Optional[Sequence[Any]] = None,
) -> ImplementationComparison:
    """The score each implementation would report for these inputs, and where every pair parts.

    ``references[i]`` lists the references of ``candidates[i]`` (a single candidate string
    with a list of reference strings is one segment). ``metric`` is ``"bleu"`` or
    ``"meteor"``; ``profiles`` a list of profile names (or profile objects) in table order,
    ``None`` for all of the metric's; ``tokenize`` replaces every profile's tokenizer (so
    that tokenisation drops out of the differences).

    Example A of the Chinese blog post *BLEU—机器翻译评价方法* (2021), where smoothing decides:

    >>> c = compare_implementations("A B B C D", ["A B C D E F"],
    ...                             profiles=["sacrebleu-sentence", "nltk-sentence", "keras-nlp-smooth"])
    >>> [round(p.score, 4) for p in c.profiles]
    [0.3872, 0.0, 0.4727]
    >>> d = c.divergence("nltk-sentence", "keras-nlp-smooth")
    >>> d.first_settings_difference, d.first_divergence  # same tokens: 13a splits nothing here
    ('tokenisation', 'precisions/smoothing')
    >>> compare_implementations("A B", ["A B"], metric="ter")
    Traceback (most recent call last):
    ...
    ValueError: metric: unknown value 'ter'; choose one of bleu, meteor
    """
    check_choice(metric, METRICS, "metric")
    adapter = _bleu() if metric == "bleu" else _meteor()
    if tokenize is not None:
        allowed = bleu_profiles.PROFILE_TOKENIZERS if metric == "bleu" else TOKENIZERS
        check_choice(tokenize, allowed, "tokenize")
    chosen = _chosen(adapter, profiles, tokenize)
    candidates, references = _one_segment(candidates, references)
    warn_reference_layout(candidates, references, call="compare_implementations")  # before the shape errors
    scorer = adapter.make_scorer(candidates, references)

    def outcome(profile: Any) -> Outcome:
        return adapter.to_result(profile, scorer(profile))[0]

    results = []
    for p in chosen:
        found, scale = adapter.to_result(p, scorer(p))
        library, call, source = adapter.describe(p)
        settings = {f: getattr(p, f) for _, fields in adapter.steps for f in fields}
        results.append(ProfileResult(p.name, library, call, source, found.score, found.reported, scale,
                                     settings, dict(found.values), found.notes))
    walks = tuple(walk(a, b, adapter.steps, outcome) for i, a in enumerate(chosen) for b in chosen[i + 1:])

    # The other reading of a square call, under the table's first profile.
    def first_profile(refs: list) -> float:
        return float(adapter.to_result(chosen[0], adapter.make_scorer(candidates, refs)(chosen[0]))[0].score)

    warn_ambiguous_layout(candidates, references, float(results[0].score), first_profile,
                          call="compare_implementations")
    return ImplementationComparison(metric, len(candidates), tokenize, tuple(adapter.steps), tuple(results),
                                    walks)

"""sacreBLEU's paired tests between a baseline and every other system: on statistics, or on texts.

:func:`paired_test_from_stats` runs the test on per-segment integer statistics with any scorer;
:func:`paired_test` scores each system's texts with a metric first (its corpus function, the layout
of the references checked once), then runs it on the segments' statistics.

>>> r = paired_test({"base": ["a b c", "d e"], "other": ["a b", "d e"]}, [["a b c"], ["d e"]],
...                 metric="ter", n_samples=100)
>>> [(s.name, round(s.score, 4), s.p_value) for s in r.systems]
[('base', 0.0, None), ('other', 0.2, 0.009900990099009901)]
>>> paired_test({"base": ["a b"], "other": ["a c"]}, "a b")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
TypeError: references: one string, but a paired test needs one list of references per segment (1 here): ...
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional, Union

import numpy as np

from mtlearn.core.references import ReferenceLayoutWarning, check_reference_layout, warn_ambiguous_layout
from mtlearn.metrics.bleu.score import corpus_bleu
from mtlearn.metrics.chrf.score import corpus_chrf
from mtlearn.metrics.meteor.score import corpus_meteor
from mtlearn.metrics.ter.score import corpus_ter
from mtlearn.study.significance.resampling import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    TESTS,
    Scorer,
    _check_count,
    _check_seed,
    approximate_randomization_p_value,
    bootstrap_indices,
    bootstrap_p_value,
    estimate_ci,
    resample_sums,
)
from mtlearn.study.significance.results import PairedTestResult, SystemTest
from mtlearn.study.significance.scoring import _check_metric, _statistics, resampling_scorer


def _check_test(test: object, n_samples: object) -> tuple[str, int]:
    if test not in TESTS:
        raise ValueError(f"test: unknown value {test!r}; choose 'bs' (paired bootstrap) or 'ar' "
                         "(approximate randomization)")
    n = DEFAULT_SAMPLES[str(test)] if n_samples is None else _check_count(n_samples, "n_samples")
    return str(test), n


def _check_stats(stats: Mapping[str, Any]) -> dict[str, np.ndarray]:
    if not isinstance(stats, Mapping):
        raise TypeError(f"stats: expected a mapping of system name to statistics, got {type(stats).__name__}")
    if len(stats) < 2:
        raise ValueError(f"stats: {len(stats)} system(s); a paired test needs a baseline and at least one "
                         "system to compare with it")
    out = {str(name): np.asarray(rows, dtype=np.int64) for name, rows in stats.items()}
    first_name, first = next(iter(out.items()))
    if first.ndim != 2 or first.shape[0] == 0:
        raise ValueError(f"stats: {first_name!r} has statistics of shape {first.shape}; "
                         "expected one row per segment")
    for name, rows in out.items():
        if rows.shape != first.shape:
            raise ValueError(f"stats: {name!r} has statistics of shape {rows.shape} but the baseline "
                             f"{first_name!r} has {first.shape}; all systems must "
                             "translate the same segments")
    return out


def paired_test_from_stats(
    stats: Mapping[str, Any],
    score: Scorer,
    *,
    test: str = "bs",
    n_samples: Optional[int] = None,
    seed: Optional[int] = DEFAULT_SEED,
    observed: Optional[Mapping[str, float]] = None,
    metric: str = "",
    metric_name: str = "score",
    signature: str = "",
    scale: int = 1,
    progress: Optional[Callable[[str], None]] = None,
) -> PairedTestResult:
    """The paired test on per-segment statistics: the first system of ``stats`` is the baseline.

    ``stats[name][i]`` is system ``name``'s vector of integer statistics of segment
    i; ``score`` turns a matrix of summed statistics (a row per sample) into scores;
    ``observed`` gives the systems' actual scores (default: ``score`` of their sums).
    ``n_samples`` defaults to 1,000 (``"bs"``) or 10,000 (``"ar"``). ``progress``, if
    given, is called with a short message before each system.

    >>> accuracy = lambda sums: sums[:, 0] / sums[:, 1]       # (right, total) summed -> accuracy
    >>> a = [[v, 1] for v in (1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1)]   # 9 of 12 right
    >>> b = [[v, 1] for v in (1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0)]   # 5 of 12 right
    >>> r = paired_test_from_stats({"A": a, "B": b}, accuracy)
    >>> r.system("B").p_value, r.system("B").significant, r.baseline.mean, r.baseline.ci
    (0.01098901098901099, True, 0.7525, 0.25)
    """
    test, n = _check_test(test, n_samples)
    seed = _check_seed(seed)
    matrices = _check_stats(stats)
    names = list(matrices)
    if observed is None:
        observed = {k: float(score(m.sum(0)[None, :])[0]) for k, m in matrices.items()}
    base_name = names[0]
    base = matrices[base_name]
    rows = []
    if test == "bs":
        indices = bootstrap_indices(base.shape[0], n, seed)
        base_samples = score(resample_sums(base, indices))
        mean, ci = estimate_ci(base_samples)
        rows.append(SystemTest(base_name, observed[base_name], mean, ci, None, True))
    else:
        rows.append(SystemTest(base_name, observed[base_name], None, None, None, True))
    for name in names[1:]:
        if progress is not None:
            progress(f"{name} against {base_name} ({n} {'samples' if test == 'bs' else 'trials'})")
        if test == "bs":
            samples = score(resample_sums(matrices[name], indices))
            mean, ci = estimate_ci(samples)
            p = bootstrap_p_value(observed[base_name], observed[name], base_samples, samples)
            rows.append(SystemTest(name, observed[name], mean, ci, p, False))
        else:
            p = approximate_randomization_p_value(base, matrices[name], score, n_trials=n, seed=seed,
                                                  observed=(observed[base_name], observed[name]))
            rows.append(SystemTest(name, observed[name], None, None, p, False))
    suffix = f"|seed:{'none' if seed is None else seed}|{test}:{n}"
    signature = signature + suffix if signature else suffix[1:]
    return PairedTestResult(metric, metric_name, test, n, seed, signature, tuple(rows), scale)


_CORPUS = {"bleu": corpus_bleu, "chrf": corpus_chrf, "meteor": corpus_meteor, "ter": corpus_ter}
_DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    "bleu": {"tokenize": "13a", "smoothing": "exp"},  # sacreBLEU's, as `mtlearn bleu` on the command line
    "chrf": {},
    "meteor": {},
    "ter": {},
}


def _metric_name(metric: str, result: Any) -> str:
    if metric == "chrf":
        return f"chrF{result.beta:g}" + "+" * result.word_order
    return metric.upper()


def _check_references(references: Any, n: int) -> None:
    """A paired test's references: one list per segment (a lone string would count its characters as
    segments)."""
    layout = check_reference_layout([""] * n, references, call="paired_test")
    if layout.layout == "single-string":
        raise TypeError(f"references: one string, but a paired test needs one list of references per segment "
                        f"({n} here): paired_test(systems, [[ref_a, ref_b], ...])")
    if not isinstance(references, Sequence):
        raise TypeError("references: expected one list of references per segment, "
                        f"got {type(references).__name__}")
    if not layout.ok and layout.layout != "lengths-disagree":
        raise ValueError(layout.message.replace("paired_test(candidates, ", "paired_test(systems, "))


def _named_systems(systems: Any) -> dict[str, list[str]]:
    if isinstance(systems, Mapping):
        items = list(systems.items())
    elif isinstance(systems, Sequence) and not isinstance(systems, str):
        items = list(systems)
        if not all(isinstance(it, (tuple, list)) and len(it) == 2 and isinstance(it[0], str) for it in items):
            raise TypeError("systems: expected a mapping of name to hypotheses, "
                            "or a list of (name, hypotheses)")
    else:
        raise TypeError(f"systems: expected a mapping of name to hypotheses, got {type(systems).__name__}")
    named: dict[str, list[str]] = {}
    for name, hyps in items:
        if name in named:
            raise ValueError(f"systems: the name {name!r} is given twice")
        if isinstance(hyps, str) or not isinstance(hyps, Sequence):
            raise TypeError(f"systems: {name!r} must be a list of hypotheses (one string per segment)")
        named[str(name)] = list(hyps)
    if len(named) < 2:
        raise ValueError(f"systems: {len(named)} system(s); a paired test needs a baseline and at least one "
                         "system to compare with it")
    return named


def paired_test(
    systems: Union[Mapping[str, Sequence[str]], Sequence[tuple[str, Sequence[str]]]],
    references: Sequence[Sequence[str]],
    *,
    metric: str = "bleu",
    test: str = "bs",
    n_samples: Optional[int] = None,
    seed: Optional[int] = DEFAULT_SEED,
    progress: Optional[Callable[[str], None]] = None,
    **options: Any,
) -> PairedTestResult:
    """sacreBLEU's paired significance test between a baseline (the first system) and every other system.

    ``systems`` maps names to hypotheses (one string per segment), the baseline
    first; ``references[i]`` lists the references of segment i, as for
    ``corpus_bleu`` (a square call, as many reference lists as segments each as long,
    warns once when its two readings give the baseline different scores; a lone string is
    refused). ``metric`` is ``"bleu"``, ``"chrf"``, ``"meteor"`` or ``"ter"``; ``options``
    are that metric's options (BLEU defaults to sacreBLEU's ``tokenize="13a"``,
    ``smoothing="exp"``, as ``mtlearn bleu`` on the command line). ``test`` is
    ``"bs"`` (paired bootstrap, 1,000 samples) or ``"ar"`` (approximate
    randomisation, 10,000 trials); ``n_samples`` overrides the number. ``seed`` is
    sacreBLEU's 12345 by default, ``None`` for no seed.

    >>> refs = [["the cat sat on the mat"], ["a dog barked"], ["it rained all day"]]
    >>> r = paired_test({"base": ["the cat sat on the mat", "a dog barked", "it rained all day"],
    ...                  "other": ["the cat sat on a mat", "the dog barked", "it rained all the day"]},
    ...                 refs, test="ar", n_samples=1000)
    >>> r.metric_name, round(100 * r.system("other").score, 2), r.system("other").p_value
    ('BLEU', 42.34, 0.000999000999000999)

    Three segments allow only 2^3 = 8 different swaps, and none of them separates
    the two systems by more than the observed difference, so p is the smallest
    the test can give, 1 / (1000 + 1): a test set this small proves little else.
    """
    metric = _check_metric(metric)
    test, n = _check_test(test, n_samples)
    named = _named_systems(systems)
    settings = {**_DEFAULT_OPTIONS[metric], **options}
    score = resampling_scorer(metric, **settings)
    _check_references(references, len(next(iter(named.values()))))
    results = {}
    for name, hyps in named.items():
        if progress is not None:
            progress(f"scoring {name} ({metric})")
        if len(hyps) != len(references):
            raise ValueError(f"systems: {name!r} has {len(hyps)} hypotheses for {len(references)} segments "
                             "of references; every system must translate the same segments")
        with warnings.catch_warnings():  # the layout is checked once, above and below, not once per system
            warnings.simplefilter("ignore", ReferenceLayoutWarning)
            results[name] = _CORPUS[metric](hyps, references, **settings)
    _warn_if_ambiguous(metric, named, references, results, settings)
    first = next(iter(results.values()))
    signature = first.signature
    return paired_test_from_stats(
        _statistics(metric, results, settings), score, test=test, n_samples=n, seed=seed,
        observed={name: r.score for name, r in results.items()}, metric=metric,
        metric_name=_metric_name(metric, first), signature=signature, scale=100 if metric == "bleu" else 1,
        progress=progress,
    )


def _warn_if_ambiguous(metric: str, named: Mapping[str, Sequence[str]], references: Any,
                       results: Mapping[str, Any], settings: Mapping[str, Any]) -> None:
    """A square call (as many reference lists as segments, each as long): the baseline scored both ways,
    once."""
    base_name = next(iter(named))
    base = named[base_name]

    def rescore(refs: list) -> float:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ReferenceLayoutWarning)
            return float(_CORPUS[metric](base, refs, **settings).score)

    warn_ambiguous_layout(base, references, float(results[base_name].score), rescore, call="paired_test",
                          stacklevel=4)

"""mtlearn.paired_test is sacreBLEU's paired bootstrap and approximate randomisation, on mtlearn's statistics.

Independent reference: sacreBLEU 2.x's own ``PairedTest`` (``sacrebleu/significance.py``), run
here on the same files. On WMT22 de-en (reference A, baseline Online-A and two systems, one
close to it and one not) the p-values are equal to the last digit for BLEU and chrF, both
tests; the scores within 1e-12; the bootstrap means and 95% half-widths within 1e-6 of
sacreBLEU's (0-100 scale): sacreBLEU sums the resampled statistics as float32, so each of its
samples is rounded to single precision (chrF's means are float32 numbers). METEOR has no
sacreBLEU twin: its test is checked against the procedure written out plainly (loops over the
drawn indices, ``corpus_score_from_stats``) and by its properties.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

import mtlearn
from mtlearn.metrics.bleu.options import MAX_ORDER
from mtlearn.metrics.meteor.score import corpus_meteor, corpus_score_from_stats
from mtlearn.study.significance import (
    DEFAULT_SAMPLES,
    bootstrap_indices,
    estimate_ci,
    paired_test,
    paired_test_from_stats,
    resample_sums,
    resampling_scorer,
    segment_statistics,
)

SCORE_TOLERANCE = 1e-12  # 0-1 scale: the same formula, double precision both sides
FLOAT32_TOLERANCE = 1e-5  # 0-100 scale: sacreBLEU's bootstrap samples are computed in float32

#: (metric, baseline, systems): one system close to the baseline (p large), one not (p small).
WMT22_CASES = {
    "bleu": ("Online-A", ("Online-B", "PROMT")),
    "chrf": ("Online-A", ("Online-B", "Online-Y")),
}


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [line.rstrip() for line in (text[:-1] if text.endswith("\n") else text).split("\n")]


@lru_cache(maxsize=None)
def _de_en(root: str, systems: tuple[str, ...]) -> tuple[list[str], dict[str, list[str]]]:
    base = Path(root)
    ref = _lines(base / "references" / "generaltest2022.de-en.ref.A.en")
    hyps = {s: _lines(base / "system-outputs" / f"generaltest2022.de-en.hyp.{s}.en") for s in systems}
    return ref, hyps


def _sacrebleu(metric: str, named: dict[str, list[str]], refs: list[str], test: str, n: int) -> list:
    scorer = {"bleu": BLEU, "chrf": CHRF, "ter": TER}[metric]()
    _, scores = PairedTest(list(named.items()), {"m": scorer}, [refs], test_type=test, n_samples=n)()
    return next(v for k, v in scores.items() if k != "System")


def _assert_same_as_sacrebleu(ours, theirs) -> None:
    assert len(ours.systems) == len(theirs)
    for mine, ref in zip(ours.systems, theirs):
        assert mine.p_value == ref.p_value, mine.name  # exactly: the same draws, the same counts
        assert abs(100 * mine.score - ref.score) < 100 * SCORE_TOLERANCE, mine.name
        if ref.mean is None:
            assert mine.mean is None and mine.ci is None
        else:
            assert abs(100 * mine.mean - ref.mean) < FLOAT32_TOLERANCE, mine.name
            assert abs(100 * mine.ci - ref.ci) < FLOAT32_TOLERANCE, mine.name


@pytest.mark.wmt22
@pytest.mark.parametrize("test", ["bs", "ar"])
@pytest.mark.parametrize("metric", ["bleu", "chrf"])
def test_wmt22_de_en_equals_sacrebleu(wmt22, metric, test):
    baseline, others = WMT22_CASES[metric]
    ref, hyps = _de_en(str(wmt22), (baseline, *others))
    theirs = _sacrebleu(metric, hyps, ref, test, DEFAULT_SAMPLES[test])
    ours = paired_test(hyps, [[r] for r in ref], metric=metric, test=test)
    assert ours.n_samples == DEFAULT_SAMPLES[test] and ours.seed == 12345
    _assert_same_as_sacrebleu(ours, theirs)
    # the close system is not significant, the other one is: the test separates them
    assert [s.significant for s in ours.systems[1:]] == [False, True]


#: TER on WMT22 de-en: the first segments only. sacreBLEU's TER takes about 45 s per test on all 1,984
#: segments of three systems (measured; the p-values were equal there too); on 500 it takes about 12 s.
TER_SEGMENTS = 500


@pytest.mark.wmt22
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_wmt22_de_en_ter_equals_sacrebleu(wmt22, test):
    # The resampling and the p-value do not depend on how many segments there are: 500 real segments (real
    # lengths, shifts, ties between references of one line) with a close system (p large) and a far one
    # (p small) exercise every step the full set does, and sacreBLEU's own TER gives each segment's
    # statistics.
    ref, hyps = _de_en(str(wmt22), ("Online-A", "Online-B", "LT22"))
    ref = ref[:TER_SEGMENTS]
    hyps = {name: lines[:TER_SEGMENTS] for name, lines in hyps.items()}
    theirs = _sacrebleu("ter", hyps, ref, test, DEFAULT_SAMPLES[test])
    ours = paired_test(hyps, [[r] for r in ref], metric="ter", test=test)
    assert ours.metric_name == "TER"
    _assert_same_as_sacrebleu(ours, theirs)  # TER's bootstrap samples are float32 in sacreBLEU, as chrF's
    assert [s.significant for s in ours.systems[1:]] == [False, True]


def _random_corpus(seed: int, n: int = 40) -> tuple[list[str], dict[str, list[str]]]:
    rng = random.Random(seed)
    words = "the a cat dog sat ran on under mat rug big small red it was".split()

    def sentence() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))

    refs = [sentence() for _ in range(n)]
    systems = {}
    for name, keep in (("base", 0.7), ("close", 0.65), ("far", 0.3)):
        out = []
        for r in refs:
            tokens = [w if rng.random() < keep else rng.choice(words) for w in r.split()]
            out.append(" ".join(tokens))
        systems[name] = out
    return refs, systems


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("test", ["bs", "ar"])
@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_random_corpora_equal_sacrebleu(metric, test, seed):
    refs, systems = _random_corpus(seed)
    n = 300
    theirs = _sacrebleu(metric, systems, refs, test, n)
    ours = paired_test(systems, [[r] for r in refs], metric=metric, test=test, n_samples=n)
    _assert_same_as_sacrebleu(ours, theirs)


def test_two_references_and_other_seeds_equal_sacrebleu(monkeypatch):
    refs, systems = _random_corpus(4)
    refs_b, _ = _random_corpus(5)
    for seed in (7, 2024):
        monkeypatch.setenv("SACREBLEU_SEED", str(seed))  # sacreBLEU reads its seed from the environment
        for test in ("bs", "ar"):
            _, scores = PairedTest(list(systems.items()), {"m": BLEU()}, [refs, refs_b], test_type=test,
                                   n_samples=200)()
            theirs = next(v for k, v in scores.items() if k != "System")
            ours = paired_test(systems, [list(p) for p in zip(refs, refs_b)], test=test, n_samples=200,
                               seed=seed)
            _assert_same_as_sacrebleu(ours, theirs)


# -------------------------------------------------------------------------- the fast scorers are the formulas


# BLEU's scorer: tests/metrics/bleu/test_bleu_fast.py.


# --------------------------------------------------------------------------- METEOR, and the properties

CORPUS_REFS = [["the cat sat on the mat"], ["a dog barked at the postman"], ["it rained all day long"],
               ["we went home early"], ["the children played in the park"], ["she reads a book"]]
BASE = ["the cat sat on the mat", "a dog barked at a postman", "it rained all day",
        "we went home", "children played in the park", "she read the book"]
OTHER = ["on the mat the cat sat", "dog barks", "all day long it rained", "we go early home",
         "the kids played in a park", "she is reading a book"]
STAGES = ("exact", "stem")  # no WordNet needed


def _plain_meteor_bootstrap(base: list, other: list, n: int, seed: int) -> tuple[float, float, float]:
    """The bootstrap written out: sacreBLEU's draws, a loop per sample, METEOR's own corpus formula."""
    rng = np.random.default_rng(seed)
    draws = rng.choice(len(base), size=(n, len(base)), replace=True).tolist()
    a = [corpus_score_from_stats(base, d) for d in draws]
    b = [corpus_score_from_stats(other, d) for d in draws]
    diffs = [abs(x - y) for x, y in zip(a, b)]
    centre = sum(diffs) / n
    observed = abs(corpus_score_from_stats(base) - corpus_score_from_stats(other))
    above = sum(1 for d in diffs if d - centre > observed)
    sorted_b = sorted(b)
    return (above + 1) / (n + 1), sum(b) / n, 0.5 * (sorted_b[n - n // 40 - 1] - sorted_b[n // 40])


def test_meteor_bootstrap_is_the_plain_procedure():
    r = paired_test({"base": BASE, "other": OTHER}, CORPUS_REFS, metric="meteor", stages=STAGES,
                    n_samples=500)
    base = corpus_meteor(BASE, CORPUS_REFS, stages=STAGES).segments.stats()
    other = corpus_meteor(OTHER, CORPUS_REFS, stages=STAGES).segments.stats()
    p, mean, ci = _plain_meteor_bootstrap(base, other, 500, 12345)
    row = r.system("other")
    assert row.p_value == p
    assert row.mean == pytest.approx(mean, abs=1e-12) and row.ci == pytest.approx(ci, abs=1e-12)
    assert row.score == corpus_meteor(OTHER, CORPUS_REFS, stages=STAGES).score
    assert r.metric_name == "METEOR" and r.signature.startswith("mtlearn-meteor|")


@pytest.mark.parametrize("metric", ["bleu", "chrf", "meteor"])
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_a_copy_of_the_baseline_gets_the_smallest_p_as_in_sacrebleu(metric, test):
    # sacreBLEU counts samples *strictly* beyond the observed difference; beyond 0 there are none,
    # so an identical system gets p = 1 / (n + 1) (and is marked): the note in explain() says why.
    options = {"stages": STAGES} if metric == "meteor" else {}
    r = paired_test({"base": BASE, "copy": list(BASE), "other": OTHER}, CORPUS_REFS, metric=metric, test=test,
                    n_samples=200, **options)
    copy = r.system("copy")
    assert copy.score == r.baseline.score and copy.p_value == 1 / 201
    assert (copy.mean, copy.ci) == (r.baseline.mean, r.baseline.ci)
    assert "copy: the same score as the baseline" in r.explain()
    assert "other: the same score" not in r.explain()


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_p_value_is_symmetric_and_independent_of_the_other_systems(test):
    options = dict(metric="meteor", stages=STAGES, test=test, n_samples=300)
    one = paired_test({"base": BASE, "other": OTHER}, CORPUS_REFS, **options)
    swapped = paired_test({"other": OTHER, "base": BASE}, CORPUS_REFS, **options)
    three = paired_test({"base": BASE, "third": OTHER[::-1], "other": OTHER}, CORPUS_REFS, **options)
    assert one.system("other").p_value == swapped.system("base").p_value == three.system("other").p_value
    if test == "bs":
        assert one.system("other").mean == swapped.baseline.mean


def test_seed_none_draws_afresh_and_a_seed_repeats():
    stats = {"a": [[1, 1]] * 30 + [[0, 1]] * 10, "b": [[1, 1]] * 25 + [[0, 1]] * 15}

    def accuracy(sums):
        return sums[:, 0] / sums[:, 1]

    first = paired_test_from_stats(stats, accuracy, n_samples=200, seed=3)
    again = paired_test_from_stats(stats, accuracy, n_samples=200, seed=3)
    assert first == again
    means = {paired_test_from_stats(stats, accuracy, n_samples=200, seed=None).baseline.mean
             for _ in range(5)}
    assert len(means) > 1


def test_resample_sums_and_estimate_ci_are_the_plain_definitions():
    rng = np.random.default_rng(0)
    stats = rng.integers(0, 9, size=(25, 3))
    idx = bootstrap_indices(25, 40, seed=1)
    assert resample_sums(stats, idx).tolist() == [stats[row].sum(0).tolist() for row in idx]
    values = rng.random(1000)
    mean, half = estimate_ci(values)
    ordered = sorted(values)
    assert (mean == pytest.approx(sum(values) / 1000)
            and half == pytest.approx(0.5 * (ordered[974] - ordered[25])))


def test_segment_statistics_rows_sum_to_the_corpus():
    refs = [[r[0]] for r in CORPUS_REFS]
    bleu = mtlearn.corpus_bleu(BASE, refs, tokenize="13a")
    rows = segment_statistics(bleu)
    assert rows.shape == (6, 14)
    assert rows[:, 0].sum() == bleu.candidate_length and tuple(rows[:, 2:6].sum(0)) == bleu.matches
    chrf = mtlearn.corpus_chrf(BASE, refs)
    assert tuple(segment_statistics(chrf).sum(0)[2::3]) == chrf.stats.matched
    with pytest.raises(TypeError, match="result"):
        segment_statistics(mtlearn.bleu("a b", ["a b"]))


def test_result_to_dict_and_rows():
    r = paired_test({"base": BASE, "other": OTHER}, CORPUS_REFS, metric="chrf", n_samples=100)
    d = r.to_dict()
    assert d["metric_name"] == "chrF2" and d["test"] == "bs" and d["seed"] == 12345
    assert [s["system"] for s in d["systems"]] == ["base", "other"]
    assert d["systems"][0]["p_value"] is None and d["systems"][1]["p_value"] == r.system("other").p_value
    assert r.signature.endswith("|seed:12345|bs:100")
    row = r.system("other")
    assert row.low == row.mean - row.ci and row.high == row.mean + row.ci
    with pytest.raises(KeyError, match="no system 'nope'"):
        r.system("nope")


# --------------------------------------------------------------------------- bad input


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="systems: 1 system"):
        paired_test({"base": BASE}, CORPUS_REFS)
    with pytest.raises(ValueError, match="systems: 'short' has 5 hypotheses for 6 segments"):
        paired_test({"base": BASE, "short": BASE[:5]}, CORPUS_REFS)
    with pytest.raises(ValueError,
                       match="metric: unknown value 'wer'; choose one of bleu, chrf, meteor, ter"):
        paired_test({"base": BASE, "other": OTHER}, CORPUS_REFS, metric="wer")
    with pytest.raises(ValueError, match="test: unknown value 't'"):
        paired_test({"base": BASE, "other": OTHER}, CORPUS_REFS, test="t")
    with pytest.raises(ValueError, match="n_samples: expected a positive whole number"):
        paired_test({"base": BASE, "other": OTHER}, CORPUS_REFS, n_samples=0)
    with pytest.raises(ValueError, match="seed: expected"):
        paired_test({"base": BASE, "other": OTHER}, CORPUS_REFS, seed=-1)
    with pytest.raises(TypeError, match="systems: 'base' must be a list"):
        paired_test({"base": "one string", "other": OTHER}, CORPUS_REFS)
    with pytest.raises(ValueError, match="stats: 'b' has statistics of shape"):
        paired_test_from_stats({"a": [[1, 1]] * 3, "b": [[1, 1]] * 2}, lambda s: s[:, 0])


# --------------------------------------------------------------------------- a huge max_order


def test_a_huge_max_order_is_bounded():
    # Before: max_order=10**7 filled 2 GB and ran past 40 s on two one-line systems (6 GB and out of memory
    # via the command line): every order became a column of every sample's statistics. Now BLEU's bound
    # refuses it.
    systems = {"base": ["the cat sat on the mat", "a dog"], "other": ["the cat sat", "a dog barked"]}
    refs = [["the cat sat on a mat"], ["a dog barked"]]
    for eff in (False, True):
        for test in ("bs", "ar"):
            with pytest.raises(ValueError, match=r"^max_order: at most 4096, got 10000000 \("):
                mtlearn.paired_test(systems, refs, max_order=10**7, effective_order=eff, test=test,
                                    n_samples=200)
    # At the bound, the scores are corpus_bleu's with the same order, the effective-order ones not 0.
    out = {}
    for eff in (False, True):
        for test in ("bs", "ar"):
            r = mtlearn.paired_test(systems, refs, max_order=MAX_ORDER, effective_order=eff, test=test,
                                    n_samples=200)
            out[f"{eff}-{test}"] = [[s.score, s.p_value, s.mean] for s in r.systems]
        expected = [mtlearn.corpus_bleu(h, refs, max_order=MAX_ORDER, effective_order=eff, tokenize="13a",
                                        smoothing="exp").score for h in systems.values()]
        for test in ("bs", "ar"):
            assert [row[0] for row in out[f"{eff}-{test}"]] == expected
    assert out["True-bs"][0][0] > 0


@pytest.mark.parametrize("effective_order", [False, True])
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_orders_past_every_candidate_are_kept_once(effective_order, test):
    # Statistics cut after the first order without n-grams in every system (segment_statistics(..., orders=k))
    # give the same p-values, means and intervals as the full columns: the scorer repeats the last order kept.
    refs, systems = _random_corpus(6, n=20)
    order = MAX_ORDER  # every sentence is far shorter
    settings = {"max_order": order, "effective_order": effective_order, "tokenize": "13a", "smoothing": "exp"}
    results = {name: mtlearn.corpus_bleu(h, [[r] for r in refs], **settings) for name, h in systems.items()}
    observed = {n: r.score for n, r in results.items()}
    short_width = 1 + max(r.candidate_length for r in results.values())
    full = {name: segment_statistics(r) for name, r in results.items()}
    short = {name: segment_statistics(r, orders=short_width) for name, r in results.items()}
    assert next(iter(full.values())).shape[1] == 2 + 3 * order
    assert next(iter(short.values())).shape[1] < 2 + 3 * order  # the short form is what is tested
    scorer = resampling_scorer("bleu", **settings)
    long = paired_test_from_stats(full, scorer, test=test, n_samples=200, observed=observed)
    cut = paired_test_from_stats(short, scorer, test=test, n_samples=200, observed=observed)
    assert [(s.score, s.p_value, s.mean, s.ci) for s in cut.systems] == \
        [(s.score, s.p_value, s.mean, s.ci) for s in long.systems]


def test_chrf_orders_no_sample_can_use_are_dropped_without_changing_a_number():
    refs, systems = _random_corpus(7, n=20)
    short = paired_test(systems, [[r] for r in refs], metric="chrf", char_order=60, word_order=20,
                        n_samples=200)
    results = {name: mtlearn.corpus_chrf(h, [[r] for r in refs], char_order=60, word_order=20)
               for name, h in systems.items()}
    long = paired_test_from_stats({n: segment_statistics(r) for n, r in results.items()},
                                  resampling_scorer("chrf", char_order=60, word_order=20), n_samples=200,
                                  observed={n: r.score for n, r in results.items()})
    assert [s.p_value for s in short.systems] == [s.p_value for s in long.systems]
    for a, b in zip(short.systems, long.systems):  # the sums over fewer orders may differ in the last bit
        assert a.mean == pytest.approx(b.mean, rel=1e-12) and a.ci == pytest.approx(b.ci, rel=1e-12)

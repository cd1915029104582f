"""Is system B's score really different from the baseline's? sacreBLEU's paired tests, on mtlearn's
statistics.

Two tests, each between a *baseline* and every other system, exactly as
``sacrebleu --paired-bs`` and ``sacrebleu --paired-ar`` run them
(``sacrebleu/significance.py``, sacreBLEU 2.x):

* **paired bootstrap resampling** (``test="bs"``, 1,000 samples; Koehn 2004 as
  sacreBLEU phrases it): draw ``n_samples`` test sets of the same size *with
  replacement* (``numpy.random.default_rng(seed).choice``), score baseline and
  system on each one, and ask how often the resampled absolute difference, centred
  on its mean, exceeds the observed one;
* **paired approximate randomisation** (``test="ar"``, 10,000 trials; Riezler and
  Maxwell 2005): in each trial swap the two systems' translations of every segment
  with probability 1/2 (``default_rng(seed).integers(2, ...)``) and ask how often
  the two shuffled systems differ by more than the observed difference.

Both give p = (c + 1) / (n + 1), c the number of samples (trials) beyond the
observed difference (strictly: an observed difference of 0 is never "by chance",
so a system compared with itself gets p = 1/(n + 1), as in sacreBLEU and
multeval). A system is marked significant (``*``) when p <= 0.05, sacreBLEU's
rule. The bootstrap also gives every system's mean over the samples and the
half-width of the 95% interval (the 2.5th and 97.5th percentiles of the sorted
samples: positions n//40 and n - n//40 - 1).

Nothing is re-tokenized: every segment is reduced once to its sufficient
statistics (BLEU's :class:`~mtlearn.metrics.bleu.score.BleuStats`, chrF's
:class:`~mtlearn.metrics.chrf.stats.ChrfStats`, METEOR's four counts, TER's edits and
reference length), a sample's
statistics are the sum of its segments' (exact integer sums), and one function
turns summed statistics into a score. The seed is sacreBLEU's default (its
``SACREBLEU_SEED``, 12345), and every system is compared with the same draws, so
p-values equal sacreBLEU's to the last digit (``tests/study/test_significance.py``,
WMT22 de-en). The bootstrap means and half-widths agree within 1e-5 on sacreBLEU's 0-100
scale (measured on de-en: BLEU 1e-8 to 2e-7, chrF up to 4e-6, TER up to 3e-6): sacreBLEU sums the
resampled statistics as ``float32`` and so computes each sample's score in single
precision; mtlearn keeps double precision. TER is lower-is-better; both tests compare
*absolute* differences (sacreBLEU's ``abs(...)``), so which direction is better changes no
p-value. sacreBLEU's optional bootstrap interval
for the randomisation test (``n_ar_confidence``, off on its command line) is not offered.
Differences from sacreBLEU:
``seed=0`` is a seed here (sacreBLEU treats 0 as "no seed" for the systems), and
scores are on mtlearn's 0-1 scale (sacreBLEU prints 100 times the number).

A worked example: three segments, a baseline, an identical copy and a worse system.

>>> refs = [["the cat sat on the mat"], ["a dog barked"], ["it rained all day"]]
>>> base = ["the cat sat on the mat", "a dog barked loudly", "it rained all day"]
>>> worse = ["the cat on mat", "dog", "all day it rained"]
>>> r = paired_test({"base": base, "copy": base, "worse": worse}, refs, metric="chrf", n_samples=100)
>>> [(s.name, round(s.score, 4), s.p_value) for s in r.systems]
[('base', 0.9647, None), ('copy', 0.9647, 0.009900990099009901), ('worse', 0.4758, 0.009900990099009901)]
>>> print(r.explain())
Paired bootstrap resampling, chrF2, 100 samples, seed 12345: each system against the baseline 'base'
system  chrF2 (mean ± 95% CI)     p-value
base    0.9647 (0.9628 ± 0.0707)
copy    0.9647 (0.9628 ± 0.0707)  (p = 0.0099)*
worse   0.4758 (0.4659 ± 0.1838)  (p = 0.0099)*
* p <= 0.05: the difference from the baseline is unlikely to be chance (a difference, not "better").
copy: the same score as the baseline; the strict rule gives p = 1/(n + 1), not a real difference.

The copy of the baseline is "significant": sacreBLEU counts only resampled
differences *strictly* beyond the observed one, and none is beyond 0. Read the
mark together with the difference of the scores.
"""

from mtlearn.study.significance.paired import paired_test, paired_test_from_stats
from mtlearn.study.significance.resampling import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    SIGNIFICANCE_LEVEL,
    TESTS,
    Scorer,
    approximate_randomization_p_value,
    bootstrap_indices,
    bootstrap_p_value,
    estimate_ci,
    p_value,
    resample_sums,
)
from mtlearn.study.significance.results import PairedTestResult, SystemTest
from mtlearn.study.significance.scoring import METRICS, resampling_scorer, segment_statistics

__all__ = [
    "METRICS",
    "Scorer",
    "TESTS",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "SIGNIFICANCE_LEVEL",
    "SystemTest",
    "PairedTestResult",
    "bootstrap_indices",
    "resample_sums",
    "estimate_ci",
    "p_value",
    "bootstrap_p_value",
    "approximate_randomization_p_value",
    "resampling_scorer",
    "segment_statistics",
    "paired_test_from_stats",
    "paired_test",
]

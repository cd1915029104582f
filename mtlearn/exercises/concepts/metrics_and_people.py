"""Concept checks of the notebook metrics and people (one or two per numbered section).

Notebook 06, *Do the metrics agree with people?*: corpus and sentence level, the crowd's z-scores,
correlations with bootstrap intervals, checking a join, significance, pairwise accuracy and the
human yardstick. No question quotes a measured correlation: the ideas do not depend on the data.
"""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "06.s1a",
        "A *corpus-level* (system-level) correlation of a metric with human judgement is computed over what?",
        (
            Option("One number per MT system: the metric's score of its whole test set against the people's "
                   "score of the same system, correlated over the systems",
                   "Yes: each system is one point, so ten systems give ten points, however many sentences "
                   "each translated."),
            Option("One number per translated sentence, correlated over all the sentences",
                   "No: that is the *sentence-level* correlation, the article's second and much lower "
                   "figure."),
            Option("The metric's scores against the references' lengths",
                   "No: a correlation *with human judgement* pairs the metric with what people said about "
                   "the same translations; lengths are no human judgement."),
            Option("Two metrics against each other, such as METEOR against BLEU",
                   "No: comparing two metrics says how alike they are, not whether either agrees with "
                   "people."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "06.s1b",
        "The article reports METEOR's correlation as *up to* a figure, with no interval. What should a "
        "careful reader take from that?",
        (
            Option("That the figure is exact and will reproduce on any data",
                   "No: a correlation depends on the data and the human scores it was measured on, and "
                   "without an interval we do not even know how sure it was."),
            Option("That it is the best of several settings, measured once on one data set: an optimistic "
                   "figure to be tested, not a property of METEOR",
                   "Yes: \"up to\" picks the best setting, and no interval says how much it would move on "
                   "other systems; hence the test on data of our own."),
            Option("That the figure is a lower bound: on newer data it can only be higher",
                   "No: \"up to\" is a maximum over settings, not a minimum; newer data can give anything."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "06.s2a",
        "WMT standardises each crowd worker's Direct Assessment scores (minus the worker's own mean, divided "
        "by the worker's own standard deviation). Why?",
        (
            Option("To put the human scores on the metrics' 0–1 scale",
                   "No: z-scores are not bounded to 0–1; their point is to compare workers, not to match "
                   "the metrics' scale."),
            Option("To remove the workers who fail the hidden quality checks",
                   "No: those workers are removed before standardising; standardising treats the remaining "
                   "ones."),
            Option("So that strict and lenient workers count alike: a 60 from a strict worker and an 80 from "
                   "a lenient one can mean the same",
                   "Yes: each worker's scores are measured against that worker's own habits, so a system is "
                   "not helped or hurt by which workers it happened to get."),
            Option("To make the differences between systems look larger",
                   "No: it changes the unit, not the evidence; the systems' z-scores in fact lie close "
                   "together."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "06.s3a",
        "In one language pair a single system lies far below all the others, for both the metric and the "
        "people. What does that one system do to Pearson's r over the systems?",
        (
            Option("It lowers r, because an outlier is noise",
                   "Tempting, but here the outlier agrees on both axes: it lies on the line, and it pulls r "
                   "up."),
            Option("It can make r high whatever happens inside the cluster of the other systems: a line "
                   "through one far point and a cluster fits well",
                   "Yes: without it, the cluster of close systems, where the real decisions are made, can "
                   "show a much weaker relation."),
            Option("Nothing: r looks only at the order of the systems",
                   "No: that is Spearman's rho; Pearson's r measures how well a straight line fits the "
                   "values, so distances count."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "06.s4a",
        "Each system-level correlation comes with a 95% percentile bootstrap interval, made by drawing the "
        "pair's systems with replacement and recomputing. What does the interval show?",
        (
            Option("How much the correlation depends on which systems happened to take part",
                   "Yes: with about ten systems, one system more or less can move r a lot, and a wide "
                   "interval says so."),
            Option("The range of the metric's scores over the systems",
                   "No: the interval is about the *correlation*, recomputed on resampled sets of systems, "
                   "not about the scores themselves."),
            Option("The probability that the metric ranks the systems correctly",
                   "No: that would be closer to pairwise accuracy (section 7); an interval says how stable "
                   "a statistic is, not how often it is right."),
            Option("How much the correlation depends on which sentences were in the test set",
                   "No: here *systems* are resampled, since they are the points of the correlation; "
                   "resampling sentences is the paired bootstrap of section 6."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "06.s4b",
        "In most pairs METEOR's r and BLEU's r differ by a little, the sign of the difference changes from "
        "pair to pair, and each interval is wide. What may you conclude?",
        (
            Option("METEOR agrees better with people, because its mean is higher",
                   "No: a small difference of means, next to intervals much wider than it, is not evidence "
                   "that one metric is better."),
            Option("BLEU agrees better with people, because it wins in more pairs",
                   "No: counting wins ignores that each difference is far inside the intervals."),
            Option("Nothing about which of the two agrees better: the data cannot separate them",
                   "Yes: on these data METEOR is not clearly better than BLEU, whatever its lead in the "
                   "article."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "06.s5a",
        "The human file names each judged sentence by a segment number SID. Why does the notebook give no "
        "sentence-level correlation, instead of joining SID to the line number?",
        (
            Option("Because sentence-level correlations are always meaningless",
                   "No: notebook 09 computes them on data whose judgements sit in the same rows as their "
                   "texts; the problem here is the join, not the level."),
            Option("Because a check that would fail on a wrong join fails: human scores joined by SID as "
                   "line number relate to the metrics no more than shuffled scores, at every offset tried",
                   "Yes: two metrics of the same text peak where the lines match; the human scores show no "
                   "peak anywhere, so the guessed join is wrong and any number built on it would be too."),
            Option("Because the two files have different numbers of lines",
                   "No: equal counts would prove nothing either; only a check that is sensitive to the "
                   "matching itself can show that a join is right."),
            Option("Because the sentence-level correlation came out low, so the join must be wrong",
                   "No: a low correlation could be real. Judging a join by whether the result is welcome is "
                   "exactly the mistake to avoid; the join needs its own test."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "06.s6a",
        "A paired bootstrap says BLEU's difference between two systems is significant (p ≤ 0.05). What does "
        "that establish?",
        (
            Option("That people will prefer the system BLEU prefers",
                   "No: significance says nothing about whether BLEU measures what people judge; a sizeable "
                   "share of significant differences point the other way from the humans."),
            Option("That the difference is large enough to matter",
                   "No: with thousands of segments even a tiny difference is significant."),
            Option("That BLEU's verdict does not depend on which sentences happened to be in the test set",
                   "Yes: resampling the segments tests exactly that, and only that."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "06.s7a",
        "What does *pairwise accuracy* measure for one language pair?",
        (
            Option("The share of pairs of systems that the metric puts in the same order as the humans",
                   "Yes: it asks directly the developer's question (which of two systems is better) and "
                   "ignores whether the gaps are proportional; a metric tie counts as a miss."),
            Option("How well a straight line fits the metric against the human scores",
                   "No: that is Pearson's r, which also asks whether the gaps are proportional."),
            Option("The share of sentences to which the metric and the humans give the same score",
                   "No: a metric and a human score live on different scales and are never equal; only their "
                   "orders can be compared."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "06.s7b",
        "On the crowd judgements of this notebook WMT's COMET is not ahead of BLEU, while the WMT22 metrics "
        "task found neural metrics clearly better. Which explanation does the notebook give?",
        (
            Option("mtlearn computes COMET differently from WMT",
                   "No: mtlearn does not compute COMET here at all; the tables copy WMT's own COMET "
                   "numbers."),
            Option("The yardsticks differ: the crowd judges a translation against the reference, which "
                   "rewards what string matching rewards, while the metrics task used expert MQM judged "
                   "against the source",
                   "Yes: a metric's agreement with people is agreement with *some* people, judging in *some* "
                   "way; the crowd even placed a human translation below several MT systems."),
            Option("COMET needs several references and the tables give it only one",
                   "No: COMET is trained to use one reference; BLEU, METEOR and chrF were scored against the "
                   "same single reference to compare them fairly."),
            Option("BLEU has improved since 2022",
                   "No: BLEU is a fixed formula; what differs between the two findings is the human "
                   "judgement used as the yardstick."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "06.s8a",
        "Why should the 2005 correlations not be expected to reproduce on WMT22 data?",
        (
            Option("Because BLEU and METEOR are defined differently today",
                   "No: the notebook computes them by their definitions (sacreBLEU's BLEU, Banerjee and "
                   "Lavie's METEOR)."),
            Option("Because a correlation belongs to the metric *and* the data: closer systems, a different "
                   "human protocol and about ten systems per pair without intervals all change it",
                   "Yes: near-equal systems are hard for any metric, a crowd slider is another measurement "
                   "than adequacy and fluency scales, and a figure from a handful of systems is uncertain."),
            Option("Because the 2005 figures contain a calculation error",
                   "No: nothing says so; the point is that one figure from other data, without an interval, "
                   "cannot be expected to hold to three decimals elsewhere."),
            Option("Because the 2022 systems are worse than those of 2005",
                   "No: the opposite; strong 2022 systems are close to each other and some are judged better "
                   "than a human translation, which makes ranking them harder."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "06.s9a",
        "The join check correlates a metric of line i with the human score joined at line i + k for offsets "
        "k = −2 … +2, and once with the human scores shuffled. What would a *correct* join look like?",
        (
            Option("A peak at offset 0, clearly above the other offsets and above the shuffled level",
                   "Yes: that is what two metrics of the same text show; the human scores joined by SID sit "
                   "at the shuffled level at every offset."),
            Option("The same correlation at every offset",
                   "No: equal values at every offset are what a join that matches nothing gives; a right "
                   "join is special at exactly one offset."),
            Option("A correlation close to 1 at every offset",
                   "No: even a right join gives a metric and a human score that agree only partly; and the "
                   "neighbouring offsets should be low, since they pair different sentences."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "06.s9b",
        "Why does the check also correlate sentence BLEU with sentence METEOR of the *same* text?",
        (
            Option("To show which of the two metrics is better",
                   "No: two metrics agreeing with each other says nothing about people."),
            Option("To have the picture of a join known to be right, to compare the human join with",
                   "Yes: a check needs a positive control. The same text joined to itself must peak at "
                   "offset 0; if it did not, the check itself would be broken."),
            Option("To find the right offset for the human scores",
                   "No: it cannot; and the human scores show no peak at any offset, so SID is not the line "
                   "number plus a small shift either."),
        ),
        answer=1,
    ),
)

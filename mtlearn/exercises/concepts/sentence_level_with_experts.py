"""Concept checks of the notebook sentence level with experts (one or two per numbered section).

Notebook 09, *Sentence level, with experts*: expert MQM as the yardstick, the WMT groupings, why
sentence level is harder (ties, noise), what string metrics cannot see, and references judged as
systems. The only numbers in the texts are MQM's error weights, which are definitions.
"""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "09.s1a",
        "The notebook puts its sentence-level correlations beside the article's figure only as a comparison "
        "of orders of magnitude, not of decimals. Why?",
        (
            Option("Because the article's figure was rounded",
                   "No: rounding changes the third decimal; the reasons here are much larger."),
            Option("Because the two numbers come from different data, different human judgements and "
                   "possibly different statistics: the article names neither its statistic nor its data",
                   "Yes: a correlation belongs to its data, its yardstick and its statistic, so every "
                   "figure here names all three."),
            Option("Because sentence-level correlations cannot be computed exactly",
                   "No: they are computed exactly; it is the comparison with a number from elsewhere that "
                   "is loose."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "09.s2a",
        "An expert marks one Major `Accuracy/Mistranslation` and one Minor `Style/Awkward` error in a "
        "translation. What is its MQM score?",
        (
            Option("−2",
                   "No: that counts the errors; MQM weighs them by severity (Major 5, Minor 1)."),
            Option("−6",
                   "Yes: −(5 + 1). The score is minus the sum of the error weights; 0 is a translation "
                   "without error."),
            Option("6",
                   "No: errors lower the score; higher is better, and 0 is the best there is."),
            Option("−5.1",
                   "No: 1/10 is the weight of a *Minor punctuation* error; a Minor style error weighs 1."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "09.s2b",
        "Why is expert MQM a different yardstick from notebook 06's crowd scores?",
        (
            Option("Professional translators mark every error, its category and severity, seeing the "
                   "source and the document, and the score is computed from those errors",
                   "Yes: the crowd judged a translation against the reference with one slider; MQM judges "
                   "it against the source, error by error."),
            Option("MQM scores are between 0 and 100",
                   "No: MQM is minus a sum of error weights, 0 at best; the scale is not the difference "
                   "that matters."),
            Option("MQM is computed by a metric, not by people",
                   "No: MQM is human annotation; only the weighting of the marked errors is a formula."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "09.s3a",
        "The WMT metrics task correlates sentence scores in three groupings. What does *group by item* ask?",
        (
            Option("For each system, whether the metric ranks its sentences as the experts do",
                   "No: that is *group by system*."),
            Option("Whether the metric ranks all translations of all sentences together as the experts do",
                   "No: that is *no grouping*, where which sentences are hard counts as much as which "
                   "translation is better."),
            Option("For each source sentence, whether the metric ranks its translations as the experts do, "
                   "averaged over the sentences",
                   "Yes: it is the developer's question, *which of these translations of one sentence is "
                   "better?*, and the hardest of the three."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "09.s3b",
        "TER and WER are negated before they are correlated with MQM. Why?",
        (
            Option("They are error rates, lower is better, while MQM is higher-is-better: negated, a "
                   "positive correlation means agreement for every metric",
                   "Yes: it only flips the sign, so all metrics of the table can be read the same way."),
            Option("Because their values can exceed 1",
                   "No: a correlation does not care about the scale; it is the direction that is flipped."),
            Option("To make their correlations higher than BLEU's",
                   "No: negating changes only the sign of a correlation, never its size."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "09.s4a",
        "Most MT translations in these data have no error marked at all. Why does that make sentence level "
        "hard for a metric?",
        (
            Option("Because a metric cannot score a translation without errors",
                   "No: it scores it like any other; the problem is what the experts say about it."),
            Option("Because the perfect translations are left out of the correlation",
                   "No: they are all in; that is exactly why they weigh so much."),
            Option("Because they all tie at MQM 0, so whatever differences the metric sees between them are "
                   "noise for the experts",
                   "Yes: a sentence has a handful of errors or none, while a system's average rests on "
                   "hundreds; and ties make the statistic depend on how they are counted."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "09.s4b",
        "In pairwise accuracy with ties, why is a metric that gives every translation the *same* score the "
        "level to beat?",
        (
            Option("Because it is what a random metric scores",
                   "No: a constant metric is not random; it calls every pair a tie."),
            Option("Because it calls every pair a tie, so it is right on exactly the pairs the experts tie, "
                   "without seeing the translations",
                   "Yes: a metric that is no more accurate than that has learned nothing usable about "
                   "which translation of a sentence is better."),
            Option("Because a constant metric has accuracy 0",
                   "No: it scores the share of pairs the experts tie, which is large when many "
                   "translations are perfect."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "09.s5a",
        "Which error can a string metric like BLEU or chrF easily miss?",
        (
            Option("Half of the sentence left out",
                   "No: missing words lose n-gram matches and, for chrF, recall; omissions of that size "
                   "are seen."),
            Option("A fluent, correctly spelled word with the wrong meaning, the rest matching the reference",
                   "Yes: a mistranslation keeps most n-grams; a string metric counts shared words or "
                   "characters and cannot tell a right word in the wrong sense, or a dropped negation."),
            Option("Words in the wrong order",
                   "No: n-grams across the misplaced words stop matching, and TER charges a shift."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "09.s6a",
        "At system level every metric anti-correlates with the experts when scored against `ref`, and "
        "correlates positively against `refB`. Why?",
        (
            Option("The experts rank `ref` last, below every MT system; a reference-based metric rewards "
                   "resembling its reference, and resembling a flawed reference is not quality",
                   "Yes: the reference is part of the metric; when it has many errors, the metric rewards "
                   "translations that share them."),
            Option("`ref` is shorter than `refB`",
                   "No: length would move the brevity penalty a little, not turn the sign of every "
                   "metric's correlation."),
            Option("The metrics were computed wrongly against `ref`",
                   "No: they are the same metrics against another reference; it is the reference that "
                   "differs in quality."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "09.s6b",
        "Adding the other human reference as a fourteenth system raises the correlation against `refB` "
        "steeply. Why treat that rise with care?",
        (
            Option("It shows that the metric has become better",
                   "No: the metric is unchanged; only the set of points is."),
            Option("It is one far-off point: as in notebook 06, a line through one distant point and a "
                   "cluster fits well whatever happens inside the cluster",
                   "Yes: the thirteen close MT systems, where the decisions are, are ordered no better "
                   "than before."),
            Option("Human references may not be scored by a metric",
                   "No: they can be scored like any system; the question is what one extreme point does "
                   "to Pearson's r."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "09.s7a",
        "Which statement does this notebook support?",
        (
            Option("The article's sentence-level figure for METEOR is reproduced on expert judgements",
                   "No: every string metric correlates only weakly with the experts at sentence level, "
                   "well below the article's figure."),
            Option("String metrics order the translations of a sentence well once ties are counted",
                   "No: with ties counted none beats a metric that gives every translation the same score."),
            Option("Which metric agrees with people depends on which people, judging how, and, for a "
                   "reference-based metric, on the reference",
                   "Yes: crowd DA and expert MQM give different verdicts, and the sign of the system-level "
                   "correlation turns with the reference."),
            Option("BLEU is clearly the best string metric at sentence level",
                   "No: the differences between the metrics are small next to their intervals."),
        ),
        answer=2,
    ),
)

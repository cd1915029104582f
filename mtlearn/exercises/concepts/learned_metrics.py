"""Concept checks of the notebook learned metrics (one or two per numbered section).

Notebook 10, *Learned metrics*: an encoder's layers and context, BERTScore's greedy matching, idf and
rescaling, what context cannot fix, COMET-mini's training and held-out tests, and what the real learned
metrics add. No question quotes a score.
"""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "10.s1a",
        "At layer 0 the vectors of *bank* in *the bank of the river* and *an account at the bank* are "
        "nearly the same; after the six layers they are much less alike. What made the difference?",
        (
            Option("Attention: in every layer each token takes a weighted mix of the other tokens of its "
                   "sentence, so its vector comes to carry its context",
                   "Yes: layer 0 is a table lookup (the piece's vector plus its position's); the layers "
                   "bring in the neighbours, *river* in one sentence and *account* in the other."),
            Option("The WordPiece split: *bank* is cut differently in the two sentences",
                   "No: *bank* is one piece in both; the same piece gets the same vocabulary vector."),
            Option("The position vector: *bank* stands at different places",
                   "No: position is already in layer 0, where the two vectors are nearly equal; the "
                   "difference grows in the layers."),
            Option("Random noise added by the model at each layer",
                   "No: the encoder is deterministic; the same sentence always gives the same vectors."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "10.s2a",
        "In BERTScore's cosine matrix the rows are candidate tokens and the columns reference tokens. How "
        "is the precision P computed?",
        (
            Option("The mean of each column's largest cosine",
                   "No: each reference token's best match gives the *recall*."),
            Option("The mean of each row's largest cosine: every candidate token takes its most similar "
                   "reference token",
                   "Yes: weighted by the tokens' weights ([CLS] and [SEP] weigh 0); F1 is the harmonic "
                   "mean of P and R."),
            Option("The mean of the diagonal, token i against token i",
                   "No: that would assume the two sentences line up word for word; BERTScore lets every "
                   "token look for its match anywhere."),
            Option("The mean over the best one-to-one alignment of the tokens",
                   "No: the matching is greedy, not an alignment; two candidate tokens may take the same "
                   "reference token."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "10.s2b",
        "Against the reference *The cat sat on the mat.*, the candidate *The mat sat on the cat.* loses "
        "little BERTScore. Why?",
        (
            Option("Because *cat* and *mat* have similar vectors",
                   "No: each of them finds its own twin in the reference, whatever the vectors of the "
                   "other word."),
            Option("Because the greedy matching checks no order: every token finds its twin anywhere in the "
                   "other sentence",
                   "Yes: swapping two words leaves every token with a near-perfect match, so the swap "
                   "costs little."),
            Option("Because the idf weights of *cat* and *mat* are 0",
                   "No: without idf every token weighs the same, and with idf content words weigh more, "
                   "not less."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "10.s3a",
        "With `idf=True` a token weighs log((M + 1)/(df + 1)), for a token found in df of the M reference "
        "sentences. Why is idf a *corpus* option?",
        (
            Option("Because the weights need counts over the references of many sentences: a token found "
                   "in every reference, like *the*, weighs 0, a rare one much more",
                   "Yes: one sentence gives no document frequencies to speak of; idf makes the content "
                   "words count more than *the* and *.*."),
            Option("Because idf is too slow for one sentence",
                   "No: the cost is not the reason; a single sentence just has no frequencies to learn "
                   "from."),
            Option("Because idf needs the source sentences",
                   "No: the document frequencies are counted in the references."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "10.s3b",
        "Rescaling maps a score x to (x − b)/(1 − b), with b the mean score of unrelated sentence pairs. "
        "What does it change?",
        (
            Option("Which of two candidates wins",
                   "No: the map is increasing, so every ranking stays as it was."),
            Option("Only the spread: 0 now means \"as similar as unrelated sentences\", and the scores no "
                   "longer crowd near the top",
                   "Yes: rescaling makes the numbers easier to read, not the metric better."),
            Option("The weight of frequent tokens such as *the*",
                   "No: that is what idf does; rescaling acts on the final score."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "10.s4a",
        "The reference is *The dog bit the man.* Which candidate is BERTScore most likely to overrate?",
        (
            Option("*The man was bitten by the dog.*",
                   "No: this one is right and is, if anything, underrated: it shares fewer tokens with "
                   "the reference."),
            Option("*A cat sat on the mat.*",
                   "No: it shares few tokens with the reference and is scored low, as it should be."),
            Option("*The man bit the dog.*",
                   "Yes: every token has an exact twin in the reference; greedy matching of token vectors "
                   "does not see who did what, even with context."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "10.s4b",
        "What does context (layer 3 rather than layer 0) buy BERTScore?",
        (
            Option("It prefers the candidate that shares the *meaning* over the one that shares the *word*, "
                   "as with the river bank and the savings account",
                   "Yes: a word's vector now depends on its sentence, so *bank* next to *river* is no "
                   "longer a good match for *bank* next to *money*."),
            Option("It makes it understand negation",
                   "No: *not* is one token among many; a candidate without it still matches almost every "
                   "token."),
            Option("It makes the matching respect word order",
                   "No: the matching is still greedy and order-free; the vectors carry some context, but "
                   "a swapped sentence still matches well."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "10.s5a",
        "COMET-mini is tested on systems *and* segments it never saw. Why hold out both?",
        (
            Option("To have more test data",
                   "No: holding out costs training data; the point is what the test can tell."),
            Option("Unseen systems test whether it learned quality rather than the training systems' style; "
                   "unseen segments whether it learned quality rather than which sentences are hard",
                   "Yes: a model can look good by memorising either, and its scores on the training cell "
                   "are better still, which is why both held-out splits matter."),
            Option("Because ridge regression needs a test set to compute its weights",
                   "No: the weights come from the training cell alone (the penalty by cross-validation "
                   "within it); the test set is only for evaluation."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "10.s5b",
        "An empty output gets about the score of an average MT output from COMET-mini. What does that show?",
        (
            Option("That empty outputs are acceptable translations",
                   "No: they contain nothing; a metric that cannot tell is what is at fault."),
            Option("A learned metric is only as good as what it was trained on and what it can see: an "
                   "empty output is unlike the rated translations it learned from",
                   "Yes: it learned what the experts penalised in real translations; for an input unlike "
                   "them it gives whatever its regression happens to give."),
            Option("That COMET-mini was trained wrongly",
                   "No: retraining reproduces its shipped weights; the limit is in what it was shown."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "10.s6a",
        "What can the real COMET use that COMET-mini leaves out?",
        (
            Option("The reference",
                   "No: COMET-mini uses the reference too, in its features [h; r; h ⊙ r; |h − r|]."),
            Option("Character n-grams",
                   "No: learned metrics compare vectors of sentences, not n-grams."),
            Option("The source: a multilingual encoder reads it, and features such as h ⊙ s and |h − s| "
                   "compare it with the translation",
                   "Yes: COMET-mini's English-only encoder would turn a Chinese source into mostly [UNK], "
                   "so it leaves the source out; COMET also learns from far more judgements."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "10.s6b",
        "Against which human yardstick did the WMT22 metrics task find learned metrics clearly ahead of "
        "BLEU and chrF?",
        (
            Option("Expert MQM: professional translators marking every error",
                   "Yes: on notebook 06's crowd judgements at system level the learned metrics showed no "
                   "such lead."),
            Option("Reference-based crowd Direct Assessment",
                   "No: on those judgements (notebooks 06 and 10) the metrics lie within each other's "
                   "intervals."),
            Option("The metrics' agreement with each other",
                   "No: agreement between metrics is no human yardstick at all."),
        ),
        answer=0,
    ),
)

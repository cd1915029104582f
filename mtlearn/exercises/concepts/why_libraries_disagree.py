"""Concept checks of the notebook why libraries disagree (one or two per numbered section).

Notebook 08, *Why libraries disagree*: library profiles, the step-by-step walk between two of them,
aggregation on a corpus, tokenizers for Chinese and METEOR's families. No question quotes a score.
"""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "08.s1a",
        "Six libraries give six different BLEU scores for the same sentence and references. What is the "
        "right reading?",
        (
            Option("sacreBLEU is right and the other five have bugs",
                   "No: none of the differences is a bug; each library follows its own, documented rules."),
            Option("Each library made reasonable but different choices (tokenizer, references, smoothing, "
                   "weights, aggregation), so a BLEU score means little without its settings",
                   "Yes: that is why sacreBLEU prints a signature, and why numbers from different "
                   "libraries must not be compared."),
            Option("The differences are floating-point rounding and can be ignored",
                   "No: they are large, and mtlearn computes them in exact fractions, so rounding cannot "
                   "be the cause."),
            Option("Averaging the six scores gives the true BLEU",
                   "No: there is no true BLEU to recover; an average of six definitions is a seventh."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "08.s2a",
        "A walk from library A to library B changes A's settings into B's one pipeline step at a time and "
        "scores after each. Why do the steps' contributions add up *exactly* to score(B) − score(A)?",
        (
            Option("Because the steps are independent of each other",
                   "No: they are not (a smoothing acts on the counts that tokenisation produced); the sum "
                   "is exact whatever the interactions."),
            Option("By coincidence in this example",
                   "No: it holds for every walk; mtlearn's tests check it for every profile."),
            Option("Because each step starts from the settings the previous step ended with, so the "
                   "contributions telescope; exact fractions make the check `==`",
                   "Yes: (s1 − s0) + (s2 − s1) + … + (sB − s_k) = sB − s0 for the scores s0 = score(A), "
                   "s1, …, sB = score(B) after the steps, with no rounding in between."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "08.s2b",
        "Hugging Face evaluate takes the *shortest* reference length, sacreBLEU the *closest*; yet on the "
        "example sentence that step contributes nothing to the score. Why?",
        (
            Option("The candidate is at least as long as both references, so the brevity penalty is 1 "
                   "either way: a setting can differ without moving the score",
                   "Yes: the step changes an intermediate value (r), which is why it is still the *first "
                   "divergence*, but not the score."),
            Option("The two rules always give the same length",
                   "No: with references of different lengths they pick different ones; it is the brevity "
                   "penalty that does not care here."),
            Option("The reference length does not enter BLEU",
                   "No: it enters through the brevity penalty, when the candidate is shorter."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "08.s3a",
        "On a corpus, the mean of unsmoothed sentence BLEU scores comes out far below corpus BLEU of the "
        "same output. Why?",
        (
            Option("Corpus BLEU uses more references",
                   "No: both use the same references; they differ in how the segments are combined."),
            Option("Many sentences have no matching 4-gram and score 0 on their own, while corpus BLEU sums "
                   "the counts of all segments before computing one score",
                   "Yes: this *aggregation* step alone is worth several BLEU points, a choice made by "
                   "calling one function instead of another."),
            Option("Long sentences are left out of the mean",
                   "No: every sentence counts once in the mean; it is the zeros that pull it down."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "08.s3b",
        "Two papers report BLEU for their systems, computed with different libraries. What can you compare?",
        (
            Option("Nothing reliably: on a test set the libraries' differences are worth several BLEU "
                   "points, more than many papers' improvements",
                   "Yes: only scores computed with the same settings (the same signature) can be compared."),
            Option("The scores, once both are multiplied by 100",
                   "No: the scale is the smallest difference; tokenisation, references, smoothing and "
                   "aggregation remain."),
            Option("The scores, since BLEU's formula is standard",
                   "No: the formula leaves many choices open, and each library fills them differently."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "08.s4a",
        "With sacreBLEU's default tokenizer `13a`, a Chinese candidate that differs from its reference in "
        "two words gets BLEU 0. Why?",
        (
            Option("BLEU is not defined for Chinese",
                   "No: with the `zh` or `char` tokenizer it gives a sensible score."),
            Option("Chinese has no spaces, and `13a` splits off only ASCII punctuation: the whole sentence "
                   "is one token, which matches only if it is identical",
                   "Yes: the tokenizer is part of the metric; pass `tokenize=\"zh\"` (sacreBLEU chooses it "
                   "for a target language `zh`)."),
            Option("The two differing words are the only ones counted",
                   "No: BLEU counts every n-gram; with one token per sentence there is simply nothing "
                   "else to count."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "08.s4b",
        "A Chinese candidate is a single token that matches nothing, yet Hugging Face evaluate with "
        "`smooth=True` gives it a high BLEU. Why?",
        (
            Option("Its tokenizer splits the Chinese characters",
                   "No: with its own tokenizer the candidate stays one token; that is the point."),
            Option("Add-one smoothing on every order: the unigram precision is (0 + 1)/(1 + 1), and the "
                   "orders with no n-grams at all get (0 + 1)/(0 + 1) = 1",
                   "Yes: smoothing meant to avoid zeros turns \"nothing to count\" into a perfect "
                   "precision, so the geometric mean is high without a single matching word."),
            Option("It compares characters, not words",
                   "No: it compares tokens, and here there is only one; characters are what chrF "
                   "compares."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "08.s5a",
        "NLTK's `meteor_score` up to version 3.6.2 could return a METEOR above 1. How?",
        (
            Option("It did not remove the words matched at the stem stage, so the synonym stage matched "
                   "them again: more matches than reference words, a recall above 1",
                   "Yes: each word may be matched once; counting a word twice breaks the bound."),
            Option("It added a bonus for long candidates",
                   "No: METEOR has no length bonus; its penalty can only lower the score."),
            Option("It used METEOR 1.5's parameters",
                   "No: METEOR 1.5's parameters give a lower score here, and no parameter choice makes "
                   "recall exceed 1."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "08.s5b",
        "What does mtlearn's `meteor-1.5` profile say about the METEOR 1.5 jar?",
        (
            Option("It reproduces the jar exactly",
                   "No: its docstring lists what it cannot reproduce, and a number from the jar can differ."),
            Option("It is an approximation: it has the jar's parameters and match weights, but not its "
                   "paraphrase tables, function-word list, synonym files, normalisation or beam-search "
                   "aligner",
                   "Yes: a METEOR 1.5 number from the jar can therefore differ from the profile's."),
            Option("It differs only in α, β and γ",
                   "No: the parameters are the part it *does* take over; the missing parts are resources "
                   "and the aligner."),
        ),
        answer=1,
    ),
)

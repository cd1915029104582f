"""Concept checks of the notebook bleu in practice (one or two per numbered section)."""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "02.s1a",
        "How is corpus BLEU computed from the segments of a test set?",
        (Option("Each segment is scored and the scores are averaged",
                "Tempting, but the mean of sentence BLEU is a different, worse behaved number: a segment "
                "with one zero precision scores 0 and drags the mean down."),
         Option("Each segment is scored and the median is reported",
                "No sentence score is computed at all for corpus BLEU, only summed counts."),
         Option("Each segment's statistics (lengths, clipped matches, n-gram totals) are summed, and the "
                "formula is applied once to the sums",
                "BLEU was designed for a corpus; segments only contribute counts, and one score comes "
                "out of the summed counts.")),
        answer=2),
    ConceptCheck(
        "02.s1b",
        "Why is sentence BLEU so often exactly 0 for short sentences?",
        (Option("The brevity penalty of a short sentence is 0",
                "The penalty exp(1 - r/c) is small for a short candidate but never 0 unless the "
                "candidate is empty."),
         Option("One order without a matching n-gram (or without any n-gram) makes the geometric mean 0",
                "A short sentence easily has no matching 4-gram, or no 4-gram at all, and log 0 "
                "sinks the whole product; hence smoothing for sentence BLEU."),
         Option("Clipping removes every match of a short sentence",
                "Clipping only removes surplus copies; a short sentence keeps its genuine "
                "matches.")),
        answer=1),
    ConceptCheck(
        "02.s2a",
        "At corpus level, one segment is much shorter than its reference and another is longer than its "
        "own. What does the brevity penalty do?",
        (Option("It compares the summed lengths, so the long segment can make up for the short one",
                "c and r are sums over the corpus; length is judged over the whole test set, not "
                "sentence by sentence."),
         Option("It penalises the short segment anyway, then averages",
                "There is no per-segment penalty in corpus BLEU; only the totals c and r enter "
                "BP."),
         Option("It penalises the long segment for being too long",
                "BLEU has no penalty for length above the reference; extra words already cost "
                "precision.")),
        answer=0),
    ConceptCheck(
        "02.s3a",
        "A three-word candidate has no 4-grams at all, so its plain BLEU-4 is 0. Which remedy leaves the "
        "missing order out instead of inventing a precision for it?",
        (Option("Floor smoothing",
                "The floor method (like exp) fills in missing matches of n-grams that exist; an order "
                "with no "
                "n-grams at all still gives 0."),
         Option("add-k smoothing",
                "Tempting, since it does give a score; but it does so by adding 1 to the zero matches "
                "and zero totals of p_4, which makes it a "
                "perfect precision for an order the candidate does not have."),
         Option("Effective order: leave out the orders it has no n-grams of and re-normalise the weights",
                "Here orders 1 to 3 are used, with equal weights; sacreBLEU's recommended sentence BLEU adds "
                "exp smoothing for an order that exists but has no match.")),
        answer=2),
    ConceptCheck(
        "02.s4a",
        "Why is the tokenizer part of the metric, not a detail?",
        (Option("The tokenizer only affects speed",
                "The notebook shows three tokenizers giving three different scores for one "
                "sentence pair."),
         Option("BLEU counts tokens, so splitting 'cat,' from 'cat' or not changes which n-grams match",
                "The same output and reference give different scores under whitespace, 13a and char "
                "tokenization."),
         Option("Only languages without spaces, like Chinese, are affected",
                "Tempting, as Chinese shows the biggest effect; but even in English punctuation glued to a "
                "word ('cat,') turns a match into a miss.")),
        answer=1),
    ConceptCheck(
        "02.s4b",
        "For Chinese mixed with Latin words ('iPhone'), why can char tokenization inflate BLEU compared "
        "with zh?",
        (Option("Each letter of the Latin word becomes a matching unigram, and its neighbours matching "
                "bigrams",
                "Easy credit from the letters of one word; zh keeps runs of Latin letters as one "
                "token and counts the word once."),
         Option("char lowercases the text",
                "The char tokenizer splits characters; it does not change their case."),
         Option("char drops the Chinese characters",
                "The char tokenizer keeps every character (only spaces are dropped); zh splits the Chinese "
                "characters the same way, the two differ only on the Latin letters.")),
        answer=0),
    ConceptCheck(
        "02.s5a",
        "A paper reports a BLEU score and nothing else. What is missing to compare it with your own?",
        (Option("Nothing: BLEU is a standard formula",
                "The formula has settings, and the notebook scores the same four segments "
                "differently under the whitespace and 13a tokenizers."),
         Option("Only the name of the test set",
                "The test set is needed too, but the same test set scores differently under "
                "different settings."),
         Option("The signature: tokenizer, case, smoothing, effective order, number of references, order, "
                "weights",
                "Each setting changes the score, so a BLEU without its signature cannot be reproduced "
                "(Post, 2018).")),
        answer=2),
)

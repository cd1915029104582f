"""Concept checks of the notebook meteor scoring (one or two per numbered section)."""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "04.s1a",
        "With alpha = 0.9, F_mean weighs recall nine times more than precision. Which candidate loses more?",
        (Option("One that adds three words the reference does not have",
                "Extra words lower precision, and with alpha = 0.9 precision costs little."),
         Option("One that leaves out half of the reference's words",
                "Missing words lower recall, and recall dominates F_mean; extra words only lower "
                "precision, which counts far less."),
         Option("Both lose the same: F_mean is symmetric in P and R",
                "Tempting, since F1 (alpha = 0.5) is symmetric; METEOR's alpha = 0.9 is not, because recall "
                "correlated better with human judgements.")),
        answer=1),
    ConceptCheck(
        "04.s2a",
        "Why does METEOR need a fragmentation penalty on top of F_mean?",
        (Option("F_mean rewards short candidates, like BLEU's precision",
                "F_mean is recall-weighted, so short candidates already lose; the penalty is "
                "about order, not length."),
         Option("To penalise synonym matches, which are less certain than exact ones",
                "The penalty looks only at chunks, not at which stage made a match."),
         Option("F_mean counts unigrams only and cannot tell a sentence from its words shuffled",
                "The penalty grows with the chunks per matched unigram, c / u_m, so broken word order "
                "costs something.")),
        answer=2),
    ConceptCheck(
        "04.s2b",
        "Penalty = 0.5 (c / u_m)^3. What is the most it can take away?",
        (Option("Half of F_mean, when every matched word is its own chunk (c = u_m)",
                "The ratio c / u_m is at most 1, so the penalty is at most gamma = 0.5 and METEOR at "
                "least half "
                "of F_mean."),
         Option("All of F_mean, for a completely scrambled candidate",
                "The factor gamma = 0.5 caps the penalty, so scrambling can cost at most half (notebook 05 "
                "shows how this lets reordering fool METEOR)."),
         Option("Nothing for a candidate identical to the reference",
                "Tempting, but one chunk still pays 0.5 / u_m^3, so even a perfect candidate scores a little "
                "below 1.")),
        answer=0),
    ConceptCheck(
        "04.s3a",
        "The article's row 1 ('on the mat sat the cat') has P = R = 1. What lowers its score?",
        (Option("Its precision, since the words are in the wrong order",
                "Precision counts matched words, whatever their order; here all six match."),
         Option("Only the fragmentation penalty: every word is its own chunk",
                "With six chunks for six matches the penalty reaches its maximum, half of F_mean."),
         Option("A brevity penalty",
                "METEOR has no brevity penalty; here candidate and reference have the same "
                "length anyway.")),
        answer=1),
    ConceptCheck(
        "04.s4a",
        "How does corpus METEOR combine the segments?",
        (Option("It averages the segment scores",
                "The mean of the segment scores is a different number; the notebook computes "
                "both and they differ."),
         Option("It keeps the best segment's score",
                "Keeping the best applies to several references of one segment, not to the "
                "segments of a corpus."),
         Option("It sums m, w_t, w_r and the chunks over the segments and applies the formulas once",
                "Like corpus BLEU, it aggregates counts; a fragmented segment is diluted by the "
                "well-ordered ones.")),
        answer=2),
    ConceptCheck(
        "04.s5a",
        "A candidate has two references. How does METEOR use them?",
        (Option("It scores the candidate against each reference and keeps the best score",
                "Each reference is aligned separately; the result records which one was kept."),
         Option("It pools the references' words, as BLEU pools n-gram counts",
                "Tempting, since BLEU does pool its references through clipping; METEOR aligns with one "
                "reference at a time."),
         Option("It averages the scores against the two references",
                "A reference worded differently would pull a good candidate down; METEOR takes "
                "the maximum.")),
        answer=0),
    ConceptCheck(
        "04.s6a",
        "The same candidate gets two different METEOR scores under tie_break='crossings' and "
        "tie_break='chunks'. Why?",
        (Option("The chunk rule finds more mappings",
                "Both alignments have the same six mappings; only the tie-break among them "
                "differs."),
         Option("The rules choose different alignments, so the chunks, and hence the penalty, differ",
                "The alignment rule is part of the metric, and the signature records it "
                "(tie:crossings or tie:chunks)."),
         Option("tie_break changes alpha, beta and gamma",
                "The parameters stay the same; only the chosen alignment changes.")),
        answer=1),
    ConceptCheck(
        "04.s7a",
        "With language=\"es\", why does *cantaron* match *cantó* while no Spanish synonym is ever matched?",
        (Option("The Spanish Snowball stemmer gives both the same stem, and there is no Spanish WordNet "
                "offline, so the synonym stage is skipped",
                "The stem stage compares the stems of a suffix-stripping stemmer written for Spanish; the "
                "synonym stage needs a dictionary of synonyms, which mtlearn does not have for Spanish, and "
                "the result's notes say it was skipped."),
         Option("mtlearn translates the Spanish words into English and uses WordNet",
                "Nothing is translated: translating would add its own errors. The synonym stage is simply "
                "left out for Spanish."),
         Option("The exact stage ignores accents and verb endings in Spanish",
                "The exact stage only lowercases; *cantaron* and *cantó* are different strings. It is the "
                "stem stage that maps them.")),
        answer=0),
)

"""Concept checks of the notebook bleu from scratch (one or two per numbered section)."""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "01.s1a",
        "The unigram score m/n divides by n. What is n?",
        (Option("The number of words in the reference",
                "Dividing by the reference's length would measure recall (how much of the "
                "reference is covered), which is METEOR's emphasis, not BLEU's."),
         Option("The number of words in the candidate",
                "m/n is a precision, the share of the candidate's words that the reference "
                "vouches for."),
         Option("The number of distinct words in both sentences",
                "That would be a similarity of vocabularies; BLEU's precision counts the "
                "candidate's words, repeats included.")),
        answer=1),
    ConceptCheck(
        "01.s2a",
        "Why does BLEU clip the count of each n-gram?",
        (Option("So that repeating a word the reference contains cannot earn more credit than the reference "
                "has copies of it",
                "'the the the the the the the' would otherwise get a perfect precision; clipped, each 'the' "
                "counts at most as often as one reference has it."),
         Option("To keep the precision below 1 for every candidate",
                "A candidate equal to a reference still gets precision 1; clipping only removes "
                "credit for surplus copies."),
         Option("To penalise candidates that are shorter than the reference",
                "Tempting, but that is the brevity penalty's job; clipping stops over-long repetition, the "
                "opposite problem.")),
        answer=0),
    ConceptCheck(
        "01.s2b",
        "With several references, an n-gram's count is clipped at...",
        (Option("the total number of times it occurs in all references together",
                "Adding the references up would let more references raise the cap; each "
                "reference is one acceptable translation, so the cap is the best single one."),
         Option("the number of times it occurs in the first reference",
                "The references are treated alike; the largest count among them is the cap."),
         Option("the largest number of times it occurs in any single reference",
                "The maximum over references, each taken alone (Count_clip = min(Count, max_R "
                "Count_R)).")),
        answer=2),
    ConceptCheck(
        "01.s3a",
        "How does BLEU compute the modified precision p_n of a whole corpus?",
        (Option("It averages the sentences' p_n",
                "That is a different number; the corpus formula sums numerators and denominators "
                "first, and the notebook shows the two disagree."),
         Option("It adds the clipped counts of all candidates and divides by the sum of their n-gram counts",
                "One division of two sums, so a long sentence weighs more than a short one."),
         Option("It takes the p_n of the best sentence",
                "Every candidate contributes its counts to the sums; nothing is chosen.")),
        answer=1),
    ConceptCheck(
        "01.s4a",
        "BLEU-N combines p_1 … p_N by a geometric mean. What happens when one of them is 0?",
        (Option("The whole score is 0",
                "The geometric mean is exp of a sum of logarithms, and log 0 is minus infinity; one "
                "missing order sinks the score (notebook 02 shows smoothing against it)."),
         Option("That order is left out and the others are averaged",
                "Plain BLEU does not skip orders; leaving out orders is what 'effective order' "
                "does, and only for orders the candidate has no n-grams of."),
         Option("The score drops by 1/N",
                "That would be an arithmetic mean; a geometric mean with a zero factor is zero.")),
        answer=0),
    ConceptCheck(
        "01.s4b",
        "Which orders of BLEU-4 reward fluency (the words in the right order) rather than adequacy?",
        (Option("Only the unigrams",
                "Unigram precision ignores order entirely; shuffle the words and p_1 is "
                "unchanged."),
         Option("The brevity penalty",
                "The penalty looks at length only, not at word order."),
         Option("The higher orders, 2 to 4",
                "A bigram or longer n-gram only matches if neighbouring words come in the reference's "
                "order; unigrams only say the right words are there.")),
        answer=2),
    ConceptCheck(
        "01.s5a",
        "In the blog post's (d2l) formula the exponents are 1/2, 1/4, 1/8, … What does that do to a poor "
        "4-gram precision?",
        (Option("It lowers the score more than a poor unigram precision would",
                "Tempting, because the post says longer n-grams get a 'larger weight'; but a smaller "
                "exponent "
                "pulls the factor towards 1, so the order matters less."),
         Option("It lowers the score less than an equally poor unigram precision would",
                "p^(1/16) is closer to 1 than p^(1/2), so the longer order costs less; the post's "
                "'larger weight' is this factor closer to 1."),
         Option("Nothing: the exponents sum to 1, as in Papineni's BLEU",
                "1/2 + 1/4 + 1/8 + 1/16 is less than 1, and the exponents are not uniform; this "
                "is why d2l BLEU and BLEU-N differ on example A.")),
        answer=1),
    ConceptCheck(
        "01.s5b",
        "Example C, prediction 'A B' against the label 'A B C D E F': both precisions are perfect. Why is "
        "the score low?",
        (Option("The brevity penalty: the prediction is much shorter than the label",
                "Short predictions get high precisions easily, so the factor in front of the product "
                "penalises the missing length."),
         Option("Clipping removes its matches",
                "Each word of 'A B' occurs once in the label, so nothing is clipped."),
         Option("There are no 3-grams or 4-grams",
                "With k = 2 only orders 1 and 2 are used, and both are 1.")),
        answer=0),
    ConceptCheck(
        "01.s6a",
        "The blog post's code keys n-grams by ''.join(words). Why is that a bug?",
        (Option("Joining strings is too slow for long sentences",
                "Speed is not the problem here; the result itself can be wrong."),
         Option("It makes the comparison case-insensitive",
                "''.join keeps the case of every letter; the trouble is the lost word "
                "boundaries."),
         Option("Different n-grams can glue into the same string, like ('no', 'where') and ('now', 'here')",
                "Both become 'nowhere' and the code credits a match that is not there; mtlearn keys "
                "n-grams by tuples, which cannot collide.")),
        answer=2),
    ConceptCheck(
        "01.s7a",
        "Why do test sets often give several references per sentence?",
        (Option("BLEU averages the scores against each reference, which makes it more stable",
                "BLEU does not score each reference separately; it pools them through the "
                "clipping "
                "maximum and the closest reference length."),
         Option("One reference may word a good translation differently, and more references give it more "
                "chances to match",
                "'how are you' matches nothing in 'hello' but is recognised once a reference says it; "
                "clipping takes each n-gram's best single reference."),
         Option("So that the brevity penalty can use the longest reference",
                "r is the reference length closest to the candidate's, not the longest.")),
        answer=1),
)

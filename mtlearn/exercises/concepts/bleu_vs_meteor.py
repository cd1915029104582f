"""Concept checks of the notebook bleu vs meteor (one or two per numbered section)."""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "05.s1a",
        "What was METEOR designed to do that BLEU was not?",
        (Option("Score whole corpora faster",
                "Speed was not the aim; METEOR's alignment is more work than counting n-grams."),
         Option("Score single sentences, weighting recall and matching stems and synonyms",
                "BLEU is an n-gram precision meant for a corpus; METEOR is a recall-weighted mean "
                "of unigram precision and recall, meant to work sentence by sentence."),
         Option("Agree perfectly with people on single sentences",
                "Tempting, but the article's own figures show METEOR agrees only loosely with people on "
                "single sentences, much less than at corpus level.")),
        answer=1),
    ConceptCheck(
        "05.s2a",
        "In the table of seven candidates, why report smoothed BLEU (exp, effective order) beside plain "
        "BLEU-4?",
        (Option("Smoothed BLEU is on the same scale as METEOR",
                "Both lie between 0 and 1, but smoothing does not make BLEU measure what METEOR "
                "measures."),
         Option("Smoothing lets BLEU match synonyms",
                "Smoothing only fills in zero precisions; BLEU still matches identical strings "
                "only."),
         Option("Plain BLEU-4 is 0 for any sentence without a matching 4-gram, which hides every other "
                "difference",
                "At sentence level plain BLEU-4 is often 0; smoothing shows how much the sentence "
                "does match.")),
        answer=2),
    ConceptCheck(
        "05.s3a",
        "'the large dog ran rapidly across the street' against 'the big dog ran quickly across the "
        "street': why does plain BLEU-4 give 0?",
        (Option("BLEU penalises synonyms explicitly",
                "BLEU knows nothing of synonyms; it simply finds no identical n-gram."),
         Option("Every 4-gram contains 'large' or 'rapidly', so none matches, and one zero precision "
                "sinks the geometric mean",
                "BLEU matches surface forms only; two replaced words break every n-gram that "
                "contains them."),
         Option("The candidate is shorter than the reference",
                "Both have eight words, so the brevity penalty is 1.")),
        answer=1),
    ConceptCheck(
        "05.s4a",
        "A candidate with the reference's words reordered so that its meaning is reversed can score higher "
        "METEOR than one reordered with its meaning kept. Why?",
        (Option("METEOR's synonym stage matched the reversed words",
                "Every word matches exactly here; no stem or synonym is involved."),
         Option("METEOR rewards longer chunks of matching words only at the start of the sentence",
                "A chunk counts the same wherever it is; only the number of chunks enters the "
                "penalty."),
         Option("METEOR's penalty counts how many chunks there are, not which words they join",
                "Unigram matches are order-free, P = R = 1 for both, and only the number of chunks "
                "differs; meaning is not measured.")),
        answer=2),
    ConceptCheck(
        "05.s5a",
        "'the big dog', correct but short. What mostly decides each metric's score?",
        (Option("BLEU: the brevity penalty (its precisions are all 1); METEOR: the low recall",
                "Smoothed BLEU's score is the brevity penalty alone, and METEOR's falls close to "
                "R because recall weighs nine times more."),
         Option("Both: the fragmentation penalty",
                "The three words form one chunk, so METEOR's penalty is tiny, and BLEU has none."),
         Option("Both: low precision",
                "Every word of 'the big dog' is in the reference, so precision is perfect for "
                "both metrics.")),
        answer=0),
    ConceptCheck(
        "05.s6a",
        "'an enormous canine hurried through an avenue' is a correct paraphrase. Why do both metrics "
        "give 0?",
        (Option("METEOR's fragmentation penalty removes all its matches",
                "There are no matches to penalise; the penalty can take at most half anyway."),
         Option("No word is equal, shares a stem or shares a WordNet synset with a reference word",
                "Both need shared words; only more, and more varied, references could help."),
         Option("'canine' is a WordNet synonym of 'dog', but METEOR ignores nouns",
                "'canine' is a hypernym of 'dog' (a more general word), not a synonym; METEOR "
                "matches nouns when they share a synset.")),
        answer=1),
    ConceptCheck(
        "05.s6b",
        "Why can METEOR map 'hound' to 'dog' even though the sentence is about animals?",
        (Option("The Porter stemmer reduces both to the same stem",
                "'hound' and 'dog' share no letters to strip; the match comes from the synonym "
                "stage."),
         Option("METEOR guesses the sense from the neighbouring words",
                "It does not; that is exactly why a wrong sense can produce a match."),
         Option("WordNet's synonymy knows no context: the two share a synset in another sense",
                "They share only the sense 'a morally reprehensible person', and that is enough "
                "for a synonym match; there is no word sense disambiguation.")),
        answer=2),
    ConceptCheck(
        "05.s7a",
        "Which statement sums up where both metrics fail?",
        (Option("METEOR fixes all of BLEU's failures",
                "METEOR handles synonyms and inflections, but reordering fools it more and "
                "paraphrases defeat both."),
         Option("Each counts what it can match and fails where its matching stops; neither reads meaning",
                "BLEU stops at identical n-grams, METEOR at WordNet synonyms and chunk counts."),
         Option("BLEU fails only on single sentences; on a corpus it measures meaning",
                "BLEU is more stable on a corpus, but it still counts n-grams, not meaning.")),
        answer=1),
)

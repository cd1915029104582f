"""Concept checks of the notebook meteor alignment (one or two per numbered section)."""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "03.s1a",
        "The candidate has the word 'the' twice and the reference has it once. How many mappings can the "
        "two 'the's make?",
        (Option("Two, both to the reference's 'the'",
                "That would map one reference word twice, which the one-to-one rule forbids "
                "(it plays the part clipping plays in BLEU)."),
         Option("One: each reference word takes at most one line",
                "An alignment is one-to-one; the second 'the' stays unmatched."),
         Option("None: repeated words are never mapped",
                "A repeated word can be mapped, just not more often than the other side has "
                "partners for it.")),
        answer=1),
    ConceptCheck(
        "03.s2a",
        "In which order are METEOR's stages applied, and what does each later stage look at?",
        (Option("All three at once, keeping the largest number of mappings",
                "The stages run one after another, so a word matched exactly is not available to "
                "the stem stage."),
         Option("synonym first, since it finds the most matches",
                "The most literal evidence comes first; exact, then stem, then synonym."),
         Option("exact, then stem, then synonym; each only looks at the words the earlier stages left "
                "unmatched",
                "An exact match is never undone by a stem or synonym match; later stages only fill "
                "the gaps.")),
        answer=2),
    ConceptCheck(
        "03.s2b",
        "You score a German sentence pair that differs only by inflection (Katzen / Katze). What do the "
        "stem and synonym stages add?",
        (Option("Nothing: the Porter stemmer and WordNet are English-only, so only exact matches count",
                "For other languages METEOR here relates words only by their exact form."),
         Option("The stem stage matches the inflected forms",
                "Tempting, but Porter strips English suffixes; 'Katzen' and 'Katze' get different stems."),
         Option("WordNet translates the words first",
                "WordNet is an English lexicon; it neither translates nor knows German forms.")),
        answer=0),
    ConceptCheck(
        "03.s3a",
        "Two alignments have the same number of mappings. Which one does the 2005 rule choose?",
        (Option("The one with fewer chunks",
                "Tempting: that is METEOR 1.x's rule (tie_break='chunks'); the article's rule counts "
                "crossings first."),
         Option("Either one: the score is the same",
                "The choice changes the chunks and so the penalty; notebook 04 shows two scores "
                "for the same words."),
         Option("The one with fewer crossings",
                "For the article's row 1 it picks (a) over (b), because (a)'s lines cross less.")),
        answer=2),
    ConceptCheck(
        "03.s3b",
        "When do two mappings (i1, j1) and (i2, j2) cross?",
        (Option("When (i1 - i2)(j1 - j2) < 0: one goes right-to-left relative to the other",
                "Their order in the candidate is the opposite of their order in the reference."),
         Option("When they map the same candidate word",
                "The one-to-one rule forbids that; crossing is about the order of two distinct "
                "mappings."),
         Option("When they are not adjacent in the candidate",
                "Mappings far apart can be in order and not cross; adjacency matters for "
                "chunks, not crossings.")),
        answer=0),
    ConceptCheck(
        "03.s4a",
        "What makes a chunk?",
        (Option("A run of words adjacent in the candidate, wherever they map",
                "The mapped words must also be neighbours in the same order in the reference."),
         Option("A run of mapped words adjacent in the candidate and adjacent, in the same order, in the "
                "reference",
                "A candidate identical to its reference is one chunk; the more the order is broken, "
                "the more chunks."),
         Option("A group of words matched by the same stage",
                "Chunks ignore the stage; an exact and a synonym match can share a chunk.")),
        answer=1),
    ConceptCheck(
        "03.s5a",
        "In the whole rule, which criterion comes first when a stage ranks its alignments?",
        (Option("The fewest crossings",
                "Crossings only decide among alignments with the largest number of mappings."),
         Option("The fewest chunks",
                "Chunks come after mappings and crossings (or right after mappings under "
                "tie_break='chunks')."),
         Option("The most mappings",
                "First as many mappings as possible, then fewest crossings, then fewest chunks, then "
                "the lexicographic tie-break.")),
        answer=2),
    ConceptCheck(
        "03.s6a",
        "What does optimal=False on a METEOR result tell you?",
        (Option("The alignment has fewer mappings than possible",
                "The maximum number of mappings is always found exactly; only the tie-breaks may "
                "be unproven."),
         Option("The search ran out of budget: the alignment has the most mappings, but one with fewer "
                "crossings or chunks may exist",
                "The search says so instead of pretending; the number of mappings is always exact."),
         Option("The score is wrong and should be ignored",
                "It is the best alignment found, a valid alignment and a valid score; it is just "
                "not proven the rule's choice.")),
        answer=1),
)

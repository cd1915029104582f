"""Concept checks of the notebook chrf and ter (one or two per numbered section).

Notebook 07, *chrF and TER*: character n-grams, chrF's averages and β, chrF++, TER's edit script
and its greedy shift search, WER and CER. The numbers in the texts are definitions (β = 2, six
character orders, the shift limits), not measurements.
"""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = (
    ConceptCheck(
        "07.s1a",
        "Against *the big dog ran quickly across the street*, the candidate with *dogs*, *run* and "
        "*streets* gets most of its credit back from chrF but little from BLEU. Why?",
        (
            Option("chrF knows that *dogs* and *dog* mean the same",
                   "No: chrF knows nothing about meaning, only spelling; *large* for *big* shares no "
                   "letter and gets no credit."),
            Option("An inflected word keeps most of its character n-grams: *dogs* contains *dog*",
                   "Yes: a word-level metric sees *dogs* ≠ *dog*, while most of the character n-grams "
                   "of the two still match."),
            Option("chrF removes word endings before counting",
                   "No: chrF does no stemming (that is METEOR's stem stage); the ending's characters are "
                   "simply a few unmatched n-grams among many matched ones."),
            Option("chrF ignores word order",
                   "Partly true of chrF, but beside the point: the inflected candidate has its words in "
                   "the right order; what BLEU misses is that *dogs* is almost *dog*."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "07.s1b",
        "Why does chrF need no tokenizer for Chinese, when BLEU's score depends on the one chosen?",
        (
            Option("chrF removes the spaces and counts character n-grams, so the text gives the same "
                   "n-grams however it was cut into words",
                   "Yes: the same candidate, written together or with a space between every token, has "
                   "the same chrF."),
            Option("chrF runs sacreBLEU's `zh` tokenizer internally",
                   "No: it runs no word tokenizer at all; that is precisely why there is nothing to choose."),
            Option("Every Chinese character is a word, so words and characters coincide",
                   "No: Chinese words are often two or more characters, which is why BLEU needs a "
                   "tokenizer that decides."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "07.s2a",
        "How does chrF (sacreBLEU's default) turn the six character orders into one score?",
        (
            Option("It computes F_β at each order and averages the six F values",
                   "No: that is the `eps_smoothing=True` rule of NLTK and Moses; the two nearly agree on "
                   "long strings but part on short ones."),
            Option("It multiplies the precisions of the orders, as BLEU does",
                   "No: chrF uses an arithmetic mean and also recall; a geometric mean would make one "
                   "order without a match zero the whole score."),
            Option("It averages the precisions P_n and the recalls R_n over the orders, then takes one "
                   "F_β of the two averages",
                   "Yes: P = mean of P_n, R = mean of R_n, then chrF_β = (1 + β²)PR / (β²P + R)."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "07.s2b",
        "A candidate of four characters has no 5-grams or 6-grams. What does sacreBLEU's default chrF do "
        "with orders 5 and 6?",
        (
            Option("It leaves them out of the averages (the *effective order*)",
                   "Yes: only an order where the candidate or the reference has no n-grams at all is "
                   "left out; an order with n-grams but no match stays in with P_n = R_n = 0."),
            Option("It counts them with precision and recall 0",
                   "No: that happens to an order that has n-grams but no match; counting absent orders "
                   "as (almost) 0 is the `eps_smoothing` rule."),
            Option("It returns 0, because a score needs all six orders",
                   "No: chrF is defined for short strings too; it averages over the orders that exist."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "07.s3a",
        "chrF uses β = 2 where the plain F-score uses β = 1. Why weigh recall more?",
        (
            Option("Because leaving content out is the worse error: a candidate that says too little "
                   "should fall behind one that adds a few words",
                   "Yes: a reader of a short candidate never learns what it left out; how much more "
                   "recall counts (β = 2 rather than 3) was chosen by correlation with human judgements."),
            Option("Because precision cannot be computed on characters",
                   "No: chrF computes P_n at every order; β only sets how the two averages are balanced."),
            Option("Because it makes short candidates score higher",
                   "No: the opposite; the larger β, the further a candidate that leaves out half the "
                   "sentence falls behind."),
            Option("Because β = 2 makes chrF agree exactly with METEOR",
                   "No: METEOR's F_mean weighs recall still more (it is β = 3), and METEOR matches words, "
                   "not characters."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "07.s4a",
        "What does chrF++ add to chrF?",
        (
            Option("Word 1-grams to 4-grams, as in BLEU",
                   "No: chrF++ adds word unigrams and bigrams only (`word_order=2`)."),
            Option("Word unigrams and bigrams, averaged together with the six character orders",
                   "Yes: eight orders in all; the word orders bring back some of BLEU's strictness, so an "
                   "inflected word no longer counts as almost right."),
            Option("A penalty for the number of chunks, as in METEOR",
                   "No: chrF++ has no fragmentation penalty; its word bigrams are a weak signal of order."),
            Option("Synonym matching with WordNet",
                   "No: chrF++ still compares strings only; *large* and *big* still share nothing."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "07.s4b",
        "A candidate is scored by chrF against two references. What does chrF do with them?",
        (
            Option("It pools them as BLEU does: each n-gram clipped by its largest count in any reference",
                   "No: that is BLEU's rule; chrF never mixes the references' counts."),
            Option("It averages the chrF against each reference",
                   "No: nothing is averaged; a weak second reference would then pull a good match down."),
            Option("It scores the candidate against each and keeps the statistics of the reference with "
                   "the highest F_β",
                   "Yes: and for a corpus the kept statistics are summed; the result records which "
                   "reference was kept and why."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "07.s5a",
        "The candidate has every right word, but a three-word block at the front that belongs at the end. "
        "Why is its TER far lower than its WER?",
        (
            Option("TER ignores word order",
                   "No: TER pays for the misplaced block; it pays one edit instead of one per word."),
            Option("TER lowercases and WER does not",
                   "No: case plays no part here; both sentences are lower case."),
            Option("A shift moves a contiguous block for one edit, where WER must delete and insert again "
                   "every word of the block",
                   "Yes: one shift against three deletions and three insertions; both are divided by the "
                   "same number of reference words."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "07.s6a",
        "Why does TER have shifts at all?",
        (
            Option("To measure a post-editor's work: moving a phrase is one cut-and-paste for a person, "
                   "but the Levenshtein distance charges a deletion and an insertion per word moved",
                   "Yes: TER was built for post-editing (HTER); a shift makes a moved block cost one "
                   "edit, whatever its length."),
            Option("To make TER faster to compute than the Levenshtein distance",
                   "No: the opposite; the shift search is the expensive part, so expensive that it must "
                   "be greedy."),
            Option("To let TER reward paraphrases",
                   "No: a shift moves the candidate's own words; a paraphrase has other words, which stay "
                   "substitutions."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "07.s6b",
        "How does TER find its shifts?",
        (
            Option("It tries every possible sequence of shifts and keeps the cheapest",
                   "No: finding the fewest edits with shifts is NP-hard; no tool tries every sequence."),
            Option("Greedily, round by round: it takes the shift that lowers the edit distance most, and "
                   "stops when no shift lowers it",
                   "Yes: as tercom does (ties broken by the longer block, then the earlier one), and "
                   "sacreBLEU and mtlearn copy its rules."),
            Option("It shifts every wrong word to the place where the reference has it",
                   "No: only blocks that occur in the reference, hold a wrong word, are at most 10 words "
                   "long and move at most 50 positions are tried, and only one per round is taken."),
        ),
        answer=1,
    ),
    ConceptCheck(
        "07.s7a",
        "TER's shift search is greedy. What does that mean for the TER you get?",
        (
            Option("It can overestimate the fewest edits but never underestimate them: TER is an upper "
                   "bound",
                   "Yes: every script TER counts is a real script; a better first shift can lead to a "
                   "cheaper one, as *she him called yesterday* shows."),
            Option("It can underestimate the edits, since some are skipped",
                   "No: every edit TER counts is one it found; it may miss a cheaper script, never count "
                   "an impossible one."),
            Option("It is exact for short sentences",
                   "No: the notebook's example of a missed cheaper script has four words."),
            Option("It differs between runs, because ties are broken at random",
                   "No: ties are broken by fixed rules (longer block, earlier block, earlier destination), "
                   "so TER is deterministic."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "07.s7b",
        "A block of three words would have to move more than 50 positions to reach its place. What does "
        "TER charge for it?",
        (
            Option("One shift, like any other block",
                   "No: a block may travel at most 50 positions; beyond that it is not even tried."),
            Option("Nothing, since all its words are in the reference",
                   "No: words in the wrong place always cost edits in TER."),
            Option("Word by word: three deletions and three insertions",
                   "Yes: the limit of the search makes a cheaper script unreachable, another way in which "
                   "TER overestimates."),
        ),
        answer=2,
    ),
    ConceptCheck(
        "07.s8a",
        "Why is WER standard for speech recognition but little used for MT?",
        (
            Option("WER has no shifts: it punishes reordering hard, and in MT word order legitimately "
                   "varies, while speech comes in the order it was spoken",
                   "Yes: a moved phrase costs WER a deletion and an insertion per word."),
            Option("WER cannot handle several references",
                   "No: like TER it can take the fewest edits over the references; the issue is word order."),
            Option("WER needs a tokenizer and MT output has none",
                   "No: WER splits at white space like TER; the difference between them is the shifts."),
        ),
        answer=0,
    ),
    ConceptCheck(
        "07.s8b",
        "Can TER, WER or CER be larger than 1?",
        (
            Option("No: an edit rate is a share of the words, so it lies between 0 and 1",
                   "No: the edits are divided by the *reference's* length, and nothing limits the number "
                   "of edits to it."),
            Option("Yes: a candidate much longer than its reference needs more deletions than the "
                   "reference has words",
                   "Yes: *the big dog* against *the* needs two deletions for a reference of one word."),
            Option("Only CER, because a character can be edited twice",
                   "No: no position is edited twice; all three rates can exceed 1 for the same reason, a "
                   "long candidate against a short reference."),
        ),
        answer=1,
    ),
)

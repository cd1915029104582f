"""NLTK's METEOR aligner, written from ``nltk/translate/meteor_score.py`` (NLTK 3.6.6 and later).

NLTK does not search for an alignment: each stage walks the candidate's still unmatched
words from the **last to the first** and gives each the **highest** still unmatched
reference position it matches at that stage (``_match_enums`` for exact and stem,
``_enum_wordnetsyn_match`` for synonyms). Nothing minimises crossings or chunks.
:func:`greedy_align` is that walk for any of mtlearn's stages (exact, stem, synonym or
your own matchers), so a profile can combine NLTK's walk with mtlearn's matchers, or
mtlearn's exact search with NLTK's synonym relation (:class:`NltkSynonymMatcher`).

NLTK's synonym relation is not mtlearn's: the stem stage hands its *stemmed* leftovers
on, and a candidate word matches a reference word when the reference word's Porter stem
is one of the lemma names (without ``_``) of the synsets of the candidate word's *stem*,
or the stem itself. ``"always"`` is stemmed to ``"alway"``, which WordNet does not know,
and ``"automobile"`` to ``"automobil"``, which no lemma name spells:

>>> syn = NltkSynonymMatcher()
>>> syn.matches("always", "forever"), syn.matches("car", "automobile"), syn.matches("car", "auto")
(False, False, True)
>>> stages = [ExactMatcher(), StemMatcher(), syn]
>>> cand, ref = "the cats were sitting on the mats".split(), "the cat sat on the mat".split()
>>> [(m.candidate_index, m.reference_index, m.stage) for m in greedy_align(cand, ref, stages)]
[(0, 0, 'exact'), (1, 1, 'stem'), (4, 3, 'exact'), (5, 4, 'exact'), (6, 5, 'stem')]

On the worked example's row 1 the walk happens to give alignment (a), the one with the fewest
crossings (8); the candidate's last "the" took the reference's last "the":

>>> from mtlearn.metrics.meteor.formulas import count_crossings
>>> pairs = [m.pair for m in greedy_align("on the mat sat the cat".split(),
...                                        "the cat sat on the mat".split(), stages[:1])]
>>> pairs, count_crossings(pairs)
([(0, 3), (1, 0), (2, 5), (3, 2), (4, 4), (5, 1)], 8)

NLTK up to 3.6.2 did not remove the stem stage's matches from the words left to match
(nltk/nltk#2751, fixed by nltk/nltk#2763 in 3.6.3): the synonym stage then saw the exact
stage's leftovers with their surface forms and could map the same words again. Pass
``reuse_stem_matches=True`` (with a :class:`NltkSynonymMatcher` ``by_stem=False``) for
that behaviour; NLTK's issue gives "I likes pizza" against "I really like pizza":

>>> old = [ExactMatcher(), StemMatcher(), NltkSynonymMatcher(by_stem=False)]
>>> [m.pair for m in greedy_align("i likes pizza".split(), "i really like pizza".split(), old,
...                               reuse_stem_matches=True)]
[(0, 0), (1, 2), (1, 2), (2, 3)]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Optional

from mtlearn.metrics.meteor.alignment import UnigramMapping
from mtlearn.metrics.meteor.fast import crossings_and_chunks
from mtlearn.metrics.meteor.matchers import (
    ExactMatcher,
    Stage,
    StemMatcher,
    is_pair_matcher,
)

__all__ = ["NltkSynonymMatcher", "greedy_stage", "greedy_align", "count_chunks_in_order",
           "ExactMatcher", "StemMatcher"]


class NltkSynonymMatcher:
    """NLTK's synonym relation (``_enum_wordnetsyn_match``), one direction only.

    ``candidate_word`` matches ``reference_word`` when ``key(reference_word)`` is one of
    the lemma names without ``_`` of ``wordnet.synsets(key(candidate_word))``, or
    ``key(candidate_word)`` itself; ``key`` is the Porter stem (``by_stem=True``, NLTK
    3.6.3 and later) or the word as it is (``by_stem=False``, NLTK up to 3.6.2, whose
    synonym stage received unstemmed words). ``wordnet`` is NLTK's argument of that name:
    the WordNet corpus reader to ask (default ``nltk.corpus.wordnet``). Lookups are
    cached per matcher.

    >>> m = NltkSynonymMatcher()
    >>> m.name, m.matches("sitting", "sat"), m.matches("sat", "sitting")  # one way only
    ('synonym', False, True)
    >>> m.synonyms("car") >= {"car", "auto", "automobile"}
    True
    """

    name = "synonym"

    def __init__(self, stemmer: str = "porter", *, by_stem: bool = True, wordnet: Any = None) -> None:
        if not isinstance(by_stem, bool):
            raise TypeError(f"by_stem: expected True or False, got {type(by_stem).__name__}")
        self._stemmer = StemMatcher(stemmer)
        self.by_stem = by_stem
        self._wordnet = wordnet
        self._cache: dict[str, frozenset[str]] = {}

    def _reader(self) -> Any:
        if self._wordnet is None:
            from nltk.corpus import wordnet

            from mtlearn.metrics.meteor.synonyms import WordNetMissingError

            try:
                wordnet.ensure_loaded()
            except LookupError:
                raise WordNetMissingError(
                    "NLTK's synonym stage needs it; or leave 'synonym' out of the stages") from None
            self._wordnet = wordnet
        return self._wordnet

    def key(self, word: str) -> str:
        """The form NLTK's synonym stage sees: the Porter stem, or the word (``by_stem=False``).

        >>> NltkSynonymMatcher().key("always"), NltkSynonymMatcher(by_stem=False).key("always")
        ('alway', 'always')
        """
        return self._stemmer.stem(word) if self.by_stem else word

    def synonyms(self, word: str) -> frozenset[str]:
        """The forms a reference word may have to match ``word``: lemma names and the key itself."""
        key = self.key(word)
        found = self._cache.get(key)
        if found is None:
            names = {lemma.name() for synset in self._reader().synsets(key) for lemma in synset.lemmas()}
            found = self._cache[key] = frozenset({n for n in names if "_" not in n} | {key})
        return found

    def matches(self, candidate_word: str, reference_word: str) -> bool:
        """Whether NLTK's synonym stage may map ``candidate_word`` to ``reference_word``."""
        return self.key(reference_word) in self.synonyms(candidate_word)

    def __repr__(self) -> str:
        return f"NltkSynonymMatcher(by_stem={self.by_stem})"


def _relation(stage: Stage):  # type: ignore[no-untyped-def]
    """``(candidate word, reference word) -> bool`` for either kind of matcher."""
    if is_pair_matcher(stage):
        return stage.matches  # type: ignore[union-attr]
    keys: dict[str, frozenset[Hashable]] = {}

    def shared(a: str, b: str) -> bool:
        ka = keys.get(a)
        if ka is None:
            ka = keys[a] = stage.keys(a)  # type: ignore[union-attr]
        kb = keys.get(b)
        if kb is None:
            kb = keys[b] = stage.keys(b)  # type: ignore[union-attr]
        return bool(ka & kb)

    return shared


def greedy_stage(
    candidate: Sequence[str], reference: Sequence[str], free_candidate: Sequence[int],
    free_reference: Sequence[int], stage: Stage,
) -> list[tuple[int, int]]:
    """One NLTK stage: the free candidate positions from last to first, each given the
    highest free reference position it matches. Returns the pairs in that order.

    >>> greedy_stage("a b a".split(), "a a".split(), [0, 1, 2], [0, 1], ExactMatcher())
    [(2, 1), (0, 0)]
    """
    matches = _relation(stage)
    free = sorted(free_reference)
    pairs: list[tuple[int, int]] = []
    for i in sorted(free_candidate, reverse=True):
        for k in range(len(free) - 1, -1, -1):
            if matches(candidate[i], reference[free[k]]):
                pairs.append((i, free.pop(k)))
                break
    return pairs


def greedy_align(
    candidate: Sequence[str], reference: Sequence[str], stages: Sequence[Stage], *,
    reuse_stem_matches: bool = False,
) -> list[UnigramMapping]:
    """NLTK's alignment (``_enum_align_words``): :func:`greedy_stage` for each stage in
    order, over the words earlier stages left; mappings sorted by candidate position
    (a stable sort: NLTK's order, which matters only when ``reuse_stem_matches`` maps a
    word twice). ``reuse_stem_matches=True`` is NLTK ≤ 3.6.2: the stage after a stage
    named ``stem`` sees the words as they were *before* it.

    >>> [m.pair for m in greedy_align("a b".split(), "b a".split(), [ExactMatcher()])]
    [(0, 1), (1, 0)]
    """
    free_c, free_r = list(range(len(candidate))), list(range(len(reference)))
    found: list[tuple[int, int, str]] = []
    for stage in stages:
        pairs = greedy_stage(candidate, reference, free_c, free_r, stage)
        found.extend((i, j, stage.name) for i, j in pairs)
        if reuse_stem_matches and stage.name.startswith("stem"):
            continue
        used_c, used_r = {i for i, _ in pairs}, {j for _, j in pairs}
        free_c = [i for i in free_c if i not in used_c]
        free_r = [j for j in free_r if j not in used_r]
    found.sort(key=lambda t: t[0])
    return [UnigramMapping(i, j, s, candidate[i], reference[j]) for i, j, s in found]


def count_chunks_in_order(pairs: Sequence[tuple[int, int]]) -> int:
    """NLTK's ``_count_chunks``: a new chunk wherever the next pair (in the given order) is
    not one step further in both strings. It is the chunk count of
    :func:`~mtlearn.metrics.meteor.fast.crossings_and_chunks`, which walks the pairs in the order
    given: equal to :func:`~mtlearn.metrics.meteor.formulas.count_chunks` for any one-to-one
    alignment sorted by candidate position; it differs only on NLTK ≤ 3.6.2's double mappings.

    >>> count_chunks_in_order([(0, 0), (1, 1), (3, 2)])
    2
    >>> count_chunks_in_order([(0, 0), (1, 2), (1, 2), (2, 3)])  # NLTK <= 3.6.2 mapped "likes" twice
    3
    >>> count_chunks_in_order([])
    0
    """
    return crossings_and_chunks(pairs).chunks


def stages_for(names: Sequence[str], stemmer: str = "porter", synonyms: Optional[str] = None,
               wordnet: Any = None) -> list[Stage]:
    """Matchers for stage names; ``synonyms`` picks the synonym relation: ``None`` or
    ``"synset"`` (mtlearn's shared synset), ``"lemma-of-stem"`` (NLTK ≥ 3.6.3) or
    ``"lemma-of-word"`` (NLTK ≤ 3.6.2).

    >>> [repr(s) for s in stages_for(["exact", "stem", "synonym"], synonyms="lemma-of-stem")]
    ['ExactMatcher()', "StemMatcher('porter')", 'NltkSynonymMatcher(by_stem=True)']
    """
    from mtlearn.metrics.meteor.matchers import SynonymMatcher

    out: list[Stage] = []
    for name in names:
        if name == "exact":
            out.append(ExactMatcher())
        elif name == "stem":
            out.append(StemMatcher(stemmer))
        elif name == "synonym" and synonyms in (None, "synset"):
            out.append(SynonymMatcher())
        elif name == "synonym" and synonyms in ("lemma-of-stem", "lemma-of-word"):
            out.append(NltkSynonymMatcher(stemmer, by_stem=synonyms == "lemma-of-stem", wordnet=wordnet))
        else:
            raise ValueError(f"stages: unknown stage {name!r} or synonyms {synonyms!r}")
    return out

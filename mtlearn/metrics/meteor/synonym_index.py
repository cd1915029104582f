"""Which WordNet synsets a word belongs to: :class:`SynonymIndex` and the integer synset ids it answers with.

A synset id is ``offset * 10 + part-of-speech digit`` (1 noun, 2 verb, 3 adjective, 4 adverb; satellite
adjectives count as adjectives, as they live in ``data.adj``). :mod:`mtlearn.metrics.meteor.synonyms` builds
an index from WordNet's files and keeps it in a cache file; this module is the index itself and its lookup
rules (NLTK's ``morphy``).

>>> split_synset_id(synset_id("v", 1930756))
('v', 1930756)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

__all__ = [
    "MORPHOLOGICAL_SUBSTITUTIONS",
    "PARTS_OF_SPEECH",
    "SynonymIndex",
    "split_synset_id",
    "synset_id",
]

#: The parts of speech in NLTK's ``POS_LIST`` order: noun, verb, adjective, adverb.
PARTS_OF_SPEECH = ("n", "v", "a", "r")
_POS_DIGIT = {"n": 1, "v": 2, "a": 3, "s": 3, "r": 4}
_DIGIT_POS = {1: "n", 2: "v", 3: "a", 4: "r"}

#: NLTK's ``WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS`` (NLTK 3.10), in its order.
MORPHOLOGICAL_SUBSTITUTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"),
          ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}

#: Words whose synsets an index remembers (then it starts again).
_MEMO_SIZE = 1 << 18


def synset_id(pos: str, offset: int) -> int:
    """The integer id of the synset at ``offset`` in WordNet's ``data.<pos>`` file.

    >>> synset_id("n", 2084071), synset_id("s", 1234)
    (20840711, 12343)
    """
    return offset * 10 + _POS_DIGIT[pos]


def split_synset_id(ident: int) -> tuple[str, int]:
    """``(pos, offset)`` of a synset id, for ``wordnet.synset_from_pos_and_offset``.

    >>> split_synset_id(20840711)
    ('n', 2084071)
    """
    return _DIGIT_POS[ident % 10], ident // 10


@dataclass(frozen=True, eq=False)
class SynonymIndex:
    """Which WordNet synsets each word form belongs to, as NLTK's ``wordnet.synsets`` says.

    ``lemmas[p]`` maps a lemma (as in WordNet's ``index.*`` files: lowercase,
    ``_`` for spaces) to its synset ids for part of speech ``p`` (``"n"``, ``"v"``,
    ``"a"``, ``"r"``); ``exceptions[p]`` maps an irregular form to its base forms.
    Answers are memoised per index (a plain dict: the index itself never changes).

    >>> index = SynonymIndex(
    ...     wordnet_version="toy",
    ...     lemmas={"n": {"dog": (11, 21), "goose": (31,)}, "v": {"dog": (42,)}, "a": {}, "r": {}},
    ...     exceptions={"n": {"geese": ("goose",)}, "v": {}, "a": {}, "r": {}},
    ... )
    >>> sorted(index.synsets("Dogs"))  # lowercased, then morphy's rule s -> '' for nouns and verbs
    [11, 21, 42]
    >>> sorted(index.synsets("geese"))  # the exception list
    [31]
    >>> index.synsets("cat")
    frozenset()
    """

    wordnet_version: str
    lemmas: Mapping[str, Mapping[str, tuple[int, ...]]]
    exceptions: Mapping[str, Mapping[str, tuple[str, ...]]]
    source: str = ""
    _memo: dict[str, frozenset[int]] = field(default_factory=dict, repr=False, compare=False)

    def base_forms(self, word: str, pos: str) -> list[str]:
        """The forms of ``word`` that WordNet lists for ``pos`` — NLTK's ``_morphy(word, pos)``.

        As in NLTK 3.10: if ``word`` is an exception form, its listed base forms,
        else one round of the suffix rules; then, of the word itself followed by
        those candidates, the ones that are lemmas of ``pos``, without repeats.

        >>> from mtlearn.metrics.meteor.synonyms import shared_synonym_index
        >>> index = shared_synonym_index()
        >>> index.base_forms("ran", "v"), index.base_forms("churches", "n"), index.base_forms("books", "v")
        (['run'], ['church'], ['book'])
        """
        word = word.lower()
        exceptions = self.exceptions[pos]
        if word in exceptions:
            forms: Union[list[str], tuple[str, ...]] = exceptions[word]
        else:
            forms = [word[: -len(old)] + new for old, new in MORPHOLOGICAL_SUBSTITUTIONS[pos]
                     if word.endswith(old)]
        lemmas = self.lemmas[pos]
        result: list[str] = []
        for form in (word, *forms):
            if form in lemmas and form not in result:
                result.append(form)
        return result

    def synsets(self, word: str) -> frozenset[int]:
        """The ids of the synsets ``nltk.corpus.wordnet.synsets(word)`` returns.

        >>> from mtlearn.metrics.meteor.synonyms import shared_synonym_index
        >>> index = shared_synonym_index()
        >>> sorted(split_synset_id(i) for i in index.synsets("geese"))  # goose.n.01, goose.n.03, fathead.n.01
        [('n', 1855672), ('n', 7646821), ('n', 10157744)]
        """
        found = self._memo.get(word)
        if found is None:
            ids: set[int] = set()
            for pos in PARTS_OF_SPEECH:
                lemmas = self.lemmas[pos]
                for form in self.base_forms(word, pos):
                    ids.update(lemmas[form])
            if len(self._memo) >= _MEMO_SIZE:
                self._memo.clear()  # bounded: a stream of new words cannot fill the memory
            found = self._memo[word] = frozenset(ids)
        return found

    def __len__(self) -> int:
        """The number of (lemma, part of speech) entries.

        >>> from mtlearn.metrics.meteor.synonyms import shared_synonym_index
        >>> len(shared_synonym_index())
        155287
        """
        return sum(len(lemmas) for lemmas in self.lemmas.values())

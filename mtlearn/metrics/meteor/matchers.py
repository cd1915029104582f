"""METEOR's matching stages: which candidate word may be mapped to which reference word.

METEOR (Banerjee & Lavie 2005) aligns a candidate with a reference in *stages*:
first identical words (``exact``), then words with the same Porter stem
(``stem``), then WordNet synonyms (``synonym``), each stage only over the words
that earlier stages left unmatched. This module says *which pairs may match* at
each stage; :mod:`mtlearn.metrics.meteor.alignment` chooses *which of them are mapped*.

Two kinds of matcher exist:

* a :class:`Matcher` gives every word a set of *keys*; a candidate word ``a`` and
  a reference word ``b`` match iff ``keys(a) & keys(b)`` is non-empty (exact:
  the word itself, stem: its stem, synonym: its WordNet synsets). Keys make the
  search fast: words are grouped by key instead of comparing every pair.
* a :class:`PairMatcher` answers ``matches(a, b)`` for one pair; it wraps any
  callable of yours (:class:`PredicateMatcher`).

>>> stages = resolve_stages(["exact", "stem"])
>>> [stage.name for stage in stages]
['exact', 'stem']
>>> exact, stem = stages
>>> bool(exact.keys("cats") & exact.keys("cat")), bool(stem.keys("cats") & stem.keys("cat"))
(False, True)
>>> rhymes = PredicateMatcher("rhyme", lambda a, b: a[-2:] == b[-2:])
>>> rhymes.matches("cat", "mat")
True

Matchers see the words as the metric passes them (lowercased by default). The
stem and synonym stages are case-insensitive whatever the setting, as in NLTK:
NLTK's Porter stemmer and ``wordnet.synsets`` lowercase their input.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Optional, Protocol, Union, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover - typing only
    from mtlearn.metrics.meteor.synonyms import SynonymIndex

#: The stage names :func:`resolve_stages` understands.
STAGE_NAMES: tuple[str, ...] = ("exact", "stem", "stem:porter", "stem:snowball", "synonym")

#: Stemmers :class:`StemMatcher` offers (all are NLTK's, none reads data): ``porter`` and ``snowball``
#: (English, "Porter2") for English text, ``spanish`` (Snowball's Spanish stemmer) for Spanish.
STEMMERS: tuple[str, ...] = ("porter", "snowball", "spanish")

#: The stemmer of the stage named ``stem``, per language of the texts (``language`` option).
LANGUAGE_STEMMERS: dict[str, str] = {"en": "porter", "es": "spanish"}


@runtime_checkable
class Matcher(Protocol):
    """A stage that gives each word a set of keys; two words match iff their key sets meet.

    ``name`` is recorded with every mapping the stage makes (e.g. ``"exact"``).

    >>> isinstance(ExactMatcher(), Matcher)
    True
    """

    name: str

    def keys(self, word: str) -> frozenset[Hashable]:
        """The keys of ``word``; an empty set means the word matches nothing at this stage."""
        ...


@runtime_checkable
class PairMatcher(Protocol):
    """A stage that decides pair by pair (slower: every leftover pair is asked).

    >>> isinstance(PredicateMatcher("same", lambda a, b: a == b), PairMatcher)
    True
    """

    name: str

    def matches(self, candidate_word: str, reference_word: str) -> bool:
        """Whether ``candidate_word`` may be mapped to ``reference_word`` at this stage."""
        ...


Stage = Union[Matcher, PairMatcher]


class ExactMatcher:
    """Stage ``exact``: a word matches only itself (after the metric's optional lowercasing).

    >>> m = ExactMatcher()
    >>> m.name, m.keys("cat")
    ('exact', frozenset({'cat'}))
    >>> m.keys("Cat") & m.keys("cat")
    frozenset()
    """

    name = "exact"

    def keys(self, word: str) -> frozenset[Hashable]:
        """``{word}``."""
        return frozenset((word,))

    def __repr__(self) -> str:
        return "ExactMatcher()"


@functools.lru_cache(maxsize=None)
def _shared_stem_function(stemmer: str) -> Callable[[str], str]:
    """NLTK's ``stemmer`` (one of :data:`STEMMERS`), one instance for the whole process.

    Its results are memoised in :func:`_shared_stems`.

    >>> porter = _shared_stem_function("porter")
    >>> porter("running"), porter is _shared_stem_function("porter")
    ('run', True)
    >>> _shared_stem_function("spanish")("gatos")
    'gat'
    """
    # Imported here, not at module level: importing NLTK takes about half a second.
    if stemmer == "porter":
        from nltk.stem.porter import PorterStemmer

        stem: Callable[[str], str] = PorterStemmer().stem
    else:
        from nltk.stem.snowball import SnowballStemmer

        stem = SnowballStemmer("english" if stemmer == "snowball" else stemmer).stem
    return stem


#: Words whose stems a process keeps (the stems of a large corpus's vocabulary).
_STEM_MEMO_SIZE = 1 << 18


@functools.lru_cache(maxsize=None)
def _shared_stems(stemmer: str) -> dict[str, str]:
    """A word -> stem memo per stemmer, shared by every :class:`StemMatcher` of the process (one memo
    per stemmer: a word's Porter stem never answers for its Spanish one).

    A stem is a pure function of the word, and NLTK's stemmers take tens of
    microseconds a word: every :class:`StemMatcher` (one per ``meteor()`` call) reads
    this dict, so a word is stemmed once per process; a corpus reads thousands at once,
    without a function call each. It holds up to :data:`_STEM_MEMO_SIZE` words (then it
    starts again).

    >>> porter = _shared_stems("porter")
    >>> porter is _shared_stems("porter"), porter is _shared_stems("spanish")
    (True, False)
    """
    return {}


class StemMatcher:
    """Stage ``stem``: two words match when NLTK's stemmer gives them the same stem.

    ``stemmer`` is ``"porter"`` (NLTK's ``PorterStemmer``, the default, as in NLTK's
    ``meteor_score``), ``"snowball"`` (NLTK's English Snowball stemmer, "Porter2") or
    ``"spanish"`` (NLTK's Spanish Snowball stemmer: the stage ``stem`` of ``language="es"``).
    A language's own stemmer (:data:`LANGUAGE_STEMMERS`) names its stage ``stem``.
    Keys are cached per matcher instance (the stems themselves once per process, per stemmer).

    >>> porter = StemMatcher()
    >>> porter.name, porter.keys("running"), porter.keys("runs")
    ('stem', frozenset({'run'}), frozenset({'run'}))
    >>> porter.keys("generously"), StemMatcher("snowball").keys("generously")
    (frozenset({'gener'}), frozenset({'generous'}))
    >>> StemMatcher("snowball").name
    'stem:snowball'
    >>> spanish = StemMatcher("spanish")
    >>> spanish.name, spanish.keys("gatos") == spanish.keys("gato")
    ('stem', True)
    >>> StemMatcher("lancaster")
    Traceback (most recent call last):
    ...
    ValueError: stemmer: unknown value 'lancaster'; choose one of porter, snowball, spanish
    """

    def __init__(self, stemmer: str = "porter") -> None:
        from mtlearn.core.checks import check_choice

        self.stemmer = check_choice(stemmer, STEMMERS, "stemmer")
        self.name = "stem" if self.stemmer in LANGUAGE_STEMMERS.values() else f"stem:{self.stemmer}"
        self._stem: Callable[[str], str] = _shared_stem_function(self.stemmer)
        self._stems: dict[str, str] = _shared_stems(self.stemmer)
        self._cache: dict[str, frozenset[Hashable]] = {}

    def stem(self, word: str) -> str:
        """The stem of ``word`` (its one key: the alignment groups words by it).

        >>> StemMatcher().stem("ensures")
        'ensur'
        """
        found = self._stems.get(word)
        if found is None:
            if len(self._stems) >= _STEM_MEMO_SIZE:
                self._stems.clear()  # bounded: a stream of new words cannot fill the memory
            found = self._stems[word] = self._stem(word)
        return found

    def keys(self, word: str) -> frozenset[Hashable]:
        """``{stem(word)}``."""
        found = self._cache.get(word)
        if found is None:
            found = self._cache[word] = frozenset((self.stem(word),))
        return found

    def __repr__(self) -> str:
        return f"StemMatcher({self.stemmer!r})"


class SynonymMatcher:
    """Stage ``synonym``: two words match when they share a WordNet synset.

    The keys of a word are the ids of the synsets NLTK's ``wordnet.synsets(word)``
    returns (all parts of speech, inflections resolved by WordNet's ``morphy``), read
    from the compact cached index of :mod:`mtlearn.metrics.meteor.synonyms` instead of NLTK's slow
    reader. Pass ``index`` to use a particular :class:`~mtlearn.metrics.meteor.synonyms.SynonymIndex`;
    otherwise :func:`~mtlearn.metrics.meteor.synonyms.shared_synonym_index` finds WordNet (one index
    per process, loaded from the cache file) and raises
    :class:`~mtlearn.metrics.meteor.synonyms.WordNetMissingError`, saying how to install it, when
    there is none.

    NLTK's ``meteor_score`` uses a slightly different, one-directional relation: the
    reference word must be one of the lemma names of the candidate word's synsets.

    >>> syn = SynonymMatcher()
    >>> syn.name
    'synonym'
    >>> bool(syn.keys("car") & syn.keys("automobile")), bool(syn.keys("car") & syn.keys("banana"))
    (True, False)
    >>> bool(syn.keys("ran") & syn.keys("run"))  # morphy knows 'ran' is a form of 'run'
    True
    >>> syn.keys("qwxzv")
    frozenset()
    """

    name = "synonym"

    def __init__(self, index: Optional["SynonymIndex"] = None) -> None:
        from mtlearn.metrics.meteor.synonyms import SynonymIndex, shared_synonym_index

        if index is None:
            index = shared_synonym_index()
        elif not isinstance(index, SynonymIndex):
            raise TypeError(f"index: expected a SynonymIndex, got {type(index).__name__}")
        self.index = index

    def keys(self, word: str) -> frozenset[Hashable]:
        """The ids of the synsets of ``word``."""
        return self.index.synsets(word)

    def __repr__(self) -> str:
        return f"SynonymMatcher(<WordNet {self.index.wordnet_version}>)"


class PredicateMatcher:
    """A stage of your own: ``fn(candidate_word, reference_word)`` says whether they match.

    ``fn`` must return a ``bool``; anything else raises ``TypeError`` rather than
    being guessed at.

    >>> same_first_letter = PredicateMatcher("initial", lambda a, b: a[0] == b[0])
    >>> same_first_letter.name, same_first_letter.matches("cat", "cow")
    ('initial', True)
    >>> PredicateMatcher("bad", lambda a, b: 1).matches("a", "b")
    Traceback (most recent call last):
    ...
    TypeError: stages: matcher 'bad' returned int for ('a', 'b'), expected bool
    """

    def __init__(self, name: str, fn: Callable[[str, str], bool]) -> None:
        if not isinstance(name, str) or not name:
            raise TypeError(f"name: expected a non-empty string, got {name!r}")
        if not callable(fn):
            raise TypeError(f"fn: expected a callable (candidate_word, reference_word) -> bool, "
                            f"got {type(fn).__name__}")
        self.name = name
        self.fn = fn

    def matches(self, candidate_word: str, reference_word: str) -> bool:
        """``fn(candidate_word, reference_word)``, checked to be a bool."""
        result = self.fn(candidate_word, reference_word)
        if not isinstance(result, bool):
            raise TypeError(
                f"stages: matcher {self.name!r} returned {type(result).__name__} for "
                f"{(candidate_word, reference_word)!r}, expected bool"
            )
        return result

    def __repr__(self) -> str:
        return f"PredicateMatcher({self.name!r}, {self.fn!r})"


def is_pair_matcher(stage: Stage) -> bool:
    """Whether ``stage`` decides pair by pair (a PairMatcher that is no Matcher).

    The same test as ``isinstance(stage, PairMatcher) and not isinstance(stage,
    Matcher)`` for the runtime-checkable Protocols (their attributes are present),
    without the cost of an ``isinstance`` against a Protocol, paid per call.

    >>> is_pair_matcher(ExactMatcher()), is_pair_matcher(PredicateMatcher("p", lambda a, b: True))
    (False, True)
    """
    return hasattr(stage, "matches") and not hasattr(stage, "keys") and hasattr(stage, "name")


def stage_matches(stage: Stage, candidate_word: str, reference_word: str) -> bool:
    """Whether ``stage`` lets ``candidate_word`` match ``reference_word`` (either kind of matcher).

    >>> stage_matches(StemMatcher(), "cats", "cat"), stage_matches(ExactMatcher(), "cats", "cat")
    (True, False)
    """
    if is_pair_matcher(stage):
        return stage.matches(candidate_word, reference_word)  # type: ignore[union-attr]
    return bool(stage.keys(candidate_word) & stage.keys(reference_word))


#: The name each stage name gives its matcher (``stem`` is ``stem:porter``).
_NAME_OF: dict[str, str] = {"exact": "exact", "stem": "stem", "stem:porter": "stem",
                            "stem:snowball": "stem:snowball", "synonym": "synonym"}


def _stage_from_name(name: str, synonym_index: Optional["SynonymIndex"], language: str) -> Stage:
    if name == "exact":
        return ExactMatcher()
    if name == "stem":
        return StemMatcher(LANGUAGE_STEMMERS[language])
    if name == "stem:porter":
        return StemMatcher("porter")
    if name == "stem:snowball":
        return StemMatcher("snowball")
    return SynonymMatcher(synonym_index)


def _stage_name(item: object, i: int) -> str:
    """The name the stage ``item`` (``stages[i]``) will have, without building its matcher."""
    if isinstance(item, str):
        if item not in _NAME_OF:
            raise ValueError(f"stages: unknown stage {item!r}; choose {', '.join(STAGE_NAMES)}, "
                             "a Matcher object or a callable (candidate_word, reference_word) -> bool")
        return _NAME_OF[item]
    if isinstance(item, (Matcher, PairMatcher)) and isinstance(getattr(item, "name", None), str):
        return item.name  # type: ignore[union-attr]
    if callable(item):
        name = getattr(item, "__name__", "custom")
        return "custom" if name == "<lambda>" else name
    raise TypeError(
        f"stages[{i}]: expected a stage name, a Matcher object or a callable, "
        f"got {type(item).__name__} ({item!r})"
    )


def check_stages(stages: object) -> tuple[Union[str, Stage, Callable[[str, str], bool]], ...]:
    """The ``stages`` option checked, as it was given (names stay names): what
    :class:`~mtlearn.metrics.meteor.options.MeteorOptions` keeps. No matcher is built, so
    checking the default stages reads no WordNet.

    >>> check_stages("exact"), check_stages(["exact", "stem:snowball"])
    (('exact',), ('exact', 'stem:snowball'))
    >>> check_stages(["stem", "stem:porter"])
    Traceback (most recent call last):
    ...
    ValueError: stages: stage 'stem' appears twice; each stage must have its own name
    """
    if isinstance(stages, str):
        stages = (stages,)
    if not isinstance(stages, Iterable):
        raise TypeError(
            f"stages: expected a list of stages (names, matchers or callables), "
            f"got {type(stages).__name__}"
        )
    items: list[Union[str, Stage, Callable[[str, str], bool]]] = []
    names: list[str] = []
    for i, item in enumerate(stages):
        name = _stage_name(item, i)
        if name in names:
            raise ValueError(f"stages: stage {name!r} appears twice; each stage must have its own name")
        items.append(item)
        names.append(name)
    if not items:
        raise ValueError(f"stages: no stages given; choose one or more of {', '.join(STAGE_NAMES)}")
    return tuple(items)


def stage_names(stages: Iterable[object]) -> tuple[str, ...]:
    """The names of checked stages (:func:`check_stages`), as their matchers will have them.

    >>> stage_names(["exact", "stem:porter", ExactMatcher()])
    ('exact', 'stem', 'exact')
    """
    return tuple(_stage_name(item, i) for i, item in enumerate(stages))


def _build_stage(item: object, synonym_index: Optional["SynonymIndex"], language: str) -> Stage:
    if isinstance(item, str):
        return _stage_from_name(item, synonym_index, language)
    if isinstance(item, (Matcher, PairMatcher)) and isinstance(getattr(item, "name", None), str):
        return item  # type: ignore[return-value]
    return PredicateMatcher(_stage_name(item, 0), item)  # type: ignore[arg-type]


def resolve_stages(
    stages: Union[str, Iterable[Union[str, Stage, Callable[[str, str], bool]]]],
    *,
    synonym_index: Optional["SynonymIndex"] = None,
    language: str = "en",
) -> list[Stage]:
    """Turn the ``stages`` option of ``meteor()`` into matcher objects, in order.

    Each item is a stage name (``"exact"``, ``"stem"`` = ``"stem:porter"``,
    ``"stem:snowball"``, ``"synonym"``), a matcher object (anything with ``name`` and
    ``keys(word)`` or ``matches(a, b)``), or a plain callable ``(candidate_word,
    reference_word) -> bool``, wrapped in a :class:`PredicateMatcher` named after the
    function. A single string is taken as one stage. Stage names must be distinct,
    since the alignment records, per mapping, the stage that made it (:func:`check_stages`).
    ``synonym_index`` is passed to :class:`SynonymMatcher`. ``language`` (a key of
    :data:`LANGUAGE_STEMMERS`) chooses the stemmer of the stage named ``stem``; the
    language's other checks are :class:`~mtlearn.metrics.meteor.options.MeteorOptions`'.

    >>> [s.name for s in resolve_stages(("exact", "stem:snowball"))]
    ['exact', 'stem:snowball']
    >>> resolve_stages(["stem"], language="es")
    [StemMatcher('spanish')]
    >>> def same_length(a, b):
    ...     return len(a) == len(b)
    >>> resolve_stages(["exact", same_length])[1]  # doctest: +ELLIPSIS
    PredicateMatcher('same_length', <function same_length at ...>)
    >>> resolve_stages(["exact", "synonyms"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: stages: unknown stage 'synonyms'; choose exact, stem, stem:porter, stem:snowball, ...
    >>> resolve_stages([])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: stages: no stages given; choose one or more of exact, stem, stem:porter, stem:snowball, ...
    >>> resolve_stages(["exact", "exact"])
    Traceback (most recent call last):
    ...
    ValueError: stages: stage 'exact' appears twice; each stage must have its own name
    >>> resolve_stages(["exact", 3])
    Traceback (most recent call last):
    ...
    TypeError: stages[1]: expected a stage name, a Matcher object or a callable, got int (3)
    """
    from mtlearn.core.checks import check_choice

    check_choice(language, tuple(LANGUAGE_STEMMERS), "language")
    return [_build_stage(item, synonym_index, language) for item in check_stages(stages)]

"""METEOR's options, declared once: :class:`MeteorOptions` (defaults, checks, help, flags, controls,
signature).

:func:`~mtlearn.metrics.meteor.score.meteor`, :func:`~mtlearn.metrics.meteor.score.corpus_meteor` and
:func:`~mtlearn.metrics.meteor.stats.meteor_from_stats` take their defaults from :data:`DEFAULTS` and
build a :class:`MeteorOptions` to check what they are given; the command line's flags and the
explorer's controls are described by :meth:`MeteorOptions.specs`. The stages are kept as given
(names stay names): checking them builds no matcher, so the defaults read no WordNet.

>>> MeteorOptions(stages=["exact"]).signature(1)  # doctest: +ELLIPSIS
'mtlearn-meteor|stages:exact|alpha:0.9|beta:3|gamma:0.5|tie:crossings|case:lc|tok:whitespace|nrefs:1|...'
>>> MeteorOptions(gamma=2)
Traceback (most recent call last):
...
ValueError: gamma: must be at most 1 (the largest penalty; above 1 the score turns negative), got 2

Spanish text (``language="es"``): the stage ``stem`` is NLTK's Spanish Snowball stemmer, and the
default stages leave out ``synonym`` (WordNet is English), saying so in ``notes``:

>>> spanish = MeteorOptions(language="es")
>>> spanish.stage_names, spanish.notes
(('exact', 'stem'), ('synonym stage skipped: no Spanish WordNet offline',))
>>> spanish.signature(1)  # doctest: +ELLIPSIS
'mtlearn-meteor|stages:exact+stem|...|tok:whitespace|lang:es|nrefs:1|...'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional, Union

from mtlearn.core.checks import as_real
from mtlearn.core.options import Options, check_flag, check_one_of, option
from mtlearn.core.signature import format_number, make_signature
from mtlearn.core.tokenize import TOKENIZERS, get_tokenizer
from mtlearn.metrics.meteor.matchers import LANGUAGE_STEMMERS, check_stages, stage_names

__all__ = ["MAX_BETA", "TIE_BREAKS", "LANGUAGES", "MeteorOptions", "DEFAULTS", "check_alpha", "check_beta",
           "check_gamma", "check_parameters"]

Real = Union[int, float, Fraction]

#: Values of ``tie_break``: what decides between alignments with equally many matches.
TIE_BREAKS: tuple[str, ...] = ("crossings", "chunks")

#: Values of ``language``: the language of the texts, which chooses the stem stage's stemmer (``en``:
#: Porter; ``es``: Spanish Snowball) and whether a synonym stage exists offline (English WordNet only).
LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_STEMMERS)

#: Why a language's default stages leave the synonym stage out (no entry: the language has one).
_NO_SYNONYMS: dict[str, str] = {"es": "no Spanish WordNet offline"}
#: The stage names that are English stemmers whatever the language (``stem`` follows the language).
_ENGLISH_STEMS = ("stem:porter", "stem:snowball")

#: The largest β. The penalty γ·(c/u_m)^β is an exact fraction for a whole β, with about β·log2(u_m)
#: bits: cheap for METEOR's β (3 in Banerjee & Lavie, 0.2 to 3 in METEOR 1.x's tunings), gigabytes for
#: ``beta=10**9``; and past 64 the penalty is 0 for every alignment but a fully fragmented one.
MAX_BETA = 64
_TOO_STEEP = ("an exact power (c/u_m)^beta has about beta*log2(u_m) bits, and past 64 the penalty is 0 "
              "for every alignment but a fully fragmented one")


def check_alpha(value: object, name: str = "alpha") -> Real:
    """α in [0, 1], as a plain ``int``, ``Fraction`` or ``float`` (numpy scalars too).

    >>> check_alpha(1.5)
    Traceback (most recent call last):
    ...
    ValueError: alpha: must lie in [0, 1] (it weights precision against recall), got 1.5
    """
    alpha = as_real(value, name)
    if not 0 <= alpha <= 1:
        raise ValueError(f"{name}: must lie in [0, 1] (it weights precision against recall), got {alpha!r}")
    return alpha


def check_beta(value: object, name: str = "beta") -> Real:
    """β from 0 to :data:`MAX_BETA`, as a plain ``int``, ``Fraction`` or ``float``.

    >>> check_beta(3), check_beta(0.2)
    (3, 0.2)
    >>> check_beta(10**9)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: beta: at most 64, got 1000000000 (an exact power (c/u_m)^beta has about ...)
    """
    beta = as_real(value, name)
    if beta < 0:
        raise ValueError(f"{name}: must be non-negative (the exponent of the "
                         f"fragmentation c/m), got {beta!r}")
    if beta > MAX_BETA:
        raise ValueError(f"{name}: at most {MAX_BETA}, got {beta!r:.40} ({_TOO_STEEP})")
    return beta


def check_gamma(value: object, name: str = "gamma") -> Real:
    """γ in [0, 1] (the largest penalty), as a plain ``int``, ``Fraction`` or ``float``.

    >>> check_gamma(-0.5)
    Traceback (most recent call last):
    ...
    ValueError: gamma: must be non-negative (the largest penalty), got -0.5
    """
    gamma = as_real(value, name)
    if gamma < 0:
        raise ValueError(f"{name}: must be non-negative (the largest penalty), got {gamma!r}")
    if gamma > 1:
        raise ValueError(f"{name}: must be at most 1 (the largest penalty; above 1 the score turns "
                         f"negative), got {gamma!r}")
    return gamma


def check_parameters(alpha: object, beta: object, gamma: object) -> tuple[Real, Real, Real]:
    """α, β and γ checked as :class:`MeteorOptions` checks them (the explorer, the plots, the profiles).

    >>> check_parameters(0.9, 3, 0.5)
    (0.9, 3, 0.5)
    """
    return check_alpha(alpha), check_beta(beta), check_gamma(gamma)


def _check_tokenizer(value: object, name: str) -> str:
    get_tokenizer(value)  # type: ignore[arg-type]  # "tokenize: unknown tokenizer ...", or a missing extra
    return value  # type: ignore[return-value]


@dataclass(frozen=True)
class MeteorOptions(Options):
    """Every METEOR option (Banerjee & Lavie 2005's defaults: exact, stem, synonym; α 0.9, β 3, γ 0.5).

    ``stages`` are stage names, matcher objects or callables (see
    :func:`mtlearn.metrics.meteor.matchers.resolve_stages`), kept as given.
    """

    stages: tuple[Any, ...] = option(
        ("exact", "stem", "synonym"),
        "matching stages, in order, comma-separated: exact, stem (= stem:porter), stem:snowball, synonym "
        "(default: exact,stem,synonym)", lambda value, name: check_stages(value),
        flags=("--stages", "--meteor-stages"))
    alpha: float = option(
        0.9, "weight of precision against recall in F_mean (default: %(default)s)", check_alpha,
        flags=("--alpha",), control=(0.0, 1.0, 0.05))
    beta: float = option(
        3.0, "exponent of the fragmentation penalty (default: %(default)s)", check_beta,
        flags=("--beta",), control=(0.0, 6.0, 0.5))
    gamma: float = option(
        0.5, "maximum fragmentation penalty (default: %(default)s)", check_gamma,
        flags=("--gamma",), control=(0.0, 1.0, 0.05))
    tie_break: str = option(
        "crossings", "among alignments with the most matches prefer the fewest 'crossings' "
                     "(Spanish Wikipedia article, METEOR 0.x) or the fewest "
                     "'chunks' (METEOR 1.x) (default: %(default)s)",
        check_one_of(TIE_BREAKS), flags=("--tie-break",), choices=TIE_BREAKS)
    lowercase: bool = option(
        True, "lowercase hypotheses and references first (default)", check_flag,
        flags=("--lowercase", "-lc"))
    tokenize: str = option(
        "whitespace", "tokenizer (default: %(default)s; '13a' also splits off punctuation)", _check_tokenizer,
        flags=("--tokenize", "-tok"), choices=TOKENIZERS)
    language: str = option(
        "en", "language of the texts: 'en' (Porter stems, WordNet synonyms) or 'es' (Spanish Snowball "
              "stems; no synonym stage: the default stages become exact,stem) (default: %(default)s)",
        check_one_of(LANGUAGES), flags=("--language", "--meteor-language"), choices=LANGUAGES)

    def check_together(self) -> None:
        """A language without WordNet refuses a synonym stage asked for, and English stemmers.

        >>> MeteorOptions(language="es", stages=["exact", "synonym"])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: stages: no synonym stage for language 'es' (no Spanish WordNet offline); ...
        """
        if self.language == "en":
            return
        asked = [item for item in self.stages if isinstance(item, str)]
        if "synonym" in asked and not self.skipped_stages and self.language in _NO_SYNONYMS:
            raise ValueError(f"stages: no synonym stage for language {self.language!r} "
                             f"({_NO_SYNONYMS[self.language]}); leave 'synonym' out (e.g. exact,stem)")
        english = [name for name in asked if name in _ENGLISH_STEMS]
        if english:
            own = LANGUAGE_STEMMERS[self.language].capitalize()
            raise ValueError(f"stages: {english[0]!r} is an English stemmer; with language "
                             f"{self.language!r} use 'stem' (NLTK's {own} Snowball stemmer)")

    @property
    def skipped_stages(self) -> tuple[str, ...]:
        """The default stages the language leaves out (``("synonym",)`` for ``es``), else ``()``.

        >>> MeteorOptions().skipped_stages, MeteorOptions(language="es").skipped_stages
        ((), ('synonym',))
        """
        if self.language in _NO_SYNONYMS and tuple(self.stages) == _DEFAULT_STAGES:
            return ("synonym",)
        return ()

    @property
    def used_stages(self) -> tuple[Any, ...]:
        """The stages that run: :attr:`stages` less :attr:`skipped_stages`."""
        return tuple(item for item in self.stages if item not in self.skipped_stages)

    @property
    def notes(self) -> tuple[str, ...]:
        """What the options changed for the language, said once (a result keeps it), else ``()``."""
        return tuple(f"{name} stage skipped: {_NO_SYNONYMS[self.language]}" for name in self.skipped_stages)

    @property
    def stage_names(self) -> tuple[str, ...]:
        """The names of the stages that run, as their matchers have them (``stem:porter`` is ``stem``)."""
        return stage_names(self.used_stages)

    @property
    def penalty_note(self) -> Optional[str]:
        """Why the penalty is a float (β is not a whole number), or ``None``: it is an exact Fraction.

        >>> MeteorOptions().penalty_note is None, MeteorOptions(beta=1.5).penalty_note
        (True, 'the penalty is a float: beta = 1.5 is not a whole number')
        """
        if Fraction(self.beta).denominator == 1:  # a whole beta: an exact power
            return None
        beta = self.beta
        shown = f"{float(beta):g}" if float(beta) == float(f"{float(beta):g}") else repr(float(beta))
        return f"the penalty is a float: beta = {shown} is not a whole number"

    def signature(self, nrefs: Union[int, str]) -> str:
        """The reproducibility signature (``nrefs``: the references per segment, ``var`` when they vary); the
        language is recorded when it is not ``en`` (English signatures are as they were before it existed).

        >>> MeteorOptions(stages=["exact", "stem:porter"], gamma=Fraction(1, 3)).signature("var")
        'mtlearn-meteor|stages:exact+stem|alpha:0.9|beta:3|gamma:1/3|tie:crossings|case:lc|...|nrefs:var|...'
        """
        settings: dict[str, object] = {
            "stages": "+".join(self.stage_names),
            "alpha": format_number(self.alpha),
            "beta": format_number(self.beta),
            "gamma": format_number(self.gamma),
            "tie": self.tie_break,
            "case": "lc" if self.lowercase else "mixed",
            "tok": self.tokenize,
        }
        if self.language != "en":
            settings["lang"] = self.language
        settings["nrefs"] = nrefs
        return make_signature("meteor", settings)


#: The default stages, as checked (the stages a language without WordNet shortens).
_DEFAULT_STAGES: tuple[Any, ...] = check_stages(MeteorOptions.spec("stages").default)


#: The defaults, which the public functions' keyword arguments take.
DEFAULTS = MeteorOptions()

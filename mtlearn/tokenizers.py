"""Tokenizers: turn a sentence string into the list of tokens the metrics count.

``whitespace`` is plain ``str.split()``; ``13a``, ``intl``, ``zh``, ``char`` and
``none`` are sacreBLEU's own tokenizer classes, reused rather than rewritten so
that mtlearn's BLEU sees exactly the tokens sacreBLEU sees.

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

from functools import lru_cache
from typing import Callable

#: Names accepted by every ``tokenize=`` argument in mtlearn.
TOKENIZERS: tuple[str, ...] = ("whitespace", "13a", "intl", "zh", "char", "none")


def _sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    # Imported lazily: sacreBLEU's intl tokenizer builds large regex tables.
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
    ValueError: tokenize: unknown tokenizer 'moses'; choose one of whitespace, 13a, intl, zh, char, none
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

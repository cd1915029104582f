"""WordPiece, as BERT cuts a sentence: normalise, split into words and punctuation, then longest pieces first.

Three steps, each a function a student can run on its own:

1. :func:`normalize` — drop control characters (and format and private-use ones), put spaces around every
   CJK ideograph (each is a word), lowercase and strip accents (``uncased`` BERT models see ``"Café"`` as
   ``"cafe"``);
2. :func:`pre_split` — split on whitespace, and make every punctuation mark a word of its own;
3. :func:`word_pieces` — cut each word into the longest pieces the vocabulary has, left to right; a piece that
   continues a word is written with ``##``. A word that cannot be cut is ``[UNK]``.

>>> vocab = {"[UNK]": 0, "un": 1, "##aff": 2, "##able": 3, "!": 4}
>>> pre_split(normalize("Unaffable!"))
['unaffable', '!']
>>> word_pieces("unaffable", vocab)
['un', '##aff', '##able']
>>> word_pieces("unfit", vocab)
['[UNK]']

Tests prove :func:`wordpiece` equal to Hugging Face's ``tokenizers`` (the Rust implementation) on the
model's own vocabulary, for every character whose Unicode category has not changed since Unicode 3.2. The
categories come from Python's ``unicodedata`` (Unicode 14.0 in Python 3.11), and ``tokenizers``' tables
are older: about 500 rare characters assigned or recategorised since (new combining marks, punctuation and
format characters of historic and minority scripts, e.g. U+061D, U+2E43…U+2E5D) are cut differently.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

__all__ = ["MAX_WORD_CHARS", "normalize", "pre_split", "word_pieces", "wordpiece"]

#: A longer word is ``[UNK]`` without trying (BERT's rule: the search is quadratic in the word's length).
MAX_WORD_CHARS = 100

# The CJK Unified Ideographs blocks BERT treats as one word per character (not Japanese kana, not Hangul).
# Extension E starts at U+2B920 here as in Hugging Face's tokenizers (Google's BERT says U+2B820): the 256
# ideographs between are words of letters to bert-score on transformers 5, so they are here too.
_CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
               (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _CJK_RANGES)


def _is_whitespace(char: str) -> bool:
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


#: The characters dropped as "control": control, format, private use, surrogate. Unassigned code points (Cn)
#: stay and make their word [UNK], as in Hugging Face's tokenizers (the one bert-score runs on with
#: transformers 5; transformers 4's Python BertTokenizer dropped them too).
_CONTROL = ("Cc", "Cf", "Co", "Cs")


def _is_control(char: str) -> bool:
    # Tab and newlines count as whitespace, not control characters.
    return char not in "\t\n\r" and unicodedata.category(char) in _CONTROL


def _is_punctuation(char: str) -> bool:
    # Every non-alphanumeric ASCII sign counts, even those Unicode calls symbols ("$", "^", "`").
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def normalize(text: str) -> str:
    """Clean, space out CJK ideographs, strip accents, lowercase.

    >>> normalize("Crème\\u00a0brûlée 很好")
    'creme brulee  很  好 '
    """
    cleaned = []
    for char in text:
        if char in ("\x00", "\ufffd") or _is_control(char):
            continue
        cleaned.append(" " if _is_whitespace(char) else f" {char} " if _is_cjk(char) else char)
    decomposed = unicodedata.normalize("NFD", "".join(cleaned))
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn").lower()


def pre_split(text: str) -> list[str]:
    """Words split on whitespace, every punctuation mark a word of its own.

    >>> pre_split("don't stop... now")
    ['don', "'", 't', 'stop', '.', '.', '.', 'now']
    """
    words: list[str] = []
    for chunk in text.split():
        current = ""
        for char in chunk:
            if _is_punctuation(char):
                words.extend(w for w in (current, char) if w)
                current = ""
            else:
                current += char
        if current:
            words.append(current)
    return words


def word_pieces(word: str, vocab: Mapping[str, int], unknown: str = "[UNK]") -> list[str]:
    """The longest vocabulary pieces of ``word``, left to right (``##`` marks a piece inside the word)."""
    if len(word) > MAX_WORD_CHARS:
        return [unknown]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:
            return [unknown]
        pieces.append(piece)
        start = end
    return pieces


def wordpiece(text: str, vocab: Mapping[str, int]) -> list[str]:
    """Every step: the WordPiece tokens of a sentence (without ``[CLS]`` and ``[SEP]``).

    >>> wordpiece("Hi!", {"[UNK]": 0, "hi": 1, "!": 2})
    ['hi', '!']
    """
    return [piece for word in pre_split(normalize(text)) for piece in word_pieces(word, vocab)]

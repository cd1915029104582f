"""What TER, WER and CER count: tercom's words (sacreBLEU's ``TercomTokenizer``) or characters.

A string is tokenised here; a list of tokens is used as given, lowercased unless
``case_sensitive``, and checked by :func:`mtlearn.core.checks.as_tokens` like every metric's.

>>> tok = tokenizer("ter", TerOptions())
>>> segment_tokens("The cat, sat.", "candidate", tok, TerOptions())
('the', 'cat,', 'sat.')
>>> reference_tokens(["The cat", ["A", "cat"]], "references", tok, TerOptions())
[('the', 'cat'), ('a', 'cat')]
>>> from mtlearn.metrics.ter.options import WerOptions
>>> tokenizer("cer", WerOptions())(" a b ")
('a', ' ', 'b')
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from mtlearn.core.checks import as_reference_list, as_tokens
from mtlearn.metrics.ter.options import TerOptions

__all__ = ["tokenizer", "segment_tokens", "reference_tokens"]

Tokenizer = Callable[[str], tuple[str, ...]]


@lru_cache(maxsize=None)
def _tercom(normalized: bool, no_punct: bool, asian_support: bool,
            case_sensitive: bool) -> Callable[[str], str]:
    # sacreBLEU's own tokenizer class: the tokens TER sees are sacreBLEU's.
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    return TercomTokenizer(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                           case_sensitive=case_sensitive)


def tokenizer(metric: str, options: TerOptions, *, reference: bool = False) -> Tokenizer:
    """str -> tokens for ``metric``: tercom words (TER, WER) or characters (CER).

    sacreBLEU 2.6 tokenises TER's *references* twice (``_cache_references`` preprocesses
    them, then ``_extract_reference_info`` preprocesses the result again); the rules are not
    idempotent with ``normalized``/``no_punct`` (``"cat's,"`` -> ``"cat's"`` -> ``"cat 's"``),
    so mtlearn does the same for parity.

    >>> text = "The cat, sat."
    >>> tokenizer("ter", TerOptions())(text), tokenizer("wer", TerOptions(no_punct=True))(text)
    (('the', 'cat,', 'sat.'), ('the', 'cat', 'sat'))
    """
    o = options
    tok = _tercom(o.normalized, o.no_punct, o.asian_support, o.case_sensitive)
    if metric == "ter" and reference:
        return lambda text: tuple(tok(tok(text.rstrip()).rstrip()).split())
    if metric != "cer":
        return lambda text: tuple(tok(text.rstrip()).split())
    if o.normalized or o.no_punct:
        return lambda text: tuple(tok(text.rstrip()))
    # jiwer's CER: the characters of the stripped text, spaces included.
    if o.case_sensitive:
        return lambda text: tuple(text.strip())
    return lambda text: tuple(text.strip().lower())


def segment_tokens(segment: object, argname: str, tok: Tokenizer, options: TerOptions) -> tuple[str, ...]:
    """A candidate or a reference as tokens: a string by ``tok``, a list of tokens as given (lowercased
    unless ``case_sensitive``); anything else is refused with a message naming ``argname``.

    >>> segment_tokens(["The", "Cat"], "candidate", tokenizer("ter", TerOptions()), TerOptions())
    ('the', 'cat')
    """
    if isinstance(segment, str):
        return tok(segment)
    return as_tokens(segment, argname=argname, lowercase=not options.case_sensitive)  # type: ignore[arg-type]


def reference_tokens(references: object, argname: str, tok: Tokenizer,
                     options: TerOptions) -> list[tuple[str, ...]]:
    """The references of one candidate as token tuples (a single string is one reference).

    A list that is empty or not a list is refused by :func:`mtlearn.core.checks.as_reference_list`,
    with every metric's messages.

    >>> reference_tokens("The cat", "references", tokenizer("ter", TerOptions()), TerOptions())
    [('the', 'cat')]
    >>> reference_tokens([], "references", tokenizer("ter", TerOptions()), TerOptions())
    Traceback (most recent call last):
    ...
    ValueError: references: no references given; a candidate needs at least one
    """
    if isinstance(references, str):
        references = [references]
    if not isinstance(references, (list, tuple)) or not references:
        return as_reference_list(references, argname=argname)  # raises: what is wrong, named
    return [segment_tokens(ref, f"{argname}[{i}]", tok, options) for i, ref in enumerate(references)]

"""Which layout a corpus call's references have, and how to fix a wrong one.

mtlearn's corpus functions take ``references[i]``, the list of references of
``candidates[i]`` (one list *per segment*). sacreBLEU takes the transpose, one list per
reference *stream* (``refs[k][i]`` is the k-th reference of segment i); passing one
layout where the other is expected silently scores the wrong pairs when the shapes happen
to fit (sacreBLEU #220: "silently throws away the rest"). :func:`check_reference_layout`
looks at the shapes only, never at the words, and says what it sees:

>>> cands = ["the cat sat", "a dog ran", "it rained"]
>>> streams = [["the cat sat", "a dog ran", "it rained"], ["a cat sat", "the dog ran", "rain fell"]]
>>> layout = check_reference_layout(cands, streams)
>>> layout.layout, layout.ok
('streams', False)
>>> print(layout.message)
references looks like 2 reference streams of 3 segments each (sacreBLEU's layout), but references[i] must list the references of candidates[i]; transpose it: corpus_bleu(candidates, [list(refs) for refs in zip(*references)])
>>> check_reference_layout(cands, [list(refs) for refs in zip(*streams)]).layout
'segments'

When the shapes cannot tell (as many streams as segments, e.g. two candidates with two
references each), the layout is ``ambiguous``: ``ok`` is True (the call may well be right)
and the note says how the other reading would be written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

__all__ = ["ReferenceLayout", "ReferenceLayoutWarning", "check_reference_layout", "warn_reference_layout", "LAYOUTS"]

#: What :func:`check_reference_layout` can report.
LAYOUTS = ("segments", "one-per-segment", "ambiguous", "streams", "single-string", "flat-references",
           "unwrapped-tokens", "lengths-disagree", "unknown")

_TRANSPOSE = "[list(refs) for refs in zip(*references)]"


@dataclass(frozen=True)
class ReferenceLayout:
    """What the references of a corpus call look like.

    - ``layout``: one of :data:`LAYOUTS` — ``segments`` (a list of references per
      candidate, as expected), ``one-per-segment`` (one reference string per candidate:
      accepted), ``ambiguous`` (the shapes fit both layouts), ``streams`` (transposed),
      ``single-string``, ``flat-references`` (the one candidate's references not wrapped
      in a list), ``unwrapped-tokens`` (token lists not wrapped in a list per segment),
      ``lengths-disagree`` or ``unknown`` (left to the metric's own errors);
    - ``ok``: whether the call scores what it seems to mean;
    - ``message``: what is seen and the corrected call (empty when ``ok`` and not ambiguous);
    - ``fix``: the corrected ``references`` expression, or ``None``;
    - ``n_candidates``, ``n_references`` (``len(references)``, or ``None`` for a string).

    >>> check_reference_layout(["a b"], [["a b", "a c"]])
    ReferenceLayout(layout='segments', ok=True, message='', fix=None, n_candidates=1, n_references=1)
    """

    layout: str
    ok: bool
    message: str
    fix: Optional[str]
    n_candidates: int
    n_references: Optional[int]


def _is_tokens(x: object) -> bool:
    return isinstance(x, (list, tuple)) and all(isinstance(t, str) for t in x)


def _is_reference(x: object, tokens: bool) -> bool:
    """A single reference: a string, or (when the candidates are token lists) a token list.

    A list of strings with white space inside is a list of reference strings, not tokens.
    """
    if isinstance(x, str):
        return True
    return tokens and _is_tokens(x) and len(x) > 0 and not any(" " in t or "\t" in t for t in x)


def _is_reference_list(x: object, tokens: bool) -> bool:
    """A segment's list of references (strings, or token lists when the candidates are)."""
    return isinstance(x, (list, tuple)) and len(x) > 0 and all(_is_reference(r, tokens) for r in x)


def _result(layout: str, message: str, fix: Optional[str], n: int, k: Optional[int]) -> ReferenceLayout:
    ok = layout in ("segments", "one-per-segment", "ambiguous", "unknown")
    return ReferenceLayout(layout, ok, message, fix, n, k)


def _flat(references: Sequence, n: int, tokens: bool, call: str) -> ReferenceLayout:
    """Every item is one reference (no list per segment)."""
    k = len(references)
    if tokens and all(len(r) == 1 for r in references if not isinstance(r, str)):
        tokens = False  # one-token lists read the same either way
    if tokens:
        return _result("unwrapped-tokens", (
            f"references holds {k} token lists, not a list of references per candidate: each token "
            f"would be taken as a reference; wrap each: {call}(candidates, [[ref] for ref in references])"),
            "[[ref] for ref in references]", n, k)
    if k == n:
        return _result("one-per-segment", "", None, n, k)
    if n == 1:
        return _result("flat-references", (
            f"references holds {k} strings for 1 candidate: if they are its references, wrap them in "
            f"one list: {call}(candidates, [references])"), "[references]", n, k)
    return _lengths(n, k, call)


def _lengths(n: int, k: int, call: str) -> ReferenceLayout:
    return _result("lengths-disagree", (
        f"references has {k} items for {n} candidates; references[i] must list the references of "
        f"candidates[i]: {call}(candidates, [[ref_a, ref_b], ...])"), None, n, k)


def _nested(references: Sequence, n: int, call: str) -> ReferenceLayout:
    """Every item is a list of references: per segment, or streams."""
    k = len(references)
    sizes = {len(r) for r in references}
    if k == n and sizes == {n} and n > 1:
        return _result("ambiguous", (
            f"references is {n} lists of {n}: per segment (as read) or {n} reference streams "
            f"(sacreBLEU's layout); the shapes cannot tell. If they are streams: "
            f"{call}(candidates, {_TRANSPOSE})"), _TRANSPOSE, n, k)
    if k == n:
        return _result("segments", "", None, n, k)
    if sizes == {n}:
        return _result("streams", (
            f"references looks like {k} reference stream{'s' if k > 1 else ''} of {n} segments each "
            f"(sacreBLEU's layout), but references[i] must list the references of candidates[i]; "
            f"transpose it: {call}(candidates, {_TRANSPOSE})"), _TRANSPOSE, n, k)
    return _lengths(n, k, call)


def check_reference_layout(candidates: Sequence, references: object, *, call: str = "corpus_bleu") -> ReferenceLayout:
    """Which layout ``references`` has for these ``candidates`` (see the module docstring).

    ``call`` names the function in the corrected call of the message. Candidates and
    references may be strings or token lists. Only the shapes are read.

    >>> print(check_reference_layout(["a b", "c d"], "a b").message)
    references is one string, but a corpus call needs one list of references per candidate: corpus_bleu(candidates, [[ref_a, ref_b], ...]) (or score one segment with bleu(candidate, [reference]))
    >>> check_reference_layout(["a b"], ["a b", "a c"]).fix
    '[references]'
    >>> check_reference_layout(["a b", "c d"], [["a b", "x"], ["c d", "y"]]).layout
    'ambiguous'
    """
    n = len(candidates) if isinstance(candidates, (list, tuple)) else 0
    tokens = n > 0 and all(_is_tokens(c) for c in candidates)
    if isinstance(references, str):
        shown = "[[references]]" if n == 1 else "[[ref_a, ref_b], ...]"
        return _result("single-string", (
            f"references is one string, but a corpus call needs one list of references per candidate: "
            f"{call}(candidates, {shown}) (or score one segment with "
            f"{call.replace('corpus_', '')}(candidate, [reference]))"),
            "[[references]]" if n == 1 else None, n, None)
    if n == 0 or not isinstance(references, (list, tuple)) or not references:
        return _result("unknown", "", None, n, len(references) if isinstance(references, (list, tuple)) else None)
    if all(_is_reference(r, tokens) for r in references):
        return _flat(references, n, tokens, call)
    if all(_is_reference_list(r, tokens) for r in references):
        return _nested(references, n, call)
    return _result("unknown", "", None, n, len(references))



class ReferenceLayoutWarning(UserWarning):
    """The references of a corpus call look mis-shaped (see :func:`check_reference_layout`)."""


def warn_reference_layout(candidates: Sequence, references: object, *, call: str) -> Optional[ReferenceLayout]:
    """Warn (:class:`ReferenceLayoutWarning`, with the corrected call) when the layout looks wrong.

    The corpus functions call this before their own checks, whose errors stay errors; a
    correct or ambiguous layout never warns. Returns the layout when it warned.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = warn_reference_layout([["a", "b"]], [["a", "b"]], call="corpus_meteor")
    >>> [str(w.message).split(":")[0] for w in caught]
    ['references holds 1 token lists, not a list of references per candidate']
    """
    try:
        layout = check_reference_layout(candidates, references, call=call)
    except TypeError:  # e.g. len() of an odd object: the metric's own checks name it
        return None
    if layout.ok or layout.layout == "lengths-disagree":  # the metric's error says it all
        return None
    import warnings

    warnings.warn(layout.message, ReferenceLayoutWarning, stacklevel=3)
    return layout

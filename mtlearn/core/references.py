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
and the note says how the other reading would be written. The corpus functions then score a
short corpus both ways and warn (:class:`AmbiguousLayoutWarning`, both scores in the message)
when the two readings give different scores (:func:`warn_ambiguous_layout`).

The sentence functions (``bleu``, ``meteor``, ``chrf``, ``ter``, ``wer``, ``cer``,
``d2l_bleu``) take one candidate. A corpus passed to one of them would be read as one
sentence whose "tokens" are whole sentences (``wer`` of two sentences was 2.0, ``bleu``
0.0); :func:`check_sentence_call` recognises that shape and names the corpus function:

>>> check_sentence_call(["the cat sat on the mat", "a dog barked"], [["the cat sat on a mat"], ["the dog barked"]],
...                     call="wer")
Traceback (most recent call last):
...
mtlearn.core.references.CorpusGivenError: candidate: a list of 2 sentences ('the cat sat on the mat', 'a dog barked'), not the tokens of one: wer() scores one candidate; for a corpus call corpus_wer(candidates, references), references[i] listing the references of candidates[i]
"""  # noqa: E501

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Optional

__all__ = ["ReferenceLayout", "ReferenceLayoutWarning", "AmbiguousLayoutWarning", "CorpusGivenError",
           "check_reference_layout", "warn_reference_layout", "warn_ambiguous_layout", "check_sentence_call",
           "segment_shape_problem", "transposed", "LAYOUTS", "AMBIGUOUS_SCORED"]

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


def check_reference_layout(candidates: Sequence, references: object, *,
                           call: str = "corpus_bleu") -> ReferenceLayout:
    """Which layout ``references`` has for these ``candidates`` (see the module docstring).

    ``call`` names the function in the corrected call of the message. Candidates and
    references may be strings or token lists. Only the shapes are read.

    >>> print(check_reference_layout(["a b", "c d"], "a b").message)
    references is one string, but a corpus call needs one list of references per candidate: corpus_bleu(candidates, [[ref_a, ref_b], ...]) (or score one segment with bleu(candidate, [reference]))
    >>> check_reference_layout(["a b"], ["a b", "a c"]).fix
    '[references]'
    >>> check_reference_layout(["a b", "c d"], [["a b", "x"], ["c d", "y"]]).layout
    'ambiguous'
    """  # noqa: E501
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
        return _result("unknown", "", None, n, len(references) if isinstance(references, (list, tuple))
                       else None)
    if all(_is_reference(r, tokens) for r in references):
        return _flat(references, n, tokens, call)
    if all(_is_reference_list(r, tokens) for r in references):
        return _nested(references, n, call)
    return _result("unknown", "", None, n, len(references))



class ReferenceLayoutWarning(UserWarning):
    """The references of a corpus call look mis-shaped (see :func:`check_reference_layout`)."""


def warn_reference_layout(candidates: Sequence, references: object, *, call: str,
                          stacklevel: int = 3) -> Optional[ReferenceLayout]:
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
    warnings.warn(layout.message, ReferenceLayoutWarning, stacklevel=stacklevel)  # at the caller's caller
    return layout


# ------------------------------------------------------------------------- square shapes: score both readings

#: Up to this many segments, an ambiguous (square) call is scored both ways; above, the warning gives no
#: scores.
AMBIGUOUS_SCORED = 16


class AmbiguousLayoutWarning(ReferenceLayoutWarning):
    """A square call (as many reference lists as segments, each as long) whose two readings score
    differently."""


def transposed(references: Sequence) -> list[list]:
    """The other reading of a square ``references``: per segment <-> per stream.

    >>> transposed([["a", "b"], ["c", "d"]])
    [['a', 'c'], ['b', 'd']]
    """
    return [list(refs) for refs in zip(*references)]


def warn_ambiguous_layout(candidates: Sequence, references: object, score: float,
                          rescore: Callable[[list], float],
                          *, call: str, stacklevel: int = 3) -> Optional[tuple[float, float]]:
    """When the shapes cannot tell the layout, score the other reading and warn if the scores differ.

    ``score`` is the corpus function's score as read (references per segment); ``rescore``
    scores the same candidates with other references (the function itself, without this
    check). Up to :data:`AMBIGUOUS_SCORED` segments both readings are scored and the warning
    (:class:`AmbiguousLayoutWarning`) prints both, only when they differ; above, it says the
    shapes cannot tell without scoring. Returns ``(as read, as streams)`` when it warned
    with scores. Where the layout is known (the command line reads one file per stream),
    the caller ignores the warning.

    >>> import warnings
    >>> cands = ["the cat sat", "a dog ran"]
    >>> refs = [["the cat sat", "a dog ran"], ["a cat sat", "the dog ran"]]  # two streams?
    >>> exact = lambda rs: sum(c in r for c, r in zip(cands, rs)) / len(cands)  # a toy metric
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     both = warn_ambiguous_layout(cands, refs, exact(refs), exact, call="corpus_bleu")
    >>> both
    (0.5, 1.0)
    >>> print(caught[0].message)
    references is 2 lists of 2: per segment (as read) or 2 reference streams (sacreBLEU's layout); the shapes cannot tell, and the readings differ: corpus_bleu = 0.5000 as read, 1.0000 as streams. If they are streams: corpus_bleu(candidates, [list(refs) for refs in zip(*references)])
    """  # noqa: E501
    try:
        layout = check_reference_layout(candidates, references, call=call)
    except TypeError:
        return None
    if layout.layout != "ambiguous":
        return None
    n = layout.n_candidates
    head = (f"references is {n} lists of {n}: per segment (as read) or {n} reference streams "
            f"(sacreBLEU's layout); the shapes cannot tell")
    fix = f"If they are streams: {call}(candidates, {_TRANSPOSE})"
    if n > AMBIGUOUS_SCORED:  # n x n references: scoring them all again is no longer cheap
        warnings.warn(f"{head} (not scored both ways: more than {AMBIGUOUS_SCORED} segments). {fix}",
                      AmbiguousLayoutWarning, stacklevel=stacklevel)
        return None
    assert isinstance(references, Sequence)
    with warnings.catch_warnings():  # the other reading's own warnings repeat the call's
        warnings.simplefilter("ignore")
        other = rescore(transposed(references))
    if other == score:
        return None
    read, streams = distinct_decimals(score, other)
    warnings.warn(f"{head}, and the readings differ: {call} = {read} as read, {streams} as streams. {fix}",
                  AmbiguousLayoutWarning, stacklevel=stacklevel)
    return score, other


def distinct_decimals(a: float, b: float, fewest: int = 4) -> tuple[str, str]:
    """``a`` and ``b`` with the fewest decimals (at least ``fewest``) that tell them apart.

    >>> distinct_decimals(0.5, 1.0), distinct_decimals(0.0000123, 0.0000124)
    (('0.5000', '1.0000'), ('0.0000123', '0.0000124'))
    """
    for places in range(fewest, 18):
        shown = (f"{a:.{places}f}", f"{b:.{places}f}")
        if shown[0] != shown[1]:
            return shown
    return repr(a), repr(b)


# ---------------------------------------------------------------------- a corpus given to a sentence function


class CorpusGivenError(ValueError, TypeError):
    """A sentence function was given a corpus (or a corpus' references); the message names the corpus
    function.

    A ``ValueError`` (the values have the wrong shape for one sentence) and a ``TypeError``
    (what a list of token lists used to raise), so callers catching either still do.
    """


def _words(text: str) -> int:
    return len(text.split())


def _quoted(items: Sequence, k: int = 2) -> str:
    shown = ", ".join(repr(x if len(str(x)) <= 40 else str(x)[:37] + "...") for x in items[:k])
    return shown + (", ..." if len(items) > k else "")


def _corpus_advice(call: str, corpus: Optional[str]) -> str:
    if corpus is None:  # d2l_bleu: no corpus form
        return f"{call}() scores one pair; call it once per pair"
    return (f"{call}() scores one candidate; for a corpus call {corpus}(candidates, references), "
            "references[i] listing the references of candidates[i]")


def segment_shape_problem(segment: object) -> Optional[str]:
    """Why ``segment`` (one candidate, or one reference) looks like several sentences, else ``None``.

    A list of token lists, or a list of strings most of which hold several words (a
    sentence each). A token list of single words, or with a few multi-word tokens
    (``["new york", "is"]``), is one segment.

    >>> segment_shape_problem(["the", "cat"]), segment_shape_problem(["new york", "is"])
    (None, None)
    >>> segment_shape_problem([["the", "cat"], ["a", "dog"]])
    'a list of 2 token lists'
    """
    if isinstance(segment, str) or not isinstance(segment, (list, tuple)) or not segment:
        return None
    if any(isinstance(item, (list, tuple)) for item in segment):
        return f"a list of {len(segment)} token lists"
    texts = [item for item in segment if isinstance(item, str)]
    if len(texts) == len(segment) and 2 * sum(_words(t) > 1 for t in texts) > len(texts):
        return f"a list of {len(segment)} sentence{'s' if len(segment) > 1 else ''} ({_quoted(texts)})"
    return None


def _reference_problem(references: object) -> Optional[str]:
    """A sentence call's references in a corpus' shape: a reference that is a list of sentences or of token
    lists."""
    if isinstance(references, str) or not isinstance(references, (list, tuple)):
        return None
    for k, ref in enumerate(references):
        if not isinstance(ref, (list, tuple)) or not ref:
            continue
        if any(isinstance(item, (list, tuple)) for item in ref):
            return f"references[{k}] is a list of {len(ref)} token lists, not one reference"
        sentences = [item for item in ref if isinstance(item, str) and _words(item) > 1]
        if sentences:
            return (f"references[{k}] is a list holding sentences ({_quoted(sentences)}), which would be "
                    f"read as one reference of {len(ref)} token{'s' if len(ref) > 1 else ''}")
    return None


def check_sentence_call(candidate: object, references: object, *, call: str, corpus: Optional[str] = "",
                        candidate_name: str = "candidate", references_name: str = "references") -> None:
    """Refuse a corpus given to the sentence function ``call``, naming the corpus function to call instead.

    Raises :class:`CorpusGivenError` when the candidate is a list of sentences or of token
    lists, or when (the candidate being one sentence) a reference is itself a list of
    sentences or of token lists. ``corpus`` is the corpus function's name (default
    ``"corpus_" + call``; ``None`` when there is none). Tokens given on purpose pass: a
    list of single words, or a token list with a few multi-word tokens whose references
    use the same tokens.

    >>> check_sentence_call(["the", "cat"], [["the", "cat"], "a cat"], call="bleu")  # tokens: fine
    >>> check_sentence_call("the cat", [["the cat", "a cat"]], call="meteor")
    Traceback (most recent call last):
    ...
    mtlearn.core.references.CorpusGivenError: references: references[0] is a list holding sentences ('the cat', 'a cat'), which would be read as one reference of 2 tokens: meteor() scores one candidate; for a corpus call corpus_meteor(candidates, references), references[i] listing the references of candidates[i]
    """  # noqa: E501
    corpus = f"corpus_{call}" if corpus == "" else corpus
    problem = segment_shape_problem(candidate)
    if problem:
        raise CorpusGivenError(f"{candidate_name}: {problem}, not the tokens of one: "
                               f"{_corpus_advice(call, corpus)}")
    phrases = (isinstance(candidate, (list, tuple))
               and any(isinstance(t, str) and _words(t) > 1 for t in candidate))
    found = None if phrases else _reference_problem(references)  # multi-word tokens on both sides: on purpose
    if found:
        raise CorpusGivenError(f"{references_name}: {found}: {_corpus_advice(call, corpus)}")

"""BLEU as well-known implementations compute it: named profiles of mtlearn's own BLEU steps.

A :class:`BleuProfile` is a frozen dataclass of settings, grouped into the pipeline's
ordered :data:`STEPS`:

1. **tokenisation** -- ``tokenize`` (an mtlearn tokenizer, or ``split-space``:
   ``str.split(' ')``, d2l-en's), ``lowercase``;
2. **n-gram counting/clipping** -- ``max_order``, ``references`` (``all``, or ``first``:
   the library takes one reference per segment); clipped counts are
   :func:`~mtlearn.metrics.bleu.formulas.precision_counts` (every library clips by the
   maximum count in one reference);
3. **reference length** -- ``ref_length`` (``closest`` or ``shortest``) and ``ties``
   (``shorter`` reference, or the ``first-listed``);
4. **precisions/smoothing** -- ``smoothing`` (mtlearn's ``none``, ``exp``, ``floor``,
   ``add-k``, ``method0`` .. ``method7``, through
   :func:`~mtlearn.metrics.bleu.score.bleu_from_stats`; or ``lin-och``: (m + 1)/(t + 1) on
   every order, unigrams too; ``torchmetrics-add-one``: 0 when an order has no match, else
   (m + 1)/(t + 1) from bigrams on; ``t2t-exp``: exp smoothing with orders of no n-gram
   left out of a sum still divided by N), ``smooth_value``, ``effective_order``,
   ``weights`` (``uniform`` 1/N or ``halvings`` 1/2^n), ``orders`` (``max_order``, or
   ``up-to-candidate``: min(N, c), d2l-en's loop);
5. **brevity penalty** -- ``brevity_penalty``: ``papineni`` (exp(1 - r/c) when c < r),
   ``ratio`` (tensorflow/nmt's exp(1 - 1/(c/r)), the same up to the last bit), ``none``;
6. **aggregation** -- ``corpus`` (statistics summed, one score) or ``mean`` (the mean of
   the segments' scores: a sentence-level function applied to each segment);
7. **score** -- ``scale`` (sacreBLEU reports 100 x) and ``dtype`` (``float32``: the library
   returns a 32-bit float).

:class:`BleuProfileScorer` scores profiles on one corpus, tokenizing and counting once per
setting; :func:`score_profile` scores one. Each profile's function below names its source
(repository, file, version) and the rules it reproduces; mtlearn writes the rules from
those sources with its own steps, it does not copy the code.

>>> cand, refs = "the cat sat on the mat", ["the cat is on the mat", "there is a cat on the mat"]
>>> for name in ("sacrebleu-sentence", "nltk-sentence-method1", "hf-evaluate", "hf-evaluate-smooth"):
...     print(name, round(score_profile(name, [cand], [refs]).score, 4))
sacrebleu-sentence 0.3799
nltk-sentence-method1 0.2541
hf-evaluate 0.0
hf-evaluate-smooth 0.4889
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import struct
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional, Union

from mtlearn.metrics.bleu.formulas import (
    brevity_penalty as papineni_brevity_penalty,
    closest_ref_length,
    geometric_mean,
    precision_counts,
)
from mtlearn.metrics.bleu.options import MAX_ORDER
from mtlearn.metrics.bleu.score import bleu_from_stats
from mtlearn.metrics.bleu.smoothing import NEEDS_FIVEGRAMS, SMOOTHING_METHODS
from mtlearn.metrics.bleu.stats import BleuStats, sum_stats
from mtlearn.core.checks import as_tokens, check_choice, check_corpus
from mtlearn.core.tokenize import TOKENIZERS

__all__ = [
    "BleuProfile", "BleuProfileScore", "BleuProfileScorer", "STEPS", "PROFILES", "DESCRIPTIVE_FIELDS",
    "PROFILE_TOKENIZERS", "OWN_RULES", "get_profile", "score_profile", "brevity_penalty_ratio", "reference_length",
]

#: The pipeline's steps in order, each with the profile fields it sets.
STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("tokenisation", ("tokenize", "lowercase")),
    ("n-gram counting/clipping", ("max_order", "references")),
    ("reference length", ("ref_length", "ties")),
    ("precisions/smoothing", ("smoothing", "smooth_value", "effective_order", "weights", "orders")),
    ("brevity penalty", ("brevity_penalty",)),
    ("aggregation", ("aggregation",)),
    ("score/scale", ("scale", "dtype")),
)

#: Fields that describe a profile and set nothing.
DESCRIPTIVE_FIELDS: tuple[str, ...] = ("name", "library", "call", "source")

#: mtlearn's own tokenizers plus d2l-en's ``str.split(' ')``.
PROFILE_TOKENIZERS = TOKENIZERS + ("split-space",)
#: Precision rules beyond mtlearn's smoothing methods.
OWN_RULES = ("lin-och", "torchmetrics-add-one", "t2t-exp")

#: The highest ``max_order`` a profile takes (as many orders as :func:`mtlearn.corpus_bleu`).
MAX_PROFILE_ORDER = MAX_ORDER

_CHOICES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("tokenize", PROFILE_TOKENIZERS),
    ("references", ("all", "first")),
    ("ref_length", ("closest", "shortest")),
    ("ties", ("shorter", "first-listed")),
    ("smoothing", SMOOTHING_METHODS + OWN_RULES),
    ("weights", ("uniform", "halvings")),
    ("orders", ("max_order", "up-to-candidate")),
    ("brevity_penalty", ("papineni", "ratio", "none")),
    ("aggregation", ("corpus", "mean")),
    ("dtype", ("float64", "float32")),
)


@dataclass(frozen=True)
class BleuProfile:
    """One implementation's BLEU as settings of mtlearn's steps (see :data:`STEPS`).

    ``name``, ``library``, ``call`` (how the library is called) and ``source`` describe it;
    every other field is a setting of one step. A bad value is an error naming the field:

    >>> BleuProfile("x", "x", "x", "x", ref_length="longest")
    Traceback (most recent call last):
    ...
    ValueError: ref_length: unknown value 'longest'; choose one of closest, shortest
    """

    name: str
    library: str
    call: str
    source: str
    tokenize: str = "13a"
    lowercase: bool = False
    max_order: int = 4
    references: str = "all"
    ref_length: str = "closest"
    ties: str = "shorter"
    smoothing: str = "none"
    smooth_value: Optional[float] = None
    effective_order: bool = False
    weights: str = "uniform"
    orders: str = "max_order"
    brevity_penalty: str = "papineni"
    aggregation: str = "corpus"
    scale: int = 1
    dtype: str = "float64"

    def __post_init__(self) -> None:
        for name, choices in _CHOICES:
            check_choice(getattr(self, name), choices, name)
        if isinstance(self.max_order, bool) or not isinstance(self.max_order, int) or self.max_order < 1:
            raise ValueError(f"max_order: expected a positive int, got {self.max_order!r}")
        if self.max_order > MAX_PROFILE_ORDER:
            raise ValueError(f"max_order: at most {MAX_PROFILE_ORDER} in a profile, got {self.max_order} (a profile "
                             "keeps every order's counts, precisions and weights, and a comparison walks them step "
                             "by step; corpus_bleu has the same bound)")
        for flag in ("lowercase", "effective_order"):
            if not isinstance(getattr(self, flag), bool):
                raise TypeError(f"{flag}: expected True or False, got {getattr(self, flag)!r}")

    def settings(self) -> dict[str, Any]:
        """Every setting (the fields of the steps), by name."""
        return {f: getattr(self, f) for _, fields in STEPS for f in fields}


# --------------------------------------------------------------------------------------
# The profiles, each from its source
# --------------------------------------------------------------------------------------


def sacrebleu_corpus() -> BleuProfile:
    """sacreBLEU's ``corpus_bleu`` (github.com/mjpost/sacrebleu, ``sacrebleu/metrics/bleu.py``, 2.x).

    Tokenizer ``13a``, case-sensitive, closest reference length (ties to the shorter,
    ``_get_closest_ref_len``), ``smooth_method="exp"`` (the NIST rule), statistics summed
    over the corpus, reported as 100 x BLEU. WMT's official BLEU.

    >>> round(score_profile(sacrebleu_corpus(), ["the cat sat on the mat"], [["the cat sat on a mat"]]).reported, 2)
    53.73
    """
    return BleuProfile(
        "sacrebleu-corpus", "sacreBLEU", "sacrebleu.corpus_bleu(hyps, [refs])",
        "github.com/mjpost/sacrebleu sacrebleu/metrics/bleu.py (2.x; installed: a dependency)",
        tokenize="13a", smoothing="exp", scale=100,
    )


def sacrebleu_sentence() -> BleuProfile:
    """sacreBLEU's ``sentence_bleu`` (``sacrebleu/compat.py`` and ``metrics/bleu.py``, 2.x), one per segment.

    As :func:`sacrebleu_corpus` but ``use_effective_order=True`` (orders the candidate has
    no n-gram of are left out) and one score per segment; for several segments the
    profile reports their mean (what a user averaging ``sentence_bleu`` gets).

    >>> round(score_profile(sacrebleu_sentence(), ["the cat"], [["the cat sat"]]).reported, 2)
    60.65
    """
    return BleuProfile(
        "sacrebleu-sentence", "sacreBLEU", "mean of sacrebleu.sentence_bleu(hyp, refs)",
        "github.com/mjpost/sacrebleu sacrebleu/compat.py, sacrebleu/metrics/bleu.py (2.x; installed)",
        tokenize="13a", smoothing="exp", effective_order=True, aggregation="mean", scale=100,
    )


_NLTK = "github.com/nltk/nltk nltk/translate/bleu_score.py (3.x; installed: a dependency)"


def nltk_corpus() -> BleuProfile:
    """NLTK's ``corpus_bleu`` without a smoothing function (``nltk/translate/bleu_score.py``, 3.x).

    Token lists are the caller's (strings split on white space here, as a caller does),
    closest reference length (ties to the shorter, ``closest_ref_length``), ``method0``:
    a zero precision becomes ``sys.float_info.min`` (NLTK warns), so a corpus without a
    4-gram match scores about 1e-77, not 0; statistics summed.

    >>> score_profile(nltk_corpus(), ["a b c"], [["a b c d"]]).score < 1e-70
    True
    """
    return BleuProfile("nltk-corpus", "NLTK", "nltk.translate.bleu_score.corpus_bleu(refs, hyps)", _NLTK,
                       tokenize="whitespace", smoothing="method0")


def nltk_corpus_method1() -> BleuProfile:
    """NLTK's ``corpus_bleu`` with ``SmoothingFunction().method1`` (epsilon 0.1 added to zero matches).

    As :func:`nltk_corpus`; a zero match count becomes 0.1 over the order's denominator
    (each segment's count floored at 1, summed).

    >>> round(score_profile(nltk_corpus_method1(), ["a b c"], [["a b c d"]]).score, 4)
    0.4029
    """
    return BleuProfile("nltk-corpus-method1", "NLTK",
                       "corpus_bleu(refs, hyps, smoothing_function=SmoothingFunction().method1)", _NLTK,
                       tokenize="whitespace", smoothing="method1")


def nltk_sentence() -> BleuProfile:
    """NLTK's ``sentence_bleu`` without smoothing (``method0``), one score per segment, then their mean.

    ``sentence_bleu`` is ``corpus_bleu`` of one segment (NLTK's own definition).

    >>> score_profile(nltk_sentence(), ["a b c"], [["a b c d"]]).score < 1e-70
    True
    """
    return BleuProfile("nltk-sentence", "NLTK", "mean of nltk sentence_bleu(refs, hyp)", _NLTK,
                       tokenize="whitespace", smoothing="method0", aggregation="mean")


def nltk_sentence_method1() -> BleuProfile:
    """NLTK's ``sentence_bleu`` with ``SmoothingFunction().method1``, one score per segment, then their mean.

    >>> round(score_profile(nltk_sentence_method1(), ["a b c"], [["a b c d"]]).score, 4)
    0.4029
    """
    return BleuProfile("nltk-sentence-method1", "NLTK",
                       "mean of sentence_bleu(refs, hyp, smoothing_function=SmoothingFunction().method1)",
                       _NLTK, tokenize="whitespace", smoothing="method1", aggregation="mean")


_HF = ("github.com/huggingface/evaluate metrics/bleu/bleu.py (a7dd338, 2026), which calls "
       "github.com/tensorflow/nmt nmt/scripts/bleu.py compute_bleu (0be8642, 2019) after its own "
       "tokenizer_13a.py (sacreBLEU's 13a)")


def hf_evaluate() -> BleuProfile:
    """Hugging Face evaluate's ``bleu`` = tensorflow/nmt's ``compute_bleu`` after its ``Tokenizer13a``.

    Rules (tensorflow/nmt ``nmt/scripts/bleu.py``): per segment the **shortest** reference
    length (``min(len(r) for r in references)``), references merged with ``Counter |``
    (clipping by the maximum), p_n = m/t (0 when t = 0), BLEU 0 as soon as one p_n is 0
    (``min(precisions) > 0``), BP from the ratio c/r: 1 when above 1, else exp(1 - 1/ratio);
    statistics summed over the corpus (``smooth=False``, the default). ``evaluate.load``
    fetches the script from the hub: this profile needs no network.

    HF's card: ``reference_length`` 6, ``length_ratio`` 1.1666666666666667 on its first example:

    >>> r = score_profile(hf_evaluate(), ["hello there general kenobi", "foo bar foobar"],
    ...                   [["hello there general kenobi", "hello there !"], ["foo bar foobar"]])
    >>> r.score, r.reference_length, r.candidate_length / r.reference_length
    (1.0, 6, 1.1666666666666667)
    """
    return BleuProfile("hf-evaluate", "Hugging Face evaluate", 'evaluate.load("bleu").compute(...)', _HF,
                       tokenize="13a", ref_length="shortest", brevity_penalty="ratio")


def hf_evaluate_smooth() -> BleuProfile:
    """Hugging Face evaluate's ``bleu`` with ``smooth=True``: Lin and Och's (m + 1)/(t + 1) on EVERY order.

    tensorflow/nmt smooths unigrams too (sacreBLEU's ``add-k`` and NLTK's ``method2`` start
    at bigrams), and an order without n-grams gets (0 + 1)/(0 + 1) = 1: "a b c" against
    "a b c d" keeps only the brevity penalty exp(1 - 4/3).

    >>> r = score_profile(hf_evaluate_smooth(), ["a b c"], [["a b c d"]])
    >>> r.precisions, round(r.score, 4)
    ((1.0, 1.0, 1.0, 1.0), 0.7165)
    """
    return dataclasses.replace(hf_evaluate(), name="hf-evaluate-smooth",
                               call='evaluate.load("bleu").compute(..., smooth=True)', smoothing="lin-och")


_TORCHMETRICS = ("github.com/Lightning-AI/torchmetrics src/torchmetrics/functional/text/bleu.py "
                 "(dab0333, 2026; from torchtext's bleu_score)")


def torchmetrics_bleu() -> BleuProfile:
    """torchmetrics' ``BLEUScore`` / ``bleu_score`` (``src/torchmetrics/functional/text/bleu.py``).

    Rules: ``sentence.split()``, the closest reference length with ties to the FIRST
    listed reference (``target_len_diff.index(min(...))``), 0 when any order has no match
    (``min(numerator) == 0``), BP = 1 only when c > r (the same value at c = r),
    statistics summed; the score is a float32 tensor (torch computes every step in float32:
    this profile computes in float64 and rounds, the same to about 1e-7).

    Its docstring's example prints ``tensor(0.7598)``:

    >>> round(score_profile(torchmetrics_bleu(), ["the cat is on the mat"],
    ...                     [["there is a cat on the mat", "a cat is on the mat"]]).score, 4)
    0.7598
    """
    return BleuProfile("torchmetrics", "torchmetrics", "torchmetrics.text.BLEUScore()(preds, target)",
                       _TORCHMETRICS, tokenize="whitespace", ties="first-listed", dtype="float32")


def torchmetrics_smooth() -> BleuProfile:
    """torchmetrics' ``BLEUScore(smooth=True)``: (m + 1)/(t + 1) from bigrams on, unigrams as they are.

    The zero test comes first: an order without a match still gives 0.

    >>> score_profile(torchmetrics_smooth(), ["a b c"], [["a b c d"]]).score
    0.0
    >>> round(score_profile(torchmetrics_smooth(), ["a b c d"], [["a b c d e"]]).score, 4)
    0.7788
    """
    return dataclasses.replace(torchmetrics_bleu(), name="torchmetrics-smooth",
                               call="torchmetrics.text.BLEUScore(smooth=True)(preds, target)",
                               smoothing="torchmetrics-add-one")


_KERAS = ("github.com/keras-team/keras-nlp keras_hub/src/metrics/bleu.py (03f3578, 2024; "
          "keras_nlp.metrics.Bleu, now keras_hub.metrics.Bleu)")


def keras_nlp() -> BleuProfile:
    """KerasNLP's ``Bleu`` metric (``keras_hub/src/metrics/bleu.py``): tensorflow/nmt's rules in float32.

    Its default tokenizer replays sacreBLEU's 13a regular expressions with TensorFlow ops;
    ``_corpus_bleu`` is tensorflow/nmt's (shortest reference length, BP from the ratio,
    0 when one p_n is 0), on counts kept in float32 variables and a float32 result.

    Its test ``test_1d_list_input`` expects 0.243 (within 1e-3):

    >>> round(score_profile(keras_nlp(), ["He He He eats sweet apple which is a fruit.",
    ...                                   "I love Silicon Valley, it's one of my favourite shows."],
    ...                     [["He eats a sweet apple."], ["Silicon Valley is one of my favourite shows!"]]).score, 3)
    0.243
    """
    return BleuProfile("keras-nlp", "KerasNLP", "keras_nlp.metrics.Bleu()(y_true, y_pred)", _KERAS,
                       tokenize="13a", ref_length="shortest", brevity_penalty="ratio", dtype="float32")


def keras_nlp_smooth() -> BleuProfile:
    """KerasNLP's ``Bleu(smooth=True)``: Lin and Och's +1 on matches and totals of every order, unigrams too.

    Its docstring says so ("for every order"); its test ``test_scalar_input`` expects 0.212:

    >>> round(score_profile(keras_nlp_smooth(), ["He He He eats sweet apple which is a fruit."],
    ...                     [["He eats a sweet apple.", "He is eating a tasty apple, isn't he?"]]).score, 3)
    0.212
    """
    return dataclasses.replace(keras_nlp(), name="keras-nlp-smooth",
                               call="keras_nlp.metrics.Bleu(smooth=True)(y_true, y_pred)", smoothing="lin-och")


def d2l_document() -> BleuProfile:
    """Document 002's ``bleu(pred_tokens, label_tokens, k)`` (d2l's function as the document prints it).

    One label (the first reference), BP = exp(min(0, 1 - len_label/len_pred)), weights
    1/2^n, p_n = clipped matches / (len_pred - n + 1) for every n up to k; where the
    document's code divides by zero (a prediction shorter than k), p_n is 0 as in
    :func:`mtlearn.d2l_bleu`. Tokens as given (strings split on white space); one score
    per segment, their mean for several. Not reproduced: the document keys n-grams with
    ``''.join(tokens)``, so ("ab", "c") and ("a", "bc") collide; mtlearn keys them by tuples
    (d2l-en's ``' '.join`` keys cannot collide on tokens split on spaces).

    >>> round(score_profile(d2l_document(), ["A B"], [["A B C D E F"]]).score, 4)
    0.0
    """
    return BleuProfile("d2l-document", "d2l (document 002)", "bleu(pred_tokens, label_tokens, k=4)",
                       "document 002 (../shared/seeds); the function of d2l-en before April 2022",
                       tokenize="whitespace", references="first", weights="halvings", aggregation="mean")


def d2l_en() -> BleuProfile:
    """d2l-en's ``bleu(pred_seq, label_seq, k)`` since April 2022 (``d2l/torch.py``, commit 03f5ae51).

    The document's formula, with the loop ``range(1, min(k, len_pred) + 1)``: orders longer
    than the prediction are left out (a factor 1), and strings split on ``' '``.

    >>> round(score_profile(d2l_en(), ["A B"], [["A B C D E F"]]).score, 4)
    0.1353
    """
    return dataclasses.replace(
        d2l_document(), name="d2l-en", library="d2l-en", call="d2l.bleu(pred_seq, label_seq, k=4)",
        source="github.com/d2l-ai/d2l-en d2l/torch.py bleu (23d7a5a, 2024; min(k, len_pred) since 03f5ae51, 2022)",
        tokenize="split-space", orders="up-to-candidate",
    )


def tensor2tensor() -> BleuProfile:
    """tensor2tensor's ``compute_bleu`` as ``bleu_wrapper`` calls it (``tensor2tensor/utils/bleu_hook.py``).

    Rules (bafdc1b, 2023): ``bleu_wrapper`` lowercases (``case_sensitive=False``) and
    tokenizes with ``bleu_tokenize`` (mteval-v14's international rules; sacreBLEU's ``intl``
    stands in: it differs only on number characters that are not decimal digits);
    ``compute_bleu`` takes ONE reference per segment (the first here), exp smoothing
    (a zero match count gives 1/(2^k t)), an order without n-grams left out of the sum
    but the sum still divided by N, BP from the ratio (1 when there is no reference
    length), statistics summed, a ``np.float32`` result.

    A three-word candidate has no 4-gram: sacreBLEU's corpus BLEU is then 0, tensor2tensor's
    leaves the order out and keeps only the brevity penalty exp(1 - 6/3):

    >>> round(score_profile(tensor2tensor(), ["The cat sat"], [["the cat sat on the mat"]]).score, 4)
    0.3679
    """
    return BleuProfile(
        "tensor2tensor", "tensor2tensor", "bleu_hook.bleu_wrapper(ref_file, hyp_file)",
        "github.com/tensorflow/tensor2tensor tensor2tensor/utils/bleu_hook.py (bafdc1b, 2023)",
        tokenize="intl", lowercase=True, references="first", smoothing="t2t-exp",
        brevity_penalty="ratio", dtype="float32",
    )


_FACTORIES: tuple[Callable[[], BleuProfile], ...] = (
    sacrebleu_corpus, sacrebleu_sentence, nltk_corpus, nltk_corpus_method1, nltk_sentence,
    nltk_sentence_method1, hf_evaluate, hf_evaluate_smooth, torchmetrics_bleu, torchmetrics_smooth,
    keras_nlp, keras_nlp_smooth, d2l_document, d2l_en, tensor2tensor,
)

#: Every BLEU profile, by name, in the order of the tables.
PROFILES: dict[str, BleuProfile] = {p.name: p for p in (f() for f in _FACTORIES)}


def get_profile(profile: Union[str, BleuProfile]) -> BleuProfile:
    """A profile by name (or the profile itself).

    >>> get_profile("hf-evaluate").ref_length
    'shortest'
    >>> get_profile("sacrebleu")
    Traceback (most recent call last):
    ...
    ValueError: profiles: unknown BLEU profile 'sacrebleu'; choose from sacrebleu-corpus, sacrebleu-sentence, nltk-corpus, nltk-corpus-method1, nltk-sentence, nltk-sentence-method1, hf-evaluate, hf-evaluate-smooth, torchmetrics, torchmetrics-smooth, keras-nlp, keras-nlp-smooth, d2l-document, d2l-en, tensor2tensor
    """
    if isinstance(profile, BleuProfile):
        return profile
    if not isinstance(profile, str) or profile not in PROFILES:
        raise ValueError(f"profiles: unknown BLEU profile {profile!r}; choose from {', '.join(PROFILES)}")
    return PROFILES[profile]


# --------------------------------------------------------------------------------------
# The steps that are not mtlearn's defaults
# --------------------------------------------------------------------------------------


def reference_length(rule: str, ties: str, candidate_length: int, lengths: Sequence[int]) -> int:
    """r of one segment: the closest reference length (ties to the shorter or to the first listed) or the shortest.

    >>> reference_length("closest", "shorter", 5, [6, 4]), reference_length("closest", "first-listed", 5, [6, 4])
    (4, 6)
    >>> reference_length("shortest", "shorter", 5, [3, 6])
    3
    """
    if rule == "shortest":
        return min(lengths)
    if ties == "shorter":
        return closest_ref_length(candidate_length, lengths)
    gaps = [abs(length - candidate_length) for length in lengths]
    return lengths[gaps.index(min(gaps))]


def brevity_penalty_ratio(candidate_length: int, reference_length: int) -> tuple[float, Optional[str]]:
    """tensorflow/nmt's BP: ratio = c/r; 1 when ratio > 1, else exp(1 - 1/ratio); and a note at a division by zero.

    >>> brevity_penalty_ratio(5, 6)[0] == math.exp(1 - 1 / (5 / 6))
    True
    >>> brevity_penalty_ratio(0, 6)
    (0.0, 'c = 0: tensorflow/nmt divides by zero here (1/ratio); BP taken as 0')
    """
    if reference_length == 0:
        return 1.0, "r = 0: tensorflow/nmt divides by zero here (c/r); BP taken as 1 (tensor2tensor's)"
    if candidate_length == 0:
        return 0.0, "c = 0: tensorflow/nmt divides by zero here (1/ratio); BP taken as 0"
    ratio = candidate_length / reference_length
    return (1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)), None


def _weights(rule: str, orders: int) -> tuple[float, ...]:
    if rule == "halvings":
        return tuple(0.5 ** n for n in range(1, orders + 1))
    return tuple(1.0 / orders for _ in range(orders))


def _own_precisions(rule: str, matches: Sequence[int], totals: Sequence[int]) -> list[Fraction]:
    """The precisions of lin-och, torchmetrics-add-one and t2t-exp (0 for an order left out)."""
    if rule == "lin-och":
        return [Fraction(m + 1, t + 1) for m, t in zip(matches, totals)]
    if rule == "torchmetrics-add-one":
        if min(matches) == 0:
            return [Fraction(0) for _ in matches]
        return [Fraction(matches[0], totals[0])] + [Fraction(m + 1, t + 1) for m, t in zip(matches[1:], totals[1:])]
    out, doubling = [], 1
    for m, t in zip(matches, totals):  # t2t-exp
        if t == 0:
            out.append(Fraction(0))
        elif m > 0:
            out.append(Fraction(m, t))
        else:
            doubling *= 2
            out.append(Fraction(1, doubling * t))
    return out


@dataclass(frozen=True)
class _Mean:
    precisions: tuple[float, ...]
    geometric_mean: float
    note: Optional[str]


def _geometric(profile: BleuProfile, stats: BleuStats, orders: int) -> _Mean:
    """Step 4: the smoothed precisions of orders 1..``orders`` and their weighted geometric mean."""
    if orders == 0:
        return _Mean((), 0.0, "no order is left (an empty candidate): BLEU = 0")
    weights = _weights(profile.weights, orders)
    if profile.smoothing in OWN_RULES:
        p = _own_precisions(profile.smoothing, stats.matches[:orders], stats.totals[:orders])
        if profile.smoothing == "t2t-exp":  # orders without n-grams left out, the sum still over N
            kept = [(x, w) for x, w in zip(p, weights) if x > 0]
            geo = geometric_mean([x for x, _ in kept], [w for _, w in kept]) if kept else 0.0
        else:
            geo = geometric_mean(p, weights)
        return _Mean(tuple(float(x) for x in p), geo, None)
    with warnings.catch_warnings():  # halvings do not sum to 1; smooth_value > 1: said in the notes
        warnings.simplefilter("ignore")
        result = bleu_from_stats(stats, max_order=orders, weights=weights, smoothing=profile.smoothing,
                                 smooth_value=profile.smooth_value, effective_order=profile.effective_order)
    return _Mean(tuple(result.precisions), result.geometric_mean, result.reason)


def _brevity(profile: BleuProfile, c: int, r: int) -> tuple[float, Optional[str]]:
    """Step 5."""
    if profile.brevity_penalty == "none":
        return 1.0, None
    if profile.brevity_penalty == "ratio":
        return brevity_penalty_ratio(c, r)
    return papineni_brevity_penalty(c, r), None


def _float32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


# --------------------------------------------------------------------------------------
# Scoring a corpus under profiles
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Counts:
    """One segment after counting: c, every reference length used, matches and totals per order."""

    candidate_length: int
    reference_lengths: tuple[int, ...]
    matches: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class BleuProfileScore:
    """A profile's BLEU of a corpus (one segment is a corpus of one), with the intermediate values.

    ``score`` on 0..1 (float32-rounded where the library returns float32), ``reported`` on
    the library's scale; ``candidate_length``, ``reference_length`` (the profile's rule,
    summed), ``matches``, ``totals`` (summed, orders 1..max_order); ``precisions``,
    ``geometric_mean``, ``brevity_penalty`` of the summed statistics (``None`` when the
    profile averages segment scores over several segments); ``segment_scores`` (that
    mean's terms, else empty); ``tokens`` a digest of the tokenised corpus; ``notes``.
    """

    profile: BleuProfile
    score: float
    reported: float
    candidate_length: int
    reference_length: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: Optional[tuple[float, ...]]
    geometric_mean: Optional[float]
    brevity_penalty: Optional[float]
    segment_scores: tuple[float, ...]
    tokens: str
    notes: tuple[str, ...]

    def values(self) -> dict[str, Any]:
        """The intermediate values by name (what a divergence walk compares)."""
        return {
            "tokens": self.tokens, "candidate_length": self.candidate_length,
            "reference_length": self.reference_length, "matches": self.matches, "totals": self.totals,
            "precisions": self.precisions, "geometric_mean": self.geometric_mean,
            "brevity_penalty": self.brevity_penalty,
        }


def _check_segments(candidates: Sequence[Any], references: Sequence[Any]) -> None:
    check_corpus(candidates, references)
    for i, refs in enumerate(references):
        if isinstance(refs, str) or not isinstance(refs, (list, tuple)):
            raise TypeError(f"references[{i}]: expected a list of references of candidates[{i}], "
                            f"got {type(refs).__name__}")
        if len(refs) == 0:
            raise ValueError(f"references[{i}]: no references given; a candidate needs at least one")


class BleuProfileScorer:
    """Scores BLEU profiles on one corpus; each tokenisation and each counting is done once.

    ``references[i]`` lists the references of ``candidates[i]`` (strings, or token lists
    used as given). Calling the scorer with a profile gives its :class:`BleuProfileScore`.

    >>> scorer = BleuProfileScorer(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat"]])
    >>> [(scorer(PROFILES[name]).reference_length, round(scorer(PROFILES[name]).score, 4))
    ...  for name in ("sacrebleu-corpus", "hf-evaluate", "hf-evaluate-smooth")]
    [(6, 0.5373), (3, 0.5373), (3, 0.6435)]
    """

    def __init__(self, candidates: Sequence[Any], references: Sequence[Any]) -> None:
        _check_segments(candidates, references)
        self.candidates = list(candidates)
        self.references = [list(r) for r in references]
        self._tokens: dict[tuple, tuple] = {}
        self._counts: dict[tuple, list[_Counts]] = {}
        self._scores: dict[tuple, BleuProfileScore] = {}

    def _tokenise(self, segment: Any, argname: str, tokenize: str, lowercase: bool) -> tuple[str, ...]:
        if tokenize == "split-space" and isinstance(segment, str):
            return tuple((segment.lower() if lowercase else segment).split(" "))
        name = "whitespace" if tokenize == "split-space" else tokenize
        return as_tokens(segment, argname=argname, tokenize=name, lowercase=lowercase)

    def tokens(self, tokenize: str, lowercase: bool) -> tuple[list, list, str]:
        """Step 1: candidates and references as tokens, and a digest of them."""
        key = (tokenize, lowercase)
        if key not in self._tokens:
            cands = [self._tokenise(c, f"candidates[{i}]", tokenize, lowercase)
                     for i, c in enumerate(self.candidates)]
            refs = [[self._tokenise(r, f"references[{i}][{k}]", tokenize, lowercase) for k, r in enumerate(rs)]
                    for i, rs in enumerate(self.references)]
            digest = hashlib.blake2b(digest_size=8)
            for c, rs in zip(cands, refs):
                for seg in (c, *rs):
                    digest.update("\x1f".join(seg).encode("utf-8", "surrogatepass") + b"\x1e")
            self._tokens[key] = (cands, refs, digest.hexdigest())
        return self._tokens[key]

    def counts(self, profile: BleuProfile) -> list[_Counts]:
        """Step 2: each segment's clipped matches and totals per order, with the references used."""
        order = max(profile.max_order, 5) if profile.smoothing in NEEDS_FIVEGRAMS else profile.max_order
        single = all(len(rs) == 1 for rs in self.references)
        key = (profile.tokenize, profile.lowercase, order, "all" if single else profile.references)
        if key not in self._counts:
            cands, refs, _ = self.tokens(profile.tokenize, profile.lowercase)
            rows = []
            for cand, rs in zip(cands, refs):
                used = rs[:1] if profile.references == "first" else rs
                # Past the candidate's length an order has no n-gram: 0 matches of 0, not counted one by one.
                pairs = [precision_counts(cand, used, n) for n in range(1, min(order, len(cand)) + 1)]
                pairs += [(0, 0)] * (order - len(pairs))
                rows.append(_Counts(len(cand), tuple(len(r) for r in used),
                                    tuple(m for m, _ in pairs), tuple(t for _, t in pairs)))
            self._counts[key] = rows
        return self._counts[key]

    def __call__(self, profile: Union[str, BleuProfile]) -> BleuProfileScore:
        profile = get_profile(profile)
        key = tuple(profile.settings().items())
        if key not in self._scores:
            self._scores[key] = self._score(profile)
        return self._scores[key]

    def _score(self, profile: BleuProfile) -> BleuProfileScore:
        rows = self.counts(profile)
        stats = [_stats(profile, row) for row in rows]
        total = sum_stats(stats)
        N = profile.max_order
        notes: list[str] = []
        if profile.aggregation == "mean" and len(rows) > 1:
            segment_scores = tuple(_formula(profile, s, notes)[0] for s in stats)
            value = math.fsum(segment_scores) / len(segment_scores)
            precisions = geo = bp = None
        else:
            value, precisions, geo, bp = _formula(profile, total, notes)
            segment_scores = ()
        if profile.dtype == "float32":
            value = _float32(value)
        return BleuProfileScore(
            profile=profile, score=value, reported=value * profile.scale,
            candidate_length=total.candidate_length, reference_length=total.reference_length,
            matches=tuple(total.matches[:N]), totals=tuple(total.totals[:N]), precisions=precisions,
            geometric_mean=geo, brevity_penalty=bp, segment_scores=segment_scores,
            tokens=self.tokens(profile.tokenize, profile.lowercase)[2], notes=tuple(dict.fromkeys(notes)),
        )


def _stats(profile: BleuProfile, row: _Counts) -> BleuStats:
    """Step 3: one segment's statistics, r by the profile's reference-length rule."""
    r = reference_length(profile.ref_length, profile.ties, row.candidate_length, row.reference_lengths)
    return BleuStats(row.candidate_length, r, row.matches, row.totals, tuple(t if t else 1 for t in row.totals))


def _formula(profile: BleuProfile, stats: BleuStats, notes: list[str]) -> tuple[float, tuple, float, float]:
    """Steps 4 and 5 on (one segment's or summed) statistics: (BLEU, precisions, geometric mean, BP)."""
    orders = profile.max_order
    if profile.orders == "up-to-candidate":
        orders = min(orders, stats.candidate_length)
    mean = _geometric(profile, stats, orders)
    bp, bp_note = _brevity(profile, stats.candidate_length, stats.reference_length)
    for note in (mean.note, bp_note):
        if note:
            notes.append(note)
    return bp * mean.geometric_mean, mean.precisions, mean.geometric_mean, bp


def score_profile(
    profile: Union[str, BleuProfile], candidates: Sequence[Any], references: Sequence[Any],
    *, tokenize: Optional[str] = None,
) -> BleuProfileScore:
    """BLEU of a corpus (``references[i]`` lists the references of ``candidates[i]``) under ``profile``.

    ``tokenize`` replaces the profile's tokenizer (every profile then sees the same tokens).

    >>> r = score_profile("sacrebleu-corpus", ["the cat sat on the mat"], [["the cat sat on a mat"]])
    >>> r.matches, r.totals, round(r.reported, 2)
    ((5, 3, 2, 1), (6, 5, 4, 3), 53.73)
    """
    profile = get_profile(profile)
    if tokenize is not None:
        profile = dataclasses.replace(profile, tokenize=tokenize)
    return BleuProfileScorer(candidates, references)(profile)

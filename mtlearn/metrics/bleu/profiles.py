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

:mod:`mtlearn.metrics.bleu.profile_scores` scores them (``BleuProfileScorer``, ``score_profile``).
Each profile's function below names its source (repository, file, version) and the rules it
reproduces; mtlearn writes the rules from those sources with its own steps, it does not copy the code.

>>> get_profile("nltk-sentence-method1").smoothing, get_profile("hf-evaluate").ref_length
('method1', 'shortest')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Optional, Union

from mtlearn.core.checks import check_choice
from mtlearn.core.tokenize import TOKENIZERS
from mtlearn.metrics.bleu.options import MAX_ORDER
from mtlearn.metrics.bleu.smoothing import SMOOTHING_METHODS
from mtlearn.sources import cite

__all__ = [
    "BleuProfile", "STEPS", "PROFILES", "DESCRIPTIVE_FIELDS", "PROFILE_TOKENIZERS", "OWN_RULES",
    "get_profile",
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
            raise ValueError(f"max_order: at most {MAX_PROFILE_ORDER} in a profile, got "
                             f"{self.max_order} (a profile "
                             "keeps every order's counts, precisions and weights, and a comparison walks "
                             "them step by step; corpus_bleu has the same bound)")
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

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
    >>> round(score_profile(sacrebleu_corpus(), ["the cat sat on the mat"], [["the cat sat on a mat"]]).reported, 2)
    53.73
    """  # noqa: E501
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

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
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

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
    >>> score_profile(nltk_corpus(), ["a b c"], [["a b c d"]]).score < 1e-70
    True
    """
    return BleuProfile("nltk-corpus", "NLTK", "nltk.translate.bleu_score.corpus_bleu(refs, hyps)", _NLTK,
                       tokenize="whitespace", smoothing="method0")


def nltk_corpus_method1() -> BleuProfile:
    """NLTK's ``corpus_bleu`` with ``SmoothingFunction().method1`` (epsilon 0.1 added to zero matches).

    As :func:`nltk_corpus`; a zero match count becomes 0.1 over the order's denominator
    (each segment's count floored at 1, summed).

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
    >>> round(score_profile(nltk_corpus_method1(), ["a b c"], [["a b c d"]]).score, 4)
    0.4029
    """
    return BleuProfile("nltk-corpus-method1", "NLTK",
                       "corpus_bleu(refs, hyps, smoothing_function=SmoothingFunction().method1)", _NLTK,
                       tokenize="whitespace", smoothing="method1")


def nltk_sentence() -> BleuProfile:
    """NLTK's ``sentence_bleu`` without smoothing (``method0``), one score per segment, then their mean.

    ``sentence_bleu`` is ``corpus_bleu`` of one segment (NLTK's own definition).

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
    >>> score_profile(nltk_sentence(), ["a b c"], [["a b c d"]]).score < 1e-70
    True
    """
    return BleuProfile("nltk-sentence", "NLTK", "mean of nltk sentence_bleu(refs, hyp)", _NLTK,
                       tokenize="whitespace", smoothing="method0", aggregation="mean")


def nltk_sentence_method1() -> BleuProfile:
    """NLTK's ``sentence_bleu`` with ``SmoothingFunction().method1``, one score per segment, then their mean.

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
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

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
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

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
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

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
    >>> round(score_profile(torchmetrics_bleu(), ["the cat is on the mat"],
    ...                     [["there is a cat on the mat", "a cat is on the mat"]]).score, 4)
    0.7598
    """
    return BleuProfile("torchmetrics", "torchmetrics", "torchmetrics.text.BLEUScore()(preds, target)",
                       _TORCHMETRICS, tokenize="whitespace", ties="first-listed", dtype="float32")


def torchmetrics_smooth() -> BleuProfile:
    """torchmetrics' ``BLEUScore(smooth=True)``: (m + 1)/(t + 1) from bigrams on, unigrams as they are.

    The zero test comes first: an order without a match still gives 0.

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
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

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
    >>> round(score_profile(keras_nlp(), ["He He He eats sweet apple which is a fruit.",
    ...                                   "I love Silicon Valley, it's one of my favourite shows."],
    ...                     [["He eats a sweet apple."], ["Silicon Valley is one of my favourite shows!"]]).score, 3)
    0.243
    """  # noqa: E501
    return BleuProfile("keras-nlp", "KerasNLP", "keras_nlp.metrics.Bleu()(y_true, y_pred)", _KERAS,
                       tokenize="13a", ref_length="shortest", brevity_penalty="ratio", dtype="float32")


def keras_nlp_smooth() -> BleuProfile:
    """KerasNLP's ``Bleu(smooth=True)``: Lin and Och's +1 on matches and totals of every order, unigrams too.

    Its docstring says so ("for every order"); its test ``test_scalar_input`` expects 0.212:

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
    >>> round(score_profile(keras_nlp_smooth(), ["He He He eats sweet apple which is a fruit."],
    ...                     [["He eats a sweet apple.", "He is eating a tasty apple, isn't he?"]]).score, 3)
    0.212
    """
    return dataclasses.replace(keras_nlp(), name="keras-nlp-smooth",
                               call="keras_nlp.metrics.Bleu(smooth=True)(y_true, y_pred)",
                               smoothing="lin-och")


def d2l_document() -> BleuProfile:
    """The ``bleu(pred_tokens, label_tokens, k)`` of the Chinese blog post *BLEU—机器翻译评价方法* (2021),
    d2l's function as the post prints it (after Dive into Deep Learning, §10.7 / d2l.ai).

    One label (the first reference), BP = exp(min(0, 1 - len_label/len_pred)), weights
    1/2^n, p_n = clipped matches / (len_pred - n + 1) for every n up to k; where the
    post's code divides by zero (a prediction shorter than k), p_n is 0 as in
    :func:`mtlearn.d2l_bleu`. Tokens as given (strings split on white space); one score
    per segment, their mean for several. Not reproduced: the post keys n-grams with
    ``''.join(tokens)``, so ("ab", "c") and ("a", "bc") collide; mtlearn keys them by tuples
    (d2l-en's ``' '.join`` keys cannot collide on tokens split on spaces).

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
    >>> round(score_profile(d2l_document(), ["A B"], [["A B C D E F"]]).score, 4)
    0.0
    """
    return BleuProfile("d2l-document", "d2l (Chinese blog post)", "bleu(pred_tokens, label_tokens, k=4)",
                       f"{cite('bleu_post')}; the function of d2l-en before April 2022",
                       tokenize="whitespace", references="first", weights="halvings", aggregation="mean")


def d2l_en() -> BleuProfile:
    """d2l-en's ``bleu(pred_seq, label_seq, k)`` since April 2022 (``d2l/torch.py``, commit 03f5ae51).

    The document's formula, with the loop ``range(1, min(k, len_pred) + 1)``: orders longer
    than the prediction are left out (a factor 1), and strings split on ``' '``.

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
    >>> round(score_profile(d2l_en(), ["A B"], [["A B C D E F"]]).score, 4)
    0.1353
    """
    return dataclasses.replace(
        d2l_document(), name="d2l-en", library="d2l-en", call="d2l.bleu(pred_seq, label_seq, k=4)",
        source="github.com/d2l-ai/d2l-en d2l/torch.py bleu (23d7a5a, 2024; min(k, len_pred) "
               "since 03f5ae51, 2022)",
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

    >>> from mtlearn.metrics.bleu.profile_scores import score_profile
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
    """  # noqa: E501
    if isinstance(profile, BleuProfile):
        return profile
    if not isinstance(profile, str) or profile not in PROFILES:
        raise ValueError(f"profiles: unknown BLEU profile {profile!r}; choose from {', '.join(PROFILES)}")
    return PROFILES[profile]



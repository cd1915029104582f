"""mtlearn — BLEU and METEOR computed step by step, for teaching.

Every metric returns a plain dataclass that carries every intermediate value;
``explain()`` prints the derivation with the numbers substituted.

>>> import mtlearn  # doctest: +SKIP
>>> round(mtlearn.bleu("the cat sat on the mat", ["the cat sat on the mat"]).score, 4)  # doctest: +SKIP
1.0

Where things live: see ARCHITECTURE.md at the top of the repository.
"""

from mtlearn import _interrupt

_interrupt.install()  # first: a Ctrl-C while the rest imports ends an mtlearn command in one line

from mtlearn.version import __version__
from mtlearn.core.tokenize import TOKENIZERS, tokenize
from mtlearn.metrics.bleu.result import BleuResult
from mtlearn.metrics.bleu.score import bleu, corpus_bleu
from mtlearn.metrics.bleu.d2l import D2LBleuResult, d2l_bleu
from mtlearn.metrics.meteor.score import MeteorResult, corpus_meteor, meteor
from mtlearn.metrics.ter.score import TerResult, ter, corpus_ter, wer, cer, corpus_wer, corpus_cer
from mtlearn.metrics.chrf.score import ChrfResult, chrf, corpus_chrf
from mtlearn.study.significance import PairedTestResult, paired_test
from mtlearn.why import ImplementationComparison, compare_implementations
from mtlearn.core.references import ReferenceLayout, check_reference_layout
from . import examples

__all__ = [
    "__version__",
    "TOKENIZERS",
    "tokenize",
    "BleuResult",
    "bleu",
    "corpus_bleu",
    "D2LBleuResult",
    "d2l_bleu",
    "MeteorResult",
    "meteor",
    "corpus_meteor",
    "TerResult",
    "ter",
    "corpus_ter",
    "wer",
    "cer",
    "corpus_wer",
    "corpus_cer",
    "ChrfResult",
    "chrf",
    "corpus_chrf",
    "PairedTestResult",
    "paired_test",
    "ImplementationComparison",
    "compare_implementations",
    "ReferenceLayout",
    "check_reference_layout",
    "examples",
]

"""mtlearn — BLEU, METEOR, chrF/chrF++, TER/WER/CER and BERTScore computed step by step, for teaching.

Every metric returns a plain dataclass that carries every intermediate value;
``explain()`` prints the derivation with the numbers substituted.

>>> import mtlearn
>>> mtlearn.bleu("the cat sat on the mat", ["the cat sat on the mat"]).score
1.0

The package exports the metrics, their result types and their option types (``__all__``).
Each name is imported on first use (PEP 562), so ``import mtlearn`` loads no metric, no
numpy, no ``study`` and no ``why``: a command or a notebook pays only for what it calls.
A few more names stay reachable the same way where the documents use them
(``mtlearn.paired_test``, ``mtlearn.compare_implementations``, ``mtlearn.tokenize``,
``mtlearn.check_reference_layout``, ``mtlearn.examples``, ...; see ``_ALSO``).

>>> mtlearn.compare_implementations.__module__
'mtlearn.why.compare'

Where things live: see ARCHITECTURE.md at the top of the repository.
"""

from mtlearn.tools.cli import interrupt as _interrupt

# First: in a process that runs an mtlearn command (and only there) a Ctrl-C while the rest imports
# ends it in one line; a notebook, a test or a script that imports mtlearn is left as it was.
_interrupt.install()

from mtlearn.version import __version__  # noqa: E402  (after the interrupt hook, on purpose)

#: The exported names: the metrics, their result types and option types, and the module each lives in.
_EXPORTS: dict[str, str] = {
    "bleu": "mtlearn.metrics.bleu.score",
    "corpus_bleu": "mtlearn.metrics.bleu.score",
    "BleuResult": "mtlearn.metrics.bleu.result",
    "BleuOptions": "mtlearn.metrics.bleu.options",
    "d2l_bleu": "mtlearn.metrics.bleu.d2l",
    "D2LBleuResult": "mtlearn.metrics.bleu.d2l",
    "meteor": "mtlearn.metrics.meteor.score",
    "corpus_meteor": "mtlearn.metrics.meteor.score",
    "MeteorResult": "mtlearn.metrics.meteor.result",
    "MeteorOptions": "mtlearn.metrics.meteor.options",
    "chrf": "mtlearn.metrics.chrf.score",
    "corpus_chrf": "mtlearn.metrics.chrf.score",
    "ChrfResult": "mtlearn.metrics.chrf.result",
    "ChrfOptions": "mtlearn.metrics.chrf.options",
    "ter": "mtlearn.metrics.ter.score",
    "corpus_ter": "mtlearn.metrics.ter.score",
    "wer": "mtlearn.metrics.ter.score",
    "cer": "mtlearn.metrics.ter.score",
    "corpus_wer": "mtlearn.metrics.ter.score",
    "corpus_cer": "mtlearn.metrics.ter.score",
    "TerResult": "mtlearn.metrics.ter.result",
    "TerOptions": "mtlearn.metrics.ter.options",
    "WerOptions": "mtlearn.metrics.ter.options",
    "bertscore": "mtlearn.metrics.bertscore.score",
    "corpus_bertscore": "mtlearn.metrics.bertscore.score",
    "BertScoreResult": "mtlearn.metrics.bertscore.result",
    "BertScoreOptions": "mtlearn.metrics.bertscore.options",
    "comet_mini": "mtlearn.metrics.comet_mini.score",
    "corpus_comet_mini": "mtlearn.metrics.comet_mini.score",
    "CometMiniResult": "mtlearn.metrics.comet_mini.result",
}

#: Names reachable as ``mtlearn.<name>`` because the README, the notebooks or the cards use them, but not
#: exported: the paired test (study/), the implementations' comparison (why/), the tokenizers, the layout
#: check of a corpus call's references, the worked examples (a subpackage: its module is the value).
_ALSO: dict[str, str] = {
    "paired_test": "mtlearn.study.significance",
    "PairedTestResult": "mtlearn.study.significance",
    "compare_implementations": "mtlearn.why.compare",
    "ImplementationComparison": "mtlearn.why.compare",
    "tokenize": "mtlearn.core.tokenize",
    "TOKENIZERS": "mtlearn.core.tokenize",
    "check_reference_layout": "mtlearn.core.references",
    "ReferenceLayout": "mtlearn.core.references",
    "examples": "mtlearn.examples",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> object:
    """``mtlearn.<name>``: the module that holds ``name`` is imported on first use, then kept here."""
    import importlib  # here: `import mtlearn` itself needs nothing more

    module_name = _EXPORTS.get(name) or _ALSO.get(name)
    if module_name is None:
        raise AttributeError(f"module 'mtlearn' has no attribute {name!r}")
    module = importlib.import_module(module_name)
    value = module if module_name == f"mtlearn.{name}" else getattr(module, name)
    globals()[name] = value  # the next lookup finds it without coming here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS, *_ALSO})

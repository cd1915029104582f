"""BERTScore's options, declared once: :class:`BertScoreOptions` (defaults, checks, help, flags, controls).

>>> BertScoreOptions(layer=6, idf=True).signature("1")
'mtlearn-bertscore|model:all-MiniLM-L6-v2|layer:6|idf:yes|rescale:no|nrefs:1|version:0.1.0'
>>> BertScoreOptions(layer=7)
Traceback (most recent call last):
...
ValueError: layer: at most 6, got 7 (all-MiniLM-L6-v2 has 6 layers; 0 is the embeddings, before any context)
"""

from __future__ import annotations

from dataclasses import dataclass

from mtlearn.core.options import Options, check_flag, check_int, option
from mtlearn.core.signature import make_signature
from mtlearn.metrics.bertscore.model import MODEL_NAME

__all__ = ["DEFAULTS", "LAYERS", "BertScoreOptions"]

#: The encoder's layers: 0 is the embedding layer (no context), 6 the last.
LAYERS = 6


@dataclass(frozen=True)
class BertScoreOptions(Options):
    """Every BERTScore option. The default layer, 3, is the one whose F1 agrees best with expert MQM
    judgements (Kendall's tau, no grouping) on COMET-mini's training cell of the TED talks data
    (``layer_choice.csv`` beside this file, written by ``studies/bertscore_layer.py``): chosen as the
    ``bert-score`` package chose its layers, by correlation with human judgements, on data the held-out
    comparisons of notebook 10 never use."""

    layer: int = option(
        3, "the encoder layer whose token vectors are compared: 0 (embeddings, no context) to 6 "
           "(default: %(default)s)",
        check_int(0, LAYERS, f"{MODEL_NAME} has {LAYERS} layers; 0 is the embeddings, before any context"),
        flags=("--layer",), control=(0, LAYERS, 1))
    idf: bool = option(
        False, "weigh each token by its inverse document frequency in the corpus's references "
               "(default: every token weighs 1)", check_flag, flags=("--idf",))
    rescale: bool = option(
        False, "rescale P, R and F1 with mtlearn's baseline (the score of unrelated WMT22 sentences "
               "becomes 0)", check_flag, flags=("--rescale",))

    def signature(self, nrefs: str) -> str:
        """Every setting of the score, for a reader to reproduce it."""
        yes = {True: "yes", False: "no"}
        return make_signature("bertscore", {"model": MODEL_NAME, "layer": self.layer, "idf": yes[self.idf],
                                            "rescale": yes[self.rescale], "nrefs": nrefs})


#: The defaults every entry point takes.
DEFAULTS = BertScoreOptions()

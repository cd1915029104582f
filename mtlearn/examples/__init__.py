"""The source documents' worked examples, as data (see ../shared/seeds/DIGEST.md).

``mtlearn.examples.bleu`` holds document 002's and Papineni's BLEU examples,
``mtlearn.examples.meteor`` document 003's METEOR examples.
"""

from . import bleu, meteor

__all__ = ["bleu", "meteor"]

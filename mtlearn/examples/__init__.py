"""The source documents' worked examples, as data (see :mod:`mtlearn.sources`).

``mtlearn.examples.bleu`` holds the Chinese blog post's and Papineni et al.'s (2002) BLEU examples,
``mtlearn.examples.meteor`` the Spanish Wikipedia article *METEOR*'s examples (CC BY-SA 4.0).
"""

from . import bleu, meteor

__all__ = ["bleu", "meteor"]

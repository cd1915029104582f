"""The source documents' worked examples, as data (see :mod:`mtlearn.sources`).

``mtlearn.examples.bleu`` holds the Chinese blog post's and Papineni et al.'s (2002) BLEU examples,
``mtlearn.examples.meteor`` the METEOR examples of the English and Spanish Wikipedia articles *METEOR*
(CC BY-SA 4.0).
"""

from . import bleu, meteor

__all__ = ["bleu", "meteor"]

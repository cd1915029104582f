"""Why do these numbers differ? Every popular implementation's BLEU and METEOR, reproduced step by step.

- :mod:`mtlearn.why.divergence` -- the generic walk from one profile to another, one
  pipeline step at a time (contributions that add up exactly to the difference);
- :mod:`mtlearn.why.compare` -- :func:`compare_implementations` and its result,
  :class:`ImplementationComparison` (plain data);
- :mod:`mtlearn.why.explain` -- its text, HTML and JSON.

A metric plugs in with a profiles module (``mtlearn/metrics/<metric>/profiles.py``):
``PROFILES`` (name -> frozen dataclass profile), ``STEPS`` (``(step name, fields)`` in
order), ``get_profile`` and a scorer of a corpus (BLEU: ``BleuProfileScorer``; METEOR:
``score_profile``).

>>> from mtlearn.why import compare_implementations
>>> c = compare_implementations("A B B C D", ["A B C D E F"], profiles=["sacrebleu-sentence", "d2l-document"])
>>> c.divergence("sacrebleu-sentence", "d2l-document").first_divergence
'precisions/smoothing'
"""

from mtlearn.why.compare import METRICS, ImplementationComparison, ProfileResult, compare_implementations
from mtlearn.why.divergence import Divergence, Outcome, StepChange, walk

__all__ = [
    "METRICS", "ImplementationComparison", "ProfileResult", "compare_implementations",
    "Divergence", "Outcome", "StepChange", "walk",
]

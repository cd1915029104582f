"""BLEU, step by step (the public functions are in ``score.py``; ARCHITECTURE.md says what each module holds).

Importing the package registers BLEU's derivation (``explain.py``) with
:func:`mtlearn.core.derivation.derive`, which a result's ``explain()`` calls.
"""

from mtlearn.metrics.bleu import explain as _explain  # noqa: F401  (registers BleuResult's renderers)

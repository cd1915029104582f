"""TER, WER and CER, step by step (the public functions are in ``score.py``).

Importing the package registers TER's derivation (``explain.py``) with
:func:`mtlearn.core.derivation.derive`, which a result's ``explain()`` calls.
"""

from mtlearn.metrics.ter import explain as _explain  # noqa: F401  (registers TerResult's renderers)

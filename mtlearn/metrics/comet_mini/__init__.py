"""COMET-mini: COMET's recipe in miniature (see ARCHITECTURE.md for what each module holds).

Importing the package registers the derivation of its results (``explain.py`` with
:func:`mtlearn.core.derivation.derive`), so that ``result.explain()`` works whichever module a result came
from, while ``result.py`` never imports its renderer. The encoder and the weights are read on first use.
"""

from mtlearn.metrics.comet_mini import explain as _explain  # noqa: F401  (registers derive / derive_html)

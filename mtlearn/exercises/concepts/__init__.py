"""Concept checks: one or two multiple-choice questions at the end of each notebook section.

The questions live here, one module per notebook (named as in :mod:`mtlearn.exercises`);
:func:`concept_checks` lists them and :func:`concept_check_data` finds one by id.
"""

from __future__ import annotations

import importlib

from mtlearn.exercises.catalogue import NOTEBOOK_MODULES, find_by_id
from mtlearn.exercises.concepts.model import ConceptCheck, Option

__all__ = ["ConceptCheck", "Option", "concept_checks", "concept_check_data"]

# One bank per notebook, named as the notebook's exercise module, in the notebooks' order (01 … 10).
_MODULES = tuple(importlib.import_module(f"{__name__}.{name}") for name in NOTEBOOK_MODULES)


def concept_checks(notebook: str | None = None) -> list[ConceptCheck]:
    """All concept checks, or those of one notebook (``"01"``), in order."""
    found = [c for module in _MODULES for c in module.CHECKS]
    return found if notebook is None else [c for c in found if c.notebook == notebook]


def concept_check_data(check_id: object) -> ConceptCheck:
    """The concept check named ``check_id``; an unknown id is a ``LookupError`` listing the notebook's checks.

    >>> concept_check_data("99.s1a")
    Traceback (most recent call last):
    ...
    LookupError: concept check '99.s1a': no such check; notebook 99 has none
    """
    return find_by_id(check_id, concept_checks, ("concept check id", "concept check", "check", "01.s1a"))

"""Concept checks of the notebook meteor alignment (one or two per numbered section)."""

from __future__ import annotations

from mtlearn.exercises.concepts.model import ConceptCheck

__all__ = ["CHECKS"]

CHECKS: tuple[ConceptCheck, ...] = ()

"""Notebook 08's exercises: the answers, computed by mtlearn (to be filled in).

>>> EXERCISES
()
"""

from __future__ import annotations

from mtlearn.exercises.kinds import Exercise

__all__ = ["EXERCISES"]

EXERCISES: tuple[Exercise, ...] = ()

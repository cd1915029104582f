"""Every notebook's exercises, by id: ``"01.3"`` is notebook 01's third question,
``"03.c1"`` notebook 03's first coding exercise.

>>> exercise("01.1").prompt.startswith("Modified unigram precision")
True
>>> [e.id for e in exercises("01")][:3]
['01.1', '01.2', '01.3']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Optional, TypeVar

from mtlearn.exercises import (
    bleu_from_scratch,
    bleu_in_practice,
    bleu_vs_meteor,
    chrf_and_ter,
    learned_metrics,
    meteor_alignment,
    meteor_scoring,
    metrics_and_people,
    sentence_level_with_experts,
    why_libraries_disagree,
)
from mtlearn.exercises.kinds import Exercise

__all__ = ["exercise", "exercises", "find_by_id", "NOTEBOOK_MODULES"]

T = TypeVar("T")

# One module per notebook, in the notebooks' order (01 … 10).
_MODULES = (bleu_from_scratch, bleu_in_practice, meteor_alignment, meteor_scoring, bleu_vs_meteor,
            metrics_and_people, chrf_and_ter, why_libraries_disagree, sentence_level_with_experts,
            learned_metrics)

#: The module names, notebook by notebook ("bleu_from_scratch" for 01); the concept checks' banks share them.
NOTEBOOK_MODULES: tuple[str, ...] = tuple(module.__name__.rsplit(".", 1)[1] for module in _MODULES)


def exercises(notebook: str | None = None) -> list[Exercise]:
    """All exercises, or those of one notebook (``"01"``), in order.

    >>> len(exercises("01")) >= 5
    True
    """
    found = [e for module in _MODULES for e in module.EXERCISES]
    return [e for e in found if notebook is None or e.id.split(".")[0] == notebook]


def exercise(exercise_id: object) -> Exercise:
    """The exercise with this id; an unknown id is a ``LookupError`` that lists the notebook's ids.

    >>> exercise("01.9")
    Traceback (most recent call last):
    ...
    LookupError: exercise_id '01.9': no such exercise; notebook 01 has 01.1, 01.2, 01.3, 01.c1, 01.c2
    """
    return find_by_id(exercise_id, exercises, ("exercise_id", "exercise_id", "exercise", "01.3"),
                      " (the id comes first: check('01.3', answer))")


def find_by_id(item_id: object, listing: Callable[[Optional[str]], Sequence[T]],
               names: tuple[str, str, str, str], type_hint: str = "") -> T:
    """The item of ``listing()`` whose ``id`` is ``item_id``: the one lookup of exercises and concept checks.

    ``names`` is (the id's name in a type error, its name in a lookup error, the item's noun, an example
    id). A non-string id is a ``TypeError``; an unknown one a ``LookupError`` listing the notebook's ids
    (``listing(notebook)``).
    """
    type_name, lookup_name, noun, example = names
    if not isinstance(item_id, str):
        raise TypeError(f"{type_name}: expected an id such as {example!r}, got {type(item_id).__name__} "
                        f"{item_id!r}{type_hint}")
    for item in listing(None):
        if item.id == item_id:  # type: ignore[attr-defined]
            return item
    notebook = item_id.split(".")[0]
    known = ", ".join(i.id for i in listing(notebook)) or "none"  # type: ignore[attr-defined]
    raise LookupError(f"{lookup_name} {item_id!r}: no such {noun}; notebook {notebook} has {known}")

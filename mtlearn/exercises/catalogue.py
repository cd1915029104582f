"""Every notebook's exercises, by id: ``"01.3"`` is notebook 01's third question,
``"03.c1"`` notebook 03's first coding exercise.

>>> exercise("01.1").prompt.startswith("Modified unigram precision")
True
>>> [e.id for e in exercises("01")][:3]
['01.1', '01.2', '01.3']
"""

from __future__ import annotations

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

__all__ = ["exercise", "exercises", "NOTEBOOK_MODULES"]

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
    if not isinstance(exercise_id, str):
        raise TypeError(f"exercise_id: expected an id such as '01.3', got {type(exercise_id).__name__} "
                        f"{exercise_id!r} (the id comes first: check('01.3', answer))")
    for e in exercises():
        if e.id == exercise_id:
            return e
    notebook = exercise_id.split(".")[0]
    known = ", ".join(e.id for e in exercises(notebook)) or "none"
    raise LookupError(f"exercise_id {exercise_id!r}: no such exercise; notebook {notebook} has {known}")

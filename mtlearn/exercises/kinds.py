"""The two kinds of exercise: a question with one answer, and a function to write.

Each notebook's exercises are listed in a module of this folder named after the
notebook (``bleu_from_scratch.py`` for notebook 01); :mod:`.catalogue` collects them.
An answer is never typed in: a :class:`Question` holds the function that computes it
with mtlearn, and a :class:`CodingExercise` holds mtlearn's own function, which the
student's is compared with.

>>> q = Question("99.1", "How many words has 'a cat'?", lambda: 2)
>>> q.answer()
2
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Union

__all__ = ["Question", "CodingExercise", "Exercise"]


@dataclass(frozen=True)
class Question:
    """An exercise answered by one number or word: ``check(id, answer)``.

    ``answer`` computes the expected value with mtlearn when the check runs.

    >>> Question("99.1", "BP of c = 3, r = 4?", lambda: 0.7165).prompt
    'BP of c = 3, r = 4?'
    """

    id: str
    prompt: str
    answer: Callable[[], object]


@dataclass(frozen=True)
class CodingExercise:
    """An exercise answered by a function: ``check_function(id, student_function)``.

    The student's function is called like ``reference`` on every argument tuple of
    ``worked`` (the documents' worked examples) and on ``random_cases`` tuples drawn by
    ``random_case`` from a generator seeded with the id (the same cases every run).

    >>> ex = CodingExercise("99.c1", "twice(x)", lambda x: 2 * x, ((1,), (5,)),
    ...                     lambda rng: (rng.randint(0, 9),), random_cases=3)
    >>> ex.reference(*ex.worked[1]), len(list(ex.cases()))
    (10, 5)
    """

    id: str
    prompt: str
    reference: Callable[..., Any]
    worked: tuple[tuple[Any, ...], ...]
    random_case: Callable[[random.Random], tuple[Any, ...]]
    random_cases: int = 200

    def cases(self) -> list[tuple[Any, ...]]:
        """The worked examples, then the random cases (seeded with the id)."""
        rng = random.Random(self.id)
        return [*self.worked, *(self.random_case(rng) for _ in range(self.random_cases))]


Exercise = Union[Question, CodingExercise]

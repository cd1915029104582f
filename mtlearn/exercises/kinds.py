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
from typing import Any, Optional, Union

__all__ = ["Misconception", "Question", "CodingExercise", "Exercise"]


@dataclass(frozen=True)
class Misconception:
    """A named mistake, what to tell the student who makes it, and its answer.

    For a :class:`Question`, ``answer`` takes no argument and computes with mtlearn the wrong
    value the mistake gives; for a :class:`CodingExercise` it is a function written with the
    mistake, called like the exercise's ``reference``. ``hint`` says what the mistake was and
    the rule, without the number.

    >>> m = Misconception("no clipping", "each word is credited at most as often as a reference has it",
    ...                   lambda: 1)
    >>> m.name, m.answer()
    ('no clipping', 1)
    """

    name: str
    hint: str
    answer: Callable[..., Any]


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
    misconceptions: tuple[Misconception, ...] = ()
    #: How many decimals the question asks for (a fraction is read to :data:`~.checking.TOLERANCE`,
    #: four decimals, too).
    decimals: int = 4
    #: The worked solution: the steps, as mtlearn prints them (``None``: only the answer).
    working: Optional[Callable[[], str]] = None


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
    misconceptions: tuple[Misconception, ...] = ()

    def cases(self) -> list[tuple[Any, ...]]:
        """The worked examples, then the random cases (seeded with the id)."""
        rng = random.Random(self.id)
        return [*self.worked, *(self.random_case(rng) for _ in range(self.random_cases))]


Exercise = Union[Question, CodingExercise]

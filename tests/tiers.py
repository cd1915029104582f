"""The two test tiers, and which segments the default tier checks of each exhaustive WMT22 sweep.

``make test`` (the README's test command, what CI runs) is the *sample* tier: every test file runs, and
each sweep over WMT22 (METEOR's alignment counts, corpus chrF and TER against sacreBLEU, the agreement
tables, the METEOR-against-NLTK classification) asserts exactly what it asserts in the full tier, on a
deterministic sample that still touches every pair, every system and every reference set.
``make test-full`` (``pytest --full``, or ``MTLEARN_TEST_TIER=full``) runs every segment of every sweep.
Tests marked ``full`` run only there, and say so when skipped.

The sample of a file of ``n`` segments: the first :data:`FIRST`, then every :data:`EVERY`-th, plus
the segments a sweep names as the hardest for it (for METEOR's search: segments the recorded search
did not prove optimal, which are the ones that exhaust its node budget, and the longest lines), drawn
with :data:`SEED`. All the sizes live here and are printed at the top of every run.

>>> sample_lines(250, extra=[7, 249], full=False)
[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 110, 210, 249]
>>> len(sample_lines(250, full=True))
250
>>> pick(["a", "b", "c", "d"], 2, "x") == pick(["d", "c", "b", "a"], 2, "x")
True
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

#: The environment variable that selects the tier ("sample", the default, or "full"); ``--full`` sets it.
TIER_ENV = "MTLEARN_TEST_TIER"
#: The first segments of every file, then every EVERY-th (chrF, whose segments are cheap: every
#: CHRF_EVERY-th).
FIRST = 10
EVERY = 100
CHRF_EVERY = 20
#: Seeds every draw of "hardest" segments (random.Random(f"{SEED}:{label}")).
SEED = 2022
#: METEOR's alignment counts, per pair and tie-break rule: how many segments the recorded search did not
#: prove optimal are drawn (the search's slowest: they spend its whole node budget), and how many of the
#: pair's longest (candidate + reference words) segments are added.
HARDEST = 3
LONGEST = 3
#: TER against sacreBLEU adds the LONGEST longest segments of at most this many words (candidate and
#: references).
TER_LONGEST_WORDS = 300
#: The agreement study regenerates this pair byte for byte (its rows of every table; the pooled rows
#: need every pair: full tier). de-en: two references, nine systems, one of the cheaper pairs to score.
AGREEMENT_PAIR = "de-en"
#: chrF against WMT's official table needs whole corpora: the sample tier compares these systems' whole
#: corpora (per pair: the first system, and every system whose chrf-all depends on the tie rule).
CHRF_OFFICIAL_FIRST_SYSTEMS = 1
#: The chrF and TER cards' WMT22 tables need whole corpora: the sample tier checks their first row.
CARD_ROWS = 1


#: The longest test files, started first so that pytest-xdist's workers do not end on them one after the
#: other (measured with --durations=0; each stays on one worker, --dist loadfile).
LONGEST_FILES = (
    "tests/browser/test_notebooks_in_browser.py",
    "tests/browser/test_book_in_browser.py",  # builds the book (66 s from a clean clone), then 69 pages
    "tests/metrics/ter/test_ter_wmt22.py",
    "tests/tools/test_editions.py",
    "tests/tools/test_handout.py",
    "tests/tools/test_editions_grading.py",  # nbgrader generate_assignment and autograde (22-58 s)
    "tests/show/test_explorer_base.py",
    "tests/study/test_significance.py",
    "tests/study/test_wmt22_agreement.py",
    "tests/tools/test_hostile_cli.py",
    "tests/metrics/chrf/test_chrf_wmt22.py",
    "tests/tools/test_workshop_hostile.py",
)


def run_order(path: str) -> int:
    """Sort key of a test file: the longest first, the rest as collected."""
    return LONGEST_FILES.index(path) if path in LONGEST_FILES else len(LONGEST_FILES)


def is_full() -> bool:
    """True in the full tier (``make test-full``)."""
    return os.environ.get(TIER_ENV, "sample").strip().lower() == "full"


def name() -> str:
    return "full" if is_full() else "sample"


def sample_lines(n: int, extra: Iterable[int] = (), *, every: int = EVERY,
                 full: bool | None = None) -> list[int]:
    """The segment indices a sweep checks of a file of ``n`` segments (every one in the full tier)."""
    if is_full() if full is None else full:
        return list(range(n))
    chosen = set(range(min(FIRST, n))) | set(range(FIRST, n, every))
    chosen.update(i for i in extra if 0 <= i < n)
    return sorted(chosen)


def pick(items: Iterable[T], k: int, label: str) -> list[T]:
    """``k`` of ``items`` drawn with :data:`SEED` and ``label``, independent of the items' order."""
    pool = sorted(set(items))
    return sorted(random.Random(f"{SEED}:{label}").sample(pool, min(k, len(pool))))


def subset(values: Sequence[T], lines: Sequence[int]) -> list[T]:
    return [values[i] for i in lines]


def describe() -> str:
    """One line for the run's header: which tier, and the sample's sizes and seed."""
    if is_full():
        return "mtlearn test tier: full (every segment of every WMT22 sweep)"
    return (f"mtlearn test tier: sample (make test-full for every segment): first {FIRST} segments + every "
            f"{EVERY}th ({CHRF_EVERY}th for chrF), seed {SEED}; METEOR counts + {HARDEST} unproven and "
            f"{LONGEST} longest per pair and rule; "
            f"agreement tables: {AGREEMENT_PAIR}")

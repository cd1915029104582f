"""The exact alignment search behind :func:`mtlearn.metrics.meteor.alignment.align`.

One entry point, :func:`solve_stage`: the mappings one stage adds (see
:mod:`.search` for how, :mod:`.graph` for the match graph it searches, :mod:`.costs` for what
a mapping costs).
"""

from mtlearn.metrics.meteor._search.search import (
    Budget,
    SearchLimits,
    SearchStop,
    StageResult,
    solve_stage,
)

__all__ = ["Budget", "SearchLimits", "SearchStop", "StageResult", "solve_stage"]

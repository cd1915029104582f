"""The pairs of translations a metric orders against the experts: the material a class discusses.

For every segment and every two systems' translations of it, the experts prefer one (a
higher MQM score: fewer or lighter errors). The metric *disagrees* when it strictly prefers
the other. :func:`disagreements` lists the worst cases: the largest MQM gap first (the
experts were most sure), then the largest metric gap the wrong way, then segment and
system names (a deterministic order). Only numbers and names, so the study can ship them;
:func:`disagreement_cases` adds the texts and the experts' errors from the data at run
time (never shipped: the texts stay in ``../shared``).

>>> human = {"A": [0, -5], "B": [-10, -5], "C": [-1, 0]}
>>> metric = {"A": [0.2, 0.5], "B": [0.6, 0.4], "C": [0.1, 0.3]}
>>> [(d.seg_id, d.better, d.worse, d.mqm_gap) for d in disagreements(human, metric, [7, 8])]
[(7, 'A', 'B', 10.0), (7, 'C', 'B', 9.0), (8, 'C', 'A', 5.0), (8, 'C', 'B', 5.0)]
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Optional

from mtlearn.study.metric_scores import metric as study_metric
from mtlearn.study.metric_scores import score_system
from mtlearn.study.mqm import MqmData, MqmError

__all__ = ["Disagreement", "disagreements", "DisagreementCase", "disagreement_cases", "wrap_columns"]


#: The widest line :meth:`DisagreementCase.explain` prints, in display columns (a notebook output's width).
WIDTH = 110


def _columns(text: str) -> int:
    """Display columns of ``text``: a wide (Chinese, Japanese) character takes two.

    >>> _columns("ab"), _columns("又或")
    (2, 4)
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap_columns(text: str, first: str, rest: str, width: int = WIDTH) -> list[str]:
    """``text`` after ``first``, wrapped at spaces (anywhere between wide characters, which have none)
    within ``width`` display columns; continuation lines start with ``rest``. Nothing is dropped: the
    lines' texts joined give ``text`` back (with single spaces where a line was broken at one).

    >>> wrap_columns("the cat sat on the mat", "  > ", "    ", width=15)
    ['  > the cat sat', '    on the mat']
    >>> wrap_columns("又或者说我们", "> ", "  ", width=8)
    ['> 又或者', '  说我们']
    """
    room = width - max(_columns(first), _columns(rest))
    # A word wider than a whole line (a URL) is cut where the line ends rather than overflow.
    tokens = [piece for t in _tokens(text) for piece in (list(t) if _columns(t) > room else [t])]
    lines, line = [], first
    for token in tokens:
        if token == " ":
            line += "" if line in (first, rest) else " "
            continue
        if _columns(line + token) > width and line not in (first, rest):
            lines.append(line.rstrip())
            line = rest
        line += token
    lines.append(line.rstrip())
    return lines


def _tokens(text: str) -> list[str]:
    """Runs of narrow non-space characters, single wide characters, and " " for each run of spaces:
    a line may break at a space or beside a wide character (Chinese has no spaces between words)."""
    tokens: list[str] = []
    for ch in text:
        if ch.isspace():
            if tokens and tokens[-1] != " ":
                tokens.append(" ")
        elif _columns(ch) == 2 or not tokens or tokens[-1] == " " or _columns(tokens[-1][-1]) == 2:
            tokens.append(ch)
        else:
            tokens[-1] += ch
    return tokens


@dataclass(frozen=True)
class Disagreement:
    """Segment ``seg_id``: the experts prefer ``better``'s translation, the metric ``worse``'s.

    ``mqm_*`` are the MQM scores, ``metric_*`` the metric's raw scores (for an error rate,
    the preferred one is the lower).
    """

    seg_id: int
    better: str
    worse: str
    mqm_better: float
    mqm_worse: float
    metric_better: float
    metric_worse: float

    @property
    def mqm_gap(self) -> float:
        """How much better the experts score ``better`` (MQM points)."""
        return self.mqm_better - self.mqm_worse

    @property
    def metric_gap(self) -> float:
        """How much more the metric prefers ``worse`` (its own scale, always > 0)."""
        return abs(self.metric_worse - self.metric_better)


def _check(human: Mapping[str, Sequence[float]], metric: Mapping[str, Sequence[float]],
           seg_ids: Sequence[int], limits: dict[str, Optional[int]]) -> list[str]:
    names = sorted(human)
    if set(metric) != set(names):
        raise ValueError("metric: give scores for exactly the systems that have human scores")
    for s in names:
        if len(human[s]) != len(seg_ids) or len(metric[s]) != len(seg_ids):
            raise ValueError(f"human: system {s!r} needs one human and one metric "
                             f"score per segment ({len(seg_ids)})")
    for name, value in limits.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"{name}: expected a positive whole number or None, got {value!r}")
    return names


def _pairs_against(names: Sequence[str], human: Mapping[str, Sequence[float]],
                   metric: Mapping[str, Sequence[float]], i: int, seg: int,
                   sign: float) -> list[Disagreement]:
    """The pairs of segment i (``seg_ids[i]`` = ``seg``) that the metric strictly orders against the
    humans."""
    found = []
    for a, b in itertools.combinations(names, 2):
        ha, hb, ma, mb = float(human[a][i]), float(human[b][i]), float(metric[a][i]), float(metric[b][i])
        if ha == hb or ma == mb or (ha > hb) == (sign * ma > sign * mb):
            continue
        if ha < hb:  # a is the one the experts prefer
            a, b, ha, hb, ma, mb = b, a, hb, ha, mb, ma
        found.append(Disagreement(int(seg), a, b, ha, hb, ma, mb))
    return found


def _at_most(found: list[Disagreement], per_segment: int) -> list[Disagreement]:
    kept, seen = [], {}
    for d in found:
        seen[d.seg_id] = seen.get(d.seg_id, 0) + 1
        if seen[d.seg_id] <= per_segment:
            kept.append(d)
    return kept


def disagreements(human: Mapping[str, Sequence[float]], metric: Mapping[str, Sequence[float]],
                  seg_ids: Sequence[int], *, higher_is_better: bool = True, k: Optional[int] = 10,
                  per_segment: Optional[int] = None) -> list[Disagreement]:
    """The ``k`` worst pairs (all of them if ``k`` is None) that ``metric`` orders against ``human``.

    ``human[s][i]`` and ``metric[s][i]`` score system s's translation of segment
    ``seg_ids[i]``. A metric tie is not a disagreement (it prefers neither).
    ``per_segment`` keeps at most that many pairs of one segment (the worst ones), so
    that one bad translation does not fill the list.
    """
    names = _check(human, metric, seg_ids, {"k": k, "per_segment": per_segment})
    sign = 1.0 if higher_is_better else -1.0
    found = [d for i, seg in enumerate(seg_ids) for d in _pairs_against(names, human, metric, i, seg, sign)]
    found.sort(key=lambda d: (-d.mqm_gap, -d.metric_gap, d.seg_id, d.better, d.worse))
    if per_segment is not None:
        found = _at_most(found, per_segment)
    return found if k is None else found[:k]


@dataclass(frozen=True)
class DisagreementCase:
    """A :class:`Disagreement` with everything a class needs to discuss it."""

    disagreement: Disagreement
    source: str
    references: tuple[str, ...]
    better_text: str
    worse_text: str
    better_errors: tuple[MqmError, ...]
    worse_errors: tuple[MqmError, ...]

    def explain(self) -> str:
        """The case as plain text: the source, the reference(s), both translations with their errors."""
        d = self.disagreement

        def errors(items: tuple[MqmError, ...]) -> str:
            return "; ".join(f"{e.severity} {e.category}: {e.span!r}" for e in items) or "no errors"

        lines = wrap_columns(f"segment {d.seg_id}: the experts prefer {d.better} (MQM {d.mqm_better:g}) to "
                             f"{d.worse} (MQM {d.mqm_worse:g}); the metric scores them {d.metric_better:.4f} "
                             f"and {d.metric_worse:.4f}", "", "  ")
        lines += wrap_columns(self.source, "  source:    ", " " * 13)
        for r in self.references:
            lines += wrap_columns(r, "  reference: ", " " * 13)
        for name, text, items in ((d.better, self.better_text, self.better_errors),
                                  (d.worse, self.worse_text, self.worse_errors)):
            lines += wrap_columns(text, f"  {name}: ", " " * 4)
            lines += wrap_columns(errors(items), "    errors: ", " " * 6)
        return "\n".join(lines)


def disagreement_cases(data: MqmData, metric: str = "bleu", reference: str = "ref", *,
                       k: int = 10, per_segment: Optional[int] = 1) -> list[DisagreementCase]:
    """Score the MT systems of ``data`` with a study metric against ``reference`` and return the worst cases.

    ``reference`` is ``"ref"``, ``"refB"`` or ``"ref+refB"`` (both); ``metric`` a name of
    :data:`~mtlearn.study.metric_scores.METRICS`; ``per_segment`` as in :func:`disagreements`
    (one pair per segment by default, so the list shows ``k`` different sentences). Read the data with
    :func:`~mtlearn.study.mqm.read_mqm` (``find_data_dir()`` finds ``../shared``).
    """
    names = reference.split("+")
    if not names or any(n not in data.references for n in names):
        raise ValueError(f"reference: unknown value {reference!r}; choose one of "
                         f"{', '.join([*data.references, '+'.join(data.references)])}")
    m = study_metric(metric)
    refs = [list(r) for r in zip(*(data.texts(n) for n in names))]
    human = {s: [float(v) for v in data.scores(s)] for s in data.mt_systems}
    scores = {s: list(score_system(m, data.texts(s), refs).sentence) for s in data.mt_systems}
    cases = []
    for d in disagreements(human, scores, data.seg_ids, higher_is_better=m.higher_is_better, k=k,
                           per_segment=per_segment):
        better, worse = data.item(d.better, d.seg_id), data.item(d.worse, d.seg_id)
        cases.append(DisagreementCase(d, better.source, tuple(data.item(n, d.seg_id).target for n in names),
                                      better.target, worse.target, better.errors, worse.errors))
    return cases

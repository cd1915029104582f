"""The questions asked of pairs of systems: who wins for the humans and for each metric, and how often
a metric orders two systems as the humans do (the pairwise significance and accuracy tables).

>>> c = compare_systems("de-en", "Online-A", "Online-W")
>>> c.winner(), c.winner("bleu"), accuracy("pooled", "bleu", reference="A").comparisons
('Online-W', 'Online-A', 274)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from mtlearn.study.agreement.rows import (
    PairwiseAccuracyRow,
    PairwiseComparison,
    _choose,
    _significance_metric,
    check_human_score,
    check_metric,
)
from mtlearn.study.agreement.tables import (
    AgreementTables,
    agreement_tables,
    check_pair,
    check_reference,
    check_system,
)


def pairwise(pair: Optional[str] = None, *,
             tables: Optional[AgreementTables] = None) -> tuple[PairwiseComparison, ...]:
    """Every pair of MT systems of ``pair`` (or of all pairs), A the humans' winner.

    A pair with n systems has n (n - 1) / 2 comparisons:

    >>> len(pairwise("de-en")), len(pairwise("ja-en"))
    (36, 91)
    """
    t = agreement_tables(tables)
    if pair is not None:
        check_pair(pair, t)
    return tuple(c for c in t.pairwise if pair is None or c.pair == pair)


def compare_systems(pair: str, system_1: str, system_2: str, *,
                    tables: Optional[AgreementTables] = None) -> PairwiseComparison:
    """Two MT systems of ``pair``, in either order: who wins for the humans and for each metric.

    The answer to "which metric ranks these two as the humans do?" is
    ``.agreeing``; ``.explain()`` gives the numbers and the significance tests.

    >>> c = compare_systems("ja-en", "NAIST-NICT-TIT", "LanguageX")
    >>> c.winner(), c.human_significant, c.winner("bleu"), c.bleu.significant
    ('LanguageX', True, 'NAIST-NICT-TIT', False)
    >>> compare_systems("de-en", "Online-A", "HUMAN-B")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: system_2: 'HUMAN-B' is a human translation, with no output to score in de-en; ...
    """
    t = agreement_tables(tables)
    pair = check_pair(pair, t)
    first = check_system(system_1, pair, t, "system_1")
    second = check_system(system_2, pair, t, "system_2")
    if first == second:
        raise ValueError(f"system_2: {second!r} is system_1 too; choose two different systems")
    return next(c for c in t.pairwise
                if c.pair == pair and {c.system_a, c.system_b} == {first, second})


@dataclass(frozen=True)
class PairwiseSummary:
    """How one metric orders the pairs of systems, against the humans.

    Over ``comparisons`` pairs of MT systems (of ``pairs``): ``agrees``/``disagrees``/
    ``ties`` count the metric's order against the humans'; ``metric_significant`` and
    ``human_significant`` the significant differences; ``wrong_way_significant`` the
    significant metric differences that point the other way from the humans (the
    misleading ones), ``wrong_way_both_significant`` those where the humans' difference
    is significant too -- a confident metric contradicting confident humans.
    """

    metric: str
    pairs: tuple[str, ...]
    comparisons: int
    human_significant: int
    metric_significant: int
    agrees: int
    disagrees: int
    ties: int
    wrong_way_significant: int
    wrong_way_both_significant: int

    @property
    def wrong_way_share(self) -> float:
        """The share of the metric's significant differences that point the wrong way."""
        return self.wrong_way_significant / self.metric_significant if self.metric_significant else 0.0


def pairwise_summary(metric: str, pair: Optional[str] = None, *,
                     tables: Optional[AgreementTables] = None) -> PairwiseSummary:
    """Count, for ``metric``, how its pairwise orders and significant differences match the humans'.

    >>> s = pairwise_summary("bleu", "de-en")
    >>> s.comparisons, s.human_significant, s.agrees + s.disagrees + s.ties
    (36, 21, 36)
    >>> s.wrong_way_significant <= s.metric_significant
    True
    >>> pairwise_summary("meteor").comparisons == len(pairwise())
    True
    """
    t = agreement_tables(tables)
    metric = _significance_metric(metric)
    rows = pairwise(pair, tables=t)
    sides = [(c, c.metric(metric)) for c in rows]
    return PairwiseSummary(
        metric=metric,
        pairs=(pair,) if pair is not None else t.pairs,
        comparisons=len(rows),
        human_significant=sum(c.human_significant for c in rows),
        metric_significant=sum(d.significant for _, d in sides),
        agrees=sum(d.agrees is True for _, d in sides),
        disagrees=sum(d.agrees is False for _, d in sides),
        ties=sum(d.agrees is None for _, d in sides),
        wrong_way_significant=sum(d.misleads for _, d in sides),
        wrong_way_both_significant=sum(d.misleads and c.human_significant for c, d in sides),
    )


def accuracies(scope: Optional[str] = None, *, metric: Optional[str] = None, reference: Optional[str] = None,
               human_score: str = "z",
               tables: Optional[AgreementTables] = None) -> tuple[PairwiseAccuracyRow, ...]:
    """Rows of ``pairwise_accuracy.csv``, filtered by scope (a pair or ``"pooled"``), metric and
    reference (``None``: all).

    >>> rows = accuracies("pooled", reference="A")
    >>> [(r.metric, r.comparisons) for r in rows]
    [('bleu', 274), ('meteor', 274), ('chrf', 274), ('comet', 274)]
    """
    t = agreement_tables(tables)
    if scope is not None and scope != "pooled":
        check_pair(scope, t, "scope")
    if metric is not None:
        check_metric(metric)
    if reference is not None:
        _choose(reference, ("all", "A", "B", "C"), "reference", "reference")
    check_human_score(human_score)
    return tuple(r for r in t.accuracies
                 if (scope is None or r.scope == scope) and (metric is None or r.metric == metric)
                 and (reference is None or r.reference == reference) and r.human_score == human_score)


def accuracy(scope: str, metric: str, *, reference: Optional[str] = None, human_score: str = "z",
             tables: Optional[AgreementTables] = None) -> PairwiseAccuracyRow:
    """Pairwise accuracy of ``metric`` in ``scope`` (a pair, or ``"pooled"`` over the pairs that
    have ``reference``), against ``reference`` (default: :func:`default_reference`).

    >>> a = accuracy("pooled", "comet", reference="A")
    >>> a.agreeing, a.comparisons, a.ci_low <= a.value <= a.ci_high
    (202, 274, True)
    >>> accuracy("pooled", "comet", reference="all")
    Traceback (most recent call last):
    ...
    ValueError: reference: WMT's COMET uses one reference; choose A, B, C
    """
    t = agreement_tables(tables)
    metric = check_metric(metric)
    if scope != "pooled":
        check_pair(scope, t, "scope")
    ref = check_reference(reference, scope, metric, t)
    rows = accuracies(scope, metric=metric, reference=ref, human_score=human_score, tables=t)
    if len(rows) != 1:
        raise ValueError(f"reference: no pairwise accuracy of {metric} against reference {ref} in {scope}")
    return rows[0]

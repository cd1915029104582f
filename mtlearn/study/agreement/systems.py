"""The questions asked of the systems of a pair: their scores, rankings and system-level correlations.

Every function takes ``tables=`` (one :func:`~mtlearn.study.agreement.tables.load_agreement` reused) and
checks its arguments by name; correlations are read from the shipped table, or recomputed from its
scores (:func:`correlate_systems`, :func:`leave_one_out`).

>>> ranking("ja-en")[-1], round(system_correlation("de-en", "bleu").value, 3)
('AIST', 0.492)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from mtlearn.study.agreement.rows import (
    _SYSTEM_STATISTICS,
    DOCUMENT_CLAIM,
    METRICS,
    SIGNIFICANCE_METRICS,
    JoinCheck,
    SegmentCounts,
    SystemCorrelation,
    SystemScore,
    _choose,
    check_human_score,
    check_metric,
)
from mtlearn.study.agreement.tables import (
    AgreementTables,
    agreement_tables,
    check_pair,
    check_reference,
    check_system,
    references,
)
from mtlearn.study.correlation import pearson, spearman


def system_scores(pair: str, *, scored_only: bool = False, order: str = "name", reference: str = "all",
                  tables: Optional[AgreementTables] = None) -> tuple[SystemScore, ...]:
    """The systems of ``pair``; ``scored_only``: only those in the statistics.

    ``reference``: ``"all"`` (default; ``systems.csv``) or one reference id: then ``bleu``,
    ``meteor``, ``chrf`` are mtlearn's scores against that reference alone and ``comet`` is
    WMT's official COMET against it (``reference_scores.csv``); human rows keep ``None``.

    >>> a = {s.system: s for s in system_scores("de-en", reference="A", scored_only=True)}
    >>> a["LT22"].reference, a["LT22"].chrf < system_scores("de-en")[1].chrf, round(a["LT22"].comet, 4)
    ('A', True, 0.2555)

    ``scored_only=True`` keeps the MT systems with an output and a human score -- the
    points of a metric-against-humans plot; human translations (``HUMAN-*``) and
    outputs the humans did not score are left out. ``order``: ``"name"`` (default) or
    ``"human"`` (best official z first, systems without a human score last).

    >>> [s.system for s in system_scores("uk-en")][:3]
    ['ALMAnaCH-Inria', 'ARC-NKUA', 'GTCOM']
    >>> len(system_scores("uk-en")), len(system_scores("uk-en", scored_only=True))
    (10, 9)
    >>> [s.system for s in system_scores("uk-en", order="human")][-2:]
    ['ALMAnaCH-Inria', 'GTCOM']
    """
    t = agreement_tables(tables)
    pair = check_pair(pair, t)
    _choose(order, ("name", "human"), "order", "order")
    rows = [s for s in t.systems if s.pair == pair and (s.scored or not scored_only)]
    if reference != "all":
        _choose(reference, references(pair, tables=t), "reference", "reference")
        by_name = {r.system: r for r in t.reference_scores if r.pair == pair and r.reference == reference}
        rows = [s if s.system not in by_name else
                dataclasses.replace(s, reference=reference, bleu=by_name[s.system].bleu,
                                    meteor=by_name[s.system].meteor, chrf=by_name[s.system].chrf,
                                    comet=by_name[s.system].wmt_comet) for s in rows]
    if order == "human":
        # Unscored systems last; equal scores keep name order, so the order never varies.
        rows.sort(key=lambda s: (s.human_z is None, -(s.human_z or 0.0), s.system))
    return tuple(rows)


def ranking(pair: str, by: str = "human", *, human_score: str = "z", reference: Optional[str] = None,
            tables: Optional[AgreementTables] = None) -> tuple[str, ...]:
    """The scored MT systems of ``pair``, best first, by the humans or by a metric.

    ``by``: ``"human"`` (the official DA score, ``human_score`` ``"z"`` or ``"raw"``) or a
    metric of :data:`METRICS`, scored against ``reference`` (see :func:`default_reference`);
    equal scores keep name order.

    >>> ranking("ja-en")[-1], ranking("ja-en", "bleu")[-1]
    ('AIST', 'AIST')
    >>> ranking("de-en", "bleu")[:2]
    ('Online-A', 'Lan-Bridge')
    """
    t = agreement_tables(tables)
    _choose(by, ("human", *METRICS), "by", "ranking")
    check_human_score(human_score)
    ref = "all" if by == "human" else check_reference(reference, check_pair(pair, t), by, t)
    systems = system_scores(pair, scored_only=True, reference=ref, tables=t)

    def score(s: SystemScore) -> float:
        value = s.human(human_score) if by == "human" else s.metric(by)
        return float(value)  # type: ignore[arg-type]  # scored systems have every score

    return tuple(s.system for s in sorted(systems, key=lambda s: (-score(s), s.system)))


def system_correlations(pair: Optional[str] = None, *, metric: Optional[str] = None,
                        statistic: Optional[str] = None, human_score: str = "z",
                        reference: Optional[str] = "all",
                        tables: Optional[AgreementTables] = None) -> tuple[SystemCorrelation, ...]:
    """System-level correlations, filtered by pair, metric, statistic and reference (``None``: all).

    ``reference`` defaults to ``"all"`` (the pair's references together), where COMET has no row.

    >>> from mtlearn.study.agreement import pairs
    >>> rows = system_correlations(metric="bleu", statistic="pearson")
    >>> [r.pair for r in rows] == list(pairs()), {r.human_score for r in rows}
    (True, {'z'})
    >>> comet = system_correlations(metric="comet", statistic="pearson", reference=None)
    >>> [(r.pair, r.reference) for r in comet][:3]
    [('cs-en', 'B'), ('cs-en', 'C'), ('de-en', 'A')]
    """
    t = agreement_tables(tables)
    if pair is not None:
        check_pair(pair, t)
    if metric is not None:
        check_metric(metric)
    if statistic is not None:
        _choose(statistic, _SYSTEM_STATISTICS, "statistic", "statistic")
    check_human_score(human_score)
    if reference is not None:
        _choose(reference, ("all", "A", "B", "C"), "reference", "reference")
    return tuple(c for c in t.system_correlations
                 if (pair is None or c.pair == pair) and (metric is None or c.metric == metric)
                 and (statistic is None or c.statistic == statistic) and c.human_score == human_score
                 and (reference is None or c.reference == reference))


def system_correlation(pair: str, metric: str, statistic: str = "pearson", human_score: str = "z", *,
                       reference: Optional[str] = None,
                       tables: Optional[AgreementTables] = None) -> SystemCorrelation:
    """The one system-level correlation of ``metric`` with the humans in ``pair``.

    ``statistic``: ``"pearson"`` or ``"spearman"``; ``human_score``: ``"z"`` (the
    official DA score) or ``"raw"``; ``reference``: see :func:`default_reference`.

    >>> c = system_correlation("zh-en", "comet")
    >>> c.reference, round(c.value, 3), round(system_correlation("zh-en", "bleu", reference="A").value, 3)
    ('A', 0.476, 0.64)

    >>> c = system_correlation("cs-en", "bleu")
    >>> c.statistic, c.human_score, c.n_systems
    ('pearson', 'z', 11)
    >>> system_correlation("cs-en", "bleu", "kendall")
    Traceback (most recent call last):
    ...
    ValueError: statistic: unknown statistic 'kendall'; choose pearson, spearman
    """
    t = agreement_tables(tables)
    ref = check_reference(reference, check_pair(pair, t), check_metric(metric), t)
    rows = system_correlations(pair, metric=metric, statistic=statistic, human_score=human_score,
                               reference=ref, tables=t)
    if len(rows) != 1:  # pragma: no cover - the shipped table has every combination once
        raise LookupError(f"system_correlations.csv: {len(rows)} rows for {pair}, {metric}, {statistic}")
    return rows[0]


def join_checks(pair: Optional[str] = None, *, x: Optional[str] = None, y: Optional[str] = None,
                alignment: Optional[str] = None,
                tables: Optional[AgreementTables] = None) -> tuple[JoinCheck, ...]:
    """Rows of the join check (:class:`JoinCheck`), filtered by pair, x, y and alignment (``None``: all).

    Under the SID-as-line join, a metric and the humans correlate within a system at
    no offset better than after a random shuffle -- the join is wrong:

    >>> rows = join_checks("ru-en", x="sentence_bleu", y="human_z")
    >>> sorted({r.alignment for r in rows})
    ['shuffled', 'sid_as_line_plus_offset']
    >>> max(abs(r.pearson) for r in rows) < 0.1
    True
    """
    t = agreement_tables(tables)
    if pair is not None:
        check_pair(pair, t)
    wanted = {"x": x, "y": y, "alignment": alignment}
    for argname, value in wanted.items():
        if value is not None:
            _choose(value, sorted({getattr(r, argname) for r in t.join_checks}), argname, argname)
    wanted["pair"] = pair
    # None asks for every value of that column.
    return tuple(r for r in t.join_checks
                 if all(value is None or getattr(r, column) == value for column, value in wanted.items()))


def segment_counts(pair: str, *, tables: Optional[AgreementTables] = None) -> SegmentCounts:
    """What the humans judged in ``pair``: segments, systems, judged items per system.

    >>> c = segment_counts("de-en")
    >>> c.segments, c.mt_systems_scored, c.mt_scored_items_min, c.mt_scored_items_max
    (1984, 9, 1602, 1825)
    """
    t = agreement_tables(tables)
    pair = check_pair(pair, t)
    return next(c for c in t.segment_counts if c.pair == pair)


@dataclass(frozen=True)
class CorrelationSummary:
    """The six pairs at system level, BLEU beside METEOR.

    ``bleu``/``meteor`` hold the correlation per pair (in ``pairs`` order);
    ``meteor_higher``/``bleu_higher`` list the pairs where that metric's value is the
    higher. ``claim_bleu``/``claim_meteor`` are the Spanish Wikipedia article's corpus-level figures;
    ``reaches_claim_*`` list the pairs whose value is at least the claim,
    ``interval_covers_claim_*`` the pairs whose 95% interval contains it. (``level`` is
    always ``"system"``: no segment-level correlation is shipped, see :func:`join_checks`.)
    """

    level: str
    statistic: str
    human_score: str
    pairs: tuple[str, ...]
    bleu: tuple[float, ...]
    meteor: tuple[float, ...]
    mean_bleu: float
    mean_meteor: float
    meteor_higher: tuple[str, ...]
    bleu_higher: tuple[str, ...]
    claim_bleu: float
    claim_meteor: float
    reaches_claim_bleu: tuple[str, ...]
    reaches_claim_meteor: tuple[str, ...]
    interval_covers_claim_bleu: tuple[str, ...]
    interval_covers_claim_meteor: tuple[str, ...]

    @property
    def mean_difference(self) -> float:
        """METEOR's mean minus BLEU's mean (compare with :attr:`DocumentClaim.corpus_gap`)."""
        return self.mean_meteor - self.mean_bleu


def summarize_correlations(level: str = "system", statistic: str = "pearson",
                           human_score: Optional[str] = None, *,
                           tables: Optional[AgreementTables] = None) -> CorrelationSummary:
    """BLEU against METEOR over all pairs at system level.

    ``statistic``: ``"pearson"`` or ``"spearman"``; ``human_score`` ``"z"`` (default)
    or ``"raw"``. Means are plain means over the pairs. ``level="segment"`` is refused
    with the reason: the segment-level human scores cannot be joined to the texts.

    >>> from mtlearn.study.agreement import pairs
    >>> s = summarize_correlations("system", "pearson")
    >>> s.pairs == pairs(), len(s.bleu), s.claim_meteor, s.claim_bleu
    (True, 6, 0.964, 0.817)
    >>> len(s.meteor_higher) + len(s.bleu_higher) <= 6
    True
    >>> summarize_correlations("segment")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: level: no segment-level correlation is shipped (SID is not the line ...; choose system
    """
    t = agreement_tables(tables)
    if level == "segment":
        raise ValueError("level: no segment-level correlation is shipped (SID is not the line number of the "
                         "texts; see join_checks()); choose system")
    level = _choose(level, ("system",), "level", "level")
    statistic = _choose(statistic, _SYSTEM_STATISTICS, "statistic", "statistic")
    human_score = check_human_score(human_score or "z")
    rows: dict[str, Sequence[SystemCorrelation]] = {
        m: system_correlations(metric=m, statistic=statistic, human_score=human_score, tables=t)
        for m in SIGNIFICANCE_METRICS}
    claims = {m: DOCUMENT_CLAIM.corpus(m) for m in SIGNIFICANCE_METRICS}
    order = t.pairs
    values = {m: tuple(next(r.value for r in rows[m] if r.pair == p) for p in order)
              for m in SIGNIFICANCE_METRICS}

    def reaching(m: str) -> tuple[str, ...]:
        return tuple(p for p, v in zip(order, values[m]) if v >= claims[m])

    def covering(m: str) -> tuple[str, ...]:
        return tuple(r.pair for r in rows[m] if r.contains(claims[m]))

    return CorrelationSummary(
        level=level, statistic=statistic, human_score=human_score, pairs=order,
        bleu=values["bleu"], meteor=values["meteor"],
        mean_bleu=math.fsum(values["bleu"]) / len(order),
        mean_meteor=math.fsum(values["meteor"]) / len(order),
        meteor_higher=tuple(p for p, b, m in zip(order, values["bleu"], values["meteor"]) if m > b),
        bleu_higher=tuple(p for p, b, m in zip(order, values["bleu"], values["meteor"]) if b > m),
        claim_bleu=claims["bleu"], claim_meteor=claims["meteor"],
        reaches_claim_bleu=reaching("bleu"), reaches_claim_meteor=reaching("meteor"),
        interval_covers_claim_bleu=covering("bleu"), interval_covers_claim_meteor=covering("meteor"),
    )


def correlate_systems(pair: str, metric: str, *, statistic: str = "pearson", human_score: str = "z",
                      exclude: Sequence[str] = (), reference: Optional[str] = None,
                      tables: Optional[AgreementTables] = None) -> float:
    """A system-level correlation recomputed from ``systems.csv``, optionally leaving systems out.

    Uses :func:`mtlearn.study.correlation.pearson` / :func:`~mtlearn.study.correlation.spearman` on
    the table's scores (rounded to 6 decimals, so with nothing excluded it matches
    ``system_correlation(...).value`` to about 1e-5, not to the last digit). ja-en's
    high r rests on one broken system:

    >>> abs(correlate_systems("ja-en", "bleu") - system_correlation("ja-en", "bleu").value) < 1e-5
    True
    >>> correlate_systems("ja-en", "bleu", exclude=["AIST"]) < system_correlation("ja-en", "bleu").value
    True
    >>> correlate_systems("ja-en", "bleu", exclude=["Nobody"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: exclude: unknown system 'Nobody' in ja-en; choose AISP-SJTU, AIST, ..., Online-Y
    """
    t = agreement_tables(tables)
    pair = check_pair(pair, t)
    metric = check_metric(metric)
    statistic = _choose(statistic, _SYSTEM_STATISTICS, "statistic", "statistic")
    human_score = check_human_score(human_score)
    if isinstance(exclude, str):
        raise TypeError("exclude: expected a list of system names, e.g. ['AIST']")
    left_out = {check_system(name, pair, t, "exclude") for name in exclude}
    ref = check_reference(reference, pair, metric, t)
    scored = system_scores(pair, scored_only=True, reference=ref, tables=t)
    kept = [s for s in scored if s.system not in left_out]
    if len(kept) < 3:
        raise ValueError(f"exclude: {len(kept)} systems would be left; a correlation needs at least 3")
    func = pearson if statistic == "pearson" else spearman
    return func([s.metric(metric) for s in kept], [s.human(human_score) for s in kept])  # type: ignore[misc]


@dataclass(frozen=True)
class LeaveOneOut:
    """A system-level correlation recomputed once without each system in turn.

    ``full`` is the correlation over all systems (recomputed from the table's scores,
    see :func:`correlate_systems`); ``values`` holds (left-out system, correlation
    without it) for every system, sorted by name; ``lowest``/``highest`` are the
    extreme entries: the system whose absence lowers (raises) the correlation most.
    """

    pair: str
    metric: str
    statistic: str
    human_score: str
    full: float
    values: tuple[tuple[str, float], ...]
    lowest: tuple[str, float]
    highest: tuple[str, float]


def leave_one_out(pair: str, metric: str, statistic: str = "pearson", human_score: str = "z", *,
                  tables: Optional[AgreementTables] = None) -> LeaveOneOut:
    """How much a pair's system-level correlation rests on any single system.

    With 9 to 14 systems, one far-off system can make a correlation: ja-en's broken
    AIST, which every method puts last, is the one whose absence lowers BLEU's r most.

    >>> loo = leave_one_out("ja-en", "bleu")
    >>> len(loo.values), loo.lowest[0], loo.lowest[1] < loo.full
    (14, 'AIST', True)
    """
    t = agreement_tables(tables)
    names = [s.system for s in system_scores(pair, scored_only=True, tables=t)]
    full = correlate_systems(pair, metric, statistic=statistic, human_score=human_score, tables=t)
    values = tuple((name, correlate_systems(pair, metric, statistic=statistic, human_score=human_score,
                                            exclude=[name], tables=t)) for name in names)
    # Ties go to the first name, so the result is the same on every run.
    return LeaveOneOut(pair=pair, metric=metric, statistic=statistic, human_score=human_score, full=full,
                       values=values, lowest=min(values, key=lambda v: v[1]),
                       highest=max(values, key=lambda v: v[1]))

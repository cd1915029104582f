"""mtlearn/study/agreement/rows.py: the tables' rows (typed, frozen), the Spanish Wikipedia article's figures,
a comparison's verdicts and text, and the checks of a metric's or an option's name.

Expected values come from the CSV files read with the csv module (``agreement_files.read``) and plain
Python, never from the module under test.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from repo_paths import REPO

from mtlearn.study.agreement import (
    DOCUMENT_CLAIM,
    SIGNIFICANCE_METRICS,
    accuracy,
    compare_systems,
    join_checks,
    load_agreement,
    pairwise_summary,
    ranking,
    summarize_correlations,
    system_correlation,
    system_scores,
)


@pytest.fixture(scope="module")
def tables():
    return load_agreement()


def _allowed(annotation: str) -> tuple[type, ...]:
    """The runtime types a dataclass field's annotation allows (None included for Optional)."""
    base = {"str": str, "int": int, "float": float, "bool": bool, "tuple[str, ...]": tuple}
    optional = annotation.startswith("Optional[")
    text = annotation.replace("Optional[", "").rstrip("]") if optional else annotation
    if text.startswith("tuple[str"):
        text = "tuple[str, ...]"
    types: tuple[type, ...] = (base[text],)
    return types + ((type(None),) if annotation.startswith("Optional[") else ())


@pytest.mark.parametrize("field", ["systems", "system_correlations", "join_checks", "segment_counts",
                                   "reference_scores", "accuracies"])
def test_cells_have_their_declared_types(tables, field):
    for row in getattr(tables, field):
        assert dataclasses.is_dataclass(row)
        for f in dataclasses.fields(row):
            value = getattr(row, f.name)
            allowed = _allowed(str(f.type))
            # bool is an int subclass: an int field must not hold a bool, nor a float field an int.
            assert (type(value)
                    in allowed), f"{type(row).__name__}.{f.name} = {value!r} ({type(value).__name__})"


def test_rows_are_frozen(tables):
    with pytest.raises(dataclasses.FrozenInstanceError):
        tables.systems[0].bleu = 1.0  # type: ignore[misc]


def test_pairwise_rows_typed(tables):
    for c in tables.pairwise:
        assert type(c.human_significant) is bool and type(c.human_z_diff) is float
        for m in SIGNIFICANCE_METRICS:
            d = c.metric(m)
            assert (type(d.significant) is bool and d.agrees in (True, False, None)
                    and type(d.p_value) is float)


def test_agreeing_follows_the_metrics(tables):
    for c in tables.pairwise:
        agreeing = {m for m in SIGNIFICANCE_METRICS if c.metric(m).agrees}
        expected = {frozenset(): "neither", frozenset(SIGNIFICANCE_METRICS): "both"}.get(frozenset(agreeing))
        assert c.agreeing == (expected or next(iter(agreeing)))
        for m in SIGNIFICANCE_METRICS:
            d = c.metric(m)
            # The sign of the difference is the order, and "agrees" says the same.
            assert d.agrees is None if d.a == d.b else d.agrees is (d.a > d.b)
            assert c.winner(m) == (None if d.agrees is None else (c.system_a if d.agrees else c.system_b))


def test_explain_names_both_systems_and_every_verdict():
    c = compare_systems("ja-en", "LanguageX", "NAIST-NICT-TIT")
    lines = c.explain().splitlines()
    assert lines[0] == "ja-en: LanguageX against NAIST-NICT-TIT"
    assert lines[1].startswith("humans  LanguageX ahead: z 0.0539 against -0.0210")
    assert lines[2].startswith("BLEU    NAIST-NICT-TIT ahead: 0.2236 against 0.2268, unlike the humans")
    assert lines[3].startswith("METEOR  ")
    assert lines[-1] == f"orders them as the humans do: {c.agreeing}"


def test_verdict_says_when_the_humans_do_not_separate_the_systems(tables):
    # ja-en DLUT against NT5: the humans' difference is not significant, so "neither" would be a verdict on
    # an order the humans never gave; every row is checked, read from the human test's own flag and p.
    c = compare_systems("ja-en", "DLUT", "NT5")
    assert not c.human_significant
    last = c.explain().splitlines()[-1]
    assert "do not separate them" in last and f"p = {c.human_p:.3f}" in last and "neither" not in last
    seen = set()
    for row in tables.pairwise:
        last = row.explain().splitlines()[-1]
        seen.add(row.human_significant)
        if row.human_significant:
            assert last == f"orders them as the humans do: {row.agreeing}"
        else:
            assert "no order to agree with" in last and row.agreeing not in last.split(":")[-1]
    assert seen == {True, False}


def test_document_claim_is_the_digest_s():
    digest = REPO.parent / "shared" / "seeds" / "DIGEST.md"
    if not digest.is_file():
        pytest.skip(f"the digest is not available at {digest}")
    item = re.search(r"2\. \*\*Reported results\.\*\*(.+?)\n\d+\. ", digest.read_text(encoding="utf-8"), re.S)
    assert item, "METEOR item 2 not found in the digest"
    numbers = [float(x) for x in re.findall(r"\d\.\d+", item.group(1))]
    assert numbers == [DOCUMENT_CLAIM.corpus_meteor, DOCUMENT_CLAIM.corpus_bleu,
                       DOCUMENT_CLAIM.sentence_meteor]


def test_document_gap_and_mean_difference():
    assert DOCUMENT_CLAIM.corpus_gap == DOCUMENT_CLAIM.corpus_meteor - DOCUMENT_CLAIM.corpus_bleu
    s = summarize_correlations()
    assert s.mean_difference == s.mean_meteor - s.mean_bleu


@pytest.mark.parametrize("call, message", [
    (lambda: system_correlation("de-en", "ter"),
     r"^metric: unknown metric 'ter'; choose bleu, meteor, chrf, comet$"),
    (lambda: system_correlation("de-en", "comet", reference="all"),
     r"^reference: WMT's COMET uses one reference"),
    (lambda: system_correlation("ja-en", "bleu", reference="B"),
     r"^reference: unknown reference 'B'; choose all, A$"),
    (lambda: accuracy("pooled", "comet", reference="all"), r"^reference: WMT's COMET uses one reference"),
    (lambda: accuracy("xx-en", "bleu"), r"^scope: unknown pair 'xx-en'"),
    (lambda: system_correlation("de-en", "bleu", "kendall"), r"^statistic: unknown statistic 'kendall'"),
    (lambda: system_correlation("de-en", "bleu", human_score="mqm"),
     r"^human_score: unknown human score 'mqm'"),
    (lambda: join_checks("de-en", x="sentence_ter"), r"^x: unknown x 'sentence_ter'; choose sentence_bleu"),
    (lambda: summarize_correlations("corpus"), r"^level: unknown level 'corpus'; choose system$"),
    (lambda: pairwise_summary("chrf"), r"^metric: 'chrf' has no paired significance test"),
    (lambda: ranking("de-en", "ter"),
     r"^by: unknown ranking 'ter'; choose human, bleu, meteor, chrf, comet$"),
    (lambda: system_scores("de-en", order="bleu"), r"^order: unknown order 'bleu'; choose name, human$"),
])
def test_unknown_options(call, message):
    with pytest.raises(ValueError, match=message):
        call()

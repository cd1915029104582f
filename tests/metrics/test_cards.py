"""The metric cards: each exists, has Hugging Face evaluate's sections, runs its examples, is linked.

The examples themselves run as doctests (``--doctest-glob=CARD.md`` in pyproject.toml's addopts, so
``pytest mtlearn/metrics`` collects them); here: that the configuration keeps collecting them, that each
card has enough examples to be worth the name, and that the WMT22 table of the BLEU card is what mtlearn
and the organisers' file say (the chrF and TER cards' tables: test_chrf_wmt22.py, test_ter_wmt22.py).
"""

from __future__ import annotations

import csv
import doctest
import re
from pathlib import Path

import pytest
from repo_paths import REPO

import mtlearn

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

CARDS = {
    "bleu": REPO / "mtlearn" / "metrics" / "bleu" / "CARD.md",
    "meteor": REPO / "mtlearn" / "metrics" / "meteor" / "CARD.md",
    "chrf": REPO / "mtlearn" / "metrics" / "chrf" / "CARD.md",
    "ter": REPO / "mtlearn" / "metrics" / "ter" / "CARD.md",
    "bertscore": REPO / "mtlearn" / "metrics" / "bertscore" / "CARD.md",
    "comet_mini": REPO / "mtlearn" / "metrics" / "comet_mini" / "CARD.md",
}

#: Hugging Face evaluate's metric-card sections, in order, plus mtlearn's own "Differences from Other
#: Implementations" (where each library's number departs from the metric's, and why).
SECTIONS = (
    "## Metric Description",
    "## How to Use",
    "### Inputs",
    "## Output Values",
    "## Values from Popular Papers",
    "## Examples",
    "## Limitations and Bias",
    "## Differences from Other Implementations",
    "## Citation",
)

#: Fewest doctest examples (``>>> `` statements) a card must have.
MIN_EXAMPLES = 20

#: Implementations each card's "differences" section must discuss.
COMPARED = {
    "bleu": ("sacreBLEU", "NLTK", "Hugging Face evaluate", "tensorflow/nmt", "d2l", "METEOR 1.5"),
    "meteor": ("NLTK", "Hugging Face evaluate", "METEOR 1.5"),
    "chrf": ("sacreBLEU", "NLTK", "Hugging Face evaluate", "chrF++.py", "METEOR 1.5"),
    "ter": ("sacreBLEU", "tercom", "Hugging Face evaluate", "jiwer", "NLTK", "METEOR 1.5"),
    "bertscore": ("bert-score", "Hugging Face evaluate", "roberta-large"),
    "comet_mini": ("Unbabel COMET", "BERTScore"),
}


def _text(metric: str) -> str:
    return CARDS[metric].read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    start = text.index(heading + "\n")
    rest = text[start + len(heading) :]
    following = re.search(r"^## ", rest, flags=re.MULTILINE)
    return rest[: following.start()] if following else rest


@pytest.mark.parametrize("metric", sorted(CARDS))
def test_card_has_every_section_in_order(metric: str) -> None:
    lines = _text(metric).splitlines()
    positions = []
    for heading in SECTIONS:
        assert heading in lines, f"{CARDS[metric].name} of {metric}: no line {heading!r}"
        positions.append(lines.index(heading))
    assert positions == sorted(positions), f"{metric}: sections out of order"


@pytest.mark.parametrize("metric", sorted(CARDS))
def test_card_has_enough_examples(metric: str) -> None:
    examples = doctest.DocTestParser().get_examples(_text(metric))
    assert len(examples) >= MIN_EXAMPLES, f"{metric}: {len(examples)} doctest examples"
    # The differences section shows code, not only prose.
    differences = _section(_text(metric), "## Differences from Other Implementations")
    assert len(doctest.DocTestParser().get_examples(differences)) >= 5


@pytest.mark.parametrize("metric", sorted(CARDS))
def test_card_discusses_each_implementation(metric: str) -> None:
    differences = _section(_text(metric), "## Differences from Other Implementations")
    missing = [name for name in COMPARED[metric] if name not in differences]
    assert not missing, f"{metric}: the differences section does not discuss {missing}"


def test_pytest_collects_the_cards_as_doctests() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    options = config["tool"]["pytest"]["ini_options"]
    addopts = options["addopts"].split()
    assert "--doctest-glob=CARD.md" in addopts
    assert "mtlearn" in options["testpaths"]
    package_data = config["tool"]["setuptools"]["package-data"]["mtlearn"]
    assert "metrics/*/CARD.md" in package_data  # the cards ship with the package


def test_readme_links_both_cards() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for path in CARDS.values():
        target = path.relative_to(REPO).as_posix()
        assert f"]({target})" in readme, f"README.md does not link {target}"


# ------------------------------------------------------------------ the BLEU card's WMT22 table


def _table_rows() -> list[tuple[str, tuple[float, float, float]]]:
    section = _section(_text("bleu"), "## Values from Popular Papers")
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"\d+\.\d\d", cells[1]):
            rows.append((cells[0], (float(cells[1]), float(cells[2]), float(cells[3]))))
    return rows


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def test_bleu_card_table_is_found() -> None:
    assert len(_table_rows()) == 3


@pytest.mark.wmt22
def test_bleu_card_table_is_mtlearn_and_official(wmt22: Path) -> None:
    official = {}
    with open(wmt22 / "automatic-scores.tsv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["pair"] == "de-en" and row["metric"] in ("bleu-A", "bleu-B", "bleu-all"):
                official[(row["system"], row["metric"])] = float(row["score"])
    ref_a = _lines(wmt22 / "references" / "generaltest2022.de-en.ref.A.en")
    ref_b = _lines(wmt22 / "references" / "generaltest2022.de-en.ref.B.en")
    reference_sets = {
        "bleu-A": [[a] for a in ref_a],
        "bleu-B": [[b] for b in ref_b],
        "bleu-all": [[a, b] for a, b in zip(ref_a, ref_b)],
    }
    for system, printed in _table_rows():
        hyps = _lines(wmt22 / "system-outputs" / f"generaltest2022.de-en.hyp.{system}.en")
        for value, (metric, refs) in zip(printed, reference_sets.items()):
            ours = 100 * mtlearn.corpus_bleu(hyps, refs, tokenize="13a", smoothing="exp").score
            assert round(ours, 2) == value, (system, metric, ours)
            assert round(official[(system, metric)], 2) == value, (system, metric)

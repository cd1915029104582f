"""The concept-check banks of notebooks 06–10: well-formed entries, and every numbered section covered."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import mtlearn
from mtlearn.exercises.concepts import (
    chrf_and_ter,
    concept_check_data,
    concept_checks,
    learned_metrics,
    metrics_and_people,
    sentence_level_with_experts,
    why_libraries_disagree,
)

REPO = Path(mtlearn.__file__).resolve().parent.parent
BANKS = {
    "06": (metrics_and_people, "06_do_metrics_agree_with_people.ipynb"),
    "07": (chrf_and_ter, "07_chrf_and_ter.ipynb"),
    "08": (why_libraries_disagree, "08_why_libraries_disagree.ipynb"),
    "09": (sentence_level_with_experts, "09_sentence_level_with_experts.ipynb"),
    "10": (learned_metrics, "10_learned_metrics.ipynb"),
}
NUMBERED = re.compile(r"^## (\d+)\. ", re.MULTILINE)


def numbered_sections(notebook: str) -> list[int]:
    """The numbers of a notebook's ``## N. Title`` sections (Summary, Exercises, Explore have none)."""
    cells = json.loads((REPO / "notebooks" / notebook).read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [int(n) for n in NUMBERED.findall(text)]


def test_the_section_parser_finds_numbered_headings_only() -> None:
    sections = numbered_sections("06_do_metrics_agree_with_people.ipynb")
    assert sections == list(range(1, len(sections) + 1)) and len(sections) >= 5


@pytest.mark.parametrize("number", sorted(BANKS))
def test_every_numbered_section_has_one_or_two_checks(number: str) -> None:
    module, notebook = BANKS[number]
    sections = numbered_sections(notebook)
    per_section = {s: [c.id for c in module.CHECKS if c.section == s] for s in sections}
    assert {s: ids for s, ids in per_section.items() if not 1 <= len(ids) <= 2} == {}
    # No check for a section the notebook does not have, and none filed under another notebook.
    assert {c.id for c in module.CHECKS if c.section not in sections or c.notebook != number} == set()


@pytest.mark.parametrize("number", sorted(BANKS))
def test_the_checks_are_in_order_with_letters_a_b(number: str) -> None:
    module, _ = BANKS[number]
    ids = [c.id for c in module.CHECKS]
    expected = [f"{number}.s{c.section}{'ab'[i]}"
                for s in sorted({c.section for c in module.CHECKS})
                for i, c in enumerate(c for c in module.CHECKS if c.section == s)]
    assert ids == expected


@pytest.mark.parametrize("check", [c for m, _ in BANKS.values() for c in m.CHECKS], ids=lambda c: c.id)
def test_each_check_is_well_formed(check) -> None:
    assert check.question.strip() and check.question == check.question.strip()
    assert 3 <= len(check.options) <= 4
    texts = [o.text.strip() for o in check.options]
    explanations = [o.explanation.strip() for o in check.options]
    assert all(texts) and all(explanations)
    assert len(set(texts)) == len(texts) and len(set(explanations)) == len(explanations)
    # Exactly one right option: the right one's explanation says so, every other one's does not.
    verdicts = [e.split(":")[0].split(",")[0] for e in explanations]
    assert [v == "Yes" for v in verdicts].count(True) == 1 and verdicts[check.answer] == "Yes"


def test_the_banks_are_reachable_through_the_package() -> None:
    for number, (module, _) in BANKS.items():
        assert concept_checks(number) == list(module.CHECKS)
        for c in module.CHECKS:
            assert concept_check_data(c.id) is c

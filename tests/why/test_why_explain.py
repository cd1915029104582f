"""mtlearn/why/explain.py: the comparison and the one-step-at-a-time walk as text, within 110 columns.

Every number the text shows is read back and compared with the comparison object's own values, so the
narrower layout cannot drop or misplace a column.
"""

from __future__ import annotations

import itertools
import re

import pytest

import mtlearn

CANDIDATE = "The cat sat on the mat today."
REFERENCES = ["Today the cat sat on the mat.", "The cat was on the mat."]
WIDTH = 110  # the widest line a notebook output keeps (tests/project/test_notebook_outputs.py)
# Notebook 08's libraries: the walk from sacreBLEU to d2l-en changes the most settings (the widest rows).
BLEU_PROFILES = ["sacrebleu-sentence", "nltk-sentence", "hf-evaluate-smooth", "torchmetrics-smooth", "d2l-en",
                 "tensor2tensor"]


@pytest.fixture(scope="module")
def bleu():
    return mtlearn.compare_implementations(CANDIDATE, REFERENCES, profiles=BLEU_PROFILES)


@pytest.fixture(scope="module")
def meteor():
    return mtlearn.compare_implementations("the cats were sitting on the mats", ["the cat sat on the mat"],
                                           metric="meteor")


def _too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > WIDTH]


def test_every_walk_fits_in_the_width(bleu, meteor):
    for c in (bleu, meteor):
        assert _too_wide(c.explain()) == []
        for a, b in itertools.permutations([p.name for p in c.profiles], 2):
            assert _too_wide(c.explain(a, b)) == [], (a, b)


def test_walk_keeps_one_block_per_step_with_its_numbers(bleu):
    d = bleu.divergence("sacrebleu-sentence", "d2l-en")
    lines = bleu.explain("sacrebleu-sentence", "d2l-en").splitlines()
    assert lines[1].split() == ["step", "score", "after", "contribution"]
    for step in d.steps:
        head = [line for line in lines if line.startswith(f"  {step.step}  ")]
        assert len(head) == 1, step.step
        numbers = re.findall(r"[+-]?\d+\.\d{4}", head[0])
        assert numbers[:2] == [f"{float(step.score_after):.4f}", f"{float(step.contribution):+.4f}"]
        below = lines[lines.index(head[0]) + 1]
        if step.settings_differ:
            # The settings and what they move follow under the step, indented, never on the numbers' line.
            assert below.startswith("      settings: ") and "settings" not in head[0]
            block = " ".join(lines[lines.index(head[0]) + 1:]).split("  total")[0]
            assert all(name in block for name in step.moved)
        else:
            assert head[0].endswith("(same settings)")
    assert lines[-1] == f"  first divergence: {d.first_divergence} (settings first differ at: " \
                        f"{d.first_settings_difference})"


def test_table_keeps_every_profile_and_does_not_break_a_step_name(bleu, meteor):
    for c in (bleu, meteor):
        text = c.explain()
        for p in c.profiles:
            row = next(line for line in text.splitlines() if line.startswith(f"  {p.name} "))
            assert f"{float(p.score):.4f}" in row
        steps = {s.step for d in c.divergences for s in d.steps}
        for line in text.splitlines():
            # A wrapped line never starts inside a step's name ("counting/clipping" without "n-gram").
            tail = line.strip()
            assert not any(tail.startswith(step.split(" ", 1)[-1]) and " " in step and
                           not tail.startswith(step) for step in steps), line

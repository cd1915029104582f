"""Concept checks (mtlearn.exercises.concepts) and their widget (mtlearn.exercises.concept_widget)."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from repo_paths import REPO
from traitlets import TraitError

from mtlearn.exercises import ConceptCheckWidget, concept_check
from mtlearn.exercises.catalogue import NOTEBOOK_MODULES
from mtlearn.exercises.concept_widget import (
    FEEDBACK_RIGHT,
    FEEDBACK_WRONG,
    NOT_QUITE,
    RIGHT,
    concept_html,
    concept_text,
)
from mtlearn.exercises.concepts import ConceptCheck, Option, concept_check_data, concept_checks

CHECKS = concept_checks()
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
_NUMBERED = re.compile(r"^## (\d+)\.\s", re.M)


def _sections(path: Path) -> list[int]:
    """The numbers of a notebook's numbered sections (``## N. Title`` in its markdown cells)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [int(n) for cell in nb["cells"] if cell["cell_type"] == "markdown"
            for n in _NUMBERED.findall("".join(cell["source"]))]


# --------------------------------------------------------------------------- the banks


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.id)
def test_every_check_is_well_formed(check):
    texts = [o.text.strip() for o in check.options]
    explanations = [o.explanation.strip() for o in check.options]
    assert check.question.strip(), f"{check.id}: no question"
    assert 3 <= len(check.options) <= 4, f"{check.id}: {len(check.options)} options, expected 3 or 4"
    assert all(texts) and len(set(texts)) == len(texts), f"{check.id}: empty or repeated option texts"
    assert all(explanations) and len(set(explanations)) == len(explanations), (
        f"{check.id}: empty or repeated explanations")
    # Exactly one option is right: the answer is one index, and no other option is the same text.
    assert texts.count(check.right.text.strip()) == 1


def test_ids_are_unique():
    repeated = [i for i, n in Counter(c.id for c in CHECKS).items() if n > 1]
    assert not repeated, f"concept check ids used twice: {repeated}"


@pytest.mark.parametrize("number, name", [(f"{k:02d}", name) for k, name in enumerate(NOTEBOOK_MODULES, 1)])
def test_each_bank_holds_its_notebooks_checks_and_the_package_finds_them(number, name):
    bank = importlib.import_module(f"mtlearn.exercises.concepts.{name}").CHECKS
    assert bank, f"notebook {number}'s bank is empty"
    assert {c.notebook for c in bank} == {number}
    assert concept_checks(number) == list(bank)
    assert all(concept_check_data(c.id) is c for c in bank)


@pytest.mark.parametrize("notebook", sorted({c.notebook for c in CHECKS}))
def test_the_checks_are_in_section_order_with_letters_a_b(notebook):
    checks = concept_checks(notebook)
    expected = [f"{notebook}.s{section}{'ab'[i]}" for section in sorted({c.section for c in checks})
                for i, _ in enumerate(c for c in checks if c.section == section)]
    assert [c.id for c in checks] == expected


@pytest.mark.parametrize("check", [c for c in CHECKS if c.notebook >= "06"], ids=lambda c: c.id)
def test_the_banks_of_06_to_10_say_yes_only_for_the_right_option(check):
    # These banks open each explanation with its verdict ("Yes:", "No:", "Tempting, but ...").
    verdicts = [o.explanation.strip().split(":")[0].split(",")[0] for o in check.options]
    assert verdicts.count("Yes") == 1 and verdicts[check.answer] == "Yes"


def test_the_right_answer_is_not_always_in_one_place():
    # A student who learns that the answer is always A stops reading the options.
    for notebook in sorted({c.notebook for c in CHECKS}):
        positions = Counter(c.answer for c in concept_checks(notebook))
        assert len(positions) >= 2, f"notebook {notebook}: every right answer is option {list(positions)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name[:2])
def test_every_numbered_section_has_one_or_two_checks(path):
    notebook = path.name[:2]
    sections = _sections(path)
    assert sections, f"{path.name}: no numbered section found"
    per_section = Counter(c.section for c in concept_checks(notebook))
    without = [s for s in sections if per_section[s] == 0]
    assert not without, f"{path.name}: sections without a concept check: {without}"
    assert all(per_section[s] <= 2 for s in sections), f"{path.name}: more than two checks in a section"
    stray = sorted(set(per_section) - set(sections))
    assert not stray, f"{path.name}: concept checks for sections it does not have: {stray}"


def test_every_notebook_of_the_course_is_covered():
    assert [p.name[:2] for p in NOTEBOOKS] == [f"{k:02d}" for k in range(1, 11)]


# --------------------------------------------------------------------------- the widget


def test_a_choice_shows_its_explanation_and_verdict():
    widget = concept_check("01.s2a")
    check = widget.check
    assert widget.value is None and widget.feedback.value == ""
    wrong = next(k for k in range(len(check.options)) if k != check.answer)
    widget.value = wrong
    shown = widget.feedback.value
    assert NOT_QUITE in shown and FEEDBACK_WRONG in shown and RIGHT not in shown
    assert _escaped(check.options[wrong].explanation) in shown
    assert _escaped(check.right.explanation) not in shown
    widget.value = check.answer  # choosing again replaces the feedback
    shown = widget.feedback.value
    assert RIGHT in shown and FEEDBACK_RIGHT in shown and NOT_QUITE not in shown
    assert _escaped(check.right.explanation) in shown
    assert _escaped(check.options[wrong].explanation) not in shown


def test_a_button_click_chooses_its_option():
    widget = concept_check("03.s3a")
    widget.buttons[2].click()
    assert widget.value == 2
    assert _escaped(widget.check.options[2].explanation) in widget.feedback.value
    assert [b.button_style for b in widget.buttons] == ["", "", "info"]


def test_a_choice_that_is_no_option_is_refused():
    widget = concept_check("01.s1a")
    with pytest.raises(TraitError, match="01.s1a: choice 7 is not an option"):
        widget.value = 7
    assert widget.value is None and widget.feedback.value == ""


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.id)
def test_without_a_kernel_only_the_question_and_options_show(check):
    bundle = ConceptCheckWidget(check)._repr_mimebundle_()
    plain, page = bundle["text/plain"], bundle["text/html"]
    for text in (plain, page):
        assert not any(o.explanation in text or _escaped(o.explanation) in text for o in check.options), (
            f"{check.id}: an explanation shows without a kernel")
        assert check.question in text or _escaped(check.question) in text
        assert all(o.text in text or _escaped(o.text) in text for o in check.options)
        assert RIGHT not in text and NOT_QUITE not in text


def test_the_static_output_is_the_same_on_every_run():
    first, second = (concept_check("04.s2a")._repr_mimebundle_() for _ in range(2))
    for key in ("text/plain", "text/html"):
        assert first[key] == second[key]
    assert first["text/html"] == concept_html(concept_check_data("04.s2a"))
    assert first["text/plain"] == concept_text(concept_check_data("04.s2a"))


def test_text_is_escaped_in_html():
    check = ConceptCheck("99.s1a", "Is <b> a tag?", (Option("yes & no", "A <b> is bold."),
                                                     Option("no", "It is."), Option("maybe", "Hm.")), 0)
    page = concept_html(check)
    assert "Is &lt;b&gt; a tag?" in page and "yes &amp; no" in page and "<b> a tag" not in page


@pytest.mark.parametrize("bad, error, message", [
    ("nope", LookupError, r"concept check 'nope': no such check; notebook nope has none"),
    ("01.s9z", LookupError, r"concept check '01.s9z': no such check; notebook 01 has 01.s1a, "),
    (3, TypeError, r"concept check id: expected an id such as '01.s1a', got int 3"),
    (None, TypeError, r"got NoneType None"),
])
def test_a_bad_id_is_a_clear_error(bad, error, message):
    with pytest.raises(error, match=message):
        concept_check(bad)


def test_importing_the_exercises_loads_no_widgets():
    probe = ("import sys, mtlearn.exercises; a = 'ipywidgets' in sys.modules; "
             "from mtlearn.exercises import concept_check; print(a, 'ipywidgets' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert out.stdout.split() == ["False", "True"], out.stderr


def _escaped(text: str) -> str:
    import html

    return html.escape(text)

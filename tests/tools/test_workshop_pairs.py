"""The METEOR explorers of the workshop and notebook 04 start from a pair where every
slider moves the score (row 1 has P = R = 1 and one match a chunk: alpha and beta could not)."""

from __future__ import annotations

import nbformat
import pytest
from repo_paths import REPO

from mtlearn.examples.meteor import EXPLORER_PAIR, ROW_1
from mtlearn.show.explorers import MeteorExplorer

NOTEBOOKS = {"workshop.ipynb": None, "04_meteor_scoring.ipynb": ["exact"]}  # name -> the explorer's stages


def _explorer_cells(name: str) -> list[str]:
    nb = nbformat.read(REPO / "notebooks" / name, as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code" and "= MeteorExplorer(" in c.source]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_notebook_starts_from_the_explorer_pair(name: str) -> None:
    cells = _explorer_cells(name)
    assert len(cells) == 1 and "EXPLORER_PAIR" in cells[0], cells


def test_the_workshop_text_states_no_chunk_count() -> None:
    # It said "every word matches, but in three chunks" above an explorer that showed 6; the count is printed
    # now.
    nb = nbformat.read(REPO / "notebooks" / "workshop.ipynb", as_version=4)
    text = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "three chunks" not in text and "every word matches" not in text


@pytest.mark.parametrize("stages", NOTEBOOKS.values())
@pytest.mark.parametrize("slider", ["alpha_input", "beta_input", "gamma_input"])
def test_one_step_of_every_slider_moves_the_score(stages, slider: str) -> None:
    kwargs = {} if stages is None else {"stages": stages}
    x = MeteorExplorer(EXPLORER_PAIR[0], [EXPLORER_PAIR[1]], **kwargs)
    control = getattr(x, slider)
    start_value, start = control.value, x.result.score
    for value in (start_value - control.step, start_value + control.step):
        if control.min <= value <= control.max:
            control.value = value
            assert x.result.score != start, (slider, value)
            control.value = start_value


def test_row_1_is_why_the_pair_changed() -> None:
    # The control: on row 1 the alpha and beta sliders do not move the score, so the test above can fail.
    x = MeteorExplorer(ROW_1.candidate, [ROW_1.reference], stages=["exact"])
    start = x.result.score
    x.alpha_input.value = x.alpha_input.value - x.alpha_input.step
    x.beta_input.value = x.beta_input.value - x.beta_input.step
    assert x.result.score == start


def test_no_stage_ticked_shows_the_message_only() -> None:
    # An empty PNG in an Image widget is a broken-image icon in the browser: the image is hidden instead.
    x = MeteorExplorer(EXPLORER_PAIR[0], [EXPLORER_PAIR[1]])
    boxes = list(x.stage_inputs.values())
    assert x.image.value and x.image.layout.display is None
    for box in boxes:
        box.value = False
    assert x.error and "stage" in x.error
    assert x.image.value == b"" and x.image.layout.display == "none"
    boxes[0].value = True
    assert x.image.value and x.image.layout.display is None

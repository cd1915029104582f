"""An explorer shown without a kernel (the rendered book, a notebook not yet run): a snapshot of its first
state as HTML and one line of text, never the widget's repr; Jupyter still gets the live widget's view."""

from __future__ import annotations

import html

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402

from mtlearn.show.explorers import (  # noqa: E402
    BleuExplorer,
    ChrfExplorer,
    ImplementationExplorer,
    MeteorExplorer,
    TerExplorer,
)
from mtlearn.show.explorers.snapshot import SNAPSHOT_CLASS, SNAPSHOT_NOTE, snapshot_html  # noqa: E402

VIEW = "application/vnd.jupyter.widget-view+json"

EXPLORERS = {
    "bleu": lambda: BleuExplorer("the the the the the the the", ["the cat is on the mat"], max_order=1),
    "meteor": lambda: MeteorExplorer("the cats were sitting on the mats", ["the cat sat on the mat"]),
    "chrf": lambda: ChrfExplorer("a cat sat", ["the cats sat"]),
    "ter": lambda: TerExplorer("the cat sat on the mat today", ["today the two cats sat on the mat"]),
    "implementation": lambda: ImplementationExplorer("the cat sat on the mat", ["the cat is on the mat"]),
}


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_the_bundle_keeps_the_live_view_and_adds_a_snapshot_never_the_repr(name):
    explorer = EXPLORERS[name]()
    bundle = explorer._repr_mimebundle_()
    assert bundle[VIEW]["model_id"] == explorer.model_id  # Jupyter still shows the live widget
    assert bundle["text/plain"] == f"{type(explorer).__name__} — run the notebook to explore"
    page = bundle["text/html"]
    for shown in (page, bundle["text/plain"]):
        assert "children=(" not in shown and "Textarea(" not in shown and "Layout(" not in shown
    assert SNAPSHOT_NOTE in page and f'class="{SNAPSHOT_CLASS}"' in page
    # What the explorer shows is in the snapshot as it shows it: its headline, its result boxes, its text.
    assert explorer.score_html.value and explorer.score_html.value in page
    assert explorer.summary_html.value in page
    assert html.escape(explorer.candidate_input.value) in page


def test_the_picture_is_inline_and_a_hidden_one_is_left_out():
    explorer = EXPLORERS["meteor"]()
    assert explorer.image.value  # the alignment drawn
    assert page_images(snapshot_html(explorer)) == 1
    explorer.set_inputs(references="")  # no result: the picture is hidden, the error is shown
    page = snapshot_html(explorer)
    assert page_images(page) == 0 and html.escape(explorer.error) in page


def page_images(page: str) -> int:
    return page.count('src="data:image/png;base64,')


def test_controls_are_shown_with_their_labels_and_values():
    row = [widgets.IntSlider(value=3, description="Max order"),
           widgets.Checkbox(value=True, description="Lowercase"),
           widgets.Dropdown(options=["13a", "zh"], value="zh", description="Tok")]
    box = widgets.VBox([widgets.HBox(row)])
    page = snapshot_html(box)
    assert "<b>Max order</b> 3" in page and "<b>Lowercase</b> yes" in page and "<b>Tok</b> zh" in page
    assert 'data-explorer="VBox"' in page

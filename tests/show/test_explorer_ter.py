"""The TER explorer, headless: its shifts, edit script and picture follow mtlearn.ter's result."""

from __future__ import annotations

import html

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402
from explorer_html import descriptions, dom_classes, in_time, numbers, value, words  # noqa: E402

from mtlearn import ter  # noqa: E402
from mtlearn.show import plots  # noqa: E402
from mtlearn.show.explorers import TerExplorer  # noqa: E402
from mtlearn.show.plots import find_gid  # noqa: E402


def test_ter_renders_the_library_numbers():
    cand, refs = "the cat sat on the mat today", ["today the two cats sat on the mat"]
    x = TerExplorer(cand, refs)
    direct = ter(cand, refs)
    assert x.result == direct and x.error is None
    n = numbers(x.score_html, x.summary_html, x.shifts_html).values
    counts = direct.counts()
    assert float(n["score"]) == direct.score == 3 / 8
    assert (int(n["edits"]) == direct.num_edits == 3
            and float(n["reference-length"]) == direct.reference_length)
    assert [int(n[k]) for k in ("shifts", "substitutions", "insertions", "deletions", "matches")] == [
        counts["shift"], counts["substitute"], counts["insert"], counts["delete"], counts["match"]
    ] == [1, 1, 1, 0, 6]
    assert int(n["shift-gain-1"]) == direct.shifts[0].gain
    assert "3/8 = 0.3750" in x.summary_html.value and "TER = " in x.score_html.value


def test_ter_shift_list_and_edit_script_follow_the_result():
    x = TerExplorer("the cat sat on the mat today", ["today on the mat sat the cats"])
    r = x.result
    assert numbers(x.shifts_html).row_classes == ["mtlearn-shift"] * len(r.shifts) == ["mtlearn-shift"] * 3
    for s in r.shifts:
        assert html.escape(s.reason) in x.shifts_html.value
    assert numbers(x.edits_html).row_classes == [f"mtlearn-edit-{e.op}" for e in r.edits]
    assert "deletion" in x.edits_html.value and "insertion" in x.edits_html.value


def test_ter_picture_matches_the_result():
    x = TerExplorer("on the mat the cat sat", ["the cat sat on the mat"])
    ax = x.figure.axes[0]
    assert len(find_gid(ax, "shift-arrow")) == len(x.result.shifts) == 1
    assert len(find_gid(ax, "match")) == 6
    assert bytes(x.image.value[:8]) == b"\x89PNG\r\n\x1a\n"
    first = bytes(x.image.value)
    x.candidate_input.value = "the cat sat on a mat"
    assert (find_gid(x.figure.axes[0], "shift-arrow") == []
            and len(find_gid(x.figure.axes[0], "substitute")) == 1)
    assert bytes(x.image.value) != first


@pytest.mark.parametrize(
    "control, options",
    [("normalized", dict(normalized=True)), ("no_punct", dict(no_punct=True)),
     ("asian_support", dict(asian_support=True)), ("case_sensitive", dict(case_sensitive=True))],
)
def test_ter_each_option_updates_live(control, options):
    cand, refs = "The cat, it sat on the mat.", ["the cat sat on the mat .", "On the mat sat a cat."]
    x = TerExplorer(cand, refs)
    assert x.result == ter(cand, refs)
    x.option_inputs[control].value = True
    direct = ter(cand, refs, **options)
    assert x.result == direct
    assert value(x, "score") == direct.score and value(x, "edits") == direct.num_edits


def test_ter_case_sensitive_changes_the_score():
    x = TerExplorer("the cat sat on the mat", ["The cat sat on the mat"])
    assert value(x, "score") == 0.0
    x.option_inputs["case_sensitive"].value = True
    assert value(x, "score") == ter("the cat sat on the mat", ["The cat sat on the mat"],
                                    case_sensitive=True).score > 0


def test_ter_several_references_shows_the_counted_one():
    refs = ["a dog ran off", "the cat sat down"]
    x = TerExplorer("the cat sat", "\n".join(refs))
    direct = ter("the cat sat", refs)
    assert value(x, "best-reference") == direct.best_reference + 1 == 2
    assert [value(x, f"reference-edits-{k}") for k in (1, 2)] == list(direct.reference_edits)
    assert value(x, "reference-length") == direct.reference_length == 4.0  # the average of 4 and 4


def test_ter_empty_candidate_shows_the_reason():
    x = TerExplorer("", ["the cat"])
    assert x.error is None and value(x, "score") == 1.0
    assert x.result.reason and html.escape(x.result.reason) in x.message_html.value
    assert "mtlearn-note" in x.message_html.value


def test_ter_no_references():
    x = TerExplorer("the cat", "")
    assert x.result is None and x.error == "references: give at least one reference, one per line"
    assert "mtlearn-error" in x.message_html._dom_classes
    assert x.summary_html.value == x.shifts_html.value == x.edits_html.value == "" and x.figure is None
    x.references_input.value = "the cat"
    assert x.error is None and value(x, "score") == 0.0


def test_ter_constructor_checks_arguments():
    with pytest.raises(TypeError, match="^case_sensitive: "):
        TerExplorer("a", ["a"], case_sensitive="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^candidate: "):
        TerExplorer(3, ["a"])  # type: ignore[arg-type]


def test_ter_set_inputs_recomputes_once(monkeypatch):
    x = TerExplorer("a b c", ["a b c"])
    calls = []
    original = x.refresh
    monkeypatch.setattr(x, "refresh", lambda: (calls.append(1), original())[1])
    x.set_inputs(candidate="c a b", references=["a b c", "a c"], no_punct=True)
    assert calls == [1]
    assert x.result == ter("c a b", ["a b c", "a c"], no_punct=True)
    with pytest.raises(TypeError, match="^beta: not an input of TerExplorer"):
        x.set_inputs(beta=2)


def test_ter_is_a_displayable_widget_with_css_classes():
    x = TerExplorer("a b", ["a b"])
    assert isinstance(x, widgets.VBox) and x.widget is x
    assert "application/vnd.jupyter.widget-view+json" in x._repr_mimebundle_()
    assert {"mtlearn-ter-explorer", "mtlearn-candidate", "mtlearn-references", "mtlearn-normalized",
            "mtlearn-no-punct", "mtlearn-asian-support", "mtlearn-case-sensitive", "mtlearn-score",
            "mtlearn-summary", "mtlearn-shifts", "mtlearn-edits", "mtlearn-edit-picture",
            "mtlearn-message"} <= dom_classes(x)
    assert {"Candidate", "References", "Normalized", "No punctuation", "Asian support",
            "Case sensitive"} <= descriptions(x)


def test_ter_long_input_shows_the_numbers_and_a_note_instead_of_the_picture():
    # The reproducer: 2,000 pasted words took the picture 28 s, 818 MB and an 18.5 MB PNG.
    n_words = plots.TER_PICTURE_MAX_WORDS + 1
    cand, ref = words(n_words), words(n_words - 1, "w") + " extra"

    def work():
        x = TerExplorer(cand, [ref])
        return (x.result.num_edits, x.figure is None, bytes(x.image.value), x.image.layout.display, x.notes,
                x.error)

    edits, no_figure, png, display, notes, error = in_time(work)
    assert edits == ter(cand, [ref]).num_edits and no_figure and png == b"" and display == "none"
    [note] = [n for n in notes if "picture" in n]
    assert f"{n_words} words" in note and str(plots.TER_PICTURE_MAX_WORDS) in note and error is None
    # Back to a size the picture is drawn for: the picture returns and the note goes.
    x = TerExplorer(cand, [ref])
    x.set_inputs(candidate=words(plots.TER_PICTURE_MAX_WORDS), references=words(plots.TER_PICTURE_MAX_WORDS))
    assert x.figure is not None and bytes(x.image.value[:4]) == b"\x89PNG" and x.image.layout.display is None
    assert not [n for n in x.notes if "picture" in n]


def test_ter_picture_of_two_thousand_words_is_refused_by_the_plot_itself():
    r = ter(words(2000), [words(2000)])
    with pytest.raises(ValueError, match=rf"^result: 2000 words on one side, above the "
                                         rf"{plots.TER_PICTURE_MAX_WORDS} the edit picture is drawn for"):
        plots.plot_ter_edits(r)
    c = plots.plot_ter_edits(ter(words(70), [words(70)]), max_words=70)  # a bigger cap, asked for
    assert len(find_gid(c.axes[0], "match")) == 70

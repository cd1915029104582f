"""The METEOR explorer, headless: the numbers it renders are mtlearn.meteor's, its picture the result's."""

from __future__ import annotations

import html
import random
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402
from explorer_html import descriptions, dom_classes, numbers, value, words  # noqa: E402

from mtlearn import meteor  # noqa: E402
from mtlearn.examples.meteor import ROW_1, ROW_1_CHUNKS_SCORE, TABLE  # noqa: E402
from mtlearn.metrics.meteor.explain import search_note  # noqa: E402
from mtlearn.metrics.meteor.wordnet import WordNetMissingError, wordnet_available  # noqa: E402
from mtlearn.show.explorers import PICTURE_MAX_WORDS, MeteorExplorer  # noqa: E402
from mtlearn.show.plots import crossing_points, find_gid  # noqa: E402


@pytest.mark.parametrize("row", TABLE, ids=["row1", "row2", "row3"])
def test_meteor_digest_rows(row):
    x = MeteorExplorer(row.candidate, [row.reference], stages=["exact"])
    n = numbers(x.score_html, x.summary_html)
    assert f"{float(n.values['score']):.4f}" == row.expected_score
    assert int(n.values["chunks"]) == row.expected_chunks
    assert int(n.values["matches"]) == row.expected_matches
    direct = meteor(row.candidate, [row.reference], stages=["exact"])
    assert float(n.values["score"]) == direct.score
    assert n.exact["precision"] == str(direct.precision) and n.exact["f-mean"] == str(direct.f_mean)
    assert n.exact["penalty"] == str(direct.penalty)
    assert int(n.values["crossings"]) == direct.crossings


def test_meteor_picture_matches_the_result():
    x = MeteorExplorer(ROW_1.candidate, [ROW_1.reference], stages=["exact"])
    ax = x.figure.axes[0]
    assert crossing_points(ax) == x.result.crossings == 8
    assert len(find_gid(ax, "chunk-candidate")) == x.result.chunks == 6
    assert bytes(x.image.value[:8]) == b"\x89PNG\r\n\x1a\n"
    first = bytes(x.image.value)
    x.tie_break_input.value = "chunks"
    assert f"{x.result.score:.4f}" == ROW_1_CHUNKS_SCORE
    assert crossing_points(x.figure.axes[0]) == x.result.crossings == 11
    assert bytes(x.image.value) != first


@pytest.mark.parametrize("cand_words, ref_words", [(PICTURE_MAX_WORDS + 1, PICTURE_MAX_WORDS + 1),
                                                   (5, PICTURE_MAX_WORDS + 1), (PICTURE_MAX_WORDS + 1, 5)])
def test_meteor_long_input_shows_the_numbers_and_a_note_instead_of_the_picture(cand_words, ref_words):
    cand, ref = words(cand_words), words(ref_words)
    x = MeteorExplorer(cand, [ref], stages=["exact"])
    direct = meteor(cand, [ref], stages=["exact"])
    assert value(x, "score") == direct.score and value(x, "chunks") == direct.chunks
    assert x.figure is None and bytes(x.image.value) == b"" and x.image.layout.display == "none"
    longest = max(cand_words, ref_words)
    [note] = [n for n in x.notes if "picture" in n]
    assert f"{longest} words" in note and str(PICTURE_MAX_WORDS) in note
    assert "mtlearn-note" in x.message_html.value and str(PICTURE_MAX_WORDS) in x.message_html.value
    assert x.error is None
    # Back to a size the picture is drawn for: the picture returns and the note goes.
    x.candidate_input.value = words(PICTURE_MAX_WORDS)
    x.references_input.value = words(PICTURE_MAX_WORDS)
    assert x.figure is not None and bytes(x.image.value[:4]) == b"\x89PNG" and x.image.layout.display is None
    assert not [n for n in x.notes if "picture" in n]


def test_meteor_search_row_names_the_limit_that_stopped_the_search():
    # 150 words drawn from 4: a group past the full-budget size stops at its share,
    # and the explorer says so in the library's words (it said "node budget" whatever stopped it).
    rng = random.Random(50)
    cand, ref = (" ".join(rng.choice(["the", "a", "cat", "on"]) for _ in range(150)) for _ in "cr")
    x = MeteorExplorer(cand, [ref], stages=["exact"])
    direct = meteor(cand, [ref], stages=["exact"])
    assert not direct.optimal and direct.search_stops
    assert html.escape(search_note(direct)) in x.summary_html.value
    assert "node budget reached" not in x.summary_html.value


def test_meteor_states_the_picture_cut_off():
    assert f"Above :data:`PICTURE_MAX_WORDS` ({PICTURE_MAX_WORDS})" in MeteorExplorer.__doc__


@pytest.mark.parametrize(
    "control, new, options",
    [
        ("alpha_input", 0.5, dict(alpha=0.5)),
        ("beta_input", 1.5, dict(beta=1.5)),
        ("gamma_input", 0.25, dict(gamma=0.25)),
        ("tie_break_input", "chunks", dict(tie_break="chunks")),
        ("lowercase_input", False, dict(lowercase=False)),
        ("tokenize_input", "13a", dict(tokenize="13a")),
    ],
)
def test_meteor_each_control_updates_live(control, new, options):
    cand, refs = "On the mat sat the cat .", ["the cat sat on the mat."]
    x = MeteorExplorer(cand, refs, stages=["exact", "stem"])
    getattr(x, control).value = new
    direct = meteor(cand, refs, stages=["exact", "stem"], **options)
    assert value(x, "score") == direct.score
    assert value(x, "penalty") == float(direct.penalty)
    assert value(x, "f-mean") == float(direct.f_mean)


def test_meteor_stage_checkboxes():
    cand, ref = "the cats sat", "a cat sat"
    x = MeteorExplorer(cand, [ref], stages=["exact"])
    assert x.result.matches == 1
    x.stage_inputs["stem"].value = True
    assert x.result.matches_per_stage == {"exact": 1, "stem": 1}
    assert value(x, "matches-stem") == 1
    assert value(x, "score") == meteor(cand, [ref], stages=["exact", "stem"]).score


def test_meteor_slider_values_are_rounded():
    x = MeteorExplorer("the cat was sat on the mat", ["the cat sat on the mat"], stages=["exact"])
    x.alpha_input.value = 0.9000000000000001  # what a browser may send
    assert x.result.alpha == 0.9
    assert x.result.f_mean == Fraction(60, 61)


def test_meteor_several_references():
    x = MeteorExplorer("the cat sat on the mat", "a cat sat\nthe cat sat on the mat", stages=["exact"])
    direct = meteor("the cat sat on the mat", ["a cat sat", "the cat sat on the mat"], stages=["exact"])
    assert value(x, "best-reference") == direct.best_reference + 1 == 2
    assert [value(x, f"reference-score-{k}") for k in (1, 2)] == [r.score for r in direct.per_reference]
    assert "reference 2 of 2 (best)" in x.figure.axes[0].get_title()


def test_meteor_no_stage_ticked():
    x = MeteorExplorer("the cat", ["the cat"], stages=["exact"])
    x.stage_inputs["exact"].value = False
    assert x.result is None and x.figure is None
    assert x.error == "stages: tick at least one stage (exact, stem, synonym)"
    assert "mtlearn-error" in x.message_html._dom_classes
    assert bytes(x.image.value) == b""


def test_meteor_no_references():
    x = MeteorExplorer("the cat", [], stages=["exact"])
    assert x.result is None and x.error == "references: give at least one reference, one per line"


def test_meteor_empty_candidate_shows_the_reason():
    x = MeteorExplorer("", ["the cat"], stages=["exact"])
    assert x.error is None and value(x, "score") == 0.0
    assert "empty candidate" in x.message_html.value


def _no_wordnet(*args, **kwargs):
    raise WordNetMissingError("simulated: no WordNet here")


def test_meteor_missing_wordnet_falls_back_with_a_message(monkeypatch):
    import mtlearn.metrics.meteor.synonyms

    monkeypatch.setattr(mtlearn.metrics.meteor.synonyms, "shared_synonym_index", _no_wordnet)
    x = MeteorExplorer("the cats sat on the rug", ["the cat sat on the carpet"])
    assert x.error is None
    assert "needs WordNet" in x.message_html.value and "exact + stem" in x.message_html.value
    assert x.result.stages == ("exact", "stem")
    assert x.result.score == meteor("the cats sat on the rug", ["the cat sat on the carpet"],
                                    stages=["exact", "stem"]).score


def test_meteor_missing_wordnet_synonym_only(monkeypatch):
    import mtlearn.metrics.meteor.synonyms

    monkeypatch.setattr(mtlearn.metrics.meteor.synonyms, "shared_synonym_index", _no_wordnet)
    x = MeteorExplorer("a rug", ["a carpet"], stages=["synonym"])
    assert x.result is None and x.error.startswith("WordNet for NLTK was not found")


@pytest.mark.wordnet
@pytest.mark.skipif(not wordnet_available(),
                    reason="WordNet for NLTK is not installed (python -m mtlearn.metrics.meteor.wordnet)")
def test_meteor_all_three_stages():
    x = MeteorExplorer("the cats sat on the rug", ["the cat sat on the carpet"])
    direct = meteor("the cats sat on the rug", ["the cat sat on the carpet"])
    assert x.result.matches_per_stage == {"exact": 4, "stem": 1, "synonym": 1}
    assert value(x, "score") == direct.score and value(x, "matches-synonym") == 1


def test_meteor_constructor_checks_gamma():
    with pytest.raises(ValueError, match="^gamma: "):
        MeteorExplorer("a", ["a"], gamma=1.5)


def test_meteor_constructor_checks_stages():
    with pytest.raises(ValueError, match="^stages: unknown stage 'paraphrase'"):
        MeteorExplorer("a", ["a"], stages=["paraphrase"])


def test_meteor_constructor_checks_tie_break():
    with pytest.raises(ValueError, match="^tie_break: "):
        MeteorExplorer("a", ["a"], tie_break="random")


def test_meteor_set_inputs_with_stage_list():
    x = MeteorExplorer("the cats sat", ["a cat sat"], stages=["exact"])
    x.set_inputs(stages=["exact", "stem"], gamma=0.25)
    assert x.result.stages == ("exact", "stem") and x.result.gamma == 0.25
    assert x.stage_inputs["stem"].value is True and x.stage_inputs["synonym"].value is False


def test_meteor_is_a_displayable_widget_with_css_classes():
    x = MeteorExplorer("a b", ["a b"], stages=["exact"])
    assert isinstance(x, widgets.VBox) and x.widget is x
    assert "application/vnd.jupyter.widget-view+json" in x._repr_mimebundle_()
    assert {"mtlearn-meteor-explorer", "mtlearn-candidate", "mtlearn-references", "mtlearn-stage-exact",
            "mtlearn-stage-stem", "mtlearn-stage-synonym", "mtlearn-alpha", "mtlearn-beta", "mtlearn-gamma",
            "mtlearn-tie-break", "mtlearn-lowercase", "mtlearn-tokenize", "mtlearn-alignment",
            "mtlearn-score", "mtlearn-summary", "mtlearn-message"} <= dom_classes(x)
    assert {"Candidate", "References", "exact", "stem", "synonym", "alpha", "beta", "gamma",
            "Tie-break"} <= descriptions(x)


def test_meteor_explorer_language_dropdown_scores_spanish():
    from mtlearn.metrics.meteor.options import LANGUAGES

    x = MeteorExplorer("los gatos comen", ["el gato come"], stages=["exact", "stem"])
    assert isinstance(x.language_input, widgets.Dropdown) and tuple(x.language_input.options) == LANGUAGES
    assert "mtlearn-language" in dom_classes(x) and x.language_input.value == "en"
    x.language_input.value = "es"
    direct = meteor("los gatos comen", ["el gato come"], stages=["exact", "stem"], language="es")
    assert x.error is None and x.result == direct and "lang:es" in x.summary_html.value
    x.set_inputs(stages=["exact", "stem", "synonym"])  # the box stays ticked: the stage is left out, said
    assert x.error is None and x.result.stages == ("exact", "stem")
    assert x.notes == ["synonym stage skipped: no Spanish WordNet offline"]
    x.set_inputs(stages=["synonym"])
    assert x.error == "stages: no synonym stage for language 'es'; tick exact or stem"
    with pytest.raises(ValueError, match="language: unknown value 'fr'; choose one of en, es"):
        MeteorExplorer("a", ["a"], stages=["exact"], language="fr")


def test_meteor_explorer_says_stem_and_synonym_are_english_only():
    x = MeteorExplorer("die Katzen saßen", ["die Katze saß"], stages=["exact", "stem"])
    assert "English only" in x.languages_html.value and x.languages_html in x.children
    assert x.result.matches_per_stage.get("stem", 0) == 0  # what the line warns of: no German stem match

"""mtlearn.show.widgets, headless: set the controls in Python, read the numbers the widget renders.

The rendered numbers are read from the HTML (``data-name``/``data-value`` spans) and
compared with mtlearn.bleu / mtlearn.meteor called directly, and with the
documents' own numbers.
"""

from __future__ import annotations

import asyncio
import html
import math
import random
from fractions import Fraction
from html.parser import HTMLParser

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402

from mtlearn import bleu, chrf, meteor, ter  # noqa: E402
from mtlearn.examples import bleu as bleu_examples  # noqa: E402
from mtlearn.examples.meteor import ROW_1, ROW_1_CHUNKS_SCORE, TABLE  # noqa: E402
from mtlearn.show import plots  # noqa: E402
from mtlearn.show.plots import crossing_points, find_gid, marker_points  # noqa: E402
from mtlearn.study import agreement  # noqa: E402
from mtlearn.show.widgets import (  # noqa: E402
    PICTURE_MAX_WORDS, PICTURE_PAUSE_S, TYPING_PAUSE_S, AgreementExplorer, BleuExplorer, ChrfExplorer,
    MeteorExplorer, TerExplorer, typing_pause)
from mtlearn.show import widgets as explorer_module  # noqa: E402
from mtlearn.metrics.meteor.explain import search_note  # noqa: E402
from mtlearn.metrics.meteor.wordnet import WordNetMissingError, wordnet_available  # noqa: E402


class _Numbers(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.exact: dict[str, str] = {}
        self.row_classes: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-name" in a:
            self.values[a["data-name"]] = a["data-value"]
            if "data-exact" in a:
                self.exact[a["data-name"]] = a["data-exact"]
        if tag == "tr" and a.get("class"):
            self.row_classes.append(a["class"])


def numbers(*html_widgets: widgets.HTML) -> _Numbers:
    parser = _Numbers()
    for w in html_widgets:
        parser.feed(w.value)
    return parser


def value(x, name: str) -> float:
    boxes = [x.score_html, x.summary_html] + [getattr(x, a) for a in ("table_html", "shifts_html") if hasattr(x, a)]
    return float(numbers(*boxes).values[name])


def dom_classes(widget) -> set[str]:
    found = set(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        found |= dom_classes(child)
    return found


def descriptions(widget) -> set[str]:
    found = {widget.description} if getattr(widget, "description", "") else set()
    for child in getattr(widget, "children", ()):
        found |= descriptions(child)
    return found


# --------------------------------------------------------------------------- BLEU


def test_bleu_renders_the_library_numbers():
    cand = "It is a guide to action which ensures that the military always obeys the commands of the party"
    refs = list(bleu_examples.PAPINENI_GUIDE_CANDIDATE_1.references)
    x = BleuExplorer(cand, refs, max_order=2)
    direct = bleu(cand, refs, max_order=2)
    n = numbers(x.score_html, x.summary_html)
    assert float(n.values["score"]) == direct.score
    assert float(n.values["brevity-penalty"]) == direct.brevity_penalty
    assert float(n.values["geometric-mean"]) == direct.geometric_mean
    assert int(n.values["candidate-length"]) == direct.candidate_length == 18
    # Papineni's own counts: 17/18 and 10/17.
    assert [(int(n.values[f"matches-{k}"]), int(n.values[f"totals-{k}"])) for k in (1, 2)] == [(17, 18), (10, 17)]
    assert [float(n.values[f"precision-{k}"]) for k in (1, 2)] == list(direct.precisions)
    assert [float(n.values[f"weight-{k}"]) for k in (1, 2)] == [0.5, 0.5]
    assert x.result == direct


def test_bleu_example_c_brevity_penalty():
    ex = bleu_examples.DIGEST_8_BREVITY
    x = BleuExplorer(ex.candidate, list(ex.references), max_order=ex.max_order)
    assert value(x, "brevity-penalty") == pytest.approx(math.exp(1 - 6 / 2))
    assert round(value(x, "score"), 2) == ex.expected_score
    assert "BLEU = " in x.score_html.value


def test_bleu_clipping_marked_in_the_table():
    ex = bleu_examples.PAPINENI_THE_THE
    x = BleuExplorer(ex.candidate, list(ex.references), max_order=1, lowercase=True)
    assert numbers(x.table_html).row_classes == ["mtlearn-clipped"]
    assert "2/7" in x.table_html.value
    assert Fraction(int(value(x, "matches-1")), int(value(x, "totals-1"))) == ex.expected_precisions[0]


def test_bleu_table_rows_follow_the_ngram_table():
    ex = bleu_examples.DIGEST_6_PRECISIONS
    x = BleuExplorer(ex.candidate, list(ex.references))
    expected = []
    for n in range(1, 5):
        for row in x.result.ngram_table(n):
            if row.max_reference_count == 0:
                expected.append("mtlearn-unmatched")
            elif row.clipped_count < row.candidate_count:
                expected.append("mtlearn-clipped")
            else:
                expected.append("mtlearn-matched")
    assert numbers(x.table_html).row_classes == expected
    assert expected.count("mtlearn-clipped") == 1  # the second "B"


@pytest.mark.parametrize(
    "control, new, options",
    [
        ("max_order_input", 2, dict(max_order=2)),
        ("smoothing_input", "exp", dict(smoothing="exp")),
        ("smoothing_input", "method1", dict(smoothing="method1")),
        ("tokenize_input", "13a", dict(tokenize="13a")),
        ("lowercase_input", True, dict(lowercase=True)),
        ("effective_order_input", True, dict(effective_order=True)),
        ("weights_input", "1/2, 1/4, 1/8, 1/8", dict(weights=[0.5, 0.25, 0.125, 0.125])),
    ],
)
def test_bleu_each_control_updates_live(control, new, options):
    cand, refs = "The cat sat on the mat.", ["the cat is on the mat .", "A cat sat on a mat."]
    x = BleuExplorer(cand, refs)
    assert x.result == bleu(cand, refs)
    getattr(x, control).value = new
    direct = bleu(cand, refs, **options)
    assert x.result == direct
    assert value(x, "score") == direct.score
    for k in range(1, direct.max_order + 1):
        assert value(x, f"precision-{k}") == direct.precisions[k - 1]


def test_bleu_typing_the_candidate_updates():
    x = BleuExplorer("A B", ["A B C D E F"], max_order=2)
    x.candidate_input.value = "A B B C D"
    assert value(x, "score") == bleu("A B B C D", ["A B C D E F"], max_order=2).score
    x.references_input.value = "A B C D E F\nA B B C D"
    assert value(x, "score") == 1.0


def test_bleu_set_inputs_recomputes_once(monkeypatch):
    x = BleuExplorer("a b c", ["a b c"])
    calls = []
    original = x.refresh
    monkeypatch.setattr(x, "refresh", lambda: (calls.append(1), original())[1])
    x.set_inputs(candidate="a b", references=["a b", "a c"], max_order=2, weights=[0.5, 0.5])
    assert calls == [1]
    assert x.result == bleu("a b", ["a b", "a c"], max_order=2)


def test_bleu_empty_candidate_shows_the_reason():
    x = BleuExplorer("", ["the cat"])
    assert x.error is None
    assert value(x, "score") == 0.0
    assert "candidate is empty" in x.message_html.value
    assert "mtlearn-note" in x.message_html.value


def test_bleu_no_references_shows_an_error():
    x = BleuExplorer("the cat", "\n  \n")
    assert x.result is None
    assert x.error == "references: give at least one reference, one per line"
    assert "mtlearn-error" in x.message_html._dom_classes
    assert 'class="mtlearn-error"' in x.message_html.value
    assert x.summary_html.value == "" and x.table_html.value == ""
    x.references_input.value = "the cat"
    assert x.error is None and "mtlearn-error" not in x.message_html._dom_classes
    assert value(x, "score") == bleu("the cat", ["the cat"]).score


def test_bleu_unreadable_weights():
    x = BleuExplorer("a b", ["a b"], max_order=2)
    x.weights_input.value = "0.5, half"
    assert x.result is None and x.error.startswith("weights: cannot read 'half'")


def test_bleu_weights_of_wrong_length():
    x = BleuExplorer("a b", ["a b"], max_order=2)
    x.weights_input.value = "0.2, 0.3, 0.5"
    assert x.result is None and x.error.startswith("weights: 3 weights given for max_order=2")


def test_bleu_weights_not_summing_to_one_is_a_note():
    x = BleuExplorer("A B B C D", ["A B C D E F"], max_order=2)
    x.weights_input.value = "1/2, 1/4"
    assert x.error is None
    assert "sum to 0.75" in x.message_html.value
    assert x.result.score == pytest.approx(math.exp(1 - 6 / 5) * (4 / 5) ** 0.5 * (3 / 4) ** 0.25)


def test_bleu_method6_needs_order_3():
    x = BleuExplorer("a b c", ["a b c"])
    x.set_inputs(smoothing="method6", max_order=2)
    assert x.result is None and x.error.startswith("smoothing: method6 needs max_order >= 3")


def test_bleu_constructor_checks_arguments():
    with pytest.raises(ValueError, match="^smoothing: "):
        BleuExplorer("a", ["a"], smoothing="laplace")


def test_bleu_constructor_references_type():
    with pytest.raises(TypeError, match="^references: "):
        BleuExplorer("a", [1, 2])  # type: ignore[list-item]


def test_bleu_set_inputs_unknown_name():
    with pytest.raises(TypeError, match="^colour: not an input"):
        BleuExplorer("a", ["a"]).set_inputs(colour="red")


def test_bleu_is_a_displayable_widget_with_css_classes():
    x = BleuExplorer("a b", ["a b"])
    assert isinstance(x, widgets.VBox) and x.widget is x
    assert "application/vnd.jupyter.widget-view+json" in x._repr_mimebundle_()
    assert {"mtlearn-bleu-explorer", "mtlearn-candidate", "mtlearn-references", "mtlearn-max-order",
            "mtlearn-smoothing", "mtlearn-tokenize", "mtlearn-lowercase", "mtlearn-effective-order",
            "mtlearn-weights", "mtlearn-score", "mtlearn-summary", "mtlearn-ngram-table",
            "mtlearn-message"} <= dom_classes(x)
    assert {"Candidate", "References", "Max order", "Smoothing", "Tokenizer", "Lowercase",
            "Effective order", "Weights"} <= descriptions(x)


# --------------------------------------------------------------------------- METEOR


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


def _words(n: int, prefix: str = "w") -> str:
    return " ".join(f"{prefix}{k}" for k in range(n))


@pytest.mark.parametrize("cand_words, ref_words", [(PICTURE_MAX_WORDS + 1, PICTURE_MAX_WORDS + 1),
                                                   (5, PICTURE_MAX_WORDS + 1), (PICTURE_MAX_WORDS + 1, 5)])
def test_meteor_long_input_shows_the_numbers_and_a_note_instead_of_the_picture(cand_words, ref_words):
    cand, ref = _words(cand_words), _words(ref_words)
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
    x.candidate_input.value = _words(PICTURE_MAX_WORDS)
    x.references_input.value = _words(PICTURE_MAX_WORDS)
    assert x.figure is not None and bytes(x.image.value[:4]) == b"\x89PNG" and x.image.layout.display is None
    assert not [n for n in x.notes if "picture" in n]


def test_the_typing_pause_grows_with_a_slow_score():
    assert typing_pause(0.0) == TYPING_PAUSE_S
    assert typing_pause(0.3) == 0.6 > TYPING_PAUSE_S
    assert typing_pause(100.0) == explorer_module.MAX_TYPING_PAUSE_S


@pytest.mark.parametrize("make, typed", [
    (lambda: MeteorExplorer("the cat sat", ["the cat sat on the mat"], stages=["exact"]), "the mat sat"),
    (lambda: ChrfExplorer("the cat sat", ["the cat sat on the mat"]), "the mat sat"),
    (lambda: TerExplorer("the cat sat", ["the cat sat on the mat"]), "the mat sat"),
])
def test_a_typed_change_shows_its_numbers_first_and_its_picture_after_a_further_pause(make, typed):
    def set_from_python(text):  # the same explorer, the text set from a cell: computed and drawn at once
        y = make()
        y.candidate_input.value = text
        return y

    async def session() -> None:
        x = make()
        old_png, old_figure = bytes(x.image.value), x.figure
        _typed(x.candidate_input, typed)
        await asyncio.sleep(typing_pause(0.0) + 0.25)
        want = set_from_python(typed)
        assert x.score_html.value == want.score_html.value and x.summary_html.value == want.summary_html.value
        assert x.figure is old_figure and bytes(x.image.value) == old_png  # the picture: not yet
        await asyncio.sleep(PICTURE_PAUSE_S + 1.5)
        assert bytes(x.image.value) == bytes(want.image.value) != old_png  # drawn
        # A key during the picture's pause cancels it: only the last text is drawn.
        _typed(x.candidate_input, "the cat")
        await asyncio.sleep(typing_pause(0.0) + 0.1)
        _typed(x.candidate_input, "the dog")
        await asyncio.sleep(typing_pause(0.0) + PICTURE_PAUSE_S + 1.5)
        last = set_from_python("the dog")
        assert x.score_html.value == last.score_html.value
        assert bytes(x.image.value) == bytes(last.image.value)

    asyncio.run(session())


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


def _typed(box: widgets.Textarea, text: str) -> None:
    """What ipywidgets does when the browser sends a text box's new value."""
    box.set_state({"value": text})


def _counting(monkeypatch, x) -> list[int]:
    calls: list[int] = []
    original = x.refresh
    monkeypatch.setattr(x, "refresh", lambda: (calls.append(1), original())[1])
    return calls


def test_typing_without_a_running_loop_refreshes_at_once(monkeypatch):
    # A script, a doctest, nbval's headless checks: no asyncio loop runs, so no pause either.
    x = BleuExplorer("a b c", ["a b c d"], max_order=2)
    calls = _counting(monkeypatch, x)
    _typed(x.candidate_input, "a b c d")
    assert calls == [1] and x.result == bleu("a b c d", ["a b c d"], max_order=2)
    _typed(x.references_input, "a b\na c")
    assert calls == [1, 1] and x.result == bleu("a b c d", ["a b", "a c"], max_order=2)
    m = MeteorExplorer("the cat", ["the cat"], stages=["exact"])
    _typed(m.candidate_input, "cat the")
    assert m.result == meteor("cat the", ["the cat"], stages=["exact"])


def test_typing_in_the_browser_waits_for_a_pause(monkeypatch):
    pause = 0.3  # longer than the default, so that a loaded machine's late wake-ups cannot fail the test
    monkeypatch.setattr(explorer_module, "TYPING_PAUSE_S", pause)

    async def session() -> None:
        x = BleuExplorer("a b c", ["a b c d"], max_order=2)
        calls = _counting(monkeypatch, x)
        for text in ("a", "a b", "a b c d"):  # three keys in quick succession
            _typed(x.candidate_input, text)
        assert calls == [] and x.result == bleu("a b c", ["a b c d"], max_order=2)  # not yet
        await asyncio.sleep(pause / 2)
        _typed(x.candidate_input, "a b c d e")  # a key within the pause restarts it
        await asyncio.sleep(pause * 0.7)
        assert calls == []
        await asyncio.sleep(pause)
        assert calls == [1] and x.result == bleu("a b c d e", ["a b c d"], max_order=2)  # once, the last text
        # A slider refreshes at once, and computes a typed change still waiting (which then does not run).
        _typed(x.references_input, "a b c d e")
        x.max_order_input.value = 3
        assert calls == [1, 1] and x.result == bleu("a b c d e", ["a b c d e"], max_order=3)
        await asyncio.sleep(pause * 1.5)
        assert calls == [1, 1]
        # A value set from Python (a notebook cell) is not typing: at once, loop or not.
        x.candidate_input.value = "a"
        assert calls == [1, 1, 1] and x.result == bleu("a", ["a b c d e"], max_order=3)

    asyncio.run(session())


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
@pytest.mark.skipif(not wordnet_available(), reason="WordNet for NLTK is not installed (python -m mtlearn.metrics.meteor.wordnet)")
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



# --------------------------------------------------------------------------- chrF


def _order_key(o) -> str:
    return f"{'c' if o.kind == 'char' else 'w'}{o.n}"


def test_chrf_renders_the_library_numbers():
    cand, refs = "the cats sat on the mats", ["the cat sat on the mat"]
    x = ChrfExplorer(cand, refs, word_order=2)
    direct = chrf(cand, refs, word_order=2)
    assert x.result == direct and x.error is None
    n = numbers(x.score_html, x.summary_html, x.table_html)
    assert float(n.values["score"]) == direct.score
    assert float(n.values["precision"]) == direct.precision and float(n.values["recall"]) == direct.recall
    assert float(n.values["f-beta"]) == direct.f_beta
    for o in direct.orders:
        k = _order_key(o)
        assert [int(n.values[f"{name}-{k}"]) for name in ("candidate-count", "reference-count", "matched")] == [
            o.candidate_count, o.reference_count, o.matched]
        assert n.exact[f"precision-{k}"] == str(o.precision) and n.exact[f"recall-{k}"] == str(o.recall)
        assert float(n.values[f"f-{k}"]) == o.f
    assert "chrF2++ = " in x.score_html.value
    assert numbers(x.table_html).row_classes == ["mtlearn-order"] * 8


def test_chrf_picture_matches_the_result():
    x = ChrfExplorer("the cats sat", ["the cat sat"], char_order=3)
    ax = x.figure.axes[0]
    assert [b.get_height() for b in find_gid(ax, "recall-bar")] == [float(o.recall) for o in x.result.orders]
    assert bytes(x.image.value[:8]) == b"\x89PNG\r\n\x1a\n"
    first = bytes(x.image.value)
    x.char_order_input.value = 4
    assert len(find_gid(x.figure.axes[0], "recall-bar")) == 4 and bytes(x.image.value) != first


@pytest.mark.parametrize(
    "control, new, options",
    [
        ("char_order_input", 3, dict(char_order=3)),
        ("word_order_input", 2, dict(word_order=2)),
        ("beta_input", 1.0, dict(beta=1.0)),
        ("lowercase_input", True, dict(lowercase=True)),
        ("whitespace_input", True, dict(whitespace=True)),
        ("eps_smoothing_input", True, dict(eps_smoothing=True)),
    ],
)
def test_chrf_each_control_updates_live(control, new, options):
    cand, refs = "The cats sat on the mats.", ["the cat sat on the mat .", "A cat sat on a mat."]
    x = ChrfExplorer(cand, refs)
    assert x.result == chrf(cand, refs)
    getattr(x, control).value = new
    direct = chrf(cand, refs, **options)
    assert x.result == direct
    assert value(x, "score") == direct.score
    assert value(x, "precision") == direct.precision


def test_chrf_typing_the_candidate_updates():
    x = ChrfExplorer("the cat", ["the cat sat on the mat"])
    before = value(x, "score")
    x.candidate_input.value = "the cat sat on the mat"
    assert value(x, "score") == chrf("the cat sat on the mat", ["the cat sat on the mat"]).score == 1.0 != before


def test_chrf_several_references_shows_the_kept_one():
    refs = ["a dog ran off", "the cat sat down"]
    x = ChrfExplorer("the cat sat", "\n".join(refs))
    direct = chrf("the cat sat", refs)
    assert value(x, "best-reference") == direct.best_reference + 1 == 2
    assert [value(x, f"reference-score-{k}") for k in (1, 2)] == list(direct.reference_scores)
    assert html.escape(direct.reference_choice) in x.summary_html.value
    assert "reference 2 of 2 kept" in x.figure.axes[0].get_title()


def test_chrf_beta_slider_is_rounded():
    x = ChrfExplorer("the cats sat", ["the cat sat"])
    x.beta_input.value = 1.5000000000000002  # what a browser may send
    assert x.result.beta == 1.5


def test_chrf_bad_settings_show_a_message():
    x = ChrfExplorer("the cat", ["the cat"])
    x.beta_input.value = 0.0
    assert x.result is None and x.error.startswith("beta:")
    assert "mtlearn-error" in x.message_html._dom_classes and x.table_html.value == ""
    assert bytes(x.image.value) == b"" and x.figure is None
    x.beta_input.value = 2.0
    x.set_inputs(char_order=0, word_order=0)
    assert x.result is None and x.error.startswith("char_order:")
    x.set_inputs(char_order=6)
    assert x.error is None and "mtlearn-error" not in x.message_html._dom_classes


def test_chrf_no_references():
    x = ChrfExplorer("the cat", " \n ")
    assert x.result is None and x.error == "references: give at least one reference, one per line"


def test_chrf_empty_candidate_shows_the_reason():
    x = ChrfExplorer("", ["the cat"])
    assert x.error is None and value(x, "score") == 0.0
    assert x.result.reason and html.escape(x.result.reason) in x.message_html.value
    assert "mtlearn-note" in x.message_html.value
    assert numbers(x.table_html).row_classes == ["mtlearn-unused-order"] * 6


def test_chrf_constructor_checks_arguments():
    with pytest.raises(ValueError, match="^beta: "):
        ChrfExplorer("a", ["a"], beta=-1)
    with pytest.raises(ValueError, match="^char_order: the explorer's slider goes up to 10"):
        ChrfExplorer("a", ["a"], char_order=12)
    with pytest.raises(TypeError, match="^references: "):
        ChrfExplorer("a", [1])  # type: ignore[list-item]


def test_chrf_set_inputs_recomputes_once(monkeypatch):
    x = ChrfExplorer("a b c", ["a b c"])
    calls = []
    original = x.refresh
    monkeypatch.setattr(x, "refresh", lambda: (calls.append(1), original())[1])
    x.set_inputs(candidate="a b", references=["a b", "a c"], word_order=2, beta=1)
    assert calls == [1]
    assert x.result == chrf("a b", ["a b", "a c"], word_order=2, beta=1)
    with pytest.raises(TypeError, match="^tokenize: not an input of ChrfExplorer"):
        x.set_inputs(tokenize="13a")


def test_chrf_is_a_displayable_widget_with_css_classes():
    x = ChrfExplorer("a b", ["a b"])
    assert isinstance(x, widgets.VBox) and x.widget is x
    assert "application/vnd.jupyter.widget-view+json" in x._repr_mimebundle_()
    assert {"mtlearn-chrf-explorer", "mtlearn-candidate", "mtlearn-references", "mtlearn-char-order",
            "mtlearn-word-order", "mtlearn-chrf-beta", "mtlearn-lowercase", "mtlearn-whitespace",
            "mtlearn-eps-smoothing", "mtlearn-score", "mtlearn-summary", "mtlearn-order-table",
            "mtlearn-chrf-plot", "mtlearn-message"} <= dom_classes(x)
    assert {"Candidate", "References", "Char order", "Word order", "beta", "Lowercase", "Whitespace",
            "Eps smoothing"} <= descriptions(x)


# --------------------------------------------------------------------------- TER


def test_ter_renders_the_library_numbers():
    cand, refs = "the cat sat on the mat today", ["today the two cats sat on the mat"]
    x = TerExplorer(cand, refs)
    direct = ter(cand, refs)
    assert x.result == direct and x.error is None
    n = numbers(x.score_html, x.summary_html, x.shifts_html).values
    counts = direct.counts()
    assert float(n["score"]) == direct.score == 3 / 8
    assert int(n["edits"]) == direct.num_edits == 3 and float(n["reference-length"]) == direct.reference_length
    assert [int(n[k]) for k in ("shifts", "substitutions", "insertions", "deletions", "matches")] == [
        counts["shift"], counts["substitute"], counts["insert"], counts["delete"], counts["match"]] == [1, 1, 1, 0, 6]
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
    assert find_gid(x.figure.axes[0], "shift-arrow") == [] and len(find_gid(x.figure.axes[0], "substitute")) == 1
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
    assert value(x, "score") == ter("the cat sat on the mat", ["The cat sat on the mat"], case_sensitive=True).score > 0


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


# --------------------------------------------------------------------------- agreement with people


def _ranked_by_humans(pair):
    return [s.system for s in sorted(agreement.system_scores(pair, scored_only=True),
                                     key=lambda s: s.human_z, reverse=True)]


@pytest.mark.parametrize("first, second", [("LanguageX", "NAIST-NICT-TIT"), ("NAIST-NICT-TIT", "LanguageX")])
def test_agreement_renders_the_table_numbers_in_the_chosen_order(first, second):
    x = AgreementExplorer("ja-en", first, second)
    c = agreement.compare_systems("ja-en", first, second)
    n = numbers(x.score_html, x.summary_html).values
    scores = {s.system: s for s in agreement.system_scores("ja-en")}
    assert float(n["human-1"]) == scores[first].human_z and float(n["human-2"]) == scores[second].human_z
    for m in agreement.SIGNIFICANCE_METRICS:
        assert float(n[f"{m}-1"]) == scores[first].metric(m) and float(n[f"{m}-2"]) == scores[second].metric(m)
        assert float(n[f"{m}-p"]) == c.metric(m).p_value
    assert float(n["human-p"]) == c.human_p
    assert n["agreeing"] == c.agreeing == x.result.agreeing
    assert x.result == c and x.error is None
    assert bytes(x.image.value[:4]) == b"\x89PNG"
    # The picture is the pair's, with the two systems ringed.
    ax = x.figure.axes[0]
    assert len(x.figure.axes) == 2 and len(find_gid(ax, "highlight")[0].get_xdata()) == 2


def test_agreement_defaults_to_the_humans_top_two():
    x = AgreementExplorer("cs-en")
    assert [x.system_1_input.value, x.system_2_input.value] == _ranked_by_humans("cs-en")[:2]


def test_agreement_new_pair_offers_its_systems():
    x = AgreementExplorer("de-en")
    x.pair_input.value = "zh-en"
    names = [s.system for s in agreement.system_scores("zh-en", scored_only=True)]
    assert list(x.system_1_input.options) == names == list(x.system_2_input.options)
    assert [x.system_1_input.value, x.system_2_input.value] == _ranked_by_humans("zh-en")[:2]
    assert x.result.pair == "zh-en" and x.error is None


def test_agreement_new_pair_recomputes_once(monkeypatch):
    x = AgreementExplorer("de-en")
    calls = []
    original = x.refresh
    monkeypatch.setattr(x, "refresh", lambda: (calls.append(1), original())[1])
    x.pair_input.value = "ru-en"
    assert len(calls) == 1


def test_agreement_changing_a_system_updates():
    x = AgreementExplorer("de-en", "Lan-Bridge", "Online-W")
    x.system_2_input.value = "Online-G"
    assert x.result == agreement.compare_systems("de-en", "Lan-Bridge", "Online-G")


def test_agreement_same_system_twice_is_an_error_in_the_widget():
    x = AgreementExplorer("de-en", "Lan-Bridge", "Online-W")
    x.system_2_input.value = "Lan-Bridge"
    assert x.result is None and x.error.startswith("system_2: 'Lan-Bridge' is system_1 too")
    assert "mtlearn-error" in x.message_html._dom_classes
    x.system_2_input.value = "LT22"
    assert x.error is None and x.result.system_b == "LT22"


def test_agreement_set_inputs_applies_the_pair_first():
    x = AgreementExplorer()
    x.set_inputs(system_1="ALMAnaCH-Inria", pair="ru-en", system_2="SRPOL")
    assert (x.result.pair, {x.result.system_a, x.result.system_b}) == ("ru-en", {"ALMAnaCH-Inria", "SRPOL"})
    with pytest.raises(TypeError, match="^metric: not an input of AgreementExplorer"):
        x.set_inputs(metric="bleu")


@pytest.mark.parametrize("args, message", [
    (("xx-en",), "^pair: unknown pair 'xx-en'"),
    (("de-en", "Nobody"), "^system_1: unknown system 'Nobody' in de-en"),
    (("de-en", "LT22", "HUMAN-B"), "^system_2: 'HUMAN-B' is a human translation"),
    (("de-en", "LT22", "LT22"), "^system_2: 'LT22' is system_1 too"),
])
def test_agreement_constructor_checks_arguments(args, message):
    with pytest.raises(ValueError, match=message):
        AgreementExplorer(*args)


def test_agreement_is_a_displayable_widget_with_css_classes():
    x = AgreementExplorer()
    assert isinstance(x, widgets.VBox) and x.widget is x
    assert "application/vnd.jupyter.widget-view+json" in x._repr_mimebundle_()
    assert {"mtlearn-agreement-explorer", "mtlearn-pair", "mtlearn-system-1", "mtlearn-system-2",
            "mtlearn-agreement-plot", "mtlearn-score", "mtlearn-summary", "mtlearn-message",
            "mtlearn-leave-out", "mtlearn-agreement-moves"} <= dom_classes(x)
    assert {"Pair", "System 1", "System 2", "Leave out"} <= descriptions(x)


def test_agreement_leave_out_moves_the_correlations_and_the_picture():
    x = AgreementExplorer("ja-en", "LanguageX", "NAIST-NICT-TIT")
    assert x.moves == {} and x.moves_html.value == "" and list(x.leave_out_input.options)[0] == "(nobody)"
    assert len(marker_points(x.figure.axes[0])) == 14
    x.leave_out_input.value = "AIST"
    n = numbers(x.moves_html).values
    for m in agreement.METRICS:
        ref = agreement.default_reference("ja-en", m)
        r_all = agreement.system_correlation("ja-en", m, reference=ref).value
        r_out = agreement.correlate_systems("ja-en", m, exclude=["AIST"], reference=ref)
        rho_out = agreement.correlate_systems("ja-en", m, statistic="spearman", exclude=["AIST"], reference=ref)
        assert (float(n[f"{m}-r"]), float(n[f"{m}-r-without"]), float(n[f"{m}-rho-without"])) == (r_all, r_out, rho_out)
        assert x.moves[m][:2] == (r_all, r_out)
    assert len(marker_points(x.figure.axes[0])) == 13 and "without AIST" in x.figure.axes[0].get_title()
    x.leave_out_input.value = "(nobody)"
    assert x.moves == {} and len(marker_points(x.figure.axes[0])) == 14


def test_agreement_leave_out_resets_with_the_pair_and_refuses_a_compared_system():
    x = AgreementExplorer("ja-en", leave_out="AIST")
    x.pair_input.value = "de-en"
    assert x.leave_out_input.value == "(nobody)" and "AIST" not in x.leave_out_input.options
    x.set_inputs(leave_out=x.system_1_input.value)
    assert x.result is None and x.error.startswith("leave_out: ") and "one of the two systems compared" in x.error
    x.set_inputs(leave_out=None)
    assert x.error is None and x.moves == {}
    with pytest.raises(ValueError, match="^leave_out: 'HUMAN-B' is a human translation"):
        AgreementExplorer("de-en", leave_out="HUMAN-B")


def test_meteor_explorer_says_stem_and_synonym_are_english_only():
    x = MeteorExplorer("die Katzen saßen", ["die Katze saß"], stages=["exact", "stem"])
    assert "English only" in x.languages_html.value and x.languages_html in x.children
    assert x.result.matches_per_stage.get("stem", 0) == 0  # what the line warns of: no German stem match


def test_bleu_tables_can_start_folded():
    folded = BleuExplorer("the cat sat", ["the cat sat on the mat"], tables_open=False)
    opened = BleuExplorer("the cat sat", ["the cat sat on the mat"])
    assert folded.table_html.value.startswith('<details class="mtlearn-ngram-details"><summary>')
    assert opened.table_html.value.startswith('<details class="mtlearn-ngram-details" open><summary>')
    assert folded.table_html.value.count('class="mtlearn-ngrams"') == 4  # the tables are all there, folded
    folded.candidate_input.value = "the cat"
    assert " open>" not in folded.table_html.value.split("<summary>")[0]  # stays folded after a change
    with pytest.raises(TypeError, match="tables_open"):
        BleuExplorer("a", ["a"], tables_open="no")


# --------------------------------------------------------------------------- what a browser may send
#
# A participant's page can send any widget message, not only what the controls let a person do:
# ipywidgets applies every synced trait a comm message carries (``set_state``, what a front end's
# "update" message calls). Each case runs in a forked child that must answer within a generous
# time: before the explorers bounded these messages, each pinned the kernel for minutes.

ANSWER_S = 30  # generous: each answers in well under a second


def in_time(work, seconds: float = ANSWER_S):
    """``work()`` in a forked child; its (picklable) result, or a failure if it has not answered in ``seconds``."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=lambda: send.send(work()))
    child.start()
    child.join(seconds)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail(f"the explorer did not answer within {seconds} s (the child was killed)")
    assert receive.poll(), f"the child died without an answer (exit code {child.exitcode})"
    return receive.recv()


def _slider_cases():
    pair = ("The cats sat on the mats.", ["The cat sat on the mat."])
    return {
        # The reproducers: chrF's char order at 1e9 (161 -> 611 MB in 30 s), BLEU's max order at
        # 1e5 (> 60 s); and every other slider, with its top as the explorer sets it.
        "chrf char_order": (lambda: ChrfExplorer(*pair), "char_order_input", 10**9, 10),
        "chrf word_order": (lambda: ChrfExplorer(*pair), "word_order_input", 10**9, 4),
        "chrf beta": (lambda: ChrfExplorer(*pair), "beta_input", 1e300, 6.0),
        "bleu max_order": (lambda: BleuExplorer(*pair), "max_order_input", 10**5, 6),
        "meteor alpha": (lambda: MeteorExplorer(*pair, stages=["exact"]), "alpha_input", 1e9, 1.0),
        "meteor beta": (lambda: MeteorExplorer(*pair, stages=["exact"]), "beta_input", 1e9, 6.0),
        "meteor gamma": (lambda: MeteorExplorer(*pair, stages=["exact"]), "gamma_input", 1e9, 1.0),
    }


@pytest.mark.parametrize("case", list(_slider_cases()))
def test_a_browser_message_cannot_move_a_slider_past_its_range(case):
    make, name, huge, top = _slider_cases()[case]

    def work():
        x = make()
        slider = getattr(x, name)
        low = slider.min
        slider.set_state({"min": -huge, "max": huge, "value": huge})  # a front end's "update" message
        return slider.min == low, slider.max, slider.value, x.error, x.result is not None

    same_min, high, moved, error, scored = in_time(work)
    assert (high, moved) == (top, top) and same_min and error is None and scored


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "a lot", [1, 2]])
def test_a_browser_message_with_a_value_of_the_wrong_kind_changes_nothing(bad):
    x = ChrfExplorer("The cats sat on the mats.", ["The cat sat on the mat."])
    before = x.result.score
    for slider in (x.char_order_input, x.beta_input):
        kept = slider.value
        slider.set_state({"value": bad})
        assert slider.value == kept
    x.lowercase_input.set_state({"value": bad})
    assert x.lowercase_input.value is False
    assert x.result.score == before and x.error is None


def test_a_browser_message_changes_a_controls_value_only():
    x = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"])
    x.smoothing_input.set_state({"_options_labels": ["x"] * 10**5, "index": 3})
    assert x.smoothing_input.options == tuple(explorer_module.SMOOTHING_METHODS)
    assert x.smoothing_input.index == 3 and x.result.smoothing == x.smoothing_input.value
    x.smoothing_input.set_state({"index": 10**9})  # no such choice: refused, nothing changes
    assert x.smoothing_input.index == 3
    x.candidate_input.set_state({"description": "<script>", "disabled": True, "value": "the cat"})
    assert x.candidate_input.description == "Candidate" and not x.candidate_input.disabled
    assert x.result.candidate_length == 2  # the value itself is typed text, taken as ever


@pytest.mark.parametrize("typed, message", [
    ("1e300000000", "exponent"),  # the reproducer: Fraction would build a number of 300 million digits
    ("1e-300000000", "exponent"),
    ("0.25 " * 50, "characters"),
])
def test_the_weights_box_refuses_huge_numbers_before_reading_them(typed, message):
    def work():
        x = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"])
        x.weights_input.set_state({"value": typed})
        return x.error, x.result is None

    error, cleared = in_time(work)
    assert cleared and error.startswith("weights: ") and message in error, error


def test_the_weights_box_still_reads_exponents_of_a_sane_size():
    x = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"], max_order=2)
    x.weights_input.set_state({"value": "5e-1, 50e-2"})
    assert x.error is None and list(x.result.effective_weights) == [0.5, 0.5]


# --------------------------------------------------------------------------- TER's picture, capped

def test_ter_long_input_shows_the_numbers_and_a_note_instead_of_the_picture():
    # The reproducer: 2,000 pasted words took the picture 28 s, 818 MB and an 18.5 MB PNG.
    words = plots.TER_PICTURE_MAX_WORDS + 1
    cand, ref = _words(words), _words(words - 1, "w") + " extra"

    def work():
        x = TerExplorer(cand, [ref])
        return x.result.num_edits, x.figure is None, bytes(x.image.value), x.image.layout.display, x.notes, x.error

    edits, no_figure, png, display, notes, error = in_time(work)
    assert edits == ter(cand, [ref]).num_edits and no_figure and png == b"" and display == "none"
    [note] = [n for n in notes if "picture" in n]
    assert f"{words} words" in note and str(plots.TER_PICTURE_MAX_WORDS) in note and error is None
    # Back to a size the picture is drawn for: the picture returns and the note goes.
    x = TerExplorer(cand, [ref])
    x.set_inputs(candidate=_words(plots.TER_PICTURE_MAX_WORDS), references=_words(plots.TER_PICTURE_MAX_WORDS))
    assert x.figure is not None and bytes(x.image.value[:4]) == b"\x89PNG" and x.image.layout.display is None
    assert not [n for n in x.notes if "picture" in n]


def test_ter_picture_of_two_thousand_words_is_refused_by_the_plot_itself():
    r = ter(_words(2000), [_words(2000)])
    with pytest.raises(ValueError, match=rf"^result: 2000 words on one side, above the "
                                         rf"{plots.TER_PICTURE_MAX_WORDS} the edit picture is drawn for"):
        plots.plot_ter_edits(r)
    c = explorer_module.plots.plot_ter_edits(ter(_words(70), [_words(70)]), max_words=70)  # a bigger cap, asked for
    assert len(find_gid(c.axes[0], "match")) == 70

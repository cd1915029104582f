"""What every explorer shares: typing waits for a pause, pictures after the numbers, and a browser
message sets a control's value only, in range (the workshop's hardening relies on it)."""

from __future__ import annotations

import asyncio

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402
from explorer_html import in_time  # noqa: E402

from mtlearn import bleu, meteor  # noqa: E402
from mtlearn.metrics.bleu.smoothing import SMOOTHING_METHODS  # noqa: E402
from mtlearn.show.explorers import (  # noqa: E402
    MAX_TYPING_PAUSE_S,
    PICTURE_PAUSE_S,
    TYPING_PAUSE_S,
    BleuExplorer,
    ChrfExplorer,
    MeteorExplorer,
    TerExplorer,
    typing_pause,
)
from mtlearn.show.explorers import _base as explorer_base  # noqa: E402


def test_the_typing_pause_grows_with_a_slow_score():
    assert typing_pause(0.0) == TYPING_PAUSE_S
    assert typing_pause(0.3) == 0.6 > TYPING_PAUSE_S
    assert typing_pause(100.0) == MAX_TYPING_PAUSE_S


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
    monkeypatch.setattr(explorer_base, "TYPING_PAUSE_S", pause)  # what typing_pause reads

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


# --------------------------------------------------------------------------- what a browser may send

#
# A participant's page can send any widget message, not only what the controls let a person do:
# ipywidgets applies every synced trait a comm message carries (``set_state``, what a front end's
# "update" message calls). Each case runs in a forked child that must answer within a generous
# time: before the explorers bounded these messages, each pinned the kernel for minutes.

def _slider_cases():
    pair = ("The cats sat on the mats.", ["The cat sat on the mat."])
    return {
        # The cases that ran away before: chrF's char order at 1e9 (161 -> 611 MB in 30 s), BLEU's max order
        # at 1e5 (> 60 s); and every other slider, with its top as the explorer sets it.
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
    assert x.smoothing_input.options == tuple(SMOOTHING_METHODS)
    assert x.smoothing_input.index == 3 and x.result.smoothing == x.smoothing_input.value
    x.smoothing_input.set_state({"index": 10**9})  # no such choice: refused, nothing changes
    assert x.smoothing_input.index == 3
    x.candidate_input.set_state({"description": "<script>", "disabled": True, "value": "the cat"})
    assert x.candidate_input.description == "Candidate" and not x.candidate_input.disabled
    assert x.result.candidate_length == 2  # the value itself is typed text, taken as ever

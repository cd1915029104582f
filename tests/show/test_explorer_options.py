"""The BLEU, METEOR, chrF and TER explorers' controls are their metric's options, declared once.

Every field of ``BleuOptions``, ``MeteorOptions``, ``ChrfOptions`` and ``TerOptions`` is a control
of its explorer (or named in the explorer's ``NOT_CONTROLS``, with the reason), starting at the
option's default, over the option's slider range, with the option's choices (an option with
neither, nor a flag, is a text box: BLEU's weights, empty for uniform); the constructor takes the
same defaults and refuses a value with the Options class's own message (or, for a value the
option takes but the slider cannot show, with the slider's range; BLEU's max-order slider
reaches a larger order given from Python instead).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402

from mtlearn.core.options import OptionSpec, check_flag, check_positive, option  # noqa: E402
from mtlearn.metrics.bleu.options import BleuOptions  # noqa: E402
from mtlearn.metrics.chrf.options import ChrfOptions  # noqa: E402
from mtlearn.show.explorers import BleuExplorer, ChrfExplorer, MeteorExplorer, TerExplorer  # noqa: E402

PAIR = ("the cat sat", ["the cat sat on the mat"])
#: The explorers whose controls are built from Options, each made as a student would (METEOR: exact only,
#: so that no test needs WordNet).
EXPLORERS = {
    "bleu": lambda **kw: BleuExplorer(*PAIR, **kw),
    "meteor": lambda **kw: MeteorExplorer(*PAIR, **{"stages": ["exact"], **kw}),
    "chrf": lambda **kw: ChrfExplorer(*PAIR, **kw),
    "ter": lambda **kw: TerExplorer(*PAIR, **kw),
}
CLASSES = {"bleu": BleuExplorer, "meteor": MeteorExplorer, "chrf": ChrfExplorer, "ter": TerExplorer}
#: The inputs that are no option: the two text boxes (and METEOR's one checkbox per stage).
TEXT_INPUTS = {"candidate", "references"}
#: The constructors' keywords that are no option: how the page starts.
PAGE_KEYWORDS = {"tables_open"}
#: The sliders that reach a larger value given from Python (the browser cannot move their end).
STRETCHING = {("bleu", "max_order")}


def unshown(explorer, options_class) -> list[str]:
    """The options of ``options_class`` that ``explorer`` neither shows nor names in NOT_CONTROLS."""
    return [spec.name for spec in options_class.specs()
            if spec.name not in explorer._inputs and spec.name not in type(explorer).NOT_CONTROLS]


def control_matches(control, spec: OptionSpec) -> list[str]:
    """What of ``spec`` ``control`` does not show (empty: the control is the spec's)."""
    wrong = []
    text_box = not spec.choices and spec.control is None and not isinstance(spec.default, bool)
    shown = "" if text_box and spec.default is None else spec.default  # an empty box: the default
    if control.value != shown:
        wrong.append(f"value {control.value!r} != default {spec.default!r}")
    if spec.choices:
        if not isinstance(control, widgets.Dropdown) or tuple(control.options) != spec.choices:
            wrong.append(f"not a dropdown of {spec.choices}")
    elif spec.control is not None:
        if not isinstance(control, (widgets.IntSlider, widgets.FloatSlider)):
            wrong.append("not a slider")
        elif (control.min, control.max, control.step) != spec.control:
            wrong.append(f"range {(control.min, control.max, control.step)} != {spec.control}")
    elif isinstance(spec.default, bool):
        if not isinstance(control, widgets.Checkbox):
            wrong.append("not a checkbox")
    elif not isinstance(control, widgets.Text):
        wrong.append("not a text box")
    return wrong


@pytest.mark.parametrize("metric", EXPLORERS)
def test_every_option_is_a_control_or_says_why_not(metric):
    explorer_class = CLASSES[metric]
    options_class = explorer_class.OPTIONS
    x = EXPLORERS[metric]()
    assert unshown(x, options_class) == []
    assert set(explorer_class.NOT_CONTROLS) <= {spec.name for spec in options_class.specs()}
    assert all(reason for reason in explorer_class.NOT_CONTROLS.values())
    # And no control that is not an option (METEOR's stages: one box per stage it offers).
    others = {name for name in x._inputs if not name.startswith("stage_")} - TEXT_INPUTS
    assert others <= {spec.name for spec in options_class.specs()}


def test_an_option_added_to_the_options_and_not_to_the_explorer_is_found():
    @dataclass(frozen=True)
    class MoreChrfOptions(ChrfOptions):
        sharpness: float = option(1.0, "a new option", check_positive, control=(0.0, 2.0, 0.5))

    assert unshown(ChrfExplorer(*PAIR), MoreChrfOptions) == ["sharpness"]

    @dataclass(frozen=True)
    class MoreBleuOptions(BleuOptions):
        brevity_off: bool = option(False, "a new switch", check_flag)

    assert unshown(BleuExplorer(*PAIR), MoreBleuOptions) == ["brevity_off"]


@pytest.mark.parametrize("metric", EXPLORERS)
def test_each_control_starts_at_its_default_over_its_range_with_its_choices(metric):
    explorer_class = CLASSES[metric]
    x = EXPLORERS[metric]()
    for spec in explorer_class.OPTIONS.specs():
        if spec.name in explorer_class.NOT_CONTROLS:
            continue
        assert control_matches(x._inputs[spec.name], spec) == [], spec.name


@pytest.mark.parametrize("metric", EXPLORERS)
def test_the_constructor_takes_the_options_defaults(metric):
    explorer_class = CLASSES[metric]
    keywords = {name: p.default for name, p in inspect.signature(explorer_class.__init__).parameters.items()
                if p.kind is inspect.Parameter.KEYWORD_ONLY and name not in PAGE_KEYWORDS}
    defaults = {spec.name: spec.default for spec in explorer_class.OPTIONS.specs()}
    assert keywords == {name: defaults[name] for name in keywords}  # each keyword is an option, its default
    assert set(defaults) - set(explorer_class.NOT_CONTROLS) <= set(keywords)  # every option with a control


#: Values each Options class refuses: the explorer says what the Options class says.
REFUSED = [
    ("bleu", "max_order", 0), ("bleu", "max_order", 2.5), ("bleu", "max_order", 10**8),
    ("bleu", "smoothing", "laplace"), ("bleu", "tokenize", "moses"), ("bleu", "lowercase", 1),
    ("bleu", "effective_order", "yes"), ("bleu", "weights", [0.5, 0.5]), ("bleu", "weights", "1/2 1/2"),
    ("bleu", "weights", [0, 0, 0, 0]),
    ("meteor", "alpha", 1.5), ("meteor", "gamma", 2), ("meteor", "beta", -1), ("meteor", "beta", 10**9),
    ("meteor", "tie_break", "random"), ("meteor", "tokenize", "moses"), ("meteor", "lowercase", 1),
    ("chrf", "beta", 0), ("chrf", "char_order", -1), ("chrf", "word_order", 2.5),
    ("chrf", "whitespace", "no"),
    ("ter", "normalized", "yes"), ("ter", "case_sensitive", None),
]


@pytest.mark.parametrize("metric, name, bad", REFUSED)
def test_a_refused_value_gets_the_options_message(metric, name, bad):
    with pytest.raises((ValueError, TypeError)) as expected:
        CLASSES[metric].OPTIONS(**{name: bad})
    with pytest.raises(type(expected.value)) as got:
        EXPLORERS[metric](**{name: bad})
    assert str(got.value) == str(expected.value)


def _beyond_each_slider():
    for metric, explorer_class in CLASSES.items():
        for spec in explorer_class.OPTIONS.specs():
            if spec.control is not None and (metric, spec.name) not in STRETCHING:
                low, high, step = spec.control
                yield metric, spec, type(spec.default)(high + step)


@pytest.mark.parametrize("metric, spec, value", list(_beyond_each_slider()),
                         ids=lambda v: v.name if isinstance(v, OptionSpec) else str(v))
def test_a_value_beyond_a_slider_is_refused_by_the_options_or_the_sliders_range(metric, spec, value):
    try:
        CLASSES[metric].OPTIONS(**{spec.name: value})
    except (ValueError, TypeError) as error:  # the option itself refuses it
        expected = str(error)
    else:  # the option takes it, the slider cannot show it
        expected = f"{spec.name}: the explorer's slider goes up to {spec.control[1]:g}, got {value!r}"
    with pytest.raises(ValueError) as got:
        EXPLORERS[metric](**{spec.name: value})
    assert str(got.value) == expected


@pytest.mark.parametrize("metric, name", sorted(STRETCHING))
def test_a_stretching_slider_reaches_a_larger_value_given_from_python(metric, name):
    spec = CLASSES[metric].OPTIONS.spec(name)
    low, high, step = spec.control
    beyond = type(spec.default)(high + 2 * step)
    slider = EXPLORERS[metric](**{name: beyond})._inputs[name]
    assert (slider.min, slider.max, slider.step, slider.value) == (low, beyond, step, beyond)
    slider = EXPLORERS[metric]()._inputs[name]
    assert (slider.min, slider.max, slider.step) == spec.control


@pytest.mark.parametrize("metric", EXPLORERS)
def test_a_browser_message_beyond_a_slider_stays_in_the_options_range(metric):
    # Clamped server-side: the workshop's hardening (tests/show/test_explorer_base.py) relies on it.
    x = EXPLORERS[metric]()
    for spec in CLASSES[metric].OPTIONS.specs():
        if spec.control is not None:
            slider = x._inputs[spec.name]
            slider.set_state({"max": spec.control[1] * 100, "value": spec.control[1] * 100})
            assert (slider.max, slider.value) == (spec.control[1], spec.control[1]), spec.name

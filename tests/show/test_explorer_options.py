"""The METEOR, chrF and TER explorers' controls are their metric's options, declared once.

Every field of ``MeteorOptions``, ``ChrfOptions`` and ``TerOptions`` is a control of its
explorer (or named in the explorer's ``NOT_CONTROLS``, with the reason), starting at the
option's default, over the option's slider range, with the option's choices; the constructor
takes the same defaults and refuses a value with the Options class's own message (or, for a
value the option takes but the slider cannot show, with the slider's range).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402

from mtlearn.core.options import OptionSpec, check_positive, option  # noqa: E402
from mtlearn.metrics.chrf.options import ChrfOptions  # noqa: E402
from mtlearn.show.explorers import ChrfExplorer, MeteorExplorer, TerExplorer  # noqa: E402

PAIR = ("the cat sat", ["the cat sat on the mat"])
#: The explorers whose controls are built from Options, each made as a student would (METEOR: exact only,
#: so that no test needs WordNet).
EXPLORERS = {
    "meteor": lambda **kw: MeteorExplorer(*PAIR, **{"stages": ["exact"], **kw}),
    "chrf": lambda **kw: ChrfExplorer(*PAIR, **kw),
    "ter": lambda **kw: TerExplorer(*PAIR, **kw),
}
CLASSES = {"meteor": MeteorExplorer, "chrf": ChrfExplorer, "ter": TerExplorer}
#: The inputs that are no option: the two text boxes (and METEOR's one checkbox per stage).
TEXT_INPUTS = {"candidate", "references"}


def unshown(explorer, options_class) -> list[str]:
    """The options of ``options_class`` that ``explorer`` neither shows nor names in NOT_CONTROLS."""
    return [spec.name for spec in options_class.specs()
            if spec.name not in explorer._inputs and spec.name not in type(explorer).NOT_CONTROLS]


def control_matches(control, spec: OptionSpec) -> list[str]:
    """What of ``spec`` ``control`` does not show (empty: the control is the spec's)."""
    wrong = []
    if control.value != spec.default:
        wrong.append(f"value {control.value!r} != default {spec.default!r}")
    if spec.choices:
        if not isinstance(control, widgets.Dropdown) or tuple(control.options) != spec.choices:
            wrong.append(f"not a dropdown of {spec.choices}")
    elif spec.control is not None:
        if not isinstance(control, (widgets.IntSlider, widgets.FloatSlider)):
            wrong.append("not a slider")
        elif (control.min, control.max, control.step) != spec.control:
            wrong.append(f"range {(control.min, control.max, control.step)} != {spec.control}")
    elif isinstance(spec.default, bool) and not isinstance(control, widgets.Checkbox):
        wrong.append("not a checkbox")
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
                if p.kind is inspect.Parameter.KEYWORD_ONLY}
    defaults = {spec.name: spec.default for spec in explorer_class.OPTIONS.specs()}
    assert keywords == {name: defaults[name] for name in keywords}  # each keyword is an option, its default
    assert set(defaults) - set(explorer_class.NOT_CONTROLS) <= set(keywords)  # every option with a control


#: Values each Options class refuses: the explorer says what the Options class says.
REFUSED = [
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
            if spec.control is not None:
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


@pytest.mark.parametrize("metric", EXPLORERS)
def test_a_browser_message_beyond_a_slider_stays_in_the_options_range(metric):
    # Clamped server-side: the workshop's hardening (tests/show/test_explorer_base.py) relies on it.
    x = EXPLORERS[metric]()
    for spec in CLASSES[metric].OPTIONS.specs():
        if spec.control is not None:
            slider = x._inputs[spec.name]
            slider.set_state({"max": spec.control[1] * 100, "value": spec.control[1] * 100})
            assert (slider.max, slider.value) == (spec.control[1], spec.control[1]), spec.name

"""The agreement explorer, headless: the WMT22 tables' numbers in the order the systems are chosen."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402
from explorer_html import descriptions, dom_classes, numbers  # noqa: E402

from mtlearn.show.explorers import AgreementExplorer  # noqa: E402
from mtlearn.show.plots import find_gid, marker_points  # noqa: E402
from mtlearn.study import agreement  # noqa: E402


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
        assert (float(n[f"{m}-1"]) == scores[first].metric(m)
                and float(n[f"{m}-2"]) == scores[second].metric(m))
        assert float(n[f"{m}-p"]) == c.metric(m).p_value
    assert float(n["human-p"]) == c.human_p
    assert n["agreeing"] == c.agreeing == x.result.agreeing
    assert x.result == c and x.error is None
    assert bytes(x.image.value[:4]) == b"\x89PNG"
    # The picture is the pair's, with the two systems ringed.
    ax = x.figure.axes[0]
    assert len(x.figure.axes) == 2 and len(find_gid(ax, "highlight")[0].get_xdata()) == 2


def test_agreement_headline_has_no_order_when_the_humans_have_none():
    x = AgreementExplorer("ja-en", "DLUT", "NT5")
    c = agreement.compare_systems("ja-en", "DLUT", "NT5")
    assert not c.human_significant
    headline = x.score_html.value
    assert "do not separate them" in headline and f"p = {c.human_p:.3f}" in headline
    assert ">neither<" not in headline
    significant = AgreementExplorer("ja-en", "LanguageX", "NAIST-NICT-TIT")
    assert f">{agreement.compare_systems('ja-en', 'LanguageX', 'NAIST-NICT-TIT').agreeing}<" in (
        significant.score_html.value)


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
        rho_out = agreement.correlate_systems("ja-en", m, statistic="spearman", exclude=["AIST"],
                                              reference=ref)
        assert ((float(n[f"{m}-r"]), float(n[f"{m}-r-without"]), float(n[f"{m}-rho-without"]))
                == (r_all, r_out, rho_out))
        assert x.moves[m][:2] == (r_all, r_out)
    assert len(marker_points(x.figure.axes[0])) == 13 and "without AIST" in x.figure.axes[0].get_title()
    x.leave_out_input.value = "(nobody)"
    assert x.moves == {} and len(marker_points(x.figure.axes[0])) == 14


def test_agreement_leave_out_resets_with_the_pair_and_refuses_a_compared_system():
    x = AgreementExplorer("ja-en", leave_out="AIST")
    x.pair_input.value = "de-en"
    assert x.leave_out_input.value == "(nobody)" and "AIST" not in x.leave_out_input.options
    x.set_inputs(leave_out=x.system_1_input.value)
    assert (x.result is None and x.error.startswith("leave_out: ")
            and "one of the two systems compared" in x.error)
    x.set_inputs(leave_out=None)
    assert x.error is None and x.moves == {}
    with pytest.raises(ValueError, match="^leave_out: 'HUMAN-B' is a human translation"):
        AgreementExplorer("de-en", leave_out="HUMAN-B")

"""The BLEU explorer, headless: set the controls in Python, read the numbers the widget renders.

The rendered numbers are read from the HTML (``data-name``/``data-value`` spans) and compared with
mtlearn.bleu called directly, and with the documents' own numbers.
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import pytest  # noqa: E402
from explorer_html import descriptions, dom_classes, in_time, numbers, value  # noqa: E402

from mtlearn import bleu  # noqa: E402
from mtlearn.examples import bleu as bleu_examples  # noqa: E402
from mtlearn.show.explorers import BleuExplorer  # noqa: E402


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
    assert ([(int(n.values[f"matches-{k}"]), int(n.values[f"totals-{k}"])) for k in (1, 2)]
            == [(17, 18), (10, 17)])
    assert [float(n.values[f"precision-{k}"]) for k in (1, 2)] == list(direct.precisions)
    assert [float(n.values[f"weight-{k}"]) for k in (1, 2)] == [0.5, 0.5]
    assert x.result == direct


def test_bleu_example_c_brevity_penalty():
    ex = bleu_examples.POST_C_BREVITY
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
    ex = bleu_examples.POST_A_PRECISIONS
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


def test_the_bleu_explorers_weights_box_reads_with_the_bounded_parser():
    from mtlearn.show.explorers import parse_weights

    assert parse_weights("1/2, 0.25 .125") == [0.5, 0.25, 0.125]
    for text in ("1e400", "0.5, 1e-400"):  # 1e400: OverflowError escaped the box's handler
        with pytest.raises(ValueError, match="^weights: cannot read '1e-?400' as a number"):
            parse_weights(text)
    code = ("from mtlearn.show.explorers import parse_weights\n"
            "try:\n    parse_weights('1e100000000')\nexcept ValueError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("weights: cannot read '1e100000000' as a number"), done.stderr[-500:]

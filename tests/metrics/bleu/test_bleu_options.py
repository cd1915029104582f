"""BleuOptions is BLEU's one declaration of its options: entry points, command line and explorer agree.

A field added to BleuOptions and forgotten in a function (or the other way round), a default changed in
one place, a help text or flag that drifts from the command line's, fail here. The checks' messages and the
bound on max_order (with its reason) are tested here too, at every entrance.
"""

from __future__ import annotations

import argparse
import inspect
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

import mtlearn
from mtlearn.metrics.bleu.options import DEFAULTS, MAX_ORDER, BleuOptions
from mtlearn.metrics.bleu.profiles import BleuProfile
from mtlearn.metrics.bleu.score import bleu, bleu_from_stats, corpus_bleu, resampling_scorer
from mtlearn.metrics.bleu.stats import BleuStats
from mtlearn.tools.cli.main import build_parser, main

FIELDS = {spec.name: spec.default for spec in BleuOptions.specs()}
#: Options that act only while counting n-grams (summed statistics have them applied already).
COUNTING_ONLY = {"tokenize", "lowercase"}
#: The command line's defaults that are sacreBLEU's, not the library's (tools/cli/bleu.py's COMMAND_DEFAULTS).
CLI_DEFAULTS = {"tokenize": None, "smoothing": "exp", "effective_order": None}


def _keywords(function, kinds=(inspect.Parameter.KEYWORD_ONLY,)) -> dict[str, object]:
    return {name: p.default for name, p in inspect.signature(function).parameters.items() if p.kind in kinds}


# --------------------------------------------------------------------------- one declaration


def test_the_fields_are_the_library_defaults() -> None:
    assert FIELDS == {"max_order": 4, "weights": None, "smoothing": "none", "smooth_value": None,
                      "tokenize": "whitespace", "lowercase": False, "effective_order": False}
    assert DEFAULTS == BleuOptions() and DEFAULTS.as_kwargs() == FIELDS


@pytest.mark.parametrize("function", [bleu, corpus_bleu], ids=["bleu", "corpus_bleu"])
def test_the_entry_points_take_every_option_with_its_default(function) -> None:
    assert _keywords(function) == FIELDS


def test_bleu_from_stats_takes_every_option() -> None:
    keywords = _keywords(bleu_from_stats)
    assert keywords.pop("nrefs") == "?"  # the signature's nrefs: not an option of the metric
    assert keywords == FIELDS


def test_the_resampling_scorer_takes_every_option_that_scores_summed_statistics() -> None:
    scorer = _keywords(resampling_scorer, (inspect.Parameter.POSITIONAL_OR_KEYWORD,))
    assert scorer == {name: default for name, default in FIELDS.items() if name not in COUNTING_ONLY}
    with pytest.raises(ValueError, match="^max_order: at most 4096"):
        resampling_scorer(max_order=10**7)


def test_the_explorer_takes_the_same_defaults_and_the_declared_slider_range() -> None:
    from mtlearn.show.explorers import BleuExplorer

    keywords = _keywords(BleuExplorer.__init__)
    keywords.pop("tables_open")  # how the page starts, not a BLEU option
    assert keywords == {name: FIELDS[name] for name in keywords}
    assert set(keywords) == set(FIELDS) - {"smooth_value"}  # the explorer uses each method's own value
    slider = BleuExplorer("the cat", ["the cat"]).max_order_input
    assert (slider.min, slider.max, slider.step) == BleuOptions.spec("max_order").control
    assert [spec.name for spec in BleuOptions.specs() if spec.control] == ["max_order"]


def _bleu_command() -> argparse.ArgumentParser:
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices["bleu"]


def test_help_flags_choices_and_defaults_are_the_command_lines() -> None:
    actions = {flag: action for action in _bleu_command()._actions for flag in action.option_strings}
    defaults = vars(_bleu_command().parse_args(["-r", "ref.txt"]))
    for spec in BleuOptions.specs():
        action = actions[spec.flags[0]]
        assert set(spec.flags) <= set(action.option_strings), spec.name  # + --no-effective-order
        assert action.help == spec.help, spec.name
        assert tuple(action.choices or ()) == spec.choices, spec.name
        assert action.dest == spec.name, spec.name
        assert defaults[spec.name] == CLI_DEFAULTS.get(spec.name, spec.default), spec.name


def test_the_signature_is_the_options() -> None:
    opts = BleuOptions(max_order=3, smoothing="floor", lowercase=True, tokenize="13a",
                       weights=(0.5, 0.25, 0.25))
    assert bleu("The cat", ["the cat"], **opts.as_kwargs()).signature == opts.signature("1")
    assert corpus_bleu(["a", "b"], [["a"], ["b", "c"]], **opts.as_kwargs()).signature == opts.signature("var")
    assert "smooth:floor[0.10]" in opts.signature("1") and "weights:0.5,0.25,0.25" in opts.signature("1")


# --------------------------------------------------------------------------- the checks


@pytest.mark.parametrize("options, error, message", [
    ({"max_order": 0}, ValueError, "max_order: must be at least 1, got 0"),
    ({"max_order": 1.5}, TypeError, "max_order: expected a positive int, got float"),
    ({"max_order": True}, TypeError, "max_order: expected a positive int, got bool"),
    ({"smoothing": "expo"}, ValueError, "smoothing: unknown value 'expo'"),
    ({"tokenize": "bogus"}, ValueError, "tokenize: unknown value 'bogus'"),
    ({"lowercase": 1}, TypeError, "lowercase: expected True or False, got int"),
    ({"effective_order": "yes"}, TypeError, "effective_order: expected True or False, got str"),
    ({"smoothing": "exp", "smooth_value": 0.2}, ValueError, "smooth_value: smoothing 'exp' takes no value"),
    ({"smoothing": "method4", "smooth_value": 0}, ValueError,
     "smooth_value: must be a positive finite number"),
    ({"smoothing": "method6", "max_order": 2}, ValueError, "smoothing: method6 needs max_order >= 3"),
    ({"weights": [0.5, 0.5]}, ValueError, "weights: 2 weights given for max_order=4"),
    ({"weights": [0, 0, 0, 0]}, ValueError, "weights: they sum to 0"),
    # Each option is checked alone first, in declaration order, then the rules that join two.
    ({"max_order": 0, "smoothing": "bogus"}, ValueError, "max_order: must be at least 1"),
    ({"smoothing": "bogus", "tokenize": "bogus"}, ValueError, "smoothing: unknown value 'bogus'"),
    ({"lowercase": 1, "smoothing": "exp", "smooth_value": 1}, TypeError, "lowercase: "),
])
@pytest.mark.parametrize("entrance", ["options", "bleu", "corpus_bleu", "bleu_from_stats"])
def test_every_entrance_gives_the_same_message(options, error, message, entrance) -> None:
    call = {
        "options": lambda: BleuOptions(**options),
        "bleu": lambda: bleu("a b c", ["a b d"], **options),
        "corpus_bleu": lambda: corpus_bleu(["a b c"], [["a b d"]], **options),
        "bleu_from_stats": lambda: bleu_from_stats(BleuStats(3, 3, (2,) * 5, (3,) * 5, (3,) * 5), **options),
    }[entrance]
    with pytest.raises(error, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_a_weights_warning_points_at_the_callers_line() -> None:
    for call in (lambda: bleu("a b", ["a b"], weights=[0.5, 0.6], max_order=2),
                 lambda: corpus_bleu(["a b"], [["a b"]], weights=[0.5, 0.6], max_order=2),
                 lambda: bleu_from_stats(BleuStats(2, 2, (2, 1), (2, 1), (2, 1)), weights=[0.5, 0.6],
                                         max_order=2)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert ([Path(w.filename).name for w in caught if "sum to 1.1" in str(w.message)]
                == [Path(__file__).name])


# --------------------------------------------------------------------------- max_order's bound


HUGE = [MAX_ORDER + 1, 10**8, 10**40]


@pytest.mark.parametrize("order", HUGE)
@pytest.mark.parametrize("smoothing", ["none", "exp", "add-k", "method1"])
def test_an_order_above_the_bound_is_refused_with_the_reason(order, smoothing) -> None:
    # Before: max_order=10**8 was accepted (30 s and 4.6 GB for a one-line corpus, or a MemoryError).
    expected = r"^max_order: at most 4096, got .*an order longer than every candidate has no n-gram"
    with pytest.raises(ValueError, match=expected):
        bleu("a b c", ["a b d"], max_order=order, smoothing=smoothing)
    with pytest.raises(ValueError, match=expected):
        corpus_bleu(["a b c"], [["a b d"]], max_order=order, smoothing=smoothing)
    with pytest.raises(ValueError, match=expected):
        bleu_from_stats(BleuStats(3, 3, (2,) * 5, (3,) * 5, (3,) * 5), max_order=order, smoothing=smoothing)


def test_a_huge_order_says_its_size_not_its_digits() -> None:
    with pytest.raises(ValueError, match=r"^max_order: at most 4096, got a number of 41 digits \("):
        BleuOptions(max_order=10**40)


def test_the_paired_test_and_a_profile_refuse_it_too() -> None:
    with pytest.raises(ValueError, match=r"^max_order: at most 4096, got 10000000 \("):
        mtlearn.paired_test({"a": ["a b"], "b": ["a c"]}, [["a b"]], max_order=10**7, n_samples=10)
    with pytest.raises(ValueError, match=r"^max_order: at most 4096 in a profile, got 4097 \(.*same bound"):
        BleuProfile("x", "x", "x", "x", max_order=MAX_ORDER + 1)


def test_the_command_line_refuses_it_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "ref.txt").write_text("the cat sat\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat\n", encoding="utf-8")
    args = ["bleu", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "--max-order",
            "100000000"]
    try:
        status = main(args)
    except SystemExit as stop:
        status = stop.code
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "--max-order: at most 4096, got 100000000" in err, err


@pytest.mark.parametrize("smoothing", ["none", "floor", "add-k", "exp"])
@pytest.mark.parametrize("effective_order", [False, True])
def test_the_highest_order_matches_sacrebleu(smoothing, effective_order):
    from sacrebleu.metrics import BLEU

    hyps = ["a b c d e f g", "a b", "the cat sat on the mat"]
    refs = [["a b c d e f h"], ["a b"], ["the cat is on the mat"]]
    expected = BLEU(tokenize="none", max_ngram_order=MAX_ORDER, smooth_method=smoothing,
                    effective_order=effective_order).corpus_score(hyps, [[r[0] for r in refs]]).score
    r = corpus_bleu(hyps, refs, max_order=MAX_ORDER, smoothing=smoothing, effective_order=effective_order)
    assert type(r.precisions) is tuple and len(r.precisions) == MAX_ORDER
    assert 100 * r.score == pytest.approx(expected, rel=1e-11, abs=1e-12)


def test_chen_cherry_methods_at_the_highest_order():
    for method in ("method0", "method3", "method4", "method5", "method6", "method7"):
        r = bleu("a b c d e f g", ["a b c d e f h"], max_order=MAX_ORDER, smoothing=method)
        assert math.isfinite(r.score)
        assert r.reason is None or len(r.reason) < 1000
    with pytest.raises(ValueError, match=r"^max_order: at most 4096"):
        bleu("a b", ["a b"], max_order=MAX_ORDER + 1, smoothing="method1")


def test_numpy_weights_of_the_highest_order() -> None:
    weights = np.full(MAX_ORDER, 1 / MAX_ORDER)
    assert bleu("a b", ["a b"], max_order=MAX_ORDER, weights=weights).weights == tuple(weights.tolist())

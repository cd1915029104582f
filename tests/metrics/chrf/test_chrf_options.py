"""ChrfOptions is chrF's one declaration of its options: entry points, command line and explorer agree.

A field added to ChrfOptions and forgotten in a function (or the other way round), a default changed in
one place, a help text or flag that drifts from the command line's, fail here. The checks' messages and the
bounds on the orders (with their reason) are tested here too.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import pkgutil
from array import array

import pytest

import mtlearn.metrics.chrf
from mtlearn.metrics.chrf.fast import resampling_scorer
from mtlearn.metrics.chrf.options import DEFAULTS, MAX_ORDER, REFERENCE_TIES, ChrfOptions
from mtlearn.metrics.chrf.score import chrf, chrf_from_stats, corpus_chrf
from mtlearn.metrics.chrf.stats import ChrfStats
from mtlearn.tools.cli.main import build_parser

FIELDS = {spec.name: spec.default for spec in ChrfOptions.specs()}

#: Options a function from statistics does not take, and why.
COUNTED = {
    "char_order": "the statistics carry their orders",
    "word_order": "the statistics carry their orders",
    "reference_ties": "the reference a segment keeps is chosen when its statistics are counted",
}
#: Options that act only while counting n-grams (a resampled sum of statistics has them applied already).
COUNTING_ONLY = {"lowercase", "whitespace", "reference_ties"}


def _keywords(function, kinds=(inspect.Parameter.KEYWORD_ONLY,)) -> dict[str, object]:
    return {name: p.default for name, p in inspect.signature(function).parameters.items() if p.kind in kinds}


# --------------------------------------------------------------------------- one declaration


def test_the_fields_are_sacrebleus_defaults() -> None:
    assert FIELDS == {"char_order": 6, "word_order": 0, "beta": 2.0, "lowercase": False, "whitespace": False,
                      "eps_smoothing": False, "reference_ties": "first"}
    assert DEFAULTS == ChrfOptions() and DEFAULTS.as_kwargs() == FIELDS


@pytest.mark.parametrize("function", [chrf, corpus_chrf], ids=["chrf", "corpus_chrf"])
def test_the_entry_points_take_every_option_with_its_default(function) -> None:
    assert _keywords(function) == FIELDS


def test_chrf_from_stats_takes_every_option_the_statistics_do_not_carry() -> None:
    keywords = _keywords(chrf_from_stats)
    assert keywords.pop("nrefs") == "?"  # the signature's nrefs: not an option of the metric
    assert keywords == {name: default for name, default in FIELDS.items() if name not in COUNTED}


def test_the_resampling_scorer_takes_every_option_that_scores_summed_statistics() -> None:
    scorer = _keywords(resampling_scorer, (inspect.Parameter.POSITIONAL_OR_KEYWORD,))
    assert scorer == {name: default for name, default in FIELDS.items() if name not in COUNTING_ONLY}
    with pytest.raises(ValueError, match="^beta:"):
        resampling_scorer(beta=0)  # checked as chrf() checks it (it scored nan before)


def test_the_explorer_takes_the_same_defaults_and_the_declared_slider_ranges() -> None:
    from mtlearn.show.explorers import ChrfExplorer

    keywords = _keywords(ChrfExplorer.__init__)
    assert keywords == {name: FIELDS[name] for name in keywords}
    assert set(keywords) == set(FIELDS) - {"reference_ties"}  # one candidate: no ties between references
    explorer = ChrfExplorer("the cat", ["the cat"])
    for name in ("char_order", "word_order", "beta"):
        slider = getattr(explorer, f"{name}_input")
        assert (slider.min, slider.max, slider.step) == ChrfOptions.spec(name).control, name
    assert [spec.name for spec in ChrfOptions.specs() if spec.control] == ["char_order", "word_order", "beta"]


def _chrf_command() -> argparse.ArgumentParser:
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices["chrf"]


def test_help_flags_choices_and_defaults_are_the_command_lines() -> None:
    actions = {flag: action for action in _chrf_command()._actions for flag in action.option_strings}
    defaults = vars(_chrf_command().parse_args(["-r", "ref.txt"]))
    for spec in ChrfOptions.specs():
        action = actions[spec.flags[0]]
        assert tuple(action.option_strings) == spec.flags, spec.name
        assert action.help == spec.help, spec.name
        assert tuple(action.choices or ()) == spec.choices, spec.name
        assert action.dest == spec.name and defaults[spec.name] == spec.default, spec.name
    assert tuple(actions["--reference-ties"].choices) == REFERENCE_TIES


def test_the_signature_is_the_options() -> None:
    opts = ChrfOptions(word_order=2, lowercase=True, beta=3, reference_ties="last")
    r = chrf("The cat", ["the cat"], **opts.as_kwargs())
    assert r.signature == opts.signature("1")
    assert corpus_chrf(["a", "b"], [["a"], ["b", "c"]], **opts.as_kwargs()).signature == opts.signature("var")
    assert "|ties:" not in DEFAULTS.signature("1")


def test_no_module_of_the_chrf_folder_keeps_mutable_state() -> None:
    # Bounds at the boundary, formulas pure: a module-level cache (the n-gram slices were one) is state
    # that outlives a call; the slices now belong to one corpus call (fast.NgramCutter).
    mutable = (dict, list, set, bytearray, array)
    for info in pkgutil.iter_modules(mtlearn.metrics.chrf.__path__):
        module = importlib.import_module(f"mtlearn.metrics.chrf.{info.name}")
        found = [name for name, value in vars(module).items()
                 if not name.startswith("__") and isinstance(value, mutable)]
        assert found == [], f"{module.__name__} keeps {found}"


# --------------------------------------------------------------------------- the checks


@pytest.mark.parametrize(
    "options, error, start",
    [
        ({"char_order": 0, "word_order": 0}, ValueError, "char_order:"),
        ({"char_order": -1}, ValueError, "char_order:"),
        ({"word_order": -2}, ValueError, "word_order:"),
        ({"char_order": 2.0}, TypeError, "char_order:"),
        ({"word_order": True}, TypeError, "word_order:"),
        ({"beta": 0}, ValueError, "beta:"),
        ({"beta": -1.5}, ValueError, "beta:"),
        ({"beta": float("nan")}, ValueError, "beta:"),
        ({"beta": "2"}, TypeError, "beta:"),
        ({"lowercase": "yes"}, TypeError, "lowercase:"),
        ({"whitespace": 1}, TypeError, "whitespace:"),
        ({"eps_smoothing": None}, TypeError, "eps_smoothing:"),
        ({"reference_ties": "best"}, ValueError, "reference_ties:"),
        # each option is checked before the rule that joins two
        ({"char_order": 0, "word_order": 0, "beta": 0}, ValueError, "beta:"),
    ],
)
@pytest.mark.parametrize("where", ["chrf", "corpus_chrf", "options"])
def test_bad_options_name_the_option(options: dict, error: type, start: str, where: str) -> None:
    call = {"chrf": lambda: chrf("a", ["a"], **options),
            "corpus_chrf": lambda: corpus_chrf(["a"], [["a"]], **options),
            "options": lambda: ChrfOptions(**options)}[where]
    with pytest.raises(error, match="^" + start):
        call()


def test_chrf_from_stats_checks_its_options() -> None:
    stats = ChrfStats((1,), (2,), (1,), 1, 0)
    with pytest.raises(ValueError, match="^beta:"):
        chrf_from_stats(stats, beta=0)
    with pytest.raises(TypeError, match="^lowercase:"):
        chrf_from_stats(stats, lowercase=1)
    with pytest.raises(ValueError, match="^char_order: char_order and word_order are both 0"):
        chrf_from_stats(ChrfStats((), (), (), 0, 0))


# --------------------------------------------------------------------------- bounded orders

HUGE_ORDERS = """
import json, time, tracemalloc
import mtlearn
from mtlearn.metrics.chrf.options import MAX_ORDER
tracemalloc.start()
start = time.perf_counter()
errors = []
for kwargs in ({"char_order": 10**7}, {"char_order": 10**22}, {"word_order": 10**9},
               {"char_order": MAX_ORDER + 1}, {"char_order": 10**100}):
    try:
        mtlearn.chrf("the cat sat on the mat", ["the cat sat on a mat"], **kwargs)
    except ValueError as error:
        errors.append(str(error))
top = mtlearn.chrf("the cat sat on the mat", ["the cat sat on a mat"], char_order=MAX_ORDER,
                   word_order=MAX_ORDER)
corpus = mtlearn.corpus_chrf(["the cat sat on the mat", "a dog"],
                             [["the cat sat on a mat"], ["a dog barked"]], char_order=MAX_ORDER)
low = mtlearn.chrf("the cat sat on the mat", ["the cat sat on a mat"], char_order=30, word_order=30)
print(json.dumps({"seconds": time.perf_counter() - start, "peak": tracemalloc.get_traced_memory()[1],
                  "errors": errors, "top": top.score, "explain": len(top.explain()), "reason": top.reason,
                  "corpus": corpus.score, "low": low.score}))
"""


def _run_bounded(code: str, timeout: float = 120) -> dict:
    """``code`` in a fresh interpreter (it prints one JSON line); a failure, not a hang, past ``timeout``."""
    import subprocess
    import sys

    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {timeout} s: the orders are not bounded")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_orders_are_bounded_with_the_reason() -> None:
    # Before: char_order=10**7 ran past 30 s; --char-order 1000000000 reached 844 MB in 20 s.
    assert MAX_ORDER == 4096
    out = _run_bounded(HUGE_ORDERS)
    assert len(out["errors"]) == 5
    names = ("char_order", "char_order", "word_order", "char_order", "char_order")
    for error, name in zip(out["errors"], names):
        assert error.startswith(f"{name}: at most 4096, got ") and "averages one F per order" in error
    assert "got 10000000000000000000000 (" in out["errors"][1]
    assert "a number of 101 digits" in out["errors"][4]
    # At the bound: the orders past both texts leave the score as it is with fewer orders (effective order),
    # and say so in one line each, not one per order.
    assert out["top"] > 0 and out["low"] == out["top"]
    assert out["explain"] < 20_000 and "-c4096, w" in out["reason"] and "-w4096 left out" in out["reason"]
    assert out["corpus"] > 0

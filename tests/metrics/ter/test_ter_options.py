"""TER's options are declared once (mtlearn/metrics/ter/options.py): every public function's keyword options
are the fields of its Options class, names and defaults; the command line and the explorer agree with them;
every value is checked with the same message wherever it comes from."""

from __future__ import annotations

import argparse
import dataclasses
import inspect
from fractions import Fraction

import pytest

from mtlearn.metrics.ter.options import METRICS, TER_DEFAULTS, WER_DEFAULTS, TerOptions, WerOptions
from mtlearn.metrics.ter.score import cer, corpus_cer, corpus_ter, corpus_wer, ter, ter_from_stats, wer
from mtlearn.metrics.ter.stats import TerStats
from mtlearn.tools.cli.main import build_parser

#: Each public function and the Options class it takes its defaults from.
FUNCTIONS = {ter: TerOptions, corpus_ter: TerOptions, ter_from_stats: TerOptions,
             wer: WerOptions, cer: WerOptions, corpus_wer: WerOptions, corpus_cer: WerOptions}
#: Keywords that are not options: which metric a result of statistics is, the signature's number of
#: references.
NOT_OPTIONS = {ter_from_stats: {"metric", "nrefs"}}


def _keyword_defaults(function) -> dict[str, object]:
    parameters = inspect.signature(function).parameters.values()
    return {p.name: p.default for p in parameters
            if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name not in NOT_OPTIONS.get(function, set())}


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_keyword_options_are_the_options_fields(function):
    options = FUNCTIONS[function]
    assert _keyword_defaults(function) == {spec.name: spec.default for spec in options.specs()}
    assert [f.name for f in dataclasses.fields(options)] == list(_keyword_defaults(function))


def test_the_explorer_takes_the_same_options():
    widgets = pytest.importorskip("mtlearn.show.explorers")
    assert _keyword_defaults(widgets.TerExplorer) == TER_DEFAULTS.as_kwargs()


def test_ter_and_wer_differ_in_the_case_default_and_the_spellings_only():
    assert TER_DEFAULTS.but(case_sensitive=True).as_kwargs() == WER_DEFAULTS.as_kwargs()
    for ter_spec, wer_spec in zip(TerOptions.specs(), WerOptions.specs()):
        assert (ter_spec.name, ter_spec.help, ter_spec.check) == (wer_spec.name, wer_spec.help,
                                                                  wer_spec.check)
        mtlearns = wer_spec.flags[0]
        assert wer_spec.flags == (mtlearns,) and ter_spec.flags == (mtlearns, "--ter-" + mtlearns[2:])


def _subcommand(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices[name]


@pytest.mark.parametrize("command, options", [("ter", TerOptions), ("wer", WerOptions), ("cer", WerOptions)])
def test_the_command_line_has_each_options_flags_help_and_default(command, options):
    parser = _subcommand(command)
    by_flag = {flag: action for action in parser._actions for flag in action.option_strings}
    for spec in options.specs():
        action = by_flag[spec.flags[0]]
        assert set(spec.flags) <= set(action.option_strings), spec.name
        assert action.help.startswith(spec.help), spec.name
    args = build_parser().parse_args([command, "-r", "ref.txt"])
    assert args.metric.options(args, False) == options().as_kwargs()


@pytest.mark.parametrize("name", [spec.name for spec in TerOptions.specs()])
@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("value", ["yes", 1, None])
def test_every_function_refuses_a_switch_that_is_not_true_or_false(function, name, value):
    arguments = {ter_from_stats: (TerStats(1, Fraction(2)),), corpus_ter: (["a"], [["a"]]),
                 corpus_wer: (["a"], [["a"]]), corpus_cer: (["a"], [["a"]])}.get(function, ("a", ["a"]))
    with pytest.raises(TypeError, match=f"^{name}: expected True or False, got {type(value).__name__}$"):
        function(*arguments, **{name: value})


@pytest.mark.parametrize("call, message", [
    (lambda: ter("a", ["a"], normalized="yes"), "^normalized: expected True or False"),
    (lambda: ter("a", ["a"], case_sensitive=1), "^case_sensitive: expected True or False"),
])
def test_wrong_types(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def test_signature_is_sacrebleu_like():
    sig = ter("a", ["a"], normalized=True).signature
    assert sig.startswith("mtlearn-ter|nrefs:1|case:lc|tok:tercom|norm:yes|punct:yes|asian:no|version:")


@pytest.mark.parametrize("metric", METRICS)
def test_a_results_signature_is_its_options_signature(metric):
    for options in (TerOptions(), WerOptions(no_punct=True, asian_support=True), TerOptions(normalized=True)):
        result = ter_from_stats(TerStats(0, Fraction(1)), metric=metric, nrefs=2, **options.as_kwargs())
        assert result.signature == options.signature(metric, 2)
        assert result.signature.startswith(f"mtlearn-{metric}|nrefs:2|")
        part = options.signature_part(metric)
        assert (part["case"], part["tok"]) == ("mixed" if options.case_sensitive else "lc",
                                               "char" if metric == "cer" else "tercom")
        assert (part["norm"], part["punct"], part["asian"]) == tuple(
            "yes" if flag else "no"
            for flag in (options.normalized, not options.no_punct, options.asian_support))

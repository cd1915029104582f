"""Each metric command's options are its ``Options`` declarations (mtlearn/tools/cli/arguments.py).

``mtlearn bleu``, ``meteor``, ``chrf``, ``ter``, ``wer`` and ``cer`` build their flags from BleuOptions,
MeteorOptions, ChrfOptions, TerOptions and WerOptions: every declared spelling, the help, the default
(``mtlearn bleu``: sacreBLEU's where it is not the library's), the choices, and the value given reaches
the metric under the option's name. ``mtlearn score`` takes BLEU's options that have a second spelling
(sacreBLEU's) and each other declared option that has a prefixed spelling (``--chrf-*``, ``--ter-*``,
``--meteor-*``); ``mtlearn compare`` BLEU's, chrF's and METEOR's. A field added to an ``Options`` becomes
a flag without any change to the command line (the last tests).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import pytest

from mtlearn.core.options import OptionSpec, check_flag, check_int, option
from mtlearn.metrics.bleu.options import BleuOptions
from mtlearn.metrics.chrf.options import ChrfOptions
from mtlearn.metrics.meteor.options import MeteorOptions
from mtlearn.metrics.ter.options import TerOptions, WerOptions
from mtlearn.tools.cli.arguments import Parser, add_options, options_reader
from mtlearn.tools.cli.main import build_parser
from mtlearn.tools.cli.score import score_options

COMMANDS = [("bleu", BleuOptions), ("meteor", MeteorOptions), ("chrf", ChrfOptions), ("ter", TerOptions),
            ("wer", WerOptions), ("cer", WerOptions)]
CASE = ("lowercase", "case_sensitive")
#: A command's defaults that are not its Options' (as parsed; None: decided when scoring), and what the
#: metric then gets for a corpus: ``mtlearn bleu`` has sacreBLEU's command-line defaults.
PARSED_DEFAULTS = {"bleu": {"tokenize": None, "smoothing": "exp", "effective_order": None}}
CORPUS_DEFAULTS = {"bleu": {"tokenize": "13a", "smoothing": "exp", "effective_order": False}}


def _command(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices[name]


def _by_flag(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {flag: action for action in parser._actions for flag in action.option_strings}


def _on_by_default(spec: OptionSpec) -> bool:
    """Whether the switch of ``spec`` (for the case pair: the side its flags name) is on by default."""
    if spec.name == "case_sensitive":  # the --case-sensitive side of the pair
        return spec.default
    return spec.default is True


@pytest.mark.parametrize("command, options", COMMANDS, ids=[c for c, _ in COMMANDS])
def test_every_declared_option_is_a_flag_with_its_help_default_and_choices(command, options):
    parser = _command(command)
    by_flag = _by_flag(parser)
    defaults = parser.parse_args(["-r", "ref.txt"])
    parsed_defaults = PARSED_DEFAULTS.get(command, {})
    for spec in options.specs():
        missing = [flag for flag in spec.flags if flag not in by_flag]
        assert not missing, f"{command}: {spec.name}'s {missing} are not flags of the command"
        action = by_flag[spec.flags[0]]
        assert {id(by_flag[flag]) for flag in spec.flags} == {id(action)}, spec.name  # one argument
        assert action.help in (spec.help, spec.help + " (default)"), spec.name
        if isinstance(spec.default, bool):
            assert ("(default)" in action.help) == _on_by_default(spec), spec.name
        assert (tuple(action.choices) if action.choices else ()) == spec.choices, spec.name
        if spec.name in CASE:  # the pair --lowercase / --case-sensitive, into args.lowercase
            assert action.dest == "lowercase", spec.name
            assert action.const is (spec.name == "lowercase"), spec.name
            assert defaults.lowercase == (spec.default if spec.name == "lowercase" else not spec.default)
        else:
            assert action.dest == spec.name, spec.name
            assert getattr(defaults, spec.name) == parsed_defaults.get(spec.name, spec.default), spec.name
    assert defaults.metric.options(defaults, False) == options(**CORPUS_DEFAULTS.get(command, {})).as_kwargs()


def _other_value(spec: OptionSpec, command: str) -> tuple[list[str], object]:
    """Text that gives ``spec`` a value other than its default (and the command's), and that value."""
    if isinstance(spec.default, bool):
        return [], not spec.default  # the switch itself; for the case pair, its other side (below)
    if spec.choices:
        defaults = (spec.default, CORPUS_DEFAULTS.get(command, {}).get(spec.name))
        value = next(choice for choice in spec.choices if choice not in defaults)
        return [value], value
    if spec.name == "weights":  # one number per order
        return ["1/4", "3/4"], [0.25, 0.75]
    if isinstance(spec.default, tuple):
        return ["exact,stem"], ("exact", "stem")
    if isinstance(spec.default, int):
        return [str(spec.default + 1)], spec.default + 1
    return ["1/4"], 0.25


@pytest.mark.parametrize("command, options", COMMANDS, ids=[c for c, _ in COMMANDS])
def test_each_spelling_of_each_option_reaches_the_metric(command, options):
    parser = _command(command)
    for spec in options.specs():
        text, value = _other_value(spec, command)
        for flag in spec.flags:
            if spec.name in CASE and spec.default:  # its flags give the default; the pair's other side not
                flag = "--case-sensitive" if spec.name == "lowercase" else "--lowercase"
            args = parser.parse_args(["-r", "ref.txt", flag, *text])
            assert args.metric.options(args, False)[spec.name] == value, (spec.name, flag)


def test_score_takes_bleus_options_with_a_second_spelling_and_the_others_with_a_prefixed_one():
    parser = _command("score")
    by_flag = _by_flag(parser)
    declared = {(metric, s.name): s for metric, options in (("bleu", BleuOptions), ("chrf", ChrfOptions),
                                                             ("ter", TerOptions), ("meteor", MeteorOptions))
                for s in options.specs()}
    taken = {key for key, spec in declared.items()
             if (key[0] == "bleu" and len(spec.flags) > 1)
             or any(flag.startswith(f"--{key[0]}-") for flag in spec.flags)}
    # BLEU's with a second spelling are those sacreBLEU's command line has.
    assert {name for metric, name in taken if metric == "bleu"} == {"tokenize", "smoothing", "smooth_value",
                                                                     "lowercase"}
    options = {(o.metric, o.target): o for o in score_options().values() if o.spec is not None}
    assert set(options) == taken
    for key, score_option in options.items():
        spec = declared[key]
        if key[0] == "bleu":  # every spelling, one argument, its choices; unset unless given
            assert set(score_option.flags) == set(spec.flags), key
            action = by_flag[spec.flags[0]]
            assert action.dest == spec.name and action.default is None, key
            assert (tuple(action.choices) if action.choices else ()) == spec.choices, key
        else:
            assert set(score_option.flags) <= set(spec.flags)
        dest = key[1] if key[0] == "bleu" else f"{key[0]}_{key[1]}"
        assert all(by_flag[flag].dest == dest for flag in score_option.flags), key


@pytest.mark.parametrize("flags, target, value", [
    (["--smooth-method", "floor"], "smoothing", "floor"),
    (["-s", "add-k", "-sv", "1/2"], "smooth_value", 0.5),
    (["-tok", "intl"], "tokenize", "intl"),
    (["-lc"], "lowercase", True),
    (["-l", "en-zh"], "tokenize", "zh"),
])
def test_a_bleu_option_given_to_score_reaches_bleu_only(flags, target, value):
    from mtlearn.tools.cli.score import jobs

    args = build_parser().parse_args(["score", "-r", "ref.txt", "-m", "bleu", "chrf", *flags])
    bleu_job, chrf_job = jobs(args)
    assert bleu_job.metric.key == "bleu"
    assert bleu_job.metric.options(bleu_job.args, False)[target] == value
    assert chrf_job.metric.options(chrf_job.args, False)["lowercase"] is False  # chrF's own: untouched


def test_compare_takes_bleus_options_under_every_spelling():
    from mtlearn.tools.cli.compare import _compare_options

    by_flag = _by_flag(_command("compare"))
    given = {"tokenize": ["intl"], "smoothing": ["floor"], "smooth_value": ["1/4"], "max_order": ["3"]}
    for name, text in given.items():
        spec = BleuOptions.spec(name)
        action = by_flag[spec.flags[0]]
        assert {id(by_flag[flag]) for flag in spec.flags} == {id(action)}, name
        assert action.dest == name and action.default is None, name
        assert (tuple(action.choices) if action.choices else ()) == spec.choices, name
        for flag in spec.flags:
            args = build_parser().parse_args(["compare", "-r", "r", "-i", "a", "b", "--paired-bs", flag,
                                              *text])
            assert _compare_options(args)[name] == {"3": 3, "1/4": 0.25}.get(text[0], text[0]), (name, flag)
    args = build_parser().parse_args(["compare", "-r", "r", "-i", "a", "b", "--paired-bs"])
    assert _compare_options(args) == {"tokenize": "13a", "smoothing": "exp"}  # mtlearn bleu's defaults


@pytest.mark.parametrize("metric, flags, target, value", [
    ("chrf", ["--chrf-word-order", "2", "-cc", "3"], "word_order", 2),
    ("chrf", ["--chrf-lowercase"], "lowercase", True),
    ("ter", ["--ter-case-sensitive"], "case_sensitive", True),
    ("ter", ["--ter-asian-support"], "asian_support", True),
    ("meteor", ["--meteor-stages", "exact"], "stages", ("exact",)),
])
def test_an_option_given_to_score_reaches_its_metric(metric, flags, target, value):
    from mtlearn.tools.cli.score import jobs

    args = build_parser().parse_args(["score", "-r", "ref.txt", "-m", "bleu", metric, *flags])
    job = jobs(args)[1]
    assert job.metric.key == metric
    assert job.metric.options(job.args, False)[target] == value
    bleu_job = jobs(args)[0]
    assert bleu_job.metric.options(bleu_job.args, False)["lowercase"] is False  # BLEU's own: untouched


@dataclass(frozen=True)
class _MoreChrfOptions(ChrfOptions):
    """ChrfOptions with two fields more: a new option needs no change to the command line."""

    min_length: int = option(0, "ignore n-grams shorter than this (default: %(default)s)", check_int(0, 9),
                             flags=("--min-length", "-ml"))
    keep_digits: bool = option(True, "keep digits", check_flag)


def test_a_field_added_to_an_options_is_a_flag_of_the_command():
    parser = Parser(prog="demo")
    add_options(parser, _MoreChrfOptions, "settings")
    help_text = parser.format_help()
    assert "--min-length N, -ml N" in help_text
    assert "ignore n-grams shorter than this (default: 0)" in help_text
    assert "--keep-digits" in help_text and "keep digits (default)" in help_text
    args = parser.parse_args(["-ml", "3", "-cw", "2"])
    expected = _MoreChrfOptions(min_length=3, word_order=2).as_kwargs()
    assert options_reader(_MoreChrfOptions)(args, False) == expected
    with pytest.raises(SystemExit):
        parser.parse_args(["--min-length", "x"])


@dataclass(frozen=True)
class _MoreBleuOptions(BleuOptions):
    """BleuOptions with a field more: ``mtlearn bleu`` shows it without any change to the command line."""

    brevity_off: bool = option(False, "no brevity penalty", check_flag, flags=("--brevity-off", "-bo"))


def test_a_field_added_to_bleu_options_is_a_flag_of_mtlearn_bleu(monkeypatch):
    from mtlearn.tools.cli import bleu as bleu_command

    monkeypatch.setattr(bleu_command, "BleuOptions", _MoreBleuOptions)
    parser = _command("bleu")
    assert "--brevity-off, -bo" in parser.format_help() and "no brevity penalty" in parser.format_help()
    args = parser.parse_args(["-r", "ref.txt", "-bo"])
    assert args.metric.options(args, False)["brevity_off"] is True
    assert parser.parse_args(["-r", "ref.txt"]).brevity_off is False


def test_an_option_is_checked_by_its_metric_with_its_message(tmp_path, capsys):
    from mtlearn.tools.cli.main import main

    (tmp_path / "ref.txt").write_text("the cat\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat\n", encoding="utf-8")
    files = ["-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt")]
    assert main(["chrf", *files, "--chrf-char-order", "5000"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("mtlearn: error: --char-order: at most 4096, got 5000") and error.count("\n") == 1
    with pytest.raises(ValueError, match="^char_order: at most 4096, got 5000"):
        ChrfOptions(char_order=5000)

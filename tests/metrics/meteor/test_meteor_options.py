"""METEOR's options are declared once (mtlearn/metrics/meteor/options.py), and every boundary uses them.

- every public function's keyword options are MeteorOptions' fields, with its defaults (a field added in
  one place and forgotten in another fails here), and so are the command line's and the explorer's;
- the declared help texts, flags and slider ranges are the ones the command line and the explorer show;
- every check keeps its message; numpy scalars and Fractions are taken as plain numbers, every time;
- β is bounded at 64 (the reason said), at every entrance: the functions, the formula, the command line.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from repo_paths import REPO

import mtlearn
from mtlearn.metrics.meteor import fast, formulas
from mtlearn.metrics.meteor.options import DEFAULTS, MAX_BETA, MeteorOptions, check_parameters
from mtlearn.metrics.meteor.score import corpus_meteor, corpus_score_from_stats, meteor, meteor_from_stats
from mtlearn.metrics.meteor.stats import MeteorStats

EXACT = ["exact"]
FIELDS = {spec.name: spec.default for spec in MeteorOptions.specs()}


def _keyword_defaults(function) -> dict[str, object]:
    return {
        name: p.default
        for name, p in inspect.signature(function).parameters.items()
        if p.kind is p.KEYWORD_ONLY
    }


# --------------------------------------------------------------------------- declared once


@pytest.mark.parametrize("function", [meteor, corpus_meteor, mtlearn.meteor, mtlearn.corpus_meteor])
def test_the_scoring_functions_take_every_option_with_its_default(function):
    assert _keyword_defaults(function) == FIELDS


@pytest.mark.parametrize("function", [meteor_from_stats, corpus_score_from_stats, fast.resampling_scorer])
def test_the_functions_of_counts_take_the_parameters_with_their_defaults(function):
    taken = {k: v for k, v in _keyword_defaults(function).items() if k in FIELDS}
    if function is fast.resampling_scorer:  # positional-or-keyword there: the paired test's **options
        taken = {k: p.default for k, p in inspect.signature(function).parameters.items() if k in FIELDS}
    assert taken == {k: FIELDS[k] for k in ("alpha", "beta", "gamma")}


def test_the_defaults_are_the_options_fields():
    assert DEFAULTS == MeteorOptions() and DEFAULTS.as_kwargs() == FIELDS
    assert FIELDS == dict(
        stages=("exact", "stem", "synonym"),
        alpha=0.9,
        beta=3.0,
        gamma=0.5,
        tie_break="crossings",
        lowercase=True,
        tokenize="whitespace",
        language="en",
    )


def test_the_explorer_takes_the_same_options_and_defaults():
    from mtlearn.show.explorers import MeteorExplorer

    assert _keyword_defaults(MeteorExplorer.__init__) == FIELDS


def _meteor_command():
    from mtlearn.tools.cli.main import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return commands.choices


def test_the_command_line_shows_the_declared_help_flags_and_defaults():
    commands = _meteor_command()
    actions = {a.dest: a for a in commands["meteor"]._actions if a.option_strings and a.dest in FIELDS}
    lowercase = [a for a in commands["meteor"]._actions if a.dest == "lowercase" and a.const is True]
    actions["lowercase"] = lowercase[0]  # --lowercase (its other switch, --case-sensitive, keeps the case)
    for spec in MeteorOptions.specs():
        action = actions[spec.name]
        own = [flag for flag in spec.flags if flag != "--meteor-stages"]  # mtlearn score's spelling
        assert set(own) <= set(action.option_strings), spec.name
        assert action.help == spec.help, spec.name
        assert action.default == spec.default, spec.name
        if spec.choices:
            assert tuple(action.choices) == spec.choices, spec.name
    score_stages = [a for a in commands["score"]._actions if a.dest == "meteor_stages"]
    assert score_stages[0].option_strings == ["--meteor-stages"]


def test_the_explorer_sliders_are_the_declared_controls():
    from mtlearn.show.explorers import MeteorExplorer

    x = MeteorExplorer("the cat", ["the cat"], stages=EXACT)
    for name in ("alpha", "beta", "gamma"):
        slider = getattr(x, f"{name}_input")
        assert (slider.min, slider.max, slider.step) == MeteorOptions.spec(name).control, name
    assert tuple(x.tie_break_input.options) == MeteorOptions.spec("tie_break").choices


def test_the_default_options_read_no_wordnet():
    # The stages are checked as names: building DEFAULTS (at import) builds no matcher.
    code = (
        "import sys; import mtlearn.metrics.meteor.options as o; o.MeteorOptions(); "
        "print('mtlearn.metrics.meteor.synonyms' in sys.modules, 'nltk' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "False"]


def test_stages_are_kept_as_given_and_named_as_their_matchers():
    opts = MeteorOptions(stages=["exact", "stem:porter"])
    assert opts.stages == ("exact", "stem:porter") and opts.stage_names == ("exact", "stem")
    assert MeteorOptions(stages="exact").stages == ("exact",)
    assert meteor("the cats", ["the cat"], stages=["exact", "stem:porter"]).stages == ("exact", "stem")


# --------------------------------------------------------------------------- today's messages


@pytest.mark.parametrize(
    "option, value, error, message",
    [
        (
            "alpha",
            1.5,
            ValueError,
            "alpha: must lie in [0, 1] (it weights precision against recall), got 1.5",
        ),
        (
            "beta",
            -1,
            ValueError,
            "beta: must be non-negative (the exponent of the fragmentation c/m), got -1",
        ),
        (
            "gamma",
            2,
            ValueError,
            "gamma: must be at most 1 (the largest penalty; above 1 the score turns negative), got 2",
        ),
        ("gamma", -0.5, ValueError, "gamma: must be non-negative (the largest penalty), got -0.5"),
        ("gamma", "x", TypeError, "gamma: expected a number, got str ('x')"),
        ("alpha", float("nan"), ValueError, "alpha: must be a finite number, got nan"),
        ("beta", True, TypeError, "beta: expected a number, got bool (True)"),
        ("tie_break", "foo", ValueError, "tie_break: unknown value 'foo'; choose one of crossings, chunks"),
        ("lowercase", 1, TypeError, "lowercase: expected True or False, got int"),
        (
            "tokenize",
            "nope",
            ValueError,
            "tokenize: unknown tokenizer 'nope'; choose one of whitespace, 13a, intl, zh, "
            "ja-mecab, ko-mecab, char, none",
        ),
        (
            "stages",
            [],
            ValueError,
            "stages: no stages given; choose one or more of exact, stem, stem:porter, stem:snowball, synonym",
        ),
        (
            "stages",
            ["exact", "exact"],
            ValueError,
            "stages: stage 'exact' appears twice; each stage must have its own name",
        ),
        (
            "stages",
            None,
            TypeError,
            "stages: expected a list of stages (names, matchers or callables), got NoneType",
        ),
        (
            "stages",
            [3],
            TypeError,
            "stages[0]: expected a stage name, a Matcher object or a callable, got int (3)",
        ),
    ],
)
def test_each_option_keeps_its_message_at_every_entrance(option, value, error, message):
    for call in (
        lambda: MeteorOptions(**{option: value}),
        lambda: meteor("the cat", ["the cat"], **{option: value}),
        lambda: corpus_meteor(["the cat"], [["the cat"]], **{option: value}),
    ):
        with pytest.raises(error) as caught:
            call()
        assert str(caught.value) == message


# --------------------------------------------------------------------------- beta's bound


@pytest.mark.parametrize("beta", [MAX_BETA + 1, 64.5, 10**9, 1e300, np.float64(1e10)])
def test_a_beta_above_64_is_an_error_naming_it_and_why(beta):
    calls = [
        lambda: meteor("a b c d e f", ["a b d c e f"], stages=EXACT, beta=beta),
        lambda: corpus_meteor(["a b c d e f"], [["a b d c e f"]], stages=EXACT, beta=beta),
        lambda: meteor_from_stats([MeteorStats(6, 6, 6, 4)], beta=beta),
        lambda: formulas.fragmentation_penalty(2, 6, beta=beta),
        lambda: check_parameters(0.9, beta, 0.5),
    ]
    for call in calls:
        with pytest.raises(
            ValueError, match=r"^beta: at most 64, got .* \(an exact power \(c/u_m\)\^beta has about"
        ):
            call()


def test_beta_64_is_exact_and_its_penalty_the_exact_power():
    assert formulas.fragmentation_penalty(5, 6, beta=MAX_BETA) == Fraction(1, 2) * Fraction(5, 6) ** 64
    r = meteor("a b c d e f", ["a b d c e f"], stages=EXACT, beta=MAX_BETA)
    assert r.penalty_arithmetic == "exact" and r.penalty_note is None and r.score_exact is not None
    assert r.penalty == Fraction(1, 2) * Fraction(r.chunks, r.matches) ** 64


def test_a_fractional_beta_is_a_float_and_says_so():
    r = meteor("a b c d e f", ["a b d c e f"], stages=EXACT, beta=1.5)
    assert r.penalty_arithmetic == "float" and "not a whole number" in r.penalty_note
    assert "float" in r.explain() and r.penalty_note in r.explain()
    assert meteor("a b", ["a b"], stages=EXACT).penalty_arithmetic == "exact"
    assert MeteorOptions(beta=0.2).penalty_note == "the penalty is a float: beta = 0.2 is not a whole number"
    assert (
        MeteorOptions(beta=Fraction(3)).penalty_note is None and MeteorOptions(beta=64.0).penalty_note is None
    )


def test_a_beta_beyond_any_float_is_an_error_naming_it():
    with pytest.raises(ValueError, match="^beta: must be a finite number"):
        meteor("a b", ["b a"], stages=EXACT, beta=10**400)


@pytest.mark.parametrize("extra", [[], ["--sentence-level"]])
def test_the_command_line_refuses_a_steep_beta_in_one_line(tmp_path, extra):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b c d e f\nthe cat sat on the mat\n", encoding="utf-8")
    ref.write_text("a b d c e f\non the mat the cat sat\n", encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mtlearn",
            "meteor",
            "-r",
            str(ref),
            "-i",
            str(hyp),
            "--stages",
            "exact",
            "--beta",
            "1e300",
            "--json",
            *extra,
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("mtlearn: error: --beta: at most 64, got 1e+300 (")
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


# --------------------------------------------------------------------------- any real number, every time


def _meteor(**params):
    return mtlearn.meteor("the cat sat on the mat", ["on the mat the cat sat"], stages=["exact"], **params)


# Values unlikely to have been seen as plain floats earlier in the process (the old lru_cache
# made a numpy value work only after an equal float had been used).
SWEEP = np.linspace(0.0137, 0.9871, 7)


@pytest.mark.parametrize("which", ["alpha", "gamma"])
def test_meteor_accepts_numpy_sweeps_the_same_way_every_time(which):
    for value in SWEEP:
        numpy_first = _meteor(**{which: value})
        plain = _meteor(**{which: float(value)})
        numpy_again = _meteor(**{which: value})
        assert numpy_first.score == plain.score == numpy_again.score
        assert numpy_first.signature == plain.signature
        assert type(getattr(numpy_first, which)) is float


def test_meteor_accepts_numpy_beta_and_integer_scalars():
    for beta in (np.float64(2.0), np.float32(2.0), np.int64(2), 2, 2.0):
        r = _meteor(beta=beta)
        assert r.score == _meteor(beta=2).score
        assert "beta:2|" in r.signature
    fractional = np.linspace(1.1, 3.9, 4)
    for beta in fractional:
        assert _meteor(beta=beta).score == _meteor(beta=float(beta)).score


def test_meteor_accepts_fractions_and_signs_them():
    r = _meteor(alpha=Fraction(9, 10), beta=Fraction(3), gamma=Fraction(1, 3))
    assert r.score == _meteor(alpha=0.9, beta=3, gamma=Fraction(1, 3)).score
    assert "alpha:0.9|beta:3|gamma:1/3|" in r.signature


def _penalty_values(beta, gamma):
    return (
        formulas.exact(beta),
        formulas.exact(gamma),
        formulas.f_mean(Fraction(6, 7), Fraction(3, 4), gamma),
        MeteorOptions(beta=beta).penalty_note,
        formulas.fragmentation_penalty(2, 6, beta=beta, gamma=gamma),
    )


# Whole β (the exact Fraction path) and fractional β (the float path), with fractional α and γ.
@pytest.mark.parametrize("betas", [np.linspace(0.0, 6.0, 7), np.linspace(1.05, 4.95, 5)])
def test_meteor_and_its_penalty_take_numpy_parameters_like_plain_floats(betas):
    gammas = np.linspace(0.0171, 0.9829, len(betas))
    alphas = np.linspace(0.0233, 0.9767, len(betas))
    for dtype in (np.float64, np.float32):
        for alpha, beta, gamma in zip(alphas.astype(dtype), betas.astype(dtype), gammas.astype(dtype)):
            plain = dict(alpha=float(alpha), beta=float(beta), gamma=float(gamma))
            numpy_first = _penalty_values(beta, gamma), _meteor(alpha=alpha, beta=beta, gamma=gamma)
            by_float = _penalty_values(plain["beta"], plain["gamma"]), _meteor(**plain)
            numpy_again = _penalty_values(beta, gamma), _meteor(alpha=alpha, beta=beta, gamma=gamma)
            assert numpy_first[0] == by_float[0] == numpy_again[0], (dtype, beta, gamma)
            assert [type(v) for v in numpy_first[0]] == [type(v) for v in by_float[0]]
            assert numpy_first[1].score == by_float[1].score == numpy_again[1].score, (dtype, plain)
            assert numpy_first[1].signature == by_float[1].signature
            assert numpy_first[1].explain() == by_float[1].explain()

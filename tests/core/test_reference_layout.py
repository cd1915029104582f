"""mtlearn.check_reference_layout: one test per layout mistake, and no warning on correct calls.

The corpus functions warn (ReferenceLayoutWarning, with the corrected call) on a mistaken layout
and keep raising their own errors; correct layouts — the README's and cards' examples, WMT22's
one and two references per segment, ambiguous square shapes — never warn.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import mtlearn
from mtlearn.core.references import ReferenceLayoutWarning

CANDS = ["the cat sat on the mat", "a dog ran in the park", "it rained all day"]
STREAM_A = ["the cat sat on the mat", "the dog ran in the park", "it rained all day long"]
STREAM_B = ["a cat sat on a mat", "a dog was running in the park", "rain fell all day"]
PER_SEGMENT = [list(refs) for refs in zip(STREAM_A, STREAM_B)]

CORPUS_FUNCTIONS = {
    "corpus_bleu": mtlearn.corpus_bleu,
    "corpus_meteor": lambda c, r: mtlearn.corpus_meteor(c, r, stages=["exact"]),
    "corpus_chrf": mtlearn.corpus_chrf,
    "corpus_ter": mtlearn.corpus_ter,
}


def no_warning(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReferenceLayoutWarning)
        return fn(*args)


# ------------------------------------------------------------------ each mistake


def test_streams_passed_for_segments_are_named_and_the_fix_is_right():
    layout = mtlearn.check_reference_layout(CANDS, [STREAM_A, STREAM_B])
    assert (layout.layout, layout.ok, layout.n_references) == ("streams", False, 2)
    assert "2 reference streams of 3 segments" in layout.message
    fixed = eval(layout.fix, {"references": [STREAM_A, STREAM_B]})  # the call the message prints
    assert fixed == PER_SEGMENT
    assert mtlearn.check_reference_layout(CANDS, fixed).ok


def test_one_stream_passed_as_a_list_of_one_list():
    layout = mtlearn.check_reference_layout(CANDS, [STREAM_A])
    assert layout.layout == "streams" and "1 reference stream of 3" in layout.message


def test_segments_where_streams_are_expected_is_the_reverse_fix():
    # sacreBLEU's layout is the transpose; the same expression turns segments into streams.
    streams = eval("[list(refs) for refs in zip(*references)]", {"references": PER_SEGMENT})
    assert streams == [STREAM_A, STREAM_B]


def test_a_single_string_where_a_list_is_expected():
    layout = mtlearn.check_reference_layout(CANDS, "the cat sat on the mat")
    assert (layout.layout, layout.ok) == ("single-string", False)
    assert "bleu(candidate, [reference])" in layout.message
    one = mtlearn.check_reference_layout(CANDS[:1], "the cat sat on the mat")
    assert one.fix == "[[references]]"


def test_the_references_of_one_candidate_not_wrapped():
    layout = mtlearn.check_reference_layout(CANDS[:1], STREAM_A)
    assert (layout.layout, layout.fix) == ("flat-references", "[references]")


def test_token_lists_not_wrapped_in_a_list_per_segment():
    cands = [c.split() for c in CANDS]
    refs = [r.split() for r in STREAM_A]
    layout = mtlearn.check_reference_layout(cands, refs)
    assert (layout.layout, layout.fix) == ("unwrapped-tokens", "[[ref] for ref in references]")
    # mtlearn would read every token as a reference: the warning is all that stops a wrong score.
    with pytest.warns(ReferenceLayoutWarning, match="wrap each"):
        wrong = mtlearn.corpus_bleu(cands, refs)
    right = no_warning(mtlearn.corpus_bleu, cands, [[r] for r in refs])
    assert wrong.score != right.score


def test_lengths_that_disagree_are_named_and_stay_errors():
    layout = mtlearn.check_reference_layout(CANDS, PER_SEGMENT[:2])
    assert (layout.layout, layout.ok) == ("lengths-disagree", False)
    assert "2 items for 3 candidates" in layout.message
    for fn in CORPUS_FUNCTIONS.values():
        with pytest.raises(ValueError, match="2 reference lists for 3 candidates"):
            no_warning(fn, CANDS, PER_SEGMENT[:2])


@pytest.mark.parametrize("name", sorted(CORPUS_FUNCTIONS))
def test_corpus_functions_warn_with_the_corrected_call_and_keep_their_errors(name):
    fn = CORPUS_FUNCTIONS[name]
    with pytest.warns(ReferenceLayoutWarning, match=rf"{name}\(candidates, \[list\(refs\) for refs in zip"):
        with pytest.raises(ValueError):  # 2 streams for 3 candidates: still an error
            fn(CANDS, [STREAM_A, STREAM_B])
    with pytest.warns(ReferenceLayoutWarning, match="references is one string"):
        with pytest.raises(TypeError):
            fn(CANDS, "the cat sat on the mat")


# ------------------------------------------------------------------ correct calls never warn


def test_ambiguous_only_when_the_shapes_cannot_tell():
    square = [["the cat sat", "a cat sat"], ["a dog ran", "the dog ran"]]
    layout = mtlearn.check_reference_layout(["the cat sat", "a dog ran"], square)
    assert (layout.layout, layout.ok) == ("ambiguous", True)
    # A square whose two readings score alike needs no warning (each segment's references hold it).
    alike = [["the cat sat", "a dog ran"], ["a dog ran", "the cat sat"]]
    for fn in CORPUS_FUNCTIONS.values():
        no_warning(fn, ["the cat sat", "a dog ran"], alike)
    # One candidate with one reference: both readings are the same, nothing is ambiguous.
    assert mtlearn.check_reference_layout(["a b"], [["a b"]]).layout == "segments"
    # Two candidates, one with two references and one with one: the shapes tell.
    assert mtlearn.check_reference_layout(["a", "b"], [["a", "x"], ["b"]]).layout == "segments"


@pytest.mark.parametrize("refs", [
    PER_SEGMENT,                                   # two references each
    [[r] for r in STREAM_A],                       # one reference each
    STREAM_A,                                      # one string per segment (accepted)
    [[STREAM_A[0]], [STREAM_A[1], STREAM_B[1]], [STREAM_B[2]]],  # ragged counts
])
def test_common_correct_calls_never_warn(refs):
    assert mtlearn.check_reference_layout(CANDS, refs).ok
    for fn in CORPUS_FUNCTIONS.values():
        no_warning(fn, CANDS, refs)


def test_token_list_corpora_never_warn():
    cands = [c.split() for c in CANDS]
    refs = [[a.split(), b.split()] for a, b in PER_SEGMENT]
    assert mtlearn.check_reference_layout(cands, refs).layout == "segments"
    no_warning(mtlearn.corpus_bleu, cands, refs)
    # Token candidates with string references are a correct call too.
    assert mtlearn.check_reference_layout(cands, PER_SEGMENT).layout == "segments"
    # One-token segments read the same either way.
    assert mtlearn.check_reference_layout([["yes"], ["no"]], [["yes"], ["no"]]).ok


def test_the_documented_examples_never_warn():
    from mtlearn.examples import meteor as examples

    cands = [row.candidate for row in examples.TABLE]
    refs = [[row.reference] for row in examples.TABLE]
    for fn in CORPUS_FUNCTIONS.values():
        no_warning(fn, cands, refs)


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


@pytest.mark.wmt22
def test_wmt22_layouts_never_warn(wmt22):
    ref_a = read_lines(wmt22 / "references" / "generaltest2022.de-en.ref.A.en")
    ref_b = read_lines(wmt22 / "references" / "generaltest2022.de-en.ref.B.en")
    hyps = read_lines(wmt22 / "system-outputs" / "generaltest2022.de-en.hyp.Lan-Bridge.en")
    assert len(hyps) == len(ref_a) == len(ref_b)
    for refs in ([[a] for a in ref_a], [[a, b] for a, b in zip(ref_a, ref_b)], ref_a):
        assert mtlearn.check_reference_layout(hyps, refs).ok
        no_warning(mtlearn.corpus_bleu, hyps, refs)
    # And the transposed call is caught, the fix undoing it exactly.
    layout = mtlearn.check_reference_layout(hyps, [ref_a, ref_b])
    assert layout.layout == "streams"
    assert eval(layout.fix, {"references": [ref_a, ref_b]}) == [[a, b] for a, b in zip(ref_a, ref_b)]



@pytest.mark.parametrize("command", ["bleu", "chrf", "ter", "meteor"])
def test_the_cli_never_warns_on_two_reference_files_of_two_lines(tmp_path, capsys, command):
    """The CLI reads one file per reference stream and transposes them itself; the square
    shape (2 lines, 2 files), where the layout is ambiguous, must not warn."""
    from mtlearn.tools.cli.main import main

    hyp, ref_a, ref_b = (tmp_path / name for name in ("hyp", "a", "b"))
    hyp.write_text("the cat sat\na dog ran\n", encoding="utf-8")
    ref_a.write_text("the cat sat down\nthe dog ran\n", encoding="utf-8")
    ref_b.write_text("a cat sat\na dog was running\n", encoding="utf-8")
    extra = ["--stages", "exact"] if command == "meteor" else []
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReferenceLayoutWarning)
        status = main([command, "-r", str(ref_a), "-r", str(ref_b), "-i", str(hyp), *extra])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "reference stream" not in captured.err and "ambiguous" not in captured.err


# ------------------------------------------------------------------ a corpus given to a sentence function

CORPUS_CANDS = ["the cat sat on the mat", "a dog barked"]
CORPUS_REFS = [["the cat sat on a mat"], ["the dog barked"]]

SENTENCE_FUNCTIONS = {
    "bleu": mtlearn.bleu,
    "meteor": lambda c, r: mtlearn.meteor(c, r, stages=["exact"]),
    "chrf": mtlearn.chrf,
    "ter": mtlearn.ter,
    "wer": mtlearn.wer,
    "cer": mtlearn.cer,
}


@pytest.mark.parametrize("name", sorted(SENTENCE_FUNCTIONS))
def test_a_corpus_given_to_a_sentence_function_names_the_corpus_function(name):
    # Before: wer and ter scored this corpus as one sentence of two "tokens" (2.0), bleu 0.0.
    fn = SENTENCE_FUNCTIONS[name]
    with pytest.raises(ValueError,
                       match=rf"^candidate: a list of 2 sentences .* for a corpus call corpus_{name}\("):
        fn(CORPUS_CANDS, CORPUS_REFS)
    # The same with one reference string per segment, and with a corpus of token lists.
    with pytest.raises(ValueError, match=rf"corpus_{name}\(candidates, references\)"):
        fn(CORPUS_CANDS, [refs[0] for refs in CORPUS_REFS])
    with pytest.raises(TypeError, match=r"^candidate: a list of 2 token lists"):
        fn([c.split() for c in CORPUS_CANDS], [[r[0].split()] for r in CORPUS_REFS])
    # One sentence whose references were wrapped once too often.
    with pytest.raises(ValueError, match=r"^references: references\[0\] is a list holding sentences"):
        fn(CORPUS_CANDS[0], [["the cat sat on a mat", "a cat sat on the mat"]])
    # The call it names gives the corpus score.
    assert getattr(mtlearn, f"corpus_{name}")(CORPUS_CANDS, CORPUS_REFS).score >= 0


@pytest.mark.parametrize("name", sorted(set(SENTENCE_FUNCTIONS) - {"chrf", "cer"}))
def test_tokens_given_on_purpose_still_score(name):
    fn = SENTENCE_FUNCTIONS[name]
    as_string = fn("the cat sat on the mat", ["the cat sat on a mat"])
    as_tokens = fn("the cat sat on the mat".split(), ["the cat sat on a mat".split()])
    mixed = fn("the cat sat on the mat".split(), ["the cat sat on a mat"])
    assert as_string.score == as_tokens.score == mixed.score
    # A few multi-word tokens, used on both sides, are tokens too.
    assert fn(["new york", "is", "big"], [["new york", "was", "big"]]).score == \
        fn(["newyork", "is", "big"], [["newyork", "was", "big"]]).score


def test_characters_given_to_cer_and_one_string_to_chrf_still_score():
    assert mtlearn.cer(list("kitten"), [list("sitting")]).score == mtlearn.cer("kitten", ["sitting"]).score
    assert mtlearn.chrf("the cat sat", "the cat sat").score == 1.0  # one bare reference string


def test_d2l_bleu_refuses_a_corpus_too():
    with pytest.raises(ValueError, match=r"^pred_tokens: a list of 2 sentences .* call it once per pair"):
        mtlearn.d2l_bleu(CORPUS_CANDS, "the cat sat on a mat", 2)
    with pytest.raises(ValueError, match=r"^label_tokens: a list of 2 sentences"):
        mtlearn.d2l_bleu("the cat sat", ["the cat sat on a mat", "the dog barked"], 2)
    assert mtlearn.d2l_bleu("the cat sat".split(), "the cat sat".split(), 2).score == 1.0


# ------------------------------------------------------------------ square shapes: both readings scored

SQUARE_CANDS = ["the cat sat on the mat today", "a dog barked at the postman"]
# Two reference streams (sacreBLEU's layout): stream k holds the k-th reference of every segment.
SQUARE_STREAMS = [["the cat sat on the mat today", "a dog barked at the postman"],
                  ["a cat was sitting on the mat", "the dog barked at a man"]]

ALL_CORPUS_FUNCTIONS = {**CORPUS_FUNCTIONS, "corpus_wer": mtlearn.corpus_wer,
                        "corpus_cer": mtlearn.corpus_cer}


@pytest.mark.parametrize("name", sorted(ALL_CORPUS_FUNCTIONS))
def test_a_square_call_whose_readings_differ_warns_with_both_scores(name):
    # Before: as many streams as segments scored silently as per-segment lists (BLEU 0.7622, not 1.0).
    fn = ALL_CORPUS_FUNCTIONS[name]
    with warnings.catch_warnings():  # the transposed call is square too, and warns the other way round
        warnings.simplefilter("ignore", mtlearn.core.references.AmbiguousLayoutWarning)
        # the streams transposed
        right = fn(SQUARE_CANDS, [list(refs) for refs in zip(*SQUARE_STREAMS)]).score
    with pytest.warns(mtlearn.core.references.AmbiguousLayoutWarning) as caught:
        read = fn(SQUARE_CANDS, SQUARE_STREAMS).score
    message = str(caught[0].message)
    assert read != right
    assert f"{name} = {read:.4f} as read, {right:.4f} as streams" in message
    assert f"{name}(candidates, [list(refs) for refs in zip(*references)])" in message


def test_the_bleu_of_the_issue_is_named():
    with pytest.warns(mtlearn.core.references.AmbiguousLayoutWarning,
                      match=r"corpus_bleu = 0\.\d{4} as read, 1\.0000 as streams"):
        mtlearn.corpus_bleu(SQUARE_CANDS, SQUARE_STREAMS)


def test_paired_test_warns_once_for_a_square_call_and_refuses_a_string():
    systems = {"base": SQUARE_CANDS, "other": ["the cat sat on a mat", "a dog barked"]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mtlearn.paired_test(systems, SQUARE_STREAMS, n_samples=20)
    layout = [w for w in caught if issubclass(w.category, ReferenceLayoutWarning)]
    assert len(layout) == 1 and "paired_test = " in str(layout[0].message)
    # Before: one reference string was counted as 22 segments ("2 hypotheses for 22 segments").
    with pytest.raises(TypeError,
                       match=r"^references: one string, but a paired test needs one list of references "
                                        r"per segment \(2 here\)"):
        mtlearn.paired_test(systems, "the cat sat on the mat")
    with pytest.raises(ValueError, match=r"3 reference streams of 2 segments .* paired_test\(systems, "):
        mtlearn.paired_test(systems, SQUARE_STREAMS + [SQUARE_CANDS])


def test_a_long_square_call_warns_without_scoring_twice():
    n = mtlearn.core.references.AMBIGUOUS_SCORED + 1
    cands = [f"w{i} x" for i in range(n)]
    square = [[f"w{i} x"] + [f"w{i} y"] * (n - 1) for i in range(n)]
    with pytest.warns(mtlearn.core.references.AmbiguousLayoutWarning,
                      match=f"not scored both ways: more than {n - 1}"):
        mtlearn.corpus_chrf(cands, square)


@pytest.mark.parametrize("call", [
    lambda: mtlearn.corpus_bleu([], []), lambda: mtlearn.corpus_meteor([], []),
    lambda: mtlearn.corpus_chrf([], []),
    lambda: mtlearn.corpus_ter([], []), lambda: mtlearn.corpus_wer([], []),
    lambda: mtlearn.corpus_cer([], []),
    lambda: mtlearn.paired_test({"a": [], "b": []}, []), lambda: mtlearn.compare_implementations([], []),
], ids=["bleu", "meteor", "chrf", "ter", "wer", "cer", "paired_test", "compare_implementations"])
def test_an_empty_corpus_is_the_same_error_everywhere(call):
    # The cards and the README say so (sacreBLEU: IndexError, NLTK: ZeroDivisionError, jiwer and torchmetrics:
    # 0).
    with pytest.raises(ValueError, match=r"^candidates: the corpus is empty; give at least one candidate$"):
        call()


def test_mtlearn_why_never_warns_on_two_reference_files_of_two_lines(tmp_path, capsys):
    from mtlearn.tools.cli.main import main

    hyp, ref_a, ref_b = (tmp_path / name for name in ("hyp", "a", "b"))
    hyp.write_text("the cat sat on the mat today\na dog barked at the postman\n", encoding="utf-8")
    ref_a.write_text("the cat sat on the mat today\na dog barked at the postman\n", encoding="utf-8")
    ref_b.write_text("a cat was sitting on the mat\nthe dog barked at a man\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReferenceLayoutWarning)
        status = main(["why", "bleu", "-r", str(ref_a), str(ref_b), "-i", str(hyp), "--profiles",
                       "sacrebleu-corpus,nltk-corpus"])
    captured = capsys.readouterr()
    assert status == 0 and "warning" not in captured.err, captured.err

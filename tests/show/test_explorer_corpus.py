"""mtlearn/show/explorers/corpus.py: CorpusExplorer, corpus mode of the workshop.

Bad uploads (each kind) give a message naming the file, never a traceback; the table's numbers are the
corpus functions' and the paired bootstrap's; the picture rings the chosen segment at A's and B's sentence
scores; opening segment i puts hypothesis i and reference i into the BLEU and METEOR explorers.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

import pytest
from explorer_html import numbers

from mtlearn import bleu, corpus_bleu, corpus_chrf, corpus_meteor, corpus_ter
from mtlearn.show.explorers.corpus import HOW_TO, CorpusExplorer
from mtlearn.show.plots import find_gid
from mtlearn.study import corpus_compare as cc

SAMPLE = cc.wmt22_sample()
REF = "\n".join(SAMPLE.reference.lines).encode("utf-8") + b"\n"
HYPS = {name: "\n".join(SAMPLE.hypotheses(name)).encode("utf-8") + b"\n" for name in SAMPLE.names}


def upload(name: str, content: bytes) -> dict[str, Any]:
    """One file as ipywidgets 8's FileUpload holds it."""
    return {"name": name, "type": "text/plain", "size": len(content), "content": memoryview(content),
            "last_modified": datetime(2026, 12, 4, tzinfo=timezone.utc)}


@pytest.fixture(scope="module")
def loaded() -> CorpusExplorer:
    return CorpusExplorer(sample=True)


def uploaded(reference: tuple, systems: tuple) -> CorpusExplorer:
    x = CorpusExplorer()
    x.reference_upload.value = reference
    x.systems_upload.value = systems
    x.score_button.click()
    return x


def test_before_a_corpus_the_explorer_says_what_to_do() -> None:
    x = CorpusExplorer()
    assert x.result is None and x.error is None and x.notes == [HOW_TO]
    assert x.table_html.value == "" and x.image.layout.display == "none"
    with pytest.raises(ValueError, match="no corpus loaded"):
        x.open_segment(1)


BAD = {
    "binary": (upload("ref.txt", REF), (upload("model.bin", b"\x00\x01\x02" * 10),),
               r"^model\.bin: a binary file"),
    "latin-1": (upload("ref.txt", REF), (upload("sys.de", "Bär\n".encode("latin-1") * 40),),
                r"^sys\.de: not UTF-8 text \(byte 0xe4"),
    "empty": (upload("ref.txt", b""), (upload("sys.txt", REF),), r"^ref\.txt: the file is empty"),
    "too big": (upload("ref.txt", REF), (upload("huge.txt", b"x" * (cc.MAX_FILE_BYTES + 1)),),
                r"^huge\.txt: 2,097,153 bytes; files of at most 2,097,152 bytes \(2 MB\)"),
    "line count": (upload("ref.txt", REF), (upload("short.txt", b"one line\n"),),
                   r"^short\.txt: 1 line, but the reference ref\.txt has 40"),
    "six systems": (upload("ref.txt", REF), tuple(upload(f"s{k}.txt", REF) for k in range(6)),
                    r"^systems: 6 system files .* at most 5"),
    "no reference": ((), (upload("sys.txt", REF),), r"^reference: no reference file uploaded"),
    "no system": ((upload("ref.txt", REF),), (), r"^systems: no system file"),
}


@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_upload_gives_its_message(kind: str) -> None:
    reference, systems, message = BAD[kind]
    x = uploaded((reference,) if isinstance(reference, dict) else reference, systems)
    assert x.result is None and x.comparison is None
    assert x.error is not None
    assert re.search(message, x.error), x.error
    assert "mtlearn-error" in x.message_html.value and x.table_html.value == ""


def test_a_bad_upload_after_a_good_corpus_clears_the_table() -> None:
    x = CorpusExplorer(sample=True, n_samples=50)
    assert x.table_html.value
    x.reference_upload.value = (upload("ref.txt", b"\xff\xfe\x00"),)
    x.systems_upload.value = (upload("sys.txt", REF),)
    x.load_uploads()
    assert x.error.startswith("ref.txt: a binary file") and x.table_html.value == "" and x.comparison is None


def test_good_uploads_are_scored_the_first_system_the_baseline() -> None:
    names = list(SAMPLE.names)[::-1]  # LT22 first: it is the baseline now
    x = uploaded((upload("ref.txt", REF),), tuple(upload(n, HYPS[n]) for n in names))
    assert x.error is None and x.comparison is not None
    assert x.comparison.corpus.names == tuple(names)
    got = numbers(x.table_html).values
    assert float(got["bleu-0"]) == corpus_bleu(SAMPLE.hypotheses(names[0]), SAMPLE.references()).score
    assert "bleu-p-0" not in got and "bleu-p-1" in got


def test_the_table_shows_the_corpus_functions_and_the_bootstrap(loaded: CorpusExplorer) -> None:
    got = numbers(loaded.table_html).values
    refs = SAMPLE.references()
    functions = {"bleu": corpus_bleu, "chrf": corpus_chrf, "ter": corpus_ter, "meteor": corpus_meteor}
    tests = cc.compare(SAMPLE)  # the same seed and number of samples: the same p-values
    for metric, function in functions.items():
        for k, name in enumerate(SAMPLE.names):
            result = function(SAMPLE.hypotheses(name), refs)
            assert float(got[f"{metric}-{k}"]) == result.score, (metric, name)
            assert result.signature in loaded.table_html.value
        assert float(got[f"{metric}-p-1"]) == tests.p_value(metric, SAMPLE.names[1])
    assert f"{cc.N_RESAMPLES} samples, seed {cc.SEED}" in loaded.table_html.value
    assert f"bs:{cc.N_RESAMPLES}" in loaded.table_html.value  # the test's settings in the signature


def test_the_picture_rings_the_segment_at_the_sentence_scores(loaded: CorpusExplorer) -> None:
    a, b = SAMPLE.names
    loaded.set_inputs(system_a=b, system_b=a, metric="chrf", segment=7)
    marked = find_gid(loaded.figure.axes[0], "marked")[0].get_offsets().tolist()
    expected = [cc.sentence_scores(SAMPLE, b, "chrf")[6], cc.sentence_scores(SAMPLE, a, "chrf")[6]]
    assert marked == [expected]
    assert len(find_gid(loaded.figure.axes[0], "segment")[0].get_offsets()) == SAMPLE.n_segments
    assert loaded.figure.axes[0].get_xlabel() == f"sentence chrF of A: {b}"
    assert SAMPLE.reference.lines[6].split()[0] in loaded.segment_html.value
    loaded.set_inputs(system_a=a, system_b=b, metric="bleu", segment=1)


@pytest.mark.parametrize("segment", [1, 17, 40])
def test_opening_a_segment_sets_the_sentence_explorers(loaded: CorpusExplorer, segment: int) -> None:
    a = loaded.system_a_input.value
    loaded.segment_input.value = segment
    loaded.open_button.click()
    hypothesis, reference = SAMPLE.hypotheses(a)[segment - 1], SAMPLE.reference.lines[segment - 1]
    for explorer in (loaded.bleu_explorer, loaded.meteor_explorer):
        assert explorer.candidate_input.value == hypothesis
        assert explorer.references_input.value == reference
    assert loaded.bleu_explorer.result.score == bleu(hypothesis, [reference], smoothing="exp",
                                                     effective_order=True).score
    shown = float(numbers(loaded.segment_html).values["sentence-0"])  # the dot's number = the explorer's
    assert shown == loaded.bleu_explorer.result.score
    assert loaded.meteor_explorer.result is not None and loaded.error is None


def test_open_segment_checks_its_number(loaded: CorpusExplorer) -> None:
    with pytest.raises(ValueError, match="segment: give a line number from 1 to 40, got 41"):
        loaded.open_segment(41)
    loaded.open_segment(2)
    assert loaded.segment_input.value == 2
    assert loaded.bleu_explorer.candidate_input.value == SAMPLE.hypotheses(SAMPLE.names[0])[1]


def test_the_segment_box_takes_from_the_browser_only_a_value_in_range(loaded: CorpusExplorer) -> None:
    loaded.segment_input.set_state({"value": 1000, "max": 10**9})
    assert loaded.segment_input.max == SAMPLE.n_segments and loaded.segment_input.value == SAMPLE.n_segments


def test_a_reference_with_a_unicode_line_break_stays_one_reference() -> None:
    # The files end lines at \n only; the references box splits at every line break: one reference stays one.
    line = "the cat\u2028sat on the mat"
    x = uploaded((upload("ref.txt", f"{line}\n".encode("utf-8")),),
                 (upload("sys.txt", b"the cat sat on the mat\n"),))
    x.open_segment(1)
    assert len(x.bleu_explorer.result.reference_tokens) == 1
    assert x.bleu_explorer.result.score == bleu("the cat sat on the mat", [line]).score == 1.0
    assert numbers(x.table_html).values["bleu-0"] == "1.0"


def test_a_browser_message_sets_the_uploads_files_and_nothing_else() -> None:
    x = CorpusExplorer()
    x.systems_upload.set_state({"multiple": False, "accept": ".exe", "description": "<b>x</b>"})
    assert x.systems_upload.multiple is True and x.systems_upload.accept == ""
    assert x.systems_upload.description == "System files (1-5)"
    x.sample_button.set_state({"description": "gone", "disabled": True})
    assert x.sample_button.description == "WMT22 sample" and not x.sample_button.disabled
    def sent(name: str, content: bytes) -> dict[str, Any]:  # as the browser sends a file
        return {**upload(name, content), "last_modified": 1_796_000_000_000}

    x.reference_upload.set_state({"value": [sent("ref.txt", REF)]})
    x.systems_upload.set_state({"value": [sent(n, HYPS[n]) for n in SAMPLE.names]})
    x.score_button.click()
    assert x.error is None and x.comparison.corpus.names == SAMPLE.names


def test_without_wordnet_the_table_has_three_metrics_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    import mtlearn.metrics.meteor.synonyms
    from mtlearn.metrics.meteor.wordnet import WordNetMissingError

    def no_wordnet(*args: Any, **kwargs: Any) -> Any:
        raise WordNetMissingError("simulated: no WordNet here")

    monkeypatch.setattr(mtlearn.metrics.meteor.synonyms, "shared_synonym_index", no_wordnet)
    x = CorpusExplorer(sample=True, n_samples=50)
    assert x.error is None and "METEOR: WordNet for NLTK was not found" in x.message_html.value
    assert set(x.comparison.results) == {"bleu", "chrf", "ter"} and "METEOR" not in x.table_html.value
    assert float(numbers(x.table_html).values["ter-1"]) == corpus_ter(SAMPLE.hypotheses(SAMPLE.names[1]),
                                                                      SAMPLE.references()).score

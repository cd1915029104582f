"""Corpus mode's data (mtlearn/study/corpus_compare.py): files read and checked, systems scored and tested."""

from __future__ import annotations

import pytest

from mtlearn import corpus_bleu, corpus_chrf, corpus_meteor, corpus_ter
from mtlearn.study import corpus_compare as cc
from mtlearn.study.significance import paired_test


@pytest.fixture(scope="module")
def sample() -> cc.CorpusSet:
    return cc.wmt22_sample()


@pytest.fixture(scope="module")
def comparison(sample: cc.CorpusSet) -> cc.Comparison:
    return cc.compare(sample)


# ------------------------------------------------------------------------------- bad files, each kind


def test_a_file_above_the_size_cap_is_refused_with_its_name() -> None:
    content = b"a line\n" * (cc.MAX_FILE_BYTES // 7 + 1)
    with pytest.raises(cc.CorpusFileError, match=r"^big\.txt: .* bytes; files of at most 2,097,152 bytes"):
        cc.read_text_file("big.txt", content)


def test_a_binary_file_is_refused() -> None:
    with pytest.raises(cc.CorpusFileError, match=r"^model\.bin: a binary file \(it holds NUL bytes\)"):
        cc.read_text_file("model.bin", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def test_a_file_not_in_utf8_is_refused_with_the_byte() -> None:
    latin1 = "der Bär läuft\n".encode("latin-1")
    with pytest.raises(cc.CorpusFileError, match=r"^hyp\.de: not UTF-8 text \(byte 0xe4 at position 5"):
        cc.read_text_file("hyp.de", latin1)


@pytest.mark.parametrize("content", [b"", b"\n", b"  \n\t\n"])
def test_an_empty_file_is_refused(content: bytes) -> None:
    with pytest.raises(cc.CorpusFileError, match=r"^ref\.txt: (the file is empty|only blank lines)"):
        cc.read_text_file("ref.txt", content)


def test_too_many_lines_are_refused() -> None:
    with pytest.raises(cc.CorpusFileError, match=r"^long\.txt: 3,001 lines; corpus mode reads at most 3,000"):
        cc.read_text_file("long.txt", b"x\n" * (cc.MAX_SEGMENTS + 1))


def test_a_system_with_another_line_count_is_refused() -> None:
    ref = cc.read_text_file("ref.txt", b"a\nb\nc\n")
    good = cc.read_text_file("good.txt", b"a\nb\nc\n")
    short = cc.read_text_file("short.txt", b"a\nb\n")
    with pytest.raises(cc.CorpusFileError, match=r"^short\.txt: 2 lines, but the reference ref\.txt has 3"):
        cc.corpus_set(ref, [good, short])


def test_more_than_five_systems_are_refused() -> None:
    ref = cc.read_text_file("ref.txt", b"a\n")
    systems = [cc.read_text_file(f"s{k}.txt", b"a\n") for k in range(cc.MAX_SYSTEMS + 1)]
    with pytest.raises(cc.CorpusFileError, match=r"^systems: 6 system files \(s0\.txt, .*\); corpus mode "
                                                 r"compares at most 5"):
        cc.corpus_set(ref, systems)
    assert cc.corpus_set(ref, systems[:cc.MAX_SYSTEMS]).names == tuple(f"s{k}.txt" for k in range(5))


def test_files_too_long_to_score_within_a_minute_are_refused_before_scoring() -> None:
    # 2,000 lines of 120 words fit the size cap (about 1.4 MB) but TER alone would take about 9 minutes.
    line = " ".join(f"w{k}" for k in range(120))
    ref = cc.read_text_file("ref.txt", f"{line}\n".encode() * 2000)
    hyp = cc.read_text_file("hyp.txt", f"{line} x\n".encode() * 2000)
    assert len(f"{line}\n".encode()) * 2000 < cc.MAX_FILE_BYTES
    with pytest.raises(cc.CorpusFileError, match=r"^systems: too much text to score here within a minute "
                                                 r"\(3,543,122,000 units of work: .* at most 300,000,000\)"):
        cc.corpus_set(ref, [hyp])
    assert cc.corpus_work(ref, [hyp]) == 2000 * 121 ** 3  # the longer side of each segment: the hypothesis


def test_no_system_and_a_name_given_twice_are_refused() -> None:
    ref = cc.read_text_file("ref.txt", b"a\n")
    with pytest.raises(cc.CorpusFileError, match="no system file"):
        cc.corpus_set(ref, [])
    one = cc.read_text_file("s.txt", b"a\n")
    with pytest.raises(cc.CorpusFileError, match=r"^s\.txt: given twice"):
        cc.corpus_set(ref, [one, one])


def test_lines_are_read_as_sacrebleu_reads_a_file() -> None:
    # \r\n endings, a byte-order mark and a blank line inside; a line separator inside a segment stays.
    f = cc.read_text_file("x.txt", "\ufeffone\r\n\ntwo\u2028half\n".encode("utf-8"))
    assert f.lines == ("one", "", "two\u2028half")


# ------------------------------------------------------------------------------- the table's numbers


def test_the_sample_is_the_shipped_one(sample: cc.CorpusSet) -> None:
    from mtlearn.examples.wmt22 import WMT22_DE_EN_SAMPLE
    lines = (WMT22_DE_EN_SAMPLE / "hyp.LT22.en").read_text(encoding="utf-8").splitlines()
    assert sample.hypotheses("hyp.LT22.en") == lines
    assert sample.n_segments == len(lines) == 40


def test_scores_equal_the_corpus_functions(sample: cc.CorpusSet, comparison: cc.Comparison) -> None:
    refs = [[line] for line in sample.reference.lines]
    for metric, function in (("bleu", corpus_bleu), ("chrf", corpus_chrf), ("ter", corpus_ter),
                             ("meteor", corpus_meteor)):
        for name in sample.names:
            expected = function(sample.hypotheses(name), refs)
            assert comparison.score(metric, name) == expected.score, (metric, name)
            assert comparison.results[metric][name].signature == expected.signature
    assert comparison.failed == {}


def test_p_values_equal_paired_test_with_the_same_settings(sample: cc.CorpusSet,
                                                          comparison: cc.Comparison) -> None:
    # mtlearn's paired_test defaults BLEU to sacreBLEU's 13a and exp smoothing: the corpus functions' own
    # defaults are given to it here, so the two must agree to the last digit.
    systems = {name: sample.hypotheses(name) for name in sample.names}
    own = {"bleu": {"tokenize": "whitespace", "smoothing": "none"}}
    for metric in cc.METRICS:
        expected = paired_test(systems, sample.references(), metric=metric, n_samples=cc.N_RESAMPLES,
                               seed=cc.SEED, **own.get(metric, {}))
        got = comparison.tests[metric]
        assert [s.to_dict() for s in got.systems] == [s.to_dict() for s in expected.systems], metric
        assert comparison.p_value(metric, sample.names[0]) is None


def test_the_bootstrap_is_reproducible(sample: cc.CorpusSet, comparison: cc.Comparison) -> None:
    again = cc.compare(sample)
    for metric in cc.METRICS:
        assert again.tests[metric] == comparison.tests[metric]
    other_seed = cc.compare(sample, seed=cc.SEED + 1)
    assert other_seed.tests["chrf"].baseline.ci != comparison.tests["chrf"].baseline.ci  # the seed is used


def test_one_system_has_scores_and_no_test(sample: cc.CorpusSet) -> None:
    said: list[str] = []
    alone = cc.compare(cc.corpus_set(sample.reference, sample.systems[:1]), progress=said.append)
    assert said == [f"{cc.METRIC_NAMES[m]}: scoring 1 system(s) of 40 segments" for m in cc.METRICS]
    assert alone.tests == {} and alone.p_value("bleu", sample.names[0]) is None
    assert alone.score("ter", sample.names[0]) == corpus_ter(sample.hypotheses(sample.names[0]),
                                                             sample.references()).score


def test_sentence_scores_are_the_sentence_functions(sample: cc.CorpusSet) -> None:
    from mtlearn import bleu, chrf
    name = sample.names[1]
    got = cc.sentence_scores(sample, name, "bleu")
    hyps, refs = sample.hypotheses(name), sample.reference.lines
    assert got == [bleu(h, [r], smoothing="exp", effective_order=True).score for h, r in zip(hyps, refs)]
    assert cc.sentence_scores(sample, name, "chrf")[7] == chrf(hyps[7], [refs[7]]).score
    with pytest.raises(ValueError, match="metric: unknown value 'ter'"):
        cc.sentence_scores(sample, name, "ter")
    with pytest.raises(LookupError, match="no system 'nope'"):
        cc.sentence_scores(sample, "nope", "bleu")

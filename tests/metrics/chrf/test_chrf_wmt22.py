"""mtlearn's corpus chrF equals sacreBLEU's and WMT22's official chrF on every WMT22 system.

Independent references: sacreBLEU 2.6's ``CHRF`` run here on the same files, and the
organisers' ``automatic-scores.tsv``. Every into-English pair, every system:

- chrF (sacreBLEU's defaults) against each single reference and against all references:
  equal to sacreBLEU within 1e-12, and to WMT's ``chrf-A``/``chrf-B``/``chrf-C`` rows;
- WMT's ``chrf-all`` rows (several references) are what sacreBLEU's rule gives with the
  references in reverse order, i.e. ``reference_ties="last"``: reproduced within 1e-12 on
  every row; with sacreBLEU's default order (``"first"``) seven systems differ, by the
  amounts measured and pinned here (the card explains why);
- chrF++ (``word_order=2``) against sacreBLEU on de-en (every system; reference A, and A with B), to keep the
  file within its time budget (chrF++ on random inputs: test_chrf_sacrebleu.py).

Tiers (tests/tiers.py): the full tier (make test-full) compares every segment of every system. The default
tier compares mtlearn with sacreBLEU on the sampled segments of every system and reference set (chrF++
too), and with WMT's official rows on the whole test set of the first system of each pair and of the
system whose chrf-all moves most with the tie rule (``FIRST_MINUS_OFFICIAL``), and the card's first row.

Keeping the file fast: each mtlearn score is computed once (``_ours``; the card's table reads the same
results), and while this module runs sacreBLEU's pure n-gram extraction of a hypothesis is memoised
(``memoised_sacrebleu``), so the A, B and all-references runs of a system, and systems with the same
output line, extract a hypothesis's n-grams once. Every sacreBLEU number still comes from its own
``CHRF.corpus_score`` (matching, best reference, sums, score). mtlearn runs unpatched.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import pytest
import sacrebleu.metrics.chrf as sacrebleu_chrf
import tiers
from repo_paths import wmt22_path
from sacrebleu.metrics import CHRF

import mtlearn

pytestmark = pytest.mark.wmt22

PAIRS = ("cs-en", "de-en", "ja-en", "ru-en", "uk-en", "zh-en")
CHRF_PLUS_PLUS_PAIRS = ("de-en",)
TOLERANCE = 1e-12
#: Lines whose sacreBLEU n-grams are kept (more than one system's output: a WMT22 test set has at most 2018
#: lines).
MEMO_LINES = 4096

#: chrf-all: mtlearn with sacreBLEU's tie rule ("first") minus WMT's number, x 100 (rounded to 1e-6):
#: the segments where every reference scores 0 keep reference A (B for cs-en), WMT's keep the other.
FIRST_MINUS_OFFICIAL = {
    ("cs-en", "ALMAnaCH-Inria"): -0.005152,
    ("zh-en", "DLUT"): 0.000363,
    ("zh-en", "JDExploreAcademy"): 0.000384,
    ("zh-en", "LanguageX"): 0.000336,
    ("zh-en", "NiuTrans"): 0.000371,
    ("zh-en", "Online-A"): 0.000322,
    ("zh-en", "Online-W"): -0.008769,
}


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


@lru_cache(maxsize=None)
def _official(root: str) -> dict:
    out = {}
    with open(Path(root) / "automatic-scores.tsv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["metric"].startswith("chrf-"):
                out[(row["pair"], row["system"], row["metric"][len("chrf-"):])] = float(row["score"])
    return out


@lru_cache(maxsize=None)
def _pair(root: str, pair: str) -> dict:
    base = Path(root)
    prefix = f"generaltest2022.{pair}."
    refs = {p.name[len(prefix) + 4 : -3]: _lines(p)
            for p in sorted((base / "references").glob(prefix + "ref.*.en"))}
    systems = {p.name[len(prefix) + 4 : -3]: _lines(p)
               for p in sorted((base / "system-outputs").glob(prefix + "hyp.*.en"))}
    return {"refs": refs, "systems": systems}


@lru_cache(maxsize=None)
def _sacrebleu(root: str, pair: str, names: tuple[str, ...], word_order: int) -> CHRF:
    # sacreBLEU's own reference cache (its documented way of scoring many systems).
    refs = _pair(root, pair)["refs"]
    return CHRF(word_order=word_order, references=[refs[x] for x in names])


def _segments(refs: dict, names: tuple[str, ...]) -> list[list[str]]:
    return [list(seg) for seg in zip(*[refs[x] for x in names])]


@lru_cache(maxsize=None)
def _ours(root: str, pair: str, system: str, names: tuple[str, ...], word_order: int = 0,
          reference_ties: str = "first", lines: tuple[int, ...] | None = None) -> "mtlearn.ChrfResult":
    """mtlearn's corpus chrF of one system (of the segments ``lines``, or all), computed once per module."""
    data = _pair(root, pair)
    hyps, refs = data["systems"][system], _segments(data["refs"], names)
    if lines is not None:
        hyps, refs = tiers.subset(hyps, lines), tiers.subset(refs, lines)
    return mtlearn.corpus_chrf(hyps, refs, word_order=word_order, reference_ties=reference_ties)


def _theirs(root: str, pair: str, system: str, names: tuple[str, ...], word_order: int,
            lines: tuple[int, ...] | None) -> float:
    """sacreBLEU's corpus chrF (0-1) of the same segments."""
    hyps = _pair(root, pair)["systems"][system]
    if lines is None:
        return _sacrebleu(root, pair, names, word_order).corpus_score(hyps, None).score / 100
    refs = [tiers.subset(_pair(root, pair)["refs"][x], lines) for x in names]
    return CHRF(word_order=word_order).corpus_score(tiers.subset(hyps, lines), refs).score / 100


def _sample(root: str, pair: str) -> tuple[int, ...] | None:
    """The segments compared with sacreBLEU: None (every one) in the full tier."""
    if tiers.is_full():
        return None
    refs = _pair(root, pair)["refs"][_first_ref(root, pair)]
    return tuple(tiers.sample_lines(len(refs), every=tiers.CHRF_EVERY))


def _first_ref(root: str, pair: str) -> str:
    return sorted(_pair(root, pair)["refs"])[0]


def _whole_test_set(pair: str, systems) -> set[str]:
    """The systems whose whole test set is compared with WMT's official rows (every one in the full tier)."""
    if tiers.is_full():
        return set(systems)
    pinned = [(abs(v), s) for (p, s), v in FIRST_MINUS_OFFICIAL.items() if p == pair]
    return set(sorted(systems)[:tiers.CHRF_OFFICIAL_FIRST_SYSTEMS]) | ({max(pinned)[1]} if pinned else set())


@pytest.fixture(scope="module", autouse=True)
def memoised_sacrebleu() -> Iterator[None]:
    """sacreBLEU's n-gram extraction (pure functions of a string) memoised for this module.

    sacreBLEU extends the returned list with the word n-grams and only reads the Counters, so each
    call gets a fresh list of the same (never mutated) Counters. The memo holds the last
    ``MEMO_LINES`` lines (a system's A, B and all-references runs come one after the other), so the
    module's memory stays bounded.
    """
    chars, words = sacrebleu_chrf.extract_all_char_ngrams, sacrebleu_chrf.extract_word_ngrams
    char_memo = lru_cache(maxsize=MEMO_LINES)(lambda line, order, space: tuple(chars(line, order, space)))
    word_memo = lru_cache(maxsize=2 * MEMO_LINES)(lambda tokens, n: words(list(tokens), n))

    def extract_all_char_ngrams(line: str, max_order: int, include_whitespace: bool = False) -> list[Counter]:
        return list(char_memo(line, max_order, include_whitespace))

    def extract_word_ngrams(tokens: list[str], n: int) -> Counter:
        return word_memo(tuple(tokens), n)

    sacrebleu_chrf.extract_all_char_ngrams = extract_all_char_ngrams
    sacrebleu_chrf.extract_word_ngrams = extract_word_ngrams
    try:
        yield
    finally:
        sacrebleu_chrf.extract_all_char_ngrams, sacrebleu_chrf.extract_word_ngrams = chars, words


@pytest.fixture(scope="module")
def root(wmt22: Path) -> str:
    return str(wmt22)


def _check_all_references(root: str, pair: str, system: str, names: tuple[str, ...],
                          first: "mtlearn.ChrfResult") -> None:
    """WMT's chrf-all is reference_ties="last"; "first" (sacreBLEU's order) differs by the pinned amounts."""
    wmt = _official(root)[(pair, system, "all")] / 100
    last = _ours(root, pair, system, names, 0, "last")
    assert abs(last.score - wmt) <= TOLERANCE, (pair, system)
    measured = round(100 * (first.score - wmt), 6)
    assert measured == FIRST_MINUS_OFFICIAL.get((pair, system), 0.0), (pair, system, measured)
    # The two rules differ only where references tie with different statistics: there every
    # reference scores 0 (no n-gram matches) and only the reference lengths differ.
    changed = [i for i, (a, b) in enumerate(zip(first.segments.stats(), last.segments.stats())) if a != b]
    assert all(first.segments[i].score == 0 == last.segments[i].score for i in changed)
    assert bool(changed) == ((pair, system) in FIRST_MINUS_OFFICIAL)


@pytest.mark.parametrize("pair", PAIRS)
def test_chrf_every_system_every_reference_set(root: str, pair: str) -> None:
    data, official = _pair(root, pair), _official(root)
    names = tuple(sorted(data["refs"]))
    ref_sets = {x: (x,) for x in names}
    if len(names) > 1:
        ref_sets["all"] = names
    assert data["systems"], pair
    lines, whole = _sample(root, pair), _whole_test_set(pair, data["systems"])
    checked = 0
    for system in data["systems"]:
        for label, chosen in ref_sets.items():
            ours = _ours(root, pair, system, chosen, lines=lines)
            assert (abs(ours.score - _theirs(root, pair, system, chosen, 0, lines))
                    <= TOLERANCE), (pair, system, label)
            if system not in whole:
                continue
            ours = _ours(root, pair, system, chosen)
            if label == "all":
                _check_all_references(root, pair, system, chosen, ours)
            else:
                assert (abs(ours.score - official[(pair, system, label)] / 100)
                        <= TOLERANCE), (pair, system, label)
            checked += 1
        if len(names) == 1:  # one reference: WMT's chrf-all is chrf-A
            assert official[(pair, system, "all")] == official[(pair, system, names[0])]
            checked += system in whole
    assert checked == len(whole) * (len(names) + 1) and whole <= set(data["systems"])
    print(f"\n{pair} ({tiers.name()} tier): {len(data['systems'])} systems x {len(ref_sets)} "
          "reference sets on "
          f"{'every' if lines is None else len(lines)} segments; whole test set against WMT: {sorted(whole)}")


@pytest.mark.parametrize("pair", CHRF_PLUS_PLUS_PAIRS)
def test_chrf_plus_plus_every_system(root: str, pair: str) -> None:
    data = _pair(root, pair)
    names = tuple(sorted(data["refs"]))
    ref_sets = [names[:1], names]  # reference A alone, and A and B
    lines = _sample(root, pair)
    for system in data["systems"]:
        for chosen in ref_sets:
            ours = _ours(root, pair, system, chosen, 2, lines=lines)
            assert (abs(ours.score - _theirs(root, pair, system, chosen, 2, lines))
                    <= TOLERANCE), (pair, system, chosen)


def test_every_official_chrf_row_of_our_pairs_was_checked(root: str) -> None:
    official = _official(root)
    ours = [k for k in official if k[0] in PAIRS]
    systems = {pair: set(_pair(root, pair)["systems"]) for pair in PAIRS}
    assert all(system in systems[pair] for pair, system, _ in ours), "a row without a system output"
    # every system has chrf-all and one row per reference
    for pair in PAIRS:
        refs = _pair(root, pair)["refs"]
        assert {k[2] for k in ours if k[0] == pair} == set(refs) | {"all"}
        assert len([k for k in ours if k[0] == pair]) == len(systems[pair]) * (len(refs) + 1)
    assert wmt22_path().is_dir()


def test_card_table_is_mtlearn_and_official(root: str) -> None:
    """The WMT22 table of mtlearn/metrics/chrf/CARD.md: what mtlearn computes and what WMT published."""
    import re

    from repo_paths import REPO

    card = (REPO / "mtlearn" / "metrics" / "chrf" / "CARD.md").read_text(encoding="utf-8")
    rows = []
    for line in card.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"\d+\.\d\d", cells[1]):
            rows.append((cells[0], [float(x) for x in cells[1:]]))
    assert len(rows) == 3
    data, official = _pair(root, "de-en"), _official(root)
    for system, printed in rows if tiers.is_full() else rows[:tiers.CARD_ROWS]:
        assert system in data["systems"], system
        for value, (label, chosen) in zip(printed, [("A", ("A",)), ("B", ("B",)), ("all", ("A", "B"))]):
            ours = 100 * _ours(root, "de-en", system, chosen).score
            assert round(ours, 2) == value == round(official[("de-en", system, label)], 2), (system, label)

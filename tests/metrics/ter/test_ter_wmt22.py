"""mtlearn's corpus TER equals sacreBLEU's on every WMT22 German-English system: reference A, B and both.

The independent reference is sacreBLEU 2.6's ``TER`` (tercom-compatible), run here on the same
files with its defaults; mtlearn's score is sacreBLEU's number / 100. Per system and reference set
(A alone, B alone, A and B) the corpus scores agree within 1e-12 and every segment's statistics
(fewest edits over the references, average reference length) are equal.

Keeping the file fast. sacreBLEU's TER searches shifts in pure Python (about 6-11 s per system and
reference set here, so some 5 minutes for the 27 runs). Its one expensive step is the pure function
``translation_edit_rate(hypothesis words, reference words) -> (edits, length)``, which sacreBLEU calls
once per segment and reference. While this module runs it is memoised: every sacreBLEU number still
comes from sacreBLEU's own ``TER.corpus_score`` (its tokenisation, its choice of the best reference, its
average length, its sums), but a (hypothesis, reference) word pair already searched is looked up.
That saves the both-references runs entirely (their pairs are those of the A and B runs) and the 30 %
of de-en hypotheses that repeat another system's output. mtlearn is run as a user runs it, unpatched:
``corpus_ter`` once per system and reference set.

Tiers (tests/tiers.py): the full tier (make test-full) compares every segment and every row of the card's
table; the default tier compares, for every system and reference set, the sampled segments and the
longest ones (corpus score of those segments, and each segment's statistics), and the card's first row
on the whole test set.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
import sacrebleu.metrics.ter as sacrebleu_ter
import tiers
from repo_paths import REPO
from sacrebleu.metrics import TER

import mtlearn

pytestmark = pytest.mark.wmt22

PAIR = "de-en"
TOLERANCE = 1e-12

#: The reference sets of the TER card's table: A alone, B alone, both (in the data's order).
REFERENCE_SETS = {"A": ("A",), "B": ("B",), "A+B": ("A", "B")}

CARD = REPO / "mtlearn" / "metrics" / "ter" / "CARD.md"


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


@lru_cache(maxsize=None)
def _pair(root: str) -> dict:
    base = Path(root)
    prefix = f"generaltest2022.{PAIR}."
    refs = {p.name[len(prefix) + 4 : -3]: _lines(p)
            for p in sorted((base / "references").glob(prefix + "ref.*.en"))}
    systems = {p.name[len(prefix) + 4 : -3]: _lines(p)
               for p in sorted((base / "system-outputs").glob(prefix + "hyp.*.en"))}
    return {"refs": refs, "systems": systems}


@pytest.fixture(scope="module")
def data(wmt22: Path) -> dict:
    found = _pair(str(wmt22))
    assert set(found["refs"]) == {"A", "B"} and len(found["systems"]) == 9, (sorted(found["refs"]),
                                                                             sorted(found["systems"]))
    return found


@pytest.fixture(scope="module")
def memoised_sacrebleu() -> Iterator[dict]:
    """sacreBLEU's ``translation_edit_rate`` memoised for this module (see the module docstring)."""
    original = sacrebleu_ter.translation_edit_rate
    memo: dict = {}

    def translation_edit_rate(words_hyp: list[str], words_ref: list[str]) -> tuple[int, int]:
        key = (tuple(words_hyp), tuple(words_ref))
        if key not in memo:
            memo[key] = original(words_hyp, words_ref)
        return memo[key]

    sacrebleu_ter.translation_edit_rate = translation_edit_rate
    try:
        yield memo
    finally:
        sacrebleu_ter.translation_edit_rate = original


@pytest.fixture(scope="module")
def lines(data: dict) -> list[int]:
    """The segments compared: every one in the full tier; in the default tier the sample of tests/tiers.py
    and the :data:`tiers.LONGEST` longest segments of at most :data:`tiers.TER_LONGEST_WORDS` words (the
    most words of any system plus the references: the shift search's costliest). The longest of all
    (line 1386, 396 words) costs sacreBLEU's TER 1.6 s per system and reference, a third of the file's
    time: the full tier checks it."""
    n = len(data["refs"]["A"])
    size = [max(len(out[i].split()) for out in data["systems"].values())
            + sum(len(ref[i].split()) for ref in data["refs"].values()) for i in range(n)]
    longest = sorted((i for i in range(n) if size[i] <= tiers.TER_LONGEST_WORDS), key=lambda i: -size[i])
    return tiers.sample_lines(n, longest[:tiers.LONGEST])


@pytest.fixture(scope="module")
def scored(data: dict, memoised_sacrebleu: dict, lines: list[int]) -> Callable[..., tuple]:
    """(system, reference set[, whole]) -> (mtlearn's corpus result, sacreBLEU's score, sacreBLEU's segment
    stats) on the segments of ``lines`` (the whole test set when ``whole``), once each."""
    cache: dict = {}

    def score(system: str, label: str, whole: bool = False) -> tuple:
        chosen = range(len(data["refs"]["A"])) if whole else lines
        key = (system, label, len(chosen))
        if key not in cache:
            hyps = tiers.subset(data["systems"][system], chosen)
            streams = [tiers.subset(data["refs"][x], chosen) for x in REFERENCE_SETS[label]]
            ours = mtlearn.corpus_ter(hyps, [list(seg) for seg in zip(*streams)])
            metric = TER()
            theirs = metric.corpus_score(hyps, streams)
            # The same run's segment statistics (the memo makes this a look-up of the pairs just searched).
            segments = metric._extract_corpus_statistics(hyps, streams)
            cache[key] = (ours, theirs, segments)
        return cache[key]

    return score


@pytest.mark.parametrize("label", list(REFERENCE_SETS))
def test_corpus_ter_every_system(data: dict, scored: Callable, lines: list[int], label: str) -> None:
    gaps = []
    for system in data["systems"]:
        ours, theirs, segments = scored(system, label)
        assert ours.num_edits == theirs.num_edits, (system, label)
        assert ours.reference_length == theirs.ref_length, (system, label)
        gaps.append(abs(ours.score - theirs.score / 100))
        assert gaps[-1] <= TOLERANCE, (system, label, ours.score, theirs.score)
        # Segment by segment: the fewest edits and the average reference length.
        mine = ours.segments.stats()
        assert len(mine) == len(segments) == len(lines)
        differ = [i for i, (m, s) in enumerate(zip(mine, segments))
                  if m.edits != s[0] or float(m.ref_length) != s[1]]
        assert not differ, (system, label, differ[:5])
    assert len(gaps) == 9 and max(gaps) <= TOLERANCE


def test_both_references_take_the_fewest_edits_and_the_average_length(data: dict, scored: Callable) -> None:
    """The rule behind "A+B" (tercom's, sacreBLEU's), read off mtlearn's single-reference runs."""
    for system in data["systems"]:
        a, b, both = (scored(system, label)[0].segments.stats() for label in REFERENCE_SETS)
        for x, y, z in zip(a, b, both):
            assert z.edits == min(x.edits, y.edits)
            assert z.ref_length == (x.ref_length + y.ref_length) / 2
        total = sum((s.ref_length for s in both), Fraction(0))
        assert scored(system, "A+B")[0].stats.ref_length == total


# ------------------------------------------------------------------ the TER card's WMT22 table


def _card_rows() -> list[tuple[str, list[float]]]:
    text = CARD.read_text(encoding="utf-8")
    section = text[text.index("## Values from Popular Papers\n"):text.index("## Examples\n")]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"\d+\.\d\d", cells[1]):
            rows.append((cells[0], [float(x) for x in cells[1:]]))
    return rows


def test_card_table_is_found() -> None:
    assert len(_card_rows()) == 3


def test_card_table_is_mtlearn_and_sacrebleu(data: dict, scored: Callable) -> None:
    """The WMT22 table of mtlearn/metrics/ter/CARD.md: mtlearn's TER x 100 and sacreBLEU's, rounded, on the
    whole test set (every row in the full tier; the first :data:`tiers.CARD_ROWS` in the default tier)."""
    rows = _card_rows()
    for system, printed in rows if tiers.is_full() else rows[:tiers.CARD_ROWS]:
        for value, label in zip(printed, REFERENCE_SETS):
            ours, theirs, _ = scored(system, label, whole=True)
            assert round(100 * ours.score, 2) == value == round(theirs.score, 2), (system, label)

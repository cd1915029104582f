"""mtlearn's corpus BLEU equals sacreBLEU's and WMT22's official BLEU on every de-en system.

Independent references: ``sacrebleu.corpus_bleu`` run here on the same files, and
the organisers' ``automatic-scores.tsv`` (sacreBLEU defaults: 13a, exp, mixed case).
"""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

import pytest
import sacrebleu
from repo_paths import wmt22_path

import mtlearn

pytestmark = pytest.mark.wmt22

PAIR = "de-en"
REF_SETS = {"A": ("A",), "B": ("B",), "all": ("A", "B")}


def _lines(path: Path) -> list[str]:
    # One segment a line, '\n' line ends (the data's README); str.splitlines would also
    # split on U+2028 and friends inside segments.
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


@lru_cache(maxsize=None)
def _data(root: str) -> dict:
    base = Path(root)
    refs = {x: _lines(base / "references" / f"generaltest2022.{PAIR}.ref.{x}.en") for x in "AB"}
    systems = {}
    for path in sorted((base / "system-outputs").glob(f"generaltest2022.{PAIR}.hyp.*.en")):
        name = path.name[len(f"generaltest2022.{PAIR}.hyp.") : -len(".en")]
        systems[name] = _lines(path)
    official = {}
    with open(base / "automatic-scores.tsv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["pair"] == PAIR and row["metric"].startswith("bleu-"):
                official[(row["system"], row["metric"][len("bleu-") :])] = float(row["score"])
    return {"refs": refs, "systems": systems, "official": official}


def _system_names() -> list[str]:
    root = wmt22_path()
    if not (root / "automatic-scores.tsv").is_file():
        return ["(no data)"]
    return list(_data(str(root))["systems"])


@pytest.fixture(scope="module")
def data(wmt22: Path) -> dict:
    return _data(str(wmt22))


def test_all_nine_systems_and_official_rows_present(data: dict) -> None:
    assert len(data["systems"]) == 9
    for name in data["systems"]:
        for ref_set in REF_SETS:
            assert (name, ref_set) in data["official"]
        assert len(data["systems"][name]) == len(data["refs"]["A"]) == 1984


@pytest.mark.parametrize("system", _system_names())
def test_corpus_bleu_equals_sacrebleu_and_official(data: dict, system: str) -> None:
    hyps = data["systems"][system]
    for ref_set, names in REF_SETS.items():
        streams = [data["refs"][x] for x in names]
        ours = mtlearn.corpus_bleu(hyps, [list(seg) for seg in zip(*streams)],
                                   tokenize="13a", smoothing="exp")
        theirs = sacrebleu.corpus_bleu(hyps, streams)
        assert abs(ours.score - theirs.score / 100) <= 1e-12, (system, ref_set)
        assert list(ours.matches) == list(theirs.counts)
        assert list(ours.totals) == list(theirs.totals)
        assert (ours.candidate_length, ours.reference_length) == (theirs.sys_len, theirs.ref_len)
        assert abs(ours.score - data["official"][(system, ref_set)] / 100) <= 1e-12, (system, ref_set)
        assert ours.signature.startswith(
            f"mtlearn-bleu|nrefs:{len(names)}|case:mixed|eff:no|tok:13a|smooth:exp")


def test_segment_trace_of_a_real_segment_adds_up(data: dict) -> None:
    hyps = data["systems"][next(iter(data["systems"]))]
    refs = [[a, b] for a, b in zip(data["refs"]["A"], data["refs"]["B"])]
    result = mtlearn.corpus_bleu(hyps, refs, tokenize="13a", smoothing="exp")
    for i in (0, 17, 1983):
        seg = result.segments[i]
        for n in range(1, 5):
            table = seg.ngram_table(n)
            assert sum(row.clipped_count for row in table) == seg.matches[n - 1]
            assert sum(row.candidate_count for row in table) == seg.totals[n - 1]
        single = mtlearn.bleu(hyps[i], refs[i], tokenize="13a", smoothing="exp")
        assert single.stats == seg.stats and single.score == seg.score
    summed = mtlearn.metrics.bleu.score.sum_stats(result.segments.stats())
    assert summed == result.stats

"""The alignment search against what the previous search gave on every WMT22 segment.

tests/data/meteor_alignment_counts.json.gz (written by scripts/record_alignment_counts.py
with the search of commit 1dc6b24, before the fewest-chunks tie-break) holds, per WMT22 pair, reference,
system and tie-break rule, each segment's (matches, crossings, chunks, optimal). What
must hold today, segment by segment:

* under tie_break="crossings": the same number of matches (both maximise it stage by
  stage; another choice at an earlier stage could in principle leave a later stage
  fewer words to match, but on WMT22 it never does);
* under tie_break="chunks", whose rule did not change: where both searches proved
  their alignment, the same matches, crossings and chunks (the same alignment).

Under tie_break="crossings" the rule gained a step (fewest chunks among the fewest
crossings): a stage may now keep another alignment with as many crossings, which
leaves later stages other words, so the *final* crossings can move either way; they
are not compared. The numbers proven optimal are printed per pair, and may not fall
below the old search's, except by the shortfall measured when the search was rewritten
(``FEWER_PROOFS_MEASURED``).

One test per (pair, tie-break rule); set MTLEARN_COUNTS_PAIRS=de-en,cs-en to run only some.

Tiers (tests/tiers.py): the full tier (make test-full) recomputes every segment of every record. The
default tier recomputes, of every record (every pair, reference and system), the sampled lines
(the first segments and every k-th), plus, per pair and rule, the hardest segments: a seeded draw of
those the recorded search did not prove optimal (they spend its whole node budget, so they are its
slowest) and the pair's longest segments. The same rule is asserted on them; the proofs are counted
on the segments checked.
"""

from __future__ import annotations

import os
import sys

import pytest
import tiers
from repo_paths import REPO

pytestmark = pytest.mark.wmt22

FIXTURE = REPO / "tests" / "data" / "meteor_alignment_counts.json.gz"
PAIRS = ("cs-en", "de-en", "ja-en", "ru-en", "uk-en", "zh-en")

# Where the new search proves fewer segments than the old one did, measured when it
# landed (the segments were listed then): the old search's extra proofs
# came from its dedicated block searches. Everywhere else it must prove at least as many.
FEWER_PROOFS_MEASURED = {("zh-en", "crossings"): 15, ("de-en", "chunks"): 3}


def _script():
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import record_alignment_counts
    finally:
        sys.path.pop(0)
    return record_alignment_counts


@pytest.fixture(scope="module")
def counts(wmt22):
    if not FIXTURE.is_file():
        pytest.skip(f"{FIXTURE.name} is absent (scripts/record_alignment_counts.py writes it)")
    script = _script()
    data = script.load_counts(FIXTURE)
    bad = script.check_files(data, wmt22)
    if bad:
        pytest.skip(f"the WMT22 files differ from the fixture's: {bad[:3]}")
    return data


def compare(old_rows, new_rows, tie_break):
    """The segments that break the rule, and the numbers proven optimal (old, new)."""
    broken = []
    for line, (old, new) in enumerate(zip(old_rows, new_rows)):
        m0, x0, c0, o0 = old
        m1, x1, c1, o1 = new
        if tie_break == "chunks":
            # The same exact rule: where both proved theirs, the same alignment. Where one
            # did not, an earlier stage may have kept another choice, which can leave a
            # later stage fewer words to match (zh-en, ref A, DLUT, line 588: 95 -> 94).
            wrong = o0 and o1 and (m1, x1, c1) != (m0, x0, c0)
        else:
            wrong = m1 != m0
        if wrong:
            broken.append((line, tuple(old), tuple(new)))
    return broken, sum(bool(r[3]) for r in old_rows), sum(bool(r[3]) for r in new_rows)


def _selected():
    wanted = os.environ.get("MTLEARN_COUNTS_PAIRS")
    return [p for p in PAIRS if not wanted or p in wanted.split(",")]


def hardest_lines(wmt22, counts, pair: str, tie_break: str, keys) -> dict[tuple, set[int]]:
    """Per record of (pair, tie_break): the hardest segments the sample tier adds (tests/tiers.py).

    A seeded draw of :data:`tiers.HARDEST` (record, line) items the recorded search did not prove
    optimal, and the :data:`tiers.LONGEST` items with the most candidate + reference words.
    """
    script = _script()
    unproven = [(key, i) for key in keys for i, row in enumerate(counts["records"][key]) if not row[3]]
    sizes = []
    for key in keys:
        candidates, references = script.record_texts(wmt22, counts, key)
        sizes += [(len(c.split()) + len(r.split()), key, i)
                  for i, (c, r) in enumerate(zip(candidates, references))]
    longest = [(key, i) for _size, key, i in sorted(sizes, reverse=True)[:tiers.LONGEST]]
    chosen: dict[tuple, set[int]] = {key: set() for key in keys}
    for key, i in tiers.pick(unproven, tiers.HARDEST, f"meteor-counts:{pair}:{tie_break}") + longest:
        chosen[key].add(i)
    return chosen


@pytest.mark.parametrize("tie_break", ["crossings", "chunks"])
@pytest.mark.parametrize("pair", PAIRS)
def test_counts_are_no_worse_than_recorded(counts, wmt22, pair, tie_break):
    if pair not in _selected():
        pytest.skip("not in MTLEARN_COUNTS_PAIRS")
    script = _script()
    keys = sorted(k for k in counts["records"] if k[0] == pair and k[3] == tie_break)
    assert keys, f"no records for {pair} / {tie_break}"
    hard = {} if tiers.is_full() else hardest_lines(wmt22, counts, pair, tie_break, keys)
    old_proven = new_proven = checked = total = 0
    broken = []
    for key in keys:
        lines = tiers.sample_lines(len(counts["records"][key]), hard.get(key, ()))
        old = tiers.subset(counts["records"][key], lines)
        new = script.compute_record(wmt22, counts, key, lines)
        assert len(new) == len(old)
        found, o, n = compare(old, new, tie_break)
        broken += [(key, lines[line], *rest) for line, *rest in found]
        old_proven, new_proven = old_proven + o, new_proven + n
        checked, total = checked + len(lines), total + len(counts["records"][key])
    assert not broken, broken[:10]
    print(f"\n{pair} {tie_break} ({tiers.name()} tier, {checked} of {total} segments): "
          f"proven optimal {old_proven} before, {new_proven} now")
    allowed = FEWER_PROOFS_MEASURED.get((pair, tie_break), 0)
    assert new_proven >= old_proven - allowed, (
        f"{pair} {tie_break}: {new_proven} segments proven optimal, {old_proven} before "
        f"(at most {allowed} fewer were measured when the search was rewritten)")

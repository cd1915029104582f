"""The compiled twin of METEOR's alignment gives the pure-Python alignments exactly.

``mtlearn._meteor_fast`` (built from ``_meteor_fast.pyx`` when a C compiler is present
at install time) runs the crossings rule for the exact, stem and synonym stages on
word ids; ``align_pairs_many`` uses it and hands every pair it cannot finish to
``align_pairs``, the pure-Python reference. Here both are run on the same pairs and
every field must agree: the mappings, their stages, ``optimal``, the search nodes,
crossings and chunks. The cases are built to reach each of the twin's paths: forced
blocks, one unbalanced block, interacting blocks (every combination, and the branch
and bound with its parts and its node limit), synonym components that are complete
blocks and ones that are not (the small-group walk), and pairs handed back to Python.
"""

from __future__ import annotations

import random
import shutil
import sysconfig

import pytest

import mtlearn.meteor_alignment as alignment
import mtlearn.meteor_blocks as blocks
from mtlearn.meteor_alignment import align_pairs, align_pairs_many
from mtlearn.meteor_matchers import ExactMatcher, StemMatcher, resolve_stages

from test_meteor_alignment import brute_force

COMPILED = alignment._meteor_fast is not None
needs_compiled = pytest.mark.skipif(
    not COMPILED, reason="mtlearn._meteor_fast is not built (no C compiler at install time)"
)


def python_only(jobs, stages, **options):
    return [align_pairs(c, r, stages, **options) for c, r in jobs]


def test_compiled_twin_is_built_where_a_compiler_exists():
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}) here: mtlearn runs in pure Python")
    assert COMPILED, (
        "a C compiler exists but mtlearn._meteor_fast was not built: reinstall with "
        "`pip install -e .` and read the warning it prints"
    )


@needs_compiled
def test_batch_without_the_twin_is_the_same(monkeypatch):
    jobs = [("on the mat sat the cat".split(), "the cat sat on the mat".split()),
            ("a b a".split(), "b a".split())]
    stages = [ExactMatcher()]
    compiled = list(align_pairs_many(jobs, stages))
    monkeypatch.setattr(alignment, "_meteor_fast", None)
    assert list(align_pairs_many(jobs, stages)) == compiled == python_only(jobs, stages)


def random_pairs(seed, n, vocab, length, unique=0.3):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cand = [rng.choice(vocab) if rng.random() > unique else f"u{k}" for k in range(rng.randint(*length))]
        ref = [rng.choice(vocab) if rng.random() > unique else f"u{k}" for k in range(rng.randint(*length))]
        out.append((cand, ref))
    return out


@needs_compiled
@pytest.mark.parametrize("seed", range(4))
def test_exact_and_stem_blocks_equal_python(seed):
    # Repeated function words and inflections: unbalanced blocks that interact, at the
    # exact and the stem stage.
    vocab = ["the", "the", "the", "of", "of", "a", ",", ",", "and", "cat", "cats", "run", "runs",
             "running", "x", "y"]
    jobs = random_pairs(seed, 300, vocab, (5, 40))
    stages = [ExactMatcher(), StemMatcher()]
    batch = align_pairs_many(jobs, stages)
    assert list(batch) == python_only(jobs, stages)
    assert len(batch._python) < len(jobs)  # the twin did the work


@needs_compiled
def test_small_cases_equal_brute_force():
    jobs = random_pairs(7, 400, list("aabbccd"), (1, 7), unique=0.0)
    got = align_pairs_many(jobs, [ExactMatcher()])
    for (cand, ref), a in zip(jobs, got):
        assert a.optimal
        assert a.pairs == brute_force(cand, ref, [lambda x, y: x == y], "crossings"), (cand, ref)


@needs_compiled
def test_branch_and_bound_parts_and_limits_equal_python(monkeypatch):
    # Long pairs over few repeated words: groups of blocks too many for every-combination,
    # so the branch and bound runs; with its node limit lowered it gives up on some, and
    # those pairs go back to Python (which then gives up the same way).
    vocab = ["the", "the", "of", "of", ",", ",", "a", "and", "to", "in"]
    jobs = random_pairs(11, 60, vocab, (20, 40), unique=0.3)
    stages = [ExactMatcher()]
    calls = []
    original = blocks._choose_block_subsets

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(blocks, "_choose_block_subsets", counting)
    reference = python_only(jobs, stages)
    assert len(calls) > 20 and sum(a.nodes for a in reference) > 0
    assert list(align_pairs_many(jobs, stages)) == reference
    monkeypatch.setattr(blocks, "_CHOICE_NODES", 6)
    reference = python_only(jobs, stages)
    batch = align_pairs_many(jobs, stages)
    assert list(batch) == reference
    assert batch._python  # some pairs were handed back


@needs_compiled
@pytest.mark.wordnet
def test_synonym_stage_equals_python():
    # Words with several synsets: complete components (forced or unbalanced) and
    # components that are not complete (the small-group walk).
    vocab = ["car", "auto", "automobile", "machine", "motorcar", "fast", "quick", "speedy",
             "big", "large", "great", "have", "has", "get", "got", "make", "made", "the", "a"]
    jobs = random_pairs(13, 400, vocab, (3, 25), unique=0.2)
    stages = resolve_stages(["exact", "stem", "synonym"])
    batch = align_pairs_many(jobs, stages)
    assert list(batch) == python_only(jobs, stages)
    walked = sum(1 for a in batch if a.nodes)
    assert walked > 0  # some groups were searched (counted nodes), in both


@needs_compiled
def test_node_budget_is_shared_as_in_python():
    vocab = ["the", "the", "of", "of", ",", ",", "a", "and"]
    jobs = random_pairs(17, 60, vocab, (30, 60), unique=0.2)
    for budget in (0, 3, 50):
        got = list(align_pairs_many(jobs, [ExactMatcher()], node_budget=budget))
        assert got == python_only(jobs, [ExactMatcher()], node_budget=budget)


@needs_compiled
def test_settings_the_twin_does_not_cover_go_to_python():
    jobs = [("the cat the".split(), "the the cat".split())]
    for stages, tie_break in (([ExactMatcher()], "chunks"),
                              ([ExactMatcher(), lambda a, b: a[0] == b[0]], "crossings")):
        stages = resolve_stages(stages)
        batch = align_pairs_many(jobs, stages, tie_break=tie_break)
        assert len(batch._python) == len(jobs)
        assert list(batch) == python_only(jobs, stages, tie_break=tie_break)


@needs_compiled
def test_empty_and_huge_inputs():
    jobs = [([], ["a"]), (["a"], []), ([], []), (["a"] * 10_000, ["a"] * 10_000),
            (["a", "b"] * 3000, ["b", "a"] * 2000)]
    stages = [ExactMatcher()]
    assert list(align_pairs_many(jobs, stages)) == python_only(jobs, stages)


@needs_compiled
@pytest.mark.wmt22
@pytest.mark.wordnet
def test_every_wmt22_de_en_segment_equals_python(wmt22):
    import mtlearn

    def tokens(path):
        lines = path.read_text(encoding="utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return [tuple(t.lower() for t in mtlearn.tokenize(line, "13a")) for line in lines]

    refs = [tokens(p) for p in sorted((wmt22 / "references").glob("generaltest2022.de-en.ref.*.en"))]
    hyps = [tokens(p) for p in sorted((wmt22 / "system-outputs").glob("generaltest2022.de-en.hyp.*.en"))]
    stages = resolve_stages(["exact", "stem", "synonym"])
    jobs = [(h, r) for system in hyps for ref in refs for h, r in zip(system, ref)]
    assert len(jobs) == 2 * 9 * 1984
    batch = align_pairs_many(jobs, stages)
    assert list(batch) == python_only(jobs, stages)
    assert len(batch._python) == 0  # the twin finished every de-en segment

"""Benchmark: METEOR on 300-token segments of repeated function words (issue 15: 3-5 s each, 73 s a file).

Hostile input: a 20-line file whose lines are 300 tokens drawn from two *unrelated* English
sentences (one for the hypothesis, one for the reference), so that "the", "of", "and" ...
repeat dozens of times on both sides and the exact alignment search has many equal choices.
Half the lines are the sentences repeated in order, half shuffled (seeded).

Timed, in one process, after importing both libraries:

1. **cold**: mtlearn's first ``corpus_meteor`` over the 20 lines (exact stage, the default
   crossings rule), once — its memos empty;
2. then ``--reps`` repetitions, alternating: mtlearn ``corpus_meteor`` (crossings rule, then the
   chunks rule) and the anchor, NLTK's ``meteor_score`` on the same lines with only its exact
   stage (``wordnet`` replaced by an empty lexicon, no stemming: the same stage, a greedy
   aligner that does no search). Printed: median seconds per line and for the file, the ratio
   mtlearn / NLTK, and how many lines the search left ``optimal=False`` and which limit stopped it.

The target is "well under a second" per line for mtlearn; the ratio is printed because these
machines are noisy (a ratio measured in the same run is the honest figure).

Usage::

    python benchmarks/meteor_hostile_bench.py [--reps 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

A = ("the president of the republic said that the time of the crisis is over and that the people of "
     "the country can rest").split()
B = ("in the morning the children of the village go to the school on the hill and the teachers of "
     "the school wait for them").split()
LINES, TOKENS = 20, 300


def hostile_lines() -> tuple[list[str], list[str]]:
    """20 hypothesis lines and 20 reference lines of 300 tokens (seeded)."""
    rng = random.Random(15)
    hyps, refs = [], []
    for k in range(LINES):
        hyp, ref = (A * 20)[:TOKENS], (B * 20)[:TOKENS]
        if k % 2:
            hyp, ref = rng.sample(hyp, TOKENS), rng.sample(ref, TOKENS)
        hyps.append(" ".join(hyp))
        refs.append(" ".join(ref))
    return hyps, refs


class _NoSynonyms:
    """An empty lexicon for NLTK's ``wordnet`` argument: its synonym stage matches nothing."""

    @staticmethod
    def synsets(*_args, **_kwargs):
        return []


class _NoStemming:
    @staticmethod
    def stem(word: str) -> str:
        return word + "\0"  # never equal to another word's: no stem matches beyond the exact ones


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()

    from nltk.translate.meteor_score import meteor_score

    import mtlearn

    hyps, refs = hostile_lines()
    tokens_h, tokens_r = [h.split() for h in hyps], [r.split() for r in refs]

    def ours(tie_break: str):
        return mtlearn.corpus_meteor(hyps, [[r] for r in refs], stages=["exact"], tie_break=tie_break)

    def nltk():
        return [meteor_score([r], h, stemmer=_NoStemming(), wordnet=_NoSynonyms())
                for h, r in zip(tokens_h, tokens_r)]

    def timed(fn, *a):
        start = time.perf_counter()
        value = fn(*a)
        return value, time.perf_counter() - start

    result, cold = timed(ours, "crossings")
    times: dict[str, list[float]] = {"mtlearn crossings": [], "mtlearn chunks": [], "NLTK (anchor)": []}
    ratios = []
    for _ in range(args.reps):
        _, t_cross = timed(ours, "crossings")
        _, t_chunks = timed(ours, "chunks")
        _, t_nltk = timed(nltk)
        times["mtlearn crossings"].append(t_cross)
        times["mtlearn chunks"].append(t_chunks)
        times["NLTK (anchor)"].append(t_nltk)
        ratios.append(t_cross / t_nltk)

    stops = Counter(stop.limit for s in result.segments for stop in s.search_stops)
    print(f"{LINES} lines of {TOKENS} tokens (two unrelated sentences' words), exact stage")
    print(f"mtlearn cold (first pass, crossings): {cold:.3f} s for the file, "
          f"{cold / LINES * 1000:.1f} ms a line")
    for name, values in times.items():
        med = statistics.median(values)
        print(f"{name:18}: median {med:.3f} s for the file, {med / LINES * 1000:.1f} ms a line "
              f"(range {min(values):.3f}-{max(values):.3f} s, {args.reps} reps)")
    print(f"ratio mtlearn crossings / NLTK: median {statistics.median(ratios):.2f}")
    not_optimal = sum(not s.optimal for s in result.segments)
    print(f"lines left optimal=False: {not_optimal} of {LINES}"
          + (f"; stopped by {dict(stops)}" if stops else ""))


if __name__ == "__main__":
    main()

"""Benchmark: peak memory of ``mtlearn <metric> --sentence-level`` at 100k and 1M lines.

``--sentence-level`` reads the files in step and writes each line as it is scored, so its
peak memory should not grow with the number of lines at all (until it read the files whole
first, to check that they are line-aligned: ``--rev`` shows that). Each run is a child process
(``python -m mtlearn ...`` with standard output to ``/dev/null``); its peak resident set
comes from ``os.wait4`` (the child's own ``ru_maxrss``, in KiB on Linux).

The input is WMT22 de-en (one system's output against reference A, about 2,000 lines)
repeated up to the line count. The anchors, measured in the same run on the same files:

* ``corpus``: the corpus score of the same files (``mtlearn bleu -r REF -i HYP``), which
  holds the same input and no per-line output; sentence-level streaming should not need
  much more than it;
* ``read``: a child that only reads the two files as the command line does
  (``mtlearn.tools.cli.io.load_corpus``): the memory the input text itself takes.

Printed per metric and line count: peak RSS (MB) and wall time of each, the ratio
sentence-level / corpus, and the growth from 100k to 1M lines of sentence-level minus that
of ``read`` (what the output side adds as lines grow: about 0 when it streams).
``--rev REV`` also runs the sentence-level command of an older revision (``git archive``
into a temporary folder), e.g. ``--rev HEAD~1`` to see the numbers before streaming.

Usage::

    python benchmarks/sentence_level_memory_bench.py [--wmt22 PATH] [--lines 100000 1000000]
        [--metrics bleu meteor] [--meteor-lines 100000] [--rev REV]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SYSTEM = "Online-B"


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def _write_repeated(lines: list[str], n: int, path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for k in range(n):
            out.write(lines[k % len(lines)] + "\n")


def _run(argv: list[str], pythonpath: Path) -> tuple[float, float, int]:
    """(peak RSS in MB, wall seconds, exit status) of ``python argv...`` with output to /dev/null."""
    env = dict(os.environ, PYTHONPATH=str(pythonpath))
    start = time.perf_counter()
    with open(os.devnull, "wb") as devnull:
        # cwd: not the repository, whose folder `python -m` would put before PYTHONPATH
        child = subprocess.Popen([sys.executable, *argv], stdout=devnull, stderr=subprocess.PIPE, env=env,
                                 cwd=pythonpath.parent)
        assert child.stderr is not None
        _, status, usage = os.wait4(child.pid, 0)
        err = child.stderr.read().decode("utf-8", "replace")
        child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if child.returncode != 0:
        print(f"  ! exit {child.returncode}: {err.strip()[-300:]}")
    return usage.ru_maxrss / 1024, wall, child.returncode


_READ_ONLY = ("import sys; from mtlearn.tools.cli.io import load_corpus; "
              "c = load_corpus([sys.argv[1]], sys.argv[2]); print(len(c))")


def _old_tree(rev: str, folder: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "mtlearn"], check=True,
                             capture_output=True).stdout
    folder.mkdir()
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wmt22", type=Path,
                        default=Path(os.environ.get("MTLEARN_WMT22",
                                                    REPO.parent / "shared" / "data" / "wmt22")))
    parser.add_argument("--lines", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--metrics", nargs="+", default=["bleu", "meteor"])
    parser.add_argument("--meteor-lines", type=int, nargs="+", default=[100_000],
                        help="line counts for METEOR (slower per line than BLEU)")
    parser.add_argument("--rev", default=None, help="also run this git revision's sentence-level command")
    args = parser.parse_args()

    root = args.wmt22
    refs = _lines(root / "references" / "generaltest2022.de-en.ref.A.en")
    hyps = _lines(root / "system-outputs" / f"generaltest2022.de-en.hyp.{SYSTEM}.en")
    assert len(refs) == len(hyps)
    print(f"input: WMT22 de-en {SYSTEM} against reference A ({len(refs)} lines), repeated")
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        old = _old_tree(args.rev, tmp_path / "old") if args.rev else None
        for metric in args.metrics:
            extra = ["--stages", "exact,stem"] if metric == "meteor" else []
            counts = args.meteor_lines if metric == "meteor" else args.lines
            grown = {}
            for n in counts:
                ref, hyp = tmp_path / f"ref{n}.txt", tmp_path / f"hyp{n}.txt"
                if not ref.exists():
                    _write_repeated(refs, n, ref)
                    _write_repeated(hyps, n, hyp)
                command = ["-m", "mtlearn", metric, "-r", str(ref), "-i", str(hyp), *extra]
                read = _run(["-c", _READ_ONLY, str(ref), str(hyp)], REPO)
                corpus = _run(command, REPO)
                sentence = _run(command + ["--sentence-level"], REPO)
                grown[n] = (sentence[0], read[0])
                print(f"{metric} {n:>9,} lines: sentence-level {sentence[0]:8.1f} MB {sentence[1]:7.1f} s | "
                      f"corpus {corpus[0]:8.1f} MB {corpus[1]:7.1f} s | read only {read[0]:8.1f} MB | "
                      f"sentence/corpus {sentence[0] / corpus[0]:.2f}")
                if old is not None:
                    before = _run(command + ["--sentence-level"], old)
                    print(f"{'':>6}{args.rev}: sentence-level {before[0]:8.1f} MB {before[1]:7.1f} s")
            if len(grown) > 1:
                small, large = min(grown), max(grown)
                extra_growth = (grown[large][0] - grown[small][0]) - (grown[large][1] - grown[small][1])
                print(f"{metric}: from {small:,} to {large:,} lines sentence-level grows "
                      f"{grown[large][0] - grown[small][0]:.1f} MB, the input alone "
                      f"{grown[large][1] - grown[small][1]:.1f} MB: {extra_growth:+.1f} MB beyond the input")


if __name__ == "__main__":
    main()

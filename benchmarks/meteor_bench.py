"""METEOR speed, measured honestly: mtlearn against NLTK's ``meteor_score`` and the METEOR 1.5 jar.

Run: ``python benchmarks/meteor_bench.py`` (``--help`` for options). Needs WordNet
(``python -m mtlearn.metrics.meteor.wordnet``) and ../shared/data/wmt22 beside the
repository (or ``$MTLEARN_WMT22``, or ``--wmt22 PATH``). The jar part needs the ``bench``
extra (``pip install -e .[bench]``: PyPI's ``pycocoevalcap`` ships ``meteor-1.5.jar``)
and ``java``; without them it is skipped, saying so.

Part 1, in process, per WMT22 de-en system (1,984 segments against reference A,
13a-tokenised and lowercased once, before any timing; the settings of
``studies/wmt22_agreement.py``: stages exact+stem+synonym, alpha 0.9, beta 3,
gamma 0.5, its tie-break). Every system runs in a *fresh Python process*, because
mtlearn's stem memo (one dict per stemmer for the whole process) has no public way
to be emptied; a new process empties it, the synonym memo and any other memo
the alignment search may keep. In that process, before timing: mtlearn, NLTK and
NLTK's Porter stemmer are imported, NLTK's WordNet reader is loaded
(``wordnet.ensure_loaded()``: its lemma index is in memory) and mtlearn's synonym
index is read from its cache file (``shared_synonym_index()``; its word memo stays
empty). Then, each pass after a full garbage collection:

1. mtlearn COLD: ``corpus_meteor`` over the system, stem and synonym memos empty
   (one pass: a cold pass cannot be repeated; no best of N);
2. NLTK: ``meteor_score([ref], hyp)`` segment by segment, its first pass in the
   process (the anchor): WordNet's reader is loaded but its synset cache
   (``_synset_offset_cache``) is empty and fills as it goes;
3. ``--runs`` times, alternating: mtlearn WARM (memos filled by 1) and NLTK again
   (its synset cache filled by 2); medians of these.

The ratios are NLTK's seconds over mtlearn's: NLTK's first pass over mtlearn cold,
NLTK's first pass over mtlearn warm (the issue's figures), and, both warm, NLTK warm
over mtlearn warm. Wall and CPU seconds (this process's) are both shown: the
machines are shared, and another job stretches wall time only. The summary gives
medians and ranges over the systems. Targets (issue 10): cold >= 5x, warm >= 10x.

Part 2, whole processes: the wall time of the console command
``mtlearn meteor -r REF -i HYP`` (its defaults: three stages, whitespace tokens,
lowercase; the synonym cache file already written), and of the same with ``-tok 13a``
(the jar's ``-norm`` tokenises too), against the METEOR 1.5 jar on the
same two files, run the standard way (``java -Xmx2G -jar meteor-1.5.jar HYP REF -l en
-norm``: four modules, paraphrase included) and with mtlearn's three modules
(``-m "exact stem synonym"``). The commands alternate, ``--runs`` times each; medians
and ranges of wall and CPU seconds (all threads of the child: the JVM uses several)
and the ratio mtlearn / jar (target <= 1) are printed.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAIR = "de-en"
REFERENCE = "A"


# ----------------------------------------------------------------------------- data and settings


def default_wmt22() -> Path:
    env = os.environ.get("MTLEARN_WMT22")
    return Path(env) if env else REPO.parent / "shared" / "data" / "wmt22"


def reference_file(data: Path) -> Path:
    return data / "references" / f"generaltest2022.{PAIR}.ref.{REFERENCE}.en"


def system_file(data: Path, name: str) -> Path:
    return data / "system-outputs" / f"generaltest2022.{PAIR}.hyp.{name}.en"


def systems(data: Path) -> list[str]:
    prefix = f"generaltest2022.{PAIR}.hyp."
    return sorted(p.name[len(prefix):-3] for p in (data / "system-outputs").glob(prefix + "*.en"))


def study_settings() -> dict:
    """The study's METEOR settings (``studies/wmt22_agreement.py``'s ``METEOR``), read from the study
    itself."""
    spec = importlib.util.spec_from_file_location("wmt22_agreement", REPO / "studies" / "wmt22_agreement.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while it loads
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    finally:
        del sys.modules[spec.name]
    return dict(module.METEOR)


def read_tokens(path: Path) -> list[list[str]]:
    """13a tokens, lowercased: the same pre-tokenised segments for mtlearn and NLTK."""
    import mtlearn

    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [[t.lower() for t in mtlearn.tokenize(line.rstrip(), "13a")] for line in lines]


def timed(fn):
    """``(wall seconds, CPU seconds, result)`` of ``fn()``, started after a full garbage collection.

    Collections that the measured code causes itself stay in its time. The CPU time
    (this process's, user + system) is shown beside the wall time because the
    machines are shared: another job on the same cores stretches the wall time only."""
    gc.collect()
    cpu, start = time.process_time(), time.perf_counter()
    result = fn()
    return time.perf_counter() - start, time.process_time() - cpu, result


# -------------------------------------------------------------------------- part 1: one system, fresh process


def measure_system(data: Path, name: str, settings: dict, warm_runs: int) -> dict:
    """Runs in the child process: set-up, mtlearn cold, NLTK's first pass, then ``warm_runs``
    times mtlearn warm and NLTK again, alternating (the warm figures are medians)."""
    start = time.perf_counter()
    import nltk.stem.porter  # noqa: F401  (the stem stage imports it on first use; not part of a pass)
    from nltk.corpus import wordnet
    from nltk.translate.meteor_score import meteor_score

    import mtlearn
    from mtlearn.metrics.meteor.synonyms import shared_synonym_index

    wordnet.ensure_loaded()
    shared_synonym_index()  # read from the cache file; its word memo stays empty
    setup = time.perf_counter() - start
    hyps = read_tokens(system_file(data, name))
    refs = read_tokens(reference_file(data))
    ref_lists = [[r] for r in refs]
    options = {k: v for k, v in settings.items() if k != "tokenize"}  # the tokens are given
    options["stages"] = tuple(options["stages"])

    def ours():
        return mtlearn.corpus_meteor(hyps, ref_lists, **options)

    def theirs():
        return [meteor_score([r], h, alpha=settings["alpha"], beta=settings["beta"], gamma=settings["gamma"])
                for h, r in zip(hyps, refs)]

    cold_s, cold_cpu, cold = timed(ours)
    nltk_s, nltk_cpu, nltk_scores = timed(theirs)
    warm, nltk_warm = [], []
    for _ in range(warm_runs):
        wall, cpu, again = timed(ours)
        warm.append((wall, cpu))
        del again
        wall, cpu, _ = timed(theirs)
        nltk_warm.append((wall, cpu))
    scores = [s.score for s in cold.segments]
    assert scores == [s.score for s in ours().segments], "a warm pass scored differently"
    return {
        "system": name, "segments": len(hyps), "setup_s": setup,
        "nltk_s": nltk_s, "nltk_cpu": nltk_cpu, "cold_s": cold_s, "cold_cpu": cold_cpu,
        "warm_s": statistics.median(w for w, _ in warm), "warm_cpu": statistics.median(c for _, c in warm),
        "nltk_warm_s": statistics.median(w for w, _ in nltk_warm),
        "nltk_warm_cpu": statistics.median(c for _, c in nltk_warm),
        "agree": sum(abs(a - b) <= 1e-12 for a, b in zip(scores, nltk_scores)),
        "not_optimal": sum(not s.optimal for s in cold.segments),
        "corpus_score": cold.score,
    }


def run_child(data: Path, name: str, settings: dict, warm_runs: int) -> dict:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--wmt22", str(data), "--runs", str(warm_runs),
         "--child", name, json.dumps(settings)],
        capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"child process for {name} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} (range {min(values):.2f}-{max(values):.2f})"


def add_ratios(r: dict) -> dict:
    for unit in ("s", "cpu"):
        r[f"cold_x_{unit}"] = r[f"nltk_{unit}"] / r[f"cold_{unit}"]
        r[f"warm_x_{unit}"] = r[f"nltk_{unit}"] / r[f"warm_{unit}"]
        r[f"warm_warm_x_{unit}"] = r[f"nltk_warm_{unit}"] / r[f"warm_{unit}"]
    return r


def in_process(data: Path, names: list[str], settings: dict, warm_runs: int) -> list[dict]:
    print(f"Part 1: in process, one fresh process per system ({PAIR}, reference "
          f"{REFERENCE}); settings {settings}")
    print(f"wall seconds: NLTK's first pass (the anchor), NLTK warm (median of {warm_runs}), mtlearn cold "
          f"(one pass), mtlearn warm (median of {warm_runs}); ratios NLTK first / cold, NLTK first / warm, "
          "NLTK warm / warm (w/w)")
    print(f"{'system':<18}{'NLTK':>7}{'NLTK w':>8}{'cold':>7}{'warm':>7}{'cold x':>8}{'warm x':>8}"
          f"{'w/w x':>7}{'same score':>12}{'not optimal':>13}{'set-up s':>10}")
    rows = []
    for name in names:
        r = add_ratios(run_child(data, name, settings, warm_runs))
        rows.append(r)
        print(f"{name:<18}{r['nltk_s']:>7.2f}{r['nltk_warm_s']:>8.2f}{r['cold_s']:>7.2f}{r['warm_s']:>7.2f}"
              f"{r['cold_x_s']:>8.1f}{r['warm_x_s']:>8.1f}{r['warm_warm_x_s']:>7.1f}"
              f"{r['agree'] / r['segments']:>12.1%}{r['not_optimal']:>13}{r['setup_s']:>10.2f}", flush=True)
    segments = sum(r["segments"] for r in rows)
    for unit, label in (("s", "wall"), ("cpu", "CPU")):
        print(f"median over {len(rows)} systems, {label} seconds (range): NLTK first pass "
              f"{spread([r[f'nltk_{unit}'] for r in rows])}, warm "
              f"{spread([r[f'nltk_warm_{unit}'] for r in rows])}; "
              f"mtlearn cold {spread([r[f'cold_{unit}'] for r in rows])}, warm "
              f"{spread([r[f'warm_{unit}'] for r in rows])}")
        print(f"  median ratio ({label}) NLTK first pass / mtlearn: cold "
              f"{spread([r[f'cold_x_{unit}'] for r in rows])}x"
              f" (target >= 5), warm {spread([r[f'warm_x_{unit}'] for r in rows])}x (target >= 10); "
              f"both warm: {spread([r[f'warm_warm_x_{unit}'] for r in rows])}x")
    print(f"same score as NLTK (within 1e-12): {sum(r['agree'] for r in rows) / segments:.1%} of {segments} "
          f"segments; alignment searches not proven optimal: {sum(r['not_optimal'] for r in rows)}")
    return rows


# ----------------------------------------------------------------------------- part 2: whole processes


def find_jar() -> Path | None:
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        return None
    jar = Path(next(iter(spec.submodule_search_locations))) / "meteor" / "meteor-1.5.jar"
    return jar if jar.is_file() else None


def mtlearn_command() -> list[str]:
    beside = Path(sys.executable).parent / "mtlearn"
    found = str(beside) if beside.is_file() else shutil.which("mtlearn")
    if found is None:
        raise SystemExit("the console script 'mtlearn' is not installed (pip install -e .)")
    return [found]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wall(command: list[str], cwd: str, score: re.Pattern) -> tuple[float, float, float]:
    """Wall seconds of ``command``, its CPU seconds (all its threads) and the corpus score it prints."""
    cpu, start = children_cpu(), time.perf_counter()
    out = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - start, children_cpu() - cpu
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{out.stderr[-2000:]}")
    found = score.search(out.stdout)
    return seconds, cpu, float(found.group(1)) if found else float("nan")


def whole_process(data: Path, system: str, runs: int, skip_jar: bool) -> dict:
    hyp, ref = str(system_file(data, system)), str(reference_file(data))
    ours = mtlearn_command() + ["meteor", "-r", ref, "-i", hyp]
    score = re.compile(r"METEOR = ([0-9.]+)")
    # The command as it stands (whitespace tokens), and with 13a tokens (the jar's -norm tokenises
    # too).
    commands = {"mtlearn": (ours, score), "mtlearn -tok 13a": (ours + ["-tok", "13a"], score)}
    java, jar = shutil.which("java"), find_jar()
    print(f"\nPart 2: whole processes on {system} ({PAIR}, reference {REFERENCE}), "
          f"{runs} runs each, alternating")
    if skip_jar:
        print("  METEOR 1.5 jar: skipped (--skip-jar)")
    elif java is None or jar is None:
        print("  METEOR 1.5 jar: skipped ("
              + ("java not found" if java is None else "pycocoevalcap not installed: pip install -e .[bench]")
              + ")")
    else:
        final = re.compile(r"Final score:\s*([0-9.]+)")
        standard = [java, "-Xmx2G", "-jar", str(jar), hyp, ref, "-l", "en", "-norm"]
        commands["jar (4 modules, standard)"] = (standard, final)
        commands["jar (exact stem synonym)"] = (standard + ["-m", "exact stem synonym"], final)
    times: dict[str, list[float]] = {label: [] for label in commands}
    cpus: dict[str, list[float]] = {label: [] for label in commands}
    scores: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cwd:  # the jar may write files into its working folder
        for _ in range(runs):
            for label, (command, pattern) in commands.items():
                seconds, cpu, scores[label] = wall(command, cwd, pattern)
                times[label].append(seconds)
                cpus[label].append(cpu)
    for label, (command, _) in commands.items():
        shown = " ".join(Path(c).name if c.endswith(".jar") else c for c in command)
        print(f"  {label:<27} wall {spread(times[label])} s, CPU {spread(cpus[label])} s, "
              f"score {scores[label]:.4f}\n      {shown}")
    for jar_label in [label for label in commands if label.startswith("jar")]:
        for label in ("mtlearn", "mtlearn -tok 13a"):
            print(f"  ratio {label} / {jar_label}: wall "
                  f"{statistics.median(times[label]) / statistics.median(times[jar_label]):.2f} (target <= "
                  f"1), CPU {statistics.median(cpus[label]) / statistics.median(cpus[jar_label]):.2f}")
    return {"times": times, "cpus": cpus, "scores": scores}


# ----------------------------------------------------------------------------- main


def describe_run() -> None:
    """Which mtlearn is measured (the one this Python imports: ``$PYTHONPATH`` may point at another
    checkout)."""
    import nltk

    import mtlearn

    where = Path(mtlearn.__file__).resolve().parent.parent
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True).stdout
        except OSError:  # no git: the figures are still worth printing
            return ""

    commit = git("log", "-1", "--format=%h %cI %s")
    dirty = git("status", "--porcelain", "--", "mtlearn")
    print(f"mtlearn imported from {where}, commit {commit.strip()[:100] or '(no git)'}"
          + (" (mtlearn/ has uncommitted changes)" if dirty.strip() else ""))
    print(f"Python {platform.python_version()}, NLTK {nltk.__version__}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", type=int, metavar="N",
                        help="the first N de-en systems (default: all nine)")
    parser.add_argument("--runs", type=int, default=3, metavar="N",
                        help="warm passes per system, runs of each whole-process command; medians are shown "
                             "(default 3; the cold pass is always one)")
    parser.add_argument("--skip-jar", action="store_true", help="do not run the METEOR 1.5 jar")
    parser.add_argument("--skip-in-process", action="store_true", help="only part 2")
    parser.add_argument("--skip-whole-process", action="store_true", help="only part 1")
    parser.add_argument("--wmt22", type=Path, default=default_wmt22(),
                        help="WMT22 folder (default: $MTLEARN_WMT22 or "
                             "../shared/data/wmt22 beside the repository)")
    parser.add_argument("--child", nargs=2, metavar=("SYSTEM", "SETTINGS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    data = args.wmt22
    if args.child:
        print(json.dumps(measure_system(data, args.child[0], json.loads(args.child[1]), args.runs)))
        return 0
    if not (data / "system-outputs").is_dir():
        print(f"WMT22 data not found at {data}; set MTLEARN_WMT22 or pass --wmt22", file=sys.stderr)
        return 1
    if args.runs < 1 or (args.systems is not None and args.systems < 1):
        parser.error("--runs and --systems must be at least 1")
    names = systems(data)[: args.systems]
    started = time.perf_counter()
    describe_run()
    if not args.skip_in_process:
        in_process(data, names, study_settings(), args.runs)
    if not args.skip_whole_process:
        whole_process(data, "Online-B" if "Online-B" in names else names[0], args.runs, args.skip_jar)
    print(f"\nbenchmark wall time {time.perf_counter() - started:.0f} s, load average now "
          f"{os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

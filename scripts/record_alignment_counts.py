"""Record METEOR's alignment counts on every WMT22 segment, as a compact test fixture.

For every WMT22 pair, every reference file of that pair taken alone (one reference
per segment) and every system output of that pair, and for each tie-break rule,
this records per segment the four numbers the alignment search decides:
``(matches, crossings, chunks, optimal)``. Nothing but derived counts is stored (no
text); the header names each text file with its sha256, so a later test can check
that it reads the same files before it compares.

It uses only mtlearn's public facade, ``mtlearn.corpus_meteor(...)`` and each
segment's ``.matches``, ``.crossings``, ``.chunks`` and ``.optimal`` (via
``corpus.segments[i]``), so it runs unchanged on older and newer mtlearn code.

Usage::

    python scripts/record_alignment_counts.py WMT22_DIR OUT.json.gz [--workers 2]

Progress and timings go to stderr. A test loads the fixture with
:func:`load_counts`, checks the data with :func:`check_files`, and recomputes one
record with :func:`compute_record`.

Fixture layout (gzip'd JSON, keys sorted)::

    {"format": "mtlearn-meteor-alignment-counts/1",
     "settings": {... the corpus_meteor keyword arguments except tie_break ...},
     "tie_breaks": ["crossings", "chunks"],
     "fields": ["matches", "crossings", "chunks", "optimal"],
     "recorded_with": {"mtlearn_commit": ..., ...},
     "files": {"references/generaltest2022.de-en.ref.A.en": {"sha256": ..., "lines": 1984}, ...},
     "pairs": {"de-en": {"segments": 1984, "references": {"A": <file>, ...},
                         "systems": {"<SYSTEM>": <file>, ...}}, ...},
     "timings": {...seconds, informative only...},
     "records": {"<pair>|<ref>|<system>|<tie_break>": [[m, x, c, o], ...], ...}}

``o`` is 1 where the search proved its alignment (``optimal``), else 0.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

FORMAT = "mtlearn-meteor-alignment-counts/1"

#: The METEOR settings of studies/wmt22_agreement.py (its ``METEOR``), less tie_break,
#: which is recorded for each of TIE_BREAKS.
SETTINGS: dict[str, Any] = {
    "stages": ["exact", "stem", "synonym"],
    "alpha": 0.9,
    "beta": 3.0,
    "gamma": 0.5,
    "lowercase": True,
    "tokenize": "13a",
}
TIE_BREAKS = ("crossings", "chunks")
FIELDS = ("matches", "crossings", "chunks", "optimal")

Key = tuple[str, str, str, str]  # pair, reference id, system, tie_break
Row = tuple[int, int, int, bool]  # matches, crossings, chunks, optimal


# ----------------------------------------------------------------------------- reading the data


def read_lines(path: Path) -> list[str]:
    """One segment a line: split on "\\n" only (not str.splitlines), last newline dropped."""
    text = Path(path).read_text(encoding="utf-8")
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def sha256_of(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def discover(wmt22: Path, pairs: Optional[Sequence[str]] = None,
             systems: Optional[Sequence[str]] = None) -> dict[str, dict[str, Any]]:
    """Per pair: its reference files ({id: relative path}) and system outputs ({name: path}).

    Names come from the file names: ``references/generaltest2022.<pair>.ref.<ID>.en``
    and ``system-outputs/generaltest2022.<pair>.hyp.<SYSTEM>.en``.
    """
    wmt22 = Path(wmt22)
    found: dict[str, dict[str, Any]] = {}
    for f in sorted((wmt22 / "references").glob("generaltest2022.*.ref.*.en")):
        pair, ref_id = f.name.split(".")[1], f.name.split(".")[3]
        found.setdefault(pair, {"references": {}, "systems": {}})
        found[pair]["references"][ref_id] = f.relative_to(wmt22).as_posix()
    for pair in found:
        prefix = f"generaltest2022.{pair}.hyp."
        for f in sorted((wmt22 / "system-outputs").glob(prefix + "*.en")):
            name = f.name[len(prefix):-len(".en")]
            found[pair]["systems"][name] = f.relative_to(wmt22).as_posix()
    if pairs:
        unknown = set(pairs) - set(found)
        if unknown:
            raise SystemExit(f"unknown pairs: {sorted(unknown)} (have {sorted(found)})")
        found = {p: found[p] for p in pairs}
    if systems:
        for p in found:
            found[p]["systems"] = {s: v for s, v in found[p]["systems"].items() if s in systems}
    return {p: v for p, v in sorted(found.items()) if v["systems"]}


# ----------------------------------------------------------------------------- computing


def compute_counts(candidates: Sequence[str], references: Sequence[str], tie_break: str,
                   settings: Mapping[str, Any] = SETTINGS) -> list[Row]:
    """``[(matches, crossings, chunks, optimal), ...]`` of each segment, one reference each
    (``references[i]`` is segment i's only reference; optimal is a bool)."""
    import mtlearn

    if len(candidates) != len(references):
        raise ValueError(f"{len(candidates)} candidates but {len(references)} references")
    kwargs = dict(settings)
    kwargs["stages"] = tuple(kwargs["stages"])
    corpus = mtlearn.corpus_meteor(list(candidates), [[r] for r in references],
                                   tie_break=tie_break, **kwargs)
    rows = []
    for i in range(len(candidates)):
        s = corpus.segments[i]
        rows.append((int(s.matches), int(s.crossings), int(s.chunks), bool(s.optimal)))
    return rows


def record_texts(wmt22: Path, counts: Mapping[str, Any], key: Key) -> tuple[list[str], list[str]]:
    """The candidate and reference lines of one record of a loaded fixture."""
    pair, ref_id, system, _tie_break = key
    info = counts["pairs"][pair]
    return (read_lines(Path(wmt22) / info["systems"][system]),
            read_lines(Path(wmt22) / info["references"][ref_id]))


def compute_record(wmt22: Path, counts: Mapping[str, Any], key: Key,
                   lines: Optional[Sequence[int]] = None) -> list[Row]:
    """Recompute one record of a loaded fixture from the WMT22 files it names, with its
    settings: comparable with ``==`` to ``load_counts(path)["records"][key]``, or, given
    ``lines`` (segment indices), to those rows of it (each segment is aligned on its own, so a
    subset gives the same rows as the whole file)."""
    candidates, references = record_texts(wmt22, counts, key)
    if lines is not None:
        candidates, references = [candidates[i] for i in lines], [references[i] for i in lines]
    return compute_counts(candidates, references, key[3], counts["settings"])


def _job(job: tuple[str, str, str, str, str, str]) -> tuple[str, list[Row], float]:
    wmt22, pair, ref_id, system, tie_break, _ = job
    start = time.perf_counter()
    # The files are read in the worker (no text crosses processes); sha256s are checked
    # by the parent before and after, see main().
    info = _DISCOVERED[pair]
    rows = compute_counts(read_lines(Path(wmt22) / info["systems"][system]),
                          read_lines(Path(wmt22) / info["references"][ref_id]), tie_break)
    return "|".join((pair, ref_id, system, tie_break)), rows, time.perf_counter() - start


_DISCOVERED: dict[str, dict[str, Any]] = {}


# ----------------------------------------------------------------------------- provenance


def _git(folder: Path, *args: str) -> Optional[str]:
    try:
        out = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True,
                             check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def provenance() -> dict[str, Any]:
    """Which code and which WordNet recorded the counts."""
    import importlib.metadata
    import importlib.util

    import mtlearn

    package = Path(mtlearn.__file__).resolve().parent
    dirty = _git(package, "status", "--porcelain", "--untracked-files=no")
    info: dict[str, Any] = {
        "mtlearn_version": getattr(mtlearn, "__version__", None),
        "mtlearn_commit": _git(package, "rev-parse", "HEAD"),
        "mtlearn_dirty": None if dirty is None else bool(dirty),
        "mtlearn_path": str(package),
        "compiled_twin": importlib.util.find_spec("mtlearn._meteor_fast") is not None,
        "python": platform.python_version(),
    }
    try:
        info["nltk"] = importlib.metadata.version("nltk")
        from nltk.corpus import wordnet

        info["wordnet"] = wordnet.get_version()
    except Exception as error:  # recorded, not fatal: the synonym stage itself will say
        info["wordnet"] = f"unavailable: {error}"
    return info


# ----------------------------------------------------------------------------- loading


def load_counts(path: Path) -> dict[str, Any]:
    """The fixture as written, with ``records`` keyed by ``(pair, ref, system, tie_break)``
    tuples and each row a ``(matches, crossings, chunks, optimal)`` tuple (optimal a bool)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} file (format {data.get('format')!r})")
    data["records"] = {
        tuple(key.split("|")): [(m, x, c, bool(o)) for m, x, c, o in rows]
        for key, rows in data["records"].items()
    }
    return data


def check_files(counts: Mapping[str, Any], wmt22: Path) -> list[str]:
    """The fixture's files that are missing or differ under ``wmt22`` (empty: all the same)."""
    bad = []
    for rel, info in counts["files"].items():
        p = Path(wmt22) / rel
        if not p.is_file():
            bad.append(f"{rel}: missing")
        elif sha256_of(p) != info["sha256"]:
            bad.append(f"{rel}: sha256 differs")
    return bad


# ----------------------------------------------------------------------------- main


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("wmt22", type=Path, help="the WMT22 data folder (references/, system-outputs/)")
    parser.add_argument("out", type=Path, help="the fixture to write (.json.gz)")
    parser.add_argument("--tie-breaks", nargs="+", default=list(TIE_BREAKS), choices=TIE_BREAKS)
    parser.add_argument("--workers", type=int, default=1,
                        help="processes (per-system jobs run in parallel; default 1)")
    parser.add_argument("--pairs", nargs="+", help="only these pairs (a partial fixture, for timing)")
    parser.add_argument("--systems", nargs="+", help="only these systems (a partial fixture, for timing)")
    args = parser.parse_args(argv)

    wmt22 = args.wmt22.resolve()
    discovered = discover(wmt22, args.pairs, args.systems)
    if not discovered:
        parser.error("nothing to record (no pair/system matched)")
    _DISCOVERED.update(discovered)

    t0 = time.perf_counter()
    files: dict[str, dict[str, Any]] = {}
    pairs: dict[str, dict[str, Any]] = {}
    for pair, info in discovered.items():
        lengths = set()
        for rel in [*info["references"].values(), *info["systems"].values()]:
            n = len(read_lines(wmt22 / rel))
            files[rel] = {"sha256": sha256_of(wmt22 / rel), "lines": n}
            lengths.add(n)
        if len(lengths) != 1:
            raise SystemExit(f"{pair}: files are not line-aligned (lengths {sorted(lengths)})")
        pairs[pair] = {"segments": lengths.pop(), **info}
    recorded_with = provenance()
    _log(f"mtlearn {recorded_with['mtlearn_commit']} at {recorded_with['mtlearn_path']} "
         f"(dirty: {recorded_with['mtlearn_dirty']}, compiled twin: {recorded_with['compiled_twin']}), "
         f"WordNet {recorded_with.get('wordnet')}; {len(files)} files hashed "
         f"in {time.perf_counter() - t0:.1f}s")

    records: dict[str, list[list[int]]] = {}
    timings: dict[str, Any] = {"workers": args.workers, "cpus": os.cpu_count(), "tie_breaks": {}}
    for tie_break in args.tie_breaks:
        jobs = [(str(wmt22), pair, ref_id, system, tie_break, "")
                for pair, info in pairs.items()
                for ref_id in info["references"] for system in info["systems"]]
        total_segments = sum(pairs[j[1]]["segments"] for j in jobs)
        _log(f"tie_break={tie_break}: {len(jobs)} (pair, reference, system) jobs, "
             f"{total_segments} segments, {args.workers} worker(s)")
        start = time.perf_counter()
        per_pair: dict[str, float] = {}
        done_segments = 0
        if args.workers > 1:
            import multiprocessing

            pool = multiprocessing.get_context("fork").Pool(args.workers)
            results: Iterable = pool.imap_unordered(_job, jobs, chunksize=1)
        else:
            pool = None
            results = map(_job, jobs)
        try:
            for k, (key, rows, seconds) in enumerate(results, 1):
                records[key] = [[m, x, c, int(o)] for m, x, c, o in rows]
                pair = key.split("|")[0]
                per_pair[pair] = per_pair.get(pair, 0.0) + seconds
                done_segments += len(rows)
                not_optimal = sum(1 for r in rows if not r[3])
                elapsed = time.perf_counter() - start
                eta = elapsed / done_segments * (total_segments - done_segments)
                _log(f"  [{k}/{len(jobs)}] {key}: {len(rows)} segments in {seconds:.1f}s "
                     f"({not_optimal} not optimal); elapsed {elapsed:.0f}s, ETA {eta:.0f}s")
        finally:
            if pool is not None:
                pool.close()
                pool.join()
        wall = time.perf_counter() - start
        timings["tie_breaks"][tie_break] = {
            "wall_seconds": round(wall, 1),
            "job_seconds": round(sum(per_pair.values()), 1),
            "job_seconds_per_pair": {p: round(s, 1) for p, s in sorted(per_pair.items())},
            "segments": done_segments,
        }
        _log(f"tie_break={tie_break}: {done_segments} segments, wall {wall:.1f}s, "
             f"summed job time {sum(per_pair.values()):.1f}s")

    # The data must not have changed while it was read.
    changed = [rel for rel, info in files.items() if sha256_of(wmt22 / rel) != info["sha256"]]
    if changed:
        raise SystemExit(f"files changed during the run: {changed}")

    fixture = {
        "format": FORMAT,
        "settings": SETTINGS,
        "tie_breaks": list(args.tie_breaks),
        "fields": list(FIELDS),
        "recorded_with": recorded_with,
        "files": files,
        "pairs": pairs,
        "timings": timings,
        "records": {k: records[k] for k in sorted(records)},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps(fixture, sort_keys=True, separators=(",", ":")).encode("utf-8")
    tmp = args.out.with_name(args.out.name + ".tmp")
    with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                compresslevel=9, mtime=0) as f:
        f.write(payload)
    tmp.replace(args.out)
    _log(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(payload)} uncompressed) "
         f"in {time.perf_counter() - t0:.1f}s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())

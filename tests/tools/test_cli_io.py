"""The command line's files (mtlearn.tools.cli.io): --sentence-level reads them in step, a short file is named
at the end.

``--sentence-level`` used to read every file whole to compare the line counts before
scoring (peak RSS 57 MB at 20k lines, 145 MB at 200k, 572 MB at 1M); it now reads one
line of each file at a time. What shows it without timing or measuring memory: the
first line's score comes out while standard input has given only that line. A file
that ends before the others is reported after the lines scored so far, with the line
where it happened and a non-zero exit.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mtlearn.tools.cli.main import main

MTLEARN = Path(sys.executable).parent / "mtlearn"
TIMEOUT = 60  # seconds: a generous bound that turns a wait into a failure


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _reader(stream, lines: queue.Queue) -> None:
    for line in iter(stream.readline, b""):
        lines.put(line.decode("utf-8"))
    lines.put(None)


def test_sentence_level_scores_a_line_before_the_next_is_given(tmp_path):
    ref = write_lines(tmp_path / "ref.txt", ["the cat sat on the mat", "a dog barked", "it rained"])
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # each line reaches the pipe when it is written
    proc = subprocess.Popen([str(MTLEARN), "bleu", "-r", str(ref), "--sentence-level"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
    try:
        proc.stdin.write(b"the cat sat on the mat\n")
        proc.stdin.flush()
        first = [lines.get(timeout=TIMEOUT), lines.get(timeout=TIMEOUT)]  # only line 1 has been given
        assert first[0].startswith("signature: mtlearn-bleu|nrefs:1|")
        assert first[1].startswith("1\tBLEU = 100.00 "), first
        proc.stdin.write(b"a dog barked\nit rained\n")
        proc.stdin.close()
        rest = [lines.get(timeout=TIMEOUT) for _ in range(3)]
        assert proc.wait(timeout=TIMEOUT) == 0, proc.stderr.read()
    except queue.Empty:
        pytest.fail("no score for line 1 while line 2 was not yet given: the input is read whole first")
    finally:
        proc.kill()
        proc.wait()
    assert [line.split("\t")[0] for line in rest[:2]] == ["2", "3"] and rest[2] is None


@pytest.mark.parametrize("longer", ["hypotheses", "references"])
def test_a_file_that_ends_early_is_named_after_the_lines_scored(tmp_path, capsys, longer):
    lines = ["the cat sat", "a dog barked", "it rained all day", "we went home"]
    hyp = write_lines(tmp_path / "hyp.txt", lines if longer == "hypotheses" else lines[:3])
    ref = write_lines(tmp_path / "ref.txt", lines if longer == "references" else lines[:3])
    status = main(["chrf", "-r", str(ref), "-i", str(hyp), "--sentence-level", "--json"])
    out, err = capsys.readouterr()
    assert status == 1
    assert [json.loads(line)["line"] for line in out.splitlines()] == [1, 2, 3]  # scored, then the error
    short, going = (ref, hyp) if longer == "hypotheses" else (hyp, ref)
    assert err == (f"mtlearn: error: {short} has 3 lines but {going} has more (line 4 has no partner); "
                   "the files must be line-aligned (one segment a line)\n")


def test_in_step_reading_keeps_the_file_rules(tmp_path, capsys):
    # Byte-order mark, \r\n, trailing spaces, a last line without \n: as when the file is read whole.
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(b"\xef\xbb\xbfthe cat \r\nsat\n\non the mat")
    ref = write_lines(tmp_path / "ref.txt", ["the cat", "sat", "", "on the mat"])
    assert main(["wer", "-r", str(ref), "-i", str(hyp), "--sentence-level", "-b"]) == 0
    assert capsys.readouterr().out.splitlines() == ["0.00", "0.00", "0.00", "0.00"]


def test_in_step_reading_names_bad_utf8_and_empty_files(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\nbad \xff here\n")
    ref = write_lines(tmp_path / "ref.txt", ["ok", "fine"])
    empty = write_lines(tmp_path / "empty.txt", [])
    assert main(["bleu", "-r", str(ref), "-i", str(bad), "--sentence-level"]) == 1
    out, err = capsys.readouterr()
    assert err == (f"mtlearn: error: {bad}, line 2: not valid UTF-8 (byte 0xff at byte 5 of the line); "
                   "save the file as UTF-8\n")
    assert main(["bleu", "-r", str(ref), "-i", str(empty), "--sentence-level"]) == 1
    assert capsys.readouterr() == ("", f"mtlearn: error: {empty} is empty: no hypotheses to score\n")
    assert main(["bleu", "-r", str(empty), "-i", str(ref), "--sentence-level"]) == 1
    assert capsys.readouterr() == ("", f"mtlearn: error: {empty} is empty: no references\n")


def test_two_reference_options_are_two_references(tmp_path, capsys):
    # `-r A -r B` kept only B (argparse's "store"); sacreBLEU-style `-r A B` and this are now the same.
    hyp = write_lines(tmp_path / "hyp.txt", ["the cat sat"])
    ref_a = write_lines(tmp_path / "a.txt", ["the cat sat"])
    ref_b = write_lines(tmp_path / "b.txt", ["a dog barked"])
    assert main(["bleu", "-r", str(ref_a), "-r", str(ref_b), "-i", str(hyp), "--json", "--max-order",
                 "2"]) == 0
    repeated = json.loads(capsys.readouterr().out)
    assert main(["bleu", "-r", str(ref_a), str(ref_b), "-i", str(hyp), "--json", "--max-order", "2"]) == 0
    assert repeated == json.loads(capsys.readouterr().out)
    assert "nrefs:2" in repeated["signature"] and repeated["score"] == 100.0

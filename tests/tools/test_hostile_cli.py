"""The command line never tracebacks, whatever is done to it.

Each case runs the ``mtlearn`` console script (or ``python -m ...``) in a subprocess
and checks the exit status, that standard error is exactly one ``mtlearn: error:``
line (or the warning the case expects) and that no traceback escaped. Every
subprocess is bounded (``TIMEOUT`` seconds); the whole file starts about thirty of
them, each importing mtlearn (about 0.1 s) -- well under a minute. The pictures
with a ``$`` in a word are drawn in this process.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from mtlearn import bleu, chrf, meteor, ter  # noqa: E402
from mtlearn.show import plots  # noqa: E402

MTLEARN = Path(sys.executable).parent / "mtlearn"
PYTHON = sys.executable
TIMEOUT = 60  # seconds for one subprocess; each takes well under one
INTERRUPTED = "mtlearn: error: interrupted (Ctrl-C)\n"


def run(args: list[str], *, stdin: bytes | None = b"", env: dict[str, str] | None = None,
        preexec_fn=None, command: list[str] | None = None) -> subprocess.CompletedProcess:
    """Run ``mtlearn ARGS`` (or ``command + ARGS``); stdout and stderr as bytes."""
    if command is None and not MTLEARN.is_file():
        pytest.fail(f"console script {MTLEARN} not found: install the package (pip install -e .)")
    return subprocess.run([*(command or [str(MTLEARN)]), *args], input=stdin, capture_output=True,
                          timeout=TIMEOUT, env=env, preexec_fn=preexec_fn)


def one_error(proc: subprocess.CompletedProcess, status: int, *fragments: str) -> str:
    """The process ended with ``status`` and exactly one ``mtlearn: error:`` line, nothing else, on stderr."""
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == status, (proc.returncode, err)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mtlearn: error: "), err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return err


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {
        "ref": write_lines(tmp_path / "ref.txt", ["le café est bon", "the cat sat on the mat"]),
        "hyp": write_lines(tmp_path / "hyp.txt", ["le cafe est bon", "the cat sat on a mat"]),
        "one": write_lines(tmp_path / "one.txt", ["the cat"]),
    }


def _close(fd: int):
    return lambda: os.close(fd)


# --------------------------------------------------------------------------- standard streams


def test_stdout_closed(files):
    proc = run(["bleu", "-r", str(files["ref"]), "-i", str(files["hyp"])], preexec_fn=_close(1))
    one_error(proc, 1, "standard output is closed")


def test_stdout_full(files):
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([str(MTLEARN), "bleu", "-r", str(files["ref"]), "-i", str(files["hyp"])],
                              stdout=full, stderr=subprocess.PIPE, timeout=TIMEOUT)
    one_error(proc, 1, "cannot write the output", "No space left on device")


def test_stdin_closed(files):
    proc = run(["bleu", "-r", str(files["ref"])], stdin=None, preexec_fn=_close(0))
    one_error(proc, 1, "standard input is closed", "-i HYP")
    assert proc.stdout == b""


@pytest.mark.parametrize("output", ["--json", "--explain"])
def test_ascii_stdout_escapes_what_it_cannot_show(files, output):
    # The segment's result has the words "café" and "cafe"; ASCII cannot show the first.
    args = ["ter", "-r", str(files["ref"]), "-i", str(files["hyp"]), "--segment", "1", output]
    utf8 = run(args, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert utf8.returncode == 0 and "café" in utf8.stdout.decode("utf-8")
    proc = run(args, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("mtlearn: warning: ") and "(ascii)" in err, err
    text = proc.stdout.decode("ascii")  # raises if anything but ASCII was written
    assert "caf\\u00e9" in text
    if output == "--json":  # escaped the JSON way: the same object as the UTF-8 output
        assert json.loads(text) == json.loads(utf8.stdout)
    else:
        assert text == utf8.stdout.decode("utf-8").replace("é", "\\u00e9")


def test_ascii_with_replace_is_the_users_choice(files):
    args = ["ter", "-r", str(files["ref"]), "-i", str(files["hyp"]), "--segment", "1", "--explain"]
    proc = run(args, env={**os.environ, "PYTHONIOENCODING": "ascii:replace"})
    assert proc.returncode == 0 and proc.stderr == b""
    assert "caf?" in proc.stdout.decode("ascii")


# --------------------------------------------------------------------------- a closed pipe


def _read_then_close(args: list[str], nbytes: int) -> subprocess.Popen:
    """Start mtlearn, read ``nbytes`` of its output (0: none) and close the pipe, as `| head -c` does."""
    proc = subprocess.Popen([str(MTLEARN), *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    if nbytes:
        proc.stdout.read(nbytes)
    proc.stdout.close()
    proc.wait(timeout=TIMEOUT)
    return proc


@pytest.mark.parametrize("lines", [1, 3000])
def test_closed_pipe_status_does_not_depend_on_the_size(tmp_path, lines):
    # One line fits in the pipe before the reader goes; 3000 lines (about 600 KB) do not.
    text = write_lines(tmp_path / "t.txt", [f"the cat sat on the mat {i}" for i in range(lines)])
    args = ["bleu", "-r", str(text), "-i", str(text), "--sentence-level"]
    statuses = set()
    for nbytes in (0, 10):
        proc = _read_then_close(args, nbytes)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        assert err == "", err  # no "Exception ignored ... BrokenPipeError", no traceback
        statuses.add(proc.returncode)
    assert statuses == {0}


# --------------------------------------------------------------------------- hostile numbers and files


def test_max_order_beyond_an_index(files):
    proc = run(["bleu", "-r", str(files["ref"]), "-i", str(files["hyp"]), "--max-order",
                "99999999999999999999"])
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in err
    assert err.startswith("mtlearn: error: argument --max-order: 99999999999999999999 is too large"), err


@pytest.mark.parametrize("output", [[], ["--json"], ["--explain"], ["--sentence-level"]])
def test_huge_max_order_is_one_line_with_the_bound(files, output):
    # Before: --max-order 100000000 wrote one "0.0/" per order (hundreds of MB), --json ran past 120 s; then a
    # short answer for orders no candidate has. Now BLEU's max_order is at most 4096 (BleuOptions, with why).
    proc = run(["bleu", "-r", str(files["ref"]), "-i", str(files["hyp"]), "--max-order", "100000000",
                *output])
    one_error(proc, 2, "--max-order: at most 4096, got 100000000 (", "no n-gram")
    assert proc.stdout == b""


def test_weights_whose_sum_overflows(files):
    proc = run(["bleu", "-r", str(files["ref"]), "-i", str(files["hyp"]), "--weights", "1e308", "1e308", "0",
                "0"])
    one_error(proc, 2, "--weights")


def test_cli_weights_zero_is_one_error_line(tmp_path):
    # Weights summing to 0 made BLEU exp(0) = 1 for anything; the command refuses them in one line.
    hyp = write_lines(tmp_path / "hyp.txt", ["x y z w"])
    ref = write_lines(tmp_path / "ref.txt", ["a b c d"])
    proc = run(["bleu", "-i", str(hyp), "-r", str(ref), "--weights", "0", "0", "0", "0"])
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode != 0, proc.stdout
    assert proc.stdout == b""
    assert "Traceback" not in err
    assert "mtlearn: error:" in err and "weights" in err and "sum to 0" in err


# Every number option of every command, and what the bounded parser says of each hostile value. Before:
# 1e400 was an OverflowError traceback, 1e100000000 and 1e-300000000 hung the parser (> 20 s: Fraction
# computes 10**exponent). Now: one line, exit 2, at once. The values that hung run in a subprocess, whose
# TIMEOUT turns a hang into a failure; the others in this process.
NUMBER_OPTIONS = [
    (["bleu"], "--weights"), (["bleu"], "--smooth-value"), (["chrf"], "--beta"), (["meteor"], "--alpha"),
    (["meteor"], "--beta"), (["meteor"], "--gamma"), (["score", "-m", "chrf"], "--chrf-beta"),
    (["score"], "--smooth-value"), (["compare", "--paired-bs", "--metric", "chrf"], "--beta"),
    (["compare", "--paired-bs", "--metric", "meteor"], "--alpha"),
    (["compare", "--paired-bs", "--metric", "meteor"], "--gamma"),
    (["compare", "--paired-bs"], "--smooth-value"),
]
ONE_PER_COMMAND = [NUMBER_OPTIONS[i] for i in (0, 2, 5, 6, 8)]


def _number_args(files, command: list[str], option: str, value: str) -> list[str]:
    hyp = str(files["hyp"])
    inputs = ["-i", hyp, hyp] if command[0] == "compare" else ["-i", hyp]
    return [command[0], "-r", str(files["ref"]), *inputs, *command[1:], option, value]


@pytest.mark.parametrize("command, option", NUMBER_OPTIONS, ids=[f"{c[0]}{o}" for c, o in NUMBER_OPTIONS])
@pytest.mark.parametrize("value, reason", [("1e400", "is too large"), ("1" * 500, "more than 400 digits")],
                         ids=["1e400", "500-digits"])
def test_a_number_option_beyond_a_float_is_one_line(files, capsys, command, option, value, reason):
    from mtlearn.tools.cli.main import main

    status = main(_number_args(files, command, option, value))
    out, err = capsys.readouterr()
    assert (status, out) == (2, "") and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"mtlearn: error: argument {option}") and reason in err and len(err) < 400, err


@pytest.mark.parametrize("command, option", ONE_PER_COMMAND, ids=[f"{c[0]}{o}" for c, o in ONE_PER_COMMAND])
@pytest.mark.parametrize("value, reason", [("1e100000000", "is too large"),
                                           ("1e-300000000", "is too close to 0")],
                         ids=["1e100000000", "1e-300000000"])
def test_a_number_option_with_a_huge_exponent_is_one_line_at_once(files, command, option, value, reason):
    one_error(run(_number_args(files, command, option, value)), 2, f"argument {option}", reason)


def _memory_limit(limit: int = 512 * 2 ** 20):
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_endless_reference_file_under_a_memory_limit(files):
    proc = run(["bleu", "-r", "/dev/zero", "-i", str(files["hyp"])], preexec_fn=_memory_limit())
    one_error(proc, 1, "/dev/zero: too large to read into the memory available")


def test_endless_standard_input_under_a_memory_limit(files):
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run([str(MTLEARN), "bleu", "-r", str(files["ref"])], stdin=zero,
                              capture_output=True, timeout=TIMEOUT, preexec_fn=_memory_limit())
    one_error(proc, 1, "standard input: too large")


def test_endless_line_read_in_step_under_a_memory_limit(files):
    proc = run(["bleu", "-r", "/dev/zero", "-i", str(files["hyp"]), "--sentence-level"],
               preexec_fn=_memory_limit())
    one_error(proc, 1, "/dev/zero, line 1: too long to read into the memory available")


def test_one_line_is_singular(files):
    proc = run(["bleu", "-r", str(files["one"]), "-i", str(files["hyp"])])
    one_error(proc, 1, "has 1 line but", "has 2;")
    assert "1 lines" not in proc.stderr.decode()


# --------------------------------------------------------------------------- wordnet, figures


def test_wordnet_target_that_cannot_be_written(tmp_path):
    debian = Path("/usr/share/wordnet")
    if not (debian / "data.noun").is_file():
        pytest.skip("Debian's WordNet (/usr/share/wordnet) is absent: the set-up would stop before writing")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    target = blocker / "nltk_data"  # under a regular file: unwritable even for root
    # NLTK must not find the WordNet already installed, or the set-up has nothing to write.
    code = ("import sys, nltk; nltk.data.path[:] = []\n"
            "from mtlearn.tools.cli.main import main\n"
            f"sys.exit(main(['wordnet', '--target', {str(target)!r}, '--no-download', '--no-apt']))")
    proc = run([], command=[PYTHON, "-c", code])
    one_error(proc, 1, str(blocker), "--target")
    assert not target.exists()


@pytest.mark.parametrize("module", ["mtlearn.show.figures", "mtlearn.figures"])
def test_figures_into_a_file(tmp_path, module):
    blocker = tmp_path / "a-file"
    blocker.write_text("keep me\n")
    proc = run([str(blocker)], command=[PYTHON, "-m", module])
    one_error(proc, 2, "is not a folder")
    assert blocker.read_text() == "keep me\n"
    proc = run([str(blocker / "figures")], command=[PYTHON, "-m", module])
    one_error(proc, 1, "cannot write the pictures into", "Not a directory")


# --------------------------------------------------------------------------- Ctrl-C


def _interrupt_after(command: list[str], delay: float) -> subprocess.Popen:
    # A shell starts a command with Ctrl-C at its default action; the test process may have
    # inherited SIGINT ignored (an earlier test's server or kernel), which a child would inherit too.
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=TIMEOUT)
    return proc


PACKAGE = str(Path(plots.__file__).resolve().parents[1])  # .../mtlearn


def _in_interpreter_start_up(proc: subprocess.Popen, err: str) -> bool:
    """Python itself was still starting (its site module, runpy), before any mtlearn module ran."""
    return PACKAGE not in err and (proc.returncode == -signal.SIGINT or "init_import_site" in err
                                   or "<frozen" in err)


@pytest.mark.parametrize("command", [[str(MTLEARN)], [PYTHON, "-m", "mtlearn"]], ids=["script", "python-m"])
def test_ctrl_c_while_importing_and_while_reading(files, command):
    # Standard input stays open, so the process waits there once it has imported everything.
    clean = 0
    for delay in (0.05, 0.1, 0.15, 0.2, 0.6):
        proc = _interrupt_after([*command, "bleu", "-r", str(files["ref"])], delay)
        assert proc.stderr is not None and proc.stdout is not None
        err = proc.stderr.read().decode()
        proc.stderr.close()
        assert proc.stdout.read() == b""
        proc.stdout.close()
        if proc.stdin is not None:
            proc.stdin.close()
        if _in_interpreter_start_up(proc, err):
            continue
        assert (proc.returncode, err) == (130, INTERRUPTED), (delay, proc.returncode, err)
        clean += 1
    assert clean >= 3, "the interpreter was still starting up at most delays: the machine is too slow to tell"


# --------------------------------------------------------------------------- `$` in words, drawn literally

TOKEN = "$x^$"  # mathtext would fail on it ("$5 and $6" it would typeset silently)


def _drawers():
    t = TOKEN
    return {
        "alignment_pairs": lambda ax: plots.plot_alignment_pairs([t, "b"], [t, "b"], [(0, 0), (1, 1)],
                                                                title=t, ax=ax),
        "alignment": lambda ax: plots.plot_alignment(meteor(f"{t} b", [f"b {t}"], stages=["exact"]), title=t,
                                                    ax=ax),
        "ngram_table": lambda ax: plots.plot_ngram_table(bleu(f"{t} b", [f"{t} b"], max_order=1), 1, ax=ax),
        "meteor_penalty": lambda ax: plots.plot_meteor_penalty(
            [meteor(f"{t} b", [f"b {t}"], stages=["exact"])], labels=[t], ax=ax),
        "chrf_orders": lambda ax: plots.plot_chrf_orders(chrf(f"{t} b", [f"{t} b"], word_order=2), title=t,
                                                        ax=ax),
        "ter_edits": lambda ax: plots.plot_ter_edits(ter(f"{t} b c", [f"b {t} d"]), title=t, ax=ax),
    }


def _texts_with_the_token(fig: Figure) -> list:
    from matplotlib.text import Text

    cells = [cell.get_text() for ax in fig.axes for table in ax.tables for cell in table.get_celld().values()]
    return [a for a in [*fig.findobj(Text), *cells] if TOKEN in a.get_text()]


@pytest.mark.parametrize("own_axes", [False, True], ids=["mtlearn-figure", "user-axes"])
@pytest.mark.parametrize("name", list(_drawers()))
def test_a_dollar_token_is_drawn_literally(name, own_axes):
    ax = Figure().add_subplot() if own_axes else None
    fig = _drawers()[name](ax)
    texts = _texts_with_the_token(fig)
    assert texts, "the token is not drawn at all"
    assert all(not t.get_parse_math() for t in texts)
    png = plots.figure_to_png(fig)  # mathtext would raise ValueError here
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_alignment_comparison_with_a_dollar_token():
    fig = plots.plot_alignment_comparison([TOKEN, "b"], [TOKEN, "b"], [(TOKEN, [(0, 0)]), ("(b)", [(1, 1)])])
    assert len(_texts_with_the_token(fig)) >= 5  # two words per row, and a title
    assert plots.figure_to_png(fig)[:4] == b"\x89PNG"


def test_explorers_show_a_dollar_token():
    from mtlearn.show.explorers import BleuExplorer, ChrfExplorer, MeteorExplorer, TerExplorer

    for explorer in (BleuExplorer(f"{TOKEN} b", [f"b {TOKEN}"]), ChrfExplorer(f"{TOKEN} b", [f"b {TOKEN}"]),
                     MeteorExplorer(f"{TOKEN} b", [f"b {TOKEN}"], stages=["exact"]),
                     TerExplorer(f"{TOKEN} b", [f"b {TOKEN}"])):
        assert explorer.error is None, (type(explorer).__name__, explorer.error)
        if hasattr(explorer, "image"):
            assert bytes(explorer.image.value[:8]) == b"\x89PNG\r\n\x1a\n", type(explorer).__name__


# --------------------------------------------------------------------------- counts of one are singular

_ONE_PLURALS = ("1 segments", "1 candidates", "1 references", "1 lines")


def _one_plurals(text: str) -> list[str]:
    return [bad for bad in _ONE_PLURALS if bad in text]


@pytest.mark.parametrize("name", ["corpus_bleu", "corpus_chrf", "corpus_meteor", "corpus_ter", "corpus_wer",
                                  "corpus_cer"])
@pytest.mark.parametrize("candidate", ["the cat sat on the mat", ""])
def test_a_one_segment_corpus_is_singular(name, candidate):
    import mtlearn

    result = getattr(mtlearn, name)([candidate], [["the cat is on the mat"]])
    texts = [result.explain(), result._repr_html_(), repr(result), repr(result.segments), str(result.reason)]
    assert "1 segment" in result.explain()
    assert _one_plurals("\n".join(texts)) == [], (name, texts)


@pytest.mark.parametrize("metric", ["bleu", "meteor", "chrf", "ter", "wer", "cer"])
@pytest.mark.parametrize("extra", [[], ["--explain"], ["--json"], ["--sentence-level"]])
def test_one_line_files_are_singular_on_the_command_line(tmp_path, metric, extra):
    hyp = write_lines(tmp_path / "hyp.txt", [""])
    proc = run([metric, "-r", str(write_lines(tmp_path / "ref.txt", ["the cat"])), "-i", str(hyp), *extra])
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode() + proc.stderr.decode()
    assert out.strip()
    assert _one_plurals(out) == [], out


@pytest.mark.parametrize("case", ["unwritable", "open to everyone"])
def test_wordnet_target_failures_name_the_full_path(tmp_path, case):
    debian = Path("/usr/share/wordnet")
    if not (debian / "data.noun").is_file():
        pytest.skip("Debian's WordNet (/usr/share/wordnet) is absent: the set-up would stop before writing")
    if case == "unwritable":
        (tmp_path / "a-file").write_text("not a folder\n")
        relative = Path("a-file") / "nltk_data"
    else:
        (tmp_path / "open").mkdir()
        (tmp_path / "open").chmod(0o777)  # writable by all, not sticky: refused
        relative = Path("open") / "nltk_data"
    code = ("import sys, nltk; nltk.data.path[:] = []\n"
            "from mtlearn.tools.cli.main import main\n"
            f"sys.exit(main(['wordnet', '--target', {str(relative)!r}, '--no-download', '--no-apt']))")
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, timeout=TIMEOUT, cwd=tmp_path)
    err = one_error(proc, 1, "--target")
    assert f"into {tmp_path / relative}:" in err, err
    assert not (tmp_path / relative).exists()

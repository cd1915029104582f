"""The command line's files read sacreBLEU's way, the output written; a problem: :class:`CommandLineError`.

Input files follow sacreBLEU's conventions: UTF-8, one segment a line (lines end at
``\\n`` only), trailing white space dropped, a leading byte-order mark ignored. A corpus
is read whole (:func:`load_corpus`; :func:`load_corpora` for several systems), so that
the line counts are checked before anything is scored. ``--sentence-level`` reads the
files in step instead, one line of each at a time (:class:`AlignedLines`), so that its
memory stays flat however long the files are; a file that ends early is reported when
the others go on. The output goes through :func:`write_output`, which turns a full or
closed standard output into a :class:`CommandLineError` and escapes what the output's
encoding lacks.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "ref.txt").write_text("the cat\\na dog\\n", encoding="utf-8")
>>> _ = (folder / "hyp.txt").write_text("the cat\\n", encoding="utf-8")
>>> seen = []
>>> for item in AlignedLines([str(folder / "ref.txt")], str(folder / "hyp.txt")):
...     seen.append(item)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mtlearn.tools.cli.io.CommandLineError: .../hyp.txt has 1 line but .../ref.txt has more (line 2 has no ...
>>> seen  # the line before the mismatch was given out
[(1, 'the cat', ('the cat',))]
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import count
from typing import IO, Optional

from mtlearn.core.wording import plural
from mtlearn.tools.cli import interrupt

__all__ = ["EXIT_INPUT", "EXIT_USAGE", "EXIT_INTERRUPTED", "STDIN_NAME", "CommandLineError", "Corpus",
           "AlignedLines", "read_lines", "read_segments", "load_corpus", "load_corpora", "write_output",
           "quiet_stdout", "STDOUT_CLOSED", "print_error"]

STDIN_NAME = "<stdin>"

#: Exit statuses: the input data is wrong (or WordNet is missing) / the command line is wrong.
EXIT_INPUT = 1
EXIT_USAGE = 2
#: ... stopped by Ctrl-C (128 + SIGINT, the shell's convention).
EXIT_INTERRUPTED = 130

STDOUT_CLOSED = ("standard output is closed (`>&-`); send the output to a file (`> out.txt`) "
                 "or discard it (`> /dev/null`)")


def print_error(message: object) -> None:
    """``mtlearn: error: <message>`` on standard error, if there is one to write to."""
    try:
        if sys.stderr is not None:  # `2>&-`: print(file=None) would write to standard output
            print(f"mtlearn: error: {message}", file=sys.stderr)
    except (OSError, ValueError):  # `2> /dev/full`: the exit status still tells
        pass


class CommandLineError(Exception):
    """A problem the user can fix, reported as ``mtlearn: error: <message>`` with exit ``status``.

    >>> error = CommandLineError("ref.txt: no such file", EXIT_INPUT)
    >>> str(error), error.status
    ('ref.txt: no such file', 1)
    """

    def __init__(self, message: str, status: int = EXIT_INPUT) -> None:
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------------------
# Reading a file whole


def _not_utf8(name: str, line_number: int, bad: bytes, column: int) -> CommandLineError:
    """The message for bad UTF-8: the file, the line, the byte and where it sits in the line (1-based)."""
    return CommandLineError(
        f"{name}, line {line_number}: not valid UTF-8 (byte {'0x%02x' % bad[0] if bad else '?'} "
        f"at byte {column} of the line); save the file as UTF-8"
    )


def read_lines(data: bytes, name: str) -> list[str]:
    """Split ``data`` (the bytes of file ``name``) into lines, sacreBLEU's way.

    Lines end at ``\\n`` only (other Unicode line separators stay inside a
    segment, as in sacreBLEU); trailing white space (also ``\\r``) is dropped; a
    last line without ``\\n`` still counts; a leading UTF-8 byte-order mark is
    ignored. Bad UTF-8 is reported with the file name and the line number.

    >>> read_lines(b"the cat \\r\\nsat\\n\\non the mat", "hyp.txt")
    ['the cat', 'sat', '', 'on the mat']
    >>> read_lines(b"", "hyp.txt")
    []
    >>> read_lines(b"ok\\nbad \\xff here\\n", "hyp.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtlearn.tools.cli.io.CommandLineError: hyp.txt, line 2: not valid UTF-8 (byte 0xff at byte 5 of the ...
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        raise _not_utf8(name, data.count(b"\n", 0, error.start) + 1, data[error.start:error.end],
                        error.start - line_start + 1) from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it does not start a new one
    return [line.rstrip() for line in lines]


def _stdin_stream(stdin: Optional[IO[bytes]]) -> IO[bytes]:
    interrupt.raise_if_interrupted()  # a Ctrl-C swallowed while loading: stop before waiting for input
    if stdin is None and sys.stdin is None:  # `<&-`
        raise CommandLineError("standard input is closed: name the file instead of '-' (e.g. -i HYP)")
    return stdin if stdin is not None else sys.stdin.buffer


def read_segments(path: Optional[str], stdin: Optional[IO[bytes]] = None) -> tuple[str, list[str]]:
    """Read file ``path`` (standard input for ``None`` or ``"-"``): its display name and its lines.

    >>> read_segments("/nonexistent/ref.txt")
    Traceback (most recent call last):
    ...
    mtlearn.tools.cli.io.CommandLineError: /nonexistent/ref.txt: cannot read it: No such file or directory
    """
    if path is None or path == "-":
        stream = _stdin_stream(stdin)
        try:
            return STDIN_NAME, read_lines(_read_all(stream.read, "standard input"), STDIN_NAME)
        except OSError as error:  # `< /`: a folder
            raise CommandLineError(f"standard input: cannot read it: {error.strerror or error}") from None
    try:
        with open(path, "rb") as handle:
            data = _read_all(handle.read, path)
    except OSError as error:
        raise CommandLineError(f"{path}: cannot read it: {error.strerror or error}") from None
    return path, read_lines(data, path)


def _read_all(read: Callable[[], bytes], name: str) -> bytes:
    """``read()``, running out of memory (``-r /dev/zero``, a file larger than memory) said in one line."""
    try:
        return read()
    except MemoryError:
        raise CommandLineError(f"{name}: too large to read into the memory available") from None


@dataclass(frozen=True)
class Corpus:
    """Hypotheses and references read from files: ``references[i]`` lists the references of ``hypotheses[i]``.

    >>> corpus = Corpus(("a b", "c"), (("a b", "a c"), ("c", "d")), "hyp.txt", ("r1.txt", "r2.txt"))
    >>> len(corpus), corpus.references[1]
    (2, ('c', 'd'))
    """

    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    hypothesis_file: str
    reference_files: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.hypotheses)


def _check_stdin_once(reference_paths: Sequence[str], hypothesis_paths: Sequence[Optional[str]]) -> None:
    readers = list(reference_paths).count("-") + sum(path in (None, "-") for path in hypothesis_paths)
    if readers > 1:
        raise CommandLineError("standard input ('-') can be read only once; give the other files by name",
                               EXIT_USAGE)


def load_corpus(reference_paths: Sequence[str], hypothesis_path: Optional[str],
                stdin: Optional[IO[bytes]] = None) -> Corpus:
    """Read and line-align the reference files and the hypotheses; every mismatch a :class:`CommandLineError`.

    >>> load_corpus(["/nonexistent/ref.txt"], "/nonexistent/hyp.txt")
    Traceback (most recent call last):
    ...
    mtlearn.tools.cli.io.CommandLineError: /nonexistent/ref.txt: cannot read it: No such file or directory
    """
    return load_corpora(reference_paths, [hypothesis_path], stdin)[0]


def load_corpora(reference_paths: Sequence[str], hypothesis_paths: Sequence[Optional[str]],
                 stdin: Optional[IO[bytes]] = None) -> list[Corpus]:
    """One :class:`Corpus` per hypothesis file (one system each), the references read once and shared.

    Every file must have as many lines as the first system's; a file named twice in
    ``hypothesis_paths`` is refused (two rows of one table would have one name).

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name, text in (("ref", "a b\\nc d\\n"), ("s1", "a b\\nc\\n"), ("s2", "a\\nc d\\n")):
    ...     _ = (folder / name).write_text(text, encoding="utf-8")
    >>> a, b = load_corpora([str(folder / "ref")], [str(folder / "s1"), str(folder / "s2")])
    >>> a.hypotheses, b.hypotheses, a.references is b.references, a.references
    (('a b', 'c'), ('a', 'c d'), True, (('a b',), ('c d',)))
    >>> import shutil; shutil.rmtree(folder)
    """
    _check_stdin_once(reference_paths, hypothesis_paths)
    references = [read_segments(path, stdin) for path in reference_paths]
    systems: list[tuple[str, list[str]]] = []
    for path in hypothesis_paths:
        name, lines = read_segments(path, stdin)
        if name in (seen for seen, _ in systems):
            raise CommandLineError(f"{name} is given twice to -i; give each system once", EXIT_USAGE)
        if not lines:
            where = "standard input" if name == STDIN_NAME else name
            hint = " (give them on standard input or with -i HYP)" if name == STDIN_NAME else ""
            raise CommandLineError(f"{where} is empty: no hypotheses to score{hint}")
        systems.append((name, lines))
    for name, lines in references:
        if not lines:
            raise CommandLineError(f"{name} is empty: no references")
    first_name, first = systems[0]
    for name, lines in [*references, *systems[1:]]:
        if len(lines) != len(first):
            raise CommandLineError(
                f"{name} has {plural(len(lines), 'line')} but {first_name} has {len(first)}; "
                "the files must be line-aligned (one segment a line)"
            )
    shared = tuple(zip(*(lines for _, lines in references)))
    files = tuple(name for name, _ in references)
    return [Corpus(tuple(lines), shared, name, files) for name, lines in systems]


# ---------------------------------------------------------------------------
# Reading files in step, one line at a time


class AlignedLines:
    """The hypotheses and their references read in step: ``(line number, hypothesis, references)``.

    Only the current line of each file is held, so memory does not grow with the
    files. Missing files are reported when the object is made; an empty hypothesis or
    reference file when the first line is read; a file that ends while the others go
    on when the iteration reaches that line (the lines before have been given out),
    with the line number and the files on each side. Iterating closes the files.
    """

    def __init__(self, reference_paths: Sequence[str], hypothesis_path: Optional[str],
                 stdin: Optional[IO[bytes]] = None) -> None:
        _check_stdin_once(reference_paths, [hypothesis_path])
        self._files = ExitStack()
        try:
            paths = [hypothesis_path, *reference_paths]
            self.names, self.streams = zip(*(self._open(path, stdin) for path in paths))
        except BaseException:
            self._files.close()
            raise
        self.hypothesis_file = self.names[0]

    def _open(self, path: Optional[str], stdin: Optional[IO[bytes]]) -> tuple[str, IO[bytes]]:
        if path is None or path == "-":
            return STDIN_NAME, _stdin_stream(stdin)
        try:
            return path, self._files.enter_context(open(path, "rb"))
        except OSError as error:
            raise CommandLineError(f"{path}: cannot read it: {error.strerror or error}") from None

    def __iter__(self) -> Iterator[tuple[int, str, tuple[str, ...]]]:
        with self._files:
            for number in count(1):
                lines = [self._line(name, stream, number) for name, stream in zip(self.names, self.streams)]
                if all(line is None for line in lines):
                    if number == 1:
                        raise self._empty(self.names[0], is_hypothesis=True)
                    return
                if any(line is None for line in lines):
                    raise self._mismatch(lines, number)
                yield number, lines[0], tuple(lines[1:])  # type: ignore[misc]

    def _line(self, name: str, stream: IO[bytes], number: int) -> Optional[str]:
        """Line ``number`` of ``stream`` as sacreBLEU reads it, or None at the end of the file."""
        what = "standard input" if name == STDIN_NAME else name
        try:
            raw = stream.readline()
        except MemoryError:  # a line without end (`-r /dev/zero`)
            message = f"{what}, line {number}: too long to read into the memory available"
            raise CommandLineError(message) from None
        except OSError as error:
            raise CommandLineError(f"{what}: cannot read it: {error.strerror or error}") from None
        if not raw:
            return None
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            return raw.decode("utf-8").rstrip()  # also drops the "\n"
        except UnicodeDecodeError as error:
            raise _not_utf8(name, number, raw[error.start:error.end], error.start + 1) from None

    def _empty(self, name: str, is_hypothesis: bool) -> CommandLineError:
        if not is_hypothesis:
            return CommandLineError(f"{name} is empty: no references")
        if name == STDIN_NAME:
            return CommandLineError("standard input is empty: no hypotheses to score "
                                    "(give them on standard input or with -i HYP)")
        return CommandLineError(f"{name} is empty: no hypotheses to score")

    def _mismatch(self, lines: list[Optional[str]], number: int) -> CommandLineError:
        ended = [name for name, line in zip(self.names, lines) if line is None]
        going = [name for name, line in zip(self.names, lines) if line is not None]
        if number == 1:
            return self._empty(ended[0], is_hypothesis=lines[0] is None)
        return CommandLineError(
            f"{ended[0]} has {plural(number - 1, 'line')} but {going[0]} has more (line {number} has no "
            "partner); the files must be line-aligned (one segment a line)"
        )


# ---------------------------------------------------------------------------
# Writing the output


def write_output(chunks: Iterable[str]) -> int:
    """Write each chunk and a newline to standard output (see :func:`_write_pieces`); return 0."""
    _write_pieces(chunk + "\n" for chunk in chunks)
    return 0


def _write_pieces(pieces: Iterable[str], stream: Optional[IO[str]] = None) -> None:
    """Write ``pieces`` to ``stream`` (default: standard output), flush; a failure: :class:`CommandLineError`.

    Characters that the stream's encoding cannot represent (``PYTHONIOENCODING=ascii``)
    are written as JSON's ``\\uXXXX`` escapes, so that ``--json`` stays valid JSON,
    with one warning on standard error. A full or closed output is an error; a reader
    that went away raises ``BrokenPipeError``, which :func:`mtlearn.tools.cli.main.main` turns into status 0.

    >>> import io
    >>> out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    >>> _write_pieces(['{"word": "café"}\\n'], out)  # and a warning on standard error
    >>> out.buffer.getvalue()
    b'{"word": "caf\\\\u00e9"}\\n'
    >>> json.loads(out.buffer.getvalue())
    {'word': 'café'}
    """
    stream = sys.stdout if stream is None else stream
    if stream is None:
        raise CommandLineError(STDOUT_CLOSED)
    try:
        writer = _Writer(stream)
        for piece in pieces:
            writer.write(piece)
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as error:  # `> /dev/full`, a full disk
        _quiet(stream)
        raise CommandLineError(f"cannot write the output: {error.strerror or error}") from None
    except ValueError as error:  # "I/O operation on closed file"
        raise CommandLineError(f"cannot write the output: {error}") from None


class _Writer:
    """Text to ``stream``'s bytes in its encoding, what it lacks as ``\\uXXXX`` (said once); short writes
    retried."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.buffer: Optional[IO[bytes]] = getattr(stream, "buffer", None)
        self.encoding = getattr(stream, "encoding", None) or "utf-8"
        self.errors = getattr(stream, "errors", None) or "strict"
        self.warned = False
        stream.flush()  # what was printed before goes first

    def write(self, text: str) -> None:
        if self.buffer is None:  # io.StringIO, doctest's output: text all the way
            self.stream.write(text)
            return
        try:
            data = text.encode(self.encoding, self.errors)  # the user's own choice, e.g. ascii:replace
        except UnicodeEncodeError:
            data = _escape_unencodable(text, self.encoding).encode(self.encoding)
            self._warn()
        view = memoryview(data)
        while view:  # a buffered write can be short when the reader goes away: the next one then fails
            written = self.buffer.write(view)
            if not written:
                raise OSError(errno.EIO, "standard output accepts no more data")
            view = view[written:]

    def _warn(self) -> None:
        if not self.warned and sys.stderr is not None:
            print(f"mtlearn: warning: the output's encoding ({self.encoding}) cannot represent some "
                  "characters; they are written as \\uXXXX escapes (set "
                  "PYTHONIOENCODING=utf-8 to have them as they are)",
                  file=sys.stderr)
        self.warned = True


def _escape_unencodable(text: str, encoding: str) -> str:
    r"""``text``, each character ``encoding`` lacks written as JSON writes it (``\u00e9``; beyond U+FFFF a
    pair).

    >>> print(_escape_unencodable("café 😀", "ascii"))
    caf\u00e9 \ud83d\ude00
    """
    out = []
    for char in text:
        try:
            char.encode(encoding)
            out.append(char)
        except UnicodeEncodeError:
            out.append(json.dumps(char)[1:-1])
    return "".join(out)


def _quiet(stream: Optional[IO[str]]) -> None:
    """Point ``stream``'s file descriptor at os.devnull, so that Python's last flush at exit says nothing."""
    try:
        fd = stream.fileno()  # type: ignore[union-attr]
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # no descriptor (io.StringIO) or already gone
        pass


def quiet_stdout() -> None:
    """Silence standard output for good (a reader that went away: Python's last flush would complain)."""
    _quiet(sys.stdout)

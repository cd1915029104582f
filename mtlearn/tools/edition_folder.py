"""Where :mod:`mtlearn.tools.editions` may write an edition, and writing it whole.

Nothing is written or deleted before the paths are checked (:func:`check_output`) and
the edition is in memory. These rules hold even with ``force``: the output folder may not
be the source folder or hold it, be the home folder or hold it, be a git repository's
root (hold ``.git``) or lie inside a ``.git`` folder, or be a file; the zip must be named
``*.zip`` and lie outside the source folder and outside the edition's folder.

The builder writes :data:`MARKER_FILE` into each folder it fills, listing the files it
wrote and their SHA-256, so that it can tell its own folder from a user's: a rebuild
(:func:`write_output`) replaces those files, deletes the ones no longer in the edition,
and touches nothing else. A non-empty folder without a valid marker is refused, and so is
a file the builder wrote that was changed since. ``force`` writes the edition into such a
folder, replacing the files of the edition's names and deleting nothing (a changed file
no longer in the edition is kept). A zip is replaced only when the builder wrote it (its
comment says so) or with ``force``. Every file is written to a temporary name beside it,
then renamed, so that a file is never left half written.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     source = Path(tmp) / "notebooks"
...     source.mkdir()
...     check_output(source, source, None, force=True)
Traceback (most recent call last):
...
mtlearn.tools.edition_folder.EditionError: refusing --out ...notebooks: it is the source folder
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Optional

__all__ = ["MARKER_FILE", "EditionError", "Output", "check_output", "first_line", "read_capped",
           "write_output"]

#: The file the builder writes into each folder it fills: which files it wrote, and their SHA-256.
MARKER_FILE = ".mtlearn-edition.json"

_MADE_BY = "mtlearn.tools.editions"
#: What the builder wrote in its marker and zip comment before it moved from mtlearn.show: a folder or zip
#: built then is still the builder's own (written over without --force, as before).
_MADE_BY_BEFORE = "mtlearn.show.editions"
_ZIP_COMMENT = _MADE_BY.encode()


class EditionError(ValueError):
    """A notebook, a marker or an output path the builder refuses; the message names it and says why."""


@dataclass(frozen=True)
class Output:
    """The checked output paths: the folder as given and resolved, the zip (resolved) if any, ``force``."""

    given: Path
    folder: Path
    archive: Optional[Path]
    force: bool


def first_line(error: BaseException) -> str:
    """The first line of an error's message (at most 200 characters), for a one-line refusal.

    >>> first_line(ValueError("bad\\nand the details"))
    'bad'
    """
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__


def read_capped(path: Path, limit: int, label: str, what: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; :class:`EditionError` otherwise.

    ``label`` names the file in the message (``"--wheel x.whl"``), ``what`` says what it was meant to
    be (``"mtlearn's wheel"``). A file over the limit is refused unread, and the read is capped too (a
    file may grow between the two).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "a.txt").write_bytes(b"12345")
    ...     read_capped(Path(tmp) / "a.txt", 4, "a.txt", "a note")
    Traceback (most recent call last):
    ...
    mtlearn.tools.edition_folder.EditionError: a.txt: more than 4 bytes, too big for a note
    """
    too_big = f"{label}: more than {limit} bytes, too big for {what}"
    try:
        if not path.is_file():
            raise EditionError(f"{label}: not a regular file")
        if path.stat().st_size > limit:
            raise EditionError(too_big)
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise EditionError(f"{label}: cannot be read: {error.strerror}") from None
    if len(data) > limit:
        raise EditionError(too_big)
    return data


def _resolve(path: Path, option: str) -> Path:
    try:
        return Path(os.path.abspath(path)).resolve()
    except (OSError, RuntimeError) as error:  # a loop of links
        raise EditionError(f"refusing {option} {path}: {first_line(error)}") from None


def _shown(option: str, given: Path, resolved: Path) -> str:
    return f"refusing {option} {given}" + ("" if str(given) == str(resolved) else f" ({resolved})")


def _protected(source: Path) -> dict[Path, str]:
    """The folders no edition may be written to, even with ``force``, and why."""
    folder = _resolve(source, "--source")
    reasons = {folder: "it is the source folder"}
    for parent in folder.parents:
        reasons.setdefault(parent, f"it holds the source folder {source}")
    try:
        home = Path.home().resolve()
    except (RuntimeError, KeyError, OSError):  # no HOME and no password entry: no home folder to guard
        return reasons
    reasons.setdefault(home, "it is the home folder")
    for parent in home.parents:
        reasons.setdefault(parent, "it holds the home folder")
    return reasons


def _check_place(resolved: Path, refuse: str, protected: dict[Path, str]) -> None:
    """The rules every output path obeys, ``force`` or not."""
    if resolved in protected:
        raise EditionError(f"{refuse}: {protected[resolved]}")
    if ".git" in resolved.parts:
        raise EditionError(f"{refuse}: it is inside a git repository's .git folder")
    if (resolved / ".git").exists():
        raise EditionError(f"{refuse}: it is the root of a git repository (it holds .git)")
    existing = next(p for p in (resolved, *resolved.parents) if p.exists())
    if existing != resolved and not existing.is_dir():
        raise EditionError(f"{refuse}: {existing} is a file, not a folder")


def _ours(archive: Path) -> bool:
    """Whether the zip ``archive`` was written by the builder (its comment says so)."""
    try:
        with zipfile.ZipFile(archive) as zf:
            return zf.comment.startswith((_ZIP_COMMENT, _MADE_BY_BEFORE.encode()))
    except (zipfile.BadZipFile, OSError, ValueError):
        return False


def _check_archive(archive: Path, folder: Path, source: Path, protected: dict[Path, str],
                   force: bool) -> Path:
    """The resolved zip path, checked: ``*.zip``, outside the source and the edition, ours or ``force``."""
    resolved = _resolve(archive, "--zip")
    refuse = _shown("--zip", archive, resolved)
    if resolved.suffix.lower() != ".zip":
        raise EditionError(f"{refuse}: the archive's name must end in .zip")
    _check_place(resolved, refuse, protected)
    if resolved.is_dir():
        raise EditionError(f"{refuse}: it is a folder")
    if _resolve(source, "--source") in resolved.parents:
        raise EditionError(f"{refuse}: it is inside the source folder")
    if resolved == folder or folder in resolved.parents:
        raise EditionError(f"{refuse}: it would be inside the edition it zips")
    if resolved.exists() and not (resolved.is_file() and (force or _ours(resolved))):
        raise EditionError(f"{refuse}: it exists and the builder did not write it; pass "
                           "--force to replace it")
    return resolved


def check_output(source: Path, folder: Path, archive: Optional[Path], *, force: bool) -> Output:
    """The output folder and zip, checked against the rules that hold even with ``force`` (the module's
    docstring); nothing is written. See the module's example."""
    protected = _protected(Path(source))
    given = Path(folder)
    resolved = _resolve(given, "--out")
    _check_place(resolved, _shown("--out", given, resolved), protected)
    if resolved.exists() and not resolved.is_dir():
        raise EditionError(f"{_shown('--out', given, resolved)}: it is a file, not a folder")
    zipped = (None if archive is None
              else _check_archive(Path(archive), resolved, Path(source), protected, force))
    return Output(given, resolved, zipped, force)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _plain_name(name: object) -> bool:
    """A file name with no folder in it, not hidden: what a marker may list (nothing outside its folder)."""
    return isinstance(name, str) and name == Path(name).name and not name.startswith(".") and "\\" not in name


def _read_marker(folder: Path) -> Optional[dict[str, str]]:
    """The files the builder wrote into ``folder`` and their SHA-256; ``None``: no valid marker."""
    path = folder / MARKER_FILE
    if path.is_symlink() or not path.is_file():
        return None
    try:
        data = json.loads(path.read_bytes()[: 2**20].decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    ours = isinstance(data, dict) and data.get("made_by") in (_MADE_BY, _MADE_BY_BEFORE)
    files = data.get("files") if ours else None
    if not isinstance(files, dict):
        return None
    valid = all(_plain_name(name) and isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{64}", sha)
                for name, sha in files.items())
    return files if valid else None


def _changed(path: Path, sha: str) -> bool:
    """Whether the file at ``path`` is there and differs from what the builder wrote (SHA-256 ``sha``)."""
    if not path.is_file():
        return False
    try:
        with open(path, "rb") as handle:
            return _sha256(handle.read()) != sha
    except OSError:
        return True


def _check_no_folder_in_the_way(output: Output, names: Sequence[str]) -> None:
    blocked = [name for name in (*names, MARKER_FILE) if (output.folder / name).is_dir()]
    if blocked:
        raise EditionError(f"refusing --out {output.given}: {output.given / blocked[0]} is a folder")


def _files_to_delete(output: Output, names: Sequence[str]) -> list[str]:
    """The files of a previous build to delete before writing ``names``; refuses a folder not the
    builder's."""
    folder, given = output.folder, output.given
    _check_no_folder_in_the_way(output, names)
    if not folder.exists() or not any(folder.iterdir()):
        return []
    previous = _read_marker(folder)
    if previous is None:
        if output.force:
            return []  # write into it, replacing the edition's names only
        raise EditionError(f"refusing --out {given}: it is not empty and the builder did not make it (no "
                           f"valid {MARKER_FILE}); pass --force to write the edition into "
                           "it (other files are kept)")
    changed = [name for name, sha in previous.items() if _changed(folder / name, sha)]
    if changed and not output.force:
        raise EditionError(f"refusing --out {given}: {given / changed[0]} changed since the builder wrote "
                           "it; pass --force to overwrite it")
    gone = set(previous) - set(names) - set(changed)  # a changed file is never deleted, even with force
    return sorted(name for name in gone if (folder / name).is_file())


def _write_whole(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Call ``write(handle)`` on a new temporary file beside ``path``, then rename it to ``path``."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            write(handle)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _write_zip(archive: Path, name: str, folder_name: str, files: Mapping[str, bytes]) -> None:
    def write(handle: BinaryIO) -> None:
        with zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.comment = _ZIP_COMMENT + f" {name} edition".encode()
            for file_name in sorted(files):
                zf.writestr(f"{folder_name}/{file_name}", files[file_name])

    archive.parent.mkdir(parents=True, exist_ok=True)
    _write_whole(archive, write)


def _write_folder(folder: Path, name: str, files: Mapping[str, bytes], stale: Sequence[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for old in stale:
        (folder / old).unlink(missing_ok=True)
    for file_name, data in files.items():
        _write_whole(folder / file_name, lambda handle, data=data: handle.write(data))
    marker = {"made_by": _MADE_BY, "edition": name, "files": {n: _sha256(data) for n, data in files.items()}}
    text = json.dumps(marker, indent=1, sort_keys=True) + "\n"
    _write_whole(folder / MARKER_FILE, lambda handle: handle.write(text.encode()))


def write_output(output: Output, name: str, files: Mapping[str, bytes]) -> None:
    """Write ``files`` (name -> bytes) as edition ``name`` into the checked ``output``, and zip them.

    Refuses (:class:`EditionError`) a non-empty folder the builder did not make and a file it wrote
    that was changed since, unless ``output.force``; deletes only files of its previous build.
    """
    stale = _files_to_delete(output, list(files))
    try:
        _write_folder(output.folder, name, files, stale)
        if output.archive is not None:
            _write_zip(output.archive, name, output.folder.name, files)
    except OSError as error:
        raise EditionError(f"{error.filename or output.given}: cannot write: {error.strerror}") from None

"""Make WordNet available to NLTK, also on machines without internet.

METEOR's synonym stage needs WordNet. ``ensure_wordnet()`` tries, in order:

1. WordNet that NLTK already finds (``nltk.data.path``);
2. Debian's WordNet 3.0 in ``/usr/share/wordnet`` (packages ``wordnet-base`` and
   ``wordnet-sense-index``) copied into an NLTK corpus folder — no network needed;
3. ``nltk.download("wordnet")`` (needs the internet);
4. as root with ``apt-get``: install those two Debian packages, then step 2;

and otherwise stops with a :class:`WordNetMissingError` that says exactly what to do.
The corpus folder goes to ``<virtual environment>/nltk_data`` when running inside a
virtual environment (NLTK searches ``sys.prefix/nltk_data``, so nothing outside the
environment is touched), else to ``~/nltk_data``.

Command line: ``python -m mtlearn.metrics.meteor.wordnet`` (``--help`` for options).

>>> LEXNAMES[0], LEXNAMES[3], LEXNAMES[44], len(LEXNAMES)
(('adj.all', 3), ('noun.Tops', 1), ('adj.ppl', 3), 45)
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

DEBIAN_WORDNET = Path("/usr/share/wordnet")
DEBIAN_PACKAGES = ("wordnet-base", "wordnet-sense-index")

# NLTK reads these at load time; Debian's packages ship all but ``lexnames``.
REQUIRED_FILES = (
    "data.adj", "data.adv", "data.noun", "data.verb",
    "index.adj", "index.adv", "index.noun", "index.verb", "index.sense",
    "adj.exc", "adv.exc", "noun.exc", "verb.exc",
)
OPTIONAL_FILES = ("cntlist.rev", "cntlist", "verb.Framestext", "sentidx.vrb", "sents.vrb", "frames.vrb")

#: WordNet 3.0's lexicographer files, numbered 00..44, with their part of speech
#: (1 noun, 2 verb, 3 adjective, 4 adverb), as in ``man 5 lexnames``.
LEXNAMES: tuple[tuple[str, int], ...] = (
    ("adj.all", 3), ("adj.pert", 3), ("adv.all", 4), ("noun.Tops", 1), ("noun.act", 1),
    ("noun.animal", 1), ("noun.artifact", 1), ("noun.attribute", 1), ("noun.body", 1),
    ("noun.cognition", 1), ("noun.communication", 1), ("noun.event", 1), ("noun.feeling", 1),
    ("noun.food", 1), ("noun.group", 1), ("noun.location", 1), ("noun.motive", 1),
    ("noun.object", 1), ("noun.person", 1), ("noun.phenomenon", 1), ("noun.plant", 1),
    ("noun.possession", 1), ("noun.process", 1), ("noun.quantity", 1), ("noun.relation", 1),
    ("noun.shape", 1), ("noun.state", 1), ("noun.substance", 1), ("noun.time", 1),
    ("verb.body", 2), ("verb.change", 2), ("verb.cognition", 2), ("verb.communication", 2),
    ("verb.competition", 2), ("verb.consumption", 2), ("verb.contact", 2), ("verb.creation", 2),
    ("verb.emotion", 2), ("verb.motion", 2), ("verb.perception", 2), ("verb.possession", 2),
    ("verb.social", 2), ("verb.stative", 2), ("verb.weather", 2), ("adj.ppl", 3),
)

HOW_TO_GET_IT = (
    "WordNet for NLTK was not found. Do one of these, then try again:\n"
    "  * with internet:      python -c \"import nltk; nltk.download('wordnet')\"\n"
    "  * on Debian/Ubuntu:   sudo apt-get install -y wordnet-base wordnet-sense-index\n"
    "                        python -m mtlearn.metrics.meteor.wordnet\n"
    "  * or run the README's set-up command (make test / make lab), which does the above."
)


class WordNetMissingError(LookupError):
    """WordNet is needed (METEOR's synonym stage) but NLTK cannot find it.

    >>> str(WordNetMissingError()).splitlines()[0]
    'WordNet for NLTK was not found. Do one of these, then try again:'
    """

    def __init__(self, detail: str = "") -> None:
        super().__init__(HOW_TO_GET_IT + (f"\n({detail})" if detail else ""))


def default_target() -> Path:
    """Where a new WordNet corpus folder goes: the virtual environment's ``nltk_data``, else ``~/nltk_data``.

    >>> default_target().name
    'nltk_data'
    """
    in_venv = sys.prefix != getattr(sys, "base_prefix", sys.prefix)
    return Path(sys.prefix) / "nltk_data" if in_venv else Path.home() / "nltk_data"


def lexnames_text() -> str:
    """The ``lexnames`` file NLTK needs and Debian does not ship.

    >>> lexnames_text().splitlines()[5]
    '05\\tnoun.animal\\t1'
    """
    return "".join(f"{i:02d}\t{name}\t{pos}\n" for i, (name, pos) in enumerate(LEXNAMES))


def find_wordnet(search_path: list[str] | None = None) -> Path | None:
    """The WordNet corpus NLTK would load (a folder or ``wordnet.zip``), or ``None``.

    ``search_path`` defaults to ``nltk.data.path``.

    >>> find_wordnet(search_path=[]) is None
    True
    """
    import nltk

    paths = nltk.data.path if search_path is None else search_path
    for base in paths:
        folder = Path(base) / "corpora" / "wordnet"
        if (folder / "data.noun").is_file() and (folder / "lexnames").is_file():
            return folder
        archive = Path(base) / "corpora" / "wordnet.zip"
        if archive.is_file():
            return archive
    return None


def build_from_debian(source: Path = DEBIAN_WORDNET, target: Path | None = None) -> Path:
    """Copy Debian's WordNet files into ``<target>/corpora/wordnet`` and write ``lexnames``.

    Files are copied, not linked: NLTK refuses links that leave the corpus folder.
    Returns the corpus folder. Raises :class:`WordNetMissingError` naming the
    missing files when ``source`` is incomplete.

    >>> build_from_debian(Path("/nonexistent"), Path("/tmp/x"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtlearn.metrics.meteor.wordnet.WordNetMissingError: WordNet for NLTK was not found. ...
    """
    missing = [name for name in REQUIRED_FILES if not (source / name).is_file()]
    if missing:
        raise WordNetMissingError(f"{source} lacks {', '.join(missing)}")
    corpus = (target or default_target()) / "corpora" / "wordnet"
    corpus.mkdir(parents=True, exist_ok=True)
    for name in REQUIRED_FILES + OPTIONAL_FILES:
        if (source / name).is_file():
            shutil.copyfile(source / name, corpus / name)
    (corpus / "lexnames").write_text(lexnames_text(), encoding="ascii")
    (corpus / "LICENSE").write_text(
        "WordNet 3.0 (c) Princeton University, copied from Debian's wordnet-base and "
        "wordnet-sense-index packages by mtlearn.metrics.meteor.wordnet.\n",
        encoding="ascii",
    )
    return corpus


def try_nltk_download(target: Path, timeout: float = 15.0) -> bool:
    """``nltk.download("wordnet")`` into ``target``; ``False`` (not an exception) when offline."""
    import nltk

    previous = socket.getdefaulttimeout()
    socket.setdefaulttimeout(timeout)  # NLTK's downloader sets none; offline it could hang
    try:
        return bool(nltk.download("wordnet", download_dir=str(target), quiet=True, raise_on_error=True))
    except Exception:  # noqa: BLE001 - any network or parse failure means "not this way"
        return False
    finally:
        socket.setdefaulttimeout(previous)


def try_apt_install() -> bool:
    """Install Debian's WordNet packages when running as root with apt-get; ``False`` otherwise."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-q", *DEBIAN_PACKAGES]
    if subprocess.run(install, env=env, capture_output=True).returncode == 0:
        return True
    # A fresh machine has no package lists yet.
    subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
    return subprocess.run(install, env=env, capture_output=True).returncode == 0


def wordnet_version(corpus: Path | None = None) -> str:
    """The version NLTK reports for the WordNet it loads (``corpus`` or NLTK's default)."""
    if corpus is None:
        from nltk.corpus import wordnet

        return str(wordnet.get_version())
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    return str(WordNetCorpusReader(str(corpus), None).get_version())


def wordnet_available() -> bool:
    """Whether NLTK finds a WordNet corpus (cheap: looks for files, loads nothing)."""
    return find_wordnet() is not None


def ensure_wordnet(
    *,
    target: Path | None = None,
    allow_download: bool = True,
    allow_apt: bool = True,
    debian_source: Path = DEBIAN_WORDNET,
    log=print,
) -> Path:
    """Make sure NLTK finds WordNet; return the corpus location (see the module docstring for the order).

    Raises :class:`WordNetMissingError` with instructions when every way failed.
    """
    found = find_wordnet()
    if found is not None:
        log(f"WordNet: found at {found}")
        return found
    target = target or default_target()
    if target.as_posix() not in [Path(p).as_posix() for p in _nltk_path()]:
        _nltk_path().append(str(target))  # this process only; new processes find it via sys.prefix
    if (debian_source / "data.noun").is_file():
        corpus = build_from_debian(debian_source, target)
        log(f"WordNet: built {corpus} from {debian_source}")
        return corpus
    if allow_download and try_nltk_download(target):
        found = find_wordnet([str(target)])
        if found is not None:
            log(f"WordNet: downloaded to {found}")
            return found
    if allow_apt and try_apt_install() and (debian_source / "data.noun").is_file():
        corpus = build_from_debian(debian_source, target)
        log(f"WordNet: installed {', '.join(DEBIAN_PACKAGES)} and built {corpus}")
        return corpus
    raise WordNetMissingError(
        f"looked in NLTK's path, in {debian_source}, "
        + ("tried nltk.download, " if allow_download else "")
        + ("tried apt-get" if allow_apt else "apt-get not tried")
    )


def _nltk_path() -> list[str]:
    import nltk

    return nltk.data.path


def main(argv: list[str] | None = None, prog: str = "python -m mtlearn.metrics.meteor.wordnet") -> int:
    """Command line: make WordNet available, print where it is and its version."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Make WordNet available to NLTK (for METEOR's synonym stage), also offline.",
    )
    parser.add_argument("--target", type=Path, default=None,
                        help=f"folder to put nltk_data in (default: {default_target()})")
    parser.add_argument("--no-download", action="store_true", help="do not try nltk.download")
    parser.add_argument("--no-apt", action="store_true", help="do not try apt-get")
    parser.add_argument("--check", action="store_true", help="only report whether WordNet is found")
    args = parser.parse_args(argv)
    if args.check:
        found = find_wordnet()
        print(f"WordNet: {'found at ' + str(found) if found else 'not found'}")
        return 0 if found else 1
    try:
        corpus = ensure_wordnet(target=args.target, allow_download=not args.no_download,
                                allow_apt=not args.no_apt)
    except WordNetMissingError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"WordNet {wordnet_version(corpus if corpus.is_dir() else None)} ready for NLTK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

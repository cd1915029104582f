"""Build the book offline: ``python book/build.py [html|pot|po] [--languages en zh_CN es]``.

``html`` (``make book``): copies the sources into ``build/book-src/`` (this folder's Sphinx project, the
notebooks as executed, README, ARCHITECTURE, DEVELOPERS, the metric cards, the figures, the .po files),
installs the pinned JavaScript from npm (``npm ci``, ``book/package.json`` and its lock) into
``build/book-npm/`` and copies what the pages load into ``_vendor/vendor/``, then builds each edition
with Sphinx into ``build/book/<language>/`` and writes ``build/book/index.html``, a page to choose one.
``pot`` (``make book-pot``): extracts every page's prose into ``book/locales/pot/`` (Sphinx's gettext
builder; code cells and outputs stay out) and updates ``book/locales/<language>/LC_MESSAGES/`` with
sphinx-intl. ``po``: the second step alone. Each step prints what it did; a missing tool is one line
naming it, exit 2.
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

BOOK = Path(__file__).resolve().parent
REPO = BOOK.parent
BUILD = REPO / "build"
SRC = BUILD / "book-src"
OUT = BUILD / "book"
NPM = BUILD / "book-npm"
SPHINX_OUT = BUILD / "book-sphinx"  # Sphinx's own output (myst-nb writes images beside it), copied into OUT
DOCTREES = SPHINX_OUT / "doctrees"
POT = BOOK / "locales" / "pot"
LANGUAGES = ("en", "zh_CN", "es")
TRANSLATED = ("zh_CN", "es")

#: The book's own files (the Sphinx project), then the repository's pages, as globs from their roots.
PROJECT_FILES = ("conf.py", "index.md", "about.md", "_ext/*.py", "_static/*", "_templates/*")
LOCALE_FILES = ("locales/*/LC_MESSAGES/**/*.po",)
REPO_FILES = ("README.md", "ARCHITECTURE.md", "DEVELOPERS.md", "notebooks/[0-9][0-9]_*.ipynb",
              "mtlearn/metrics/*/CARD.md", "figures/*.png")

#: What each vendored package ships into the book: (npm package, its root inside the package, the files or
#: folders the pages load, the files that carry its licence). MathJax loads its fonts and TeX extensions
#: from beside its script; the widgets' manager its Font Awesome files.
VENDORED = (
    ("mathjax", "es5",
     ("tex-mml-chtml.js", "output/chtml/fonts", "input/tex/extensions", "ui", "a11y", "sre"),
     ("../LICENSE",)),
    ("requirejs", "", ("require.js",), ("package.json",)),  # its licence: require.js's header, package.json
    ("@jupyter-widgets/html-manager", "dist",
     ("embed-amd.js", "*.woff", "*.woff2", "*.ttf", "*.eot", "*.svg"),
     ("embed.js.LICENSE.txt", "../package.json")),  # the bundled packages' notices, then its own licence
)


class BuildError(RuntimeError):
    """A step of the build failed; its message is the one line the command prints."""


def copy_if_changed(source: Path, target: Path) -> bool:
    """Copy ``source`` to ``target`` (keeping its time) unless the same bytes are there already, so
    Sphinx reads again only the pages that changed."""
    if target.is_file() and filecmp.cmp(source, target, shallow=False):
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    return True


def _files(root: Path, patterns: Iterable[str]) -> list[Path]:
    return sorted({path for pattern in patterns for path in root.glob(pattern) if path.is_file()})


def project_hash() -> str:
    """A hash of everything the pages are built from: the Sphinx project (conf.py, the extension, the CSS),
    the pages and the translations. When it changes every page is built again: Sphinx notices a changed
    conf.py, not a changed extension, and it writes again only the pages whose own source changed, while
    every page's sidebar shows every page's title and the start page every page's translation status."""
    digest = hashlib.sha256()
    for root, patterns in ((BOOK, PROJECT_FILES + LOCALE_FILES), (REPO, REPO_FILES)):
        for path in _files(root, patterns):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def stage_sources(src: Path = SRC) -> None:
    """Copy the Sphinx project, the pages and the .po files into ``src``; remove what is not a source now."""
    wanted: dict[Path, Path] = {}
    for path in _files(BOOK, PROJECT_FILES):
        wanted[src / path.relative_to(BOOK)] = path
    for path in _files(REPO, REPO_FILES):
        wanted[src / path.relative_to(REPO)] = path
    for path in _files(BOOK / "locales", ("*/LC_MESSAGES/**/*.po",)):
        wanted[src / "locales" / path.relative_to(BOOK / "locales")] = path
    for target, source in wanted.items():
        copy_if_changed(source, target)
    for stale in [p for p in src.rglob("*") if p.is_file()] if src.is_dir() else []:
        generated = stale.suffix == ".mo" or "_vendor" in stale.relative_to(src).parts
        if stale not in wanted and not generated and "__pycache__" not in stale.parts:
            stale.unlink()


def run(argv: Sequence[str], what: str, cwd: Path = REPO) -> None:
    """Run ``argv``; a missing program or a failure is a :class:`BuildError` naming ``what``."""
    try:
        done = subprocess.run(list(argv), cwd=cwd, check=False)
    except FileNotFoundError as error:
        raise BuildError(f"{what}: {argv[0]} not found ({error.strerror}); install it first") from None
    if done.returncode != 0:
        raise BuildError(f"{what} failed (exit {done.returncode}): {' '.join(map(str, argv))}")


def install_npm(npm_dir: Path | None = None) -> Path:
    """``npm ci`` of ``book/package.json`` and its lock into ``npm_dir`` (default ``build/book-npm``; skipped
    when that lock is installed already); returns its ``node_modules``."""
    npm_dir = npm_dir or NPM
    npm_dir.mkdir(parents=True, exist_ok=True)
    lock = BOOK / "package-lock.json"
    stamp = npm_dir / "node_modules" / ".mtlearn-lock"
    if stamp.is_file() and stamp.read_bytes() == lock.read_bytes():
        return npm_dir / "node_modules"
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(BOOK / name, npm_dir / name)
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("npm not found: the book's JavaScript (MathJax, require.js, the widgets' HTML "
                         "manager) is installed with npm ci (Debian: apt-get install npm)")
    run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], "npm ci", cwd=npm_dir)
    stamp.write_bytes(lock.read_bytes())
    return npm_dir / "node_modules"


def vendor(node_modules: Path, target: Path) -> list[dict[str, str]]:
    """Copy what the pages load from ``node_modules`` into ``target`` (``_vendor/vendor``) with the files that
    carry each package's licence, and list them (name, version, licence, files) in ``licences.json``."""
    listing = []
    for name, root_name, parts, notices in VENDORED:
        package = node_modules / name
        meta = json.loads((package / "package.json").read_text(encoding="utf-8"))
        short, root = name.rsplit("/", 1)[-1], package / root_name
        for part in parts:
            found = [p for p in root.glob(part)]
            if not found:
                raise BuildError(f"{name}@{meta['version']}: {part} not found in the npm package")
            for source in found:
                inside = [p for p in source.rglob("*") if p.is_file()] if source.is_dir() else [source]
                for path in inside:
                    copy_if_changed(path, target / short / path.relative_to(root))
        kept = []
        for notice in notices:
            copy_if_changed((root / notice).resolve(), target / short / "licence" / Path(notice).name)
            kept.append(f"{short}/licence/{Path(notice).name}")
        listing.append({"name": name, "version": meta["version"], "licence": str(meta.get("license", "?")),
                        "files": kept})
    (target / "licences.json").write_text(json.dumps(listing, indent=1) + "\n", encoding="utf-8")
    return listing


def sphinx(builder: str, out: Path, language: str = "en", fresh: bool = False,
           doctrees: Path = DOCTREES) -> None:
    """One Sphinx build of the staged sources (warnings printed, not fatal: a notebook's output may warn);
    ``fresh``: every page read and written again."""
    run([sys.executable, "-m", "sphinx", "-b", builder, "-q", *(["-E", "-a"] if fresh else []),
         "-D", f"language={language}",
         "-d", str(doctrees / f"{builder}-{language}"), str(SRC), str(out)], f"sphinx {builder} ({language})")


def chooser_html(languages: Sequence[str]) -> str:
    """``build/book/index.html``: one link per edition (relative, so it works from file://)."""
    names = {"en": "English", "zh_CN": "中文", "es": "Español"}
    links = "\n".join(f'<li><a href="{code}/index.html" hreflang="{code}" lang="{code}">{names[code]}'
                      "</a></li>" for code in languages)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<title>mtlearn: the book</title></head>\n<body style=\"font-family:sans-serif;max-width:40em;"
            "margin:3em auto\">\n<h1>mtlearn: machine-translation metrics, step by step</h1>\n"
            f"<ul style=\"font-size:1.4em\">\n{links}\n</ul>\n</body></html>\n")


def publish(built: Path, target: Path) -> None:
    """Replace ``target`` by a copy of ``built`` (Sphinx's output folder for one edition)."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(built, target)


def build_html(languages: Sequence[str] = LANGUAGES) -> Path:
    """Stage, vendor, build every edition; returns ``build/book``."""
    stage_sources()
    stamp = SPHINX_OUT / "project.sha256"
    fresh = not stamp.is_file() or stamp.read_text() != project_hash()
    listing = vendor(install_npm(), SRC / "_vendor" / "vendor")
    print("vendored: " + ", ".join(f"{p['name']}@{p['version']} ({p['licence']})" for p in listing))
    for language in languages:
        sphinx("html", SPHINX_OUT / language / "html", language, fresh)
    stamp.write_text(project_hash())
    OUT.mkdir(parents=True, exist_ok=True)
    for language in languages:
        publish(SPHINX_OUT / language / "html", OUT / language)
    built = [code for code in LANGUAGES if (OUT / code / "index.html").is_file()]
    (OUT / "index.html").write_text(chooser_html(built), encoding="utf-8")
    print(f"the book: {OUT / 'index.html'}")
    return OUT


def update_po(languages: Sequence[str] = TRANSLATED) -> None:
    """sphinx-intl: each language's .po files from the .pot files (new messages added, gone ones dropped)."""
    argv = [sys.executable, "-m", "sphinx_intl", "update", "-p", str(POT), "-d", str(BOOK / "locales"),
            "-w", "0"]
    for language in languages:
        argv += ["-l", language]
    run(argv, "sphinx-intl update")


def build_pot() -> None:
    """Every page's prose into ``book/locales/pot`` (one .pot per page), then the .po files updated."""
    stage_sources()
    built = SPHINX_OUT / "gettext" / "pot"
    if built.is_dir():
        shutil.rmtree(built)  # a page removed loses its catalogue
    sphinx("gettext", built)
    fresh = {POT / path.relative_to(built): path for path in built.rglob("*.pot")}
    for old in [p for p in POT.rglob("*.pot")] if POT.is_dir() else []:
        if old not in fresh:
            old.unlink()  # a page removed loses its catalogue
    for target, path in fresh.items():
        if not target.is_file() or _messages(target) != _messages(path):
            copy_if_changed(path, target)  # else the committed file stays, its date with it
    update_po()


def _messages(pot: Path) -> list[str]:
    """A catalogue's lines but its creation date (which changes at every extraction)."""
    return [line for line in pot.read_text(encoding="utf-8").splitlines()
            if not line.startswith('"POT-Creation-Date:')]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("step", nargs="?", default="html", choices=("html", "pot", "po"))
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES), choices=LANGUAGES)
    args = parser.parse_args(argv)
    try:
        if args.step == "html":
            build_html(args.languages)
        elif args.step == "pot":
            build_pot()
        else:
            update_po([lang for lang in args.languages if lang != "en"])
    except BuildError as error:
        print(f"book: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

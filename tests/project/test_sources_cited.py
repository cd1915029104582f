"""The course cites its sources by name: no "document 00x", "digest" or "DIGEST" a reader cannot follow.

Scanned: every notebook (markdown, code and outputs), the metric cards, README/ARCHITECTURE/DEVELOPERS, every
file under mtlearn/, and the help of ``mtlearn`` and each of its commands (built in process). Hash-sense API
names (hashlib's ``.digest()``/``.hexdigest()``/``digest_size``, ``CometMiniWeights.digest`` and the
``weights_digest`` field it is stored under) are not citations and are allowed. The cards must cite the
sources they rest on (URL and title from :mod:`mtlearn.sources`).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from mtlearn.sources import SOURCES
from mtlearn.tools.cli.main import build_parser

REPO = Path(__file__).resolve().parents[2]
FORBIDDEN = re.compile(r"document 00|digest", re.IGNORECASE)
# The hash sense of the word, as APIs spell it (not a citation).
HASH_NAMES = re.compile(r"\.(hex)?digest\(\)|hexdigest|digest_size|weights[._]digest|def digest\(self\)")


def _bad_lines(text: str) -> list[tuple[int, str]]:
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
            if FORBIDDEN.search(HASH_NAMES.sub("", line))]


def _notebook_text(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    parts = []
    for cell in cells:
        parts.append("".join(cell.get("source", "")))
        for output in cell.get("outputs", []):
            parts.append("".join(output.get("text", "")))
            for value in output.get("data", {}).values():
                parts.append("".join(value) if isinstance(value, list) else str(value))
    return "\n".join(parts)


def _text_files() -> list[Path]:
    docs = [REPO / name for name in ("README.md", "ARCHITECTURE.md", "DEVELOPERS.md")]
    package = [path for path in sorted((REPO / "mtlearn").rglob("*"))
               if path.is_file() and path.suffix in {".py", ".md", ".json", ".txt", ".csv", ".tsv"}
               and "__pycache__" not in path.parts]
    return docs + package


def _report(where: str, bad: list[tuple[int, str]]) -> list[str]:
    return [f"{where}:{number}: {line[:120]}" for number, line in bad]


@pytest.mark.parametrize("path", sorted((REPO / "notebooks").glob("*.ipynb")), ids=lambda p: p.name)
def test_notebook_cites_sources_by_name(path):
    problems = _report(path.name, _bad_lines(_notebook_text(path)))
    assert not problems, "uncited source names:\n" + "\n".join(problems)


def test_docs_cards_and_package_cite_sources_by_name():
    problems = []
    for path in _text_files():
        problems += _report(str(path.relative_to(REPO)), _bad_lines(path.read_text(encoding="utf-8")))
    assert not problems, "uncited source names:\n" + "\n".join(problems)


def _helps() -> dict[str, str]:
    parser = build_parser()
    helps = {"mtlearn --help": parser.format_help()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps.update({f"mtlearn {name} --help": sub.format_help()
                          for name, sub in action.choices.items()})
    return helps


def test_cli_help_cites_sources_by_name():
    helps = _helps()
    assert len(helps) > 5, sorted(helps)  # the commands were found
    problems = [problem for where, text in helps.items() for problem in _report(where, _bad_lines(text))]
    assert not problems, "uncited source names:\n" + "\n".join(problems)


@pytest.mark.parametrize(("card", "keys"), [
    ("bleu", ("bleu_post", "papineni2002")),
    ("meteor", ("meteor_wikipedia", "meteor_wikipedia_en", "banerjee2005")),
])
def test_cards_cite_their_sources(card, keys):
    text = (REPO / "mtlearn" / "metrics" / card / "CARD.md").read_text(encoding="utf-8")
    missing = [key for key in keys if SOURCES[key].url not in text]
    assert not missing, f"{card} card does not give the URL of {missing}"

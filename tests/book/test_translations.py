"""The Chinese and Spanish editions translate prose only: their code cells and outputs are the English
edition's, character for character, and a translator never types a number the English text does not have
(a number in prose comes from the English message or from an output, never from a translator).

The first test builds the book (``book/build.py``, what ``make book`` runs; incremental) and compares the
text of every code cell and every output block of each page; the others read the ``.po`` files directly.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import book_site
import pytest
from babel.messages.pofile import read_po
from repo_paths import REPO

LOCALES = REPO / "book" / "locales"
TRANSLATED = ("zh_CN", "es")
#: A number as prose writes it: digits, with decimal or thousands separators inside (0.5, 0,5, 2/7 is two).
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def typed_numbers(msgid: str, msgstr: str) -> list[str]:
    """The numbers of a translation that its English message does not have (as many times as it has them).

    >>> typed_numbers("BLEU = 0.5 on 3 sentences", "3 句话的 BLEU = 0.5")
    []
    >>> typed_numbers("BLEU is 0.5", "BLEU es 0,5")
    ['0,5']
    >>> typed_numbers("the $p_n$ of every order", "la $p_n$ de cada orden (4 órdenes)")
    ['4']
    """
    english = Counter(NUMBER.findall(msgid))
    extra = Counter(NUMBER.findall(msgstr)) - english
    return sorted(extra.elements())


def translated_messages(language: str) -> list[tuple[str, str, str]]:
    """(page, msgid, msgstr) of every translated message of one language's .po files."""
    found = []
    for path in sorted((LOCALES / language / "LC_MESSAGES").rglob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle)
        page = str(path.relative_to(LOCALES / language / "LC_MESSAGES"))
        found += [(page, m.id, m.string) for m in catalog
                  if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string
                  and not m.fuzzy]
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_page_has_a_catalogue(language):
    pot = {p.relative_to(LOCALES / "pot").with_suffix(".po") for p in (LOCALES / "pot").rglob("*.pot")}
    po = {p.relative_to(LOCALES / language / "LC_MESSAGES") for p in (LOCALES / language).rglob("*.po")}
    assert pot and pot == po, (f"{language}: run make book-pot (missing {sorted(pot - po)}, "
                               f"stale {sorted(po - pot)})")


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_number_typed_into_a_translation(language):
    typed = [f"{page}: {numbers} in {msgstr[:90]!r} (English: {msgid[:90]!r})"
             for page, msgid, msgstr in translated_messages(language)
             if (numbers := typed_numbers(msgid, msgstr))]
    assert not typed, ("numbers a translator typed (take them from the English message or an output):\n"
                       + "\n".join(typed[:20]))


def test_the_page_reader_sees_a_changed_output():
    code = '<div class="cell_input"><pre>bleu(c, r)</pre></div>'
    english = book_site.parse_page(code + '<div class="cell_output"><div><pre>BLEU = 0.5</pre></div></div>')
    other = book_site.parse_page(code + '<div class="cell_output"><div><pre>BLEU = 0,5</pre></div></div>')
    assert english.code == other.code == ["bleu(c, r)"]
    assert english.outputs == ["BLEU = 0.5"] != other.outputs


@pytest.fixture(scope="module")
def book() -> Path:
    return book_site.build_book()


@pytest.mark.parametrize("language", TRANSLATED)
def test_code_cells_and_outputs_are_the_english_ones(language, book):
    english_pages = book_site.pages("en")
    assert book_site.pages(language) == english_pages
    differ = []
    blocks = 0
    for relative in english_pages:
        english, other = book_site.read_page("en", relative), book_site.read_page(language, relative)
        blocks += len(english.code) + len(english.outputs)
        if english.code != other.code:
            differ.append(f"{relative}: code cells differ")
        if english.outputs != other.outputs:
            first = next((k for k, (a, b) in enumerate(zip(english.outputs, other.outputs)) if a != b),
                         min(len(english.outputs), len(other.outputs)))
            differ.append(f"{relative}: output {first} differs")
    assert blocks > 300, f"only {blocks} code and output blocks found: the page reader no longer sees them"
    assert not differ, "\n".join(differ)

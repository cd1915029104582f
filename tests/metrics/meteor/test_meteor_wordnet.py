"""The WordNet set-up: building from Debian's files, the order of attempts, and the message when all fail."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from mtlearn.metrics.meteor import wordnet as ws

needs_debian = pytest.mark.skipif(
    not (ws.DEBIAN_WORDNET / "data.noun").is_file(),
    reason="Debian's wordnet-base is not installed (/usr/share/wordnet/data.noun missing)",
)


def test_lexnames_match_debian_manual():
    page = Path("/usr/share/man/man5/lexnames.5WN.gz")
    if not page.is_file():
        pytest.skip("man page lexnames.5WN.gz not installed")
    rows = re.findall(r"^(\d\d)\t(\S+)\s", gzip.open(page, "rt").read(), flags=re.M)
    assert [(int(num), name) for num, name in rows] == [
        (i, name) for i, (name, _pos) in enumerate(ws.LEXNAMES)
    ]
    pos_of_prefix = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
    assert all(pos == pos_of_prefix[name.split(".")[0]] for name, pos in ws.LEXNAMES)


@needs_debian
def test_build_from_debian_loads_in_nltk(tmp_path, monkeypatch):
    import nltk

    # NLTK only reads corpora below a folder on its search path.
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path), *nltk.data.path])
    corpus = ws.build_from_debian(ws.DEBIAN_WORDNET, tmp_path)
    assert corpus == tmp_path / "corpora" / "wordnet"
    assert not any(p.is_symlink() for p in corpus.iterdir()), "NLTK refuses links out of the corpus"
    assert ws.find_wordnet([str(tmp_path)]) == corpus
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    reader = WordNetCorpusReader(str(corpus), None)
    assert reader.get_version() == "3.0"
    assert "dog.n.01" in {s.name() for s in reader.synsets("dogs")}
    assert reader.synset("dog.n.01").lexname() == "noun.animal"


def test_incomplete_source_names_missing_files(tmp_path):
    (tmp_path / "data.noun").write_text("")
    with pytest.raises(ws.WordNetMissingError, match=r"lacks data\.adj"):
        ws.build_from_debian(tmp_path, tmp_path / "out")


def test_all_ways_failing_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setattr(ws, "find_wordnet", lambda search_path=None: None)
    with pytest.raises(ws.WordNetMissingError) as info:
        ws.ensure_wordnet(target=tmp_path, allow_download=False, allow_apt=False,
                          debian_source=tmp_path / "no-debian", log=lambda _m: None)
    message = str(info.value)
    assert "nltk.download('wordnet')" in message
    assert "apt-get install -y wordnet-base wordnet-sense-index" in message
    assert "python -m mtlearn.metrics.meteor.wordnet" in message


@needs_debian
def test_ensure_prefers_existing_then_debian(tmp_path, monkeypatch):
    monkeypatch.setattr(ws, "find_wordnet", lambda search_path=None: None)
    monkeypatch.setattr(ws, "_nltk_path", lambda: [])
    tried = []
    monkeypatch.setattr(ws, "try_nltk_download", lambda target: tried.append("download") or False)
    corpus = ws.ensure_wordnet(target=tmp_path, log=lambda _m: None)
    assert corpus == tmp_path / "corpora" / "wordnet" and (corpus / "lexnames").is_file()
    assert tried == [], "Debian's local files are used before any network attempt"


def test_download_is_tried_when_no_debian_files(tmp_path, monkeypatch):
    monkeypatch.setattr(ws, "find_wordnet", lambda search_path=None: None)
    monkeypatch.setattr(ws, "_nltk_path", lambda: [])
    calls = []
    monkeypatch.setattr(ws, "try_nltk_download", lambda target: calls.append(target) or False)
    monkeypatch.setattr(ws, "try_apt_install", lambda: calls.append("apt") or False)
    with pytest.raises(ws.WordNetMissingError):
        ws.ensure_wordnet(target=tmp_path, debian_source=tmp_path / "none", log=lambda _m: None)
    assert calls == [tmp_path, "apt"]


def test_check_command_reports(capsys):
    code = ws.main(["--check"])
    out = capsys.readouterr().out
    assert out.startswith("WordNet: ")
    assert code == (0 if ws.find_wordnet() else 1)

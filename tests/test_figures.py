"""``python -m mtlearn.show.figures OUTDIR`` writes every documented PNG; figures/ holds them all."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from mtlearn.show import figures  # noqa: E402
from mtlearn.metrics.meteor.wordnet import WordNetMissingError, wordnet_available  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk (the first chunk of every PNG)."""
    assert data[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    return struct.unpack(">II", data[16:24])


def expected_names() -> set[str]:
    names = set(figures.FIGURES)
    return names if wordnet_available() else names - figures.NEEDS_WORDNET


def test_command_writes_every_figure(tmp_path):
    out = tmp_path / "figs"
    proc = subprocess.run([sys.executable, "-m", "mtlearn.show.figures", str(out)], capture_output=True,
                          text=True, cwd=tmp_path, timeout=600)
    assert proc.returncode == (0 if wordnet_available() else 1), proc.stderr
    written = {p.name for p in out.iterdir()}
    assert written == expected_names()
    assert len(written) >= 6
    for name in written:
        data = (out / name).read_bytes()
        width, height = png_size(data)
        assert 300 <= width <= 1400 and 150 <= height <= 1200, (name, width, height)
        assert len(data) < 200_000, name
        assert name in proc.stdout


def test_default_outdir_is_figures_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    written, skipped = figures.generate(names=["bleu_weights.png"], log=lambda line: None)
    assert written == [Path("figures") / "bleu_weights.png"] and skipped == {}
    assert (tmp_path / "figures" / "bleu_weights.png").read_bytes()[:8] == PNG_SIGNATURE


def test_same_code_same_bytes(tmp_path):
    a, _ = figures.generate(tmp_path / "a", ["meteor_penalty.png"], log=lambda line: None)
    b, _ = figures.generate(tmp_path / "b", ["meteor_penalty.png"], log=lambda line: None)
    assert a[0].read_bytes() == b[0].read_bytes()


def test_committed_folder_holds_every_figure():
    folder = REPO / "figures"
    present = {p.name for p in folder.glob("*.png")}
    missing = set(figures.FIGURES) - present
    assert not missing, f"run `python -m mtlearn.show.figures` in {REPO}; missing {sorted(missing)}"
    for name in figures.FIGURES:
        png_size((folder / name).read_bytes())


def test_every_figure_is_documented_in_the_module_docstring():
    for name in figures.FIGURES:
        assert f"``{name}``" in (figures.__doc__ or "")


def test_missing_wordnet_skips_with_a_reason(tmp_path, monkeypatch):
    import mtlearn.metrics.meteor.synonyms

    def no_wordnet(*args, **kwargs):
        raise WordNetMissingError("simulated")

    monkeypatch.setattr(mtlearn.metrics.meteor.synonyms, "shared_synonym_index", no_wordnet)
    lines: list[str] = []
    written, skipped = figures.generate(tmp_path, sorted(figures.NEEDS_WORDNET) + ["bleu_weights.png"],
                                        log=lines.append)
    assert [p.name for p in written] == ["bleu_weights.png"]
    assert set(skipped) == set(figures.NEEDS_WORDNET)
    assert any(line.startswith("skipped meteor_alignment_stages.png") for line in lines)


def test_unknown_figure_name(tmp_path):
    with pytest.raises(ValueError, match="^names: unknown figure 'nope.png'"):
        figures.generate(tmp_path, ["nope.png"])


def test_build_unknown_figure():
    with pytest.raises(ValueError, match="^name: unknown figure"):
        figures.build_figure("nope.png")


def test_too_many_arguments(capsys):
    assert figures.main(["a", "b"]) == 2
    assert "usage: python -m mtlearn.show.figures [OUTDIR]" in capsys.readouterr().out

"""``python -m mtlearn.show.figures OUTDIR`` writes every documented PNG; figures/ holds them all."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from repo_paths import REPO  # noqa: E402

from mtlearn.metrics.meteor.wordnet import WordNetMissingError, wordnet_available  # noqa: E402
from mtlearn.show import figures, plots  # noqa: E402

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
        # For a projector: at least 1,600 px wide, at no less than 200 dpi (the figure's own inches).
        fig = figures.build_figure(name)
        assert width >= figures.MIN_WIDTH_PX and 300 <= height <= 4000, (name, width, height)
        assert (abs(width - fig.get_figwidth() * figures.dpi_for(fig)) < 1
                and figures.dpi_for(fig) >= 200), name
        assert len(data) < 150_000, (name, len(data))  # 256 colours keep the committed files small
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


# --------------------------------------------------------------------------- nothing clipped


def drawn_texts_outside(fig) -> list[str]:
    """The texts a render of ``fig`` draws that reach outside the figure (each with its box, in pixels).

    Every text drawn is recorded as it is drawn (tick labels of hidden axes, or outside the view,
    are not drawn, so they do not count), and its window extent measured with the same renderer.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    seen: list = []
    original = Text.draw

    def recording_draw(self, renderer):
        original(self, renderer)
        if self.get_visible() and self.get_text().strip():
            seen.append((self, renderer))

    canvas = FigureCanvasAgg(fig)
    Text.draw = recording_draw
    try:
        canvas.draw()
    finally:
        Text.draw = original
    assert seen, "no text was drawn at all"
    box = fig.bbox
    outside = []
    for text, renderer in seen:
        ext = text.get_window_extent(renderer)
        if ext.x0 < box.x0 - 0.5 or ext.y0 < box.y0 - 0.5 or ext.x1 > box.x1 + 0.5 or ext.y1 > box.y1 + 0.5:
            outside.append(f"{text.get_text()!r} at {[round(v) for v in ext.extents]} "
                           f"(figure {[round(v) for v in box.extents]})")
    return outside


@pytest.mark.parametrize("name", sorted(figures.FIGURES))
def test_no_text_falls_outside_its_figure(name):
    try:
        fig = figures.build_figure(name)
    except WordNetMissingError:
        pytest.skip("WordNet for NLTK is not installed (python -m mtlearn.metrics.meteor.wordnet)")
    assert drawn_texts_outside(fig) == []


def test_the_outside_check_sees_a_clipped_text():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(3, 2))
    fig.text(0.5, 0.5, "inside", ha="center")
    fig.text(0.5, 0.98, "cut at the top", ha="center", va="bottom")
    outside = drawn_texts_outside(fig)
    assert len(outside) == 1 and outside[0].startswith("'cut at the top'")


def test_f_mean_marker_on_the_border_is_drawn_whole():
    ax = figures.build_figure("meteor_f_mean.png").axes[0]
    (marker,) = plots.find_gid(ax, "marker")
    assert marker.get_xydata()[0][1] == 1.0 and marker.get_clip_on() is False
    (label,) = [t for t in ax.texts if t.get_text().startswith("F=")]
    assert label.get_color() == "black" and label.get_bbox_patch().get_facecolor()[:3] == (1.0, 1.0, 1.0)


def test_alignment_rows_have_no_tick_dashes():
    for name in ("meteor_alignments_a_b.png", "ter_edits_cat_today.png"):
        for ax in figures.build_figure(name).axes:
            assert all(tick.tick1line.get_markersize() == 0 for tick in ax.yaxis.get_major_ticks()), name

"""mtlearn.show.plots: the pictures show what the results say (read back from the artists)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
import pytest  # noqa: E402
from matplotlib.colors import to_hex, to_rgba  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from mtlearn import bleu, chrf, corpus_chrf, corpus_ter, meteor, ter, wer  # noqa: E402
from mtlearn.examples import bleu as bleu_examples  # noqa: E402
from mtlearn.examples.meteor import ALIGNMENT_A, ALIGNMENT_B, ROW_1, TABLE  # noqa: E402
from mtlearn.metrics.meteor.matchers import PredicateMatcher  # noqa: E402
from mtlearn.metrics.meteor.wordnet import wordnet_available  # noqa: E402
from mtlearn.show.plots import (  # noqa: E402
    CHRF_COLOURS,
    CLIPPED_COLOUR,
    METRIC_COLOURS,
    STAGE_COLOURS,
    TER_COLOURS,
    UNMATCHED_COLOUR,
    crossing_points,
    find_gid,
    marker_points,
    plot_agreement_grid,
    plot_alignment,
    plot_alignment_comparison,
    plot_alignment_pairs,
    plot_brevity_penalty,
    plot_chrf_orders,
    plot_f_mean,
    plot_f_mean_alpha,
    plot_meteor_penalty,
    plot_ngram_table,
    plot_pairwise_accuracy,
    plot_system_agreement,
    plot_ter_edits,
    plot_weights,
)
from mtlearn.study import agreement  # noqa: E402

CAND, REF = ROW_1.candidate.split(), ROW_1.reference.split()


def _segments_cross(a, b) -> bool:
    """Plain computational geometry: do two line segments properly intersect?"""
    (x1, y1), (x2, y2) = a
    (x3, y3), (x4, y4) = b

    def orient(px, py, qx, qy, rx, ry):
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)

    d1 = orient(x3, y3, x4, y4, x1, y1)
    d2 = orient(x3, y3, x4, y4, x2, y2)
    d3 = orient(x1, y1, x2, y2, x3, y3)
    d4 = orient(x1, y1, x2, y2, x4, y4)
    return d1 * d2 < 0 and d3 * d4 < 0


def _mapping_segments(ax):
    return [tuple(map(tuple, line.get_xydata())) for line in find_gid(ax, "mapping")]


def _flat(points):
    return [v for point in points for v in point]


def _brute_crossings(pairs) -> int:
    return sum(1 for (i1, j1), (i2, j2) in combinations(pairs, 2) if (i1 - i2) * (j1 - j2) < 0)


# --------------------------------------------------------------------------- alignment


@pytest.mark.parametrize("example", [ALIGNMENT_A, ALIGNMENT_B], ids=["a", "b"])
def test_alignment_example_counts(example):
    ax = plot_alignment_pairs(CAND, REF, example.pairs).axes[0]
    assert len(find_gid(ax, "mapping")) == len(example.pairs) == 6
    assert crossing_points(ax) == example.stated_crossings == _brute_crossings(example.pairs)
    assert len(find_gid(ax, "chunk-candidate")) == example.stated_chunks
    assert len(find_gid(ax, "chunk-reference")) == example.stated_chunks
    # The drawn lines themselves intersect exactly as often as the markers say.
    segments = _mapping_segments(ax)
    drawn = sum(_segments_cross(a, b) for a, b in combinations(segments, 2))
    assert drawn == example.stated_crossings


def test_crossing_markers_lie_on_two_lines():
    ax = plot_alignment_pairs(CAND, REF, ALIGNMENT_B.pairs).axes[0]
    segments = _mapping_segments(ax)
    (markers,) = find_gid(ax, "crossings")
    for x, y in markers.get_xydata():
        on = 0
        for (x1, y1), (x2, y2) in segments:
            t = (y - y1) / (y2 - y1)
            if 0 <= t <= 1 and math.isclose(x1 + t * (x2 - x1), x, abs_tol=1e-9):
                on += 1
        assert on >= 2


def test_words_drawn_in_order():
    ax = plot_alignment_pairs(CAND, REF, ALIGNMENT_A.pairs).axes[0]
    assert [t.get_text() for t in find_gid(ax, "candidate-word")] == CAND
    assert [t.get_text() for t in find_gid(ax, "reference-word")] == REF


def test_chunk_boxes_enclose_exactly_the_chunk_words():
    ax = plot_alignment_pairs(CAND, REF, ALIGNMENT_B.pairs).axes[0]
    # Chunks of (b) by hand: [on the mat] [sat] [the cat] in the candidate.
    expected = [(0, 3), (3, 4), (4, 6)]
    words = find_gid(ax, "candidate-word")
    boxes = sorted(find_gid(ax, "chunk-candidate"), key=lambda r: r.get_x())
    got = []
    for box in boxes:
        inside = [k for k, w in enumerate(words) if box.get_x() < w.get_position()[0] < box.get_x()
                  + box.get_width()]
        got.append((inside[0], inside[-1] + 1))
        assert inside == list(range(inside[0], inside[-1] + 1))
    assert got == expected


def test_alignment_from_result_counts_and_stage_colours():
    r = meteor("the cats sat on the mat", ["a cat sat on the mat"], stages=["exact", "stem"])
    ax = plot_alignment(r).axes[0]
    lines = find_gid(ax, "mapping")
    assert len(lines) == r.matches == 5
    colours = sorted(to_hex(line.get_color()) for line in lines)
    expected = sorted(STAGE_COLOURS[m.stage] for m in r.alignment)
    assert colours == expected
    assert colours.count(STAGE_COLOURS["stem"]) == r.matches_per_stage["stem"] == 1
    assert crossing_points(ax) == r.crossings == 0
    assert len(find_gid(ax, "chunk-candidate")) == r.chunks
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:2] == ["exact", "stem"]


@pytest.mark.parametrize("tie_break", ["crossings", "chunks"])
def test_alignment_from_result_row_1(tie_break):
    r = meteor(ROW_1.candidate, [ROW_1.reference], stages=["exact"], tie_break=tie_break)
    ax = plot_alignment(r).axes[0]
    assert crossing_points(ax) == r.crossings == _brute_crossings(r.pairs)
    assert len(find_gid(ax, "chunk-reference")) == r.chunks
    assert ax.get_title() == f"6 matches, {r.crossings} crossings, {r.chunks} chunks"


def test_user_stage_gets_its_own_colour():
    rhyme = PredicateMatcher("rhyme", lambda a, b: a[-2:] == b[-2:])
    r = meteor("the hat", ["the cat"], stages=["exact", rhyme])
    lines = find_gid(plot_alignment(r).axes[0], "mapping")
    colours = {to_hex(line.get_color()) for line in lines}
    assert STAGE_COLOURS["exact"] in colours and len(colours) == 2


@pytest.mark.wordnet
@pytest.mark.skipif(not wordnet_available(),
                    reason="WordNet for NLTK is not installed (python -m mtlearn.metrics.meteor.wordnet)")
def test_alignment_three_stages():
    r = meteor("the cats sat on the rug", ["the cat sat on the carpet"])
    lines = find_gid(plot_alignment(r).axes[0], "mapping")
    by_stage = {}
    for line in lines:
        by_stage.setdefault(to_hex(line.get_color()), []).append(line)
    assert {k: len(v) for k, v in by_stage.items()} == {
        STAGE_COLOURS[s]: n for s, n in r.matches_per_stage.items() if n
    }
    assert r.matches_per_stage == {"exact": 4, "stem": 1, "synonym": 1}


def test_alignment_without_mappings():
    ax = plot_alignment(meteor("x y", ["a b"], stages=["exact"])).axes[0]
    assert find_gid(ax, "mapping") == [] and crossing_points(ax) == 0
    assert "no mappings" in [t.get_text() for t in ax.texts]


def test_comparison_one_row_per_alignment():
    fig = plot_alignment_comparison(CAND, REF, [("(a)", ALIGNMENT_A.pairs), ("(b)", ALIGNMENT_B.pairs)])
    assert [crossing_points(ax) for ax in fig.axes] == [8, 11]
    assert [ax.get_title().splitlines()[0] for ax in fig.axes] == ["(a)", "(b)"]


def test_pairs_out_of_range():
    with pytest.raises(ValueError, match=r"^pairs: item 0 = \(9, 0\)"):
        plot_alignment_pairs(CAND, REF, [(9, 0)])


def test_pairs_mapping_a_word_twice():
    with pytest.raises(ValueError, match="^pairs: a word is mapped twice"):
        plot_alignment_pairs(CAND, REF, [(0, 1), (0, 2)])


def test_pairs_not_pairs():
    with pytest.raises(TypeError, match="^pairs: item 0"):
        plot_alignment_pairs(CAND, REF, [(0, 1, 2)])


def test_stages_of_wrong_length():
    with pytest.raises(ValueError, match="^stages: 1 stages for 2 pairs"):
        plot_alignment_pairs(CAND, REF, [(0, 3), (1, 0)], ["exact"])


def test_alignment_needs_a_meteor_result():
    with pytest.raises(TypeError, match="^result: expected a MeteorResult"):
        plot_alignment(bleu("a", ["a"]))  # type: ignore[arg-type]


def test_alignment_of_a_corpus_result():
    from mtlearn import corpus_meteor

    c = corpus_meteor(["a b"], [["a b"]], stages=["exact"])
    with pytest.raises(ValueError, match="^result: a corpus result"):
        plot_alignment(c)


def test_comparison_without_alignments():
    with pytest.raises(ValueError, match="^alignments: give at least one"):
        plot_alignment_comparison(CAND, REF, [])


# --------------------------------------------------------------------------- n-gram table


def _cells(ax):
    cells = ax.tables[0].get_celld()
    nrows = 1 + max(r for r, _ in cells)
    ncols = 1 + max(c for _, c in cells)
    return cells, [[cells[(r, c)].get_text().get_text() for c in range(ncols)] for r in range(nrows)]


def test_ngram_table_the_the_the():
    ex = bleu_examples.PAPINENI_THE_THE
    r = bleu(ex.candidate, list(ex.references), lowercase=True, max_order=1)
    cells, text = _cells(plot_ngram_table(r, 1).axes[0])
    assert text[0] == ["n-gram", "candidate", "ref 1", "ref 2", "max ref", "clipped"]
    # By hand: 7 "the", twice in reference 1, once in reference 2, clipped to 2.
    assert text[1] == ["the", "7", "2", "1", "2", "2"]
    assert text[2][0] == "total" and text[2][1] == "7" and text[2][-1] == "2"
    assert cells[(1, 0)].get_facecolor() == to_rgba(CLIPPED_COLOUR)
    assert Fraction(int(text[2][-1]), int(text[2][1])) == ex.expected_precisions[0]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_ngram_table_totals_match_result(n):
    ex = bleu_examples.POST_A_PRECISIONS
    r = bleu(ex.candidate, list(ex.references))
    cells, text = _cells(plot_ngram_table(r, n).axes[0])
    total = text[-1]
    assert (int(total[-1]), int(total[1])) == ex.expected_counts[n - 1] == (r.matches[n - 1], r.totals[n - 1])
    # Shading: clipped rows (in a reference, fewer times) red, absent rows grey.
    for k, row in enumerate(r.ngram_table(n), start=1):
        colour = cells[(k, 0)].get_facecolor()
        if row.max_reference_count == 0:
            assert colour == to_rgba(UNMATCHED_COLOUR)
        elif row.clipped_count < row.candidate_count:
            assert colour == to_rgba(CLIPPED_COLOUR)
        else:
            assert colour not in (to_rgba(UNMATCHED_COLOUR), to_rgba(CLIPPED_COLOUR))


def test_ngram_table_truncates_long_tables():
    words = " ".join(f"w{k}" for k in range(30))
    r = bleu(words, [words], max_order=1)
    _, text = _cells(plot_ngram_table(r, 1, max_rows=10).axes[0])
    assert len(text) == 1 + 10 + 1 + 1
    assert text[11][0] == "... 20 more"
    assert text[-1][1] == "30" and text[-1][-1] == "30"


def test_ngram_table_bad_order():
    with pytest.raises(ValueError, match="^n: "):
        plot_ngram_table(bleu("a b", ["a b"]), 0)


def test_ngram_table_needs_a_bleu_result():
    with pytest.raises(TypeError, match="^result: expected a BleuResult"):
        plot_ngram_table(meteor("a", ["a"], stages=["exact"]), 1)  # type: ignore[arg-type]


def test_ngram_table_bad_max_rows():
    with pytest.raises(ValueError, match="^max_rows: "):
        plot_ngram_table(bleu("a b", ["a b"]), 1, max_rows=0)


# --------------------------------------------------------------------------- curves


def test_brevity_penalty_curve_and_markers():
    c_ex, a_ex = bleu_examples.POST_C_BREVITY, bleu_examples.POST_A_PRECISIONS
    results = [bleu(e.candidate, list(e.references), max_order=e.max_order) for e in (c_ex, a_ex)]
    ax = plot_brevity_penalty(results).axes[0]
    (curve,) = find_gid(ax, "curve")
    for x, y in curve.get_xydata():
        assert math.isclose(y, math.exp(1 - 1 / x) if x < 1 else 1.0, rel_tol=1e-12)
    assert _flat(marker_points(ax)) == pytest.approx([2 / 6, math.exp(1 - 6 / 2), 5 / 6, math.exp(1 - 6 / 5)])
    assert round(marker_points(ax)[0][1], 2) == c_ex.expected_penalty


def test_brevity_penalty_marks_d2l_results():
    from mtlearn import d2l_bleu

    r = d2l_bleu("A B", "A B C D E F", 2)
    assert _flat(marker_points(plot_brevity_penalty(r).axes[0])) == pytest.approx([1 / 3, math.exp(-2)])


def test_brevity_penalty_bad_results():
    with pytest.raises(TypeError, match="^results: "):
        plot_brevity_penalty([1.5])


def test_brevity_penalty_bad_ratio():
    with pytest.raises(ValueError, match="^max_ratio: "):
        plot_brevity_penalty(max_ratio=0)


def test_weights_curves_and_example_b():
    ex = bleu_examples.POST_B_WEIGHTS
    ax = plot_weights(4, precision=float(ex.precision)).axes[0]
    curves = find_gid(ax, "curve")
    assert len(curves) == 5
    for n, curve in enumerate(curves[:4], start=1):
        for p, y in curve.get_xydata()[1:]:
            assert math.isclose(y, p ** (1 / 2 ** n), rel_tol=1e-12)
    for p, y in curves[4].get_xydata()[1:]:
        assert math.isclose(y, p ** 0.25, rel_tol=1e-12)
    # The document prints 0.5^(1/2) = 0.7071... as 0.7, the others to two places.
    ys = [y for _, y in marker_points(ax)]
    assert all(abs(y - shown) < 0.01 for y, shown in zip(ys, ex.approximations))
    assert [round(y, 2) for y in ys[1:]] == list(ex.approximations)[1:]


def test_weights_bad_order():
    with pytest.raises(ValueError, match="^max_order: "):
        plot_weights(0)


def test_meteor_penalty_curve_and_digest_rows():
    rows = [meteor(row.candidate, [row.reference], stages=["exact"]) for row in TABLE]
    ax = plot_meteor_penalty(rows).axes[0]
    (curve,) = find_gid(ax, "curve")
    for x, y in curve.get_xydata():
        assert math.isclose(y, 0.5 * x ** 3, rel_tol=1e-12, abs_tol=1e-15)
    got = [f"{y:.4f}" for _, y in marker_points(ax)]
    assert [float(g) for g in got] == [float(row.expected_penalty) for row in TABLE]
    assert [x for x, _ in marker_points(ax)] == pytest.approx(
        [row.expected_chunks / row.expected_matches for row in TABLE])


def test_meteor_penalty_other_parameters():
    ax = plot_meteor_penalty(beta=1.5, gamma=0.3).axes[0]
    (curve,) = find_gid(ax, "curve")
    for x, y in curve.get_xydata():
        assert math.isclose(y, 0.3 * x ** 1.5, rel_tol=1e-9, abs_tol=1e-15)


def test_meteor_penalty_bad_gamma():
    with pytest.raises(ValueError, match="^gamma: "):
        plot_meteor_penalty(gamma=2)


def test_meteor_penalty_labels_must_fit():
    with pytest.raises(ValueError, match="^labels: "):
        plot_meteor_penalty(meteor("a", ["a"], stages=["exact"]), labels=["x", "y"])


def test_f_mean_alpha_curves():
    pairs = [(Fraction(1, 2), Fraction(1)), (Fraction(1), Fraction(1, 2))]
    ax = plot_f_mean_alpha(pairs).axes[0]
    for (p, r), curve in zip(pairs, find_gid(ax, "curve")):
        for a, y in curve.get_xydata():
            expected = float(p * r) / (a * float(p) + (1 - a) * float(r))
            assert math.isclose(y, expected, rel_tol=1e-12)
    # alpha = 0.9: 10PR / (R + 9P).
    assert [y for _, y in marker_points(ax)] == pytest.approx([10 * 0.5 / (1 + 4.5), 10 * 0.5 / (0.5 + 9)])


def test_f_mean_contour_marks_row_3():
    row3 = meteor(TABLE[2].candidate, [TABLE[2].reference], stages=["exact"])
    ax = plot_f_mean(0.9, results=row3).axes[0]
    assert _flat(marker_points(ax)) == pytest.approx([6 / 7, 1.0])
    assert ax.get_title() == "F_mean, alpha = 0.9"


def test_f_mean_bad_alpha():
    with pytest.raises(ValueError, match="^alpha: "):
        plot_f_mean(1.5)


def test_f_mean_alpha_bad_pair():
    with pytest.raises(ValueError, match="^pairs: item 0"):
        plot_f_mean_alpha([(2, 1)])


# --------------------------------------------------------------------------- figures in general


def _every_plot():
    r_bleu = bleu("A B B C D", ["A B C D E F"])
    r_met = meteor(ROW_1.candidate, [ROW_1.reference], stages=["exact"])
    return [
        plot_alignment(r_met),
        plot_alignment_pairs(CAND, REF, ALIGNMENT_A.pairs),
        plot_alignment_comparison(CAND, REF, [("a", ALIGNMENT_A.pairs)]),
        plot_ngram_table(r_bleu, 2),
        plot_brevity_penalty(r_bleu),
        plot_weights(),
        plot_meteor_penalty(r_met),
        plot_f_mean(results=r_met),
        plot_f_mean_alpha(),
        plot_system_agreement("de-en", "meteor"),
        plot_agreement_grid(["cs-en"]),
    ]


def test_no_pyplot_figure_is_left_open():
    before = plt.get_fignums()
    figures = _every_plot()
    assert plt.get_fignums() == before
    assert all(isinstance(f, Figure) for f in figures)
    assert all(f._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n" for f in figures)


def test_drawing_into_given_axes():
    fig, (left, right) = plt.subplots(1, 2)
    try:
        assert plot_weights(ax=left) is fig
        assert plot_alignment_pairs(CAND, REF, ALIGNMENT_A.pairs, ax=right) is fig
        assert crossing_points(right) == 8 and len(find_gid(left, "curve")) == 5
    finally:
        plt.close(fig)


def test_ax_must_be_axes():
    with pytest.raises(TypeError, match="^ax: "):
        plot_weights(ax="left")  # type: ignore[arg-type]



# --------------------------------------------------------------------------- agreement with people


def _labels(ax):
    return find_gid(ax, "system-label")


@pytest.mark.parametrize("pair", agreement.pairs())
@pytest.mark.parametrize("metric", agreement.METRICS)
def test_agreement_one_point_per_scored_system(pair, metric):
    ax = plot_system_agreement(pair, metric).axes[0]
    # WMT's COMET has one reference (A; cs-en's B); the others default to all references.
    systems = agreement.system_scores(pair, scored_only=True,
                                      reference=agreement.default_reference(pair, metric))
    # As many points as MT systems the humans scored (segment_counts.csv says how many).
    assert len(marker_points(ax)) == len(systems) == agreement.segment_counts(pair).mt_systems_scored
    assert marker_points(ax) == [(s.human_z, s.metric(metric)) for s in systems]
    (points,) = find_gid(ax, "marker")
    assert to_hex(points.get_color()) == METRIC_COLOURS[metric]
    # Every system is named once, and its label points at its own dot.
    labels = _labels(ax)
    assert sorted(t.get_text() for t in labels) == sorted(s.system for s in systems)
    where = {s.system: (s.human_z, s.metric(metric)) for s in systems}
    for t in labels:
        assert tuple(map(float, t.xy)) == where[t.get_text()]


def test_agreement_leaves_out_human_translations_and_unscored_outputs():
    ax = plot_system_agreement("uk-en", "bleu").axes[0]
    names = {t.get_text() for t in _labels(ax)}
    assert "GTCOM" not in names and len(names) == 9
    ax = plot_system_agreement("zh-en", "bleu").axes[0]
    assert not any(t.get_text().startswith("HUMAN") for t in _labels(ax))


def test_agreement_labels_do_not_overlap_and_follow_the_scores():
    for pair in agreement.pairs():
        ax = plot_system_agreement(pair, "bleu").axes[0]
        labels = sorted(_labels(ax), key=lambda t: t.xy[1])  # by the metric score
        ys = [t.xyann[1] for t in labels]  # label positions, axes fraction
        assert ys == sorted(ys), pair  # same order as the scores
        assert all(b - a > 0.02 for a, b in zip(ys, ys[1:])), pair
        assert 0.0 <= ys[0] and ys[-1] <= 1.0


def test_agreement_title_carries_the_table_correlations():
    ax = plot_system_agreement("cs-en", "bleu").axes[0]
    r = agreement.system_correlation("cs-en", "bleu")
    rho = agreement.system_correlation("cs-en", "bleu", "spearman")
    assert f"r = {r.value:.3f} [{r.ci_low:.2f}, {r.ci_high:.2f}]" in ax.get_title()
    assert f"ρ = {rho.value:.3f}" in ax.get_title() and "11 systems" in ax.get_title()


def test_agreement_highlight_rings_the_chosen_systems():
    ax = plot_system_agreement("ja-en", "bleu", highlight=["LanguageX", "NAIST-NICT-TIT"]).axes[0]
    (ring,) = find_gid(ax, "highlight")
    scores = {s.system: (s.human_z, s.bleu) for s in agreement.system_scores("ja-en")}
    assert (sorted(map(tuple, ring.get_xydata().tolist()))
            == sorted([scores["LanguageX"], scores["NAIST-NICT-TIT"]]))
    bold = {t.get_text() for t in _labels(ax) if t.get_fontweight() == "bold"}
    assert bold == {"LanguageX", "NAIST-NICT-TIT"}
    assert find_gid(plot_system_agreement("ja-en", "bleu").axes[0], "highlight") == []


def test_agreement_exclude_leaves_a_system_out():
    ax = plot_system_agreement("ja-en", "meteor", exclude=["AIST"]).axes[0]
    assert len(marker_points(ax)) == 13 and "AIST" not in {t.get_text() for t in _labels(ax)}
    r = agreement.correlate_systems("ja-en", "meteor", exclude=["AIST"])
    assert f"without AIST: r = {r:.3f}" in ax.get_title()


def test_agreement_grid_rows_are_pairs_columns_metrics():
    fig = plot_agreement_grid()
    assert len(fig.axes) == 2 * len(agreement.pairs())
    for k, ax in enumerate(fig.axes):
        pair, metric = agreement.pairs()[k // 2], agreement.METRICS[k % 2]
        assert ax.get_title().startswith(f"{pair} · {metric.upper()}")
        assert len(marker_points(ax)) == agreement.segment_counts(pair).mt_systems_scored
    # The two panels of a pair share the human axis.
    left, right = fig.axes[:2]
    assert left.get_xlim() == right.get_xlim()


def test_agreement_grid_one_pair_one_metric():
    fig = plot_agreement_grid(["de-en"], ["meteor"])
    assert len(fig.axes) == 1 and fig.axes[0].get_ylabel() == "corpus METEOR"


def test_agreement_raw_human_scores():
    ax = plot_system_agreement("de-en", "bleu", human_score="raw").axes[0]
    assert [x for x, _ in marker_points(ax)] == [s.human_raw
                                                 for s in agreement.system_scores("de-en", scored_only=True)]
    assert ax.get_xlabel() == "humans: DA raw score (0-100)"


@pytest.mark.parametrize("call, error, message", [
    (lambda: plot_system_agreement("xx-en"), ValueError, "^pair: unknown pair 'xx-en'"),
    (lambda: plot_system_agreement("de-en", "ter"), ValueError, "^metric: unknown metric 'ter'"),
    (lambda: plot_system_agreement("de-en", highlight=["Nobody"]), ValueError, "^highlight: unknown system"),
    (lambda: plot_system_agreement("de-en", highlight="LT22"), TypeError, "^highlight: expected a list"),
    (lambda: plot_system_agreement("de-en", exclude="LT22"), TypeError, "^exclude: expected a list"),
    (lambda: plot_agreement_grid("de-en"), TypeError, "^pairs: expected a list"),
    (lambda: plot_agreement_grid(["de-en"], ["ter"]), ValueError, "^metrics: unknown metric 'ter'"),
    (lambda: plot_system_agreement("de-en", "comet", reference="all"), ValueError,
     "^reference: WMT's COMET uses one reference"),
    (lambda: plot_pairwise_accuracy("bleu"), TypeError, "^metrics: expected a list"),
    (lambda: plot_pairwise_accuracy(reference="D"), ValueError, "^reference: unknown reference 'D'"),
    (lambda: plot_pairwise_accuracy(reference="all"), ValueError, "^reference: no pair has every metric"),
    (lambda: plot_agreement_grid([]), ValueError, "^pairs, metrics: give at least one"),
])
def test_agreement_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_agreement_grid_four_metrics_against_one_reference():
    fig = plot_agreement_grid(["de-en"], agreement.METRICS, reference="A")
    assert [ax.get_ylabel() for ax in fig.axes] == ["corpus BLEU", "corpus METEOR", "corpus chrF",
                                                    "corpus WMT's COMET"]
    systems = agreement.system_scores("de-en", scored_only=True, reference="A")
    for ax, metric in zip(fig.axes, agreement.METRICS):
        assert [y for _, y in marker_points(ax)] == [s.metric(metric) for s in systems]
        r = agreement.system_correlation("de-en", metric, reference="A")
        assert f"(ref A): r = {r.value:.3f}" in ax.get_title()


def test_pairwise_accuracy_bars_are_the_table_values():
    ax = plot_pairwise_accuracy(reference="A").axes[0]
    scopes = [t.get_text() for t in ax.get_xticklabels()]
    for metric in agreement.METRICS:
        bars = find_gid(ax, f"accuracy-{metric}")
        assert [b.get_height() for b in bars] == [agreement.accuracy(s, metric, reference="A").value
                                                  for s in scopes]
    assert scopes[-1] == "pooled" and "cs-en" not in scopes  # cs-en has no reference A


def test_agreement_draws_into_given_axes():
    fig, ax = plt.subplots()
    try:
        assert plot_system_agreement("ru-en", "bleu", ax=ax) is fig
        assert len(marker_points(ax)) == agreement.segment_counts("ru-en").mt_systems_scored
    finally:
        plt.close(fig)


# --------------------------------------------------------------------------- chrF


def test_chrf_bars_are_the_orders_numbers():
    r = chrf("the cats sat on the mats", ["the cat sat on the mat"], word_order=2)
    ax = plot_chrf_orders(r).axes[0]
    for name, field in (("precision", "precision"), ("recall", "recall"), ("f", "f")):
        bars = find_gid(ax, f"{name}-bar")
        assert [b.get_height() for b in bars] == [float(getattr(o, field)) for o in r.orders]
        assert {to_hex(b.get_facecolor()) for b in bars} == {CHRF_COLOURS[name]}
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert [lab.splitlines()[0] for lab in labels] == ["c1", "c2", "c3", "c4", "c5", "c6", "w1", "w2"]
    o = r.orders[2]
    assert labels[2].splitlines()[1:] == [f"P {o.matched}/{o.candidate_count}",
                                          f"R {o.matched}/{o.reference_count}"]


def test_chrf_lines_mark_the_averages_and_the_score():
    r = chrf("the cats sat on the mats", ["the cat sat on the mat"])
    ax = plot_chrf_orders(r).axes[0]
    heights = {gid: find_gid(ax, gid)[0].get_ydata()[0]
               for gid in ("average-precision", "average-recall", "score")}
    assert heights == {"average-precision": float(r.precision), "average-recall": float(r.recall),
                       "score": r.score}
    assert ax.get_title().splitlines()[0] == f"chrF2 = {r.score:.4f}"
    assert "averaged precision and recall" in ax.get_title()


def test_chrf_plus_plus_title_and_kept_reference():
    r = chrf("the cat sat", ["a dog ran", "the cat sat down"], word_order=2, beta=1)
    ax = plot_chrf_orders(r).axes[0]
    assert ax.get_title().splitlines()[0] == (f"chrF1++ = {r.score:.4f}  (reference "
                                              f"{r.best_reference + 1} of 2 kept)")
    assert r.best_reference == 1


def test_chrf_orders_without_ngrams_are_hatched():
    # A 2-character candidate has no character 3-grams: that order is not used in the averages.
    r = chrf("ab", ["abcd"], char_order=3)
    ax = plot_chrf_orders(r).axes[0]
    hatches = [b.get_hatch() for b in find_gid(ax, "precision-bar")]
    assert hatches == [None, None, "//"]


def test_chrf_eps_smoothing_title():
    r = chrf("the cats sat", ["the cat sat"], eps_smoothing=True)
    assert "mean of the orders' F_beta" in plot_chrf_orders(r).axes[0].get_title()


def test_chrf_corpus_result_is_drawn():
    r = corpus_chrf(["the cats sat", "a dog"], [["the cat sat"], ["the dog"]])
    ax = plot_chrf_orders(r).axes[0]
    assert len(find_gid(ax, "f-bar")) == 6 and find_gid(ax, "score")[0].get_ydata()[0] == r.score


def test_chrf_plot_into_given_axes_and_wrong_type():
    r = chrf("the cat", ["the cat"])
    fig = Figure()
    ax = fig.add_subplot()
    assert plot_chrf_orders(r, ax=ax) is fig
    with pytest.raises(TypeError, match="^result: expected a ChrfResult"):
        plot_chrf_orders(bleu("a", ["a"]))


# --------------------------------------------------------------------------- TER


def _link_ends(ax, gid):
    return sorted((int(round(line.get_xdata()[0])), int(round(line.get_xdata()[1])))
                  for line in find_gid(ax, gid))


def test_ter_edits_are_drawn_as_the_script_says():
    r = ter("the cat sat on a mat today", ["the cat sat on the mat"])
    assert not r.shifts
    ax = plot_ter_edits(r).axes[0]
    for op in ("match", "substitute"):
        assert _link_ends(ax, op) == sorted((e.candidate_index, e.reference_index) for e in r.edits
                                            if e.op == op)
    deleted = [p.get_x() + 0.45 for p in find_gid(ax, "delete")]
    assert deleted == [e.candidate_index for e in r.edits if e.op == "delete"] == [6]
    assert [t.get_text() for t in find_gid(ax, "candidate-word")] == list(r.candidate_tokens)
    assert [t.get_text() for t in find_gid(ax, "reference-word")] == list(r.reference_tokens)
    assert find_gid(ax, "shifted-word") == [] and find_gid(ax, "shift-arrow") == []
    assert {to_hex(line.get_color()) for line in find_gid(ax, "match")} == {TER_COLOURS["match"]}
    assert {to_hex(line.get_color()) for line in find_gid(ax, "substitute")} == {TER_COLOURS["substitute"]}
    assert ax.get_title().splitlines()[0] == f"TER = 2 / 6 = {r.score:.4f}"
    assert "1 substitution, 0 insertions, 1 deletion" in ax.get_title()


def test_ter_insertions_are_reference_words():
    r = ter("the cat on mat", ["the cat sat on the mat"])
    ax = plot_ter_edits(r).axes[0]
    inserted = sorted(p.get_x() + 0.45 for p in find_gid(ax, "insert"))
    assert inserted == sorted(e.reference_index for e in r.edits if e.op == "insert")
    assert len(inserted) == 2


def test_ter_each_shift_is_an_arrow_from_its_old_place_to_its_new_place():
    cand, ref = "on the mat the cat sat", "the cat sat on the mat"
    r = ter(cand, [ref])
    assert r.shifts
    ax = plot_ter_edits(r).axes[0]
    arrows = find_gid(ax, "shift-arrow")
    assert len(arrows) == len(r.shifts)
    assert [t.get_text() for t in find_gid(ax, "shift-label")] == [f"shift {s.round}" for s in r.shifts]
    assert [t.get_text() for t in find_gid(ax, "shifted-word")] == list(r.shifted_tokens)
    # Every word's place after the shifts, followed by hand: the arrows start at a moved block's
    # place in the candidate and end at its place in the shifted candidate.
    first = r.shifts[0]
    start_x = arrows[0].xyann[0]
    assert start_x == first.start + (first.length - 1) / 2  # round 1: candidate coordinates
    boxes = find_gid(ax, "shift-to")
    landed = [r.shifted_tokens[round(b.get_x() + 0.45): round(b.get_x() + 0.45) + s.length]
              for b, s in zip(boxes, r.shifts)]
    assert [tuple(words) for words in landed] == [s.words for s in r.shifts]
    assert ax.get_yticklabels()[-1].get_text() == "candidate"


def test_ter_shifts_of_several_rounds_are_followed_to_their_end():
    # Three rounds; the word moved in round 2 ends where the picture's arrow points.
    r = ter("the cat sat on the mat today", ["today on the mat sat the cats"])
    assert [s.round for s in r.shifts] == [1, 2, 3]
    ax = plot_ter_edits(r).axes[0]
    assert [t.get_text() for t in find_gid(ax, "shift-label")] == ["shift 1", "shift 2", "shift 3"]
    heads = [round(a.xy[0]) for a in find_gid(ax, "shift-arrow")]
    tails = [round(a.xyann[0]) for a in find_gid(ax, "shift-arrow")]
    # block centres: "on the mat", "the", "today"
    assert [r.candidate_tokens[t] for t in tails] == ["the", "the", "today"]
    assert [r.shifted_tokens[h] for h in heads] == ["the", "the", "today"]
    # Words that are not moved slide aside: one faint line each.
    assert len(find_gid(ax, "slide")) == len(r.candidate_tokens) - sum(s.length for s in r.shifts)


def test_ter_wer_result_has_two_rows():
    r = wer("b a c", ["a b c"])
    ax = plot_ter_edits(r).axes[0]
    assert ax.get_title().splitlines()[0].startswith("WER = 2 / 3")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["reference", "candidate"]


def test_ter_plot_rejects_corpus_and_other_results():
    r = corpus_ter(["a b", "c"], [["a b"], ["c"]])
    with pytest.raises(ValueError, match="^result: a corpus result"):
        plot_ter_edits(r)
    with pytest.raises(TypeError, match="^result: expected a TerResult"):
        plot_ter_edits(bleu("a", ["a"]))


# --------------------------------------------------------------------------- Chinese, Japanese, Korean

from mtlearn.show import fonts  # noqa: E402
from mtlearn.show.plots import figure_to_png  # noqa: E402

#: One sentence pair per script; the words are whitespace-separated so each is one token.
SCRIPTS = {
    "zh": ("猫 坐 在 垫子 上", "垫子 上 坐 着 猫"),
    "ja": ("ねこ が マット に すわった", "マット に ねこ が すわった"),
    "ko": ("고양이가 매트에 앉았다", "매트에 고양이가 앉았다"),
}


def _cjk_font_or_skip() -> str:
    import os

    family = fonts.cjk_font_family()
    if family is None:
        if os.geteuid() == 0 or os.environ.get("CI"):
            pytest.fail(f"no CJK font, though this machine can install one: run scripts/install_fonts.sh "
                        f"(apt-get install {fonts.CJK_FONT_PACKAGE}; make setup does it)")
        pytest.skip(f"no CJK font and not root to install it: sudo apt-get install {fonts.CJK_FONT_PACKAGE}")
    return family


def _cjk_drawers(cand: str, ref: str):
    c, r = cand.split(), ref.split()
    return {
        "alignment": lambda: plot_alignment(meteor(cand, [ref], stages=["exact"]), title=cand),
        "alignment_pairs": lambda: plot_alignment_pairs(c, r, [(0, 1), (1, 0)], title=cand),
        "comparison": lambda: plot_alignment_comparison(c, r, [(cand, [(0, 1)]), (ref, [(1, 0)])]),
        "ngram_table": lambda: plot_ngram_table(bleu(cand, [ref], max_order=2), 2),
        "chrf_orders": lambda: plot_chrf_orders(chrf(cand, [ref], word_order=2), title=cand),
        "ter_edits": lambda: plot_ter_edits(ter(cand, [ref]), title=ref),
        "meteor_penalty": lambda: plot_meteor_penalty([meteor(cand, [ref], stages=["exact"])], labels=[cand]),
    }


def _missing_glyph_warnings(fig) -> list[str]:
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert figure_to_png(fig)[:4] == b"\x89PNG"
    return [str(w.message) for w in caught if "missing from font" in str(w.message)]


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("name", sorted(_cjk_drawers("a", "a")))
def test_cjk_text_is_drawn_with_glyphs(name, script):
    family = _cjk_font_or_skip()
    cand, ref = SCRIPTS[script]
    fig = _cjk_drawers(cand, ref)[name]()
    assert _missing_glyph_warnings(fig) == []
    texts = [t for t in fonts._texts(fig) if fonts.needs_cjk(t.get_text())]
    assert texts, "no CJK text drawn"
    assert all(t.get_fontfamily()[-1] == family for t in texts)


def test_without_the_fallback_the_glyphs_are_missing():
    # The check above can fail: the same Chinese words in the default font alone warn.
    _cjk_font_or_skip()
    fig = Figure()
    fig.add_subplot().text(0, 0, "猫 坐 在 垫子 上")
    assert _missing_glyph_warnings(fig)


def test_latin_texts_keep_the_default_font():
    fig = plot_alignment_pairs(CAND, REF, ALIGNMENT_A.pairs)
    assert {tuple(t.get_fontfamily()) for t in find_gid(fig.axes[0], "candidate-word")} == {("sans-serif",)}


def test_no_cjk_font_warns_once_naming_the_package(monkeypatch):
    monkeypatch.setattr(fonts, "CJK_FAMILIES", ("No Such Font Family",))
    monkeypatch.setattr(fonts, "_CJK_FILE_HINTS", ())
    fonts.cjk_font_family.cache_clear()
    try:
        with pytest.warns(fonts.MissingFontWarning, match=fonts.CJK_FONT_PACKAGE) as caught:
            for _ in range(3):
                fonts.use_script_fonts(plot_alignment_pairs(["猫"], ["猫"], [(0, 0)]))
        assert len([w for w in caught if issubclass(w.category, fonts.MissingFontWarning)]) == 1
    finally:
        fonts.cjk_font_family.cache_clear()


# ------------------------------------------------------------------- legible: close crossings, long sentences


def _display_points(fig, ax, xy):
    """Data points of ``ax`` in points (1/72 inch) on the drawn figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    return [tuple(p) for p in ax.transData.transform(xy) * 72 / fig.dpi]


@pytest.mark.parametrize("example", [ALIGNMENT_A, ALIGNMENT_B], ids=["a", "b"])
def test_crossing_markers_do_not_overlap(example):
    fig = plot_alignment_pairs(CAND, REF, example.pairs)
    ax = fig.axes[0]
    (markers,) = find_gid(ax, "crossings")
    points = _display_points(fig, ax, markers.get_xydata())
    closest = min(math.dist(a, b) for a, b in combinations(points, 2))
    assert closest >= markers.get_markersize(), (closest, markers.get_markersize())


def _long_pair(n_words: int, seed: int):
    import random

    rng = random.Random(seed)
    vocabulary = "the a cat dog sat on mat rug big small red house near river".split()
    return (" ".join(rng.choice(vocabulary) for _ in range(n_words)),
            " ".join(rng.choice(vocabulary) for _ in range(n_words)))


@pytest.mark.parametrize("n_words", [20, 60])
def test_long_alignment_grows_downwards_at_full_size(n_words):
    from test_figures import drawn_texts_outside

    cand, ref = _long_pair(n_words, seed=n_words)
    r = meteor(cand, [ref], stages=["exact"])
    fig = plot_alignment(r, title=f"{n_words} words a side")
    ax = fig.axes[0]
    words = find_gid(ax, "candidate-word")
    assert [t.get_text() for t in words] == cand.split()
    assert [t.get_text() for t in find_gid(ax, "reference-word")] == ref.split()
    # Not a strip: the figure stays narrow and the words keep their size, one row each.
    assert fig.get_figwidth() <= 10 and all(t.get_fontsize() == 11 for t in words)
    ys = sorted(p[1] for p in _display_points(fig, ax, [t.get_position() for t in words]))
    assert min(b - a for a, b in zip(ys, ys[1:])) >= 1.5 * 11  # points between rows
    assert crossing_points(ax) == r.crossings == _brute_crossings(r.pairs)
    drawn = sum(_segments_cross(a, b) for a, b in combinations(_mapping_segments(ax), 2))
    assert drawn == r.crossings
    assert len(find_gid(ax, "chunk-candidate")) == len(find_gid(ax, "chunk-reference")) == r.chunks
    assert drawn_texts_outside(fig) == []


def test_long_alignment_comparison_side_by_side():
    cand, ref = (s.split() for s in _long_pair(30, seed=1))
    fig = plot_alignment_comparison(cand, ref, [("(a)", [(0, 1)]), ("(b)", [(1, 0), (0, 1)])])
    left, right = fig.axes
    assert [crossing_points(ax) for ax in fig.axes] == [0, 1]
    assert left.get_position().x1 <= right.get_position().x0  # columns next to each other


def _drawn_font_sizes(fig) -> list[float]:
    """The size (points) of every text a render of ``fig`` draws."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    sizes: list[float] = []
    original = Text.draw

    def recording_draw(self, renderer):
        original(self, renderer)
        if self.get_visible() and self.get_text().strip():
            sizes.append(self.get_fontsize())

    Text.draw = recording_draw
    try:
        FigureCanvasAgg(fig).draw()
    finally:
        Text.draw = original
    return sizes


@pytest.mark.parametrize("metrics", [agreement.METRICS[:2], agreement.METRICS, agreement.METRICS[:3]],
                         ids=["two", "four", "three"])
def test_agreement_grid_is_readable_1000_px_wide(metrics):
    from test_figures import drawn_texts_outside

    fig = plot_agreement_grid(["de-en", "ja-en"], metrics, reference="A")
    assert len(fig.axes) == 2 * len(metrics)
    # Notebook 06 shows the grid 1,000 px wide: its smallest text is still 10 px there.
    smallest = min(_drawn_font_sizes(fig)) / 72 * 1000 / fig.get_figwidth()
    assert smallest >= 10, smallest
    columns = {round(ax.get_position().x0, 3) for ax in fig.axes}
    assert len(columns) == min(2, len(metrics))
    first_pair = fig.axes[:len(metrics)]
    assert all(ax.get_xlim() == first_pair[0].get_xlim() for ax in first_pair)  # one human axis per pair
    assert drawn_texts_outside(fig) == []

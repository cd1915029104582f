"""Matplotlib pictures of BLEU, METEOR, chrF and TER: every function returns a matplotlib ``Figure``.

Presentation only: the pictures *read* results (``BleuResult``, ``MeteorResult``,
``ChrfResult``, ``TerResult``) and
call the library's formula functions for curves; nothing here computes a metric.
The library never calls ``plt.show()`` and never registers figures with pyplot (no
figure is left open): each function builds a :class:`TeachingFigure`, a plain
``Figure`` that also shows itself as a PNG when it is the last value of a notebook
cell. Pass ``ax=`` to draw into an axes of your own instead (the function then
returns ``ax.figure``).

The stable API (the notebooks and :mod:`mtlearn.show.explorers` call these names), one module per topic
(``alignment``, ``bleu``, ``meteor``, ``chrf``, ``ter``, ``agreement``, ``mqm``, ``bertscore``; ``_style``:
colours, the figure, PNG bytes, reading a picture back):

===================================  ================================================
``plot_alignment(result)``           METEOR alignment of a ``MeteorResult``: candidate
                                     words on top, reference words below, one line per
                                     mapping coloured by stage, every crossing marked
                                     with a red x, chunks boxed in both strings
``plot_alignment_pairs(cand, ref,    the same picture from explicit
pairs, stages=None)``                (candidate index, reference index) pairs, e.g.
                                     ``mtlearn.examples.meteor.ALIGNMENT_A.pairs``
``plot_alignment_comparison(cand,    several alignments of one pair, one row each
ref, [(title, pairs), ...])``        (the Wikipedia articles' (a) against (b))
``plot_ngram_table(result, n)``      a ``BleuResult``'s n-grams of order n: count in
                                     the candidate, in each reference, the maximum and
                                     the clipped count; clipped rows red, unmatched grey
``plot_brevity_penalty(result)``     BP = exp(1 - r/c) against c/r, optionally marking
                                     results (BLEU or d2l)
``plot_weights(max_order=4)``        the d2l factors p^(1/2^n) against Papineni's
                                     p^(1/N), the Chinese blog post's example B marked
``plot_meteor_penalty(results)``     METEOR's penalty gamma*(c/u_m)^beta against the
                                     fragmentation c/u_m, results marked
``plot_f_mean(alpha=0.9)``           F_mean over (P, R) as a filled contour, results
                                     marked
``plot_f_mean_alpha(pairs)``         F_mean against alpha in [0, 1] for a few (P, R)
``plot_chrf_orders(result)``        a ``ChrfResult``: precision, recall and F_beta of
                                     every order as bars (character orders, then word
                                     orders), counts under each, the averaged P and R
                                     and the score as lines
``plot_ter_edits(result)``           a ``TerResult``'s edit script: candidate, shifted
                                     candidate and reference rows, each shift an arrow
                                     labelled with its round, matches and
                                     substitutions as links, insertions and deletions
                                     shaded (up to ``TER_PICTURE_MAX_WORDS`` words a row)
``plot_system_agreement(pair,        WMT22: a metric's corpus score against the humans'
metric)``                            DA score, one labelled point per MT system
                                     (:mod:`mtlearn.study.agreement`'s tables)
``plot_agreement_grid(pairs)``       the same for several pairs, one row per pair,
                                     BLEU and METEOR (chrF, WMT's COMET) side by side
``plot_pairwise_accuracy()``         pairwise accuracy per pair and pooled, one bar
                                     per metric, with its 95% interval
``plot_mqm_scatter(mqm, scores)``    sentence scores against expert MQM, one dot per
                                     segment, one ringed (notebook 09)
``plot_similarity(result)``         a ``BertScoreResult``: the cosine matrix of the
                                     best reference as a heat map, each row's best
                                     boxed (precision), each column's best dotted
                                     (recall), idf weights as side bars
``plot_layers(results)``             P, R and F1 of one pair at each layer (0..6)
``plot_segment_pairs(a, b)``         a sentence metric of system A against system B,
                                     one dot per segment (corpus mode)
``figure_to_png(fig)``               PNG bytes of a figure (widgets, files)
``find_gid(ax, gid)``,               helpers that read a picture back: artists by gid,
``crossing_points(ax)``,             the number of crossings marked, the marked points
``marker_points(ax)``
===================================  ================================================

Module constants: :data:`STAGE_COLOURS` (exact blue, stem green, synonym orange),
:data:`CROSSING_COLOUR`, :data:`CLIPPED_COLOUR`, :data:`UNMATCHED_COLOUR`,
:data:`METRIC_COLOURS` (BLEU blue, METEOR purple, chrF green, COMET orange), :data:`CHRF_COLOURS`
(precision blue, recall orange, F_beta green), :data:`TER_COLOURS` (shift purple, match green, substitution
orange, insertion blue, deletion red).

Artists carry *gids* so that tests (and curious students) can find them:
``"mapping"`` (one line per mapping), ``"crossings"`` (one line object whose
points are the crossings), ``"chunk-candidate"`` / ``"chunk-reference"`` (one
rectangle per chunk in each string), ``"candidate-word"`` / ``"reference-word"``,
``"curve"`` and ``"marker"`` in the curve plots; in the agreement plots ``"marker"``
(one line whose points are the systems), ``"system-label"`` (one text per system)
and ``"highlight"`` (rings around highlighted systems); in the chrF plot
``"precision-bar"``, ``"recall-bar"``, ``"f-bar"`` (one bar per order) and
``"average-precision"``, ``"average-recall"``, ``"score"`` (the lines); in the TER
plot ``"candidate-word"``, ``"shifted-word"``, ``"reference-word"``, ``"shift-arrow"``
and ``"shift-label"`` (one per shift), ``"shift-from"`` / ``"shift-to"`` (the moved
block boxed), ``"slide"`` (words that only move aside), ``"match"`` and
``"substitute"`` (links), ``"delete"`` and ``"insert"`` (shaded words); in the BERTScore matrix
``"similarity"`` (the image),
``"precision-match"`` (one box per candidate token), ``"recall-match"`` (one dot per reference token),
``"cosine"`` (the cells' numbers, small matrices), ``"candidate-weight"`` / ``"reference-weight"`` (idf
bars); in the layers plot ``"precision"``, ``"recall"``, ``"f1"`` (one line each).

The Wikipedia articles' alignment (a), from the examples' data:

>>> from mtlearn.examples.meteor import ROW_1, ALIGNMENT_A
>>> fig = plot_alignment_pairs(ROW_1.candidate.split(), ROW_1.reference.split(), ALIGNMENT_A.pairs)
>>> ax = fig.axes[0]
>>> len(find_gid(ax, "mapping")), crossing_points(ax), len(find_gid(ax, "chunk-candidate"))
(6, 8, 6)
"""

from __future__ import annotations

from mtlearn.show.plots._style import (
    CHRF_COLOURS,
    CLIPPED_COLOUR,
    CROSSING_COLOUR,
    METRIC_COLOURS,
    STAGE_COLOURS,
    TER_COLOURS,
    TER_PICTURE_MAX_WORDS,
    UNMATCHED_COLOUR,
    TeachingFigure,
    crossing_points,
    figure_to_png,
    find_gid,
    marker_points,
    stage_colour,
)
from mtlearn.show.plots.agreement import plot_agreement_grid, plot_pairwise_accuracy, plot_system_agreement
from mtlearn.show.plots.alignment import plot_alignment, plot_alignment_comparison, plot_alignment_pairs
from mtlearn.show.plots.bertscore import (
    BERTSCORE_COLOURS,
    BERTSCORE_PICTURE_MAX_TOKENS,
    plot_layers,
    plot_similarity,
)
from mtlearn.show.plots.bleu import plot_brevity_penalty, plot_ngram_table, plot_weights
from mtlearn.show.plots.chrf import plot_chrf_orders
from mtlearn.show.plots.corpus import plot_segment_pairs
from mtlearn.show.plots.meteor import plot_f_mean, plot_f_mean_alpha, plot_meteor_penalty
from mtlearn.show.plots.mqm import plot_mqm_scatter
from mtlearn.show.plots.ter import plot_ter_edits

__all__ = [
    "STAGE_COLOURS",
    "CROSSING_COLOUR",
    "CLIPPED_COLOUR",
    "UNMATCHED_COLOUR",
    "TeachingFigure",
    "stage_colour",
    "plot_alignment",
    "plot_alignment_pairs",
    "plot_alignment_comparison",
    "plot_ngram_table",
    "plot_brevity_penalty",
    "plot_weights",
    "plot_meteor_penalty",
    "plot_f_mean",
    "plot_f_mean_alpha",
    "CHRF_COLOURS",
    "plot_chrf_orders",
    "TER_COLOURS",
    "TER_PICTURE_MAX_WORDS",
    "plot_ter_edits",
    "METRIC_COLOURS",
    "plot_system_agreement",
    "plot_agreement_grid",
    "plot_pairwise_accuracy",
    "plot_mqm_scatter",
    "plot_segment_pairs",
    "BERTSCORE_COLOURS",
    "BERTSCORE_PICTURE_MAX_TOKENS",
    "plot_similarity",
    "plot_layers",
    "figure_to_png",
    "find_gid",
    "crossing_points",
    "marker_points",
]

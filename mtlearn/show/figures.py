"""Generate the static pictures of the README and notebooks (``figures/``) from mtlearn.

The one command, run from the repository's top folder::

    python -m mtlearn.show.figures            # writes into ./figures (relative to the current folder)
    python -m mtlearn.show.figures OUTDIR     # writes into OUTDIR (created if missing)

Every picture is drawn by :mod:`mtlearn.show.plots` from numbers mtlearn computes on
the documents' worked examples (:mod:`mtlearn.examples`), saved as PNG for a
projector: at least :data:`DPI` dpi and :data:`MIN_WIDTH_PX` pixels wide (a narrow
figure gets more dots per inch, :func:`dpi_for`), in 256 colours, without software
metadata, so the same code gives the same bytes.
The files (:data:`FIGURES`, name -> what it shows):

- ``meteor_alignments_a_b.png`` -- the Wikipedia articles' alignments (a) and (b) of "on the
  mat sat the cat" against "the cat sat on the mat": 8 against 11 crossings, each
  marked; chunks boxed (6 against 3); the crossing rule chooses (a).
- ``meteor_alignment_stages.png`` -- an alignment that needs all three stages:
  exact (blue), stem "cats"-"cat" (green), synonym "rug"-"carpet" (orange). Needs
  WordNet; without it the command skips this file, says why and exits with status 1.
- ``bleu_clipping_the_the.png`` -- Papineni's "the the the the the the the": 7
  candidate "the", at most 2 in a reference, clipped to 2: p_1 = 2/7.
- ``bleu_ngram_tables_example_a.png`` -- the Chinese blog post's example A ("A B B C D"
  against "A B C D E F"): unigram and bigram tables, the second "B" clipped.
- ``bleu_brevity_penalty.png`` -- BP = exp(1 - r/c) against c/r, with example C
  (c = 2, r = 6, BP = 0.1353) and example A (c = 5, r = 6) marked.
- ``bleu_weights.png`` -- the d2l factors p^(1/2^n) against Papineni's p^(1/4),
  with example B's 0.71, 0.84, 0.92, 0.96 at p = 0.5.
- ``meteor_penalty.png`` -- the penalty 0.5 (c/u_m)^3 against fragmentation, the
  worked example's three rows marked (0.5, 0.0023, 0.0185).
- ``meteor_f_mean.png`` -- F_mean over (P, R) at alpha = 0.9, the worked example's row 3
  (P = 6/7, R = 1) marked.
- ``meteor_f_mean_alpha.png`` -- F_mean against alpha for (P, R) = (1/2, 1),
  (1, 1/2) and (6/7, 1): why recall weighs nine times more at alpha = 0.9.
- ``chrf_orders_cats_mats.png`` -- chrF++ of "The cats sat on the mats." against
  "The cat sat on the mat.": the character orders give "cats" and "mats" partial
  credit (precision, recall and F_beta of each order), the word orders do not; the
  averaged P and R and the score chrF2++ = 0.7340 marked (BLEU scores this pair 0).
- ``ter_edits_cat_today.png`` -- TER's edit script of "the cat sat on the mat
  today" against "today the two cats sat on the mat": one shift ("today" to the
  front, round 1), then one insertion ("two") and one substitution ("cat" ->
  "cats") on the shifted candidate; TER = 3 / 8 = 0.3750.

>>> sorted(FIGURES)[:3]
['bleu_brevity_penalty.png', 'bleu_clipping_the_the.png', 'bleu_ngram_tables_example_a.png']
>>> NEEDS_WORDNET
frozenset({'meteor_alignment_stages.png'})
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Optional, Union

from matplotlib.figure import Figure

from . import plots

__all__ = ["FIGURES", "NEEDS_WORDNET", "DPI", "MIN_WIDTH_PX", "DEFAULT_OUTDIR", "dpi_for", "build_figure",
           "generate", "main"]

#: Least resolution of the saved PNGs (dots per inch).
DPI = 200
#: Least width of the saved PNGs in pixels (sharp on a projector's full width).
MIN_WIDTH_PX = 1600

#: Where ``python -m mtlearn.show.figures`` writes without an argument (relative to the current folder).
DEFAULT_OUTDIR = "figures"

#: File name -> one line on what the picture shows.
FIGURES: dict[str, str] = {
    "meteor_alignments_a_b.png": "METEOR alignments (a) and (b): crossings marked, chunks boxed",
    "meteor_alignment_stages.png": "an alignment using the exact, stem and synonym stages",
    "bleu_clipping_the_the.png": "n-gram table with clipping for 'the the the the the the the' (p_1 = 2/7)",
    "bleu_ngram_tables_example_a.png": "unigram and bigram tables of the Chinese blog post's example A",
    "bleu_brevity_penalty.png": "the brevity penalty against c/r, examples A and C marked",
    "bleu_weights.png": "p^(1/2^n) (Chinese blog post) against p^(1/N) (Papineni), example B marked",
    "meteor_penalty.png": "METEOR's penalty against fragmentation, the worked example's three rows marked",
    "meteor_f_mean.png": "F_mean over precision and recall at alpha = 0.9",
    "meteor_f_mean_alpha.png": "F_mean against alpha for three (P, R) pairs",
    "chrf_orders_cats_mats.png": ("chrF++ per order for 'The cats sat on the mats.' against "
                                  "'The cat sat on the mat.'"),
    "ter_edits_cat_today.png": "TER's shift, insertion and substitution for 'the cat sat on the mat today'",
}

#: Figures that need WordNet (METEOR's synonym stage).
NEEDS_WORDNET: frozenset[str] = frozenset({"meteor_alignment_stages.png"})


def _alignments_a_b() -> Figure:
    from mtlearn.examples.meteor import ALIGNMENT_A, ALIGNMENT_B, ROW_1
    from mtlearn.metrics.meteor.fast import score_from_counts
    from mtlearn.metrics.meteor.formulas import count_chunks

    cand, ref = ROW_1.candidate.split(), ROW_1.reference.split()
    items = []
    for example in (ALIGNMENT_A, ALIGNMENT_B):
        score = score_from_counts(len(example.pairs), len(cand), len(ref), count_chunks(example.pairs))
        verdict = "chosen (fewer crossings)" if example.chosen else "not chosen"
        letter = example.name.split(":")[0]  # "(a)"; the name's word positions are 1-based
        items.append((f"{letter} {verdict}, score {score:.4f}", example.pairs))
    return plots.plot_alignment_comparison(cand, ref, items)


def _alignment_stages() -> Figure:
    from mtlearn.metrics.meteor.score import meteor

    r = meteor("the cats sat on the rug", ["the cat sat on the carpet"])
    return plots.plot_alignment(r, title=f"exact, stem and synonym stages: METEOR = {r.score:.4f}")


def _clipping_the_the() -> Figure:
    from mtlearn.examples.bleu import PAPINENI_THE_THE as ex
    from mtlearn.metrics.bleu.score import bleu

    r = bleu(ex.candidate, list(ex.references), max_order=1, lowercase=ex.lowercase)
    return plots.plot_ngram_table(r, 1)


def _tables_example_a() -> Figure:
    from mtlearn.examples.bleu import POST_A_PRECISIONS as ex
    from mtlearn.metrics.bleu.score import bleu

    r = bleu(ex.candidate, list(ex.references), max_order=ex.max_order)
    fig = plots.TeachingFigure(figsize=(10.0, 2.9), layout="constrained")
    left, right = fig.subplots(1, 2)
    plots.plot_ngram_table(r, 1, ax=left)
    plots.plot_ngram_table(r, 2, ax=right)
    fig.suptitle(f"'{ex.candidate}' against '{ex.references[0]}'", fontsize=11)
    return fig


def _brevity_penalty() -> Figure:
    from mtlearn.examples.bleu import POST_A_PRECISIONS as a
    from mtlearn.examples.bleu import POST_C_BREVITY as c
    from mtlearn.metrics.bleu.score import bleu

    results = [bleu(ex.candidate, list(ex.references), max_order=ex.max_order) for ex in (c, a)]
    return plots.plot_brevity_penalty(results)


def _weights() -> Figure:
    from mtlearn.examples.bleu import POST_B_WEIGHTS as ex

    return plots.plot_weights(len(ex.exponents), precision=float(ex.precision))


def _meteor_rows() -> list:
    from mtlearn.examples.meteor import TABLE
    from mtlearn.metrics.meteor.score import meteor

    return [meteor(row.candidate, [row.reference], stages=["exact"]) for row in TABLE]


def _meteor_penalty() -> Figure:
    return plots.plot_meteor_penalty(_meteor_rows(), labels=["row 1", "row 2", "row 3"])


def _f_mean() -> Figure:
    return plots.plot_f_mean(0.9, results=_meteor_rows()[2])


def _f_mean_alpha() -> Figure:
    return plots.plot_f_mean_alpha()


#: chrF's example: inflected words (a morphological difference) that BLEU does not credit at all.
_CHRF_PAIR = ("The cats sat on the mats.", "The cat sat on the mat.")


def _chrf_orders() -> Figure:
    from mtlearn.metrics.chrf.score import chrf

    cand, ref = _CHRF_PAIR
    return plots.plot_chrf_orders(chrf(cand, [ref], word_order=2), title=f"'{cand}' against '{ref}'")


#: TER's example: a moved word (one shift) plus an insertion and a substitution on the shifted candidate.
_TER_PAIR = ("the cat sat on the mat today", "today the two cats sat on the mat")


def _ter_edits() -> Figure:
    from mtlearn.metrics.ter.score import ter

    cand, ref = _TER_PAIR
    return plots.plot_ter_edits(ter(cand, [ref]))


_BUILDERS: dict[str, Callable[[], Figure]] = {
    "meteor_alignments_a_b.png": _alignments_a_b,
    "meteor_alignment_stages.png": _alignment_stages,
    "bleu_clipping_the_the.png": _clipping_the_the,
    "bleu_ngram_tables_example_a.png": _tables_example_a,
    "bleu_brevity_penalty.png": _brevity_penalty,
    "bleu_weights.png": _weights,
    "meteor_penalty.png": _meteor_penalty,
    "meteor_f_mean.png": _f_mean,
    "meteor_f_mean_alpha.png": _f_mean_alpha,
    "chrf_orders_cats_mats.png": _chrf_orders,
    "ter_edits_cat_today.png": _ter_edits,
}


def dpi_for(fig: Figure) -> int:
    """The resolution ``fig`` is saved at: :data:`DPI`, or more if the figure is narrower than
    :data:`MIN_WIDTH_PX`.

    >>> from matplotlib.figure import Figure
    >>> dpi_for(Figure(figsize=(10, 4))), dpi_for(Figure(figsize=(5, 4)))
    (200, 320)
    """
    return max(DPI, math.ceil(MIN_WIDTH_PX / fig.get_figwidth()))


def build_figure(name: str) -> Figure:
    """The figure behind file ``name`` (one of :data:`FIGURES`), not saved.

    >>> fig = build_figure("bleu_clipping_the_the.png")
    >>> fig.axes[0].get_title().splitlines()[0]
    'unigram precision p_1 = 2/7 = 0.2857'
    """
    if name not in _BUILDERS:
        raise ValueError(f"name: unknown figure {name!r}; choose one of {', '.join(FIGURES)}")
    return _BUILDERS[name]()


def generate(
    outdir: Union[str, os.PathLike] = DEFAULT_OUTDIR,
    names: Optional[Iterable[str]] = None,
    *,
    log: Callable[[str], None] = print,
) -> tuple[list[Path], dict[str, str]]:
    """Write the PNGs into ``outdir`` (created if missing); return (files written, skipped -> why).

    Only the WordNet figures can be skipped, when WordNet is missing.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     written, skipped = generate(tmp, ["bleu_weights.png"], log=lambda line: None)
    ...     [p.name for p in written], skipped, written[0].read_bytes()[:4]
    (['bleu_weights.png'], {}, b'\\x89PNG')
    """
    from mtlearn.metrics.meteor.wordnet import WordNetMissingError

    wanted: Sequence[str] = list(FIGURES) if names is None else list(names)
    for name in wanted:
        if name not in FIGURES:
            raise ValueError(f"names: unknown figure {name!r}; choose one of {', '.join(FIGURES)}")
    folder = Path(outdir)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    skipped: dict[str, str] = {}
    for name in wanted:
        try:
            fig = build_figure(name)
        except WordNetMissingError as error:
            skipped[name] = str(error).splitlines()[0]
            log(f"skipped {name}: {skipped[name]} (see python -m mtlearn.metrics.meteor.wordnet)")
            continue
        path = folder / name
        path.write_bytes(plots.figure_to_png(fig, dpi=dpi_for(fig), palette=True))
        written.append(path)
        log(f"wrote {path} ({path.stat().st_size // 1024} KB): {FIGURES[name]}")
    return written, skipped


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m mtlearn.show.figures [OUTDIR]``: write every figure; 1 if one was skipped, 2 on misuse."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args) or len(args) > 1:
        print(__doc__.split("\n\n")[1].strip() if __doc__ else "python -m mtlearn.show.figures [OUTDIR]")
        print("usage: python -m mtlearn.show.figures [OUTDIR]   (default: ./figures)")
        return 0 if len(args) <= 1 else 2
    outdir = Path(args[0] if args else DEFAULT_OUTDIR)
    if outdir.exists() and not outdir.is_dir():
        return _fail(f"{outdir} is not a folder; give the folder to write the pictures into "
                     "(it is created if missing)", 2)
    try:
        _, skipped = generate(outdir)
    except OSError as error:  # a parent that is a file, no permission, a full disk
        return _fail(f"cannot write the pictures into {outdir}: {error.strerror or error}"
                     + (f" ({error.filename})" if error.filename not in (None, str(outdir)) else ""), 1)
    except KeyboardInterrupt:
        return _fail("interrupted (Ctrl-C)", 130)
    return 1 if skipped else 0


def _fail(message: str, status: int) -> int:
    """One ``mtlearn: error:`` line on standard error; return ``status``."""
    print(f"mtlearn: error: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":  # pragma: no cover - the command
    raise SystemExit(main())

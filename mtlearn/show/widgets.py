"""Live explorers for Jupyter (ipywidgets 8): type a candidate and references, watch every number change.

Six explorers; each *is* an ``ipywidgets.VBox``, so putting one last in a cell (or
passing it to ``display``) shows it, and it can be placed inside other layouts.
``explorer.widget`` is the explorer itself (for symmetry with code that expects a
``.widget``). Presentation only: every number comes from :func:`mtlearn.bleu`,
:func:`mtlearn.meteor`, :func:`mtlearn.chrf` or :func:`mtlearn.ter` and the picture from
:mod:`mtlearn.show.plots`.

``BleuExplorer(candidate="", references=(), *, max_order=4, smoothing="none",
tokenize="whitespace", lowercase=False, effective_order=False, weights=None)``
    Candidate box, references box (one reference per line; blank lines are
    ignored), max order, smoothing, tokenizer, lowercase, effective order and
    weights (empty: uniform; else comma-separated numbers or fractions such as
    ``1/2, 1/4``) -> the n-gram tables of every order with clipping marked, the
    precisions, weights, brevity penalty and score.

``MeteorExplorer(candidate="", references=(), *, stages=("exact", "stem", "synonym"),
alpha=0.9, beta=3.0, gamma=0.5, tie_break="crossings", lowercase=True,
tokenize="whitespace")``
    Candidate and references boxes, one checkbox per stage, alpha/beta/gamma
    sliders, tie-break, lowercase, tokenizer -> the alignment picture of the best
    reference (:func:`mtlearn.show.plots.plot_alignment`: lines coloured by stage,
    crossings marked, chunks boxed) as a PNG ``Image`` and every number
    (P, R, F_mean, fragmentation, penalty, score, matches per stage, crossings,
    chunks, the score against each reference).

``ChrfExplorer(candidate="", references=(), *, char_order=6, word_order=0, beta=2.0,
lowercase=False, whitespace=False, eps_smoothing=False)``
    Candidate and references boxes, character and word order sliders (word order
    2 is chrF++), a beta slider, lowercase, whitespace and eps smoothing boxes ->
    the score, the averaged precision and recall, every order's n-gram counts
    (candidate, reference, matched), precision and recall as exact fractions and
    F_beta, which reference was kept and why, and
    :func:`mtlearn.show.plots.plot_chrf_orders` as a PNG ``Image``.

``TerExplorer(candidate="", references=(), *, normalized=False, no_punct=False,
asian_support=False, case_sensitive=False)``
    Candidate and references boxes, one checkbox per option -> the score (edits /
    average reference length, exact), the shifts, substitutions, insertions,
    deletions and matches, the edits against each reference, every shift (round,
    words, from, to, edits saved, why), the edit script on the shifted candidate
    and :func:`mtlearn.show.plots.plot_ter_edits` as a PNG ``Image``.

``AgreementExplorer(pair="de-en", system_1=None, system_2=None)``
    Pick a WMT22 language pair and two of its MT systems (default: the humans' top
    two) -> both metrics against the humans for that pair
    (:func:`mtlearn.show.plots.plot_agreement_grid`, the two systems ringed) and, from
    :func:`mtlearn.study.agreement.compare_systems`, who is ahead for the humans, for
    BLEU and for METEOR, with each significance test.

``ImplementationExplorer(candidate="", references=(), *, metric="bleu", profile_a=None,
profile_b=None, tokenize=None)``
    Candidate and references boxes, the metric, two implementations' profiles and
    one tokenizer for both (or each library's own) -> both scores (and as each
    library reports them), the first step at which they part, and the walk from A
    to B one pipeline step at a time (:func:`mtlearn.compare_implementations`):
    each step's changed settings, the score after it and its contribution, which
    add up exactly to the difference.

Common API of all of them:

- ``.result`` -- the current ``BleuResult`` / ``MeteorResult``, ``None`` when the
  input is unusable; ``.error`` -- the message shown then (else ``None``);
  ``.notes`` -- remarks shown beside a result (why a score is 0, warnings);
- ``.score_html``, ``.summary_html``, ``.message_html`` (and ``BleuExplorer.table_html``,
  ``ChrfExplorer.table_html``, ``TerExplorer.shifts_html`` and ``.edits_html``) -- the
  ``HTML`` widgets that show the numbers; ``.image`` (the ``Image`` widget) and
  ``.figure`` (the last ``Figure`` drawn) of the METEOR, chrF, TER and agreement
  explorers;
- ``.set_inputs(candidate=..., references=..., <option>=...)`` -- set several
  controls at once and recompute once; setting a control's ``value`` directly also
  recomputes (that is how the widget reacts to the browser; text typed in the
  browser is scored after a pause of ``TYPING_PAUSE_S`` = 0.075 s, longer when scoring is
  slow, and its picture redrawn after ``PICTURE_PAUSE_S`` = 0.4 s more, see ``_Explorer``);
- the controls, as attributes: ``candidate_input``, ``references_input``,
  ``tokenize_input``, ``lowercase_input``; BLEU: ``max_order_input``,
  ``smoothing_input``, ``effective_order_input``, ``weights_input``; METEOR:
  ``stage_inputs`` (dict stage name -> ``Checkbox``), ``alpha_input``,
  ``beta_input``, ``gamma_input``, ``tie_break_input``; chrF: ``char_order_input``,
  ``word_order_input``, ``beta_input``, ``lowercase_input``, ``whitespace_input``,
  ``eps_smoothing_input``; TER: ``option_inputs`` (dict option name -> ``Checkbox``).

Unusable input (empty candidate, no references, weights that cannot be read or do
not fit, no stage ticked, WordNet missing for the synonym stage, chrF's beta 0 or
both orders 0, ...) never raises inside the widget: the message appears in
``message_html`` in red (class ``mtlearn-error``). Constructor arguments are checked
like the metrics' own and raise ``ValueError``/``TypeError`` naming the argument.

CSS classes (for browser tests, e.g. Playwright ``page.locator(".mtlearn-score")``):

===============================  ====================================================
``mtlearn-bleu-explorer``,       the explorer's box
``mtlearn-meteor-explorer``
``mtlearn-candidate``            the candidate ``Textarea`` (description "Candidate")
``mtlearn-references``           the references ``Textarea`` (description "References")
``mtlearn-tokenize``             tokenizer dropdown ("Tokenizer")
``mtlearn-lowercase``            lowercase checkbox ("Lowercase")
``mtlearn-max-order``            BLEU: max order slider ("Max order")
``mtlearn-smoothing``            BLEU: smoothing dropdown ("Smoothing")
``mtlearn-effective-order``      BLEU: effective order checkbox ("Effective order")
``mtlearn-weights``              BLEU: weights text box ("Weights")
``mtlearn-stage-exact``,         METEOR: stage checkboxes ("exact", "stem", "synonym")
``mtlearn-stage-stem``,
``mtlearn-stage-synonym``
``mtlearn-alpha``,               METEOR: sliders ("alpha", "beta", "gamma")
``mtlearn-beta``, ``mtlearn-gamma``
``mtlearn-tie-break``            METEOR: tie-break dropdown ("Tie-break")
``mtlearn-stage-languages``      METEOR: "stem and synonym are English only ..."
``mtlearn-alignment``            METEOR: the alignment ``Image``
``mtlearn-chrf-explorer``        the chrF explorer's box
``mtlearn-char-order``,          chrF: order sliders ("Char order", "Word order")
``mtlearn-word-order``
``mtlearn-chrf-beta``            chrF: beta slider ("beta")
``mtlearn-whitespace``,          chrF: checkboxes ("Whitespace", "Eps smoothing";
``mtlearn-eps-smoothing``        lowercase is ``mtlearn-lowercase``)
``mtlearn-order-table``          chrF: the per-order table (rows ``mtlearn-order``, or
                                 ``mtlearn-unused-order`` for an order without n-grams
                                 on both sides)
``mtlearn-chrf-plot``            chrF: the plot ``Image``
``mtlearn-ter-explorer``         the TER explorer's box
``mtlearn-normalized``,          TER: option checkboxes ("Normalized",
``mtlearn-no-punct``,            "No punctuation", "Asian support", "Case sensitive")
``mtlearn-asian-support``,
``mtlearn-case-sensitive``
``mtlearn-shifts``               TER: the shift list (rows ``mtlearn-shift``)
``mtlearn-edits``                TER: the edit script (rows ``mtlearn-edit-match``,
                                 ``-substitute``, ``-insert``, ``-delete``)
``mtlearn-edit-picture``         TER: the edit picture ``Image``
``mtlearn-score``                the score ``HTML`` ("BLEU = 0.1353", "METEOR = 0.5000",
                                 "chrF2 = 0.6444", "TER = 0.1667")
``mtlearn-summary``              every number, in an HTML table
``mtlearn-ngram-table``          BLEU: the n-gram tables (inside ``<details class="mtlearn-ngram-details">``,
                                 open unless ``tables_open=False``)
``mtlearn-agreement-explorer``   the agreement explorer's box
``mtlearn-pair``,                agreement: language pair and system dropdowns
``mtlearn-system-1``,            ("Pair", "System 1", "System 2")
``mtlearn-system-2``
``mtlearn-agreement-plot``       agreement: the plot ``Image``
``mtlearn-leave-out``            agreement: the system left out ("Leave out", or "(nobody)")
``mtlearn-agreement-moves``      agreement: r and rho with and without it, per metric
``mtlearn-implementation-``       the implementation explorer's box (the class is
``explorer``                     ``mtlearn-implementation-explorer``)
``mtlearn-metric``               implementations: "bleu" or "meteor"
``mtlearn-profile-a``            implementations: the two profiles compared
``mtlearn-profile-b``
``mtlearn-walk``                 implementations: the step-by-step walk from A to B
``mtlearn-message``              notes and errors; its content's ``div`` has class
                                 ``mtlearn-note`` or ``mtlearn-error``, and the widget
                                 itself also gets class ``mtlearn-error`` while an
                                 error is shown
===============================  ====================================================

Inside the HTML every number is a ``<span class="mtlearn-num" data-name="..."
data-value="...">`` (``data-value``: the float's full ``repr``; ``data-exact``: the
exact fraction where there is one), so a test reads the numbers without parsing
the text. Names: BLEU ``score``, ``brevity-penalty``, ``candidate-length``,
``reference-length``, ``ratio``, ``geometric-mean``, and per order n
``matches-n``, ``totals-n``, ``precision-n`` (the value that enters the mean,
smoothed), ``weight-n`` (as used); METEOR ``score``, ``precision``, ``recall``,
``f-mean``, ``fragmentation``, ``penalty``, ``matches``, ``chunks``,
``crossings``, ``candidate-length``, ``reference-length``, ``matches-<stage>``,
``reference-score-k`` (k = 1, 2, ...) and ``best-reference`` (1-based); chrF
``score``, ``precision``, ``recall``, ``f-beta``, with several references
``reference-score-k`` (k = 1, 2, ...) and ``best-reference`` (1-based), and per order k (``c1`` ... ``c6`` character orders, ``w1``,
``w2`` word orders) ``candidate-count-k``, ``reference-count-k``, ``matched-k``,
``precision-k``, ``recall-k`` (with ``data-exact``), ``f-k``; TER ``score``,
``edits``, ``reference-length``, ``shifts``, ``substitutions``, ``insertions``,
``deletions``, ``matches``, ``shift-gain-k`` (k = round), with several references
``reference-edits-k`` and ``best-reference`` (1-based); agreement
``human-1``, ``human-2``, ``human-p``, ``bleu-1``, ``bleu-2``, ``bleu-p``,
``meteor-1``, ``meteor-2``, ``meteor-p`` (1 and 2: the systems as chosen), and
``agreeing`` (``data-value`` one of both, bleu, meteor, neither); implementations
``score-a``, ``score-b``, ``difference``, ``total``, and per step (a row of class
``mtlearn-step`` with ``data-step`` its name) ``score-after`` and ``contribution``;
the ``b`` tag ``first-divergence`` has the step's name as ``data-value``.

Document 002's example C:

>>> x = BleuExplorer("A B", ["A B C D E F"], max_order=2)
>>> round(x.result.score, 4), x.error
(0.1353, None)
>>> 'data-name="brevity-penalty"' in x.summary_html.value
True
>>> x.candidate_input.value = "A B C D E F"
>>> x.result.score
1.0
"""

from __future__ import annotations

import asyncio
import html
import math
import re
import time
import warnings
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Iterator, Optional, Union

import ipywidgets as widgets
from traitlets import TraitError

from . import plots
from mtlearn.study.agreement import (AgreementTables, METRIC_NAMES, METRICS, SIGNIFICANCE_METRICS,
                                     PairwiseComparison, check_pair, check_system, compare_systems,
                                     correlate_systems, default_reference, load_agreement, p_value_text, ranking,
                                     system_correlation, system_scores)
from mtlearn.metrics.bleu.result import BleuResult
from mtlearn.metrics.bleu.score import bleu
from mtlearn.metrics.bleu.smoothing import SMOOTHING_METHODS
from mtlearn.metrics.chrf.score import ChrfResult, chrf
from mtlearn.metrics.meteor.alignment import TIE_BREAKS
from mtlearn.metrics.meteor.explain import search_note
from mtlearn.metrics.meteor.formulas import check_parameters
from mtlearn.metrics.meteor.score import MeteorResult, meteor
from mtlearn.metrics.ter.score import TerResult, ter
from mtlearn.metrics.bleu.profiles import PROFILE_TOKENIZERS
from mtlearn.metrics.bleu.profiles import PROFILES as BLEU_PROFILES
from mtlearn.metrics.meteor.profiles import PROFILES as METEOR_PROFILES
from mtlearn.core.checks import check_choice
from mtlearn.core.number_text import parse_number
from mtlearn.core.tokenize import TOKENIZERS
from mtlearn.why import METRICS as WHY_METRICS
from mtlearn.why import Divergence, ImplementationComparison, ProfileResult, compare_implementations
from mtlearn.why.explain import step_rows

__all__ = ["BleuExplorer", "MeteorExplorer", "ChrfExplorer", "TerExplorer", "AgreementExplorer",
           "ImplementationExplorer", "parse_references", "parse_weights"]

_STAGES = ("exact", "stem", "synonym")
_MAX_ROWS = 40  # n-gram rows shown per order; the rest is counted


def parse_references(text: str) -> list[str]:
    """The references typed in a box: one per line, blank lines ignored.

    >>> parse_references("the cat is on the mat\\n\\n  there is a cat on the mat \\n")
    ['the cat is on the mat', 'there is a cat on the mat']
    """
    return [line.strip() for line in text.splitlines() if line.strip()]


def parse_weights(text: str) -> Optional[list[float]]:
    """Weights typed in a box: empty means uniform (``None``); else numbers or fractions.

    >>> parse_weights(""), parse_weights("1/2, 1/4 1/8"), parse_weights("0.25,0.25")
    (None, [0.5, 0.25, 0.125], [0.25, 0.25])
    >>> parse_weights("0.5, x")
    Traceback (most recent call last):
    ...
    ValueError: weights: cannot read 'x' as a number (write e.g. 0.25 or 1/4, separated by commas)
    """
    items = [t for t in text.replace(",", " ").replace(";", " ").split() if t]
    if not items:
        return None
    values = []
    for item in items:
        try:
            values.append(float(parse_number(item, "weights")))
        except (ValueError, ZeroDivisionError):
            raise ValueError(
                f"weights: cannot read {item!r} as a number (write e.g. 0.25 or 1/4, separated by commas)"
            ) from None
    return values


#: The weights box reads at most this many characters, with exponents up to this size (1e-30 .. 1e30):
#: a typed "1e300000000" would otherwise become a number of 300 million digits before it is read.
WEIGHTS_MAX_CHARS = 200
WEIGHTS_MAX_EXPONENT = 30
_EXPONENT = re.compile(r"[eE]([-+]?\d+(?:_\d+)*)")  # Python's number syntax allows 1_000


def _bounded_weights_text(text: str) -> str:
    """The weights box's text, refused (``ValueError``) if too long to be weights or with a huge exponent.

    At most :data:`WEIGHTS_MAX_CHARS` characters, exponents within
    ±:data:`WEIGHTS_MAX_EXPONENT`; checked on the text, before any number is built.

    >>> _bounded_weights_text("1/2, 2.5e-1, 25e-2")
    '1/2, 2.5e-1, 25e-2'
    >>> _bounded_weights_text("1e300000000")
    Traceback (most recent call last):
    ...
    ValueError: weights: '1e300000000' has an exponent beyond ±30 (write e.g. 0.25 or 1/4)
    """
    if len(text) > WEIGHTS_MAX_CHARS:
        raise ValueError(f"weights: {len(text)} characters typed; the box reads at most {WEIGHTS_MAX_CHARS}")
    for item in text.replace(",", " ").replace(";", " ").split():
        if any(abs(int(e)) > WEIGHTS_MAX_EXPONENT for e in _EXPONENT.findall(item)):
            shown = item if len(item) <= 40 else item[:37] + "..."
            raise ValueError(f"weights: {shown!r} has an exponent beyond ±{WEIGHTS_MAX_EXPONENT} "
                             "(write e.g. 0.25 or 1/4)")
    return text


def _references_text(references: Union[str, Sequence[str]], argname: str = "references") -> str:
    if isinstance(references, str):
        return references
    if not isinstance(references, Sequence) or not all(isinstance(r, str) for r in references):
        raise TypeError(f"{argname}: expected a string (one reference per line) or a list of strings")
    for k, r in enumerate(references):
        if "\n" in r:
            raise ValueError(f"{argname}: reference {k} contains a line break; the box holds one per line")
    return "\n".join(references)


def _check_text(value: object, argname: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{argname}: expected a string, got {type(value).__name__}")
    return value


def _fmt(x: Union[float, Fraction, int]) -> str:
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    value = float(x)
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return f"{value:.4f}"


def _num(name: str, value: Union[float, Fraction, int], text: Optional[str] = None) -> str:
    """A number as a span a test can read: data-value is the full float (or the int)."""
    if isinstance(value, int) and not isinstance(value, bool):
        data = str(value)
    else:
        data = repr(float(value))
    exact = f' data-exact="{value}"' if isinstance(value, Fraction) else ""
    shown = html.escape(text if text is not None else _fmt(value))
    return f'<span class="mtlearn-num" data-name="{name}" data-value="{data}"{exact}>{shown}</span>'


def _frac_text(x: Fraction) -> str:
    return f"{x} = {float(x):.4f}" if x.denominator != 1 else f"{x}"


#: Seconds of quiet in a text box before an explorer recomputes (restarted by each key typed);
#: the wait is twice the last computation when that is longer, up to ``MAX_TYPING_PAUSE_S``.
TYPING_PAUSE_S = 0.075
MAX_TYPING_PAUSE_S = 1.0
#: Seconds of further quiet before a typed change's picture is redrawn: drawing takes 0.3-1.6 s
#: (10-60 words a side), and the numbers, shown first, should not wait for it.
PICTURE_PAUSE_S = 0.4


def typing_pause(last_compute_s: float) -> float:
    """Seconds to wait for more keys before scoring typed text, given how long the last score took.

    A fast score waits :data:`TYPING_PAUSE_S`; a slow one waits twice its time (so that
    typing is not queued behind scores it will replace), at most :data:`MAX_TYPING_PAUSE_S`.

    >>> typing_pause(0.002), typing_pause(0.2), typing_pause(3.0)
    (0.075, 0.4, 1.0)
    """
    return min(MAX_TYPING_PAUSE_S, max(TYPING_PAUSE_S, 2 * last_compute_s))


def _typed_in_browser(change: Any) -> bool:
    """Whether ``change`` is a text box's value sent by the browser (ipywidgets locks the property meanwhile).

    A value set from Python (a notebook cell, ``set_inputs``, a test) is not "typed".

    >>> box = widgets.Textarea()
    >>> _typed_in_browser({"owner": box, "name": "value"})
    False
    >>> with box._lock_property(value="a"):
    ...     _typed_in_browser({"owner": box, "name": "value"})
    True
    """
    if not isinstance(change, dict):
        return False
    owner = change.get("owner")
    return (isinstance(owner, (widgets.Textarea, widgets.Text))
            and change.get("name", "value") in getattr(owner, "_property_lock", {}))


class _Explorer(widgets.VBox):
    """What both explorers share: live updates, messages, ``set_inputs``.

    Typing waits for a pause: a text box's value sent by the browser schedules the
    refresh :func:`typing_pause` seconds later on the kernel's running asyncio loop,
    and each further key restarts the wait, so a sentence typed quickly is scored
    once, not once per key. The numbers of a typed change are shown then; its
    picture (slower to draw) :data:`PICTURE_PAUSE_S` seconds later, if no key came
    meanwhile. Sliders, checkboxes and dropdowns refresh at once, picture included
    (and so does a value set from Python). Without a running loop (a script, a
    doctest) every change refreshes at once.
    """

    _css_class = ""
    _inputs: dict[str, widgets.ValueWidget]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._quiet = False
        self._pending: Optional[asyncio.TimerHandle] = None  # the refresh waiting for a pause in typing
        self._pending_picture: Optional[asyncio.TimerHandle] = None  # a typed change's picture, waiting
        self._typed = False  # the refresh running is a typed change's (its picture may wait)
        self._compute_s = 0.0  # how long the last score took (sets the typing pause)
        self.result: Any = None
        self.error: Optional[str] = None
        self.notes: list[str] = []
        self.message_html = self._tagged(widgets.HTML(), "mtlearn-message")
        self.score_html = self._tagged(widgets.HTML(), "mtlearn-score")
        self.summary_html = self._tagged(widgets.HTML(), "mtlearn-summary")
        self.add_class(self._css_class)

    @staticmethod
    def _tagged(widget: widgets.DOMWidget, css: str) -> Any:
        widget.add_class(css)
        return widget

    @property
    def widget(self) -> "_Explorer":
        """The widget to display: the explorer itself."""
        return self

    def _watch(self) -> None:
        for control in self._inputs.values():
            control.observe(self._on_change, names="value")

    def _on_change(self, change: Any = None) -> None:
        if self._quiet:
            return
        if _typed_in_browser(change):
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop (a script, a doctest): at once
                loop = None
            if loop is not None:
                self._cancel_pending()
                self._pending = loop.call_later(typing_pause(self._compute_s), self._refresh_typed)
                return
        self.refresh()

    def _refresh_typed(self) -> None:
        self._typed = True
        try:
            self.refresh()
        finally:
            self._typed = False

    def _cancel_pending(self) -> None:
        for handle in (self._pending, self._pending_picture):
            if handle is not None:
                handle.cancel()
        self._pending = self._pending_picture = None

    def _picture(self, draw: Any, dpi: int = 90) -> None:
        """Show ``draw()``'s figure in ``self.image`` now, or, for a typed change, after
        :data:`PICTURE_PAUSE_S` more seconds of quiet (a key meanwhile cancels it)."""
        def show() -> None:
            self._pending_picture = None
            self.figure = draw()
            _show_png(self.image, plots.figure_to_png(self.figure, dpi=dpi))

        if self._typed:
            self._pending_picture = asyncio.get_running_loop().call_later(PICTURE_PAUSE_S, show)
        else:
            show()

    def _too_long_to_draw(self, longest: int, limit: int, what: str) -> bool:
        """Whether a side of ``longest`` words is above ``limit``: then no picture, and a note says why."""
        if longest <= limit:
            return False
        self.figure = None
        _show_png(self.image, b"")
        self.notes.append(f"No {what} picture: {longest} words on one side, above the {limit} the picture is "
                          f"drawn for (it would be unreadable); the numbers below are complete.")
        return True

    @contextmanager
    def _hold(self) -> Iterator[None]:
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    def set_inputs(self, **values: Any) -> None:
        """Set several controls at once (names as in the constructor), then recompute once.

        >>> x = BleuExplorer("a b c", ["a b c"])
        >>> x.set_inputs(candidate="a b", max_order=2)
        >>> x.result.matches, x.max_order_input.value
        ((2, 1), 2)
        """
        unknown = [k for k in values if k not in self._inputs]
        if unknown:
            raise TypeError(f"{unknown[0]}: not an input of {type(self).__name__}; "
                            f"choose from {', '.join(self._inputs)}")
        with self._hold():
            for name, value in values.items():
                if name == "references":
                    value = _references_text(value)
                self._inputs[name].value = value
        self.refresh()

    def refresh(self) -> None:
        """Recompute from the controls and redraw (called on every change; typing: after a pause)."""
        self._cancel_pending()  # whatever was waiting is computed now, from the same controls
        self.error = None
        self.notes = []
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                start = time.perf_counter()
                self.result = self._compute()
                self._compute_s = time.perf_counter() - start
            self.notes.extend(str(w.message) for w in caught)
            if getattr(self.result, "reason", None):
                self.notes.append(str(self.result.reason))
            self._render_messages()  # before the (slower) numbers and pictures: no stale note meanwhile
            self._render()
        except (ValueError, TypeError, LookupError) as error:
            self._fail(str(error))
        except Exception as error:  # never a traceback inside the widget
            self._fail(f"unexpected {type(error).__name__}: {error}")
        self._render_messages()

    def _fail(self, message: str) -> None:
        self.result = None
        self.error = message
        self._clear()

    def _render_messages(self) -> None:
        parts = []
        if self.error:
            parts.append(f'<div class="mtlearn-error" style="color:#b00020;font-weight:bold">'
                         f'{html.escape(self.error).replace(chr(10), "<br>")}</div>')
            self.message_html.add_class("mtlearn-error")
        else:
            self.message_html.remove_class("mtlearn-error")
        for note in self.notes:
            parts.append(f'<div class="mtlearn-note" style="color:#8a5300">'
                         f'{html.escape(note).replace(chr(10), "<br>")}</div>')
        self.message_html.value = "".join(parts)

    # Subclasses fill these in.
    def _compute(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _render(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _clear(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


def _textarea(value: str, description: str, placeholder: str, css: str, rows: int) -> widgets.Textarea:
    box = _Textarea(value=value, description=description, placeholder=placeholder, rows=rows,
                           layout=widgets.Layout(width="95%"),
                           style={"description_width": "initial"})
    box.add_class(css)
    return box


def _control(widget: widgets.DOMWidget, css: str) -> Any:
    widget.add_class(css)
    return widget


class _FromTheBrowser:
    """What the browser may change in an explorer's control: its value (a dropdown's: its index), in range.

    ipywidgets applies every synced trait a front end's comm message carries
    (``set_state``), so a participant's page could set the char-order slider's
    ``max`` to 1e9 and then its value. Here every other key is dropped, a value
    the control does not take (not a finite number, not of its type, an index
    with no choice) is refused, and the browser is sent the kernel's state back;
    a slider clamps the value it takes to its range, which stays the one the
    explorer set.
    """

    _from_browser: tuple[str, ...] = ("value",)

    def set_state(self, sync_data: dict) -> None:
        """Apply a state sent by the browser: its value only, if the control takes it."""
        kept = {k: v for k, v in sync_data.items()
                if k in self._from_browser and not (isinstance(v, float) and not math.isfinite(v))}
        try:
            super().set_state(kept)  # type: ignore[misc]
        except (TraitError, TypeError, ValueError):
            kept = {}
        refused = [k for k in sync_data if k not in kept and k in self.keys]  # type: ignore[attr-defined]
        if refused:
            self.send_state(refused)  # type: ignore[attr-defined]


def _from_the_browser(base: type, keys: tuple[str, ...] = ("value",)) -> type:
    """``base`` (an ipywidgets control) taking only ``keys`` from the browser (:class:`_FromTheBrowser`).

    The class keeps ``base``'s name, so a displayed explorer's text is what it was.

    >>> _IntSlider(value=3, min=0, max=10)
    IntSlider(value=3, max=10)
    """
    make = type(base)  # the widgets' metaclass (traitlets sets up the class's traits)
    return make(base.__name__, (_FromTheBrowser, base),
                {"_from_browser": keys, "__module__": __name__,
                 "__doc__": f"``{base.__name__}`` whose state the browser sets only in {', '.join(keys)}."})


_IntSlider = _from_the_browser(widgets.IntSlider)
_FloatSlider = _from_the_browser(widgets.FloatSlider)
_Checkbox = _from_the_browser(widgets.Checkbox)
_Dropdown = _from_the_browser(widgets.Dropdown, ("index",))  # the options stay the explorer's
_Text = _from_the_browser(widgets.Text)
_Textarea = _from_the_browser(widgets.Textarea)


def _image() -> widgets.Image:
    """A PNG ``Image`` shown at its own size (a box's flex layout would stretch it to the full width)."""
    return widgets.Image(format="png", layout=widgets.Layout(max_width="100%", align_self="flex-start"))


def _show_png(image: widgets.Image, png: bytes) -> None:
    """Put ``png`` in ``image``; hide the image when there is none (a browser draws a broken-image icon)."""
    image.value = png
    image.layout.display = None if png else "none"


#: METEOR explorer: the alignment picture is drawn up to this many words on each side (a note above).
PICTURE_MAX_WORDS = 60


# --------------------------------------------------------------------------- BLEU


class BleuExplorer(_Explorer):
    """BLEU of a candidate against references, recomputed as you type.

    ``candidate``: the candidate text; ``references``: a list of strings or one
    string with one reference per line. The other arguments are :func:`mtlearn.bleu`'s
    (``weights`` a list of numbers, ``None`` for uniform); ``tables_open=False`` starts
    the n-gram tables folded (the workshop's projected page: one explorer a screen).
    Papineni's clipping example:

    >>> x = BleuExplorer("the the the the the the the",
    ...                  ["The cat is on the mat", "There is a cat on the mat"], max_order=1, lowercase=True)
    >>> str(x.result.precision_fractions[0]), x.table_html.value.count('class="mtlearn-clipped"')
    ('2/7', 1)
    >>> x.table_html.value.startswith('<details class="mtlearn-ngram-details" open>')
    True
    >>> x.references_input.value = ""
    >>> x.result is None, x.error
    (True, 'references: give at least one reference, one per line')
    """

    _css_class = "mtlearn-bleu-explorer"

    def __init__(
        self,
        candidate: str = "",
        references: Union[str, Sequence[str]] = (),
        *,
        max_order: int = 4,
        smoothing: str = "none",
        tokenize: str = "whitespace",
        lowercase: bool = False,
        effective_order: bool = False,
        weights: Optional[Sequence[float]] = None,
        tables_open: bool = True,
    ) -> None:
        super().__init__()
        candidate = _check_text(candidate, "candidate")
        refs_text = _references_text(references)
        if not isinstance(tables_open, bool):
            raise TypeError(f"tables_open: expected True or False, got {type(tables_open).__name__}")
        self.tables_open = tables_open  # False: the n-gram tables start folded (a projected page stays short)
        # Same checks (and messages) as the metric itself; a weights warning shows in the widget.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bleu("x", ["x"], max_order=max_order, smoothing=smoothing, tokenize=tokenize,
                 lowercase=lowercase, effective_order=effective_order, weights=weights)
        self.candidate_input = _textarea(candidate, "Candidate", "the candidate translation",
                                         "mtlearn-candidate", 2)
        self.references_input = _textarea(refs_text, "References", "one reference per line",
                                          "mtlearn-references", 3)
        self.max_order_input = _control(
            _IntSlider(value=max_order, min=1, max=max(6, max_order), description="Max order",
                              continuous_update=True), "mtlearn-max-order")
        self.smoothing_input = _control(
            _Dropdown(options=list(SMOOTHING_METHODS), value=smoothing, description="Smoothing"),
            "mtlearn-smoothing")
        self.tokenize_input = _control(
            _Dropdown(options=list(TOKENIZERS), value=tokenize, description="Tokenizer"),
            "mtlearn-tokenize")
        self.lowercase_input = _control(_Checkbox(value=lowercase, description="Lowercase"),
                                        "mtlearn-lowercase")
        self.effective_order_input = _control(
            _Checkbox(value=effective_order, description="Effective order"), "mtlearn-effective-order")
        self.weights_input = _control(
            _Text(value="" if weights is None else ", ".join(f"{float(w):g}" for w in weights),
                         description="Weights", placeholder="uniform; or e.g. 1/2, 1/4, 1/8, 1/16"),
            "mtlearn-weights")
        self.table_html = self._tagged(widgets.HTML(), "mtlearn-ngram-table")
        self._inputs = {
            "candidate": self.candidate_input,
            "references": self.references_input,
            "max_order": self.max_order_input,
            "smoothing": self.smoothing_input,
            "tokenize": self.tokenize_input,
            "lowercase": self.lowercase_input,
            "effective_order": self.effective_order_input,
            "weights": self.weights_input,
        }
        self.result: Optional[BleuResult] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox([self.max_order_input, self.smoothing_input, self.tokenize_input]),
            widgets.HBox([self.lowercase_input, self.effective_order_input, self.weights_input]),
            self.message_html,
            self.score_html,
            self.summary_html,
            self.table_html,
        ]
        self._watch()
        self.refresh()

    def set_inputs(self, **values: Any) -> None:  # noqa: D102 - documented in the base class
        if "weights" in values and not isinstance(values["weights"], str):
            w = values["weights"]
            values["weights"] = "" if w is None else ", ".join(f"{float(x):g}" for x in w)
        super().set_inputs(**values)

    def _compute(self) -> BleuResult:
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        return bleu(
            self.candidate_input.value, refs,
            max_order=self.max_order_input.value,
            weights=parse_weights(_bounded_weights_text(self.weights_input.value)),
            smoothing=self.smoothing_input.value,
            tokenize=self.tokenize_input.value,
            lowercase=self.lowercase_input.value,
            effective_order=self.effective_order_input.value,
        )

    def _clear(self) -> None:
        self.score_html.value = "<b>BLEU = &ndash;</b>"
        self.summary_html.value = ""
        self.table_html.value = ""

    def _render(self) -> None:
        r = self.result
        if r is None:  # pragma: no cover - _compute always returns a result
            self._clear()
            return
        self.score_html.value = (f'<b style="font-size:1.2em">BLEU = '
                                 f'{_num("score", r.score)}</b>')
        self.summary_html.value = self._summary(r)
        self.table_html.value = (f'<details class="mtlearn-ngram-details"{" open" if self.tables_open else ""}>'
                                 f"<summary>n-gram tables: counts, clipping (1..{r.max_order}-grams)</summary>"
                                 f"{self._tables(r)}</details>")

    @staticmethod
    def _summary(r: BleuResult) -> str:
        rows = []
        for n in range(1, r.max_order + 1):
            m, t = r.matches[n - 1], r.totals[n - 1]
            frac = r.precision_fractions[n - 1]
            p = r.precisions[n - 1]
            smoothed = "" if math.isclose(p, float(frac), rel_tol=0, abs_tol=1e-15) else " (smoothed)"
            w = r.effective_weights[n - 1]
            wl = r.weighted_log_precisions[n - 1]
            rows.append(
                f"<tr><td>{n}</td><td>{_num(f'matches-{n}', m)} / {_num(f'totals-{n}', t)}</td>"
                f"<td>{html.escape(_frac_text(frac))}</td>"
                f"<td>{_num(f'precision-{n}', p)}{smoothed}</td>"
                f"<td>{_num(f'weight-{n}', w)}</td><td>{_fmt(wl)}</td></tr>"
            )
        c, ref_len = r.candidate_length, r.reference_length
        if c >= ref_len:
            bp_rule = f"c = {c} &ge; r = {ref_len}, so BP = 1"
        elif c == 0:
            bp_rule = "c = 0: BP = 0"
        else:
            bp_rule = f"c = {c} &lt; r = {ref_len}: BP = exp(1 - {ref_len}/{c})"
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        return (
            f'<table class="mtlearn-precisions" {style}>'
            "<tr><th>n</th><th>clipped matches / n-grams</th><th>p_n exact</th><th>p_n used</th>"
            "<th>weight w_n</th><th>w_n log p_n</th></tr>"
            + "".join(rows) + "</table>"
            f"<p>candidate length c = {_num('candidate-length', c)}, "
            f"reference length r = {_num('reference-length', ref_len)} (closest), "
            f"c/r = {_num('ratio', r.ratio)}<br>"
            f"brevity penalty BP = {_num('brevity-penalty', r.brevity_penalty)} ({bp_rule})<br>"
            f"geometric mean exp(&Sigma; w_n log p_n) = {_num('geometric-mean', r.geometric_mean)}<br>"
            f"BLEU = BP &times; mean = {_fmt(r.brevity_penalty)} &times; {_fmt(r.geometric_mean)} = "
            f"<b>{_fmt(r.score)}</b></p>"
            f"<p style='color:#666;font-size:0.85em'>{html.escape(r.signature)}</p>"
        )

    @staticmethod
    def _tables(r: BleuResult) -> str:
        nrefs = len(r.reference_tokens or ())
        parts = []
        for n in range(1, r.max_order + 1):
            rows = r.ngram_table(n)
            head = ("<tr><th>n-gram</th><th>candidate</th>"
                    + "".join(f"<th>ref {k + 1}</th>" for k in range(nrefs))
                    + "<th>max ref</th><th>clipped</th></tr>")
            body = []
            for row in rows[:_MAX_ROWS]:
                if row.max_reference_count == 0:
                    css, style, mark = "mtlearn-unmatched", "color:#888", ""
                elif row.clipped_count < row.candidate_count:
                    css, style = "mtlearn-clipped", f"background:{plots.CLIPPED_COLOUR}"
                    mark = f" &#9986; (from {row.candidate_count})"
                else:
                    css, style, mark = "mtlearn-matched", "", ""
                body.append(
                    f'<tr class="{css}" style="{style}"><td>{html.escape(" ".join(row.ngram))}</td>'
                    f"<td>{row.candidate_count}</td>"
                    + "".join(f"<td>{c}</td>" for c in row.reference_counts)
                    + f"<td>{row.max_reference_count}</td><td><b>{row.clipped_count}</b>{mark}</td></tr>"
                )
            if len(rows) > _MAX_ROWS:
                body.append(f"<tr><td colspan='{nrefs + 4}'>&hellip; {len(rows) - _MAX_ROWS} more</td></tr>")
            m, t = r.matches[n - 1], r.totals[n - 1]
            parts.append(
                f'<div style="display:inline-block;vertical-align:top;margin:0 1em 1em 0">'
                f"<b>{n}-grams</b>: p_{n} = {m}/{t}"
                f'<table class="mtlearn-ngrams" data-n="{n}" border="1" cellpadding="3" '
                f'style="border-collapse:collapse">{head}{"".join(body)}</table></div>'
            )
        legend = (f'<p style="font-size:0.85em"><span style="background:{plots.CLIPPED_COLOUR}">'
                  "&#9986; clipped</span>: credited only as often as the reference that has it most; "
                  '<span style="color:#888">grey</span>: in no reference.</p>')
        return legend + "".join(parts)


# --------------------------------------------------------------------------- METEOR


class MeteorExplorer(_Explorer):
    """METEOR of a candidate against references, with the alignment drawn, recomputed live.

    ``candidate``: the candidate text; ``references``: a list of strings or one
    string with one reference per line; ``stages`` a subset of ``exact``, ``stem``,
    ``synonym``; the other arguments are :func:`mtlearn.meteor`'s. The slider values
    are rounded to 6 decimals (so 0.9 means 9/10, whatever the browser sends).
    Above :data:`PICTURE_MAX_WORDS` (60) words on either side (the candidate or the
    best reference, as tokenized) the numbers are shown as ever but the alignment
    picture is not drawn: a note says so (the picture would be unreadable and
    take seconds to draw at each change).

    The digest's row 1, crossing rule then chunk rule:

    >>> x = MeteorExplorer("on the mat sat the cat", ["the cat sat on the mat"], stages=["exact"])
    >>> x.result.score, x.result.crossings, bytes(x.image.value[:4])
    (0.5, 8, b'\\x89PNG')
    >>> x.tie_break_input.value = "chunks"
    >>> x.result.score, x.result.chunks
    (0.9375, 3)
    >>> x.stage_inputs["exact"].value = False
    >>> x.error
    'stages: tick at least one stage (exact, stem, synonym)'
    """

    _css_class = "mtlearn-meteor-explorer"

    def __init__(
        self,
        candidate: str = "",
        references: Union[str, Sequence[str]] = (),
        *,
        stages: Iterable[str] = _STAGES,
        alpha: float = 0.9,
        beta: float = 3.0,
        gamma: float = 0.5,
        tie_break: str = "crossings",
        lowercase: bool = True,
        tokenize: str = "whitespace",
    ) -> None:
        super().__init__()
        candidate = _check_text(candidate, "candidate")
        refs_text = _references_text(references)
        if isinstance(stages, str):
            raise TypeError("stages: expected a list of stage names, e.g. ['exact', 'stem']")
        chosen = list(stages)
        for s in chosen:
            if s not in _STAGES:
                raise ValueError(f"stages: unknown stage {s!r}; the explorer offers {', '.join(_STAGES)}")
        check_parameters(alpha, beta, gamma)
        if beta > 6:
            raise ValueError(f"beta: the explorer's slider goes up to 6, got {beta!r}")
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break: unknown rule {tie_break!r}; choose one of {', '.join(TIE_BREAKS)}")
        if tokenize not in TOKENIZERS:
            raise ValueError(f"tokenize: unknown tokenizer {tokenize!r}; choose one of {', '.join(TOKENIZERS)}")
        if not isinstance(lowercase, bool):
            raise TypeError(f"lowercase: expected True or False, got {type(lowercase).__name__}")
        self.candidate_input = _textarea(candidate, "Candidate", "the candidate translation",
                                         "mtlearn-candidate", 2)
        self.references_input = _textarea(refs_text, "References", "one reference per line",
                                          "mtlearn-references", 3)
        self.stage_inputs: dict[str, widgets.Checkbox] = {
            s: _control(_Checkbox(value=s in chosen, description=s, indent=False,
                                         layout=widgets.Layout(width="auto")), f"mtlearn-stage-{s}")
            for s in _STAGES
        }

        def slider(value: float, top: float, step: float, name: str) -> widgets.FloatSlider:
            return _control(_FloatSlider(value=float(value), min=0.0, max=top, step=step,
                                                description=name, readout_format=".2f",
                                                continuous_update=True), f"mtlearn-{name}")

        self.alpha_input = slider(alpha, 1.0, 0.05, "alpha")
        self.beta_input = slider(beta, 6.0, 0.5, "beta")
        self.gamma_input = slider(gamma, 1.0, 0.05, "gamma")
        self.tie_break_input = _control(
            _Dropdown(options=list(TIE_BREAKS), value=tie_break, description="Tie-break"),
            "mtlearn-tie-break")
        self.lowercase_input = _control(_Checkbox(value=lowercase, description="Lowercase"),
                                        "mtlearn-lowercase")
        self.tokenize_input = _control(
            _Dropdown(options=list(TOKENIZERS), value=tokenize, description="Tokenizer"),
            "mtlearn-tokenize")
        self.image = self._tagged(_image(),
                                  "mtlearn-alignment")
        self.figure: Optional[Any] = None
        self._inputs = {
            "candidate": self.candidate_input,
            "references": self.references_input,
            **{f"stage_{s}": box for s, box in self.stage_inputs.items()},
            "alpha": self.alpha_input,
            "beta": self.beta_input,
            "gamma": self.gamma_input,
            "tie_break": self.tie_break_input,
            "lowercase": self.lowercase_input,
            "tokenize": self.tokenize_input,
        }
        # The stages' languages, said where they are ticked (issue 14: a German pair gets no stem match).
        self.languages_html = self._tagged(widgets.HTML(
            '<span style="color:#555">stem and synonym are English only (the Porter stemmer, WordNet); '
            'in other languages only exact relates words</span>'), "mtlearn-stage-languages")
        self.result: Optional[MeteorResult] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox([widgets.Label("Stages:"), *self.stage_inputs.values(), self.tie_break_input]),
            self.languages_html,
            widgets.HBox([self.alpha_input, self.beta_input, self.gamma_input]),
            widgets.HBox([self.lowercase_input, self.tokenize_input]),
            self.message_html,
            self.score_html,
            self.image,
            self.summary_html,
        ]
        self._watch()
        self.refresh()

    def set_inputs(self, **values: Any) -> None:
        """Set several controls at once, then recompute once.

        Names as in the constructor, ``stages`` a list of stage names (or
        ``stage_exact=True`` etc. for one box).

        >>> x = MeteorExplorer("the cat", ["the cat"], stages=["exact"])
        >>> x.set_inputs(candidate="cat the", tie_break="chunks", beta=1.0)
        >>> x.result.chunks, x.result.beta
        (2, 1.0)
        """
        if "stages" in values:
            chosen = values.pop("stages")
            if isinstance(chosen, str):
                raise TypeError("stages: expected a list of stage names, e.g. ['exact', 'stem']")
            chosen = list(chosen)
            for s in chosen:
                if s not in _STAGES:
                    raise ValueError(f"stages: unknown stage {s!r}; the explorer offers {', '.join(_STAGES)}")
            for s in _STAGES:
                values[f"stage_{s}"] = s in chosen
        super().set_inputs(**values)

    def _stages(self) -> list[str]:
        return [s for s, box in self.stage_inputs.items() if box.value]

    def _compute(self) -> MeteorResult:
        from mtlearn.metrics.meteor.wordnet import WordNetMissingError

        stages = self._stages()
        if not stages:
            raise ValueError(f"stages: tick at least one stage ({', '.join(_STAGES)})")
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        options = dict(
            alpha=round(float(self.alpha_input.value), 6),
            beta=round(float(self.beta_input.value), 6),
            gamma=round(float(self.gamma_input.value), 6),
            tie_break=self.tie_break_input.value,
            lowercase=self.lowercase_input.value,
            tokenize=self.tokenize_input.value,
        )
        try:
            return meteor(self.candidate_input.value, refs, stages=stages, **options)
        except WordNetMissingError as error:
            rest = [s for s in stages if s != "synonym"]
            if "synonym" not in stages or not rest:
                raise
            first = str(error).splitlines()[0]
            self.notes.append(
                f"The synonym stage needs WordNet, which NLTK cannot find ({first}); the numbers below "
                f"use only {' + '.join(rest)}. Run: python -m mtlearn.metrics.meteor.wordnet"
            )
            return meteor(self.candidate_input.value, refs, stages=rest, **options)

    def _clear(self) -> None:
        self.score_html.value = "<b>METEOR = &ndash;</b>"
        self.summary_html.value = ""
        _show_png(self.image, b"")
        self.figure = None

    def _render(self) -> None:
        r = self.result
        if r is None:  # pragma: no cover - _compute always returns a result
            self._clear()
            return
        # The numbers first: the browser shows them while the picture is drawn.
        self.score_html.value = f'<b style="font-size:1.2em">METEOR = {_num("score", r.score)}</b>'
        self.summary_html.value = self._summary(r)
        if self._too_long_to_draw(max(r.candidate_length, r.reference_length), PICTURE_MAX_WORDS, "alignment"):
            return
        label = (f"reference {r.best_reference + 1} of {len(r.per_reference)} (best)"
                 if len(r.per_reference) > 1 and r.best_reference is not None else None)
        self._picture(lambda: plots.plot_alignment(r, title=label))

    @staticmethod
    def _summary(r: MeteorResult) -> str:
        stages = ", ".join(
            f"{html.escape(name)}: {_num(f'matches-{name}', count)}" for name, count in r.matches_per_stage.items()
        )
        pen_text = (_frac_text(r.penalty) if isinstance(r.penalty, Fraction) else _fmt(r.penalty))
        rows = [
            ("matches m (= u_m)", _num("matches", r.matches) + f" &nbsp;({stages})"),
            ("candidate length w_t", _num("candidate-length", r.candidate_length)),
            ("reference length w_r", _num("reference-length", r.reference_length)),
            ("P = m / w_t", _num("precision", r.precision, _frac_text(r.precision))),
            ("R = m / w_r", _num("recall", r.recall, _frac_text(r.recall))),
            (f"F_mean = P R / ({r.alpha:g} P + {1 - r.alpha:g} R)",
             _num("f-mean", r.f_mean, _frac_text(r.f_mean))),
            ("crossings", _num("crossings", r.crossings)),
            ("chunks c", _num("chunks", r.chunks)),
            ("fragmentation c / u_m", _num("fragmentation", r.fragmentation, _frac_text(r.fragmentation))),
            (f"penalty = {r.gamma:g} (c / u_m)^{r.beta:g}", _num("penalty", r.penalty, pen_text)),
            ("score = F_mean (1 - penalty)", "<b>" + _num("score", r.score) + "</b>"),
        ]
        if len(r.per_reference) > 1:
            scores = ", ".join(
                f"{k + 1}: {_num(f'reference-score-{k + 1}', x.score)}" for k, x in enumerate(r.per_reference)
            )
            best = (r.best_reference or 0) + 1
            rows.append(("score against each reference", f"{scores}; best: {_num('best-reference', best)}"))
        if not r.optimal:
            rows.append(("search", html.escape(search_note(r))))
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        body = "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>"
                       for k, v in rows)
        return (f'<table class="mtlearn-meteor-numbers" {style}>{body}</table>'
                f"<p style='color:#666;font-size:0.85em'>{html.escape(r.signature)}</p>")


# --------------------------------------------------------------------------- chrF


def _order_name(order: Any) -> str:
    """``c3`` for character 3-grams, ``w1`` for word unigrams (the names in the HTML)."""
    return f"{'c' if order.kind == 'char' else 'w'}{order.n}"


class ChrfExplorer(_Explorer):
    """chrF / chrF++ of a candidate against references, recomputed as you type.

    ``candidate``: the candidate text; ``references``: a list of strings or one
    string with one reference per line; the other arguments are :func:`mtlearn.chrf`'s
    (``word_order=2`` is chrF++). Shows the score, every order's counts, precision,
    recall and F_beta (exact fractions), the averages, which reference was kept and
    why, and :func:`mtlearn.show.plots.plot_chrf_orders`. The beta slider's value is
    rounded to 6 decimals.

    >>> x = ChrfExplorer("the cats sat", ["the cat sat"], char_order=2)
    >>> [str(o.recall) for o in x.result.orders], x.error
    (['1', '1'], None)
    >>> x.word_order_input.value = 2
    >>> [o.kind for o in x.result.orders]
    ['char', 'char', 'word', 'word']
    >>> x.beta_input.value = 0
    >>> x.error.split(":")[0]
    'beta'
    """

    _css_class = "mtlearn-chrf-explorer"

    def __init__(
        self,
        candidate: str = "",
        references: Union[str, Sequence[str]] = (),
        *,
        char_order: int = 6,
        word_order: int = 0,
        beta: float = 2.0,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ) -> None:
        super().__init__()
        candidate = _check_text(candidate, "candidate")
        refs_text = _references_text(references)
        options = dict(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                       whitespace=whitespace, eps_smoothing=eps_smoothing)
        chrf("x", ["x"], **options)  # the metric's own checks and messages
        for name, value, top in (("char_order", char_order, 10), ("word_order", word_order, 4)):
            if value > top:
                raise ValueError(f"{name}: the explorer's slider goes up to {top}, got {value!r}")
        if beta > 6:
            raise ValueError(f"beta: the explorer's slider goes up to 6, got {beta!r}")
        self.candidate_input = _textarea(candidate, "Candidate", "the candidate translation",
                                         "mtlearn-candidate", 2)
        self.references_input = _textarea(refs_text, "References", "one reference per line",
                                          "mtlearn-references", 3)
        self.char_order_input = _control(
            _IntSlider(value=char_order, min=0, max=10, description="Char order"), "mtlearn-char-order")
        self.word_order_input = _control(
            _IntSlider(value=word_order, min=0, max=4, description="Word order"), "mtlearn-word-order")
        self.beta_input = _control(
            _FloatSlider(value=float(beta), min=0.0, max=6.0, step=0.5, description="beta",
                                readout_format=".1f"), "mtlearn-chrf-beta")
        self.lowercase_input = _control(_Checkbox(value=lowercase, description="Lowercase"),
                                        "mtlearn-lowercase")
        self.whitespace_input = _control(_Checkbox(value=whitespace, description="Whitespace"),
                                         "mtlearn-whitespace")
        self.eps_smoothing_input = _control(_Checkbox(value=eps_smoothing, description="Eps smoothing"),
                                            "mtlearn-eps-smoothing")
        self.table_html = self._tagged(widgets.HTML(), "mtlearn-order-table")
        self.image = self._tagged(_image(), "mtlearn-chrf-plot")
        self.figure: Optional[Any] = None
        self._inputs = {
            "candidate": self.candidate_input,
            "references": self.references_input,
            "char_order": self.char_order_input,
            "word_order": self.word_order_input,
            "beta": self.beta_input,
            "lowercase": self.lowercase_input,
            "whitespace": self.whitespace_input,
            "eps_smoothing": self.eps_smoothing_input,
        }
        self.result: Optional[ChrfResult] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox([self.char_order_input, self.word_order_input, self.beta_input]),
            widgets.HBox([self.lowercase_input, self.whitespace_input, self.eps_smoothing_input]),
            self.message_html,
            self.score_html,
            self.summary_html,
            self.table_html,
            self.image,
        ]
        self._watch()
        self.refresh()

    def _compute(self) -> ChrfResult:
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        return chrf(
            self.candidate_input.value, refs,
            char_order=self.char_order_input.value,
            word_order=self.word_order_input.value,
            beta=round(float(self.beta_input.value), 6),
            lowercase=self.lowercase_input.value,
            whitespace=self.whitespace_input.value,
            eps_smoothing=self.eps_smoothing_input.value,
        )

    def _clear(self) -> None:
        self.score_html.value = "<b>chrF = &ndash;</b>"
        self.summary_html.value = ""
        self.table_html.value = ""
        _show_png(self.image, b"")
        self.figure = None

    def _render(self) -> None:
        r = self.result
        if r is None:  # pragma: no cover - _compute always returns a result
            self._clear()
            return
        name = f"chrF{r.beta:g}" + "+" * r.word_order
        self.score_html.value = f'<b style="font-size:1.2em">{html.escape(name)} = {_num("score", r.score)}</b>'
        self.summary_html.value = self._summary(r)
        self.table_html.value = self._table(r)
        self._picture(lambda: plots.plot_chrf_orders(r))

    @staticmethod
    def _summary(r: ChrfResult) -> str:
        used = sum(1 for o in r.orders if o.used)
        b2 = f"{r.beta:g}&sup2;"
        rows = [
            (f"averaged precision P (over {used} of {len(r.orders)} orders with n-grams on both sides)",
             _num("precision", r.precision)),
            ("averaged recall R", _num("recall", r.recall)),
            (f"F_beta = (1 + {b2}) P R / ({b2} P + R)" if not r.eps_smoothing
             else "F_beta = mean of the orders' F_beta (eps smoothing)", _num("f-beta", r.f_beta)),
        ]
        refs = r.references or ()
        if len(refs) > 1 and r.best_reference is not None:
            scores = ", ".join(f"{k + 1}: {_num(f'reference-score-{k + 1}', x)}"
                               for k, x in enumerate(r.reference_scores))
            rows.append(("score against each reference", scores))
            why = (f" &nbsp;<i>{html.escape(r.reference_choice)}</i> (the library numbers references from 0)"
                   if r.reference_choice else "")
            rows.append(("reference kept", f"{_num('best-reference', r.best_reference + 1)} of {len(refs)}{why}"))
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        body = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
        return (f'<table class="mtlearn-chrf-numbers" {style}>{body}</table>'
                f"<p style='color:#666;font-size:0.85em'>{html.escape(r.signature)}</p>")

    @staticmethod
    def _table(r: ChrfResult) -> str:
        head = ("<tr><th>order</th><th>candidate n-grams</th><th>reference n-grams</th><th>matched</th>"
                "<th>precision</th><th>recall</th><th>F_beta</th></tr>")
        body = []
        for o in r.orders:
            k = _order_name(o)
            used = o.used
            kind = "character" if o.kind == "char" else "word"
            row = '<tr class="mtlearn-order">' if used else '<tr class="mtlearn-unused-order" style="color:#888">'
            body.append(
                f"{row}<td>{kind} {o.n}-grams</td>"
                f"<td>{_num(f'candidate-count-{k}', o.candidate_count)}</td>"
                f"<td>{_num(f'reference-count-{k}', o.reference_count)}</td>"
                f"<td>{_num(f'matched-{k}', o.matched)}</td>"
                f"<td>{_num(f'precision-{k}', o.precision, _frac_text(o.precision))}</td>"
                f"<td>{_num(f'recall-{k}', o.recall, _frac_text(o.recall))}</td>"
                f"<td>{_num(f'f-{k}', o.f)}</td></tr>")
        note = ('<p style="font-size:0.85em"><span style="color:#888">grey</span>: the candidate or the '
                "reference has no n-grams of this order; it does not enter the averages.</p>")
        return (f'<table class="mtlearn-chrf-orders" border="1" cellpadding="3" '
                f'style="border-collapse:collapse">{head}{"".join(body)}</table>{note}')


# --------------------------------------------------------------------------- TER

_TER_OPTIONS = ("normalized", "no_punct", "asian_support", "case_sensitive")
_TER_LABELS = {"normalized": "Normalized", "no_punct": "No punctuation", "asian_support": "Asian support",
               "case_sensitive": "Case sensitive"}
_OP_NAMES = {"match": "match", "substitute": "substitution", "insert": "insertion", "delete": "deletion"}



class TerExplorer(_Explorer):
    """TER of a candidate against references, with the edit script drawn, recomputed live.

    ``candidate``: the candidate text; ``references``: a list of strings or one
    string with one reference per line; the four options are :func:`mtlearn.ter`'s.
    Shows the score (edits / reference length), the counts, every shift (round,
    words, from, to, edits saved, why), the edit script on the shifted candidate and
    :func:`mtlearn.show.plots.plot_ter_edits`. Above
    :data:`mtlearn.show.plots.TER_PICTURE_MAX_WORDS` (60) words on a side the picture
    is not drawn and a note says so, as in the METEOR explorer.

    >>> x = TerExplorer("on the mat the cat sat", ["the cat sat on the mat"])
    >>> x.result.num_edits, [s.words for s in x.result.shifts], bytes(x.image.value[:4])
    (1, [('on', 'the', 'mat')], b'\\x89PNG')
    >>> x.candidate_input.value = ""
    >>> x.result.score, x.notes
    (1.0, ['the candidate is empty: every word of the best reference is an insertion'])
    >>> x.references_input.value = ""
    >>> x.error
    'references: give at least one reference, one per line'
    """

    _css_class = "mtlearn-ter-explorer"

    def __init__(
        self,
        candidate: str = "",
        references: Union[str, Sequence[str]] = (),
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        super().__init__()
        candidate = _check_text(candidate, "candidate")
        refs_text = _references_text(references)
        options = dict(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                       case_sensitive=case_sensitive)
        ter("x", ["x"], **options)  # the metric's own checks and messages
        self.candidate_input = _textarea(candidate, "Candidate", "the candidate translation",
                                         "mtlearn-candidate", 2)
        self.references_input = _textarea(refs_text, "References", "one reference per line",
                                          "mtlearn-references", 3)
        self.option_inputs: dict[str, widgets.Checkbox] = {
            name: _control(_Checkbox(value=value, description=_TER_LABELS[name], indent=False,
                                            layout=widgets.Layout(width="auto")),
                           "mtlearn-" + name.replace("_", "-"))
            for name, value in options.items()
        }
        self.shifts_html = self._tagged(widgets.HTML(), "mtlearn-shifts")
        self.edits_html = self._tagged(widgets.HTML(), "mtlearn-edits")
        self.image = self._tagged(_image(), "mtlearn-edit-picture")
        self.figure: Optional[Any] = None
        self._inputs = {"candidate": self.candidate_input, "references": self.references_input,
                        **self.option_inputs}
        self.result: Optional[TerResult] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox(list(self.option_inputs.values())),
            self.message_html,
            self.score_html,
            self.summary_html,
            self.image,
            self.shifts_html,
            self.edits_html,
        ]
        self._watch()
        self.refresh()

    def _compute(self) -> TerResult:
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        return ter(self.candidate_input.value, refs, **{k: box.value for k, box in self.option_inputs.items()})

    def _clear(self) -> None:
        self.score_html.value = "<b>TER = &ndash;</b>"
        for box in (self.summary_html, self.shifts_html, self.edits_html):
            box.value = ""
        _show_png(self.image, b"")
        self.figure = None

    def _render(self) -> None:
        r = self.result
        if r is None:  # pragma: no cover - _compute always returns a result
            self._clear()
            return
        self.score_html.value = f'<b style="font-size:1.2em">TER = {_num("score", r.score)}</b>'
        self.summary_html.value = self._summary(r)
        self.shifts_html.value = self._shifts(r)
        self.edits_html.value = self._edits(r)
        longest = max(len(r.candidate_tokens or ()), len(r.shifted_tokens or ()), len(r.reference_tokens or ()))
        if not self._too_long_to_draw(longest, plots.TER_PICTURE_MAX_WORDS, "edit"):
            self._picture(lambda: plots.plot_ter_edits(r))

    @staticmethod
    def _summary(r: TerResult) -> str:
        counts = r.counts()
        exact = r.score_fraction
        rows = [
            ("shifts (a block of words moved, 1 edit each)", _num("shifts", counts["shift"])),
            ("substitutions", _num("substitutions", counts["substitute"])),
            ("insertions (reference words the candidate lacks)", _num("insertions", counts["insert"])),
            ("deletions (candidate words the reference lacks)", _num("deletions", counts["delete"])),
            ("matches (free)", _num("matches", counts["match"])),
            ("edits = shifts + substitutions + insertions + deletions", _num("edits", r.num_edits)),
            ("reference length (average over the references)", _num("reference-length", r.reference_length,
                                                                     f"{r.reference_length:g}")),
            ("TER = edits / reference length",
             "<b>" + _num("score", r.score, f"{exact} = {r.score:.4f}" if exact.denominator != 1 else None)
             + "</b>"),
        ]
        if len(r.all_reference_tokens) > 1 and r.best_reference is not None:
            each = ", ".join(f"{k + 1}: {_num(f'reference-edits-{k + 1}', e)}" for k, e in enumerate(r.reference_edits))
            rows.append(("edits against each reference", each))
            rows.append(("reference whose edits count (fewest)",
                         f"{_num('best-reference', r.best_reference + 1)} of {len(r.all_reference_tokens)}"))
        if r.stopped:
            rows.append(("shift search stopped", html.escape(r.stopped)))
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        body = "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in rows)
        return (f'<table class="mtlearn-ter-numbers" {style}>{body}</table>'
                f"<p style='color:#666;font-size:0.85em'>{html.escape(r.signature)}</p>")

    @staticmethod
    def _shifts(r: TerResult) -> str:
        if not r.shifts:
            return "<p><b>Shifts</b>: none (no move of a block of words saves an edit)</p>"
        head = ("<tr><th>round</th><th>words</th><th>from</th><th>length</th><th>to</th>"
                "<th>edits saved</th><th>why</th></tr>")
        body = "".join(
            f'<tr class="mtlearn-shift"><td>{s.round}</td><td>{html.escape(" ".join(s.words))}</td>'
            f"<td>{s.start}</td><td>{s.length}</td><td>{s.destination}</td>"
            f"<td>{_num(f'shift-gain-{s.round}', s.gain)}</td><td>{html.escape(s.reason)}</td></tr>"
            for s in r.shifts)
        return (f"<p><b>Shifts</b>, one per round, each on the candidate as the earlier rounds left it "
                f"(positions count words from 0):</p>"
                f'<table class="mtlearn-shift-table" border="1" cellpadding="3" '
                f'style="border-collapse:collapse">{head}{body}</table>')

    @staticmethod
    def _edits(r: TerResult) -> str:
        head = "<tr><th>operation</th><th>shifted candidate</th><th>reference</th></tr>"
        body = []
        for e in r.edits:
            cand = "" if e.candidate_word is None else f"{html.escape(e.candidate_word)} ({e.candidate_index})"
            ref = "" if e.reference_word is None else f"{html.escape(e.reference_word)} ({e.reference_index})"
            colour = plots.TER_COLOURS[e.op]
            body.append(f'<tr class="mtlearn-edit-{e.op}"><td style="color:{colour}">{_OP_NAMES[e.op]}</td>'
                        f"<td>{cand}</td><td>{ref}</td></tr>")
        return ("<p><b>Edit script</b> on the shifted candidate (word positions in brackets):</p>"
                f'<table class="mtlearn-edit-script" border="1" cellpadding="3" '
                f'style="border-collapse:collapse">{head}{"".join(body)}</table>')


# --------------------------------------------------------------------------- agreement with people


class AgreementExplorer(_Explorer):
    """Two MT systems of a WMT22 pair: who is ahead for the humans, for BLEU, for METEOR.

    ``pair``: one of :func:`mtlearn.study.agreement.pairs`; ``system_1``, ``system_2``: two
    of its MT systems with a human score (default: the two the humans rank highest).
    Choosing another pair offers that pair's systems and starts from its humans' top
    two. Everything shown comes from the shipped tables
    (:func:`mtlearn.study.agreement.compare_systems`); the picture is
    :func:`mtlearn.show.plots.plot_agreement_grid` for the pair with the two systems ringed.
    ``leave_out`` (a third system, or ``None``) is left out of the picture, and a table shows
    how each metric's system-level r and rho move without it
    (:func:`mtlearn.study.agreement.correlate_systems`; WMT's COMET against its one reference).

    >>> x = AgreementExplorer("ja-en", "NAIST-NICT-TIT", "LanguageX")
    >>> x.result.winner(), x.result.winner("bleu"), bytes(x.image.value[:4])
    ('LanguageX', 'NAIST-NICT-TIT', b'\\x89PNG')
    >>> x.pair_input.value = "de-en"
    >>> x.system_1_input.value, x.system_2_input.value
    ('Lan-Bridge', 'Online-W')
    >>> x.system_2_input.value = "Lan-Bridge"
    >>> x.error
    "system_2: 'Lan-Bridge' is system_1 too; choose two different systems"
    >>> x = AgreementExplorer("ja-en", leave_out="AIST")
    >>> x.moves["bleu"][0] > x.moves["bleu"][1]  # BLEU's r without AIST is lower
    True
    """

    _css_class = "mtlearn-agreement-explorer"
    _NOBODY = "(nobody)"

    def __init__(self, pair: str = "de-en", system_1: Optional[str] = None, system_2: Optional[str] = None, *,
                 leave_out: Optional[str] = None, tables: Optional[AgreementTables] = None) -> None:
        super().__init__()
        self.tables = tables if tables is not None else load_agreement()
        pair = check_pair(pair, self.tables)
        top = self._top_two(pair)
        first = check_system(system_1, pair, self.tables, "system_1") if system_1 is not None else top[0]
        second = check_system(system_2, pair, self.tables, "system_2") if system_2 is not None else top[1]
        if first == second:
            raise ValueError(f"system_2: {second!r} is system_1 too; choose two different systems")
        names = self._names(pair)
        self.pair_input = _control(_Dropdown(options=list(self.tables.pairs), value=pair,
                                                    description="Pair"), "mtlearn-pair")
        self.system_1_input = _control(_Dropdown(options=names, value=first, description="System 1"),
                                       "mtlearn-system-1")
        self.system_2_input = _control(_Dropdown(options=names, value=second, description="System 2"),
                                       "mtlearn-system-2")
        out = check_system(leave_out, pair, self.tables, "leave_out") if leave_out is not None else self._NOBODY
        self.leave_out_input = _control(_Dropdown(options=[self._NOBODY, *names], value=out,
                                                         description="Leave out"), "mtlearn-leave-out")
        self.moves_html = self._tagged(widgets.HTML(), "mtlearn-agreement-moves")
        #: metric -> (r with every system, r without the left-out one, rho with, rho without); {} if nobody
        self.moves: dict[str, tuple[float, float, float, float]] = {}
        self.image = self._tagged(_image(),
                                  "mtlearn-agreement-plot")
        self.figure: Optional[Any] = None
        self._inputs = {"pair": self.pair_input, "system_1": self.system_1_input, "system_2": self.system_2_input,
                        "leave_out": self.leave_out_input}
        self.result: Optional[PairwiseComparison] = None
        self.children = [
            widgets.HBox([self.pair_input, self.system_1_input, self.system_2_input, self.leave_out_input]),
            self.message_html,
            self.score_html,
            self.summary_html,
            self.moves_html,
            self.image,
        ]
        self._watch()
        self.refresh()

    def _names(self, pair: str) -> list[str]:
        return [s.system for s in system_scores(pair, scored_only=True, tables=self.tables)]

    def _top_two(self, pair: str) -> list[str]:
        return list(ranking(pair, "human", tables=self.tables)[:2])

    def _watch(self) -> None:
        # A new pair first swaps the systems on offer, then recomputes once.
        self.pair_input.observe(self._on_pair, names="value")
        self.system_1_input.observe(self._on_change, names="value")
        self.system_2_input.observe(self._on_change, names="value")
        self.leave_out_input.observe(self._on_change, names="value")

    def _on_pair(self, _change: Any = None) -> None:  # ipywidgets passes the change; unread
        pair = self.pair_input.value
        quiet, self._quiet = self._quiet, True  # the dropdowns' own events must not recompute
        try:
            names = self._names(pair)
            first, second = self._top_two(pair)
            for box, value in ((self.system_1_input, first), (self.system_2_input, second)):
                box.options = names
                box.value = value
            self.leave_out_input.options = [self._NOBODY, *names]
            self.leave_out_input.value = self._NOBODY
        finally:
            self._quiet = quiet
        if not self._quiet:
            self.refresh()

    def set_inputs(self, **values: Any) -> None:
        """Set the pair and/or the systems, then recompute once (the pair is applied first).

        >>> x = AgreementExplorer()
        >>> x.set_inputs(system_2="LanguageX", pair="ja-en", system_1="NAIST-NICT-TIT")
        >>> x.result.pair, x.result.winner()
        ('ja-en', 'LanguageX')
        """
        if values.get("leave_out", "") is None:
            values["leave_out"] = self._NOBODY
        ordered = {k: values[k] for k in ("pair", "system_1", "system_2", "leave_out") if k in values}
        ordered.update(values)  # unknown names keep their place, for the base class's error
        super().set_inputs(**ordered)

    def _left_out(self) -> list[str]:
        name = self.leave_out_input.value
        return [] if name == self._NOBODY else [name]

    def _compute(self) -> PairwiseComparison:
        pair, first, second = self.pair_input.value, self.system_1_input.value, self.system_2_input.value
        result = compare_systems(pair, first, second, tables=self.tables)
        left_out = self._left_out()
        if left_out and left_out[0] in (first, second):
            raise ValueError(f"leave_out: {left_out[0]!r} is one of the two systems compared; choose another")
        self.moves = {}
        for m in METRICS if left_out else ():
            ref = default_reference(pair, m, tables=self.tables)
            r, rho = (system_correlation(pair, m, stat, reference=ref, tables=self.tables).value
                      for stat in ("pearson", "spearman"))
            r_out, rho_out = (correlate_systems(pair, m, statistic=stat, exclude=left_out, reference=ref,
                                                tables=self.tables) for stat in ("pearson", "spearman"))
            self.moves[m] = (r, r_out, rho, rho_out)
        return result

    def _clear(self) -> None:
        self.score_html.value = "<b>orders them as the humans do: &ndash;</b>"
        self.summary_html.value = ""
        self.moves_html.value = ""

    def _render(self) -> None:
        c = self.result
        if c is None:  # pragma: no cover - _compute always returns a result
            self._clear()
            return
        first, second = self.system_1_input.value, self.system_2_input.value
        self.score_html.value = (
            f'<b style="font-size:1.2em">orders them as the humans do: <span class="mtlearn-num" '
            f'data-name="agreeing" data-value="{c.agreeing}">{c.agreeing}</span></b>')
        self.summary_html.value = self._summary(c, first, second)
        self.moves_html.value = self._moves_table(c.pair)
        self.figure = plots.plot_agreement_grid([c.pair], highlight=[first, second], exclude=self._left_out(),
                                                tables=self.tables)
        _show_png(self.image, plots.figure_to_png(self.figure, dpi=80))

    @staticmethod
    def _summary(c: PairwiseComparison, first: str, second: str) -> str:
        swap = first != c.system_a  # the table stores the humans' winner first

        def ordered(a: float, b: float) -> tuple[float, float]:
            return (b, a) if swap else (a, b)

        def yes(flag: bool) -> str:
            return "yes" if flag else "no"

        h1, h2 = ordered(c.human_z_a, c.human_z_b)
        rows = [("humans (DA z)", _num("human-1", h1), _num("human-2", h2), html.escape(c.system_a),
                 _num("human-p", c.human_p, p_value_text(c.human_p)) + " (Wilcoxon rank-sum)",
                 yes(c.human_significant), "")]
        for m in SIGNIFICANCE_METRICS:
            d = c.metric(m)
            v1, v2 = ordered(d.a, d.b)
            ahead = c.winner(m)
            rows.append((f"{METRIC_NAMES[m]} (corpus)", _num(f"{m}-1", v1), _num(f"{m}-2", v2),
                         html.escape(ahead) if ahead else "tie",
                         _num(f"{m}-p", d.p_value, p_value_text(d.p_value)) + " (paired bootstrap)",
                         yes(d.significant), "&ndash;" if d.agrees is None else yes(d.agrees)))
        head = (f"<tr><th></th><th>{html.escape(first)}</th><th>{html.escape(second)}</th><th>ahead</th>"
                "<th>test</th><th>significant (5% level)</th><th>as the humans</th></tr>")
        body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        return f'<table class="mtlearn-agreement-numbers" {style}>{head}{body}</table>'

    def _moves_table(self, pair: str) -> str:
        """How each metric's r and rho move without the left-out system ("" when nobody is left out)."""
        if not self.moves:
            return ""
        name = html.escape(self.leave_out_input.value)
        head = (f"<tr><th>system level</th><th>r, all</th><th>r without {name}</th>"
                f"<th>&rho;, all</th><th>&rho; without {name}</th></tr>")
        rows = []
        for m, values in self.moves.items():
            ref = default_reference(pair, m, tables=self.tables)
            label = METRIC_NAMES[m] + ("" if ref == "all" else f" (ref {ref})")
            cells = "".join(f"<td>{_num(f'{m}-{k}', v, f'{v:.3f}')}</td>"
                            for k, v in zip(("r", "r-without", "rho", "rho-without"), values))
            rows.append(f"<tr><td>{html.escape(label)}</td>{cells}</tr>")
        style = 'style="border-collapse:collapse" border="1" cellpadding="3"'
        return f'<table class="mtlearn-agreement-moves" {style}>{head}{"".join(rows)}</table>'


# --------------------------------------------------------------------------- why libraries disagree


class ImplementationExplorer(_Explorer):
    """Two implementations of BLEU or METEOR on one candidate: their scores, and where they part.

    ``metric``: ``"bleu"`` or ``"meteor"``; ``profile_a``, ``profile_b``: two of its
    profiles (:func:`mtlearn.compare_implementations`; default sacreBLEU's and NLTK's
    sentence BLEU, or Banerjee & Lavie's and NLTK's METEOR); ``tokenize``: one tokenizer
    for both (``None``: each library's own). The table walks from A to B one pipeline
    step at a time; the contributions add up exactly to the difference. Choosing the
    other metric offers its profiles and starts from its default pair.

    Document 002's example A, where only smoothing parts NLTK from KerasNLP:

    >>> x = ImplementationExplorer("A B B C D", ["A B C D E F"], profile_a="nltk-sentence",
    ...                            profile_b="keras-nlp-smooth")
    >>> x.divergence.first_divergence, round(float(x.divergence.difference), 4)
    ('precisions/smoothing', 0.4727)
    >>> x.walk_html.value.count('class="mtlearn-step"')
    7
    >>> x.profile_b_input.value = "nltk-sentence"
    >>> x.error
    "profile_b: 'nltk-sentence' is profile_a too; choose two different profiles"
    """

    _css_class = "mtlearn-implementation-explorer"
    _OWN = "each library's own"
    _DEFAULTS = {"bleu": ("sacrebleu-sentence", "nltk-sentence"), "meteor": ("banerjee-lavie-2005", "nltk")}

    def __init__(self, candidate: str = "", references: Union[str, Sequence[str]] = (), *, metric: str = "bleu",
                 profile_a: Optional[str] = None, profile_b: Optional[str] = None,
                 tokenize: Optional[str] = None) -> None:
        super().__init__()
        candidate = _check_text(candidate, "candidate")
        refs_text = _references_text(references)
        metric = check_choice(metric, WHY_METRICS, "metric")
        names = self._names(metric)
        first, second = self._DEFAULTS[metric]
        first = check_choice(profile_a, names, "profile_a") if profile_a is not None else first
        second = check_choice(profile_b, names, "profile_b") if profile_b is not None else second
        tokenizers = self._tokenizers(metric)
        tokenize = check_choice(tokenize, tokenizers[1:], "tokenize") if tokenize is not None else self._OWN
        self.candidate_input = _textarea(candidate, "Candidate", "the candidate translation", "mtlearn-candidate", 2)
        self.references_input = _textarea(refs_text, "References", "one reference per line", "mtlearn-references", 3)
        self.metric_input = _control(_Dropdown(options=list(WHY_METRICS), value=metric, description="Metric"),
                                     "mtlearn-metric")
        self.profile_a_input = _control(_Dropdown(options=names, value=first, description="Profile A"),
                                        "mtlearn-profile-a")
        self.profile_b_input = _control(_Dropdown(options=names, value=second, description="Profile B"),
                                        "mtlearn-profile-b")
        self.tokenize_input = _control(_Dropdown(options=tokenizers, value=tokenize, description="Tokenizer",
                                                        style={"description_width": "initial"}), "mtlearn-tokenize")
        self.walk_html = self._tagged(widgets.HTML(), "mtlearn-walk")
        self._inputs = {"candidate": self.candidate_input, "references": self.references_input,
                        "metric": self.metric_input, "profile_a": self.profile_a_input,
                        "profile_b": self.profile_b_input, "tokenize": self.tokenize_input}
        self.result: Optional[ImplementationComparison] = None
        self.children = [
            self.candidate_input,
            self.references_input,
            widgets.HBox([self.metric_input, self.profile_a_input, self.profile_b_input, self.tokenize_input]),
            self.message_html,
            self.score_html,
            self.summary_html,
            self.walk_html,
        ]
        self._watch()
        self.refresh()

    @staticmethod
    def _names(metric: str) -> list[str]:
        return list((BLEU_PROFILES if metric == "bleu" else METEOR_PROFILES).keys())

    @classmethod
    def _tokenizers(cls, metric: str) -> list[str]:
        return [cls._OWN, *(PROFILE_TOKENIZERS if metric == "bleu" else TOKENIZERS)]

    @property
    def divergence(self) -> Optional[Divergence]:
        """The walk from profile A to profile B (None while the inputs are incomplete)."""
        if self.result is None:
            return None
        return self.result.divergence(self.profile_a_input.value, self.profile_b_input.value)

    def _watch(self) -> None:
        # A new metric first swaps the profiles and tokenizers on offer, then recomputes once.
        self.metric_input.observe(self._on_metric, names="value")
        for name in ("candidate", "references", "profile_a", "profile_b", "tokenize"):
            self._inputs[name].observe(self._on_change, names="value")

    def _on_metric(self, _change: Any = None) -> None:  # ipywidgets passes the change; unread
        metric = self.metric_input.value
        quiet, self._quiet = self._quiet, True  # the dropdowns' own events must not recompute
        try:
            for box, value in zip((self.profile_a_input, self.profile_b_input), self._DEFAULTS[metric]):
                box.options = self._names(metric)
                box.value = value
            self.tokenize_input.options = self._tokenizers(metric)
            self.tokenize_input.value = self._OWN
        finally:
            self._quiet = quiet
        if not self._quiet:
            self.refresh()

    def set_inputs(self, **values: Any) -> None:
        """Set several controls, then recompute once (the metric is applied first; ``tokenize=None``: each own).

        >>> x = ImplementationExplorer("the cat", ["the cat"])
        >>> x.set_inputs(profile_b="meteor-1.5", metric="meteor", candidate="the cats")
        >>> x.divergence.profile_a, x.divergence.profile_b
        ('banerjee-lavie-2005', 'meteor-1.5')
        """
        if "tokenize" in values and values["tokenize"] is None:
            values["tokenize"] = self._OWN
        ordered = {k: values[k] for k in ("metric",) if k in values}
        ordered.update(values)
        super().set_inputs(**ordered)

    def _compute(self) -> ImplementationComparison:
        refs = parse_references(self.references_input.value)
        if not refs:
            raise ValueError("references: give at least one reference, one per line")
        a, b = self.profile_a_input.value, self.profile_b_input.value
        if a == b:
            raise ValueError(f"profile_b: {b!r} is profile_a too; choose two different profiles")
        tokenize = None if self.tokenize_input.value == self._OWN else self.tokenize_input.value
        result = compare_implementations(self.candidate_input.value, refs, self.metric_input.value,
                                         tokenize=tokenize, profiles=[a, b])
        self.notes.extend(f"{p.name}: {note}" for p in result.profiles for note in p.notes)
        return result

    def _clear(self) -> None:
        self.score_html.value = "<b>A = &ndash;, B = &ndash;</b>"
        self.summary_html.value = ""
        self.walk_html.value = ""

    def _render(self) -> None:
        c, d = self.result, self.divergence
        if c is None or d is None:  # pragma: no cover - _compute always returns a result
            self._clear()
            return
        a, b = c.profile(d.profile_a), c.profile(d.profile_b)
        self.score_html.value = (
            f'<b style="font-size:1.2em">{html.escape(a.name)} = {_num("score-a", a.score)}'
            f' &nbsp; {html.escape(b.name)} = {_num("score-b", b.score)}</b>'
            f' <span style="color:#555">(as reported: {html.escape(_as_reported(a))}, '
            f'{html.escape(_as_reported(b))})</span>')
        where = d.first_divergence or "nowhere: they agree on these inputs"
        self.summary_html.value = (
            f"<p>{html.escape(a.library)} <code>{html.escape(a.call)}</code> against {html.escape(b.library)} "
            f"<code>{html.escape(b.call)}</code>: the first step that moves a number is "
            f'<b data-name="first-divergence" data-value="{html.escape(d.first_divergence or "")}">'
            f"{html.escape(where)}</b>; the difference is {_num('difference', d.difference)}.</p>")
        self.walk_html.value = self._walk(d)

    @staticmethod
    def _walk(d: Divergence) -> str:
        rows = "".join(
            f'<tr class="mtlearn-step" data-step="{html.escape(r["step"])}"><td>{html.escape(r["step"])}</td>'
            f'<td>{html.escape(r["settings"])}</td><td>{_num("score-after", r["score_after"])}</td>'
            f'<td>{_num("contribution", r["contribution"], _signed(r["contribution"]))}</td>'
            f'<td>{html.escape(", ".join(r["moved"]) if r["settings_differ"] else "")}</td></tr>'
            for r in step_rows(d))
        exactly = " exactly" if d.total == d.difference else ""
        return ("<table><thead><tr><th>step (A &rarr; B)</th><th>settings that change</th><th>score after</th>"
                f"<th>contribution</th><th>moves</th></tr></thead><tbody>{rows}"
                f"<tr><td><b>total</b></td><td></td><td></td><td>{_num('total', d.total, _signed(d.total))}</td>"
                f"<td>= B &minus; A{exactly}</td></tr></tbody></table>")


def _signed(x: Union[Fraction, float]) -> str:
    return f"{float(x):+.4f}"


def _as_reported(p: ProfileResult) -> str:
    return f"{float(p.reported):.2f}" if p.scale == 100 else f"{float(p.reported):.4f}"

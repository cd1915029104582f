"""Live explorers for Jupyter (ipywidgets 8): type a candidate and references, watch every number change.

Nine explorers, one module each (``bleu``, ``meteor``, ``chrf``, ``ter``, ``agreement``,
``implementation``, ``mqm``, ``bertscore``, ``corpus``; ``_base``: what they share); each *is* an
``ipywidgets.VBox``, so putting one last in a cell (or passing it to ``display``) shows it, and it can
be placed inside other layouts. ``explorer.widget`` is the explorer itself (for symmetry with code that
expects a ``.widget``). Presentation only: every number comes from :func:`mtlearn.bleu`,
:func:`mtlearn.meteor`, :func:`mtlearn.chrf` or :func:`mtlearn.ter` and the picture from
:mod:`mtlearn.show.plots`; the CSS classes and ``data-name`` values a page finds them by are
:mod:`mtlearn.show.css`.

- :class:`BleuExplorer`: the n-gram tables of every order with clipping marked, the precisions,
  weights, brevity penalty and score.
- :class:`MeteorExplorer`: the alignment picture and every number of METEOR.
- :class:`ChrfExplorer`: chrF / chrF++, every order's counts, P, R and F.
- :class:`TerExplorer`: TER's shifts and edit script, drawn.
- :class:`AgreementExplorer`: two WMT22 systems, who is ahead for the humans, BLEU and METEOR.
- :class:`ImplementationExplorer`: two libraries' scores and the step where they part.
- :class:`MqmExplorer`: a metric's sentence scores against expert MQM, a segment's texts and errors.
- :class:`BertScoreExplorer`: BERTScore's cosine matrix, both sides' greedy matches, P, R, F1 (needs the
  encoder's package, ``mtlearn-course[neural]``).
- :class:`CorpusExplorer`: a reference file and up to five system files (or the shipped WMT22 sample):
  corpus BLEU, chrF, TER and METEOR with paired-bootstrap p-values against the first system, a sentence
  metric of system A against system B per segment, a segment opened in the BLEU and METEOR explorers.

The BLEU, METEOR, chrF and TER explorers build their controls from their metric's options
(:class:`~mtlearn.metrics.bleu.options.BleuOptions`, ...): each slider's range and step,
each dropdown's choices, each default, and the checks (with the metric's messages) are declared
there once. ``OPTIONS`` names that class, ``NOT_CONTROLS`` the options without a control.

Common API of all of them:

- ``.result`` -- the current ``BleuResult`` / ``MeteorResult`` ..., ``None`` when the
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
  slow, and its picture redrawn after ``PICTURE_PAUSE_S`` = 0.4 s more);
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

The Chinese blog post's example C:

>>> x = BleuExplorer("A B", ["A B C D E F"], max_order=2)
>>> round(x.result.score, 4), x.error
(0.1353, None)
>>> x.candidate_input.value = "A B C D E F"
>>> x.result.score
1.0
"""

from mtlearn.show.explorers._base import (
    MAX_TYPING_PAUSE_S,
    PICTURE_PAUSE_S,
    TYPING_PAUSE_S,
    parse_references,
    typing_pause,
)
from mtlearn.show.explorers.agreement import AgreementExplorer
from mtlearn.show.explorers.bertscore import BertScoreExplorer
from mtlearn.show.explorers.bleu import WEIGHTS_MAX_CHARS, WEIGHTS_MAX_EXPONENT, BleuExplorer, parse_weights
from mtlearn.show.explorers.chrf import ChrfExplorer
from mtlearn.show.explorers.corpus import CorpusExplorer
from mtlearn.show.explorers.implementation import ImplementationExplorer
from mtlearn.show.explorers.meteor import PICTURE_MAX_WORDS, MeteorExplorer
from mtlearn.show.explorers.mqm import MqmExplorer
from mtlearn.show.explorers.ter import TerExplorer

__all__ = ["BleuExplorer", "MeteorExplorer", "ChrfExplorer", "TerExplorer", "AgreementExplorer",
           "ImplementationExplorer", "MqmExplorer", "BertScoreExplorer", "CorpusExplorer",
           "parse_references", "parse_weights", "typing_pause", "TYPING_PAUSE_S",
           "MAX_TYPING_PAUSE_S", "PICTURE_PAUSE_S", "PICTURE_MAX_WORDS", "WEIGHTS_MAX_CHARS",
           "WEIGHTS_MAX_EXPONENT"]

"""The explorers' CSS and data-name contract: the class names and ``data-name`` values a page can look for.

The explorers (:mod:`mtlearn.show.explorers`) put these classes on their widgets and these
names on their numbers; the browser tests (``tests/browser/``) and the workshop's checks look
for them (e.g. Playwright's ``page.locator(f".{SCORE}")``). They are constants, so the two
sides cannot drift apart.

Widgets, by class:

===============================  ====================================================
``mtlearn-bleu-explorer``,       each explorer's box (:data:`EXPLORERS`)
``mtlearn-meteor-explorer``,
``mtlearn-chrf-explorer``,
``mtlearn-ter-explorer``,
``mtlearn-agreement-explorer``,
``mtlearn-implementation-
explorer``,
``mtlearn-bertscore-explorer``
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
``mtlearn-language``             METEOR: language dropdown ("Language": en, es)
``mtlearn-stage-languages``      METEOR: what stem and synonym are in each language
``mtlearn-alignment``            METEOR: the alignment ``Image``
``mtlearn-char-order``,          chrF: order sliders ("Char order", "Word order")
``mtlearn-word-order``
``mtlearn-chrf-beta``            chrF: beta slider ("beta")
``mtlearn-whitespace``,          chrF: checkboxes ("Whitespace", "Eps smoothing";
``mtlearn-eps-smoothing``        lowercase is ``mtlearn-lowercase``)
``mtlearn-order-table``          chrF: the per-order table (rows ``mtlearn-order``, or
                                 ``mtlearn-unused-order`` for an order without n-grams
                                 on both sides)
``mtlearn-chrf-plot``            chrF: the plot ``Image``
``mtlearn-layer``                BERTScore: layer slider ("Layer")
``mtlearn-idf``,                 BERTScore: checkboxes ("idf", "Rescale")
``mtlearn-rescale``
``mtlearn-bertscore-matches``    BERTScore: the matches tables (rows ``mtlearn-match``, or
                                 ``mtlearn-special-match`` for [CLS] and [SEP], weight 0)
``mtlearn-bertscore-plot``       BERTScore: the similarity matrix and layers ``Image``
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
``mtlearn-pair``,                agreement: language pair and system dropdowns
``mtlearn-system-1``,            ("Pair", "System 1", "System 2")
``mtlearn-system-2``
``mtlearn-agreement-plot``       agreement: the plot ``Image``
``mtlearn-leave-out``            agreement: the system left out ("Leave out", or "(nobody)")
``mtlearn-agreement-moves``      agreement: r and rho with and without it, per metric
``mtlearn-metric``               implementations: "bleu" or "meteor"
``mtlearn-profile-a``            implementations: the two profiles compared
``mtlearn-profile-b``
``mtlearn-walk``                 implementations: the step-by-step walk from A to B
``mtlearn-result``               a result row: the picture (``mtlearn-picture``; BLEU, which
                                 draws none: its n-gram tables) and the numbers panel
                                 (``mtlearn-numbers``: the score and summary; chrF: the per-order
                                 table too), stacked; side by side in projector mode
``mtlearn-projector-toggle``     the workshop's "Projector mode" button; the style sheet it
                                 switches is in an HTML widget ``mtlearn-projector-style``
                                 (:mod:`mtlearn.show.projector`)
``mtlearn-message``              notes and errors; its content's ``div`` has class
                                 ``mtlearn-note`` or ``mtlearn-error``, and the widget
                                 itself also gets class ``mtlearn-error`` while an
                                 error is shown
===============================  ====================================================

Inside the HTML every number is a ``<span class="mtlearn-num" data-name="..."
data-value="...">`` (``data-value``: the float's full ``repr``; ``data-exact``: the
exact fraction where there is one), so a test reads the numbers without parsing
the text. The names of each explorer are in :data:`DATA_NAMES` (``{n}``: an n-gram order,
``{k}``: a reference, a chrF order such as ``c3`` or ``w1``, a TER shift's round,
``{stage}``: a METEOR stage, ``{metric}``: a study metric; 1-based where they count).
The implementation explorer's rows have class ``mtlearn-step`` with ``data-step`` their
step's name, and its ``b`` tag ``first-divergence`` has the step's name as ``data-value``.

>>> control_class("no_punct"), stage_class("stem"), edit_class("insert")
('mtlearn-no-punct', 'mtlearn-stage-stem', 'mtlearn-edit-insert')
>>> NUMBER_SELECTOR.format(name="score")
'.mtlearn-num[data-name="score"]'
"""

from __future__ import annotations

__all__ = [
    "PREFIX", "EXPLORERS", "BLEU_EXPLORER", "METEOR_EXPLORER", "CHRF_EXPLORER", "TER_EXPLORER",
    "AGREEMENT_EXPLORER", "IMPLEMENTATION_EXPLORER", "CANDIDATE", "REFERENCES", "TOKENIZE", "LOWERCASE",
    "MAX_ORDER", "SMOOTHING", "EFFECTIVE_ORDER", "WEIGHTS", "ALPHA", "BETA", "GAMMA", "TIE_BREAK",
    "LANGUAGE", "STAGE_LANGUAGES", "ALIGNMENT", "CHAR_ORDER", "WORD_ORDER", "CHRF_BETA", "WHITESPACE",
    "EPS_SMOOTHING",
    "ORDER_TABLE", "ORDER_ROW", "UNUSED_ORDER_ROW", "CHRF_PLOT", "TER_OPTIONS", "SHIFTS", "SHIFT_ROW",
    "EDITS",
    "EDIT_PICTURE", "SCORE", "SUMMARY", "NGRAM_TABLE", "NGRAM_DETAILS", "CLIPPED", "MATCHED", "UNMATCHED",
    "PAIR", "SYSTEM_1", "SYSTEM_2", "AGREEMENT_PLOT", "LEAVE_OUT", "AGREEMENT_MOVES", "METRIC", "PROFILE_A",
    "PROFILE_B", "WALK", "STEP_ROW", "MESSAGE", "NOTE", "ERROR", "NUMBER", "NUMBER_SELECTOR", "DATA_NAMES",
    "PRECISION_TABLE", "NGRAMS_TABLE", "METEOR_NUMBERS", "CHRF_NUMBERS", "CHRF_ORDERS", "TER_NUMBERS",
    "SHIFT_TABLE", "EDIT_SCRIPT", "AGREEMENT_NUMBERS", "BERTSCORE_EXPLORER", "LAYER", "IDF", "RESCALE",
    "BERTSCORE_MATCHES", "MATCH_ROW", "SPECIAL_MATCH_ROW", "BERTSCORE_PLOT", "BERTSCORE_NUMBERS",
    "RESULT", "PICTURE", "NUMBERS", "PROJECTOR_TOGGLE", "PROJECTOR_STYLE",
    "control_class", "stage_class", "edit_class",
]

PREFIX = "mtlearn-"

# The explorers' boxes.
BLEU_EXPLORER = "mtlearn-bleu-explorer"
METEOR_EXPLORER = "mtlearn-meteor-explorer"
CHRF_EXPLORER = "mtlearn-chrf-explorer"
TER_EXPLORER = "mtlearn-ter-explorer"
AGREEMENT_EXPLORER = "mtlearn-agreement-explorer"
IMPLEMENTATION_EXPLORER = "mtlearn-implementation-explorer"
BERTSCORE_EXPLORER = "mtlearn-bertscore-explorer"
#: Every explorer's box, by the metric or study it explores.
EXPLORERS = {"bleu": BLEU_EXPLORER, "meteor": METEOR_EXPLORER, "chrf": CHRF_EXPLORER, "ter": TER_EXPLORER,
             "agreement": AGREEMENT_EXPLORER, "implementation": IMPLEMENTATION_EXPLORER,
             "bertscore": BERTSCORE_EXPLORER}

# Controls several explorers share.
CANDIDATE = "mtlearn-candidate"
REFERENCES = "mtlearn-references"
TOKENIZE = "mtlearn-tokenize"
LOWERCASE = "mtlearn-lowercase"

# BLEU.
MAX_ORDER = "mtlearn-max-order"
SMOOTHING = "mtlearn-smoothing"
EFFECTIVE_ORDER = "mtlearn-effective-order"
WEIGHTS = "mtlearn-weights"
NGRAM_TABLE = "mtlearn-ngram-table"
NGRAM_DETAILS = "mtlearn-ngram-details"
#: The n-gram tables' rows: a count clipped, matched in full, in no reference.
CLIPPED = "mtlearn-clipped"
MATCHED = "mtlearn-matched"
UNMATCHED = "mtlearn-unmatched"

# METEOR.
ALPHA = "mtlearn-alpha"
BETA = "mtlearn-beta"
GAMMA = "mtlearn-gamma"
TIE_BREAK = "mtlearn-tie-break"
LANGUAGE = "mtlearn-language"
STAGE_LANGUAGES = "mtlearn-stage-languages"
ALIGNMENT = "mtlearn-alignment"

# chrF.
CHAR_ORDER = "mtlearn-char-order"
WORD_ORDER = "mtlearn-word-order"
CHRF_BETA = "mtlearn-chrf-beta"
WHITESPACE = "mtlearn-whitespace"
EPS_SMOOTHING = "mtlearn-eps-smoothing"
ORDER_TABLE = "mtlearn-order-table"
ORDER_ROW = "mtlearn-order"
UNUSED_ORDER_ROW = "mtlearn-unused-order"
CHRF_PLOT = "mtlearn-chrf-plot"

# BERTScore
LAYER = "mtlearn-layer"
IDF = "mtlearn-idf"
RESCALE = "mtlearn-rescale"
BERTSCORE_MATCHES = "mtlearn-bertscore-matches"
MATCH_ROW = "mtlearn-match"
SPECIAL_MATCH_ROW = "mtlearn-special-match"
BERTSCORE_PLOT = "mtlearn-bertscore-plot"

# TER: one checkbox per option (control_class of its name).
TER_OPTIONS = ("mtlearn-normalized", "mtlearn-no-punct", "mtlearn-asian-support", "mtlearn-case-sensitive")
SHIFTS = "mtlearn-shifts"
SHIFT_ROW = "mtlearn-shift"
EDITS = "mtlearn-edits"
EDIT_PICTURE = "mtlearn-edit-picture"

# Agreement with people.
PAIR = "mtlearn-pair"
SYSTEM_1 = "mtlearn-system-1"
SYSTEM_2 = "mtlearn-system-2"
AGREEMENT_PLOT = "mtlearn-agreement-plot"
LEAVE_OUT = "mtlearn-leave-out"
AGREEMENT_MOVES = "mtlearn-agreement-moves"

# Implementations.
METRIC = "mtlearn-metric"
PROFILE_A = "mtlearn-profile-a"
PROFILE_B = "mtlearn-profile-b"
WALK = "mtlearn-walk"
STEP_ROW = "mtlearn-step"

# The tables inside the HTML widgets.
PRECISION_TABLE = "mtlearn-precisions"  # BLEU's summary
NGRAMS_TABLE = "mtlearn-ngrams"  # BLEU: one per order, its data-n the order
METEOR_NUMBERS = "mtlearn-meteor-numbers"
CHRF_NUMBERS = "mtlearn-chrf-numbers"
CHRF_ORDERS = "mtlearn-chrf-orders"
TER_NUMBERS = "mtlearn-ter-numbers"
SHIFT_TABLE = "mtlearn-shift-table"
EDIT_SCRIPT = "mtlearn-edit-script"
AGREEMENT_NUMBERS = "mtlearn-agreement-numbers"
BERTSCORE_NUMBERS = "mtlearn-bertscore-numbers"

# What every explorer shows.
SCORE = "mtlearn-score"
SUMMARY = "mtlearn-summary"
MESSAGE = "mtlearn-message"
NOTE = "mtlearn-note"
ERROR = "mtlearn-error"
# The result row of the BLEU, METEOR, chrF and TER explorers: picture and numbers (projector mode).
RESULT = "mtlearn-result"
PICTURE = "mtlearn-picture"
NUMBERS = "mtlearn-numbers"
PROJECTOR_TOGGLE = "mtlearn-projector-toggle"
PROJECTOR_STYLE = "mtlearn-projector-style"
#: A number's span; its data-name is one of DATA_NAMES.
NUMBER = "mtlearn-num"
NUMBER_SELECTOR = '.mtlearn-num[data-name="{name}"]'

#: The data-name of every number each explorer shows (templates: see the module's docstring).
DATA_NAMES: dict[str, tuple[str, ...]] = {
    "bleu": ("score", "brevity-penalty", "candidate-length", "reference-length", "ratio", "geometric-mean",
             "matches-{n}", "totals-{n}", "precision-{n}", "weight-{n}"),
    "meteor": ("score", "precision", "recall", "f-mean", "fragmentation", "penalty", "matches", "chunks",
               "crossings", "candidate-length", "reference-length", "matches-{stage}", "reference-score-{k}",
               "best-reference"),
    "chrf": ("score", "precision", "recall", "f-beta", "reference-score-{k}", "best-reference",
             "candidate-count-{k}", "reference-count-{k}", "matched-{k}", "precision-{k}", "recall-{k}",
             "f-{k}"),
    "ter": ("score", "edits", "reference-length", "shifts", "substitutions", "insertions", "deletions",
            "matches", "shift-gain-{k}", "reference-edits-{k}", "best-reference"),
    "agreement": ("agreeing", "human-1", "human-2", "human-p", "{metric}-1", "{metric}-2", "{metric}-p",
                  "{metric}-r", "{metric}-r-without", "{metric}-rho", "{metric}-rho-without"),
    "bertscore": ("score", "precision", "recall", "f1", "raw-precision", "raw-recall", "raw-f1",
                  "baseline-{k}", "reference-f1-{k}", "best-reference", "idf-documents",
                  "precision-cosine-{k}", "precision-weight-{k}", "recall-cosine-{k}", "recall-weight-{k}"),
    "implementation": ("score-a", "score-b", "difference", "total", "score-after", "contribution",
                       "first-divergence"),
}


def control_class(option: str) -> str:
    """The class of the control of an option named ``option``.

    >>> control_class("eps_smoothing")
    'mtlearn-eps-smoothing'
    """
    return PREFIX + option.replace("_", "-")


def stage_class(stage: str) -> str:
    """The class of a METEOR stage's checkbox.

    >>> stage_class("synonym")
    'mtlearn-stage-synonym'
    """
    return f"{PREFIX}stage-{stage}"


def edit_class(op: str) -> str:
    """The class of a TER edit script's row of operation ``op`` (match, substitute, insert, delete).

    >>> edit_class("delete")
    'mtlearn-edit-delete'
    """
    return f"{PREFIX}edit-{op}"

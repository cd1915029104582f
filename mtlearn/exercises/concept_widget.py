"""A concept check as a widget: the question, its options lettered A, B, C, … and one button per option.

After a choice the widget says, in words and with a symbol (never by colour alone), whether it was
right, and shows the chosen option's explanation; choosing again replaces both. Without a kernel
(the book, a notebook on GitHub) a front end cannot draw the buttons and falls back on the widget's
``text/html`` or ``text/plain``: the question and its options, never the answer or an explanation,
so a page read before running gives nothing away. Nothing in the output depends on the run (strict
nbval compares it; the widget view's random model id is one of the outputs it skips).

>>> w = concept_check("01.s1a")
>>> w.value is None and w.feedback.value == ""
True
>>> w.value = w.check.answer
>>> RIGHT in w.feedback.value
True
>>> print(concept_text(w.check).splitlines()[0])
Concept check 01.s1a: The unigram score m/n divides by n. What is n?
"""

from __future__ import annotations

import html
import string
from typing import Any, Optional

import ipywidgets as widgets
from traitlets import Int, TraitError, validate

from mtlearn.exercises.concepts import ConceptCheck, concept_check_data

__all__ = ["ConceptCheckWidget", "concept_check", "concept_text", "concept_html", "RIGHT", "NOT_QUITE",
           "CONCEPT_CHECK", "FEEDBACK", "FEEDBACK_RIGHT", "FEEDBACK_WRONG", "RUN_NOTE"]

#: What the widget says after a choice: a symbol and a word, so colour is never the only cue.
RIGHT = "✓ Right"
NOT_QUITE = "✗ Not quite"
#: CSS classes: the widget's box, its feedback, and the feedback after a right or a wrong choice.
CONCEPT_CHECK = "mtlearn-concept-check"
FEEDBACK = "mtlearn-concept-feedback"
FEEDBACK_RIGHT = "mtlearn-concept-right"
FEEDBACK_WRONG = "mtlearn-concept-wrong"
#: The line under the question where the buttons cannot be drawn.
RUN_NOTE = "Run the notebook to choose an answer and read why it is right or not."

_BOX_STYLE = "border-left:4px solid #6a7fb5;padding:0.2em 0.8em;margin:0.4em 0"
_RIGHT_STYLE = "border:2px solid #2e7d32;background:#edf7ed;padding:0.4em 0.8em;margin-top:0.3em"
_WRONG_STYLE = "border:2px dashed #b3261e;background:#fdeceb;padding:0.4em 0.8em;margin-top:0.3em"


def _letter(k: int) -> str:
    return string.ascii_uppercase[k]


def concept_text(check: ConceptCheck) -> str:
    """The question and its lettered options as plain text (no answer, no explanation).

    >>> from mtlearn.exercises.concepts import Option
    >>> c = ConceptCheck("99.s1a", "What does BLEU clip?",
    ...                  (Option("counts", "yes"), Option("lengths", "no")), 0)
    >>> print(concept_text(c))
    Concept check 99.s1a: What does BLEU clip?
      A. counts
      B. lengths
    """
    options = "\n".join(f"  {_letter(k)}. {o.text}" for k, o in enumerate(check.options))
    return f"Concept check {check.id}: {check.question}\n{options}"


def concept_html(check: ConceptCheck, *, note: bool = True) -> str:
    """The question and its lettered options as HTML (no answer, no explanation); ``note``: end with
    :data:`RUN_NOTE`.

    >>> from mtlearn.exercises.concepts import Option
    >>> c = ConceptCheck("99.s1a", "Is 1 < 2?", (Option("yes", "so it is"), Option("no", "it is")), 0)
    >>> "<b>Is 1 &lt; 2?</b>" in concept_html(c) and "so it is" not in concept_html(c)
    True
    """
    items = "".join(f"<li>{html.escape(o.text)}</li>" for o in check.options)
    tail = (f'<p style="font-style:italic;color:#555;margin:0.2em 0">{html.escape(RUN_NOTE)}</p>'
            if note else "")
    return (f'<div class="{CONCEPT_CHECK}" data-check="{html.escape(check.id)}" style="{_BOX_STYLE}">'
            f'<p style="margin:0.3em 0">Concept check: <b>{html.escape(check.question)}</b></p>'
            f'<ol type="A" style="margin:0.2em 0">{items}</ol>{tail}</div>')


def feedback_html(check: ConceptCheck, choice: int) -> str:
    """What the widget shows after ``choice`` (an option's index): the verdict, the choice, its explanation.

    >>> from mtlearn.exercises.concepts import Option
    >>> c = ConceptCheck("99.s1a", "Q?", (Option("yes", "Because."), Option("no", "Look again.")), 0)
    >>> "✗ Not quite" in feedback_html(c, 1) and "Look again." in feedback_html(c, 1)
    True
    """
    right = choice == check.answer
    option = check.options[choice]
    css, style, word = ((FEEDBACK_RIGHT, _RIGHT_STYLE, RIGHT) if right
                        else (FEEDBACK_WRONG, _WRONG_STYLE, NOT_QUITE))
    return (f'<div class="{FEEDBACK} {css}" role="status" aria-live="polite" style="{style}">'
            f"<b>{word}</b> — you chose {_letter(choice)}: {html.escape(option.text)}"
            f'<p style="margin:0.3em 0 0">{html.escape(option.explanation)}</p></div>')


class ConceptCheckWidget(widgets.VBox):
    """One concept check: the question, a button per option, and the feedback on the last choice.

    ``value`` is the index of the chosen option (None before any choice); a button sets it, and so can
    code (``widget.value = 1``), which is how the tests choose.
    """

    value = Int(None, allow_none=True)

    def __init__(self, check: ConceptCheck) -> None:
        self.check = check
        self.question = widgets.HTML(concept_html(check, note=False))
        self.buttons = [self._button(k) for k in range(len(check.options))]
        self.feedback = widgets.HTML("")
        super().__init__([self.question, widgets.HBox(self.buttons), self.feedback])
        self.add_class(CONCEPT_CHECK)
        self.observe(self._show, names="value")

    def _button(self, k: int) -> widgets.Button:
        option = self.check.options[k].text
        button = widgets.Button(description=_letter(k), tooltip=f"{_letter(k)}. {option}",
                                layout=widgets.Layout(width="3.5em"))
        button.on_click(lambda _button: setattr(self, "value", k))
        return button

    def _valid_choice(self, proposal: Any) -> Optional[int]:
        value = proposal["value"]
        if value is not None and not 0 <= value < len(self.check.options):
            raise TraitError(f"concept check {self.check.id}: choice {value} is not an option "
                             f"(0 to {len(self.check.options) - 1})")
        return value

    # traitlets' @validate("value"), written out so that the method is seen to be used.
    _validate_value = validate("value")(_valid_choice)

    def _show(self, change: Any) -> None:
        choice = change["new"]
        self.feedback.value = "" if choice is None else feedback_html(self.check, choice)
        for k, button in enumerate(self.buttons):
            button.button_style = "info" if k == choice else ""

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget for Jupyter; for a page without a kernel the question and options only.

        >>> bundle = concept_check("01.s1a")._repr_mimebundle_()
        >>> sorted(bundle)
        ['application/vnd.jupyter.widget-view+json', 'text/html', 'text/plain']
        """
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = concept_text(self.check)
        bundle["text/html"] = concept_html(self.check)
        return bundle


def concept_check(check_id: str) -> ConceptCheckWidget:
    """The widget of concept check ``check_id`` (``"01.s1a"``); an unknown id is a ``LookupError`` that
    lists the notebook's checks, as :func:`~mtlearn.exercises.exercise` does for exercises.

    >>> concept_check("01.s1a").check.notebook
    '01'
    """
    return ConceptCheckWidget(concept_check_data(check_id))

"""What every explorer shares: live updates, messages, the browser guard, numbers as spans, controls.

:class:`Explorer` is the ``VBox`` every explorer is: it recomputes on every change (typed text
after a pause, :func:`typing_pause`), shows a bad input's message instead of raising, and
sets several controls at once (``set_inputs``). The controls are ipywidgets' own, guarded
(:class:`FromTheBrowser`: the browser sets their value only, in range); :func:`option_controls`
builds them from a metric's :class:`~mtlearn.core.options.Options` specs (default, slider range,
choices), so an option is declared once. :func:`num` writes a number as the span the browser
tests read (:mod:`mtlearn.show.css`).

>>> from mtlearn.metrics.chrf.options import ChrfOptions
>>> beta = option_controls(ChrfOptions(), {"beta": ("beta", "mtlearn-chrf-beta")})["beta"]
>>> (beta.min, beta.max, beta.step, beta.value) == ChrfOptions.spec("beta").control + (2.0,)
True
>>> num("score", 0.5)
'<span class="mtlearn-num" data-name="score" data-value="0.5">0.5000</span>'
"""

from __future__ import annotations

import asyncio
import html
import math
import time
import warnings
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Iterator, Optional, Union

import ipywidgets as widgets
from traitlets import TraitError

from mtlearn.core.options import Options, OptionSpec
from mtlearn.show import css
from mtlearn.show.plots import figure_to_png

from .snapshot import snapshot_html, snapshot_text


def parse_references(text: str) -> list[str]:
    """The references typed in a box: one per line, blank lines ignored.

    >>> parse_references("the cat is on the mat\\n\\n  there is a cat on the mat \\n")
    ['the cat is on the mat', 'there is a cat on the mat']
    """
    return [line.strip() for line in text.splitlines() if line.strip()]


def references_text(references: Union[str, Sequence[str]], argname: str = "references") -> str:
    """The references box's text: a string as given, a list one reference per line (none may hold one).

    >>> references_text(["the cat", "a cat"])
    'the cat\\na cat'
    """
    if isinstance(references, str):
        return references
    if not isinstance(references, Sequence) or not all(isinstance(r, str) for r in references):
        raise TypeError(f"{argname}: expected a string (one reference per line) or a list of strings")
    for k, r in enumerate(references):
        if "\n" in r:
            raise ValueError(f"{argname}: reference {k} contains a line break; the box holds one per line")
    return "\n".join(references)


def check_text(value: object, argname: str) -> str:
    """``value`` if it is a string, else a ``TypeError`` naming ``argname``.

    >>> check_text(3, "candidate")
    Traceback (most recent call last):
    ...
    TypeError: candidate: expected a string, got int
    """
    if not isinstance(value, str):
        raise TypeError(f"{argname}: expected a string, got {type(value).__name__}")
    return value


def fmt(x: Union[float, Fraction, int]) -> str:
    """A number as the explorers show it: an int whole, anything else to 4 decimals.

    >>> fmt(3), fmt(Fraction(1, 3)), fmt(float("-inf"))
    ('3', '0.3333', '-inf')
    """
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    value = float(x)
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return f"{value:.4f}"


def num(name: str, value: Union[float, Fraction, int], text: Optional[str] = None) -> str:
    """A number as a span a test can read: data-value is the full float (or the int), data-exact a Fraction.

    >>> num("recall", Fraction(3, 4), "3/4")
    '<span class="mtlearn-num" data-name="recall" data-value="0.75" data-exact="3/4">3/4</span>'
    """
    if isinstance(value, int) and not isinstance(value, bool):
        data = str(value)
    else:
        data = repr(float(value))
    exact = f' data-exact="{value}"' if isinstance(value, Fraction) else ""
    shown = html.escape(text if text is not None else fmt(value))
    return f'<span class="{css.NUMBER}" data-name="{name}" data-value="{data}"{exact}>{shown}</span>'


def frac_text(x: Fraction) -> str:
    """A fraction and its decimals (a whole number alone).

    >>> frac_text(Fraction(2, 7)), frac_text(Fraction(1))
    ('2/7 = 0.2857', '1')
    """
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


class Explorer(widgets.VBox):
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
    #: The metric's options the controls are built from (None: no metric's options, the explorer's own)
    #: and those of its options without a control of their own, with the reason.
    OPTIONS: Optional[type[Options]] = None
    NOT_CONTROLS: Mapping[str, str] = MappingProxyType({})

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
        self.message_html = self._tagged(widgets.HTML(), css.MESSAGE)
        self.score_html = self._tagged(widgets.HTML(), css.SCORE)
        self.summary_html = self._tagged(widgets.HTML(), css.SUMMARY)
        self.add_class(self._css_class)

    @staticmethod
    def _tagged(widget: widgets.DOMWidget, css: str) -> Any:
        widget.add_class(css)
        return widget

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget's view for Jupyter, and for a page without a kernel (a rendered book, a notebook
        not yet run) a snapshot of what it shows (``text/html``) and one line (``text/plain``), never the
        widget's ``repr`` (:mod:`mtlearn.show.explorers.snapshot`).

        >>> from mtlearn.show.explorers import BleuExplorer
        >>> bundle = BleuExplorer("a b c", ["a b c"])._repr_mimebundle_()
        >>> sorted(bundle)
        ['application/vnd.jupyter.widget-view+json', 'text/html', 'text/plain']
        >>> bundle["text/plain"]
        'BleuExplorer — run the notebook to explore'
        """
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = snapshot_text(self)
        bundle["text/html"] = snapshot_html(self)
        return bundle

    @property
    def widget(self) -> "Explorer":
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
            show_png(self.image, figure_to_png(self.figure, dpi=dpi))

        if self._typed:
            self._pending_picture = asyncio.get_running_loop().call_later(PICTURE_PAUSE_S, show)
        else:
            show()

    def _too_long_to_draw(self, longest: int, limit: int, what: str) -> bool:
        """Whether a side of ``longest`` words is above ``limit``: then no picture, and a note says why."""
        if longest <= limit:
            return False
        self.figure = None
        show_png(self.image, b"")
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

        >>> from mtlearn.show.explorers import BleuExplorer
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
                    value = references_text(value)
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
            if self.result is None:
                self._clear()
            else:
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
            parts.append(f'<div class="{css.ERROR}" style="color:#b00020;font-weight:bold">'
                         f'{html.escape(self.error).replace(chr(10), "<br>")}</div>')
            self.message_html.add_class(css.ERROR)
        else:
            self.message_html.remove_class(css.ERROR)
        for note in self.notes:
            parts.append(f'<div class="{css.NOTE}" style="color:#8a5300">'
                         f'{html.escape(note).replace(chr(10), "<br>")}</div>')
        self.message_html.value = "".join(parts)

    # Subclasses fill these in.
    def _compute(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _render(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    #: The headline while there is no result (the error above it says why).
    EMPTY_HEADLINE = "<b>score = &ndash;</b>"

    def _result_boxes(self) -> tuple[widgets.HTML, ...]:
        """The boxes a result fills besides the headline, emptied when there is none."""
        return (self.summary_html,)

    def _clear(self) -> None:
        """No result: the headline's dash, every result box empty, no picture."""
        self.score_html.value = self.EMPTY_HEADLINE
        for box in self._result_boxes():
            box.value = ""
        if hasattr(self, "image"):
            show_png(self.image, b"")
            self.figure = None


def textarea(value: str, description: str, placeholder: str, css_class: str, rows: int) -> widgets.Textarea:
    """A guarded text box of ``rows`` lines, nearly the explorer's width, with class ``css_class``.

    >>> textarea("the cat", "Candidate", "the candidate", "mtlearn-candidate", 2)._dom_classes
    ('mtlearn-candidate',)
    """
    box = Textarea(value=value, description=description, placeholder=placeholder, rows=rows,
                   layout=widgets.Layout(width="95%"), style={"description_width": "initial"})
    box.add_class(css_class)
    return box


def with_class(widget: widgets.DOMWidget, css_class: str) -> Any:
    """``widget``, with the class a page finds it by (:mod:`mtlearn.show.css`).

    >>> with_class(widgets.Label("x"), "mtlearn-note")._dom_classes
    ('mtlearn-note',)
    """
    widget.add_class(css_class)
    return widget


def result_row(picture: widgets.DOMWidget, numbers: Sequence[widgets.DOMWidget], *,
               picture_first: bool = False) -> widgets.VBox:
    """An explorer's picture and its numbers panel (``numbers`` stacked), stacked in the order they always
    were (``picture_first``: the picture above); projector mode sets them side by side
    (:mod:`mtlearn.show.projector`, classes ``mtlearn-result``, ``mtlearn-picture``, ``mtlearn-numbers``).

    >>> row = result_row(widgets.Image(), [widgets.HTML("score")])
    >>> row._dom_classes, [child._dom_classes for child in row.children]
    (('mtlearn-result',), [('mtlearn-numbers',), ('mtlearn-picture',)])
    """
    panel = with_class(widgets.VBox(list(numbers)), css.NUMBERS)
    with_class(picture, css.PICTURE)
    return with_class(widgets.VBox([picture, panel] if picture_first else [panel, picture]), css.RESULT)


class FromTheBrowser:
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


def from_the_browser(base: type, keys: tuple[str, ...] = ("value",)) -> type:
    """``base`` (an ipywidgets control) taking only ``keys`` from the browser (:class:`FromTheBrowser`).

    The class keeps ``base``'s name, so a displayed explorer's text is what it was.

    >>> IntSlider(value=3, min=0, max=10)
    IntSlider(value=3, max=10)
    """
    make = type(base)  # the widgets' metaclass (traitlets sets up the class's traits)
    return make(base.__name__, (FromTheBrowser, base),
                {"_from_browser": keys, "__module__": __name__,
                 "__doc__": f"``{base.__name__}`` whose state the browser sets only in {', '.join(keys)}."})


IntSlider = from_the_browser(widgets.IntSlider)
FloatSlider = from_the_browser(widgets.FloatSlider)
Checkbox = from_the_browser(widgets.Checkbox)
Dropdown = from_the_browser(widgets.Dropdown, ("index",))  # the options stay the explorer's
Text = from_the_browser(widgets.Text)
Textarea = from_the_browser(widgets.Textarea)


def image_widget() -> widgets.Image:
    """A PNG ``Image`` shown at its own size (a box's flex layout would stretch it to the full width).

    >>> image_widget().layout.max_width
    '100%'
    """
    return widgets.Image(format="png", layout=widgets.Layout(max_width="100%", align_self="flex-start"))


def show_png(image: widgets.Image, png: bytes) -> None:
    """Put ``png`` in ``image``; hide the image when there is none (a browser draws a broken-image icon).

    >>> image = image_widget()
    >>> show_png(image, b"")
    >>> image.layout.display
    'none'
    """
    image.value = png
    image.layout.display = None if png else "none"


# --------------------------------------------------------------------------- controls from a metric's Options


def option_control(spec: OptionSpec, value: Any, description: str, css_class: str, **extra: Any) -> Any:
    """The control of one option, from its spec: a dropdown of its ``choices``, a slider over its
    ``control`` range (whole numbers: an ``IntSlider``), else a checkbox (a flag); ``extra`` are the
    widget's other arguments (a readout format, a layout).

    >>> from mtlearn.metrics.meteor.options import MeteorOptions
    >>> tie = option_control(MeteorOptions.spec("tie_break"), "chunks", "Tie-break", "mtlearn-tie-break")
    >>> tie.options, tie.value, tie._dom_classes
    (('crossings', 'chunks'), 'chunks', ('mtlearn-tie-break',))
    """
    if spec.choices:
        widget = Dropdown(options=list(spec.choices), value=value, description=description, **extra)
    elif spec.control is not None:
        low, high, step = spec.control
        if isinstance(spec.default, int) and not isinstance(spec.default, bool):
            widget = IntSlider(value=value, min=int(low), max=int(high), step=int(step),
                               description=description, **extra)
        else:
            widget = FloatSlider(value=float(value), min=low, max=high, step=step, description=description,
                                 **extra)
    elif isinstance(spec.default, bool):
        widget = Checkbox(value=value, description=description, **extra)
    else:  # an option with neither choices nor a range has no control of its own
        raise TypeError(f"{spec.name}: no control for an option without choices, range or flag")
    return with_class(widget, css_class)


def check_in_range(spec: OptionSpec, value: Any) -> None:
    """Refuse (``ValueError``) a value a checked option takes but its slider cannot show.

    >>> from mtlearn.metrics.chrf.options import ChrfOptions
    >>> check_in_range(ChrfOptions.spec("char_order"), 12)
    Traceback (most recent call last):
    ...
    ValueError: char_order: the explorer's slider goes up to 10, got 12
    """
    if spec.control is None:
        return
    low, high, _step = spec.control
    if value > high:
        raise ValueError(f"{spec.name}: the explorer's slider goes up to {high:g}, got {value!r}")
    if value < low:
        raise ValueError(f"{spec.name}: the explorer's slider starts at {low:g}, got {value!r}")


def option_controls(options: Options, shown: Mapping[str, tuple[str, str]],
                    extra: Optional[Mapping[str, Mapping[str, Any]]] = None) -> dict[str, Any]:
    """One control per option named in ``shown`` (name -> (description, CSS class)), in the order of
    the options' declaration, each starting at ``options``' value (already checked by the Options
    class, here checked against its slider's range). ``extra``: more arguments of a control, by name.

    >>> from mtlearn.metrics.ter.options import TerOptions
    >>> shown = {"no_punct": ("No punctuation", "mtlearn-no-punct")}
    >>> boxes = option_controls(TerOptions(no_punct=True), shown)
    >>> [(name, box.value, box.description) for name, box in boxes.items()]
    [('no_punct', True, 'No punctuation')]
    """
    controls = {}
    for spec in type(options).specs():
        if spec.name in shown:
            value = getattr(options, spec.name)
            check_in_range(spec, value)
            description, css_class = shown[spec.name]
            controls[spec.name] = option_control(spec, value, description, css_class,
                                                 **(extra or {}).get(spec.name, {}))
    return controls

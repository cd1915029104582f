"""Corpus mode: a reference file and up to five system files (or the shipped WMT22 sample), compared.

``CorpusExplorer(sample=False, n_samples=N_RESAMPLES)``: two upload buttons (the reference file; one to
five system files, the first the baseline) and "Score the uploaded files", or "WMT22 sample" (the
shipped 40 segments of WMT22 de-en, :func:`mtlearn.study.corpus_compare.wmt22_sample`) ->

- a table of corpus BLEU, chrF, TER and METEOR per system (mtlearn's corpus functions at their
  defaults; their signatures under it) with the paired bootstrap's p-value of each system against
  the first (:func:`mtlearn.study.corpus_compare.compare`: sacreBLEU's test, a fixed seed);
- a per-segment picture: sentence BLEU or chrF (a dropdown) of system A against system B
  (:func:`mtlearn.show.plots.plot_segment_pairs`), the chosen segment ringed;
- a segment number (its line in the files, from 1) and "Open segment": the segment's texts, and
  system A's hypothesis and the reference in a :class:`BleuExplorer` and a :class:`MeteorExplorer`
  below (BLEU with the plot's settings, so the explorer shows the dot's number).

Files are read as UTF-8 text only, at most :data:`~mtlearn.study.corpus_compare.MAX_FILE_BYTES` each;
a file that cannot be used (too big, binary, not UTF-8, empty, another line count than the reference,
more than five systems) gives a message naming it, never a traceback.

>>> x = CorpusExplorer(sample=True, n_samples=100)
>>> x.comparison.corpus.names
('hyp.JDExploreAcademy.en', 'hyp.LT22.en')
>>> x.open_segment(3)
>>> x.bleu_explorer.candidate_input.value == x.comparison.corpus.hypotheses("hyp.JDExploreAcademy.en")[2]
True
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Optional

import ipywidgets as widgets

from mtlearn.show.plots import plot_segment_pairs
from mtlearn.study.corpus_compare import (
    METRIC_NAMES,
    METRICS,
    N_RESAMPLES,
    SENTENCE_OPTIONS,
    Comparison,
    CorpusFileError,
    CorpusSet,
    TextFile,
    compare,
    corpus_set,
    read_text_file,
    sentence_scores,
    wmt22_sample,
)

from ._base import Dropdown, Explorer, from_the_browser, image_widget, num, with_class
from .bleu import BleuExplorer
from .meteor import MeteorExplorer

__all__ = ["CorpusExplorer", "CorpusView", "uploaded_files", "CORPUS_EXPLORER", "CORPUS_TABLE", "CORPUS_PLOT",
           "CORPUS_SEGMENT", "SAMPLE_BUTTON", "SCORE_BUTTON", "OPEN_BUTTON", "SEGMENT_INPUT",
           "REFERENCE_UPLOAD", "SYSTEMS_UPLOAD"]

# The CSS classes a page finds the parts by (tests/browser/ reads them from here).
CORPUS_EXPLORER = "mtlearn-corpus-explorer"
CORPUS_TABLE = "mtlearn-corpus-table"
CORPUS_PLOT = "mtlearn-corpus-plot"
CORPUS_SEGMENT = "mtlearn-corpus-segment"
SAMPLE_BUTTON = "mtlearn-corpus-sample"
SCORE_BUTTON = "mtlearn-corpus-score"
OPEN_BUTTON = "mtlearn-corpus-open"
SEGMENT_INPUT = "mtlearn-corpus-segment-number"
REFERENCE_UPLOAD = "mtlearn-corpus-reference-file"
SYSTEMS_UPLOAD = "mtlearn-corpus-system-files"

#: What the explorer says before a corpus is loaded.
HOW_TO = ("Pick the WMT22 sample, or upload a reference file and one to five system files (plain UTF-8 "
          "text, one segment a line, all with the same number of lines) and press \"Score the uploaded "
          "files\". The first system file is the baseline of the significance tests.")
_SENTENCE_LABELS = {"bleu": "sentence BLEU", "chrf": "sentence chrF"}
#: What the picture's title says of each sentence metric's settings.
_SENTENCE_SETTINGS = {"bleu": "BLEU with exp smoothing and effective order, as sacreBLEU's sentence_bleu",
                      "chrf": "chrF at its defaults"}
_AUTO = {"layout": widgets.Layout(width="auto")}
_WIDE = {"style": {"description_width": "initial"}}

# The browser sets the number box's value (in range), the uploads' files, and nothing of a button (a click
# is a message, not a state): a participant's page cannot rename, disable or reconfigure them.
BoundedIntText = from_the_browser(widgets.BoundedIntText)
FileUpload = from_the_browser(widgets.FileUpload)
Button = from_the_browser(widgets.Button, ())


def _one_upload(item: Any) -> TextFile:
    """One entry of a ``FileUpload``'s value (ipywidgets 8: a dict with ``name`` and ``content``)."""
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        raise CorpusFileError("upload: an entry without a file name; upload the file again")
    name = item["name"] or "(a file without a name)"
    content = item.get("content")
    if not isinstance(content, (bytes, bytearray, memoryview)):
        raise CorpusFileError(f"{name}: the upload holds no file content; upload it again")
    return read_text_file(name, content)


def uploaded_files(value: Any) -> list[TextFile]:
    """The files of a ``FileUpload``'s ``value`` (a tuple of dicts in ipywidgets 8), each read as text.

    >>> [f.lines for f in uploaded_files(({"name": "a.txt", "content": memoryview(b"x\\ny\\n")},))]
    [('x', 'y')]
    """
    if not isinstance(value, (tuple, list)):
        raise CorpusFileError("upload: not a list of files; upload the files again")
    return [_one_upload(item) for item in value]


@dataclass(frozen=True)
class CorpusView:
    """What the explorer shows for one choice of controls: the comparison, the two systems of the
    picture, the sentence metric, their sentence scores and the chosen segment (its line, from 1)."""

    comparison: Comparison
    system_a: str
    system_b: str
    metric: str
    scores_a: tuple[float, ...]
    scores_b: tuple[float, ...]
    segment: int


class CorpusExplorer(Explorer):
    """Several systems over one test set: corpus scores, significance, segments against each other.

    ``sample=True`` starts with the shipped WMT22 sample loaded; ``n_samples`` is the paired
    bootstrap's number of samples. :meth:`load_sample`, :meth:`load_uploads` and
    :meth:`open_segment` do what the buttons do.
    """

    _css_class = CORPUS_EXPLORER
    EMPTY_HEADLINE = ""

    def __init__(self, *, sample: bool = False, n_samples: int = N_RESAMPLES) -> None:
        super().__init__()
        if not isinstance(sample, bool):
            raise TypeError(f"sample: expected True or False, got {type(sample).__name__}")
        self.n_samples = n_samples
        self.comparison: Optional[Comparison] = None
        self._loader: Optional[Callable[[], CorpusSet]] = None
        self._sentence: dict[tuple[str, str], tuple[float, ...]] = {}
        self.reference_upload = with_class(FileUpload(description="Reference file", multiple=False, **_AUTO),
                                           REFERENCE_UPLOAD)
        self.systems_upload = with_class(FileUpload(description="System files (1-5)", multiple=True, **_AUTO),
                                         SYSTEMS_UPLOAD)
        self.score_button = with_class(Button(description="Score the uploaded files", **_AUTO),
                                       SCORE_BUTTON)
        self.sample_button = with_class(Button(description="WMT22 sample", **_AUTO), SAMPLE_BUTTON)
        self.system_a_input = self._dropdown("System A", "mtlearn-corpus-system-a")
        self.system_b_input = self._dropdown("System B", "mtlearn-corpus-system-b")
        self.metric_input = with_class(Dropdown(options=[(label, m) for m, label in _SENTENCE_LABELS.items()],
                                                value="bleu", description="Per segment", **_WIDE),
                                       "mtlearn-corpus-metric")
        self.segment_input = with_class(BoundedIntText(value=1, min=1, max=1, description="Segment (line)",
                                                       **_WIDE), SEGMENT_INPUT)
        self.open_button = with_class(Button(description="Open segment", **_AUTO), OPEN_BUTTON)
        self.table_html = self._tagged(widgets.HTML(), CORPUS_TABLE)
        self.segment_html = self._tagged(widgets.HTML(), CORPUS_SEGMENT)
        self.image = self._tagged(image_widget(), CORPUS_PLOT)
        self.figure: Any = None
        self.bleu_explorer: Optional[BleuExplorer] = None
        self.meteor_explorer: Optional[MeteorExplorer] = None
        self.sentence_box = widgets.VBox()
        self._inputs = {"system_a": self.system_a_input, "system_b": self.system_b_input,
                        "metric": self.metric_input, "segment": self.segment_input}
        self.sample_button.on_click(lambda _button: self.load_sample())
        self.score_button.on_click(lambda _button: self.load_uploads())
        self.open_button.on_click(lambda _button: self._open_from_button())
        self.children = [
            widgets.HBox([self.sample_button, self.reference_upload, self.systems_upload, self.score_button]),
            self.message_html, self.score_html, self.table_html,
            widgets.HBox([self.system_a_input, self.system_b_input, self.metric_input]),
            self.image, widgets.HBox([self.segment_input, self.open_button]), self.segment_html,
            self.sentence_box,
        ]
        self._watch()
        if sample:
            self.load_sample()
        else:
            self.refresh()

    @staticmethod
    def _dropdown(description: str, css_class: str) -> Any:
        return with_class(Dropdown(options=[], description=description, **_WIDE), css_class)

    # ----------------------------------------------------------------------------------- loading a corpus

    def load_sample(self) -> None:
        """Load and score the shipped WMT22 sample (what the "WMT22 sample" button does)."""
        self._load(wmt22_sample)

    def load_uploads(self) -> None:
        """Read and score the uploaded files (what "Score the uploaded files" does); a file that cannot be
        used gives a message naming it."""
        reference, systems = self.reference_upload.value, self.systems_upload.value
        self._load(lambda: self._uploaded_corpus(reference, systems))

    @staticmethod
    def _uploaded_corpus(reference: Any, systems: Any) -> CorpusSet:
        refs = uploaded_files(reference)
        if not refs:
            raise CorpusFileError("reference: no reference file uploaded; upload one (plain text, one "
                                  "segment a line)")
        return corpus_set(refs[0], uploaded_files(systems))

    def _load(self, loader: Callable[[], CorpusSet]) -> None:
        self._loader = loader
        self.refresh()

    def _take_corpus(self) -> None:
        """Read the corpus the last button asked for and score it (errors propagate: the base shows them)."""
        loader, self._loader = self._loader, None
        self.comparison = None
        self._sentence = {}
        if loader is None:
            return
        corpus = loader()
        self.comparison = compare(corpus, n_samples=self.n_samples, progress=self._progress)
        names = corpus.names
        with self._hold():
            for box, value in ((self.system_a_input, names[0]), (self.system_b_input, names[-1])):
                box.options = list(names)
                box.value = value
            self.segment_input.max = corpus.n_segments
            self.segment_input.value = 1

    def _progress(self, message: str) -> None:
        """Say what is being scored (a big corpus takes seconds: the page shows it meanwhile)."""
        self.message_html.value = (f'<div class="mtlearn-note" style="color:#555">{html.escape(message)} '
                                   "&hellip;</div>")

    # ------------------------------------------------------------------------------------------ computing

    def _scores(self, system: str, metric: str) -> tuple[float, ...]:
        key = (system, metric)
        if key not in self._sentence:
            assert self.comparison is not None
            self._sentence[key] = tuple(sentence_scores(self.comparison.corpus, system, metric))
        return self._sentence[key]

    def _compute(self) -> Optional[CorpusView]:
        if self._loader is not None:
            self._take_corpus()
        c = self.comparison
        if c is None:
            self.notes.append(HOW_TO)
            return None
        self.notes.extend(c.failed.values())
        a, b, metric = self.system_a_input.value, self.system_b_input.value, self.metric_input.value
        return CorpusView(c, a, b, metric, self._scores(a, metric), self._scores(b, metric),
                          self.segment_input.value)

    def _result_boxes(self) -> tuple[widgets.HTML, ...]:
        return (self.table_html, self.segment_html)

    def _fail(self, message: str) -> None:
        self.comparison = None
        super()._fail(message)

    # ------------------------------------------------------------------------------------------ showing

    def _render(self) -> None:
        v: CorpusView = self.result
        corpus = v.comparison.corpus
        self.score_html.value = (f"<b>{num('segments', corpus.n_segments)} segments, "
                                 f"{num('systems', len(corpus.systems))} system(s)</b> against "
                                 f"{html.escape(corpus.reference.name)}; the baseline of the tests is "
                                 f"<b>{html.escape(corpus.names[0])}</b>")
        self.table_html.value = _table(v.comparison)
        label = _SENTENCE_LABELS[v.metric]
        self._picture(lambda: plot_segment_pairs(v.scores_a, v.scores_b, marked=v.segment - 1,
                                                 metric=label, name_a=v.system_a, name_b=v.system_b,
                                                 title=f"{corpus.n_segments} segments, segment {v.segment} "
                                                       f"ringed; {_SENTENCE_SETTINGS[v.metric]}"))
        self.segment_html.value = _segment(v)

    # ------------------------------------------------------------------------------------ one segment

    def open_segment(self, segment: Optional[int] = None) -> None:
        """Show segment ``segment`` (its line, from 1; default: the number box's) in the sentence explorers:
        system A's hypothesis and the reference, BLEU with the plot's settings."""
        if self.comparison is None:
            raise ValueError("no corpus loaded: pick the WMT22 sample or score uploaded files first")
        if segment is not None:
            n = self.comparison.corpus.n_segments
            if isinstance(segment, bool) or not isinstance(segment, int) or not 1 <= segment <= n:
                raise ValueError(f"segment: give a line number from 1 to {n}, got {segment!r}")
            self.segment_input.value = segment
        k = self.segment_input.value - 1
        corpus = self.comparison.corpus
        hypothesis = corpus.hypotheses(self.system_a_input.value)[k]
        reference = _one_line(corpus.reference.lines[k])
        if self.bleu_explorer is None:
            self.bleu_explorer = BleuExplorer(hypothesis, [reference], tables_open=False,
                                              **SENTENCE_OPTIONS["bleu"])
            self.meteor_explorer = MeteorExplorer(hypothesis, [reference])
            self.sentence_box.children = [widgets.HTML(), self.bleu_explorer, self.meteor_explorer]
        else:
            assert self.meteor_explorer is not None
            self.bleu_explorer.set_inputs(candidate=hypothesis, references=[reference],
                                          **SENTENCE_OPTIONS["bleu"])
            self.meteor_explorer.set_inputs(candidate=hypothesis, references=[reference])
        heading = self.sentence_box.children[0]
        heading.value = (f"<h4>Segment {k + 1} of {html.escape(self.system_a_input.value)} in the sentence "
                         "explorers (change anything: the files stay as they are)</h4>")

    def _open_from_button(self) -> None:
        """The button's click: a problem becomes the explorer's message, not a traceback in the log."""
        try:
            self.open_segment()
        except Exception as error:  # noqa: BLE001 - never a traceback in the room
            self.error = str(error) if isinstance(error, ValueError) else f"unexpected {error!r}"
            self._render_messages()


def _one_line(text: str) -> str:
    """A reference as the references box can hold it: a line break inside (U+2028, a form feed, ...: not
    one for the files, which end lines at \\n only) becomes a space, which every tokenizer splits at too.

    >>> _one_line("one\u2028two")
    'one two'
    """
    parts = text.splitlines()
    return " ".join(parts) if len(parts) > 1 else text


def _p_cell(c: Comparison, metric: str, k: int, name: str) -> str:
    if k == 0:
        return "<br><small>baseline</small>"
    p = c.p_value(metric, name)
    if p is None:
        return ""
    mark = "*" if c.tests[metric].system(name).significant else ""
    return f"<br><small>p = {num(f'{metric}-p-{k}', p, f'{p:.4f}')}{mark}</small>"


def _table(c: Comparison) -> str:
    """The corpus scores and the paired bootstrap's p-values, a row per system, then the signatures."""
    metrics = [m for m in METRICS if m in c.results]
    head = "".join(f"<th>{METRIC_NAMES[m]}{' (lower is better)' if m == 'ter' else ''}</th>" for m in metrics)
    rows = []
    for k, name in enumerate(c.corpus.names):
        cells = "".join(f"<td>{num(f'{m}-{k}', c.score(m, name))}{_p_cell(c, m, k, name)}</td>"
                        for m in metrics)
        rows.append(f"<tr><td>{html.escape(name)}</td>{cells}</tr>")
    style = 'style="border-collapse:collapse" border="1" cellpadding="4"'
    signatures = "".join(f"<div>{html.escape(c.tests[m].signature if m in c.tests else _signature(c, m))}"
                         "</div>" for m in metrics)
    legend = ""
    if c.tests:
        legend = (f"<p>p: paired bootstrap resampling against the baseline ({c.n_samples} samples, seed "
                  f"{c.seed}, sacreBLEU's test); * p &le; 0.05: the difference is unlikely to be chance "
                  "(a difference, not &ldquo;better&rdquo;).</p>")
    return (f'<table class="mtlearn-corpus-scores" {style}><tr><th>system</th>{head}</tr>{"".join(rows)}'
            f"</table>{legend}<div style='color:#666;font-size:0.85em'>{signatures}</div>")


def _signature(c: Comparison, metric: str) -> str:
    return str(next(iter(c.results[metric].values())).signature)


def _segment(v: CorpusView) -> str:
    """Segment ``v.segment``'s reference and every system's hypothesis; A's and B's sentence scores."""
    corpus, k = v.comparison.corpus, v.segment - 1
    scores = {v.system_a: v.scores_a[k], v.system_b: v.scores_b[k]}
    rows = [f"<div><b>reference</b> ({html.escape(corpus.reference.name)}): "
            f"{html.escape(corpus.reference.lines[k])}</div>"]
    for j, name in enumerate(corpus.names):
        score = (f" &mdash; {html.escape(_SENTENCE_LABELS[v.metric])} "
                 f"{num(f'sentence-{j}', scores[name])}" if name in scores else "")
        text = html.escape(corpus.hypotheses(name)[k])
        rows.append(f"<div><b>{html.escape(name)}</b>: {text}{score}</div>")
    return f"<div><b>segment {k + 1}</b> (line {k + 1} of every file)</div>{''.join(rows)}"


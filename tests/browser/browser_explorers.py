"""Poke at a BLEU, METEOR, chrF or TER explorer in the browser and check every number it shows.

The explorer's settings are read off the page (what the student sees: the
references box, the slider readouts, the dropdowns, the checkboxes); the expected
numbers are computed here, in the test process, with :func:`mtlearn.bleu`,
:func:`mtlearn.meteor`, :func:`mtlearn.chrf` or :func:`mtlearn.ter`; and every ``span.mtlearn-num`` the
explorer shows is compared with them: its ``data-value`` to the float's precision, and its text
rounded to the digits it shows (see ``mtlearn/show/css.py`` for the CSS classes
and number names).

A student's session, for each explorer: check the numbers as the notebook left
them; type a new candidate (made from the first reference, chosen so that the
score changes); move a slider with the keyboard (BLEU: max order; METEOR:
alpha; chrF: beta) or tick a box (TER: case sensitive); each time wait for the
page to show the new right numbers, and save a screenshot.

>>> shortened("the cat is on the mat")
'the cat is on the'
>>> rotated("the cat sat on the mat", 2)
'sat on the mat the cat'
>>> rotated_and_shortened("the cat sat on the mat")
'on the mat cat sat'

The comparison sees a wrong number (data-value, text shown or exact fraction):

>>> from fractions import Fraction
>>> shown = [{"name": "score", "value": "0.5", "exact": None, "text": "0.5000"},
...          {"name": "f-mean", "value": "0.75", "exact": "3/4", "text": "3/4 = 0.7500"}]
>>> mismatches(shown, {"score": 0.5, "f-mean": Fraction(3, 4)})
[]
>>> for problem in mismatches(shown, {"score": 0.25, "f-mean": Fraction(2, 3), "chunks": 3}):
...     print(problem)
chunks: not shown
score: data-value 0.5, expected 0.25
score: shows '0.5000', expected 0.25
f-mean: data-value 0.75, expected Fraction(2, 3)
f-mean: shows '3/4 = 0.7500', expected 0.666667
f-mean: data-exact 3/4, expected 2/3
"""

from __future__ import annotations

import math
import statistics
import time
from fractions import Fraction
from typing import Any, Callable, Optional

import browser_ui as ui
from browser_harness import save_screenshot

import mtlearn
from mtlearn.metrics.meteor.wordnet import WordNetMissingError
from mtlearn.show import css

STAGES = ("exact", "stem", "synonym")

# A number shown by an explorer: {name, value (data-value), exact (data-exact), text}.
_NUMBERS_JS = """root => [...root.querySelectorAll('span.NUMBER')].map(span => ({
  name: span.dataset.name, value: span.dataset.value, exact: span.dataset.exact ?? null,
  text: (span.innerText || '').trim()}))""".replace("NUMBER", css.NUMBER)


def shortened(reference: str) -> str:
    """The reference without its last word (all n-grams match; the brevity penalty bites)."""
    return " ".join(reference.split()[:-1])


def rotated(reference: str, k: int) -> str:
    """The reference's words rotated left by ``k`` (same words, new order)."""
    words = reference.split()
    return " ".join(words[k:] + words[:k])


def rotated_and_shortened(reference: str) -> str:
    """Rotated by half, then the middle word dropped: P differs from R, more than one chunk."""
    words = rotated(reference, len(reference.split()) // 2).split()
    del words[len(words) // 2]
    return " ".join(words)


# --------------------------------------------------------------------------------------
# Reading the page
# --------------------------------------------------------------------------------------


def textarea(explorer: Any, name: str) -> str:
    """The text in the Textarea with CSS class ``name``."""
    return explorer.locator(f".{name} textarea").first.input_value()


def text_input(explorer: Any, name: str) -> str:
    """The text in the Text box with CSS class ``name``."""
    return explorer.locator(f".{name} input").first.input_value()


def dropdown(explorer: Any, name: str) -> str:
    """The value chosen in the Dropdown with CSS class ``name``."""
    return explorer.locator(f".{name} select").first.input_value()


def checkbox(explorer: Any, name: str) -> bool:
    """Whether the Checkbox with CSS class ``name`` is ticked."""
    return explorer.locator(f".{name} input[type=checkbox]").first.is_checked()


def readout(explorer: Any, name: str) -> str:
    """The readout of the slider with CSS class ``name``."""
    return ui.slider_readout(explorer.locator(f".{name}").first)


def references(explorer: Any) -> list[str]:
    """The references typed in the box, one per line."""
    return [line.strip() for line in textarea(explorer, css.REFERENCES).splitlines() if line.strip()]


def shown_numbers(explorer: Any) -> list[dict[str, Optional[str]]]:
    """Every number the explorer shows."""
    return explorer.evaluate(_NUMBERS_JS)


def shown_score(explorer: Any) -> str:
    """The score line, e.g. ``"BLEU = 0.5046"``."""
    return explorer.locator(f".{css.SCORE}").first.inner_text().strip()


def shown_message(explorer: Any) -> str:
    """The explorer's notes and errors, as shown."""
    return explorer.locator(f".{css.MESSAGE}").first.inner_text().strip()


# --------------------------------------------------------------------------------------
# The expected numbers, computed here
# --------------------------------------------------------------------------------------


def _weights(text: str) -> Optional[list[float]]:
    items = text.replace(",", " ").replace(";", " ").split()
    return [float(Fraction(item)) for item in items] if items else None


def bleu_settings(explorer: Any) -> dict[str, Any]:
    """The BLEU explorer's settings, as the page shows them."""
    return dict(
        max_order=int(readout(explorer, css.MAX_ORDER)),
        smoothing=dropdown(explorer, css.SMOOTHING),
        tokenize=dropdown(explorer, css.TOKENIZE),
        lowercase=checkbox(explorer, css.LOWERCASE),
        effective_order=checkbox(explorer, css.EFFECTIVE_ORDER),
        weights=_weights(text_input(explorer, css.WEIGHTS)),
    )


def bleu_expected(candidate: str, refs: list[str], settings: dict[str, Any]) -> dict[str, Any]:
    """Number name -> value, for every number the BLEU explorer shows."""
    r = mtlearn.bleu(candidate, refs, **settings)
    numbers: dict[str, Any] = {
        "score": r.score, "brevity-penalty": r.brevity_penalty, "candidate-length": r.candidate_length,
        "reference-length": r.reference_length, "ratio": r.ratio, "geometric-mean": r.geometric_mean,
    }
    for n in range(1, r.max_order + 1):
        numbers[f"matches-{n}"] = r.matches[n - 1]
        numbers[f"totals-{n}"] = r.totals[n - 1]
        numbers[f"precision-{n}"] = r.precisions[n - 1]
        numbers[f"weight-{n}"] = r.effective_weights[n - 1]
    return numbers


def meteor_settings(explorer: Any) -> dict[str, Any]:
    """The METEOR explorer's settings, as the page shows them."""
    return dict(
        stages=[s for s in STAGES if checkbox(explorer, css.stage_class(s))],
        alpha=float(readout(explorer, css.ALPHA)),
        beta=float(readout(explorer, css.BETA)),
        gamma=float(readout(explorer, css.GAMMA)),
        tie_break=dropdown(explorer, css.TIE_BREAK),
        lowercase=checkbox(explorer, css.LOWERCASE),
        tokenize=dropdown(explorer, css.TOKENIZE),
        language=dropdown(explorer, css.LANGUAGE),
    )


def meteor_expected(candidate: str, refs: list[str], settings: dict[str, Any]) -> dict[str, Any]:
    """Number name -> value, for every number the METEOR explorer shows.

    Without WordNet the explorer scores without the synonym stage and says so (a
    note); so does this, and :func:`exercise_meteor` checks that note is shown.
    """
    try:
        r = mtlearn.meteor(candidate, refs, **settings)
    except WordNetMissingError:
        rest = [s for s in settings["stages"] if s != "synonym"]
        r = mtlearn.meteor(candidate, refs, **{**settings, "stages": rest})
    numbers: dict[str, Any] = {
        "score": r.score, "precision": r.precision, "recall": r.recall, "f-mean": r.f_mean,
        "fragmentation": r.fragmentation, "penalty": r.penalty, "matches": r.matches, "chunks": r.chunks,
        "crossings": r.crossings, "candidate-length": r.candidate_length,
        "reference-length": r.reference_length,
    }
    for stage, count in r.matches_per_stage.items():
        numbers[f"matches-{stage}"] = count
    if len(r.per_reference) > 1:
        for k, each in enumerate(r.per_reference, start=1):
            numbers[f"reference-score-{k}"] = each.score
        numbers["best-reference"] = (r.best_reference or 0) + 1
    return numbers


def chrf_settings(explorer: Any) -> dict[str, Any]:
    """The chrF explorer's settings, as the page shows them."""
    return dict(
        char_order=int(readout(explorer, css.CHAR_ORDER)),
        word_order=int(readout(explorer, css.WORD_ORDER)),
        beta=float(readout(explorer, css.CHRF_BETA)),
        lowercase=checkbox(explorer, css.LOWERCASE),
        whitespace=checkbox(explorer, css.WHITESPACE),
        eps_smoothing=checkbox(explorer, css.EPS_SMOOTHING),
    )


def chrf_expected(candidate: str, refs: list[str], settings: dict[str, Any]) -> dict[str, Any]:
    """Number name -> value, for every number the chrF explorer shows."""
    r = mtlearn.chrf(candidate, refs, **settings)
    numbers: dict[str, Any] = {"score": r.score, "precision": r.precision, "recall": r.recall,
                               "f-beta": r.f_beta}
    for o in r.orders:
        k = f"{'c' if o.kind == 'char' else 'w'}{o.n}"
        numbers.update({f"candidate-count-{k}": o.candidate_count, f"reference-count-{k}": o.reference_count,
                        f"matched-{k}": o.matched, f"precision-{k}": o.precision, f"recall-{k}": o.recall,
                        f"f-{k}": o.f})
    if len(refs) > 1 and r.best_reference is not None:
        for k, each in enumerate(r.reference_scores, start=1):
            numbers[f"reference-score-{k}"] = each
        numbers["best-reference"] = r.best_reference + 1
    return numbers


TER_OPTIONS = ("normalized", "no_punct", "asian_support", "case_sensitive")


def ter_settings(explorer: Any) -> dict[str, Any]:
    """The TER explorer's settings, as the page shows them."""
    return {name: checkbox(explorer, css.control_class(name)) for name in TER_OPTIONS}


def ter_expected(candidate: str, refs: list[str], settings: dict[str, Any]) -> dict[str, Any]:
    """Number name -> value, for every number the TER explorer shows."""
    r = mtlearn.ter(candidate, refs, **settings)
    counts = r.counts()
    numbers: dict[str, Any] = {
        "score": r.score, "edits": r.num_edits, "reference-length": r.reference_length,
        "shifts": counts["shift"], "substitutions": counts["substitute"], "insertions": counts["insert"],
        "deletions": counts["delete"], "matches": counts["match"],
    }
    for s in r.shifts:
        numbers[f"shift-gain-{s.round}"] = s.gain
    if len(refs) > 1 and r.best_reference is not None:
        for k, edits in enumerate(r.reference_edits, start=1):
            numbers[f"reference-edits-{k}"] = edits
        numbers["best-reference"] = r.best_reference + 1
    return numbers


def wordnet_available() -> bool:
    """Whether NLTK finds WordNet in the test process."""
    try:
        mtlearn.meteor("dog", ["hound"], stages=["synonym"])
    except WordNetMissingError:
        return False
    return True


# --------------------------------------------------------------------------------------
# Comparing
# --------------------------------------------------------------------------------------


def _same(shown: str, expected: Any) -> bool:
    if isinstance(expected, int) and not isinstance(expected, bool):
        return shown == str(expected)
    value = float(expected)
    got = float(shown)
    if math.isinf(value) or math.isnan(value):
        return got == value or (math.isnan(got) and math.isnan(value))
    return math.isclose(got, value, rel_tol=1e-12, abs_tol=1e-15)


def mismatches(shown: list[dict[str, Optional[str]]], expected: dict[str, Any]) -> list[str]:
    """What the page shows wrongly: missing numbers, wrong values, wrong text, wrong fractions."""
    problems = [f"{name}: not shown" for name in expected if not any(s["name"] == name for s in shown)]
    for item in shown:
        name, text = str(item["name"]), str(item["text"])
        if name not in expected:
            continue  # a number this test does not know about is not checked (printed by the caller)
        want = expected[name]
        if not _same(str(item["value"]), want):
            problems.append(f"{name}: data-value {item['value']}, expected {want!r}")
        spelled = ui.NUMBER.findall(text)
        if not spelled or not ui.shows(spelled[-1], float(want)):
            problems.append(f"{name}: shows {text!r}, expected {float(want):.6g}")
        if isinstance(want, Fraction) and item["exact"] not in (None, str(want)):
            problems.append(f"{name}: data-exact {item['exact']}, expected {want}")
    return problems


def wait_for_numbers(explorer: Any, expected: dict[str, Any], what: str,
                     timeout_s: float = ui.WIDGET_UPDATE_MS / 1000) -> None:
    """Wait until every number the explorer shows is the expected one; fail listing the differences."""
    deadline = time.monotonic() + timeout_s
    while True:
        shown = shown_numbers(explorer)
        problems = mismatches(shown, expected)
        if not problems:
            unknown = sorted({str(s["name"]) for s in shown} - set(expected))
            if unknown:
                print(f"{what}: numbers not checked (unknown to the test): {unknown}")
            print(f"{what}: {shown_score(explorer)!r}, {len(shown)} numbers checked against mtlearn")
            return
        if time.monotonic() > deadline:
            message = shown_message(explorer)
            raise AssertionError(
                f"{what}: after {timeout_s:.0f} s the page still shows wrong numbers"
                f" (score line {shown_score(explorer)!r}; message {message!r}):\n  " + "\n  ".join(problems)
            )
        time.sleep(0.25)


def _new_candidate(refs: list[str], current: str, score: Callable[[str], float],
                   makers: list[Callable[[str], str]]) -> str:
    """The first candidate built from the first reference whose score differs from the current one."""
    before = score(current)
    for make in makers:
        candidate = make(refs[0])
        if candidate and candidate != current and not math.isclose(score(candidate), before):
            return candidate
    raise AssertionError(f"no new candidate changes the score (references {refs!r}, candidate {current!r})")


def _slider_key(explorer: Any, name: str, minimum: str) -> str:
    """ArrowLeft, unless the slider is at its minimum."""
    return "ArrowRight" if readout(explorer, name) == minimum else "ArrowLeft"


# --------------------------------------------------------------------------------------
# A student's session
# --------------------------------------------------------------------------------------


def exercise_bleu(page: Any, shot: str, root: str = f".{css.BLEU_EXPLORER}") -> None:
    """Check, type, slide, check again, in the first BLEU explorer on the page."""
    explorer = page.locator(root).first
    explorer.wait_for()
    explorer.scroll_into_view_if_needed()
    refs, settings = references(explorer), bleu_settings(explorer)
    candidate = textarea(explorer, css.CANDIDATE)
    wait_for_numbers(explorer, bleu_expected(candidate, refs, settings), f"{shot} as the notebook left it")

    def score(text: str) -> float:
        return float(bleu_expected(text, refs, settings)["score"])

    # Rotated: BP stays 1 but the higher-order precisions drop, so the max order slider matters too.
    candidate = _new_candidate(refs, candidate, score,
                               [lambda r: rotated(r, 1), rotated_and_shortened, shortened])
    ui.type_text(explorer.locator(f".{css.CANDIDATE}").first, candidate)
    assert textarea(explorer, css.CANDIDATE) == candidate
    after_typing = bleu_expected(candidate, refs, settings)
    wait_for_numbers(explorer, after_typing, f"{shot} after typing {candidate!r}")
    explorer.locator(f".{css.SCORE}").first.scroll_into_view_if_needed()
    save_screenshot(page, f"{shot}-after-typing")

    before = settings["max_order"]
    key = _slider_key(explorer, css.MAX_ORDER, "1")
    shown = ui.press_slider(explorer.locator(f".{css.MAX_ORDER}").first, key)
    settings = bleu_settings(explorer)
    assert settings["max_order"] == int(shown) == before + (1 if key == "ArrowRight" else -1)
    after_slider = bleu_expected(candidate, refs, settings)
    assert not math.isclose(after_slider["score"], after_typing["score"]), (
        "max order should change this score")
    wait_for_numbers(explorer, after_slider,
                     f"{shot} after the max order slider {before} -> {shown}")
    save_screenshot(page, f"{shot}-after-max-order-slider")


def exercise_meteor(page: Any, shot: str, root: str = f".{css.METEOR_EXPLORER}") -> None:
    """Check, type, slide, check again, in the first METEOR explorer on the page."""
    explorer = page.locator(root).first
    explorer.wait_for()
    explorer.scroll_into_view_if_needed()
    refs, settings = references(explorer), meteor_settings(explorer)
    if "synonym" in settings["stages"] and not wordnet_available():
        message = shown_message(explorer)
        assert "WordNet" in message, f"{shot}: no WordNet here, and the explorer does not say so: {message!r}"
    candidate = textarea(explorer, css.CANDIDATE)
    wait_for_numbers(explorer, meteor_expected(candidate, refs, settings), f"{shot} as the notebook left it")

    def score(text: str) -> float:
        return float(meteor_expected(text, refs, settings)["score"])

    # P must differ from R, or alpha would not change F_mean: the candidate drops a word.
    candidate = _new_candidate(refs, candidate, score,
                               [rotated_and_shortened, shortened, lambda r: shortened(rotated(r, 1))])
    ui.type_text(explorer.locator(f".{css.CANDIDATE}").first, candidate)
    assert textarea(explorer, css.CANDIDATE) == candidate
    after_typing = meteor_expected(candidate, refs, settings)
    wait_for_numbers(explorer, after_typing, f"{shot} after typing {candidate!r}")
    explorer.locator(f".{css.SCORE}").first.scroll_into_view_if_needed()
    save_screenshot(page, f"{shot}-after-typing")

    # Every parameter slider must move the score (alpha and beta once could not, from
    # a starting pair with P = R = 1 and one chunk per match).
    current = after_typing
    for name in ("alpha", "beta", "gamma"):
        before = readout(explorer, css.control_class(name))
        shown = ui.press_slider(explorer.locator(f".{css.control_class(name)}").first,
                                _slider_key(explorer, css.control_class(name), "0.00"))
        settings = meteor_settings(explorer)
        assert shown != before and settings[name] == float(shown)
        after_slider = meteor_expected(candidate, refs, settings)
        assert not math.isclose(after_slider["score"], current["score"]), f"{name} should change this score"
        wait_for_numbers(explorer, after_slider, f"{shot} after the {name} slider {before} -> {shown}")
        current = after_slider
    explorer.locator(f".{css.SCORE}").first.scroll_into_view_if_needed()
    save_screenshot(page, f"{shot}-after-sliders")


def exercise_chrf(page: Any, shot: str, root: str = f".{css.CHRF_EXPLORER}") -> None:
    """Check, type, slide, check again, in the first chrF explorer on the page."""
    explorer = page.locator(root).first
    explorer.wait_for()
    explorer.scroll_into_view_if_needed()
    refs, settings = references(explorer), chrf_settings(explorer)
    candidate = textarea(explorer, css.CANDIDATE)
    wait_for_numbers(explorer, chrf_expected(candidate, refs, settings), f"{shot} as the notebook left it")

    def score(text: str) -> float:
        return float(chrf_expected(text, refs, settings)["score"])

    # Shortened: precision stays high, recall drops, so beta matters too.
    candidate = _new_candidate(refs, candidate, score, [shortened, rotated_and_shortened])
    ui.type_text(explorer.locator(f".{css.CANDIDATE}").first, candidate)
    assert textarea(explorer, css.CANDIDATE) == candidate
    after_typing = chrf_expected(candidate, refs, settings)
    wait_for_numbers(explorer, after_typing, f"{shot} after typing {candidate!r}")
    explorer.locator(f".{css.SCORE}").first.scroll_into_view_if_needed()
    save_screenshot(page, f"{shot}-after-typing")

    before = readout(explorer, css.CHRF_BETA)
    shown = ui.press_slider(explorer.locator(f".{css.CHRF_BETA}").first,
                            _slider_key(explorer, css.CHRF_BETA, "0.0"))
    settings = chrf_settings(explorer)
    assert shown != before and settings["beta"] == float(shown)
    after_slider = chrf_expected(candidate, refs, settings)
    if settings["beta"] > 0:
        assert not math.isclose(after_slider["score"], after_typing["score"]), "beta should change this score"
    wait_for_numbers(explorer, after_slider, f"{shot} after the beta slider {before} -> {shown}")
    save_screenshot(page, f"{shot}-after-beta-slider")


def exercise_ter(page: Any, shot: str, root: str = f".{css.TER_EXPLORER}") -> None:
    """Check, type, tick a box, check again, in the first TER explorer on the page."""
    explorer = page.locator(root).first
    explorer.wait_for()
    explorer.scroll_into_view_if_needed()
    refs, settings = references(explorer), ter_settings(explorer)
    candidate = textarea(explorer, css.CANDIDATE)
    wait_for_numbers(explorer, ter_expected(candidate, refs, settings), f"{shot} as the notebook left it")

    def score(text: str) -> float:
        return float(ter_expected(text, refs, settings)["score"])

    # Rotated: the same words in another order, so TER shifts a block (and the picture shows an arrow).
    candidate = _new_candidate(refs, candidate, score,
                               [lambda r: rotated(r, len(r.split()) // 2).lower(), rotated_and_shortened,
                                shortened])
    ui.type_text(explorer.locator(f".{css.CANDIDATE}").first, candidate)
    assert textarea(explorer, css.CANDIDATE) == candidate
    after_typing = ter_expected(candidate, refs, settings)
    wait_for_numbers(explorer, after_typing, f"{shot} after typing {candidate!r}")
    explorer.locator(f".{css.SCORE}").first.scroll_into_view_if_needed()
    save_screenshot(page, f"{shot}-after-typing")

    box = explorer.locator(f".{css.control_class('case_sensitive')} input[type=checkbox]").first
    box.click()
    settings = ter_settings(explorer)
    after_click = ter_expected(candidate, refs, settings)
    wait_for_numbers(explorer, after_click,
                     f"{shot} after case sensitive -> {settings['case_sensitive']}")
    save_screenshot(page, f"{shot}-after-case-sensitive")


# --------------------------------------------------------------------------------------
# Typing latency (the target: "under 150 ms from the last key to the new numbers" for
# sentence-sized pairs; the explorer scores after a pause in typing)
# --------------------------------------------------------------------------------------

_SCORE_IS_JS = """([root, value]) => {
    const span = document.querySelector(`${root} .SCORE .NUMBER[data-name="score"]`);
    return span !== null && span.dataset.value === value;
}""".replace("SCORE", css.SCORE).replace("NUMBER", css.NUMBER)


_PICTURE_JS = """(root) => {
    const img = document.querySelector(`${root} img`);
    return img === null ? null : img.src;
}"""
_PICTURE_CHANGED_JS = """([root, before]) => {
    const img = document.querySelector(`${root} img`);
    return img !== null && img.src !== before;
}"""


def _words_of(sentence: str, n: int) -> str:
    """``n`` words: ``sentence`` repeated (so function words repeat, as in a long text)."""
    words = sentence.split()
    return " ".join(words[k % len(words)] for k in range(n))


def typing_latency(page: Any, root: str, sentence: str, words: int, repeats: int = 3,
                   report: Optional[list[str]] = None) -> list[float]:
    """Seconds from the last key typed into the METEOR explorer to its new score on the page.

    Both sides get ``words`` words (``sentence`` repeated; the candidate rotated by a
    word), then, ``repeats`` times, a word is typed at the end
    of the candidate key by key and the clock runs from the last key until the page
    shows the score mtlearn computes for the new candidate (read in the page at each
    animation frame). Where the picture is drawn (up to ``PICTURE_MAX_WORDS`` words a
    side) the clock also runs until the new picture replaces the old one (it waits for
    a further pause: ``PICTURE_PAUSE_S``). Each figure is printed, and added to ``report``.
    """
    from mtlearn.show.explorers import PICTURE_MAX_WORDS
    explorer = page.locator(root).first
    explorer.scroll_into_view_if_needed()
    settings = meteor_settings(explorer)
    reference = _words_of(sentence, words)
    candidate = rotated(reference, 1)
    ui.type_text(explorer.locator(f".{css.REFERENCES}").first, reference, typed=0)
    ui.type_text(explorer.locator(f".{css.CANDIDATE}").first, candidate, typed=0)
    start_numbers = meteor_expected(candidate, [reference], settings)
    wait_for_numbers(explorer, start_numbers, f"{root}: {words} words a side")
    field = explorer.locator(f".{css.CANDIDATE} textarea").first
    seconds, pictures = [], []
    expected = start_numbers["score"]
    for extra in ["mat", "dog", "tea", "sun", "cup"][:repeats]:
        before = expected  # the score the page shows now
        candidate = f"{candidate} {extra}"
        expected = meteor_expected(candidate, [reference], settings)["score"]
        assert not math.isclose(expected, before), f"typing {extra!r} should change the score"
        picture = page.evaluate(_PICTURE_JS, root)
        field.click()
        field.press("Control+End")  # the end of the text (End: of the line clicked, in a wrapped box)
        field.press_sequentially(f" {extra[:-1]}", delay=20)
        field.press(extra[-1])
        start = time.monotonic()
        page.wait_for_function(_SCORE_IS_JS, arg=[root, repr(float(expected))], polling="raf",
                               timeout=ui.WIDGET_UPDATE_MS)
        seconds.append(time.monotonic() - start)
        if words <= PICTURE_MAX_WORDS and picture is not None:
            page.wait_for_function(_PICTURE_CHANGED_JS, arg=[root, picture], polling="raf",
                                   timeout=ui.WIDGET_UPDATE_MS)
            pictures.append(time.monotonic() - start)
    def ms(values: list[float]) -> str:
        return (", ".join(f"{v * 1000:.0f} ms" for v in values)
                + f" (median {statistics.median(values) * 1000:.0f} ms)")

    line = f"typing latency, {root}, {words} words a side: last key -> new score {ms(seconds)}"
    if pictures:
        line += f"; -> new picture {ms(pictures)}"
    print(line)
    if report is not None:
        report.append(line)
    return seconds

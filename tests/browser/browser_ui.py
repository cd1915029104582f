"""What a student does in the browser, as small functions over a Playwright page.

JupyterLab: open a notebook, clear the stored outputs and *Run → Run All Cells*
through the menu bar, wait until every cell has run and the kernel is idle, list
the errors the page shows. Widgets: type into an ipywidgets text box, move a
slider with the keyboard, read the numbers a widget shows.

Only the page is used, never the kernel behind it: what is checked is what a
student sees.

>>> numbers_in("BLEU = 0.4671 (BP 1, ratio 1.2) and -3e-2")
[0.4671, 1.0, 1.2, -0.03]
>>> decimals_of("0.4671"), decimals_of("47"), decimals_of("1.50")
(4, 0, 2)
>>> shows("0.4671", 0.46713), shows("0.4671", 0.4676), shows("47", 46.6)
(True, False, True)
"""

from __future__ import annotations

import re
import time
from typing import Any

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
STDERR = 'application/vnd.jupyter.stderr'

# Generous but bounded waits.
KERNEL_IDLE_S = 120.0
RUN_ALL_TIMEOUT_S = 240.0
WIDGET_UPDATE_MS = 30_000

# Every code cell, as the page shows it: its prompt ("[ ]:", "[*]:", "[3]:") and whether it has source.
_CELLS_JS = """() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-CodeCell')]
  .map((cell, i) => ({
    index: i,
    prompt: (cell.querySelector('.jp-InputPrompt')?.innerText || '').trim(),
    empty: (cell.querySelector('.cm-content')?.innerText || '').trim() === '',
  }))"""  # noqa: E501

# Output nodes that show an error: a traceback (error outputs are drawn with the stderr
# mime type), or an ipywidget that could not be displayed.
_ERRORS_JS = """(stderr) => {
  const found = [];
  for (const node of document.querySelectorAll('.jp-OutputArea-output')) {
    const text = node.innerText || '';
    const isStderr = node.getAttribute('data-mime-type') === stderr;
    if ((isStderr && /Traceback|\\b\\w*(Error|Exception)\\b/.test(text))
        || /Error displaying widget|Failed to display widget|model not found/.test(text)) {
      found.push(text.slice(0, 2000));
    }
  }
  return found;
}"""

_STDERR_JS = """(stderr) => [...document.querySelectorAll(`.jp-OutputArea-output[data-mime-type="${stderr}"]`)]
  .map(node => (node.innerText || '').slice(0, 500))"""  # noqa: E501


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text``, in order."""
    return [float(match) for match in NUMBER.findall(text)]


def decimals_of(spelling: str) -> int:
    """How many digits after the decimal point ``spelling`` shows."""
    mantissa = re.split(r"[eE]", spelling)[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def shows(spelling: str, expected: float) -> bool:
    """Whether the number spelled ``spelling`` is ``expected`` rounded to the digits shown."""
    half_unit = 0.5 * 10.0 ** -decimals_of(spelling)
    return abs(float(spelling) - expected) <= half_unit * (1 + 1e-9)


# --------------------------------------------------------------------------------------
# JupyterLab
# --------------------------------------------------------------------------------------


def kernel_status(page: Any) -> str:
    """The status bar's kernel text, e.g. ``"Python 3 (ipykernel) | Idle"``."""
    texts = page.locator(".jp-StatusBar-TextItem").all_inner_texts()
    return next((t.strip() for t in texts if "|" in t), "")


def wait_idle(page: Any, timeout: float = KERNEL_IDLE_S) -> None:
    """Wait until the status bar says the kernel is idle."""
    deadline = time.monotonic() + timeout
    while not kernel_status(page).endswith("| Idle"):
        if time.monotonic() > deadline:
            raise AssertionError(f"the kernel never became idle (status bar: {kernel_status(page)!r})")
        time.sleep(0.25)


def open_notebook(page: Any, server: Any, name: str) -> None:
    """Open ``name`` in a fresh JupyterLab workspace and wait until its kernel is idle."""
    page.goto(server.url(f"/lab/tree/{name}", reset=""))
    page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for()
    deadline = time.monotonic() + KERNEL_IDLE_S
    while time.monotonic() < deadline:
        dialog = page.locator(".jp-Dialog")
        if dialog.count() and "Select Kernel" in dialog.first.inner_text():
            # A notebook without kernel metadata: accept the default (Python 3), as a student would.
            dialog.locator(".jp-mod-accept").click()
        if kernel_status(page).endswith("| Idle"):
            return
        time.sleep(0.25)
    raise AssertionError(f"{name}: the kernel never became idle (status bar: {kernel_status(page)!r})")


def menu(page: Any, top: str, item: str) -> None:
    """Click ``top`` in the menu bar, then the menu item labelled exactly ``item``."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{re.escape(top)}$")).click()
    page.locator(".lm-Menu-content").get_by_text(item, exact=True).click()


def cells(page: Any) -> list[dict[str, Any]]:
    """The code cells of the open notebook: index, prompt, empty."""
    return page.evaluate(_CELLS_JS)


def error_outputs(page: Any) -> list[str]:
    """The text of every output on the page that shows an error."""
    return page.evaluate(_ERRORS_JS, STDERR)


def stderr_outputs(page: Any) -> list[str]:
    """The text of every stderr output (warnings included)."""
    return page.evaluate(_STDERR_JS, STDERR)


def run_all_cells(page: Any, name: str, timeout: float = RUN_ALL_TIMEOUT_S) -> float:
    """*Edit → Clear Outputs of All Cells*, *Run → Run All Cells*; wait until all ran. Seconds taken.

    Done means: every code cell with source shows an execution count (``[n]:``,
    none ``[*]:``), and the kernel is idle. An error output stops the wait at once.
    """
    menu(page, "Edit", "Clear Outputs of All Cells")
    page.wait_for_function("() => !document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) "
                           ".jp-OutputArea-output')")
    start = time.monotonic()
    menu(page, "Run", "Run All Cells")
    while True:
        states = [c for c in cells(page) if not c["empty"]]
        if error_outputs(page):
            return time.monotonic() - start
        finished = all(re.fullmatch(r"\[\d+\]:", c["prompt"]) for c in states)
        if finished and kernel_status(page).endswith("| Idle"):
            return time.monotonic() - start
        if time.monotonic() - start > timeout:
            waiting = [c["index"] + 1 for c in states if not re.fullmatch(r"\[\d+\]:", c["prompt"])]
            raise AssertionError(
                f"{name}: Run All Cells did not finish in {timeout:.0f} s; code cells not run: {waiting};"
                f" kernel: {kernel_status(page)!r}"
            )
        time.sleep(0.5)


# --------------------------------------------------------------------------------------
# Widgets
# --------------------------------------------------------------------------------------


def type_text(box: Any, text: str, typed: int = 12) -> None:
    """Replace what is in a Text/Textarea widget by ``text`` and leave the box.

    The box is cleared and filled with all but the last ``typed`` characters,
    which are then typed key by key (each key is an update the kernel answers),
    then Tab: a widget with ``continuous_update=False`` syncs on blur.
    """
    field = box.locator("input, textarea").first
    field.click()
    field.fill(text[:-typed] if typed else text)
    if typed:
        field.press("End")
        field.press_sequentially(text[-typed:], delay=20)
    field.press("Tab")


def press_slider(slider: Any, key: str, times: int = 1) -> str:
    """Focus a slider's handle, press ``key`` ``times`` times; return the slider's readout."""
    handle = slider.locator(".noUi-handle, input[type=range]").first
    handle.focus()
    for _ in range(times):
        handle.press(key)
    handle.blur()
    return slider_readout(slider)


def slider_readout(slider: Any) -> str:
    """The value a slider shows next to it."""
    return slider.locator(".widget-readout").first.inner_text().strip()

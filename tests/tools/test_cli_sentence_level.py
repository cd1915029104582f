"""The command line's ``--sentence-level`` streams (mtlearn.tools.cli.run): each line written as it is scored.

A huge input must cost bounded memory, so no line waits for the next segments to be scored, and a segment
that fails after output began is named by its line. (Reading a corpus's segments one after another:
tests/core/test_corpus.py. A large METEOR beta, which used to cost gigabytes, is refused by MeteorOptions:
tests/metrics/meteor/test_meteor_options.py.)
"""

from __future__ import annotations

import io
import json
import sys

import pytest

# --------------------------------------------------------------------------- --sentence-level streams


class _Recorder(io.BytesIO):
    """A binary standard output that notes, at each write, how many segments were scored by then."""

    def __init__(self, scored: list[int]) -> None:
        super().__init__()
        self.scored = scored
        self.at_write: list[int] = []

    def write(self, data) -> int:  # type: ignore[override]
        self.at_write.append(self.scored[0])
        return super().write(data)


SENTENCE_METRICS = {"bleu": "bleu", "meteor": "meteor", "chrf": "chrf", "ter": "ter", "wer": "wer",
                    "cer": "cer"}


def _command_metric(metric):
    """How ``mtlearn METRIC`` scores (mtlearn.tools.cli.run.Metric), as its command module holds it."""
    from mtlearn.tools.cli import score

    return score.METRICS[metric]


def _patch_command_metric(monkeypatch, metric, **changes):
    """``mtlearn METRIC`` scores with ``changes`` (e.g. ``segment=``) to its Metric, for this test only."""
    import dataclasses

    from mtlearn.tools.cli import bleu, chrf, meteor, ter

    patched = dataclasses.replace(_command_metric(metric), **changes)
    if metric in ter.METRICS:
        monkeypatch.setitem(ter.METRICS, metric, patched)
    else:
        monkeypatch.setattr({"bleu": bleu, "chrf": chrf, "meteor": meteor}[metric], "METRIC", patched)


@pytest.mark.parametrize("metric", sorted(SENTENCE_METRICS))
@pytest.mark.parametrize("form", [[], ["--json"], ["--explain"]])
def test_sentence_level_writes_each_line_as_it_is_scored(metric, form, tmp_path, monkeypatch):
    # Building every result before writing took 5.2 GB for 1M BLEU lines: a line must be
    # written before the next segments are scored (the first one is scored on its own,
    # so that a bad option is an error before any output).
    import functools

    from mtlearn.tools.cli import main as cli

    n = 30
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(f"the cat {k} sat on the mat\n" for k in range(n)), encoding="utf-8")
    ref.write_text("".join(f"a cat {k} sat on a mat\n" for k in range(n)), encoding="utf-8")
    scored = [0]
    one = _command_metric(metric).segment

    @functools.wraps(one)
    def counting(*args, **kwargs):
        scored[0] += 1
        return one(*args, **kwargs)

    _patch_command_metric(monkeypatch, metric, segment=counting)
    recorder = _Recorder(scored)
    out = io.TextIOWrapper(recorder, encoding="utf-8", write_through=True)  # type: ignore[arg-type]
    monkeypatch.setattr(sys, "stdout", out)
    extra = ["--stages", "exact,stem"] if metric == "meteor" else []
    status = cli.main([metric, "-r", str(ref), "-i", str(hyp), "--sentence-level", *extra, *form])
    out.flush()
    assert status == 0 and scored[0] == n
    assert recorder.at_write and recorder.at_write[0] <= 2, recorder.at_write[:5]
    assert len(recorder.at_write) >= n // 2  # written piece by piece, not as one block at the end
    text = recorder.getvalue().decode("utf-8")
    if form == ["--json"]:
        assert len([json.loads(line) for line in text.splitlines()]) == n
    elif form == ["--explain"]:
        assert text.count("--- segment ") == n
    else:  # the signature once, then one line per segment
        assert len(text.splitlines()) == n + 1 and text.startswith("signature: ")


def test_sentence_level_error_on_a_later_line_names_it(tmp_path, monkeypatch, capsys):
    # A segment that fails after output began ends the run with one message naming its line.
    from mtlearn.tools.cli import main as cli

    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b\nc d\ne f\n", encoding="utf-8")
    ref.write_text("a b\nc d\ne f\n", encoding="utf-8")
    import functools

    calls = [0]
    real = _command_metric("bleu").segment

    @functools.wraps(real)
    def failing(*args, **kwargs):
        calls[0] += 1
        if calls[0] == 3:
            raise ValueError("max_order: something only line 3 shows")
        return real(*args, **kwargs)

    _patch_command_metric(monkeypatch, "bleu", segment=failing)
    status = cli.main(["bleu", "-r", str(ref), "-i", str(hyp), "--sentence-level", "--max-order", "2",
                       "--tokenize", "none", "--smoothing", "none", "--effective-order"])
    captured = capsys.readouterr()
    assert status != 0
    assert len(captured.out.splitlines()) == 1 + 2  # the signature, then lines 1 and 2
    assert f"{hyp}, line 3: --max-order: something only line 3 shows" in captured.err
    assert "Traceback" not in captured.err

"""An ``ImplementationComparison`` as text and HTML: presentation only, registered with core.derivation.

>>> from mtlearn.why import compare_implementations
>>> c = compare_implementations("the cat sat on the mat", ["the cat sat on a mat", "a cat sat"],
...                             profiles=["sacrebleu-corpus", "hf-evaluate-smooth"])
>>> print(explain_text(c, "sacrebleu-corpus", "hf-evaluate-smooth"))
BLEU of 1 segment: from sacrebleu-corpus (0.5373) to hf-evaluate-smooth (0.6435), one step at a time
  step                      score after  contribution
  tokenisation                   0.5373       +0.0000  (same settings)
  n-gram counting/clipping       0.5373       +0.0000  (same settings)
  reference length               0.5373       +0.0000
      settings: ref_length: closest -> shortest
      moves:    reference_length
  precisions/smoothing           0.6435       +0.1062
      settings: smoothing: exp -> lin-och
      moves:    precisions, geometric_mean, score, reported
  brevity penalty                0.6435       +0.0000
      settings: brevity_penalty: papineni -> ratio
      moves:    nothing on these inputs
  aggregation                    0.6435       +0.0000  (same settings)
  score/scale                    0.6435       +0.0000
      settings: scale: 100 -> 1
      moves:    reported
  total                                       +0.1062  = 0.6435 - 0.5373 exactly
  first divergence: reference length (settings first differ at: reference length)
"""

from __future__ import annotations

import html
import textwrap
from typing import Any, Iterable, Optional

from mtlearn.core.derivation import derive_html, derive_text
from mtlearn.core.wording import plural
from mtlearn.why.divergence import Divergence, step_rows
from mtlearn.why.result import ImplementationComparison

__all__ = ["explain_text", "explain_html"]


def _num(x: Any) -> str:
    if x is None:
        return "-"
    value = float(x)
    if value != 0 and abs(value) < 1e-4:
        return f"{value:.3g}"
    return f"{value:.4f}"


def _reported(x: Any, scale: int) -> str:
    value = float(x)
    if value != 0 and abs(value) < 1e-4 * scale:
        return f"{value:.3g}"
    return f"{value:.2f}" if scale == 100 else f"{value:.4f}"


def _signed(x: Any) -> str:
    value = float(x)
    if value != 0 and abs(value) < 5e-5:
        return f"{value:+.2g}"
    return f"{value:+.4f}"


#: The widest line the text renderers print: a notebook's output and a terminal keep their columns.
WIDTH = 110


def _wrapped(label: str, text: str, indent: int, keep: Iterable[str] = ()) -> list[str]:
    """``label`` then ``text``, wrapped within :data:`WIDTH` under the text's first character; no line
    breaks inside a phrase of ``keep`` (a step's name such as "n-gram counting/clipping").

    >>> _wrapped("moves: ", "tokens, matches, the score", 2, keep=["the score"])
    ['  moves: tokens, matches, the score']
    """
    glue = "\x00"  # stands for a space that must not break; never in a setting or a step name
    for phrase in keep:
        text = text.replace(phrase, phrase.replace(" ", glue))
    head = " " * indent + label
    lines = textwrap.wrap(text, WIDTH, initial_indent=head, subsequent_indent=" " * len(head),
                          break_long_words=False, break_on_hyphens=False) or [head.rstrip()]
    return [line.replace(glue, " ") for line in lines]


def _walk_text(c: "ImplementationComparison", d: "Divergence") -> list[str]:
    # One block per step: the numbers stand in three aligned columns; what the step changes and what it
    # moves follow below it, wrapped, so no line grows with the settings' length.
    rows = step_rows(d)
    width = max(len(r["step"]) for r in rows)
    lines = [
        f"{c.metric.upper()} of {plural(c.segments, 'segment')}: from {d.profile_a} ({_num(d.score_a)}) to "
        f"{d.profile_b} ({_num(d.score_b)}), one step at a time",
        f"  {'step':<{width}}  score after  contribution",
    ]
    for r in rows:
        same = "" if r["settings_differ"] else "  (same settings)"
        lines.append(f"  {r['step']:<{width}}  {_num(r['score_after']):>11}  "
                     f"{_signed(r['contribution']):>12}{same}")
        if r["settings_differ"]:
            lines += _wrapped("settings: ", r["settings"], 6)
            lines += _wrapped("moves:    ", ", ".join(r["moved"]) or "nothing on these inputs", 6)
    lines.append(f"  {'total':<{width}}  {'':>11}  {_signed(d.total):>12}  = "
                 f"{_num(d.score_b)} - {_num(d.score_a)}" + (" exactly" if d.total == d.difference else ""))
    if d.first_divergence is None:
        lines.append("  no step moves anything: the two agree on these inputs")
    else:
        lines.append(f"  first divergence: {d.first_divergence} "
                     f"(settings first differ at: {d.first_settings_difference})")
    return lines


def _table_text(c: "ImplementationComparison") -> list[str]:
    # The library's name, the one column of free length, comes last and wraps under itself.
    width = max(len(p.name) for p in c.profiles)
    tok = "each library's own" if c.tokenize is None else c.tokenize
    lines = [f"{c.metric.upper()} of {plural(c.segments, 'segment')} under {len(c.profiles)} implementations "
             f"(tokenize: {tok})",
             f"  {'profile':<{width}}  score (0-1)  as reported  library"]
    for p in c.profiles:
        reported = _reported(p.reported, p.scale)
        lines += _wrapped(f"{p.name:<{width}}  {_num(p.score):>11}  {reported:>11}  ", p.library, 2)
    return lines


@derive_text.register
def explain_text(c: ImplementationComparison, a: Optional[str] = None, b: Optional[str] = None) -> str:
    """The comparison as text: with ``a`` and ``b``, their full walk; else the table and each profile
    against the first."""
    if (a is None) != (b is None):
        raise ValueError("a, b: give both profile names (or neither)")
    if a is not None and b is not None:
        return "\n".join(_walk_text(c, c.divergence(a, b)))
    lines = _table_text(c)
    first = c.profiles[0].name
    others = [d for d in c.divergences if d.profile_a == first]
    if others:
        lines.append("")
        lines.append(f"Against {first}: the first step that moves the score or an intermediate value")
        for d in others:
            where = d.first_divergence or "none (they agree here)"
            moving = [s.step for s in d.steps if s.score_moves]
            lines += _wrapped(f"{d.profile_b:<{max(len(p.name) for p in c.profiles)}}  ",
                              f"first divergence: {where}"
                              + (f"; the score moves at: {', '.join(moving)}" if moving else ""), 2,
                              keep=[s.step for s in d.steps])
        lines.append("  (c.explain(a, b) prints one pair's walk step by step)")
    return "\n".join(lines)


@derive_html.register
def explain_html(c: ImplementationComparison) -> str:
    """The profile table and the first profile's walk to each other one, as HTML."""
    e = html.escape
    rows = "".join(
        f"<tr><td>{e(p.name)}</td><td>{e(p.library)}</td><td>{_num(p.score)}</td>"
        f"<td>{_reported(p.reported, p.scale)}</td><td><code>{e(p.call)}</code></td></tr>"
        for p in c.profiles
    )
    parts = [
        f"<div class='mtlearn-why'><p>{e(c.metric.upper())} of {plural(c.segments, 'segment')} under "
        f"{len(c.profiles)} implementations</p><table><thead><tr><th>profile</th><th>library</th>"
        f"<th>score (0-1)</th><th>as reported</th><th>call</th></tr></thead><tbody>{rows}</tbody></table>"
    ]
    first = c.profiles[0].name
    for d in (d for d in c.divergences if d.profile_a == first):
        body = "".join(
            f"<tr><td>{e(r['step'])}</td><td>{e(r['settings'])}</td><td>{_num(r['score_after'])}</td>"
            f"<td>{_signed(r['contribution'])}</td><td>{e(', '.join(r['moved']))}</td></tr>"
            for r in step_rows(d)
        )
        parts.append(
            f"<details><summary>{e(d.profile_a)} &rarr; {e(d.profile_b)}: first divergence "
            f"{e(d.first_divergence or 'none')}</summary><table><thead><tr><th>step</th><th>settings</th>"
            "<th>score after</th><th>contribution</th><th>moves</th></tr></thead>"
            f"<tbody>{body}</tbody></table>"
            "</details>"
        )
    parts.append("</div>")
    return "".join(parts)

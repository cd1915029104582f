"""mtlearn/exercises/source.py: show_source's header stays within the width notebooks print."""

from __future__ import annotations

from mtlearn.exercises.source import HEADER_WIDTH, SourceCode, show_source
from mtlearn.metrics.meteor.alignment_reference import align_reference


def test_a_long_header_puts_the_file_on_its_own_line():
    text = show_source(align_reference).text
    first, second = text.splitlines()[:2]
    assert first == "# mtlearn.metrics.meteor.alignment_reference.align_reference"
    assert second == "# from mtlearn/metrics/meteor/alignment_reference.py"
    assert max(len(line) for line in (first, second)) <= HEADER_WIDTH


def test_a_short_header_stays_on_one_line():
    s = SourceCode("pkg.twice", "pkg/maths.py", "def twice(x):\n    return 2 * x\n")
    assert s.text.splitlines()[0] == "# pkg.twice, from pkg/maths.py"

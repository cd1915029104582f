"""The cited sources: every key cites in one line with its URL, unknown keys are named."""

import pytest

from mtlearn.sources import SOURCES, cite


@pytest.mark.parametrize("key", sorted(SOURCES))
def test_cite_is_one_line_with_title_and_url(key):
    line = cite(key)
    assert "\n" not in line
    assert SOURCES[key].url in line and SOURCES[key].title in line


def test_unknown_key_names_the_known_ones():
    with pytest.raises(KeyError, match="meteor_wikipedia"):
        cite("no-such-source")

"""Every number in the README comes from running mtlearn: its examples run as doctests."""

import doctest

from repo_paths import REPO


def test_readme_examples():
    failures, tried = doctest.testfile(
        str(REPO / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert tried >= 5, "the README's Python examples were not found"
    assert failures == 0

"""``mtlearn wordnet``: METEOR's WordNet set-up (:mod:`mtlearn.metrics.meteor.wordnet`); errors in a line."""

from __future__ import annotations

import warnings

from mtlearn.tools.cli.io import EXIT_INPUT, print_error

__all__ = ["run"]


def run(argv: list[str]) -> int:
    """``mtlearn wordnet ...``: the set-up's own command line, its unexpected failures in one line too."""
    from mtlearn.metrics.meteor import wordnet as wordnet_setup

    try:
        with warnings.catch_warnings():  # NLTK's note on reading WordNet 3.0, not a problem of the set-up
            warnings.filterwarnings("ignore", message="The multilingual functions", category=UserWarning)
            return wordnet_setup.main(argv, prog="mtlearn wordnet")
    except OSError as error:  # e.g. a --target that cannot be written to
        where = f" ({error.filename})" if getattr(error, "filename", None) else ""
        reason = error.strerror or error
        print_error(f"wordnet: {reason}{where}; give a folder you can write to with --target "
                    "DIR (e.g. ~/nltk_data, which NLTK searches) or check its permissions")
        return EXIT_INPUT
    except ValueError as error:  # e.g. a target refused for safety; the message says why
        print_error(f"wordnet: {error}")
        return EXIT_INPUT

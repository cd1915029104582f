"""``python -m mtlearn`` is the ``mtlearn`` command line (see :mod:`mtlearn.cli`)."""

import sys

from mtlearn.cli import main

if __name__ == "__main__":  # pytest's doctest collection imports this module too
    sys.exit(main())

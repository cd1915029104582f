"""``python -m mtlearn`` is the ``mtlearn`` command line (see :mod:`mtlearn.tools.cli.main`)."""

import sys

from mtlearn.tools.cli.main import main

if __name__ == "__main__":  # pytest's doctest collection imports this module too
    sys.exit(main())

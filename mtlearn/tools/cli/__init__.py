"""The ``mtlearn`` command line: :mod:`~mtlearn.tools.cli.main` (parser, dispatch, ``main``), one module per
command, and what they share (files, output, values, arguments). Empty on purpose: ``mtlearn/__init__.py``
imports :mod:`~mtlearn.tools.cli.interrupt` first thing, before anything else may load."""

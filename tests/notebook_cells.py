"""A notebook cell's code as Python, for tests that read the notebooks' calls."""

from __future__ import annotations

import ast

from IPython.core.inputtransformer2 import TransformerManager


def parse_cell(source: str) -> ast.Module:
    """``source`` parsed after IPython's syntax (``!command``, ``%magic``) is made the calls it stands for.

    >>> type(parse_cell('!echo hi').body[0].value).__name__
    'Call'
    """
    return ast.parse(TransformerManager().transform_cell(source))

"""The step of every path walk over the grid: which squares may come next on a word's path.

Play generation (:mod:`solver.movegen`) and the formable-words walk (:mod:`solver.formable`)
both extend a path one square at a time, a word's letters lying on distinct neighbouring
squares (``word_shape=path``) or on one straight line (``word_shape=line``, ``RULES.md``
sections 6 and 8).
"""

from __future__ import annotations

import numpy as np

from ..squares import NEIGHBOUR_TABLE, NEXT_SQUARE, STEP_DIRECTION
from .jit import kernel

__all__ = ["following_squares"]


@kernel(inline=True)
def following_squares(line_shape, previous, square, path):
    """The squares that may follow ``square`` on a path of the squares ``path`` (a bitboard,
    ``square`` included) whose square before ``square`` is ``previous`` (-1 if ``square`` is
    the first): its neighbours off the path, or, for a line, the next square straight on."""
    if line_shape and previous >= 0:
        following = NEXT_SQUARE[square, STEP_DIRECTION[previous, square]]
        return np.int64(0) if following < 0 else (np.int64(1) << following) & ~path
    return NEIGHBOUR_TABLE[square] & ~path

"""``exact``: prove the optimum of a small layout (up to about 20 tiles).

The search is :mod:`solver.search.dfs` run to completion: depth first over lines of plays,
every finished game offered, a transposition table over tile masks (memoising, per mask, an
upper bound on what can still be gained, see the ``dfs`` docstring for why this is exact), and
every child cut whose tally plus admissible bound cannot beat the best game found. What makes
it an exact solver rather than a heuristic:

* **No cap.** Every child the bound does not cut is searched (``dfs``'s ``branch`` is 0), so
  when the search finishes, the best game found is optimal among the games made of plays of
  the full class with the move limit ``K`` (RULES.md section 10), and the record says so
  (``proven: true``).
* **A bound that looks at the board.** At every node the letter-packing bound of
  :mod:`solver.search.bound` counts only the words :func:`solver.formable.formable_words` marks
  from that node's tiles: words that fit the letters but can never be spelt on the board, with
  at most ``K`` tiles moved a turn, are left out. On a small layout most words that fit are of
  that kind, so this is what lets the search finish. The children of a node inherit its bound,
  which stays admissible: a child's tiles are fewer, so its formable words are among its
  parent's.
* **The root bound.** The bound of the whole deal (:func:`solver.search.bound.board_bound`, a
  linear programme over the formable words) is also computed; the search's own bound and it
  are both valid, so the lower is reported (``upper_bound``).

At the time limit (or state budget) the search stops with the best game found, ``proven:
false`` and the upper bound it has established: the optimum is somewhere between the two.
On full 48-tile deals it proves nothing in any reasonable time, but remains a valid
(if slow) anytime search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from ..formable import formable_words
from .base import SearchContext, param
from .bound import start_bound
from .dfs import DfsParams, DfsReport, DfsStrategy, _Search
from .registry import register


@dataclass
class ExactParams(DfsParams):
    """Parameters of ``exact``: those of ``dfs`` but ``branch`` (always 0: all children), plus:

    :ivar board: count only the words formable from each node in the bound (off: the letters
        alone, as ``dfs``; slower to prove, kept to measure what the board is worth).
    """

    branch: int = param(0, 0, 0)
    board: bool = True


class _BoardSearch(_Search):
    """The ``dfs`` search with the board-aware bound at every node."""

    def _allowed(self, mask: int) -> np.ndarray | None:
        game = self.game
        return formable_words(game.layout, mask, game.dictionary, game.rules, game.max_moves)


@dataclass
class ExactReport(DfsReport):
    """:class:`DfsReport`, and the board bound of the starting position."""

    board_bound: int | None = None


@register
class ExactStrategy(DfsStrategy):
    """Branch and bound to completion with the board-aware bound (module docstring).

    After :meth:`run`, :attr:`proven` tells whether the game found is optimal and
    :attr:`upper_bound` bounds the optimum; both are also in the report.
    """

    name = "exact"
    Params = ExactParams
    Report = ExactReport
    summary = "proves the optimum of small layouts (branch and bound to completion)"
    params: ExactParams

    def _search(self, context: SearchContext) -> _Search:
        kind = _BoardSearch if self.params.board else _Search
        return kind(context, self.params)

    def run(self, context: SearchContext) -> None:
        game = context.game
        super().run(context)
        # The board bound of the start, after the search: it takes a second or more on a
        # full deal, which the time limit should not pay (and it is remembered per deal).
        root = start_bound(game.layout, game.dictionary, game.rules, game.max_moves)
        assert self.upper_bound is not None
        self.upper_bound = min(self.upper_bound, root.score)
        self.proven = context.best_score is not None and context.best_score >= self.upper_bound
        report = cast(ExactReport, self.report(context))
        report.proven, report.upper_bound = self.proven, self.upper_bound
        report.board_bound = root.score

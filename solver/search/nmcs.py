"""``nmcs``: Nested Monte Carlo Search (Cazenave, IJCAI 2009), with the best game memorised.

A search of level ``L`` from a position plays the game to its end one turn at a time: at each
turn it tries each candidate play followed by a search of level ``L - 1`` (level 0 is a
playout), then follows the best complete game found so far by this search one turn further
(so what it found is never lost). The default is level 1: a playout after each candidate.

It uses the prior of ``nrpa`` (:class:`solver.search.nrpa.PlayPrior`): a play's value is its
tally plus :attr:`~NmcsParams.hard` points per unit of hard-letter difficulty. The candidates
of a turn are its :attr:`~NmcsParams.width` best plays by value; a playout draws each turn
from the plays within ``window × temperature`` points of the best value, with probability
proportional to ``exp(value / temperature)``, or takes the best value with ``temperature=0``.

Searches of level :attr:`~NmcsParams.level` are run from the start, one after the other (the
playouts differ), until the budget is spent; every playout is offered to the context
(anytime). With greedy playouts every search would repeat the last, so the width doubles
from one search to the next instead.

Compared with ``nrpa`` (both with their defaults) on the 20 benchmark deals at K = 2, three
seeds each, ``nmcs`` scored 7 ± 4 points more on average at 1 second of CPU and 3 ± 1 more at
10 seconds, and its worst games were better: trying every candidate of a turn, each with a
good playout, finds the right opening plays sooner than learning them does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..squares import NUM_SQUARES
from .base import AnytimeStrategy, BudgetSpent, Line, SearchContext, StrategyParams, param
from .nrpa import PlayoutReport
from .prior import PlayPrior, sample
from .registry import register


@dataclass
class NmcsParams(StrategyParams):
    """Parameters of :class:`NmcsStrategy`. The defaults were tuned on the 20 benchmark deals
    at K = 2 with budgets of 1 and 10 seconds; ``late_tiles`` and ``late_width`` on those and
    the 30 small layouts of ``benchmarks/small`` at 1 second (``benchmarks/README.md``).

    :ivar level: the nesting level of each search (1: a playout after each candidate).
    :ivar width: the candidates of a turn: its ``width`` best plays by value.
    :ivar temperature: playouts draw a play with probability proportional to
        ``exp(value / temperature)``; 0 plays the best value.
    :ivar window: playouts leave out plays whose value is more than ``window × temperature``
        below the best play's.
    :ivar playout_width: playouts draw from at most this many plays.
    :ivar late_tiles: in positions with at most this many tiles, the candidates of a turn and
        of a playout are the ``late_width`` best plays, with no window (0: never).
    :ivar late_width: the candidates of those positions.
    :ivar hard: the value of a play is its tally plus ``hard`` points per unit of difficulty
        of the hard letters it takes (see :data:`solver.search.prior.HARD_LETTERS`).
    """

    # Each level multiplies a search's playouts by about ``width`` times the turns.
    level: int = param(1, 1, 4)
    width: int = param(14, 1, 1_000_000)
    temperature: float = param(3.0, 0.0, 1e6)
    window: float = param(6.0, 0.0, 1e6)
    playout_width: int = param(1000, 1, 1_000_000)
    hard: float = param(20.0, 0.0, 1e6)
    late_tiles: int = param(12, 0, NUM_SQUARES)
    late_width: int = param(1000, 1, 1_000_000)


class _Search:
    """One NMCS run on one game: the parameters, the context, the two priors (the candidates
    of a search's turns, and those of a playout's)."""

    def __init__(self, context: SearchContext, params: NmcsParams) -> None:
        self.context = context
        self.params = params
        layout = context.game.layout
        temperature = params.temperature or 1.0
        late = (params.late_tiles, params.late_width)
        self.branches = PlayPrior(
            layout, params.width, temperature, math.inf, params.hard, "play", *late
        )
        self.playout_prior = PlayPrior(
            layout, params.playout_width, temperature, params.window, params.hard, "play", *late
        )
        self.playouts = 0

    def widen(self) -> None:
        """Double the candidates of a turn."""
        old = self.branches
        self.branches = PlayPrior(
            self.context.game.layout,
            old.width * 2,
            old.temperature,
            math.inf,
            self.params.hard,
            late_tiles=old.late_tiles,
            late_width=old.late_width,
        )

    def playout(self, line: Line) -> Line:
        """``line`` played to its end by the prior; offered to the context."""
        context = self.context
        rng = context.rng
        greedy = self.params.temperature == 0
        while True:
            if context.stopped:
                raise BudgetSpent
            plays = context.plays(line)
            if len(plays) == 0:
                break
            moves, _, biases = self.playout_prior.candidates(line.mask, plays)
            chosen = 0 if greedy or len(moves) == 1 else sample(rng, biases)
            line = line.then(*moves[chosen])
        self.playouts += 1
        context.offer(line)
        return line

    def nested(self, line: Line, level: int) -> Line:
        """A search of ``level`` from ``line``: the best complete game it found."""
        context = self.context
        game = context.game
        best: Line | None = None
        best_score = 0
        while True:
            if context.stopped:
                raise BudgetSpent
            plays = context.plays(line)
            if len(plays) == 0:
                break
            for move in self.branches.candidates(line.mask, plays).moves:
                child = line.then(*move)
                found = self.playout(child) if level == 1 else self.nested(child, level - 1)
                score = game.final_score(found)
                if best is None or score > best_score:
                    best, best_score = found, score
            assert best is not None
            # Follow the best game one turn further: this line is always a prefix of it.
            line = line.then(*best.plays[line.rounds])
        return best if best is not None else line


@register
class NmcsStrategy(AnytimeStrategy[NmcsParams, PlayoutReport]):
    """Nested Monte Carlo Search with the ``nrpa`` prior, restarted until the budget ends."""

    name = "nmcs"
    summary = "nested Monte Carlo search with the nrpa prior in its playouts (anytime)"
    Params = NmcsParams
    Report = PlayoutReport

    def search(self, context: SearchContext) -> None:
        params, report = self.params, self.report(context)
        search = _Search(context, params)
        try:
            while True:
                report.searches += 1
                search.nested(context.start_line(), params.level)
                if params.temperature == 0:
                    # Greedy playouts would repeat the last search exactly: widen instead.
                    search.widen()
        finally:
            report.playouts = search.playouts

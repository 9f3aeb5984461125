"""``nmcs``: Nested Monte Carlo Search (Cazenave, IJCAI 2009), with the best sequence memorised.

A search of level ``L`` from a position plays the game to its end one turn at a time: at each
turn it tries every candidate play followed by a search of level ``L - 1`` (level 0 is a
playout), and follows the best complete game found so far, from this search's start, one turn
further. The playouts are biased by the tally as in ``nrpa`` (probability proportional to
``exp(score / temperature)``), or greedy with ``temperature=0``.

The candidates of a turn are its :attr:`NmcsParams.width` best plays by tally. Searches of
level :attr:`NmcsParams.level` are run from the start, one after the other, until the budget is
spent; each playout is offered to the context (anytime). With greedy playouts every search
would repeat the last, so the width doubles from one search to the next.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .base import Line, SearchContext, Strategy, StrategyParams


@dataclass
class NmcsParams(StrategyParams):
    """Parameters of :class:`NmcsStrategy`.

    :ivar level: the nesting level of each search (1: a playout after each candidate).
    :ivar width: the candidates of a turn: its ``width`` best plays by tally.
    :ivar temperature: playouts draw a play with probability proportional to
        ``exp(score / temperature)``; 0 plays greedily.
    :ivar window: playouts leave out plays whose ``score / temperature`` is more than
        ``window`` below the best play's.
    """

    level: int = 1
    width: int = 10
    temperature: float = 3.0
    window: float = 6.0

    def __post_init__(self) -> None:
        if self.level < 1:
            raise ValueError(f"level must be >= 1, not {self.level}")
        if self.width < 1:
            raise ValueError(f"width must be >= 1, not {self.width}")
        if self.temperature < 0:
            raise ValueError(f"temperature must be >= 0, not {self.temperature}")


class _Stopped(Exception):
    """The budget ran out in the middle of a search."""


class _Search:
    def __init__(self, context: SearchContext, params: NmcsParams) -> None:
        self.context = context
        self.params = params
        self.width = params.width

    def playout(self, line: Line) -> Line:
        context = self.context
        params = self.params
        rng = context.rng
        while True:
            if context.stopped:
                raise _Stopped
            plays = context.plays(line)
            if len(plays) == 0:
                break
            chosen = 0
            if params.temperature > 0:
                scores = plays.scores
                best = int(scores[0])
                cut = best - params.window * params.temperature
                odds = []
                for score in scores.tolist():
                    if score < cut:
                        break
                    odds.append(math.exp((score - best) / params.temperature))
                point = rng.random() * sum(odds)
                chosen = len(odds) - 1
                total = 0.0
                for index, weight in enumerate(odds):
                    total += weight
                    if point < total:
                        chosen = index
                        break
            line = line.then(
                int(plays.word_ids[chosen]), int(plays.tiles[chosen]), int(plays.scores[chosen])
            )
        self.context.offer(line)
        return line

    def nested(self, line: Line, level: int) -> Line:
        """A search of ``level`` from ``line``: the best complete game it found."""
        context = self.context
        game = context.game
        best: Line | None = None
        best_score = 0
        while True:
            if context.stopped:
                raise _Stopped
            plays = context.plays(line)
            count = min(len(plays), self.width)
            if count == 0:
                break
            for index in range(count):
                child = line.then(
                    int(plays.word_ids[index]), int(plays.tiles[index]), int(plays.scores[index])
                )
                found = self.playout(child) if level == 1 else self.nested(child, level - 1)
                score = game.final_score(found)
                if best is None or score > best_score:
                    best, best_score = found, score
            assert best is not None
            # Follow the best game one turn further.
            line = line.then(*best.plays[line.rounds])
        return best if best is not None else line


class NmcsStrategy(Strategy):
    name = "nmcs"
    summary = "nested Monte Carlo search with tally-biased playouts (anytime)"
    Params = NmcsParams

    def run(self, context: SearchContext) -> None:
        params = self.params
        assert isinstance(params, NmcsParams)
        context.offer(context.complete_greedily(context.start_line()))
        search = _Search(context, params)
        try:
            while True:
                search.nested(context.start_line(), params.level)
                if params.temperature == 0:
                    search.width *= 2
        except _Stopped:
            return

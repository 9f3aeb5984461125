"""``greedy``: each turn the play with the best tally. The baseline every other strategy must
beat; it also finishes the lines other strategies leave incomplete.

With no move limit (the real game) it looks at the plays of :class:`solver.search.base.Expansion`
(generating every play of a full deal takes up to half a minute): the best tally among them."""

from __future__ import annotations

from .base import Expansion, SearchContext, SearchReport, Strategy, StrategyParams
from .registry import register


@register
class GreedyStrategy(Strategy[StrategyParams, SearchReport]):
    name = "greedy"
    summary = "each turn the best immediate tally (the baseline)"

    def run(self, context: SearchContext) -> None:
        context.expansion = Expansion()
        context.offer(context.complete_greedily(context.start_line()))

"""``greedy``: each turn the play with the best tally. The baseline every other strategy must
beat; it also finishes the lines other strategies leave incomplete."""

from __future__ import annotations

from .base import SearchContext, SearchReport, Strategy, StrategyParams
from .registry import register


@register
class GreedyStrategy(Strategy[StrategyParams, SearchReport]):
    name = "greedy"
    summary = "each turn the best immediate tally (the baseline)"

    def run(self, context: SearchContext) -> None:
        context.offer(context.complete_greedily(context.start_line()))

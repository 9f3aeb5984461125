"""``auto``: the strategy that did best in our own benchmarks for the budget given.

The choice is a table read off ``benchmarks/README.md`` ("The real game", issue 13: the 20
benchmark deals with no move limit): :data:`CHOICES` maps the largest budget (in seconds) for
which each strategy won to its spec. Up to 2 s, ``beam:best=0``: the cheap plays only (at most
4 moves, and every play at 24 tiles or fewer; mean 671 at 1 s, against 635 for a beam that
also runs the bounded generator from 34 tiles down, which takes most of such a budget);
beyond, ``beam`` with its defaults (818 at 10 s). With a move limit K of 4 or less both are
plain ``beam`` (every play of the class is generated at every size). A state budget is turned into
seconds at a conservative :data:`solver.config.STATES_PER_SECOND`, so that the same budget
always makes the same choice on every machine.
"""

from __future__ import annotations

from ..config import STATES_PER_SECOND
from .base import SearchContext, SearchReport, Strategy, StrategyParams
from .registry import parse_strategy, register

#: ``(up to this many seconds, strategy spec)``, in increasing order; the last one has no limit.
CHOICES: tuple[tuple[float, str], ...] = (
    (2.0, "beam:best=0"),
    (float("inf"), "beam"),
)


def choose(time_limit: float | None, max_states: int | None) -> str:
    """The spec of the strategy for a budget (the smaller of the two when both are given)."""
    budgets = []
    if time_limit is not None:
        budgets.append(time_limit)
    if max_states is not None:
        budgets.append(max_states / STATES_PER_SECOND)
    seconds = min(budgets) if budgets else float("inf")
    return next(spec for limit, spec in CHOICES if seconds <= limit)


@register
class AutoStrategy(Strategy[StrategyParams, SearchReport]):
    name = "auto"
    summary = "the best of the others for the budget, from our benchmarks"

    def run(self, context: SearchContext) -> None:
        spec = choose(context.time_limit, context.max_states)
        chosen = parse_strategy(spec)
        # The report is the chosen strategy's, with what was chosen.
        context.report = chosen.new_report()
        context.report.chosen = spec
        chosen.run(context)

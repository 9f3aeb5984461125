"""Solving a deal: run a search strategy under a budget and write its best game as a record.

This is the main job of the project (``letterchess solve`` and :func:`solve`).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .board import Layout, Position, read_board
from .dictionary import Dictionary
from .movegen import witness
from .record import Record
from .rules import Result, Rules
from .search import StrategyError, parse_strategy
from .search.base import Game, Line, SearchContext, SearchOutcome, Strategy
from .search.bound import start_bound

DEFAULT_TIME_LIMIT = 10.0
DEFAULT_MAX_MOVES = 2


@dataclass
class Solution:
    """The best game found for a deal.

    :ivar record: the game record, which ``letterchess check`` accepts.
    :ivar score: its final score.
    :ivar outcome: what the search cost (states, seconds) and why it stopped.
    :ivar bound: an upper bound on the score of any game of the deal (the lower of
        :func:`~solver.search.bound.board_bound` and the strategy's own, if it has one), or
        ``None`` if it was not computed.
    """

    record: Record
    score: int
    outcome: SearchOutcome
    bound: int | None = None

    @property
    def gap(self) -> float | None:
        """``score / bound``: 1 for a game proven optimal, lower the more room is left (or
        ``None`` without a positive bound)."""
        if self.bound is None or self.bound <= 0:
            return None
        return self.score / self.bound


class _CtrlC:
    """While active, the first Ctrl-C asks the search to stop (it then returns the best game
    found so far); a second one interrupts for real. Only the main thread can take signals."""

    def __init__(self, context: SearchContext) -> None:
        self._context = context
        self._previous: Any = None

    def __enter__(self) -> _CtrlC:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum: int, frame: Any) -> None:
        if self._context.interrupted:
            raise KeyboardInterrupt
        self._context.interrupted = True

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


def run_search(
    game: Game,
    strategy: Strategy,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    max_states: int | None = None,
    seed: int = 0,
    on_improve: Callable[[SearchContext], None] | None = None,
    on_context: Callable[[SearchContext], None] | None = None,
) -> SearchOutcome:
    """Run ``strategy`` on ``game`` until it finishes or the budget is spent.

    :param on_improve: called with the context each time a better game is found.
    :param on_context: called once with the context before the search starts (for progress
        displays that read it).
    """
    if time_limit is None and max_states is None:
        raise ValueError("a search needs a time limit, a state budget or both")
    context = SearchContext(game, time_limit, max_states, seed, on_improve)
    if on_context is not None:
        on_context(context)
    with _CtrlC(context):
        strategy.run(context)
        if context.best is None:
            # Stopped before finishing any game: finish the empty line greedily.
            context.offer(context.complete_greedily(context.start_line()))
    if context.interrupted:
        reason = "interrupted"
    elif context.stopped:
        reason = "budget"
    else:
        reason = "finished"
    assert context.best is not None and context.best_score is not None
    return SearchOutcome(
        context.best,
        context.best_score,
        context.states,
        context.elapsed,
        reason,
        dict(context.extra),
    )


def line_to_record(game: Game, line: Line, search: dict[str, Any] | None = None) -> Record:
    """The game record of ``line``, with a witness (moves and path) for every turn."""
    position = Position.start(game.layout)
    turns = []
    for word_id, tiles, _ in line.plays:
        word = game.word(word_id)
        play = witness(
            game.layout,
            position.remaining_mask,
            game.dictionary,
            game.rules,
            game.max_moves,
            word,
            tiles,
        )
        assert play is not None, f"{word} is not a play of the position"
        turns.append(play.to_turn())
        position = position.after(word, tiles)
    result = Result.of_game([turn.word for turn in turns], position.remaining_letters())
    return Record(game.layout, game.rules, tuple(turns), result, game.dictionary.info(), search)


def solve(
    board: Layout | str,
    strategy: str | Strategy = "auto",
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    max_moves: int = DEFAULT_MAX_MOVES,
    seed: int = 0,
    dictionary: Dictionary | None = None,
    rules: Rules | None = None,
    max_states: int | None = None,
    on_improve: Callable[[SearchContext], None] | None = None,
    on_context: Callable[[SearchContext], None] | None = None,
    bound: bool = True,
) -> Solution:
    """Find the best game for ``board`` that the strategy can within the budget.

    :param board: a layout, or a board as text or a file path (see :func:`read_board`).
    :param strategy: a name such as ``"beam"`` or ``"beam:width=200"``, or a strategy.
    :param time_limit: seconds of search; ``None`` for no time limit (then give
        ``max_states``). The bound, computed after the search, takes its own time.
    :param max_moves: the move limit K of the plays considered (RULES.md section 10).
    :param seed: seeds the strategy's random choices.
    :param max_states: a budget in states; with it the result is the same on every machine.
    :param bound: also compute the upper bound of the deal (after the search, outside its
        budget) and write it and the gap into the record's ``search``.
    :returns: a :class:`Solution` whose ``record`` is the game and ``score`` its total.
    """
    layout = board if isinstance(board, Layout) else read_board(board)
    if isinstance(strategy, str):
        strategy = parse_strategy(strategy)
    if max_moves < 0:
        raise StrategyError(f"max_moves must be >= 0, not {max_moves}")
    game = Game(layout, dictionary or Dictionary.default(), rules or Rules(), max_moves)
    outcome = run_search(game, strategy, time_limit, max_states, seed, on_improve, on_context)
    search_info = {
        **strategy.describe(),
        "seconds": round(outcome.seconds, 3),
        "states": outcome.states,
        "max_moves": max_moves,
        "seed": seed,
        "time_limit": time_limit,
        "max_states": max_states,
        "stopped": outcome.stop_reason,
        **outcome.extra,
    }
    upper = None
    if bound:
        started = time.perf_counter()
        found = start_bound(layout, game.dictionary, game.rules, max_moves)
        upper = found.score
        searched = outcome.extra.get("upper_bound")
        if isinstance(searched, int):
            upper = min(upper, searched)  # both are admissible
        search_info["bound"] = upper
        search_info["bound_for"] = found.describe()
        search_info["bound_seconds"] = round(time.perf_counter() - started, 3)
        if upper > 0:
            search_info["gap"] = round(outcome.score / upper, 4)
    record = line_to_record(game, outcome.line, search_info)
    assert record.result.score == outcome.score
    return Solution(record, outcome.score, outcome, upper)

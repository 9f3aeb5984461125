"""Solving a deal: run a search strategy under a budget and write its best game as a record.

This is the main job of the project (``letterchess solve`` and :func:`solve`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .board import Layout, Position, read_board
from .budget import UNSET, TimeLimit, search_budget
from .config import DEFAULT_MAX_MOVES
from .dictionary import Dictionary
from .formable import formable_words
from .movegen import witness
from .record import Record, Turn
from .referee import check_record
from .rules import Result, Rules, tally
from .search import parse_strategy
from .search.base import (
    BudgetSpent,
    Expansion,
    Game,
    Line,
    SearchContext,
    SearchOutcome,
    Strategy,
)
from .search.bound import board_bound, start_bound, upper_bound


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
    time_limit: TimeLimit = UNSET,
    max_states: int | None = None,
    seed: int = 0,
    on_improve: Callable[[SearchContext], None] | None = None,
    on_context: Callable[[SearchContext], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> SearchOutcome:
    """Run ``strategy`` on ``game`` until it finishes or the budget is spent.

    :param time_limit: ``max_states``: the budget (:func:`solver.budget.search_budget`).
    :param on_improve: called with the context each time a better game is found.
    :param on_context: called once with the context before the search starts (for progress
        displays that read it).
    :param clock: the seconds the time limit is counted in (tests give a fake one).
    :raises ValueError: for a budget no search can keep.
    """
    budget = search_budget(time_limit, max_states)
    context = SearchContext(
        game, budget.time_limit, budget.max_states, seed, on_improve, clock=clock
    )
    context.report = strategy.new_report()
    if on_context is not None:
        on_context(context)
    with _CtrlC(context):
        # A generation too costly to finish within the time limit unwinds the whole search.
        with contextlib.suppress(BudgetSpent):
            strategy.run(context)
        if context.best is None:
            # Stopped before finishing any game: finish the empty line greedily, with the
            # cheap plays (every play only once few tiles are left).
            context.expansion = context.expansion or Expansion()
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
        context.report,
    )


def line_to_record(
    game: Game,
    line: Line,
    search: dict[str, Any] | None = None,
    kept_turns: tuple[Turn, ...] = (),
) -> Record:
    """The game record of ``line``, with a witness (moves and path) for every turn.

    :param kept_turns: the turns of a game in progress that ``line`` continues, written as
        they were played (``line`` starts with their plays).
    """
    position = Position.start(game.layout)
    turns = list(kept_turns)
    for number, (word_id, tiles, _) in enumerate(line.plays):
        word = game.word(word_id)
        if number >= len(kept_turns):
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


def prepare_kernels(game: Game) -> None:
    """Compile (on the first run after an install) or load from the cache every compiled
    kernel a search or the bound calls, on a tiny position, so that no search clock counts it.

    On the first run this takes several seconds; afterwards well under one.
    """
    first_tiles = list(game.layout.tiles())[:3]
    tiny = sum(1 << sq for sq, _ in first_tiles)
    game.all_plays(tiny)
    formable_words(game.layout, tiny, game.dictionary, game.rules, game.max_moves)
    upper_bound("".join(letter for _, letter in first_tiles), 0, game.dictionary)


def continuation(record: Record, dictionary: Dictionary) -> Line:
    """The line of a game record's turns, to continue it (:class:`Game`'s ``start``).

    :raises ValueError: naming the first illegal turn.
    """
    verdict = check_record(record, dictionary)
    if verdict.fault is not None and verdict.fault.turn is not None:
        raise ValueError(f"the game so far is illegal: {verdict.fault}")
    line = Line.start(record.board.tile_mask)
    for turn, tiles in zip(record.turns, verdict.removed, strict=True):
        line = line.then(dictionary.word_id(turn.word.lower()), tiles, tally(turn.word))
    return line


def solve(
    board: Layout | str | Record,
    strategy: str | Strategy = "auto",
    time_limit: TimeLimit = UNSET,
    max_moves: int | None = DEFAULT_MAX_MOVES,
    seed: int = 0,
    dictionary: Dictionary | str | os.PathLike[str] | None = None,
    rules: Rules | None = None,
    max_states: int | None = None,
    on_improve: Callable[[SearchContext], None] | None = None,
    on_context: Callable[[SearchContext], None] | None = None,
    bound: bool = True,
    on_phase: Callable[[str], None] | None = None,
) -> Solution:
    """Find the best game for ``board`` that the strategy can within the budget.

    :param board: a layout, a board as text or a file path (see :func:`read_board`), or the
        record of a game in progress: then the best continuation is searched, and the record
        written keeps the turns played so far.
    :param strategy: a name such as ``"beam"`` or ``"beam:width=200"``, or a strategy.
    :param time_limit: seconds of search; ``None`` for no time limit (then give
        ``max_states``); not given: 10 s, or none when ``max_states`` is given (the rule of
        :mod:`solver.budget`). Preparing the kernels before and the bound after take their
        own time.
    :param max_moves: the move limit K of the plays considered (RULES.md section 10), or
        ``None`` for no limit (then the bound looks at the letters only).
    :param seed: seeds the strategy's random choices.
    :param dictionary: a dictionary, the path of a word list, or ``None`` for the default.
    :param rules: the rules (default: the standard rules, or the record's).
    :param max_states: a budget in states; with it (and no time limit) the result is the same
        on every machine.
    :param bound: also compute the upper bound of the deal (after the search, outside its
        budget) and write it and the gap into the record's ``search``.
    :param on_phase: called with ``"preparing kernels"``, ``"searching"`` and ``"computing
        the bound"`` as the solve moves on (for progress displays).
    :returns: a :class:`Solution` whose ``record`` is the game and ``score`` its total.
    :raises ValueError: for a bad argument (a :class:`TypeError` for one of the wrong type).
    """
    budget = search_budget(time_limit, max_states)
    _check_limits(max_moves, seed)
    dictionary = _dictionary_of(dictionary)
    layout, kept_turns, rules = _deal_of(board, rules)
    rules.check_move_limit(max_moves)
    if isinstance(strategy, str):
        strategy = parse_strategy(strategy)
    start = continuation(board, dictionary) if isinstance(board, Record) else None
    game = Game(layout, dictionary, rules, max_moves, start=start)
    phase = on_phase or (lambda _: None)
    phase("preparing kernels")
    prepared = time.perf_counter()
    prepare_kernels(game)
    prepare_seconds = time.perf_counter() - prepared
    phase("searching")
    outcome = run_search(
        game, strategy, budget.time_limit, budget.max_states, seed, on_improve, on_context
    )
    search_info = {
        **strategy.describe(),
        "seconds": round(outcome.seconds, 3),
        "states": outcome.states,
        "max_moves": max_moves,
        "seed": seed,
        "time_limit": budget.time_limit,
        "max_states": budget.max_states,
        "stopped": outcome.stop_reason,
        **outcome.report.to_dict(),
        "prepare_seconds": round(prepare_seconds, 3),
    }
    upper = None
    if bound:
        phase("computing the bound")
        upper = _bound(game, outcome, search_info)
    record = line_to_record(game, outcome.line, search_info, kept_turns)
    assert record.result is not None and record.result.score == outcome.score
    return Solution(record, outcome.score, outcome, upper)


def _bound(game: Game, outcome: SearchOutcome, search_info: dict[str, Any]) -> int:
    """The upper bound of the game searched (written into ``search_info`` with the gap)."""
    started = time.perf_counter()
    start = game.start
    if start.rounds == 0:
        found = start_bound(game.layout, game.dictionary, game.rules, game.max_moves)
    else:
        played = [game.word(word_id) for word_id, _, _ in start.plays]
        found = board_bound(
            game.layout,
            game.dictionary,
            game.rules,
            game.max_moves,
            start.mask,
            played,
            start.word_points,
        )
    upper = found.score
    searched = outcome.report.upper_bound
    if searched is not None:
        upper = min(upper, searched)  # both are admissible
    search_info["bound"] = upper
    search_info["bound_for"] = found.describe()
    search_info["bound_seconds"] = round(time.perf_counter() - started, 3)
    if upper > 0:
        search_info["gap"] = round(outcome.score / upper, 4)
    return upper


def _deal_of(
    board: Layout | str | Record, rules: Rules | None
) -> tuple[Layout, tuple[Turn, ...], Rules]:
    """The layout of :func:`solve`'s ``board``, the turns played so far (of a record), and the
    rules (a record's own, which ``rules`` may not contradict; else ``rules`` or the standard).

    :raises ValueError: for rules that differ from the record's; :class:`TypeError` for a
        board or rules of the wrong type.
    """
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a solver.rules.Rules, not {type(rules).__name__}")
    if isinstance(board, Record):
        if rules is not None and rules != board.rules:
            raise ValueError(f"rules {rules.describe()} differ from the record's")
        return board.board, board.turns, board.rules
    if not isinstance(board, Layout | str):
        raise TypeError(f"board must be a Layout, a board string or a Record, not {board!r}")
    layout = board if isinstance(board, Layout) else read_board(board)
    return layout, (), rules or Rules()


def _check_limits(max_moves: int | None, seed: int) -> None:
    """Refuse a move limit or a seed no search can run with, naming the argument."""
    if max_moves is not None:  # None: no move limit
        if isinstance(max_moves, bool) or not isinstance(max_moves, int):
            raise TypeError(f"max_moves must be a whole number, not {max_moves!r}")
        if max_moves < 0:
            raise ValueError(f"max_moves must be >= 0, not {max_moves}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, not {seed!r}")


def _dictionary_of(dictionary: Dictionary | str | os.PathLike[str] | None) -> Dictionary:
    if dictionary is None:
        return Dictionary.default()
    if isinstance(dictionary, Dictionary):
        return dictionary
    if isinstance(dictionary, str | os.PathLike):
        return Dictionary.from_file(dictionary)
    kind = type(dictionary).__name__
    raise TypeError(f"dictionary must be a Dictionary, a word-list path or None, not {kind}")

"""What every search strategy shares: the game as a search problem, lines of play, the budget,
and the context a strategy runs in.

The state of a game is the opening layout plus the bitboard of the tiles still on the board
(:class:`solver.board.Position`) and the words already played. The search never handles
boards, moves or paths: a play is ``(word_id, tiles, score)``, and the witness (moves, path) is
found again only when the best line is written out as a game record.

Budgets are counted in **states**: a state is one position whose plays were generated
(:meth:`SearchContext.plays`). With a state budget and a seed, a strategy's result is the same on
every machine; with only a time limit it depends on the machine's speed.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Generic, TypeVar, cast

import numpy as np

from ..board import Layout
from ..config import (
    EXPANSION_BEST,
    EXPANSION_FULL_TILES,
    EXPANSION_MOVES,
    EXPANSION_WIDE_TILES,
    PLAY_CACHE_ROWS,
)
from ..dictionary import Dictionary
from ..movegen import GenerationStopped, raw_plays
from ..rules import Rules, clear_bonus, is_vowel


@dataclass(frozen=True)
class PlaySet:
    """The plays from one position, as parallel arrays, best tally first.

    Ties are broken by word id, then tiles, so the order is the same on every machine.
    """

    word_ids: np.ndarray
    tiles: np.ndarray
    scores: np.ndarray

    def __len__(self) -> int:
        return int(self.word_ids.shape[0])

    def take(self, keep: np.ndarray) -> PlaySet:
        """The plays selected by a boolean mask or index array, in the same order."""
        return PlaySet(self.word_ids[keep], self.tiles[keep], self.scores[keep])


@dataclass(frozen=True)
class Expansion:
    """Which plays of a position a strategy looks at when the game allows more moves than are
    cheap to generate (no move limit, the real game): progressive widening by tile count.

    * With more than ``wide_tiles`` tiles: every play with at most ``moves`` moves.
    * With ``full_tiles`` < tiles <= ``wide_tiles``: those, plus the best ``best`` plays of the
      game's class (the bounded generator; the long words that many moves make).
    * With at most ``full_tiles`` tiles: every play of the game's class (cheap by then).

    Every play so generated is a play of the game (a play with at most ``moves`` moves is one
    of every larger class); when the game's own limit is at most ``moves`` every play of the
    class is generated at every size, so a K-limited search is unchanged.
    """

    moves: int = EXPANSION_MOVES
    best: int = EXPANSION_BEST
    wide_tiles: int = EXPANSION_WIDE_TILES
    full_tiles: int = EXPANSION_FULL_TILES

    def requests(
        self, max_moves: int | None, tiles: int
    ) -> tuple[tuple[int | None, int | None], ...]:
        """The generations whose union is the plays of a position of ``tiles`` tiles in a game
        with the move limit ``max_moves``: ``(move limit, best)`` pairs (``best`` ``None``:
        every play)."""
        if tiles <= self.full_tiles or (max_moves is not None and max_moves <= self.moves):
            return ((max_moves, None),)
        if tiles <= self.wide_tiles and self.best > 0:
            return ((self.moves, None), (max_moves, self.best))
        return ((self.moves, None),)


@dataclass(frozen=True)
class Line:
    """A line of play from the start: plays ``(word_id, tiles, score)`` in order.

    :ivar mask: the tiles still on the board after the line.
    :ivar word_points: the sum of the plays' tallies.
    """

    plays: tuple[tuple[int, int, int], ...]
    mask: int
    word_points: int

    @classmethod
    def start(cls, mask: int) -> Line:
        return cls((), mask, 0)

    def then(self, word_id: int, tiles: int, score: int) -> Line:
        """This line followed by one more play."""
        return Line(
            (*self.plays, (word_id, tiles, score)),
            self.mask & ~tiles,
            self.word_points + score,
        )

    @property
    def played(self) -> frozenset[int]:
        """The word ids played on this line."""
        return frozenset(word_id for word_id, _, _ in self.plays)

    @property
    def rounds(self) -> int:
        return len(self.plays)


def _costly(max_moves: int | None, best: int | None, tiles: int) -> bool:
    """Whether generating the plays of a position may take seconds: every play (or many) of a
    class beyond the cheap move limit, on a board with more than a few tiles."""
    limit_is_cheap = max_moves is not None and max_moves <= EXPANSION_MOVES
    return not limit_is_cheap and tiles > EXPANSION_FULL_TILES


class Game:
    """One deal as a search problem: its layout, dictionary, rules and move limit ``K``
    (``None``: no limit, the real game), with the plays of every position generated once and
    cached (by tile mask, move limit and bound ``best``, an exact key: the plays of a position
    do not depend on the words played, which are filtered afterwards).

    :param start: the line the search continues: the turns of a game in progress (their
        points and rounds count in every final score), or by default the empty line.
    """

    def __init__(
        self,
        layout: Layout,
        dictionary: Dictionary,
        rules: Rules,
        max_moves: int | None,
        cache_rows: int = PLAY_CACHE_ROWS,
        start: Line | None = None,
    ) -> None:
        self.layout = layout
        self.dictionary = dictionary
        self.rules = rules
        self.max_moves = max_moves
        self.start = start if start is not None else Line.start(layout.tile_mask)
        self.start_mask = self.start.mask
        self._cache: OrderedDict[tuple[int, tuple[tuple[int | None, int | None], ...]], PlaySet]
        self._cache = OrderedDict()
        self._cache_rows = 0
        self._cache_limit = cache_rows
        self._vowel_mask = sum(1 << sq for sq, letter in layout.tiles() if is_vowel(letter))

    def all_plays(self, mask: int) -> PlaySet:
        """Every play from the position ``mask``, whatever words were played, best first."""
        return self.plays_of(mask, None)

    def plays_of(
        self,
        mask: int,
        expansion: Expansion | None,
        stop: Callable[[], bool] | None = None,
    ) -> PlaySet:
        """The plays from the position ``mask`` that ``expansion`` looks at (``None``: every
        play of the game's class), whatever words were played, best first.

        :param stop: polled during the generations after the first (the costly bounded ones):
            when it turns true they are left out, and the plays returned are only the first
            generation's (not cached). A search out of time finishes its lines that way.
        """
        requests = (
            ((self.max_moves, None),)
            if expansion is None
            else expansion.requests(self.max_moves, mask.bit_count())
        )
        key = (mask, requests)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        parts = []
        complete = True
        for number, (limit, best) in enumerate(requests):
            # The first generation is always finished (a search needs a position's plays),
            # unless it is one of every play of a costly class: then it stops at the time
            # limit too, and the search unwinds (the time limit holds whatever the class).
            costly = number > 0 or _costly(limit, best, mask.bit_count())
            try:
                parts.append(
                    raw_plays(
                        self.layout,
                        mask,
                        self.dictionary,
                        self.rules,
                        limit,
                        best=best,
                        stop=stop if costly else None,
                    )
                )
            except GenerationStopped:
                if number == 0:
                    raise BudgetSpent from None
                complete = False
        word_ids = np.concatenate([part.word_ids for part in parts])
        tiles = np.concatenate([part.tiles for part in parts])
        scores = np.concatenate([part.scores for part in parts])
        # Best tally first, ties by word id and tiles.
        order = np.lexsort((tiles, word_ids, -scores))
        if len(parts) > 1 and len(order):
            # One row per (word, tiles): a play found by two generations is kept once.
            sorted_words, sorted_tiles = word_ids[order], tiles[order]
            fresh = np.ones(len(order), dtype=bool)
            fresh[1:] = (sorted_words[1:] != sorted_words[:-1]) | (
                sorted_tiles[1:] != sorted_tiles[:-1]
            )
            order = order[fresh]
        plays = PlaySet(word_ids[order], tiles[order], scores[order])
        if not complete:
            return plays
        self._cache[key] = plays
        self._cache_rows += len(plays)
        while self._cache_rows > self._cache_limit and len(self._cache) > 1:
            _, evicted = self._cache.popitem(last=False)
            self._cache_rows -= len(evicted)
        return plays

    def legal_plays(
        self,
        mask: int,
        played: frozenset[int],
        expansion: Expansion | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> PlaySet:
        """The plays from ``mask`` that ``expansion`` looks at (by default every play) whose
        words were not played yet (``stop`` as in :meth:`plays_of`)."""
        plays = self.plays_of(mask, expansion, stop)
        if not played or len(plays) == 0:
            return plays
        fresh = ~np.isin(plays.word_ids, np.fromiter(played, dtype=np.int64, count=len(played)))
        return plays if fresh.all() else plays.take(fresh)

    def leftover_tally(self, mask: int) -> int:
        """The penalty for the tiles of ``mask`` left at the end: their tally as one word."""
        count = mask.bit_count()
        return (count + (mask & self._vowel_mask).bit_count()) * count

    def final_score(self, line: Line) -> int:
        """The final score if the game ended after ``line``."""
        if line.mask == 0:
            return line.word_points + clear_bonus(line.rounds)
        return line.word_points - self.leftover_tally(line.mask)

    def word(self, word_id: int) -> str:
        return self.dictionary.word(word_id).upper()


class SearchContext:
    """What a strategy runs in: the game, the budget, a seeded random source, and the best
    complete game found so far.

    A strategy calls :meth:`plays` to expand a position (which counts one state), polls
    :attr:`stopped`, and hands every complete game it finishes to :meth:`offer`.
    """

    def __init__(
        self,
        game: Game,
        time_limit: float | None,
        max_states: int | None,
        seed: int,
        on_improve: Callable[[SearchContext], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.game = game
        self.time_limit = time_limit
        self.max_states = max_states
        self.rng = random.Random(seed)
        #: Which plays :meth:`plays` generates (``None``: every play of the game's class); an
        #: :class:`AnytimeStrategy` sets it before it starts.
        self.expansion: Expansion | None = None
        self.states = 0
        self.interrupted = False
        self.best: Line | None = None
        self.best_score: int | None = None
        #: What the strategy reports beyond its best game (its :attr:`Strategy.Report`; set by
        #: :func:`solver.solution.run_search`), copied into :attr:`SearchOutcome.report`.
        self.report = SearchReport()
        self._on_improve = on_improve
        self._clock = clock
        self._started = clock()

    def start_line(self) -> Line:
        """The line the search starts from: the game before its first turn, or the turns of
        a game in progress (see :class:`Game`)."""
        return self.game.start

    @property
    def elapsed(self) -> float:
        return self._clock() - self._started

    @property
    def stopped(self) -> bool:
        """True once the time or the state budget is spent, or the user pressed Ctrl-C."""
        if self.interrupted:
            return True
        if self.max_states is not None and self.states >= self.max_states:
            return True
        return self.time_limit is not None and self.elapsed >= self.time_limit

    def plays(self, line: Line, expansion: Expansion | None = None) -> PlaySet:
        """The legal plays after ``line`` that :attr:`expansion` (or ``expansion``, when given)
        looks at (one state of the budget)."""
        self.states += 1
        chosen = expansion if expansion is not None else self.expansion
        return self.game.legal_plays(line.mask, line.played, chosen, self._time_spent)

    def _time_spent(self) -> bool:
        """Whether the time limit is spent or the user pressed Ctrl-C: what stops a costly
        generation (a state budget never does, so that it gives the same game everywhere)."""
        return self.interrupted or (self.time_limit is not None and self.elapsed >= self.time_limit)

    def offer(self, line: Line) -> bool:
        """Record a complete game; keep it if it beats the best so far (the first found wins a
        tie). Returns whether it was kept."""
        score = self.game.final_score(line)
        if self.best_score is not None and score <= self.best_score:
            return False
        self.best, self.best_score = line, score
        if self._on_improve is not None:
            self._on_improve(self)
        return True

    def complete_greedily(self, line: Line) -> Line:
        """``line`` played on to the end, each turn the best tally (ties as in
        :class:`PlaySet`). Used to finish partial lines; it does not stop for the budget."""
        while True:
            plays = self.plays(line)
            if len(plays) == 0:
                return line
            line = line.then(int(plays.word_ids[0]), int(plays.tiles[0]), int(plays.scores[0]))


def param(
    default: Any,
    low: float | None = None,
    high: float | None = None,
    *,
    above: float | None = None,
    choices: tuple[str, ...] | None = None,
) -> Any:
    """A strategy parameter with its allowed values, checked by :class:`StrategyParams`.

    :param low: the smallest value allowed; ``above``: a value it must exceed.
    :param high: the largest value allowed. Every numeric parameter has one: a budget is what
        bounds a search, and a parameter like ``level=1000000`` would hang it instead.
    :param choices: the allowed values of a string parameter.
    """
    limits = {"low": low, "high": high, "above": above, "choices": choices}
    return field(default=default, metadata=limits)


@dataclass
class StrategyParams:
    """Base of each strategy's parameters: a dataclass of typed fields with defaults, declared
    with :func:`param`. Every value is checked on construction, the same way for every
    strategy: its type (an ``int`` parameter takes no float, a ``float`` one nothing but a
    finite number) and its range.

    :raises ValueError: naming the parameter, the value and what is allowed.
    """

    def __post_init__(self) -> None:
        for spec in fields(self):
            _check_param(spec.name, getattr(self, spec.name), str(spec.type), spec.metadata)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _check_param(name: str, value: Any, kind: str, limits: Any) -> None:
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be true or false, not {value!r}")
        return
    if kind == "str":
        choices = limits.get("choices")
        if not isinstance(value, str) or (choices and value not in choices):
            allowed = f"one of {', '.join(choices)}" if choices else "a string"
            raise ValueError(f"{name} must be {allowed}, not {value!r}")
        return
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, not {value!r}")
    if kind == "int" and not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    low, high, above = limits.get("low"), limits.get("high"), limits.get("above")
    if above is not None and value <= above:
        raise ValueError(f"{name} must be > {above:g}, not {value:g}")
    if (low is not None and value < low) or (high is not None and value > high):
        lowest = f"{above:g} (exclusive)" if above is not None else f"{low:g}"
        raise ValueError(f"{name} must be between {lowest} and {high:g}, not {value:g}")


@dataclass
class SearchReport:
    """What a search found out beyond its best game, written into the record's ``search``.

    Each strategy reports with its own subclass (:attr:`Strategy.Report`), whose fields are
    typed; a field left ``None`` is not written.

    :ivar chosen: the strategy ``auto`` chose to run.
    :ivar upper_bound: an upper bound on the optimum that the search established, if any.
    """

    chosen: str | None = None
    upper_bound: int | None = None

    def to_dict(self) -> dict[str, Any]:
        values = ((f.name, getattr(self, f.name)) for f in fields(self))
        return {name: value for name, value in values if value is not None}


class BudgetSpent(Exception):
    """Raised inside a search when :attr:`SearchContext.stopped`, to unwind it at once (the
    best game found so far is already offered)."""


P = TypeVar("P", bound=StrategyParams)
R = TypeVar("R", bound=SearchReport)


class Strategy(Generic[P, R]):
    """A search strategy over parameters ``P`` that reports ``R``. Subclasses set
    :attr:`name`, :attr:`summary`, :attr:`Params` and :attr:`Report`, are registered by name
    with :func:`solver.search.register`, and implement :meth:`run`."""

    name: ClassVar[str]
    #: One line for ``--help`` and the docs.
    summary: ClassVar[str] = ""
    Params: ClassVar[type[StrategyParams]] = StrategyParams
    Report: ClassVar[type[SearchReport]] = SearchReport

    def __init__(self, params: P | None = None) -> None:
        self.params: P = params if params is not None else cast(P, self.Params())

    def new_report(self) -> R:
        """An empty report of this strategy, for :attr:`SearchContext.report`."""
        return cast(R, self.Report())

    def report(self, context: SearchContext) -> R:
        """The context's report, as this strategy's type (made so if the context was not
        prepared by :func:`solver.solution.run_search`)."""
        if not isinstance(context.report, self.Report):
            context.report = self.new_report()
        return cast(R, context.report)

    def run(self, context: SearchContext) -> None:
        """Search, offering every complete game found to ``context``; return when done or when
        ``context.stopped``."""
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        return {"strategy": self.name, "params": self.params.to_dict()}


class AnytimeStrategy(Strategy[P, R]):
    """A strategy that improves on the greedy game until its budget ends: :meth:`run` offers
    the greedy game first (a few states; the result is never below it, and its positions are
    the likeliest first ones of any search, so generating them is not wasted), then calls
    :meth:`search`, which returns when it is done or raises :class:`BudgetSpent`."""

    def run(self, context: SearchContext) -> None:
        context.expansion = self.expansion()
        context.offer(context.complete_greedily(context.start_line()))
        with contextlib.suppress(BudgetSpent):
            self.search(context)

    def expansion(self) -> Expansion | None:
        """Which plays of a position the search looks at (see :class:`Expansion`); the
        defaults of :mod:`solver.config` unless a strategy's parameters say otherwise."""
        return Expansion()

    def search(self, context: SearchContext) -> None:
        """Look for games better than the greedy one (subclasses)."""
        raise NotImplementedError


@dataclass
class SearchOutcome:
    """The best line a search found, and what it cost."""

    line: Line
    score: int
    states: int
    seconds: float
    stop_reason: str
    report: SearchReport = field(default_factory=SearchReport)

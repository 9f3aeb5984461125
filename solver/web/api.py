"""The JSON API of the web app, as plain functions: a decoded request body in, a JSON-ready
answer out, or an :class:`ApiError` naming what is wrong with the request.

Each endpoint calls the same functions as the command line: boards are read by
:meth:`Layout.parse` or dealt by :func:`deal` (``generate``), games are replayed by the
referee's :func:`~solver.referee.check_turn` (``check``), plays come from
:func:`~solver.movegen.generate_plays` in the form of ``plays --json``, bounds from
:func:`~solver.search.bound.board_bound` in the form of ``bound --json``, solves from
:func:`solver.solve`. :mod:`solver.web.app` serves them over HTTP; nothing here knows about it.

A *game* in a request is an object with ``board`` (text or one-line form), optional ``rules``
(as in a record) and optional ``turns`` (as in a record; ``word`` and ``score`` may be left out,
then the server reads the word along the path and tallies it). A whole game record is such an
object too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .. import __version__
from ..board import STANDARD_PATTERN, BoardError, Layout, Position, deal
from ..budget import UNSET, search_budget
from ..dictionary import Dictionary
from ..movegen import generate_plays
from ..play import Play
from ..record import Record, RecordError, Turn
from ..referee import IllegalTurn, check_record, check_turn
from ..render import tiles_after_moves
from ..rules import VOWELS, Result, Rules, RulesError, tally
from ..search import STRATEGIES, StrategyError, parse_strategy
from ..search.base import Strategy
from ..search.bound import board_bound
from ..squares import Square, parse_square
from ..svg import board_svg
from .replay import record_replay_data, replay_data


class ApiError(Exception):
    """A request the API cannot answer; ``status`` is the HTTP status (4xx)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


#: What a bad request can raise below; all become a 400 with the message.
INPUT_ERRORS = (ApiError, BoardError, RecordError, RulesError, StrategyError)


@dataclass(frozen=True)
class Limits:
    """Caps on what one request may ask of the server (a local app must not be made to run
    for hours by a typo).

    :ivar max_body: bytes of a request body.
    :ivar max_time_limit: seconds of one solve's search.
    :ivar max_states: one solve's state budget.
    :ivar max_moves: the largest move limit K a request may name (the plays grow steeply with
        it; K = 3 bounds take 7 s); ``"all"`` (no limit, the real game, the default) is always
        allowed: its plays are generated in the bounded mode (the best ``top``) and its
        searches are capped by the time and state budgets like any other.
    :ivar max_top: plays listed by one ``plays`` request.
    :ivar max_seed: seeds of deals and searches.
    """

    max_body: int = 256 * 1024
    max_time_limit: float = 300.0
    max_states: int = 5_000_000
    max_moves: int = 3
    max_top: int = 1000
    max_seed: int = 2**63 - 1


# --- reading requests ---------------------------------------------------------------------


def _integer(data: dict[str, Any], name: str, default: int | None, low: int, high: int) -> int:
    value = data.get(name, default)
    if value is None:
        raise ApiError(f"missing field {name!r}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"{name} must be an integer, not {value!r}")
    if not low <= value <= high:
        raise ApiError(f"{name} must be between {low:,} and {high:,}, not {value:,}")
    return value


def _number(data: dict[str, Any], name: str, high: float) -> float | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ApiError(f"{name} must be a number of seconds, not {value!r}")
    if not 0 < value <= high:
        raise ApiError(f"{name} must be above 0 and at most {high:g} seconds, not {value:g}")
    return float(value)


def _squares(value: Any, where: str) -> list[Square]:
    if not isinstance(value, list):
        raise ApiError(f"{where} must be a list of squares like 'c4'")
    try:
        return [parse_square(name) for name in value]
    except ValueError as error:
        raise ApiError(f"{where}: {error}") from None


def _moves(value: Any, where: str) -> list[tuple[Square, Square]]:
    if not isinstance(value, list) or not all(isinstance(m, list) and len(m) == 2 for m in value):
        raise ApiError(f"{where} must be a list of [from, to] pairs of squares")
    pairs = _squares([sq for move in value for sq in move], where)
    return list(zip(pairs[::2], pairs[1::2], strict=True))


def read_board(data: dict[str, Any]) -> Layout:
    """The board of a request: ``board`` (text or one-line form) or ``seed`` (a standard deal,
    as ``letterchess generate --seed``)."""
    if "seed" in data and data.get("board") is None:
        return deal(_integer(data, "seed", None, 0, Limits.max_seed))
    board = data.get("board")
    if not isinstance(board, str):
        raise ApiError("give the board (text or one-line form) as 'board', or a 'seed'")
    if len(board) > 1000:
        raise ApiError("a board is 9 rows of 7 squares; this one is far too long")
    return Layout.parse(board, source="board")


def read_rules(data: dict[str, Any]) -> Rules:
    """The rule options of a request (as in a record), the standard ones if absent."""
    return Rules.from_dict(data.get("rules") or {})


def spell(position: Position, moves: list[tuple[Square, Square]], path: list[Square]) -> str:
    """The letters along ``path`` once ``moves`` are made (leniently: the referee judges the
    moves); an empty square reads ``.``, which the referee rejects as not a letter."""
    tile_at = tiles_after_moves(position, Turn(tuple(moves), (), "", 0))
    return "".join(position.layout.letters[tile_at[sq]] if sq in tile_at else "." for sq in path)


def read_turn(value: Any, position: Position, where: str) -> Turn:
    """A turn of a request; a missing ``word`` is read along the path, a missing ``score``
    is the word's tally."""
    if not isinstance(value, dict):
        raise ApiError(f"{where} must be an object with 'moves' and 'path'")
    moves = _moves(value.get("moves") or [], f"{where}: moves")
    path = _squares(value.get("path"), f"{where}: path")
    word = value.get("word")
    if word is None:
        word = spell(position, moves, path)
    if not isinstance(word, str):
        raise ApiError(f"{where}: word must be a string")
    score = value.get("score")
    if score is None:
        score = tally(word.upper())
    if isinstance(score, bool) or not isinstance(score, int):
        raise ApiError(f"{where}: score must be an integer")
    return Turn(tuple(moves), tuple(path), word.upper(), score)


@dataclass(frozen=True)
class GameState:
    """A game in progress, replayed by the referee: every turn legal."""

    layout: Layout
    rules: Rules
    turns: tuple[Turn, ...]
    position: Position

    @property
    def points(self) -> int:
        # A game in progress may leave a turn's tally out: the word's tally it is.
        return sum(tally(turn.word) if turn.score is None else turn.score for turn in self.turns)


def read_game(data: dict[str, Any], dictionary: Dictionary) -> GameState:
    """The game of a request, each turn checked by the referee.

    :raises ApiError: for a malformed game, or a turn the referee rejects (naming it).
    """
    layout = read_board(data)
    rules = read_rules(data)
    turns_data = data.get("turns") or []
    if not isinstance(turns_data, list):
        raise ApiError("turns must be a list")
    if len(turns_data) > layout.tile_count:
        raise ApiError(f"{len(turns_data)} turns cannot be played on {layout.tile_count} tiles")
    position = Position.start(layout)
    turns = []
    for number, value in enumerate(turns_data, start=1):
        turn = read_turn(value, position, f"turn {number}")
        try:
            removed = check_turn(layout, position, turn, rules, dictionary)
        except IllegalTurn as error:
            raise ApiError(f"turn {number}: {error}") from None
        turns.append(turn)
        position = position.after(turn.word, removed)
    return GameState(layout, rules, tuple(turns), position)


def _max_moves(data: dict[str, Any], limits: Limits, rules: Rules) -> int | None:
    """The move limit K of a request (``"all"``, ``null`` or absent: ``None``, no limit),
    which the rules' ``min_moves`` must not exceed."""
    if data.get("max_moves", "all") in ("all", None):
        return None
    max_moves = _integer(data, "max_moves", None, 0, limits.max_moves)
    rules.check_move_limit(max_moves)
    return max_moves


# --- the endpoints --------------------------------------------------------------------------


class Api:
    """The endpoints, bound to a dictionary and to the limits."""

    def __init__(self, dictionary: Dictionary, limits: Limits | None = None) -> None:
        self.dictionary = dictionary
        self.limits = limits or Limits()

    def info(self) -> dict[str, Any]:
        """``GET /api/info``: what the page needs to know before anything else."""
        return {
            "version": __version__,
            "dictionary": {"name": self.dictionary.name, "words": len(self.dictionary)},
            "strategies": [
                {"name": name, "summary": cls.summary} for name, cls in STRATEGIES.items()
            ],
            "limits": {
                "max_time_limit": self.limits.max_time_limit,
                "max_states": self.limits.max_states,
                "max_moves": self.limits.max_moves,
                "max_top": self.limits.max_top,
            },
            "standard_pattern": STANDARD_PATTERN.to_line(),
            "vowels": "".join(sorted(VOWELS)),
        }

    def board(self, data: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/board``: parse a board (or deal one by seed)."""
        layout = read_board(data)
        return {
            "board": layout.to_line(),
            "text": layout.to_text(),
            "tiles": layout.tile_count,
            "svg": board_svg(layout, size=None),
        }

    def game(self, data: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/game``: a game in progress, replayed by the referee: its turns (with
        words and scores), points, whether it is over, and its record."""
        game = read_game(data, self.dictionary)
        return self._game_answer(game, _max_moves(data, self.limits, game.rules))

    def _game_answer(self, game: GameState, max_moves: int | None) -> dict[str, Any]:
        position = game.position
        # Over when no play of the full class is left (RULES.md section 10), or cleared.
        # A play with at most 2 moves is one of every larger class, and much faster found.
        quick = 2 if max_moves is None else min(max_moves, 2)
        over = position.cleared or not (
            self._plays_of(game, quick, best=1) or self._plays_of(game, max_moves, best=1)
        )
        result = Result.of_game([turn.word for turn in game.turns], position.remaining_letters())
        # A game in progress is recorded without a result.
        record = Record(
            game.layout, game.rules, game.turns, result if over else None, self.dictionary.info()
        )
        return {
            "board": game.layout.to_line(),
            "rules": game.rules.to_dict(),
            "turns": [turn.to_dict() for turn in game.turns],
            "points": game.points,
            "rounds": len(game.turns),
            "tiles_left": len(position.remaining_letters()),
            "max_moves": max_moves,
            "over": over,
            "result": result.to_dict() if over else None,
            "record": record.to_dict(),
            "svg": board_svg(position, size=None),
        }

    def position(self, data: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/position``: the board of a game in the middle of a turn, with the
        turn's ``moves`` made (leniently, as drawn) and its ``path`` and ``marked`` squares
        drawn; and the word the path spells."""
        game = read_game(data, self.dictionary)
        moves = _moves(data.get("moves") or [], "moves")
        path = _squares(data.get("path") or [], "path")
        marked = _squares(data.get("marked") or [], "marked")
        turn = Turn(tuple(moves), tuple(path), "", 0)
        tile_at = tiles_after_moves(game.position, turn)
        letters = {sq: game.layout.letters[tile] for sq, tile in tile_at.items()}
        svg = board_svg(
            letters, path=path, moves=moves, marked=marked, size=None, pattern=game.layout
        )
        return {"svg": svg, "word": spell(game.position, moves, path)}

    def play(self, data: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/play``: judge one more turn (``moves``, ``path``, optional ``word``)
        with the referee: ``legal`` and the turn with its score, or the referee's reason."""
        game = read_game(data, self.dictionary)
        turn = read_turn(
            {key: data.get(key) for key in ("moves", "path", "word")}, game.position, "the turn"
        )
        try:
            removed = check_turn(game.layout, game.position, turn, game.rules, self.dictionary)
        except IllegalTurn as error:
            return {"legal": False, "reason": str(error), "turn": turn.to_dict()}
        after = GameState(
            game.layout,
            game.rules,
            (*game.turns, turn),
            game.position.after(turn.word, removed),
        )
        return {
            "legal": True,
            "turn": turn.to_dict(),
            "game": self._game_answer(after, _max_moves(data, self.limits, game.rules)),
        }

    def _plays_of(
        self, game: GameState, max_moves: int | None, best: int | None = None
    ) -> list[Play]:
        """The plays of the game's position, best first; with ``best``, only that many (the
        bounded mode, much faster: with no move limit, generating every play of an opening
        takes many seconds)."""
        position = game.position
        return generate_plays(
            game.layout,
            position.remaining_mask,
            self.dictionary,
            game.rules,
            max_moves,
            position.played,
            best=best,
        )

    def plays(self, data: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/plays``: the best plays of a game's position, as ``plays --after``
        (each as in ``plays --json``)."""
        game = read_game(data, self.dictionary)
        max_moves = _max_moves(data, self.limits, game.rules)
        top = _integer(data, "top", 20, 1, self.limits.max_top)
        # With no move limit only the best ``top`` are generated (and counted).
        found = self._plays_of(game, max_moves, best=top if max_moves is None else None)
        return {
            "count": len(found),
            "max_moves": max_moves,
            "plays": [play.to_json() for play in found[:top]],
        }

    def bound(self, data: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/bound``: an upper bound on the final score of any game from a game's
        position (its points so far included), as ``bound --json`` (and ``--after``)."""
        game = read_game(data, self.dictionary)
        unrestricted = data.get("unrestricted", False)
        if not isinstance(unrestricted, bool):
            raise ApiError("unrestricted must be true or false")
        max_moves = None if unrestricted else _max_moves(data, self.limits, game.rules)
        found = board_bound(
            game.layout,
            self.dictionary,
            game.rules,
            max_moves,
            game.position.remaining_mask,
            sorted(game.position.played),
            game.points,
        )
        return {**found.to_json(), "points_so_far": game.points}

    def check(self, data: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/check``: the referee's verdict on a game record, as ``letterchess
        check``: ``legal``, or the first ``fault`` (turn and reason); a record without a
        result is a game in progress."""
        record = Record.from_dict(data, source="record")
        verdict = check_record(record, self.dictionary)
        fault = verdict.fault
        if fault is not None:
            message = f"illegal: {fault}"
        elif verdict.in_progress:
            message = "game in progress, every turn legal"
        else:
            message = "legal game"
        return {
            "legal": verdict.ok,
            "fault": None if fault is None else {"turn": fault.turn, "reason": fault.reason},
            "in_progress": verdict.in_progress,
            "message": message,
            "turns_checked": verdict.turns_checked,
            "points": verdict.points,
            "result": verdict.result.to_dict() if verdict.result is not None else None,
            "notes": verdict.notes,
            "dictionary": self.dictionary.name,
        }

    def replay(self, data: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/replay``: the replay data of a record (or of a game in progress)."""
        if "format" in data:
            return record_replay_data(Record.from_dict(data, source="record"))
        game = read_game(data, self.dictionary)
        return replay_data(game.layout, game.turns, rules=game.rules)

    def solve_request(self, data: dict[str, Any]) -> SolveRequest:
        """Check a ``POST /api/solve`` body; the app runs the solve (see :func:`run_solve`)."""
        layout = read_board(data)
        spec = data.get("strategy", "auto")
        if not isinstance(spec, str):
            raise ApiError("strategy must be a name such as 'beam' or 'beam:width=50'")
        strategy = parse_strategy(spec)
        time_limit = _number(data, "time_limit", self.limits.max_time_limit)
        max_states = None
        if data.get("max_states") is not None:
            max_states = _integer(data, "max_states", None, 1, self.limits.max_states)
        # The same rule as every command: 10 s unless a state budget is given.
        budget = search_budget(UNSET if time_limit is None else time_limit, max_states)
        rules = read_rules(data)
        return SolveRequest(
            layout=layout,
            strategy=strategy,
            rules=rules,
            time_limit=budget.time_limit,
            max_states=budget.max_states,
            max_moves=_max_moves(data, self.limits, rules),
            seed=_integer(data, "seed", 0, 0, self.limits.max_seed),
        )


@dataclass(frozen=True)
class SolveRequest:
    """A solve the API accepted: every value checked and within the limits."""

    layout: Layout
    strategy: Strategy
    rules: Rules
    time_limit: float | None
    max_states: int | None
    max_moves: int | None
    seed: int


def solution_answer(solution: Any) -> dict[str, Any]:
    """What a finished solve returns: the record, its score, bound and gap, and its replay."""
    return {
        "score": solution.score,
        "bound": solution.bound,
        "gap": solution.gap,
        "record": solution.record.to_dict(),
        "replay": record_replay_data(solution.record),
    }

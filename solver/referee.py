"""The referee: replays a game record under its rules and finds the first fault, if any.

It is written for clarity, not speed, and it judges plays by the rules alone, so it accepts every
legal play, including ones a move generator would never produce: moves in any order, a tile
moved onto a square another tile left earlier in the same turn, a tile moved twice when the rules
allow it, paths that bend and read backwards.

During a turn the board is a dict from square to the tile standing on it, a tile being named by
the square it was dealt to (its *origin*); the layout gives its letter. Between turns every tile
stands on its origin again (see :class:`solver.board.Position`).
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from itertools import pairwise

from .board import Layout, Position
from .record import Record, Turn
from .rules import Result, Rules, is_vowel, tally
from .squares import (
    KNIGHT_MASKS,
    NEIGHBOUR_MASKS,
    RAYS,
    Square,
    direction_between,
    square_col,
    square_name,
    square_row,
    squares_of,
)


@dataclass(frozen=True)
class Fault:
    """The first thing wrong with a record: the turn (1-based; ``None`` for the result) and why."""

    turn: int | None
    reason: str

    def __str__(self) -> str:
        return f"turn {self.turn}: {self.reason}" if self.turn is not None else self.reason


class IllegalTurn(Exception):
    """Raised inside the replay of one turn; becomes a :class:`Fault`."""


@dataclass
class Verdict:
    """What the referee found: ``fault`` is ``None`` when the whole record holds."""

    fault: Fault | None
    turns_checked: int
    result: Result | None
    notes: list[str] = field(default_factory=list)
    #: The position after the last turn checked (after every turn when the record holds).
    position: Position | None = None
    #: Whether the record is a game in progress (no result); then ``result`` is ``None``.
    in_progress: bool = False
    #: The tiles each turn checked removed (bitboards by origin square), in order.
    removed: list[int] = field(default_factory=list)

    @property
    def points(self) -> int:
        """The word points of the turns checked."""
        return sum(tally(word) for word in self.position.played) if self.position else 0

    @property
    def ok(self) -> bool:
        return self.fault is None


def _move_name(number: int, origin: Square, target: Square) -> str:
    return f"move {number} ({square_name(origin)}-{square_name(target)})"


def _check_move(
    layout: Layout, tile_at: dict[Square, Square], origin: Square, target: Square, name: str
) -> Square:
    """Check one move on the board as it stands; return the moving tile's origin."""
    tile = tile_at.get(origin)
    if tile is None:
        raise IllegalTurn(f"{name}: no tile on {square_name(origin)}")
    letter = layout[tile] or ""  # (a tile's origin always holds a letter)
    if target in tile_at:
        raise IllegalTurn(f"{name}: {square_name(target)} is not empty")
    if is_vowel(letter):
        if not KNIGHT_MASKS[origin] >> target & 1:
            raise IllegalTurn(
                f"{name}: {letter} is a vowel and moves like a knight, "
                f"{square_name(target)} is not a knight's move from {square_name(origin)}"
            )
        return tile
    direction = direction_between(origin, target)
    if direction is None:
        raise IllegalTurn(
            f"{name}: {letter} is a consonant and moves like a queen, "
            f"{square_name(target)} is not on a line from {square_name(origin)}"
        )
    for sq in RAYS[direction][origin]:
        if sq == target:
            break
        if sq in tile_at:
            raise IllegalTurn(
                f"{name}: {letter}'s line from {square_name(origin)} to {square_name(target)} "
                f"is blocked by the {layout[tile_at[sq]]} on {square_name(sq)}"
            )
    return tile


def _step(a: Square, b: Square) -> tuple[int, int]:
    return square_col(b) - square_col(a), square_row(b) - square_row(a)


def _check_path(
    layout: Layout,
    tile_at: dict[Square, Square],
    turn: Turn,
    rules: Rules,
) -> list[Square]:
    """Check the word's path after the moves; return the origins of the word's tiles."""
    word, path = turn.word, turn.path
    if not word.isascii() or not word.isalpha():
        raise IllegalTurn(f"word {word!r} is not made of letters A-Z")
    if len(word) < rules.min_word_length:
        raise IllegalTurn(
            f"{word} has {len(word)} letters, the rules need at least {rules.min_word_length}"
        )
    if len(path) != len(word):
        raise IllegalTurn(f"the path has {len(path)} squares but {word} has {len(word)} letters")
    seen = set()
    for sq in path:
        if sq in seen:
            raise IllegalTurn(f"the path uses {square_name(sq)} twice")
        seen.add(sq)
        if sq not in tile_at:
            raise IllegalTurn(f"the path crosses {square_name(sq)}, which is empty")
    for a, b in pairwise(path):
        if not NEIGHBOUR_MASKS[a] >> b & 1:
            raise IllegalTurn(
                f"the path steps from {square_name(a)} to {square_name(b)}, "
                "which are not neighbours"
            )
    if rules.word_shape == "line":
        for (a, b), (_, c) in pairwise(pairwise(path)):
            if _step(a, b) != _step(b, c):
                raise IllegalTurn(
                    f"the path turns at {square_name(b)}; with word_shape=line a word lies on "
                    "a straight line"
                )
    tiles = [tile_at[sq] for sq in path]
    spelled = "".join(layout[tile] or "" for tile in tiles)
    if spelled != word:
        raise IllegalTurn(f"the path spells {spelled}, not {word}")
    return tiles


def check_turn(
    layout: Layout,
    position: Position,
    turn: Turn,
    rules: Rules,
    dictionary: Container[str],
    played_on: dict[str, int] | None = None,
) -> int:
    """Check one turn from ``position``; return the bitboard of the tiles its word removes.

    :param played_on: the turn number each earlier word was played on, for the message.
    :raises IllegalTurn: with the reason, at the first fault.
    """
    tile_at = {sq: sq for sq in squares_of(position.remaining_mask)}
    move_counts: dict[Square, int] = {}
    for number, (origin, target) in enumerate(turn.moves, start=1):
        name = _move_name(number, origin, target)
        tile = _check_move(layout, tile_at, origin, target, name)
        move_counts[tile] = move_counts.get(tile, 0) + 1
        if move_counts[tile] > rules.moves_per_tile:
            times = "once" if rules.moves_per_tile == 1 else f"{rules.moves_per_tile} times"
            raise IllegalTurn(
                f"{name}: the {layout[tile]} dealt to {square_name(tile)} may move only "
                f"{times} in a turn"
            )
        del tile_at[origin]
        tile_at[target] = tile
    if len(turn.moves) < rules.min_moves:
        raise IllegalTurn(
            f"{len(turn.moves)} moves made, the rules need at least {rules.min_moves} per turn"
        )
    word_tiles = _check_path(layout, tile_at, turn, rules)
    word_tile_set = set(word_tiles)
    where_now = {tile: sq for sq, tile in tile_at.items()}
    for tile in move_counts:
        if tile not in word_tile_set:
            raise IllegalTurn(
                f"the {layout[tile]} moved from {square_name(tile)} to "
                f"{square_name(where_now[tile])} is not part of the word {turn.word}"
            )
    if turn.word in position.played:
        earlier = (played_on or {}).get(turn.word)
        when = f" on turn {earlier}" if earlier else ""
        raise IllegalTurn(f"{turn.word} was already played{when}")
    if turn.word.lower() not in dictionary:
        name = getattr(dictionary, "name", "the dictionary")
        raise IllegalTurn(f"{turn.word} is not in the dictionary ({name})")
    expected = tally(turn.word)
    if turn.score is not None and turn.score != expected:
        raise IllegalTurn(f"the score is {turn.score}, but {turn.word} tallies {expected}")
    removed = 0
    for tile in word_tiles:
        removed |= 1 << tile
    return removed


def check_record(record: Record, dictionary: Container[str]) -> Verdict:
    """Replay ``record`` turn by turn and check its result.

    :param dictionary: the words allowed (lower-case membership), e.g. a
        :class:`solver.dictionary.Dictionary`.
    :returns: a :class:`Verdict`; its ``fault`` is the first problem found, or ``None``.
    """
    notes = []
    recorded_sha = (record.dictionary or {}).get("sha256")
    actual_sha = getattr(dictionary, "sha256", None)
    if recorded_sha and actual_sha and recorded_sha != actual_sha:
        recorded_name = (record.dictionary or {}).get("name", "another list")
        notes.append(
            f"the record was played with {recorded_name} (sha256 {recorded_sha[:12]}...), "
            f"checked against {getattr(dictionary, 'name', 'another list')} "
            f"(sha256 {actual_sha[:12]}...)"
        )
    position = Position.start(record.board)
    played_on: dict[str, int] = {}
    removed_by_turn: list[int] = []
    for number, turn in enumerate(record.turns, start=1):
        try:
            removed = check_turn(record.board, position, turn, record.rules, dictionary, played_on)
        except IllegalTurn as error:
            fault = Fault(number, str(error))
            return Verdict(fault, number - 1, None, notes, position, removed=removed_by_turn)
        position = position.after(turn.word, removed)
        played_on[turn.word] = number
        removed_by_turn.append(removed)
    if record.result is None:
        return Verdict(
            None,
            len(record.turns),
            None,
            notes,
            position,
            in_progress=True,
            removed=removed_by_turn,
        )
    result = Result.of_game([turn.word for turn in record.turns], position.remaining_letters())
    for name, expected in result.to_dict().items():
        recorded = getattr(record.result, name)
        if name == "remaining":
            recorded = "".join(sorted(recorded))
        if recorded != expected:
            return Verdict(
                Fault(None, f"result: {name} is {recorded!r}, should be {expected!r}"),
                len(record.turns),
                result,
                notes,
                position,
                removed=removed_by_turn,
            )
    if not result.cleared:
        unfinished = _unfinished(record, position, dictionary)
        if unfinished is not None:
            return Verdict(
                unfinished, len(record.turns), result, notes, position, removed=removed_by_turn
            )
    return Verdict(None, len(record.turns), result, notes, position, removed=removed_by_turn)


def record_move_limit(record: Record) -> int | None:
    """The class of plays a record was played in: its search's move limit ``K`` (RULES.md
    section 10), or ``None`` (no limit, the real rules) when the record names none."""
    limit = (record.search or {}).get("max_moves")
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def _unfinished(record: Record, position: Position, dictionary: Container[str]) -> Fault | None:
    """A fault naming a play still possible at the end of a game that did not clear the board,
    in the class the record names (:func:`record_move_limit`); ``None`` if there is none.

    The full generator needs a :class:`solver.dictionary.Dictionary`; with any other word list
    the end cannot be checked and is accepted.
    """
    from .dictionary import Dictionary
    from .movegen import generate_plays
    from .play import describe_class

    if not isinstance(dictionary, Dictionary):
        return None
    limit = record_move_limit(record)
    plays = generate_plays(
        record.board,
        position.remaining_mask,
        dictionary,
        record.rules,
        limit,
        position.played,
        best=1,
    )
    if not plays:
        return None
    play = plays[0]
    moves = ", ".join(f"{square_name(a)}-{square_name(b)}" for a, b in play.moves) or "none"
    path = " ".join(square_name(sq) for sq in play.path)
    return Fault(
        None,
        f"result: the game is not over, {play.word} ({play.score}) can still be played "
        f"({describe_class(limit)}; moves {moves}; path {path})",
    )

"""Boards and games drawn for people, as :class:`rich.text.Text` lines.

Marks work without colour: a letter of the turn's word is drawn ``[T]``, a tile about to move
``(E)``; on a terminal rich adds colour to the same marks. ``Text.plain`` gives the bare text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.text import Text

from .board import Layout, Position
from .record import Record, Turn
from .rules import CLEAR_BONUS_BASE, CLEAR_BONUS_PER_ROUND, Result, tally
from .squares import FILE_NAMES, HEIGHT, WIDTH, Square, square_name, squares_of

WORD_MARK = ("[", "]", "bold black on yellow")
MOVING_MARK = ("(", ")", "bold cyan")
_GAP = "   "


def board_lines(
    letters: Mapping[Square, str],
    word_squares: Iterable[Square] = (),
    moving_squares: Iterable[Square] = (),
) -> list[Text]:
    """The board with column and row labels, row 9 on top.

    :param letters: the letter on each occupied square.
    :param word_squares: squares drawn as the turn's word, ``[X]``.
    :param moving_squares: squares whose tile moves this turn, ``(X)``.
    """
    word_set, moving_set = set(word_squares), set(moving_squares)
    header = Text(("   " + "".join(f" {name} " for name in FILE_NAMES)).rstrip())
    lines = [header]
    for row in reversed(range(HEIGHT)):
        line = Text(f"{row + 1}  ")
        for col in range(WIDTH):
            sq = row * WIDTH + col
            letter = letters.get(sq, ".")
            if sq in word_set:
                line.append(WORD_MARK[0] + letter + WORD_MARK[1], style=WORD_MARK[2])
            elif sq in moving_set:
                line.append(MOVING_MARK[0] + letter + MOVING_MARK[1], style=MOVING_MARK[2])
            else:
                line.append(f" {letter} ")
        line.append(f"  {row + 1}")
        lines.append(line)
    lines.append(header.copy())
    return lines


def layout_lines(layout: Layout, remaining_mask: int | None = None) -> list[Text]:
    """A layout (or the tiles of it still in ``remaining_mask``) with labels."""
    mask = layout.tile_mask if remaining_mask is None else remaining_mask
    return board_lines({sq: layout[sq] or "." for sq in squares_of(mask)})


def side_by_side(left: list[Text], right: list[Text], titles: tuple[str, str]) -> list[Text]:
    """Two boards next to each other, each under its title."""
    width = max(len(line) for line in left)
    lines = [Text(titles[0].center(width) + _GAP + titles[1].center(width))]
    for a, b in zip(left, right, strict=True):
        line = a.copy()
        line.pad_right(width - len(a))
        line.append(_GAP)
        line.append_text(b)
        lines.append(line)
    return lines


def turn_lines(layout: Layout, position: Position, turn: Turn, number: int) -> list[Text]:
    """One turn: a heading, its moves, the board before it and the board with the word marked
    (one board when no tile moves).
    Moves are applied as in :func:`tiles_after_moves`; :mod:`solver.referee` judges them."""
    before = {sq: layout[sq] or "." for sq in squares_of(position.remaining_mask)}
    after = {sq: layout[tile] or "." for sq, tile in tiles_after_moves(position, turn).items()}
    heading = Text(f"Turn {number}: ", style="bold")
    heading.append(turn.word, style="bold")
    heading.append(f"  +{turn.score if turn.score is not None else tally(turn.word)}")
    moves = ", ".join(
        f"{before.get(origin, '?')} {square_name(origin)}-{square_name(target)}"
        for origin, target in turn.moves
    )
    lines = [heading, Text(f"  moves: {moves or 'none'}")]
    lines.append(Text(f"  path:  {' '.join(square_name(sq) for sq in turn.path)}"))
    if not turn.moves:
        return lines + board_lines(before, word_squares=turn.path)
    lines += side_by_side(
        board_lines(before, moving_squares=[origin for origin, _ in turn.moves]),
        board_lines(after, word_squares=turn.path),
        ("before", "after the moves"),
    )
    return lines


def result_lines(result: Result) -> list[Text]:
    """The final breakdown: word points, rounds, bonus or penalty, total."""
    lines = [Text("Result", style="bold")]
    rows = [
        ("word points", f"{result.word_points}", ""),
        ("rounds", f"{result.rounds}", ""),
    ]
    if result.cleared:
        rule = f"board cleared: {CLEAR_BONUS_BASE} - {CLEAR_BONUS_PER_ROUND} x {result.rounds}"
        rows.append(("bonus", f"+{result.bonus}", rule))
    elif result.remaining:
        left = " ".join(result.remaining)
        rows.append(("penalty", f"-{result.penalty}", f"left on the board: {left}"))
    else:
        rows.append(("penalty", f"-{result.penalty}", "no tiles left, but not recorded as cleared"))
    rows.append(("score", f"{result.score}", ""))
    for label, value, note in rows:
        line = Text(f"  {label:<12}{value:>6}")
        if note:
            line.append(f"   {note}")
        if label == "score":
            line.stylize("bold")
        lines.append(line)
    return lines


def record_lines(record: Record) -> list[Text]:
    """A whole game: header, every turn and the result."""
    lines = [Text(f"Board {record.board.to_line()}")]
    lines.append(Text(f"Rules: {record.rules.describe()}"))
    if record.dictionary:
        name = record.dictionary.get("name", "?")
        lines.append(Text(f"Dictionary: {name} ({record.dictionary.get('words', '?')} words)"))
    position = Position.start(record.board)
    for number, turn in enumerate(record.turns, start=1):
        lines.append(Text(""))
        lines += turn_lines(record.board, position, turn, number)
        position = position_after_turn(position, turn)
    lines.append(Text(""))
    if position.remaining_mask and record.turns:
        lines += layout_lines(record.board, position.remaining_mask)
        lines.append(Text(""))
    if record.result is None:
        points = sum(tally(turn.word) for turn in record.turns)
        lines.append(
            Text(
                f"Game in progress: {count_of(len(record.turns), 'turn')}, "
                f"{count_of(points, 'point')} so far",
                style="bold",
            )
        )
    else:
        lines += result_lines(record.result)
    lines += bound_lines(record.search or {})
    return lines


def count_of(count: int, noun: str) -> str:
    """``"1 turn"``, ``"2 turns"``: a count with its noun, singular or plural."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def bound_lines(search: dict[str, Any]) -> list[Text]:
    """The upper bound and the gap a solver wrote in a record's ``search``, if any."""
    bound = search.get("bound")
    if not isinstance(bound, int) or isinstance(bound, bool):
        return []
    line = Text(f"  {'bound':<12}{bound:>6}   no game scores more")
    if search.get("bound_for"):
        line.append(f" ({search['bound_for']})")
    lines = [line]
    gap = search.get("gap")
    if isinstance(gap, (int, float)) and not isinstance(gap, bool):
        note = "score / bound"
        if search.get("proven") is True:
            note = "optimum proven"
        elif search.get("proven") is False:
            note += "; optimum not proven"
        lines.append(Text(f"  {'gap':<12}{gap:>6.3f}   {note}"))
    return lines


def tiles_after_moves(position: Position, turn: Turn) -> dict[Square, Square]:
    """Square -> origin of the tile on it once ``turn``'s moves are made, leniently: a move from
    an empty square or onto a tile is skipped, so that even an illegal record can be shown."""
    tile_at = {sq: sq for sq in squares_of(position.remaining_mask)}
    for origin, target in turn.moves:
        if origin in tile_at and target not in tile_at:
            tile_at[target] = tile_at.pop(origin)
    return tile_at


def position_after_turn(position: Position, turn: Turn) -> Position:
    """The position once ``turn`` is played, leniently as in :func:`tiles_after_moves`: the
    tiles on its path leave the board (so that even an illegal record can be shown)."""
    tile_at = tiles_after_moves(position, turn)
    removed = 0
    for sq in turn.path:
        if sq in tile_at:
            removed |= 1 << tile_at[sq]
    return Position(
        position.layout, position.remaining_mask & ~removed, position.played | {turn.word}
    )

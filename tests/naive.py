"""Plain implementations the compiled kernels and the searches are checked against: slow, short
and obviously right.

* :class:`Exhaustive`: the optimum of a small board by brute force, and every state it valued.
* :func:`placements_by_hand`: the placements of a word on a board, by a plain search of paths.
* :func:`apply_turn`: the position after a turn of a game record.
* :func:`letters_of`: the letters of the tiles of a mask.
"""

from __future__ import annotations

import functools

from solver.board import Layout, Position
from solver.dictionary import Dictionary
from solver.formable import reach_letters
from solver.movegen import generate_plays
from solver.play import Play
from solver.record import Turn
from solver.render import tiles_after_moves
from solver.rules import Rules, clear_bonus, tally
from solver.squares import NEIGHBOUR_MASKS, NUM_SQUARES, direction_between

#: Small boards whose optimum :class:`Exhaustive` finds in about a second or less: a board that
#: can be cleared, one with X and Q that no word fits, one with spread-out tiles, and the first
#: with one more tile.
SMALL_BOARDS = [
    "......./......./......./..CAT../..ROE../..SIN../......./......./.......",
    "......./......./..Q..../..LAT../..N..../..EOR../......./......X/.......",
    "......./......./.E....U/..MAT../......./..ROE../..P..../......./.......",
    "......./..D..../..CAT../......./..ROE../..SIN../......./......./.......",
]
#: The move limit K of the exhaustive search.
MAX_MOVES = 2

State = tuple[int, frozenset[str]]


def letters_of(layout: Layout, mask: int) -> str:
    """The letters of the tiles of ``mask``, in square order."""
    return "".join(letter for sq, letter in layout.tiles() if mask >> sq & 1)


class Exhaustive:
    """The optimum by brute force: every sequence of plays, with the value of each state
    ``(tiles left, words played)`` remembered (an exact key: nothing else decides the future
    but the rounds, which equal the number of words played)."""

    def __init__(
        self,
        layout: Layout,
        dictionary: Dictionary,
        rules: Rules | None = None,
        max_moves: int | None = MAX_MOVES,
    ):
        self.layout = layout
        self.dictionary = dictionary
        self.rules = rules or Rules()
        self.max_moves = max_moves
        self.value = functools.cache(self._value)

    def plays(self, mask: int, played: frozenset[str]) -> list[Play]:
        return generate_plays(
            self.layout, mask, self.dictionary, self.rules, self.max_moves, played
        )

    def _value(self, mask: int, played: frozenset[str]) -> int:
        """The best points still to gain from the state."""
        plays = self.plays(mask, played)
        if not plays:
            if mask == 0:
                return clear_bonus(len(played))
            return -tally(letters_of(self.layout, mask))
        return max(p.score + self.value(mask & ~p.tiles_mask, played | {p.word}) for p in plays)

    def optimum(self) -> int:
        return self.value(self.layout.tile_mask, frozenset())

    def states(self) -> list[tuple[State, int]]:
        """Every state reachable from the start, with its value."""
        found: list[tuple[State, int]] = []
        seen: set[State] = set()

        def walk(mask: int, played: frozenset[str]) -> None:
            if (mask, played) in seen:
                return
            seen.add((mask, played))
            found.append(((mask, played), self.value(mask, played)))
            for play in self.plays(mask, played):
                walk(mask & ~play.tiles_mask, played | {play.word})

        walk(self.layout.tile_mask, frozenset())
        return found


def placements_by_hand(
    layout: Layout, remaining: int, word: str, max_moves: int, line: bool = False
) -> set[int]:
    """The sure squares of every path that spells ``word`` with at most ``max_moves`` wild
    squares, a square never wild with the letter of its own tile, by a plain search over
    paths (formable.placements' docstring)."""
    reach = reach_letters(layout, remaining)
    word = word.upper()
    found = set()

    def extend(path: list[int], wild: int, in_place: frozenset[int]) -> None:
        index = len(path)
        if index == len(word):
            stand_ins = {s for s in in_place if reach[s] >> (ord(layout.letters[s]) - ord("A")) & 1}
            sure = in_place if wild == max_moves else in_place - stand_ins
            found.add(sum(1 << s for s in sure))
            return
        if not path:
            squares = list(range(NUM_SQUARES))
        else:
            squares = [s for s in range(NUM_SQUARES) if NEIGHBOUR_MASKS[path[-1]] >> s & 1]
            if line and index >= 2:
                straight = direction_between(path[-2], path[-1])
                squares = [s for s in squares if direction_between(path[-1], s) == straight]
        code = ord(word[index]) - ord("A")
        for square in squares:
            if square in path:
                continue
            own = layout.letters[square] if remaining >> square & 1 else None
            if own == word[index]:
                extend([*path, square], wild, in_place | {square})
            elif wild < max_moves and reach[square] >> code & 1:
                extend([*path, square], wild + 1, in_place)

    extend([], 0, frozenset())
    return found


def apply_turn(position: Position, turn: Turn) -> Position:
    """The position after a legal turn of a record: the tiles that end on the word's path
    leave the board (found by following the turn's moves from where each tile stood)."""
    origin_at = tiles_after_moves(position, turn)
    return position.after(turn.word, sum(1 << origin_at[sq] for sq in turn.path))

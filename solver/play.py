"""A play: a word together with the tiles it removes, plus a witness of how it is formed.

The next position depends only on the word and the tiles removed (see
:class:`solver.board.Position`), so plays are identified and deduplicated by
``(word, tiles_mask)``; the moves and the path only witness that the play can be made, and are
kept for the record. When several witnesses exist, the one kept is the smallest by
:meth:`Play.witness_key` (fewest moves, then the path and the moves in square order), so every
generator keeps the same one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .record import Turn
from .squares import Bitboard, Square, square_name, squares_of


@dataclass(frozen=True)
class Play:
    """One legal play from a position.

    :param word: the word, upper-case.
    :param tiles_mask: bitboard of the squares where the word's tiles were dealt.
    :param moves: ``(from, to)`` tile moves, in an order that is legal.
    :param path: the word's squares in reading order, after the moves.
    :param score: the word's tally.
    """

    word: str
    tiles_mask: Bitboard
    moves: tuple[tuple[Square, Square], ...]
    path: tuple[Square, ...]
    score: int

    @property
    def key(self) -> tuple[str, Bitboard]:
        """What identifies the play for the search: the word and the tiles removed."""
        return self.word, self.tiles_mask

    def witness_key(self) -> tuple[int, tuple[Square, ...], tuple[tuple[Square, Square], ...]]:
        """Order among witnesses of the same play: fewest moves, then path, then moves."""
        return len(self.moves), self.path, self.moves

    def sort_key(self) -> tuple[int, str, Bitboard]:
        """Best first: highest score, then word, then tiles (a total, deterministic order)."""
        return -self.score, self.word, self.tiles_mask

    def to_turn(self) -> Turn:
        """The play as a turn of a game record."""
        return Turn(self.moves, self.path, self.word, self.score)

    def _repr_svg_(self) -> str:
        """Jupyter shows a play as its word on its path, with its moves as arrows (the other
        tiles of the board are not part of a play)."""
        from .svg import board_svg

        return board_svg(
            dict(zip(self.path, self.word, strict=True)), path=self.path, moves=self.moves
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON form of ``letterchess plays --json``."""
        return {
            "word": self.word,
            "score": self.score,
            "tiles": [square_name(sq) for sq in squares_of(self.tiles_mask)],
            "moves": [[square_name(a), square_name(b)] for a, b in self.moves],
            "path": [square_name(sq) for sq in self.path],
        }


def limit_name(max_moves: int | None) -> str:
    """A move limit as the command line writes it: ``K``, or ``all`` for no limit."""
    return "all" if max_moves is None else str(max_moves)


def describe_class(max_moves: int | None) -> str:
    """The class of plays generated with a move limit, in a few words."""
    if max_moves is None:
        return "any number of moves"
    return f"at most {max_moves} move{'s' * (max_moves != 1)} a turn"


def class_label(max_moves: int | None) -> str:
    """The class of plays searched, as the outputs label it: ``K=all (any number of moves)``
    or ``K=2 (at most 2 moves a turn)``."""
    return f"K={limit_name(max_moves)} ({describe_class(max_moves)})"


def canonical_plays(plays: Iterable[Play]) -> list[Play]:
    """One play per ``(word, tiles_mask)``, with its smallest witness, sorted best first."""
    best: dict[tuple[str, Bitboard], Play] = {}
    for play in plays:
        kept = best.get(play.key)
        if kept is None or play.witness_key() < kept.witness_key():
            best[play.key] = play
    return sorted(best.values(), key=Play.sort_key)

"""The reference play generator: plain Python, written to be obviously right, not fast.

It is the ground truth the compiled generator (:mod:`solver.movegen`) is tested against, and it
generates exactly the *standard class* of plays for a move limit ``K`` (``RULES.md``, "Which
plays the solver considers"):

* at most ``K`` tiles move, each once;
* every moved tile starts on a square that is not on the word's path and ends on a path square
  that was empty at the start of the turn;
* some order of the moves is legal on the board as it stands move by move (a consonant's line
  may be opened by an earlier move of another tile, or blocked by one);
* tiles on the path that do not move stay where they are.

The search walks every path square by square, pruned by the dictionary's prefixes. An occupied
square gives its own letter; an empty square is filled by a tile moved in from off the path.
At the end of a word it checks the move order by trying every permutation of the moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations

from .board import Layout
from .dictionary import Dictionary
from .play import Play, canonical_plays
from .rules import Rules, is_vowel, tally
from .squares import (
    KNIGHT_MASKS,
    NEIGHBOUR_MASKS,
    NUM_SQUARES,
    RAYS,
    Bitboard,
    Square,
    direction_between,
    square_col,
    square_row,
    squares_of,
)


def _can_ever_reach(layout: Layout, origin: Square, target: Square) -> bool:
    """Whether the tile on ``origin`` moves to ``target`` on some board: a knight's jump for a
    vowel, a line for a consonant (whether the line is clear is checked later)."""
    if is_vowel(layout[origin] or ""):
        return bool(KNIGHT_MASKS[origin] >> target & 1)
    return direction_between(origin, target) is not None


def legal_order(
    layout: Layout, occupied: Bitboard, moves: Iterable[tuple[Square, Square]]
) -> tuple[tuple[Square, Square], ...] | None:
    """The first order of ``moves`` (permutations of the sorted moves, in lexicographic order)
    in which every move is legal when it is made, or ``None``.

    Targets are empty at the start and each receives one tile, so only a consonant's line can
    fail: it must not cross a tile, counting tiles that moved into it and not those that left.
    """
    for order in permutations(sorted(moves)):
        board = occupied
        for origin, target in order:
            if not is_vowel(layout[origin] or ""):
                direction = direction_between(origin, target)
                assert direction is not None
                ray = RAYS[direction][origin]
                between = ray[: ray.index(target)]
                if any(board >> sq & 1 for sq in between):
                    break
            board = board & ~(1 << origin) | 1 << target
        else:
            return order
    return None


def _step(a: Square, b: Square) -> tuple[int, int]:
    return square_col(b) - square_col(a), square_row(b) - square_row(a)


def reference_plays(
    layout: Layout,
    remaining_mask: Bitboard,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int,
    played: Iterable[str] = (),
) -> list[Play]:
    """Every play of the standard class from the position, one per ``(word, tiles)``, with its
    smallest witness, best first (see :func:`solver.play.canonical_plays`)."""
    played_words = {word.upper() for word in played}
    found: list[Play] = []
    tiles_reaching = {
        target: [
            origin
            for origin in squares_of(remaining_mask)
            if _can_ever_reach(layout, origin, target)
        ]
        for target in range(NUM_SQUARES)
        if not remaining_mask >> target & 1
    }
    prefix_cache: dict[str, bool] = {}

    def is_prefix(letters: str) -> bool:
        if letters not in prefix_cache:
            prefix_cache[letters] = dictionary.has_prefix(letters.lower())
        return prefix_cache[letters]

    # moved: target square -> origin square of the tile moved onto it.

    def finish(path: list[Square], word: str, moved: dict[Square, Square]) -> None:
        if (
            len(word) < rules.min_word_length
            or len(moved) < rules.min_moves
            or word in played_words
            or word.lower() not in dictionary
        ):
            return
        order = legal_order(layout, remaining_mask, ((o, t) for t, o in moved.items()))
        if order is None:
            return
        tiles = 0
        for sq in path:
            tiles |= 1 << moved.get(sq, sq)
        found.append(Play(word, tiles, order, tuple(path), tally(word)))

    def extend(path: list[Square], word: str, moved: dict[Square, Square]) -> None:
        finish(path, word, moved)
        last = path[-1]
        for sq in squares_of(NEIGHBOUR_MASKS[last]):
            if sq in path:
                continue
            turns = len(path) >= 2 and _step(path[-2], last) != _step(last, sq)
            if rules.word_shape == "line" and turns:
                continue
            visit(path, word, moved, sq)

    def visit(path: list[Square], word: str, moved: dict[Square, Square], sq: Square) -> None:
        if remaining_mask >> sq & 1:
            # A tile that moves away leaves its square empty, and the standard class never
            # refills a square vacated in the same turn.
            if sq in moved.values():
                return
            letter = layout[sq] or ""
            if is_prefix(word + letter):
                extend([*path, sq], word + letter, moved)
            return
        if len(moved) >= max_moves:
            return
        for origin in tiles_reaching[sq]:
            if origin in path or origin in moved.values():
                continue
            letter = layout[origin] or ""
            if is_prefix(word + letter):
                extend([*path, sq], word + letter, {**moved, sq: origin})

    for start in range(NUM_SQUARES):
        visit([], "", {}, start)
    return canonical_plays(found)

"""The reference play generator: plain Python, written to be obviously right, not fast.

It is the ground truth the compiled generator (:mod:`solver.movegen`) is tested against, and it
generates the **full class** of plays (``RULES.md`` section 10): every play the rules allow
with each tile moving at most once, optionally with at most ``K`` moves.

It reads the rules as directly as it can. A play's word lies on a path; at the end of the
turn each path square holds some tile: the tile dealt there, not having moved, or a tile that
moved there (its one move). So the search walks every path square by square, pruned only by
the dictionary's prefixes, and gives each square in turn every tile that could stand on it:
its own, or any other tile not used yet that one move could ever bring there (a knight's jump
for a vowel, a row, column or diagonal for a consonant). At the end of a word it plays the
moves out on the board, in every order (:func:`legal_order`): a move must land on an empty
square and a consonant must not pass over a tile, as the board stands at that moment. Only
then is the play kept. Nothing else is assumed, so nothing else can be wrong: a square whose
own tile stays can receive no mover (it is never empty), a tile standing in a consonant's way
must have moved before, a square vacated earlier may be refilled, and so on, all follow from
playing the moves out.
"""

from __future__ import annotations

from collections.abc import Iterable

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

Move = tuple[Square, Square]


def _can_ever_reach(layout: Layout, origin: Square, target: Square) -> bool:
    """Whether the tile on ``origin`` moves to ``target`` on some board: a knight's jump for a
    vowel, a line for a consonant (whether the line is clear is checked later)."""
    if is_vowel(layout[origin] or ""):
        return bool(KNIGHT_MASKS[origin] >> target & 1)
    return direction_between(origin, target) is not None


def _move_is_legal(layout: Layout, occupied: set[Square], origin: Square, target: Square) -> bool:
    """One move on the board as it stands: onto an empty square, a consonant over no tile."""
    if target in occupied:
        return False
    if is_vowel(layout[origin] or ""):
        return True
    direction = direction_between(origin, target)
    assert direction is not None
    ray = RAYS[direction][origin]
    return not any(sq in occupied for sq in ray[: ray.index(target)])


def legal_order(
    layout: Layout, occupied: Bitboard, moves: Iterable[Move]
) -> tuple[Move, ...] | None:
    """The first order of ``moves`` (in the lexicographic order of sequences of the sorted
    moves) in which every move is legal when it is made, or ``None`` if there is none.

    A depth-first search playing the moves out on the board: at each step it tries the moves
    not made yet, smallest first, and backs up when none is legal. The board after some moves
    depends only on which were made, not on their order, so a set of made moves from which
    the rest cannot be finished is remembered and never tried again.
    """
    pending = sorted(moves)
    board = set(squares_of(occupied))
    made: list[Move] = []
    dead_ends: set[frozenset[Move]] = set()

    def search() -> bool:
        if len(made) == len(pending):
            return True
        if frozenset(made) in dead_ends:
            return False
        for move in pending:
            if move in made or not _move_is_legal(layout, board, *move):
                continue
            origin, target = move
            board.remove(origin)
            board.add(target)
            made.append(move)
            if search():
                return True
            made.pop()
            board.remove(target)
            board.add(origin)
        dead_ends.add(frozenset(made))
        return False

    return tuple(made) if search() else None


def _step(a: Square, b: Square) -> tuple[int, int]:
    return square_col(b) - square_col(a), square_row(b) - square_row(a)


def reference_plays(
    layout: Layout,
    remaining_mask: Bitboard,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int | None,
    played: Iterable[str] = (),
) -> list[Play]:
    """Every play of the full class with at most ``max_moves`` moves (``None``: no limit),
    one per ``(word, tiles)`` with its smallest witness, best first (see
    :func:`solver.play.canonical_plays`)."""
    played_words = {word.upper() for word in played}
    limit = NUM_SQUARES if max_moves is None else max_moves
    tiles = list(squares_of(remaining_mask))
    movers_for = {
        target: [origin for origin in tiles if _can_ever_reach(layout, origin, target)]
        for target in range(NUM_SQUARES)
    }
    found: list[Play] = []
    prefix_cache: dict[str, bool] = {}

    def is_prefix(letters: str) -> bool:
        if letters not in prefix_cache:
            prefix_cache[letters] = dictionary.has_prefix(letters.lower())
        return prefix_cache[letters]

    # tile_on: path square -> the tile (named by its dealt square) standing there at the end;
    # used: those tiles; moves: how many of them moved.

    def finish(path: list[Square], word: str, tile_on: dict[Square, Square], moves: int) -> None:
        if (
            len(word) < rules.min_word_length
            or moves < rules.min_moves
            or word in played_words
            or word.lower() not in dictionary
        ):
            return
        made = [(tile, sq) for sq, tile in tile_on.items() if tile != sq]
        order = legal_order(layout, remaining_mask, made)
        if order is not None:
            removed = sum(1 << tile for tile in tile_on.values())
            found.append(Play(word, removed, order, tuple(path), tally(word)))

    def extend(
        path: list[Square], word: str, tile_on: dict[Square, Square], used: set[Square], moves: int
    ) -> None:
        finish(path, word, tile_on, moves)
        last = path[-1]
        for sq in squares_of(NEIGHBOUR_MASKS[last]):
            if sq in tile_on:
                continue
            line = rules.word_shape == "line" and len(path) >= 2
            if line and _step(path[-2], last) != _step(last, sq):
                continue
            visit(path, word, tile_on, used, moves, sq)

    def visit(
        path: list[Square],
        word: str,
        tile_on: dict[Square, Square],
        used: set[Square],
        moves: int,
        sq: Square,
    ) -> None:
        candidates = [sq] if remaining_mask >> sq & 1 else []
        if moves < limit:
            candidates += movers_for[sq]
        for tile in candidates:
            letter = layout[tile] or ""
            if tile in used or not is_prefix(word + letter):
                continue
            tile_on[sq] = tile
            used.add(tile)
            path.append(sq)
            extend(path, word + letter, tile_on, used, moves + (tile != sq))
            path.pop()
            used.remove(tile)
            del tile_on[sq]

    for start in range(NUM_SQUARES):
        visit([], "", {}, set(), 0, start)
    return canonical_plays(found)

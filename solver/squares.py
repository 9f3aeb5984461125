"""Squares, square names and precomputed bitboard tables for the 7x9 grid.

Squares are small ints, bitboards are Python ints, as in python-chess:

* ``a1`` is square 0, ``g1`` is 6, ``a2`` is 7, ... ``g9`` is 62;
  ``index = row * 7 + col`` with ``row`` and ``col`` counted from 0.
* A set of squares is a 63-bit int whose bit ``i`` stands for square ``i``.

The tables below are built once, at import: the 8 king neighbours of each square
(the steps a word's path may take), the knight moves (how vowels move) and the
queen rays in 8 directions (how consonants move). Numpy copies of the same tables
are exported for the compiled kernels.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

WIDTH = 7
HEIGHT = 9
NUM_SQUARES = WIDTH * HEIGHT
FILE_NAMES = "abcdefg"
RANK_NAMES = "123456789"

#: A bitboard with every square set.
ALL_SQUARES = (1 << NUM_SQUARES) - 1

Square = int
Bitboard = int

SQUARE_NAMES: tuple[str, ...] = tuple(
    FILE_NAMES[index % WIDTH] + RANK_NAMES[index // WIDTH] for index in range(NUM_SQUARES)
)
_SQUARE_BY_NAME = {name: index for index, name in enumerate(SQUARE_NAMES)}


def square(col: int, row: int) -> Square:
    """Return the square at ``col`` (0 = file a) and ``row`` (0 = rank 1)."""
    if not (0 <= col < WIDTH and 0 <= row < HEIGHT):
        raise ValueError(f"no square at column {col}, row {row}")
    return row * WIDTH + col


def square_col(sq: Square) -> int:
    """Column of ``sq``, 0 for file ``a``."""
    return sq % WIDTH


def square_row(sq: Square) -> int:
    """Row of ``sq``, 0 for rank ``1``."""
    return sq // WIDTH


def square_name(sq: Square) -> str:
    """Name of ``sq``, e.g. ``square_name(0) == "a1"``."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """Square named ``name`` (``"a1"`` .. ``"g9"``, any case).

    :raises ValueError: if ``name`` is not a square of the 7x9 grid.
    """
    if isinstance(name, str):
        found = _SQUARE_BY_NAME.get(name.strip().lower())
        if found is not None:
            return found
    raise ValueError(f"unknown square {name!r} (squares are a1 to g9)")


def bit(sq: Square) -> Bitboard:
    """The bitboard holding only ``sq``."""
    return 1 << sq


def squares_of(mask: Bitboard) -> Iterator[Square]:
    """The squares set in ``mask``, lowest first."""
    while mask:
        lowest = mask & -mask
        yield lowest.bit_length() - 1
        mask ^= lowest


def popcount(mask: Bitboard) -> int:
    """Number of squares set in ``mask``."""
    return mask.bit_count()


#: The 8 directions as ``(column step, row step)``: N, NE, E, SE, S, SW, W, NW.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
KNIGHT_STEPS: tuple[tuple[int, int], ...] = (
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
)


def _offset(sq: Square, dcol: int, drow: int) -> Square | None:
    col, row = square_col(sq) + dcol, square_row(sq) + drow
    if 0 <= col < WIDTH and 0 <= row < HEIGHT:
        return row * WIDTH + col
    return None


def _build_rays() -> tuple[tuple[tuple[Square, ...], ...], ...]:
    rays = []
    for dcol, drow in DIRECTIONS:
        per_square = []
        for sq in range(NUM_SQUARES):
            ray = []
            nxt = _offset(sq, dcol, drow)
            while nxt is not None:
                ray.append(nxt)
                nxt = _offset(nxt, dcol, drow)
            per_square.append(tuple(ray))
        rays.append(tuple(per_square))
    return tuple(rays)


def _mask_of(squares: Iterator[Square | None] | tuple[Square, ...]) -> Bitboard:
    mask = 0
    for sq in squares:
        if sq is not None:
            mask |= 1 << sq
    return mask


#: ``RAYS[d][sq]``: the squares from ``sq`` outward in direction ``DIRECTIONS[d]``, nearest first.
RAYS = _build_rays()
#: ``RAY_MASKS[d][sq]``: the same rays as bitboards.
RAY_MASKS: tuple[tuple[Bitboard, ...], ...] = tuple(
    tuple(_mask_of(ray) for ray in per_square) for per_square in RAYS
)
#: ``NEIGHBOUR_MASKS[sq]``: the up to 8 squares a king's step away (a word path's steps).
NEIGHBOUR_MASKS: tuple[Bitboard, ...] = tuple(
    _mask_of(_offset(sq, dc, dr) for dc, dr in DIRECTIONS) for sq in range(NUM_SQUARES)
)
#: ``KNIGHT_MASKS[sq]``: the up to 8 squares a knight's move away (how vowels move).
KNIGHT_MASKS: tuple[Bitboard, ...] = tuple(
    _mask_of(_offset(sq, dc, dr) for dc, dr in KNIGHT_STEPS) for sq in range(NUM_SQUARES)
)
#: ``QUEEN_MASKS[sq]``: every square on a line from ``sq`` (a queen's moves on an empty grid).
QUEEN_MASKS: tuple[Bitboard, ...] = tuple(
    _mask_of(s for d in range(len(DIRECTIONS)) for s in RAYS[d][sq]) for sq in range(NUM_SQUARES)
)


def direction_between(origin: Square, target: Square) -> int | None:
    """Index into :data:`DIRECTIONS` of the line from ``origin`` to ``target``, if any."""
    for d in range(len(DIRECTIONS)):
        if target in RAYS[d][origin]:
            return d
    return None


def knight_targets(sq: Square, occupied: Bitboard) -> Bitboard:
    """Squares a vowel on ``sq`` may move to: knight jumps onto empty squares."""
    return KNIGHT_MASKS[sq] & ~occupied


def queen_targets(sq: Square, occupied: Bitboard) -> Bitboard:
    """Squares a consonant on ``sq`` may move to: empty squares along the 8 lines, up to the
    first tile in each direction (tiles are never jumped)."""
    targets = 0
    for d in range(len(DIRECTIONS)):
        for target in RAYS[d][sq]:
            if occupied >> target & 1:
                break
            targets |= 1 << target
    return targets


def _as_int64(masks: tuple[Bitboard, ...]) -> np.ndarray:
    return np.array(masks, dtype=np.int64)


# Numpy copies for the compiled kernels (which cannot read Python tuples of ints). Bitboards are
# int64 there: 63 squares fit without touching the sign bit.
NEIGHBOUR_TABLE = _as_int64(NEIGHBOUR_MASKS)
KNIGHT_TABLE = _as_int64(KNIGHT_MASKS)
QUEEN_TABLE = _as_int64(QUEEN_MASKS)


def _build_between_table() -> np.ndarray:
    table = np.full((NUM_SQUARES, NUM_SQUARES), -1, dtype=np.int64)
    for origin in range(NUM_SQUARES):
        for ray in (RAYS[d][origin] for d in range(len(DIRECTIONS))):
            passed = 0
            for target in ray:
                table[origin, target] = passed
                passed |= 1 << target
    return table


def _build_step_direction() -> np.ndarray:
    table = np.full((NUM_SQUARES, NUM_SQUARES), -1, dtype=np.int64)
    for origin in range(NUM_SQUARES):
        for d in range(len(DIRECTIONS)):
            if RAYS[d][origin]:
                table[origin, RAYS[d][origin][0]] = d
    return table


def _build_within_table() -> np.ndarray:
    table = np.zeros((NUM_SQUARES, MAX_DISTANCE + 1), dtype=np.int64)
    for origin in range(NUM_SQUARES):
        for target in range(NUM_SQUARES):
            distance = max(
                abs(square_col(origin) - square_col(target)),
                abs(square_row(origin) - square_row(target)),
            )
            table[origin, distance:] |= 1 << target
    return table


#: The largest king distance on the grid (between rows 1 and 9).
MAX_DISTANCE = HEIGHT - 1
#: ``WITHIN_TABLE[sq, r]``: bitboard of the squares at most ``r`` king steps from ``sq``
#: (``r`` up to :data:`MAX_DISTANCE`): where a path may be ``r`` squares on.
WITHIN_TABLE = _build_within_table()
#: ``BETWEEN_TABLE[a, b]``: bitboard of the squares strictly between ``a`` and ``b`` when they
#: share a row, column or diagonal; -1 when they do not.
BETWEEN_TABLE = _build_between_table()
#: ``STEP_DIRECTION[a, b]``: index into :data:`DIRECTIONS` of the step from ``a`` to its
#: neighbour ``b``; -1 when they are not neighbours.
STEP_DIRECTION = _build_step_direction()
#: ``NEXT_SQUARE[sq, d]``: the neighbour of ``sq`` in direction ``d``, or -1 off the grid.
NEXT_SQUARE = np.array(
    [
        [RAYS[d][sq][0] if RAYS[d][sq] else -1 for d in range(len(DIRECTIONS))]
        for sq in range(NUM_SQUARES)
    ],
    dtype=np.int64,
)

"""The square tables, checked square by square against naive computations."""

import pytest

from solver import squares as sq
from solver.squares import (
    ALL_SQUARES,
    KNIGHT_MASKS,
    NEIGHBOUR_MASKS,
    NUM_SQUARES,
    QUEEN_MASKS,
    RAY_MASKS,
    RAYS,
    knight_targets,
    parse_square,
    queen_targets,
    square_name,
)

ALL = range(NUM_SQUARES)


def coords(s):
    return s % 7, s // 7


def naive_mask(s, predicate):
    c0, r0 = coords(s)
    return sum(1 << t for t in ALL if t != s and predicate(coords(t)[0] - c0, coords(t)[1] - r0))


def test_indexing_and_names():
    assert sq.square(0, 0) == 0 == parse_square("a1")
    assert parse_square("g1") == 6 and parse_square("a2") == 7 and parse_square("G9") == 62
    assert square_name(62) == "g9"
    for s in ALL:
        col, row = coords(s)
        assert s == row * 7 + col
        assert parse_square(square_name(s)) == s
        assert square_name(s) == "abcdefg"[col] + str(row + 1)
    assert ALL_SQUARES == (1 << 63) - 1


@pytest.mark.parametrize("name", ["h1", "a0", "a10", "", "1a", "aa", "b"])
def test_unknown_square_names(name):
    with pytest.raises(ValueError, match="unknown square"):
        parse_square(name)


@pytest.mark.parametrize("s", ALL)
def test_neighbour_table(s):
    assert NEIGHBOUR_MASKS[s] == naive_mask(s, lambda dc, dr: max(abs(dc), abs(dr)) == 1)


@pytest.mark.parametrize("s", ALL)
def test_knight_table(s):
    assert KNIGHT_MASKS[s] == naive_mask(s, lambda dc, dr: {abs(dc), abs(dr)} == {1, 2})


@pytest.mark.parametrize("s", ALL)
def test_queen_rays(s):
    assert QUEEN_MASKS[s] == naive_mask(s, lambda dc, dr: dc == 0 or dr == 0 or abs(dc) == abs(dr))
    for d, (dc, dr) in enumerate(sq.DIRECTIONS):
        c, r = coords(s)
        expected = []
        c, r = c + dc, r + dr
        while 0 <= c < 7 and 0 <= r < 9:
            expected.append(r * 7 + c)
            c, r = c + dc, r + dr
        assert list(RAYS[d][s]) == expected
        assert RAY_MASKS[d][s] == sum(1 << t for t in expected)


@pytest.mark.parametrize("s", ALL)
def test_direction_between(s):
    for t in ALL:
        dc, dr = coords(t)[0] - coords(s)[0], coords(t)[1] - coords(s)[1]
        aligned = t != s and (dc == 0 or dr == 0 or abs(dc) == abs(dr))
        d = sq.direction_between(s, t)
        if not aligned:
            assert d is None
        else:
            assert sq.DIRECTIONS[d] == ((dc > 0) - (dc < 0), (dr > 0) - (dr < 0))


def test_corner_and_edge_counts():
    assert bin(NEIGHBOUR_MASKS[parse_square("a1")]).count("1") == 3
    assert bin(NEIGHBOUR_MASKS[parse_square("a5")]).count("1") == 5
    assert bin(NEIGHBOUR_MASKS[parse_square("d5")]).count("1") == 8
    assert bin(KNIGHT_MASKS[parse_square("a1")]).count("1") == 2
    assert bin(KNIGHT_MASKS[parse_square("g9")]).count("1") == 2
    assert bin(KNIGHT_MASKS[parse_square("d5")]).count("1") == 8
    assert bin(KNIGHT_MASKS[parse_square("b1")]).count("1") == 3


def _mask(*names):
    return sum(1 << parse_square(n) for n in names)


def test_knight_targets_jump_and_need_empty_squares():
    d5 = parse_square("d5")
    # Surrounded on all 8 sides, a vowel still jumps.
    ring = NEIGHBOUR_MASKS[d5]
    assert knight_targets(d5, ring | 1 << d5) == KNIGHT_MASKS[d5]
    # It cannot land on a tile.
    assert knight_targets(d5, _mask("e7", "f6")) == KNIGHT_MASKS[d5] & ~_mask("e7", "f6")
    # Corner: only two targets.
    assert knight_targets(0, 0) == _mask("b3", "c2")


def test_queen_targets_stop_at_the_first_tile():
    d5 = parse_square("d5")
    assert queen_targets(d5, 0) == QUEEN_MASKS[d5]
    blocked = queen_targets(d5, _mask("d7", "f5", "b3"))
    assert blocked >> parse_square("d6") & 1
    assert not blocked >> parse_square("d7") & 1 and not blocked >> parse_square("d8") & 1
    assert blocked >> parse_square("e5") & 1 and not blocked >> parse_square("g5") & 1
    assert blocked >> parse_square("c4") & 1 and not blocked >> parse_square("a2") & 1
    # Surrounded, a consonant cannot move at all.
    assert queen_targets(d5, NEIGHBOUR_MASKS[d5]) == 0
    # Corner a1 on an empty board: the file, the rank and the long diagonal.
    assert queen_targets(0, 0) == QUEEN_MASKS[0]
    assert bin(QUEEN_MASKS[0]).count("1") == 8 + 6 + 6


def test_numpy_tables_match():
    assert [int(x) for x in sq.NEIGHBOUR_TABLE] == list(NEIGHBOUR_MASKS)
    assert [int(x) for x in sq.KNIGHT_TABLE] == list(KNIGHT_MASKS)


@pytest.mark.parametrize("s", ALL)
def test_kernel_line_tables(s):
    for t in ALL:
        dc, dr = coords(t)[0] - coords(s)[0], coords(t)[1] - coords(s)[1]
        aligned = t != s and (dc == 0 or dr == 0 or abs(dc) == abs(dr))
        if aligned:
            steps = max(abs(dc), abs(dr))
            step = ((dr > 0) - (dr < 0)) * 7 + (dc > 0) - (dc < 0)
            expected = sum(1 << (s + k * step) for k in range(1, steps))
            assert sq.BETWEEN_TABLE[s, t] == expected
        else:
            assert sq.BETWEEN_TABLE[s, t] == -1
        neighbours = max(abs(dc), abs(dr)) == 1
        d = sq.STEP_DIRECTION[s, t]
        assert (d >= 0) == neighbours
        if neighbours:
            assert sq.DIRECTIONS[d] == (dc, dr) and sq.NEXT_SQUARE[s, d] == t
    for d, (dc, dr) in enumerate(sq.DIRECTIONS):
        c, r = coords(s)[0] + dc, coords(s)[1] + dr
        on_grid = 0 <= c < 7 and 0 <= r < 9
        assert sq.NEXT_SQUARE[s, d] == (r * 7 + c if on_grid else -1)

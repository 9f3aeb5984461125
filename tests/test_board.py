"""Layouts: both text forms, their errors, deals and positions."""

from collections import Counter

import pytest

from solver.board import (
    SCRABBLE_TILES,
    STANDARD_PATTERN,
    BoardError,
    Layout,
    Position,
    deal,
    read_bag,
    read_board,
)
from solver.squares import parse_square

from .conftest import EXAMPLE_BOARD


def test_example_board_squares(example_layout):
    assert example_layout[parse_square("a9")] == "L"
    assert example_layout[parse_square("g1")] == "N"
    assert example_layout[parse_square("b4")] == "U"
    assert example_layout[parse_square("a4")] is None
    assert example_layout.tile_count == 48


def test_round_trips(example_layout):
    assert example_layout.to_line() == EXAMPLE_BOARD
    assert Layout.from_line(example_layout.to_line()) == example_layout
    assert Layout.from_text(example_layout.to_text()) == example_layout
    assert Layout.parse(example_layout.to_text()) == example_layout
    assert Layout.parse(EXAMPLE_BOARD) == example_layout
    for seed in range(30):
        layout = deal(seed, "uniform" if seed % 2 else "scrabble")
        assert Layout.parse(layout.to_line()) == layout
        assert Layout.parse(layout.to_text()) == layout


def test_text_form_ignores_comments_blank_lines_and_case(example_layout):
    text = "# a comment\n\n" + example_layout.to_text().lower().replace("\n", "  \n", 3) + "\n\n"
    assert Layout.from_text(text) == example_layout


def test_any_pattern_is_a_layout():
    empty = Layout.from_line("/".join(["......."] * 9))
    assert empty.tile_count == 0 and empty.tile_mask == 0
    full = Layout.from_line("/".join(["ABCDEFG"] * 9))
    assert full.tile_count == 63


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ABC/DEF", "board: a board needs 9 rows, found 2"),
        (EXAMPLE_BOARD + "/.......", "a board needs 9 rows, found 10"),
        (EXAMPLE_BOARD.replace("LIVNODI", "LIVNOD"), "board row 9: a row needs 7 squares"),
        (EXAMPLE_BOARD.replace("EEERIHN", "EEERIHNN"), "board row 1: a row needs 7 squares"),
        (EXAMPLE_BOARD.replace("TPTURDL", "TPT3RDL"), "board row 3, square d3: '3' is not"),
        (EXAMPLE_BOARD.replace(".U.O.H.", ".U.O.H_"), "square g4: '_' is not a letter"),
    ],
)
def test_malformed_one_line_boards(text, message):
    with pytest.raises(BoardError, match=message.replace("(", r"\(")):
        Layout.parse(text)


def test_malformed_text_board_names_file_and_line(tmp_path, example_layout):
    lines = example_layout.to_text().splitlines()
    lines[2] = "NRT?KIO"
    path = tmp_path / "bad.txt"
    path.write_text("# header\n" + "\n".join(lines) + "\n")
    with pytest.raises(BoardError, match=r"bad.txt line 4, square d7: '\?' is not a letter"):
        read_board(str(path))
    path.write_text("\n".join(lines[:8]) + "\n")
    with pytest.raises(BoardError, match=r"bad\.txt: a board needs 9 rows, found 8"):
        read_board(str(path))
    lines[2] = "NRTKIO"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BoardError, match=r"bad\.txt line 3: a row needs 7 squares, found 6"):
        read_board(str(path))


def test_read_board_accepts_file_or_string(tmp_path, example_layout):
    path = tmp_path / "board.txt"
    path.write_text(example_layout.to_text())
    assert read_board(str(path)) == example_layout
    path.write_text(EXAMPLE_BOARD + "\n")
    assert read_board(str(path)) == example_layout
    assert read_board(EXAMPLE_BOARD) == example_layout
    with pytest.raises(BoardError, match="no such board file"):
        read_board(str(tmp_path / "missing.txt"))


def test_standard_pattern():
    assert STANDARD_PATTERN.to_line() == (
        "AAAAAAA/AAAAAAA/AAAAAAA/.A.A.A./......./.A.A.A./AAAAAAA/AAAAAAA/AAAAAAA"
    )
    assert STANDARD_PATTERN.tile_count == 48


def test_deal_is_pinned():
    # Pins the documented procedure (PCG64 raw outputs, Fisher-Yates by rejection): the same
    # seed must give this deal on every machine and every numpy version.
    assert deal(1).to_line() == (
        "ETOIMSO/FUILNVH/IGIBXEU/.T.N.O./......./.J.T.A./EPOAKQA/YLRSASG/ARDENCR"
    )
    assert deal(1) == deal(1) and deal(1) != deal(2)


def test_scrabble_deals_draw_without_replacement():
    for seed in range(200):
        layout = deal(seed)
        assert layout.tile_mask == STANDARD_PATTERN.tile_mask
        counts = Counter(letter for _, letter in layout.tiles())
        assert sum(counts.values()) == 48
        assert all(counts[letter] <= SCRABBLE_TILES[letter] for letter in counts)


def test_shuffle_is_unbiased_enough():
    # Over many deals every letter turns up about in proportion to its count in the bag.
    totals = Counter()
    for seed in range(400):
        totals.update(letter for _, letter in deal(seed).tiles())
    for letter, count in SCRABBLE_TILES.items():
        expected = 400 * 48 * count / 98
        assert abs(totals[letter] - expected) < 5 * expected**0.5 + 5, letter


def test_uniform_and_custom_bags(tmp_path):
    uniform = deal(3, "uniform")
    assert uniform.tile_count == 48 and uniform == deal(3, "uniform")
    path = tmp_path / "bag.txt"
    path.write_text("# two letters\nA 40\nb 10  # lower case works\n\n")
    assert read_bag(str(path)) == {"A": 40, "B": 10}
    custom = deal(5, read_bag(str(path)))
    assert set(custom.letters) <= {"A", "B", "."}
    small = tmp_path / "small.txt"
    small.write_text("A 3\n")
    with pytest.raises(BoardError, match="the bag holds 3 tiles, the layout needs 48"):
        deal(0, read_bag(str(small)))
    pattern = Layout.from_line("/".join(["A......"] + ["......."] * 8))
    assert deal(0, read_bag(str(small)), pattern).to_line().startswith("A......")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("A 3\nB\n", "bag.txt line 2: expected 'LETTER COUNT'"),
        ("A x\n", "bag.txt line 1: expected 'LETTER COUNT'"),
        ("AB 3\n", "bag.txt line 1"),
        ("# nothing\n", "names no tiles"),
        ("A -2\n", "line 1"),
    ],
)
def test_bad_bag_files(tmp_path, content, message):
    path = tmp_path / "bag.txt"
    path.write_text(content)
    with pytest.raises(BoardError, match=message):
        read_bag(str(path))


def test_bad_seed():
    with pytest.raises(BoardError, match="non-negative integer"):
        deal(-1)


def test_position(example_layout):
    position = Position.start(example_layout)
    assert position.remaining_mask == example_layout.tile_mask and not position.cleared
    removed = sum(1 << parse_square(s) for s in ("f4", "e2", "e3"))
    after = position.after("her", removed)
    assert after.played == frozenset({"HER"})
    assert len(after.remaining_letters()) == 45
    assert after.remaining_letters().count("H") == 1
    with pytest.raises(ValueError, match="still on the board"):
        after.after("ten", removed)

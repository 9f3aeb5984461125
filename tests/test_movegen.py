"""Play generation: the numba kernel against the pure-Python reference and the referee."""

import os
import random
from pathlib import Path

import pytest

from solver.board import Layout, Position, deal, read_board
from solver.dictionary import Dictionary
from solver.movegen import generate_plays, raw_plays
from solver.record import Turn
from solver.referee import IllegalTurn, check_turn
from solver.reference import legal_order, reference_plays
from solver.rules import Rules
from solver.squares import parse_square

from .conftest import EXAMPLE_BOARD

SHAPES = ("path", "line")


@pytest.fixture(scope="module")
def scowl():
    return Dictionary.default()


@pytest.fixture(scope="module")
def positions(scowl):
    """200 positions: every fourth a fresh deal, the others reached by 1 to 10 random plays
    (with played words, which must not come back)."""
    rng = random.Random(2026)
    result = []
    for i in range(200):
        layout = deal(1000 + i)
        position = Position.start(layout)
        for _ in range(0 if i % 4 == 0 else rng.randint(1, 10)):
            plays = generate_plays(
                layout, position.remaining_mask, scowl, Rules(), 1, position.played
            )
            if not plays:
                break
            play = rng.choice(plays)
            position = position.after(play.word, play.tiles_mask)
        result.append(position)
    return result


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("max_moves", [0, 1, 2])
def test_kernel_equals_reference(positions, scowl, shape, max_moves):
    # Completeness and exactness at once: the same plays, the same witnesses, the same order.
    rules = Rules(word_shape=shape)
    total = 0
    for number, position in enumerate(positions):
        args = (position.layout, position.remaining_mask, scowl, rules, max_moves, position.played)
        kernel = generate_plays(*args)
        reference = reference_plays(*args)
        assert {p.key for p in kernel} == {p.key for p in reference}, number
        assert kernel == reference, number
        total += len(kernel)
    assert total > {0: 1000, 1: 5000, 2: 20000}[max_moves] // (10 if shape == "line" else 1)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("max_moves", [0, 1, 2])
def test_every_play_passes_the_referee(positions, scowl, shape, max_moves):
    rules = Rules(word_shape=shape)
    for position in positions:
        plays = generate_plays(
            position.layout, position.remaining_mask, scowl, rules, max_moves, position.played
        )
        for play in plays:
            assert len(play.moves) <= max_moves
            removed = check_turn(position.layout, position, play.to_turn(), rules, scowl)
            assert removed == play.tiles_mask, play


def test_plays_are_sorted_and_unique(positions, scowl):
    for position in positions[:20]:
        plays = generate_plays(position.layout, position.remaining_mask, scowl, Rules(), 2)
        assert len({p.key for p in plays}) == len(plays)
        keys = [(-p.score, p.word, p.tiles_mask) for p in plays]
        assert keys == sorted(keys)


# Hand-made positions, on a nearly empty grid unless said otherwise.


def board(*placements):
    """A layout from ``("c4", "T"), ...`` pairs, every other square empty."""
    cells = ["."] * 63
    for name, letter in placements:
        cells[parse_square(name)] = letter
    return Layout("".join(cells))


def plays_of(layout, words, max_moves=2, rules=None, played=()):
    rules = rules or Rules()
    dictionary = Dictionary.from_words(words, name="hand")
    kernel = generate_plays(layout, layout.tile_mask, dictionary, rules, max_moves, played)
    assert kernel == reference_plays(layout, layout.tile_mask, dictionary, rules, max_moves, played)
    return kernel


def names(mask):
    from solver.squares import square_name, squares_of

    return sorted(square_name(sq) for sq in squares_of(mask))


def test_a_vowel_jumps_over_tiles():
    # The A on b1 jumps to c3 over the wall of X on b2, c2 and a2, landing between C and T.
    layout = board(("b1", "A"), ("a2", "X"), ("b2", "X"), ("c2", "X"), ("b3", "C"), ("d3", "T"))
    plays = plays_of(layout, ["cat"])
    assert [(p.word, p.moves) for p in plays] == [
        ("CAT", ((parse_square("b1"), parse_square("c3")),))
    ]


def test_a_consonant_is_blocked():
    # CAT needs the T from a3 beside the A on d4; the X on b3 blocks row 3 and the X on b4 the
    # diagonal, so no play at all, even with two moves.
    layout = board(("a3", "T"), ("b3", "X"), ("b4", "X"), ("d4", "A"), ("e5", "C"))
    assert plays_of(layout, ["cat"], max_moves=2) == []
    # Take the X off b3 and the T slides to c3.
    opened = board(("a3", "T"), ("b4", "X"), ("d4", "A"), ("e5", "C"))
    plays = plays_of(opened, ["cat"], max_moves=1)
    assert [(p.word, p.moves) for p in plays] == [
        ("CAT", ((parse_square("a3"), parse_square("c3")),))
    ]


def sq_pairs(*pairs):
    return tuple((parse_square(a), parse_square(b)) for a, b in pairs)


def find(plays, word, *tiles):
    wanted = sum(1 << parse_square(name) for name in tiles)
    matches = [p for p in plays if p.word == word and p.tiles_mask == wanted]
    assert len(matches) == 1, plays
    return matches[0]


def test_a_move_opened_by_an_earlier_move():
    # EAT in the top right corner. The E on g9 cannot move (its knight squares hold X). The T on
    # g5 reaches g8 only once the A on g7 has jumped away, to f9. Sorted by square the T's move
    # comes first, which is illegal: the witness must move the A first.
    layout = board(("g9", "E"), ("e8", "X"), ("f7", "X"), ("g7", "A"), ("g5", "T"))
    plays = plays_of(layout, ["eat"], max_moves=2)
    assert [(p.word, p.moves) for p in plays] == [("EAT", sq_pairs(("g7", "f9"), ("g5", "g8")))]
    assert plays_of(layout, ["eat"], max_moves=1) == []


def test_a_move_closed_by_an_earlier_move():
    # The A on a2 jumps to c3, on the line the T on a3 takes to e3: the A must go second.
    layout = board(("a2", "A"), ("a3", "T"), ("d4", "N"))
    moves = sq_pairs(("a2", "c3"), ("a3", "e3"))
    assert legal_order(layout, layout.tile_mask, moves) == (moves[1], moves[0])
    # The kernel writes the T first in every witness of these two moves ...
    raw = raw_plays(layout, layout.tile_mask, Dictionary.from_words(["ant"]), Rules(), 2)
    orders = {tuple(map(tuple, raw.moves[row].tolist())) for row in range(len(raw.word_ids))}
    assert (moves[1], moves[0]) in orders and (moves[0], moves[1]) not in orders
    # ... and the referee rejects the other order.
    position = Position.start(layout)
    turn = Turn(moves, tuple(parse_square(s) for s in ("c3", "d4", "e3")), "ANT", 12)
    with pytest.raises(IllegalTurn, match="blocked by the A on c3"):
        check_turn(layout, position, turn, Rules(), Dictionary.from_words(["ant"]))
    fixed = Turn((moves[1], moves[0]), turn.path, turn.word, turn.score)
    check_turn(layout, position, fixed, Rules(), Dictionary.from_words(["ant"]))


def test_moved_tile_must_be_in_the_word():
    # CAT lies on row 1 already; moving the O out of the way is never generated, since the O
    # would not be part of the word.
    layout = board(("a1", "C"), ("b1", "A"), ("c1", "T"), ("d1", "O"))
    plays = plays_of(layout, ["cat"], max_moves=2)
    assert [(p.word, p.moves) for p in plays] == [("CAT", ())]


def test_a_word_already_played():
    layout = board(("a1", "C"), ("b1", "A"), ("c1", "T"))
    assert plays_of(layout, ["cat"], played=["CAT"]) == []
    assert plays_of(layout, ["cat"], played=["dog"]) != []


def test_min_moves():
    # CAT lies on row 1; with min_moves = 1 only the plays that move a tile are left (the T on
    # c1 stepping up to c2, say), and none at all when no move is allowed.
    layout = board(("a1", "C"), ("b1", "A"), ("c1", "T"), ("e1", "T"))
    plays = plays_of(layout, ["cat"], max_moves=1, rules=Rules(min_moves=1))
    assert plays and all(len(p.moves) == 1 for p in plays)
    assert plays_of(layout, ["cat"], max_moves=0, rules=Rules(min_moves=1)) == []
    assert all(p.moves == () for p in plays_of(layout, ["cat"], max_moves=0))


def test_line_shape():
    layout = board(("a1", "C"), ("b1", "A"), ("b2", "T"), ("c1", "T"))
    path_words = plays_of(layout, ["cat"], max_moves=0)
    line_words = plays_of(layout, ["cat"], max_moves=0, rules=Rules(word_shape="line"))
    assert {tuple(names(p.tiles_mask)) for p in path_words} == {
        ("a1", "b1", "b2"),
        ("a1", "b1", "c1"),
    }
    assert [names(p.tiles_mask) for p in line_words] == [["a1", "b1", "c1"]]


def test_example_board_top_plays(scowl):
    layout = Layout.from_line(EXAMPLE_BOARD)
    plays = generate_plays(layout, layout.tile_mask, scowl, Rules(), 0)
    assert (plays[0].word, plays[0].score) == ("RECEIPTOR", 117)
    turn = plays[0].to_turn()
    assert isinstance(turn, Turn) and turn.moves == ()


GOLDEN = Path(__file__).parent / "data" / "movegen-golden.txt"
GOLDEN_CASES = [("deal-01.txt", Rules(), 1), ("deal-02.txt", Rules(word_shape="line"), 2)]


def golden_lines(scowl):
    """Every play of two benchmark openings, one line each: what the golden file holds."""
    boards = Path(__file__).parents[1] / "benchmarks" / "boards"
    lines = []
    for name, rules, max_moves in GOLDEN_CASES:
        layout = read_board(str(boards / name))
        lines.append(f"# {name} {rules.describe()} K={max_moves}")
        for play in generate_plays(layout, layout.tile_mask, scowl, rules, max_moves):
            data = play.to_json()
            moves = " ".join(f"{a}-{b}" for a, b in data["moves"]) or "-"
            lines.append(
                f"{play.score} {play.word} {' '.join(data['tiles'])} | {moves} | "
                + " ".join(data["path"])
            )
    return lines


def test_golden_file(scowl):
    # Regenerate after an intended change with: LETTERCHESS_REGENERATE_GOLDEN=1 pytest -k golden
    lines = golden_lines(scowl)
    if os.environ.get("LETTERCHESS_REGENERATE_GOLDEN"):
        GOLDEN.write_text("\n".join(lines) + "\n")
    assert GOLDEN.read_text().splitlines() == lines


def test_witness_is_the_one_generate_plays_keeps(scowl):
    from solver.movegen import witness

    layout = deal(21)
    plays = generate_plays(layout, layout.tile_mask, scowl, Rules(), 2)
    for play in plays[:: max(1, len(plays) // 40)]:
        args = (layout, layout.tile_mask, scowl, Rules(), 2)
        assert witness(*args, play.word, play.tiles_mask) == play
    assert witness(layout, layout.tile_mask, scowl, Rules(), 2, "ZZZZ", 7) is None
    assert witness(layout, layout.tile_mask, scowl, Rules(), 2, plays[0].word, 7) is None

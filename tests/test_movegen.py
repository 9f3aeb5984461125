"""Play generation: the numba kernel against the plain-Python reference and the referee."""

import os
import random
from pathlib import Path

import pytest

from solver.board import Layout, Position, deal, read_board
from solver.dictionary import Dictionary
from solver.movegen import GenerationStopped, generate_plays, raw_plays, witness
from solver.record import Turn
from solver.referee import IllegalTurn, check_turn
from solver.reference import legal_order, reference_plays
from solver.rules import Rules
from solver.squares import parse_square, square_col, square_row, squares_of

from .conftest import EXAMPLE_BOARD

BOARDS = Path(__file__).parents[1] / "benchmarks" / "boards"
#: The move limits tested, None being no limit.
LIMITS = (0, 1, 2, 3, None)


@pytest.fixture(scope="module")
def scowl():
    return Dictionary.default()


def _region(layout, size, rng):
    """The ``size`` tiles of ``layout`` nearest a random tile: a small, dense board."""
    tiles = list(squares_of(layout.tile_mask))
    centre = rng.choice(tiles)

    def distance(sq):
        return abs(square_col(sq) - square_col(centre)) + abs(square_row(sq) - square_row(centre))

    tiles.sort(key=lambda sq: (distance(sq), rng.random()))
    return sum(1 << sq for sq in tiles[:size])


def _small_positions(scowl, count, seed=2026):
    """``count`` positions of 6 to 16 tiles with the rules and move limit each is tested
    under: dense regions of random deals, and games played on at random until few tiles are
    left (their words played, which must not come back). Both word shapes, every limit;
    the reference is slow beyond 10 tiles with 3 moves or more, so those boards are smaller.
    """
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        max_moves = LIMITS[i % len(LIMITS)]
        rules = Rules(word_shape="line" if i % 4 == 3 else "path")
        most = 16 if max_moves is not None and max_moves <= 2 else 10
        layout = deal(3000 + i)
        if i % 3 == 2:  # mid-game: random plays from the opening
            position = Position.start(layout)
            while position.remaining_mask.bit_count() > most:
                plays = generate_plays(
                    layout, position.remaining_mask, scowl, Rules(), 1, position.played, best=40
                )
                if not plays:
                    break
                play = rng.choice(plays)
                position = position.after(play.word, play.tiles_mask)
            if position.remaining_mask.bit_count() > most:
                position = Position(layout, _region(layout, most, rng), position.played)
        else:
            position = Position(layout, _region(layout, rng.randint(6, most), rng), frozenset())
        cases.append((position, rules, max_moves))
    return cases


def _refills(play, layout):
    """Whether the play's witness refills a square: a move lands on a square another move
    left (vacate then fill), or a tile standing on the path moves along it."""
    origins = {origin for origin, _ in play.moves}
    return any(target in origins or origin in play.path for origin, target in play.moves)


def _check_against_reference(scowl, cases):
    """Kernel and reference on every case; returns the plays found per limit, and the plays
    whose witness refills a square (outside the standard class)."""
    plays_found = {limit: 0 for limit in LIMITS}
    refills = 0
    for number, (position, rules, max_moves) in enumerate(cases):
        args = (position.layout, position.remaining_mask, scowl, rules, max_moves, position.played)
        kernel = generate_plays(*args)
        reference = reference_plays(*args)
        # The same plays, the same witnesses, the same order.
        assert {p.key for p in kernel} == {p.key for p in reference}, number
        assert kernel == reference, number
        for play in kernel:
            assert max_moves is None or len(play.moves) <= max_moves
            removed = check_turn(position.layout, position, play.to_turn(), rules, scowl)
            assert removed == play.tiles_mask, (number, play)
        plays_found[max_moves] += len(kernel)
        refills += sum(_refills(play, position.layout) for play in kernel)
    return plays_found, refills


def test_kernel_equals_reference(scowl):
    found, refills = _check_against_reference(scowl, _small_positions(scowl, 40))
    assert all(count > 100 for count in found.values()) and refills > 20, (found, refills)


@pytest.mark.slow
def test_kernel_equals_reference_on_300_positions(scowl):
    found, refills = _check_against_reference(scowl, _small_positions(scowl, 300, seed=12))
    assert all(count > 1000 for count in found.values()) and refills > 200, (found, refills)


@pytest.mark.parametrize("max_moves", [1, None])
def test_kernel_equals_reference_on_full_deals(scowl, max_moves):
    # On a whole board the reference is fast enough with one move, or with no limit but few
    # tiles left: a mid-game position.
    layout = deal(77)
    position = Position.start(layout)
    if max_moves is None:
        position = Position(layout, _region(layout, 12, random.Random(5)), frozenset())
    args = (layout, position.remaining_mask, scowl, Rules(), max_moves)
    assert generate_plays(*args) == reference_plays(*args)


def test_every_play_of_an_opening_passes_the_referee(scowl):
    layout = read_board(str(BOARDS / "deal-03.txt"))
    position = Position.start(layout)
    plays = generate_plays(layout, layout.tile_mask, scowl, Rules(), None)
    assert len(plays) > 10_000
    assert max(len(play.moves) for play in plays) >= 10
    for play in plays:
        assert check_turn(layout, position, play.to_turn(), Rules(), scowl) == play.tiles_mask


def midgame(name="deal-08.txt", tiles=18):
    """A position of ``tiles`` tiles of a benchmark deal (a dense region of it): every play
    with no move limit takes a fraction of a second there, against seconds on a full deal."""
    layout = read_board(str(BOARDS / name))
    return layout, _region(layout, tiles, random.Random(name))


def test_limits_nest(scowl):
    layout, remaining = midgame()
    previous: set = set()
    for max_moves in (0, 1, 2, 3, 4, 6, None):
        plays = generate_plays(layout, remaining, scowl, Rules(), max_moves)
        keys = {p.key for p in plays}
        assert previous < keys, max_moves
        if max_moves is not None:
            assert all(len(p.moves) <= max_moves for p in plays)
        previous = keys


def test_plays_are_sorted_and_unique(scowl):
    layout, remaining = midgame("deal-09.txt")
    plays = generate_plays(layout, remaining, scowl, Rules(), None)
    assert len({p.key for p in plays}) == len(plays)
    keys = [(-p.score, p.word, p.tiles_mask) for p in plays]
    assert keys == sorted(keys)


# Hand-made positions, on a nearly empty grid.


def board(*placements):
    """A layout from ``("c4", "T"), ...`` pairs, every other square empty."""
    cells = ["."] * 63
    for name, letter in placements:
        cells[parse_square(name)] = letter
    return Layout("".join(cells))


def plays_of(layout, words, max_moves=2, rules=None, played=()):
    """The kernel's plays, checked against the reference and the referee."""
    rules = rules or Rules()
    dictionary = Dictionary.from_words(words, name="hand")
    kernel = generate_plays(layout, layout.tile_mask, dictionary, rules, max_moves, played)
    assert kernel == reference_plays(layout, layout.tile_mask, dictionary, rules, max_moves, played)
    position = Position.start(layout)
    for play in kernel:
        assert check_turn(layout, position, play.to_turn(), rules, dictionary) == play.tiles_mask
    return kernel


def sq_pairs(*pairs):
    return tuple((parse_square(a), parse_square(b)) for a, b in pairs)


def squares(*names):
    return tuple(parse_square(name) for name in names)


def mask(*names):
    return sum(1 << parse_square(name) for name in names)


def test_a_vowel_jumps_over_tiles():
    # The A on b1 jumps to c3 over the wall of X on b2, c2 and a2, landing between C and T.
    layout = board(("b1", "A"), ("a2", "X"), ("b2", "X"), ("c2", "X"), ("b3", "C"), ("d3", "T"))
    plays = plays_of(layout, ["cat"])
    assert [(p.word, p.moves) for p in plays] == [("CAT", sq_pairs(("b1", "c3")))]


def test_a_consonant_is_blocked_by_a_tile_that_cannot_move():
    # CAT needs the T from a3 beside the A on d4; the X on b3 blocks row 3 and the X on b4 the
    # diagonal. The X are in no word, so they never move: no play with two moves. (With three,
    # all of C, A and T move: T a3-c1, A d4-c2, C e5-b2.)
    layout = board(("a3", "T"), ("b3", "X"), ("b4", "X"), ("d4", "A"), ("e5", "C"))
    assert plays_of(layout, ["cat"], max_moves=2) == []
    assert [p.moves for p in plays_of(layout, ["cat"], max_moves=None)] == [
        sq_pairs(("a3", "c1"), ("d4", "c2"), ("e5", "b2"))
    ]
    # Take the X off b3 and the T slides to c3.
    opened = board(("a3", "T"), ("b4", "X"), ("d4", "A"), ("e5", "C"))
    plays = plays_of(opened, ["cat"], max_moves=1)
    assert [(p.word, p.moves) for p in plays] == [("CAT", sq_pairs(("a3", "c3")))]


def test_a_refill():
    # CAT on a1 b1 c1: the T standing on b1 steps to c1, and only then the A jumps from d2
    # into b1 (b1 is the A's only square next to the C). Two moves; outside the standard class.
    layout = board(("a1", "C"), ("b1", "T"), ("d2", "A"))
    plays = plays_of(layout, ["cat"], max_moves=2)
    play = next(p for p in plays if p.tiles_mask == mask("a1", "b1", "d2"))
    assert play.moves == sq_pairs(("b1", "c1"), ("d2", "b1"))
    assert play.path == squares("a1", "b1", "c1")
    assert plays_of(layout, ["cat"], max_moves=1) == []


def test_vacate_then_fill_needs_the_order():
    # BRA on b2 c3 d3: the A standing on b2 jumps to d3, and only then the B on a1 steps into
    # b2. The X (in no word, so never moving) wall the corner in, so that nothing else spells
    # BRA with these tiles. Sorted by square the B's move comes first, which is illegal.
    walls = [("a2", "X"), ("b1", "X"), ("c1", "X"), ("d1", "X"), ("c2", "X")]
    layout = board(("a1", "B"), ("b2", "A"), ("c3", "R"), *walls)
    for max_moves in (2, None):
        plays = plays_of(layout, ["bra", "arb"], max_moves)
        assert [(p.word, p.path, p.moves) for p in plays] == [
            ("ARB", squares("d3", "c3", "b2"), sq_pairs(("b2", "d3"), ("a1", "b2"))),
            ("BRA", squares("b2", "c3", "d3"), sq_pairs(("b2", "d3"), ("a1", "b2"))),
        ]
    assert plays_of(layout, ["bra", "arb"], max_moves=1) == []
    turn = Turn(tuple(sorted(plays[1].moves)), plays[1].path, "BRA", 12)
    with pytest.raises(IllegalTurn, match="is not empty"):
        check_turn(layout, Position.start(layout), turn, Rules(), Dictionary.from_words(["bra"]))


def test_no_swap():
    # Two tiles never swap squares: whichever moves first lands on an occupied square.
    layout = board(("a1", "A"), ("b1", "T"))
    assert legal_order(layout, layout.tile_mask, sq_pairs(("a1", "b1"), ("b1", "a1"))) is None
    plays = plays_of(layout, ["ta", "at"], max_moves=None, rules=Rules(min_word_length=2))
    for play in plays:
        assert not {(b, a) for a, b in play.moves} & set(play.moves)


def test_moved_tile_must_be_in_the_word():
    # CAT lies on row 1 already; moving the O out of the way is never generated, since the O
    # would not be part of the word.
    layout = board(("a1", "C"), ("b1", "A"), ("c1", "T"), ("d1", "O"))
    plays = plays_of(layout, ["cat"], max_moves=None)
    assert (plays[0].word, plays[0].moves) == ("CAT", ())
    assert all(not p.tiles_mask & mask("d1") for p in plays)


def test_a_word_already_played():
    layout = board(("a1", "C"), ("b1", "A"), ("c1", "T"))
    assert plays_of(layout, ["cat"], played=["CAT"]) == []
    assert plays_of(layout, ["cat"], played=["dog"]) != []


def test_min_moves():
    # CAT lies on row 1; with min_moves = 1 only the plays that move a tile are left, and none
    # at all when no move is allowed.
    layout = board(("a1", "C"), ("b1", "A"), ("c1", "T"), ("e1", "T"))
    plays = plays_of(layout, ["cat"], max_moves=1, rules=Rules(min_moves=1))
    assert plays and all(len(p.moves) == 1 for p in plays)
    assert plays_of(layout, ["cat"], max_moves=0, rules=Rules(min_moves=1)) == []
    assert all(p.moves == () for p in plays_of(layout, ["cat"], max_moves=0))


def test_line_shape():
    layout = board(("a1", "C"), ("b1", "A"), ("b2", "T"), ("c1", "T"))
    path_words = plays_of(layout, ["cat"], max_moves=0)
    line_words = plays_of(layout, ["cat"], max_moves=0, rules=Rules(word_shape="line"))
    assert {p.tiles_mask for p in path_words} == {mask("a1", "b1", "b2"), mask("a1", "b1", "c1")}
    assert [p.tiles_mask for p in line_words] == [mask("a1", "b1", "c1")]


def test_a_move_closed_by_an_earlier_move():
    # The A on a2 jumps to c3, on the line the T on a3 takes to e3: the A must go second.
    layout = board(("a2", "A"), ("a3", "T"), ("d4", "N"))
    moves = sq_pairs(("a2", "c3"), ("a3", "e3"))
    assert legal_order(layout, layout.tile_mask, moves) == (moves[1], moves[0])
    position = Position.start(layout)
    turn = Turn(moves, squares("c3", "d4", "e3"), "ANT", 12)
    with pytest.raises(IllegalTurn, match="blocked by the A on c3"):
        check_turn(layout, position, turn, Rules(), Dictionary.from_words(["ant"]))
    fixed = Turn((moves[1], moves[0]), turn.path, turn.word, turn.score)
    check_turn(layout, position, fixed, Rules(), Dictionary.from_words(["ant"]))


def test_example_board_top_plays(scowl):
    layout = Layout.from_line(EXAMPLE_BOARD)
    plays = generate_plays(layout, layout.tile_mask, scowl, Rules(), 0)
    assert (plays[0].word, plays[0].score) == ("RECEIPTOR", 117)
    assert plays[0].to_turn().moves == ()


# The bounded mode.


@pytest.mark.parametrize("max_moves", [2, None])
def test_best_plays_are_the_top_of_all_plays(scowl, max_moves):
    if max_moves is None:
        layout, remaining = midgame("deal-06.txt", 20)
    else:
        layout = read_board(str(BOARDS / "deal-06.txt"))
        remaining = layout.tile_mask
    args = (layout, remaining, scowl, Rules(), max_moves)
    every = generate_plays(*args)
    assert len(every) > 1500
    for best in (1, 64, 256, 1024):
        assert generate_plays(*args, best=best) == every[:best]
        # The raw rows: the best plays and every play tied with the last of them.
        raw = raw_plays(*args, best=best)
        nth = every[best - 1].score
        assert sorted(raw.scores.tolist()) == sorted(p.score for p in every if p.score >= nth)


def test_min_tally(scowl):
    layout, remaining = midgame("deal-07.txt", 22)
    args = (layout, remaining, scowl, Rules(), None)
    every = generate_plays(*args)
    assert generate_plays(*args, min_tally=60) == [p for p in every if p.score >= 60]
    assert generate_plays(*args, best=10, min_tally=10_000) == []


def test_best_on_small_positions_against_the_reference(scowl):
    for position, rules, max_moves in _small_positions(scowl, 10, seed=99):
        args = (position.layout, position.remaining_mask, scowl, rules, max_moves)
        reference = reference_plays(*args, position.played)
        assert generate_plays(*args, position.played, best=5) == reference[:5]


# Stopping between pieces.


def test_stop_is_polled_between_pieces(scowl):
    layout = deal(4)
    calls = []

    def stop():
        calls.append(1)
        return len(calls) >= 3

    with pytest.raises(GenerationStopped):
        raw_plays(layout, layout.tile_mask, scowl, Rules(), None, stop=stop)
    assert len(calls) == 3  # after the third piece: the search stopped there
    # A stop test that never fires changes nothing.
    every = generate_plays(layout, layout.tile_mask, scowl, Rules(), 2)
    assert generate_plays(layout, layout.tile_mask, scowl, Rules(), 2, stop=lambda: False) == every


def test_a_deadline_with_an_injected_clock(scowl):
    from solver.movegen import deadline_stop

    layout = deal(4)
    now = [0.0]

    def clock():
        now[0] += 0.01  # every poll, 10 ms pass
        return now[0]

    with pytest.raises(GenerationStopped):
        raw_plays(layout, layout.tile_mask, scowl, Rules(), 2, stop=deadline_stop(0.05, clock))
    assert 0.05 <= now[0] <= 0.07


def test_ctrl_c_between_pieces(scowl):
    layout = deal(4)
    calls = []

    def interrupt():
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        raw_plays(layout, layout.tile_mask, scowl, Rules(), None, stop=interrupt)


# Golden files.

GOLDEN = Path(__file__).parent / "data" / "movegen-golden.txt"
GOLDEN_CASES = [("deal-01.txt", Rules(), 1), ("deal-02.txt", Rules(word_shape="line"), 2)]
FULL_GOLDEN = Path(__file__).parent / "data" / "movegen-full-golden.txt"
#: Mid-game positions with no move limit: the deal and the squares of the tiles left.
FULL_GOLDEN_CASES = [
    ("deal-03.txt", Rules(), "a1 b1 c1 d1 e1 f1 g1 a2 b2 c2 d2 e2 f2 g2 a3 b3 c3 b4 d4"),
    ("deal-04.txt", Rules(word_shape="line"), "a7 b7 c7 d7 e7 a8 b8 c8 d8 e8 a9 b9 c9 d9 e9 b6"),
]


def play_line(play):
    data = play.to_json()
    moves = " ".join(f"{a}-{b}" for a, b in data["moves"]) or "-"
    return (
        f"{play.score} {play.word} {' '.join(data['tiles'])} | {moves} | {' '.join(data['path'])}"
    )


def golden_lines(scowl, cases, full):
    lines = []
    for name, rules, rest in cases:
        layout = read_board(str(BOARDS / name))
        remaining = mask(*rest.split()) if full else layout.tile_mask
        limit = None if full else rest
        lines.append(f"# {name} {rules.describe()} K={'all' if full else rest}")
        if full:
            lines[-1] += f" tiles {rest}"
        lines += [play_line(p) for p in generate_plays(layout, remaining, scowl, rules, limit)]
    return lines


def _read_golden(path):
    """The golden file's plays by case header: ``{header: {(word, tiles): line}}``."""
    cases: dict = {}
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            header = line
            cases[header] = {}
        else:
            _, word, rest = line.split(" ", 2)
            cases[header][(word, rest.split(" | ")[0])] = line
    return cases


def test_golden_file_of_the_standard_class(scowl):
    # The golden file of the standard class (issue 4). With one move the full class is the
    # standard class: the same plays, the same witnesses. With two, the full class holds every
    # standard play (with a witness no larger), and every other play needs a refill: a move
    # from a path square, or onto a square that was not empty at the start.
    golden = _read_golden(GOLDEN)
    for header, (name, rules, max_moves) in zip(golden, GOLDEN_CASES, strict=True):
        layout = read_board(str(BOARDS / name))
        plays = generate_plays(layout, layout.tile_mask, scowl, rules, max_moves)
        now = {(p.word, " ".join(p.to_json()["tiles"])): p for p in plays}
        old = golden[header]
        assert set(old) <= set(now), header
        if max_moves == 1:
            assert [play_line(p) for p in plays] == list(old.values())
        for key, play in now.items():
            refill = any(
                origin in play.path or layout.tile_mask >> target & 1
                for origin, target in play.moves
            )
            if key not in old:
                assert refill, play
            elif play_line(play) != old[key]:
                assert refill and len(play.moves) <= len(old[key].split(" | ")[1].split()), play


def test_full_golden_file(scowl):
    # Regenerate after an intended change with: LETTERCHESS_REGENERATE_GOLDEN=1 pytest -k golden
    lines = golden_lines(scowl, FULL_GOLDEN_CASES, full=True)
    if os.environ.get("LETTERCHESS_REGENERATE_GOLDEN"):
        FULL_GOLDEN.write_text("\n".join(lines) + "\n")
    assert FULL_GOLDEN.read_text().splitlines() == lines


def test_witness_is_the_one_generate_plays_keeps(scowl):
    layout = deal(21)
    for max_moves, remaining in ((2, layout.tile_mask), (None, midgame("deal-09.txt")[1])):
        layout = read_board(str(BOARDS / "deal-09.txt")) if max_moves is None else layout
        args = (layout, remaining, scowl, Rules(), max_moves)
        plays = generate_plays(*args)
        for play in plays[:: max(1, len(plays) // 40)]:
            assert witness(*args, play.word, play.tiles_mask) == play
    assert witness(layout, layout.tile_mask, scowl, Rules(), 2, "ZZZZ", 7) is None
    assert witness(layout, layout.tile_mask, scowl, Rules(), 2, plays[0].word, 7) is None

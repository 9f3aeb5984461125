"""The board-aware upper bound: the formability kernel against a plain reference, and the
bound's admissibility against exact optima, every state of small boards, and games played."""

import random

import numpy as np
import pytest

from solver.board import Layout, Position, deal
from solver.formable import formable_words, placements
from solver.movegen import generate_plays
from solver.rules import Rules, tally
from solver.search.bound import board_bound
from solver.solution import solve

from .naive import MAX_MOVES, SMALL_BOARDS, Exhaustive, apply_turn, placements_by_hand


def _sample_words(scowl, count, seed):
    words = sorted(scowl)
    return random.Random(seed).sample(words, count)


def slow_after(values: list, fast: int = 1) -> list:
    """Cases of a test whose first ``fast`` are enough for a quick run: the others are marked
    slow (they check the same on more boards)."""
    slow = [
        pytest.param(*(value if isinstance(value, tuple) else (value,)), marks=pytest.mark.slow)
        for value in values[fast:]
    ]
    return [*values[:fast], *slow]


@pytest.mark.parametrize("max_moves", [0, 1, 2])
@pytest.mark.parametrize("line", [False, True])
def test_formable_words_and_placements_match_the_plain_search(scowl, max_moves, line):
    rng = random.Random(max_moves * 2 + line)
    layouts = [Layout.from_line(board) for board in SMALL_BOARDS] + [deal(7)]
    rules = Rules(word_shape="line" if line else "path")
    for layout in layouts:
        # The opening position and one with a random half of the tiles gone.
        tiles = [sq for sq, _ in layout.tiles()]
        half = sum(1 << sq for sq in rng.sample(tiles, len(tiles) // 2))
        for remaining in (layout.tile_mask, layout.tile_mask & ~half):
            marked = formable_words(layout, remaining, scowl, rules, max_moves)
            words = _sample_words(scowl, 150, rng.random())
            # The words marked, sampled too: the plain search must agree on both sides.
            ids = np.flatnonzero(marked)
            words += [scowl.word(int(i)) for i in rng.sample(list(ids), min(60, len(ids)))]
            wanted = np.zeros(len(scowl), dtype=np.bool_)
            wanted[[scowl.word_id(word) for word in words]] = True
            placed_words, placed_squares = placements(
                layout, remaining, scowl, rules, max_moves, wanted
            )
            for word in words:
                expected = placements_by_hand(layout, remaining, word, max_moves, line)
                assert bool(marked[scowl.word_id(word)]) == bool(expected), (layout, word)
                mine = placed_squares[placed_words == scowl.word_id(word)]
                assert sorted(mine.tolist()) == sorted(expected), (layout, word)


@pytest.mark.parametrize("seed", slow_after([3, 4]))
def test_every_play_of_a_game_is_formable_at_its_start(scowl, seed):
    # Soundness on real plays: everything playable at any position of a game was marked at
    # the opening (and at every position before it).
    layout = deal(seed)
    record = solve(layout, "greedy", max_states=50, dictionary=scowl, bound=False).record
    position = Position.start(layout)
    earlier = [formable_words(layout, position.remaining_mask, scowl, Rules(), MAX_MOVES)]
    opening_words, opening_sure = placements(
        layout, layout.tile_mask, scowl, Rules(), MAX_MOVES, earlier[0]
    )
    for turn in record.turns:
        plays = generate_plays(
            layout, position.remaining_mask, scowl, Rules(), MAX_MOVES, position.played
        )
        for play in plays:
            word_id = scowl.word_id(play.word)
            assert all(marked[word_id] for marked in earlier), play.word
            # The tiles the play leaves in place cover the sure squares of one of the
            # word's placements at the opening.
            moved_to = {target for _, target in play.moves}
            in_place = sum(1 << sq for sq in play.path if sq not in moved_to)
            sure = opening_sure[opening_words == word_id]
            assert any(mask & ~in_place == 0 for mask in sure.tolist()), play.word
        position = apply_turn(position, turn)
        earlier.append(formable_words(layout, position.remaining_mask, scowl, Rules(), MAX_MOVES))


# The real game (no move limit) exhaustively: the first board in a few seconds, the others in
# 20 s to 3 minutes.
REAL_GAME_BOARDS = slow_after([SMALL_BOARDS[1], SMALL_BOARDS[2], SMALL_BOARDS[0]])


@pytest.mark.parametrize("board", REAL_GAME_BOARDS)
def test_real_game_bound_is_admissible_in_every_state(scowl, board):
    # Every state of the exhaustive search with no move limit (every play of the rules, not
    # only those of a class with K): the bound for the real game is never below its optimum.
    layout = Layout.from_line(board)
    exhaustive = Exhaustive(layout, scowl, max_moves=None)
    for (mask, played), value in exhaustive.states():
        points = sum(tally(word) for word in played)
        found = board_bound(layout, scowl, Rules(), None, mask, played, points)
        assert found.future >= value, (mask, played)


# Every state of the small boards, for K = 2 and (on two boards) K = 3: the first case is the
# fastest (its Q and X keep the game short); the others, with their thousands of states, take
# up to a minute.
CASES = [(board, MAX_MOVES) for board in (SMALL_BOARDS[1], SMALL_BOARDS[0], *SMALL_BOARDS[2:])]


@pytest.mark.parametrize(
    ("board", "max_moves"), slow_after([*CASES, *((board, 3) for board in SMALL_BOARDS[:2])])
)
def test_board_bound_is_admissible_in_every_state(scowl, board, max_moves):
    # The exhaustive optimum over the full class of plays with at most K moves (refills and
    # vacate-then-fill included), from every state reached: the bound for K, and the
    # letters-only bound (every play of the rules), are never below it.
    layout = Layout.from_line(board)
    exhaustive = Exhaustive(layout, scowl, max_moves=max_moves)
    for (mask, played), value in exhaustive.states():
        points = sum(tally(word) for word in played)
        for limit in (max_moves, None):
            found = board_bound(layout, scowl, Rules(), limit, mask, played, points)
            assert found.future >= value, (mask, played, limit)
            assert found.score == points + found.future


# Slow: the letters-only bound takes seconds a deal; test_cli's
# test_bound_json_unrestricted_is_looser checks the same on one deal.
@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_board_bound_is_tighter_with_the_board(scowl, seed):
    on_board = board_bound(deal(seed), scowl, max_moves=2)
    letters_only = board_bound(deal(seed), scowl, max_moves=None)
    assert on_board.score < letters_only.score
    assert on_board.candidates < letters_only.candidates
    assert on_board.longest <= letters_only.longest


@pytest.mark.parametrize("seed", slow_after(list(range(8))))
def test_board_bound_is_above_games_played(scowl, seed):
    # Along a game, the bound of every position (points so far included) is at least the
    # game's final score: what the rest of this game reached.
    layout = deal(seed)
    solution = solve(layout, "beam", max_moves=2, max_states=300, dictionary=scowl, bound=False)
    final = solution.score
    position = Position.start(layout)
    points = 0
    for index, turn in enumerate(solution.record.turns):
        if index % 3 == 0:
            found = board_bound(
                layout, scowl, Rules(), 2, position.remaining_mask, position.played, points
            )
            assert found.score >= final, (seed, index)
        position = apply_turn(position, turn)
        points += turn.score


def test_no_clear_without_a_u_for_the_q(scowl):
    layout = Layout.from_line(
        "......./......./..Q..../..LAT../......./..EOR../......./......./......."
    )
    found = board_bound(layout, scowl, max_moves=2)
    assert found.if_cleared is None
    assert found.score == found.if_not_cleared


def test_the_empty_board_is_worth_its_bonus(scowl):
    layout = Layout.from_line(
        "......./......./......./..CAT../......./......./......./......./......."
    )
    found = board_bound(layout, scowl, Rules(), 2, 0, ["CAT"], 12)
    assert found.future == 190 and found.score == 202


def test_too_many_placements_fall_back_to_words(scowl, monkeypatch):
    from solver.search import bound as bound_module

    placed = board_bound(deal(4), scowl, max_moves=2)
    words = board_bound(deal(4), scowl, max_moves=2, placed=False)
    monkeypatch.setattr(bound_module, "MAX_PLACEMENTS", placed.placements - 1)
    capped = board_bound(deal(4), scowl, max_moves=2)
    assert placed.placements > 0 and words.placements == 0
    assert capped == words
    assert words.score >= placed.score


def test_placements_survive_a_full_first_walk(scowl, monkeypatch):
    import solver.formable as formable_module

    layout = Layout.from_line(SMALL_BOARDS[3])
    wanted = np.ones(len(scowl), dtype=np.bool_)
    roomy = placements(layout, layout.tile_mask, scowl, Rules(), 2, wanted)
    monkeypatch.setattr(formable_module, "FIRST_CAPACITY", 3)
    cramped = placements(layout, layout.tile_mask, scowl, Rules(), 2, wanted)
    assert len(roomy[0]) > 3
    assert all(np.array_equal(a, b) for a, b in zip(roomy, cramped, strict=True))

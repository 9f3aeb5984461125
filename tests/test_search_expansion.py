"""The plays a search looks at with no move limit (:class:`solver.search.base.Expansion`), and
strategies run with no move limit."""

import numpy as np
import pytest

from solver.board import Layout
from solver.referee import check_record
from solver.rules import Rules
from solver.search.base import Expansion, Game, SearchContext
from solver.search.beam import BeamStrategy
from solver.solution import solve

#: Two low rows of tiles (13 tiles): every class of plays is generated in milliseconds.
LOW_ROWS = "......./......./......./......./......./......./......./OCIWEGA/EEERIH."


def _rows(plays) -> set[tuple[int, int, int]]:
    return set(
        zip(plays.word_ids.tolist(), plays.tiles.tolist(), plays.scores.tolist(), strict=True)
    )


def test_requests_widen_as_the_board_empties():
    expansion = Expansion(moves=3, best=32, wide_tiles=34, full_tiles=20)
    assert expansion.requests(None, 48) == ((3, None),)
    assert expansion.requests(None, 34) == ((3, None), (None, 32))
    assert expansion.requests(None, 21) == ((3, None), (None, 32))
    assert expansion.requests(None, 20) == ((None, None),)
    # A K-limited game at or below ``moves`` is generated in full at every size.
    assert expansion.requests(2, 48) == ((2, None),)
    assert expansion.requests(3, 48) == ((3, None),)
    assert expansion.requests(5, 30) == ((3, None), (5, 32))
    assert Expansion(moves=3, best=0, wide_tiles=34, full_tiles=20).requests(None, 30) == (
        (3, None),
    )


@pytest.mark.parametrize("moves", [0, 1, 2])
def test_bounded_expansion_with_enough_plays_equals_full_generation(scowl, moves):
    layout = Layout.parse(LOW_ROWS)
    game = Game(layout, scowl, Rules(), None)
    full = game.all_plays(layout.tile_mask)
    assert len(full) > 0
    # Never the whole class at this size: the K-limited plays plus the best N of the class.
    wide = Expansion(moves=moves, best=len(full), wide_tiles=48, full_tiles=0)
    assert wide.requests(None, layout.tile_count) == ((moves, None), (None, len(full)))
    bounded = game.plays_of(layout.tile_mask, wide)
    assert _rows(bounded) == _rows(full)
    # In the same order (best tally first, ties by word and tiles), one row per play.
    assert np.array_equal(bounded.word_ids, full.word_ids)
    assert np.array_equal(bounded.tiles, full.tiles)
    # With a smaller N, a subset holding every K-limited play and the N best of the class.
    narrow = game.plays_of(layout.tile_mask, Expansion(moves, 3, 48, 0))
    limited = Game(layout, scowl, Rules(), moves).all_plays(layout.tile_mask)
    assert _rows(limited) <= _rows(narrow) <= _rows(full)
    assert _rows(narrow) >= {row for row in _rows(full) if row[2] >= int(full.scores[2])}
    assert len(set(zip(narrow.word_ids.tolist(), narrow.tiles.tolist(), strict=True))) == len(
        narrow
    )


def test_plays_are_cached_per_expansion(scowl):
    layout = Layout.parse(LOW_ROWS)
    game = Game(layout, scowl, Rules(), None)
    narrow = Expansion(moves=1, best=2, wide_tiles=48, full_tiles=0)
    first = game.plays_of(layout.tile_mask, narrow)
    full = game.all_plays(layout.tile_mask)
    assert game.plays_of(layout.tile_mask, narrow) is first
    assert len(first) < len(full)


def test_the_context_generates_the_plays_of_its_expansion(scowl):
    layout = Layout.parse(LOW_ROWS)
    game = Game(layout, scowl, Rules(), None)
    context = SearchContext(game, None, 10, 0)
    context.expansion = Expansion(moves=0, best=0, wide_tiles=48, full_tiles=0)
    plays = context.plays(context.start_line())
    assert _rows(plays) == _rows(Game(layout, scowl, Rules(), 0).all_plays(layout.tile_mask))


@pytest.mark.parametrize("strategy", ["beam", "nrpa", "nmcs", "greedy", "auto"])
def test_strategies_with_no_move_limit_are_deterministic_and_legal(scowl, strategy):
    def run():
        return solve(LOW_ROWS, strategy, None, None, seed=3, max_states=60, bound=False)

    first, second = run(), run()
    assert first.record.search["max_moves"] is None
    assert first.record.to_dict()["turns"] == second.record.to_dict()["turns"]
    assert first.score == second.score
    verdict = check_record(first.record, scowl)
    assert verdict.ok, verdict.fault


def test_beam_with_the_long_words_does_at_least_as_well_as_with_few_moves(scowl):
    # Every play of the class at 13 tiles against plays of at most one move: the real game's
    # plays include the others', and this budget lets the beam see the whole small tree.
    real = BeamStrategy(BeamStrategy.Params())
    one_move = BeamStrategy(BeamStrategy.Params(moves=1, best=0, full_tiles=0))
    scores = [
        solve(LOW_ROWS, beam, None, None, max_states=400, bound=False).score
        for beam in (real, one_move)
    ]
    assert scores[0] >= scores[1]
    assert solve(LOW_ROWS, "greedy", None, None, max_states=400, bound=False).score <= scores[0]

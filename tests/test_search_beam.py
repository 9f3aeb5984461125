"""The ``beam`` strategy and the evaluation of remaining tiles it ranks lines by."""

import numpy as np
import pytest

from solver.board import Layout, deal
from solver.referee import check_record
from solver.rules import Rules, clear_bonus
from solver.search.base import Game, Line, SearchContext
from solver.search.beam import BeamStrategy
from solver.search.evaluation import (
    HARD_LETTERS,
    Q_WITHOUT_U,
    Evaluator,
    EvalWeights,
    evaluate_line,
    popcount,
)
from solver.solution import line_to_record, run_search, solve

from .conftest import WorkClock

#: A small custom board: CAT in the middle row, DOG and EMU in the bottom row.
SMALL = "......./......./......./......./..CAT../......./......./......./DOG.EMU"
#: Letters in square order from a1, for the evaluation tests.
EVAL_BOARD = "QUAEIOBCDY"


def _beam(**params):
    return BeamStrategy(BeamStrategy.Params(**params))


def _layout(letters: str) -> Layout:
    return Layout(letters + "." * (63 - len(letters)))


def _mask(layout: Layout, letters: str) -> int:
    """The mask of one tile for each of ``letters`` (the first such tiles in square order)."""
    mask = 0
    for letter in letters:
        sq = next(s for s, tile in layout.tiles() if tile == letter and not mask >> s & 1)
        mask |= 1 << sq
    return mask


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_beam_records_pass_the_referee_and_beat_greedy(scowl, seed):
    beam = solve(deal(seed), _beam(), time_limit=None, max_states=300, seed=0, bound=False)
    verdict = check_record(beam.record, scowl)
    assert verdict.ok, verdict.fault
    assert beam.score == beam.record.result.score
    assert beam.record.search["strategy"] == "beam"
    assert beam.record.search["params"]["width"] == BeamStrategy.Params().width
    greedy = solve(deal(seed), "greedy", time_limit=None, max_states=300, bound=False)
    # Never below greedy by construction (the greedy game is offered first); strictly above
    # on these deals, even at this small budget.
    assert beam.score > greedy.score


def test_beam_clears_a_small_custom_layout(scowl):
    solution = solve(
        Layout.from_line(SMALL), _beam(), max_states=100_000, dictionary=scowl, bound=False
    )
    assert check_record(solution.record, scowl).ok
    result = solution.record.result
    assert result.cleared and result.bonus == clear_bonus(result.rounds)
    # The board is small enough for a beam to see every position: the search ends by itself.
    assert solution.outcome.stop_reason == "finished"
    assert solution.outcome.states < 100_000


def test_same_seed_and_state_budget_give_the_same_record(scowl):
    runs = [
        solve(
            deal(4), _beam(width=2, growth=3), time_limit=None, max_states=250, seed=7, bound=False
        )
        for _ in range(2)
    ]
    first, second = (run.record.to_dict() for run in runs)
    for record in (first, second):  # times are the only part that may differ
        del record["search"]["seconds"], record["search"]["prepare_seconds"]
    assert first == second
    assert runs[0].outcome.states == runs[1].outcome.states


def test_a_single_beam_finishes_before_the_budget(scowl):
    game = Game(deal(5), scowl, Rules(), 2)
    context = SearchContext(game, None, 10_000, 0)
    _beam(width=3, growth=1, late=1).run(context)
    assert not context.stopped and context.best is not None
    # Three lines per ply, about eight plies, plus the greedy game.
    assert context.states < 50
    assert context.report.to_dict() == {"beams": 1, "widest_beam": 3}


def test_the_time_limit_holds(scowl):
    # A clock of 1 ms a state: the time limit of 0.3 s falls after 300 states.
    game = Game(deal(6), scowl, Rules(), 2)
    clock = WorkClock(seconds_per_state=0.001)
    outcome = run_search(game, _beam(), time_limit=0.3, on_context=clock.attach, clock=clock)
    assert outcome.stop_reason == "budget"
    # It reads the clock before every state, then plays its best lines to the end greedily
    # (a few states each, and only one once well past the limit).
    assert 300 <= outcome.states < 300 + 20
    assert check_record(line_to_record(game, outcome.line), scowl).ok


def test_a_board_without_plays_is_a_finished_game(scowl):
    solution = solve(_layout("QQXZ"), _beam(), max_states=1000, dictionary=scowl, bound=False)
    assert solution.record.turns == () and solution.score == -16
    assert solution.outcome.stop_reason == "finished"


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"width": 0}, "width must be between 1 and"),
        ({"branch": 0}, "branch must be between 1 and"),
        ({"late": 0}, "late must be between 1 and"),
        ({"finish": 0}, "finish must be between 1 and"),
        ({"max_width": -1}, "max_width must be between 0 and"),
        ({"growth": 0.5}, "growth must be between 1 and"),
        ({"width": 2.5}, "width must be a whole number"),
    ],
)
def test_params_are_checked(bad, message):
    with pytest.raises(ValueError, match=message):
        BeamStrategy.Params(**bad)


def test_the_weights_reach_the_evaluation():
    params = BeamStrategy.Params(points_weight=1.5, hard_weight=0.0)
    assert (params.weights.points_weight, params.weights.hard_weight) == (1.5, 0.0)


def test_popcount():
    values = np.array([0, 1, 5, (1 << 62) | 3, (1 << 63) - 1], dtype=np.int64)
    assert popcount(values).tolist() == [0, 1, 2, 3, 63]


def _only(**weights):
    """Weights that are all 0 but ``weights``."""
    return EvalWeights(**({name: 0.0 for name in EvalWeights.__dataclass_fields__} | weights))


def _features(evaluator, layout, *letter_sets, rounds=1):
    masks = np.array([_mask(layout, letters) for letters in letter_sets], dtype=np.int64)
    return evaluator.features(masks, rounds)


def test_a_q_without_u_is_penalised():
    layout = _layout(EVAL_BOARD)
    evaluator = Evaluator(layout, _only(hard_weight=1))
    f = _features(evaluator, layout, "QUAB", "QIAB", "UIAB")
    assert f["hard"].tolist() == [HARD_LETTERS["Q"], HARD_LETTERS["Q"] + Q_WITHOUT_U, 0]
    masks = np.array([_mask(layout, s) for s in ("QUAB", "QIAB", "UIAB")], dtype=np.int64)
    qu, q_alone, no_q = evaluator.evaluate(masks, 1)
    assert q_alone < qu < no_q


def test_more_leftover_vowels_cost_more():
    layout = _layout(EVAL_BOARD)
    f = _features(Evaluator(layout), layout, "BCD", "ABC", "AEI")
    # Tallied as one word: (1+1+1)×3, (2+1+1)×3, (2+2+2)×3.
    assert f["penalty"].tolist() == [9, 12, 18]
    assert f["points"].tolist() == [3, 4, 6]
    only_penalty = Evaluator(layout, _only(penalty_weight=1))
    masks = np.array([_mask(layout, s) for s in ("BCD", "ABC", "AEI")], dtype=np.int64)
    assert only_penalty.evaluate(masks, 1).tolist() == [-9, -12, -18]


def test_imbalance_counts_y_as_half_a_vowel():
    layout = _layout(EVAL_BOARD)
    f = _features(Evaluator(layout), layout, "BCDA", "BCDY", "BCDAE", "AEIO")
    assert f["imbalance"] == pytest.approx([0.4 * 4 - 1, 0.4 * 4 - 0.5, 0, 4 - 0.4 * 4])


def test_the_reachable_bonus_grows_as_the_board_empties():
    layout = _layout(EVAL_BOARD)
    f = _features(Evaluator(layout), layout, "ABCDE", "ABCDEI", rounds=3)
    # 5 tiles: one more round (200 - 40); 6 tiles: two more (200 - 50).
    assert f["bonus"].tolist() == [160, 150]
    evaluator = Evaluator(layout)
    assert evaluator.evaluate(np.array([0], dtype=np.int64), 7).tolist() == [clear_bonus(7)]


def test_evaluate_line_values_the_tiles_the_line_leaves(words):
    layout = _layout(EVAL_BOARD)
    game = Game(layout, words, Rules(), 2)
    start = Line.start(layout.tile_mask)
    points = _only(points_weight=1)
    # All ten tiles: 10 tiles + 5 vowels (Q U A E I O B C D Y: U A E I O).
    assert evaluate_line(game, start, points) == 15
    # After a (stand-in) play of Q and U, in one round: 8 tiles and 4 vowels left.
    line = start.then(0, _mask(layout, "QU"), 12)
    assert evaluate_line(game, line, points) == 12
    # The rounds count: with only the reachable bonus weighed, 8 tiles need two more words.
    bonus = _only(clear_weight=1)
    assert evaluate_line(game, line, bonus) == 200 - 10 * (1 + 2)
    # A line that clears the board is worth its bonus, whatever the weights.
    cleared = line.then(1, layout.tile_mask & ~_mask(layout, "QU"), 30)
    assert evaluate_line(game, cleared, points) == clear_bonus(2)

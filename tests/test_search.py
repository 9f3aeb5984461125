"""The search framework: the game as a search problem, budgets, greedy, solve() and the CLI."""

import json
import os
import signal

import pytest

from solver.board import Layout, Position, deal
from solver.budget import UNSET, Budget, search_budget
from solver.config import DEFAULT_TIME_LIMIT
from solver.movegen import generate_plays
from solver.referee import check_record
from solver.rules import Result, Rules
from solver.search import StrategyError, parse_strategy
from solver.search.base import Game, Line, SearchContext, Strategy
from solver.search.greedy import GreedyStrategy
from solver.solution import run_search, solve

from .conftest import WorkClock, run
from .naive import apply_turn

SMALL = "......./......./......./......./..CAT../......./......./......./......."


def test_all_plays_match_generate_plays(scowl):
    for seed in (1, 2):
        layout = deal(seed)
        game = Game(layout, scowl, Rules(), 1)
        plays = game.all_plays(layout.tile_mask)
        expected = generate_plays(layout, layout.tile_mask, scowl, Rules(), 1)
        got = {
            (game.word(int(w)), int(t), int(s))
            for w, t, s in zip(plays.word_ids, plays.tiles, plays.scores, strict=True)
        }
        assert got == {(p.word, p.tiles_mask, p.score) for p in expected}
        assert len(plays) == len(expected)
        assert list(plays.scores) == sorted(plays.scores, reverse=True)


def test_legal_plays_drop_played_words_and_cache_evicts(scowl):
    layout = deal(3)
    game = Game(layout, scowl, Rules(), 1, cache_rows=10)
    plays = game.all_plays(layout.tile_mask)
    first = int(plays.word_ids[0])
    legal = game.legal_plays(layout.tile_mask, frozenset({first}))
    assert first not in set(legal.word_ids.tolist())
    assert len(legal) == len(plays) - int((plays.word_ids == first).sum())
    line = Line.start(layout.tile_mask).then(first, int(plays.tiles[0]), int(plays.scores[0]))
    game.all_plays(line.mask)
    assert len(game._cache) == 1  # the first position was evicted: over 10 rows


def test_final_score_matches_result(scowl):
    layout = deal(4)
    game = Game(layout, scowl, Rules(), 1)
    context = SearchContext(game, None, 1000, 0)
    line = context.complete_greedily(context.start_line())
    position = Position.start(layout)
    for word_id, tiles, _ in line.plays:
        position = position.after(game.word(word_id), tiles)
    words = [game.word(word_id) for word_id, _, _ in line.plays]
    assert game.final_score(line) == Result.of_game(words, position.remaining_letters()).score
    cleared = Line((), 0, 100)
    assert game.final_score(cleared) == 100 + 200
    assert (
        game.leftover_tally(layout.tile_mask)
        == Result.of_game([], position.layout.letters.replace(".", "")).penalty
    )


def test_budget_in_states(scowl):
    game = Game(deal(5), scowl, Rules(), 1)
    context = SearchContext(game, None, 3, 0)
    line = context.start_line()
    for _ in range(3):
        assert not context.stopped
        context.plays(line)
    assert context.stopped and context.states == 3


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_greedy_plays_the_best_tally_and_passes_the_referee(scowl, seed):
    solution = solve(
        deal(seed), "greedy", time_limit=None, max_states=1000, max_moves=2, bound=False
    )
    record = solution.record
    verdict = check_record(record, scowl)
    assert verdict.ok, verdict.fault
    assert solution.score == record.result.score
    position = Position.start(record.board)
    for turn in record.turns:
        best = generate_plays(
            record.board, position.remaining_mask, scowl, Rules(), 2, position.played
        )
        assert turn.score == best[0].score
        position = apply_turn(position, turn)
    assert (
        generate_plays(record.board, position.remaining_mask, scowl, Rules(), 2, position.played)
        == []
    )
    assert record.search["strategy"] == "greedy" and record.search["max_moves"] == 2


def test_solve_a_custom_layout_to_a_clear(scowl):
    solution = solve(Layout.from_line(SMALL), "greedy", max_states=100, bound=False)
    assert check_record(solution.record, scowl).ok
    assert solution.record.result.cleared
    assert solution.score == solution.record.result.word_points + solution.record.result.bonus


class _Idle(Strategy):
    name = "idle"

    def run(self, context):
        while not context.stopped:
            context.plays(context.start_line())


class _Interrupts(Strategy):
    name = "interrupts"

    def run(self, context):
        os.kill(os.getpid(), signal.SIGINT)
        while not context.stopped:
            context.plays(context.start_line())


def test_a_strategy_that_offers_nothing_still_gets_a_game(scowl):
    game = Game(deal(6), scowl, Rules(), 1)
    outcome = run_search(game, _Idle(), time_limit=None, max_states=5)
    assert outcome.stop_reason == "budget" and outcome.line.rounds > 0
    assert outcome.states > 5  # the greedy completion is counted too


def test_ctrl_c_stops_the_search_and_keeps_a_game(scowl):
    game = Game(deal(6), scowl, Rules(), 1)
    clock = WorkClock(seconds_per_state=0.001)  # the time limit is 30,000 states away
    outcome = run_search(game, _Interrupts(), time_limit=30, on_context=clock.attach, clock=clock)
    assert outcome.stop_reason == "interrupted"
    # Stopped at once: no state but the greedy completion of the empty line (a turn each).
    assert outcome.states <= outcome.line.rounds + 1
    assert outcome.line.rounds > 0
    # The handler is restored afterwards.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_parse_strategy():
    assert isinstance(parse_strategy("greedy"), GreedyStrategy)
    for spec, message in [
        ("zigzag", "unknown strategy 'zigzag'"),
        ("greedy:depth=3", "unknown parameter 'depth'"),
        ("greedy:depth", "is not key=value"),
    ]:
        with pytest.raises(StrategyError, match=message):
            parse_strategy(spec)


def test_run_search_needs_a_budget(scowl):
    with pytest.raises(ValueError, match="needs a time limit"):
        run_search(Game(deal(1), scowl, Rules(), 1), GreedyStrategy(), None, None)


def test_the_budget_rule():
    # A time limit not given is the default, unless a state budget is given.
    assert search_budget() == Budget(DEFAULT_TIME_LIMIT, None)
    assert search_budget(UNSET, 500) == Budget(None, 500)
    assert search_budget(2.5) == Budget(2.5, None)
    assert search_budget(2.5, 500) == Budget(2.5, 500)
    assert search_budget(None, 500) == Budget(None, 500)
    assert Budget(2.5, 1000).parts() == ["2.5 s", "1,000 states"]
    with pytest.raises(ValueError, match="needs a time limit, a state budget or both"):
        search_budget(None)


def test_solve_follows_the_budget_rule(scowl):
    # The Python API and the command line apply the same rule.
    alone = solve(deal(2), "greedy", max_states=50, dictionary=scowl, bound=False)
    assert (alone.record.search["time_limit"], alone.record.search["max_states"]) == (None, 50)
    default = solve(deal(2), "greedy", dictionary=scowl, bound=False)
    assert (default.record.search["time_limit"], default.record.search["max_states"]) == (
        DEFAULT_TIME_LIMIT,
        None,
    )
    both = solve(deal(2), "greedy", time_limit=5.0, max_states=50, dictionary=scowl, bound=False)
    assert (both.record.search["time_limit"], both.record.search["max_states"]) == (5.0, 50)


def test_cli_solve(runner, tmp_path):
    out = tmp_path / "game.json"
    result = run(
        runner, "solve", "--random", 1, "--strategy", "greedy", "--max-states", 500, "--json", out
    )
    assert result.exit_code == 0, result.output
    assert "Turn 1:" in result.output and "Result" in result.output
    assert (
        "Search: greedy, K=all (any number of moves)" in result.output
        and f"Record written to {out}" in result.output
    )
    record = json.loads(out.read_text())
    assert record["board"] == deal(1).to_line()
    # --max-states alone: no time limit (the rule of solver.budget).
    assert (record["search"]["max_states"], record["search"]["time_limit"]) == (500, None)
    check = run(runner, "check", out)
    assert check.exit_code == 0 and "legal game" in check.output
    board = run(runner, "solve", SMALL, "--strategy", "greedy", "--quiet", "--no-bound")
    assert board.exit_code == 0 and "bonus" in board.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve"], "give one of a BOARD, --random SEED or --after RECORD"),
        (["solve", SMALL, "--random", "3"], "give one of a BOARD, --random SEED or --after RECORD"),
        (["solve", "--random", "1", "--strategy", "nope"], "unknown strategy 'nope'"),
        (["solve", "--random", "1", "--time-limit", "0"], "--time-limit"),
        (["solve", "--random", "1", "--max-moves", "-2"], "--max-moves"),
    ],
)
def test_cli_solve_usage_errors(runner, args, message):
    result = run(runner, *args)
    assert result.exit_code == 2 and message in result.output


def test_package_level_solve_api(scowl):
    import solver

    solution = solver.solve(deal(7).to_line(), strategy="greedy", max_states=100, bound=False)
    assert isinstance(solution, solver.Solution)
    assert solution.record.board == deal(7)
    assert check_record(solution.record, scowl).ok


def test_auto_chooses_from_the_table():
    from solver.search.auto import CHOICES, STATES_PER_SECOND, choose

    assert choose(10.0, None) == next(spec for limit, spec in CHOICES if limit >= 10.0)
    # A state budget is compared at a fixed rate, so the choice is the same on every machine.
    assert choose(None, int(10 * STATES_PER_SECOND)) == choose(10.0, None)
    assert choose(1e9, 10) == choose(10 / STATES_PER_SECOND, None)
    solution = solve(deal(8), "auto", time_limit=None, max_states=300, bound=False)
    assert solution.record.search["strategy"] == "auto"
    assert solution.record.search["chosen"] == choose(None, 300)


def test_the_registry_holds_every_strategy_and_the_help_lists_it(runner):
    from solver.search import STRATEGIES, register

    assert list(STRATEGIES) == ["greedy", "beam", "dfs", "exact", "nrpa", "nmcs", "auto"]
    for name, cls in STRATEGIES.items():
        assert cls.name == name and cls.summary
        assert isinstance(cls().new_report(), cls.Report)
    help_text = " ".join(run(runner, "solve", "-h").output.split())
    assert ", ".join(STRATEGIES) in help_text

    class Impostor(Strategy):
        name = "beam"

    with pytest.raises(ValueError, match="two strategies are named 'beam'"):
        register(Impostor)


#: Rows 1 and 2 of the example deal, 13 tiles: small enough for every strategy with no limit.
LOW_ROWS = "......./......./......./......./......./......./......./OCIWEGA/EEERIH."


@pytest.mark.parametrize("strategy", ["greedy", "beam", "dfs", "exact", "nrpa", "nmcs", "auto"])
def test_every_strategy_plays_with_no_move_limit(scowl, strategy):
    # max_moves=None is the real game: every play of the full class. The bound is then the
    # letters-only bound.
    solution = solve(LOW_ROWS, strategy, None, None, max_states=30, dictionary=scowl)
    assert check_record(solution.record, scowl).ok
    assert solution.record.search["max_moves"] is None
    assert solution.bound is not None and solution.score <= solution.bound


def test_cli_solve_and_bound_with_no_move_limit(runner):
    args = ["--max-moves", "all", "--max-states", "20", "--strategy", "greedy", "--quiet"]
    result = run(runner, "solve", LOW_ROWS, *args)
    assert result.exit_code == 0, result.output
    assert "K=all" in result.output
    result = run(runner, "bound", LOW_ROWS, "--max-moves", "all")
    assert result.exit_code == 0, result.output
    assert "letters only" in result.output

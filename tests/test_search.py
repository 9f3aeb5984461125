"""The search framework: the game as a search problem, budgets, greedy, solve() and the CLI."""

import json
import os
import signal

import pytest
from click.testing import CliRunner

from solver.board import Layout, Position, deal
from solver.cli import cli
from solver.dictionary import Dictionary
from solver.movegen import generate_plays
from solver.referee import check_record
from solver.rules import Result, Rules
from solver.search import StrategyError, parse_strategy
from solver.search.base import Game, Line, SearchContext, Strategy
from solver.search.greedy import GreedyStrategy
from solver.solution import run_search, solve

SMALL = "......./......./......./......./..CAT../......./......./......./......."


@pytest.fixture(scope="module")
def scowl():
    return Dictionary.default()


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


def test_budget_in_states():
    game = Game(deal(5), Dictionary.default(), Rules(), 1)
    context = SearchContext(game, None, 3, 0)
    line = context.start_line()
    for _ in range(3):
        assert not context.stopped
        context.plays(line)
    assert context.stopped and context.states == 3


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_greedy_plays_the_best_tally_and_passes_the_referee(scowl, seed):
    solution = solve(deal(seed), "greedy", time_limit=None, max_states=1000, max_moves=2)
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
        position = position.after(turn.word, sum(1 << sq for sq in _origins(position, turn)))
    assert (
        generate_plays(record.board, position.remaining_mask, scowl, Rules(), 2, position.played)
        == []
    )
    assert record.search["strategy"] == "greedy" and record.search["max_moves"] == 2


def _origins(position, turn):
    from solver.render import tiles_after_moves

    tile_at = tiles_after_moves(position, turn)
    return [tile_at[sq] for sq in turn.path]


def test_solve_a_custom_layout_to_a_clear(scowl):
    solution = solve(Layout.from_line(SMALL), "greedy", time_limit=5)
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
    outcome = run_search(game, _Interrupts(), time_limit=30)
    assert outcome.stop_reason == "interrupted" and outcome.seconds < 10
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


def test_cli_solve(tmp_path):
    runner = CliRunner()
    out = tmp_path / "game.json"
    result = runner.invoke(
        cli,
        [
            "solve",
            "--random",
            "1",
            "--strategy",
            "greedy",
            "--max-states",
            "500",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Turn 1:" in result.output and "Result" in result.output
    assert "Search: greedy, K=2" in result.output and f"Record written to {out}" in result.output
    record = json.loads(out.read_text())
    assert record["board"] == deal(1).to_line() and record["search"]["max_states"] == 500
    check = runner.invoke(cli, ["check", str(out)])
    assert check.exit_code == 0 and "legal game" in check.output
    board = runner.invoke(cli, ["solve", SMALL, "--strategy", "greedy", "--quiet"])
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
def test_cli_solve_usage_errors(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and message in result.output


def test_package_level_solve_api():
    import solver

    solution = solver.solve(deal(7).to_line(), strategy="greedy", time_limit=5.0)
    assert isinstance(solution, solver.Solution)
    assert solution.score == solution.record.result.score
    assert check_record(solution.record, Dictionary.default()).ok


def test_auto_chooses_from_the_table():
    from solver.search.auto import CHOICES, STATES_PER_SECOND, choose

    assert choose(10.0, None) == next(spec for limit, spec in CHOICES if limit >= 10.0)
    # A state budget is compared at a fixed rate, so the choice is the same on every machine.
    assert choose(None, int(10 * STATES_PER_SECOND)) == choose(10.0, None)
    assert choose(1e9, 10) == choose(10 / STATES_PER_SECOND, None)
    solution = solve(deal(8), "auto", time_limit=None, max_states=300)
    assert solution.record.search["strategy"] == "auto"
    assert solution.record.search["chosen"] == choose(None, 300)


def test_the_registry_holds_every_strategy_and_the_help_lists_it():
    from click.testing import CliRunner

    from solver.cli import cli
    from solver.search import STRATEGIES, register
    from solver.search.base import Strategy

    assert list(STRATEGIES) == ["greedy", "beam", "dfs", "exact", "nrpa", "nmcs", "auto"]
    for name, cls in STRATEGIES.items():
        assert cls.name == name and cls.summary
        assert isinstance(cls().new_report(), cls.Report)
    help_text = " ".join(CliRunner().invoke(cli, ["solve", "-h"]).output.split())
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


def test_cli_solve_and_bound_with_no_move_limit():
    runner = CliRunner()
    args = ["--max-moves", "all", "--max-states", "20", "--strategy", "greedy", "--quiet"]
    result = runner.invoke(cli, ["solve", LOW_ROWS, *args])
    assert result.exit_code == 0, result.output
    assert "K=all" in result.output
    result = runner.invoke(cli, ["bound", LOW_ROWS, "--max-moves", "all"])
    assert result.exit_code == 0, result.output
    assert "letters only" in result.output

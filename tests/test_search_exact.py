"""The ``exact`` strategy: proven optima on small layouts (against a plain exhaustive search),
the "not proven" flag at the budget, and the bound and gap every solve writes."""

import json

import pytest

from solver.board import Layout, deal, read_board
from solver.record import Record
from solver.referee import check_record
from solver.search import StrategyError, parse_strategy
from solver.search.bound import board_bound
from solver.search.exact import ExactParams
from solver.solution import solve

from .conftest import REPOSITORY
from .naive import SMALL_BOARDS, Exhaustive

SUITE = REPOSITORY / "benchmarks" / "small"


def small_suite(*numbers):
    return [read_board(str(SUITE / f"small-{number:02d}.txt")) for number in numbers]


@pytest.mark.parametrize(
    "layout",
    [Layout.from_line(board) for board in SMALL_BOARDS] + small_suite(1, 2),
    ids=lambda layout: layout.to_line(),
)
def test_exact_proves_the_exhaustive_optimum(scowl, layout):
    optimum = Exhaustive(layout, scowl).optimum()
    solution = solve(layout, "exact", None, 2, max_states=100_000, dictionary=scowl)
    search = solution.record.search
    assert solution.score == optimum
    assert search["proven"] is True and search["upper_bound"] == optimum
    assert solution.bound == optimum and search["bound"] == optimum and search["gap"] == 1.0
    assert solution.outcome.stop_reason == "finished"
    assert search["board_bound"] >= optimum
    assert check_record(solution.record, scowl).ok


# The real game: exhaustive search with no move limit takes a few seconds on the first board
# (its Q and X end the game early), 20 s to 3 minutes on the others.
@pytest.mark.parametrize(
    "board",
    [
        SMALL_BOARDS[1],
        *(pytest.param(b, marks=pytest.mark.slow) for b in (SMALL_BOARDS[2], SMALL_BOARDS[0])),
    ],
)
def test_exact_proves_the_exhaustive_optimum_of_the_real_game(scowl, board):
    layout = Layout.from_line(board)
    optimum = Exhaustive(layout, scowl, max_moves=None).optimum()
    solution = solve(
        layout, "exact", time_limit=None, max_moves=None, max_states=100_000, dictionary=scowl
    )
    search = solution.record.search
    assert solution.score == optimum and search["max_moves"] is None
    assert search["proven"] is True and search["upper_bound"] == optimum
    assert check_record(solution.record, scowl).ok


def test_exact_without_the_board_agrees_but_searches_more(scowl):
    layout = small_suite(4)[0]
    with_board = solve(layout, "exact", None, 2, max_states=100_000, dictionary=scowl)
    letters_only = solve(layout, "exact:board=0", None, 2, max_states=100_000, dictionary=scowl)
    assert with_board.record.search["proven"] and letters_only.record.search["proven"]
    assert with_board.score == letters_only.score
    assert with_board.outcome.states < letters_only.outcome.states


def test_exact_stops_at_the_budget_unproven(scowl):
    solution = solve(deal(5), "exact", None, 2, max_states=40, dictionary=scowl)
    search = solution.record.search
    assert solution.outcome.stop_reason == "budget"
    assert search["proven"] is False
    assert search["upper_bound"] > solution.score
    assert search["bound"] == min(search["upper_bound"], search["board_bound"])
    assert check_record(solution.record, scowl).ok


def test_exact_searches_every_child():
    with pytest.raises(ValueError, match="branch must be between 0 and 0, not 5"):
        ExactParams(branch=5)
    with pytest.raises(StrategyError, match="branch must be between 0 and 0, not 3"):
        parse_strategy("exact:branch=3")


@pytest.mark.parametrize("strategy", ["greedy", "beam", "dfs", "nrpa", "nmcs", "auto"])
def test_every_solve_is_below_its_bound(scowl, strategy):
    for seed in (11, 12):
        solution = solve(deal(seed), strategy, None, 2, max_states=150, dictionary=scowl)
        search = solution.record.search
        assert solution.bound is not None and solution.bound >= solution.score
        assert search["bound"] == solution.bound
        assert search["gap"] == round(solution.score / solution.bound, 4)
        assert search["bound_for"].startswith("plays with at most")


def test_the_bound_can_be_skipped(scowl):
    solution = solve(deal(1), "greedy", max_states=5, bound=False)
    assert solution.bound is None and solution.gap is None
    assert "bound" not in solution.record.search


def _optima():
    return json.loads((SUITE / "optima.json").read_text())


#: The classes of plays benchmarks/small/optima.json holds optima for, by key: K = 2, and no
#: move limit (the real game).
CLASSES = {"2": 2, "all": None}


def test_the_small_suite_optima_are_real_games_under_the_bound(scowl):
    # benchmarks/small/optima.json holds, per layout of the suite and class of plays, the
    # optimum `exact` proved (benchmarks/bench_small.py) with its game: every game must be
    # legal in its class (and finished: the referee runs the generator on its end) and score
    # its optimum, the bound of every layout must be at least that, and the real game's
    # optimum at least K = 2's (it allows every play K = 2 does).
    optima = _optima()
    assert sorted(optima) == [path.stem for path in sorted(SUITE.glob("*.txt"))]
    for name, by_class in optima.items():
        assert set(by_class) <= set(CLASSES) and "2" in by_class, name
        for key, entry in by_class.items():
            record = Record.from_dict(entry["record"])
            assert record.board == read_board(str(SUITE / f"{name}.txt"))
            assert record.search["max_moves"] == CLASSES[key] and record.search["proven"]
            verdict = check_record(record, scowl)
            assert verdict.ok, (name, key, verdict.fault)
            assert verdict.result.score == entry["optimum"]
            bound = board_bound(record.board, scowl, max_moves=CLASSES[key])
            assert bound.score >= entry["optimum"], (name, key)
        if "all" in by_class:
            assert by_class["all"]["optimum"] >= by_class["2"]["optimum"], name


@pytest.mark.parametrize(
    ("name", "key"),
    [
        *(("small-03", "2"), ("small-12", "2"), ("small-19", "2")),
        *(("small-23", "2"), ("small-28", "2")),
        *(("small-20", "all"), ("small-21", "all"), ("small-29", "all")),
    ],
)
def test_exact_proves_the_recorded_optimum_again(scowl, name, key):
    solution = solve(
        read_board(str(SUITE / f"{name}.txt")),
        "exact",
        time_limit=None,
        max_moves=CLASSES[key],
        max_states=100_000,
        dictionary=scowl,
    )
    assert solution.record.search["proven"] is True
    assert solution.score == _optima()[name][key]["optimum"]

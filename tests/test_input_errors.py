"""Issue 11's defects, one regression test each: bad input gets a one-line error and the right
exit code, never a traceback, a hang or a lost file; games in progress work everywhere."""

import json
import math
import tracemalloc

import click
import pytest

from solver import solution
from solver.board import deal
from solver.cli import SECONDS
from solver.record import Record
from solver.rules import Rules

from .conftest import REPOSITORY, TEST_WORDS, run
from .conftest import assert_one_line_error as assert_error

SEED = 1


@pytest.fixture
def game_file(tmp_path):
    """A short real game of the deal of seed 1, and the same game cut after 2 turns."""
    found = solution.solve(deal(SEED), "greedy", time_limit=None, max_states=20, bound=False)
    whole = tmp_path / "game.json"
    found.record.save(whole)
    data = json.loads(whole.read_text())
    data["turns"] = data["turns"][:2]
    del data["result"], data["search"]
    for turn in data["turns"]:
        del turn["score"]
    progress = tmp_path / "progress.json"
    progress.write_text(json.dumps(data))
    return whole, progress


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-5", "ten"])
def test_time_limit_must_be_finite_and_positive(runner, value):
    result = run(runner, "solve", "--random", SEED, "--time-limit", value)
    assert_error(result, 2, "--time-limit")


@pytest.mark.parametrize("text", ["nan", "inf", "1e400", "0", "-1", "", "x", "0x10"])
def test_seconds_option_type_refuses_what_is_not_a_finite_positive_number(text):
    with pytest.raises(click.BadParameter, match="seconds"):
        SECONDS.convert(text, None, None)
    assert SECONDS.convert("2.5", None, None) == 2.5


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("beam:growth=nan", "growth must be a finite number, not nan"),
        ("beam:growth=inf", "growth must be a finite number, not inf"),
        ("beam:growth=-2", "growth must be between 1 and 1000, not -2"),
        ("beam:growth=0.5", "growth must be between 1 and 1000, not 0.5"),
        ("nrpa:window=nan", "window must be a finite number"),
        ("nmcs:temperature=nan", "temperature must be a finite number"),
        ("nrpa:level=1000000", "level must be between 1 and 4, not 1e+06"),
        ("nrpa:alpha=0", "alpha must be > 0, not 0"),
        ("beam:width=1,width=2", "parameter 'width' given twice"),
        ("beam:width=2.5", "not a valid int"),
        ("dfs:order=sideways", "order must be one of tally, bound"),
        ("dfs:tt_size=1000000000", "tt_size must be between 0 and 2e+07"),
        ("exact:branch=3", "branch must be between 0 and 0"),
    ],
)
def test_strategy_parameters_are_checked_alike(runner, spec, message):
    result = run(runner, "solve", "--random", SEED, "--strategy", spec)
    assert_error(result, 2, message)


def test_record_whose_dictionary_sha256_is_not_a_string(runner, tmp_path, game_file):
    whole, _ = game_file
    data = json.loads(whole.read_text())
    data["dictionary"]["sha256"] = 5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    for args in (["check", bad], ["plays", "--after", bad], ["bound", "--after", bad]):
        assert_error(run(runner, *args), 1, "dictionary: sha256 must be a string, not a number")


def test_bag_of_absurd_size_is_refused_at_once(runner, tmp_path):
    bag = tmp_path / "bag.txt"
    bag.write_text("E 99999999999\n")
    tracemalloc.start()
    try:
        result = run(runner, "generate", "--seed", 1, "--letters", bag)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert_error(result, 1, "bag.txt line 1: more than 1,000,000 tiles in the bag")
    assert peak < 10_000_000  # refused before a bag of 10^11 tiles is made


@pytest.mark.parametrize("option", ["board", "record", "dict"])
def test_huge_files_are_refused_without_being_read(runner, tmp_path, option):
    huge = tmp_path / "huge"
    with open(huge, "wb") as out:
        out.truncate(2 << 30)  # 2 GB, sparse: no disk space, and nothing to read
    args = {
        "board": ["plays", huge],
        "record": ["check", huge],
        "dict": ["plays", deal(1).to_line(), "--dict", huge],
    }[option]
    assert_error(run(runner, *args), 1, "too large for a")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"max_states": -5}, ValueError, "max_states must be >= 1, not -5"),
        ({"max_states": 0}, ValueError, "max_states must be >= 1, not 0"),
        ({"max_states": 1.5}, TypeError, "max_states must be a whole number"),
        ({"time_limit": 0}, ValueError, "time_limit must be a finite number of seconds > 0"),
        ({"time_limit": -5}, ValueError, "time_limit must be a finite number"),
        ({"time_limit": math.nan}, ValueError, "time_limit must be a finite number"),
        ({"time_limit": "10"}, TypeError, "time_limit must be a number of seconds"),
        ({"time_limit": None}, ValueError, "a time limit, a state budget or both"),
        ({"max_moves": -1}, ValueError, "max_moves must be >= 0, not -1"),
        ({"rules": {"min_moves": 1}}, TypeError, "rules must be a solver.rules.Rules, not dict"),
        ({"dictionary": 5}, TypeError, "dictionary must be a Dictionary, a word-list path"),
        ({"seed": -1}, ValueError, "seed must be a whole number >= 0"),
        ({"rules": Rules(min_moves=3), "max_moves": 2}, ValueError, "no turn is possible"),
    ],
)
def test_python_api_refuses_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        solution.solve(deal(SEED), "greedy", **kwargs)


def test_python_api_takes_a_word_list_path(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(TEST_WORDS))
    found = solution.solve(deal(SEED), "greedy", max_states=5, dictionary=str(words), bound=False)
    assert found.record.dictionary["name"] == "words"


@pytest.mark.parametrize("command", ["solve", "plays", "bound"])
def test_min_moves_above_max_moves_is_refused(runner, command):
    args = [command, deal(SEED).to_line(), "--min-moves", 3, "--max-moves", 2]
    assert_error(run(runner, *args), 2, "no turn is possible")


def test_unwritable_output_is_refused_before_the_search(runner, tmp_path, monkeypatch):
    searched = []
    monkeypatch.setattr(solution, "run_search", lambda *args, **kw: searched.append(1))
    result = run(runner, "solve", "--random", SEED, "--json", tmp_path / "missing" / "x.json")
    assert_error(result, 2, "does not exist")
    assert_error(run(runner, "solve", "--random", SEED, "--json", tmp_path), 2, "a folder")
    assert_error(run(runner, "solve", "--random", SEED, "--json", ""), 2, "empty")
    assert_error(run(runner, "solve", "--random", SEED, "--json", "/dev/null"), 2, "device")
    assert searched == []


def test_game_in_progress_with_check_plays_bound_and_solve(runner, tmp_path, game_file):
    whole, progress = game_file
    record = Record.load(progress)
    assert record.in_progress
    points = sum(turn["score"] for turn in json.loads(whole.read_text())["turns"][:2])
    result = run(runner, "check", progress)
    assert result.exit_code == 0, result.output
    assert f"game in progress: 2 turns, {points} points so far" in result.output
    assert run(runner, "plays", "--after", progress, "--top", 1).exit_code == 0
    bound = run(runner, "bound", "--after", progress)
    assert bound.exit_code == 0 and f"points so far        {points:>5}" in bound.output
    out = tmp_path / "continued.json"
    solved = run(runner, "solve", "--after", progress, "--max-states", 30, "--quiet", "--json", out)
    assert solved.exit_code == 0, solved.output
    continued = Record.load(out)
    assert continued.turns[:2] == record.turns  # kept as played (no scores written back)
    assert continued.result is not None and len(continued.turns) > 2
    assert run(runner, "check", out).exit_code == 0


def test_solve_after_an_illegal_game_names_the_turn(runner, tmp_path, game_file):
    _, progress = game_file
    data = json.loads(progress.read_text())
    data["turns"][1]["word"] = "ZZZZ"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert_error(run(runner, "solve", "--after", bad, "--max-states", 5), 1, "turn 2:")


def test_board_and_after_together_are_refused(runner, game_file):
    _, progress = game_file
    for command in ("plays", "bound", "solve"):
        result = run(runner, command, deal(SEED).to_line(), "--after", progress)
        assert_error(result, 2, "--after RECORD")


def test_show_warns_about_an_illegal_record_and_still_shows_it(runner, tmp_path, game_file):
    whole, _ = game_file
    data = json.loads(whole.read_text())
    data["turns"][0]["score"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run(runner, "show", bad)
    assert result.exit_code == 0
    assert "warning: " in result.output and "an illegal game: turn 1: the score is" in result.output
    assert "Turn 1:" in result.output and "Result" in result.output


def test_show_in_progress_and_odd_inputs(runner, tmp_path, game_file):
    _, progress = game_file
    assert "Game in progress: 2 turns" in run(runner, "show", progress).output
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    result = run(runner, "show", notes)
    assert_error(result, 1, "notes.txt: neither a game record (JSON) nor a board")
    eight = "/".join(deal(SEED).to_line().split("/")[:8])
    assert_error(run(runner, "show", eight), 1, "a board needs 9 rows, found 8")
    ten = deal(SEED).to_line() + "/......."
    assert_error(run(runner, "show", ten), 1, "a board needs 9 rows, found 10")
    assert_error(run(runner, "show", ""), 1, "an empty board")


def test_same_fault_same_exit_code_in_every_command(runner, tmp_path):
    board = deal(SEED).to_line()
    for args in (["check", tmp_path], ["show", tmp_path], ["plays", tmp_path]):
        assert_error(run(runner, *args), 1, "a directory")
    for dict_path in (tmp_path / "missing.txt", tmp_path, ""):
        assert run(runner, "plays", board, "--dict", dict_path).exit_code == 1


def test_letters_sources_in_any_case(runner):
    upper = run(runner, "generate", "--seed", 3, "--letters", "UNIFORM")
    assert upper.exit_code == 0
    assert upper.output == run(runner, "generate", "--seed", 3, "--letters", "uniform").output
    assert upper.output != run(runner, "generate", "--seed", 3).output


def test_messages_use_singular_and_plural(runner, tmp_path, game_file):
    whole, _ = game_file
    data = json.loads(whole.read_text())
    data["turns"] = data["turns"][:1]
    del data["result"]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(data))
    assert "game in progress: 1 turn," in run(runner, "check", one).output


def test_bound_help_names_a_readme_section_that_exists(runner):
    readme = (REPOSITORY / "README.md").read_text()
    help_text = " ".join(run(runner, "bound", "-h").output.split())
    assert 'the README\'s section "letterchess bound"' in help_text
    assert "### `letterchess bound`" in readme


def test_kernels_are_prepared_before_the_search_clock_starts(monkeypatch):
    events = []
    prepare = solution.prepare_kernels

    def recorded_prepare(game):
        prepare(game)
        events.append("prepared")

    monkeypatch.setattr(solution, "prepare_kernels", recorded_prepare)
    phases = []
    solution.solve(
        deal(SEED),
        "greedy",
        max_states=5,
        on_context=lambda context: events.append("clock started"),
        on_phase=phases.append,
    )
    # The search's context (whose clock starts when it is made) comes after the kernels.
    assert events == ["prepared", "clock started"]
    assert phases == ["preparing kernels", "searching", "computing the bound"]


def test_status_line_says_what_the_solve_is_doing(scowl):
    from solver.progress import _Status
    from solver.search.base import Game, SearchContext

    status = _Status("beam")
    game = Game(deal(SEED), scowl, Rules(), 2)
    status.context = SearchContext(game, None, 300, 0)
    status.context.states = 309
    status.phase = "computing the bound"
    assert status.__rich__().plain == "beam: computing the bound..."
    status.phase = "searching"
    assert "states 309 / 300" in status.__rich__().plain


def test_the_time_limit_stops_a_costly_generation_of_every_play():
    # dfs looks at every play of the real game; on a full deal one generation takes seconds.
    # Under a clock that passes a second at every reading, the first generation is stopped
    # at its first poll (not finished and cached), and the game is finished greedily with
    # the cheap plays: a legal, complete game.
    from solver.dictionary import Dictionary
    from solver.search import parse_strategy
    from solver.search.base import Game

    ticks = iter(range(1_000_000))
    game = Game(deal(SEED), Dictionary.default(), Rules(), None)
    outcome = solution.run_search(
        game, parse_strategy("dfs"), time_limit=1.0, clock=lambda: float(next(ticks))
    )
    assert outcome.stop_reason == "budget"
    assert (game.start_mask, ((None, None),)) not in game._cache
    record = solution.line_to_record(game, outcome.line)
    from solver.referee import check_record

    assert check_record(record, game.dictionary).ok

"""Shared fixtures and helpers: the example board, a small word list, the default dictionary
(loaded once per session), the command line, and a clock for searches that counts work
instead of seconds. The plain implementations the kernels are checked against are in
``naive.py``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from click.testing import Result as CliResult

from solver.board import Layout, Position
from solver.cli import cli
from solver.dictionary import Dictionary
from solver.record import Record
from solver.render import tiles_after_moves
from solver.rules import Result, Rules, tally
from solver.search import STRATEGIES
from solver.search.base import Expansion, SearchContext, Strategy, StrategyParams

#: The board at the top of the README: a standard deal of 48 tiles, rows 9 down to 1, with the
#: middle row empty and tiles on b, d and f beside it. ``data/example-game.json`` plays it.
EXAMPLE_BOARD = "LIVNODI/IEQFSEW/NRTUKIO/.E.J.L./......./.U.O.H./TPTURDL/OCIWEGA/EEERIHN"

#: Enough words for the hand-made games in the tests (the real default list is tested apart).
TEST_WORDS = [
    "her", "ret", "ire", "tie", "tin", "ten", "net", "toe", "rot", "hen", "eel", "err",
    "ewe", "gel", "leg", "tee", "cat", "murals", "ore", "roe", "ode", "due", "rod", "hoe",
]  # fmt: skip

#: Files the tests read, found from here whatever the working directory.
DATA = Path(__file__).resolve().parent / "data"
EXAMPLE_GAME = DATA / "example-game.json"
REPOSITORY = Path(__file__).resolve().parent.parent


def turn(
    word: str, path: list[str], moves: list[tuple[str, str]] = (), score: int | None = None
) -> dict:
    """A turn of a record, squares by name: ``turn("TIE", ["c3", "c2", "b1"])``."""
    return {
        "moves": [list(m) for m in moves],
        "path": list(path),
        "word": word,
        "score": tally(word) if score is None else score,
    }


#: Turns of the example board: f4 vacated by the H and refilled by the E in one turn; a path
#: that bends.
HER_REFILL = turn("HER", ["g5", "f4", "e3"], moves=[("f4", "g5"), ("e2", "f4")])
TIE = turn("TIE", ["c3", "c2", "b1"])


def make_record(
    turns: list[dict],
    board: str = EXAMPLE_BOARD,
    rules: Rules | None = None,
    finished: bool = True,
    search: dict | None = None,
    **result_changes,
) -> Record:
    """A record of ``turns`` (dicts with square names, see :func:`turn`) whose result is what
    the turns, applied as written (legal or not), leave; ``result_changes`` then spoil chosen
    result fields. Not ``finished``: a game in progress, with no result (the referee checks
    that a finished game that leaves tiles could not go on). ``search``: the record's search
    section (its ``max_moves`` names the class of plays the game was played in)."""
    layout = Layout.parse(board)
    position = Position.start(layout)
    for data in turns:
        record_turn = Record.from_dict(
            {
                "format": "letterchess/record-1",
                "board": board,
                "rules": {},
                "turns": [data],
                "result": Result.of_game([], "").to_dict(),
            }
        ).turns[0]
        tile_at = tiles_after_moves(position, record_turn)
        removed = sum(1 << tile_at[sq] for sq in record_turn.path if sq in tile_at)
        position = Position(layout, position.remaining_mask & ~removed, position.played)
    result = Result.of_game([t["word"] for t in turns], position.remaining_letters()).to_dict()
    result.update(result_changes)
    data = {
        "format": "letterchess/record-1",
        "board": board,
        "rules": (rules or Rules()).to_dict(),
        "turns": turns,
        "result": result if finished else None,
    }
    if search is not None:
        data["search"] = search
    return Record.from_dict(data)


@pytest.fixture
def example_layout() -> Layout:
    return Layout.from_line(EXAMPLE_BOARD)


@pytest.fixture(scope="session")
def words() -> Dictionary:
    """A dictionary of :data:`TEST_WORDS`."""
    return Dictionary.from_words(TEST_WORDS, name="test-words")


@pytest.fixture(scope="session")
def scowl() -> Dictionary:
    """The default dictionary (SCOWL-70), loaded once for the whole session."""
    return Dictionary.default()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: object) -> CliResult:
    """``letterchess ARGS...`` through click's runner; exceptions other than click's own
    propagate (a traceback is a failure of the test, not an output to look at)."""
    return runner.invoke(cli, [str(arg) for arg in args], catch_exceptions=False)


def assert_one_line_error(result: CliResult, code: int, text: str) -> None:
    """The command failed with exit ``code`` and one ``Error:`` line holding ``text``, and no
    traceback."""
    assert result.exit_code == code, result.output
    assert text in result.output, result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(error_lines) == 1, result.output
    assert "Traceback" not in result.output


class WorkClock:
    """A fake clock for :class:`SearchContext` (``clock=``) that counts work, not seconds: it
    reads ``seconds_per_state`` times the states the search has expanded. A time limit then
    stops a search after a fixed number of states, the same on every machine and under any
    load, so a test can check that a strategy heeds its time limit without timing it.

    Pass :meth:`attach` as ``on_context`` to :func:`solver.solution.run_search`.
    """

    def __init__(self, seconds_per_state: float = 0.001) -> None:
        self.seconds_per_state = seconds_per_state
        self.context: SearchContext | None = None

    def attach(self, context: SearchContext) -> None:
        self.context = context

    def __call__(self) -> float:
        return 0.0 if self.context is None else self.context.states * self.seconds_per_state


@dataclass
class RankParams(StrategyParams):
    rank: int = 2


class RankStrategy(Strategy):
    """``test-rank``: each turn the rank-th best tally (the last one when there are fewer
    plays), a second strategy besides ``greedy`` whose games differ from greedy's."""

    name = "test-rank"
    Params = RankParams

    def run(self, context: SearchContext) -> None:
        context.expansion = Expansion()  # with no move limit, the cheap plays only
        line = context.start_line()
        while True:
            plays = context.plays(line)
            if len(plays) == 0:
                break
            i = min(self.params.rank, len(plays)) - 1
            line = line.then(int(plays.word_ids[i]), int(plays.tiles[i]), int(plays.scores[i]))
        context.offer(line)


@pytest.fixture
def rank_strategy(monkeypatch: pytest.MonkeyPatch) -> None:
    """``test-rank`` registered in this process (so runs solve it with ``--workers 0``)."""
    monkeypatch.setitem(STRATEGIES, RankStrategy.name, RankStrategy)

"""The web app's JSON API through Starlette's TestClient: answers, the same results as the
command line, solves with progress and stop, and a 4xx with a JSON error for every bad input."""

import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from solver.board import Layout, Position, deal
from solver.cli import cli
from solver.record import Record, Turn
from solver.referee import IllegalTurn, check_record, check_turn
from solver.rules import Rules
from solver.solution import solve
from solver.squares import parse_square
from solver.web.app import create_app

from .conftest import EXAMPLE_BOARD

LIKES = {"moves": [], "path": ["f6", "f7", "e7", "f8", "e8"]}
#: Turn 1 of the example game: T c7-c4, then RECEIPTOR.
RECEIPTOR = {
    "moves": [["c7", "c4"]],
    "path": ["d1", "c1", "b2", "b1", "c2", "b3", "c4", "d4", "e3"],
}


def example_game():
    """The record of the example game (RULES.md section 7) as a JSON object."""
    return json.loads((Path(__file__).parent / "data" / "example-game.json").read_text())


@pytest.fixture(scope="module")
def client(scowl):
    with TestClient(create_app(scowl, workers=1)) as test_client:
        yield test_client


def post(client, path, body, status=200):
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_info(client):
    info = client.get("/api/info").json()
    assert info["dictionary"] == {"name": "scowl-70", "words": 111474}
    assert [s["name"] for s in info["strategies"]][:2] == ["greedy", "beam"]
    assert info["standard_pattern"].split("/")[4] == "......."
    assert info["vowels"] == "AEIOU" and info["limits"]["max_moves"] == 3


def test_board_parses_both_forms_and_deals_by_seed(client):
    line = post(client, "/api/board", {"board": EXAMPLE_BOARD})
    assert line["board"] == EXAMPLE_BOARD and line["tiles"] == 48
    assert line["text"] == Layout.from_line(EXAMPLE_BOARD).to_text()
    assert line["svg"].startswith("<svg")
    text = "# a comment\n" + Layout.from_line(EXAMPLE_BOARD).to_text().lower()
    assert post(client, "/api/board", {"board": text})["board"] == EXAMPLE_BOARD
    assert post(client, "/api/board", {"seed": 7})["board"] == deal(7).to_line()


BAD_REQUESTS = [
    ("/api/board", {}, 400, "give the board"),
    ("/api/board", {"board": "ABC"}, 400, "a board needs 9 rows, found 1"),
    ("/api/board", {"board": EXAMPLE_BOARD.replace("L", "1", 1)}, 400, "'1' is not a letter"),
    ("/api/board", {"board": 12}, 400, "give the board"),
    ("/api/board", {"board": "A" * 5000}, 400, "far too long"),
    ("/api/board", {"seed": -1}, 400, "seed must be between 0"),
    ("/api/board", {"seed": "one"}, 400, "seed must be an integer"),
    ("/api/plays", {"board": EXAMPLE_BOARD, "max_moves": 9}, 400, "max_moves must be between 0 and 3"),
    ("/api/plays", {"board": EXAMPLE_BOARD, "top": 0}, 400, "top must be between 1"),
    ("/api/plays", {"board": EXAMPLE_BOARD, "rules": {"word_shape": "zigzag"}}, 400, "word_shape"),
    ("/api/plays", {"board": EXAMPLE_BOARD, "rules": {"colour": 1}}, 400, "unknown rule option"),
    ("/api/plays", {"board": EXAMPLE_BOARD, "turns": "x"}, 400, "turns must be a list"),
    ("/api/plays", {"board": EXAMPLE_BOARD, "rules": {"min_moves": 2}, "max_moves": 1}, 400,
     "no turn is possible"),
    ("/api/plays", {"board": EXAMPLE_BOARD, "turns": [{"path": ["z1"]}]}, 400, "unknown square 'z1'"),
    ("/api/plays", {"board": EXAMPLE_BOARD, "turns": [{"path": ["a9", "b9", "c9"]}]}, 400,
     "turn 1: LIV is not in the dictionary (scowl-70)"),
    ("/api/play", {"board": EXAMPLE_BOARD, "moves": [["a1"]], "path": []}, 400, "[from, to] pairs"),
    ("/api/play", {"board": EXAMPLE_BOARD, "path": "a1"}, 400, "path must be a list"),
    ("/api/bound", {"board": EXAMPLE_BOARD, "unrestricted": "yes"}, 400, "true or false"),
    ("/api/check", {}, 400, "not a game record (no 'format' field)"),
    ("/api/check", {"format": "letterchess/record-1"}, 400, "missing field 'board'"),
    ("/api/solve", {"board": EXAMPLE_BOARD, "strategy": "nope"}, 400, "unknown strategy 'nope'"),
    ("/api/solve", {"board": EXAMPLE_BOARD, "strategy": "beam:width=x"}, 400, "width"),
    ("/api/solve", {"board": EXAMPLE_BOARD, "strategy": 3}, 400, "strategy must be a name"),
    ("/api/solve", {"board": EXAMPLE_BOARD, "time_limit": 0}, 400, "time_limit must be above 0"),
    ("/api/solve", {"board": EXAMPLE_BOARD, "time_limit": 1e9}, 400, "at most 300 seconds"),
    ("/api/solve", {"board": EXAMPLE_BOARD, "time_limit": "ten"}, 400, "must be a number"),
    ("/api/solve", {"board": EXAMPLE_BOARD, "max_states": 10**12}, 400, "max_states must be between"),
    ("/api/solve", {"board": "x/y"}, 400, "a board needs 9 rows"),
]  # fmt: skip


@pytest.mark.parametrize("path, body, status, message", BAD_REQUESTS)
def test_bad_input_gets_a_4xx_with_a_json_error(client, path, body, status, message):
    response = client.post(path, json=body)
    assert response.status_code == status
    assert message in response.json()["error"]


def test_bad_bodies_and_unknown_places(client):
    for body, message in (
        (b"{not json", "not JSON"),
        (b"[1, 2]", "must be a JSON object"),
        (b"[" * 100_000, "nests too deep"),
    ):
        response = client.post("/api/board", content=body)
        assert response.status_code == 400 and message in response.json()["error"]
    nan = client.post(
        "/api/solve", content=b'{"board": "%s", "time_limit": NaN}' % EXAMPLE_BOARD.encode()
    )
    assert nan.status_code == 400 and "number of seconds" in nan.json()["error"]
    big = client.post("/api/board", content=b" " * 300_000)
    assert big.status_code == 413 and "over 262,144 bytes" in big.json()["error"]
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/nothing").json() == {"error": "/api/nothing: Not Found"}
    assert (
        client.get("/api/board").status_code == 405 and "error" in client.get("/api/board").json()
    )
    missing = client.get("/api/solve/nojob")
    assert missing.status_code == 404 and "no solve 'nojob'" in missing.json()["error"]


def test_play_is_judged_by_the_referee_with_its_exact_reason(client, scowl):
    legal = post(client, "/api/play", {"board": EXAMPLE_BOARD, **LIKES})
    assert legal["legal"] and legal["turn"] == {**LIKES, "word": "LIKES", "score": 35}
    assert legal["game"]["points"] == 35 and legal["game"]["tiles_left"] == 43
    layout = Layout.from_line(EXAMPLE_BOARD)
    for turn in (
        {"moves": [], "path": ["a9", "b9", "c9"]},  # not a word
        {"moves": [["b6", "b5"]], "path": ["b5", "a9"]},  # a vowel moved like a king
        {"moves": [["c7", "c4"]], "path": ["a9", "b9"]},  # a moved tile left out of the word
    ):
        illegal = post(client, "/api/play", {"board": EXAMPLE_BOARD, **turn})
        assert not illegal["legal"]
        expected = Turn(
            tuple((parse_square(a), parse_square(b)) for a, b in turn["moves"]),
            tuple(parse_square(sq) for sq in turn["path"]),
            illegal["turn"]["word"],
            illegal["turn"]["score"],
        )
        with pytest.raises(IllegalTurn) as referee:
            check_turn(layout, Position.start(layout), expected, Rules(), scowl)
        assert illegal["reason"] == str(referee.value)
    # A word given with the turn must be the one the path spells.
    wrong = post(client, "/api/play", {"board": EXAMPLE_BOARD, **LIKES, "word": "LIKED"})
    assert wrong["reason"] == "the path spells LIKES, not LIKED"


def test_a_game_in_progress_and_its_record(client, scowl):
    game = post(client, "/api/game", {"board": EXAMPLE_BOARD, "turns": [RECEIPTOR, LIKES]})
    assert [t["word"] for t in game["turns"]] == ["RECEIPTOR", "LIKES"]
    assert game["points"] == 152 and game["rounds"] == 2 and not game["over"]
    # A game in progress is recorded without a result, and the referee checks it as such.
    record = Record.from_dict(game["record"])
    assert record.in_progress and "result" not in game["record"]
    assert check_record(record, scowl).ok
    verdict = post(client, "/api/check", game["record"])
    assert verdict["legal"] and verdict["in_progress"] and verdict["points"] == 152
    assert verdict["message"] == "game in progress, every turn legal"
    # The whole example game: over, with its result.
    over = post(client, "/api/game", example_game())
    assert over["over"] and over["result"]["score"] == 414
    assert over["record"]["result"]["score"] == 414
    assert post(client, "/api/check", over["record"])["message"] == "legal game"


def test_check_finds_the_first_fault(client):
    example = example_game()
    example["turns"][2]["score"] = 1
    verdict = post(client, "/api/check", example)
    assert not verdict["legal"]
    assert verdict["fault"] == {"turn": 3, "reason": "the score is 1, but UTERINE tallies 77"}


def test_plays_are_those_of_plays_after(client, tmp_path):
    game = post(client, "/api/game", {"board": EXAMPLE_BOARD, "turns": [LIKES]})
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(game["record"]))
    cli_plays = CliRunner().invoke(
        cli, ["plays", "--after", str(saved), "--top", "7", "--json", "--max-moves", "2"]
    )
    assert cli_plays.exit_code == 0, cli_plays.output
    request = {"board": EXAMPLE_BOARD, "turns": [LIKES], "top": 7, "max_moves": 2}
    answer = post(client, "/api/plays", request)
    assert answer["plays"] == json.loads(cli_plays.output)
    assert answer["count"] > 7 and answer["max_moves"] == 2
    assert all(play["word"] != "LIKES" for play in answer["plays"])


def test_bound_is_that_of_bound_json(client):
    cli_bound = CliRunner().invoke(cli, ["bound", EXAMPLE_BOARD, "--max-moves", "1", "--json"])
    answer = post(client, "/api/bound", {"board": EXAMPLE_BOARD, "max_moves": 1})
    assert answer == {**json.loads(cli_bound.output), "points_so_far": 0}
    after = post(client, "/api/bound", {"board": EXAMPLE_BOARD, "turns": [LIKES], "max_moves": 1})
    assert after["points_so_far"] == 35 and after["bound"] <= answer["bound"]


def test_position_draws_a_turn_in_the_making(client):
    answer = post(
        client,
        "/api/position",
        {
            "board": EXAMPLE_BOARD,
            "moves": [["c7", "c4"]],
            "path": RECEIPTOR["path"][:3],
            "marked": ["b2"],
        },
    )
    assert answer["word"] == "REC"
    svg = answer["svg"]
    assert 'data-move="c7-c4"' in svg and 'data-path="d1 c1 b2"' in svg and 'class="mark"' in svg


def test_replay_data_and_html(client):
    example = example_game()
    data = post(client, "/api/replay", example)
    assert len(data["steps"]) == 9 and data["result"][-1]["value"] == "414"
    in_progress = post(client, "/api/replay", {"board": EXAMPLE_BOARD, "turns": [LIKES]})
    assert [s["label"] for s in in_progress["steps"]] == ["Start", "Turn 1", "End"]
    page = client.post("/api/replay.html", json=example)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "attachment" in page.headers["content-disposition"] and "UTERINE" in page.text


def wait_until_done(client, job, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        progress = client.get(f"/api/solve/{job}").json()
        if progress["state"] != "running":
            return progress
        time.sleep(0.1)
    raise AssertionError(f"solve {job} still running after {seconds} s")


def test_solve_streams_progress_and_ends_with_the_record(client, scowl):
    settings = {
        "board": EXAMPLE_BOARD,
        "strategy": "beam",
        "max_states": 40,
        "seed": 3,
        "max_moves": 2,
    }
    started = post(client, "/api/solve", settings, status=202)
    with client.stream("GET", started["events"]) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        events = [json.loads(line[6:]) for line in stream.iter_lines() if line.startswith("data: ")]
    assert events[-1]["state"] == "done" and all(e["state"] == "running" for e in events[:-1])
    result = events[-1]["result"]
    # The same game as solver.solve with the same settings: the same code, deterministic.
    direct = solve(EXAMPLE_BOARD, "beam", None, 2, 3, scowl, max_states=40, bound=False)
    assert result["score"] == direct.score
    assert result["record"]["turns"] == [t.to_dict() for t in direct.record.turns]
    assert result["bound"] >= result["score"] and result["gap"] == result["score"] / result["bound"]
    assert result["record"]["search"]["gap"] == round(result["gap"], 4)
    assert result["replay"]["search"][0]["value"].startswith("beam")
    assert post(client, "/api/check", result["record"])["legal"]


def test_a_solve_can_be_stopped_and_only_one_runs_per_worker(client):
    long_solve = {"board": EXAMPLE_BOARD, "strategy": "beam", "time_limit": 120}
    job = post(client, "/api/solve", long_solve, status=202)["job"]
    busy = client.post("/api/solve", json=long_solve)
    assert busy.status_code == 429 and "already running" in busy.json()["error"]
    # A long solve does not hold up other requests.
    started = time.monotonic()
    post(client, "/api/plays", {"board": EXAMPLE_BOARD, "top": 1})
    assert time.monotonic() - started < 10
    assert client.get(f"/api/solve/{job}").json()["state"] == "running"
    post(client, f"/api/solve/{job}/stop", {})
    done = wait_until_done(client, job)
    assert (
        done["state"] == "done" and done["result"]["record"]["search"]["stopped"] == "interrupted"
    )
    assert done["seconds"] < 60
    # Its place is free again.
    again = post(
        client, "/api/solve", {"board": EXAMPLE_BOARD, "strategy": "greedy", "max_states": 5}, 202
    )
    assert wait_until_done(client, again["job"])["state"] == "done"


def test_only_the_loopback_names_are_served_when_asked(scowl):
    app = create_app(scowl, allowed_hosts=["127.0.0.1", "localhost"])
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/api/info").status_code == 200
    assert TestClient(app, base_url="http://rebound.example").get("/api/info").status_code == 400


def test_the_page_and_its_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name in ("app.js", "app.css", "replay.js", "replay.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_serve_reports_a_port_in_use():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--no-browser"])
    assert result.exit_code == 1
    assert (
        f"cannot listen on 127.0.0.1:{port}" in result.output and "Traceback" not in result.output
    )


def test_ctrl_c_stops_the_server_and_its_solves_cleanly():
    server = subprocess.Popen(
        [sys.executable, "-m", "solver", "serve", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = re.search(r"http://\S+/", server.stdout.readline()).group(0)
        request = urllib.request.Request(
            url + "api/solve",
            data=json.dumps(
                {"board": EXAMPLE_BOARD, "strategy": "beam", "time_limit": 120}
            ).encode(),
        )
        job = json.loads(urllib.request.urlopen(request, timeout=30).read())
        events = urllib.request.urlopen(url + job["events"][1:], timeout=60)
        assert events.readline().startswith(b"event: ")
        started = time.monotonic()
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    finally:
        server.kill()
    # The open event stream ends with the best game so far, the solve stops, and the process
    # exits at once, neither waiting out the solve nor aborting in its middle.
    last = [line for line in events.read().decode().splitlines() if line.startswith("data: ")][-1]
    assert json.loads(last[6:])["result"]["record"]["search"]["stopped"] == "interrupted"
    assert server.returncode == 0 and out.endswith("Stopped.\n")
    assert time.monotonic() - started < 15
    assert "Traceback" not in err and "Aborted" not in err


def test_the_real_game_is_the_default_and_all_is_accepted(client):
    request = {"board": EXAMPLE_BOARD, "turns": [LIKES], "top": 3}
    default = post(client, "/api/plays", request)
    named = post(client, "/api/plays", {**request, "max_moves": "all"})
    assert default["max_moves"] is None and named == default
    # The bounded mode: only the best ``top`` are generated, best tally first.
    assert default["count"] == len(default["plays"]) == 3
    limited = post(client, "/api/plays", {**request, "max_moves": 2})
    assert limited["max_moves"] == 2 and limited["count"] > 3
    assert default["plays"][0]["score"] >= limited["plays"][0]["score"]
    game = post(client, "/api/game", {"board": EXAMPLE_BOARD, "turns": [LIKES]})
    assert game["max_moves"] is None and game["over"] is False

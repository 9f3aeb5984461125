"""Reading and writing game records; every malformed record gets a one-line error."""

import json
import re

import pytest

from solver.record import FORMAT, Record, RecordError

from .conftest import EXAMPLE_BOARD


def good():
    return {
        "format": FORMAT,
        "board": EXAMPLE_BOARD,
        "rules": {"word_shape": "path", "min_word_length": 3, "min_moves": 0, "moves_per_tile": 1},
        "dictionary": {"name": "test-words", "words": 24, "sha256": "00" * 32},
        "turns": [
            {
                "moves": [["f4", "g5"], ["e2", "f4"]],
                "path": ["g5", "f4", "e3"],
                "word": "HER",
                "score": 12,
            },
        ],
        "result": {
            "rounds": 1,
            "word_points": 12,
            "cleared": False,
            "bonus": 0,
            "penalty": 1,
            "remaining": "X",
            "score": 11,
        },
        "search": {"strategy": "greedy", "params": {}},
    }


def test_round_trip():
    record = Record.from_dict(good())
    assert record.turns[0].moves == ((26, 34), (11, 26))
    assert record.turns[0].path == (34, 26, 18)
    again = Record.from_json(record.to_json())
    assert again == record
    assert json.loads(record.to_json()) == good()


def test_extra_fields_are_kept():
    data = good()
    data["comment"] = "played by hand"
    assert Record.from_dict(data).to_dict()["comment"] == "played by hand"


def test_optional_parts():
    data = good()
    del data["dictionary"], data["search"]
    del data["turns"][0]["moves"]
    record = Record.from_dict(data)
    assert record.dictionary is None and record.turns[0].moves == ()


def spoil(change):
    data = good()
    change(data)
    return data


CASES = [
    (lambda d: d.pop("turns"), "rec.json: missing field 'turns'"),
    (lambda d: d.pop("board"), "rec.json: missing field 'board'"),
    (
        lambda d: d.update(format="letterchess/record-0"),
        "format is 'letterchess/record-0', expected",
    ),
    (lambda d: d.update(board="ABC"), "rec.json: board: a board needs 9 rows, found 1"),
    (
        lambda d: d.update(board=EXAMPLE_BOARD.replace("TPTURDL", "TPT-RDL")),
        "board row 3, square d3: '-'",
    ),
    (lambda d: d.update(board=5), "board must be a string"),
    (
        lambda d: d["rules"].update(word_shape="zigzag"),
        "rec.json: rules: word_shape must be one of",
    ),
    (lambda d: d["rules"].update(bishops=True), "rec.json: rules: unknown rule option 'bishops'"),
    (lambda d: d.update(turns={}), "turns must be a list"),
    (lambda d: d["turns"][0]["moves"].append(["h1", "a1"]), "turn 1, move 3: unknown square 'h1'"),
    (
        lambda d: d["turns"][0]["moves"].append(["a1"]),
        "turn 1, move 3: a move is a pair [from, to]",
    ),
    (lambda d: d["turns"][0]["path"].append("a0"), "turn 1, path square 4: unknown square 'a0'"),
    (lambda d: d["turns"][0]["path"].append(7), "turn 1, path square 4: a square is a name"),
    (lambda d: d["turns"][0].pop("word"), "turn 1: missing field 'word'"),
    (lambda d: d["turns"][0].update(score="12"), "turn 1: score must be an integer, not a string"),
    (lambda d: d["turns"][0].update(word=["H"]), "turn 1: word must be a string"),
    (lambda d: d["turns"].append(3), "turn 2: a turn is an object, not a number"),
    (lambda d: d["result"].pop("score"), "result: missing field 'score'"),
    (
        lambda d: d["result"].update(cleared="no"),
        "result: cleared must be true/false, not a string",
    ),
    (lambda d: d["result"].update(rounds=1.5), "result: rounds must be an integer, not a number"),
    (lambda d: d.update(dictionary="scowl"), "dictionary must be an object"),
    (
        lambda d: d["dictionary"].update(sha256=5),
        "rec.json: dictionary: sha256 must be a string, not a number",
    ),
    (lambda d: d["dictionary"].update(words="many"), "dictionary: words must be an integer"),
    (lambda d: d.update(format=None), "rec.json: format is null, expected 'letterchess/record-1'"),
    (lambda d: d.pop("format"), "rec.json: not a game record (no 'format' field)"),
    (lambda d: d.update(rules=None), "rec.json: rules: rules must be an object, not null"),
]


@pytest.mark.parametrize(("change", "message"), CASES)
def test_malformed_records(change, message):
    with pytest.raises(RecordError, match=re.escape(message)) as error:
        Record.from_json(json.dumps(spoil(change)), source="rec.json")
    assert "\n" not in str(error.value)


def test_a_game_in_progress_has_no_result_and_may_leave_out_scores():
    data = good()
    del data["result"]
    del data["turns"][0]["score"]
    record = Record.from_json(json.dumps(data), source="rec.json")
    assert record.in_progress and record.result is None
    assert record.turns[0].score is None
    written = json.loads(record.to_json())
    assert "result" not in written and "score" not in written["turns"][0]
    assert Record.from_json(record.to_json()) == record
    assert not Record.from_json(json.dumps(good())).in_progress


def test_oversized_and_odd_record_files(tmp_path):
    from solver.inputs import MAX_RECORD_BYTES

    huge = tmp_path / "huge.json"
    with open(huge, "wb") as out:
        out.truncate(MAX_RECORD_BYTES + 1)  # sparse: no disk space used
    with pytest.raises(RecordError, match=r"huge.json: larger than 16 MB, too large for a record"):
        Record.load(huge)
    with pytest.raises(RecordError, match="a directory, not a record file"):
        Record.load(tmp_path)
    with pytest.raises(RecordError, match="an empty name is not a record file"):
        Record.load("")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{\n"board": "caf\xe9"}')
    with pytest.raises(RecordError, match=r"latin.json line 2: not UTF-8 text"):
        Record.load(latin)


def test_not_json(tmp_path):
    with pytest.raises(RecordError, match=r"rec.json: not JSON \(line 1, column 2"):
        Record.from_json("{oops", source="rec.json")
    with pytest.raises(RecordError, match="a record is a JSON object, not a list"):
        Record.from_json("[]", source="rec.json")
    with pytest.raises(RecordError, match="no such record file"):
        Record.load(tmp_path / "missing.json")

"""Property tests of every reader: whatever the input, a reader returns a value or raises the
project's own error for that input, never anything else (a crash would be a traceback for the
user)."""

import json

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.board import BoardError, Layout, read_bag, read_board
from solver.cli import SECONDS
from solver.dictionary import Dictionary, DictionaryError
from solver.record import Record, RecordError
from solver.search import StrategyError, parse_strategy

from .conftest import EXAMPLE_BOARD

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True)

#: Text made mostly of the characters boards and records are made of, so that the examples get
#: past the first check.
board_text = st.text(alphabet=st.sampled_from("ABEIOUXZ.abz/\n# 9-"), max_size=120)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@SETTINGS
@given(board_text | st.text(max_size=80))
def test_board_reader(text):
    for read in (Layout.parse, read_board):
        try:
            layout = read(text)
        except BoardError as error:
            assert "\n" not in str(error)
        else:
            assert Layout.parse(layout.to_line()) == layout


@SETTINGS
@given(st.integers(0, 62), st.sampled_from("AZ.-3 é/"))
def test_board_reader_with_one_square_changed(square, char):
    rows = EXAMPLE_BOARD.split("/")
    row, col = 8 - square // 7, square % 7
    rows[row] = rows[row][:col] + char + rows[row][col + 1 :]
    try:
        layout = Layout.parse("/".join(rows))
    except BoardError as error:
        assert "\n" not in str(error)
        assert char not in "AZ."  # a letter or an empty square is a board
    else:
        assert layout[square] == (None if char == "." else char)


def _good_record() -> dict:
    return {
        "format": "letterchess/record-1",
        "board": EXAMPLE_BOARD,
        "rules": {"word_shape": "path"},
        "dictionary": {"name": "x", "words": 3, "sha256": "00"},
        "turns": [{"moves": [["f4", "g5"]], "path": ["g5", "f4", "e3"], "word": "HER"}],
        "result": {
            "rounds": 1,
            "word_points": 12,
            "cleared": False,
            "bonus": 0,
            "penalty": 5,
            "remaining": "AB",
            "score": 7,
        },
    }


@SETTINGS
@given(json_values)
def test_record_reader_on_any_json(value):
    try:
        record = Record.from_json(json.dumps(value))
    except RecordError as error:
        assert "\n" not in str(error)
    else:
        assert Record.from_json(record.to_json()) == record


@SETTINGS
@given(
    st.sampled_from(["format", "board", "rules", "dictionary", "turns", "result", "search"]),
    st.sampled_from([None, "moves", "path", "word", "score", "rounds", "sha256", "remaining"]),
    json_values,
)
def test_record_reader_with_one_field_changed(key, inner, value):
    data = _good_record()
    target = data.get(key)
    if isinstance(target, list) and target and isinstance(target[0], dict) and inner:
        target[0][inner] = value
    elif isinstance(target, dict) and inner:
        target[inner] = value
    else:
        data[key] = value
    try:
        record = Record.from_json(json.dumps(data))
    except RecordError as error:
        assert "\n" not in str(error)
    else:
        assert Record.from_json(record.to_json()) == record


@SETTINGS
@given(st.binary(max_size=200))
def test_record_reader_on_any_bytes(raw):
    try:
        record = Record.from_json(raw.decode("utf-8", errors="replace"))
    except RecordError as error:
        assert "\n" not in str(error)
    else:
        assert Record.from_json(record.to_json()) == record


@SETTINGS
@given(st.text(alphabet=st.sampled_from("AEZae 0123456789#\n\t-x"), max_size=60))
def test_bag_reader(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("bag") / "bag.txt"
    path.write_text(text, encoding="utf-8")
    try:
        bag = read_bag(str(path))
    except BoardError as error:
        assert "\n" not in str(error)
    else:
        assert sum(bag.values()) > 0 and all(len(letter) == 1 for letter in bag)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_word_list_reader(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("words") / "words.txt"
    path.write_bytes(raw)
    try:
        dictionary = Dictionary.from_file(path)
    except DictionaryError as error:
        assert "\n" not in str(error)
    else:
        assert len(dictionary) > 0


@SETTINGS
@given(st.text(alphabet=st.sampled_from("beamdfsnrpcx:=,.0123456789-_ widthgrowlvn"), max_size=40))
def test_strategy_spec_reader(spec):
    try:
        strategy = parse_strategy(spec)
    except StrategyError as error:
        assert "\n" not in str(error)
    else:
        assert strategy.name in spec


@SETTINGS
@given(st.text(max_size=20) | st.floats().map(str) | st.integers().map(str))
def test_seconds_option(text):
    try:
        seconds = SECONDS.convert(text, None, None)
    except click.BadParameter:
        pass
    else:
        assert 0 < seconds < float("inf")


@pytest.mark.parametrize("spec", ["beam:width=3", "nrpa:level=2,alpha=0.5", "dfs:order=bound"])
def test_strategy_spec_reader_accepts_good_specs(spec):
    assert parse_strategy(spec).name == spec.split(":")[0]

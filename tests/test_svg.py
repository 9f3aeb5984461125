"""SVG boards (solver.svg), their Jupyter forms, and the HTML replay of `show --html`."""

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.board import Layout, Position
from solver.cli import cli
from solver.play import Play
from solver.record import Record
from solver.render import position_after_turn
from solver.squares import parse_square, square_name
from solver.svg import board_svg, turn_svg
from solver.web.replay import record_replay_data, replay_data, replay_html

from .conftest import EXAMPLE_BOARD

DATA = Path(__file__).parent / "data"
GOLDEN = DATA / "svg"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def record():
    return Record.load(DATA / "example-game.json")


def parse(svg):
    """The SVG as an element tree: it must be well-formed XML in the SVG namespace."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def squares(root):
    """data-square -> its <g> element."""
    return {g.get("data-square"): g for g in root.iter(f"{SVG}g") if g.get("data-square")}


def tiles(root):
    """data-square -> the classes of the tile standing there."""
    found = {}
    for name, g in squares(root).items():
        for rect in g.iter(f"{SVG}rect"):
            if "tile" in (rect.get("class") or "").split():
                found[name] = set(rect.get("class").split())
    return found


def letters(root):
    """The big letters drawn, in document order (the point values are the small texts)."""
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "letters")
    return [t.text for t in group.iter(f"{SVG}text") if t.get("font-size") == "21"]


def test_layout_board_is_well_formed_with_every_square_and_tile(example_layout):
    root = parse(board_svg(example_layout))
    assert len(squares(root)) == 63
    drawn = tiles(root)
    assert set(drawn) == {square_name(sq) for sq, _ in example_layout.tiles()}
    for name, classes in drawn.items():
        letter = example_layout[parse_square(name)]
        assert ("vowel" if letter in "AEIOU" else "consonant") in classes
    assert sorted(letters(root)) == sorted(letter for _, letter in example_layout.tiles())
    # The squares the standard pattern leaves empty are told apart from the others.
    kinds = {name: g.get("class").split()[1] for name, g in squares(root).items()}
    assert {name for name, kind in kinds.items() if kind == "gap"} == {
        *(f"{c}5" for c in "abcdefg"),
        *(f"{c}{r}" for c in "aceg" for r in (4, 6)),
    }
    labels = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "coordinates")
    assert [t.text for t in labels] == [*"123456789", *"abcdefg"]


def test_position_shows_only_the_tiles_left(example_layout):
    position = Position.start(example_layout).after("LIKES", _mask("f6 f7 e7 f8 e8"))
    root = parse(board_svg(position))
    assert not {"f6", "f7", "e7", "f8", "e8"} & set(tiles(root))
    assert len(tiles(root)) == 43
    # A square whose tile has left is still a board square, not a gap of the pattern.
    assert "board" in squares(root)["f6"].get("class")


def _mask(names):
    return sum(1 << parse_square(name) for name in names.split())


def test_path_moves_and_marks_are_drawn_on_their_squares(example_layout):
    svg = board_svg(
        example_layout,
        path=["b8", "b7", "b6", "c6"],
        moves=[("b8", "c6"), ("c7", "b8")],
        marked=["d4"],
        size=200,
        coordinates=False,
    )
    root = parse(svg)
    path = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "path")
    assert path.get("data-path") == "b8 b7 b6 c6"
    points = path.find(f"{SVG}polyline").get("points").split()
    assert len(points) == 4
    # Reading order: the line starts at the dot on b8's centre.
    circle = path.find(f"{SVG}circle")
    assert points[0] == f"{circle.get('cx')},{circle.get('cy')}"
    # The path's tiles are ringed (c6 is empty on the layout: nothing to ring there).
    assert {n for n, c in tiles(root).items() if "in-word" in c} == {"b8", "b7", "b6"}
    arrows = [e for e in root.iter() if "move" in (e.get("class") or "").split()]
    assert [(a.get("data-move"), a.get("class")) for a in arrows] == [
        ("b8-c6", "move knight"),  # a vowel's jump: a dashed curve
        ("c7-b8", "move queen"),  # a consonant's line: a straight arrow
    ]
    assert arrows[0].tag == f"{SVG}path" and arrows[0].get("stroke-dasharray")
    assert arrows[1].tag == f"{SVG}line" and not arrows[1].get("stroke-dasharray")
    marks = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "mark"]
    assert len(marks) == 1
    d4 = squares(root)["d4"].find(f"{SVG}rect")
    assert float(marks[0].get("x")) == float(d4.get("x")) + 1.5
    assert root.get("width") == "200"
    assert not [g for g in root.iter(f"{SVG}g") if g.get("class") == "coordinates"]


def test_a_mapping_board_and_bad_squares():
    root = parse(board_svg({"a1": "q", 8: "E"}, size=None))
    assert tiles(root) == {"a1": {"tile", "consonant"}, "b2": {"tile", "vowel"}}
    assert root.get("width") is None and root.get("viewBox")
    with pytest.raises(ValueError, match="z9"):
        board_svg({}, path=["z9"])
    with pytest.raises(ValueError, match="63"):
        board_svg({}, marked=[63])


def test_turn_svg_draws_the_board_after_the_moves(record):
    turn = record.turns[0]  # RECEIPTOR: T c7-c4
    root = parse(turn_svg(Position.start(record.board), turn))
    path = [square_name(sq) for sq in turn.path]
    drawn = tiles(root)
    assert "c7" not in drawn and "c4" in drawn
    assert {n for n, c in drawn.items() if "in-word" in c} == set(path)
    assert [e.get("data-move") for e in root.iter() if e.get("data-move")] == ["c7-c4"]


@pytest.mark.parametrize(
    "name, make",
    [
        ("example-layout.svg", lambda r: board_svg(r.board)),
        ("example-turn-1.svg", lambda r: turn_svg(Position.start(r.board), r.turns[0])),
        (
            "example-after-4-turns.svg",
            lambda r: board_svg(_after(r, 4), path=r.turns[4].path, marked=["g9"]),
        ),
        ("example-play.svg", lambda r: _play_of(r.turns[0])._repr_svg_()),
    ],
)
def test_golden_files(record, name, make):
    # Regenerate after an intended change with: LETTERCHESS_REGENERATE_GOLDEN=1 pytest -k golden
    svg = make(record)
    golden = GOLDEN / name
    if os.environ.get("LETTERCHESS_REGENERATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(svg, encoding="utf-8")
    assert svg == golden.read_text(encoding="utf-8")
    parse(svg)


def _after(record, count):
    position = Position.start(record.board)
    for turn in record.turns[:count]:
        position = position_after_turn(position, turn)
    return position


def _play_of(turn):
    return Play(turn.word, 0, turn.moves, turn.path, turn.score)


def test_jupyter_forms(record, example_layout):
    assert example_layout._repr_svg_() == board_svg(example_layout)
    position = Position.start(example_layout)
    assert position._repr_svg_() == board_svg(position)
    play_root = parse(_play_of(record.turns[0])._repr_svg_())
    assert "".join(letters(play_root)) != ""
    assert sorted(letters(play_root)) == sorted("RECEIPTOR")
    html = record._repr_html_()
    assert html.count("<svg") == len(record.turns) + 2  # the start, every turn, the end
    assert "RECEIPTOR" in html and "414" in html and "<script" not in html


def test_replay_data_steps_running_score_and_result(record):
    data = record_replay_data(record)
    steps = data["steps"]
    assert [s["label"] for s in steps] == ["Start", *(f"Turn {i}" for i in range(1, 8)), "End"]
    assert [s["total"] for s in steps[1:-1]] == [117, 213, 290, 325, 379, 414, 434]
    assert steps[1]["moves"] == ["T c7-c4"] and steps[1]["path"].startswith("d1 c1 b2")
    assert steps[-1]["caption"] == "4 tiles left"
    rows = {row["label"]: row for row in data["result"]}
    assert rows["penalty"]["value"] == "-20" and rows["score"]["value"] == "414"
    assert "E F J V" in rows["penalty"]["note"]
    for step in steps:
        parse(step["svg"])
    # A board alone replays as its opening step.
    alone = replay_data(Layout.from_line(EXAMPLE_BOARD))
    assert len(alone["steps"]) == 1 and alone["result"] is None


def test_replay_shows_the_search_summary(record):
    search = {
        "strategy": "auto",
        "params": {"width": 3, "growth": 2.0},
        "chosen": "beam",
        "seconds": 1.3345,
        "states": 3004,
        "max_moves": 2,
        "time_limit": None,
        "max_states": 3000,
        "stopped": "budget",
        "bound": 708,
        "bound_for": "standard class of plays, at most 2 moves a turn",
        "gap": 0.8404,
    }
    data = record_replay_data(Record(**{**record.__dict__, "search": search}))
    rows = {row["label"]: row for row in data["search"]}
    assert rows["strategy"]["value"] == "auto, chose beam"
    assert rows["parameters"]["value"] == "width=3, growth=2.0" and rows["parameters"]["wide"]
    assert rows["budget"]["value"] == "3,000 states, K = 2"
    assert rows["search"]["value"] == "1.33 s, 3,004 states"
    assert rows["bound"]["value"] == "708" and rows["gap"]["value"] == "0.840"


def test_replay_html_is_self_contained(record):
    html = replay_html(record_replay_data(record))
    # Nothing is loaded from anywhere: no external scripts, styles, images or fonts.
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", html)
    assert "@import" not in html and "url(http" not in html
    assert set(re.findall(r"https?://[^\s\"')\\]+", html)) == {"http://www.w3.org/2000/svg"}
    embedded = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S
    )
    assert json.loads(embedded.group(1))["board"] == EXAMPLE_BOARD
    assert "LetterChessReplay.mount(" in html


def test_show_html_writes_the_replay(tmp_path):
    runner = CliRunner()
    out = tmp_path / "game.html"
    result = runner.invoke(cli, ["show", str(DATA / "example-game.json"), "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output == f"Replay written to {out}\n"
    assert "RECEIPTOR" in out.read_text() and "<!DOCTYPE html>" in out.read_text()
    board = tmp_path / "board.html"
    result = runner.invoke(cli, ["show", EXAMPLE_BOARD, "--html", str(board)])
    assert result.exit_code == 0 and "48 tiles dealt" in board.read_text()
    # The output is checked before any work, as for every command's output files.
    result = runner.invoke(cli, ["show", EXAMPLE_BOARD, "--html", str(tmp_path / "no" / "x.html")])
    assert result.exit_code == 2
    assert "does not exist" in result.output and "Traceback" not in result.output
    record = DATA / "example-game.json"
    result = runner.invoke(cli, ["show", str(record), "--html", str(record)])
    assert result.exit_code == 2 and "would overwrite it" in result.output

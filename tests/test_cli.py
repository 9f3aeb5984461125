"""The command line through click's CliRunner: output, exit codes, one-line errors."""

import json

import pytest

from solver.board import Layout, deal
from solver.movegen import generate_plays
from solver.record import Record
from solver.rules import Rules
from solver.search.bound import board_bound

from .conftest import (
    EXAMPLE_BOARD,
    EXAMPLE_GAME,
    HER_REFILL,
    TEST_WORDS,
    TIE,
    assert_one_line_error,
    make_record,
    run,
    turn,
)


@pytest.fixture
def word_file(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("\n".join(TEST_WORDS) + "\n")
    return str(path)


def test_version_and_help(runner):
    assert "version" in run(runner, "--version").output
    for flag in ("-h", "--help"):
        result = run(runner, flag)
        assert result.exit_code == 0 and "generate" in result.output and "check" in result.output


def test_generate(runner):
    result = run(runner, "generate", "--seed", 1)
    assert result.exit_code == 0
    assert result.output == deal(1).to_line() + "\n"
    assert len(result.output.replace("/", "").replace(".", "").strip()) == 48
    many = run(runner, "generate", "--seed", 5, "--count", 3).output.splitlines()
    assert many == [deal(seed).to_line() for seed in (5, 6, 7)]
    text = run(runner, "generate", "--seed", 2, "--count", 2, "--format", "text").output
    assert "# seed 2" in text and "# seed 3" in text
    assert deal(3).to_text() in text


def test_generate_letter_sources(runner, tmp_path):
    uniform = run(runner, "generate", "--seed", 1, "--letters", "uniform").output.strip()
    assert uniform == deal(1, "uniform").to_line()
    bag = tmp_path / "bag.txt"
    bag.write_text("Z 48\n")
    only_z = run(runner, "generate", "--seed", 1, "--letters", bag).output.strip()
    assert set(only_z) == {"Z", ".", "/"}
    small = tmp_path / "small.txt"
    small.write_text("A 3\nB two\n")
    assert_one_line_error(
        run(runner, "generate", "--seed", 1, "--letters", small), 1, "line 2: expected 'LETTER"
    )
    pattern = "/".join(["AAA...."] + ["......."] * 8)
    custom = run(runner, "generate", "--seed", 1, "--layout", pattern).output.strip()
    assert custom.endswith("/".join(["......."] * 8)) and custom[3:7] == "...."


def test_generate_usage_errors(runner):
    assert_one_line_error(run(runner, "generate", "--seed", 1, "--letters", "nope"), 2, "nope")
    assert_one_line_error(run(runner, "generate", "--seed", -1), 2, "--seed")
    assert_one_line_error(run(runner, "generate"), 2, "--seed")
    assert_one_line_error(run(runner, "generate", "--seed", 1, "--bogus"), 2, "--bogus")


def test_show_board(runner, tmp_path):
    result = run(runner, "show", EXAMPLE_BOARD)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == list("abcdefg")
    assert lines[1].split() == ["9", *"LIVNODI", "9"]
    assert lines[5].split() == ["5", *"." * 7, "5"]
    assert "48 tiles" in result.output
    path = tmp_path / "board.txt"
    path.write_text(deal(4).to_text())
    assert run(runner, "show", path).output.splitlines()[1].split()[1:8] == list(
        deal(4).to_text().splitlines()[0]
    )


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("ABC/DEF", "no such board file, and not a board either"),
        (EXAMPLE_BOARD.replace("TPTURDL", "TPT3RDL"), "board row 3, square d3: '3'"),
        (EXAMPLE_BOARD.replace("TPTURDL", "TPTURDLX"), "board row 3: a row needs 7 squares"),
    ],
)
def test_show_bad_boards(runner, board, message):
    assert_one_line_error(run(runner, "show", board), 1, message)


def test_show_bad_board_file(runner, tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("LIVNODI\n" * 8)
    assert_one_line_error(run(runner, "show", path), 1, "b.txt: a board needs 9 rows, found 8")


def test_show_record(runner, tmp_path):
    path = tmp_path / "game.json"
    make_record([HER_REFILL, TIE]).save(path)
    result = run(runner, "show", path)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Turn 1: HER  +12" in out and "Turn 2: TIE  +15" in out
    assert "moves: H f4-g5, E e2-f4" in out
    assert "[H]" in out and "[E]" in out and "[R]" in out and "(H)" in out
    assert "word points" in out and "penalty" in out
    assert out.rstrip().splitlines()[-1].split()[-1] == str(
        make_record([HER_REFILL, TIE]).result.score
    )


def test_check_legal_and_illegal(runner, tmp_path, word_file):
    path = tmp_path / "game.json"
    make_record([HER_REFILL, TIE], finished=False).save(path)
    result = run(runner, "check", path, "--dict", word_file)
    assert result.exit_code == 0, result.output
    assert "game in progress: 2 turns, 27 points so far, every turn legal" in result.output
    bad = make_record([HER_REFILL, TIE], finished=False).to_dict()
    bad["turns"][1]["score"] = 14
    path.write_text(json.dumps(bad))
    assert_one_line_error(
        run(runner, "check", path, "--dict", word_file),
        1,
        "game.json: turn 2: the score is 14, but TIE tallies 15",
    )


def test_check_bad_records(runner, tmp_path, word_file):
    path = tmp_path / "game.json"
    path.write_text("not json")
    assert_one_line_error(run(runner, "check", path, "--dict", word_file), 1, "not JSON")
    data = make_record([TIE]).to_dict()
    data["turns"][0]["path"][0] = "z9"
    path.write_text(json.dumps(data))
    assert_one_line_error(
        run(runner, "check", path, "--dict", word_file), 1, "turn 1, path square 1: unknown square"
    )
    assert_one_line_error(run(runner, "check", tmp_path / "none.json"), 1, "no such record file")
    assert_one_line_error(run(runner, "check"), 2, "Missing argument")


def test_check_a_game_stopped_early(runner, tmp_path, word_file):
    path = tmp_path / "game.json"
    make_record([HER_REFILL, TIE]).save(path)
    assert_one_line_error(
        run(runner, "check", path, "--dict", word_file),
        1,
        "game.json: result: the game is not over, DUE (15) can still be played (any number of",
    )


def test_check_a_finished_game(runner, tmp_path, word_file):
    path = tmp_path / "game.json"
    board = "/".join(["......."] * 8 + ["TEN.CAQ"])
    make_record([turn("NET", ["c1", "b1", "a1"])], board=board).save(path)
    result = run(runner, "check", path, "--dict", word_file)
    assert result.exit_code == 0, result.output
    assert "legal game: 1 turn, 12 word points, 3 tiles left, penalty 12" in result.output


def test_check_with_the_default_dictionary(runner, tmp_path):
    path = tmp_path / "game.json"
    make_record([HER_REFILL, TIE], finished=False).save(path)
    result = run(runner, "check", path)
    assert result.exit_code == 0, result.output
    assert "checked against scowl-70" in result.output


def test_words(runner, word_file):
    result = run(runner, "words", "cat", "TIC", "murals", "--dict", word_file)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split()[:3] == ["CAT", "playable,", "tally"] and lines[0].endswith("12")
    assert "not in test" in lines[1] or "not in words" in lines[1]
    assert lines[2].endswith("48")
    short = run(runner, "words", "cat", "--min-word-length", 4, "--dict", word_file).output
    assert "shorter than 4 letters" in short
    info = run(runner, "words", "--info", "--dict", word_file).output
    assert f"words:   {len(TEST_WORDS)}" in info
    assert_one_line_error(run(runner, "words"), 2, "give one or more WORDs")


def test_words_default_dictionary(runner):
    info = run(runner, "words", "--info").output
    assert "scowl-70" in info and "111474" in info
    assert "playable, tally 48" in run(runner, "words", "murals").output


def test_bad_word_list(runner, tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing here\n\n")
    result = run(runner, "words", "cat", "--dict", path)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "empty.txt" in result.output


def test_plays_table_and_json(runner, scowl):
    layout = Layout.from_line(EXAMPLE_BOARD)
    expected = generate_plays(layout, layout.tile_mask, scowl, Rules(), 1)
    result = run(runner, "plays", EXAMPLE_BOARD, "--max-moves", 1, "--top", 5)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(
        f"{len(expected)} plays of the full class, at most 1 move a turn (standard rules)"
    )
    assert lines[1].split()[:3] == ["#", "tally", "word"]
    rows = [line.split() for line in lines[2:]]
    assert [(int(r[1]), r[2]) for r in rows] == [(p.score, p.word) for p in expected[:5]]
    data = json.loads(
        run(runner, "plays", EXAMPLE_BOARD, "--max-moves", 1, "--all", "--json").output
    )
    assert len(data) == len(expected)
    assert data[0] == expected[0].to_json()
    assert set(data[0]) == {"word", "score", "tiles", "moves", "path"}
    assert data[0]["tiles"] == sorted(data[0]["tiles"], key=lambda n: (n[1], n[0]))


def test_plays_after_a_record(runner, tmp_path):
    result = run(runner, "plays", "--after", EXAMPLE_GAME, "--max-moves", 3)
    assert result.exit_code == 0
    assert result.output.startswith("0 plays")  # E F J V are left: no word
    path = tmp_path / "game.json"
    make_record([HER_REFILL]).save(path)
    data = json.loads(run(runner, "plays", "--after", path, "--json", "--all").output)
    assert data and "HER" not in {play["word"] for play in data}
    assert all("e3" not in play["tiles"] and "f4" not in play["tiles"] for play in data)
    assert_one_line_error(
        run(runner, "plays", "--after", path, "--word-shape", "line"), 2, "contradicts the record"
    )
    assert_one_line_error(
        run(runner, "plays", deal(9).to_line(), "--after", path),
        2,
        "give a BOARD or --after RECORD",
    )


def test_plays_with_no_move_limit(runner):
    # A small board: the 13 tiles of rows 1 and 2 of the example deal.
    board = "......./......./......./......./......./......./......./OCIWEGA/EEERIH."
    result = run(runner, "plays", board, "--max-moves", "all", "--all")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "plays of the full class, any number of moves (standard rules)" in lines[0]
    # Every column starts at the same place on every line, whatever the moves' lengths.
    header = lines[1]
    for name in ("tally", "word", "moves", "path"):
        column = header.index(name) + (len(name) if name == "tally" else 0)
        for line in lines[2:]:
            if name == "tally":
                assert line[column - 1] != " " and line[column] == " ", line
            else:
                assert line[column - 1] == " " and line[column] != " ", (name, line)
    assert any(line.count("-") >= 3 for line in lines[2:])  # long move lists are there
    data = json.loads(run(runner, "plays", board, "--max-moves", "ALL", "--all", "--json").output)
    assert len(data) == int(lines[0].split()[0])


def test_plays_ctrl_c(runner, monkeypatch):
    import solver.movegen

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(solver.movegen, "generate_plays", interrupted)
    result = run(runner, "plays", EXAMPLE_BOARD, "--max-moves", "all")
    assert result.exit_code == 130
    assert "Interrupted: no plays listed" in result.output and "Traceback" not in result.output


def test_plays_errors(runner):
    assert_one_line_error(run(runner, "plays"), 2, "give a BOARD or --after RECORD (one of them)")
    assert_one_line_error(run(runner, "plays", EXAMPLE_BOARD, "--max-moves", -1), 2, "--max-moves")
    assert_one_line_error(
        run(runner, "plays", EXAMPLE_BOARD, "--max-moves", "some"), 2, "'some' is not a number"
    )
    assert_one_line_error(
        run(runner, "plays", EXAMPLE_BOARD, "--word-shape", "zigzag"), 2, "zigzag"
    )
    bad = EXAMPLE_BOARD.replace("OCIWEGA", "OCIWEG!")
    assert_one_line_error(run(runner, "plays", bad), 1, "square g2: '!' is not a letter")


# --- letterchess bound ---------------------------------------------------------------------


def test_bound_of_a_deal(runner, scowl):
    result = run(runner, "bound", "--random", 1, "--max-moves", 2)
    assert result.exit_code == 0, result.output
    expected = board_bound(deal(1), scowl, max_moves=2)
    first = result.output.splitlines()[0]
    assert first.startswith(f"Upper bound: {expected.score} (plays with at most 2 moves")
    assert "at most 2 moves a turn" in first


def test_bound_json_unrestricted_is_looser(runner):
    standard = json.loads(run(runner, "bound", "--random", 2, "--json", "--max-moves", 2).output)
    loose = json.loads(run(runner, "bound", "--random", 2, "--json", "--unrestricted").output)
    assert loose["max_moves"] is None and standard["max_moves"] == 2
    assert loose["bound"] > standard["bound"]
    assert standard["bound"] == max(standard["if_cleared"], standard["if_not_cleared"])


def test_bound_after_a_record_counts_the_points_so_far(runner):
    result = run(runner, "bound", "--after", EXAMPLE_GAME, "--json")
    record = Record.load(EXAMPLE_GAME)
    found = json.loads(result.output)
    points = sum(turn.score for turn in record.turns)
    assert found["bound"] == points + found["future"]
    assert found["bound"] >= record.result.score


def test_bound_errors(runner, tmp_path):
    assert_one_line_error(run(runner, "bound"), 2, "give one of a BOARD")
    assert_one_line_error(
        run(runner, "bound", "--random", 1, "--after", EXAMPLE_GAME),
        2,
        "give one of a BOARD, --random SEED or --after RECORD",
    )
    bad = tmp_path / "bad.txt"
    bad.write_text("ABC\n")
    assert_one_line_error(run(runner, "bound", bad), 1, "bad.txt")


def test_solve_exact_says_it_proved_the_optimum(runner, tmp_path):
    board = "......./......./......./..CAT../..ROE../..SIN../......./......./......."
    out = tmp_path / "game.json"
    result = run(runner, "solve", board, "--strategy", "exact", "--quiet", "--json", out)
    assert result.exit_code == 0, result.output
    assert "optimum proven" in result.output
    search = json.loads(out.read_text())["search"]
    assert search["proven"] is True and search["gap"] == 1.0


def test_solve_prints_the_bound_and_gap(runner):
    result = run(runner, "solve", "--random", 3, "--strategy", "greedy", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    bound = next(line for line in lines if line.strip().startswith("bound"))
    gap = next(line for line in lines if line.strip().startswith("gap"))
    score = next(line for line in lines if line.strip().startswith("score"))
    assert int(bound.split()[1]) >= int(score.split()[1])
    assert float(gap.split()[1]) == pytest.approx(
        int(score.split()[1]) / int(bound.split()[1]), abs=1e-3
    )

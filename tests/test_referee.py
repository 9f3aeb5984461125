"""The referee: legal games it must accept, illegal ones it must reject with the right reason."""

import pytest

from solver.board import Layout, Position
from solver.record import Record
from solver.referee import IllegalTurn, check_record, check_turn
from solver.rules import Result, Rules
from solver.squares import KNIGHT_MASKS, NUM_SQUARES, QUEEN_MASKS, parse_square, square_name

from .conftest import HER_REFILL, TIE, make_record, turn

HOE_OPENED = turn("HOE", ["c4", "b5", "b6"], moves=[("d4", "b5"), ("f4", "c4")])
HOE_TWICE = turn("HOE", ["c4", "c5", "b6"], moves=[("d4", "e6"), ("e6", "c5"), ("f4", "c4")])
IRE_BACKWARDS = turn("IRE", ["e1", "d1", "c1"])


@pytest.mark.parametrize(
    ("turns", "rules"),
    [
        ([HER_REFILL], None),  # f4 vacated by H and refilled by E in one turn
        ([HOE_OPENED], None),  # H's line opened by the O's earlier move
        ([HOE_TWICE], Rules(moves_per_tile=2)),  # the O moves twice
        ([TIE], None),  # path bends
        ([IRE_BACKWARDS], None),  # reads right to left
        ([IRE_BACKWARDS], Rules(word_shape="line")),
        ([HER_REFILL], Rules(min_moves=2)),
        ([TIE, IRE_BACKWARDS, HER_REFILL], None),
        ([], None),  # a game with no turn at all is legal (nothing was playable)
    ],
)
def test_legal_records_are_accepted(turns, rules, words):
    # Games in progress: the turns are legal, and the board still has plays.
    record = make_record(turns, rules=rules, finished=False)
    verdict = check_record(record, words)
    assert verdict.ok, verdict.fault
    assert verdict.in_progress and verdict.turns_checked == len(turns)


#: A board where NET leaves C, A, Q, which spell no word: the game is over with tiles left.
STUCK_BOARD = "/".join(["......."] * 8 + ["TEN.CAQ"])
NET = turn("NET", ["c1", "b1", "a1"])


def test_finished_game_with_tiles_left_is_accepted(words):
    verdict = check_record(make_record([NET], board=STUCK_BOARD), words)
    assert verdict.ok, verdict.fault
    assert verdict.result.remaining == "ACQ" and verdict.result.penalty == 3 * 4


@pytest.mark.parametrize(
    ("search", "reason"),
    [
        # No search section: the real rules, any number of moves.
        (None, "DUE (15) can still be played (any number of moves; moves c1-e2, f3-e3; path"),
        ({"max_moves": None}, "can still be played (any number of moves;"),
        ({"max_moves": 0}, "IRE (15) can still be played (at most 0 moves a turn; moves none;"),
    ],
)
def test_game_stopped_early_is_rejected(search, reason, words):
    # After HER the example board still has plays: a result there is a game left unfinished.
    record = make_record([HER_REFILL], search=search)
    verdict = check_record(record, words)
    assert verdict.fault is not None and verdict.fault.turn is None
    assert str(verdict.fault).startswith("result: the game is not over, ")
    assert reason in str(verdict.fault)


def test_end_check_uses_the_class_of_the_record(words):
    # CAT needs the T beside the A: one move cannot bring it there (C blocks its row).
    board = "/".join(["......."] * 8 + ["T...CA."])
    assert check_record(make_record([], board=board, search={"max_moves": 1}), words).ok
    fault = check_record(make_record([], board=board, search={"max_moves": 2}), words).fault
    assert fault is not None and "CAT (12) can still be played" in fault.reason


def test_legal_record_result_figures(words):
    verdict = check_record(make_record([HER_REFILL]), words)
    assert verdict.result.word_points == 12 and verdict.result.rounds == 1
    assert len(verdict.result.remaining) == 45 and not verdict.result.cleared


def test_cleared_board_earns_the_bonus(words):
    board = "/".join(["......."] * 8 + ["TEN.CAT"])
    turns = [turn("NET", ["c1", "b1", "a1"]), turn("CAT", ["e1", "f1", "g1"])]
    verdict = check_record(make_record(turns, board=board), words)
    assert verdict.ok
    assert (verdict.result.cleared, verdict.result.bonus, verdict.result.score) == (
        True,
        180,
        12 + 12 + 180,
    )


ILLEGAL = [
    # (turns, rules, the fault's turn, words expected in the reason)
    ([turn("HOE", ["c4", "b5", "b6"], [("a4", "a5")])], None, 1, "move 1 (a4-a5): no tile on a4"),
    ([turn("TIE", ["c3", "c2", "b1"], [("b4", "c2")])], None, 1, "move 1 (b4-c2): c2 is not empty"),
    (
        [turn("TIE", ["c3", "c2", "b1"], [("b4", "b5")])],
        None,
        1,
        "U is a vowel and moves like a knight",
    ),
    (
        [turn("HOE", ["c4", "b5", "b6"], [("f4", "e6")])],
        None,
        1,
        "H is a consonant and moves like a queen",
    ),
    (
        [turn("HOE", ["c4", "b5", "b6"], [("f4", "a4")])],
        None,
        1,
        "H's line from f4 to a4 is blocked by the O on d4",
    ),
    # The H's line is closed by the R, moved into it earlier in the turn.
    (
        [turn("HOE", ["c4", "b5", "b6"], [("e3", "e4"), ("d4", "b5"), ("f4", "c4")])],
        None,
        1,
        "blocked by the R on e4",
    ),
    # The same two moves in the other order: the O still stands in the H's way.
    (
        [turn("HOE", ["c4", "b5", "b6"], [("f4", "c4"), ("d4", "b5")])],
        None,
        1,
        "blocked by the O on d4",
    ),
    ([HOE_TWICE], None, 1, "move 2 (e6-c5): the O dealt to d4 may move only once in a turn"),
    ([turn("TIE", ["c3", "c2", "a1"])], None, 1, "from c2 to a1, which are not neighbours"),
    ([turn("TIT", ["c3", "c2", "c3"])], None, 1, "the path uses c3 twice"),
    ([turn("HER", ["f4", "e4", "e3"])], None, 1, "the path crosses e4, which is empty"),
    ([turn("TEA", ["c3", "c2", "b1"])], None, 1, "the path spells TIE, not TEA"),
    ([turn("TIC", ["c3", "c2", "b2"])], None, 1, "TIC is not in the dictionary (test-words)"),
    (
        [turn("TIE", ["c3", "c2", "b1"], [("d4", "b5")])],
        None,
        1,
        "the O moved from d4 to b5 is not part of the word TIE",
    ),
    ([turn("TIE", ["c3", "c2", "b1"], score=13)], None, 1, "the score is 13, but TIE tallies 15"),
    ([TIE], Rules(min_moves=1), 1, "0 moves made, the rules need at least 1 per turn"),
    ([TIE], Rules(word_shape="line"), 1, "the path turns at c2"),
    ([TIE], Rules(min_word_length=4), 1, "TIE has 3 letters, the rules need at least 4"),
    ([turn("TIE", ["c3", "c2"])], None, 1, "the path has 2 squares but TIE has 3 letters"),
    ([turn("T1E", ["c3", "c2", "b1"])], None, 1, "is not made of letters A-Z"),
    (
        [IRE_BACKWARDS, turn("TIE", ["c3", "c2", "c1"])],
        None,
        2,
        "the path crosses c1, which is empty",
    ),
]


@pytest.mark.parametrize(("turns", "rules", "fault_turn", "reason"), ILLEGAL)
def test_illegal_records_are_rejected(turns, rules, fault_turn, reason, words):
    verdict = check_record(make_record(turns, rules=rules), words)
    assert not verdict.ok
    assert verdict.fault.turn == fault_turn
    assert reason in verdict.fault.reason
    assert str(verdict.fault).startswith(f"turn {fault_turn}: ")


def test_word_played_twice(words):
    board = "/".join(["......."] * 8 + ["TEN.TEN"])
    turns = [turn("TEN", ["a1", "b1", "c1"]), turn("TEN", ["e1", "f1", "g1"])]
    verdict = check_record(make_record(turns, board=board), words)
    assert verdict.fault.turn == 2
    assert verdict.fault.reason == "TEN was already played on turn 1"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"score": 1}, "result: score is 1, should be"),
        ({"rounds": 2}, "result: rounds is 2, should be 1"),
        ({"cleared": True}, "result: cleared is True, should be False"),
        ({"bonus": 190}, "result: bonus is 190, should be 0"),
        ({"penalty": 3}, "result: penalty is 3, should be"),
        ({"word_points": 11}, "result: word_points is 11, should be 12"),
        ({"remaining": "E"}, "result: remaining is 'E', should be"),
    ],
)
def test_wrong_results_are_rejected(change, reason, words):
    verdict = check_record(make_record([HER_REFILL], **change), words)
    assert verdict.fault.turn is None
    assert str(verdict.fault).startswith(reason)


def test_remaining_letters_in_any_order(words):
    record = make_record([NET], board=STUCK_BOARD)
    shuffled = record.result.remaining[::-1]
    assert shuffled != record.result.remaining
    assert check_record(make_record([NET], board=STUCK_BOARD, remaining=shuffled), words).ok


def test_dictionary_mismatch_is_noted(words):
    record = make_record([TIE], finished=False)
    data = record.to_dict()
    data["dictionary"] = {"name": "other", "words": 3, "sha256": "ab" * 32}
    verdict = check_record(Record.from_dict(data), words)
    assert verdict.ok
    assert "played with other" in verdict.notes[0]


def test_every_square_as_a_lone_consonant_and_vowel(words):
    # One tile on an empty grid and a turn that moves it and plays no path: every queen-line
    # (consonant) or knight (vowel) target gets past the move checks to the path check, which
    # refuses the empty path; every other target is refused by the move checks.
    for origin in range(NUM_SQUARES):
        for letter, mask in (("T", QUEEN_MASKS[origin]), ("E", KNIGHT_MASKS[origin])):
            cells = ["."] * NUM_SQUARES
            cells[origin] = letter
            layout = Layout("".join(cells))
            position = Position.start(layout)
            for target in range(NUM_SQUARES):
                if target == origin:
                    continue
                record_turn = Record.from_dict(
                    {
                        "format": "letterchess/record-1",
                        "board": layout.to_line(),
                        "rules": {},
                        "turns": [turn(letter, [], [(square_name(origin), square_name(target))])],
                        "result": Result.of_game([], "").to_dict(),
                    }
                ).turns[0]
                with pytest.raises(IllegalTurn) as error:
                    check_turn(layout, position, record_turn, Rules(min_word_length=1), words)
                legal_move = "path has 0 squares" in str(error.value)
                assert legal_move == bool(mask >> target & 1), (origin, target, error.value)


def test_parse_square_helper():
    assert parse_square("e3") == 18


def test_y_moves_like_a_queen(words):
    # WRY is not in the test words, so check the moves alone: Y is a consonant.
    from solver.referee import _check_move

    layout = Layout.parse("/".join(["......."] * 8 + ["Y......"]))
    tile_at = {0: 0}
    assert _check_move(layout, tile_at, 0, parse_square("g7"), "move 1") == 0  # the diagonal
    assert _check_move(layout, tile_at, 0, parse_square("a9"), "move 1") == 0  # the file
    with pytest.raises(IllegalTurn, match="Y is a consonant and moves like a queen"):
        _check_move(layout, tile_at, 0, parse_square("b3"), "move 1")  # a knight's jump
    blocked = Layout.parse("/".join(["......."] * 7 + [".X.....", "Y......"]))
    with pytest.raises(IllegalTurn, match="blocked by the X on b2"):
        _check_move(blocked, {0: 0, 8: 8}, 0, parse_square("c3"), "move 1")

"""Scoring and rule options, with the examples of RULES.md."""

import pytest

from solver.rules import Result, Rules, RulesError, clear_bonus, is_vowel, leftover_penalty, tally


def test_letters():
    assert all(is_vowel(v) for v in "AEIOUaeiou")
    assert not is_vowel("Y") and not is_vowel("y") and not is_vowel("B")


def test_worked_examples():
    assert tally("CAT") == 12
    assert tally("MURALS") == 48  # the original text's 40 contradicts its own formula
    assert leftover_penalty("IXO") == 15
    assert clear_bonus(12) == 80
    assert tally("WRY") == 9  # Y is a consonant
    assert tally("") == 0


def test_bonus_floor():
    assert clear_bonus(20) == 0 and clear_bonus(21) == 0 and clear_bonus(1) == 190


def test_result_of_game():
    cleared = Result.of_game(["CAT", "MURALS"], "")
    assert (cleared.word_points, cleared.bonus, cleared.penalty, cleared.score) == (60, 180, 0, 240)
    assert cleared.cleared and cleared.rounds == 2
    left = Result.of_game(["CAT"], "OXI")
    assert (left.bonus, left.penalty, left.score, left.remaining) == (0, 15, -3, "IOX")
    assert not left.cleared


def test_rules_defaults_and_round_trip():
    rules = Rules()
    assert rules.to_dict() == {
        "word_shape": "path",
        "min_word_length": 3,
        "min_moves": 0,
        "moves_per_tile": 1,
    }
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"word_shape": "line"}) == Rules(word_shape="line")
    assert rules.describe() == "standard"
    assert Rules(min_moves=1).describe() == "min_moves=1"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"word_shape": "spiral"}, "word_shape must be one of path, line"),
        ({"min_word_length": 0}, "min_word_length must be an integer >= 1"),
        ({"min_moves": -1}, "min_moves must be an integer >= 0"),
        ({"moves_per_tile": 0}, "moves_per_tile must be an integer >= 1"),
        ({"moves_per_tile": "2"}, "moves_per_tile must be an integer"),
        ({"min_moves": True}, "min_moves must be an integer"),
        ({"diagonals": False}, "unknown rule option 'diagonals'"),
    ],
)
def test_bad_rules(options, message):
    with pytest.raises(RulesError, match=message):
        Rules.from_dict(options)

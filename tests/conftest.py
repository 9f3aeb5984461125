"""Shared fixtures: the example board of RULES.md and a small word list."""

import pytest

from solver.board import Layout

EXAMPLE_BOARD = "LIVNODI/IEQFSEW/NRTUKIO/.E.J.L./......./.U.O.H./TPTURDL/OCIWEGA/EEERIHN"

#: Enough words for the hand-made games in the tests (the real default list is tested apart).
TEST_WORDS = [
    "her", "ret", "ire", "tie", "tin", "ten", "net", "toe", "rot", "hen", "eel", "err",
    "ewe", "gel", "leg", "tee", "cat", "murals", "ore", "roe", "ode", "due", "rod", "hoe",
]  # fmt: skip


@pytest.fixture
def example_layout():
    return Layout.from_line(EXAMPLE_BOARD)


@pytest.fixture
def words():
    from solver.dictionary import Dictionary

    return Dictionary.from_words(TEST_WORDS, name="test-words")

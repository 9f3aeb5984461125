"""The rule options of a game and its scoring: tallies, the clear bonus, the leftover penalty.

Everything here follows ``RULES.md``; change one and the other together.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .inputs import json_kind
from .kernels.letters import VOWELS

WORD_SHAPES = ("path", "line")

#: The bonus for a cleared board is ``CLEAR_BONUS_BASE - CLEAR_BONUS_PER_ROUND * rounds``.
CLEAR_BONUS_BASE = 200
CLEAR_BONUS_PER_ROUND = 10


class RulesError(ValueError):
    """An unknown rule option or a value out of range."""


def is_vowel(letter: str) -> bool:
    """True for A E I O U (any case): they move like a knight and are worth 2 points.
    Y is a consonant."""
    return letter.upper() in VOWELS


def letter_points(letter: str) -> int:
    """2 for a vowel, 1 for any other letter."""
    return 2 if is_vowel(letter) else 1


def tally(letters: str) -> int:
    """Points of a word, or of leftover letters tallied as one word:
    the sum of letter points times the number of letters.

    >>> tally("CAT")
    12
    >>> tally("MURALS")
    48
    """
    return sum(letter_points(letter) for letter in letters) * len(letters)


def clear_bonus(rounds: int) -> int:
    """Bonus for clearing the board in ``rounds`` words: ``200 - 10 * rounds``, never below 0.

    The floor only matters past 20 rounds, which a standard 48-tile layout cannot reach.
    """
    return max(0, CLEAR_BONUS_BASE - CLEAR_BONUS_PER_ROUND * rounds)


def leftover_penalty(remaining_letters: str) -> int:
    """Points taken off for the letters left on the board: their tally as one word."""
    return tally(remaining_letters)


@dataclass(frozen=True)
class Rules:
    """The variant options of a game; the defaults are the standard game.

    :param word_shape: ``"path"`` (each step to any of the 8 neighbours, the word may bend) or
        ``"line"`` (all steps in one direction, word-search style).
    :param min_word_length: fewest letters in a word.
    :param min_moves: fewest tile moves each turn must make before its word.
    :param moves_per_tile: how many times one tile may move within a turn.
    """

    word_shape: str = "path"
    min_word_length: int = 3
    min_moves: int = 0
    moves_per_tile: int = 1

    def __post_init__(self) -> None:
        if self.word_shape not in WORD_SHAPES:
            raise RulesError(
                f"word_shape must be one of {', '.join(WORD_SHAPES)}, not {self.word_shape!r}"
            )
        for name, lowest in (("min_word_length", 1), ("min_moves", 0), ("moves_per_tile", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < lowest:
                raise RulesError(f"{name} must be an integer >= {lowest}, not {value!r}")

    def to_dict(self) -> dict[str, Any]:
        """The options as written in a game record."""
        return asdict(self)

    @classmethod
    def from_dict(cls, options: Any) -> Rules:
        """Rules from a record's ``rules`` object; missing options take their defaults.

        :raises RulesError: for an unknown option or a bad value.
        """
        if not isinstance(options, dict):
            raise RulesError(f"rules must be an object, not {json_kind(options)}")
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise RulesError(
                f"unknown rule option {unknown[0]!r} (known: {', '.join(sorted(known))})"
            )
        return cls(**options)

    def check_move_limit(self, max_moves: int | None) -> None:
        """Refuse a move limit below ``min_moves``: no turn could be played at all.

        :raises RulesError: naming both numbers.
        """
        if max_moves is not None and max_moves < self.min_moves:
            raise RulesError(
                f"the rules ask for at least {self.min_moves} moves a turn (min_moves), "
                f"but at most {max_moves} are allowed (max_moves): no turn is possible"
            )

    def describe(self) -> str:
        """One line naming the options that differ from the standard game, or ``standard``."""
        changed = [
            f"{field.name}={getattr(self, field.name)}"
            for field in fields(self)
            if getattr(self, field.name) != field.default
        ]
        return ", ".join(changed) if changed else "standard"


@dataclass(frozen=True)
class Result:
    """The final breakdown of a game, as in a record's ``result``."""

    rounds: int
    word_points: int
    cleared: bool
    bonus: int
    penalty: int
    remaining: str
    score: int

    @classmethod
    def of_game(cls, words: list[str], remaining_letters: str) -> Result:
        """Score a finished game from the words played and the letters left on the board."""
        rounds = len(words)
        word_points = sum(tally(word) for word in words)
        cleared = not remaining_letters
        bonus = clear_bonus(rounds) if cleared else 0
        penalty = leftover_penalty(remaining_letters)
        return cls(
            rounds=rounds,
            word_points=word_points,
            cleared=cleared,
            bonus=bonus,
            penalty=penalty,
            remaining="".join(sorted(remaining_letters.upper())),
            score=word_points + bonus - penalty,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

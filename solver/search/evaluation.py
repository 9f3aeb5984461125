"""An evaluation of the tiles still on the board: what they are likely to add to, or take from,
the final score.

A search that compares lines of equal length needs more than their word points: a line that
scored a little less but left an easy end game (few hard letters, vowels and consonants in
proportion, few tiles left) usually ends better, because clearing the board earns
``200 - 10 × rounds`` and a stranded tile costs its share of the leftover tally. The evaluation
is a weighted sum of features of the remaining tiles alone (the state is the mask, see
:class:`solver.board.Position`), computed with numpy for many masks at once:

``points``
    the letter points still on the board (vowel 2, consonant 1): the raw material of later
    words, each point worth about the length of the word that will take it.
``hard``
    the letters that few words use (J Q X Z V K W), each with its own difficulty
    (:data:`HARD_LETTERS`), plus a Q with no U left to follow it (:data:`Q_WITHOUT_U`).
``imbalance``
    how far the vowels are from :data:`VOWEL_SHARE` of the tiles (a Y counts half a vowel: it
    makes words such as DRY and MYTH); a board of only consonants, or only vowels, rarely
    clears.
``bonus``
    the clear bonus still in reach: ``200 - 10 × (rounds + rounds to go)``, where the rounds to
    go are the tiles left over :data:`WORD_LENGTH_TO_CLEAR`, never below 0.
``penalty``
    the penalty looming over the tiles: their tally as one word, which is what they cost if the
    game ended now.

The value is ``points × points_weight - hard × hard_weight - imbalance × balance_weight +
bonus × clear_weight - penalty × penalty_weight``. An empty board is worth exactly its clear
bonus.

The weights are :class:`EvalWeights`. Their defaults were tuned for the ``beam`` strategy
(K = 2, standard layout, SCOWL-70) by coordinate search on random deals 101-200 (not the
benchmark boards), one weight at a time by factors of 0.5 to 2. The optimum is flat: near it,
halving or doubling any one weight lowered the mean score of width-64 beams by 0 to 6 points
(though halving ``hard_weight`` from 6 to 3 had cost 14). ``clear_weight`` matters least:
between lines of equal length the bonus in reach is a step function of the tile count, which
``points`` and ``penalty`` already follow. Tried and dropped: letter values fitted by
regression to the outcomes of searches (they predicted outcomes a little better but ranked
lines worse), a cost of hard letters and imbalance that grows as the board empties, and other
vowel shares (0.35, 0.45).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import Layout
from ..rules import CLEAR_BONUS_BASE, CLEAR_BONUS_PER_ROUND, VOWELS
from .base import Game, Line
from .prior import HARD_LETTERS

#: The extra difficulty of a Q when no U is left on the board (in units of ``hard_weight``).
Q_WITHOUT_U = 4.0
#: The share of vowels among the letters of typical words (Y counting half).
VOWEL_SHARE = 0.4
#: The average word length assumed when counting the rounds still needed to clear.
WORD_LENGTH_TO_CLEAR = 5.0


@dataclass(frozen=True)
class EvalWeights:
    """The weights of the evaluation's features (see the module docstring).

    :param points_weight: value of one letter point still on the board.
    :param hard_weight: cost of one unit of letter difficulty.
    :param balance_weight: cost of one vowel too many or too few.
    :param clear_weight: share of the reachable clear bonus counted.
    :param penalty_weight: share of the looming leftover penalty counted.
    """

    points_weight: float = 4.0
    hard_weight: float = 10.0
    balance_weight: float = 10.0
    clear_weight: float = 0.0625
    penalty_weight: float = 0.02


def popcount(values: np.ndarray) -> np.ndarray:
    """The number of set bits of each non-negative int64, as int64."""
    return np.bitwise_count(values).astype(np.int64)


class Evaluator:
    """The evaluation of remaining tiles for one layout; build once per game.

    :param layout: the opening layout (which letter is dealt to which square).
    :param weights: the feature weights.
    """

    def __init__(self, layout: Layout, weights: EvalWeights | None = None) -> None:
        self.weights = weights if weights is not None else EvalWeights()
        squares_of: dict[str, int] = {}
        for sq, letter in layout.tiles():
            squares_of[letter] = squares_of.get(letter, 0) | 1 << sq
        self._vowels = np.int64(sum(squares_of.get(v, 0) for v in VOWELS))
        self._y = np.int64(squares_of.get("Y", 0))
        self._q = np.int64(squares_of.get("Q", 0))
        self._u = np.int64(squares_of.get("U", 0))
        # Only the hard letters actually dealt, so a deal without them costs nothing here.
        self._hard = [
            (np.int64(squares_of[letter]), difficulty)
            for letter, difficulty in HARD_LETTERS.items()
            if letter in squares_of
        ]

    def features(self, masks: np.ndarray, rounds: int) -> dict[str, np.ndarray]:
        """The features of each mask after ``rounds`` words, as float arrays by name:
        ``points``, ``hard``, ``imbalance``, ``bonus``, ``penalty`` (module docstring)."""
        masks = np.asarray(masks, dtype=np.int64)
        count = popcount(masks)
        vowels = popcount(masks & self._vowels)
        points = count + vowels
        hard = np.zeros(masks.shape, dtype=np.float64)
        for letter_mask, difficulty in self._hard:
            hard += difficulty * popcount(masks & letter_mask)
        if self._q:
            hard += Q_WITHOUT_U * (((masks & self._q) != 0) & ((masks & self._u) == 0))
        imbalance = np.abs(vowels + 0.5 * popcount(masks & self._y) - VOWEL_SHARE * count)
        to_go = np.ceil(count / WORD_LENGTH_TO_CLEAR)
        bonus = np.maximum(0.0, CLEAR_BONUS_BASE - CLEAR_BONUS_PER_ROUND * (rounds + to_go))
        return {
            "points": points.astype(np.float64),
            "hard": hard,
            "imbalance": imbalance,
            "bonus": bonus,
            "penalty": (count * points).astype(np.float64),
        }

    def evaluate(self, masks: np.ndarray, rounds: int) -> np.ndarray:
        """The value of the tiles left in each mask, after ``rounds`` words (float64 array)."""
        w = self.weights
        f = self.features(masks, rounds)
        value = (
            w.points_weight * f["points"]
            - w.hard_weight * f["hard"]
            - w.balance_weight * f["imbalance"]
            + w.clear_weight * f["bonus"]
            - w.penalty_weight * f["penalty"]
        )
        # An empty board is a finished game: worth exactly its bonus.
        return np.where(np.asarray(masks) == 0, f["bonus"], value)


def evaluate_line(game: Game, line: Line, weights: EvalWeights | None = None) -> float:
    """The evaluation of the tiles ``line`` leaves on the board of ``game``."""
    evaluator = Evaluator(game.layout, weights)
    return float(evaluator.evaluate(np.array([line.mask], dtype=np.int64), line.rounds)[0])

"""What ``nrpa`` and ``nmcs`` know of a play before they learn anything: the play prior.

A play's *value* is its tally plus a bonus for the hard letters it takes off the board
(:data:`HARD_LETTERS`, also used by ``beam``'s evaluation): a board with a Q, J, X or Z left is
hard to clear, and the clear bonus is worth up to 200 points. :class:`PlayPrior` picks a
position's candidate plays by value and gives each a bias; :func:`sample` draws one.
"""

from __future__ import annotations

import math
import weakref
from random import Random
from typing import NamedTuple

import numpy as np

from ..board import Layout
from ..config import CANDIDATE_MEMO
from .base import PlaySet

#: How hard each awkward letter is to place in a word (few words use it), in units of
#: the ``hard`` parameter of ``nrpa`` and ``nmcs``.
HARD_LETTERS: dict[str, float] = {
    "Q": 3.0, "J": 2.0, "X": 2.0, "Z": 2.0, "V": 1.0, "K": 1.0, "W": 1.0,
}  # fmt: skip

#: How a play's code (the key of its weight in the policy) is made from ``(word_id, tiles)``.
CODES = ("play", "tiles", "word")


class Candidates(NamedTuple):
    """The candidates of a position, best first: their plays, codes and biases."""

    #: The plays ``(word_id, tiles, score)``.
    moves: list[tuple[int, int, int]]
    #: The keys of their weights in a policy (see :data:`CODES`).
    codes: list[object]
    #: Their biases, ``(value - best value) / temperature``: 0 for the best, below 0 for the
    #: others.
    biases: list[float]


class PlayPrior:
    """What a playout knows before it learns anything: which plays of a position are candidates,
    and their biases. Shared by ``nrpa`` and ``nmcs``.

    The *value* of a play is its tally plus ``hard`` times the difficulty of the hard letters it
    takes (:data:`HARD_LETTERS`). The candidates are the ``width`` best plays by value, down to
    ``window × temperature`` points below the best (in positions with at most ``late_tiles``
    tiles: the ``late_width`` best, however far below); a candidate's bias is its value minus
    the best value, over ``temperature``.
    """

    def __init__(
        self,
        layout: Layout,
        width: int,
        temperature: float,
        window: float,
        hard: float,
        code: str = "play",
        late_tiles: int = 0,
        late_width: int = 0,
    ) -> None:
        self.width = width
        self.late_tiles = late_tiles
        self.late_width = late_width
        self.temperature = temperature
        self.window = window
        self.code = code
        #: The squares dealt a hard letter, with that letter's bias in points.
        self.hard_squares = [
            (sq, hard * HARD_LETTERS[letter])
            for sq, letter in layout.tiles()
            if letter in HARD_LETTERS and hard
        ]
        self._memo: dict[int, tuple[weakref.ref[PlaySet], Candidates]] = {}

    def candidates(self, mask: int, plays: PlaySet) -> Candidates:
        """The candidates among ``plays``, the legal plays from the position ``mask``."""
        # Playouts come back to the same positions again and again. The game returns the same
        # PlaySet object for a position as long as it stays in its cache and no played word
        # has to be filtered out, so an identical object means identical candidates.
        # The memo holds the PlaySet weakly: it must not keep alive what the game's cache evicts.
        memo = self._memo.get(mask)
        if memo is not None and memo[0]() is plays:
            return memo[1]
        width, window = self.width, self.window
        if mask.bit_count() <= self.late_tiles:
            # Near the end a short, low-scoring word is often what clears the board.
            width, window = max(width, self.late_width), math.inf
        values = plays.scores.astype(np.float64)
        hard = [(sq, bias) for sq, bias in self.hard_squares if mask >> sq & 1]
        if hard:
            for sq, bias in hard:
                values += bias * ((plays.tiles >> sq) & 1)
            # Stable, so that ties keep the plays' own order (tally, word id, tiles).
            order = np.argsort(-values, kind="stable")[:width]
        else:
            order = np.arange(min(len(plays), width))
        values = values[order]
        best = float(values[0])
        order = order[values >= best - window * self.temperature]
        inverse = 1.0 / self.temperature
        biases = [(value - best) * inverse for value in values[: len(order)].tolist()]
        words = plays.word_ids[order].tolist()
        tiles = plays.tiles[order].tolist()
        moves = list(zip(words, tiles, plays.scores[order].tolist(), strict=True))
        codes: list[object]
        if self.code == "play":
            codes = list(zip(words, tiles, strict=True))
        elif self.code == "tiles":
            codes = tiles
        else:
            codes = words
        candidates = Candidates(moves, codes, biases)
        if len(self._memo) >= CANDIDATE_MEMO:
            self._memo.clear()
        self._memo[mask] = (weakref.ref(plays), candidates)
        return candidates


def sample(rng: Random, logits: list[float]) -> int:
    """The index of a logit drawn with probability proportional to ``exp(logit)`` (Gibbs
    sampling), with one ``rng.random()``."""
    top = max(logits)
    odds = [math.exp(logit - top) for logit in logits]
    # Walk the cumulative odds to a uniform point of their total.
    point = rng.random() * sum(odds)
    total = 0.0
    for index, weight in enumerate(odds):
        total += weight
        if point < total:
            return index
    return len(odds) - 1  # only if rounding left the point at the very end

"""``nrpa``: Nested Rollout Policy Adaptation (Rosin, IJCAI 2011), with a bias from the tally.

A *playout* plays a game to its end, each turn drawing one of the position's candidate plays
at random (Gibbs sampling) with probability proportional to ``exp(weight[code] + bias)``:
``weight`` is the learned *policy* (0 for a code never adapted), ``bias`` a fixed prior that
makes an untrained playout a noisy greedy player (the generalised NRPA of Cazenave, 2020). A
search of level ``L`` runs ``iterations`` searches of level ``L - 1`` (level 0 is one
playout), each from a copy of its policy, keeps the best game found, and after each one
*adapts* the policy towards that game: at every turn of the best game the play chosen gains
``alpha`` and every candidate loses ``alpha`` times its probability.

How the method is fitted to this game:

- **Prior** (:class:`~solver.search.prior.PlayPrior`, shared with ``nmcs``). A play's
  *value* is its tally plus :attr:`~NrpaParams.hard` points per unit of difficulty of the hard
  letters it takes (Q, J, X, Z, V, K, W: :data:`~solver.search.prior.HARD_LETTERS`): a board
  is cleared (a bonus of up to 200, and no penalty)
  only if someone places those letters, and a pure tally bias leaves them to the end, where they
  are stranded. The candidates are the :attr:`~NrpaParams.width` best plays by value; a
  candidate's bias is its value minus the best value, over :attr:`~NrpaParams.temperature`.
  Candidates by rank rather than by distance in points matter: a good game often takes a play
  30 or 40 points below the best of its turn (a 7-letter word where a 9-letter one fits), and
  tallies come in large steps, so a window in points either shuts such plays out or lets in
  hundreds of candidates. Few candidates also keep the Python work of a turn small.
- **Codes.** A play's code, the key of its weight, is the play itself, ``(word, tiles)``: the
  same play from different positions shares one weight, so a good ending learned after one
  opening is tried again after another. Plays are specific enough (a word on particular
  tiles) for this to be nearly a code per position and move, as Rosin's are. ``code="tiles"``
  (the tiles removed, whatever the word) and ``code="word"`` are coarser alternatives, which
  learned no faster.
- **Schedule.** A playout is 8 to 16 turns, and a position never seen costs up to a few
  milliseconds to generate, so a budget of 1 to 10 seconds holds about 700 to 12,000
  playouts: a search of level 2 with 100 iterations (10,000 playouts) would not fit. The
  strategy runs searches of level :attr:`~NrpaParams.level` (default 1, 50 playouts) with a
  fresh policy, one after the other, until the budget is spent; restarting also undoes a
  policy that converged too early. Every finished playout is offered to the context, so the
  best game so far is always kept (anytime).

The first game offered is the greedy one, so the result is never worse than ``greedy``. Only
``rng.random()`` and Python float arithmetic (``math.exp``) are used, so a seed and a state
budget give the same game on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..squares import NUM_SQUARES
from .base import (
    AnytimeStrategy,
    BudgetSpent,
    Line,
    SearchContext,
    SearchReport,
    StrategyParams,
    param,
)
from .prior import CODES, PlayPrior, sample
from .registry import register


@dataclass
class NrpaParams(StrategyParams):
    """Parameters of :class:`NrpaStrategy`. The defaults were tuned on the 20 benchmark deals
    at K = 2 with budgets of 1 and 10 seconds; ``late_tiles`` and ``late_width`` on those and
    the 30 small layouts of ``benchmarks/small`` at 1 second (``benchmarks/README.md``).

    :ivar level: the nesting level of each search (1: ``iterations`` playouts, adapting the
        policy after each).
    :ivar iterations: the searches of the level below run by a search of a level.
    :ivar alpha: the learning rate of the policy adaptation.
    :ivar temperature: points of value per unit of bias: lower plays closer to the best value,
        higher explores more.
    :ivar window: plays whose value is more than ``window × temperature`` points below the
        best value are not candidates (the default leaves the choice to ``width``).
    :ivar width: the candidates of a position: its ``width`` best plays by value.
    :ivar hard: the value of a play is its tally plus ``hard`` points per unit of difficulty
        of the hard letters it takes (:data:`~solver.search.prior.HARD_LETTERS`); 0 for the
        tally alone.
    :ivar code: what the weights are learned for: ``play`` (word and tiles), ``tiles`` or
        ``word``.
    :ivar late_tiles: in positions with at most this many tiles, the candidates are the
        ``late_width`` best plays, with no window (0: never).
    :ivar late_width: the candidates of those positions.
    """

    # Each level multiplies the playouts of one search by ``iterations``: level 4 with the
    # default iterations is already 6 million playouts before the first restart.
    level: int = param(1, 1, 4)
    iterations: int = param(50, 1, 100_000)
    alpha: float = param(1.0, high=1000.0, above=0.0)
    temperature: float = param(6.0, high=1e6, above=0.0)
    window: float = param(100.0, 0.0, 1e6)
    width: int = param(12, 1, 1_000_000)
    hard: float = param(15.0, 0.0, 1e6)
    code: str = param("play", choices=CODES)
    late_tiles: int = param(20, 0, NUM_SQUARES)
    late_width: int = param(64, 1, 1_000_000)


#: One turn of a playout, kept for adapting the policy to the game it belongs to: the
#: candidates' codes, their biases, and the index of the play chosen.
_Turn = tuple[list[object], list[float], int]


@dataclass
class _Playout:
    """A finished game: its final score, its line and its turns (see :data:`_Turn`)."""

    score: int
    line: Line
    turns: list[_Turn]


class _Search:
    """One NRPA run on one game: the parameters, the context, the prior."""

    def __init__(self, context: SearchContext, params: NrpaParams) -> None:
        self.context = context
        self.params = params
        self.prior = PlayPrior(
            context.game.layout,
            params.width,
            params.temperature,
            params.window,
            params.hard,
            params.code,
            params.late_tiles,
            params.late_width,
        )
        self.playouts = 0

    def playout(self, policy: dict[object, float]) -> _Playout:
        """Play one game to its end with the policy; offer it to the context.

        :raises BudgetSpent: when the budget runs out first.
        """
        context = self.context
        rng = context.rng
        line = context.start_line()
        turns: list[_Turn] = []
        while True:
            if context.stopped:
                raise BudgetSpent
            plays = context.plays(line)
            if len(plays) == 0:
                break
            moves, codes, biases = self.prior.candidates(line.mask, plays)
            if len(moves) == 1:
                chosen = 0
            else:
                get = policy.get
                chosen = sample(
                    rng, [bias + get(code, 0.0) for code, bias in zip(codes, biases, strict=True)]
                )
            turns.append((codes, biases, chosen))
            line = line.then(*moves[chosen])
        self.playouts += 1
        context.offer(line)
        return _Playout(context.game.final_score(line), line, turns)

    def adapt(self, policy: dict[object, float], turns: list[_Turn]) -> None:
        """Move ``policy`` (in place) towards the game of ``turns``: the chosen play of each turn
        gains ``alpha``, each candidate loses ``alpha`` times its probability under the policy
        as it was before this adaptation (so all changes are computed first)."""
        alpha = self.params.alpha
        get = policy.get
        changes: list[tuple[object, float]] = []
        for codes, biases, chosen in turns:
            if len(codes) == 1:
                # The only candidate gains alpha and loses alpha: no change.
                continue
            logits = [bias + get(code, 0.0) for code, bias in zip(codes, biases, strict=True)]
            top = max(logits)
            odds = [math.exp(logit - top) for logit in logits]
            scale = alpha / sum(odds)
            changes.extend(
                (code, -weight * scale) for code, weight in zip(codes, odds, strict=True)
            )
            changes.append((codes[chosen], alpha))
        for code, change in changes:
            policy[code] = get(code, 0.0) + change

    def level(self, level: int, policy: dict[object, float]) -> _Playout:
        """A search of ``level`` from (a copy of) ``policy``: the best game it found."""
        if level == 0:
            return self.playout(policy)
        policy = dict(policy)
        best: _Playout | None = None
        for _ in range(self.params.iterations):
            found = self.level(level - 1, policy)
            # Ties go to the newer game, as in Rosin's NRPA: it moves the policy along.
            if best is None or found.score >= best.score:
                best = found
            self.adapt(policy, best.turns)
        assert best is not None
        return best


@dataclass
class PlayoutReport(SearchReport):
    """What ``nrpa`` and ``nmcs`` did: the playouts (games played to the end) and the
    searches (restarts of the top level)."""

    playouts: int = 0
    searches: int = 0


@register
class NrpaStrategy(AnytimeStrategy[NrpaParams, PlayoutReport]):
    """Nested Rollout Policy Adaptation with a tally bias, restarted until the budget ends."""

    name = "nrpa"
    summary = "nested rollout policy adaptation with a tally and hard-letter prior (anytime)"
    Params = NrpaParams
    Report = PlayoutReport

    def search(self, context: SearchContext) -> None:
        report = self.report(context)
        search = _Search(context, self.params)
        try:
            while True:
                report.searches += 1
                search.level(self.params.level, {})
        finally:
            report.playouts = search.playouts

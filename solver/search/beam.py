"""``beam``: beam search over turns, ranked by word points plus an evaluation of the tiles left.

One beam
    The beam holds at most ``width`` lines of the same length (ply). Each line is expanded: its
    legal plays are generated (one state of the budget), every child is scored as word points
    so far plus :meth:`Evaluator.evaluate` of the tiles it leaves, and the ``branch`` best
    children of that line are kept as candidates (more if the ply has too few lines to fill
    the next one: the first ply has one). The candidates of the whole ply are then
    deduplicated by tile mask (the next position depends only on the mask, see
    :class:`solver.board.Position`; of two lines reaching one mask at one ply the one with
    more word points is kept, their evaluations being equal) and the best form the next ply.
    A line with no legal play is a finished game and is offered at once, as is a child that
    clears the board. The per-child work is done with numpy on the play arrays; a
    :class:`Line` is made only for the children that enter the next ply, so nearly all the
    time goes to generating plays.

Wider late plies
    Generating the plays of a position costs 5 to 10 times more with 30 to 40 tiles on the
    board than with 12 to 17 (thousands of plays against hundreds). Once the best line of a
    ply holds at most ``late_tiles`` tiles (36: from about the third word on), the beam is
    ``late`` times wider. For the same time this beats a uniformly wider beam: on deals
    101-160, at an equal cost in play generation, ``late = 8`` scored 8 points more than
    ``late = 1``. (In a state budget it costs more states.)

Anytime: iterated beams
    The search first offers the plain greedy game (a handful of states; the result is never
    below greedy), then runs beams of growing width, ``width``, ``width × growth``, ... until
    the budget is spent (with ``growth = 1``, or once ``max_width`` is done, it stops after
    one). The first beam (width 1 by default) is a greedy game guided by the evaluation, so
    even a very short limit gives a sound game; each beam costs about ``growth`` times the one
    before, so all the narrower beams together cost about as much as the widest (``growth =
    2``). The plays of a position are cached by mask in :class:`Game`, so the states a wider
    beam revisits are cheap (they still count in a state budget). Sizing a single beam from
    the time limit would need the speed of the machine; iterating needs nothing, and makes a
    state budget and a time limit run the same search. Sizing the last beam to fit the budget
    left was tried and gained nothing measurable: the best lines of the beam the budget cuts
    short, finished greedily, are about as good.

The real game: which plays a line is expanded with
    With no move limit, generating every play of a full deal takes 5 to 26 s, so a line is
    expanded with the plays of an :class:`Expansion` (progressive widening by tile count, the
    parameters ``moves``, ``best``, ``wide_tiles`` and ``full_tiles``): every play with at most
    ``moves`` moves while many tiles are left; from ``wide_tiles`` tiles down, also the best
    ``best`` plays of the real game (the bounded generator: the long words that many moves
    spell, worth 100 to 270 points, which no small K reaches); from ``full_tiles`` down, every
    play (cheap by then, and what clears the board). ``rich`` can keep the costly bounded
    generation for the best lines of each ply only. What a long word leaves behind is ranked
    by the same evaluation of the tiles left. In a game with a move limit K <= ``moves``
    every play of the class is generated, as before.

End of the budget
    ``context.stopped`` is polled before every expansion. When it turns true, the ``finish``
    best lines of the current ply are played to the end greedily
    (:meth:`SearchContext.complete_greedily`) and offered, and the search returns.

Determinism: every choice is made by sorts with explicit tie-breaks (value, then mask, then
order of generation), never by the clock, so a state budget gives the same game on every
machine. The seed is not used: the search makes no random choice.

Figures (the 20 benchmark boards, K = 2, defaults; one process on the 2-core project
machine, other work raising the load average to 2 or 3): 10 s per deal: mean 616.7, median
611.5, 20 of 20 cleared, 7.9 rounds, about 2,500 states/s (revisits of cached positions
included); 1 s per deal: mean 604.4, 20 of 20 cleared; 20,000 states per deal: mean 616.5.
Greedy: mean 441.6, none cleared.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..config import (
    EXPANSION_BEST,
    EXPANSION_FULL_TILES,
    EXPANSION_MOVES,
    EXPANSION_WIDE_TILES,
)
from ..squares import NUM_SQUARES
from .base import (
    AnytimeStrategy,
    BudgetSpent,
    Expansion,
    Line,
    PlaySet,
    SearchContext,
    SearchReport,
    StrategyParams,
    param,
)
from .evaluation import Evaluator, EvalWeights
from .registry import register

_DEFAULT_WEIGHTS = EvalWeights()


@dataclass
class BeamParams(StrategyParams):
    """Parameters of :class:`BeamStrategy` (the module docstring explains them).

    :param width: lines kept per ply in the first beam.
    :param growth: each later beam is this many times wider; ``1`` runs one beam only.
    :param max_width: the widest beam to run (0: no cap); the search ends after it.
    :param branch: children kept per line before the ply's candidates are ranked together.
    :param late: how many times wider the late plies are.
    :param late_tiles: a ply is late once its best line holds at most this many tiles.
    :param finish: partial lines finished greedily when the budget runs out.
    :param moves: the move limit of the plays of positions with many tiles, when the game
        allows more (the real game): :class:`Expansion`, as are ``best`` (the best plays of
        the game's class added at or below ``wide_tiles`` tiles) and ``full_tiles`` (every
        play at or below it).
    :param rich: in each ply, only the ``rich`` best lines get the best plays of the game's
        class (``best``; 0: every line); the others only the cheap plays (at most ``moves``
        moves, or every play at ``full_tiles`` or fewer).
    :param points_weight: the evaluation's weights, as in :class:`EvalWeights`; so are
        ``hard_weight``, ``balance_weight``, ``clear_weight`` and ``penalty_weight``.
    """

    width: int = param(1, 1, 1_000_000)
    growth: float = param(2.0, 1.0, 1000.0)
    max_width: int = param(0, 0, 1_000_000)
    branch: int = param(64, 1, 1_000_000)
    late: int = param(8, 1, 1000)
    late_tiles: int = param(36, 0, NUM_SQUARES)
    finish: int = param(4, 1, 1_000_000)
    moves: int = param(EXPANSION_MOVES, 0, NUM_SQUARES)
    best: int = param(EXPANSION_BEST, 0, 1_000_000)
    wide_tiles: int = param(EXPANSION_WIDE_TILES, 0, NUM_SQUARES)
    full_tiles: int = param(EXPANSION_FULL_TILES, 0, NUM_SQUARES)
    rich: int = param(0, 0, 1_000_000)
    points_weight: float = param(_DEFAULT_WEIGHTS.points_weight, 0.0, 1e6)
    hard_weight: float = param(_DEFAULT_WEIGHTS.hard_weight, 0.0, 1e6)
    balance_weight: float = param(_DEFAULT_WEIGHTS.balance_weight, 0.0, 1e6)
    clear_weight: float = param(_DEFAULT_WEIGHTS.clear_weight, 0.0, 1e6)
    penalty_weight: float = param(_DEFAULT_WEIGHTS.penalty_weight, 0.0, 1e6)

    @property
    def weights(self) -> EvalWeights:
        """The evaluation's weights."""
        return EvalWeights(
            points_weight=self.points_weight,
            hard_weight=self.hard_weight,
            balance_weight=self.balance_weight,
            clear_weight=self.clear_weight,
            penalty_weight=self.penalty_weight,
        )


@dataclass
class BeamReport(SearchReport):
    """How far the iteration of beams got.

    :ivar beams: the beams run to the end.
    :ivar widest_beam: the width of the last of them.
    """

    beams: int = 0
    widest_beam: int | None = None


@register
class BeamStrategy(AnytimeStrategy[BeamParams, BeamReport]):
    name = "beam"
    summary = "iterated beam search, growing width, ranked by points plus an end-game evaluation"
    Params = BeamParams
    Report = BeamReport

    def expansion(self) -> Expansion:
        params = self.params
        return Expansion(params.moves, params.best, params.wide_tiles, params.full_tiles)

    def search(self, context: SearchContext) -> None:
        params = self.params
        evaluator = Evaluator(context.game.layout, params.weights)
        report = self.report(context)
        width = params.width
        while not context.stopped:
            complete = self._beam(context, evaluator, width)
            report.beams += 1
            report.widest_beam = width
            if complete or params.growth == 1 or (params.max_width and width >= params.max_width):
                return
            wider = max(width + 1, int(width * params.growth))
            width = min(wider, params.max_width) if params.max_width else wider

    def _beam(
        self, context: SearchContext, evaluator: Evaluator, width: int, start: Line | None = None
    ) -> bool:
        """One beam of ``width`` lines per ply, from ``start`` (by default the empty line) to
        the end of every line.

        :returns: whether the beam was complete: it never had to drop a candidate, so it saw
            every position (a wider beam would find nothing new; small boards end this way).
        """
        params = self.params
        cheap = replace(self.expansion(), best=0)
        beam = [start if start is not None else context.start_line()]
        rounds = beam[0].rounds
        complete = True
        while beam:
            rounds += 1
            # Candidates of this ply, as parallel arrays: parent, play, child mask, rank value.
            parents: list[np.ndarray] = []
            picks: list[np.ndarray] = []
            masks: list[np.ndarray] = []
            values: list[np.ndarray] = []
            expanded: list[PlaySet] = []
            # Late plies cost far less (few tiles, few plays to generate): make them wider.
            late = beam[0].mask.bit_count() <= params.late_tiles
            ply_width = width * params.late if late else width
            # Children kept per line: enough for a full next ply even when this ply is short
            # (the first ply has one line).
            branch = max(params.branch, -(-ply_width // len(beam)))
            for index, line in enumerate(beam):
                if context.stopped:
                    self._finish(context, beam)
                    raise BudgetSpent
                rich = not params.rich or index < params.rich
                plays = context.plays(line, None if rich else cheap)
                expanded.append(plays)
                if len(plays) == 0:
                    context.offer(line)
                    continue
                child_masks = np.int64(line.mask) & ~plays.tiles
                value = (line.word_points + plays.scores) + evaluator.evaluate(child_masks, rounds)
                if len(plays) > branch:
                    # The branch best; a stable sort breaks ties by play order.
                    keep = np.argsort(-value, kind="stable")[:branch]
                    child_masks, value = child_masks[keep], value[keep]
                    complete = False
                else:
                    keep = np.arange(len(plays))
                cleared = child_masks == 0
                if cleared.any():
                    for pick in keep[cleared]:
                        context.offer(
                            line.then(
                                int(plays.word_ids[pick]),
                                int(plays.tiles[pick]),
                                int(plays.scores[pick]),
                            )
                        )
                    open_ = ~cleared
                    keep, child_masks, value = keep[open_], child_masks[open_], value[open_]
                parents.append(np.full(keep.shape[0], index, dtype=np.int64))
                picks.append(keep)
                masks.append(child_masks)
                values.append(value)
            beam, dropped = self._next_ply(beam, expanded, parents, picks, masks, values, ply_width)
            complete = complete and not dropped
        return complete

    @staticmethod
    def _next_ply(
        beam: list[Line],
        expanded: list[PlaySet],
        parents: list[np.ndarray],
        picks: list[np.ndarray],
        masks: list[np.ndarray],
        values: list[np.ndarray],
        width: int,
    ) -> tuple[list[Line], bool]:
        """The ``width`` best candidates, one per mask, as lines; and whether any distinct
        mask was left out."""
        if not parents:
            return [], False
        parent = np.concatenate(parents)
        pick = np.concatenate(picks)
        mask = np.concatenate(masks)
        value = np.concatenate(values)
        # Best value first; ties by mask, then by generation order (parent, then play order):
        # lexsort is stable and sorts by its last key first.
        order = np.lexsort((np.arange(value.shape[0]), mask, -value))
        # One candidate per mask: the first (best) of each in that order.
        _, first = np.unique(mask[order], return_index=True)
        chosen = order[np.sort(first)[:width]]
        dropped = first.shape[0] > width
        next_beam = []
        for i in chosen:
            plays, j = expanded[parent[i]], pick[i]
            next_beam.append(
                beam[parent[i]].then(
                    int(plays.word_ids[j]), int(plays.tiles[j]), int(plays.scores[j])
                )
            )
        return next_beam, dropped

    def _finish(self, context: SearchContext, beam: list[Line]) -> None:
        """Finish greedily and offer the ``finish`` best lines of the current ply (the beam is
        in rank order)."""
        params = self.params
        for rank, line in enumerate(beam[: params.finish]):
            # Each completion costs a few states at most, but on a loaded machine stop after
            # the first one if the time limit is already well past.
            limit = context.time_limit
            if rank and limit is not None and context.elapsed > 1.05 * limit:
                break
            context.offer(context.complete_greedily(line))

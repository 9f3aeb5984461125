"""``beam``: beam search over turns, ranked by word points plus an evaluation of the tiles left.

One beam
    The beam holds at most ``width`` lines of the same length (ply). Each line is expanded: its
    legal plays are generated (one state of the budget), every child is scored as word points
    so far plus :meth:`Evaluator.evaluate` of the tiles it leaves, and the ``branch`` best
    children of that line are kept as candidates. The candidates of the whole ply are then
    deduplicated by tile mask (the next position depends only on the mask, DESIGN.md section 2;
    of two lines reaching one mask at one ply the one with more word points is kept, its
    evaluation being the same) and the ``width`` best form the next ply. A line with no legal
    play is a finished game and is offered at once, as is a child that clears the board. All
    the per-child work is done with numpy on the play arrays; a :class:`Line` is built only
    for the children that make the next ply.

Anytime: iterated beams
    The search runs beams of growing width, ``width``, ``width × growth``, ... until the budget
    is spent (or, with ``growth <= 1``, a single beam). The first beam (width 1 by default) is a
    greedy game guided by the evaluation and ends within a few dozen states, so even a very
    short limit gives a sound game; each later beam costs about ``growth`` times the one before,
    so whatever the limit, at least ``1 - 1/growth`` of it goes to the widest beam run. The
    plays of a position are cached by mask in :class:`Game`, so states revisited by a wider
    beam are cheap (they still count in a state budget). Sizing one beam from the limit instead
    would need the speed of the machine, and would make a state budget and a time limit give
    different searches; iterating needs neither.

End of the budget
    ``context.stopped`` is polled before every expansion. When it turns true, the lines of the
    current ply (the expanded ones, and those still waiting) are finished greedily with
    :meth:`SearchContext.complete_greedily` (best lines first, at most ``finish`` of them) and
    offered; then the search returns.

Determinism: every choice is made by sorts with explicit tie-breaks (score, then mask, then
order of generation), never by the clock, so a state budget and a seed give the same game on
every machine. The seed is not used: the search has no random choice.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .base import Line, PlaySet, SearchContext, Strategy, StrategyParams
from .evaluation import Evaluator, EvalWeights

_DEFAULT_WEIGHTS = EvalWeights()


@dataclass
class BeamParams(StrategyParams):
    """Parameters of :class:`BeamStrategy`.

    :param width: lines kept per ply in the first beam.
    :param growth: each later beam is this many times wider; ``<= 1`` runs one beam only.
    :param max_width: widest beam run (0: no cap); once reached the search ends.
    :param branch: children kept per line before the ply's lines are ranked together.
    :param finish: at most this many partial lines are finished greedily when the budget ends.
    :param points_weight: see :class:`EvalWeights` (and for the four weights below).
    """

    width: int = 1
    growth: float = 2.0
    max_width: int = 0
    branch: int = 64
    finish: int = 4
    points_weight: float = _DEFAULT_WEIGHTS.points_weight
    hard_weight: float = _DEFAULT_WEIGHTS.hard_weight
    balance_weight: float = _DEFAULT_WEIGHTS.balance_weight
    clear_weight: float = _DEFAULT_WEIGHTS.clear_weight
    penalty_weight: float = _DEFAULT_WEIGHTS.penalty_weight
    urgency: float = _DEFAULT_WEIGHTS.urgency
    late: int = 4
    late_tiles: int = 36

    def __post_init__(self) -> None:
        for name in ("width", "branch", "finish"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, not {getattr(self, name)}")
        if self.max_width < 0:
            raise ValueError(f"max_width must be >= 0, not {self.max_width}")

    @property
    def weights(self) -> EvalWeights:
        return EvalWeights(
            points_weight=self.points_weight,
            hard_weight=self.hard_weight,
            balance_weight=self.balance_weight,
            clear_weight=self.clear_weight,
            penalty_weight=self.penalty_weight,
            urgency=self.urgency,
        )


class _Stopped(Exception):
    """The budget ran out inside a beam (after its partial lines were finished)."""


class BeamStrategy(Strategy):
    name = "beam"
    summary = "iterated beam search, growing width, ranked by points plus an end-game evaluation"
    Params = BeamParams

    def run(self, context: SearchContext) -> None:
        params = self.params
        assert isinstance(params, BeamParams)
        evaluator = Evaluator(context.game.layout, params.weights)
        # The plain greedy game first: a few states, and the search never ends below greedy.
        context.offer(context.complete_greedily(context.start_line()))
        width = params.width
        while not context.stopped:
            try:
                self._beam(context, evaluator, width)
            except _Stopped:
                return
            # Reported in the record's ``search``: how far the iteration got.
            context.extra["beams"] = context.extra.get("beams", 0) + 1
            context.extra["widest_beam"] = width
            if params.growth <= 1 or (params.max_width and width >= params.max_width):
                return
            wider = max(width + 1, int(width * params.growth))
            width = min(wider, params.max_width) if params.max_width else wider

    def _beam(
        self, context: SearchContext, evaluator: Evaluator, width: int, start: Line | None = None
    ) -> None:
        """One beam of ``width`` lines per ply, from ``start`` (by default the empty line) to
        the end of every line."""
        params = self.params
        assert isinstance(params, BeamParams)
        beam = [start if start is not None else context.start_line()]
        rounds = beam[0].rounds
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
                    raise _Stopped
                plays = context.plays(line)
                expanded.append(plays)
                if len(plays) == 0:
                    context.offer(line)
                    continue
                child_masks = np.int64(line.mask) & ~plays.tiles
                value = (line.word_points + plays.scores) + evaluator.evaluate(child_masks, rounds)
                if len(plays) > branch:
                    # The branch best, in the order of the plays (best tally first).
                    keep = np.sort(np.argpartition(-value, branch - 1)[:branch])
                    child_masks, value = child_masks[keep], value[keep]
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
            beam = self._next_ply(beam, expanded, parents, picks, masks, values, ply_width)

    @staticmethod
    def _next_ply(
        beam: list[Line],
        expanded: list[PlaySet],
        parents: list[np.ndarray],
        picks: list[np.ndarray],
        masks: list[np.ndarray],
        values: list[np.ndarray],
        width: int,
    ) -> list[Line]:
        """The ``width`` best candidates, one per mask, as lines."""
        if not parents:
            return []
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
        next_beam = []
        for i in chosen:
            plays, j = expanded[parent[i]], pick[i]
            next_beam.append(
                beam[parent[i]].then(
                    int(plays.word_ids[j]), int(plays.tiles[j]), int(plays.scores[j])
                )
            )
        return next_beam

    def _finish(self, context: SearchContext, beam: list[Line]) -> None:
        """Finish greedily and offer the ``finish`` best lines of the current ply (the beam is
        in rank order)."""
        params = self.params
        assert isinstance(params, BeamParams)
        for rank, line in enumerate(beam[: params.finish]):
            # Each completion costs a few states at most, but on a loaded machine stop after
            # the first one if the time limit is already well past.
            limit = context.time_limit
            if rank and limit is not None and context.elapsed > 1.05 * limit:
                break
            context.offer(context.complete_greedily(line))

"""``dfs``: depth-first branch and bound, with a transposition table and an admissible bound.

The search walks the game tree depth first, children in tally order (so its first dive is the
greedy game, offered at once), and offers every finished game that beats the best so far. A
child is cut when the points gained so far, plus the play's tally, plus the admissible bound of
:mod:`solver.search.bound` on what can follow, cannot beat the best game found. With no
``branch`` cap and unlimited time the search is **exhaustive**: the best game it returns is
then optimal among the games made of plays of the full class with the move limit ``K``
(RULES.md section 10), and :attr:`DfsStrategy.proven` says so.

By default the search runs in passes of growing width (iterative broadening, ``widen``): pass
``w`` searches at most the ``w`` best children of each node that the bound does not cut. A
single depth-first pass spends its time at the bottom of the tree, changing only the last few
plays of the greedy game; the narrow passes first try other plays near the root too, which is
where the large gains are (deals 1 to 8 of the benchmark, 3 s each: mean 598 with passes against
546 with one pass). The last pass is not limited by its width, so the search stays exhaustive;
the transposition table keeps what earlier passes learnt.

Upper bounds, and when the optimum is proven
--------------------------------------------
Every visit returns an upper bound on the points still to gain from its node, valid whatever
the incumbent and even when the search stopped half-way: the maximum, over the node's plays, of
the play's tally plus the child's bound (the bound that cut the child, or the one its visit
returned, whichever is lower), and never more than the node's own bound. At the root this is
an upper bound on the optimum (``upper_bound`` in its :class:`DfsReport`); the best game
found is proven optimal exactly when its score reaches it. With no cap and no stop, it always
does.

The transposition table
-----------------------
Two lines that remove the same tiles reach the same board (:class:`solver.board.Position`), but not
always the same future: a word cannot be played twice, and the clear bonus depends on the
rounds. The table is keyed by the tile mask and stores, per mask, entries
``(relevant played words, rounds, bound)``, where *relevant* played words are those whose
letters still fit in the letters on the board: any other played word can never be formed
again, so it has no effect on the future, and leaving it out lets lines that played different
words reach the same entry. A new visit of the mask, with relevant played words ``P`` and
``r`` rounds, is bounded by the entry ``(P', r', U)`` when ``P' ⊆ P``:

* every line of plays legal from ``(mask, P)`` is legal from ``(mask, P')``; the game may not
  end where it ended (fewer words are barred) but playing on never lowers the final score (a
  word's tally is the tally of its tiles, and ``tally(A ∪ B) ≥ tally(A) + tally(B)``, so the
  points a word earns are at least what its tiles would have cost as leftovers), hence the
  future from ``(mask, P)`` is at most the future from ``(mask, P')``;
* with ``r < r'`` a clear comes ``r' − r`` rounds earlier, worth at most ``10 × (r' − r)``
  more bonus.

So the future of the new visit is at most ``U + 10 × max(0, r' − r)``, and the visit is cut
when that cannot beat the best game. This is exact (no false cut, whatever the order of
visits), which is what an exact solver needs; keying by ``(mask, played set)`` would also be
exact but would miss every transposition through different words. The table holds at most
``tt_size`` masks, forgetting the oldest first (deterministically).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..config import ENTRIES_PER_MASK, PROFILE_CACHE_CELLS
from ..movegen import layout_codes
from ..rules import CLEAR_BONUS_PER_ROUND, clear_bonus, is_vowel
from .base import Line, SearchContext, SearchReport, Strategy, StrategyParams, param
from .bound import VOWEL_CODES, BoundTables, Profile
from .registry import register

ORDERS = ("tally", "bound")


@dataclass
class DfsParams(StrategyParams):
    """Parameters of ``dfs``.

    :ivar order: the order in which a node's plays are tried: ``tally`` (best tally first, so
        the first dive is the greedy game) or ``bound`` (the highest upper bound first: tally
        plus the bound on what can follow).
    :ivar branch: at most this many children are searched per node (0: all of them). A cap
        makes the search incomplete: a capped run proves its game optimal only if every
        skipped child could be cut by the bound anyway.
    :ivar widen: search in passes of growing width (iterative broadening): the first pass
        searches only the first child of each node (the greedy game), the next ones the first
        2, 3, ... 8, 10, 12, 15, ... children (each step a quarter more), until a pass is no
        longer limited by its width (the search is then complete) or reaches ``branch``. The
        transposition table carries over from pass to pass. Off: one pass, capped by
        ``branch`` only.
    :ivar tt_size: at most this many tile masks in the transposition table.
    """

    order: str = param("tally", choices=ORDERS)
    branch: int = param(0, 0, 1_000_000)
    widen: bool = True
    # About 200 bytes an entry: the cap keeps the table within a few GB.
    tt_size: int = param(1_000_000, 0, 20_000_000)


class _Entry(NamedTuple):
    """A transposition-table entry: an upper bound on the future of a mask reached with the
    ``relevant`` played words after ``rounds`` rounds."""

    relevant: frozenset[int]
    rounds: int
    bound: int


@dataclass
class DfsReport(SearchReport):
    """What the branch and bound established (``upper_bound``: the bound on the optimum).

    :ivar proven: whether the game found is optimal (for the class of plays searched).
    :ivar start_bound: the letter-packing bound of the starting position.
    :ivar width: the width of the last pass.
    """

    proven: bool | None = None
    start_bound: int | None = None
    width: int | None = None


@register
class DfsStrategy(Strategy[DfsParams, DfsReport]):
    """Depth-first branch and bound (see the module docstring). Its first pass, one child per
    node, is the greedy game.

    After :meth:`run`, :attr:`proven` tells whether the game found is optimal (within the
    class of plays searched) and :attr:`upper_bound` bounds the optimum; both are also in the
    report.
    """

    name = "dfs"
    Params = DfsParams
    Report = DfsReport
    summary = "depth-first branch and bound: greedy first, then better games; exact given time"

    def __init__(self, params: DfsParams | None = None) -> None:
        super().__init__(params)
        self.proven = False
        self.upper_bound: int | None = None

    def _search(self, context: SearchContext) -> _Search:
        """The search to run."""
        return _Search(context, self.params)

    def run(self, context: SearchContext) -> None:
        params, report = self.params, self.report(context)
        search = self._search(context)
        upper = None
        width = 1 if params.widen else params.branch
        while True:
            search.width = width
            search.limited = False
            found = search.visit_root()
            # Every pass returns a valid bound on the optimum: keep the lowest.
            upper = found if upper is None else min(upper, found)
            if context.stopped or not search.limited or width == params.branch:
                break
            width += max(1, width // 4)
            if params.branch:
                width = min(width, params.branch)
        self.upper_bound = upper
        self.proven = context.best_score is not None and context.best_score >= upper
        report.proven, report.upper_bound = self.proven, upper
        report.start_bound, report.width = search.start_bound, width


class _Search:
    """One run of the search: the context, the tables and the transposition table."""

    def __init__(self, context: SearchContext, params: DfsParams) -> None:
        self.context = context
        self.params = params
        game = context.game
        self.game = game
        self.tables = BoundTables.of(game.dictionary)
        self.min_length = game.rules.min_word_length
        self.codes = layout_codes(game.layout)
        self.squares = np.arange(self.codes.shape[0], dtype=np.int64)
        self.vowel_mask = sum(1 << sq for sq, letter in game.layout.tiles() if is_vowel(letter))
        self.table: OrderedDict[int, list[_Entry]] = OrderedDict()
        self._profiles: OrderedDict[tuple[int, frozenset[int]], Profile] = OrderedDict()
        self._profile_cells = 0
        self._needs: dict[int, tuple[tuple[int, int], ...]] = {}
        self.start_bound: int | None = None
        #: Children searched per node in the current pass (0: all).
        self.width = 0
        #: Whether the current pass skipped a child for its width.
        self.limited = False

    # --- helpers ------------------------------------------------------------------------

    def _cut(self, total: int) -> bool:
        """Whether a game worth at most ``total`` cannot beat the best found."""
        best = self.context.best_score
        return best is not None and total <= best

    def _counts(self, mask: int) -> np.ndarray:
        """``int[26]``: the letters of the tiles in ``mask``."""
        present = (np.int64(mask) >> self.squares) & 1 == 1
        return np.bincount(self.codes[present], minlength=26)

    def _letters(self, word_id: int) -> np.ndarray:
        """``int[26]``: the letters of a word."""
        return self.tables.counts[self.tables.position[word_id]].astype(np.int64)

    def _fits(self, word_id: int, counts: list[int]) -> bool:
        """Whether the word's letters are among ``counts`` (a list, faster to index here)."""
        needs = self._needs.get(word_id)
        if needs is None:
            letters = self._letters(word_id)
            needs = self._needs[word_id] = tuple(
                (int(code), int(letters[code])) for code in np.flatnonzero(letters)
            )
        return all(counts[code] >= count for code, count in needs)

    def _profile(self, mask: int, relevant: frozenset[int], counts: np.ndarray) -> Profile:
        """The bound's profile of a node, remembered: the passes of growing width come back to
        the same nodes. The words played that no longer fit need not be excluded."""
        key = (mask, relevant)
        profile = self._profiles.get(key)
        if profile is not None:
            self._profiles.move_to_end(key)
            return profile
        profile = self.tables.profile(counts, self.min_length, relevant, self._allowed(mask))
        self._profiles[key] = profile
        self._profile_cells += profile.table.size
        while self._profile_cells > PROFILE_CACHE_CELLS and len(self._profiles) > 1:
            _, evicted = self._profiles.popitem(last=False)
            self._profile_cells -= evicted.table.size
        return profile

    def _allowed(self, mask: int) -> np.ndarray | None:
        """The words the bound may count from ``mask`` (``bool[words]``), or ``None`` for every
        word that fits the letters; the bound looks only at the letters here."""
        return None

    def _recall(self, mask: int, relevant: frozenset[int], rounds: int) -> int | None:
        """The lowest bound the table gives for this visit, or ``None``."""
        entries = self.table.get(mask)
        if not entries:
            return None
        known = None
        for entry in entries:
            if entry.relevant <= relevant:
                bound = entry.bound + CLEAR_BONUS_PER_ROUND * max(0, entry.rounds - rounds)
                known = bound if known is None else min(known, bound)
        return known

    def _store(self, mask: int, relevant: frozenset[int], rounds: int, bound: int) -> None:
        if self.params.tt_size == 0:
            return
        entries = self.table.get(mask)
        if entries is None:
            if len(self.table) >= self.params.tt_size:
                self.table.popitem(last=False)
            self.table[mask] = [_Entry(relevant, rounds, bound)]
            return
        for index, entry in enumerate(entries):
            if entry.relevant == relevant and entry.rounds == rounds:
                entries[index] = entry._replace(bound=min(entry.bound, bound))
                return
        entries.append(_Entry(relevant, rounds, bound))
        if len(entries) > ENTRIES_PER_MASK:
            del entries[0]

    # --- the search ---------------------------------------------------------------------

    def visit_root(self) -> int:
        """Search the whole game; return an upper bound on its best score."""
        line = self.context.start_line()
        return self.visit(line, self._counts(line.mask), frozenset())

    def visit(self, line: Line, counts: np.ndarray, relevant: frozenset[int]) -> int:
        """Search the subtree after ``line``; return an upper bound on the points still to gain
        from it (valid even if the search stopped inside).

        :param counts: the letters of the tiles left.
        :param relevant: the words played whose letters are still among ``counts``.
        """
        context = self.context
        mask, rounds, gained = line.mask, line.rounds, line.word_points
        if mask == 0:
            context.offer(line)
            return clear_bonus(rounds)
        known = self._recall(mask, relevant, rounds)
        if known is not None and self._cut(gained + known):
            return known

        # The node's own bound (one dictionary pass) cuts before the costly play generation.
        profile = self._profile(mask, relevant, counts)
        vowels = int(counts[VOWEL_CODES].sum())
        consonants = mask.bit_count() - vowels
        own = int(profile.future(vowels, consonants, rounds))
        if self.start_bound is None:
            self.start_bound = own
        if known is not None:
            own = min(own, known)
        if self._cut(gained + own):
            self._store(mask, relevant, rounds, own)
            return own

        plays = context.plays(line)
        if len(plays) == 0:
            context.offer(line)
            value = -self.game.leftover_tally(mask)
            self._store(mask, relevant, rounds, value)
            return value

        # bounds[i]: the most the game can still gain through play i (its tally, plus the
        # bound inherited from this node's profile for what follows).
        removed = np.bitwise_count(plays.tiles).astype(np.int64)
        removed_vowels = np.bitwise_count(plays.tiles & self.vowel_mask).astype(np.int64)
        after = profile.future(
            vowels - removed_vowels, consonants - (removed - removed_vowels), rounds + 1
        )
        bounds = plays.scores + after
        values = bounds.copy()
        if self.params.order == "bound":
            order = np.argsort(-bounds, kind="stable")
        else:
            order = np.arange(len(plays))
        if context.best_score is not None:
            order = order[gained + bounds[order] > context.best_score]

        searched = 0
        for index in order.tolist():
            if self._cut(gained + int(bounds[index])):
                if self.params.order == "bound":
                    break  # the rest are bounded lower still
                continue
            if self.width and searched >= self.width:
                self.limited = True
                break
            if context.stopped:
                break
            searched += 1
            score, word = int(plays.scores[index]), int(plays.word_ids[index])
            child = line.then(word, int(plays.tiles[index]), score)
            left = counts - self._letters(word)
            listed = left.tolist()
            still = frozenset(w for w in (*relevant, word) if self._fits(w, listed))
            values[index] = min(values[index], score + self.visit(child, left, still))
        upper = min(own, int(values.max()))
        self._store(mask, relevant, rounds, upper)
        return upper

"""Play generation: a numba kernel that finds every play the rules allow (``RULES.md`` section 10).

A **play** is ``(word, tiles removed)``, with one witness: the moves, in a legal order, and
the word's path. The kernel generates the **full class**: every play with each tile moving at
most once (``moves_per_tile = 1``), optionally with at most ``K`` moves (``max_moves``;
``None`` for no limit). :mod:`solver.reference` generates the same plays the slow, plain way,
and the tests compare the two on hundreds of positions.

What a play is, square by square
--------------------------------
At the start of a turn every tile stands on its dealt square. Each tile moves at most once
and must end on the word's path, so each path square ends up holding either its own tile,
which *stays*, or a *mover*, a tile whose one move ends there; a path square whose own tile
moved must be refilled by a mover. Which orders of the moves are legal is decided by
pairwise precedences, "move ``a`` before move ``b``":

* a mover landing on a square that held a tile at the start comes after that tile leaves;
* for a consonant, each square strictly between its origin and its destination must be
  empty when it moves: a tile dealt there must have moved before (so it must be a mover),
  and a mover landing there must come after.

A cycle of moves can never be made (its first move would land on an occupied square), so a
legal order exists exactly when these precedences are acyclic; the witness's order is the
smallest topological order by origin square (the first legal order in the lexicographic
order of the moves sorted by square, as the reference finds it).

How the kernel works
--------------------
A depth-first search over paths, walking the dictionary's trie (:mod:`solver.kernels.trie`)
one letter per square, so a path dies as soon as its letters are no word's prefix. At each
new square it tries the square's own tile (unless that tile has moved or must move), then
each tile that could move there: a vowel a knight's jump away, a consonant on a row, column
or diagonal, whose letter continues the prefix. It carries three bitboards of tiles:

* ``moved``: the movers chosen so far;
* ``must``: the tiles that have to move: the own tile of every refilled square, and every
  tile standing between a consonant mover and its destination;
* ``stay``: the tiles standing on the path unmoved (a consonant's line through one of them
  is closed for good).

The tiles in ``must`` but not yet in ``moved`` (the *pool*) still need a square later on the
path, so a prefix dies when the pool holds more tiles than any word below the trie node has
letters still to come, or a letter no such word has; with a move limit, when ``moved`` and
``must`` together exceed ``K``. When the prefix is a word with an empty pool, the
precedences are checked (and the witness's order found) by a topological sort.

Every witness goes into a hash table keyed by ``(word, tiles)`` that keeps, per play, the
smallest witness by :meth:`solver.play.Play.witness_key` (fewest moves, then path, then
moves), so the output is one row per play.

Pieces, deadlines and the bounded mode
--------------------------------------
The search runs in *pieces*, the paths from one first square (with more than 3 moves, from
one first square on to one second square), called from Python one after the other into the
same table: between pieces Python polls a stop test (a deadline, a flag) and lets Ctrl-C
through, so generation stops within one piece's time (milliseconds with a small move limit;
with none, about a tenth of a second, up to two seconds on the densest deals). A piece that
fills the table is run again into a larger one; that is harmless, since the table keeps one
witness per play whatever is written twice.

With ``best=N`` the table also counts its plays by tally and keeps a *threshold*, the N-th
best tally found so far: a prefix whose trie node has no word tallying as much
(:class:`solver.kernels.trie.NodeSummaries`) is cut, and no play below it is recorded. The
plays found so far being real plays, the threshold never exceeds the N-th best tally of the
position, so every play among the best N (and every play tied with the N-th) is found, with
the same witness as in a full generation. ``min_tally=T`` is the same with a fixed threshold.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import NamedTuple

import numpy as np

from .board import Layout
from .dictionary import Dictionary
from .kernels.bits import lowest_square, popcount
from .kernels.jit import kernel
from .kernels.letters import IS_VOWEL, letter_codes
from .kernels.paths import following_squares
from .kernels.trie import ROOT, child, child_mask, is_word
from .play import Play, canonical_plays
from .rules import Rules
from .squares import (
    BETWEEN_TABLE,
    KNIGHT_TABLE,
    MAX_DISTANCE,
    NEIGHBOUR_MASKS,
    NUM_SQUARES,
    QUEEN_TABLE,
    WITHIN_TABLE,
    squares_of,
)

__all__ = [
    "GenerationStopped",
    "RawPlays",
    "deadline_stop",
    "generate_plays",
    "layout_codes",
    "played_flags",
    "raw_plays",
    "witness",
]

#: Rows of the play table at first; a piece that fills it is run again with twice as many.
_INITIAL_ROWS = 1 << 14
#: Path squares a row holds at first (longer words are rare); widened when a longer one comes.
_INITIAL_WIDTH = 16
#: No tally is higher: every square a vowel.
_MAX_TALLY = 2 * NUM_SQUARES * NUM_SQUARES
#: The time a piece of the search aims at (well under the 0.2 s in which a stop must be seen).
PIECE_SECONDS = 0.02
#: A bitboard of every square.
_ALL_SQUARES = (1 << NUM_SQUARES) - 1
#: A letter mask allowing every letter.
_ANY_LETTER = (1 << 26) - 1

# What a piece returns.
_DONE, _TABLE_FULL, _TOO_LONG = 0, 1, 2
# The table's counters (``_Table.state``).
_ROWS, _THRESHOLD, _BEST_N, _ABOVE = 0, 1, 2, 3


class GenerationStopped(Exception):
    """Raised by :func:`raw_plays` and :func:`generate_plays` when their ``stop`` test turned
    true between two pieces of the search: the plays are incomplete, none is returned."""


def deadline_stop(
    deadline: float, clock: Callable[[], float] = time.monotonic
) -> Callable[[], bool]:
    """A ``stop`` test for :func:`raw_plays`: true once ``clock()`` reaches ``deadline``."""
    return lambda: clock() >= deadline


class RawPlays(NamedTuple):
    """Plays as arrays, one row per play ``(word, tiles)`` with its smallest witness.

    :ivar word_ids: ``int64[n]`` dictionary word ids.
    :ivar tiles: ``int64[n]`` bitboards of the tiles removed (by dealt square).
    :ivar scores: ``int64[n]`` tallies.
    :ivar path_lengths: ``int64[n]``.
    :ivar paths: ``int8[n, L]`` path squares in reading order; entries past the row's path
        length are undefined.
    :ivar move_counts: ``int64[n]``.
    :ivar moves: ``int8[n, M, 2]`` ``(from, to)`` in a legal order; entries past the row's
        move count are undefined.
    """

    word_ids: np.ndarray
    tiles: np.ndarray
    scores: np.ndarray
    path_lengths: np.ndarray
    paths: np.ndarray
    move_counts: np.ndarray
    moves: np.ndarray

    def take(self, rows: np.ndarray) -> RawPlays:
        """The rows selected by a boolean mask or index array."""
        return RawPlays(*(array[rows] for array in self))


class _Search(NamedTuple):
    """Everything one generation reads: the position, the trie, the rules (kernel input)."""

    codes: np.ndarray  # int64[63]: letter code of the tile dealt to each square, -1 if none
    remaining: int  # bitboard of the tiles on the board
    reach_tiles: np.ndarray  # int64[63]: tiles that one move may bring to each square
    reach_letters: np.ndarray  # int64[63]: their letters (26-bit masks)
    letter_tiles: np.ndarray  # int64[26]: the tiles of each letter
    nodes: np.ndarray
    word_ids: np.ndarray
    max_tally: np.ndarray
    longest_below: np.ndarray
    letters_below: np.ndarray
    played: np.ndarray  # bool[words]
    spell: np.ndarray  # int64[depth + 1]: letters allowed at each depth (witness of one word)
    line_shape: bool
    min_length: int
    min_moves: int
    max_moves: int  # 63 for no limit


class _Frames(NamedTuple):
    """The search stack (one entry per path square, entry 0 being the empty path) and the
    scratch of the move-order check: allocated once per generation, reused by every piece."""

    square: np.ndarray
    node: np.ndarray
    filler: np.ndarray  # the mover on the square, -1 when its own tile stays
    moved: np.ndarray
    must: np.ndarray
    stay: np.ndarray
    path: np.ndarray
    vowels: np.ndarray
    squares_left: np.ndarray  # next squares still to try
    square_now: np.ndarray  # the square being filled by movers ...
    letters_left: np.ndarray  # ... the letters still to try there ...
    letter_now: np.ndarray  # ... the letter being tried ...
    child_now: np.ndarray  # ... its trie node ...
    tiles_left: np.ndarray  # ... and the tiles of that letter still to try
    pending: np.ndarray  # the tiles that must land on the path past the square being filled
    origins: np.ndarray  # the order check: movers' origins, destinations, order, precedences
    targets: np.ndarray
    order: np.ndarray
    before: np.ndarray
    mover_from: np.ndarray  # int64[63]: index of the mover dealt to a square, -1 if none
    mover_to: np.ndarray  # int64[63]: index of the mover landing on a square, -1 if none


class _Table(NamedTuple):
    """The plays found: a hash table of ``(word, tiles)`` pointing at rows, one per play."""

    slots: np.ndarray  # int32[2 * rows]: row index, -1 for a free slot
    word_ids: np.ndarray
    tiles: np.ndarray
    scores: np.ndarray
    path_lengths: np.ndarray
    move_counts: np.ndarray
    paths: np.ndarray  # int8[rows, width]
    moves: np.ndarray  # int8[rows, width, 2]
    state: np.ndarray  # int64[4]: rows used, threshold, best N (0: off), rows >= threshold
    score_counts: np.ndarray  # int64[scores]: rows per tally (best N only)


@kernel
def _reach(codes, remaining, max_moves):
    """``(reach_tiles, reach_letters)`` per square: the tiles one move could bring there on
    some board (a vowel a knight's jump away; a consonant on a line, with at most
    ``max_moves - 1`` tiles between, since each of them must move first)."""
    reach_tiles = np.zeros(NUM_SQUARES, dtype=np.int64)
    reach_letters = np.zeros(NUM_SQUARES, dtype=np.int64)
    if max_moves == 0:
        return reach_tiles, reach_letters
    vowels = np.int64(0)
    consonants = np.int64(0)
    rest = remaining
    while rest:
        sq = lowest_square(rest)
        rest &= rest - 1
        if IS_VOWEL[codes[sq]]:
            vowels |= np.int64(1) << sq
        else:
            consonants |= np.int64(1) << sq
    for target in range(NUM_SQUARES):
        tiles = KNIGHT_TABLE[target] & vowels
        rest = QUEEN_TABLE[target] & consonants
        while rest:
            origin = lowest_square(rest)
            rest &= rest - 1
            if popcount(BETWEEN_TABLE[origin, target] & remaining) < max_moves:
                tiles |= np.int64(1) << origin
        reach_tiles[target] = tiles
        while tiles:
            origin = lowest_square(tiles)
            tiles &= tiles - 1
            reach_letters[target] |= np.int64(1) << codes[origin]
    return reach_tiles, reach_letters


@kernel(inline=True)
def _letters_of(search, tiles):
    """The letters (26-bit mask) of the tiles of a bitboard."""
    letters = np.int64(0)
    while tiles:
        letters |= np.int64(1) << search.codes[lowest_square(tiles)]
        tiles &= tiles - 1
    return letters


@kernel(inline=True)
def _targets_of(search, tiles):
    """The squares one move of some tile of ``tiles`` may reach, on some board."""
    targets = np.int64(0)
    while tiles:
        tile = lowest_square(tiles)
        tiles &= tiles - 1
        targets |= KNIGHT_TABLE[tile] if IS_VOWEL[search.codes[tile]] else QUEEN_TABLE[tile]
    return targets


@kernel(inline=True)
def _pool_fits(search, pool, node, square, path):
    """Whether the tiles of ``pool``, which must still land on the path beyond ``square``
    (the path's last square, trie ``node``), may all fit: no more of them than letters to
    come below the node, no letter none of its words has next, and each able to reach a
    square off the ``path`` that the path can still get to."""
    reach = search.longest_below[node]
    if popcount(pool) > reach:
        return False
    if _letters_of(search, pool) & ~search.letters_below[node]:
        return False
    ahead = WITHIN_TABLE[square, min(reach, MAX_DISTANCE)] & ~path
    while pool:
        tile = lowest_square(pool)
        pool &= pool - 1
        targets = KNIGHT_TABLE[tile] if IS_VOWEL[search.codes[tile]] else QUEEN_TABLE[tile]
        if not targets & ahead:
            return False
    return True


@kernel(inline=True)
def _move_order(search, frames, depth):
    """Find the witness's move order for the path ``frames[1..depth]`` (see the module
    docstring): the movers sorted by origin are left in ``frames.origins/targets[:n]`` and
    their order in ``frames.order[:n]``. Returns ``n``, or -1 if no order is legal."""
    origins, targets, order, before = frames.origins, frames.targets, frames.order, frames.before
    count = 0
    for i in range(1, depth + 1):
        tile = frames.filler[i]
        if tile < 0:
            continue
        # Insertion by origin: there are at most a dozen or so movers.
        j = count
        while j > 0 and origins[j - 1] > tile:
            origins[j] = origins[j - 1]
            targets[j] = targets[j - 1]
            j -= 1
        origins[j] = tile
        targets[j] = frames.square[i]
        count += 1
    for i in range(count):
        frames.mover_from[origins[i]] = i
        frames.mover_to[targets[i]] = i
        before[i] = 0
    remaining = search.remaining
    for i in range(count):
        target = targets[i]
        if remaining >> target & 1:  # its tile leaves first (it is a mover: the pool is empty)
            before[i] |= np.int64(1) << frames.mover_from[target]
        if not IS_VOWEL[search.codes[origins[i]]]:
            between = BETWEEN_TABLE[origins[i], target]
            while between:
                sq = lowest_square(between)
                between &= between - 1
                if remaining >> sq & 1:  # the tile dealt there moves out of the way first
                    before[i] |= np.int64(1) << frames.mover_from[sq]
                lands = frames.mover_to[sq]
                if lands >= 0:  # a tile landing there comes later
                    before[lands] |= np.int64(1) << i
    done = np.int64(0)
    legal = True
    for step in range(count):
        pick = -1
        for i in range(count):
            if not done >> i & 1 and before[i] & ~done == 0:
                pick = i
                break
        if pick < 0:
            legal = False
            break
        order[step] = pick
        done |= np.int64(1) << pick
    for i in range(count):
        frames.mover_from[origins[i]] = -1
        frames.mover_to[targets[i]] = -1
    return count if legal else -1


@kernel(inline=True)
def _slot(word_id, tiles, mask):
    """The first hash slot of a play: its key mixed by splitmix64's finaliser (every bit of
    the key reaches the low bits the mask keeps)."""
    h = np.uint64(tiles) ^ (np.uint64(word_id) * np.uint64(0x9E3779B97F4A7C15))
    h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return np.int64(h & np.uint64(mask))


@kernel(inline=True)
def _smaller_witness(table, row, frames, depth, count):
    """Whether the witness in ``frames`` comes before the one stored in ``row`` (fewest
    moves, then path, then moves, as :meth:`solver.play.Play.witness_key`)."""
    if count != table.move_counts[row]:
        return count < table.move_counts[row]
    for i in range(depth):
        stored = table.paths[row, i]
        if frames.square[i + 1] != stored:
            return frames.square[i + 1] < stored
    for k in range(count):
        i = frames.order[k]
        if frames.origins[i] != table.moves[row, k, 0]:
            return frames.origins[i] < table.moves[row, k, 0]
        if frames.targets[i] != table.moves[row, k, 1]:
            return frames.targets[i] < table.moves[row, k, 1]
    return False


@kernel(inline=True)
def _write_witness(table, row, frames, depth, count):
    for i in range(depth):
        table.paths[row, i] = frames.square[i + 1]
    for k in range(count):
        table.moves[row, k, 0] = frames.origins[frames.order[k]]
        table.moves[row, k, 1] = frames.targets[frames.order[k]]
    table.move_counts[row] = count


@kernel(inline=True)
def _count_row(table, score):
    """Count a new row's tally towards the best-N threshold, and raise the threshold while
    at least N rows tally more than it."""
    state = table.state
    if state[_BEST_N] == 0:
        return
    table.score_counts[score] += 1
    state[_ABOVE] += 1
    while state[_ABOVE] - table.score_counts[state[_THRESHOLD]] >= state[_BEST_N]:
        state[_ABOVE] -= table.score_counts[state[_THRESHOLD]]
        state[_THRESHOLD] += 1


@kernel(inline=True)
def _record(search, table, frames, depth, word_id, tiles, score):
    """Put the play on ``frames[1..depth]`` into the table if its moves have a legal order,
    or its witness if smaller than the one kept. Returns a piece status."""
    count = _move_order(search, frames, depth)
    if count < 0:
        return _DONE
    if depth > table.paths.shape[1]:
        return _TOO_LONG
    mask = table.slots.shape[0] - 1
    slot = _slot(word_id, tiles, mask)
    while True:
        row = table.slots[slot]
        if row < 0:
            break
        if table.word_ids[row] == word_id and table.tiles[row] == tiles:
            if _smaller_witness(table, row, frames, depth, count):
                _write_witness(table, row, frames, depth, count)
            return _DONE
        slot = (slot + 1) & mask
    row = table.state[_ROWS]
    if row == table.word_ids.shape[0]:
        return _TABLE_FULL
    table.state[_ROWS] = row + 1
    table.slots[slot] = row
    table.word_ids[row] = word_id
    table.tiles[row] = tiles
    table.scores[row] = score
    table.path_lengths[row] = depth
    _write_witness(table, row, frames, depth, count)
    _count_row(table, score)
    return _DONE


@kernel(counted=False)
def _search_from(search, table, frames, start, second):
    """Every play whose path starts on ``start`` and goes on to a square of the bitboard
    ``second`` (or ends there), into ``table``. Returns
    :data:`_DONE`, or :data:`_TABLE_FULL` / :data:`_TOO_LONG` when the table needs more rows
    or wider ones (then run the piece again into a larger table)."""
    nodes = search.nodes
    remaining = search.remaining
    limit = search.max_moves
    depth_cap = frames.square.shape[0] - 1
    frames.node[0] = ROOT
    for array in (frames.moved, frames.must, frames.stay, frames.path, frames.vowels):
        array[0] = 0
    frames.squares_left[0] = np.int64(1) << start
    frames.letters_left[0] = 0
    frames.tiles_left[0] = 0
    depth = 0
    while depth >= 0:
        d = depth
        threshold = table.state[_THRESHOLD]
        stay = frames.stay[d]
        if frames.tiles_left[d]:
            # Fill the square with the next tile of the letter being tried.
            tile = lowest_square(frames.tiles_left[d])
            frames.tiles_left[d] &= frames.tiles_left[d] - 1
            square = frames.square_now[d]
            code = frames.letter_now[d]
            kid = frames.child_now[d]
            moved = frames.moved[d] | (np.int64(1) << tile)
            must = frames.must[d] | ((np.int64(1) << square) & remaining)
            if not IS_VOWEL[code]:
                blockers = BETWEEN_TABLE[tile, square] & remaining
                if blockers & stay:
                    continue
                must |= blockers
            if popcount(moved | must) > limit:
                continue
            filler = tile
        elif frames.letters_left[d]:
            # The next letter movers could bring to the square: its tiles come next.
            code = lowest_square(frames.letters_left[d])
            frames.letters_left[d] &= frames.letters_left[d] - 1
            kid = child(nodes, frames.node[d], code)
            if search.max_tally[kid] < threshold:
                continue
            tiles = (
                search.reach_tiles[frames.square_now[d]]
                & search.letter_tiles[code]
                & ~(frames.moved[d] | stay)
            )
            # The tiles that must still land beyond this square (the pool, and the square's
            # own tile): if the words below cannot take them all, this square must take one.
            pool = frames.pending[d]
            spare = search.longest_below[kid] - popcount(pool)
            unplaced = _letters_of(search, pool) & ~search.letters_below[kid]
            if spare < -1 or unplaced & ~(np.int64(1) << code):
                continue
            if spare == -1 or unplaced:
                tiles &= pool
            frames.letter_now[d] = code
            frames.child_now[d] = kid
            frames.tiles_left[d] = tiles
            continue
        elif frames.squares_left[d]:
            # The next square: first its own tile, staying; its movers in the next iterations.
            square = lowest_square(frames.squares_left[d])
            frames.squares_left[d] &= frames.squares_left[d] - 1
            node = frames.node[d]
            allowed = child_mask(nodes, node) & search.spell[d]
            frames.square_now[d] = square
            frames.letters_left[d] = 0
            bit = np.int64(1) << square
            moved = frames.moved[d]
            committed = moved | frames.must[d]
            pool = committed & ~moved
            # The movers that may come: a tile of the pool, or any tile if the move limit
            # leaves room for one more (the square's own tile must then move too), and the
            # tiles that must land past this square (the pool, and the square's own tile)
            # need letters to come: if there is one too few, this square takes one of them.
            pending = (committed | (bit & remaining)) & ~moved
            spare = search.longest_below[node] - 1 - popcount(pending)
            frames.pending[d] = pending
            needed = popcount(committed | (bit & remaining))
            if spare >= 0 and needed < limit:
                frames.letters_left[d] = search.reach_letters[square]
            elif spare >= -1 and needed <= limit:
                frames.letters_left[d] = _letters_of(search, pool & search.reach_tiles[square])
            frames.letters_left[d] &= allowed
            if not remaining & bit or committed & bit:
                continue
            code = search.codes[square]
            if not allowed >> code & 1:
                continue
            kid = child(nodes, node, code)
            if search.max_tally[kid] < threshold:
                continue
            filler = -1
            moved = frames.moved[d]
            must = frames.must[d]
            stay |= bit
        else:
            depth -= 1
            continue

        pool = must & ~moved
        path = frames.path[d] | (np.int64(1) << square)
        if pool and not _pool_fits(search, pool, kid, square, path):
            continue
        # Push the square.
        depth = d + 1
        frames.square[depth] = square
        frames.node[depth] = kid
        frames.filler[depth] = filler
        frames.moved[depth] = moved
        frames.must[depth] = must
        frames.stay[depth] = stay
        frames.path[depth] = path
        frames.vowels[depth] = frames.vowels[d] + IS_VOWEL[code]
        frames.letters_left[depth] = 0
        frames.tiles_left[depth] = 0
        if depth >= depth_cap:
            frames.squares_left[depth] = 0
        else:
            previous = frames.square[d] if d > 0 else -1
            frames.squares_left[depth] = following_squares(
                search.line_shape, previous, square, frames.path[depth]
            )
            if pool and popcount(pool) == search.longest_below[kid]:
                # Every letter to come is a tile of the pool: only squares they reach.
                frames.squares_left[depth] &= _targets_of(search, pool)
            if depth == 1:
                frames.squares_left[depth] &= second

        # Is the path a play?
        if pool or depth < search.min_length or not is_word(nodes, kid):
            continue
        word_id = search.word_ids[kid]
        score = (depth + frames.vowels[depth]) * depth
        if search.played[word_id] or score < threshold or popcount(moved) < search.min_moves:
            continue
        status = _record(search, table, frames, depth, word_id, moved | stay, score)
        if status != _DONE:
            return status
    return _DONE


@kernel(counted=False)
def _search_squares(search, table, frames, pieces):
    """:func:`_search_from` each ``(start, second)`` row of ``pieces`` in turn. Returns
    ``(status, index)``: :data:`_DONE` and the number of rows, or the status of the first row
    that did not finish and its index (it and the rows after it are still to do)."""
    for i in range(pieces.shape[0]):
        status = _search_from(search, table, frames, pieces[i, 0], pieces[i, 1])
        if status != _DONE:
            return status, i
    return _DONE, pieces.shape[0]


@kernel
def _rebuild_slots(table):
    """Enter every row of ``table`` into its (cleared) hash slots."""
    mask = table.slots.shape[0] - 1
    for row in range(table.state[_ROWS]):
        slot = _slot(table.word_ids[row], table.tiles[row], mask)
        while table.slots[slot] >= 0:
            slot = (slot + 1) & mask
        table.slots[slot] = row


def _new_table(rows: int, width: int, moves_width: int, best: int, threshold: int) -> _Table:
    # Rows are written only up to their path length and move count: no need to clear them.
    return _Table(
        slots=np.full(2 * rows, -1, dtype=np.int32),
        word_ids=np.empty(rows, dtype=np.int32),
        tiles=np.empty(rows, dtype=np.int64),
        scores=np.empty(rows, dtype=np.int32),
        path_lengths=np.empty(rows, dtype=np.int8),
        move_counts=np.empty(rows, dtype=np.int8),
        paths=np.empty((rows, width), dtype=np.int8),
        moves=np.empty((rows, moves_width, 2), dtype=np.int8),
        state=np.array([0, threshold, best, 0], dtype=np.int64),
        score_counts=np.zeros(max(_MAX_TALLY, threshold) + 2 if best else 1, dtype=np.int64),
    )


def _grown(table: _Table, rows: int, width: int, moves_width: int) -> _Table:
    """A copy of ``table`` with room for ``rows`` rows of ``width`` path squares."""
    used = int(table.state[_ROWS])
    bigger = _new_table(rows, width, moves_width, 0, 0)._replace(
        state=table.state.copy(), score_counts=table.score_counts
    )
    for name in ("word_ids", "tiles", "scores", "path_lengths", "move_counts"):
        getattr(bigger, name)[:used] = getattr(table, name)[:used]
    bigger.paths[:used, : table.paths.shape[1]] = table.paths[:used]
    bigger.moves[:used, : table.moves.shape[1]] = table.moves[:used]
    _rebuild_slots(bigger)
    return bigger


def layout_codes(layout: Layout) -> np.ndarray:
    """``int64[63]``: letter code (0..25) of the tile dealt to each square, -1 for none."""
    return letter_codes(layout.letters)


def played_flags(dictionary: Dictionary, played: Iterable[str]) -> np.ndarray:
    """``bool[words]``: True at the id of every word in ``played`` that is in the dictionary."""
    flags = np.zeros(len(dictionary), dtype=np.bool_)
    for word in played:
        if word.lower() in dictionary:
            flags[dictionary.word_id(word.lower())] = True
    return flags


def _search_input(
    layout: Layout,
    remaining: int,
    dictionary: Dictionary,
    rules: Rules,
    limit: int,
    played: Iterable[str],
    spell: str | None,
) -> _Search:
    codes = layout_codes(layout)
    reach_tiles, reach_letters = _reach(codes, np.int64(remaining), limit)
    letter_tiles = np.zeros(26, dtype=np.int64)
    for sq, letter in layout.tiles():
        if remaining >> sq & 1:
            letter_tiles[ord(letter) - ord("A")] |= 1 << sq
    depth = remaining.bit_count()
    allowed = np.full(depth + 1, _ANY_LETTER, dtype=np.int64)
    if spell is not None:
        allowed[:] = 0
        allowed[: len(spell)] = [1 << (ord(c) - ord("A")) for c in spell.upper()[: depth + 1]]
    arrays, summaries = dictionary.arrays, dictionary.summaries
    return _Search(
        codes=codes,
        remaining=remaining,
        reach_tiles=reach_tiles,
        reach_letters=reach_letters,
        letter_tiles=letter_tiles,
        nodes=arrays.nodes,
        word_ids=arrays.word_ids,
        max_tally=summaries.max_tally,
        longest_below=summaries.longest_below,
        letters_below=summaries.letters_below,
        played=played_flags(dictionary, played),
        spell=allowed,
        line_shape=rules.word_shape == "line",
        min_length=rules.min_word_length,
        min_moves=rules.min_moves,
        max_moves=limit,
    )


def _frames(depth: int) -> _Frames:
    stack = [np.zeros(depth + 1, dtype=np.int64) for _ in range(len(_Frames._fields) - 2)]
    squares = [np.full(NUM_SQUARES, -1, dtype=np.int64) for _ in range(2)]
    return _Frames(*stack, *squares)


def _check_arguments(layout: Layout, remaining: int, max_moves: int | None) -> int:
    """The move limit the kernel takes (63 for none), after checking the arguments."""
    if max_moves is not None and max_moves < 0:
        raise ValueError(f"max_moves must be >= 0 or None, not {max_moves}")
    if remaining & ~layout.tile_mask:
        raise ValueError("the remaining mask names squares that hold no tile in the layout")
    return NUM_SQUARES if max_moves is None else min(max_moves, NUM_SQUARES)


def raw_plays(
    layout: Layout,
    remaining_mask: int,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int | None,
    played: Iterable[str] = (),
    *,
    best: int | None = None,
    min_tally: int = 0,
    stop: Callable[[], bool] | None = None,
    spell: str | None = None,
) -> RawPlays:
    """Run the kernel: every play of the full class with at most ``max_moves`` moves
    (``None``: no limit), one row per play with its smallest witness, in no particular order.

    :param best: keep only the ``best`` plays by tally, and every play tied with the last of
        them (the bounded mode: much faster than generating every play).
    :param min_tally: keep only the plays tallying at least this.
    :param stop: polled between the pieces of the search; when it returns true,
        :class:`GenerationStopped` is raised. Ctrl-C (``KeyboardInterrupt``) stops the same way.
    :param spell: only plays of this word (any case; used by :func:`witness`).
    """
    limit = _check_arguments(layout, remaining_mask, max_moves)
    if best is not None and best < 1:
        raise ValueError(f"best must be at least 1, not {best}")
    search = _search_input(layout, remaining_mask, dictionary, rules, limit, played, spell)
    depth = min(remaining_mask.bit_count(), int(search.longest_below[ROOT]))
    frames = _frames(depth)
    width = min(_INITIAL_WIDTH, depth)
    moves_width = max(1, min(width, limit))
    table = _new_table(_INITIAL_ROWS, max(width, 1), moves_width, best or 0, min_tally)
    starts = [sq for sq in range(NUM_SQUARES) if remaining_mask >> sq & 1 or search.reach_tiles[sq]]
    # With many moves a square can take a second: cut by second square from the start.
    pieces = _Pieces(starts, cut=limit > 3)
    while (piece := pieces.next()) is not None:
        started = time.perf_counter()
        while True:
            status, done = _search_squares(search, table, frames, piece)
            if status == _DONE:
                break
            # Run the row that needed room again, into a larger table, and those after it.
            piece = piece[done:]
            rows = table.word_ids.shape[0] * (2 if status == _TABLE_FULL else 1)
            if status == _TOO_LONG:
                width = depth
                moves_width = max(1, min(width, limit))
            table = _grown(table, rows, width, moves_width)
        pieces.took(time.perf_counter() - started)
        if stop is not None and stop():
            raise GenerationStopped
    return _rows(table, best)


class _Pieces:
    """The search cut into pieces for :func:`_search_squares`: rows ``(start, second)``, the
    paths from the square ``start`` on to a square of the bitboard ``second``. A row is a
    whole square (``second``: all its neighbours), or, once one square took longer than
    :data:`PIECE_SECONDS` (or from the start, with ``cut``), one second square. A piece
    holds one row at first, then, while rows are whole squares, as many as take about
    :data:`PIECE_SECONDS` by the time the last ones took (a kernel call costs some
    microseconds, a whole square microseconds to a second); rows cut by second square go one
    at a time."""

    def __init__(self, starts: list[int], cut: bool) -> None:
        self.rows = [(sq, _ALL_SQUARES) for sq in starts]
        self.size = 1
        self.given = 0
        self.cut = False
        if cut:
            self._cut_the_rest()

    def next(self) -> np.ndarray | None:
        if self.given >= len(self.rows):
            return None
        piece = self.rows[self.given : self.given + self.size]
        self.given += len(piece)
        return np.array(piece, dtype=np.int64)

    def took(self, seconds: float) -> None:
        per_row = seconds / max(self.size, 1)
        if per_row > PIECE_SECONDS:
            self._cut_the_rest()
        if self.cut:
            return  # rows cut by second square vary too much to be grouped: one at a time
        self.size = max(1, min(2 * self.size, int(PIECE_SECONDS / max(per_row, 1e-7))))

    def _cut_the_rest(self) -> None:
        self.cut = True
        self.size = 1
        rest = []
        for start, second in self.rows[self.given :]:
            if second != _ALL_SQUARES:
                rest.append((start, second))
                continue
            rest += [(start, 1 << sq) for sq in squares_of(NEIGHBOUR_MASKS[start])]
        self.rows[self.given :] = rest


def _rows(table: _Table, best: int | None) -> RawPlays:
    used = int(table.state[_ROWS])
    raw = RawPlays(
        word_ids=table.word_ids[:used].astype(np.int64),
        tiles=table.tiles[:used].copy(),
        scores=table.scores[:used].astype(np.int64),
        path_lengths=table.path_lengths[:used].astype(np.int64),
        paths=table.paths[:used],
        move_counts=table.move_counts[:used].astype(np.int64),
        moves=table.moves[:used],
    )
    if best is None or used <= best:
        return raw
    # The best N and their ties: every play tallying at least the N-th best.
    nth = np.partition(raw.scores, used - best)[used - best]
    return raw.take(raw.scores >= nth)


def _play_of(raw: RawPlays, row: int, dictionary: Dictionary) -> Play:
    length = int(raw.path_lengths[row])
    count = int(raw.move_counts[row])
    return Play(
        dictionary.word(int(raw.word_ids[row])).upper(),
        int(raw.tiles[row]),
        tuple((int(a), int(b)) for a, b in raw.moves[row, :count]),
        tuple(int(sq) for sq in raw.paths[row, :length]),
        int(raw.scores[row]),
    )


def witness(
    layout: Layout,
    remaining_mask: int,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int | None,
    word: str,
    tiles_mask: int,
) -> Play | None:
    """The play of ``word`` with the tiles ``tiles_mask`` from the position, with the same
    witness :func:`generate_plays` would give it, or ``None`` if it cannot be played. Much
    cheaper than :func:`generate_plays`: the search follows only that word's letters."""
    if word.lower() not in dictionary or not word.isalpha():
        return None
    raw = raw_plays(layout, remaining_mask, dictionary, rules, max_moves, spell=word)
    rows = np.flatnonzero(raw.tiles == tiles_mask)
    return _play_of(raw, int(rows[0]), dictionary) if len(rows) else None


def generate_plays(
    layout: Layout,
    remaining_mask: int,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int | None,
    played: Iterable[str] = (),
    *,
    best: int | None = None,
    min_tally: int = 0,
    stop: Callable[[], bool] | None = None,
) -> list[Play]:
    """Every play of the full class with at most ``max_moves`` moves (``None``: no limit),
    one per ``(word, tiles)`` with its smallest witness, best first (highest tally, then word,
    then tiles).

    :param layout: the opening layout.
    :param remaining_mask: bitboard of the tiles still on the board (see
        :class:`solver.board.Position`).
    :param played: words already played (any case); they are not generated again.
    :param best: only the first ``best`` of that list, found much faster.
    :param min_tally: only the plays tallying at least this.
    :param stop: see :func:`raw_plays`.
    """
    raw = raw_plays(
        layout,
        remaining_mask,
        dictionary,
        rules,
        max_moves,
        played,
        best=best,
        min_tally=min_tally,
        stop=stop,
    )
    plays = canonical_plays(_play_of(raw, row, dictionary) for row in range(len(raw.word_ids)))
    return plays if best is None else plays[:best]

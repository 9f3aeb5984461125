"""The play generator of issue 4, kept as a baseline for ``bench_movegen.py``: the numba
kernel of the *standard class* (at most K tiles move, each from off the word's path onto a
path square empty at the start), as it was before the full class replaced it. Not part of the
package; its plays are the full class's for K <= 1 and a subset for K >= 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
from numba import njit as kernel

from solver.board import Layout
from solver.dictionary import Dictionary
from solver.kernels.bits import popcount as _popcount
from solver.kernels.trie import ROOT
from solver.kernels.trie import child as _child
from solver.kernels.trie import child_mask as _child_mask
from solver.kernels.trie import is_word as _is_word
from solver.kernels.trie import word_id_at as _word_id_at
from solver.play import Play, canonical_plays
from solver.rules import Rules
from solver.squares import (
    BETWEEN_TABLE,
    KNIGHT_TABLE,
    NEIGHBOUR_TABLE,
    NEXT_SQUARE,
    NUM_SQUARES,
    STEP_DIRECTION,
)

#: Rows of the output buffers at first; a run that fills them is redone with 4 times more.
_INITIAL_CAPACITY = 16384
_VOWEL_CODES = np.array([ord(v) - ord("A") for v in "AEIOU"], dtype=np.int64)


class RawPlays(NamedTuple):
    """The kernel's output: one row per witness found.

    :ivar word_ids: ``int64[n]`` dictionary word ids.
    :ivar tiles: ``int64[n]`` bitboards of the tiles removed (by origin square).
    :ivar scores: ``int64[n]`` tallies.
    :ivar path_lengths: ``int64[n]``.
    :ivar paths: ``int8[n, L]`` path squares in reading order; entries past the row's path
        length are undefined.
    :ivar move_counts: ``int64[n]``.
    :ivar moves: ``int8[n, K, 2]`` ``(from, to)`` in a legal order; entries past the row's
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


@kernel
def _lowest_square(mask):
    return _popcount((mask & -mask) - 1)


@kernel
def _is_vowel_code(code):
    return code == 0 or code == 4 or code == 8 or code == 14 or code == 20


@kernel
def _reach_tables(codes, remaining, max_moves):
    """``reach[sq]``: tiles that could move to the empty square ``sq`` this turn (see the module
    docstring); 0 for occupied squares."""
    reach = np.zeros(NUM_SQUARES, dtype=np.int64)
    if max_moves == 0:
        return reach
    vowels = np.int64(0)
    consonants = np.int64(0)
    for sq in range(NUM_SQUARES):
        if remaining >> sq & 1:
            if _is_vowel_code(codes[sq]):
                vowels |= np.int64(1) << sq
            else:
                consonants |= np.int64(1) << sq
    for target in range(NUM_SQUARES):
        if remaining >> target & 1:
            continue
        tiles = KNIGHT_TABLE[target] & vowels
        rest = consonants
        while rest:
            origin = _lowest_square(rest)
            rest &= rest - 1
            between = BETWEEN_TABLE[origin, target]
            if between >= 0 and _popcount(between & remaining) < max_moves:
                tiles |= np.int64(1) << origin
        reach[target] = tiles
    return reach


@kernel
def _order_is_legal(codes, remaining, origins, targets, order, count):
    board = remaining
    for i in range(count):
        origin = origins[order[i]]
        target = targets[order[i]]
        if not _is_vowel_code(codes[origin]) and BETWEEN_TABLE[origin, target] & board:
            return False
        board = (board & ~(np.int64(1) << origin)) | (np.int64(1) << target)
    return True


@kernel
def _next_permutation(order, count):
    """Step ``order[:count]`` to the next permutation in lexicographic order; False after the
    last one."""
    i = count - 2
    while i >= 0 and order[i] >= order[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = count - 1
    while order[j] <= order[i]:
        j -= 1
    order[i], order[j] = order[j], order[i]
    order[i + 1 : count] = order[i + 1 : count][::-1].copy()
    return True


@kernel
def _legal_order(codes, remaining, origins, targets, count, order, rank, sorted_moves):
    """Sort the moves by ``(from, to)``, then find their first legal permutation; it is left in
    ``order[:count]`` (indices into ``origins``/``targets``). False if none is legal.
    ``rank`` and ``sorted_moves`` are scratch arrays of the same size as ``order``."""
    for i in range(count):
        sorted_moves[i] = i
    # Insertion sort: count is at most K, a handful.
    for i in range(1, count):
        j = i
        while j > 0 and (
            origins[sorted_moves[j - 1]] > origins[sorted_moves[j]]
            or (
                origins[sorted_moves[j - 1]] == origins[sorted_moves[j]]
                and targets[sorted_moves[j - 1]] > targets[sorted_moves[j]]
            )
        ):
            sorted_moves[j - 1], sorted_moves[j] = sorted_moves[j], sorted_moves[j - 1]
            j -= 1
    # Usually no consonant's line crosses a tile or another move's target: then every order
    # is legal, the sorted one first.
    target_mask = np.int64(0)
    for i in range(count):
        target_mask |= np.int64(1) << targets[i]
    independent = True
    for i in range(count):
        consonant = not _is_vowel_code(codes[origins[i]])
        if consonant and BETWEEN_TABLE[origins[i], targets[i]] & (remaining | target_mask):
            independent = False
    for i in range(count):
        rank[i] = i
    while True:
        for i in range(count):
            order[i] = sorted_moves[rank[i]]
        if independent or _order_is_legal(codes, remaining, origins, targets, order, count):
            return True
        if not _next_permutation(rank, count):
            return False


# Columns of the kernel's output: ``head`` (int64) holds these, ``body`` (int8, squares) holds
# the path and then the moves.
_COL_WORD, _COL_TILES, _COL_SCORE, _COL_LENGTH, _COL_MOVES = 0, 1, 2, 3, 4
_HEAD_COLUMNS = 5


@kernel
def _write_row(out, row, word_id, tiles, score, path_square, depth, origins, targets, order, count):
    head, body = out
    head[row, _COL_WORD] = word_id
    head[row, _COL_TILES] = tiles
    head[row, _COL_SCORE] = score
    head[row, _COL_LENGTH] = depth
    head[row, _COL_MOVES] = count
    for i in range(depth):
        body[row, i] = path_square[i + 1]
    moves_at = body.shape[1] - 2 * origins.shape[0]
    for i in range(count):
        body[row, moves_at + 2 * i] = origins[order[i]]
        body[row, moves_at + 2 * i + 1] = targets[order[i]]


@kernel
def _emit_assignments(
    codes,
    remaining,
    reach,
    letter_squares,
    path_square,
    depth,
    path_mask,
    wild_square,
    wild_letter,
    count,
    word_id,
    score,
    out,
    found,
    base,
    cand_left,
    chosen,
    order,
    rank,
    sorted_moves,
):
    """Choose the tiles for the path's ``count`` empty squares (``wild_square``, to be filled
    with ``wild_letter``) in every possible way and write one row per choice that has a legal
    move order. Returns the new row count, or -1 when ``out`` is full. The last six arguments
    are scratch arrays of K entries."""
    capacity = out[0].shape[0]
    fixed_tiles = path_mask & remaining
    if count == 0:
        if found == capacity:
            return -1
        _write_row(
            out,
            found,
            word_id,
            fixed_tiles,
            score,
            path_square,
            depth,
            chosen,
            wild_square,
            order,
            0,
        )
        return found + 1
    for i in range(count):
        # Off the path, with the right letter, able to reach the square.
        base[i] = reach[wild_square[i]] & letter_squares[wild_letter[i]] & ~path_mask
        if base[i] == 0:
            return found
    order[0] = 0
    if count == 1:
        # One move: legal unless a consonant's line is blocked.
        target = wild_square[0]
        candidates = base[0]
        while candidates:
            tile = _lowest_square(candidates)
            candidates &= candidates - 1
            if not _is_vowel_code(codes[tile]) and BETWEEN_TABLE[tile, target] & remaining:
                continue
            if found == capacity:
                return -1
            chosen[0] = tile
            _write_row(
                out,
                found,
                word_id,
                fixed_tiles | (np.int64(1) << tile),
                score,
                path_square,
                depth,
                chosen,
                wild_square,
                order,
                1,
            )
            found += 1
        return found
    level = 0
    cand_left[0] = base[0]
    used = np.int64(0)
    while level >= 0:
        if cand_left[level] == 0:
            level -= 1
            if level >= 0:
                used &= ~(np.int64(1) << chosen[level])
            continue
        tile = _lowest_square(cand_left[level])
        cand_left[level] &= cand_left[level] - 1
        chosen[level] = tile
        if level < count - 1:
            used |= np.int64(1) << tile
            level += 1
            cand_left[level] = base[level] & ~used
            continue
        # A consonant's line may cross tiles only if they move away too (cheap test first).
        moving = used | (np.int64(1) << tile)
        blocked = False
        for i in range(count):
            consonant = not _is_vowel_code(codes[chosen[i]])
            if consonant and BETWEEN_TABLE[chosen[i], wild_square[i]] & remaining & ~moving:
                blocked = True
        if blocked:
            continue
        if not _legal_order(
            codes, remaining, chosen, wild_square, count, order, rank, sorted_moves
        ):
            continue
        if found == capacity:
            return -1
        _write_row(
            out,
            found,
            word_id,
            fixed_tiles | moving,
            score,
            path_square,
            depth,
            chosen,
            wild_square,
            order,
            count,
        )
        found += 1
    return found


@kernel
def _generate(
    codes,
    remaining,
    nodes,
    word_ids,
    played,
    line_shape,
    min_length,
    min_moves,
    max_moves,
    out,
):
    """Every witness of every play of the standard class; see the module docstring.

    The search branches on *letters* at empty squares, not on tiles: which tile brings the
    letter is chosen only once the path spells a playable word (:func:`_emit_assignments`),
    so tiles with the same letter do not multiply the prefixes explored.

    :param codes: ``int64[63]`` letter code (0..25) of the tile dealt to each square, -1 if none.
    :param remaining: bitboard of the tiles still on the board.
    :param played: ``bool[words]``, True for word ids already played.
    :param out: ``(head, body)`` from :func:`_allocate`, one row per witness (see
        :func:`_split_columns`); the width of ``body`` bounds the word length.
    :returns: the number of rows written, or -1 if ``out`` was too small.
    """
    max_length = out[1].shape[1] - 2 * max(max_moves, 1)
    reach = _reach_tables(codes, remaining, max_moves)
    letter_squares = np.zeros(26, dtype=np.int64)
    for sq in range(NUM_SQUARES):
        if remaining >> sq & 1:
            letter_squares[codes[sq]] |= np.int64(1) << sq
    reach_letters = np.zeros(NUM_SQUARES, dtype=np.int64)
    for sq in range(NUM_SQUARES):
        tiles = reach[sq]
        while tiles:
            origin = _lowest_square(tiles)
            tiles &= tiles - 1
            reach_letters[sq] |= np.int64(1) << codes[origin]
    empty_squares = ~remaining & ((np.int64(1) << NUM_SQUARES) - 1)

    # The search stack, one frame per path square; frame 0 is the root, before any square.
    depth_cap = max_length + 1
    path_square = np.empty(depth_cap, dtype=np.int64)
    path_is_moved = np.zeros(depth_cap, dtype=np.bool_)
    node_at = np.empty(depth_cap, dtype=np.int64)
    squares_left = np.empty(depth_cap, dtype=np.int64)
    pending_target = np.empty(depth_cap, dtype=np.int64)
    letters_left = np.empty(depth_cap, dtype=np.int64)
    vowels_at = np.zeros(depth_cap, dtype=np.int64)
    moves_width = max(max_moves, 1)
    # The path's empty squares, in path order, and the letters they are to get.
    wild_square = np.empty(moves_width, dtype=np.int64)
    wild_letter = np.empty(moves_width, dtype=np.int64)
    # Scratch for _emit_assignments, allocated once.
    base = np.empty(moves_width, dtype=np.int64)
    cand_left = np.empty(moves_width, dtype=np.int64)
    chosen = np.empty(moves_width, dtype=np.int64)
    order = np.empty(moves_width, dtype=np.int64)
    rank = np.empty(moves_width, dtype=np.int64)
    sorted_moves = np.empty(moves_width, dtype=np.int64)

    node_at[0] = ROOT
    squares_left[0] = remaining | (empty_squares if max_moves > 0 else np.int64(0))
    letters_left[0] = 0
    path_mask = np.int64(0)
    moves_used = 0
    depth = 0
    found = 0

    while depth >= 0:
        node = node_at[depth]
        if letters_left[depth] != 0:
            letter = _lowest_square(letters_left[depth])
            letters_left[depth] &= letters_left[depth] - 1
            square = pending_target[depth]
            moved = True
        elif squares_left[depth] != 0:
            square = _lowest_square(squares_left[depth])
            squares_left[depth] &= squares_left[depth] - 1
            if remaining >> square & 1:
                letter = codes[square]
                moved = False
            else:
                if moves_used < max_moves:
                    # The letters some tile could bring here; tried from the next iterations.
                    pending_target[depth] = square
                    letters_left[depth] = reach_letters[square] & _child_mask(nodes, node)
                continue
        else:
            # Every extension of this frame is done: pop it.
            if depth == 0:
                break
            path_mask &= ~(np.int64(1) << path_square[depth])
            if path_is_moved[depth]:
                moves_used -= 1
            depth -= 1
            continue

        child = _child(nodes, node, letter)
        if child < 0:
            continue

        # Push the square.
        depth += 1
        path_square[depth] = square
        path_is_moved[depth] = moved
        node_at[depth] = child
        vowels_at[depth] = vowels_at[depth - 1] + (1 if _is_vowel_code(letter) else 0)
        path_mask |= np.int64(1) << square
        if moved:
            wild_square[moves_used] = square
            wild_letter[moves_used] = letter
            moves_used += 1
        letters_left[depth] = 0
        if depth >= max_length:
            squares_left[depth] = 0
        elif depth >= 2 and line_shape:
            direction = STEP_DIRECTION[path_square[depth - 1], square]
            following = NEXT_SQUARE[square, direction]
            squares_left[depth] = 0 if following < 0 else (np.int64(1) << following) & ~path_mask
        else:
            squares_left[depth] = NEIGHBOUR_TABLE[square] & ~path_mask

        # Is the path a playable word?
        if depth < min_length or moves_used < min_moves or not _is_word(nodes, child):
            continue
        word_id = _word_id_at(word_ids, child)
        if played[word_id]:
            continue
        score = (depth + vowels_at[depth]) * depth
        found = _emit_assignments(
            codes,
            remaining,
            reach,
            letter_squares,
            path_square,
            depth,
            path_mask,
            wild_square,
            wild_letter,
            moves_used,
            word_id,
            score,
            out,
            found,
            base,
            cand_left,
            chosen,
            order,
            rank,
            sorted_moves,
        )
        if found < 0:
            return -1
    return found


def _allocate(rows: int, max_length: int, max_moves: int) -> tuple[np.ndarray, np.ndarray]:
    # Not initialised: each row is written only up to its path length and move count.
    head = np.empty((rows, _HEAD_COLUMNS), dtype=np.int64)
    body = np.empty((rows, max_length + 2 * max(max_moves, 1)), dtype=np.int8)
    return head, body


_LONGEST_WORD: dict[str, int] = {}


def _longest_word(dictionary: Dictionary) -> int:
    """Length of the longest word, capped at the number of squares (the search's depth)."""
    if dictionary.sha256 not in _LONGEST_WORD:
        longest = max((len(word) for word in dictionary), default=1)
        _LONGEST_WORD[dictionary.sha256] = min(longest, NUM_SQUARES)
    return _LONGEST_WORD[dictionary.sha256]


def layout_codes(layout: Layout) -> np.ndarray:
    """``int64[63]``: letter code (0..25) of the tile dealt to each square, -1 for none."""
    return np.array(
        [-1 if letter == "." else ord(letter) - ord("A") for letter in layout.letters],
        dtype=np.int64,
    )


def played_flags(dictionary: Dictionary, played: Iterable[str]) -> np.ndarray:
    """``bool[words]``: True at the id of every word in ``played`` that is in the dictionary."""
    flags = np.zeros(len(dictionary), dtype=np.bool_)
    for word in played:
        if word.lower() in dictionary:
            flags[dictionary.word_id(word.lower())] = True
    return flags


def _split_columns(head: np.ndarray, body: np.ndarray, max_moves: int) -> RawPlays:
    moves_at = body.shape[1] - 2 * max(max_moves, 1)
    return RawPlays(
        word_ids=head[:, _COL_WORD],
        tiles=head[:, _COL_TILES],
        scores=head[:, _COL_SCORE],
        path_lengths=head[:, _COL_LENGTH],
        paths=body[:, :moves_at],
        move_counts=head[:, _COL_MOVES],
        moves=body[:, moves_at:].reshape(body.shape[0], max(max_moves, 1), 2),
    )


def raw_plays(
    layout: Layout,
    remaining_mask: int,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int,
    played: Iterable[str] = (),
) -> RawPlays:
    """Run the kernel: every witness of every play, as arrays (see :class:`RawPlays`)."""
    if max_moves < 0:
        raise ValueError(f"max_moves must be >= 0, not {max_moves}")
    if remaining_mask & ~layout.tile_mask:
        raise ValueError("the remaining mask names squares that hold no tile in the layout")
    arrays = dictionary.arrays
    codes = layout_codes(layout)
    flags = played_flags(dictionary, played)
    rows = _INITIAL_CAPACITY
    while True:
        out = _allocate(rows, _longest_word(dictionary), max_moves)
        found = _generate(
            codes,
            np.int64(remaining_mask),
            arrays.nodes,
            arrays.word_ids,
            flags,
            rules.word_shape == "line",
            rules.min_word_length,
            rules.min_moves,
            max_moves,
            out,
        )
        if found >= 0:
            return _split_columns(out[0][:found], out[1][:found], max_moves)
        rows *= 4


def _smallest_witnesses(raw: RawPlays) -> np.ndarray:
    """Row numbers of one witness per ``(word, tiles)``: the smallest by
    :meth:`solver.play.Play.witness_key` (fewest moves, then path, then moves), found with numpy
    so that Python objects are made only for the rows kept."""
    rows = raw.word_ids.shape[0]
    if rows == 0:
        return np.zeros(0, dtype=np.int64)
    longest = int(raw.path_lengths.max())
    # Undefined entries (past a row's length or move count) become -1, which sorts first.
    paths = np.where(
        np.arange(longest)[None, :] < raw.path_lengths[:, None], raw.paths[:, :longest], -1
    )
    moves = raw.moves.reshape(rows, -1)
    moves = np.where(np.arange(moves.shape[1])[None, :] < 2 * raw.move_counts[:, None], moves, -1)
    # np.lexsort sorts by the last key first.
    keys = [*moves.T[::-1], *paths.T[::-1], raw.move_counts, raw.tiles, raw.word_ids]
    order = np.lexsort(keys)
    words, tiles = raw.word_ids[order], raw.tiles[order]
    first = np.ones(rows, dtype=np.bool_)
    first[1:] = (words[1:] != words[:-1]) | (tiles[1:] != tiles[:-1])
    return order[first]


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
    max_moves: int,
    word: str,
    tiles_mask: int,
) -> Play | None:
    """The play of ``word`` with the tiles ``tiles_mask`` from the position, with the same
    witness :func:`generate_plays` would give it, or ``None`` if it cannot be played. Cheaper
    than :func:`generate_plays` when only one play is wanted (writing a game record)."""
    if word.lower() not in dictionary:
        return None
    raw = raw_plays(layout, remaining_mask, dictionary, rules, max_moves)
    word_id = dictionary.word_id(word.lower())
    raw = raw.take((raw.word_ids == word_id) & (raw.tiles == tiles_mask))
    rows = _smallest_witnesses(raw)
    return _play_of(raw, int(rows[0]), dictionary) if len(rows) else None


def generate_plays(
    layout: Layout,
    remaining_mask: int,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int,
    played: Iterable[str] = (),
) -> list[Play]:
    """Every play of the standard class with at most ``max_moves`` moves, one per
    ``(word, tiles)`` with its smallest witness, best first (highest tally, then word, then
    tiles).

    :param layout: the opening layout.
    :param remaining_mask: bitboard of the tiles still on the board (see
        :class:`solver.board.Position`).
    :param played: words already played (any case); they are not generated again.
    """
    raw = raw_plays(layout, remaining_mask, dictionary, rules, max_moves, played)
    plays = [_play_of(raw, row, dictionary) for row in _smallest_witnesses(raw)]
    return canonical_plays(plays)

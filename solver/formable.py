"""Which words could ever be played from a position, whatever is played before them.

This is what makes the upper bound of :mod:`solver.search.bound` look at the board: a word
that fits the letters left may still never be formable, because its letters are nowhere near
each other. A numba kernel walks the dictionary's trie along paths of the grid, as the move
generator does, but with a much looser notion of a square's letter, so that it finds every
word that any later position could play, in one pass from the current one.

Why the relaxation is sound
---------------------------
Take a play with at most ``K`` moves (the full class with move limit ``K``, RULES.md section
10; a fortiori the standard class), made at any position reached from the current one (tiles
``remaining``) by any plays. Between turns every tile still on the board stands on the square
it was dealt to (every tile moved in a turn leaves with its word), and the tiles then on the
board are some of ``remaining``. The word's path is a path of distinct
squares, each step to a neighbour (or one straight line, for ``word_shape=line``), and each of
its squares is either

* *in place*: its own dealt tile, which did not move, so the word's letter there is the letter
  dealt to that square and the tile is in ``remaining``; or
* *wild*: filled by a moved tile (the square was empty, or its own tile moved away earlier in
  the turn). At most ``K`` tiles move, each once, from its dealt square: a vowel a knight's
  jump, a consonant along a row, column or diagonal, whatever stands between (tiles in its
  way may have moved first). So the letter there is the letter of some tile of ``remaining``
  dealt a knight's jump (vowel) or a queen line (consonant) away from the square, on an empty
  grid: :func:`reach_letters`.

The kernel explores exactly these paths (at most ``K`` wild squares, any square may be wild,
its letter any of the square's reach letters) and marks every dictionary word they spell, so
every word any later position plays within the class is marked. Nothing else is assumed: not
which squares are empty, not whether a consonant's line is clear, not which tile brings a
letter (so one tile may stand for two wild letters), hence "could ever".
"""

from __future__ import annotations

import numpy as np

from .board import Layout
from .dictionary import Dictionary
from .kernels.bits import lowest_square
from .kernels.jit import kernel
from .kernels.letters import VOWELS
from .kernels.paths import following_squares
from .kernels.trie import ROOT, child, child_mask, is_word, word_id_at
from .movegen import layout_codes
from .rules import Rules
from .squares import KNIGHT_MASKS, NUM_SQUARES, QUEEN_MASKS, Bitboard

#: Room for the placements of a first walk (a full deal has about 250,000 at K = 2, duplicates
#: included); a walk that finds more is run again with room for all.
FIRST_CAPACITY = 1 << 18
#: Paths never get longer than the grid has squares.
_MAX_DEPTH = NUM_SQUARES


@kernel
def _walk_paths(
    codes,
    remaining,
    nodes,
    word_ids,
    line_shape,
    min_length,
    max_moves,
    reach,
    wanted,
    formable,
    found_words,
    found_in_place,
):
    """Mark in ``formable`` (``bool[words]``, by word id) every ``wanted`` word of at least
    ``min_length`` letters spelt along a path of distinct squares with at most ``max_moves``
    wild squares (any square, a letter of ``reach[square]``), every other square in
    ``remaining`` and read with its dealt letter ``codes[square]``; and write each such path
    as a *placement*, ``(word id, bitboard of its sure squares)``, into ``found_words`` and
    ``found_in_place`` while they have room (duplicates included). See :func:`placements`.

    :returns: the number of placements found (more than the arrays hold if they were too
        small).
    """
    path_square = np.empty(_MAX_DEPTH + 1, dtype=np.int64)
    path_is_wild = np.zeros(_MAX_DEPTH + 1, dtype=np.bool_)
    in_place = np.zeros(_MAX_DEPTH + 1, dtype=np.int64)
    stand_in = np.zeros(_MAX_DEPTH + 1, dtype=np.int64)
    node_at = np.empty(_MAX_DEPTH + 1, dtype=np.int64)
    squares_left = np.empty(_MAX_DEPTH + 1, dtype=np.int64)
    wild_square = np.empty(_MAX_DEPTH + 1, dtype=np.int64)
    wild_letters = np.empty(_MAX_DEPTH + 1, dtype=np.int64)
    every_square = (np.int64(1) << NUM_SQUARES) - 1
    node_at[0] = ROOT
    squares_left[0] = every_square if max_moves > 0 else remaining
    wild_letters[0] = 0
    path_mask = np.int64(0)
    wild_used = 0
    depth = 0
    found = 0
    while depth >= 0:
        node = node_at[depth]
        if wild_letters[depth] != 0:
            letter = lowest_square(wild_letters[depth])
            wild_letters[depth] &= wild_letters[depth] - 1
            square = wild_square[depth]
            wild = True
        elif squares_left[depth] != 0:
            square = lowest_square(squares_left[depth])
            squares_left[depth] &= squares_left[depth] - 1
            own = codes[square] if remaining >> square & 1 else -1
            if wild_used < max_moves:
                # Also try the square filled by a moved tile (in the next iterations); with
                # its own letter that is the in-place path again, so leave that letter out
                # (the placement accounts for it: see the docstring).
                wild_square[depth] = square
                wild_letters[depth] = reach[square] & child_mask(nodes, node)
                if own >= 0:
                    wild_letters[depth] &= ~(np.int64(1) << own)
            if own < 0:
                continue
            letter = own
            wild = False
        else:
            if depth == 0:
                break
            path_mask &= ~(np.int64(1) << path_square[depth])
            if path_is_wild[depth]:
                wild_used -= 1
            depth -= 1
            continue

        kid = child(nodes, node, letter)
        if kid < 0:
            continue
        depth += 1
        path_square[depth] = square
        path_is_wild[depth] = wild
        node_at[depth] = kid
        path_mask |= np.int64(1) << square
        in_place[depth] = in_place[depth - 1]
        stand_in[depth] = stand_in[depth - 1]
        if wild:
            wild_used += 1
        else:
            in_place[depth] |= np.int64(1) << square
            if reach[square] >> letter & 1:
                stand_in[depth] |= np.int64(1) << square
        wild_letters[depth] = 0
        if depth >= _MAX_DEPTH:
            squares_left[depth] = 0
        else:
            previous = path_square[depth - 1] if depth >= 2 else -1
            squares_left[depth] = following_squares(line_shape, previous, square, path_mask)
        if depth >= min_length and is_word(nodes, kid):
            word = word_id_at(word_ids, kid)
            if wanted[word]:
                formable[word] = True
                if found < found_words.shape[0]:
                    found_words[found] = word
                    found_in_place[found] = in_place[depth]
                    if wild_used < max_moves:
                        found_in_place[found] &= ~stand_in[depth]
                found += 1
    return found


def reach_letters(layout: Layout, remaining: Bitboard) -> np.ndarray:
    """``int64[63]``: for each square, the 26-bit mask of the letters of the tiles of
    ``remaining`` that one move from their dealt square can bring there (a knight's jump for a
    vowel, a queen line on an empty grid for a consonant)."""
    reach = np.zeros(NUM_SQUARES, dtype=np.int64)
    for sq, letter in layout.tiles():
        if remaining >> sq & 1:
            targets = KNIGHT_MASKS[sq] if letter in VOWELS else QUEEN_MASKS[sq]
            bit = 1 << (ord(letter) - ord("A"))
            for target in range(NUM_SQUARES):
                if targets >> target & 1:
                    reach[target] |= bit
    return reach


def formable_words(
    layout: Layout,
    remaining: Bitboard,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int | None,
) -> np.ndarray:
    """``bool[words]`` by word id: the words that some position reached from ``(layout,
    remaining)`` might play with at most ``max_moves`` moves a turn; every word it leaves out
    can never be played from here (module docstring). With no limit (``None``) every word is
    marked: a walk with every square wild would find nearly all of them anyway.

    The letters are not counted: a marked word may need more of a letter than is left.
    """
    wanted = np.ones(len(dictionary), dtype=np.bool_)
    if max_moves is None:
        return wanted
    formable, _, _, _ = _walk(layout, remaining, dictionary, rules, max_moves, wanted, 0)
    return formable


def placements(
    layout: Layout,
    remaining: Bitboard,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int,
    wanted: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The distinct placements of the ``wanted`` words (``bool[words]`` by word id) that
    :func:`formable_words` would mark: pairs ``(word id, sure squares)``, sorted, as two
    ``int64`` arrays.

    Each path the kernel walks gives one: its *sure* squares are its in-place squares, less,
    when it has fewer than ``K`` wild squares, those whose own letter some tile could bring
    (the square's reach letters). Claim: a word played later in the class, along some path,
    leaves in place (unmoved, so removed by this word) every tile dealt to the sure squares of
    one of its placements. Proof: read the play's path as the kernel does, a square being in
    place whenever its dealt tile is still in ``remaining`` with the word's letter there.
    That is one of the kernel's paths (its wild squares are wild in the play, at most ``K``),
    and it differs from the play only on squares the play fills with a moved tile bearing the
    dealt letter (the dealt tile having gone): each is in place for the kernel, not in the
    play, and its letter is among its reach letters. There are at most ``K`` minus the
    kernel's wild squares of them, so if the kernel path uses all ``K`` there are none and
    every in-place square is in place in the play; otherwise they are all among the squares
    the sure squares leave out.
    """
    _, words, in_place, found = _walk(
        layout, remaining, dictionary, rules, max_moves, wanted, FIRST_CAPACITY
    )
    if found > len(words):  # the kernel counts on when full: run it again with room for all
        _, words, in_place, _ = _walk(
            layout, remaining, dictionary, rules, max_moves, wanted, found
        )
    pairs = np.unique(np.stack([words, in_place], axis=1), axis=0)
    return pairs[:, 0].copy(), pairs[:, 1].copy()


def _walk(
    layout: Layout,
    remaining: Bitboard,
    dictionary: Dictionary,
    rules: Rules,
    max_moves: int,
    wanted: np.ndarray,
    capacity: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Run the kernel: the formable flags, the first ``capacity`` placements found (words and
    sure squares) and how many were found in all."""
    if max_moves < 0:
        raise ValueError(f"max_moves must be >= 0, not {max_moves}")
    arrays = dictionary.arrays
    formable = np.zeros(len(dictionary), dtype=np.bool_)
    words = np.empty(capacity, dtype=np.int64)
    in_place = np.empty(capacity, dtype=np.int64)
    found = _walk_paths(
        layout_codes(layout),
        np.int64(remaining & layout.tile_mask),
        arrays.nodes,
        arrays.word_ids,
        rules.word_shape == "line",
        rules.min_word_length,
        max_moves,
        reach_letters(layout, remaining),
        wanted,
        formable,
        words,
        in_place,
    )
    kept = min(found, capacity)
    return formable, words[:kept], in_place[:kept], found

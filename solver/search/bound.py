"""An admissible upper bound on the points a position can still gain.

The bound looks only at the **letters** left on the board (their multiset), the words already
played and the number of rounds so far; it ignores where the tiles stand. It is what the
``dfs`` strategy prunes with, and what an exact solver can prune with.

How it is computed
------------------
For a multiset ``M`` of letters (``nv`` vowels, ``nc`` consonants, ``n = nv + nc``):

1. **Fitting words.** A dictionary word *fits* ``M`` when its letters, counted with
   multiplicity, are a sub-multiset of ``M``, it has at least ``min_word_length`` letters and it
   was not played yet. Every word played from now on fits ``M``, because the letters only ever
   get fewer. One pass over the dictionary (a numba kernel, words sorted by length so that only
   lengths up to ``n`` are read) counts the fitting words of each *shape* ``(length l, vowels
   v)``, and notes the longest fitting word ``L`` and the letters that occur in some fitting
   word (*covered* letters).
2. **Packing.** A word of shape ``(l, v)`` tallies ``(l + v) × l`` and uses ``v`` vowel and
   ``l − v`` consonant tiles. The future words use disjoint tiles and distinct words, so their
   total tally is at most the best *packing*: a choice of shapes, each used at most as many
   times as there are fitting words of that shape, using at most ``nv`` vowels and ``nc``
   consonants in all. A bounded knapsack over (vowels, consonants) gives that best packing
   ``P[a, b]`` for every ``a ≤ nv`` and ``b ≤ nc`` at once.
3. **Uncovered letters.** A letter that no fitting word contains can never be removed. If any
   tile has such a letter, the board cannot be cleared, those tiles end the game on the board,
   and the future words use only the other tiles: the bound is
   ``P[nv − uv, nc − uc] − tally(uncovered tiles)``, ``uv`` and ``uc`` being the uncovered
   vowels and consonants.
4. **Clear bonus.** Otherwise the bound is ``P[nv, nc] + max(0, 200 − 10 × (rounds + k))``
   with ``k = ⌈n / L⌉``, the fewest words that can remove ``n`` tiles when no word is longer
   than ``L`` (with ``n = 0``, the game is over: the bound is the bonus itself).

Admissibility
-------------
Claim: for a position with letters ``M``, played words ``W`` and ``r`` rounds, the final score
of any continuation minus the word points so far is at most the bound. Let the continuation
play words ``w1 … wk`` (tiles removed ``T1 … Tk``) and end with tiles ``R`` left.

* Each ``wi`` is in the dictionary, has at least ``min_word_length`` letters, is not in ``W``
  (and not among ``w1 … wi−1``), and its letters are those of ``Ti`` ⊆ ``M``: so it fits
  ``M`` and is one of the words counted in step 1 with its shape. The words are distinct, so a
  shape is used at most as often as it was counted. The ``Ti`` are disjoint, so the vowels of
  the words add up to at most ``nv`` and their consonants to at most ``nc``. Hence the word
  points ``Σ tally(wi) ≤ P[nv, nc]``; and since no ``wi`` contains an uncovered letter, the
  uncovered tiles are all in ``R`` and the ``wi`` use at most ``nv − uv`` vowels and
  ``nc − uc`` consonants: ``Σ tally(wi) ≤ P[nv − uv, nc − uc]``.
* If some tile is uncovered, ``R`` is not empty: there is no bonus and the penalty is
  ``tally(R) ≥ tally(uncovered tiles)`` (a tally only grows with more letters). Step 3's bound
  holds.
* Otherwise, if the continuation clears the board, each word has at most ``L`` letters (it
  fits ``M``), so ``k ≥ ⌈n / L⌉`` and the bonus ``max(0, 200 − 10 (r + k))`` is at most
  step 4's; if it does not clear, the penalty is ``≥ 0`` and the bonus is 0. Step 4's bound
  holds.

The bound never looks at the board, the move limit or the word shape, so it holds for every
rule variant, and a fortiori for the plays the search generates, with any move limit.

Children of a node
------------------
The words that fit a child's letters also fit its parent's, and a child reached by playing a
fitting word keeps every uncovered tile of its parent. So the parent's table ``P``, its
covered letters and its ``L`` give an admissible bound for every child, at the cost of one
table lookup: :meth:`Profile.future` is vectorised over the children. (The child's own profile
gives a tighter bound, at the cost of a dictionary pass.)
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..board import Layout
from ..dictionary import Dictionary
from ..kernels.bits import lowest_square
from ..kernels.jit import kernel
from ..kernels.letters import IS_VOWEL, VOWEL_CODES
from ..kernels.trie import ROOT, child, child_mask, is_word, parents
from ..rules import CLEAR_BONUS_BASE, CLEAR_BONUS_PER_ROUND, Rules, clear_bonus

#: Words longer than this are never counted: no board has more tiles than squares.
_MAX_LENGTH = 63
#: Up to this many letters, the fitting words are found by walking the trie along the letters;
#: with more, by reading every word (measured: the walk is faster up to about 28 letters).
WALK_LETTERS = 28


@kernel
def _word_tables(nodes, word_ids, words, is_vowel):
    """Every word's length, vowel count, letter mask and letter counts (``uint8``, saturating at
    255: such a word never fits anyway), indexed by word id, read off the kernel trie."""
    count = nodes.shape[0]
    parent, letter, depth = parents(nodes)
    lengths = np.zeros(words, dtype=np.int64)
    vowels = np.zeros(words, dtype=np.int64)
    masks = np.zeros(words, dtype=np.int64)
    counts = np.zeros((words, 26), dtype=np.uint8)
    for node in range(count):
        word = word_ids[node]
        if word < 0:
            continue
        lengths[word] = depth[node]
        step = node
        while step != ROOT:
            code = letter[step]
            if counts[word, code] < 255:
                counts[word, code] += 1
            masks[word] |= 1 << code
            vowels[word] += is_vowel[code]
            step = parent[step]
    return lengths, vowels, masks, counts


@kernel
def _fit_scan(lengths, vowels, masks, counts, start, stop, avail, excluded, shapes):
    """Count the fitting words by shape into ``shapes``, reading the words ``start:stop`` of
    the length-sorted arrays one by one (fast when many letters are left).

    :returns: ``(covered, longest)``.
    """
    avail_mask = 0
    for code in range(26):
        if avail[code] > 0:
            avail_mask |= 1 << code
    covered = 0
    longest = 0
    for i in range(start, stop):
        word_mask = masks[i]
        if word_mask & ~avail_mask or excluded[i]:
            continue
        fits = True
        rest = word_mask
        while rest:
            code = lowest_square(rest)
            if counts[i, code] > avail[code]:
                fits = False
                break
            rest &= rest - 1
        if not fits:
            continue
        shapes[lengths[i], vowels[i]] += 1
        covered |= word_mask
        if lengths[i] > longest:
            longest = lengths[i]
    return covered, longest


@kernel
def _fit_walk(nodes, word_ids, position, avail, excluded, min_length, is_vowel, shapes):
    """Same as :func:`_fit_scan`, by walking the dictionary's trie along the available letters
    only (fast when few letters are left: it visits only the prefixes that fit)."""
    avail_mask = 0
    for code in range(26):
        if avail[code] > 0:
            avail_mask |= 1 << code
    covered = 0
    longest = 0
    depth_limit = _MAX_LENGTH + 1
    node = np.zeros(depth_limit + 1, dtype=np.int64)
    rest = np.zeros(depth_limit + 1, dtype=np.int64)
    letter = np.zeros(depth_limit + 1, dtype=np.int64)
    vowel_count = np.zeros(depth_limit + 1, dtype=np.int64)
    letters = np.zeros(depth_limit + 1, dtype=np.int64)
    depth = 0
    node[0] = ROOT
    rest[0] = child_mask(nodes, ROOT) & avail_mask
    while depth >= 0:
        if rest[depth] == 0:
            if depth > 0:  # give the letter of this prefix back
                code = letter[depth]
                avail[code] += 1
                avail_mask |= 1 << code
            depth -= 1
            continue
        low = rest[depth] & -rest[depth]
        rest[depth] ^= low
        code = lowest_square(low)
        kid = child(nodes, node[depth], code)
        avail[code] -= 1
        if avail[code] == 0:
            avail_mask &= ~low
        depth += 1
        node[depth] = kid
        letter[depth] = code
        vowel_count[depth] = vowel_count[depth - 1] + is_vowel[code]
        letters[depth] = letters[depth - 1] | low
        if is_word(nodes, kid) and depth >= min_length and not excluded[position[word_ids[kid]]]:
            shapes[depth, vowel_count[depth]] += 1
            covered |= letters[depth]
            if depth > longest:
                longest = depth
        rest[depth] = child_mask(nodes, kid) & avail_mask if depth < depth_limit else 0
    return covered, longest


@kernel
def _pack(shapes, longest, nv, nc):
    """The best packing ``table[a, b]`` with at most ``a`` vowels and ``b`` consonants, each
    shape used at most ``shapes[length, vowels]`` times: a bounded knapsack, each shape split
    into 1, 2, 4, ... copies (binary splitting), each piece then a 0/1 item."""
    table = np.zeros((nv + 1, nc + 1), dtype=np.int64)
    for length in range(1, longest + 1):
        for v in range(0, length + 1):
            copies = shapes[length, v]
            if copies == 0:
                continue
            c = length - v
            if v > nv or c > nc:
                continue
            # More copies than the tiles allow can never be used.
            if v > 0 and copies > nv // v:
                copies = nv // v
            if c > 0 and copies > nc // c:
                copies = nc // c
            value = (length + v) * length
            piece = 1
            while copies > 0:
                take = piece if piece < copies else copies
                copies -= take
                piece *= 2
                wv, wc, wval = take * v, take * c, take * value
                for a in range(nv, wv - 1, -1):
                    for b in range(nc, wc - 1, -1):
                        candidate = table[a - wv, b - wc] + wval
                        if candidate > table[a, b]:
                            table[a, b] = candidate
    return table


@dataclass(frozen=True)
class Profile:
    """What the dictionary allows from one multiset of letters (the *node*): see the module
    docstring.

    :ivar table: ``table[a, b]``, the best packing with at most ``a`` vowels and ``b``
        consonants.
    :ivar covered: 26-bit mask of the letters some fitting word contains.
    :ivar longest: length of the longest fitting word (0 if none).
    :ivar uncovered_vowels: vowel tiles of the node whose letter is not covered.
    :ivar uncovered_consonants: consonant tiles of the node whose letter is not covered.
    """

    table: np.ndarray
    covered: int
    longest: int
    uncovered_vowels: int
    uncovered_consonants: int

    def future(
        self, vowels: int | np.ndarray, consonants: int | np.ndarray, rounds: int | np.ndarray
    ) -> int | np.ndarray:
        """Admissible bound on the points still to gain (future word points, plus the bonus or
        minus the penalty) from the node, or from any position reached from it by plays of
        words that fit it, having ``vowels`` vowel and ``consonants`` consonant tiles and
        ``rounds`` rounds played. Accepts ints or numpy arrays (then elementwise).
        """
        uv, uc = self.uncovered_vowels, self.uncovered_consonants
        if uv or uc:
            left = uv + uc
            result = self.table[vowels - uv, consonants - uc] - (left + uv) * left
            return int(result) if np.ndim(result) == 0 else result
        tiles = np.asarray(vowels + consonants)
        # Fewest further words that can clear ``tiles`` tiles (1 avoids dividing by 0).
        words = -(-tiles // max(self.longest, 1))
        bonus = np.maximum(0, CLEAR_BONUS_BASE - CLEAR_BONUS_PER_ROUND * (rounds + words))
        result = self.table[vowels, consonants] + bonus
        return int(result) if np.ndim(result) == 0 else result


class BoundTables:
    """Per-dictionary tables for the bound: every word's length, vowel count, letter mask and
    letter counts, sorted by length. Built once per dictionary (:meth:`of`), cached by the
    dictionary's sha256."""

    _cache: dict[str, BoundTables] = {}  # noqa: RUF012 (a deliberate class-level cache)

    def __init__(self, dictionary: Dictionary) -> None:
        arrays = dictionary.arrays
        lengths, vowels, masks, counts = _word_tables(
            arrays.nodes, arrays.word_ids, len(dictionary), IS_VOWEL
        )
        # Sorted by length (then id), so that a pass can stop at the multiset's size.
        order = np.argsort(lengths, kind="stable")
        self.lengths = lengths[order]
        self.vowels = vowels[order]
        self.masks = masks[order]
        self.counts = counts[order]
        #: Word id at each position of the sorted arrays.
        self.word_ids = order
        #: Position in the sorted arrays of each word id.
        self.position = np.empty(len(order), dtype=np.int64)
        self.position[order] = np.arange(len(order))
        #: ``starts[l]``: first position of a word of length ``l`` or more.
        self.starts = np.searchsorted(self.lengths, np.arange(_MAX_LENGTH + 2))
        self.arrays = arrays
        self._excluded = np.zeros(len(order), dtype=np.bool_)

    @classmethod
    def of(cls, dictionary: Dictionary) -> BoundTables:
        """The tables of ``dictionary``, built on first use."""
        tables = cls._cache.get(dictionary.sha256)
        if tables is None:
            tables = cls._cache[dictionary.sha256] = cls(dictionary)
        return tables

    def profile(
        self,
        counts: np.ndarray,
        min_word_length: int,
        exclude: Iterable[int] = (),
        allowed: np.ndarray | None = None,
    ) -> Profile:
        """The profile of a multiset of letters.

        :param counts: ``int[26]``, how many tiles of each letter (A = 0); at most 63 in all,
            the most a board holds (longer words are never counted).
        :param min_word_length: the rules' shortest word.
        :param exclude: ids of words that may not be played (the words already played).
        :param allowed: ``bool[words]`` by word id, if given: only these words may be played
            (say, the words :func:`solver.formable.formable_words` marks).
        """
        avail = np.array(counts, dtype=np.int64)  # a copy: the walk changes it on the way
        size = int(avail.sum())
        if size > _MAX_LENGTH:
            raise ValueError(f"at most {_MAX_LENGTH} letters, not {size}")
        nv = int(avail[VOWEL_CODES].sum())
        nc = size - nv
        min_length = min(max(min_word_length, 1), _MAX_LENGTH + 1)
        shapes = np.zeros((_MAX_LENGTH + 1, _MAX_LENGTH + 1), dtype=np.int64)
        excluded = self.position[np.fromiter(exclude, dtype=np.int64)]
        # One flag array for every call, set and cleared here (cheaper than a new one).
        flags = self._excluded if allowed is None else ~allowed[self.word_ids]
        flags[excluded] = True
        try:
            if size <= WALK_LETTERS:
                covered, longest = _fit_walk(
                    self.arrays.nodes, self.arrays.word_ids, self.position, avail,
                    flags, min_length, IS_VOWEL, shapes,
                )  # fmt: skip
            else:
                start = int(self.starts[min_length])
                stop = int(self.starts[min(size, _MAX_LENGTH) + 1])
                covered, longest = _fit_scan(
                    self.lengths, self.vowels, self.masks, self.counts, start,
                    max(start, stop), avail, flags, shapes,
                )  # fmt: skip
        finally:
            self._excluded[excluded] = False  # (a no-op on a fresh ``flags``)
        table = _pack(shapes, longest, nv, nc)
        present = np.flatnonzero(avail > 0)
        uncovered = present[(covered >> present) & 1 == 0]
        uncovered_vowels = int(avail[uncovered[IS_VOWEL[uncovered] == 1]].sum())
        uncovered_consonants = int(avail[uncovered].sum()) - uncovered_vowels
        return Profile(table, int(covered), int(longest), uncovered_vowels, uncovered_consonants)


def letter_counts(letters: str) -> np.ndarray:
    """``int64[26]``: how many of each letter (any case) ``letters`` holds."""
    codes = np.frombuffer(letters.upper().encode("ascii"), dtype=np.uint8).astype(np.int64)
    return np.bincount(codes - ord("A"), minlength=26)


def upper_bound(
    letters: str,
    rounds: int,
    dictionary: Dictionary,
    min_word_length: int = 3,
    played: Iterable[str] = (),
) -> int:
    """Admissible upper bound on the points still to gain from a position: its future word
    points, plus the clear bonus or minus the leftover penalty (module docstring).

    :param letters: the letters of the tiles on the board, any case and order.
    :param rounds: the words played so far.
    :param played: the words played so far (they cannot be played again; words not in the
        dictionary are ignored).
    """
    excluded = [dictionary.word_id(w) for w in played if w in dictionary]
    counts = letter_counts(letters)
    profile = BoundTables.of(dictionary).profile(counts, min_word_length, excluded)
    vowels = int(counts[VOWEL_CODES].sum())
    return int(profile.future(vowels, len(letters) - vowels, rounds))


# --- The bound of a position on the board: formable words and a linear programme -----------


#: The largest move limit the placements are computed for: their number, and the time and
#: memory to find them, grow fast with K (a full deal at K = 4: 11 s and 700 MB; K = 6: minutes).
#: For a larger K, :func:`board_bound` bounds from the letters alone, which holds for any K.
MAX_PLACEMENT_MOVES = 3

#: Above this many placements :func:`board_bound` solves its programmes over the candidate
#: words instead: looser, but the programme over placements would take several seconds (a full
#: deal has about 50,000 placements at K = 2, 170,000 at K = 3).
MAX_PLACEMENTS = 100_000


@dataclass(frozen=True)
class BoardBound:
    """An admissible upper bound on the final score of a game from a position, as computed by
    :func:`board_bound` (see there for what it assumes and why it holds).

    :ivar score: the bound on the final score: the word points already won plus ``future``.
    :ivar future: the bound on the points still to gain (word points, plus the clear bonus or
        minus the leftover penalty).
    :ivar max_moves: the move limit ``K`` of the plays the bound is for (the full class with at
        most ``K`` moves, RULES.md section 10), or ``None`` for the unrestricted rules (any
        moves: then only the letters count).
    :ivar candidates: the words that could still be played (they fit the letters left, were not
        played, and, with ``K``, are formable on the board).
    :ivar longest: the longest candidate's length (0 if none).
    :ivar if_cleared: the bound on ``future`` over the games that clear the board, or ``None``
        if none can (some letter is in no candidate, or the letters split into no candidates).
    :ivar if_not_cleared: the bound on ``future`` over the games that do not clear it.
    :ivar placements: the placements the programmes were solved over (0: over the candidate
        words, with no tile constraints; see :data:`MAX_PLACEMENTS`).
    """

    score: int
    future: int
    max_moves: int | None
    candidates: int
    longest: int
    if_cleared: int | None
    if_not_cleared: int
    placements: int = 0

    def to_json(self) -> dict[str, Any]:
        """The bound and its parts, as written by ``letterchess bound --json``."""
        return {"bound": self.score, "for": self.describe(), **asdict(self)}

    def describe(self) -> str:
        """What the bound is for, in a few words."""
        if self.max_moves is None:
            return "unrestricted rules (letters only)"
        moves = f"{self.max_moves} move{'s' * (self.max_moves != 1)}"
        return f"plays with at most {moves} a turn"


class _Packing:
    """The linear programmes of :func:`board_bound` over one set of *columns*, each a candidate
    word (letters only) or one placement of a candidate on the board.

    A choice ``0 ≤ x ≤ 1`` of columns uses its words' letters: at most the letters left, or
    exactly them (``equal``). With placements it also uses each in-place tile at most once,
    and each word at most once (a word may have many placements).

    :param word_counts: ``int[words, 26]``, the letters of each candidate.
    :param column_word: the candidate of each column (default: one column per candidate).
    :param in_place: the in-place squares of each column (placements only).
    :param squares: the squares of the tiles left (placements only).
    """

    def __init__(
        self,
        word_counts: np.ndarray,
        column_word: np.ndarray | None = None,
        in_place: np.ndarray | None = None,
        squares: Iterable[int] = (),
    ) -> None:
        from scipy.sparse import coo_matrix, csr_matrix, vstack

        words = word_counts.shape[0]
        if column_word is None:
            column_word = np.arange(words)
        self.column_word = column_word
        columns = len(column_word)
        self.letters = csr_matrix(word_counts[column_word].T.astype(np.float64))
        # Rows "at most 1": each in-place tile, each word (none with words as columns).
        self.limits = csr_matrix((0, columns))
        if in_place is not None:
            squares = np.fromiter(squares, dtype=np.int64)
            uses = (in_place[None, :] >> squares[:, None]) & 1
            each_word = coo_matrix(
                (np.ones(columns), (column_word, np.arange(columns))), shape=(words, columns)
            )
            self.limits = vstack([csr_matrix(uses.astype(np.float64)), each_word]).tocsr()
        self.at_most = vstack([self.letters, self.limits]).tocsr()

    def maximum(self, word_values: np.ndarray, counts: np.ndarray, equal: bool) -> float | None:
        """The maximum of the chosen columns' ``word_values``; ``None`` if no choice meets the
        constraints (only possible with ``equal``)."""
        from scipy.optimize import linprog

        values = word_values[self.column_word].astype(np.float64)
        if len(values) == 0:
            return None if equal and counts.any() else 0.0
        letters = counts.astype(np.float64)
        ones = np.ones(self.limits.shape[0])
        kwargs: dict[str, Any]
        if not equal:
            kwargs = {"A_ub": self.at_most, "b_ub": np.r_[letters, ones]}
        elif len(ones):
            kwargs = {"A_eq": self.letters, "b_eq": letters, "A_ub": self.limits, "b_ub": ones}
        else:
            kwargs = {"A_eq": self.letters, "b_eq": letters}
        result = linprog(-values, bounds=(0, 1), method="highs", **kwargs)
        if result.status == 2:  # infeasible
            return None
        if result.status != 0:
            raise RuntimeError(f"the bound's linear programme failed: {result.message}")
        return -float(result.fun)


def _floor(value: float) -> int:
    # The optimum of the integer programme is an integer no larger than the LP's value; the
    # slack absorbs the solver's rounding (its tolerances are about 1e-7).
    return math.floor(value + 1e-6)


def board_bound(
    layout: Layout,
    dictionary: Dictionary,
    rules: Rules | None = None,
    max_moves: int | None = 2,
    remaining: int | None = None,
    played: Iterable[str] = (),
    word_points: int = 0,
    placed: bool = True,
) -> BoardBound:
    """An admissible upper bound on the final score of any game from a position, for the
    plays with at most ``max_moves`` moves a turn (the full class of RULES.md section 10, and
    so the standard class) or, with ``None`` or a limit above :data:`MAX_PLACEMENT_MOVES`, for
    any plays: the returned ``max_moves`` says which.

    :param remaining: the tiles still on the board (default: all, the opening position).
    :param played: the words already played (as many rounds as words).
    :param word_points: the points the played words won.
    :param placed: with a move limit, solve the programmes over placements (below), unless
        there are more than :data:`MAX_PLACEMENTS`; off, over the formable words only: looser,
        and about three times faster.

    **Candidates.** A word played from now on fits the letters left (counted with
    multiplicity), has at least ``min_word_length`` letters and was not played before; for
    a move limit it is also spelt along one of its *placements*
    (:func:`solver.formable.placements`): a path whose *in-place* squares hold, untouched, the
    very tiles dealt there, the others (at most ``K``) being filled by moved tiles. These words
    are the *candidates*; a letter left on the board that no candidate contains can never be
    removed.

    **Cleared games.** A game that clears the board plays candidates ``w1 … wk`` whose letters
    add up to the letters left, exactly, and scores ``Σ tally(wi) + max(0, 200 − 10 (r + k))``
    from here (``r`` words played so far). While ``r + k ≤ 20`` that is ``200 − 10 r +
    Σ (tally(wi) − 10)``: a linear function of the 0/1 choice of words, under linear equality
    constraints (one per letter). With the board, the choice is of placements, and two more
    families of constraints hold for the placements the game used: no tile is in place in two
    of them (a tile is removed once), and no word has two (a word is played once). The linear
    programme with ``0 ≤ x ≤ 1`` in place of 0/1 is a relaxation, so its maximum bounds every
    cleared game (if it has no solution, no game clears). When ``k`` could push past 20
    rounds, the bound also takes the programme with the plain tallies and at-most constraints
    (a cleared game with no bonus scores its tallies).

    **Other games.** They end with letters ``R`` left, ``|R| ≥ max(1, u)`` where ``u`` counts
    the tiles of letters no candidate contains, and the penalty ``tally(R) = points(R) × |R|``
    is at least ``max(1, u) × points(R)``; ``points(R)`` is the points of the letters left now
    minus those of the words played. So the score from here is at most ``Σ (tally(wi) + m ×
    points(wi)) − m × points(left now)`` with ``m = max(1, u)``: again linear, under the same
    at-most constraints, and its relaxation bounds these games. (It is solved over words
    first, a looser but faster programme, and over placements only if that could change the
    bound.)

    The bound is the larger of the two, plus ``word_points``. It never looks at the order of
    play, so it holds for every line. It is not the optimum because the relaxation takes
    fractions of placements, lets moved tiles come from anywhere (only their letters are
    counted), and lets a word be placed wherever the board ever allows, not only where the
    tiles are when it is played.
    """
    from ..formable import placements

    rules = rules or Rules()
    if max_moves is not None and max_moves > MAX_PLACEMENT_MOVES:
        max_moves = None
    if remaining is None:
        remaining = layout.tile_mask
    remaining &= layout.tile_mask
    played = [word.upper() for word in played]
    rounds = len(played)
    letters = "".join(letter for sq, letter in layout.tiles() if remaining >> sq & 1)
    if not letters:  # the game is over, the board cleared
        bonus = clear_bonus(rounds)
        return BoardBound(word_points + bonus, bonus, max_moves, 0, 0, bonus, bonus, 0)
    counts = letter_counts(letters)
    tables = BoundTables.of(dictionary)

    # The words that fit the letters and were not played, by word id.
    stop = int(tables.starts[min(len(letters), _MAX_LENGTH) + 1])
    start = min(int(tables.starts[min(max(rules.min_word_length, 1), _MAX_LENGTH + 1)]), stop)
    fits = (tables.counts[start:stop] <= counts).all(axis=1)
    wanted = np.zeros(len(dictionary), dtype=np.bool_)
    wanted[tables.word_ids[start:stop][fits]] = True
    for word in played:
        if word in dictionary:
            wanted[dictionary.word_id(word)] = False
    if max_moves is None:
        candidates = np.flatnonzero(wanted)
    else:
        column_words, in_place = placements(layout, remaining, dictionary, rules, max_moves, wanted)
        candidates = np.unique(column_words)
    positions = tables.position[candidates]
    word_counts = tables.counts[positions].astype(np.int64)
    lengths, vowels = tables.lengths[positions], tables.vowels[positions]
    tallies = (lengths + vowels) * lengths
    points = lengths + vowels
    covered = word_counts.sum(axis=0) > 0
    uncovered_tiles = int(counts[~covered].sum())

    # The programmes over words; with the board, the tighter ones over placements.
    by_word = _Packing(word_counts)
    packing = by_word
    placed = placed and max_moves is not None and len(column_words) <= MAX_PLACEMENTS
    if placed:
        squares = [sq for sq, _ in layout.tiles() if remaining >> sq & 1]
        column_word = np.searchsorted(candidates, column_words)
        packing = _Packing(word_counts, column_word, in_place, squares)

    if_cleared = None
    if uncovered_tiles == 0:
        best = packing.maximum(tallies - CLEAR_BONUS_PER_ROUND, counts, equal=True)
        if best is not None:
            if_cleared = CLEAR_BONUS_BASE - CLEAR_BONUS_PER_ROUND * rounds + _floor(best)
            most_words = len(letters) // max(rules.min_word_length, 1)
            if CLEAR_BONUS_PER_ROUND * (rounds + most_words) > CLEAR_BONUS_BASE:
                plain = packing.maximum(tallies, counts, equal=False)
                assert plain is not None
                if_cleared = max(if_cleared, _floor(plain))
    weight = max(1, uncovered_tiles)
    left_points = len(letters) + int(counts[VOWEL_CODES].sum())
    # The games that do not clear: first over words (fast, and usually far below the cleared
    # games' bound, which then decides); over placements only when it would matter.
    if_not_cleared = None
    for programme in (by_word, packing):
        best = programme.maximum(tallies + weight * points, counts, equal=False)
        assert best is not None
        if_not_cleared = _floor(best - weight * left_points)
        if if_cleared is not None and if_not_cleared <= if_cleared:
            break
    assert if_not_cleared is not None
    future = if_not_cleared if if_cleared is None else max(if_cleared, if_not_cleared)
    return BoardBound(
        word_points + future,
        future,
        max_moves,
        len(candidates),
        int(lengths.max(initial=0)),
        if_cleared,
        if_not_cleared,
        len(column_words) if placed else 0,
    )


_START_BOUNDS: OrderedDict[tuple[str, str, Rules, int | None], BoardBound] = OrderedDict()
#: Deals whose bound is remembered (a second solve of a deal, say by another strategy in a
#: bench, then skips the linear programme, about a second).
START_BOUNDS_KEPT = 64


def start_bound(
    layout: Layout, dictionary: Dictionary, rules: Rules, max_moves: int | None
) -> BoardBound:
    """:func:`~solver.search.bound.board_bound` of the opening position, remembered."""
    key = (layout.letters, dictionary.sha256, rules, max_moves)
    found = _START_BOUNDS.get(key)
    if found is None:
        found = _START_BOUNDS[key] = board_bound(layout, dictionary, rules, max_moves)
        if len(_START_BOUNDS) > START_BOUNDS_KEPT:
            _START_BOUNDS.popitem(last=False)
    return found

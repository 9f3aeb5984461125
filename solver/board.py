"""Layouts: which letter stands on which square at the start of a game.

A game in progress is *not* a new layout: it is the opening layout plus the bitboard of the tiles
still on the board (see :class:`Position`). A layout is parsed from and formatted to two forms:

* text: 9 lines of 7 characters, row 9 first, letters (any case) and ``.`` for an empty square;
  blank lines and lines starting with ``#`` are ignored;
* one line: the 9 rows, row 9 first, joined by ``/``.

Random deals draw tiles from a bag with numpy's PCG64 bit generator and a Fisher-Yates shuffle
written out here (not ``random.shuffle``, whose stream Python does not promise to keep), so the
same seed gives the same deal on every machine and every version. ``RULES.md`` documents the
procedure.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .inputs import MAX_BAG_TILES, MAX_BOARD_BYTES, is_file_path, read_text
from .squares import FILE_NAMES, HEIGHT, NUM_SQUARES, WIDTH, Bitboard, Square, square_name

EMPTY = "."

#: The 98 Scrabble tiles without the blanks.
SCRABBLE_TILES: dict[str, int] = {
    "A": 9, "B": 2, "C": 2, "D": 4, "E": 12, "F": 2, "G": 3, "H": 2, "I": 9, "J": 1, "K": 1,
    "L": 4, "M": 2, "N": 6, "O": 8, "P": 2, "Q": 1, "R": 6, "S": 4, "T": 6, "U": 4, "V": 2,
    "W": 2, "X": 1, "Y": 2, "Z": 1,
}  # fmt: skip

LETTER_SOURCES = ("scrabble", "uniform")


class BoardError(ValueError):
    """A malformed board, with the place (file, line, square) in its message."""


@dataclass(frozen=True)
class Layout:
    """Letters on the 63 squares of the grid, indexed by square (``a1`` = 0).

    :param letters: a 63-character string, upper-case letters and ``.`` for empty squares,
        in square order (row 1 first, not in the reading order of the text form).
    """

    letters: str

    def __post_init__(self) -> None:
        if len(self.letters) != NUM_SQUARES:
            raise BoardError(f"a layout needs {NUM_SQUARES} squares, not {len(self.letters)}")
        for sq, char in enumerate(self.letters):
            if char != EMPTY and char not in string.ascii_uppercase:
                raise BoardError(f"square {square_name(sq)}: {char!r} is not a letter or '.'")

    def __getitem__(self, sq: Square) -> str | None:
        """The letter dealt to ``sq``, or ``None`` for an empty square."""
        char = self.letters[sq]
        return None if char == EMPTY else char

    @property
    def tile_mask(self) -> Bitboard:
        """Bitboard of the squares holding a tile at the start."""
        mask = 0
        for sq, char in enumerate(self.letters):
            if char != EMPTY:
                mask |= 1 << sq
        return mask

    @property
    def tile_count(self) -> int:
        return NUM_SQUARES - self.letters.count(EMPTY)

    def tiles(self) -> Iterator[tuple[Square, str]]:
        """``(square, letter)`` for every tile, in square order."""
        for sq, char in enumerate(self.letters):
            if char != EMPTY:
                yield sq, char

    def rows(self, mask: Bitboard | None = None) -> list[str]:
        """The 9 rows as strings, row 9 first; with ``mask``, only the tiles in it are shown."""
        shown = [
            char if mask is None or mask >> sq & 1 else EMPTY
            for sq, char in enumerate(self.letters)
        ]
        return ["".join(shown[row * WIDTH : (row + 1) * WIDTH]) for row in reversed(range(HEIGHT))]

    def to_text(self, mask: Bitboard | None = None) -> str:
        """The 9-line text form (with a final newline)."""
        return "\n".join(self.rows(mask)) + "\n"

    def to_line(self, mask: Bitboard | None = None) -> str:
        """The one-line form, rows 9 to 1 joined by ``/``."""
        return "/".join(self.rows(mask))

    def __str__(self) -> str:
        return self.to_line()

    def _repr_svg_(self) -> str:
        """Jupyter shows a layout as a board (see :mod:`solver.svg`)."""
        from .svg import board_svg

        return board_svg(self)

    @classmethod
    def from_rows(cls, rows: list[str], places: list[str]) -> Layout:
        """Layout from 9 row strings, row 9 first; ``places[i]`` names row ``i`` in errors
        (e.g. ``"board.txt line 4"``)."""
        if len(rows) != HEIGHT:
            raise BoardError(f"a board needs {HEIGHT} rows, found {len(rows)}")
        letters = [EMPTY] * NUM_SQUARES
        for i, (row_text, place) in enumerate(zip(rows, places, strict=True)):
            row = HEIGHT - 1 - i
            if len(row_text) != WIDTH:
                raise BoardError(
                    f"{place}: a row needs {WIDTH} squares, found {len(row_text)} ({row_text!r})"
                )
            for col, char in enumerate(row_text):
                sq = row * WIDTH + col
                if char == EMPTY:
                    continue
                if char not in string.ascii_letters:
                    raise BoardError(
                        f"{place}, square {FILE_NAMES[col]}{row + 1}: "
                        f"{char!r} is not a letter or '.'"
                    )
                letters[sq] = char.upper()
        return cls("".join(letters))

    @classmethod
    def from_text(cls, text: str, source: str = "board") -> Layout:
        """Parse the 9-line text form; ``source`` names the input in errors."""
        rows, places = [], []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            rows.append(line)
            places.append(f"{source} line {number}")
        if len(rows) != HEIGHT:
            raise BoardError(f"{source}: a board needs {HEIGHT} rows, found {len(rows)}")
        return cls.from_rows(rows, places)

    @classmethod
    def from_line(cls, line: str, source: str = "board") -> Layout:
        """Parse the one-line form (``/``-separated rows, row 9 first)."""
        rows = line.strip().split("/")
        if len(rows) != HEIGHT:
            raise BoardError(f"{source}: a board needs {HEIGHT} rows, found {len(rows)}")
        return cls.from_rows(rows, [f"{source} row {HEIGHT - i}" for i in range(HEIGHT)])

    @classmethod
    def parse(cls, text: str, source: str = "board") -> Layout:
        """Parse either form, telling them apart by the ``/`` of the one-line form."""
        meaningful = [
            line.strip()
            for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")
        ]
        if len(meaningful) == 1 and "/" in meaningful[0]:
            return cls.from_line(meaningful[0], source)
        return cls.from_text(text, source)


def read_board(spec: str) -> Layout:
    """A layout from a board given on the command line: a file path, or the board itself.

    :raises BoardError: if ``spec`` is neither a readable board file nor a well-formed board.
    """
    if not spec.strip():
        raise BoardError("an empty board: give a board file or a one-line board")
    if "\n" in spec or (not is_file_path(spec) and _looks_like_line_board(spec)):
        return Layout.parse(spec)
    try:
        text = read_text(spec, "board file", MAX_BOARD_BYTES)
    except FileNotFoundError:
        raise BoardError(
            f"{spec}: no such board file, and not a board either "
            f"(a one-line board is {HEIGHT} rows of {WIDTH} squares joined by '/')"
        ) from None
    except OSError as error:
        raise BoardError(str(error)) from None
    return Layout.parse(text, source=spec)


def _looks_like_line_board(spec: str) -> bool:
    """Whether ``spec`` was meant as a one-line board, even a malformed one (so that the error
    says what is wrong with the board, not that no file has that name): several short rows
    joined by ``/``, which a path to a file seldom has."""
    rows = spec.strip().split("/")
    return len(rows) >= 4 and all(0 < len(row) <= 2 * WIDTH and " " not in row for row in rows)


def _standard_pattern() -> Layout:
    # Row 5 empty; rows 4 and 6 hold tiles only on b, d and f (the parapet).
    rows = []
    for rank in reversed(range(1, HEIGHT + 1)):
        if rank == 5:
            rows.append(EMPTY * WIDTH)
        elif rank in (4, 6):
            rows.append(".#.#.#.")
        else:
            rows.append("#" * WIDTH)
    letters = "".join(
        "A" if rows[HEIGHT - 1 - sq // WIDTH][sq % WIDTH] == "#" else EMPTY
        for sq in range(NUM_SQUARES)
    )
    return Layout(letters)


#: The standard opening pattern (its letters are placeholders ``A``; only its tile squares count).
STANDARD_PATTERN = _standard_pattern()
STANDARD_TILE_COUNT = STANDARD_PATTERN.tile_count


def read_bag(path: str) -> dict[str, int]:
    """A bag of tiles from a file of ``LETTER COUNT`` lines (blank lines and ``#`` comments
    ignored; a letter named twice adds up).

    :raises BoardError: naming the file and line of the first bad line.
    """
    try:
        text = read_text(path, "letters file", MAX_BOARD_BYTES)
    except OSError as error:
        raise BoardError(str(error)) from None
    bag: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if (
            len(parts) != 2
            or len(parts[0]) != 1
            or parts[0] not in string.ascii_letters
            or not parts[1].isdigit()
        ):
            raise BoardError(f"{path} line {number}: expected 'LETTER COUNT', found {raw!r}")
        letter = parts[0].upper()
        bag[letter] = bag.get(letter, 0) + int(parts[1])
        if sum(bag.values()) > MAX_BAG_TILES:
            raise BoardError(
                f"{path} line {number}: more than {MAX_BAG_TILES:,} tiles in the bag "
                f"(a deal draws {NUM_SQUARES} at most)"
            )
    if not any(bag.values()):
        raise BoardError(f"{path}: the letters file names no tiles")
    return bag


class _Draws:
    """Uniform integers from PCG64's raw 64-bit outputs, by rejection, so they do not depend
    on how any numpy version maps raw bits to ranges."""

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise BoardError(f"a seed must be a non-negative integer, not {seed!r}")
        self._bits = np.random.PCG64(seed)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``."""
        limit = 2**64 - 2**64 % bound
        while True:
            raw = int(self._bits.random_raw())
            if raw < limit:
                return raw % bound


def deal(
    seed: int,
    letters: str | dict[str, int] = "scrabble",
    pattern: Layout = STANDARD_PATTERN,
) -> Layout:
    """A random deal onto the tile squares of ``pattern``.

    :param seed: any non-negative integer; the same seed gives the same deal everywhere.
    :param letters: ``"scrabble"`` (draw without replacement from the 98 Scrabble tiles),
        ``"uniform"`` (each square one of 26 letters, equally likely) or a bag
        ``{letter: count}`` drawn without replacement.
    :param pattern: the squares to fill are those holding a tile in this layout.
    """
    draws = _Draws(seed)
    squares = [sq for sq, _ in pattern.tiles()]
    if letters == "uniform":
        drawn = [string.ascii_uppercase[draws.below(26)] for _ in squares]
    else:
        if letters == "scrabble":
            bag_counts = SCRABBLE_TILES
        elif isinstance(letters, dict):
            bag_counts = letters
        else:
            raise BoardError(f"unknown letter source {letters!r}")
        bag = [letter for letter in sorted(bag_counts) for _ in range(bag_counts[letter])]
        if len(bag) < len(squares):
            raise BoardError(f"the bag holds {len(bag)} tiles, the layout needs {len(squares)}")
        for i in range(len(bag) - 1, 0, -1):
            j = draws.below(i + 1)
            bag[i], bag[j] = bag[j], bag[i]
        drawn = bag[: len(squares)]
    cells = [EMPTY] * NUM_SQUARES
    for sq, letter in zip(squares, drawn, strict=True):
        cells[sq] = letter
    return Layout("".join(cells))


@dataclass(frozen=True)
class Position:
    """A game between turns: the opening layout plus the bitboard of the tiles still there.

    This is the whole state of a game in progress, and the key insight of the design: every
    tile moved in a turn must be one of that turn's letters, and the word's tiles leave the
    board, so between turns every tile still present stands on the square it was dealt to. No
    board is ever copied; a play is just its word and the bitboard of the tiles it removes,
    and ``remaining_mask`` is a perfect key for transpositions.

    :param layout: the opening layout.
    :param remaining_mask: bit ``sq`` set when the tile dealt to ``sq`` is still on the board.
    :param played: the words already played, upper-case (none may be played again).
    """

    layout: Layout
    remaining_mask: Bitboard
    played: frozenset[str] = frozenset()

    @classmethod
    def start(cls, layout: Layout) -> Position:
        """The position before the first turn."""
        return cls(layout, layout.tile_mask)

    def after(self, word: str, removed_mask: Bitboard) -> Position:
        """The position after playing ``word`` with the tiles dealt to ``removed_mask``."""
        if removed_mask & ~self.remaining_mask:
            raise ValueError("a play can only remove tiles that are still on the board")
        return Position(
            self.layout, self.remaining_mask & ~removed_mask, self.played | {word.upper()}
        )

    def remaining_letters(self) -> str:
        """The letters still on the board, in square order."""
        return "".join(
            letter for sq, letter in self.layout.tiles() if self.remaining_mask >> sq & 1
        )

    @property
    def cleared(self) -> bool:
        return self.remaining_mask == 0

    def _repr_svg_(self) -> str:
        """Jupyter shows a position as its board: the tiles still there."""
        from .svg import board_svg

        return board_svg(self)

"""Write the suite of 30 small layouts in ``benchmarks/small/`` (issue 7).

Layout ``small-NN.txt`` (NN = 01..30) has ``12 + (NN - 1) % 9`` tiles (12 to 20): the squares
are drawn from the 24 letter squares of rows 1 to 4 of the standard layout (``random.Random``
seeded with NN), and the letters dealt onto them from the 98 Scrabble tiles by
:func:`solver.board.deal` with seed NN. Rows 5 to 9 stay empty, room for the tiles to move.
Deterministic: running it again writes the same files.

    python benchmarks/make_small_suite.py
"""

from __future__ import annotations

import random
from pathlib import Path

from solver.board import EMPTY, STANDARD_PATTERN, Layout, deal
from solver.squares import NUM_SQUARES, square_row

SUITE = Path(__file__).parent / "small"
COUNT = 30


def small_layout(number: int) -> Layout:
    """Layout ``number`` (1..30) of the suite."""
    tiles = 12 + (number - 1) % 9
    squares = [sq for sq, _ in STANDARD_PATTERN.tiles() if square_row(sq) < 4]
    chosen = set(random.Random(number).sample(squares, tiles))
    pattern = Layout("".join("X" if sq in chosen else EMPTY for sq in range(NUM_SQUARES)))
    return deal(number, pattern=pattern)


def main() -> None:
    SUITE.mkdir(exist_ok=True)
    for number in range(1, COUNT + 1):
        layout = small_layout(number)
        tiles = layout.tile_mask.bit_count()
        header = f"# small layout {number}: {tiles} tiles (benchmarks/make_small_suite.py)\n"
        (SUITE / f"small-{number:02d}.txt").write_text(header + layout.to_text())


if __name__ == "__main__":
    main()

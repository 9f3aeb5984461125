"""Boards drawn as SVG, for Jupyter, the HTML replay and the web app.

:func:`board_svg` returns an SVG document as a string, as ``chess.svg.board`` does in
python-chess: the 7 x 9 grid with row and column labels, every tile a lettered square (vowels
amber, consonants blue, each with its points in a corner), a word's path drawn as a line through
its squares in reading order (a dot marks the first letter), and tile moves as arrows: a
knight's jump (a vowel) as a dashed curve, a queen's line (a consonant) as a straight arrow.
Squares where the layout deals no tile (the middle row and the gaps beside it, in the standard
pattern) are shaded darker than squares whose tile has left.

The drawing is deterministic (no random ids, fixed number formatting), so it can be compared
with golden files, and every square is a ``<g data-square="c4">`` element, so a page can tell
which square was clicked. Colours are attributes, not a style sheet, so that several boards
inlined in one HTML page cannot restyle each other.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from xml.sax.saxutils import escape

from .board import STANDARD_PATTERN, Layout, Position
from .record import Turn
from .render import tiles_after_moves
from .rules import is_vowel, letter_points
from .squares import (
    FILE_NAMES,
    HEIGHT,
    KNIGHT_MASKS,
    WIDTH,
    Square,
    parse_square,
    square_col,
    square_name,
    square_row,
    squares_of,
)

#: Side of a square, in SVG user units (the drawing scales to any ``size``).
SQUARE = 40
#: Room for the row and column labels.
LABEL_MARGIN = 22
#: The border on the sides without labels.
EDGE = 4

# Colours: the board is warm grey, vowels amber, consonants blue; the path red, knight jumps
# purple and dashed, queen lines green.
BOARD_SQUARE = "#f4efe4"
GAP_SQUARE = "#d8d0bf"
GRID_LINE = "#c2b8a3"
LABEL = "#6d6350"
VOWEL_FILL, VOWEL_EDGE = "#f6c35b", "#c48f1f"
CONSONANT_FILL, CONSONANT_EDGE = "#a9c9ec", "#5b8cc2"
LETTER_INK = "#22252a"
PATH_COLOUR = "#d62839"
KNIGHT_COLOUR = "#7b2cbf"
QUEEN_COLOUR = "#1b7a4d"
MARK_COLOUR = "#ff7b00"

BoardLike = Layout | Position | Mapping[Square, str]
SquareLike = Square | str


def _square(value: SquareLike) -> Square:
    """A square from its index or its name (``"c4"``)."""
    if isinstance(value, str):
        return parse_square(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < WIDTH * HEIGHT:
        raise ValueError(f"not a square: {value!r}")
    return value


def _num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros, the same on every run."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _letters_and_pattern(board: BoardLike, pattern: Layout | None) -> tuple[dict[Square, str], int]:
    """The letter on each occupied square, and the bitboard of the squares the layout deals
    a tile to (drawn light; the others are the darker gaps of the pattern)."""
    if isinstance(board, Position):
        letters = {sq: board.layout.letters[sq] for sq in squares_of(board.remaining_mask)}
        dealt = board.layout.tile_mask
    elif isinstance(board, Layout):
        letters = dict(board.tiles())
        dealt = board.tile_mask
    else:
        letters = {_square(sq): letter.upper() for sq, letter in board.items()}
        dealt = STANDARD_PATTERN.tile_mask
    if pattern is not None:
        dealt = pattern.tile_mask
    return letters, dealt


class _Canvas:
    """Where each square is drawn: row 9 on top, labels on the left and at the bottom."""

    def __init__(self, coordinates: bool) -> None:
        self.left = LABEL_MARGIN if coordinates else EDGE
        self.top = EDGE
        self.width = self.left + WIDTH * SQUARE + EDGE
        self.height = self.top + HEIGHT * SQUARE + (LABEL_MARGIN if coordinates else EDGE)

    def corner(self, sq: Square) -> tuple[float, float]:
        return (
            self.left + square_col(sq) * SQUARE,
            self.top + (HEIGHT - 1 - square_row(sq)) * SQUARE,
        )

    def centre(self, sq: Square) -> tuple[float, float]:
        x, y = self.corner(sq)
        return x + SQUARE / 2, y + SQUARE / 2


def _defs() -> list[str]:
    """Arrowheads for the two kinds of move."""
    heads = []
    for name, colour in (("knight", KNIGHT_COLOUR), ("queen", QUEEN_COLOUR)):
        heads.append(
            f'<marker id="lc-head-{name}" viewBox="0 0 10 10" refX="5" refY="5" '
            f'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
        )
    return ["<defs>", *heads, "</defs>"]


def _move_arrow(canvas: _Canvas, origin: Square, target: Square) -> str:
    """A knight's jump as a dashed curve, any other move as a straight line; both end short of
    the target's centre so that the arrowhead does not hide its letter."""
    (x1, y1), (x2, y2) = canvas.centre(origin), canvas.centre(target)
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    shorten = SQUARE * 0.32 / length
    end_x, end_y = x2 - dx * shorten, y2 - dy * shorten
    if KNIGHT_MASKS[origin] >> target & 1:
        # Bend the jump to one side: a knight leaps, it does not travel a line.
        bend = 0.22
        cx, cy = (x1 + x2) / 2 - dy * bend, (y1 + y2) / 2 + dx * bend
        return (
            f'<path class="move knight" d="M{_num(x1)},{_num(y1)} Q{_num(cx)},{_num(cy)} '
            f'{_num(end_x)},{_num(end_y)}" fill="none" stroke="{KNIGHT_COLOUR}" '
            f'stroke-width="3.5" stroke-dasharray="7 4" stroke-linecap="round" '
            f'marker-end="url(#lc-head-knight)" data-move="{square_name(origin)}-'
            f'{square_name(target)}"/>'
        )
    return (
        f'<line class="move queen" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(end_x)}" '
        f'y2="{_num(end_y)}" stroke="{QUEEN_COLOUR}" stroke-width="4" stroke-linecap="round" '
        f'marker-end="url(#lc-head-queen)" data-move="{square_name(origin)}-'
        f'{square_name(target)}"/>'
    )


def _word_path(canvas: _Canvas, path: Sequence[Square]) -> list[str]:
    """The path as a translucent line through the squares' centres, a dot on the first."""
    if not path:
        return []
    points = " ".join(f"{_num(x)},{_num(y)}" for x, y in map(canvas.centre, path))
    start_x, start_y = canvas.centre(path[0])
    names = " ".join(square_name(sq) for sq in path)
    return [
        f'<g class="path" data-path="{names}" pointer-events="none">',
        f'<polyline points="{points}" fill="none" stroke="{PATH_COLOUR}" stroke-opacity="0.45" '
        f'stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>',
        f'<circle cx="{_num(start_x)}" cy="{_num(start_y)}" r="9" fill="{PATH_COLOUR}" '
        f'fill-opacity="0.45"/>',
        "</g>",
    ]


def board_svg(
    board: BoardLike,
    *,
    path: Sequence[SquareLike] | None = None,
    moves: Sequence[tuple[SquareLike, SquareLike]] | None = None,
    marked: Iterable[SquareLike] | None = None,
    size: int | None = 360,
    coordinates: bool = True,
    pattern: Layout | None = None,
) -> str:
    """The board as an SVG document.

    :param board: a layout (its tiles), a position (the tiles still on the board) or a mapping
        from square to letter (e.g. the board in the middle of a turn).
    :param path: a word's squares in reading order (indexes or names), drawn as a line.
    :param moves: ``(from, to)`` tile moves, drawn as arrows (a knight's jump curved and
        dashed, a queen's line straight).
    :param marked: squares to ring in orange (a selection, a hint).
    :param size: the width in pixels (the height follows); ``None`` leaves the size to the
        page (the drawing fills its container).
    :param coordinates: draw the row and column labels.
    :param pattern: the layout whose tile squares are drawn light (default: the board's own
        layout, or the standard pattern for a mapping).
    :raises ValueError: for a square that is not on the grid.
    """
    letters, dealt = _letters_and_pattern(board, pattern)
    path_squares = [_square(sq) for sq in path or ()]
    move_pairs = [(_square(a), _square(b)) for a, b in moves or ()]
    marked_squares = sorted({_square(sq) for sq in marked or ()})
    canvas = _Canvas(coordinates)
    in_word = set(path_squares)

    dimensions = ""
    if size is not None:
        height = size * canvas.height / canvas.width
        dimensions = f' width="{size}" height="{_num(height)}"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="letterchess-board" '
        f'viewBox="0 0 {canvas.width} {canvas.height}"{dimensions} '
        f'font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
        *_defs(),
        f'<rect x="0" y="0" width="{canvas.width}" height="{canvas.height}" fill="#fbf8f1"/>',
    ]
    # Squares, each with its tile: one <g> per square so that a click finds its square.
    for sq in range(WIDTH * HEIGHT):
        x, y = canvas.corner(sq)
        kind = "board" if dealt >> sq & 1 else "gap"
        fill = BOARD_SQUARE if kind == "board" else GAP_SQUARE
        out.append(f'<g class="square {kind}" data-square="{square_name(sq)}">')
        out.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{SQUARE}" height="{SQUARE}" '
            f'fill="{fill}" stroke="{GRID_LINE}" stroke-width="1"/>'
        )
        letter = letters.get(sq)
        if letter is not None:
            vowel = is_vowel(letter)
            classes = "tile " + ("vowel" if vowel else "consonant")
            edge, edge_width = (VOWEL_EDGE if vowel else CONSONANT_EDGE), "1.5"
            if sq in in_word:
                classes += " in-word"
                edge, edge_width = PATH_COLOUR, "2.5"
            out.append(
                f'<rect class="{classes}" x="{_num(x + 3)}" y="{_num(y + 3)}" '
                f'width="{SQUARE - 6}" height="{SQUARE - 6}" rx="5" '
                f'fill="{VOWEL_FILL if vowel else CONSONANT_FILL}" '
                f'stroke="{edge}" stroke-width="{edge_width}"/>'
            )
        out.append("</g>")
    out += _word_path(canvas, path_squares)
    out += [_move_arrow(canvas, origin, target) for origin, target in move_pairs]
    # Letters last, above the path and the arrows, so that they stay readable.
    out.append('<g class="letters" pointer-events="none" fill="' + LETTER_INK + '">')
    for sq, letter in sorted(letters.items()):
        cx, cy = canvas.centre(sq)
        out.append(
            f'<text x="{_num(cx)}" y="{_num(cy + 7.5)}" font-size="21" font-weight="bold" '
            f'text-anchor="middle">{escape(letter)}</text>'
        )
        out.append(
            f'<text x="{_num(cx + 14)}" y="{_num(cy + 15)}" font-size="8" '
            f'text-anchor="end" fill-opacity="0.7">{letter_points(letter)}</text>'
        )
    out.append("</g>")
    for sq in marked_squares:
        x, y = canvas.corner(sq)
        out.append(
            f'<rect class="mark" x="{_num(x + 1.5)}" y="{_num(y + 1.5)}" width="{SQUARE - 3}" '
            f'height="{SQUARE - 3}" rx="6" fill="none" stroke="{MARK_COLOUR}" '
            f'stroke-width="3" pointer-events="none"/>'
        )
    if coordinates:
        out += _labels(canvas)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _labels(canvas: _Canvas) -> list[str]:
    out = [f'<g class="coordinates" font-size="13" fill="{LABEL}" text-anchor="middle">']
    for row in range(HEIGHT):
        _, cy = canvas.centre(row * WIDTH)
        out.append(f'<text x="{_num(canvas.left / 2)}" y="{_num(cy + 4.5)}">{row + 1}</text>')
    bottom = canvas.top + HEIGHT * SQUARE + LABEL_MARGIN / 2 + 4.5
    for col, name in enumerate(FILE_NAMES):
        cx, _ = canvas.centre(col)
        out.append(f'<text x="{_num(cx)}" y="{_num(bottom)}">{name}</text>')
    out.append("</g>")
    return out


def turn_svg(position: Position, turn: Turn, **options: object) -> str:
    """One turn of a game: the board once the turn's moves are made, the moves as arrows from
    where the tiles stood, and the word's path. ``options`` go to :func:`board_svg`.

    The moves are applied leniently (see :func:`solver.render.tiles_after_moves`), so that even
    an illegal turn can be drawn; :mod:`solver.referee` judges them.
    """
    layout = position.layout
    after = {sq: layout.letters[tile] for sq, tile in tiles_after_moves(position, turn).items()}
    return board_svg(
        after,
        path=turn.path,
        moves=turn.moves,
        pattern=layout,
        **options,  # type: ignore[arg-type]
    )

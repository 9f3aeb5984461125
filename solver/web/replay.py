"""A game replayed in the browser: the data of every step and the self-contained HTML page.

:func:`replay_data` turns a game (a record, or a board and the turns played so far) into plain
JSON: for every step (the start, each turn, the end) the board as SVG (:func:`solver.svg.turn_svg`:
the tiles after the turn's moves, the moves as arrows, the word's path), the word, its points and
the running score, then the final breakdown and the search summary. ``static/replay.js`` shows
it with a slider, previous/next buttons and the arrow keys; the web app shows the same data.

:func:`replay_html` writes one HTML file holding the data, the script and the style sheet
inline: it needs no network, no server and no fonts but the system's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from importlib.resources import files
from typing import Any

from ..board import Layout, Position
from ..outputs import write_atomically
from ..record import Record, Turn
from ..render import position_after_turn
from ..rules import Result, Rules, tally
from ..squares import square_name, squares_of
from ..svg import board_svg, turn_svg


def _moves_text(position: Position, turn: Turn) -> list[str]:
    """Each move as ``T c7-c4``, with the letter of the tile standing on the origin then."""
    tile_at = {sq: sq for sq in squares_of(position.remaining_mask)}
    texts = []
    for origin, target in turn.moves:
        tile = tile_at.pop(origin, None)
        letter = "?" if tile is None else position.layout[tile]
        texts.append(f"{letter} {square_name(origin)}-{square_name(target)}")
        if tile is not None:
            tile_at[target] = tile
    return texts


def result_rows(result: Result) -> list[dict[str, str]]:
    """The final breakdown as table rows (label, value, note), as ``letterchess show`` prints
    it."""
    rows = [
        {"label": "word points", "value": f"{result.word_points}", "note": ""},
        {"label": "rounds", "value": f"{result.rounds}", "note": ""},
    ]
    if result.cleared:
        note = f"board cleared: 200 - 10 x {result.rounds}"
        rows.append({"label": "bonus", "value": f"+{result.bonus}", "note": note})
    else:
        note = f"left on the board: {' '.join(result.remaining)}" if result.remaining else ""
        rows.append({"label": "penalty", "value": f"-{result.penalty}", "note": note})
    rows.append({"label": "score", "value": f"{result.score}", "note": ""})
    return rows


def search_rows(search: dict[str, Any]) -> list[dict[str, Any]]:
    """The search summary of a record's ``search`` (strategy, budget, cost, bound, gap) as
    table rows; fields the record lacks are left out. A ``wide`` row's value takes the room
    of the note too."""
    rows: list[dict[str, Any]] = []
    if "strategy" in search:
        strategy = str(search["strategy"])
        if search.get("chosen"):
            strategy += f", chose {search['chosen']}"
        rows.append({"label": "strategy", "value": strategy, "note": ""})
        params = ", ".join(f"{k}={v}" for k, v in (search.get("params") or {}).items())
        if params:
            rows.append({"label": "parameters", "value": params, "note": "", "wide": True})
    budget = []
    if search.get("time_limit") is not None:
        budget.append(f"{search['time_limit']:g} s")
    if search.get("max_states") is not None:
        budget.append(f"{search['max_states']:,} states")
    if search.get("max_moves") is not None:
        budget.append(f"K = {search['max_moves']}")
    if budget:
        rows.append({"label": "budget", "value": ", ".join(budget), "note": ""})
    if "states" in search and "seconds" in search:
        cost = f"{search['seconds']:.2f} s, {search['states']:,} states"
        note = f"stopped: {search['stopped']}" if search.get("stopped") else ""
        rows.append({"label": "search", "value": cost, "note": note})
    bound = search.get("bound")
    if isinstance(bound, int) and not isinstance(bound, bool):
        rows.append(
            {"label": "bound", "value": f"{bound}", "note": str(search.get("bound_for") or "")}
        )
        gap = search.get("gap")
        if isinstance(gap, (int, float)) and not isinstance(gap, bool):
            note = "score / bound"
            if search.get("proven") is True:
                note = "optimum proven"
            rows.append({"label": "gap", "value": f"{gap:.3f}", "note": note})
    return rows


def replay_data(
    board: Layout,
    turns: Sequence[Turn] = (),
    *,
    rules: Rules | None = None,
    result: Result | None = None,
    search: dict[str, Any] | None = None,
    dictionary: dict[str, Any] | None = None,
    title: str = "Letter Chess replay",
) -> dict[str, Any]:
    """Every step of a game as JSON-ready data for ``static/replay.js``.

    :param board: the opening layout.
    :param turns: the turns played, in order (drawn leniently: an illegal turn is still shown).
    :param result: the final breakdown, if the game is over (``None`` for a game in progress).
    :param search: a record's ``search`` summary, if a solver found the game.
    """
    position = Position.start(board)
    steps: list[dict[str, Any]] = [
        {
            "label": "Start",
            "svg": board_svg(position, size=None),
            "caption": f"{board.tile_count} tiles dealt",
        }
    ]
    total = 0
    for number, turn in enumerate(turns, start=1):
        # A record of a game in progress may leave a turn's tally out.
        score = turn.score if turn.score is not None else tally(turn.word)
        total += score
        steps.append(
            {
                "label": f"Turn {number}",
                "svg": turn_svg(position, turn, size=None),
                "word": turn.word,
                "score": score,
                "total": total,
                "moves": _moves_text(position, turn),
                "path": " ".join(square_name(sq) for sq in turn.path),
            }
        )
        position = position_after_turn(position, turn)
    if turns:
        left = position.remaining_letters()
        steps.append(
            {
                "label": "End",
                "svg": board_svg(position, size=None),
                "caption": f"{len(left)} tiles left" if left else "board cleared",
            }
        )
    words = None
    if dictionary:
        words = f"{dictionary.get('name', '?')} ({dictionary.get('words', '?')} words)"
    return {
        "title": title,
        "board": board.to_line(),
        "rules": (rules or Rules()).describe(),
        "dictionary": words,
        "steps": steps,
        "result": result_rows(result) if result is not None else None,
        "search": search_rows(search) if search else None,
    }


def record_replay_data(record: Record, title: str = "Letter Chess replay") -> dict[str, Any]:
    """:func:`replay_data` of a whole game record."""
    return replay_data(
        record.board,
        record.turns,
        rules=record.rules,
        result=record.result,
        search=record.search,
        dictionary=record.dictionary,
        title=title,
    )


def static_text(name: str) -> str:
    """A file shipped in ``solver/web/static``."""
    return files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def _script_json(data: Any) -> str:
    # Inside <script>, "</" could end the element early; "<\/" is the same JSON string.
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def replay_html(data: dict[str, Any]) -> str:
    """A self-contained HTML page replaying ``data`` (from :func:`replay_data`): the style
    sheet, the script and the data inline, nothing loaded from anywhere."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="letterchess">
<title>{escape(data["title"])}</title>
<style>
{static_text("replay.css")}</style>
</head>
<body class="replay-page">
<header class="replay-header">
<h1>{escape(data["title"])}</h1>
</header>
<main id="replay"></main>
<script id="replay-data" type="application/json">{_script_json(data)}</script>
<script>
{static_text("replay.js")}</script>
<script>
LetterChessReplay.mount(
  document.getElementById("replay"),
  JSON.parse(document.getElementById("replay-data").textContent),
  {{keyboard: true}}
);
</script>
</body>
</html>
"""


def record_html_fragment(record: Record) -> str:
    """A static HTML fragment of a whole game for Jupyter: every turn's board with its word and
    points, then the final breakdown (no script: notebooks may not run one)."""
    data = record_replay_data(record)
    cards = []
    for step in data["steps"]:
        if "word" in step:
            heading = f"{step['label']}: <b>{escape(step['word'])}</b> +{step['score']}"
            detail = f"moves: {escape(', '.join(step['moves']) or 'none')}"
        else:
            heading, detail = step["label"], escape(step["caption"])
        cards.append(
            '<figure style="margin:0;width:220px">'
            f"{step['svg']}"
            f'<figcaption style="font:13px sans-serif">{heading}<br>{detail}</figcaption>'
            "</figure>"
        )
    rows = "".join(
        f"<tr><td>{row['label']}</td><td style='text-align:right'><b>{row['value']}</b></td>"
        f"<td>{escape(row['note'])}</td></tr>"
        for row in (data["result"] or []) + (data["search"] or [])
    )
    return (
        '<div class="letterchess-game">'
        f'<div style="display:flex;flex-wrap:wrap;gap:12px">{"".join(cards)}</div>'
        f'<table style="font:13px sans-serif;margin-top:8px">{rows}</table>'
        "</div>"
    )


def write_replay(item: Record | Layout, path: str) -> None:
    """Write the HTML replay of a game record (or the page of a bare board) to ``path``.

    :raises OSError: when the file cannot be written; ``letterchess show --html`` reports it.
    """
    data = record_replay_data(item) if isinstance(item, Record) else replay_data(item)
    write_atomically(path, replay_html(data).encode("utf-8"))

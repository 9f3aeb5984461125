"""Game records: the ``letterchess/record-1`` JSON format, its reader and its writer.

A record holds the opening board, the rules, the dictionary it was played with, every turn
(moves in the order applied, the word's path in reading order after the moves, the word and its
tally) and the final result. A **game in progress** has no result yet, and its turns may leave
out their tallies: a player mid-game writes down what was played, not the arithmetic. Reading a
record checks its *form* (fields, types, square names); whether the game is *legal* is for
:mod:`solver.referee` to say.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .board import BoardError, Layout
from .inputs import MAX_RECORD_BYTES, json_kind, read_text
from .outputs import write_atomically
from .rules import Result, Rules, RulesError
from .squares import Square, parse_square, square_name

FORMAT = "letterchess/record-1"

_RESULT_FIELDS: dict[str, type] = {
    "rounds": int,
    "word_points": int,
    "cleared": bool,
    "bonus": int,
    "penalty": int,
    "remaining": str,
    "score": int,
}


class RecordError(ValueError):
    """A record that cannot be read, with the place (file, turn, field) in its message."""


@dataclass(frozen=True)
class Turn:
    """One turn: tile moves ``(from, to)`` in order, then a word read along ``path``; ``score``
    is the word's tally as recorded (``None`` if the record leaves it out)."""

    moves: tuple[tuple[Square, Square], ...]
    path: tuple[Square, ...]
    word: str
    score: int | None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "moves": [[square_name(origin), square_name(target)] for origin, target in self.moves],
            "path": [square_name(sq) for sq in self.path],
            "word": self.word,
        }
        if self.score is not None:
            data["score"] = self.score
        return data


@dataclass(frozen=True)
class Record:
    """A whole game as written to and read from a record file; ``result`` is ``None`` for a
    game in progress."""

    board: Layout
    rules: Rules
    turns: tuple[Turn, ...]
    result: Result | None
    dictionary: dict[str, Any] | None = None
    search: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "board": self.board.to_line(),
            "rules": self.rules.to_dict(),
        }
        if self.dictionary is not None:
            data["dictionary"] = self.dictionary
        data["turns"] = [turn.to_dict() for turn in self.turns]
        if self.result is not None:
            data["result"] = self.result.to_dict()
        if self.search is not None:
            data["search"] = self.search
        data.update(self.extra)
        return data

    @property
    def in_progress(self) -> bool:
        """Whether the game has no result yet."""
        return self.result is None

    def to_json(self) -> str:
        """The record as JSON text, one turn per line so that diffs stay readable."""
        lines = []
        for key, value in self.to_dict().items():
            if key == "turns" and value:
                body = ",\n    ".join(json.dumps(turn) for turn in value)
                text = f"[\n    {body}\n  ]"
            else:
                text = json.dumps(value)
            lines.append(f"  {json.dumps(key)}: {text}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    def _repr_html_(self) -> str:
        """Jupyter shows a record as the whole game: every turn's board, then the result."""
        from .web.replay import record_html_fragment

        return record_html_fragment(self)

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``, whole or not at all (an old file stays as it was if
        the write fails)."""
        write_atomically(path, self.to_json().encode("utf-8"))

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> Record:
        """Read a record from JSON text; ``source`` names it in errors.

        :raises RecordError: for text that is not JSON or not a well-formed record.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(
                f"{source}: not JSON (line {error.lineno}, column {error.colno}: {error.msg})"
            ) from None
        return cls.from_dict(data, source)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file."""
        try:
            text = read_text(path, "record file", MAX_RECORD_BYTES)
        except OSError as error:
            raise RecordError(str(error)) from None
        return cls.from_json(text, str(path))

    @classmethod
    def from_dict(cls, data: Any, source: str = "record") -> Record:
        """Read a record from its decoded JSON object."""
        if not isinstance(data, dict):
            raise RecordError(f"{source}: a record is a JSON object, not {json_kind(data)}")
        if "format" not in data:
            raise RecordError(f"{source}: not a game record (no 'format' field)")
        if data["format"] != FORMAT:
            found = data["format"]
            shown = repr(found) if isinstance(found, str) else json_kind(found)
            raise RecordError(f"{source}: format is {shown}, expected {FORMAT!r}")
        for key in ("board", "rules", "turns"):
            if key not in data:
                raise RecordError(f"{source}: missing field {key!r}")
        if not isinstance(data["board"], str):
            raise RecordError(f"{source}: board must be a string, not {json_kind(data['board'])}")
        try:
            board = Layout.parse(data["board"], source=f"{source}: board")
        except BoardError as error:
            raise RecordError(str(error)) from None
        try:
            rules = Rules.from_dict(data["rules"])
        except RulesError as error:
            raise RecordError(f"{source}: rules: {error}") from None
        turns_data = data["turns"]
        if not isinstance(turns_data, list):
            raise RecordError(f"{source}: turns must be a list, not {json_kind(turns_data)}")
        turns = tuple(
            _read_turn(turn, f"{source}: turn {number}")
            for number, turn in enumerate(turns_data, start=1)
        )
        result = None
        if data.get("result") is not None:
            result = _read_result(data["result"], f"{source}: result")
        dictionary = _read_dictionary(data.get("dictionary"), f"{source}: dictionary")
        search = data.get("search")
        if search is not None and not isinstance(search, dict):
            raise RecordError(f"{source}: search must be an object, not {json_kind(search)}")
        known = {"format", "board", "rules", "dictionary", "turns", "result", "search"}
        extra = {key: value for key, value in data.items() if key not in known}
        return cls(board, rules, turns, result, dictionary, search, extra)


def _read_dictionary(data: Any, where: str) -> dict[str, Any] | None:
    """The record's ``dictionary`` object (name, words, sha256; each optional), checked."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RecordError(f"{where} must be an object, not {json_kind(data)}")
    for key, kind, wanted in (("name", str, "a string"), ("sha256", str, "a string")):
        if key in data and not isinstance(data[key], kind):
            raise RecordError(f"{where}: {key} must be {wanted}, not {json_kind(data[key])}")
    words = data.get("words")
    if words is not None and (isinstance(words, bool) or not isinstance(words, int)):
        raise RecordError(f"{where}: words must be an integer, not {json_kind(words)}")
    return data


def _read_square(value: Any, where: str) -> Square:
    if not isinstance(value, str):
        raise RecordError(f"{where}: a square is a name like 'c4', not {json_kind(value)}")
    try:
        return parse_square(value)
    except ValueError:
        raise RecordError(f"{where}: unknown square {value!r} (squares are a1 to g9)") from None


def _read_turn(data: Any, where: str) -> Turn:
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a turn is an object, not {json_kind(data)}")
    for key in ("path", "word"):
        if key not in data:
            raise RecordError(f"{where}: missing field {key!r}")
    moves_data = data.get("moves", [])
    if not isinstance(moves_data, list):
        raise RecordError(f"{where}: moves must be a list, not {json_kind(moves_data)}")
    moves = []
    for number, move in enumerate(moves_data, start=1):
        if not isinstance(move, list) or len(move) != 2:
            raise RecordError(f"{where}, move {number}: a move is a pair [from, to]")
        moves.append(
            (
                _read_square(move[0], f"{where}, move {number}"),
                _read_square(move[1], f"{where}, move {number}"),
            )
        )
    if not isinstance(data["path"], list):
        raise RecordError(f"{where}: path must be a list, not {json_kind(data['path'])}")
    path = tuple(
        _read_square(sq, f"{where}, path square {number}")
        for number, sq in enumerate(data["path"], start=1)
    )
    word = data["word"]
    if not isinstance(word, str):
        raise RecordError(f"{where}: word must be a string, not {json_kind(word)}")
    score = data.get("score")
    if score is not None and (isinstance(score, bool) or not isinstance(score, int)):
        raise RecordError(f"{where}: score must be an integer, not {json_kind(score)}")
    return Turn(tuple(moves), path, word.upper(), score)


def _read_result(data: Any, where: str) -> Result:
    if not isinstance(data, dict):
        raise RecordError(f"{where}: must be an object, not {json_kind(data)}")
    values = {}
    for key, kind in _RESULT_FIELDS.items():
        if key not in data:
            raise RecordError(f"{where}: missing field {key!r}")
        value = data[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RecordError(f"{where}: {key} must be an integer, not {json_kind(value)}")
        if kind is not int and not isinstance(value, kind):
            raise RecordError(f"{where}: {key} must be {json_kind(kind())}, not {json_kind(value)}")
        values[key] = value.upper() if key == "remaining" else value
    return Result(**values)

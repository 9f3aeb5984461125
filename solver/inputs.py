"""Reading what users give us: files read with a size cap, and JSON values named in errors.

Every reader of a user's file (a board, a record, a word list, a bag of letters) goes through
:func:`read_text` or :func:`read_bytes`, so that a wrong file, say a 2 GB log, is refused at
once with a one-line error instead of being read whole into memory. The caps are far above any
real input and live here, in one place.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

__all__ = [
    "MAX_BAG_TILES",
    "MAX_BOARD_BYTES",
    "MAX_RECORD_BYTES",
    "MAX_WORD_LIST_BYTES",
    "json_kind",
    "read_bytes",
    "read_text",
]

#: A board file: 9 lines of 7 letters, and comments (a few hundred bytes in practice).
MAX_BOARD_BYTES = 64 * 1024
#: A game record: a few kilobytes, more with a long ``search`` section.
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: A word list: the shipped one is 1.1 MB; the largest English lists are about 5 MB.
MAX_WORD_LIST_BYTES = 256 * 1024 * 1024
#: Tiles in a bag of letters: a deal draws at most 63, a bag of a million is already absurd.
MAX_BAG_TILES = 1_000_000


def read_bytes(path: str | os.PathLike[str], what: str, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``.

    :param what: what the file should be (``"board file"``), for the error messages.
    :raises OSError: with a one-line message naming ``path`` for a missing, unreadable,
        non-regular or too large file.
    """
    name = os.fspath(path)
    if name == "":
        raise FileNotFoundError(f"an empty name is not a {what}")
    if "\0" in name:
        raise FileNotFoundError(f"{name!r}: not a file name (it holds a NUL character)")
    try:
        with open(name, "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError(f"{name}: a directory, not a {what}")
            # Regular files have a size; pipes and devices are read up to one byte past the cap.
            if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
                raise _too_large(name, what, max_bytes)
            data = handle.read(max_bytes + 1)
    except IsADirectoryError as error:
        raise IsADirectoryError(f"{name}: a directory, not a {what}") from error
    except FileNotFoundError as error:
        raise FileNotFoundError(f"{name}: no such {what}") from error
    except PermissionError as error:
        raise PermissionError(f"{name}: cannot read the {what} (permission denied)") from error
    if len(data) > max_bytes:
        raise _too_large(name, what, max_bytes)
    return data


def read_text(path: str | os.PathLike[str], what: str, max_bytes: int) -> str:
    """The text of a UTF-8 file of at most ``max_bytes`` (see :func:`read_bytes`).

    :raises OSError: as :func:`read_bytes`, and for text that is not UTF-8 (naming the line).
    """
    data = read_bytes(path, what, max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise OSError(f"{os.fspath(path)} line {line}: not UTF-8 text, so not a {what}") from None


def _too_large(name: str, what: str, max_bytes: int) -> OSError:
    return OSError(f"{name}: larger than {_size(max_bytes)}, too large for a {what}")


def _size(count: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:g} {unit}"
    return f"{count} bytes"


def json_kind(value: Any) -> str:
    """How a JSON value is named in an error: ``"a string"``, ``"null"``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def is_file_path(spec: str) -> bool:
    """Whether ``spec`` names an existing path (a file or a folder), without raising."""
    try:
        return Path(spec).exists()
    except (OSError, ValueError):  # a name too long, or with a NUL byte
        return False

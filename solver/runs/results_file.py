"""The results file of ``letterchess distribution`` (``letterchess/distribution-1``, JSON
Lines): one line per solved deal, written as soon as the deal is solved, read back to resume.

**Writing.** Lines go in the order the deals finished, each written with one ``write``
followed by ``fsync``, so that a run killed at any moment leaves every finished line whole.
Every line carries the settings it was solved with (:func:`results_line`)::

    {"format": "letterchess/distribution-1", "index": 3, "deal_seed": 3,
     "board": "<one-line board>", "score": 431, "cleared": false, "rounds": 7,
     "seconds": 0.02, "states": 8, "stopped": "finished", "bound": null,
     "settings": {"strategy": "greedy", "time_limit": 10.0, "max_states": null,
                  "max_moves": 2, "seed": 0, "rules": {...}, "dictionary": {...},
                  "bound": false},
     "record": {<the game record, letterchess/record-1>}}

**Reading** (:meth:`ResultsFile.open`). A run with an existing file solves only the deals
missing from it. The file is read one line at a time, each at most
:data:`~solver.config.MAX_RESULTS_LINE_BYTES`, so any file costs bounded memory. Nothing in it
is ever removed but a last line, with no end of line, that is the beginning of a line of ours
(a run killed while writing it): that one is reported and removed, and its deal solved again.
Any other line that is not a good results line is an error naming it (file:line) and leaves
the file as it is: a file whose first line is not ours is "not a results file"; a bad line in a
results file is for the user to repair. So is a line solved with other settings (strategy,
budgets, move limit, seed, rules or dictionary): a file never mixes two kinds of runs.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import signal
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from ..config import MAX_RESULTS_LINE_BYTES
from ..outputs import OutputPathError, check_output_path
from .deals import deal_seed
from .settings import RunSettings
from .task import SolveResult

FORMAT = "letterchess/distribution-1"

# Every line starts with this text (json.dumps keeps the key order and its spacing), so even a
# line cut short after a few bytes can be recognised as ours before it is cut off.
_MARKER = json.dumps({"format": FORMAT})[:-1].encode()


class ResultsFileError(ValueError):
    """A results file that cannot be read, resumed or written, with the file and line in the
    message."""


class SettingsConflict(ValueError):
    """The results file was solved with other settings than the command asks for."""


@dataclass(frozen=True)
class DealResult:
    """What the statistics need of one solved deal (the record stays in the file)."""

    index: int
    deal_seed: int
    score: int
    cleared: bool
    rounds: int
    seconds: float
    states: int
    bound: int | None = None

    @classmethod
    def of_solve(cls, result: SolveResult, seed: int) -> DealResult:
        """The deal of a run with ``seed`` that ``result`` solved."""
        return cls(
            result.index,
            deal_seed(seed, result.index),
            result.score,
            result.cleared,
            result.rounds,
            result.seconds,
            result.states,
            result.bound,
        )

    @classmethod
    def of_line(cls, data: dict[str, Any]) -> DealResult:
        """The deal of a good results line (:func:`_decode`)."""
        bound = data.get("bound")  # only in runs with --bound
        return cls(
            data["index"],
            data["deal_seed"],
            data["score"],
            data["cleared"],
            data["rounds"],
            float(data["seconds"]),
            data["states"],
            bound if isinstance(bound, int) and not isinstance(bound, bool) else None,
        )


def results_line(settings: RunSettings, result: SolveResult) -> dict[str, Any]:
    """The results line of a solved deal (see the module docstring for its fields, in order)."""
    return {
        "format": FORMAT,
        "index": result.index,
        "deal_seed": deal_seed(settings.seed, result.index),
        "board": result.record["board"],
        "score": result.score,
        "cleared": result.cleared,
        "rounds": result.rounds,
        "seconds": result.seconds,
        "states": result.states,
        "stopped": result.stopped,
        "bound": result.bound,
        "settings": settings.results_dict(),
        "record": result.record,
    }


_LINE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "index": int,
    "deal_seed": int,
    "board": str,
    "score": int,
    "cleared": bool,
    "rounds": int,
    "seconds": (int, float),
    "states": int,
    "settings": dict,
    "record": dict,
}
_KIND_NAMES: dict[type | tuple[type, ...], str] = {
    int: "an integer",
    str: "a string",
    bool: "true or false",
    dict: "an object",
}
#: Integers beyond this are no count of ours (and would overflow the statistics' floats).
_MAX_INT = 2**53

#: What may stand where a line cut short ends, after its last whole JSON token: the beginning
#: of a number, of a \uXXXX escape in a string (the decoder points past its backslash), or of
#: one of the words json.dumps writes.
_TOKEN_START = re.compile(r"-?\d*(\.\d*)?([eE][-+]?\d*)?|u[0-9a-fA-F]{0,4}")
_WORDS = ("true", "false", "null", "NaN", "Infinity", "-Infinity")


def _decode(raw: bytes) -> tuple[Any, str | None]:
    """A results line decoded and checked for form: ``(data, None)`` for a good line, else
    ``(what was decoded or None, the problem)``."""
    try:
        data = json.loads(raw.rstrip(b"\r\n").decode("utf-8"))
    except UnicodeDecodeError:
        return None, "not text (not UTF-8)"
    except json.JSONDecodeError as error:
        return None, f"not JSON ({error.msg} at column {error.colno})"
    except (ValueError, RecursionError):  # a number too long, lists nested too deep
        return None, "not JSON"
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return data, f"not a {FORMAT} line"
    for name, kind in _LINE_FIELDS.items():
        value = data.get(name)
        # bool is an int in Python: keep True out of the integer fields.
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            return data, f"field {name!r} is missing or not {_KIND_NAMES.get(kind, 'a number')}"
        if (isinstance(value, int) and abs(value) > _MAX_INT) or (
            isinstance(value, float) and not math.isfinite(value)
        ):
            return data, f"field {name!r} is out of range"
    if data["index"] < 0:
        return data, "field 'index' is negative"
    return data, None


def _ours(raw: bytes, data: Any) -> bool:
    """Whether a line (good or not) claims to be a results line: it starts as every line we
    write does, or it decodes to an object of our format."""
    return raw.startswith(_MARKER) or (isinstance(data, dict) and data.get("format") == FORMAT)


def _cut_short(raw: bytes) -> bool:
    """Whether an unterminated last line can be the beginning of a line we wrote, cut by a run
    killed while writing it: it begins as our lines do (or is a beginning of that), holds only
    what json.dumps writes (printable ASCII), and is an unfinished JSON text that stops in the
    middle of a token or between two, never one with a fault before its end."""
    if not (raw.startswith(_MARKER) or _MARKER.startswith(raw)):
        return False
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return False
    if not text.isprintable():
        return False
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        if error.msg.startswith("Unterminated string"):
            return True  # the string runs on to the end: cut inside it
        rest = text[error.pos :]
        return any(word.startswith(rest) for word in _WORDS) or bool(_TOKEN_START.fullmatch(rest))
    except (ValueError, RecursionError):
        return False
    return False  # a whole JSON text: not cut short (at most its end of line is missing)


@dataclass
class ResultsFile:
    """A results file opened for resuming and appending; see the module docstring.

    Use :meth:`open`. The file is locked while open, so two runs cannot write one file.

    :ivar settings: the run's; every line of the file was solved with them.
    :ivar done: the deals in the file, by index (those appended too).
    :ivar notes: what :meth:`open` had to say (a damaged last line cut off, repeated deals).
    """

    path: Path
    settings: RunSettings
    done: dict[int, DealResult]
    notes: list[str]
    _fd: int | None

    @classmethod
    def open(cls, path: str | os.PathLike[str], settings: RunSettings) -> ResultsFile:
        """Open (or create) ``path``, read the deals it holds, remove a last line cut short by
        a killed run and end a whole last line that lacks its end of line.

        :raises ResultsFileError: for a path that is no regular file (or cannot be), a file
            that cannot be read or is not a results file, a bad line (named), or a file being
            written by another run.
        :raises SettingsConflict: when its deals were solved with other ``settings``.
        """
        try:
            check_output_path(path)
        except OutputPathError as error:
            raise ResultsFileError(str(error)) from None
        path = Path(path)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise ResultsFileError(f"{path}: cannot open ({error.strerror or error})") from None
        try:
            # Checked again on the open file: the path may have changed since.
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ResultsFileError(f"{path} is not a regular file")
            _lock(fd, path)
            try:
                scan = _scan(fd, path, settings)
                if scan.cut_at is not None:
                    os.ftruncate(fd, scan.cut_at)
                    os.fsync(fd)
                # New lines go at the end.
                os.lseek(fd, 0, os.SEEK_END)
                if scan.cut_at is None and scan.unterminated:
                    _write_line(fd, b"\n")  # so that the next line starts on a line of its own
            except OSError as error:
                raise ResultsFileError(
                    f"{path}: cannot read or repair it ({error.strerror or error})"
                ) from None
        except BaseException:
            os.close(fd)
            raise
        return cls(path, settings, scan.done, scan.notes, fd)

    def append(self, result: SolveResult) -> dict[str, Any]:
        """Write the line of a solved deal, whole, make sure it is on disk, and count the deal
        in :attr:`done`.

        :returns: the line written (:func:`results_line`).
        :raises ResultsFileError: for a line longer than a results file may hold (the reader
            would refuse it).
        """
        assert self._fd is not None, "the results file is closed"
        line = results_line(self.settings, result)
        data = (json.dumps(line) + "\n").encode()
        if len(data) > MAX_RESULTS_LINE_BYTES:
            raise ResultsFileError(
                f"the results line of deal {result.index} would be {len(data):,} bytes, more "
                f"than the {MAX_RESULTS_LINE_BYTES:,} a results file may hold; not written"
            )
        _write_line(self._fd, data)
        self.done[result.index] = DealResult.of_solve(result, self.settings.seed)
        return line

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # also releases the lock
            self._fd = None

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_line(fd: int, data: bytes) -> None:
    """Append ``data`` and sync it to disk."""
    # One write call for the line (looping only if the kernel writes it in parts), then fsync:
    # a crash leaves either the whole line or a cut last line that the next run detects, and
    # never loses a line that was reported as written. Ctrl-C waits until the line is written.
    with _signals_held():
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back (they are delivered on leaving), where Python can."""
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not (
        threading.main_thread()
    ):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _lock(fd: int, path: Path) -> None:
    try:
        import fcntl
    except ImportError:  # not on Windows: no lock there
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ResultsFileError(f"{path}: another run is writing this file") from None


@dataclass
class _Scan:
    """What :func:`_scan` found in a results file.

    :ivar done: the deals by index.
    :ivar notes: what to tell the user (a cut-short line removed, repeated deals).
    :ivar cut_at: where a cut-short last line starts (the file is truncated there), or ``None``.
    :ivar unterminated: the last line is whole but has no end of line (one is added).
    """

    done: dict[int, DealResult] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    cut_at: int | None = None
    unterminated: bool = False


def _lines(reader: BinaryIO) -> Iterator[bytes]:
    """The lines of ``reader``, at most :data:`~solver.config.MAX_RESULTS_LINE_BYTES` + 1 bytes
    each: one longer is cut there (the caller refuses it), so a file of any size costs bounded
    memory."""
    while raw := reader.readline(MAX_RESULTS_LINE_BYTES + 1):
        yield raw


def _scan(fd: int, path: Path, settings: RunSettings) -> _Scan:
    """Read every line of the open results file, one at a time.

    Only the last line, with no end of line, can have been cut short by a killed run, and only
    if it is the beginning of a line of ours (:func:`_cut_short`): that one is marked for
    removal. Any other line that is not a good results line is an error naming it, and the
    file is left as it is (:func:`_read_line`).

    :raises ResultsFileError: for a line that is not a good results line (file:line and why).
    :raises SettingsConflict: for a line solved with other settings.
    """
    scan = _Scan()
    offset = 0  # where the current line starts
    repeated = 0
    with os.fdopen(os.dup(fd), "rb") as reader:
        reader.seek(0)
        for number, raw in enumerate(_lines(reader), start=1):
            start, offset = offset, offset + len(raw)
            whole = raw.endswith(b"\n")
            scan.unterminated = not whole
            if not raw.strip():
                continue
            if not whole and len(raw) <= MAX_RESULTS_LINE_BYTES and _cut_short(raw):
                # The end of the file (readline stops early only there).
                scan.cut_at = start
                scan.notes.append(
                    f"{path}:{number}: cut short (a run stopped while writing it): removed, "
                    "its deal will be solved again"
                )
                break
            deal = _read_line(raw, f"{path}:{number}", settings, first=not scan.done)
            if deal.index in scan.done:
                repeated += 1
                continue
            scan.done[deal.index] = deal
    if repeated:
        from ..render import count_of

        scan.notes.append(
            f"{path}: {count_of(repeated, 'line')} {'repeats' if repeated == 1 else 'repeat'} a "
            "deal already in the file; ignored"
        )
    return scan


def _read_line(raw: bytes, where: str, settings: RunSettings, first: bool) -> DealResult:
    """The deal of one whole line of a results file, at ``where`` (file:line).

    :param first: no line before it was ours: a bad line then means that the file is not a
        results file at all, unless it claims to be one of ours; after a good line, a bad line
        in a results file is for the user to repair.
    :raises ResultsFileError: for a line that is not a good results line.
    :raises SettingsConflict: for a line solved with other settings.
    """
    data: Any
    problem: str | None
    if len(raw) > MAX_RESULTS_LINE_BYTES:
        data, problem = None, f"longer than {MAX_RESULTS_LINE_BYTES:,} bytes"
    else:
        data, problem = _decode(raw)
    if problem is not None:
        if first and not _ours(raw, data):
            raise ResultsFileError(
                f"{where}: {problem}: this is not a results file of letterchess distribution; "
                "check --out"
            )
        raise ResultsFileError(f"{where}: {problem}: repair or remove this line")
    conflicts = settings.conflicts(data["settings"])
    if conflicts:
        raise SettingsConflict(
            f"{where}: deals solved with other settings: {'; '.join(conflicts)}. Resume it with "
            "its own settings, or choose another --out"
        )
    index = data["index"]
    if data["deal_seed"] != deal_seed(settings.seed, index):
        raise ResultsFileError(
            f"{where}: deal {index} has seed {data['deal_seed']}, but seed {settings.seed} gives "
            f"it seed {deal_seed(settings.seed, index)}"
        )
    return DealResult.of_line(data)

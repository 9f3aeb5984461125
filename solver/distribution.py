"""Score distributions: solve many random deals, on this machine or on a Dask cluster, into a
results file that a later run resumes, and summarise the scores (``letterchess distribution``).

**Deals.** Deal *i* (counting from 0) of a run with seed *S* is the standard deal of seed
``S * 1_000_003 + i`` (:func:`deal_seed`): the board ``letterchess generate --seed`` prints for
that number. Its search is seeded with the same number. So the same N and seed give the same
deals on every machine (and, with a state budget, the same games), ``--seed 0`` solves the deals
of seeds 0 to N-1, and two seeds share no deal while N is at most 1,000,003.

**Results file** (``letterchess/distribution-1``, JSON Lines): one line per solved deal, in the
order the deals finished, each written with one ``write`` followed by ``fsync``, so that a run
killed at any moment leaves every finished line whole. Every line carries the settings it was
solved with::

    {"format": "letterchess/distribution-1", "index": 3, "deal_seed": 3,
     "board": "<one-line board>", "score": 431, "cleared": false, "rounds": 7,
     "seconds": 0.02, "states": 8, "stopped": "finished",
     "settings": {"strategy": "greedy", "time_limit": 10.0, "max_states": null,
                  "max_moves": 2, "seed": 0, "rules": {...}, "dictionary": {...}},
     "record": {<the game record, letterchess/record-1>}}

A run with an existing file solves only the deals missing from it. The file is read one line
at a time, each at most :data:`MAX_LINE_BYTES`, so any file costs bounded memory. Nothing in it
is ever removed but a last line, with no end of line, that is the beginning of a line of ours
(a run killed while writing it): that one is reported and removed, and its deal solved again.
Any other line that is not a good results line is an error naming it (file:line) and leaves
the file as it is: a file whose first line is not ours is "not a results file"; a bad line in a
results file is for the user to repair. So is a line solved with other settings (strategy,
budgets, move limit, seed, rules or dictionary): a file never mixes two kinds of runs.

**Execution.** A pool of local worker processes, or with a scheduler address the workers of a
Dask distributed cluster. Each deal is one task, :func:`solve_task`, a pure function of its
:class:`SolveTask`, so Dask can run it again elsewhere when a worker dies. Lines are written as
results arrive.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import itertools
import json
import math
import multiprocessing
import os
import re
import signal
import socket
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from .outputs import OutputPathError, check_output_path, write_atomically
from .play import limit_name
from .rules import Rules

if TYPE_CHECKING:
    from rich.progress import Progress

FORMAT = "letterchess/distribution-1"
#: Deal i of seed S has seed S * SEED_STRIDE + i (a prime, so the formula is easy to recognise).
SEED_STRIDE = 1_000_003
#: The original rules call a game above this score a high score.
HIGH_SCORE = 400
PERCENTILES = (5, 25, 50, 75, 95)
BOOTSTRAP_RESAMPLES = 10_000
#: Seconds to wait for a Dask scheduler to answer.
DASK_CONNECT_TIMEOUT = 20.0
#: Fewest Dask tasks kept submitted at once (more when the cluster has more threads).
DASK_MIN_WINDOW = 256

#: The longest results line read. Ours are a few kilobytes (mostly the game record); a longer
#: line is none of ours, and reading stops there, so that a wrong file (a 2 GB log) given as
#: the results file costs no memory.
MAX_LINE_BYTES = 1024 * 1024

# Every line starts with this text (json.dumps keeps the key order and its spacing), so even a
# line cut short after a few bytes can be recognised as ours before it is cut off.
_MARKER = json.dumps({"format": FORMAT})[:-1].encode()


class DistributionError(Exception):
    """A run that cannot go on: a worker process died, the scheduler cannot be reached..."""


class ResultsFileError(ValueError):
    """A results file that cannot be read or resumed, with the file and line in the message."""


class SettingsConflict(ValueError):
    """The results file was solved with other settings than the command asks for."""


class SolveInterrupted(Exception):
    """A solve stopped by Ctrl-C: its game is not the one the budget would give; not written."""


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` (from 0) of a run with ``seed``."""
    return seed * SEED_STRIDE + index


def canonical_strategy(spec: str) -> str:
    """``spec`` with every parameter spelled out (defaults too), so that two specs naming the
    same search compare equal: ``beam`` and ``beam:width=200`` when 200 is the default.

    :raises solver.search.StrategyError: for an unknown strategy, parameter or value.
    """
    from .search import parse_strategy

    strategy = parse_strategy(spec)
    params = strategy.params.to_dict()
    if not params:
        return strategy.name
    return strategy.name + ":" + ",".join(f"{key}={value}" for key, value in params.items())


def _seconds(value: float) -> str:
    return f"{value:g} s"


def check_budget(time_limit: float | None, max_states: int | None) -> None:
    """Refuse a search budget that no search can keep: a time limit that is not a positive,
    finite number of seconds (``nan`` would even be written to the results file), or a state
    budget below one.

    :raises ValueError: naming the bad value.
    """
    if time_limit is not None and not (
        isinstance(time_limit, int | float) and math.isfinite(time_limit) and time_limit > 0
    ):
        raise ValueError(f"the time limit must be a positive number of seconds, not {time_limit}")
    if max_states is not None and not (
        isinstance(max_states, int) and not isinstance(max_states, bool) and max_states >= 1
    ):
        raise ValueError(f"the state budget must be a whole number of 1 or more, not {max_states}")


@dataclass(frozen=True)
class Settings:
    """What a deal was solved with; deals of one results file all share these.

    :ivar strategy: canonical strategy spec (:func:`canonical_strategy`).
    :ivar time_limit: seconds per deal, or ``None``.
    :ivar max_states: state budget per deal, or ``None``.
    :ivar max_moves: the move limit K.
    :ivar seed: the run's seed, from which deal seeds derive (:func:`deal_seed`).
    :ivar dictionary: ``{"name", "words", "sha256"}`` of the word list.
    :ivar bound: also compute each deal's upper bound (it changes no game, so a run may be
        resumed with it on or off).
    :raises ValueError: for a budget no search can keep (:func:`check_budget`).
    """

    strategy: str
    time_limit: float | None
    max_states: int | None
    max_moves: int | None
    seed: int
    rules: Rules = field(default_factory=Rules)
    dictionary: dict[str, Any] = field(default_factory=dict)
    bound: bool = False

    def __post_init__(self) -> None:
        check_budget(self.time_limit, self.max_states)

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "time_limit": self.time_limit,
            "max_states": self.max_states,
            "max_moves": self.max_moves,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "dictionary": self.dictionary,
            "bound": self.bound,
        }

    def conflicts(self, stored: Any) -> list[str]:
        """How the settings ``stored`` in a results line differ from these, one phrase each."""
        if not isinstance(stored, dict):
            return ["settings missing"]
        mine = self.to_dict()
        found = []
        for key in ("strategy", "time_limit", "max_states", "max_moves", "seed", "rules"):
            if stored.get(key) != mine[key]:
                found.append(f"{key} {_show(stored.get(key))} (asked: {_show(mine[key])})")
        theirs = stored.get("dictionary")
        theirs = theirs if isinstance(theirs, dict) else {}
        # The name may differ (a renamed copy of a list): the words are what matter.
        if theirs.get("sha256") != self.dictionary.get("sha256"):
            found.append(
                f"dictionary {theirs.get('name')} sha256 {str(theirs.get('sha256'))[:12]}... "
                f"(asked: {self.dictionary.get('name')} "
                f"sha256 {str(self.dictionary.get('sha256'))[:12]}...)"
            )
        return found

    def describe(self) -> str:
        """One line for people: ``greedy, K=2, 10 s per deal, standard rules, scowl-70``."""
        budget = []
        if self.time_limit is not None:
            budget.append(f"{_seconds(self.time_limit)} per deal")
        if self.max_states is not None:
            budget.append(f"{self.max_states:,} states per deal")
        return ", ".join(
            [
                self.strategy,
                f"K={limit_name(self.max_moves)}",
                *budget,
                f"{self.rules.describe()} rules",
                str(self.dictionary.get("name", "?")),
            ]
        )


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return "none" if value is None else str(value)


# ---------------------------------------------------------------------------------------------
# One solve: the task every worker runs


@dataclass(frozen=True)
class SolveTask:
    """Everything a worker needs to solve one deal.

    The result is a pure function of these fields (given the same letterchess version and a
    state budget): Dask may run a task twice, on another machine, when a worker dies.

    :ivar index: the caller's number for this solve (the deal index in a distribution run).
    :ivar board: the deal, one-line form.
    :ivar search_seed: seeds the strategy's random choices.
    :ivar rules: the rules as a dict (:meth:`Rules.to_dict`).
    :ivar dict_path: the word list file (absolute), ``None`` for the default list.
    :ivar dict_sha256: the word list the run was set up with; a worker whose list differs fails.
    :ivar bound: also compute the deal's upper bound (about a second for a full deal).
    """

    index: int
    board: str
    search_seed: int
    strategy: str
    time_limit: float | None
    max_states: int | None
    max_moves: int | None
    rules: dict[str, Any]
    dict_path: str | None
    dict_sha256: str
    bound: bool = False

    def key(self) -> str:
        """A name for the task, the same for the same task on every run (a Dask key)."""
        digest = hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()
        return f"letterchess-solve-{self.index}-{digest[:16]}"


@functools.lru_cache(maxsize=4)
def _load_dictionary(path: str | None) -> Any:
    from .dictionary import load_dictionary

    # Cached per process: a worker loads its word list once, whatever the number of deals.
    return load_dictionary(path)


def solve_task(task: SolveTask) -> dict[str, Any]:
    """Solve one deal; runs in a worker process (top-level, so that it pickles).

    :returns: ``{"index", "score", "bound", "cleared", "rounds", "seconds", "states", "stopped",
        "record"}`` with the record as a dict.
    :raises SolveInterrupted: when Ctrl-C stopped the search (its game is not kept).
    :raises solver.dictionary.DictionaryError: when this machine's word list differs from the
        run's.
    """
    from .dictionary import DictionaryError
    from .solution import solve

    dictionary = _load_dictionary(task.dict_path)
    if dictionary.sha256 != task.dict_sha256:
        raise DictionaryError(
            f"{task.dict_path or 'the default word list'} on {socket.gethostname()} is not the "
            f"run's word list (sha256 {dictionary.sha256[:12]}..., expected "
            f"{task.dict_sha256[:12]}...)"
        )
    solution = solve(
        task.board,
        task.strategy,
        time_limit=task.time_limit,
        max_moves=task.max_moves,
        seed=task.search_seed,
        dictionary=dictionary,
        rules=Rules.from_dict(task.rules),
        max_states=task.max_states,
        bound=task.bound,
    )
    outcome = solution.outcome
    if outcome.stop_reason == "interrupted":
        raise SolveInterrupted(f"solve {task.index} interrupted")
    result = solution.record.result
    return {
        "index": task.index,
        "score": solution.score,
        "bound": solution.bound,
        "cleared": result.cleared,
        "rounds": result.rounds,
        "seconds": round(outcome.seconds, 3),
        "states": outcome.states,
        "stopped": outcome.stop_reason,
        "record": solution.record.to_dict(),
    }


# ---------------------------------------------------------------------------------------------
# Running tasks: in this process, in a local process pool, or on a Dask cluster


def warm_up(task: SolveTask) -> None:
    """Load what a worker's first solve would otherwise pay for (the word list, numba's cached
    kernels: about a second), so that the seconds recorded for that solve are the search's.

    Solves ``task``'s board greedily with a budget of one state and drops the result; any
    error is left for the real task to report.
    """
    from .solution import solve

    with contextlib.suppress(Exception):
        solve(
            task.board,
            "greedy",
            time_limit=None,
            max_states=1,
            max_moves=task.max_moves,
            dictionary=_load_dictionary(task.dict_path),
            rules=Rules.from_dict(task.rules),
        )


def _init_pool_worker(parent_pid: int, first: SolveTask) -> None:
    # Ctrl-C reaches the whole process group; the main process handles it. A worker ignores it
    # (except during a search, where solve() turns it into an interrupted solve, discarded).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # If the main process is killed outright (SIGKILL), nobody tells the workers: without this
    # watchdog they would wait for tasks forever.
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()
    warm_up(first)


def _watch_parent(parent_pid: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent_pid:
            os._exit(1)


def _in_process(tasks: Iterable[SolveTask]) -> Iterator[dict[str, Any]]:
    warmed = False
    for task in tasks:
        if not warmed:
            warm_up(task)
            warmed = True
        yield solve_task(task)


def _local_pool(tasks: Iterable[SolveTask], workers: int) -> Iterator[dict[str, Any]]:
    queue = iter(tasks)
    first = next(queue, None)
    if first is None:
        return
    queue = itertools.chain([first], queue)
    # "spawn", not "fork": the main process may hold threads (the progress display) and numba
    # state that a fork would copy half-made; it also matches what Dask workers do.
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_pool_worker,
        initargs=(os.getpid(), first),
    )
    pending: set[Future[dict[str, Any]]] = set()

    def top_up() -> None:
        # A few tasks per worker in flight: enough to keep them busy, few enough that a huge N
        # costs no memory and an interruption loses little.
        for task in itertools.islice(queue, 2 * workers - len(pending)):
            pending.add(pool.submit(solve_task, task))

    try:
        top_up()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                pending.discard(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    raise DistributionError(
                        "a worker process died (killed, or out of memory); the results so far "
                        "are kept: run the same command again to solve the rest"
                    ) from None
                yield result
            top_up()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _dask(
    tasks: Iterable[SolveTask], address: str, connect_timeout: float
) -> Iterator[dict[str, Any]]:
    try:
        from distributed import Client, KilledWorker, as_completed
    except ImportError:
        raise DistributionError(
            "--scheduler needs Dask's distributed scheduler: pip install 'letterchess[dask]'"
        ) from None
    try:
        client = Client(address, timeout=connect_timeout, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise DistributionError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        queue = iter(tasks)
        first = next(queue, None)
        if first is None:
            return
        queue = itertools.chain([first], queue)
        # Workers that join (or restart) later pay the warm-up in their first solve instead.
        with contextlib.suppress(Exception):
            client.run(warm_up, first)
        window = max(DASK_MIN_WINDOW, 4 * sum(client.nthreads().values()))
        running = as_completed(loop=client.loop)

        def submit(batch: Iterable[SolveTask]) -> None:
            for task in batch:
                # pure: a task is a function of its inputs (see SolveTask), so the scheduler may
                # run it again on another worker when one dies while running it.
                running.add(client.submit(solve_task, task, key=task.key(), pure=True))

        submit(itertools.islice(queue, window))
        for future in running:
            try:
                result = future.result()
            except KilledWorker as error:
                raise DistributionError(
                    f"the Dask workers running one deal died again and again ({error}); "
                    "the results so far are kept"
                ) from None
            future.release()
            yield result
            submit(itertools.islice(queue, 1))
    finally:
        # Closing releases every future still pending: the scheduler drops those tasks.
        client.close()


def solve_all(
    tasks: Iterable[SolveTask],
    workers: int | None = None,
    scheduler: str | None = None,
    connect_timeout: float = DASK_CONNECT_TIMEOUT,
) -> Iterator[dict[str, Any]]:
    """Solve ``tasks`` and yield each result (:func:`solve_task`) as soon as it is ready, in
    the order they finish.

    :param workers: local worker processes (default: one per core); 0 solves in this process.
    :param scheduler: the address of a Dask scheduler (``tcp://host:8786``); then ``workers``
        is ignored and the cluster's workers solve the deals.
    :raises KeyboardInterrupt: on Ctrl-C, after stopping the workers.
    :raises DistributionError: when a worker process died or the scheduler is unreachable.
    """
    if scheduler is not None:
        source = _dask(tasks, scheduler, connect_timeout)
    elif workers == 0:
        source = _in_process(tasks)
    else:
        source = _local_pool(tasks, workers or os.cpu_count() or 1)
    with contextlib.closing(source):
        try:
            yield from source
        except SolveInterrupted:
            raise KeyboardInterrupt from None


# ---------------------------------------------------------------------------------------------
# The results file


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


def _bound_of(data: dict[str, Any]) -> int | None:
    """The deal's upper bound in a results line, if it has one (runs with ``--bound``)."""
    bound = data.get("bound")
    return bound if isinstance(bound, int) and not isinstance(bound, bool) else None


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
_KIND_NAMES = {int: "an integer", str: "a string", bool: "true or false", dict: "an object"}
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


class ResultsFile:
    """A results file opened for resuming and appending; see the module docstring.

    Use :meth:`open`. The file is locked while open, so two runs cannot write one file.

    :ivar done: the deals already in the file, by index.
    :ivar notes: what :meth:`open` had to say (a damaged last line cut off, repeated deals).
    """

    def __init__(self, path: Path, fd: int, done: dict[int, DealResult], notes: list[str]):
        self.path = path
        self.done = done
        self.notes = notes
        self._fd: int | None = fd

    @classmethod
    def open(cls, path: str | os.PathLike[str], settings: Settings) -> ResultsFile:
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
        return cls(path, fd, scan.done, scan.notes)

    def append(self, line: dict[str, Any]) -> None:
        """Write one line, whole, and make sure it is on disk before returning.

        :raises DistributionError: for a line longer than a results file may hold (the reader
            would refuse it).
        """
        assert self._fd is not None, "the results file is closed"
        data = (json.dumps(line) + "\n").encode()
        if len(data) > MAX_LINE_BYTES:
            raise DistributionError(
                f"the results line of deal {line.get('index')} would be {len(data):,} bytes, more "
                f"than the {MAX_LINE_BYTES:,} a results file may hold; not written"
            )
        _write_line(self._fd, data)

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
    """The lines of ``reader``, at most :data:`MAX_LINE_BYTES` + 1 bytes each: one longer is
    cut there (the caller refuses it), so a file of any size costs bounded memory."""
    while raw := reader.readline(MAX_LINE_BYTES + 1):
        yield raw


def _scan(fd: int, path: Path, settings: Settings) -> _Scan:
    """Read every line of the open results file, one at a time.

    Only the last line, with no end of line, can have been cut short by a killed run, and only
    if it is the beginning of a line of ours (:func:`_cut_short`): that one is marked for
    removal. Any other line that is not a good results line is an error naming it, and the
    file is left as it is: a file whose first line is not ours is not a results file at all;
    a bad line in a results file is for the user to repair.

    :raises ResultsFileError: for a line that is not a good results line (file:line and why).
    :raises SettingsConflict: for a line solved with other settings.
    """
    scan = _Scan()
    offset = 0  # where the current line starts
    repeated = 0
    ours = False  # the first non-blank line was ours: the file is a results file
    with os.fdopen(os.dup(fd), "rb") as reader:
        reader.seek(0)
        for number, raw in enumerate(_lines(reader), start=1):
            start, offset = offset, offset + len(raw)
            whole = raw.endswith(b"\n")
            scan.unterminated = not whole
            if not raw.strip():
                continue
            if len(raw) > MAX_LINE_BYTES:
                data, problem = None, f"longer than {MAX_LINE_BYTES:,} bytes"
            elif not whole and _cut_short(raw):
                # The end of the file (readline stops early only there).
                scan.cut_at = start
                scan.notes.append(
                    f"{path}:{number}: cut short (a run stopped while writing it): removed, "
                    "its deal will be solved again"
                )
                break
            else:
                data, problem = _decode(raw)
            if problem is not None:
                if not ours and not _ours(raw, data):
                    raise ResultsFileError(
                        f"{path}:{number}: {problem}: this is not a results file of letterchess "
                        "distribution; check --out"
                    )
                raise ResultsFileError(f"{path}:{number}: {problem}: repair or remove this line")
            ours = True
            conflicts = settings.conflicts(data["settings"])
            if conflicts:
                raise SettingsConflict(
                    f"{path}:{number}: deals solved with other settings: "
                    f"{'; '.join(conflicts)}. Resume it with its own settings, or choose "
                    "another --out"
                )
            index = data["index"]
            if data["deal_seed"] != deal_seed(settings.seed, index):
                raise ResultsFileError(
                    f"{path}:{number}: deal {index} has seed {data['deal_seed']}, but "
                    f"seed {settings.seed} gives it seed {deal_seed(settings.seed, index)}"
                )
            if index in scan.done:
                repeated += 1
                continue
            scan.done[index] = DealResult(
                index,
                data["deal_seed"],
                data["score"],
                data["cleared"],
                data["rounds"],
                float(data["seconds"]),
                data["states"],
                _bound_of(data),
            )
    if repeated:
        from .render import count_of

        scan.notes.append(
            f"{path}: {count_of(repeated, 'line')} {'repeats' if repeated == 1 else 'repeat'} a "
            "deal already in the file; ignored"
        )
    return scan


# ---------------------------------------------------------------------------------------------
# Statistics


def bootstrap_mean_ci(
    values: Iterable[float],
    seed: int,
    resamples: int = BOOTSTRAP_RESAMPLES,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean of ``values``.

    Each resample draws len(values) values with replacement. Scores take few distinct values,
    so a resample is drawn as the multinomial counts of the distinct values (the same
    distribution as drawing indices, at a cost independent of the sample size).

    :param seed: seeds numpy's PCG64 generator: the same values and seed, the same interval.
    """
    data = np.asarray(list(values), dtype=np.float64)
    if data.size == 0:
        return (math.nan, math.nan)
    distinct, counts = np.unique(data, return_counts=True)
    shares = counts / data.size
    rng = np.random.Generator(np.random.PCG64(seed))
    means = np.empty(resamples)
    # Bound the memory of one block of multinomial draws to about 80 MB.
    block = max(1, 10_000_000 // distinct.size)
    for start in range(0, resamples, block):
        size = min(block, resamples - start)
        draws = rng.multinomial(data.size, shares, size=size)
        means[start : start + size] = draws @ distinct / data.size
    tail = (1 - level) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return float(low), float(high)


@dataclass(frozen=True)
class ScoreSummary:
    """The statistics ``letterchess distribution`` prints.

    :ivar percentiles: ``{5: ..., 25: ..., ...}`` (numpy's default, linear interpolation).
    :ivar above_high: share of deals scoring above :data:`HIGH_SCORE`.
    """

    count: int
    mean: float
    ci_low: float
    ci_high: float
    percentiles: dict[int, float]
    clear_rate: float
    above_high: float
    mean_rounds: float
    mean_seconds: float
    seed: int
    resamples: int = BOOTSTRAP_RESAMPLES
    mean_bound: float | None = None
    mean_gap: float | None = None


def summarise(results: list[DealResult], seed: int) -> ScoreSummary:
    """Statistics of solved deals; the bootstrap is seeded with ``seed``."""
    if not results:
        raise ValueError("no deal to summarise")
    scores = np.array([r.score for r in results], dtype=np.float64)
    low, high = bootstrap_mean_ci(scores, seed)
    bounds = [r.bound for r in results if r.bound is not None]
    gaps = [r.score / r.bound for r in results if r.bound is not None and r.bound > 0]
    values = np.percentile(scores, PERCENTILES)
    return ScoreSummary(
        count=len(results),
        mean=float(scores.mean()),
        ci_low=low,
        ci_high=high,
        percentiles={p: float(v) for p, v in zip(PERCENTILES, values, strict=True)},
        clear_rate=sum(r.cleared for r in results) / len(results),
        above_high=float((scores > HIGH_SCORE).mean()),
        mean_rounds=float(np.mean([r.rounds for r in results])),
        mean_seconds=float(np.mean([r.seconds for r in results])),
        seed=seed,
        # Only when every deal has its bound (a run with --bound throughout).
        mean_bound=float(np.mean(bounds)) if len(bounds) == len(results) else None,
        mean_gap=float(np.mean(gaps)) if len(bounds) == len(results) and gaps else None,
    )


def summary_lines(summary: ScoreSummary) -> list[str]:
    """The summary as printed, one statistic per line."""
    n = summary.count
    percentiles = "  ".join(f"{p}th {v:g}" for p, v in summary.percentiles.items())
    lines = [
        f"mean score   {summary.mean:.1f}  (95 % CI {summary.ci_low:.1f} to {summary.ci_high:.1f},"
        f" percentile bootstrap, {summary.resamples:,} resamples, seed {summary.seed})",
        f"percentiles  {percentiles}",
        f"cleared      {100 * summary.clear_rate:.1f} % ({round(summary.clear_rate * n)} of {n})",
        f"above {HIGH_SCORE}    {100 * summary.above_high:.1f} % "
        f"({round(summary.above_high * n)} of {n})",
        f"mean rounds  {summary.mean_rounds:.2f}",
        f"mean search  {summary.mean_seconds:.3f} s per deal",
    ]
    if summary.mean_bound is not None:
        gap = "" if summary.mean_gap is None else f"; mean score / bound {summary.mean_gap:.3f}"
        lines.append(f"mean bound   {summary.mean_bound:.1f}{gap}")
    return lines


def plot_histogram(
    scores: list[int], summary: ScoreSummary, title: str, path: str | os.PathLike[str]
) -> None:
    """Draw a histogram of ``scores`` with the mean and the percentiles marked, as a PNG.

    Uses matplotlib's Agg canvas directly (no pyplot, no display, no global backend state).
    The file is written whole or not at all (:func:`solver.outputs.write_atomically`).

    :raises OSError: when the file cannot be written.
    """
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    data = np.asarray(scores)
    low, high = int(data.min()), int(data.max())
    # Bins of whole points, at least 1 wide, about 40 of them over the range.
    width = max(1, math.ceil((high - low + 1) / 40))
    edges = np.arange(low, high + width + 1, width) - 0.5
    figure = Figure(figsize=(10, 5), layout="constrained")
    axes = figure.add_subplot()
    axes.hist(data, bins=edges, color="#8fb3d9", edgecolor="#4a6f99")
    axes.axvline(
        summary.mean,
        color="black",
        linewidth=2,
        label=f"mean {summary.mean:.1f} (95 % CI {summary.ci_low:.1f}-{summary.ci_high:.1f})",
    )
    styles = {5: ":", 25: "--", 50: "-", 75: "--", 95: ":"}
    for p, value in summary.percentiles.items():
        axes.axvline(
            value, color="#c0392b", linestyle=styles[p], linewidth=1.4, label=f"{p}th pct {value:g}"
        )
    if low <= HIGH_SCORE <= high:
        axes.axvline(
            HIGH_SCORE,
            color="grey",
            linewidth=1,
            label=f"{HIGH_SCORE}: {100 * summary.above_high:.1f} % of deals above",
        )
    axes.set_xlabel("final score")
    axes.set_ylabel("deals")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_title(title, fontsize=10)
    # Beside the plot: vertical lines cross the whole height, no corner inside is free.
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    image = io.BytesIO()
    figure.savefig(image, dpi=110, format="png")
    write_atomically(path, image.getvalue())


# ---------------------------------------------------------------------------------------------
# Progress


class DealProgress:
    """Progress of many solves on standard error: a rich progress bar (done of total, elapsed,
    ETA, running mean score) on a terminal, plain log lines otherwise.

    Plain lines come one per finished solve up to 100 solves, then about every 1 % of the run
    or every 10 seconds, whichever comes first (and always for the last one).

    :param scores: the scores of solves done before this run (counted in the mean).
    :param enabled: show anything at all (False for ``--quiet``).
    """

    def __init__(self, total: int, scores: Iterable[int], label: str, enabled: bool = True):
        from rich.console import Console

        self.total = total
        self._scores = list(scores)
        self._label = label
        self._console = Console(stderr=True)
        self._enabled = enabled
        self._bar: Progress | None = None
        self._task: Any = None
        self._step = 1 if total <= 100 else total // 100
        self._last_logged = (len(self._scores), time.monotonic())

    @property
    def mean(self) -> float | None:
        return sum(self._scores) / len(self._scores) if self._scores else None

    def _mean_text(self) -> str:
        mean = self.mean
        return "-" if mean is None else f"{mean:.1f}"

    def __enter__(self) -> DealProgress:
        if self._enabled and self._console.is_terminal:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                TextColumn("mean score [bold green]{task.fields[mean]}"),
                console=self._console,
            )
            self._bar.start()
            self._task = self._bar.add_task(
                self._label, total=self.total, completed=len(self._scores), mean=self._mean_text()
            )
        return self

    def advance(self, score: int, what: str) -> None:
        """Count one more solve; ``what`` describes it in plain log lines."""
        self._scores.append(score)
        done = len(self._scores)
        if self._bar is not None:
            self._bar.update(self._task, completed=done, mean=self._mean_text())
            return
        if not self._enabled:
            return
        last_done, last_time = self._last_logged
        now = time.monotonic()
        if done - last_done >= self._step or now - last_time >= 10 or done == self.total:
            print(
                f"[{done}/{self.total}] {what}; mean score {self._mean_text()}",
                file=sys.stderr,
                flush=True,
            )
            self._last_logged = (done, now)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()


# ---------------------------------------------------------------------------------------------
# A whole run


@dataclass
class DistributionRun:
    """The outcome of :func:`run_distribution`.

    :ivar results: the deals 0 to n-1, by index (all of them unless interrupted).
    :ivar solved: how many deals this run solved; ``resumed``: how many were in the file.
    :ivar beyond: deals in the file with an index of n or more (from a run with a larger n),
        kept in the file but not in ``results``.
    """

    path: Path
    n: int
    settings: Settings
    results: list[DealResult]
    solved: int
    resumed: int
    beyond: int


def make_task(
    settings: Settings, index: int, dict_path: str | None, board: str | None = None
) -> SolveTask:
    """The task of deal ``index`` of a distribution run (its board is computed unless given)."""
    from .board import deal

    seed = deal_seed(settings.seed, index)
    return SolveTask(
        index=index,
        board=board if board is not None else deal(seed).to_line(),
        search_seed=seed,
        strategy=settings.strategy,
        time_limit=settings.time_limit,
        max_states=settings.max_states,
        max_moves=settings.max_moves,
        rules=settings.rules.to_dict(),
        dict_path=dict_path,
        dict_sha256=settings.dictionary["sha256"],
        bound=settings.bound,
    )


def run_distribution(
    out: str | os.PathLike[str],
    n: int,
    settings: Settings,
    *,
    dict_path: str | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    notify: Callable[[str], None] | None = None,
    on_line: Callable[[dict[str, Any]], None] | None = None,
    connect_timeout: float = DASK_CONNECT_TIMEOUT,
) -> DistributionRun:
    """Solve deals 0 to ``n``-1 of ``settings.seed`` into the results file ``out``, skipping
    those already there.

    :param dict_path: the word list file of ``settings.dictionary`` (``None``: the default);
        Dask workers must find it at the same path.
    :param workers: local worker processes (default one per core; 0: in this process).
    :param scheduler: a Dask scheduler address, to solve on its cluster instead.
    :param notify: receives messages for the user (resuming, a damaged line cut off).
    :param on_line: called with each results line after it is written.
    :raises KeyboardInterrupt: on Ctrl-C; every line written so far is kept.
    """
    from .render import count_of

    notify = notify or (lambda message: print(message, file=sys.stderr, flush=True))
    path = Path(out)
    absolute_dict = str(Path(dict_path).resolve()) if dict_path is not None else None
    settings_dict = settings.to_dict()
    with ResultsFile.open(path, settings) as results_file:
        for note in results_file.notes:
            notify(note)
        done = results_file.done
        resumed = sum(1 for index in done if index < n)
        beyond = len(done) - resumed
        todo = [index for index in range(n) if index not in done]
        if not todo:
            notify(f"{path}: already holds every deal asked for ({count_of(n, 'deal')})")
        elif resumed:
            notify(
                f"{path}: {resumed:,} of {count_of(n, 'deal')} already solved; solving the other "
                f"{len(todo):,}"
            )
        tasks = (make_task(settings, index, absolute_dict) for index in todo)
        solved = 0
        scores = [done[index].score for index in range(n) if index in done]
        results = solve_all(tasks, workers, scheduler, connect_timeout)
        with DealProgress(n, scores, "deals", enabled=progress) as bar, contextlib.closing(results):
            for result in results:
                index = result["index"]
                seed = deal_seed(settings.seed, index)
                line = {
                    "format": FORMAT,
                    "index": index,
                    "deal_seed": seed,
                    "board": result["record"]["board"],
                    **{key: result[key] for key in ("score", "cleared", "rounds", "seconds")},
                    "states": result["states"],
                    "stopped": result["stopped"],
                    "bound": result["bound"],
                    "settings": settings_dict,
                    "record": result["record"],
                }
                results_file.append(line)
                done[index] = DealResult(
                    index,
                    seed,
                    result["score"],
                    result["cleared"],
                    result["rounds"],
                    result["seconds"],
                    result["states"],
                    result["bound"],
                )
                solved += 1
                bar.advance(result["score"], f"deal {index} (seed {seed}): score {result['score']}")
                if on_line is not None:
                    on_line(line)
    finished = [done[index] for index in range(n) if index in done]
    return DistributionRun(path, n, settings, finished, solved, resumed, beyond)

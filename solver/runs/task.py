"""One solve of a run: the task a worker gets (:class:`SolveTask`), the function it runs
(:func:`solve_task`) and what it hands back (:class:`SolveResult`).

A task is a pure function of its fields (given the same letterchess version and a state
budget), so Dask may run it again elsewhere when a worker dies. Both are plain dataclasses of
plain values: they pickle, to a local worker process or across a cluster.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import socket
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..config import WORKER_DICTIONARIES
from ..rules import Rules

if TYPE_CHECKING:
    from ..dictionary import Dictionary
    from .settings import RunSettings


class SolveInterrupted(Exception):
    """A solve stopped by Ctrl-C: its game is not the one the budget would give; not kept."""


@dataclass(frozen=True)
class SolveTask:
    """Everything a worker needs to solve one deal.

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

    @classmethod
    def of_run(
        cls,
        settings: RunSettings,
        *,
        index: int,
        board: str,
        strategy: str,
        search_seed: int,
        dict_path: str | None,
    ) -> SolveTask:
        """The task of one solve of a run: ``strategy`` on ``board``, with the run's budget,
        move limit, rules, word list and bound."""
        return cls(
            index=index,
            board=board,
            search_seed=search_seed,
            strategy=strategy,
            time_limit=settings.budget.time_limit,
            max_states=settings.budget.max_states,
            max_moves=settings.max_moves,
            rules=settings.rules.to_dict(),
            dict_path=dict_path,
            dict_sha256=settings.dictionary["sha256"],
            bound=settings.bound,
        )

    def key(self) -> str:
        """A name for the task, the same for the same task on every run (a Dask key)."""
        digest = hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()
        return f"letterchess-solve-{self.index}-{digest[:16]}"


@dataclass(frozen=True)
class SolveResult:
    """One solved deal, as a worker hands it back.

    :ivar index: the task's :attr:`SolveTask.index`.
    :ivar bound: the deal's upper bound, when the task asked for it.
    :ivar seconds: the search's, rounded to milliseconds.
    :ivar stopped: why the search stopped: ``finished`` or ``budget``.
    :ivar record: the game record, as a dict (``letterchess/record-1``).
    """

    index: int
    score: int
    bound: int | None
    cleared: bool
    rounds: int
    seconds: float
    states: int
    stopped: str
    record: dict[str, Any]


@functools.lru_cache(maxsize=WORKER_DICTIONARIES)
def _load_dictionary(path: str | None) -> Dictionary:
    from ..dictionary import load_dictionary

    # Cached per process: a worker loads its word list once, whatever the number of deals.
    return load_dictionary(path)


def solve_task(task: SolveTask) -> SolveResult:
    """Solve one deal; runs in a worker process (top-level, so that it pickles).

    :raises SolveInterrupted: when Ctrl-C stopped the search (its game is not kept).
    :raises solver.dictionary.DictionaryError: when this machine's word list differs from the
        run's.
    """
    from ..dictionary import DictionaryError
    from ..solution import solve

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
    assert result is not None
    return SolveResult(
        index=task.index,
        score=solution.score,
        bound=solution.bound,
        cleared=result.cleared,
        rounds=result.rounds,
        seconds=round(outcome.seconds, 3),
        states=outcome.states,
        stopped=outcome.stop_reason,
        record=solution.record.to_dict(),
    )


def warm_up(task: SolveTask) -> None:
    """Load what a worker's first solve would otherwise pay for (the word list, numba's cached
    kernels: about a second), so that the seconds recorded for that solve are the search's.

    Solves ``task``'s board greedily with a budget of one state and drops the result; any
    error is left for the real task to report.
    """
    from ..solution import solve

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

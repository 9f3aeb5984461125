"""Running solve tasks: in this process, in a pool of local worker processes, or on a Dask
cluster (:mod:`solver.runs.cluster`), the results yielded as they finish (:func:`solve_all`).
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Generator, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from ..config import DASK_CONNECT_TIMEOUT, PARENT_CHECK_SECONDS, TASKS_PER_WORKER
from .task import SolveInterrupted, SolveResult, SolveTask, solve_task, warm_up


class RunError(Exception):
    """A run that cannot go on: a worker process died, the scheduler cannot be reached..."""


def solve_all(
    tasks: Iterable[SolveTask],
    workers: int | None = None,
    scheduler: str | None = None,
    connect_timeout: float = DASK_CONNECT_TIMEOUT,
) -> Generator[SolveResult, None, None]:
    """Solve ``tasks`` and yield each result (:func:`solve_task`) as soon as it is ready, in
    the order they finish.

    :param workers: local worker processes (default: one per core); 0 solves in this process.
    :param scheduler: the address of a Dask scheduler (``tcp://host:8786``); then ``workers``
        is ignored and the cluster's workers solve the deals.
    :raises KeyboardInterrupt: on Ctrl-C, after stopping the workers.
    :raises RunError: when a worker process died or the scheduler is unreachable.
    """
    if scheduler is not None:
        from .cluster import solve_on_cluster

        source = solve_on_cluster(tasks, scheduler, connect_timeout)
    elif workers == 0:
        source = _in_process(tasks)
    else:
        source = _local_pool(tasks, workers or os.cpu_count() or 1)
    with contextlib.closing(source):
        try:
            yield from source
        except SolveInterrupted:
            raise KeyboardInterrupt from None


def _in_process(tasks: Iterable[SolveTask]) -> Generator[SolveResult, None, None]:
    warmed = False
    for task in tasks:
        if not warmed:
            warm_up(task)
            warmed = True
        yield solve_task(task)


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
        time.sleep(PARENT_CHECK_SECONDS)
        if os.getppid() != parent_pid:
            os._exit(1)


def _local_pool(tasks: Iterable[SolveTask], workers: int) -> Generator[SolveResult, None, None]:
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
    pending: set[Future[SolveResult]] = set()

    def top_up() -> None:
        for task in itertools.islice(queue, TASKS_PER_WORKER * workers - len(pending)):
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
                    raise RunError(
                        "a worker process died (killed, or out of memory); the results so far "
                        "are kept: run the same command again to solve the rest"
                    ) from None
                yield result
            top_up()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)

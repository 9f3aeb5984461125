"""Solve tasks on a Dask distributed cluster (``letterchess distribution --scheduler``).

Each task is submitted as pure (:class:`~solver.runs.task.SolveTask` is a function of its
fields), so the scheduler runs it again on another worker when one dies while running it. Only
a window of tasks is submitted at a time, so a run of a million deals costs the scheduler no
more memory than one of a thousand.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Generator, Iterable

from ..config import DASK_MIN_WINDOW, DASK_TASKS_PER_THREAD
from .executors import RunError
from .task import SolveResult, SolveTask, solve_task, warm_up


def solve_on_cluster(
    tasks: Iterable[SolveTask], address: str, connect_timeout: float
) -> Generator[SolveResult, None, None]:
    """Solve ``tasks`` on the cluster of the scheduler at ``address``; yield the results as
    they finish.

    :raises RunError: without Dask installed, when the scheduler cannot be reached, or when the
        workers running one task died again and again.
    """
    try:
        from distributed import Client, KilledWorker, as_completed
    except ImportError:
        raise RunError(
            "--scheduler needs Dask's distributed scheduler: pip install 'letterchess[dask]'"
        ) from None
    try:
        client = Client(address, timeout=connect_timeout, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise RunError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        queue = iter(tasks)
        first = next(queue, None)
        if first is None:
            return
        queue = itertools.chain([first], queue)
        # Workers that join (or restart) later pay the warm-up in their first solve instead.
        with contextlib.suppress(Exception):
            client.run(warm_up, first)
        threads = sum(client.nthreads().values())
        window = max(DASK_MIN_WINDOW, DASK_TASKS_PER_THREAD * threads)
        running = as_completed(loop=client.loop)

        def submit(batch: Iterable[SolveTask]) -> None:
            for task in batch:
                running.add(client.submit(solve_task, task, key=task.key(), pure=True))

        submit(itertools.islice(queue, window))
        for future in running:
            try:
                result = future.result()
            except KilledWorker as error:
                raise RunError(
                    f"the Dask workers running one deal died again and again ({error}); "
                    "the results so far are kept"
                ) from None
            future.release()
            yield result
            submit(itertools.islice(queue, 1))
    finally:
        # Closing releases every future still pending: the scheduler drops those tasks.
        client.close()

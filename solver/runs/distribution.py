"""Score distributions: solve many random deals, on this machine or on a Dask cluster, into a
results file that a later run resumes, and summarise the scores (``letterchess distribution``).

Deal *i* of a run is the standard deal of seed ``S * 1_000_003 + i``, searched with that seed
(:mod:`solver.runs.deals`). Each deal is one task (:mod:`solver.runs.task`), solved by local
worker processes or the workers of a Dask cluster (:mod:`solver.runs.executors`); its line is
written to the results file as soon as it is solved (:mod:`solver.runs.results_file`, which
also reads a file back to resume it). The summary is :func:`solver.runs.statistics.summarise`.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import DASK_CONNECT_TIMEOUT
from ..progress import DealProgress
from ..render import count_of
from .deals import deal_seed
from .executors import solve_all
from .results_file import DealResult, ResultsFile
from .settings import RunSettings
from .statistics import HIGH_SCORE, ScoreSummary
from .task import SolveResult, SolveTask


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
    settings: RunSettings
    results: list[DealResult]
    solved: int
    resumed: int
    beyond: int

    def header(self) -> list[str]:
        """The lines printed before the summary: the deals, the settings, and where the deals
        came from."""
        seed, n = self.settings.seed, self.n
        first, last = deal_seed(seed, 0), deal_seed(seed, n - 1)
        seeds = f"seed {first}" if n == 1 else f"seeds {first} to {last}"
        lines = [
            f"{count_of(n, 'deal')} ({seeds}): {self.settings.describe()}; "
            f"{self.solved:,} solved now, {self.resumed:,} from {self.path}"
        ]
        if self.beyond:
            lines.append(
                f"({count_of(self.beyond, 'more deal')} in {self.path}, beyond --n {n}, "
                f"{'is' if self.beyond == 1 else 'are'} not counted)"
            )
        return lines

    def plot_title(self, summary: ScoreSummary) -> str:
        """The title of the histogram of the run's scores."""
        return (
            f"Letter Chess: {self.settings.describe()}\n{count_of(self.n, 'deal')} "
            f"(seed {self.settings.seed}), {100 * summary.clear_rate:.1f} % cleared"
        )


def deal_task(
    settings: RunSettings, index: int, dict_path: str | None, board: str | None = None
) -> SolveTask:
    """The task of deal ``index`` of a distribution run (its board is computed unless given)."""
    from ..board import deal

    seed = deal_seed(settings.seed, index)
    return SolveTask.of_run(
        settings,
        index=index,
        board=board if board is not None else deal(seed).to_line(),
        strategy=settings.strategy,
        search_seed=seed,
        dict_path=dict_path,
    )


def run_distribution(
    out: str | os.PathLike[str],
    n: int,
    settings: RunSettings,
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

    :param settings: the run's, with one strategy (canonical: :func:`canonical_strategy`).
    :param dict_path: the word list file of ``settings.dictionary`` (``None``: the default);
        Dask workers must find it at the same path.
    :param workers: local worker processes (default one per core; 0: in this process).
    :param scheduler: a Dask scheduler address, to solve on its cluster instead.
    :param notify: receives messages for the user (resuming, a damaged line cut off).
    :param on_line: called with each results line after it is written.
    :raises KeyboardInterrupt: on Ctrl-C; every line written so far is kept.
    :raises solver.runs.results_file.ResultsFileError: ``SettingsConflict``: for a results file
        that cannot be resumed.
    :raises solver.runs.executors.RunError: when a worker died or the scheduler is unreachable.
    """
    notify = notify or (lambda message: print(message, file=sys.stderr, flush=True))
    path = Path(out)
    absolute_dict = str(Path(dict_path).resolve()) if dict_path is not None else None
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
        scores = [done[index].score for index in range(n) if index in done]
        tasks = (deal_task(settings, index, absolute_dict) for index in todo)
        results = solve_all(tasks, workers, scheduler, connect_timeout)
        with DealProgress(n, scores, "deals", enabled=progress) as bar:
            solved = _append_all(results_file, results, bar, on_line)
    finished = [done[index] for index in range(n) if index in done]
    return DistributionRun(path, n, settings, finished, solved, resumed, beyond)


def _append_all(
    results_file: ResultsFile,
    results: Generator[SolveResult, None, None],
    bar: DealProgress,
    on_line: Callable[[dict[str, Any]], None] | None,
) -> int:
    """Append each result to ``results_file`` as it comes; returns how many there were."""
    solved = 0
    with contextlib.closing(results):
        for result in results:
            line = results_file.append(result)
            solved += 1
            seed = deal_seed(results_file.settings.seed, result.index)
            bar.advance(result.score, f"deal {result.index} (seed {seed}): score {result.score}")
            if on_line is not None:
                on_line(line)
    return solved


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

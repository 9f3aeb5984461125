"""Progress displays on standard error.

* :class:`SearchProgress`, for one search (``letterchess solve``): a live status line, the best
  score so far, states explored, elapsed time. Shown only on a terminal (never in pipes, files
  or CI logs), and erased when the search ends, so that the game printed afterwards stands
  alone.
* :class:`DealProgress`, for runs of many solves (``bench``, ``distribution``): a progress bar
  on a terminal, plain log lines elsewhere.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.live import Live
from rich.text import Text

from .config import PROGRESS_EVERY_SOLVE_UP_TO, PROGRESS_LOG_SECONDS

if TYPE_CHECKING:
    from rich.progress import Progress

    from .search.base import SearchContext


class _Status:
    """What the live display shows; rich calls ``__rich__`` on every refresh."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.context: SearchContext | None = None
        #: What the solve is doing: only "searching" shows the search's figures.
        self.phase = "starting"

    def __rich__(self) -> Text:
        context = self.context
        if context is None or self.phase != "searching":
            best = ""
            if context is not None and context.best_score is not None:
                best = f"   best {context.best_score}"
            return Text(f"{self.label}: {self.phase}...{best}")
        elapsed = context.elapsed
        limit = f" / {context.time_limit:g} s" if context.time_limit is not None else " s"
        budget = f" / {context.max_states:,}" if context.max_states is not None else ""
        best = "-" if context.best_score is None else str(context.best_score)
        rate = context.states / elapsed if elapsed > 0 else 0.0
        return Text.assemble(
            (f"{self.label}  ", "bold"),
            "best ",
            (best, "bold green"),
            f"   states {context.states:,}{budget} ({rate:,.0f}/s)",
            f"   {elapsed:.1f}{limit}   (Ctrl-C: stop and keep the best)",
        )


class _Display:
    """A display on standard error, started by ``__enter__`` (when it shows at all) and
    stopped on leaving the ``with`` block."""

    _shown: Live | Progress | None = None

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._shown is not None:
            self._shown.stop()


class SearchProgress(_Display):
    """Context manager showing a live status line while a search runs.

    Pass :meth:`attach` as ``on_context`` to :func:`solver.solve`.

    :param enabled: show anything at all (False for ``--quiet``); even when True nothing is
        shown unless standard error is a terminal.
    """

    def __init__(self, label: str, enabled: bool = True) -> None:
        self._console = Console(stderr=True)
        self._status = _Status(label)
        self.enabled = enabled and self._console.is_terminal

    def attach(self, context: SearchContext) -> None:
        self._status.context = context

    def phase(self, phase: str) -> None:
        """Pass as ``on_phase`` to :func:`solver.solve`: what the status line says."""
        self._status.phase = phase

    def __enter__(self) -> SearchProgress:
        if self.enabled:
            self._shown = Live(
                self._status, console=self._console, refresh_per_second=4, transient=True
            )
            self._shown.start()
        return self


class DealProgress(_Display):
    """Progress of many solves on standard error: a rich progress bar (done of total, elapsed,
    ETA, running mean score) on a terminal, plain log lines otherwise.

    Plain lines come one per finished solve up to 100 solves, then about every 1 % of the run
    or every 10 seconds, whichever comes first (and always for the last one): see
    :mod:`solver.config`.

    :param scores: the scores of solves done before this run (counted in the mean).
    :param enabled: show anything at all (False for ``--quiet``).
    """

    def __init__(self, total: int, scores: Iterable[int], label: str, enabled: bool = True) -> None:
        self.total = total
        self._scores = list(scores)
        self._label = label
        self._console = Console(stderr=True)
        self._enabled = enabled
        self._bar: Progress | None = None
        self._task: Any = None
        # About every 1 % of the run, but every solve in a short one.
        self._step = 1 if total <= PROGRESS_EVERY_SOLVE_UP_TO else total // 100
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

            self._bar = self._shown = Progress(
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
        due = now - last_time >= PROGRESS_LOG_SECONDS
        if done - last_done >= self._step or due or done == self.total:
            print(
                f"[{done}/{self.total}] {what}; mean score {self._mean_text()}",
                file=sys.stderr,
                flush=True,
            )
            self._last_logged = (done, now)

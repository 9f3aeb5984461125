"""Live progress of a search on a terminal: best score so far, states explored, elapsed time.

Shown on standard error, only when it is a terminal (never in pipes, files or CI logs), and
erased when the search ends, so that the game printed afterwards stands alone.
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.live import Live
from rich.text import Text

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


class SearchProgress:
    """Context manager showing a live status line while a search runs.

    Pass :meth:`attach` as ``on_context`` to :func:`solver.solve`.

    :param enabled: show anything at all (False for ``--quiet``); even when True nothing is
        shown unless standard error is a terminal.
    """

    def __init__(self, label: str, enabled: bool = True) -> None:
        self._console = Console(stderr=True)
        self._status = _Status(label)
        self._live: Live | None = None
        self.enabled = enabled and self._console.is_terminal

    def attach(self, context: SearchContext) -> None:
        self._status.context = context

    def phase(self, phase: str) -> None:
        """Pass as ``on_phase`` to :func:`solver.solve`: what the status line says."""
        self._status.phase = phase

    def __enter__(self) -> SearchProgress:
        if self.enabled:
            self._live = Live(
                self._status, console=self._console, refresh_per_second=4, transient=True
            )
            self._live.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._live is not None:
            self._live.stop()

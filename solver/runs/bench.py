"""Comparing search strategies on the same deals (``letterchess bench``).

Every deal is solved with every strategy, in a local process pool
(:func:`solver.runs.executors.solve_all`). Per strategy: the statistics of
:class:`solver.runs.statistics.StrategyStats`; then each strategy is compared with the first
one, deal by deal (a paired comparison: both solved the same deals): the mean of the score
differences with a 95 % percentile bootstrap confidence interval (10,000 resamples of the deals,
numpy PCG64 seeded with the run's seed), and how many deals it won, tied and lost.

Deals: the ``*.txt`` boards of a folder (by default the repository's ``benchmarks/boards``, 20
deals), searched with the run's seed; or N random deals, those of ``letterchess distribution``
with the same seed (:func:`solver.runs.deals.deal_seed`), each searched with its deal seed.

Ctrl-C keeps what is finished: the report then covers the deals that every strategy finished
(:class:`BenchInterrupted`).
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..config import BOOTSTRAP_RESAMPLES
from ..progress import DealProgress
from .deals import Deal
from .executors import solve_all
from .settings import RunSettings, canonical_strategy
from .statistics import Comparison, StrategyStats, compare, strategy_stats
from .task import SolveResult, SolveTask

FORMAT = "letterchess/bench-1"


class BenchError(ValueError):
    """A bench that cannot run as asked (a bad strategy list)."""


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a bench; ``report`` covers the deals every strategy had finished (a
    :class:`BenchReport` with ``interrupted`` set), or is ``None`` when there was none.

    A :class:`KeyboardInterrupt`, so that code catching that still catches it."""

    def __init__(self, report: BenchReport | None):
        super().__init__()
        self.report = report


def split_strategies(text: str) -> list[str]:
    """Split a comma-separated list of strategy specs, whose own parameters hold commas.

    A comma starts a new strategy unless the next item is a parameter: an item with ``=`` and
    no ``:`` before it. So ``greedy,beam:width=50,growth=3,dfs`` is ``greedy``,
    ``beam:width=50,growth=3`` and ``dfs``.

    :raises BenchError: for an empty item, or a parameter with no strategy before it.
    """
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise BenchError(f"strategy list {text!r} has an empty item")
        head, equals, _ = item.partition("=")
        if equals and ":" not in head:
            if not specs:
                raise BenchError(f"strategy list {text!r}: {item!r} has no strategy before it")
            # A parameter of the strategy before it; its spec gets a ':' if it had none yet.
            specs[-1] += ("," if ":" in specs[-1] else ":") + item
        else:
            specs.append(item)
    return specs


def strategy_list(text: str) -> list[str]:
    """The strategy specs of ``--strategies`` (:func:`split_strategies`), each one checked.

    :raises BenchError: for a bad list, a strategy named twice, or a bad spec (named).
    """
    from ..search import StrategyError

    specs = split_strategies(text)
    if len(set(specs)) < len(specs):
        raise BenchError(f"strategy list {text!r} names a strategy twice")
    for spec in specs:
        try:
            canonical_strategy(spec)
        except StrategyError as error:
            raise BenchError(f"{spec!r}: {error}") from None
    return specs


@dataclass(frozen=True)
class Solve:
    """One deal solved by one strategy.

    :ivar deal: the deal's name; ``deal_seed``: its seed (``None`` for a board file).
    :ivar strategy: the strategy's spec, as the user wrote it.
    """

    deal: str
    deal_seed: int | None
    strategy: str
    result: SolveResult = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """As the JSON report and the CSV rows have it: the deal and the strategy, then the
        result's figures and the record."""
        figures = asdict(self.result)
        del figures["index"]  # the bench's own numbering
        return {
            "deal": self.deal,
            "deal_seed": self.deal_seed,
            "strategy": self.strategy,
            **figures,
        }


@dataclass
class BenchReport:
    """Everything a bench found: the solves, the statistics and the comparisons.

    :ivar interrupted: Ctrl-C stopped the bench: ``deals`` are those every strategy finished,
        of the ``planned`` deals.
    """

    settings: RunSettings
    deals: list[Deal]
    solves: list[Solve]
    stats: list[StrategyStats]
    comparisons: list[Comparison]
    interrupted: bool = False
    planned: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "settings": self.settings.to_dict(),
            "interrupted": self.interrupted,
            "planned_deals": self.planned,
            "deals": [asdict(deal) for deal in self.deals],
            "bootstrap": {"resamples": BOOTSTRAP_RESAMPLES, "seed": self.settings.seed},
            "stats": [asdict(stats) for stats in self.stats],
            "comparisons": [asdict(comparison) for comparison in self.comparisons],
            "solves": [solve.to_dict() for solve in self.solves],
        }


def run_bench(
    deals: list[Deal],
    settings: RunSettings,
    *,
    dict_path: str | None = None,
    workers: int | None = None,
    progress: bool = True,
) -> BenchReport:
    """Solve every deal with every strategy and compute the statistics.

    :param workers: local worker processes (default one per core; 0: in this process).
    :raises solver.search.StrategyError: for a bad strategy spec.
    :raises BenchInterrupted: on Ctrl-C, with the report of the deals finished so far.
    """
    tasks = _tasks(deals, settings, dict_path)
    found: dict[int, Solve] = {}
    results = solve_all(tasks, workers)
    try:
        with DealProgress(len(tasks), [], "solves", enabled=progress) as bar, closing(results):
            for result in results:
                s, d = divmod(result.index, len(deals))
                solve = Solve(deals[d].name, deals[d].deal_seed, settings.strategies[s], result)
                found[result.index] = solve
                bar.advance(result.score, f"{solve.strategy} on {solve.deal}: score {result.score}")
    except KeyboardInterrupt:
        # Keep what is finished: the deals every strategy solved (a paired comparison needs
        # each deal solved by all of them).
        strategies = range(len(settings.strategies))
        whole = [
            d for d in range(len(deals)) if all(s * len(deals) + d in found for s in strategies)
        ]
        report = _report(settings, deals, found, whole, interrupted=True) if whole else None
        raise BenchInterrupted(report) from None
    return _report(settings, deals, found, list(range(len(deals))))


def _tasks(deals: list[Deal], settings: RunSettings, dict_path: str | None) -> list[SolveTask]:
    """The solves of a bench, numbered strategy-major (``strategy * len(deals) + deal``) and
    listed deal-major, so that partial progress covers every strategy evenly (and an
    interrupted bench has whole deals to report)."""
    absolute_dict = str(Path(dict_path).resolve()) if dict_path is not None else None
    canonical = [canonical_strategy(spec) for spec in settings.strategies]
    tasks = [
        SolveTask.of_run(
            settings,
            index=s * len(deals) + d,
            board=deal.board,
            strategy=spec,
            search_seed=deal.deal_seed if deal.deal_seed is not None else settings.seed,
            dict_path=absolute_dict,
        )
        for s, spec in enumerate(canonical)
        for d, deal in enumerate(deals)
    ]
    tasks.sort(key=lambda task: (task.index % len(deals), task.index))
    return tasks


def _report(
    settings: RunSettings,
    deals: list[Deal],
    found: dict[int, Solve],
    kept: list[int],
    interrupted: bool = False,
) -> BenchReport:
    """The report on the deals numbered ``kept``, each solved by every strategy; ``found``
    holds the solves by task index (``strategy * len(deals) + deal``)."""
    by_strategy = [
        [found[s * len(deals) + d] for d in kept] for s in range(len(settings.strategies))
    ]
    results = [[solve.result for solve in rows] for rows in by_strategy]
    specs = settings.strategies
    stats = [strategy_stats(spec, rows) for spec, rows in zip(specs, results, strict=True)]
    comparisons = [
        compare(specs[0], results[0], spec, rows, settings.seed)
        for spec, rows in zip(specs[1:], results[1:], strict=True)
    ]
    return BenchReport(
        settings,
        [deals[d] for d in kept],
        [solve for rows in by_strategy for solve in rows],
        stats,
        comparisons,
        interrupted,
        planned=len(deals),
    )
